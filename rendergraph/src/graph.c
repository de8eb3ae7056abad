/* The graph's life and its pipeline (graph_internal.h lists the stages):
 * create, destroy and reset; rg_compile, rg_place, rg_place_offline and
 * rg_execute, each a list of stage calls in order. This is the only file
 * that frees a later stage's results when an earlier stage runs again, so
 * no stage ever calls a later one.
 */
#include "declare_internal.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ life */

/* The placement's Vulkan objects go to the device's retirement list
 * (device.c), destroyed once the frames that may use them have finished. */
static void placement_free(rg_graph *g)
{
    rg__retire_begin(g);
    rg__place_timings_free(g);
    rg__place_queues_free(g);
    rg__place_views_free(g);
    rg__place_memory_free(g);
    rg__memory_plan_free(g);
    g->placement.on_device = false;
    rg__retire_end(g);
}

/* Back to `state` at most: what later stages made is freed. */
static void discard_from(rg_graph *g, rg__state state)
{
    if (state <= RG__COMPILED)
        placement_free(g);
    if (state <= RG__DECLARED)
        rg__compiled_free(g);
    if (g->state != RG__FAILED && g->state > state)
        g->state = state;
}

static void declaration_clear(rg_graph *g)
{
    rg__declaration *d = &g->decl;
    d->resource_count = d->cmd_count = d->access_count = d->span_count = 0;
    d->open_span = RG__NONE;
    d->sub_total = 0;
    d->hash = FNV_OFFSET;
    d->tag = rg__next_tag();
    g->state = RG__DECLARED;
    g->error = RG_SUCCESS;
    g->message[0] = '\0';
}

rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out)
{
    if (!out)
        return RG_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc)
        return RG_ERROR_INVALID_ARGUMENT;
    rg_allocator alloc;
    if (!rg__allocator_resolve(desc->allocator, desc->device ? &desc->device->alloc : NULL, &alloc))
        return RG_ERROR_INVALID_ARGUMENT;
    rg_graph *g = alloc.alloc(alloc.user, sizeof *g);
    if (!g)
        return RG_ERROR_OUT_OF_MEMORY;
    memset(g, 0, sizeof *g);
    g->alloc = alloc;
    rg__copy_name(g->name, desc->name, "graph");
    g->dev = desc->device;
    g->no_aliasing = desc->no_aliasing;
    g->no_culling = desc->no_culling;
    g->order = desc->order;
    g->alias_proven_only = desc->alias_proven_only;
    g->merge = desc->merge;
    g->single_queue = desc->single_queue;
    g->concurrent_sharing = desc->concurrent_sharing;
    g->timings = desc->timings;
    g->lenient_record_access = desc->lenient_record_access;
    if (desc->pool_memory)
        g->pool_memory = *desc->pool_memory;
    g->log = desc->log ? desc->log : desc->device ? desc->device->log : NULL;
    g->log_user = desc->log ? desc->log_user : desc->device ? desc->device->log_user : NULL;
    if (desc->caps)
        g->caps = *desc->caps;
    else if (desc->device)
        g->caps = desc->device->caps;
    if ((unsigned)g->merge > RG_MERGE_OFF || (unsigned)g->order > RG_ORDER_DECLARATION ||
        (desc->pool_memory && (!desc->pool_memory->alloc || !desc->pool_memory->free))) {
        rg__free(g, g);
        return RG_ERROR_INVALID_ARGUMENT;
    }
    declaration_clear(g);
    if (g->dev)
        rg__device_collect(g->dev);
    *out = g;
    return RG_SUCCESS;
}

void rg_graph_destroy(rg_graph *graph)
{
    if (!graph)
        return;
    placement_free(graph);
    rg__compiled_free(graph);
    rg__free(graph, graph->decl.resources);
    rg__free(graph, graph->decl.cmds);
    rg__free(graph, graph->decl.accesses);
    rg__free(graph, graph->decl.spans);
    rg_allocator alloc = graph->alloc;
    alloc.free(alloc.user, graph);
}

void rg_graph_reset(rg_graph *graph)
{
    if (!graph)
        return;
    /* Placed memory belongs to the old resources. The compiled arrays stay:
     * an identical re-declaration reuses them (rg_compile). */
    placement_free(graph);
    declaration_clear(graph);
}

rg_result rg_graph_error(const rg_graph *graph)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    return graph->state == RG__FAILED ? graph->error : RG_SUCCESS;
}

const char *rg_graph_error_message(const rg_graph *graph) { return graph ? graph->message : "no graph"; }

/* --------------------------------------------------------------- compile */

/* Handles in the compiled arrays carry the graph's tag, which a reset
 * changes. */
static void retag(rg_graph *g)
{
    rg__compiled *c = &g->compiled;
    uint32_t tag = g->decl.tag << RG__INDEX_BITS;
    for (uint32_t i = 0; i < c->barrier_count; i++) {
        rg_barrier_info *b = &c->barriers[i];
        if (b->texture.id)
            b->texture.id = tag | (b->texture.id & RG__INDEX_MASK);
        if (b->buffer.id)
            b->buffer.id = tag | (b->buffer.id & RG__INDEX_MASK);
        if (b->before.id)
            b->before.id = tag | (b->before.id & RG__INDEX_MASK);
    }
    for (uint32_t i = 0; i < c->order_count; i++)
        c->order_handles[i].id = tag | (c->order_handles[i].id & RG__INDEX_MASK);
}

/* The stages that read the declaration arrays' own fields (commands' nodes,
 * resources' usage and lifetimes) run again after a reset and an identical
 * re-declaration; the rest of the compiled arrays still hold. */
static rg_result compile_again(rg_graph *g)
{
    rg_result r = rg__compile_nodes(g);
    if (r == RG_SUCCESS) {
        rg__compile_merge_usage(g);
        r = rg__compile_transient(g);
    }
    if (r == RG_SUCCESS)
        rg__compile_lifetimes(g);
    /* The list a placement made had its aliasing; compile's has none. */
    if (r == RG_SUCCESS && g->compiled.aliased)
        r = rg__compile_barriers(g, NULL);
    retag(g);
    return r;
}

static rg_result compile_stages(rg_graph *g)
{
    rg_result r = rg__compile_nodes(g);     /* spans contracted into nodes */
    if (r == RG_SUCCESS)
        r = rg__compile_edges(g);           /* frontier -> hazard edges, rules inside a span */
    if (r == RG_SUCCESS)
        r = rg__compile_closure(g);         /* happens-before rows */
    if (r == RG_SUCCESS)
        r = rg__compile_cull(g);            /* what reaches nothing observable */
    if (r == RG_SUCCESS)
        r = rg__compile_reads(g);           /* reads of what nothing wrote */
    if (r == RG_SUCCESS)
        r = rg__compile_order(g);           /* batches, execution order */
    if (r == RG_SUCCESS)
        r = rg__compile_schedule(g);        /* the order with the lower memory peak */
    if (r == RG_SUCCESS)
        r = rg__compile_merge(g);           /* rendering instances, local reads */
    if (r == RG_SUCCESS)
        r = rg__compile_transient(g);       /* attachments whose contents never leave an instance */
    if (r == RG_SUCCESS)
        rg__compile_lifetimes(g);           /* first and last use */
    if (r == RG_SUCCESS)
        r = rg__compile_queues(g);          /* queues, batches, semaphore waits */
    if (r == RG_SUCCESS)
        r = rg__compile_barriers(g, NULL);  /* sync2 barriers per queue, nothing aliased yet */
    return r;
}

/* Why culled command c (outside spans, or a span's begin) does not run:
 * what its node writes, which nothing observable reads ("'a', 'b' or
 * 'c'"), or that it declares no write at all. */
static void culled_reason(const rg_graph *g, uint32_t c, char *out, size_t size)
{
    const rg__compiled *cc = &g->compiled;
    uint32_t n = g->decl.cmds[c].node;
    uint32_t names[4], count = 0, more = 0;
    for (uint32_t ci = cc->node_first_cmd[n]; ci < cc->node_first_cmd[n + 1]; ci++) {
        const rg__cmd *cmd = &g->decl.cmds[ci];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            if (!a->write || a->role == RG__ROLE_LIFETIME)
                continue;
            bool seen = false;
            for (uint32_t i = 0; i < count && !seen; i++)
                seen = names[i] == a->resource;
            if (!seen && count < 4)
                names[count++] = a->resource;
            else if (!seen)
                more++;
        }
    }
    if (count == 0) {
        snprintf(out, size, "it declares no write (declare side_effects for effects the graph cannot see)");
        return;
    }
    int len = snprintf(out, size, "nothing observable reads");
    for (uint32_t i = 0; i < count && len >= 0 && (size_t)len < size; i++)
        len += snprintf(out + len, size - (size_t)len, "%s'%s'",
                        i == 0                    ? " "
                        : i + 1 == count && !more ? " or "
                                                  : ", ",
                        g->decl.resources[names[i]].name);
    if (more && len >= 0 && (size_t)len < size)
        snprintf(out + len, size - (size_t)len, " or %u more", more);
}

/* The log's notices of a compile (rg_log_fn): what will not run and why,
 * what is not created, what is not transient only for a load or store
 * op, what stays off the queue it is eligible for. */
static void log_notices(const rg_graph *g)
{
    if (!g->log)
        return;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c) && (cmd->span == RG__NONE || cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING)) {
            char why[320];
            culled_reason(g, c, why, sizeof why);
            rg__log(g, RG_LOG_INFO, "%s '%s' is culled: %s", cmd->span == RG__NONE ? "command" : "span", cmd->name,
                    why);
        }
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (r->imported || r->first_use != RG__NONE)
            continue;
        bool used = false;
        for (uint32_t a = 0; a < g->decl.access_count && !used; a++)
            used = g->decl.accesses[a].resource == ri;
        if (used)
            rg__log(g, RG_LOG_INFO, "%s '%s' is not created: only culled commands use it",
                    r->is_texture ? "texture" : "buffer", r->name);
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        char note[320];
        if (g->decl.resources[ri].first_use != RG__NONE && rg__transient_notice(g, ri, note, sizeof note))
            rg__log(g, RG_LOG_INFO, "%s", note);
    }
    for (uint32_t i = 0; i < g->compiled.queue_note_count; i++)
        rg__log(g, RG_LOG_INFO, "command '%s' stays on the graphics queue: %s",
                g->decl.cmds[g->compiled.queue_notes[i].cmd].name, g->compiled.queue_notes[i].reason);
}

rg_result rg_compile(rg_graph *graph)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    if (g->state == RG__FAILED)
        return g->error;
    rg__call_begin(g);
    if (g->decl.open_span != RG__NONE)
        return rg__fail(g, RG_ERROR_UNBALANCED_SPAN, "command '%s': begin_rendering without end_rendering",
                        g->decl.cmds[g->decl.spans[g->decl.open_span].begin_cmd].name);
    if (g->state >= RG__COMPILED)
        return RG_SUCCESS;
    bool same = g->compiled.order && g->compiled.hash == g->decl.hash;
    discard_from(g, same ? RG__COMPILED : RG__DECLARED);
    rg_result r = same ? compile_again(g) : compile_stages(g);
    if (r != RG_SUCCESS) {
        rg__compiled_free(g);
        /* A stage that found a declaration error kept it; memory is the
         * only other failure. */
        return r == RG_ERROR_OUT_OF_MEMORY ? rg__fail(g, r, "rg_compile: out of memory")
                                           : rg__fail(g, r, "%s", g->message);
    }
    g->compiled.hash = g->decl.hash;
    g->state = RG__COMPILED;
    log_notices(g);
    return RG_SUCCESS;
}

/* ------------------------------------------------------------- placement */

/* Back to compiled after a failed placement: nothing of it stays, and the
 * barriers are compile's again (a failed or aliased list is planned anew;
 * when even that runs out of memory, the next rg_compile starts over). */
static void unplace(rg_graph *g)
{
    discard_from(g, RG__COMPILED);
    if ((g->compiled.aliased || !g->compiled.point_start) && rg__compile_barriers(g, NULL) != RG_SUCCESS)
        discard_from(g, RG__DECLARED);
}

/* After a memory plan: the barriers with its alias scopes, and the state. */
static rg_result placed(rg_graph *g, bool on_device)
{
    rg_result r = rg__compile_barriers(g, g->placement.plan.alias);
    if (r != RG_SUCCESS)
        return rg__report(g, r, "placement: out of host memory planning the barriers");
    g->placement.on_device = on_device;
    g->state = RG__PLACED;
    return RG_SUCCESS;
}

static rg_result place_stages(rg_graph *g)
{
    rg_result r = rg__place_support(g);     /* formats, usages, blits, resolves on this device */
    if (r != RG_SUCCESS)
        return r;
    rg__mem_requirements *reqs = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *reqs);
    if (!reqs)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    rg__place_requirements(g, reqs);        /* vkGetDevice*MemoryRequirements */
    r = rg__memory_plan(g, &g->dev->memory, reqs); /* lazy, dedicated, pools */
    rg__free(g, reqs);
    if (r == RG_SUCCESS)
        r = rg__place_memory(g);            /* allocate, create, bind */
    if (r == RG_SUCCESS)
        r = rg__place_views(g);             /* attachment views */
    if (r == RG_SUCCESS)
        r = rg__place_queues(g);            /* timeline semaphores */
    if (r == RG_SUCCESS)
        r = rg__place_timings(g);           /* query pools, when timings are on */
    if (r == RG_SUCCESS)
        r = placed(g, true);                /* barriers with the alias scopes */
    return r;
}

rg_result rg_place(rg_graph *graph)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    rg__call_begin(g);
    if (g->state == RG__FAILED || g->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "rg_place: graph '%s' is not compiled", g->name);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place: graph '%s' was created without a device", g->name);
    rg__device_collect(g->dev);
    if (g->state == RG__PLACED && g->placement.on_device)
        return RG_SUCCESS;
    discard_from(g, RG__COMPILED);
    rg_result r = place_stages(g);
    if (r != RG_SUCCESS)
        unplace(g); /* transactional */
    return r;
}

rg_result rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                           rg_requirements_fn requirements, void *user)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    rg__call_begin(g);
    if (!props || !requirements)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place_offline: %s is NULL",
                          !props ? "props" : "requirements");
    if (g->state == RG__FAILED || g->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "rg_place_offline: graph '%s' is not compiled", g->name);
    if (g->state == RG__PLACED && g->placement.on_device) /* its memory was bound by that plan */
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_place_offline: graph '%s' was placed on the device "
                          "(its memory is bound)", g->name);
    rg__mem_requirements *reqs = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *reqs);
    if (!reqs)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "rg_place_offline: out of host memory");
    rg_result r = RG_SUCCESS;
    for (uint32_t i = 0; i < g->decl.resource_count && r == RG_SUCCESS; i++) {
        const rg__resource *res = &g->decl.resources[i];
        if (!rg__creates(g, res))
            continue;
        rg__mem_requirements *q = &reqs[i];
        if (!requirements(user, res->name, res->is_texture, i, &q->size, &q->alignment, &q->type_bits,
                          &q->dedicated))
            r = rg__report(g, RG_ERROR_CALLBACK, "rg_place_offline: no memory requirements for %s '%s'",
                           res->is_texture ? "texture" : "buffer", res->name);
    }
    discard_from(g, RG__COMPILED);
    if (r == RG_SUCCESS)
        r = rg__memory_plan(g, props, reqs);
    rg__free(g, reqs);
    if (r == RG_SUCCESS)
        r = placed(g, false);
    if (r != RG_SUCCESS)
        unplace(g);
    return r;
}

/* --------------------------------------------------------------- execute */

/* What both execute entry points check (in rg_place's order), then
 * placement when needed. */
static rg_result execute_ready(rg_graph *g, const char *what)
{
    if (g->state == RG__FAILED || g->state < RG__COMPILED)
        return rg__report(g, RG_ERROR_NOT_COMPILED, "%s: graph '%s' is not compiled", what, g->name);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' was created without a device", what,
                          g->name);
    if (g->state != RG__PLACED || !g->placement.on_device)
        return rg_place(g);
    rg__device_collect(g->dev);
    return RG_SUCCESS;
}

rg_result rg_execute(rg_graph *graph, VkCommandBuffer cmd)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    rg__call_begin(g);
    if (cmd == VK_NULL_HANDLE)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: cmd is VK_NULL_HANDLE");
    rg_result r = execute_ready(g, "rg_execute");
    if (r != RG_SUCCESS)
        return r;
    if (g->compiled.batch_count > 1)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: graph '%s' runs on several queues in %u "
                          "batches: use rg_execute_batches", g->name, g->compiled.batch_count);
    return rg__execute(g, &cmd, "rg_execute");
}

rg_result rg_execute_batches(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    rg__call_begin(g);
    if (!cmds || !plan)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_batches: %s is NULL", !cmds ? "cmds" : "plan");
    rg_result r = execute_ready(g, "rg_execute_batches");
    if (r != RG_SUCCESS)
        return r;
    for (uint32_t b = 0; b < g->compiled.batch_count; b++)
        if (cmds[b] == VK_NULL_HANDLE)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute_batches: no command buffer for batch %u "
                              "(the %s queue)", b, rg_queue_name(g->compiled.batches[b].queue));
    r = rg__execute(g, cmds, "rg_execute_batches");
    if (r == RG_SUCCESS)
        rg__execute_plan(g, cmds, plan);
    return r;
}
