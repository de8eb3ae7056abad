/* What placement makes (memory_plan.c, place_*.c): the memory plan, the
 * created resources' Vulkan objects, attachment views, the queues'
 * semaphores, the GPU timings' pools and units, and the barriers planned
 * with the plan's alias scopes, gathered in rg__placement. Each part has
 * one writer, the stage named at its struct, which gets the graph as const
 * and its own part to fill; every array is a pointer to const, so nothing
 * writes a placement after it was made (what changes from frame to frame
 * is execute's, in execute/results.h). The placement stages' functions are in
 * place/stages.h. Not installed.
 */
#ifndef RG_PLACEMENT_H
#define RG_PLACEMENT_H

#include "compile/results.h"
#include "model.h"

/* Requirements of one resource, indexed like resources[]. */
typedef struct rg__mem_requirements {
    VkDeviceSize size, alignment;
    uint32_t type_bits;
    bool dedicated;                   /* requires a dedicated allocation (a mere
                                         preference is not honoured: place_memory.c) */
} rg__mem_requirements;

/* Where a pooled resource sat in a kept pool (place/reuse.h): memory_type
 * RG__NONE for none. */
typedef struct rg__mem_hint {
    uint32_t memory_type;
    VkDeviceSize offset;
} rg__mem_hint;

typedef struct rg__mem_placement {
    rg_memory_kind kind;
    uint32_t memory_type;             /* RG__NONE for imports and unused */
    uint32_t pool;                    /* RG__NONE unless pooled */
    VkDeviceSize offset, size, alignment;
} rg__mem_placement;

typedef struct rg__mem_pool {
    uint32_t memory_type;
    bool optimal;                     /* optimal-tiling images; else buffers */
    VkDeviceSize size;
} rg__mem_pool;

/* memory_plan.c */
typedef struct rg__mem_plan {
    const rg__mem_placement *items;   /* resource_count entries */
    const rg__alias_scope *alias;     /* resource_count entries */
    const rg__mem_pool *pools;
    uint32_t pool_count;
    rg_memory_totals totals;
} rg__mem_plan;

/* Attachment views of one span: slots as RG__SLOT_*. Created textures'
 * views are made at placement and owned; imports' and history halves'
 * are bound at each execute (execute_imports.c: their own view, or one
 * the graph made of the image). */
typedef struct rg__span_views {
    VkImageView views[RG__SPAN_SLOTS];
    uint32_t owned;                   /* bit per slot: made by placement */
} rg__span_views;

/* An attachment slot of an import, and the subresource it views; sub: not
 * the whole image, so the graph makes views of it. */
typedef struct rg__import_slot {
    uint32_t span, slot, resource;
    uint32_t mip, base_layer, layers;
    bool sub;
} rg__import_slot;

/* A view the graph made of an image, found again by its key and the
 * image: an attachment slot's (key span, key2 slot) of an import or a
 * history half; a descriptor's (key the access, key2 0). */
typedef struct rg__made_view {
    uint32_t key, key2;
    VkImage image;
    VkImageView view;
} rg__made_view;

/* Views made on first sight, kept until the placement is freed. */
typedef struct rg__made_views {
    rg__made_view *of;
    uint32_t count, cap;
} rg__made_views;

/* place_views.c: every span's attachment views, the slots bound at each
 * execute, and history halves' views of both images of their pair (made
 * here so that no execute allocates). */
typedef struct rg__placed_views {
    const rg__span_views *spans;      /* per span */
    uint32_t span_count;              /* spans when they were made */
    const rg__import_slot *import_slots;
    uint32_t import_slot_count;
    const rg__made_view *history;
    uint32_t history_count;
    /* Every view made or taken here (kept again when freed: place/reuse.h),
     * and how many were taken. */
    const struct rg__kept_view *made;
    uint32_t made_count, reused;
    bool handed;                      /* as rg__placed_objects' */
    /* Merged instances' per-span state (VK_KHR_dynamic_rendering_local_read). */
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
} rg__placed_views;

/* GPU timings (rendergraph.h, "Timings"): the timed units of the frame
 * and the pools their timestamps go to (place_timings.c); which frames
 * the pools hold is execute's (record_timings.c). */
#define RG__TIMING_FRAMES 3

typedef enum rg__timing_kind {
    RG__TIMING_BATCH = 0,
    RG__TIMING_INSTANCE,
    RG__TIMING_COMMAND,
} rg__timing_kind;

/* A timed unit: two timestamps on its queue, at queries query and
 * query + 1 of each frame's range of that queue's pool. */
typedef struct rg__timing_unit {
    rg__timing_kind kind;
    uint32_t cmd;                     /* the command, the instance's first begin
                                         (RG__NONE for a batch) */
    uint32_t batch;
    rg_queue queue;
    uint32_t query;
    uint32_t query_count;             /* a batch: its queries and its units' */
    char name[RG__NAME_MAX];
} rg__timing_unit;

/* place_timings.c */
typedef struct rg__timings {
    VkQueryPool pools[RG_QUEUE_COUNT]; /* RG__TIMING_FRAMES ranges of per_frame queries */
    uint32_t per_frame[RG_QUEUE_COUNT];
    uint64_t mask[RG_QUEUE_COUNT];    /* the family's timestampValidBits */
    VkEvent events[RG__TIMING_FRAMES]; /* set by the frame's last batch when done */
    const rg__timing_unit *units;
    uint32_t unit_count;
    const uint32_t *pos_begin, *pos_end; /* per execution-order position: a unit or RG__NONE */
    const uint32_t *batch_unit;       /* per batch: its unit or RG__NONE (queue not timed) */
    const uint32_t *cmd_unit;         /* per command: its unit (spans': their
                                         instance's) or RG__NONE */
} rg__timings;

/* A created resource's Vulkan objects. */
typedef struct rg__object {
    VkImage image;
    VkImageView view;                 /* of the whole image, where its usage allows one */
    VkBuffer buffer;
    VkDeviceMemory memory;            /* bound to, at offset */
    VkDeviceSize offset;
    bool pooled;                      /* shares a pool's memory */
    /* Planned lazy, its lazy allocation failed, so it lives in its own
     * allocation of this device-local type instead (RG__NONE: as planned). */
    uint32_t fallback_type;
} rg__object;

/* One allocation of a placement: a pool's (of images when optimal), or
 * one resource's own (lazy or dedicated). */
typedef struct rg__allocation {
    VkDeviceMemory memory;
    uint32_t memory_type;
    VkDeviceSize size;
    bool pool, optimal;
} rg__allocation;

/* place_memory.c: the created resources' objects and the memory they are
 * bound to; how many objects it took from the kept ones (place/reuse.h)
 * and how many it made. */
typedef struct rg__placed_objects {
    const rg__object *of;             /* per resource (created ones) */
    uint32_t resource_count;          /* of's, as it was made */
    const rg__allocation *memory;     /* pools, lazy and dedicated allocations */
    uint32_t memory_count;
    uint32_t reused, made, memory_reused, memory_made;
    /* The objects went to the kept ones or to retirement (a placement
     * stashed by a reset: graph_place.c); the arrays stay. */
    bool handed;
    /* Pools from rg_graph_desc.pool_memory: where each one starts (its
     * memory is not in the list above, which the graph frees itself). */
    const VkDeviceMemory *app_pools;
    const VkDeviceSize *app_offsets;
    uint32_t app_pool_count;
} rg__placed_objects;

/* What placement made, each part by its own stage. */
typedef struct rg__placement {
    bool on_device;                   /* graph.c: made by rg_place (else rg_place_offline) */
    rg__mem_plan plan;                /* memory_plan.c */
    rg__sync sync;                    /* the barriers with the plan's alias scopes
                                         (compile_barriers.c's planner, run by
                                         graph.c at placement) */
    bool synced;                      /* graph.c: sync is made, queries read it */
    rg__placed_objects objects;       /* place_memory.c */
    rg__placed_views views;           /* place_views.c */
    /* graph_place.c: it took objects earlier frames used for another
     * placement; its first frame waits for those frames (execute.c). */
    bool waits_for_kept;
    /* graph_place.c: set aside by rg_graph_reset, its objects handed to the
     * kept ones, its arrays and execute state whole: the same declaration
     * compiled alike, timings as they were (stash_hash, stash_compiles,
     * stash_timings), takes it back as it was. */
    bool stashed, stash_timings;
    uint64_t stash_hash, stash_compiles;
    /* place_queues.c: a timeline semaphore per queue the graph uses. */
    VkSemaphore semaphores[RG_QUEUE_COUNT];
    rg__timings timings;              /* place_timings.c; zero when timings are off */
} rg__placement;

/* Resource ri's memory as placed: the plan's, or where its lazy allocation
 * ran out (place_memory.c), LAZY_FALLBACK in its device-local type. */
static inline rg__mem_placement rg__placed_memory(const rg_graph *g, uint32_t ri)
{
    rg__mem_placement m = g->placement->plan.items[ri];
    const rg__object *of = g->placement->objects.of;
    if (of && m.kind == RG_MEMORY_LAZY && of[ri].fallback_type != RG__NONE) {
        m.kind = RG_MEMORY_LAZY_FALLBACK;
        m.memory_type = of[ri].fallback_type;
    }
    return m;
}

/* The barriers execute records and queries report: placement's where it
 * made them, else compile's. */
static inline const rg__sync *rg__sync_of(const rg_graph *g)
{
    return g->placement->synced ? &g->placement->sync : &g->compiled->sync;
}
/* The stages batch b's wait on queue q blocks (0: none). */
static inline VkPipelineStageFlags2 rg__wait_stage(const rg_graph *g, uint32_t b, uint32_t q)
{
    return rg__sync_of(g)->wait_stage[(size_t)b * RG_QUEUE_COUNT + q];
}

#endif
