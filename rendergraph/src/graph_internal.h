/* The render graph's internal data: what declaration fills in, what compile
 * derives, and what execute reads. Not installed.
 *
 * Ownership of the stages:
 *   declaration (helpers shared through declare_internal.h), filling
 *   resources[], cmds[], accesses[], spans[] and keeping the sticky error:
 *     graph.c      rg_graph_create/destroy/reset, errors, handle lookup.
 *     resources.c  textures and buffers, created and imported.
 *     records.c    a command's resolved accesses and its record.
 *     commands.c   rg_cmd_user.
 *     transfers.c  the built-in copy, clear and blit commands.
 *     spans.c      rg_begin_rendering / rg_end_rendering.
 *   usage.c     the usage table (rg_usage_get_info).
 *   compile.c   validation, nodes, hazard edges, closure, batches, order,
 *               barriers, lifetimes: fills the "compiled" part.
 *   compile_transient.c  which created textures are transient.
 *   memory_plan.c     the pure memory planner (lazy / dedicated / pools,
 *                     offsets, alias scopes, totals).
 *   memory_queries.c  rg_place_offline and the placement queries.
 *   memory_report.c   the memory report: table, JSON, SVG timeline.
 *   dot.c       rg_write_dot.
 *   place.c     memory for created resources (device only).
 *   execute.c   rg_execute and the record context.
 */
#ifndef RG_GRAPH_INTERNAL_H
#define RG_GRAPH_INTERNAL_H

#include "rendergraph/rendergraph.h"

#include <engine/engine.h>
#include <stdio.h>

#define RG_NONE UINT32_MAX
#define RG_NAME_MAX 64

/* Handle ids: low 20 bits = index + 1, high 12 bits = the graph's tag, which
 * changes at every reset and differs between graphs, so stale and foreign
 * handles are caught. */
#define RG_INDEX_BITS 20u
#define RG_INDEX_MASK ((1u << RG_INDEX_BITS) - 1u)

typedef struct rg_resource {
    char name[RG_NAME_MAX];
    bool is_texture;
    bool imported;
    /* textures */
    VkFormat format;
    uint32_t width, height, mip_levels, array_layers;
    VkSampleCountFlagBits samples;
    VkImageAspectFlags aspects;       /* every aspect of the format */
    VkImageUsageFlags image_usage;    /* derived from accesses + extra (+ TRANSIENT at compile) */
    rg_transient transient_mode;      /* as declared */
    bool transient;                   /* after compile: TRANSIENT_ATTACHMENT usage */
    bool pooled;                      /* after placement: shares a pool's memory */
    /* buffers */
    VkDeviceSize size;
    VkBufferUsageFlags buffer_usage;
    /* imports: state before and after the frame */
    VkImageLayout initial_layout, final_layout;
    VkPipelineStageFlags2 initial_stage, final_stage;
    VkAccessFlags2 initial_access, final_access;
    /* the Vulkan objects execute uses (imports: the user's, re-pointable;
     * created: set by placement) */
    VkImage image;
    VkImageView view;
    VkBuffer buffer;
    /* subresource slots: aspect-major, then mip, then layer; a buffer has
     * one slot */
    uint32_t sub_base, sub_count;
    /* lifetime after compile: positions in the execution order (RG_NONE if
     * unused) */
    uint32_t first_use, last_use;
} rg_resource;

typedef enum rg_access_role {
    RG_ROLE_NORMAL = 0,
    RG_ROLE_ATTACHMENT,               /* color/depth attachment of a span */
    RG_ROLE_RESOLVE,
    RG_ROLE_LIFETIME,                 /* at end_rendering: keeps attachments alive
                                         to the end; never used for barriers or usage */
} rg_access_role;

/* A declared access, resolved to concrete values. */
typedef struct rg_access_rec {
    uint32_t resource;                /* index into resources[] */
    rg_range range;                   /* textures: concrete (aspect != 0, counts >= 1) */
    VkDeviceSize offset, size;        /* buffers */
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;             /* UNDEFINED for buffers */
    bool write;
    rg_access_role role;
} rg_access_rec;

typedef enum rg_cmd_type {
    RG_CMD_USER = 0,
    RG_CMD_COPY_BUFFER,
    RG_CMD_COPY_BUFFER_TO_TEXTURE,
    RG_CMD_COPY_TEXTURE_TO_BUFFER,
    RG_CMD_CLEAR,
    RG_CMD_BLIT,
    RG_CMD_BEGIN_RENDERING,
    RG_CMD_END_RENDERING,
} rg_cmd_type;

typedef struct rg_cmd_rec {
    rg_cmd_type type;
    rg_command_kind kind;             /* RG_CMD_USER only */
    char name[RG_NAME_MAX];
    uint32_t first_access, access_count; /* into accesses[] */
    uint32_t span;                    /* span index, RG_NONE outside spans
                                         (begin and end belong to their span) */
    uint32_t node;                    /* after compile */
    union {
        struct { rg_record_fn record; void *user; } user;
        struct { VkDeviceSize src_offset, dst_offset, size; } copy_buffer;
        struct { VkDeviceSize offset; uint32_t mip, layer, layer_count; } copy_image; /* both directions */
        struct { rg_range range; VkClearValue value; } clear;
        struct { uint32_t src_mip, dst_mip; VkFilter filter; } blit;
    } u;
} rg_cmd_rec;

typedef struct rg_span {
    uint32_t begin_cmd, end_cmd;      /* end_cmd RG_NONE while open */
    rg_rendering_desc desc;           /* as declared (handles checked) */
    VkRect2D area;                    /* resolved render area */
    uint32_t layer_count;
} rg_span;

/* Attachment views of one span (views.c): [0..8) colors, [8..16) their
 * resolve targets, [16] depth, [17] its resolve target. Created textures'
 * views are made at placement and owned; imports' are set at each execute
 * (their own view, or one the graph keeps in import_views). */
#define RG_SPAN_VIEWS 18
#define RG_SPAN_VIEW_DEPTH 16
#define RG_SPAN_VIEW_DEPTH_RESOLVE 17
typedef struct rg_span_views {
    VkImageView views[RG_SPAN_VIEWS];
    uint32_t owned;                   /* bit per slot: made by placement */
} rg_span_views;

/* An attachment slot of an import, and the subresource it views; sub: not
 * the whole image, so the graph makes views of it. */
typedef struct rg_import_slot {
    uint32_t span, slot, resource;
    uint32_t mip, base_layer, layers;
    bool sub;
} rg_import_slot;

/* A view the graph made of an import's image for one slot. */
typedef struct rg_import_view {
    uint32_t span, slot;
    VkImage image;
    VkImageView view;
} rg_import_view;

struct rg_graph {
    char name[RG_NAME_MAX];
    eng_context *ctx;                 /* NULL: device-free */
    bool no_aliasing;                 /* rg_graph_desc.no_aliasing */
    uint32_t tag;                     /* handle tag (see RG_INDEX_BITS) */

    /* declaration */
    rg_resource *resources;
    uint32_t resource_count, resource_cap;
    rg_cmd_rec *cmds;
    uint32_t cmd_count, cmd_cap;
    rg_access_rec *accesses;
    uint32_t access_count, access_cap;
    rg_span *spans;
    uint32_t span_count, span_cap;
    uint32_t open_span;               /* RG_NONE when no span is open */
    uint32_t sub_total;               /* subresource slots over all resources */
    rg_result error;                  /* first error, sticky */
    char message[512];
    uint64_t declaration_hash;        /* to detect an unchanged re-declaration */

    /* compiled */
    bool compiled;
    uint64_t compiled_hash;
    uint32_t node_count;
    uint32_t *node_first_cmd;         /* per node: its first command (record order);
                                         node_count + 1 entries, the last = cmd_count */
    uint32_t *node_batch;             /* Kahn batch (longest path from a source) */
    uint64_t *closure;                /* node_count rows of row_words: bit b of row a
                                         = node b happens-before node a */
    uint32_t row_words;
    uint32_t *edges;                  /* hazard edges as (from, to) node pairs, to
                                         ascending; those the closure did not
                                         already imply (for the DOT dump) */
    uint32_t edge_count;
    uint32_t *order;                  /* command indices in execution order */
    uint32_t order_count;
    rg_command *order_handles;        /* the same as public handles */
    /* Barriers sorted by point; point p = recorded before order[p]
     * (p == order_count: after the last command, the imports' final
     * transitions). point_start has order_count + 2 entries. */
    rg_barrier_info *barriers;
    uint32_t *barrier_point;          /* per barrier */
    uint32_t barrier_count;
    uint32_t *point_start;

    /* placement / execute */
    struct rg_mem_plan *mem_plan;     /* after rg__plan_memory (see below); freed
                                         with the compile it was made for */
    bool placed;
    rg_span_views *span_views;        /* per span, after placement */
    uint32_t span_view_count;         /* spans when it was made */
    rg_import_slot *import_slots;     /* after placement */
    uint32_t import_slot_count;
    rg_import_view *import_views;     /* made at execute, kept until placement is freed */
    uint32_t import_view_count, import_view_cap;
    VkDeviceMemory *memory;           /* pools, lazy and dedicated allocations */
    uint32_t memory_count;
    uint64_t placed_hash;             /* compiled_hash the placement was made for */
    VkImageMemoryBarrier2 *scratch_image_barriers; /* sized at compile */
    VkBufferMemoryBarrier2 *scratch_buffer_barriers;
    uint32_t scratch_cap;
};

/* Records the first error (later ones are dropped) and returns it. */
rg_result rg__fail(rg_graph *g, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Handle -> index, or RG_NONE when stale, foreign or 0. */
uint32_t rg__texture_index(const rg_graph *g, rg_texture t);
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b);

/* Subresource slot of (aspect bit, mip, layer) in resource r. */
uint32_t rg__sub_slot(const rg_resource *r, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer);

/* Compile's second half (compile_barriers.c): barriers from the execution
 * order, scratch_cap, and the resources' lifetimes. */
rg_result rg__plan_barriers(rg_graph *g);
/* Lifetimes only (an unchanged re-declaration reuses the rest). */
void rg__lifetimes(rg_graph *g);

/* Transient attachments (compile_transient.c): sets each created texture's
 * transient flag and TRANSIENT_ATTACHMENT usage; RG_ERROR_TRANSIENT_CONTENTS
 * when a forced-transient texture's contents are needed. */
rg_result rg__infer_transient(rg_graph *g);

/* Frees everything compile made (declaration stays). */
void rg__compiled_free(rg_graph *g);
/* Gives every used created resource memory, and spans their attachment
 * views (needs the device). Transactional. */
rg_result rg__place(rg_graph *g);
/* Frees placed memory and views (execute's resources). */
void rg__placement_free(rg_graph *g);

/* Formats, usages, blits and resolve modes against what the device offers
 * (device_support.c); run first at placement. */
rg_result rg__check_device_support(rg_graph *g);

/* Attachment views (views.c): made for created textures at placement;
 * imports' bound at every execute, before recording; all freed with the
 * placement. */
rg_result rg__views_make(rg_graph *g);
rg_result rg__views_bind(rg_graph *g);
void rg__views_free(rg_graph *g);


/* ------------------------------------------------------- memory placement
 * The planner (memory_plan.c) is pure: it sees each created resource's
 * memory requirements (from the device in place.c, or recorded ones through
 * rg_place_offline) and decides lazy / dedicated / pooled, pools and offsets,
 * using the compile step's happens-before closure. place.c then makes the
 * memory and binds. */

/* Requirements of one resource, indexed like resources[]. */
typedef struct rg_mem_requirements {
    VkDeviceSize size, alignment;
    uint32_t type_bits;
    bool dedicated;                   /* requires a dedicated allocation (a mere
                                         preference is not honoured: place.c) */
} rg_mem_requirements;

typedef struct rg_mem_placement {
    rg_memory_kind kind;
    uint32_t memory_type;             /* RG_NONE for imports and unused */
    uint32_t pool;                    /* RG_NONE unless pooled */
    VkDeviceSize offset, size, alignment;
    /* Pooled resources: the union of the last-use scopes of every other
     * resource whose range overlaps this one in its pool (this frame's
     * earlier occupants and, through repeated execution, the frame
     * before's later ones). Folded into the first-use barrier. */
    VkPipelineStageFlags2 alias_stage;
    VkAccessFlags2 alias_access;
} rg_mem_placement;

typedef struct rg_mem_pool {
    uint32_t memory_type;
    bool optimal;                     /* optimal-tiling images; else buffers */
    VkDeviceSize size;
} rg_mem_pool;

typedef struct rg_mem_plan {
    bool planned;
    uint64_t compiled_hash;           /* the compile it was planned for */
    rg_mem_placement *items;          /* resource_count entries */
    rg_mem_pool *pools;
    uint32_t pool_count;
    rg_memory_totals totals;
} rg_mem_plan;

/* Plans placement from requirements (resource_count entries; entries of
 * imports and unused resources are ignored). Fills g->mem and sets each
 * pooled resource's alias scope. Device-free. */
rg_result rg__plan_memory(rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg_mem_requirements *reqs);
/* Frees the plan and its arrays; accepts NULL. */
void rg__mem_plan_free(rg_mem_plan *plan);
/* g->mem_plan when it was planned for the current compile, else NULL. */
const rg_mem_plan *rg__mem_plan_current(const rg_graph *g);

/* Frees the barrier plan (compile_barriers.c). */
void rg__barriers_free(rg_graph *g);

/* Re-plans the barriers with the alias scopes of g->mem folded into each
 * pooled resource's first use (compile_barriers.c). */
rg_result rg__plan_barriers_with_aliases(rg_graph *g);

#endif
