/* A frame file's declaration (its "resources" and "commands") declared
 * into a graph, in the order it was written (frame_load.c reads the rest
 * and makes the graph). Resource indices
 * become the handles the declaration returns; a reference to a resource
 * that does not exist, comes later, or is of the wrong kind is refused
 * with its path, and so is any call the graph refuses, with the graph's
 * own message.
 */
#include "frame_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the reader knows of each declared resource. */
typedef struct loaded_resource {
    bool is_texture;
    uint32_t id;                      /* its handle */
    VkFormat format;
} loaded_resource;

typedef struct loader {
    rgf__reader r;
    rg_graph *g;
    loaded_resource *res;
    uint32_t res_count;
    /* resizing: textures and areas of (from_w, from_h) become (to_w, to_h) */
    uint32_t from_w, from_h, to_w, to_h;
} loader;

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

/* A declaration call's result: a 0 handle is the graph's refusal. */
static bool declared(loader *l, uint32_t id, const char *call)
{
    if (id != 0)
        return true;
    return rgf__reader_fail(&l->r, rg_graph_error(l->g), "%s refused it: %s", call, rg_graph_error_message(l->g));
}

/* A reference to resource index `key` declared before `before`, a
 * texture or a buffer as wanted: its handle id in *id. */
static bool reference(loader *l, const cJSON *obj, const char *key, bool required, bool texture, uint32_t before,
                      uint32_t *id)
{
    uint32_t index = UINT32_MAX;
    *id = 0;
    if (!rgf__u32(&l->r, obj, key, required, &index))
        return false;
    if (index == UINT32_MAX)
        return true;
    size_t at = rgf__push_key(&l->r, key);
    bool ok = false;
    if (index >= before)
        rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "resource %u does not exist %s (%u declared)", index,
                         before == l->res_count ? "in the file" : "yet: a reference goes to an earlier resource",
                         before);
    else if (l->res[index].is_texture != texture)
        rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "resource %u is a %s, expected a %s", index,
                         l->res[index].is_texture ? "texture" : "buffer", texture ? "texture" : "buffer");
    else
        ok = true;
    rgf__pop(&l->r, at);
    *id = ok ? l->res[index].id : 0;
    return ok;
}

static VkFormat format_of(const loader *l, uint32_t id)
{
    for (uint32_t i = 0; i < l->res_count; i++)
        if (l->res[i].is_texture && l->res[i].id == id)
            return l->res[i].format;
    return VK_FORMAT_UNDEFINED;
}

static bool float_at(loader *l, const cJSON *item, uint32_t index, float *out)
{
    size_t at = rgf__push_index(&l->r, index);
    bool ok = rgf__float(&l->r, item, out);
    rgf__pop(&l->r, at);
    return ok;
}

/* A clear value as frame_write.c writes it for the format. */
static bool clear_value(loader *l, const cJSON *obj, const char *key, VkFormat format, VkClearValue *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *v = rgf__field(&l->r, obj, key, false, "");
    if (!v)
        return !rgf__failed(&l->r);
    size_t at = rgf__push_key(&l->r, key);
    rg_format_numeric numeric = rg_format_get_info(format).numeric;
    bool ok = true;
    if (numeric == RG_FORMAT_DEPTH_STENCIL) {
        static const char *const keys[] = {"depth", "stencil", NULL};
        const cJSON *depth;
        ok = rgf__object(&l->r, v, keys) && (depth = rgf__field(&l->r, v, "depth", true, "a float")) &&
             rgf__u32(&l->r, v, "stencil", true, &out->depthStencil.stencil);
        if (ok) {
            size_t d = rgf__push_key(&l->r, "depth");
            ok = rgf__float(&l->r, depth, &out->depthStencil.depth);
            rgf__pop(&l->r, d);
        }
    } else if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 4) {
        ok = rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected four components for format %s",
                              rg_format_name(format));
    } else {
        for (uint32_t i = 0; ok && i < 4; i++) {
            const cJSON *c = cJSON_GetArrayItem(v, (int)i);
            if (numeric == RG_FORMAT_UINT || numeric == RG_FORMAT_SINT) {
                double lo = numeric == RG_FORMAT_UINT ? 0 : INT32_MIN;
                double hi = numeric == RG_FORMAT_UINT ? UINT32_MAX : INT32_MAX;
                if (!cJSON_IsNumber(c) || c->valuedouble < lo || c->valuedouble > hi ||
                    c->valuedouble != (double)(int64_t)c->valuedouble) {
                    size_t e = rgf__push_index(&l->r, i);
                    ok = rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected an integer component of "
                                          "format %s", rg_format_name(format));
                    rgf__pop(&l->r, e);
                } else if (numeric == RG_FORMAT_UINT) {
                    out->color.uint32[i] = (uint32_t)c->valuedouble;
                } else {
                    out->color.int32[i] = (int32_t)c->valuedouble;
                }
            } else {
                ok = float_at(l, c, i, &out->color.float32[i]);
            }
        }
    }
    rgf__pop(&l->r, at);
    return ok;
}

/* An extent of the saved frame size takes the loaded one. */
static void resize(const loader *l, uint32_t *w, uint32_t *h)
{
    if (*w == l->from_w && *h == l->from_h) {
        *w = l->to_w;
        *h = l->to_h;
    }
}

static bool texture_shape(loader *l, const cJSON *o, uint32_t index, rg_texture_desc *d)
{
    uint32_t samples = 1, size_of = 0;
    bool ok = rgf__format(&l->r, o, "format", &d->format) &&
              reference(l, o, "size_of", false, true, index, &size_of);
    d->size_of.id = size_of;
    if (ok && size_of) {
        const cJSON *scale = rgf__field(&l->r, o, "scale", true, "a float");
        size_t at = rgf__push_key(&l->r, "scale");
        ok = scale && rgf__float(&l->r, scale, &d->scale);
        rgf__pop(&l->r, at);
        uint32_t rounding = 0;
        ok = ok && rgf__enum(&l->r, o, "rounding", false, &rgf__rounding, &rounding);
        d->rounding = (rg_rounding)rounding;
    } else if (ok) {
        ok = rgf__u32(&l->r, o, "width", true, &d->width) && rgf__u32(&l->r, o, "height", true, &d->height) &&
             rgf__nonzero(&l->r, "width", d->width) && rgf__nonzero(&l->r, "height", d->height);
        resize(l, &d->width, &d->height);
    }
    uint32_t transient = 0;
    uint64_t extra = 0;
    ok = ok && rgf__u32(&l->r, o, "mips", false, &d->mip_levels) &&
         rgf__u32(&l->r, o, "layers", false, &d->array_layers) && rgf__u32(&l->r, o, "samples", false, &samples) &&
         rgf__enum(&l->r, o, "transient", false, &rgf__transient, &transient) &&
         rgf__flags(&l->r, o, "extra_usage", false, RGF_IMAGE_USAGE, &extra);
    d->samples = (VkSampleCountFlagBits)samples;
    d->transient = (rg_transient)transient;
    d->extra_usage = (VkImageUsageFlags)extra;
    return ok;
}

/* An import's state before or after the frame. */
static bool state(loader *l, const cJSON *o, const char *key, VkImageLayout *layout, VkPipelineStageFlags2 *stage,
                  VkAccessFlags2 *access)
{
    static const char *const keys[] = {"layout", "stage", "access", NULL};
    const cJSON *s = rgf__field(&l->r, o, key, true, "an object with stage and access");
    if (!s)
        return false;
    size_t at = rgf__push_key(&l->r, key);
    bool ok = rgf__object(&l->r, s, keys) && (!layout || rgf__layout(&l->r, s, "layout", true, layout)) &&
              rgf__flags(&l->r, s, "stage", true, RGF_STAGES, stage) &&
              rgf__flags(&l->r, s, "access", true, RGF_ACCESS, access);
    rgf__pop(&l->r, at);
    return ok;
}

/* A created buffer: its size, or sized from a texture (size_of with
 * per_texel and/or per_row), which follows the texture's extent when the
 * frame is loaded at another size. */
static bool buffer_create(loader *l, const cJSON *o, uint32_t index, loaded_resource *out, const char *name)
{
    rg_buffer_desc d = {.name = name};
    uint32_t size_of = 0;
    uint64_t usage = 0;
    bool ok = reference(l, o, "size_of", false, true, index, &size_of) &&
              rgf__flags(&l->r, o, "extra_usage", false, RGF_BUFFER_USAGE, &usage);
    d.size_of.id = size_of;
    d.extra_usage = (VkBufferUsageFlags)usage;
    if (ok && size_of)
        ok = rgf__u64(&l->r, o, "per_texel", false, &d.per_texel) && rgf__u64(&l->r, o, "per_row", false, &d.per_row);
    else if (ok)
        ok = rgf__u64(&l->r, o, "size", true, &d.size) && rgf__nonzero(&l->r, "size", d.size);
    if (!ok)
        return false;
    out->id = rg_buffer_create(l->g, &d).id;
    return declared(l, out->id, "rg_buffer_create");
}

static bool resource(loader *l, const cJSON *o, uint32_t index)
{
    static const char *const keys[] = {"kind", "name", "format", "width", "height", "size_of", "scale", "rounding",
                                       "mips", "layers", "samples", "transient", "extra_usage", "clear", "usage",
                                       "initial", "final", "size", "per_texel", "per_row", NULL};
    uint32_t kind = 0;
    const char *name = NULL;
    if (!rgf__object(&l->r, o, keys) || !rgf__enum(&l->r, o, "kind", true, &rgf__resource_kind, &kind) ||
        !rgf__string(&l->r, o, "name", true, &name))
        return false;
    loaded_resource *out = &l->res[index];
    const char *kind_name = rgf__enum_name(&rgf__resource_kind, kind);
    out->is_texture = !(kind & RGF_BUFFER_KIND);
    rg_resource_kind made = (rg_resource_kind)(kind & ~(uint32_t)RGF_BUFFER_KIND);
    if (made == RG_RESOURCE_HISTORY_PREVIOUS) {
        /* Declared with its current, the entry before. */
        if (index == 0 || l->res[index].id == 0)
            return rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "a history_previous must follow its "
                                    "history entry");
        return true;
    }
    if (index > 0 && l->res[index].id != 0)
        return rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected the history_previous of the history "
                                "entry before, got a %s", kind_name);
    if (out->is_texture && made != RG_RESOURCE_IMPORTED) {
        rg_texture_desc d = {.name = name};
        if (!texture_shape(l, o, index, &d) || !clear_value(l, o, "clear", d.format, &d.history_clear))
            return false;
        out->format = d.format;
        if (made == RG_RESOURCE_CREATED) {
            out->id = rg_texture_create(l->g, &d).id;
            return declared(l, out->id, "rg_texture_create");
        }
        rg_texture previous;
        out->id = rg_texture_create_history(l->g, &d, &previous).id;
        if (index + 1 >= l->res_count)
            return rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "a history entry needs its "
                                    "history_previous after it");
        l->res[index + 1] = (loaded_resource){true, previous.id, d.format};
        return declared(l, out->id, "rg_texture_create_history");
    }
    if (out->is_texture) {
        rg_texture_import_desc d = {.name = name};
        uint32_t samples = 1;
        uint64_t usage = 0;
        bool ok = rgf__format(&l->r, o, "format", &d.format) && rgf__u32(&l->r, o, "width", true, &d.width) &&
                  rgf__u32(&l->r, o, "height", true, &d.height) && rgf__nonzero(&l->r, "width", d.width) &&
                  rgf__nonzero(&l->r, "height", d.height) &&
                  rgf__u32(&l->r, o, "mips", false, &d.mip_levels) &&
                  rgf__u32(&l->r, o, "layers", false, &d.array_layers) &&
                  rgf__u32(&l->r, o, "samples", false, &samples) &&
                  rgf__flags(&l->r, o, "usage", false, RGF_IMAGE_USAGE, &usage) &&
                  state(l, o, "initial", &d.initial_layout, &d.initial_stage, &d.initial_access) &&
                  state(l, o, "final", &d.final_layout, &d.final_stage, &d.final_access);
        if (!ok)
            return false;
        resize(l, &d.width, &d.height);
        d.samples = (VkSampleCountFlagBits)samples;
        d.usage = (VkImageUsageFlags)usage;
        out->format = d.format;
        out->id = rg_texture_import(l->g, &d).id;
        return declared(l, out->id, "rg_texture_import");
    }
    uint64_t usage = 0, size = 0;
    if (made == RG_RESOURCE_CREATED)
        return buffer_create(l, o, index, out, name);
    rg_buffer_import_desc d = {.name = name};
    if (!rgf__u64(&l->r, o, "size", true, &size) || !rgf__flags(&l->r, o, "usage", false, RGF_BUFFER_USAGE, &usage) ||
        !state(l, o, "initial", NULL, &d.initial_stage, &d.initial_access) ||
        !state(l, o, "final", NULL, &d.final_stage, &d.final_access))
        return false;
    d.size = size;
    d.usage = (VkBufferUsageFlags)usage;
    out->id = rg_buffer_import(l->g, &d).id;
    return declared(l, out->id, "rg_buffer_import");
}

static bool range(loader *l, const cJSON *o, const char *key, bool required, rg_range *out)
{
    static const char *const keys[] = {"aspect", "mips", "layers", NULL};
    const cJSON *v = rgf__field(&l->r, o, key, required, "an object with aspect, mips and layers");
    if (!v)
        return !rgf__failed(&l->r);
    size_t at = rgf__push_key(&l->r, key);
    uint64_t aspect = 0;
    bool ok = rgf__object(&l->r, v, keys) && rgf__flags(&l->r, v, "aspect", true, RGF_ASPECT, &aspect) &&
              rgf__pair(&l->r, v, "mips", true, &out->base_mip, &out->mip_count) &&
              rgf__pair(&l->r, v, "layers", true, &out->base_layer, &out->layer_count);
    out->aspect = (VkImageAspectFlags)aspect;
    rgf__pop(&l->r, at);
    return ok;
}

static bool access(loader *l, const cJSON *o, rg_access *a)
{
    static const char *const keys[] = {"texture", "buffer", "usage", "whole", "range", "stage", "access", "layout",
                                       "write", "undefined_ok", NULL};
    const char *usage = NULL;
    bool texture = rgf__field(&l->r, o, "texture", false, "") != NULL;
    if (!rgf__object(&l->r, o, keys) ||
        !reference(l, o, texture ? "texture" : "buffer", true, texture, l->res_count,
                   texture ? &a->texture.id : &a->buffer.id) ||
        !rgf__string(&l->r, o, "usage", true, &usage))
        return false;
    if (texture && rgf__field(&l->r, o, "buffer", false, ""))
        return rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "an access has a texture or a buffer, not both");
    if (!rgf__usage_value(usage, &a->usage)) {
        size_t at = rgf__push_key(&l->r, "usage");
        rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected an rg_usage name (rg_usage_info.name: "
                         "\"sampled_fragment\"), got \"%.80s\"", usage);
        rgf__pop(&l->r, at);
        return false;
    }
    uint64_t stage = 0, acc = 0;
    bool ok = rgf__bool(&l->r, o, "whole", &a->whole) && range(l, o, "range", false, &a->range) &&
              rgf__flags(&l->r, o, "stage", false, RGF_STAGES, &stage) &&
              rgf__flags(&l->r, o, "access", false, RGF_ACCESS, &acc) &&
              rgf__layout(&l->r, o, "layout", false, &a->layout) && rgf__bool(&l->r, o, "write", &a->write) &&
              rgf__bool(&l->r, o, "undefined_ok", &a->undefined_ok);
    a->stage = stage;
    a->access = acc;
    return ok;
}

static bool user_command(loader *l, const cJSON *o, const char *name, rg_queue queue, uint32_t *id)
{
    uint32_t kind = 0, count = 0;
    rg_user_desc d = {.name = name, .record = record_nothing, .queue = queue};
    const cJSON *list;
    if (!rgf__enum(&l->r, o, "kind", true, &rgf__kind, &kind) ||
        !rgf__bool(&l->r, o, "side_effects", &d.side_effects) || !rgf__u32(&l->r, o, "cost", false, &d.cost) ||
        !(list = rgf__array(&l->r, o, "accesses", true, &count)))
        return false;
    d.kind = (rg_command_kind)kind;
    rg_access *accesses = calloc(count + 1, sizeof *accesses);
    if (!accesses)
        return rgf__reader_fail(&l->r, RG_ERROR_OUT_OF_MEMORY, "out of host memory");
    size_t at = rgf__push_key(&l->r, "accesses");
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        size_t e = rgf__push_index(&l->r, i);
        ok = access(l, cJSON_GetArrayItem(list, (int)i), &accesses[i]);
        rgf__pop(&l->r, e);
    }
    rgf__pop(&l->r, at);
    d.accesses = accesses;
    d.access_count = count;
    if (ok) {
        *id = rg_cmd_user(l->g, &d).id;
        ok = declared(l, *id, "rg_cmd_user");
    }
    free(accesses);
    return ok;
}

static bool attachment(loader *l, const cJSON *o, rg_attachment *a)
{
    static const char *const keys[] = {"texture", "mip", "layers", "load", "store", "clear", "resolve",
                                       "resolve_mip", "resolve_layer", "resolve_mode", NULL};
    const char *given[] = {"load", "store", "none"};
    if (!rgf__object(&l->r, o, keys) || !reference(l, o, "texture", true, true, l->res_count, &a->texture.id) ||
        !rgf__u32(&l->r, o, "mip", false, &a->mip) ||
        !rgf__pair(&l->r, o, "layers", false, &a->base_layer, &a->layer_count) ||
        !rgf__string(&l->r, o, "load", false, &given[0]) || !rgf__string(&l->r, o, "store", false, &given[1]) ||
        !reference(l, o, "resolve", false, true, l->res_count, &a->resolve.id) ||
        !rgf__u32(&l->r, o, "resolve_mip", false, &a->resolve_mip) ||
        !rgf__u32(&l->r, o, "resolve_layer", false, &a->resolve_layer) ||
        !rgf__string(&l->r, o, "resolve_mode", false, &given[2]))
        return false;
    static const char *const ops[] = {"load", "store", "resolve_mode"};
    const rgf__names *names[] = {&rgf__load_op, &rgf__store_op, &rgf__resolve_mode};
    int64_t v[3];
    for (int i = 0; i < 3; i++)
        if (!rgf__enum_value(names[i], given[i], &v[i])) {
            char text[96];
            size_t at = rgf__push_key(&l->r, ops[i]);
            rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected %s",
                             rgf__enum_names(names[i], " or ", text, sizeof text));
            rgf__pop(&l->r, at);
            return false;
        }
    a->load = (VkAttachmentLoadOp)v[0];
    a->store = (VkAttachmentStoreOp)v[1];
    a->resolve_mode = (VkResolveModeFlagBits)v[2];
    return clear_value(l, o, "clear", format_of(l, a->texture.id), &a->clear);
}

static bool rendering(loader *l, const cJSON *o, const char *name, uint32_t *id)
{
    rg_rendering_desc d = {.name = name};
    uint32_t count = 0;
    const cJSON *colors = rgf__array(&l->r, o, "colors", true, &count);
    if (!colors)
        return false;
    if (count > RG_MAX_COLOR_ATTACHMENTS)
        return rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "%u colour attachments, at most %u", count,
                                RG_MAX_COLOR_ATTACHMENTS);
    size_t at = rgf__push_key(&l->r, "colors");
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        size_t e = rgf__push_index(&l->r, i);
        ok = attachment(l, cJSON_GetArrayItem(colors, (int)i), &d.colors[i]);
        rgf__pop(&l->r, e);
    }
    rgf__pop(&l->r, at);
    d.color_count = count;
    const cJSON *depth = ok ? rgf__field(&l->r, o, "depth", false, "") : NULL;
    if (depth) {
        at = rgf__push_key(&l->r, "depth");
        ok = attachment(l, depth, &d.depth);
        rgf__pop(&l->r, at);
    }
    const cJSON *area = ok ? rgf__field(&l->r, o, "area", false, "") : NULL;
    if (area) {
        int32_t v[4] = {0};
        at = rgf__push_key(&l->r, "area");
        ok = cJSON_IsArray(area) && cJSON_GetArraySize(area) == 4;
        for (int i = 0; ok && i < 4; i++) {
            const cJSON *e = cJSON_GetArrayItem(area, i);
            ok = cJSON_IsNumber(e) && e->valuedouble >= (i < 2 ? INT32_MIN : 0) &&
                 e->valuedouble <= (i < 2 ? INT32_MAX : UINT32_MAX) && e->valuedouble == (double)(int64_t)e->valuedouble;
            if (ok)
                v[i] = (int32_t)(int64_t)e->valuedouble;
        }
        if (!ok)
            rgf__reader_fail(&l->r, RG_ERROR_INVALID_ARGUMENT, "expected [x, y, width, height] of integers");
        rgf__pop(&l->r, at);
        d.area = (VkRect2D){{v[0], v[1]}, {(uint32_t)v[2], (uint32_t)v[3]}};
        if (v[0] == 0 && v[1] == 0)
            resize(l, &d.area.extent.width, &d.area.extent.height);
    }
    if (!ok || !rgf__bool(&l->r, o, "depth_read_only", &d.depth_read_only))
        return false;
    *id = rg_begin_rendering(l->g, &d).id;
    return declared(l, *id, "rg_begin_rendering");
}

/* A built-in transfer: its arguments, then the call. */
static bool transfer(loader *l, const cJSON *o, rg_command_type type, uint32_t *id)
{
    uint32_t src = 0, dst = 0, mip = 0, src_mip = 0, dst_mip = 0, layer = 0, layers = 1, filter = 0;
    uint64_t src_offset = 0, dst_offset = 0, size = 0, offset = 0, aspect = 0;
    rgf__reader *r = &l->r;
    switch (type) {
    case RG_COMMAND_TYPE_COPY_BUFFER:
        if (!reference(l, o, "src", true, false, l->res_count, &src) ||
            !rgf__u64(r, o, "src_offset", true, &src_offset) || !reference(l, o, "dst", true, false, l->res_count,
                                                                            &dst) ||
            !rgf__u64(r, o, "dst_offset", true, &dst_offset) || !rgf__u64(r, o, "size", true, &size))
            return false;
        *id = rg_cmd_copy_buffer(l->g, (rg_buffer){src}, src_offset, (rg_buffer){dst}, dst_offset, size).id;
        return declared(l, *id, "rg_cmd_copy_buffer");
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE:
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER: {
        bool to_texture = type == RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE;
        if (!reference(l, o, "src", true, !to_texture, l->res_count, &src) ||
            !reference(l, o, "dst", true, to_texture, l->res_count, &dst) ||
            !rgf__u64(r, o, "offset", true, &offset) || !rgf__flags(r, o, "aspect", false, RGF_ASPECT, &aspect) ||
            !rgf__u32(r, o, "mip", true, &mip) || !rgf__pair(r, o, "layers", true, &layer, &layers))
            return false;
        *id = to_texture ? rg_cmd_copy_buffer_to_texture_aspect(l->g, (rg_buffer){src}, offset, (rg_texture){dst},
                                                                (VkImageAspectFlags)aspect, mip, layer, layers).id
                         : rg_cmd_copy_texture_aspect_to_buffer(l->g, (rg_texture){src}, (VkImageAspectFlags)aspect,
                                                                mip, layer, layers, (rg_buffer){dst}, offset).id;
        return declared(l, *id, to_texture ? "rg_cmd_copy_buffer_to_texture_aspect"
                                           : "rg_cmd_copy_texture_aspect_to_buffer");
    }
    case RG_COMMAND_TYPE_CLEAR: {
        rg_range rg = {0};
        VkClearValue value;
        if (!reference(l, o, "texture", true, true, l->res_count, &dst) || !range(l, o, "range", true, &rg) ||
            !rgf__field(r, o, "value", true, "a clear value") ||
            !clear_value(l, o, "value", format_of(l, dst), &value))
            return false;
        *id = rg_cmd_clear_texture(l->g, (rg_texture){dst}, &rg, &value).id;
        return declared(l, *id, "rg_cmd_clear_texture");
    }
    case RG_COMMAND_TYPE_BLIT:
        if (!reference(l, o, "src", true, true, l->res_count, &src) || !rgf__u32(r, o, "src_mip", true, &src_mip) ||
            !reference(l, o, "dst", true, true, l->res_count, &dst) || !rgf__u32(r, o, "dst_mip", true, &dst_mip) ||
            !rgf__enum(r, o, "filter", true, &rgf__filter, &filter))
            return false;
        *id = rg_cmd_blit(l->g, (rg_texture){src}, src_mip, (rg_texture){dst}, dst_mip, (VkFilter)filter).id;
        return declared(l, *id, "rg_cmd_blit");
    default:
        return false;
    }
}

static bool command(loader *l, const cJSON *o)
{
    static const char *const keys[] = {"type", "name", "queue", "kind", "side_effects", "cost", "accesses", "colors",
                                       "depth", "depth_read_only", "area", "src", "src_offset", "dst",
                                       "dst_offset", "size", "offset", "aspect", "mip", "layers", "texture",
                                       "range", "value", "src_mip", "dst_mip", "filter", NULL};
    uint32_t type = 0, queue = 0, id = 0;
    const char *name = NULL;
    if (!rgf__object(&l->r, o, keys) || !rgf__enum(&l->r, o, "type", true, &rgf__command_type, &type) ||
        !rgf__string(&l->r, o, "name", true, &name) || !rgf__enum(&l->r, o, "queue", false, &rgf__queue, &queue))
        return false;
    switch ((rg_command_type)type) {
    case RG_COMMAND_TYPE_USER:
        return user_command(l, o, name, (rg_queue)queue, &id);
    case RG_COMMAND_TYPE_BEGIN_RENDERING:
        return rendering(l, o, name, &id);
    case RG_COMMAND_TYPE_END_RENDERING:
        return declared(l, rg_end_rendering(l->g).id, "rg_end_rendering");
    default:
        if (!transfer(l, o, (rg_command_type)type, &id))
            return false;
        if (queue)
            rg_command_allow_queue(l->g, (rg_command){id}, (rg_queue)queue);
        return rg_graph_error(l->g) == RG_SUCCESS ||
               rgf__reader_fail(&l->r, rg_graph_error(l->g), "rg_command_allow_queue refused it: %s",
                                rg_graph_error_message(l->g));
    }
}

/* Each element of array `key` of root through fn, at its path. */
static bool each(loader *l, const cJSON *root, const char *key, bool (*fn)(loader *, const cJSON *, uint32_t))
{
    uint32_t count = 0;
    const cJSON *list = rgf__array(&l->r, root, key, true, &count);
    if (!list)
        return false;
    size_t at = rgf__push_key(&l->r, key);
    bool ok = true;
    for (uint32_t i = 0; ok && i < count; i++) {
        size_t e = rgf__push_index(&l->r, i);
        ok = fn(l, cJSON_GetArrayItem(list, (int)i), i);
        rgf__pop(&l->r, e);
    }
    rgf__pop(&l->r, at);
    return ok;
}

static bool command_at(loader *l, const cJSON *o, uint32_t i)
{
    (void)i;
    return command(l, o);
}

bool rgf__declare(rgf__reader *r, rg_graph *g, const cJSON *root, const uint32_t resize_from[2],
                  const uint32_t resize_to[2])
{
    loader l = {.r = *r, .g = g, .from_w = resize_from[0], .from_h = resize_from[1], .to_w = resize_to[0],
                .to_h = resize_to[1]};
    uint32_t count = 0;
    bool ok = rgf__array(&l.r, root, "resources", true, &count) != NULL;
    l.res = ok ? calloc(count + 1, sizeof *l.res) : NULL;
    if (ok && !l.res)
        ok = rgf__reader_fail(&l.r, RG_ERROR_OUT_OF_MEMORY, "out of host memory");
    l.res_count = count;
    ok = ok && each(&l, root, "resources", resource) && each(&l, root, "commands", command_at);
    free(l.res);
    *r = l.r;
    return ok;
}
