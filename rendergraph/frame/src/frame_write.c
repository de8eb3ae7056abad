/* rgf_save: a graph's declaration (rg_declaration_get, rg_declared_get) as a frame file
 * (docs/frame-files.md): handles become indices into "resources", values are spelled with the
 * render graph's names (frame_names.c), a field at its default is left out (files stay short,
 * and saving a loaded frame writes the same text). */
#include "frame_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct writer {
    const rg_graph *g;
    rg_declaration decl;
    rg_declared_resource *resources;
    uint32_t resource_count;
    struct handle_index { uint32_t id, index; } *handles; /* handle id -> resource index, sorted by id */
    bool oom;
} writer;

static cJSON *add(writer *w, cJSON *obj, const char *key, cJSON *item)
{
    if (!item) {
        w->oom = true;
        return NULL;
    }
    if (key ? !cJSON_AddItemToObject(obj, key, item) : !cJSON_AddItemToArray(obj, item)) {
        cJSON_Delete(item);
        w->oom = true;
        return NULL;
    }
    return item;
}

/* Two unsigned 32-bit values as a JSON array: past INT_MAX as well (the
 * reader takes 0 to 4294967295; cJSON_CreateIntArray would wrap them). */
static cJSON *u32_pair(uint32_t a, uint32_t b)
{
    return cJSON_CreateDoubleArray((const double[]){a, b}, 2);
}

/* Integers up to 2^53 as numbers, larger ones as decimal strings (a JSON
 * number is a double to most readers). */
static void add_u64(writer *w, cJSON *obj, const char *key, uint64_t v)
{
    if (v <= (1ull << 53)) {
        add(w, obj, key, cJSON_CreateNumber((double)v));
        return;
    }
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    add(w, obj, key, cJSON_CreateString(text));
}

static void add_string(writer *w, cJSON *obj, const char *key, const char *s)
{
    add(w, obj, key, cJSON_CreateString(s));
}

static void add_bool_if(writer *w, cJSON *obj, const char *key, bool v)
{
    if (v)
        add(w, obj, key, cJSON_CreateTrue());
}

/* A value's name in a file; "?" for one no file names (the reader
 * refuses it). */
static const char *name_of(const rgf__names *e, int64_t value)
{
    const char *name = rgf__enum_name(e, value);
    return name ? name : "?";
}

static void add_flags(writer *w, cJSON *obj, const char *key, rgf__flag_kind kind, uint64_t v)
{
    char text[512];
    rgf__flags_name(kind, v, text, sizeof text);
    add_string(w, obj, key, text);
}

/* A float, or "nan", "inf", "-inf", which JSON numbers cannot be. */
static cJSON *float_json(float f)
{
    if (isnan(f))
        return cJSON_CreateString("nan");
    if (isinf(f))
        return cJSON_CreateString(f > 0 ? "inf" : "-inf");
    /* The shortest decimal that reads back as the same float: 0.1, not
     * 0.10000000149011612. */
    char text[32];
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, (double)f);
        if (strtof(text, NULL) == f)
            break;
    }
    return cJSON_CreateNumber(strtod(text, NULL));
}

static uint32_t resource_of(const writer *w, uint32_t id)
{
    uint32_t lo = 0, hi = w->resource_count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (w->handles[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->resource_count && w->handles[lo].id == id ? w->handles[lo].index : UINT32_MAX;
}

static VkFormat format_of(const writer *w, uint32_t id)
{
    uint32_t i = resource_of(w, id);
    if (i == UINT32_MAX)
        return VK_FORMAT_UNDEFINED;
    const rg_declared_resource *r = &w->resources[i];
    return r->kind == RG_RESOURCE_IMPORTED ? r->texture_import.format : r->texture.format;
}

/* A clear value as the format reads it: depth and stencil, or four
 * components (integers for integer formats). */
static cJSON *clear_json(writer *w, VkFormat format, const VkClearValue *v)
{
    rg_format_numeric numeric = rg_format_get_info(format).numeric;
    if (numeric == RG_FORMAT_DEPTH_STENCIL) {
        cJSON *o = cJSON_CreateObject();
        if (o) {
            add(w, o, "depth", float_json(v->depthStencil.depth));
            add_u64(w, o, "stencil", v->depthStencil.stencil);
        }
        return o;
    }
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < 4; i++) {
        if (numeric == RG_FORMAT_UINT)
            add_u64(w, a, NULL, v->color.uint32[i]);
        else if (numeric == RG_FORMAT_SINT)
            add(w, a, NULL, cJSON_CreateNumber(v->color.int32[i]));
        else
            add(w, a, NULL, float_json(v->color.float32[i]));
    }
    return a;
}

static bool clear_is_zero(const VkClearValue *v)
{
    static const VkClearValue zero;
    return memcmp(v, &zero, sizeof zero) == 0;
}

static void add_resource_ref(writer *w, cJSON *obj, const char *key, uint32_t id)
{
    add_u64(w, obj, key, resource_of(w, id));
}

static void add_range(writer *w, cJSON *obj, const char *key, const rg_range *r)
{
    cJSON *o = add(w, obj, key, cJSON_CreateObject());
    if (!o)
        return;
    add_flags(w, o, "aspect", RGF_ASPECT, r->aspect);
    add(w, o, "mips", u32_pair(r->base_mip, r->mip_count));
    add(w, o, "layers", u32_pair(r->base_layer, r->layer_count));
}

static void add_texture_desc(writer *w, cJSON *o, const rg_texture_desc *d)
{
    add_string(w, o, "format", rg_format_name(d->format));
    if (d->size_of.id) {
        add_resource_ref(w, o, "size_of", d->size_of.id);
        add(w, o, "scale", float_json(d->scale));
        if (d->rounding)
            add_string(w, o, "rounding", rgf__enum_name(&rgf__rounding, d->rounding));
    } else {
        add_u64(w, o, "width", d->width);
        add_u64(w, o, "height", d->height);
    }
    add_u64(w, o, "mips", d->mip_levels);
    add_u64(w, o, "layers", d->array_layers);
    add_u64(w, o, "samples", (uint64_t)d->samples);
    if (d->transient)
        add_string(w, o, "transient", rgf__enum_name(&rgf__transient, d->transient));
    if (d->extra_usage)
        add_flags(w, o, "extra_usage", RGF_IMAGE_USAGE, d->extra_usage);
}

static void add_state(writer *w, cJSON *o, const char *key, VkImageLayout *layout, VkPipelineStageFlags2 stage,
                      VkAccessFlags2 access)
{
    cJSON *s = add(w, o, key, cJSON_CreateObject());
    if (!s)
        return;
    if (layout)
        add_string(w, s, "layout", rg_layout_name(*layout));
    add_flags(w, s, "stage", RGF_STAGES, stage);
    add_flags(w, s, "access", RGF_ACCESS, access);
}

/* A texture's shape as an import's or a requirement's "for" spells it:
 * format, extent, mips, layers, samples, and usage unless none. */
static void add_shape(writer *w, cJSON *o, const rg_resource_info *s)
{
    add_string(w, o, "format", rg_format_name(s->format));
    add_u64(w, o, "width", s->width);
    add_u64(w, o, "height", s->height);
    add_u64(w, o, "mips", s->mip_levels);
    add_u64(w, o, "layers", s->array_layers);
    add_u64(w, o, "samples", (uint64_t)s->samples);
    if (s->image_usage)
        add_flags(w, o, "usage", RGF_IMAGE_USAGE, s->image_usage);
}

static cJSON *resource_json(writer *w, const rg_declared_resource *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_string(w, o, "kind", name_of(&rgf__resource_kind, r->kind | (r->is_texture ? 0 : RGF_BUFFER_KIND)));
    switch (r->kind) {
    case RG_RESOURCE_HISTORY_PREVIOUS:
        add_string(w, o, "name", r->texture.name);
        break;
    case RG_RESOURCE_CREATED:
    case RG_RESOURCE_HISTORY_CURRENT:
        if (r->is_texture) {
            add_string(w, o, "name", r->texture.name);
            add_texture_desc(w, o, &r->texture);
            if (r->kind == RG_RESOURCE_HISTORY_CURRENT && !clear_is_zero(&r->texture.history_clear))
                add(w, o, "clear", clear_json(w, r->texture.format, &r->texture.history_clear));
        } else {
            add_string(w, o, "name", r->buffer.name);
            if (r->buffer.size_of.id) /* per_texel and per_row follow, where not 0 */
                add_resource_ref(w, o, "size_of", r->buffer.size_of.id);
            else
                add_u64(w, o, "size", r->buffer.size);
            if (r->buffer.per_texel)
                add_u64(w, o, "per_texel", r->buffer.per_texel);
            if (r->buffer.per_row)
                add_u64(w, o, "per_row", r->buffer.per_row);
            if (r->buffer.extra_usage)
                add_flags(w, o, "extra_usage", RGF_BUFFER_USAGE, r->buffer.extra_usage);
        }
        break;
    case RG_RESOURCE_IMPORTED:
        if (r->is_texture) {
            const rg_texture_import_desc *d = &r->texture_import;
            add_string(w, o, "name", d->name);
            add_shape(w, o, &(rg_resource_info){.format = d->format, .width = d->width, .height = d->height,
                                                .mip_levels = d->mip_levels, .array_layers = d->array_layers,
                                                .samples = d->samples, .image_usage = d->usage});
            VkImageLayout in = d->initial_layout, out = d->final_layout;
            add_state(w, o, "initial", &in, d->initial_stage, d->initial_access);
            add_state(w, o, "final", &out, d->final_stage, d->final_access);
        } else {
            const rg_buffer_import_desc *d = &r->buffer_import;
            add_string(w, o, "name", d->name);
            add_u64(w, o, "size", d->size);
            if (d->usage)
                add_flags(w, o, "usage", RGF_BUFFER_USAGE, d->usage);
            add_state(w, o, "initial", NULL, d->initial_stage, d->initial_access);
            add_state(w, o, "final", NULL, d->final_stage, d->final_access);
        }
        break;
    }
    return o;
}

static cJSON *access_json(writer *w, const rg_access *a)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (a->texture.id)
        add_resource_ref(w, o, "texture", a->texture.id);
    else
        add_resource_ref(w, o, "buffer", a->buffer.id);
    const rg_usage_info *u = rg_usage_get_info(a->usage);
    add_string(w, o, "usage", u ? u->name : "?");
    if (a->texture.id) {
        if (a->whole)
            add(w, o, "whole", cJSON_CreateTrue());
        else
            add_range(w, o, "range", &a->range);
    }
    if (a->usage == RG_USAGE_RAW) {
        add_flags(w, o, "stage", RGF_STAGES, a->stage);
        add_flags(w, o, "access", RGF_ACCESS, a->access);
        if (a->texture.id)
            add_string(w, o, "layout", rg_layout_name(a->layout));
        add_bool_if(w, o, "write", a->write);
    }
    add_bool_if(w, o, "undefined_ok", a->undefined_ok);
    return o;
}

static cJSON *attachment_json(writer *w, const rg_attachment *a)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_resource_ref(w, o, "texture", a->texture.id);
    if (a->mip)
        add_u64(w, o, "mip", a->mip);
    add(w, o, "layers", u32_pair(a->base_layer, a->layer_count));
    add_string(w, o, "load", name_of(&rgf__load_op, a->load));
    add_string(w, o, "store", name_of(&rgf__store_op, a->store));
    if (a->load == VK_ATTACHMENT_LOAD_OP_CLEAR)
        add(w, o, "clear", clear_json(w, format_of(w, a->texture.id), &a->clear));
    if (a->resolve.id) {
        add_resource_ref(w, o, "resolve", a->resolve.id);
        if (a->resolve_mip)
            add_u64(w, o, "resolve_mip", a->resolve_mip);
        if (a->resolve_layer)
            add_u64(w, o, "resolve_layer", a->resolve_layer);
        add_string(w, o, "resolve_mode", name_of(&rgf__resolve_mode, a->resolve_mode));
    }
    return o;
}

static void rendering_json(writer *w, cJSON *o, const rg_rendering_desc *d)
{
    cJSON *colors = add(w, o, "colors", cJSON_CreateArray());
    for (uint32_t i = 0; colors && i < d->color_count && i < RG_MAX_COLOR_ATTACHMENTS; i++)
        add(w, colors, NULL, attachment_json(w, &d->colors[i]));
    if (d->depth.texture.id)
        add(w, o, "depth", attachment_json(w, &d->depth));
    add_bool_if(w, o, "depth_read_only", d->depth_read_only);
    if (d->area.extent.width || d->area.extent.height || d->area.offset.x || d->area.offset.y)
        add(w, o, "area", cJSON_CreateDoubleArray((const double[]){d->area.offset.x, d->area.offset.y,
                                                                   d->area.extent.width, d->area.extent.height},
                                                  4));
}

static void layers_json(writer *w, cJSON *o, uint32_t layer, uint32_t count)
{
    add(w, o, "layers", u32_pair(layer, count));
}

static cJSON *command_json(writer *w, const rg_declared_command *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_string(w, o, "type", rgf__enum_name(&rgf__command_type, c->type));
    add_string(w, o, "name", c->name);
    if (c->queue)
        add_string(w, o, "queue", rgf__enum_name(&rgf__queue, c->queue));
    switch (c->type) {
    case RG_COMMAND_TYPE_USER: {
        add_string(w, o, "kind", rgf__enum_name(&rgf__kind, c->user.kind));
        add_bool_if(w, o, "side_effects", c->user.side_effects);
        if (c->user.cost > 1)
            add_u64(w, o, "cost", c->user.cost);
        cJSON *list = add(w, o, "accesses", cJSON_CreateArray());
        for (uint32_t i = 0; list && i < c->user.access_count; i++)
            add(w, list, NULL, access_json(w, &c->user.accesses[i]));
        break;
    }
    case RG_COMMAND_TYPE_BEGIN_RENDERING:
        rendering_json(w, o, &c->rendering);
        break;
    case RG_COMMAND_TYPE_COPY_BUFFER:
        add_resource_ref(w, o, "src", c->src_buffer.id);
        add_u64(w, o, "src_offset", c->src_offset);
        add_resource_ref(w, o, "dst", c->dst_buffer.id);
        add_u64(w, o, "dst_offset", c->dst_offset);
        add_u64(w, o, "size", c->size);
        break;
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE:
        add_resource_ref(w, o, "src", c->src_buffer.id);
        add_u64(w, o, "offset", c->src_offset);
        add_resource_ref(w, o, "dst", c->dst_texture.id);
        add_flags(w, o, "aspect", RGF_ASPECT, c->aspect);
        add_u64(w, o, "mip", c->dst_mip);
        layers_json(w, o, c->layer, c->layer_count);
        break;
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER:
        add_resource_ref(w, o, "src", c->src_texture.id);
        add_flags(w, o, "aspect", RGF_ASPECT, c->aspect);
        add_u64(w, o, "mip", c->src_mip);
        layers_json(w, o, c->layer, c->layer_count);
        add_resource_ref(w, o, "dst", c->dst_buffer.id);
        add_u64(w, o, "offset", c->dst_offset);
        break;
    case RG_COMMAND_TYPE_CLEAR:
        add_resource_ref(w, o, "texture", c->dst_texture.id);
        add_range(w, o, "range", &c->range);
        add(w, o, "value", clear_json(w, format_of(w, c->dst_texture.id), &c->clear));
        break;
    case RG_COMMAND_TYPE_BLIT:
        add_resource_ref(w, o, "src", c->src_texture.id);
        add_u64(w, o, "src_mip", c->src_mip);
        add_resource_ref(w, o, "dst", c->dst_texture.id);
        add_u64(w, o, "dst_mip", c->dst_mip);
        add_string(w, o, "filter", name_of(&rgf__filter, c->filter));
        break;
    case RG_COMMAND_TYPE_END_RENDERING:
        break;
    }
    return o;
}

static void graph_json(writer *w, cJSON *root)
{
    const rg_graph_desc d = w->decl.desc;
    cJSON *o = add(w, root, "graph", cJSON_CreateObject());
    if (o) {
        add_string(w, o, "name", d.name);
        add_string(w, o, "order", rgf__enum_name(&rgf__order, d.order));
        add_string(w, o, "merge", rgf__enum_name(&rgf__merge, d.merge));
        if (d.msaa_fold != RG_FOLD_AUTO)
            add_string(w, o, "msaa_fold", rgf__enum_name(&rgf__fold, d.msaa_fold));
        add_bool_if(w, o, "no_culling", d.no_culling);
        add_bool_if(w, o, "no_aliasing", d.no_aliasing);
        add_bool_if(w, o, "alias_proven_only", d.alias_proven_only);
        add_bool_if(w, o, "single_queue", d.single_queue);
        if (d.queue_policy == RG_QUEUE_POLICY_MEASURED)
            add_string(w, o, "queue_policy", rgf__enum_name(&rgf__queue_policy, d.queue_policy));
        add_bool_if(w, o, "concurrent_sharing", d.concurrent_sharing);
    }
    const rg_device_caps *c = d.caps;
    cJSON *caps = add(w, root, "caps", cJSON_CreateObject());
    if (!caps || !c)
        return;
    add_bool_if(w, caps, "local_read", c->local_read);
    add_bool_if(w, caps, "local_read_multisampled", c->local_read_multisampled);
    add_bool_if(w, caps, "local_read_depth_stencil", c->local_read_depth_stencil);
    add_u64(w, caps, "max_color_attachments", c->max_color_attachments);
    add_u64(w, caps, "max_input_attachments", c->max_input_attachments);
    add_u64(w, caps, "driver", (uint64_t)c->driver);
    add_bool_if(w, caps, "compute_queue", c->compute_queue);
    add_bool_if(w, caps, "transfer_queue", c->transfer_queue);
    add_bool_if(w, caps, "msaa_to_single_sampled", c->msaa_to_single_sampled);
    add_string(w, caps, "tile_profile", rg_tile_profile_info(c->tile_profile).key);
    if (c->tile_memory)
        add_u64(w, caps, "tile_memory", c->tile_memory);
}

/* What a requirement was measured for: the resource as the graph made it,
 * which a reader compares with the resource it declares. */
static cJSON *measured_json(writer *w, const rg_resource_info *info)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rg_resource_info made = rgf__as_created(*info);
    if (info->texture.id) {
        add_shape(w, o, &made);
    } else {
        add_u64(w, o, "size", info->size);
        if (info->buffer_usage)
            add_flags(w, o, "usage", RGF_BUFFER_USAGE, info->buffer_usage);
    }
    return o;
}

/* The device's memory types, and what each placed resource asked of them
 * (none before placement: rg_resource_info.memory says so). */
static void memory_json(writer *w, cJSON *root, const VkPhysicalDeviceMemoryProperties *props)
{
    uint32_t count = rg_resource_count(w->g);
    if (!props)
        return;
    cJSON *m = add(w, root, "memory", cJSON_CreateObject());
    cJSON *types = m ? add(w, m, "types", cJSON_CreateArray()) : NULL;
    for (uint32_t t = 0; types && t < props->memoryTypeCount && t < VK_MAX_MEMORY_TYPES; t++) {
        cJSON *o = add(w, types, NULL, cJSON_CreateObject());
        if (o) {
            add_u64(w, o, "flags", props->memoryTypes[t].propertyFlags);
            add_u64(w, o, "heap", props->memoryTypes[t].heapIndex);
        }
    }
    cJSON *heaps = m ? add(w, m, "heaps", cJSON_CreateArray()) : NULL;
    for (uint32_t h = 0; heaps && h < props->memoryHeapCount && h < VK_MAX_MEMORY_HEAPS; h++) {
        cJSON *o = add(w, heaps, NULL, cJSON_CreateObject());
        if (o) {
            add_u64(w, o, "size", props->memoryHeaps[h].size);
            add_u64(w, o, "flags", props->memoryHeaps[h].flags);
        }
    }
    cJSON *reqs = m ? add(w, m, "requirements", cJSON_CreateArray()) : NULL;
    for (uint32_t i = 0; reqs && i < count; i++) {
        rg_resource_info info;
        if (rg_resource_get(w->g, i, &info) != RG_SUCCESS || info.memory == RG_MEMORY_NOT_CREATED ||
            info.memory == RG_MEMORY_IMPORTED || info.memory_type >= 32)
            continue;
        cJSON *o = add(w, reqs, NULL, cJSON_CreateObject());
        if (!o)
            break;
        add_u64(w, o, "resource", i);
        add_u64(w, o, "size", info.memory_size);
        add_u64(w, o, "alignment", info.memory_alignment);
        add_u64(w, o, "type_bits", 1ull << info.memory_type);
        add_bool_if(w, o, "dedicated", info.memory == RG_MEMORY_DEDICATED);
        add(w, o, "for", measured_json(w, &info));
    }
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const struct handle_index *)a)->id, y = ((const struct handle_index *)b)->id;
    return (x > y) - (x < y);
}

/* The frame's size: desc's, else the first imported texture's, else the
 * first texture's; 0x0 (not written) for a frame of buffers alone. */
static void frame_size(const writer *w, const rgf_save_desc *desc, uint32_t size[2])
{
    bool given = desc && desc->width && desc->height;
    size[0] = given ? desc->width : 0;
    size[1] = given ? desc->height : 0;
    for (int pass = 0; pass < 2 && !size[0]; pass++)
        for (uint32_t i = 0; i < w->resource_count && !size[0]; i++) {
            const rg_declared_resource *r = &w->resources[i];
            if (!r->is_texture || (pass == 0 && r->kind != RG_RESOURCE_IMPORTED))
                continue;
            size[0] = r->kind == RG_RESOURCE_IMPORTED ? r->texture_import.width : r->texture.width;
            size[1] = r->kind == RG_RESOURCE_IMPORTED ? r->texture_import.height : r->texture.height;
        }
}

static cJSON *frame_json(writer *w, const rgf_save_desc *desc)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    add_u64(w, root, "rendergraph_frame", RGF_FILE_VERSION);
    char by[64];
    snprintf(by, sizeof by, "rendergraph %s", rg_version_string());
    add_string(w, root, "saved_by", by);
    if (desc && desc->device_name)
        add_string(w, root, "device", desc->device_name);
    uint32_t size[2];
    frame_size(w, desc, size);
    if (size[0])
        add(w, root, "size", u32_pair(size[0], size[1]));
    graph_json(w, root);
    cJSON *resources = add(w, root, "resources", cJSON_CreateArray());
    for (uint32_t i = 0; resources && i < w->resource_count; i++)
        add(w, resources, NULL, resource_json(w, &w->resources[i]));
    cJSON *commands = add(w, root, "commands", cJSON_CreateArray());
    for (uint32_t i = 0; commands && i < w->decl.command_count; i++) {
        rg_declared c;
        if (rg_declared_get(w->g, RG_DECLARED_COMMAND, i, &c) == RG_SUCCESS)
            add(w, commands, NULL, command_json(w, &c.command));
    }
    memory_json(w, root, desc ? desc->memory : NULL);
    return root;
}

rg_result rgf_save_text(const rg_graph *graph, const rgf_save_desc *desc, char **out, rgf_error *error)
{
    if (out)
        *out = NULL;
    if (!graph || !out)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_save: NULL %s", graph ? "out" : "graph");
    /* A failed declaration call leaves no declaration to save (its kept
     * error); a failed compile leaves a whole one, saved so that the
     * failure can be reproduced elsewhere. */
    writer w = {.g = graph};
    if (rg_declaration_get(graph, &w.decl) != RG_SUCCESS)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_save: graph '%s': a declaration call failed, so "
                         "the declaration is not whole: %s", w.decl.desc.name ? w.decl.desc.name : "",
                         rg_graph_error_message(graph));
    w.resource_count = w.decl.resource_count;
    w.resources = calloc(w.resource_count + 1, sizeof *w.resources);
    w.handles = calloc(w.resource_count + 1, sizeof *w.handles);
    rg_result res = RG_SUCCESS;
    if (!w.resources || !w.handles) {
        res = rgf__fail(error, RG_ERROR_OUT_OF_MEMORY, "rgf_save: graph '%s': out of host memory",
                        w.decl.desc.name);
        goto done;
    }
    for (uint32_t i = 0; i < w.resource_count; i++) {
        rg_declared d;
        rg_declared_get(graph, RG_DECLARED_RESOURCE, i, &d);
        w.resources[i] = d.resource;
        w.handles[i].id = w.resources[i].is_texture ? w.resources[i].texture_handle.id
                                                    : w.resources[i].buffer_handle.id;
        w.handles[i].index = i;
    }
    qsort(w.handles, w.resource_count, sizeof *w.handles, by_id);
    cJSON *root = frame_json(&w, desc);
    char *text = root && !w.oom ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        res = rgf__fail(error, RG_ERROR_OUT_OF_MEMORY, "rgf_save: graph '%s': out of host memory",
                        w.decl.desc.name);
        goto done;
    }
    *out = text;
done:
    free(w.resources);
    free(w.handles);
    return res;
}

void rgf_free(void *text) { cJSON_free(text); }
