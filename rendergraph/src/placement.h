/* What placement makes (memory_plan.c, place_*.c): the memory plan, the
 * created resources' Vulkan objects, attachment and descriptor views, the
 * queues' semaphores, GPU timings, and the barriers planned with the
 * plan's alias scopes, gathered in rg__placement. The placement stages'
 * functions are in place_stages.h. Not installed.
 */
#ifndef RG_PLACEMENT_H
#define RG_PLACEMENT_H

#include "compile_results.h"
#include "declaration.h"
#include "frames.h"

/* Requirements of one resource, indexed like resources[]. */
typedef struct rg__mem_requirements {
    VkDeviceSize size, alignment;
    uint32_t type_bits;
    bool dedicated;                   /* requires a dedicated allocation (a mere
                                         preference is not honoured: place_memory.c) */
} rg__mem_requirements;

/* What a pooled resource's first use must wait for: the union of the
 * last-use scopes of every other resource whose range overlaps its own in
 * its pool (this frame's earlier occupants and, through repeated
 * execution, the frame before's later ones). The barrier planner folds it
 * into the first use. */
typedef struct rg__alias_scope {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} rg__alias_scope;

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

typedef struct rg__mem_plan {
    rg__mem_placement *items;         /* resource_count entries */
    rg__alias_scope *alias;           /* resource_count entries */
    rg__mem_pool *pools;
    uint32_t pool_count, pool_cap;
    rg_memory_totals totals;
} rg__mem_plan;

/* Attachment views of one span (place_views.c): slots as RG__SLOT_*.
 * Created textures' views are made at placement and owned; imports' are
 * set at each execute (their own view, or one the graph keeps in
 * import_views). */
typedef struct rg__span_views {
    VkImageView views[RG__SPAN_SLOTS];
    uint32_t owned;                   /* bit per slot: made by placement */
} rg__span_views;

/* What record callbacks get: the graph (for its resources' objects), the
 * command buffer and the command being recorded (RG__NONE: none, for
 * rg_record_context_get's). */
struct rg_record_context {
    rg_graph *graph;
    VkCommandBuffer cmd;
    uint32_t command;
};

/* An attachment slot of an import, and the subresource it views; sub: not
 * the whole image, so the graph makes views of it. */
typedef struct rg__import_slot {
    uint32_t span, slot, resource;
    uint32_t mip, base_layer, layers;
    bool sub;
} rg__import_slot;

/* A view of one access's subresources (record_descriptors.c), per image
 * (a history half or an import has several). */
typedef struct rg__access_view {
    uint32_t access;
    VkImage image;
    VkImageView view;
} rg__access_view;

/* A view the graph made of an import's image for one slot. */
typedef struct rg__import_view {
    uint32_t span, slot;
    VkImage image;
    VkImageView view;
} rg__import_view;

/* GPU timings (rendergraph.h, "Timings"): the timed units of the frame
 * (place_timings.c) and a ring of frames whose timestamps are written
 * (record_timings.c). */
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

typedef struct rg__timings {
    VkQueryPool pools[RG_QUEUE_COUNT]; /* RG__TIMING_FRAMES ranges of per_frame queries */
    uint32_t per_frame[RG_QUEUE_COUNT];
    uint64_t mask[RG_QUEUE_COUNT];    /* the family's timestampValidBits */
    VkEvent events[RG__TIMING_FRAMES]; /* set by the frame's last batch when done */
    rg__timing_unit *units;
    uint32_t unit_count;
    uint32_t *pos_begin, *pos_end;    /* per execution-order position: a unit or RG__NONE */
    uint32_t *batch_unit;             /* per batch: its unit or RG__NONE (queue not timed) */
    uint32_t *cmd_unit;               /* per command: its unit (spans': their
                                         instance's) or RG__NONE */
    uint64_t slot_frame[RG__TIMING_FRAMES]; /* the frame a slot holds, from 1; 0: free */
    uint32_t recording;               /* 1 + the slot of the frame being recorded; 0: none */
    uint64_t frames;                  /* frames recorded since placement */
    uint64_t *raw;                    /* vkGetQueryPoolResults' scratch: value, availability */
    double *ms;                       /* per unit, of the latest completed frame */
    uint64_t completed;               /* that frame, 0: none yet */
} rg__timings;

/* A created resource's Vulkan objects (place_memory.c). */
typedef struct rg__object {
    VkImage image;
    VkImageView view;                 /* of the whole image, where its usage allows one */
    VkBuffer buffer;
    bool pooled;                      /* shares a pool's memory */
} rg__object;

/* What placement made, each part by its own stage (the file named in the
 * comment), the frame state by execute. */
typedef struct rg__placement {
    bool on_device;                   /* made by rg_place (else rg_place_offline) */
    rg__mem_plan plan;                /* memory_plan.c */
    rg__sync sync;                    /* the barriers with the plan's alias scopes
                                         (compile_barriers.c's planner, run by
                                         graph.c at placement) */
    bool synced;                      /* sync is made: queries read it */
    rg__object *objects;              /* place_memory.c: per resource (created ones) */
    VkDeviceMemory *memory;           /* pools, lazy and dedicated allocations */
    uint32_t memory_count;
    /* Pools from rg_graph_desc.pool_memory: where each one starts (its
     * memory is not in the list above, which the graph frees itself). */
    VkDeviceMemory *app_pools;
    VkDeviceSize *app_offsets;
    uint32_t app_pool_count;
    rg__span_views *span_views;       /* per span */
    uint32_t span_view_count;         /* spans when it was made */
    rg__import_slot *import_slots;
    uint32_t import_slot_count;
    rg__import_view *import_views;    /* made at execute, kept until placement is freed */
    uint32_t import_view_count, import_view_cap;
    rg__access_view *access_views;    /* descriptor views, made when first asked for, kept
                                         until placement is freed */
    uint32_t access_view_count, access_view_cap;
    rg_record_context record;         /* rg_record_context_get's */
    rg__frames frames;                /* execute.c */
    /* Merged instances' per-span state (VK_KHR_dynamic_rendering_local_read). */
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
    /* Queues (place_queues.c): a timeline semaphore per queue the graph
     * uses, and the value each reached in the frames recorded so far (the
     * frame being recorded adds its batches' numbers to it). */
    VkSemaphore semaphores[RG_QUEUE_COUNT];
    uint64_t timeline[RG_QUEUE_COUNT];
    /* The value rg_submit last signalled on each (0: none): what retiring
     * the placement waits for (device.c). */
    uint64_t submitted[RG_QUEUE_COUNT];
    rg_submission *submissions;       /* rg_execute_batches' plan, batch_count entries */
    rg__timings timings;              /* place_timings.c; zero when timings are off */
} rg__placement;

#endif
