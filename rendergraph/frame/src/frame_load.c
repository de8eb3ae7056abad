/* rgf_load: a frame file's header (version, size, graph options,
 * capabilities) and memory section, the graph made from them, and the
 * declaration (frame_declare.c) into it. A file that is not JSON is
 * refused with the line and column where parsing stopped.
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
    if (profile == RG_TILE_DESKTOP) {
        caps.driver = (VkDriverId)0; /* no tile GPU's driver: RG_MERGE_AUTO does not merge */
        return caps;
    }
    caps.local_read = caps.local_read_multisampled = caps.local_read_depth_stencil = true;
    caps.driver = profile <= RG_TILE_APPLE7      ? VK_DRIVER_ID_MOLTENVK
                  : profile <= RG_TILE_MALI_VALHALL ? VK_DRIVER_ID_ARM_PROPRIETARY
                                                    : VK_DRIVER_ID_QUALCOMM_PROPRIETARY;
    return caps;
}

static bool caps_json(rgf__reader *r, const cJSON *root, rg_device_caps *c)
{
    static const char *const keys[] = {"local_read", "local_read_multisampled", "local_read_depth_stencil",
                                       "max_color_attachments", "max_input_attachments", "driver",
                                       "compute_queue", "transfer_queue", "tile_profile", "tile_memory", NULL};
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
    static const char *const keys[] = {"name", "order", "merge", "no_culling", "no_aliasing", "alias_proven_only",
                                       "single_queue", "queue_policy", "concurrent_sharing", NULL};
    const cJSON *o = rgf__field(r, root, "graph", true, "the graph's options");
    if (!o)
        return false;
    size_t at = rgf__push_key(r, "graph");
    uint32_t order = 0, merge = 0, queue_policy = 0;
    bool ok = rgf__object(r, o, keys) && rgf__string(r, o, "name", true, name) &&
              rgf__enum(r, o, "order", false, &rgf__order, &order) &&
              rgf__enum(r, o, "merge", false, &rgf__merge, &merge) && rgf__bool(r, o, "no_culling", &d->no_culling) &&
              rgf__bool(r, o, "no_aliasing", &d->no_aliasing) &&
              rgf__bool(r, o, "alias_proven_only", &d->alias_proven_only) &&
              rgf__bool(r, o, "single_queue", &d->single_queue) &&
              rgf__enum(r, o, "queue_policy", false, &rgf__queue_policy, &queue_policy) &&
              rgf__bool(r, o, "concurrent_sharing", &d->concurrent_sharing);
    d->order = (rg_order)order;
    d->merge = (rg_merge)merge;
    d->queue_policy = (rg_queue_policy)queue_policy;
    rgf__pop(r, at);
    return ok;
}

/* The saving device's memory types and each resource's requirement. */
static bool memory_json(rgf__reader *r, const cJSON *root, rgf_frame *f)
{
    static const char *const keys[] = {"types", "heaps", "requirements", NULL};
    static const char *const type_keys[] = {"flags", "heap", NULL};
    static const char *const heap_keys[] = {"size", "flags", NULL};
    static const char *const req_keys[] = {"resource", "size", "alignment", "type_bits", "dedicated", NULL};
    const cJSON *o = rgf__field(r, root, "memory", false, "");
    if (!o)
        return !rgf__failed(r);
    size_t at = rgf__push_key(r, "memory");
    uint32_t types = 0, heaps = 0, reqs = 0;
    const cJSON *tl, *hl, *rl;
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
             rgf__u64(r, q, "size", true, &req.size) && rgf__u64(r, q, "alignment", true, &req.alignment) &&
             rgf__u32(r, q, "type_bits", true, &req.type_bits) && rgf__bool(r, q, "dedicated", &req.dedicated);
        if (ok && index >= f->resource_count)
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "resource %u does not exist (%u resources)", index,
                                  f->resource_count);
        if (ok && (req.alignment == 0 || (req.alignment & (req.alignment - 1)) || req.type_bits == 0 ||
                   (types < 32 && (req.type_bits >> types))))
            ok = rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected a power-of-two alignment and type bits "
                                  "among the %u types", types);
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

/* Whether the text ends inside a string or an open object or array: a
 * file cut short, told apart from a mistake in the middle. */
static bool ends_open(const char *text, size_t size)
{
    bool in_string = false, escaped = false;
    long depth = 0;
    for (size_t i = 0; i < size; i++) {
        char c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    return in_string || depth > 0;
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
        !rgf__pair(r, root, "size", true, &f->saved_width, &f->saved_height) || !graph_json(r, root, &gd, &name) ||
        !caps_json(r, root, &f->saved_caps))
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
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, false);
    if (!root) {
        bool cut = size == 0 || ends_open(text, size);
        size_t at = cut ? size : end && end >= text ? (size_t)(end - text) : 0;
        uint32_t line, column;
        position(text, at < size ? at : size, &line, &column);
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "%s:%u:%u: %s", name, line, column,
                         cut ? "the JSON ends before it is complete (a file cut short?)"
                             : "not valid JSON here (a frame file is one JSON object)");
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

rg_result rgf_load(const char *path, const rgf_load_desc *desc, rgf_frame **out, rgf_error *error)
{
    if (out)
        *out = NULL;
    if (!path)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_load: NULL path");
    FILE *file = fopen(path, "rb");
    if (!file)
        return rgf__fail(error, RG_ERROR_IO, "%s: cannot open the file", path);
    size_t cap = 1 << 16, size = 0;
    char *text = malloc(cap);
    for (size_t n = 1; text && n > 0;) {
        if (size == cap) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
        n = fread(text + size, 1, cap - size, file);
        size += n;
    }
    bool read_error = ferror(file) != 0;
    fclose(file);
    if (!text)
        return rgf__fail(error, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading the file", path);
    if (read_error) {
        free(text);
        return rgf__fail(error, RG_ERROR_IO, "%s: cannot read the file", path);
    }
    rg_result res = rgf_load_text(text, size, path, desc, out, error);
    free(text);
    return res;
}

void rgf_frame_destroy(rgf_frame *frame)
{
    if (!frame)
        return;
    rg_graph_destroy(frame->graph);
    free(frame->requirements);
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
                            .memory = frame->memory ? &frame->memory_properties : NULL};
}
