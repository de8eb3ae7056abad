/* What the frame library's files share: the loaded frame, the names of
 * the values a frame file spells out (frame_names.c), and the error
 * helper. Not installed.
 */
#ifndef RGF_FRAME_INTERNAL_H
#define RGF_FRAME_INTERNAL_H

#include <rendergraph_frame/rendergraph_frame.h>

#include <stdarg.h>
#include <string.h>

/* One created resource's memory requirements as its device placed it,
 * and the resource they were measured for ("for" in the file): its
 * format, extent, mips, layers, samples and image usage, or a buffer's
 * size and usage. rgf_frame_place uses them only for a resource that is
 * still that (frame_place.c). */
typedef struct rgf_requirement {
    bool saved;
    VkDeviceSize size, alignment;
    uint32_t type_bits;
    bool dedicated;
    bool measured;                    /* the file says what for */
    rg_resource_info shape;
} rgf_requirement;

struct rgf_frame {
    rg_graph *graph;
    char name[256];
    char saved_by[64];
    char device_name[256];
    uint32_t width, height, saved_width, saved_height;
    rg_device_caps saved_caps, caps;
    bool memory;                      /* memory types and requirements saved */
    VkPhysicalDeviceMemoryProperties memory_properties;
    rgf_requirement *requirements;    /* per resource, when memory */
    uint32_t resource_count;
    /* The last rgf_frame_place's saved requirements it modelled instead,
     * a line each (rgf_frame_info.memory_notes); NULL: none. */
    char *memory_notes;
};

/* Formats the message into *error (may be NULL); returns result. */
rg_result rgf__fail(rgf_error *error, rg_result result, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- what a requirement holds (frame_place.c) ---- */

/* A texture's texels: the bytes of every mip, layer and sample (4 a texel
 * for a format the render graph's table does not know). */
VkDeviceSize rgf__texture_bytes(const rg_resource_info *info);

/* ---- names (frame_names.c) ---- */

/* The names of one enum's values, from a list of base/name_lists.h. */
typedef struct rgf__name {
    int64_t value;
    const char *name;                 /* NULL: files have no name for it (a buffer history) */
} rgf__name;
typedef struct rgf__names {
    const char *what;                 /* for messages: "a transient mode" */
    const rgf__name *rows;
    uint32_t count;
} rgf__names;

extern const rgf__names rgf__transient, rgf__rounding, rgf__kind, rgf__queue, rgf__order, rgf__merge, rgf__fold,
    rgf__queue_policy, rgf__load_op, rgf__store_op, rgf__resolve_mode, rgf__filter, rgf__resource_kind,
    rgf__command_type;
/* rgf__resource_kind's values: the rg_resource_kind, with this bit for a
 * buffer's ("buffer", "buffer_import"). */
#define RGF_BUFFER_KIND 0x100

/* The value of name in e: false when e has no such name. */
bool rgf__enum_value(const rgf__names *e, const char *name, int64_t *out);
/* The name of value in e, NULL when e has none. */
const char *rgf__enum_name(const rgf__names *e, int64_t value);
/* e's names for a message into buf: "a, b, c", the last two joined by
 * last (", " or " or "). */
const char *rgf__enum_names(const rgf__names *e, const char *last, char *buf, size_t size);
/* rg_usage by rg_usage_info.name. */
bool rgf__usage_value(const char *name, rg_usage *out);

/* Formats and layouts by the render graph's names (rg_format_name,
 * rg_layout_name); their what is their type, and rgf__vk_value reads an
 * unknown value as the render graph names it too ("VkFormat(12)"). */
extern const rgf__names rgf__formats, rgf__layouts;
bool rgf__vk_value(const rgf__names *e, const char *name, int64_t *out);

/* Flag sets as the render graph writes them ("A|B", "NONE", unknown bits
 * as hex) and back. */
typedef enum rgf__flags {
    RGF_STAGES,
    RGF_ACCESS,
    RGF_IMAGE_USAGE,
    RGF_BUFFER_USAGE,
    RGF_ASPECT,
} rgf__flag_kind;
void rgf__flags_name(rgf__flag_kind kind, uint64_t flags, char *buf, size_t size);
bool rgf__flags_value(rgf__flag_kind kind, const char *text, uint64_t *out);
/* RGF_ASPECT's bits by name. */
extern const rgf__names *const rgf__aspect;

/* A resource's shape as the graph creates it: a texture folded in place
 * (rg_resource_info.fold: "folded in place: ...", rendergraph.h
 * "Multisampling") is made at one sample. */
static inline rg_resource_info rgf__as_created(rg_resource_info info)
{
    if (info.fold && strncmp(info.fold, "folded in place", 15) == 0)
        info.samples = VK_SAMPLE_COUNT_1_BIT;
    return info;
}

#endif
