/* rgf_frame_place: a loaded frame placed without a device, from the
 * memory its saving device reported or from a model of a device
 * (rendergraph_frame.h, rgf_memory), through rg_place_offline.
 */
#include "frame_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rounds v up to a multiple of the power of two a. */
static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) & ~(a - 1); }

/* The type bits of every type of a device with count types. */
static uint32_t all_types(uint32_t count) { return count >= 32 ? UINT32_MAX : (1u << count) - 1; }

typedef struct placing {
    rgf_frame *f;
    bool saved_types;                 /* the saving device's types, else the model's */
    bool saved_sizes;                 /* the saved requirements' sizes where there are some */
    /* Compiled for the saved tile profile: the graph gives each resource
     * the usage it gave when saved, unless the file was edited. On another
     * profile usage follows that GPU (transient attachments, input
     * attachments of merged spans) and a saved size stands in for it. */
    bool saved_profile;
    uint32_t model_types;             /* the model's type bits */
} placing;

/* a * b, or UINT64_MAX where it would wrap. */
static VkDeviceSize saturated(VkDeviceSize a, VkDeviceSize b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

VkDeviceSize rgf__texture_bytes(const rg_resource_info *info)
{
    rg_format_info f = rg_format_get_info(info->format);
    VkDeviceSize bytes = 0;
    /* A 32-bit extent has at most 32 mips; a file may claim more (fuzzed,
     * edited): those count as 1x1 without shifting past the width. */
    uint32_t mips = info->mip_levels ? info->mip_levels : 1, shifted = mips < 32 ? mips : 32;
    for (uint32_t m = 0; m < shifted; m++) {
        uint32_t w = info->width >> m ? info->width >> m : 1, h = info->height >> m ? info->height >> m : 1;
        VkDeviceSize bw = f.block_width ? (w + f.block_width - 1) / f.block_width : w;
        VkDeviceSize bh = f.block_height ? (h + f.block_height - 1) / f.block_height : h;
        VkDeviceSize mip = saturated(saturated(bw, bh), f.block_size ? f.block_size : 4);
        bytes = bytes > UINT64_MAX - mip ? UINT64_MAX : bytes + mip;
    }
    bytes += (VkDeviceSize)(mips - shifted) * (f.block_size ? f.block_size : 4);
    bytes = saturated(bytes, info->array_layers ? info->array_layers : 1);
    return saturated(bytes, info->samples ? (VkDeviceSize)info->samples : 1);
}

/* What a requirement was measured for that the resource no longer is,
 * as "format, usage" into buf (empty when it is all of it); usage only
 * when `usage`. */
static void shape_differs(bool is_texture, bool usage, const rg_resource_info *m, const rg_resource_info *now,
                          char *buf, size_t size)
{
    const struct { const char *name; bool differs; } fields[] = {
        {"format", is_texture && m->format != now->format},
        {"width", is_texture && m->width != now->width},
        {"height", is_texture && m->height != now->height},
        {"mips", is_texture && m->mip_levels != now->mip_levels},
        {"layers", is_texture && m->array_layers != now->array_layers},
        {"samples", is_texture && m->samples != now->samples},
        {"size", !is_texture && m->size != now->size},
        {"usage", usage && (is_texture ? m->image_usage != now->image_usage : m->buffer_usage != now->buffer_usage)},
    };
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (fields[i].differs && len + strlen(fields[i].name) + 3 < size)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", fields[i].name);
}

/* Appends a line to the frame's memory notes; false out of host memory. */
static bool note(rgf_frame *f, const char *name, const char *differs)
{
    char line[320];
    if (differs[0])
        snprintf(line, sizeof line, "saved requirement for '%.200s' does not match its declaration (%s): modelled\n",
                 name, differs);
    else
        snprintf(line, sizeof line, "saved requirement for '%.200s' does not say what it was measured for: "
                 "modelled\n", name);
    size_t old = f->memory_notes ? strlen(f->memory_notes) : 0, n = strlen(line);
    char *notes = realloc(f->memory_notes, old + n + 1);
    if (!notes)
        return false;
    memcpy(notes + old, line, n + 1);
    f->memory_notes = notes;
    return true;
}

static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    const placing *p = user;
    const rgf_requirement *saved = index < p->f->resource_count ? &p->f->requirements[index] : NULL;
    rg_resource_info info;
    if (rg_resource_get(p->f->graph, index, &info) != RG_SUCCESS)
        return false;
    info = rgf__as_created(info);
    /* A saved requirement holds for the resource it was measured for: one
     * the file now declares otherwise (edited), or that does not say, is
     * modelled as if none were saved, and noted. */
    if (saved && saved->saved && p->saved_sizes) {
        char differs[96] = "";
        if (saved->measured)
            shape_differs(is_texture, p->saved_profile, &saved->shape, &info, differs, sizeof differs);
        if (saved->measured && !differs[0]) {
            *size = saved->size;
            *alignment = saved->alignment;
            *dedicated = saved->dedicated;
            *type_bits = p->saved_types ? saved->type_bits : p->model_types;
            return true;
        }
        if (!note(p->f, name, differs))
            return false;
    }
    *alignment = is_texture ? 65536 : 256;
    *size = align_up(is_texture ? rgf__texture_bytes(&info) : info.size, *alignment);
    *dedicated = false;
    *type_bits = p->saved_types ? all_types(p->f->memory_properties.memoryTypeCount) : p->model_types;
    return true;
}

/* The model device: one device-local type, and a lazily allocated one
 * where the profile's tile keeps lazy memory on chip. */
static VkPhysicalDeviceMemoryProperties model_memory(rg_tile_profile profile, uint32_t *type_bits)
{
    VkPhysicalDeviceMemoryProperties m = {
        .memoryTypeCount = 1,
        .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
                        {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0}},
        .memoryHeapCount = 1,
        .memoryHeaps = {{8ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}},
    };
    if (rg_tile_profile_info(profile).lazy_memory)
        m.memoryTypeCount = 2;
    *type_bits = all_types(m.memoryTypeCount);
    return m;
}

rg_result rgf_frame_place(rgf_frame *frame, rgf_memory memory, rgf_memory *used, rgf_error *error)
{
    if (used)
        *used = RGF_MEMORY_AUTO;
    if (!frame || (unsigned)memory > RGF_MEMORY_MODEL)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_frame_place: %s", frame ? "memory out of range"
                                                                                         : "NULL frame");
    rg_result res = rg_compile(frame->graph);
    if (res != RG_SUCCESS)
        return rgf__fail(error, res, "%s: rg_compile: %s", frame->name, rg_graph_error_message(frame->graph));
    rg_tile_profile profile = frame->caps.tile_profile;
    bool same_size = frame->width == frame->saved_width && frame->height == frame->saved_height;
    rg_tile_profile saved = frame->saved_caps.tile_profile;
    bool same_profile = (profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : profile) ==
                        (saved == RG_TILE_AUTO ? RG_TILE_DESKTOP : saved);
    if (memory == RGF_MEMORY_SAVED && !frame->memory)
        return rgf__fail(error, RG_ERROR_UNSUPPORTED, "%s: the file holds no memory requirements (saved without "
                         "rgf_save_desc.memory, or before placement)", frame->name);
    if (memory == RGF_MEMORY_AUTO)
        memory = frame->memory && same_size && same_profile ? RGF_MEMORY_SAVED : RGF_MEMORY_MODEL;
    free(frame->memory_notes);
    frame->memory_notes = NULL;
    placing p = {.f = frame, .saved_types = memory == RGF_MEMORY_SAVED, .saved_sizes = frame->memory && same_size,
                 .saved_profile = same_profile};
    VkPhysicalDeviceMemoryProperties model = model_memory(profile, &p.model_types);
    const VkPhysicalDeviceMemoryProperties *props = p.saved_types ? &frame->memory_properties : &model;
    res = rg_place_offline(frame->graph, props, requirements, &p);
    if (res != RG_SUCCESS)
        return rgf__fail(error, res, "%s: rg_place_offline: %s", frame->name, rg_graph_error_message(frame->graph));
    if (used)
        *used = memory;
    return RG_SUCCESS;
}
