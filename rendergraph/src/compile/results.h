/* What the compile stages make: one result struct per stage (rg__nodes,
 * rg__edges, ... rg__sync), gathered in rg__compiled. The stages' functions
 * are in compile/stages.h. Not installed.
 */
#ifndef RG_COMPILE_RESULTS_H
#define RG_COMPILE_RESULTS_H

#include "base/base.h"

/* How compile_merge.c changed an access: a pixel-local read merged into an
 * input-attachment read; an attachment kept in RENDERING_LOCAL_READ layout
 * for its instance. */
typedef enum rg__access_mode {
    RG__MODE_DECLARED = 0,
    RG__MODE_INPUT,
    RG__MODE_LOCAL_LAYOUT,
} rg__access_mode;

/* One attachment of a rendering instance. */
typedef struct rg__inst_att {
    uint32_t resource;
    uint32_t span, slot;              /* the first span naming it and its slot there
                                         (view, load op, clear value) */
    uint32_t last_span, last_slot;    /* the last one (store op, resolve) */
    VkImageLayout layout;
    VkAttachmentStoreOp store;        /* as the instance stores it */
} rg__inst_att;

/* Consecutive spans rendered as one instance (one span when not merged). */
typedef struct rg__instance {
    uint32_t first, count;            /* into compiled.instance_spans */
    uint32_t color_count;
    rg__inst_att colors[RG_MAX_COLOR_ATTACHMENTS];
    bool has_depth;
    rg__inst_att depth;
    uint32_t begin_pos, end_pos;      /* execution-order positions of its first
                                         begin and last end */
} rg__instance;

/* Per span: its instance and, merged, its locations and input indices per
 * instance color attachment. */
typedef struct rg__span_map {
    uint32_t instance;                /* RG__NONE: the span was culled */
    uint32_t locations[RG_MAX_COLOR_ATTACHMENTS];
    uint32_t inputs[RG_MAX_COLOR_ATTACHMENTS];
    uint32_t depth_input;
} rg__span_map;

/* A pair of spans that could merge, and why they did not ("" merged). */
typedef struct rg__merge_note {
    uint32_t first, second;           /* spans */
    char reason[256];
} rg__merge_note;

/* A semaphore wait of a batch (rg_batch_wait); batch RG__NONE: the frame
 * before's last batch of that queue. */
typedef struct rg__wait {
    uint32_t batch;
    VkPipelineStageFlags2 base;       /* ALL_COMMANDS for the frame's edges, else 0
                                         (the barrier planner gives the stages:
                                         rg__sync.wait_stage) */
} rg__wait;

/* One submission: its queue's commands at positions first..last. */
typedef struct rg__batch {
    rg_queue queue;
    uint32_t first, last;             /* first > last: no commands */
    uint64_t signal;                  /* its number on its queue, from 1 */
    bool waits_on[RG_QUEUE_COUNT];
    rg__wait wait[RG_QUEUE_COUNT];    /* per queue (never its own) */
} rg__batch;

/* An eligible command kept on the graphics queue. */
typedef struct rg__queue_note {
    uint32_t cmd;
    char reason[160];
} rg__queue_note;

/* A run of subresources of a history pair's previous half: cleared, then
 * left in `layout` and visible to (stage, access), its reads in the frame. */
typedef struct rg__history_clear {
    uint32_t resource;
    rg_range range;
    VkImageLayout layout;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} rg__history_clear;

/* Each compile stage writes one result struct of its own, below, and
 * nothing else: it is called as rg__compile_X(const rg_graph *, rg__X *out),
 * and every array of the declaration and of every result is a pointer to
 * const, so a stage that wrote into the declaration or into another
 * stage's results would not compile. Only the owner fills an array (through
 * its own non-const pointer, before publishing it) and frees it
 * (rg__X_free); graph.c calls the stages and the frees. */

/* compile_nodes.c: spans contracted into nodes. */
typedef struct rg__nodes {
    uint32_t count;
    const uint32_t *first_cmd;        /* per node: its first command (record order);
                                         count + 1 entries, the last = cmd_count */
    const uint32_t *of_cmd;           /* per command: its node */
} rg__nodes;

/* compile_edges.c: hazard edges as (from, to) node pairs, `to` ascending,
 * duplicates removed. */
typedef struct rg__edges {
    const uint32_t *pairs;
    uint32_t count;
} rg__edges;

/* compile_closure.c: happens-before rows, and the edges they did not
 * already imply (the DOT dump's). */
typedef struct rg__closure {
    const uint64_t *rows;             /* node count rows of row_words: bit b of row a
                                         = node b happens-before node a */
    uint32_t row_words;
    const uint32_t *reduced;          /* (from, to) pairs */
    uint32_t reduced_count;
} rg__closure;

/* compile_cull.c */
typedef struct rg__cull {
    const uint8_t *node_culled;       /* per node: not recorded */
    uint32_t culled_count;            /* commands culled */
    /* Per node: where in reasons its reason starts (RG__NONE: kept); NULL
     * when nothing is culled. */
    const uint32_t *reason_at;
    const char *reasons;
} rg__cull;

/* An order of the commands that run (culled ones left out): compile_order
 * makes one, compile_schedule and compile_merge each make their own from
 * the one before (rg__order_from_ranks). */
typedef struct rg__order {
    const uint32_t *cmds;             /* command indices in execution order */
    uint32_t count;
} rg__order;

/* compile_order.c: each node's level (the longest path from a source: the
 * nodes of one level are independent) and the order by level. */
typedef struct rg__levels {
    const uint32_t *node_level;
    rg__order order;
} rg__levels;

/* compile_schedule.c: the order with the lower peak of live bytes. */
typedef struct rg__schedule {
    rg__order order;
} rg__schedule;

/* compile_merge.c: rendering instances, the execution order (the schedule's,
 * merge candidates made adjacent), each access's mode. */
typedef struct rg__merged {
    rg__order order;                  /* the execution order */
    const rg__instance *instances;
    uint32_t instance_count;
    const uint32_t *instance_spans;   /* spans in execution order */
    const rg__span_map *span_map;     /* per span */
    const uint8_t *access_mode;       /* per access: rg__access_mode */
    const rg__merge_note *merges;
    uint32_t merge_count;
    const VkImageUsageFlags *usage;   /* per resource: what its pixel-local reads
                                         need (SAMPLED or INPUT_ATTACHMENT) */
} rg__merged;

/* compile_fold.c: multisampled attachments rendered into their resolve
 * targets (VK_EXT_multisampled_render_to_single_sampled). */
typedef struct rg__folds {
    const uint32_t *into;             /* per resource: the target a folded texture renders into; RG__NONE */
    const uint8_t *target;            /* per resource: a target folded into, or a texture folded in
                                         place (created with the flag, at one sample) */
    const uint8_t *span_samples;      /* per span: its rasterization samples when it folds; 0 */
    char **note;                      /* per multisampled attachment: which way it went (reports) */
    uint32_t note_count;              /* its entries: the resource count it was made for */
} rg__folds;

/* compile_transient.c */
typedef struct rg__transients {
    const VkImageUsageFlags *usage;   /* per resource: the image's usage (declared,
                                         the merge's, TRANSIENT_ATTACHMENT) */
    const uint8_t *transient;         /* per resource: TRANSIENT_ATTACHMENT usage */
    char **why;                       /* per texture not transient: why (reports); else NULL */
    uint32_t why_count;               /* its entries: the resource count it was made for */
} rg__transients;

/* compile_lifetimes.c: first and last use as execution-order positions
 * (RG__NONE: unused, so placement does not create it). */
typedef struct rg__lifetime {
    uint32_t first, last;
} rg__lifetime;

typedef struct rg__lifetimes {
    const rg__lifetime *of;           /* per resource */
} rg__lifetimes;

/* compile_queues.c */
typedef struct rg__queues {
    const uint8_t *node_queue;        /* per node: rg_queue */
    uint32_t queues_used;             /* bit per rg_queue with commands (graphics always) */
    const uint32_t *resource_queues;  /* per resource: bit per rg_queue using it */
    const rg__batch *batches;         /* in submission order */
    uint32_t batch_count;
    const uint32_t *pos_batch;        /* per execution-order position */
    const uint32_t *node_batch;       /* per node: its batch (RG__NONE culled) */
    const rg__queue_note *notes;
    uint32_t note_count;
} rg__queues;

/* compile_history.c: per subresource slot of a history pair's previous
 * half, the layout the frame first reads it in and the union of its reads
 * in that layout (its target: how the current half ends the frame). */
typedef struct rg__history_target {
    bool read;                        /* the frame reads the slot (else the rest is 0) */
    VkImageLayout layout;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} rg__history_target;

typedef struct rg__history_targets {
    const rg__history_target *of;     /* per subresource slot (sub_total + 1); zero
                                         outside previous halves */
} rg__history_targets;

/* What a pooled resource's first use must wait for: the union of the
 * last-use scopes of every other resource whose range overlaps its own in
 * its pool (this frame's earlier occupants and, through repeated
 * execution, the frame before's later ones). The barrier planner folds it
 * into the first use. */
typedef struct rg__alias_scope {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} rg__alias_scope;

/* One synchronization2 barrier as the graph keeps it: its resource by
 * index. Point p = recorded before order[p] (p == order count: after the
 * last command, the imports' final transitions). */
typedef struct rg__barrier {
    uint32_t point;
    uint32_t resource;                /* RG__NONE: a memory barrier */
    bool hoisted, by_region;          /* as rg_barrier_info's */
    rg_range range;                   /* a texture's subresources */
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
    VkImageLayout old_layout, new_layout;
} rg__barrier;

/* compile_barriers.c: synchronization2 barriers over the order, planned
 * once at compile (nothing shares memory) and again by placement (with
 * its alias scopes), each into its own. */
typedef struct rg__sync {
    /* Sorted by point; point_start has order count + 2 entries. */
    const rg__barrier *barriers;
    uint32_t barrier_count;
    /* The public forms rg_barrier_get hands out (the query boundary: the
     * only place barriers and the order carry handles, which carry the
     * declaration's tag). */
    const rg_barrier_info *infos;     /* per barrier */
    const rg_command *order_handles;  /* the execution order */
    const uint32_t *point_start;
    uint32_t point_max;               /* the most barriers at one point */
    /* Per batch and queue (b * RG_QUEUE_COUNT + q): the stages its wait on
     * that queue's semaphore blocks (0: no wait). */
    const VkPipelineStageFlags2 *wait_stage;
    /* What the first execute after placement clears: runs of subresources
     * of history pairs' previous halves that the frame reads, each left in
     * the layout and made visible to the scope of those reads. */
    const rg__history_clear *history_clears;
    uint32_t history_clear_count;
} rg__sync;

#define RG__COMPILE_STAGES 14

typedef struct rg__compiled {
    /* Per stage (graph.c's list): the key its result was made from (the
     * declaration's hash); 0: not made. */
    uint64_t made_from[RG__COMPILE_STAGES];
    uint32_t sync_tag;                /* the handle tag sync's public forms carry */
    uint64_t compiles;                /* compiles that ran a stage (graph.c) */
    rg__nodes nodes;
    rg__edges edges;
    rg__closure closure;
    rg__cull cull;
    rg__levels levels;
    rg__schedule schedule;
    rg__merged merge;
    rg__folds fold;
    rg__transients transient;
    rg__lifetimes lifetimes;
    rg__queues queues;
    rg__history_targets history;
    rg__sync sync;
} rg__compiled;

#endif
