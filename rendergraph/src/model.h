/* The render graph's internal model, struct rg_graph, and its pipeline.
 * Not installed.
 *
 * Data flows one way. The declaration records hold only what the
 * application declared; each compile stage writes one result struct of its
 * own (rg__nodes, rg__edges, ... rg__sync) from the declaration and earlier
 * results, which it gets as const: the stage functions take a const graph
 * and every array of the declaration and of the results is a pointer to
 * const, so a write into another stage's data does not compile. Placement
 * follows the same rule: each placement stage fills its own part of
 * rg__placement from a const graph, and every array there is a pointer to
 * const, so nothing writes a placement after it was made; the barriers
 * placement plans with its alias scopes are its own rg__sync, beside
 * compile's. What changes from frame to frame (chunks, bound views, views
 * made on demand, timelines, timing frames) is rg__execution's, behind a
 * pointer to const as well: each part has one writer file, which the
 * conductor hands that part.
 * graph.c runs the compile stages from a table and re-runs a stage only
 * when the key its result was made from changed (the declaration's hash;
 * for results that carry public handles, the handle tag too).
 *
 * The model is split by layer, a folder each (docs/internals.md), and a
 * file includes the layers it reads or owns: base/base.h (names and
 * limits, status, errors, the log, memory, handles, the one-thread rule),
 * base/names.h (values as text, object names), base/device.h (the device,
 * its function table, retirement), declare/results.h (the declaration
 * records), compile/results.h (the compile stages' results),
 * place/results.h (what placement makes), execute/results.h (what changes
 * from frame to frame), and this header, whose struct rg_graph holds the
 * declaration by value and the rest behind pointers, so that it includes
 * nothing above declare/ (scripts/check_layers.sh). The functions of the
 * later layers, which read the graph, are in compile/stages.h,
 * place/stages.h, execute/stages.h and report/stages.h.
 *
 * A graph goes through stages, each in a file named for it, in the folder
 * of its layer (base/, declare/, compile/ with compile/schedule/, place/,
 * execute/, report/; graph.c and graph_execute.c here), each reading only
 * what earlier stages made (rendergraph/CMakeLists.txt lists the files in
 * this order, and scripts/check_stages.sh fails the build's tests when a
 * file calls into a later one):
 *
 *   names.c                Vulkan values as text; debug-utils object names
 *   base.c                 leaf helpers: errors, growth, names, handles
 *   thread.c               mutex, condition variable, thread (thread.h):
 *                          POSIX threads, or Win32 threads on Windows
 *   clock.c                a monotonic clock (CPU times the library measures)
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
 *   compile_schedule.c     the order with the lower peak of live bytes (with
 *                          compile_order_search.c, compile_exact_order.c)
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
 *   measure_queues.c       the measured queue policy: each way's frame
 *                          times, the choice
 *   record_timings.c       GPU timings: timestamps written, results read
 *   record_labels.c        debug labels around batches, spans, commands
 *   execute_chunks.c       a frame cut into chunks of about equal cost
 *   import_objects.c       an import's objects given per frame, their usage
 *                          checked against what the compile derived
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
 *                          pipeline entry points rg_compile, rg_place and
 *                          rg_place_offline, which call the stages in order
 *                          and free what a later stage made when an earlier
 *                          one runs again
 *   graph_execute.c        the execute entry points (rg_execute, the
 *                          chunked frame), placing first when needed
 */
#ifndef RG_MODEL_H
#define RG_MODEL_H

#include "declare/results.h"
#include "base/thread.h"

/* Compile's, placement's and execute's layers, which only the files that
 * read or write them include (compile/results.h, place/results.h,
 * execute/results.h). */
typedef struct rg__compiled rg__compiled;
typedef struct rg__placement rg__placement;
typedef struct rg__execution rg__execution;

/* Where the measured queue policy stands (measure_queues.c). The way it
 * wants compiled follows from it (rg__measure_switch_due). */
typedef enum rg__measure_state {
    RG__MEASURE_NOTHING = 0,          /* not measured yet, or nothing would leave graphics */
    RG__MEASURE_TIMING,               /* timing the way compiled now */
    RG__MEASURE_OTHER_WAY,            /* the way compiled now is timed: the other way next */
    RG__MEASURE_TIMINGS_OFF,          /* unmeasured while timings are off: the eligible queues */
    RG__MEASURE_NO_TIMESTAMPS,        /* a queue cannot be timed: the eligible queues, unmeasured */
    RG__MEASURE_MADE,                 /* the faster way chosen (choice) */
} rg__measure_state;

/* RG_QUEUE_POLICY_MEASURED (measure_queues.c): the declaration measured,
 * the way compiled now, each way's frame times, the choice. Kept across
 * placements and resets: an identical declaration keeps its choice. */
typedef struct rg__queue_measure {
    uint64_t hash;                    /* the declaration measured (decl.hash); 0: none */
    rg__measure_state state;
    bool one_queue;                   /* the way compiled now: every command on graphics */
    uint32_t due_frames;              /* frames begun with a switch due (none submitted through the graph) */
    uint32_t skip;                    /* completed frames to pass over before timing */
    uint32_t count[2];                /* frames timed: [0] async, [1] one queue */
    double ms[2][RG_QUEUE_MEASURE_FRAMES];
    /* rg_submit's time on the CPU per frame, each way (the first after a
     * compile passed over). */
    bool submit_skip;
    uint32_t submits[2];
    double submit_ms[2][RG_QUEUE_MEASURE_FRAMES];
    rg_queue_choice choice;           /* once MADE */
    char reason[400];
    /* The plan of the frame submitted just before a switch (its
     * submissions and command buffers), readable until the next execute
     * as any plan is; freed there (RG__WHEN_EXECUTE). */
    rg_submission *spent_submissions;
    VkCommandBuffer *spent_cmds;
} rg__queue_measure;

struct rg_graph {
    /* RG__GRAPH_LIVE until rg_graph_destroy poisons it (base.h). */
    _Atomic uint32_t magic;
    char name[RG__NAME_MAX];
    rg_device *dev;                   /* NULL: device-free */
    /* The device's graphs, a list under its graphs_lock (graph.c). */
    struct rg_graph *device_prev, *device_next;
    /* Its device was destroyed first (rg_device_destroy): the Vulkan
     * objects went with it, and every call but rg_graph_destroy is
     * refused (base.c's rg__enter). */
    bool orphaned;
    rg_allocator alloc;               /* host memory, resolved (rg_allocator) */
    rg_pool_memory pool_memory;       /* rg_graph_desc.pool_memory, or zero */
    rg_log_fn log;                    /* the graph's or its device's; NULL: stderr (base.c) */
    void *log_user;
    bool log_of_device;               /* log is the device's: it goes with the device (graph.c's orphan) */
    bool no_aliasing;                 /* rg_graph_desc.no_aliasing */
    bool no_culling;                  /* rg_graph_desc.no_culling */
    rg_order order;                   /* rg_graph_desc.order */
    bool single_queue;                /* rg_graph_desc.single_queue, or queue_policy SINGLE */
    rg_queue_policy queue_policy;     /* rg_graph_desc.queue_policy */
    rg__queue_measure measure;        /* measure_queues.c */
    bool concurrent_sharing;          /* rg_graph_desc.concurrent_sharing */
    bool alias_proven_only;           /* rg_graph_desc.alias_proven_only */
    bool timings;                     /* rg_graph_desc.timings, rg_graph_set_timings */
    bool lenient_record_access;       /* rg_graph_desc.lenient_record_access */
    rg_merge merge;                   /* rg_graph_desc.merge */
    rg_fold msaa_fold;                /* rg_graph_desc.msaa_fold */
    rg_device_caps caps;              /* the device compile merges for */
    rg_tile_info tile;                /* its tile profile's row (rg__tile_of), from create on */
    bool merge_by_default;            /* rg_merge_by_default(caps.driver), from create on */
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
    /* Each compile stage's result (compile/results.h), const to all but
     * graph.c, which runs the stages (one allocation with the graph). */
    const rg__compiled *compiled;
    /* What placement made (place/results.h), const to all but graph.c,
     * which hands each placement stage its own part to fill. */
    const rg__placement *placement;
    /* What changes from frame to frame (execute/results.h), const to all
     * but the conductor, which hands each part to its writer. */
    const rg__execution *exec;
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
    /* The group placement_free fills (device.c), written through a const
     * graph as status is: it points at retiring_store. */
    struct rg__retiring *retiring;
    /* A measured-policy switch's groups, kept off the device's list until
     * the next execute or destroy (rg__retire_release): the plan it spent
     * stays valid until then, its semaphores included. */
    struct rg__retired_group *kept;
    bool keep_retired;                /* placement_free keeps its group so (graph.c) */
    /* Objects of freed placements kept for the next (place/reuse.h; NULL:
     * none yet); rg_graph_desc.no_reuse, reuse_age. */
    struct rg__reuse *reuse;
    bool no_reuse;
    uint32_t reuse_age;
};

/* rg_place's work (graph.c), for the execute calls (graph_execute.c),
 * which place a graph not placed yet. */
rg_result rg__place_taken(rg_graph *graph);
/* After a frame's submission (graph_execute.c): compiles and places the
 * other way when the measured queue policy asks for it (graph.c). */
void rg__queues_switch(rg_graph *graph, const char *what);
/* The per-frame state as the conductor (graph.c, graph_execute.c) sees it,
 * to hand each part to its writer (a layer calling it fails the layer
 * rule). */
rg__execution *rg__execution_of(rg_graph *graph);

/* Whether compile keeps every command on the graphics queue. */
static inline bool rg__one_queue(const rg_graph *g)
{
    return g->single_queue || (g->queue_policy == RG_QUEUE_POLICY_MEASURED && g->measure.one_queue);
}

/* Public handle id of the index-th record. */
static inline uint32_t rg__make_id(const rg_graph *g, uint32_t index)
{
    return (g->decl.tag << RG__INDEX_BITS) | (index + 1);
}

#endif
