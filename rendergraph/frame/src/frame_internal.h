/* What the frame library's files share: the loaded frame, the names of
 * the values a frame file spells out (frame_names.c), and the error
 * helper. Not installed.
 */
#ifndef RGF_FRAME_INTERNAL_H
#define RGF_FRAME_INTERNAL_H

#include <rendergraph_frame/rendergraph_frame.h>

#include <stdarg.h>

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

/* A small enum's names, indexed by value. */
typedef struct rgf__names {
    const char *what;                 /* for messages: "a transient mode" */
    const char *const *names;
    uint32_t count;
} rgf__names;

extern const rgf__names rgf__transient, rgf__rounding, rgf__kind, rgf__queue, rgf__order, rgf__merge,
    rgf__queue_policy,
    rgf__load_op, rgf__filter, rgf__resource_kind, rgf__command_type;

/* The value of name in e, or -1. */
int rgf__enum_value(const rgf__names *e, const char *name);
/* The name of value in e, NULL past its names. */
const char *rgf__enum_name(const rgf__names *e, uint32_t value);

/* VK_ATTACHMENT_LOAD_OP_NONE (KHR/EXT), which older headers lack. */
#define RGF_LOAD_OP_NONE ((VkAttachmentLoadOp)1000400000)

/* Store ops: STORE 0, DONT_CARE 1, NONE (1000301000). */
const char *rgf__store_op_name(VkAttachmentStoreOp op);
bool rgf__store_op_value(const char *name, VkAttachmentStoreOp *out);
/* Resolve modes: "none", "sample_zero", "average", "min", "max". */
const char *rgf__resolve_mode_name(VkResolveModeFlagBits mode);
bool rgf__resolve_mode_value(const char *name, VkResolveModeFlagBits *out);
/* rg_usage by rg_usage_info.name. */
bool rgf__usage_value(const char *name, rg_usage *out);

/* Formats and layouts by the render graph's names (rg_format_name,
 * rg_layout_name), an unknown one as "VkFormat(N)". */
bool rgf__format_value(const char *name, VkFormat *out);
bool rgf__layout_value(const char *name, VkImageLayout *out);

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

#endif
