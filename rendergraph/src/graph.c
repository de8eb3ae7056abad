/* The graph's life and its pipeline (model.h lists the stages):
 * create, destroy and reset; rg_compile, rg_place and rg_place_offline,
 * each a list of stage calls in order (graph_execute.c: the execute calls,
 * which place first when needed). This is the only file
 * that frees a later stage's results when an earlier stage runs again, so
 * no stage ever calls a later one.
 */
#include "declare/stages.h"
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"
#include "graph_block.h"
#include "place/reuse.h"
#include "place/stages.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ life */

/* The compile results and the placement as their one writer sees them
 * (graph_block.h). */
static rg__compiled *results(rg_graph *g) { return rg__results_of(g); }
static rg__placement *placement_of(rg_graph *g) { return rg__placement_of(g); }
rg__execution *rg__execution_of(rg_graph *g) { return rg__block_execution(g); }

/* Back to `state` at most: what later stages made is freed. */
static void discard_from(rg_graph *g, rg__state state, const char *what)
{
    if (state <= RG__COMPILED)
        rg__placement_free(g, what, RG__FREE_KEEP);
    if (state <= RG__DECLARED)
        rg__compiled_free(g);
    if (g->status->state != RG__FAILED && g->status->state > state)
        g->status->state = state;
}

static void declaration_clear(rg_graph *g)
{
    rg__declaration *d = &g->decl;
    d->resource_count = d->cmd_count = d->access_count = d->span_count = d->declared_count = 0;
    d->open_span = RG__NONE;
    d->sub_total = 0;
    d->hash = FNV_OFFSET;
    d->tag = rg__next_tag();
    g->status->state = RG__DECLARED;
    g->status->error = RG_SUCCESS;
    g->status->message[0] = '\0';
    g->status->incomplete = false;
}


rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out)
{
    if (!out)
        return RG_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc)
        return RG_ERROR_INVALID_ARGUMENT;
    if (desc->device && !rg__device_live(desc->device, "rg_graph_create"))
        return RG_ERROR_INVALID_HANDLE;
    rg_allocator alloc;
    if (!rg__allocator_resolve(desc->allocator, desc->device ? &desc->device->alloc : NULL, &alloc))
        return RG_ERROR_INVALID_ARGUMENT;
    /* The graph with its placement and execute state, one allocation. */
    graph_block *block = alloc.alloc(alloc.user, sizeof *block);
    if (!block)
        return RG_ERROR_OUT_OF_MEMORY;
    memset(block, 0, sizeof *block);
    rg_graph *g = &block->graph;
    g->compiled = &block->compiled;
    g->placement = &block->placement;
    g->exec = &block->exec;
    g->retiring = &block->retiring;
    g->status = &g->status_store;
    g->alloc = alloc;
    rg__copy_name(g->name, desc->name, "graph");
    g->dev = desc->device;
    g->no_aliasing = desc->no_aliasing;
    g->no_culling = desc->no_culling;
    g->order = desc->order;
    g->alias_proven_only = desc->alias_proven_only;
    g->merge = desc->merge;
    g->msaa_fold = desc->msaa_fold;
    g->single_queue = desc->single_queue || desc->queue_policy == RG_QUEUE_POLICY_SINGLE;
    g->queue_policy = g->single_queue ? RG_QUEUE_POLICY_SINGLE : desc->queue_policy;
    g->concurrent_sharing = desc->concurrent_sharing;
    g->timings = desc->timings;
    g->lenient_record_access = desc->lenient_record_access;
    g->no_reuse = desc->no_reuse;
    g->reuse_age = desc->reuse_age;
    if (desc->pool_memory)
        g->pool_memory = *desc->pool_memory;
    g->log = desc->log ? desc->log : desc->device ? desc->device->log : NULL;
    g->log_user = desc->log ? desc->log_user : desc->device ? desc->device->log_user : NULL;
    g->log_of_device = !desc->log && desc->device;
    if (desc->caps)
        g->caps = *desc->caps;
    else if (desc->device)
        g->caps = desc->device->caps;
    /* Which GPU this is, resolved once: the profile's row (AUTO: desktop),
     * and whether RG_MERGE_AUTO merges on its driver. */
    g->tile = rg__tile_of(&g->caps);
    g->merge_by_default = rg_merge_by_default(g->caps.driver);
    if ((unsigned)g->merge > RG_MERGE_OFF || (unsigned)g->order > RG_ORDER_DECLARATION ||
        (unsigned)desc->queue_policy > RG_QUEUE_POLICY_MEASURED ||
        (unsigned)g->caps.tile_profile >= RG_TILE_PROFILE_COUNT ||
        (desc->pool_memory && (!desc->pool_memory->alloc || !desc->pool_memory->free))) {
        rg__free(g, g);
        return RG_ERROR_INVALID_ARGUMENT;
    }
    if (!rg__mutex_init(&g->views_lock)) {
        rg__free(g, g);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    g->printed = &g->printed_store;
    atomic_flag_clear(&g->printed->lock);
    declaration_clear(g);
    if (g->dev) {
        rg__mutex_lock(&g->dev->graphs_lock);
        g->device_next = g->dev->graph_list;
        if (g->device_next)
            g->device_next->device_prev = g;
        g->dev->graph_list = g;
        rg__mutex_unlock(&g->dev->graphs_lock);
        rg__device_collect(g->dev);
    }
    atomic_init(&g->magic, RG__GRAPH_LIVE);
    *out = g;
    return RG_SUCCESS;
}

/* Takes g off its device's list (under the device's graphs_lock). */
static void unlink_from_device(rg_graph *g)
{
    if (g->device_prev)
        g->device_prev->device_next = g->device_next;
    else
        g->dev->graph_list = g->device_next;
    if (g->device_next)
        g->device_next->device_prev = g->device_prev;
    g->device_prev = g->device_next = NULL;
}

static void destroy_taken(rg_graph *graph)
{
    if (!graph)
        return;
    rg__placement_free(graph, "rg_graph_destroy", RG__FREE_RELEASE);
    rg__reuse_free(graph);
    rg__measure(graph, (rg__measure_event){.kind = RG__WHEN_DESTROY});
    rg__compiled_free(graph);
    rg__free(graph, graph->decl.resources);
    rg__free(graph, graph->decl.cmds);
    rg__free(graph, graph->decl.accesses);
    rg__free(graph, graph->decl.spans);
    rg__free(graph, graph->decl.declared);
    rg__mutex_destroy(&graph->views_lock);
    if (graph->dev) {
        rg_device *d = graph->dev;
        rg__mutex_lock(&d->graphs_lock);
        unlink_from_device(graph);
        rg__mutex_unlock(&d->graphs_lock);
    }
    /* Held by "rg_graph_destroy" for good: a racing call is BUSY until the
     * poisoned word refuses it. */
    atomic_store_explicit(&graph->magic, RG__DEAD, memory_order_release);
    rg_allocator alloc = graph->alloc;
    rg__quarantine(graph, &alloc);
}

/* The device goes first (rg_device_destroy, after the application waited
 * for it): the graph's Vulkan objects are destroyed with it and the graph
 * keeps host memory alone, every call but rg_graph_destroy refused. */
static void orphan(rg_graph *g)
{
    rg__placement_free(g, "rg_device_destroy", RG__FREE_RELEASE);
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_DESTROY});
    unlink_from_device(g);
    g->dev = NULL;
    g->orphaned = true;
    /* The device's log may hold what dies with the device (an engine's
     * context): later lines go to stderr. */
    if (g->log_of_device)
        g->log = NULL, g->log_user = NULL;
}

void rg_device_destroy(rg_device *device)
{
    if (!rg__device_live(device, "rg_device_destroy"))
        return;
    rg__mutex_lock(&device->graphs_lock);
    uint32_t left = 0;
    char names[160] = "";
    for (rg_graph *g = device->graph_list; g; g = g->device_next, left++)
        if (strlen(names) + strlen(g->name) + 4 < sizeof names)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s'%s'", left ? ", " : "", g->name);
    if (left) {
        char message[512];
        snprintf(message, sizeof message, "rg_device_destroy: %u graph%s made on the device %s not destroyed (%s): "
                 "%s Vulkan objects are destroyed now and only rg_graph_destroy remains for %s (destroy graphs "
                 "before their device)", left, left == 1 ? "" : "s", left == 1 ? "is" : "are", names,
                 left == 1 ? "its" : "their", left == 1 ? "it" : "them");
        rg__device_log(device, RG_LOG_ERROR, message);
    }
    while (device->graph_list)
        orphan(device->graph_list);
    rg__mutex_unlock(&device->graphs_lock);
    rg__device_free(device);
}

static void reset_taken(rg_graph *graph)
{
    if (!graph)
        return;
    /* Placed memory belongs to the old resources. The compiled arrays stay:
     * an identical re-declaration reuses them (rg_compile). */
    rg__placement_free(graph, "rg_graph_reset", RG__FREE_STASH);
    declaration_clear(graph);
}

rg_result rg_graph_error(const rg_graph *graph)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!rg__graph_live(graph, "rg_graph_error"))
        return RG_ERROR_INVALID_HANDLE;
    return graph->status->state == RG__FAILED ? graph->status->error : RG_SUCCESS;
}

const char *rg_graph_error_message(const rg_graph *graph)
{
    if (!graph)
        return "no graph";
    /* A destroyed graph is not read: this thread's word about it. */
    if (atomic_load_explicit(&graph->magic, memory_order_acquire) != RG__GRAPH_LIVE)
        return rg__destroyed_message();
    return rg__status_message(graph);
}

/* --------------------------------------------------------------- compile */

/* The compile stages in order, each writing its own result (compile/results.h).
 * A stage's result holds as long as what it was made from does: the
 * declaration (its hash), and for the barriers' stage, whose results carry
 * public handles, the handle tag too (a reset changes it). rg_compile runs
 * from the first stage whose key changed; the later ones are made anew. */
#define RG__STAGE_PAIR(name, result, freer)                                                                   \
    static rg_result run_##name(rg_graph *g) { return rg__compile_##name(g, &results(g)->result); }         \
    static void free_##name(rg_graph *g) { freer(g, &results(g)->result); }
RG__STAGE_PAIR(nodes, nodes, rg__nodes_free)
RG__STAGE_PAIR(edges, edges, rg__edges_free)
RG__STAGE_PAIR(closure, closure, rg__closure_free)
RG__STAGE_PAIR(cull, cull, rg__cull_free)
RG__STAGE_PAIR(order, levels, rg__levels_free)
RG__STAGE_PAIR(schedule, schedule, rg__schedule_free)
RG__STAGE_PAIR(merge, merge, rg__merged_free)
RG__STAGE_PAIR(fold, fold, rg__folds_free)
RG__STAGE_PAIR(transient, transient, rg__transients_free)
RG__STAGE_PAIR(lifetimes, lifetimes, rg__lifetimes_free)
RG__STAGE_PAIR(queues, queues, rg__queues_free)
RG__STAGE_PAIR(history, history, rg__history_free)
#undef RG__STAGE_PAIR
static rg_result run_reads(rg_graph *g) { return rg__compile_reads(g); }
static void free_reads(rg_graph *g) { (void)g; }
/* Nothing shares memory yet: placement plans its own with the alias scopes. */
static rg_result run_barriers(rg_graph *g) { return rg__compile_barriers(g, NULL, &results(g)->sync); }
static void free_barriers(rg_graph *g) { rg__sync_free(g, &results(g)->sync); }

static const struct {
    rg_result (*run)(rg_graph *g);
    void (*free)(rg_graph *g);
} compile_stages[RG__COMPILE_STAGES] = {
    {run_nodes, free_nodes},         /* spans contracted into nodes */
    {run_edges, free_edges},         /* frontier -> hazard edges, rules inside a span */
    {run_closure, free_closure},     /* happens-before rows */
    {run_cull, free_cull},           /* what reaches nothing observable */
    {run_reads, free_reads},         /* reads of what nothing wrote */
    {run_order, free_order},         /* levels, an execution order */
    {run_schedule, free_schedule},   /* the order with the lower memory peak */
    {run_merge, free_merge},         /* rendering instances, local reads */
    {run_fold, free_fold},           /* MSAA spans into their resolve targets */
    {run_transient, free_transient}, /* attachments whose contents never leave an instance */
    {run_lifetimes, free_lifetimes}, /* first and last use */
    {run_queues, free_queues},       /* queues, batches, semaphore waits */
    {run_history, free_history},     /* history pairs' targets */
    {run_barriers, free_barriers},    /* sync2 barriers per queue, the waits' stages */
};

static uint64_t stage_key(const rg_graph *g)
{
    uint64_t key = g->decl.hash;
    /* The measured queue policy's two ways are two compiles of one declaration. */
    if (rg__one_queue(g))
        key ^= 0x9e3779b97f4a7c15ull;
    return key ? key : 1; /* 0: not made */
}

/* Frees the results of stage `from` and every later one. */
static void compiled_free_from(rg_graph *g, uint32_t from)
{
    for (uint32_t i = RG__COMPILE_STAGES; i-- > from;) {
        compile_stages[i].free(g);
        results(g)->made_from[i] = 0;
    }
}

void rg__compiled_free(rg_graph *g) { compiled_free_from(g, 0); }

static rg_result compile_run(rg_graph *g)
{
    uint32_t i = 0;
    while (i < RG__COMPILE_STAGES && results(g)->made_from[i] == stage_key(g))
        i++;
    compiled_free_from(g, i);
    results(g)->compiles += i < RG__COMPILE_STAGES;
    for (; i < RG__COMPILE_STAGES; i++) {
        rg_result r = compile_stages[i].run(g);
        if (r != RG_SUCCESS)
            return r;
        results(g)->made_from[i] = stage_key(g);
        results(g)->sync_tag = g->decl.tag;
    }
    /* The same declaration after a reset: the same barriers, their public
     * forms given the new handles. */
    if (results(g)->sync_tag != g->decl.tag) {
        rg__sync_retag(g, &results(g)->sync);
        results(g)->sync_tag = g->decl.tag;
    }
    return RG_SUCCESS;
}

static rg_result compile_taken(rg_graph *g)
{
    const char *refused = rg__refused(g);
    if (refused && g->status->state != RG__FAILED)
        return rg__fail(g, RG_ERROR_BUSY, "rg_compile: graph '%s': %s was refused while this thread was in a call "
                        "on it, so the declaration may lack what it declares (a graph belongs to one thread at a "
                        "time: \"Threads\")", g->name, refused);
    if (g->status->state == RG__FAILED)
        return g->status->error;
    rg__call_begin(g);
    if (rg__frame_open(g, "rg_compile"))
        return RG_ERROR_INVALID_ARGUMENT;
    if (g->decl.open_span != RG__NONE)
        return rg__fail(g, RG_ERROR_UNBALANCED_SPAN, "command '%s': begin_rendering without end_rendering",
                        g->decl.cmds[g->decl.spans[g->decl.open_span].begin_cmd].name);
    if (g->status->state >= RG__COMPILED)
        return RG_SUCCESS;
    discard_from(g, RG__COMPILED, "rg_compile");
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_COMPILE_BEGIN});
    rg_result r = compile_run(g);
    if (r == RG_SUCCESS)
        r = rg__imports_check(g); /* usage given before there was a compiled graph to check it against */
    if (r != RG_SUCCESS) {
        rg__compiled_free(g);
        /* A stage that found a declaration error kept it; memory is the
         * only other failure. */
        return r == RG_ERROR_OUT_OF_MEMORY ? rg__fail(g, r, "rg_compile: out of memory")
                                           : rg__fail(g, r, "%s", g->status->message);
    }
    g->status->state = RG__COMPILED;
    rg__compile_notices(g);
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_COMPILED});
    return RG_SUCCESS;
}

/* ------------------------------------------------------------- placement */

/* Back to compiled after a failed placement: nothing of it stays (the
 * barriers are compile's again). */
static void unplace(rg_graph *g)
{
    rg__placement_free(g, "placement", RG__FREE_RELEASE); /* nothing of it is kept either */
    discard_from(g, RG__COMPILED, "placement");
}

rg_result rg__place_taken(rg_graph *g)
{
    rg__call_begin(g);
    if (rg__frame_open(g, "rg_place"))
        return RG_ERROR_INVALID_ARGUMENT;
    if (g->status->state == RG__FAILED || g->status->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "rg_place: graph '%s' is not compiled", g->name);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place: graph '%s' was created without a device", g->name);
    rg__device_collect(g->dev);
    if (g->status->state == RG__PLACED && g->placement->on_device)
        return RG_SUCCESS;
    discard_from(g, RG__COMPILED, "rg_place");
    rg_result r = rg__place_stages(g);
    if (r != RG_SUCCESS)
        unplace(g); /* transactional */
    return r;
}

static rg_result place_offline_taken(rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                                     rg_requirements_fn requirements, void *user)
{
    rg__call_begin(g);
    if (rg__frame_open(g, "rg_place_offline"))
        return RG_ERROR_INVALID_ARGUMENT;
    if (!props || !requirements)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place_offline: %s is NULL",
                          !props ? "props" : "requirements");
    if (g->status->state == RG__FAILED || g->status->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "rg_place_offline: graph '%s' is not compiled", g->name);
    if (g->status->state == RG__PLACED && g->placement->on_device) /* its memory was bound by that plan */
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place_offline: graph '%s' was placed on the device "
                          "(its memory is bound)", g->name);
    rg__mem_requirements *reqs = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *reqs);
    if (!reqs)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "rg_place_offline: out of host memory");
    rg_result r = RG_SUCCESS;
    for (uint32_t i = 0; i < g->decl.resource_count && r == RG_SUCCESS; i++) {
        const rg__resource *res = &g->decl.resources[i];
        if (!rg__creates(g, i))
            continue;
        rg__mem_requirements *q = &reqs[i];
        if (!requirements(user, res->name, res->is_texture, i, &q->size, &q->alignment, &q->type_bits,
                          &q->dedicated))
            r = rg__report(g, RG_ERROR_CALLBACK, "rg_place_offline: no memory requirements for %s '%s'",
                           res->is_texture ? "texture" : "buffer", res->name);
    }
    rg__placement_drop_stash(g, "rg_place_offline"); /* the plan is made into the placement's own parts */
    discard_from(g, RG__COMPILED, "rg_place_offline");
    if (r == RG_SUCCESS)
        r = rg__memory_plan(g, props, reqs, NULL, &placement_of(g)->plan);
    rg__free(g, reqs);
    if (r == RG_SUCCESS)
        r = rg__placed(g, false);
    if (r != RG_SUCCESS)
        unplace(g);
    return r;
}

/* Timings turned on or off re-run the timings stage of a placed graph
 * (its frames' results start again). */
static rg_result set_timings(rg_graph *g, bool on)
{
    if (g->timings == on)
        return RG_SUCCESS;
    g->timings = on;
    if (!on)
        rg__measure(g, (rg__measure_event){.kind = RG__WHEN_TIMINGS_OFF});
    if (g->status->state != RG__PLACED || !g->placement->on_device)
        return RG_SUCCESS;
    rg__timing_frames *frames = &rg__execution_of(g)->timing;
    rg__timings_frames_free(g, frames);
    rg__place_timings_free(g, &placement_of(g)->timings);
    if (!on)
        return RG_SUCCESS;
    rg_result r = rg__place_timings(g, &placement_of(g)->timings);
    if (r == RG_SUCCESS)
        r = rg__timings_frames_prepare(g, frames, "rg_graph_set_timings");
    if (r != RG_SUCCESS) {
        rg__timings_frames_free(g, frames);
        rg__place_timings_free(g, &placement_of(g)->timings);
        g->timings = false;
    }
    return r;
}

/* The measured queue policy's other way: the same declaration compiled
 * again and, when the graph was placed, placed again (the old placement
 * retires after the frame just submitted). A failure is the graph's as a
 * compile's or a placement's would be; the next execute reports it. */
void rg__queues_switch(rg_graph *g, const char *what)
{
    if (!rg__measure_switch_due(g))
        return;
    bool placed = g->status->state == RG__PLACED && g->placement->on_device;
    /* The frame's plan stays readable until the next execute. */
    rg__measure_event e = {.kind = RG__WHEN_SWITCHED};
    rg__frame_take_plan(&rg__execution_of(g)->frame, &e.submissions, &e.cmds);
    rg__measure(g, e);
    /* That plan's semaphores are the placement's: its group waits for
     * the next execute, or a fast GPU could see them destroyed at once. */
    g->keep_retired = true;
    discard_from(g, RG__COMPILED, what);
    g->keep_retired = false;
    rg_result r = compile_run(g);
    if (r != RG_SUCCESS) {
        rg__compiled_free(g);
        rg__fail(g, r, "%s: compiling graph '%s' %s for the measured queue policy: %s", what, g->name,
                 g->measure.one_queue ? "on one queue" : "with async compute",
                 r == RG_ERROR_OUT_OF_MEMORY ? "out of memory" : g->status->message);
        return;
    }
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_COMPILED});
    if (placed)
        rg__place_taken(g); /* a failure is reported; the next execute places again */
}

rg_result rg_graph_set_timings(rg_graph *graph, bool on)
{
    RG__TAKEN(graph, "rg_graph_set_timings", set_timings(graph, on));
}

/* ---------------------------------------------------------- public calls */

/* Each call that changes or executes the graph takes it for its duration
 * (rg__enter): a second thread is refused with RG_ERROR_BUSY, never let in
 * (rendergraph.h, "Threads"). */

void rg_graph_destroy(rg_graph *graph)
{
    if (rg__graph_live(graph, "rg_graph_destroy") && rg__enter(graph, "rg_graph_destroy", false) == RG_SUCCESS)
        destroy_taken(graph); /* refused: kept, since another thread uses it */
}

rg_result rg_graph_reset(rg_graph *graph)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    rg_result r = rg__enter(graph, "rg_graph_reset", false);
    if (r == RG_SUCCESS) {
        reset_taken(graph);
        rg__leave(graph);
    }
    return r;
}

rg_result rg_compile(rg_graph *graph)
{
    RG__TAKEN(graph, "rg_compile", compile_taken(graph));
}

rg_result rg_place(rg_graph *graph)
{
    RG__TAKEN(graph, "rg_place", rg__place_taken(graph));
}

rg_result rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                           rg_requirements_fn requirements, void *user)
{
    RG__TAKEN(graph, "rg_place_offline", place_offline_taken(graph, props, requirements, user));
}
