/* The execute entry points (rendergraph.h, "Executing"): each checks the
 * graph, places it on its device when it is not placed yet (graph.c's
 * rg__place_taken) and records a frame, whole on the calling thread or in
 * chunks from rg_execute_begin to rg_execute_end. The frame's state
 * (execute/results.h) is behind a pointer to const for everything but the
 * conductor: at each step of a frame this file hands each part to the file
 * that writes it (graph.c makes and frees it with the placement). And the
 * submit entry points (submit.c's work), after which the measured queue
 * policy may compile and place its other way (graph.c), the frame's plan
 * being submitted by then; and the contexts tools that record by hand
 * make.
 */
#include "execute/stages.h"
#include "base/device.h"
#include "base/names.h"

/* ---------------------------------------------------------------- frames */

/* A frame's begin, each part by its writer; a failure leaves the frame
 * closed and the history as it was. */
static rg_result frame_begin(rg_graph *g, uint32_t max_chunks, const char *what)
{
    rg__execution *x = rg__execution_of(g);
    if (rg__frame_open(g, what))
        return RG_ERROR_INVALID_ARGUMENT;
    rg_result r = rg__imports_ready(g, what);
    if (r == RG_SUCCESS)
        r = rg__chunks_cut(g, &x->chunks, max_chunks, what); /* nothing when cut for the same ask */
    if (r == RG_SUCCESS)
        r = rg__runs_prepare(g, &x->runs, what);
    if (r == RG_SUCCESS)
        r = rg__frame_begin(g, &x->frame, what);
    if (r != RG_SUCCESS)
        return r;
    r = rg__bind_imports(g, &x->bound, what);
    if (r != RG_SUCCESS) {
        rg__frame_abandon(&x->frame);
        return r;
    }
    rg__runs_reset(g, &x->runs);
    if (g->timings)
        rg__timings_frame_begin(g, &x->timing); /* reads finished frames, never waits */
    rg__frame_opened(g, &x->frame);
    return RG_SUCCESS;
}

static rg_result frame_chunk(rg_graph *g, uint32_t chunk, VkCommandBuffer cmd, const char *what)
{
    rg__execution *x = rg__execution_of(g);
    return rg__execute_chunk(g, &x->runs, &x->access_views, chunk, cmd, what);
}

/* A frame's end: the first failure among its chunks, else the frame
 * counted and, with plan, the plan filled. */
static rg_result frame_end(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan, const char *what)
{
    rg__execution *x = rg__execution_of(g);
    if (!x->frame.open)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' has no frame begun (rg_execute_begin)",
                          what, g->name);
    rg_result r = rg__runs_check(g, &x->runs, cmds, what);
    if (g->timings)
        rg__timings_frame_end(&x->timing, r == RG_SUCCESS);
    rg__frame_end(g, &x->frame, r == RG_SUCCESS, cmds, plan);
    return r;
}

/* -------------------------------------------------------------- execute */

/* What both execute entry points check (in rg_place's order), then
 * placement when needed. */
static rg_result execute_ready(rg_graph *g, const char *what)
{
    if (g->status->state == RG__FAILED || g->status->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "%s: graph '%s' is not compiled", what, g->name);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' was created without a device", what,
                          g->name);
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_EXECUTE}); /* the frame before's plan ends here */
    if (g->status->state != RG__PLACED || !g->placement->on_device)
        return rg__place_taken(g);
    rg__device_collect(g->dev);
    return RG_SUCCESS;
}

/* One frame recorded on the calling thread: one chunk per batch, batch i
 * into cmds[i]. */
static rg_result execute_whole(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan, const char *what)
{
    rg_result r = frame_begin(g, 0, what);
    for (uint32_t i = 0; r == RG_SUCCESS && i < g->exec->chunks.count; i++)
        if (frame_chunk(g, i, cmds[i], what) != RG_SUCCESS)
            break; /* end reports it */
    return r == RG_SUCCESS ? frame_end(g, cmds, plan, what) : r;
}

static rg_result execute_taken(rg_graph *g, VkCommandBuffer cmd)
{
    rg__call_begin(g);
    if (cmd == VK_NULL_HANDLE)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: cmd is VK_NULL_HANDLE");
    rg_result r = execute_ready(g, "rg_execute");
    if (r != RG_SUCCESS)
        return r;
    if (g->compiled->queues.batch_count > 1)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: graph '%s' runs on several queues in %u "
                          "batches: use rg_execute_batches", g->name, g->compiled->queues.batch_count);
    return execute_whole(g, &cmd, NULL, "rg_execute");
}

static rg_result execute_batches_taken(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    rg__call_begin(g);
    if (!cmds || !plan)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_batches: %s is NULL", !cmds ? "cmds" : "plan");
    rg_result r = execute_ready(g, "rg_execute_batches");
    if (r != RG_SUCCESS)
        return r;
    for (uint32_t b = 0; b < g->compiled->queues.batch_count; b++)
        if (cmds[b] == VK_NULL_HANDLE)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_batches: no command buffer for batch %u "
                              "(the %s queue)", b, rg_queue_name(g->compiled->queues.batches[b].queue));
    return execute_whole(g, cmds, plan, "rg_execute_batches");
}

static rg_result execute_begin_taken(rg_graph *g, const rg_execute_desc *desc, uint32_t *chunk_count)
{
    rg__call_begin(g);
    if (rg__frame_open(g, "rg_execute_begin"))
        return RG_ERROR_INVALID_ARGUMENT;
    if (!chunk_count)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_begin: chunk_count is NULL");
    *chunk_count = 0;
    rg_result r = execute_ready(g, "rg_execute_begin");
    if (r == RG_SUCCESS)
        r = frame_begin(g, desc ? desc->max_chunks : 0, "rg_execute_begin");
    if (r == RG_SUCCESS)
        *chunk_count = g->exec->chunks.count;
    return r;
}

static rg_result execute_end_taken(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    rg__call_begin(g);
    if (!plan && g->exec->frame.open && g->compiled->queues.batch_count > 1) {
        frame_end(g, NULL, NULL, "rg_execute_end"); /* the frame is over either way */
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_end: graph '%s' runs on several queues in "
                          "%u batches: it needs a plan", g->name, g->compiled->queues.batch_count);
    }
    return frame_end(g, cmds, plan, "rg_execute_end");
}

/* Chunks on workers: the frame begun by rg_execute_begin. */
rg_result rg_workers_execute(rg_workers *workers, rg_graph *graph, const VkCommandBuffer *cmds)
{
    if (!workers || !graph)
        return RG_ERROR_INVALID_ARGUMENT;
    if (atomic_load_explicit(&graph->busy, memory_order_acquire) != rg__frame_call) {
        /* No frame begun: take the graph to say so (or hear who has it). */
        rg_result r = rg__enter(graph, "rg_workers_execute", false);
        if (r != RG_SUCCESS)
            return r;
        r = rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_workers_execute: no frame begun (rg_execute_begin)");
        rg__leave(graph);
        return r;
    }
    rg__execution *x = rg__execution_of(graph);
    return rg__workers_run(workers, graph, &x->runs, &x->access_views, cmds);
}

/* Each takes the graph for its duration (rg__enter): a second thread is
 * refused with RG_ERROR_BUSY (rendergraph.h, "Threads"). */

rg_result rg_execute(rg_graph *graph, VkCommandBuffer cmd)
{
    RG__TAKEN(graph, "rg_execute", execute_taken(graph, cmd));
}

rg_result rg_execute_batches(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    RG__TAKEN(graph, "rg_execute_batches", execute_batches_taken(graph, cmds, plan));
}

/* A frame in chunks holds the graph from its begin to its end, with
 * rg__frame_call, so chunks may record on any threads meanwhile. */
rg_result rg_execute_begin(rg_graph *graph, const rg_execute_desc *desc, uint32_t *chunk_count)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    rg_result r = rg__enter(graph, rg__frame_call, false);
    if (r != RG_SUCCESS)
        return r;
    r = execute_begin_taken(graph, desc, chunk_count);
    if (r != RG_SUCCESS)
        rg__leave(graph);
    return r;
}

rg_result rg_execute_chunk(rg_graph *graph, uint32_t chunk, VkCommandBuffer cmd)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!rg__graph_live(graph, "rg_execute_chunk"))
        return RG_ERROR_INVALID_HANDLE;
    if (atomic_load_explicit(&graph->busy, memory_order_acquire) == rg__frame_call)
        return frame_chunk(graph, chunk, cmd, "rg_execute_chunk");
    rg_result r = rg__enter(graph, "rg_execute_chunk", false);
    if (r == RG_SUCCESS) { /* no frame begun: says so */
        r = frame_chunk(graph, chunk, cmd, "rg_execute_chunk");
        rg__leave(graph);
    }
    return r;
}

rg_result rg_execute_end(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!rg__graph_live(graph, "rg_execute_end"))
        return RG_ERROR_INVALID_HANDLE;
    rg_result r = RG_SUCCESS;
    if (atomic_load_explicit(&graph->busy, memory_order_acquire) != rg__frame_call)
        r = rg__enter(graph, "rg_execute_end", false); /* no frame begun: says so */
    if (r == RG_SUCCESS) {
        r = execute_end_taken(graph, cmds, plan);
        rg__leave(graph);
    }
    return r;
}

static rg_result submit_taken(rg_graph *g, const rg_submit_plan *plan, const rg_submit_desc *desc)
{
    /* Timed for the measured policy only (RG__WHEN_SUBMITTED). */
    double start = g->queue_policy == RG_QUEUE_POLICY_MEASURED ? rg__clock_ms() : 0.0;
    rg_result r = rg__submit(g, rg__execution_of(g)->submitted, plan, desc);
    if (r == RG_SUCCESS) {
        rg__measure(g, (rg__measure_event){.kind = RG__WHEN_SUBMITTED, .ms = rg__clock_ms() - start});
        rg__queues_switch(g, "rg_submit");
    }
    return r;
}

static rg_result retire_point_taken(rg_graph *g, VkSemaphore timeline, uint64_t value, VkFence fence)
{
    rg_result r = rg__set_retire_point(g, timeline, value, fence);
    if (r == RG_SUCCESS)
        rg__queues_switch(g, "rg_graph_set_retire_point");
    return r;
}

/* Both take the graph (rg__enter): rg_submit updates what retirement waits
 * for, as the retire point does. */
rg_result rg_submit(rg_graph *graph, const rg_submit_plan *plan, const rg_submit_desc *desc)
{
    RG__TAKEN(graph, "rg_submit", submit_taken(graph, plan, desc));
}

rg_result rg_graph_set_retire_point(rg_graph *graph, VkSemaphore timeline, uint64_t value, VkFence fence)
{
    RG__TAKEN(graph, "rg_graph_set_retire_point", retire_point_taken(graph, timeline, value, fence));
}

/* ----------------------------------------------------- recording by hand */

/* The context of a placed graph for cmd and command (RG__NONE: none). */
static const rg_record_context *by_hand(rg_graph *g, VkCommandBuffer cmd, uint32_t command)
{
    if (!g || g->status->state != RG__PLACED || !g->placement->on_device)
        return NULL;
    rg__execution *x = rg__execution_of(g);
    x->by_hand = (rg_record_context){ g, cmd, command, &x->access_views };
    return &x->by_hand;
}

const rg_record_context *rg_record_context_get(rg_graph *graph, VkCommandBuffer cmd)
{
    if (graph && !rg__graph_live(graph, "rg_record_context_get"))
        return NULL;
    return by_hand(graph, cmd, RG__NONE);
}

const rg_record_context *rg_record_context_for(rg_graph *graph, VkCommandBuffer cmd, rg_command command)
{
    if (graph && !rg__graph_live(graph, "rg_record_context_for"))
        return NULL;
    uint32_t c = rg__command_index(graph, command);
    if (c == RG__NONE || graph->decl.cmds[c].type != RG_COMMAND_TYPE_USER)
        return NULL;
    return by_hand(graph, cmd, c);
}
