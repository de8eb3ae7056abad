/* rgf_load_text: a frame file's header (version, size, graph options,
 * capabilities) and memory section, the graph made from them, and the
 * declaration (frame_declare.c) into it. A text that is not one JSON
 * object, or holds bytes a frame file may not, is refused with the line
 * and column.
 */
#include "frame_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rg_tile_profile rgf_tile_profile_from_key(const char *key)
{
    for (int p = RG_TILE_AUTO; key && p < RG_TILE_PROFILE_COUNT; p++)
        if (strcmp(key, rg_tile_profile_info((rg_tile_profile)p).key) == 0)
            return (rg_tile_profile)p;
    return RG_TILE_PROFILE_COUNT;
}

/* A GPU of another family, as rgf_load_desc.profile says. */
static rg_device_caps profile_caps(const rg_device_caps *saved, rg_tile_profile profile)
{
    rg_device_caps caps = *saved;
    if (profile == RG_TILE_AUTO || profile == saved->tile_profile)
        return caps;
    caps.tile_profile = profile;
    caps.tile_memory = 0;
    caps.driver = rg_tile_profile_info(profile).driver; /* desktop: none, RG_MERGE_AUTO does not merge */
    if (profile != RG_TILE_DESKTOP)
        caps.local_read = caps.local_read_multisampled = caps.local_read_depth_stencil = true;
    caps.msaa_to_single_sampled = rg_tile_profile_info(profile).msaa_fold;
    return caps;
}

static bool caps_json(rgf__reader *r, const cJSON *root, rg_device_caps *c)
{
    static const char *const keys[] = {"local_read", "local_read_multisampled", "local_read_depth_stencil",
                                       "max_color_attachments", "max_input_attachments", "driver",
                                       "compute_queue", "transfer_queue", "tile_profile", "tile_memory",
                                       "msaa_to_single_sampled", NULL};
    const cJSON *o = rgf__field(r, root, "caps", true, "the device capabilities compiled for");
    if (!o)
        return false;
    size_t at = rgf__push_key(r, "caps");
    uint32_t driver = 0;
    const char *profile = "desktop";
    bool ok = rgf__object(r, o, keys) && rgf__bool(r, o, "local_read", &c->local_read) &&
              rgf__bool(r, o, "local_read_multisampled", &c->local_read_multisampled) &&
              rgf__bool(r, o, "local_read_depth_stencil", &c->local_read_depth_stencil) &&
              rgf__u32(r, o, "max_color_attachments", false, &c->max_color_attachments) &&
              rgf__u32(r, o, "max_input_attachments", false, &c->max_input_attachments) &&
              rgf__u32(r, o, "driver", false, &driver) && rgf__bool(r, o, "compute_queue", &c->compute_queue) &&
              rgf__bool(r, o, "transfer_queue", &c->transfer_queue) &&
              rgf__bool(r, o, "msaa_to_single_sampled", &c->msaa_to_single_sampled) &&
              rgf__string(r, o, "tile_profile", false, &profile) &&
              rgf__u64(r, o, "tile_memory", false, &c->tile_memory);
    c->driver = (VkDriverId)driver;
    if (ok) {
        c->tile_profile = rgf_tile_profile_from_key(profile);
        if (c->tile_profile == RG_TILE_PROFILE_COUNT) {
            size_t p = rgf__push_key(r, "tile_profile");
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected a tile profile key (desktop, apple7, "
                                  "mali-bifrost, ...: rg_tile_info.key), got \"%.64s\"", profile);
            rgf__pop(r, p);
        }
    }
    rgf__pop(r, at);
    return ok;
}

static bool graph_json(rgf__reader *r, const cJSON *root, rg_graph_desc *d, const char **name)
{
    static const char *const keys[] = {"name", "order", "merge", "msaa_fold", "no_culling", "no_aliasing",
                                       "alias_proven_only", "single_queue", "queue_policy", "concurrent_sharing",
                                       NULL};
    const cJSON *o = rgf__field(r, root, "graph", true, "the graph's options");
    if (!o)
        return false;
    size_t at = rgf__push_key(r, "graph");
    uint32_t order = 0, merge = 0, fold = 0, queue_policy = 0;
    bool ok = rgf__object(r, o, keys) && rgf__string(r, o, "name", true, name) &&
              rgf__enum(r, o, "order", false, &rgf__order, &order) &&
              rgf__enum(r, o, "merge", false, &rgf__merge, &merge) &&
              rgf__enum(r, o, "msaa_fold", false, &rgf__fold, &fold) && rgf__bool(r, o, "no_culling", &d->no_culling) &&
              rgf__bool(r, o, "no_aliasing", &d->no_aliasing) &&
              rgf__bool(r, o, "alias_proven_only", &d->alias_proven_only) &&
              rgf__bool(r, o, "single_queue", &d->single_queue) &&
              rgf__enum(r, o, "queue_policy", false, &rgf__queue_policy, &queue_policy) &&
              rgf__bool(r, o, "concurrent_sharing", &d->concurrent_sharing);
    d->order = (rg_order)order;
    d->merge = (rg_merge)merge;
    d->msaa_fold = (rg_fold)fold;
    d->queue_policy = (rg_queue_policy)queue_policy;
    rgf__pop(r, at);
    return ok;
}

/* A requirement's resource, made by the graph (an import's memory is
 * not), and what the requirement was measured for ("for", as
 * frame_write.c writes it) when the file says: bytes that cannot hold
 * those texels (or that buffer) are no device's answer. */
static bool measured_for(rgf__reader *r, const cJSON *q, const rg_graph *g, uint32_t index, rgf_requirement *req)
{
    static const char *const texture_keys[] = {"format", "width", "height", "mips", "layers", "samples", "usage",
                                               NULL};
    static const char *const buffer_keys[] = {"size", "usage", NULL};
    rg_declared got;
    if (rg_declared_get(g, RG_DECLARED_RESOURCE, index, &got) != RG_SUCCESS ||
        got.resource.kind == RG_RESOURCE_IMPORTED) {
        size_t at = rgf__push_key(r, "resource");
        rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "resource %u is imported: the graph makes no memory for it",
                         index);
        rgf__pop(r, at);
        return false;
    }
    const rg_declared_resource d = got.resource;
    const cJSON *o = rgf__field(r, q, "for", false, "");
    if (!o)
        return true;
    size_t at = rgf__push_key(r, "for");
    rg_resource_info *m = &req->shape;
    uint32_t samples = 0;
    uint64_t usage = 0;
    bool ok = d.is_texture
                  ? rgf__object(r, o, texture_keys) && rgf__format(r, o, "format", &m->format) &&
                        rgf__u32(r, o, "width", true, &m->width) && rgf__u32(r, o, "height", true, &m->height) &&
                        rgf__u32(r, o, "mips", true, &m->mip_levels) &&
                        rgf__u32(r, o, "layers", true, &m->array_layers) &&
                        rgf__u32(r, o, "samples", true, &samples) &&
                        rgf__flags(r, o, "usage", false, RGF_IMAGE_USAGE, &usage)
                  : rgf__object(r, o, buffer_keys) && rgf__u64(r, o, "size", true, &m->size) &&
                        rgf__flags(r, o, "usage", false, RGF_BUFFER_USAGE, &usage);
    m->samples = (VkSampleCountFlagBits)samples;
    m->image_usage = d.is_texture ? (VkImageUsageFlags)usage : 0;
    m->buffer_usage = d.is_texture ? 0 : (VkBufferUsageFlags)usage;
    rgf__pop(r, at);
    /* The table's texel size is a lower bound of any layout; a format it
     * does not know has none. */
    bool known = !d.is_texture || rg_format_get_info(m->format).block_size != 0;
    VkDeviceSize least = d.is_texture ? rgf__texture_bytes(m) : m->size;
    if (ok && known && req->size < least) {
        at = rgf__push_key(r, "size");
        ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected at least the %llu bytes of the %s it was "
                              "measured for, got %llu", (unsigned long long)least,
                              d.is_texture ? "texels" : "buffer", (unsigned long long)req->size);
        rgf__pop(r, at);
    }
    req->measured = ok;
    return ok;
}

/* The saving device's memory types and each resource's requirement. */
static bool memory_json(rgf__reader *r, const cJSON *root, rgf_frame *f)
{
    static const char *const keys[] = {"types", "heaps", "requirements", NULL};
    static const char *const type_keys[] = {"flags", "heap", NULL};
    static const char *const heap_keys[] = {"size", "flags", NULL};
    static const char *const req_keys[] = {"resource", "size", "alignment", "type_bits", "dedicated", "for", NULL};
    const cJSON *o = rgf__field(r, root, "memory", false, "");
    if (!o)
        return !rgf__failed(r);
    size_t at = rgf__push_key(r, "memory");
    uint32_t types = 0, heaps = 0, reqs = 0;
    const cJSON *tl = NULL, *hl = NULL, *rl = NULL;
    bool ok = rgf__object(r, o, keys) && (tl = rgf__array(r, o, "types", true, &types)) &&
              (hl = rgf__array(r, o, "heaps", true, &heaps)) && (rl = rgf__array(r, o, "requirements", true, &reqs));
    if (ok && (types > VK_MAX_MEMORY_TYPES || heaps > VK_MAX_MEMORY_HEAPS || heaps == 0 || types == 0))
        ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected 1 to %u types and 1 to %u heaps",
                              VK_MAX_MEMORY_TYPES, VK_MAX_MEMORY_HEAPS);
    VkPhysicalDeviceMemoryProperties *p = &f->memory_properties;
    for (uint32_t i = 0; ok && i < types; i++) {
        size_t e = rgf__push_key(r, "types");
        rgf__push_index(r, i);
        const cJSON *t = cJSON_GetArrayItem(tl, (int)i);
        ok = rgf__object(r, t, type_keys) && rgf__u32(r, t, "flags", true, &p->memoryTypes[i].propertyFlags) &&
             rgf__u32(r, t, "heap", true, &p->memoryTypes[i].heapIndex);
        if (ok && p->memoryTypes[i].heapIndex >= heaps)
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "heap %u does not exist (%u heaps)",
                                  p->memoryTypes[i].heapIndex, heaps);
        rgf__pop(r, e);
    }
    for (uint32_t i = 0; ok && i < heaps; i++) {
        size_t e = rgf__push_key(r, "heaps");
        rgf__push_index(r, i);
        const cJSON *h = cJSON_GetArrayItem(hl, (int)i);
        ok = rgf__object(r, h, heap_keys) && rgf__u64(r, h, "size", true, &p->memoryHeaps[i].size) &&
             rgf__u32(r, h, "flags", true, &p->memoryHeaps[i].flags);
        rgf__pop(r, e);
    }
    p->memoryTypeCount = types;
    p->memoryHeapCount = heaps;
    for (uint32_t i = 0; ok && i < reqs; i++) {
        size_t e = rgf__push_key(r, "requirements");
        rgf__push_index(r, i);
        const cJSON *q = cJSON_GetArrayItem(rl, (int)i);
        uint32_t index = 0;
        rgf_requirement req = {.saved = true};
        ok = rgf__object(r, q, req_keys) && rgf__u32(r, q, "resource", true, &index) &&
             rgf__u64(r, q, "size", true, &req.size) && rgf__nonzero(r, "size", req.size) &&
             rgf__u64(r, q, "alignment", true, &req.alignment) &&
             rgf__u32(r, q, "type_bits", true, &req.type_bits) && rgf__bool(r, q, "dedicated", &req.dedicated);
        if (ok && index >= f->resource_count)
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "resource %u does not exist (%u resources)", index,
                                  f->resource_count);
        if (ok && (req.alignment == 0 || (req.alignment & (req.alignment - 1)) || req.type_bits == 0 ||
                   (types < 32 && (req.type_bits >> types))))
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected a power-of-two alignment and type bits "
                                  "among the %u types", types);
        ok = ok && measured_for(r, q, f->graph, index, &req);
        if (ok)
            f->requirements[index] = req;
        rgf__pop(r, e);
    }
    f->memory = ok;
    rgf__pop(r, at);
    return ok;
}

/* "name:12:5" of the byte at `at`. */
static void position(const char *text, size_t at, uint32_t *line, uint32_t *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

/* One pass over the text, before cJSON sees it: whether it ends inside a
 * string or an open object or array (a file cut short, told apart from a
 * mistake in the middle), and the first byte a frame file may not hold: a
 * NUL anywhere (cJSON skips it as whitespace), a raw control character
 * (below 0x20) in a string, which JSON escapes and cJSON takes as it
 * comes, or an escaped NUL ("\u0000"), where cJSON ends the string: a
 * name would silently lose its tail. Other escapes ("\n", "\u0001") are
 * how a writer spells control characters, and stay. */
typedef struct text_scan {
    bool open;
    size_t forbidden;                 /* the offset, or the text's size */
} text_scan;

static text_scan scan(const char *text, size_t size)
{
    text_scan t = {.forbidden = size};
    bool in_string = false, escaped = false;
    long depth = 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)text[i];
        bool control = in_string && c < 0x20;
        if (in_string && escaped) {
            escaped = false;
            if (c == 'u' && size - i > 4 && memcmp(text + i + 1, "0000", 4) == 0 && t.forbidden == size)
                t.forbidden = i - 1;
        } else if (in_string) {
            escaped = c == '\\';
            in_string = c != '"';
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        if ((c == 0 || control) && t.forbidden == size)
            t.forbidden = i;
    }
    t.open = in_string || depth > 0;
    return t;
}

static const char *const top_keys[] = {"rendergraph_frame", "saved_by", "device", "size", "graph", "caps",
                                       "resources", "commands", "memory", NULL};

/* The header's fields, the graph made, the declaration and memory read. */
static bool frame_json(rgf__reader *r, const cJSON *root, const rgf_load_desc *desc, rgf_frame *f)
{
    uint32_t version = 0;
    if (!cJSON_IsObject(root))
        return rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected a frame file's object");
    if (!rgf__u32(r, root, "rendergraph_frame", true, &version))
        return false;
    if (version != RGF_FILE_VERSION) {
        size_t at = rgf__push_key(r, "rendergraph_frame");
        rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "version %u is unknown (this library reads version %u)",
                         version, RGF_FILE_VERSION);
        rgf__pop(r, at);
        return false;
    }
    const char *saved_by = "", *device = "", *name = "";
    rg_graph_desc gd = {0};
    if (!rgf__object(r, root, top_keys) || !rgf__string(r, root, "saved_by", false, &saved_by) ||
        !rgf__string(r, root, "device", false, &device) ||
        !rgf__pair(r, root, "size", false, &f->saved_width, &f->saved_height) ||
        (rgf__field(r, root, "size", false, "") &&
         (!rgf__nonzero(r, "size", f->saved_width) || !rgf__nonzero(r, "size", f->saved_height))) ||
        !graph_json(r, root, &gd, &name) || !caps_json(r, root, &f->saved_caps))
        return false;
    snprintf(f->saved_by, sizeof f->saved_by, "%s", saved_by);
    snprintf(f->device_name, sizeof f->device_name, "%s", device);
    f->width = desc && desc->width ? desc->width : f->saved_width;
    f->height = desc && desc->height ? desc->height : f->saved_height;
    uint32_t count = 0;
    if (!rgf__array(r, root, "resources", true, &count))
        return false;
    f->resource_count = count;
    f->requirements = calloc(count + 1, sizeof *f->requirements);
    if (!f->requirements)
        return rgf__reader_fail(r, RG_ERROR_OUT_OF_MEMORY, "out of host memory");
    gd.name = name;
    if (desc && desc->caps)
        f->caps = *desc->caps;
    else if (desc && (unsigned)desc->profile >= RG_TILE_PROFILE_COUNT)
        return rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "rgf_load_desc.profile %d is not an rg_tile_profile",
                                (int)desc->profile);
    else
        f->caps = profile_caps(&f->saved_caps, desc ? desc->profile : RG_TILE_AUTO);
    gd.caps = &f->caps;
    if (desc && desc->merge)
        gd.merge = *desc->merge;
    gd.log = desc ? desc->log : NULL;
    gd.log_user = desc ? desc->log_user : NULL;
    rg_result res = rg_graph_create(&gd, &f->graph);
    if (res != RG_SUCCESS)
        return rgf__reader_fail(r, res, "rg_graph_create refused the graph's options or capabilities (%s)",
                                rg_result_string(res));
    uint32_t from[2] = {f->saved_width, f->saved_height}, to[2] = {f->width, f->height};
    return rgf__declare(r, f->graph, root, from, to) && memory_json(r, root, f);
}

rg_result rgf_load_text(const char *text, size_t size, const char *name, const rgf_load_desc *desc,
                        rgf_frame **out, rgf_error *error)
{
    if (out)
        *out = NULL;
    name = name ? name : "frame";
    if (!text || !out)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_load: %s: NULL %s", name, text ? "out" : "text");
    if (desc && (!desc->width != !desc->height))
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_load: %s: resize to %ux%u: give both width and "
                         "height, or neither", name, desc->width, desc->height);
    const char *end = NULL, *why = NULL;
    text_scan t = scan(text, size);
    size_t at = t.forbidden;
    cJSON *root = NULL;
    if (at < size) {
        why = text[at] == '\0'   ? "a NUL byte (a frame file is text)"
              : text[at] == '\\' ? "a NUL in a string (\\u0000: the string would end there)"
                                  : "a control character in a string (JSON escapes them: \\n, \\u0001)";
    } else if (!(root = cJSON_ParseWithLengthOpts(text, size, &end, false))) {
        bool cut = size == 0 || t.open;
        at = cut ? size : end && end >= text ? (size_t)(end - text) : 0;
        why = cut ? "the JSON ends before it is complete (a file cut short?)"
                  : "not valid JSON here (a frame file is one JSON object)";
    } else {
        for (at = (size_t)(end - text); at < size && memchr(" \t\r\n", text[at], 4);)
            at++;
        if (at < size) {
            why = "more after the frame's object (a frame file is one JSON object)";
            cJSON_Delete(root);
        }
    }
    if (why) {
        uint32_t line, column;
        position(text, at < size ? at : size, &line, &column);
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "%s:%u:%u: %s", name, line, column, why);
    }
    rgf_frame *f = calloc(1, sizeof *f);
    if (!f) {
        cJSON_Delete(root);
        return rgf__fail(error, RG_ERROR_OUT_OF_MEMORY, "rgf_load: %s: out of host memory", name);
    }
    snprintf(f->name, sizeof f->name, "%s", name);
    rgf__reader r = {.file = name, .error = error};
    frame_json(&r, root, desc, f);
    cJSON_Delete(root);
    if (rgf__failed(&r)) {
        rgf_frame_destroy(f);
        return r.result;
    }
    *out = f;
    return RG_SUCCESS;
}

void rgf_frame_destroy(rgf_frame *frame)
{
    if (!frame)
        return;
    rg_graph_destroy(frame->graph);
    free(frame->requirements);
    free(frame->memory_notes);
    free(frame);
}

rg_graph *rgf_frame_graph(const rgf_frame *frame) { return frame ? frame->graph : NULL; }

rgf_frame_info rgf_frame_get_info(const rgf_frame *frame)
{
    if (!frame)
        return (rgf_frame_info){0};
    return (rgf_frame_info){.name = frame->name, .saved_by = frame->saved_by, .device_name = frame->device_name,
                            .width = frame->width, .height = frame->height, .saved_width = frame->saved_width,
                            .saved_height = frame->saved_height, .saved_caps = frame->saved_caps, .caps = frame->caps,
                            .memory = frame->memory ? &frame->memory_properties : NULL,
                            .memory_notes = frame->memory_notes ? frame->memory_notes : ""};
}
