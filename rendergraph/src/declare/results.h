/* The declaration records: what the application declared (resources,
 * commands, their accesses, rendering spans), and nothing else. Only the
 * declaration calls (declare_*.c, with declare/stages.h) write them;
 * every later stage reads them through the const arrays of
 * rg__declaration. Not installed.
 */
#ifndef RG_DECLARATION_H
#define RG_DECLARATION_H

#include "base/base.h"

/* Attachment slots of a span: colors, their resolve targets, depth and its
 * resolve target. */
#define RG__SPAN_SLOTS (2 * RG_MAX_COLOR_ATTACHMENTS + 2)
#define RG__SLOT_RESOLVE(c) (RG_MAX_COLOR_ATTACHMENTS + (c))
#define RG__SLOT_DEPTH (2 * RG_MAX_COLOR_ATTACHMENTS)
#define RG__SLOT_DEPTH_RESOLVE (2 * RG_MAX_COLOR_ATTACHMENTS + 1)

typedef struct rg__resource {
    char name[RG__NAME_MAX];
    bool is_texture;
    bool imported;
    /* textures */
    VkFormat format;
    uint32_t width, height, mip_levels, array_layers;
    VkSampleCountFlagBits samples;
    VkImageAspectFlags aspects;       /* every aspect of the format */
    VkImageUsageFlags declared_usage; /* from accesses + extra (compile adds what
                                         merging and transience need: rg__image_usage) */
    rg_transient transient_mode;      /* as declared */
    /* A relative size as declared (rg_texture_desc): size_of's resource
     * index (RG__NONE: absolute), scale and rounding; width and height
     * hold the result. */
    uint32_t size_of;
    float scale;
    rg_rounding rounding;
    VkFlags extra_usage;              /* the desc's extra_usage (image or buffer) */
    /* buffers; one sized from a texture (rg_buffer_desc) keeps size_of
     * above and its bytes per texel and per row, size the result */
    VkDeviceSize size;
    VkDeviceSize per_texel, per_row;
    VkBufferUsageFlags buffer_usage;
    /* imports: state before and after the frame */
    VkImageLayout initial_layout, final_layout;
    VkPipelineStageFlags2 initial_stage, final_stage;
    VkAccessFlags2 initial_access, final_access;
    /* imports: the application's Vulkan objects, re-pointable per frame
     * (created resources' are placement's: rg__image) */
    VkImage image;
    VkImageView view;
    VkBuffer buffer;
    /* imports: the usage the application says its object was created with
     * (VkImageUsageFlags or VkBufferUsageFlags), from the import's desc or
     * the last setter (given_by_setter); 0: not said, not checked. Like the
     * objects, not part of the declaration's hash. */
    VkFlags given_usage;
    bool given_by_setter;
    /* subresource slots: aspect-major, then mip, then layer; a buffer has
     * one slot */
    uint32_t sub_base, sub_count;
    /* History pairs (rg_texture_create_history): the other half (RG__NONE
     * for any other resource); whether this half is the frame before's
     * contents (read-only) rather than the frame's own; the value the
     * first execute after placement clears that half to. */
    uint32_t history_pair;
    bool history_previous;
    VkClearValue history_clear;
} rg__resource;

typedef enum rg__access_role {
    RG__ROLE_NORMAL = 0,
    RG__ROLE_ATTACHMENT,              /* color/depth attachment of a span */
    RG__ROLE_RESOLVE,
    RG__ROLE_LIFETIME,                /* at end_rendering: keeps attachments alive
                                         to the end; never used for barriers or usage */
} rg__access_role;

/* A declared access, resolved to concrete values. */
typedef struct rg__access {
    uint32_t resource;                /* index into resources[] */
    rg_range range;                   /* textures: concrete (aspect != 0, counts >= 1) */
    VkDeviceSize offset, size;        /* buffers */
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;             /* UNDEFINED for buffers */
    bool write;
    bool local;                       /* RG_USAGE_PIXEL_LOCAL_READ */
    bool undefined_ok;                /* rg_access.undefined_ok: may read what nothing wrote */
    rg__access_role role;
} rg__access;

typedef struct rg__cmd {
    rg_command_type type;
    rg_command_kind kind;             /* RG_COMMAND_USER only */
    bool side_effects;                /* rg_user_desc.side_effects */
    rg_queue queue;                   /* the queue it is eligible for besides graphics */
    char name[RG__NAME_MAX];
    uint32_t first_access, access_count; /* into accesses[] */
    uint32_t span;                    /* span index, RG__NONE outside spans
                                         (begin and end belong to their span) */
    union {
        /* declared: the first of its rg_access records as given
         * (rg__declaration.declared, access_count of them) */
        struct { rg_record_fn record; void *user; uint32_t cost, declared; } user;
        struct { VkDeviceSize src_offset, dst_offset, size; } copy_buffer;
        /* both directions; aspect: the one copied (the access's range
         * covers both of a depth+stencil format: declare_records.c) */
        struct { VkDeviceSize offset; uint32_t mip, layer, layer_count; VkImageAspectFlags aspect; } copy_image;
        struct { rg_range range; VkClearValue value; } clear;
        struct { uint32_t src_mip, dst_mip; VkFilter filter; } blit;
    } u;
} rg__cmd;

typedef struct rg__span {
    uint32_t begin_cmd, end_cmd;      /* end_cmd RG__NONE while open */
    rg_rendering_desc desc;           /* as declared, defaults resolved */
    VkRect2D area;                    /* resolved render area */
    uint32_t layer_count;
} rg__span;

/* What the application declared, and nothing else. The arrays are const
 * for every reader: only the declaration calls (declare_*.c, through
 * rg__declared) write them. */
typedef struct rg__declaration {
    const rg__resource *resources;
    uint32_t resource_count, resource_cap;
    const rg__cmd *cmds;
    uint32_t cmd_count, cmd_cap;
    const rg__access *accesses;
    uint32_t access_count, access_cap;
    const rg__span *spans;
    uint32_t span_count, span_cap;
    /* User commands' accesses as the application gave them (for
     * rg_declared_get; compile reads the resolved accesses). */
    const rg_access *declared;
    uint32_t declared_count, declared_cap;
    uint32_t open_span;               /* RG__NONE when no span is open */
    uint32_t sub_total;               /* subresource slots over all resources */
    uint32_t tag;                     /* handle tag (see RG__INDEX_BITS) */
    uint64_t hash;                    /* to detect an unchanged re-declaration */
} rg__declaration;

/* Half of a history pair (rg_texture_create_history). */
static inline bool rg__history(const rg__resource *r) { return r->history_pair != RG__NONE; }
/* What a resource is, as rg_resource_info and the declared resource say. */
static inline rg_resource_kind rg__resource_kind(const rg__resource *r)
{
    return r->imported ? RG_RESOURCE_IMPORTED
           : !rg__history(r) ? RG_RESOURCE_CREATED
           : r->history_previous ? RG_RESOURCE_HISTORY_PREVIOUS : RG_RESOURCE_HISTORY_CURRENT;
}

/* Subresource slot of (aspect bit, mip, layer) in resource r. */
uint32_t rg__sub_slot(const rg__resource *r, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer);

#endif
