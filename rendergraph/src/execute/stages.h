/* Recording a placed graph: the frame in chunks (execute.c,
 * execute_chunks.c, execute_frames.c), the attachment views it binds
 * (execute_imports.c), GPU timestamps (record_timings.c), debug labels
 * (record_labels.c) and descriptor views (record_descriptors.c). Each
 * part of rg__execution (execute/results.h) has a prepare, run when the graph
 * is placed on its device, and a free, run with the placement's. Not
 * installed.
 */
#ifndef RG_EXECUTE_H
#define RG_EXECUTE_H

#include "base/device.h"
#include "execute/results.h"
#include "place/stages.h"

/* The resource whose placed objects resource ri uses this frame: its own,
 * or for a history half its pair's while execute has them swapped. */
static inline uint32_t rg__holder(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return rg__history(r) && g->exec->frame.history_swapped ? r->history_pair : ri;
}
/* Resource ri's Vulkan objects this frame: an import's, as the
 * application set them; a created one's, as placement made them (none
 * before placement). */
static inline VkImage rg__image(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    const rg__object *of = g->placement->objects.of;
    return r->imported ? r->image : of ? of[rg__holder(g, ri)].image : VK_NULL_HANDLE;
}
static inline VkImageView rg__view(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    const rg__object *of = g->placement->objects.of;
    return r->imported ? r->view : of ? of[rg__holder(g, ri)].view : VK_NULL_HANDLE;
}
static inline VkBuffer rg__buffer(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    const rg__object *of = g->placement->objects.of;
    return r->imported ? r->buffer : of ? of[ri].buffer : VK_NULL_HANDLE;
}

/* --------------------------------------------------------- import objects */

/* rg_compile, after its stages: every import whose object's usage was
 * given (at declaration or by a setter before this compile) has the usage
 * the compiled graph needs; otherwise the kept error names the import and
 * the missing bits (import_objects.c, beside the setters, which check the
 * same once the graph is compiled). */
rg_result rg__imports_check(rg_graph *g);

/* ---------------------------------------------------------------- timings */

/* The timing frames' scratch (nothing when timings are off). */
rg_result rg__timings_frames_prepare(rg_graph *g, rg__timing_frames *f, const char *what);
void rg__timings_frames_free(rg_graph *g, rg__timing_frames *f);
/* Before a frame is recorded: reads what completed frames wrote (never
 * waiting) and picks the frame's slot (none when all are in flight: the
 * frame is not timed). After: ok false gives the slot back. */
void rg__timings_frame_begin(rg_graph *g, rg__timing_frames *f);
void rg__timings_frame_end(rg__timing_frames *f, bool ok);
/* Whether the frame being recorded is timed. */
static inline bool rg__timed(const rg_graph *g) { return g->exec->timing.recording != 0; }
/* Batch b's first and last timestamps (with its queries' reset before);
 * the last batch also sets the slot's event. */
void rg__timings_batch_begin(rg_graph *g, VkCommandBuffer cmd, uint32_t b);
void rg__timings_batch_end(rg_graph *g, VkCommandBuffer cmd, uint32_t b);
/* The timestamp before execution-order position p (its barriers
 * included) and after it, where a unit starts or ends there. */
void rg__timings_before(rg_graph *g, VkCommandBuffer cmd, uint32_t p);
void rg__timings_after(rg_graph *g, VkCommandBuffer cmd, uint32_t p);

/* ----------------------------------------------------------------- submit */

/* rg_submit's and rg_graph_set_retire_point's work (submit.c), for their
 * entry points (graph_execute.c), which switch the measured queue policy's
 * way after them. rg__submit raises submitted[q] to what it signalled on
 * queue q's timeline. */
rg_result rg__submit(rg_graph *g, uint64_t submitted[RG_QUEUE_COUNT], const rg_submit_plan *plan,
                     const rg_submit_desc *desc);
rg_result rg__set_retire_point(rg_graph *g, VkSemaphore timeline, uint64_t value, VkFence fence);

/* -------------------------------------------------------- measured queues */

/* The measured queue policy (measure_queues.c): what happens to the graph
 * (RG__WHEN_*), told as it happens, each event moving the policy's state; and the one
 * question the conductor asks after a submission. */
typedef enum rg__measure_event_kind {
    RG__WHEN_COMPILE_BEGIN,        /* a new declaration is measured afresh, async compute first */
    RG__WHEN_COMPILED,             /* the state for the way compiled */
    RG__WHEN_TIMINGS_OFF,          /* a measurement under way stops: the eligible queues next */
    RG__WHEN_FRAME_TIMED,          /* ms: a completed frame's time on the GPU (< 0: a batch not timed) */
    RG__WHEN_EXECUTE,              /* a frame begins: the plan a switch kept is freed (rg__retire_release) */
    RG__WHEN_SUBMITTED,            /* ms: rg_submit's time on the CPU for a frame of the way compiled */
    RG__WHEN_SWITCHED,             /* the other way is compiled next; the plan just submitted is kept */
    RG__WHEN_DESTROY,              /* the graph or its device goes: the kept plan is freed */
} rg__measure_event_kind;
typedef struct rg__measure_event {
    rg__measure_event_kind kind;
    double ms;
    rg_submission *submissions;       /* SWITCHED: the plan to keep until the next execute */
    VkCommandBuffer *cmds;
} rg__measure_event;
void rg__measure(rg_graph *g, rg__measure_event event);
/* Whether the way compiled is not the way the policy wants now: graph.c
 * compiles the other way after the frame's submission. */
bool rg__measure_switch_due(const rg_graph *g);
/* The choice from n frames each way (pure): *out and the log's sentence;
 * returns whether async compute is kept. */
bool rg__queues_decide(const double *async_ms, const double *single_ms, uint32_t n, rg_queue_choice *out,
                       char *reason, size_t size);

/* ----------------------------------------------------------------- labels */

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

/* ---------------------------------------------------------- bound views */

/* The frame's copy of placement's span views (rg__bound_views). */
rg_result rg__bound_views_prepare(rg_graph *g, rg__bound_views *b, const char *what);
void rg__bound_views_free(rg_graph *g, rg__bound_views *b);
/* Imports' and history halves' attachment views for this execute (their
 * own, or made once per image); called before anything is recorded.
 * what: the execute call, for the message. */
rg_result rg__bind_imports(rg_graph *g, rg__bound_views *b, const char *what);

/* ---------------------------------------------------------------- execute */

/* The frame's parts, each written by its own file and handed its part by
 * the conductor (graph_execute.c), which runs a frame as: begin (checks,
 * chunks cut, history swapped, imports bound, runs reset, timing slot
 * picked, opened), chunks (any threads), end (runs checked, timing slot
 * kept or given back, frame counted or its swap undone, plan). what: the
 * public call, for the message. */

/* The frame state's life (execution.c): made when the graph is placed on
 * its device, each part by its writer (chunks cut one per batch, so a
 * frame allocates nothing); freed with the placement, then all zero (a
 * new placement starts a new history, with nothing submitted). */
rg_result rg__execution_prepare(rg_graph *g, rg__execution *x, const char *what);
void rg__execution_free(rg_graph *g, rg__execution *x);

/* Imports' Vulkan objects as the frame needs them (execute.c): a used
 * import has its object; an unused texture import without an image has no
 * final transition. */
rg_result rg__imports_ready(rg_graph *g, const char *what);

/* execute_chunks.c: cuts the frame into chunks for max_chunks (see
 * rg_execute_desc), growing the arrays only when there are more chunks
 * than ever before; nothing to do when cut for the same ask. */
rg_result rg__chunks_cut(rg_graph *g, rg__chunks *ch, uint32_t max_chunks, const char *what);
void rg__chunks_free(rg_graph *g, rg__chunks *ch);

/* execute.c: the chunks' runs, with room for the chunks cut (the scratch
 * arrays hold one point's barriers or the history clears), reset as a
 * frame begins; a chunk recorded (thread-safe for different chunks, each
 * writing only its run; a callback's rg_record_image_info grows
 * access_views under the graph's views lock); the first failure among the
 * runs as the frame ends (cmds: the chunks' command buffers). */
rg_result rg__runs_prepare(rg_graph *g, rg__runs *runs, const char *what);
void rg__runs_reset(rg_graph *g, rg__runs *runs);
rg_result rg__execute_chunk(rg_graph *g, rg__runs *runs, rg__made_views *access_views, uint32_t chunk,
                            VkCommandBuffer cmd, const char *what);
rg_result rg__runs_check(rg_graph *g, const rg__runs *runs, const VkCommandBuffer *cmds, const char *what);
void rg__runs_free(rg_graph *g, rg__runs *runs);
/* rg_workers_execute's work (workers.c): the begun frame's chunks on the
 * workers and the calling thread, each into its cmds[i]. */
rg_result rg__workers_run(rg_workers *w, rg_graph *graph, rg__runs *runs, rg__made_views *access_views,
                          const VkCommandBuffer *cmds);

/* execute_frames.c: the frame's life (rg__frame). prepare, at placement
 * on the device and after the first cut: the spans' renderings, the plan's
 * arrays. begin: room for the chunks' command buffers, and history swapped
 * when a frame was recorded before (abandon undoes it, for a frame that
 * fails before it opens). opened: the dynamic spans' renderings from the
 * bound views, the chunk that clears history, the frame open. end: closed;
 * recorded, the frame counted and, with plan, the plan filled (chunk i's
 * command buffer cmds[i]); not recorded, the swap undone. Freed with the
 * placement (a new placement starts a new history). */
rg_result rg__frame_prepare(rg_graph *g, rg__frame *f, const char *what);
rg_result rg__frame_begin(rg_graph *g, rg__frame *f, const char *what);
void rg__frame_abandon(rg__frame *f);
void rg__frame_opened(rg_graph *g, rg__frame *f);
void rg__frame_end(rg_graph *g, rg__frame *f, bool recorded, const VkCommandBuffer *cmds, rg_submit_plan *plan);
void rg__frame_free(rg_graph *g, rg__frame *f);
/* Whether a frame is being recorded in chunks (then the graph must not
 * change): reports it, naming the call. */
bool rg__frame_open(const rg_graph *g, const char *what);
/* Hands over the submission plan's arrays (the plan rg_execute_batches
 * filled points into them), which frame_free would free. */
void rg__frame_take_plan(rg__frame *f, rg_submission **submissions, VkCommandBuffer **cmds);

/* Records built-in transfer command c (a copy, clear or blit) into cmd
 * (record_transfers.c). */
void rg__record_transfer(rg_graph *g, VkCommandBuffer cmd, const rg__cmd *c);

/* The views rg_record_image_info made (record_descriptors.c). */
void rg__access_views_free(rg_graph *g, rg__made_views *access_views);

#endif
