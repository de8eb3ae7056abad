/* The render graph's internal data and its pipeline. Not installed.
 *
 * Data flows one way. The declaration records hold only what the
 * application declared; each compile stage writes one result struct of its
 * own (rg__nodes, rg__edges, ... rg__sync) from the declaration and earlier
 * results, which it gets as const: the stage functions take a const graph
 * and every array of the declaration and of the results is a pointer to
 * const, so a write into another stage's data does not compile. Placement's
 * Vulkan objects live in rg__placement, execute's frame state (which
 * history half holds which image) in rg__frames; the barriers placement
 * plans with its alias scopes are its own rg__sync, beside compile's.
 * graph.c runs the compile stages from a table and re-runs a stage only
 * when the key its result was made from changed (the declaration's hash;
 * for results that carry public handles, the handle tag too).
 *
 * A graph goes through stages, each in a file named for it, each reading
 * only what earlier stages made (rendergraph/CMakeLists.txt lists the files
 * in this order, and scripts/check_stages.sh fails the build's tests when a
 * file calls into a later one):
 *
 *   names.c                Vulkan values as text; debug-utils object names
 *   base.c                 leaf helpers: errors, growth, names, handles
 *   thread.c               mutex, condition variable, thread (thread.h):
 *                          POSIX threads, or Win32 threads on Windows
 *   usage.c                the usage table
 *   format.c               the format table
 *   memory_type.c          the memory-type choice
 *   device.c               the application's device: its function table,
 *                          properties and queues
 *   declare_*.c            the declaration (resources, accesses, commands,
 *                          transfers, spans); first error kept (sticky)
 *   compile_nodes.c        spans contracted into nodes
 *   compile_edges.c        per-subresource frontier -> hazard edges
 *   compile_closure.c      happens-before rows; the edges they did not imply
 *   compile_cull.c         nodes whose results reach nothing observable
 *   compile_reads.c        reads of created subresources that nothing
 *                          earlier in the frame writes (an error)
 *   compile_order.c        levels (longest path) and an execution order; the
 *                          helper every stage that makes an order uses
 *   compile_schedule.c     the order with the lower peak of live bytes
 *   compile_merge.c        rendering instances: spans merged by local read,
 *                          made adjacent where the DAG allows; each
 *                          access's effective stage, access and layout
 *   compile_transient.c    created textures whose contents never leave a
 *                          rendering instance
 *   compile_lifetimes.c    first and last use of each resource
 *   compile_queues.c       each node's queue, per-queue batches and their
 *                          semaphore waits (values; stages come from the
 *                          barrier planner)
 *   compile_history.c      history pairs' targets: the state each previous
 *                          half's reads begin the frame in
 *   compile_barriers.c     synchronization2 barriers over the order, per
 *                          queue, given the alias scopes placement found
 *                          (none at compile) and the history targets; the
 *                          waits' stages
 *   memory_plan.c          pure placement: lazy / dedicated / pools, first fit
 *                          under proven order, alias scopes
 *   place_support.c        what the device must offer (formats, blits, resolves)
 *   place_memory.c         requirements, allocation, binding (device)
 *   place_views.c          attachment views
 *   place_queues.c         the queues' timeline semaphores
 *   place_timings.c        GPU timings: query pools, events, timed units
 *   record_timings.c       GPU timings: timestamps written, results read
 *   record_labels.c        debug labels around batches, spans, commands
 *   execute_chunks.c       a frame cut into chunks of about equal cost
 *   execute.c              recording a placed graph, chunk by chunk
 *   workers.c              threads that record a frame's chunks
 *   submit.c               submitting a frame's batches
 *   queries.c              what the public API reads back from the stages
 *   report_traffic.c       tile traffic estimate (loads, stores, resolves,
 *                          sampled reads of the frame's own results)
 *   report_memory.c        the memory report (with the tile traffic), JSON
 *                          and SVG timeline
 *   report_dot.c           the Graphviz dump
 *   graph.c                the graph's life: create, destroy, reset, and the
 *                          pipeline entry points rg_compile, rg_place,
 *                          rg_place_offline and rg_execute, which call the
 *                          stages in order and free what a later stage made
 *                          when an earlier one runs again
 *
 * One lifecycle state (rg__state) says how far the current declaration has
 * gone. Declaration and compile errors are sticky (rg__fail): the graph is
 * FAILED until reset. Every later call (placement, execute, queries,
 * reports) reports a failure through rg__report, which sets the message and
 * returns the code without making it sticky; the pipeline calls and the
 * per-frame setters clear the message when they start (rg__call_begin).
 */
#ifndef RG_GRAPH_INTERNAL_H
#define RG_GRAPH_INTERNAL_H

#include "rendergraph/rendergraph.h"

#include "thread.h"

#include <stdatomic.h>

#include <stdio.h>

#define RG__NONE RG_INDEX_NONE
#define RG__NAME_MAX 64

/* Handle ids: low 20 bits = index + 1, high 12 bits = the graph's tag,
 * which changes at every reset and differs between graphs, so stale and
 * foreign handles are caught. */
#define RG__INDEX_BITS 20u
#define RG__INDEX_MASK ((1u << RG__INDEX_BITS) - 1u)

/* Attachment slots of a span: colors, their resolve targets, depth and its
 * resolve target. */
#define RG__SPAN_SLOTS (2 * RG_MAX_COLOR_ATTACHMENTS + 2)
#define RG__SLOT_RESOLVE(c) (RG_MAX_COLOR_ATTACHMENTS + (c))
#define RG__SLOT_DEPTH (2 * RG_MAX_COLOR_ATTACHMENTS)
#define RG__SLOT_DEPTH_RESOLVE (2 * RG_MAX_COLOR_ATTACHMENTS + 1)

typedef enum rg__state {
    RG__DECLARED = 0,                 /* declaring, or declared since the last compile */
    RG__COMPILED,                     /* the compiled arrays match the declaration */
    RG__PLACED,                       /* and a placement (device or offline) matches them */
    RG__FAILED,                       /* a declaration or compile error is kept */
} rg__state;

/* ------------------------------------------------------------ declaration */

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
    /* buffers */
    VkDeviceSize size;
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
        struct { rg_record_fn record; void *user; uint32_t cost; } user;
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
    uint32_t open_span;               /* RG__NONE when no span is open */
    uint32_t sub_total;               /* subresource slots over all resources */
    uint32_t tag;                     /* handle tag (see RG__INDEX_BITS) */
    uint64_t hash;                    /* to detect an unchanged re-declaration */
} rg__declaration;

/* --------------------------------------------------------------- compiled */

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
    char reason[160];
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

/* compile_transient.c */
typedef struct rg__transients {
    const VkImageUsageFlags *usage;   /* per resource: the image's usage (declared,
                                         the merge's, TRANSIENT_ATTACHMENT) */
    const uint8_t *transient;         /* per resource: TRANSIENT_ATTACHMENT usage */
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

/* compile_barriers.c: synchronization2 barriers over the order, planned
 * once at compile (nothing shares memory) and again by placement (with
 * its alias scopes), each into its own. */
typedef struct rg__sync {
    /* Sorted by point; point p = recorded before order[p] (p == order
     * count: after the last command, the imports' final transitions).
     * point_start has order count + 2 entries. */
    const rg_barrier_info *barriers;
    const rg_command *order_handles;  /* the execution order as public handles (made
                                         here: like the barriers, they carry the tag) */
    const uint32_t *barrier_point;    /* per barrier */
    uint32_t barrier_count;
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

#define RG__COMPILE_STAGES 13

typedef struct rg__compiled {
    /* Per stage (graph.c's list): the key its result was made from (the
     * declaration's hash, with the handle tag where the result carries
     * handles); 0: not made. */
    uint64_t made_from[RG__COMPILE_STAGES];
    rg__nodes nodes;
    rg__edges edges;
    rg__closure closure;
    rg__cull cull;
    rg__levels levels;
    rg__schedule schedule;
    rg__merged merge;
    rg__transients transient;
    rg__lifetimes lifetimes;
    rg__queues queues;
    rg__history_targets history;
    rg__sync sync;
} rg__compiled;

/* -------------------------------------------------------------- placement */

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

/* The graph's state, its sticky error and its last message (graph.c;
 * a chunk being recorded has its own: rg__chunk_run). */
/* The default log's memory of the lines it printed (base.c): hashes of
 * the last RG__PRINTED_MAX distinct ones. */
#define RG__PRINTED_MAX 64
typedef struct rg__printed {
    atomic_flag lock;                 /* held for a few compares: a spin */
    uint64_t hashes[RG__PRINTED_MAX];
    uint32_t count, next;
} rg__printed;

typedef struct rg__status {
    rg__state state;
    rg_result error;                  /* the sticky error (RG__FAILED) */
    char message[512];                /* the last error's message */
} rg__status;

/* The most chunks a batch is cut into (rg_submit's command buffers per
 * submission). */
#define RG__MAX_CHUNKS 256u

/* A contiguous run of one batch's positions of the order, recorded into
 * one command buffer (execute_chunks.c). */
typedef struct rg__chunk {
    uint32_t batch;
    uint32_t first, end;              /* positions [first, end); only its batch's count */
    uint32_t count;                   /* its batch's positions in there */
    uint32_t resume;                  /* the instance open at first: resumed (RG__NONE) */
    uint32_t resume_span;             /* the span open at first: its label reopens (RG__NONE) */
    bool suspends;                    /* an instance is open at end: suspended */
    bool batch_begins, batch_ends;    /* first / last chunk of its batch */
    uint64_t cost;
} rg__chunk;

/* One chunk's recording of the frame being recorded: its result, the
 * message its callbacks' queries leave (base.c sends reports there while
 * the chunk records), its scratch arrays for one point's barriers. */
typedef struct rg__chunk_run {
    uint64_t frame;                   /* the frame it was recorded for (0: not yet) */
    rg_result result;
    rg__status status;
    VkImageMemoryBarrier2 *image_barriers;
    VkBufferMemoryBarrier2 *buffer_barriers;
} rg__chunk_run;

/* What execute keeps from frame to frame (execute.c owns it): how many
 * frames it recorded since placement (the first clears history pairs'
 * previous halves, each later one has the halves trade images), the
 * frame's chunks (made for `chunks_for` asked, kept while the ask is the
 * same), and per chunk its run and scratch arrays, which only grow. */
typedef struct rg__frames {
    uint64_t recorded;
    bool history_swapped;             /* the halves of each pair hold each other's image */
    bool open;                        /* between rg_execute_begin and rg_execute_end */
    bool swapped_now;                 /* the open frame swapped the halves */
    uint32_t clears_chunk;            /* the chunk that records the history clears (RG__NONE) */
    rg__chunk *chunks;
    uint32_t chunk_count, chunk_cap;
    uint32_t chunks_for;              /* the max_chunks they were cut for (with chunks set) */
    uint32_t *batch_chunk;            /* per batch its first chunk; batch_count + 1 */
    rg__chunk_run *runs;              /* chunk_cap */
    VkCommandBuffer *cmds;            /* chunk_cap: the plan's command buffers */
    /* Per span, its rendering as this frame begins it; the spans made
     * again each frame (an import or history attachment in the instance). */
    rg_span_rendering *spans;
    uint32_t *dynamic_spans;
    uint32_t dynamic_count;
    VkImageMemoryBarrier2 *image_barriers;   /* barrier_cap + 1 per chunk */
    VkBufferMemoryBarrier2 *buffer_barriers;
    uint32_t barrier_cap;
} rg__frames;

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

/* ----------------------------------------------------------------- device */

/* The Vulkan functions the library calls, every one loaded by
 * rg_device_create through the application's vkGetInstanceProcAddr (the
 * library is built with VK_NO_PROTOTYPES: a direct call does not compile). */
#define RG__VK_INSTANCE_FUNCTIONS(X)                                                                              \
    X(GetDeviceProcAddr)                                                                                          \
    X(EnumeratePhysicalDevices)                                                                                   \
    X(GetPhysicalDeviceProperties)                                                                                \
    X(GetPhysicalDeviceProperties2)                                                                               \
    X(GetPhysicalDeviceMemoryProperties)                                                                          \
    X(GetPhysicalDeviceFormatProperties)                                                                          \
    X(GetPhysicalDeviceImageFormatProperties)                                                                     \
    X(GetPhysicalDeviceQueueFamilyProperties)
#define RG__VK_DEVICE_FUNCTIONS(X)                                                                                \
    X(AllocateMemory)                                                                                             \
    X(FreeMemory)                                                                                                 \
    X(CreateBuffer)                                                                                               \
    X(DestroyBuffer)                                                                                              \
    X(CreateImage)                                                                                                \
    X(DestroyImage)                                                                                               \
    X(CreateImageView)                                                                                            \
    X(DestroyImageView)                                                                                           \
    X(BindBufferMemory2)                                                                                          \
    X(BindImageMemory2)                                                                                           \
    X(GetDeviceBufferMemoryRequirements)                                                                          \
    X(GetDeviceImageMemoryRequirements)                                                                           \
    X(CreateSemaphore)                                                                                            \
    X(DestroySemaphore)                                                                                           \
    X(QueueSubmit2)                                                                                               \
    X(CmdPipelineBarrier2)                                                                                        \
    X(CmdBeginRendering)                                                                                          \
    X(CmdEndRendering)                                                                                            \
    X(CmdSetViewport)                                                                                             \
    X(CmdSetScissor)                                                                                              \
    X(CmdCopyBuffer)                                                                                              \
    X(CmdCopyBufferToImage)                                                                                       \
    X(CmdCopyImageToBuffer)                                                                                       \
    X(CmdBlitImage)                                                                                               \
    X(CmdClearColorImage)                                                                                         \
    X(CmdClearDepthStencilImage)                                                                                  \
    X(CreateQueryPool)                                                                                            \
    X(DestroyQueryPool)                                                                                           \
    X(CmdResetQueryPool)                                                                                          \
    X(CmdWriteTimestamp2)                                                                                         \
    X(GetQueryPoolResults)                                                                                        \
    X(CreateEvent)                                                                                                \
    X(DestroyEvent)                                                                                               \
    X(CmdSetEvent2)                                                                                               \
    X(GetEventStatus)                                                                                             \
    X(ResetEvent)                                                                                                 \
    X(GetSemaphoreCounterValue)                                                                                   \
    X(GetFenceStatus)

typedef struct rg__vk {
#define RG__VK_MEMBER(name) PFN_vk##name name;
    RG__VK_INSTANCE_FUNCTIONS(RG__VK_MEMBER)
    RG__VK_DEVICE_FUNCTIONS(RG__VK_MEMBER)
#undef RG__VK_MEMBER
    /* VK_KHR_dynamic_rendering_local_read, where enabled (else NULL). */
    PFN_vkCmdSetRenderingAttachmentLocationsKHR CmdSetRenderingAttachmentLocationsKHR;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR CmdSetRenderingInputAttachmentIndicesKHR;
    /* VK_EXT_debug_utils, where the application enabled it (else NULL):
     * object names (names.c's rg__name_object) and labels. */
#define RG__VK_DEBUG_UTILS_FUNCTIONS(X) X(SetDebugUtilsObjectNameEXT) X(CmdBeginDebugUtilsLabelEXT) X(CmdEndDebugUtilsLabelEXT)
#define RG__VK_MEMBER(name) PFN_vk##name name;
    RG__VK_DEBUG_UTILS_FUNCTIONS(RG__VK_MEMBER)
#undef RG__VK_MEMBER
} rg__vk;

struct rg_device {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    rg__vk vk;
    /* The queues graphs use: graphics always; compute and transfer only
     * where given with timeline semaphores (else VK_NULL_HANDLE). */
    rg_device_queue queues[RG_QUEUE_COUNT];
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    rg_device_caps caps;
    uint32_t timestamp_bits[RG_QUEUE_COUNT]; /* the queues' families' timestampValidBits */
    rg_log_fn log;
    void *log_user;
    rg_allocator alloc;               /* resolved: all three functions */
    const VkAllocationCallbacks *vk_alloc;
    /* Retired objects of graphs' placements, waiting for the GPU
     * (device.c): a list pushed and taken whole with atomics, so graphs on
     * other threads may retire and collect at once. */
    _Atomic(struct rg__retired_group *) retired;
    /* Graphs made on it and not destroyed: rg_device_destroy says when
     * some remain (their next call would use a destroyed device). */
    atomic_uint graphs;
};

/* ------------------------------------------------------------------ graph */

struct rg_graph {
    char name[RG__NAME_MAX];
    rg_device *dev;                   /* NULL: device-free */
    rg_allocator alloc;               /* host memory, resolved (rg_allocator) */
    rg_pool_memory pool_memory;       /* rg_graph_desc.pool_memory, or zero */
    rg_log_fn log;                    /* the graph's or its device's; NULL: stderr (base.c) */
    void *log_user;
    bool no_aliasing;                 /* rg_graph_desc.no_aliasing */
    bool no_culling;                  /* rg_graph_desc.no_culling */
    rg_order order;                   /* rg_graph_desc.order */
    bool single_queue;                /* rg_graph_desc.single_queue */
    bool concurrent_sharing;          /* rg_graph_desc.concurrent_sharing */
    bool alias_proven_only;           /* rg_graph_desc.alias_proven_only */
    bool timings;                     /* rg_graph_desc.timings, rg_graph_set_timings */
    bool lenient_record_access;       /* rg_graph_desc.lenient_record_access */
    rg_merge merge;                   /* rg_graph_desc.merge */
    rg_device_caps caps;              /* the device compile merges for */
    /* The one part of a graph every stage and query may write (through a
     * const graph: it points at status_store): the lifecycle state and the
     * last error. */
    rg__status *status;
    rg__status status_store;
    /* What the default log (no rg_log_fn) printed since the placement was
     * last freed: each distinct line once (base.c). Written through a
     * const graph, as the status is, under its own lock (chunks on other
     * threads may log). */
    /* The one-thread rule ("Threads"), checked (base.c's rg__enter): the
     * name of the call in the graph now (NULL: none; rg__frame_call from
     * rg_execute_begin to rg_execute_end), the thread that made it, and a
     * declaration call another thread was refused meanwhile, which fails
     * the next rg_compile (the declaration may lack it). */
    _Atomic(const char *) busy;
    _Atomic(uintptr_t) busy_thread;
    _Atomic(const char *) refused;
    rg__printed *printed;             /* -> printed_store */
    rg__printed printed_store;
    /* Held around the views rg_record_image_info makes on first use
     * (record_descriptors.c), which chunks on other threads may ask for. */
    rg__mutex views_lock;
    rg__declaration decl;
    rg__compiled compiled;
    rg__placement placement;
    /* rg_graph_set_retire_point: what the application signals after the
     * graph's latest frame (VK_NULL_HANDLE: nothing named). */
    VkSemaphore retire_timeline;
    uint64_t retire_value;
    VkFence retire_fence;
    /* Frames recorded (rg__execute_end) since the last rg_submit or
     * rg_graph_set_retire_point: nothing the graph knows of signals after
     * them, so a placement freed meanwhile is held (device.c). */
    uint32_t unretired;
    bool retire_warned;               /* the log said so once */
    /* The group placement_free fills (device.c); NULL: objects are
     * destroyed at once. */
    struct rg__retired_group *retiring;
};

/* ------------------------------------------------------------- retirement */

/* One Vulkan object of a freed placement (device.c). An application pool
 * range (rg_pool_memory) is handed back through the graph's callback. */
typedef enum rg__retired_kind {
    RG__RETIRED_VIEW = 0,
    RG__RETIRED_IMAGE,
    RG__RETIRED_BUFFER,
    RG__RETIRED_MEMORY,
    RG__RETIRED_APP_POOL,
    RG__RETIRED_QUERY_POOL,
    RG__RETIRED_EVENT,
    RG__RETIRED_SEMAPHORE,            /* last: the group's own point may name it */
    RG__RETIRED_KINDS,
} rg__retired_kind;

typedef struct rg__retired {
    rg__retired_kind kind;
    union {
        VkImageView view;
        VkImage image;
        VkBuffer buffer;
        VkDeviceMemory memory;
        VkQueryPool query_pool;
        VkEvent event;
        VkSemaphore semaphore;
    } u;
    VkDeviceSize offset;              /* RG__RETIRED_APP_POOL */
} rg__retired;

/* Opens g's group for what placement_free hands over: its point is the
 * graph's timelines at the values rg_submit last signalled and the
 * application's retire point; it is held until rg_device_destroy when
 * frames were recorded after both (g->unretired). None is opened, and
 * objects are destroyed at once, with neither and no such frame (the
 * application said the GPU is idle) or for a placement that never
 * reached the device. */
void rg__retire_begin(rg_graph *g);
/* Hands one object to the open group, or destroys it at once. */
void rg__retire(rg_graph *g, rg__retired object);
/* Closes the group (onto the device's list; a held one is logged, once
 * per graph, naming `what` freed it) and collects. */
void rg__retire_end(rg_graph *g, const char *what);
/* Releases every group whose point has signalled (checked, never
 * waited); the count of objects still held. */
uint32_t rg__device_collect(rg_device *d);

/* ---------------------------------------------------------------- history */

/* Half of a history pair (rg_texture_create_history). */
static inline bool rg__history(const rg__resource *r) { return r->history_pair != RG__NONE; }

/* Whether placement creates resource r: a created one that a recorded
 * command uses, or a half of a history pair either half of which is used
 * (the halves trade images every frame, so both exist or neither). */
static inline bool rg__creates(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (r->imported)
        return false;
    const rg__lifetime *l = g->compiled.lifetimes.of;
    return l[ri].first != RG__NONE || (rg__history(r) && l[r->history_pair].first != RG__NONE);
}

/* The resource whose placed objects resource ri uses this frame: its own,
 * or for a history half its pair's while execute has them swapped. */
static inline uint32_t rg__holder(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return rg__history(r) && g->placement.frames.history_swapped ? r->history_pair : ri;
}
/* Resource ri's Vulkan objects this frame: an import's, as the
 * application set them; a created one's, as placement made them (none
 * before placement). */
static inline VkImage rg__image(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->image : g->placement.objects ? g->placement.objects[rg__holder(g, ri)].image : VK_NULL_HANDLE;
}
static inline VkImageView rg__view(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->view : g->placement.objects ? g->placement.objects[rg__holder(g, ri)].view : VK_NULL_HANDLE;
}
static inline VkBuffer rg__buffer(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->buffer : g->placement.objects ? g->placement.objects[ri].buffer : VK_NULL_HANDLE;
}
/* Whether resource ri shares a pool's memory (after placement). */
static inline bool rg__pooled(const rg_graph *g, uint32_t ri)
{
    return g->placement.objects && g->placement.objects[ri].pooled;
}

/* ------------------------------------------------------------- base.c */

/* A declaration or compile error: kept (the first one only) and returned;
 * the graph is FAILED until reset. */
rg_result rg__fail(const rg_graph *g, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Any other call's error: sets the message (unless a sticky error's is
 * kept) and returns r. */
rg_result rg__report(const rg_graph *g, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* At the start of a pipeline call (rg_compile, rg_place, rg_place_offline,
 * rg_execute, rg_execute_batches, rg_submit) or a per-frame setter
 * (rg_texture_set_image, rg_buffer_set_buffer): clears the message unless
 * a sticky error's is kept, so a call that succeeds leaves "". Queries and
 * reports never call it: they write to the graph only when they fail. */
void rg__call_begin(const rg_graph *g);

/* A message to the graph's log (rg_log_fn), about the graph. */
/* The log without an rg_log_fn: WARNING and ERROR lines on stderr, each
 * distinct (object, text) once until printed forgets (NULL: no memory);
 * INFO nowhere. A graph's printed is forgotten when its placement is
 * freed, so a failure repeated every frame prints once per placement. */
void rg__log_default(rg__printed *printed, rg_log_level level, const char *object, const char *text);
void rg__printed_forget(rg__printed *printed);
void rg__log(const rg_graph *g, rg_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Host memory through the graph's allocator (rg_allocator). */
void *rg__malloc(const rg_graph *g, size_t size);
void *rg__calloc(const rg_graph *g, size_t count, size_t size);
void *rg__realloc(const rg_graph *g, void *p, size_t size);
void rg__free(const rg_graph *g, const void *p);
/* An allocator with its defaults filled in (malloc, realloc, free for
 * NULL); false when one is given without all three functions. */
bool rg__allocator_resolve(const rg_allocator *given, const rg_allocator *fallback, rg_allocator *out);

/* Grows *p to hold at least need elements of elem bytes (geometric, so
 * appends are amortised O(1)); false when out of memory (*p unchanged). */
bool rg__grow(const rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem);

/* Bounded copy of src (or fallback when src is NULL or empty) into a
 * RG__NAME_MAX buffer. */
void rg__copy_name(char *dst, const char *src, const char *fallback);

/* A new handle tag: distinct for every graph and reset of the process
 * (until 4095 have been given out). */
uint32_t rg__next_tag(void);
/* Public handle id of the index-th record. */
static inline uint32_t rg__make_id(const rg_graph *g, uint32_t index)
{
    return (g->decl.tag << RG__INDEX_BITS) | (index + 1);
}
/* Handle -> index, or RG__NONE when stale, foreign or 0. */
uint32_t rg__texture_index(const rg_graph *g, rg_texture t);
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b);
uint32_t rg__command_index(const rg_graph *g, rg_command c);

/* Subresource slot of (aspect bit, mip, layer) in resource r. */
uint32_t rg__sub_slot(const rg__resource *r, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer);

/* -------------------------------------------------------- compile stages */

/* Each stage reads the declaration and earlier stages' results (const) and
 * writes only its own result, which its _free releases (and zeroes). A
 * stage's error is kept (rg__fail) and its result left for _free. */
rg_result rg__compile_nodes(const rg_graph *g, rg__nodes *out);
void rg__nodes_free(const rg_graph *g, rg__nodes *n);
/* The node of command c (after compile_nodes). */
static inline uint32_t rg__node_of(const rg_graph *g, uint32_t c) { return g->compiled.nodes.of_cmd[c]; }
rg_result rg__compile_edges(const rg_graph *g, rg__edges *out);
void rg__edges_free(const rg_graph *g, rg__edges *e);
rg_result rg__compile_closure(const rg_graph *g, rg__closure *out);
void rg__closure_free(const rg_graph *g, rg__closure *c);
rg_result rg__compile_cull(const rg_graph *g, rg__cull *out);
void rg__cull_free(const rg_graph *g, rg__cull *c);
/* Whether command c was culled (after compile_cull). */
static inline bool rg__culled(const rg_graph *g, uint32_t c)
{
    return g->compiled.cull.node_culled && g->compiled.cull.node_culled[rg__node_of(g, c)];
}
/* RG_ERROR_READ_BEFORE_WRITE at the first read of a created subresource
 * that no earlier command writes (imports, history previous, undefined_ok
 * and CLEAR/DONT_CARE loads excepted). Writes nothing else. */
rg_result rg__compile_reads(const rg_graph *g);
rg_result rg__compile_order(const rg_graph *g, rg__levels *out);
void rg__levels_free(const rg_graph *g, rg__levels *l);
/* The order of a sequence of nodes: each node's commands in record order
 * (*out zeroed when out of memory: false). The one way a stage makes an
 * order. */
bool rg__order_of_nodes(const rg_graph *g, const uint32_t *nodes, uint32_t count, rg__order *out);
void rg__order_free(const rg_graph *g, rg__order *o);
rg_result rg__compile_schedule(const rg_graph *g, rg__schedule *out);
void rg__schedule_free(const rg_graph *g, rg__schedule *s);
/* Rendering instances from the schedule's order (made anew where merge
 * candidates become adjacent), the accesses' modes, and the usage
 * pixel-local reads need. */
rg_result rg__compile_merge(const rg_graph *g, rg__merged *out);
void rg__merged_free(const rg_graph *g, rg__merged *m);
/* The execution order (after compile_merge). */
static inline uint32_t rg__order_count(const rg_graph *g) { return g->compiled.merge.order.count; }
static inline const uint32_t *rg__order_cmds(const rg_graph *g) { return g->compiled.merge.order.cmds; }
/* An access as compile decided it: stage, access and layout. */
void rg__access_effective(const rg_graph *g, uint32_t access, VkPipelineStageFlags2 *stage, VkAccessFlags2 *mask,
                          VkImageLayout *layout);
rg_result rg__compile_transient(const rg_graph *g, rg__transients *out);
void rg__transients_free(const rg_graph *g, rg__transients *t);
/* A created image's usage and whether it is transient (after compile_transient). */
static inline VkImageUsageFlags rg__image_usage(const rg_graph *g, uint32_t ri)
{
    return g->compiled.transient.usage ? g->compiled.transient.usage[ri] : g->decl.resources[ri].declared_usage;
}
/* The usage the compiled graph's accesses need of import ri's object
 * (VkImageUsageFlags or VkBufferUsageFlags; after compile_transient for a
 * texture, which adds what merging needs). */
static inline VkFlags rg__import_needs(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->is_texture ? rg__image_usage(g, ri) : r->buffer_usage;
}
static inline bool rg__transient(const rg_graph *g, uint32_t ri)
{
    return g->compiled.transient.transient && g->compiled.transient.transient[ri];
}
/* After compile: whether created texture ri would have been transient
 * (AUTO) but for a load or store op of its instance; if so, out gets the
 * log notice naming the texture, the span and the op. */
bool rg__transient_notice(const rg_graph *g, uint32_t ri, char *out, size_t size);
rg_result rg__compile_lifetimes(const rg_graph *g, rg__lifetimes *out);
void rg__lifetimes_free(const rg_graph *g, rg__lifetimes *l);
/* Resource ri's first use (RG__NONE: unused) and last (after compile_lifetimes). */
static inline uint32_t rg__first_use(const rg_graph *g, uint32_t ri) { return g->compiled.lifetimes.of[ri].first; }
static inline uint32_t rg__last_use(const rg_graph *g, uint32_t ri) { return g->compiled.lifetimes.of[ri].last; }
rg_result rg__compile_queues(const rg_graph *g, rg__queues *out);
void rg__queues_free(const rg_graph *g, rg__queues *q);
/* The queue command c runs on (after compile_queues). */
static inline rg_queue rg__queue_of(const rg_graph *g, uint32_t c)
{
    return g->compiled.queues.node_queue ? (rg_queue)g->compiled.queues.node_queue[rg__node_of(g, c)]
                                         : RG_QUEUE_GRAPHICS;
}
/* The stages a queue of that kind supports (for eligibility and barriers). */
VkPipelineStageFlags2 rg__queue_stages(rg_queue q);
/* The history pairs' targets from the previous halves' reads in the order. */
rg_result rg__compile_history(const rg_graph *g, rg__history_targets *out);
void rg__history_free(const rg_graph *g, rg__history_targets *h);
/* The barriers over the execution order into out; alias: per resource,
 * what its first use waits for besides the frame before (NULL: nothing
 * shares memory). Compile runs it with NULL, placement with its plan's. */
rg_result rg__compile_barriers(const rg_graph *g, const rg__alias_scope *alias, rg__sync *out);
void rg__sync_free(const rg_graph *g, rg__sync *s);
/* The barriers execute records and queries report: placement's where it
 * made them, else compile's. */
static inline const rg__sync *rg__sync_of(const rg_graph *g)
{
    return g->placement.synced ? &g->placement.sync : &g->compiled.sync;
}
/* The stages batch b's wait on queue q blocks (0: none). */
static inline VkPipelineStageFlags2 rg__wait_stage(const rg_graph *g, uint32_t b, uint32_t q)
{
    return rg__sync_of(g)->wait_stage[(size_t)b * RG_QUEUE_COUNT + q];
}
/* Frees every compile result (the declaration stays). */
void rg__compiled_free(rg_graph *g);

/* ------------------------------------------------------ placement stages */

/* Plans placement from requirements (resource_count entries; imports' and
 * unused resources' are ignored) into g->placement.plan. Device-free. */
rg_result rg__memory_plan(rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg__mem_requirements *reqs);
rg_result rg__place_support(rg_graph *g);
/* Fills reqs (resource_count entries) from the device. */
void rg__place_requirements(rg_graph *g, rg__mem_requirements *reqs);
/* Creates the images and buffers, allocates and binds them as planned. */
rg_result rg__place_memory(rg_graph *g);
rg_result rg__place_views(rg_graph *g);
/* Imports' attachment views for this execute (their own, or made once per
 * image); called before anything is recorded. what: the execute call, for
 * the message. */
rg_result rg__place_bind_imports(rg_graph *g, const char *what);
/* Span s's vkCmdBeginRendering from the slots' current views. */
void rg__span_rendering(const rg_graph *g, uint32_t s, rg_span_rendering *out);
/* Each stage's results freed (device objects destroyed); graph.c frees
 * them in reverse order. */
void rg__memory_plan_free(rg_graph *g);
void rg__place_memory_free(rg_graph *g);
void rg__place_views_free(rg_graph *g);
/* The queues' timeline semaphores (a graph on several queues). */
rg_result rg__place_queues(rg_graph *g);
void rg__place_queues_free(rg_graph *g);
/* The queue families created resources are shared across (VK_SHARING_MODE
 * CONCURRENT when count > 1): the families of the queues in mask. */
uint32_t rg__queue_families(const rg_graph *g, uint32_t mask, uint32_t *families);
/* GPU timings (g->timings): pools, events and units; nothing when off. */
rg_result rg__place_timings(rg_graph *g);
void rg__place_timings_free(rg_graph *g);

/* ---------------------------------------------------------------- timings */

/* Before a frame is recorded: reads what completed frames wrote (never
 * waiting) and picks the frame's slot (none when all are in flight: the
 * frame is not timed). After: ok false gives the slot back. */
void rg__timings_frame_begin(rg_graph *g);
void rg__timings_frame_end(rg_graph *g, bool ok);
/* Whether the frame being recorded is timed. */
static inline bool rg__timed(const rg_graph *g) { return g->placement.timings.recording != 0; }
/* Batch b's first and last timestamps (with its queries' reset before);
 * the last batch also sets the slot's event. */
void rg__timings_batch_begin(rg_graph *g, VkCommandBuffer cmd, uint32_t b);
void rg__timings_batch_end(rg_graph *g, VkCommandBuffer cmd, uint32_t b);
/* The timestamp before execution-order position p (its barriers
 * included) and after it, where a unit starts or ends there. */
void rg__timings_before(rg_graph *g, VkCommandBuffer cmd, uint32_t p);
void rg__timings_after(rg_graph *g, VkCommandBuffer cmd, uint32_t p);

/* ------------------------------------------------------------------ names */

/* Names an object the graph created (names.c), printf-style, where the
 * device has VK_EXT_debug_utils (rg_device_desc.debug_utils); else
 * nothing. A view of part of a texture: "ao raw (mip 1)". */
void rg__name_object(const rg_device *dev, VkObjectType type, uint64_t handle, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void rg__name_view(const rg_device *dev, VkImageView view, const char *texture, uint32_t mip, uint32_t mip_count,
                   uint32_t base_layer, uint32_t layer_count);
/* Flag sets as text for one message, in a buffer that lives until the
 * end of the enclosing block: rg__fail(g, ..., "at stages %s", RG__STAGES(s)). */
#define RG__FLAGS_TEXT 384
static inline const char *rg__stage_text(VkPipelineStageFlags2 s, char *buf)
{
    rg_stage_names(s, buf, RG__FLAGS_TEXT);
    return buf;
}
static inline const char *rg__access_text(VkAccessFlags2 a, char *buf)
{
    rg_access_names(a, buf, RG__FLAGS_TEXT);
    return buf;
}
static inline const char *rg__image_usage_text(VkImageUsageFlags u, char *buf)
{
    rg_image_usage_names(u, buf, RG__FLAGS_TEXT);
    return buf;
}
#define RG__STAGES(s) rg__stage_text((s), (char[RG__FLAGS_TEXT]){0})
#define RG__ACCESSES(a) rg__access_text((a), (char[RG__FLAGS_TEXT]){0})
#define RG__IMAGE_USAGES(u) rg__image_usage_text((u), (char[RG__FLAGS_TEXT]){0})
/* A VkSampleCountFlags as the counts it holds: "1, 4" ("none" for 0). */
static inline const char *rg__sample_counts_text(VkSampleCountFlags counts, char *buf)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t bit = 1; bit <= 64 && n < RG__FLAGS_TEXT; bit <<= 1)
        if (counts & bit)
            n += (size_t)snprintf(buf + n, RG__FLAGS_TEXT - n, "%s%u", n ? ", " : "", bit);
    return counts ? buf : "none";
}
#define RG__SAMPLE_COUNTS(c) rg__sample_counts_text((c), (char[RG__FLAGS_TEXT]){0})

/* Debug labels (record_labels.c), where the device has debug utils: one
 * around each batch, each span (its begin's barriers to its end) and each
 * other command (its barriers included). Each returns how many labels it
 * opened or closed, so the recorder can count the open ones and close
 * them all (rg__labels_end) when a callback fails mid-batch. */
static inline bool rg__labelled(const rg_graph *g) { return g->dev && g->dev->vk.CmdBeginDebugUtilsLabelEXT; }
uint32_t rg__label_batch_begin(const rg_graph *g, VkCommandBuffer cmd, uint32_t b);
uint32_t rg__label_before(const rg_graph *g, VkCommandBuffer cmd, uint32_t p);
uint32_t rg__label_after(const rg_graph *g, VkCommandBuffer cmd, uint32_t p);
/* A resumed chunk reopens the label of the span it starts in. */
uint32_t rg__label_span(const rg_graph *g, VkCommandBuffer cmd, uint32_t span);
void rg__labels_end(const rg_graph *g, VkCommandBuffer cmd, uint32_t open);

/* ---------------------------------------------------------------- execute */

/* A frame in chunks (execute.c): begin binds the frame's imports, swaps
 * history and cuts the chunks (max_chunks 0: one per batch); chunk
 * records one (thread-safe for different chunks); end checks that each
 * was recorded, keeps the first failure's message and undoes the frame's
 * history swap on failure, and on success counts the frame and, with
 * plan, fills it (chunk i's command buffer cmds[i]). what: the public
 * call, for the message. */
rg_result rg__execute_begin(rg_graph *g, uint32_t max_chunks, const char *what);
/* Whether a frame is being recorded in chunks (then the graph must not
 * change): reports it, naming the call. */
bool rg__frame_open(const rg_graph *g, const char *what);

/* Takes g for the call `what` (a string literal: its address names it):
 * RG_SUCCESS; RG_ERROR_BUSY when another thread is in a call on g
 * (logged, naming both calls; a declaration call is remembered for
 * rg__refused); RG_ERROR_INVALID_ARGUMENT, reported, when this thread is
 * (a record callback changing its graph, or a frame begun and not ended).
 * One compare-exchange and one store; rg__leave gives g back. */
rg_result rg__enter(rg_graph *g, const char *what, bool declaration);
void rg__leave(rg_graph *g);
/* The holder of a frame recorded in chunks (rg_execute_begin takes g with
 * it, rg_execute_end gives it back); rg_execute_chunk runs on any thread
 * while g->busy is it. */
extern const char rg__frame_call[];
/* The body of a public declaration call that returns a handle of `type`
 * and takes the graph (a refusal is remembered for rg_compile). */
#define RG__DECLARING(graph, what, type, call)                                                                    \
    do {                                                                                                          \
        if (!(graph) || rg__enter((graph), (what), true) != RG_SUCCESS)                                           \
            return (type){0};                                                                                     \
        type rg_declared_ = (call);                                                                               \
        rg__leave(graph);                                                                                         \
        return rg_declared_;                                                                                      \
    } while (0)
/* The body of a public call that returns rg_result and takes the graph:
 * `call` runs between rg__enter and rg__leave. */
#define RG__TAKEN(graph, what, call)                                                                              \
    do {                                                                                                          \
        if (!(graph))                                                                                             \
            return RG_ERROR_INVALID_ARGUMENT;                                                                     \
        rg_result rg_taken_ = rg__enter((graph), (what), false);                                                  \
        if (rg_taken_ == RG_SUCCESS) {                                                                            \
            rg_taken_ = (call);                                                                                   \
            rg__leave(graph);                                                                                     \
        }                                                                                                         \
        return rg_taken_;                                                                                         \
    } while (0)
/* The declaration call refused while this thread held g, if any (then
 * forgotten): rg_compile fails with it. */
const char *rg__refused(rg_graph *g);
rg_result rg__execute_chunk(rg_graph *g, uint32_t chunk, VkCommandBuffer cmd, const char *what);
rg_result rg__execute_end(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan, const char *what);
/* Execute's frame state (rg__frames): the one-chunk-per-batch cut and
 * scratch arrays for one point's barriers and the history clears, made at
 * placement on the device so that a frame allocates nothing; freed and
 * reset with the placement (a new placement starts a new history). */
rg_result rg__frames_prepare(rg_graph *g, const char *what);
void rg__frames_free(rg_graph *g);

/* execute_chunks.c: cuts the frame into chunks for max_chunks (see
 * rg_execute_desc), growing the frames' arrays only when there are more
 * chunks than ever before; nothing to do when cut for the same ask. */
rg_result rg__chunks_cut(rg_graph *g, uint32_t max_chunks, const char *what);

/* While a chunk records on this thread, reports about g (rg__report,
 * rg__call_begin) go to its status instead of the graph's; NULL ends it.
 * Returns what was redirected before, to restore. */
typedef struct rg__redirect {
    const rg_graph *graph;
    rg__status *status;
} rg__redirect;
rg__redirect rg__redirect_status(const rg_graph *g, rg__status *status);
/* The message a query on this thread sees: the chunk's while one records. */
const char *rg__status_message(const rg_graph *g);
void rg__redirect_restore(rg__redirect saved);

/* ---------------------------------------------------------------- reports */

/* The tile traffic (report_traffic.c) of a compiled graph: per rendering
 * instance (per: instance_count entries), of the commands outside spans
 * (their reads only) and of the frame. RG_ERROR_OUT_OF_MEMORY sets no
 * message. */
rg_result rg__tile_traffic(const rg_graph *g, rg_tile_traffic *per, rg_tile_traffic *outside, rg_tile_traffic *total);

#endif
