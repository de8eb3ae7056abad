/* Placement stage "timings" (needs the device; only with timings on:
 * rendergraph.h, "Timings"). The frame's timed units, in batch order: each
 * batch, then in its execution-order positions each rendering instance
 * (merged spans are one unit: the timestamps go before its first begin and
 * after its last end) and each command outside spans. A unit takes two
 * queries of its queue's pool; a frame takes per_frame queries of each
 * pool, and the pools hold RG__TIMING_FRAMES frames, so a frame is written
 * while the ones before it are still on the GPU or not yet read. A queue
 * whose family has no timestamp bits gets no pool and its units none. One
 * event per frame slot: the frame's last batch (on the graphics queue,
 * after every other queue's work: see "Queues") sets it when the frame is
 * done, so the results are read without waiting (record_timings.c).
 */
#include "compile/stages.h"
#include "base/device.h"
#include "place/stages.h"

#include <stdio.h>
#include <string.h>

static rg_result vk_fail(const rg_graph *g, VkResult vr, const char *what)
{
    return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                             ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                      "placement: timings: %s: %s", what, rg_vk_result_string(vr));
}

void rg__place_timings_free(const rg_graph *g, rg__timings *t)
{
    VkDevice dev = g->dev ? g->dev->device : VK_NULL_HANDLE;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        if (dev && t->pools[q])
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_QUERY_POOL, .u.query_pool = t->pools[q]});
    for (uint32_t s = 0; s < RG__TIMING_FRAMES; s++)
        if (dev && t->events[s])
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_EVENT, .u.event = t->events[s]});
    RG__FREE_ALL(g, t->units, t->pos_begin, t->pos_end, t->batch_unit, t->cmd_unit);
    memset(t, 0, sizeof *t);
}

/* The units as they are planned (the placement's arrays are const). */
typedef struct units_draft {
    rg__timing_unit *units;
    uint32_t unit_count;
    uint32_t *pos_begin, *pos_end, *batch_unit, *cmd_unit;
    uint32_t per_frame[RG_QUEUE_COUNT];
    const uint64_t *mask;
} units_draft;

static uint32_t add_unit(units_draft *t, rg__timing_kind kind, uint32_t cmd, uint32_t batch, rg_queue q)
{
    rg__timing_unit *u = &t->units[t->unit_count];
    *u = (rg__timing_unit){ .kind = kind, .cmd = cmd, .batch = batch, .queue = q, .query = t->per_frame[q] };
    t->per_frame[q] += 2;
    return t->unit_count++;
}

/* A rendering instance's name: its spans' begin commands' names joined by
 * '+' (cut to fit). */
static void instance_name(const rg_graph *g, const rg__instance *in, char *out)
{
    size_t len = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < in->count; i++) {
        const rg__cmd *c = &g->decl.cmds[g->decl.spans[g->compiled->merge.instance_spans[in->first + i]].begin_cmd];
        int n = snprintf(out + len, RG__NAME_MAX - len, "%s%s", i ? "+" : "", c->name);
        if (n < 0 || (size_t)n >= RG__NAME_MAX - len)
            return;
        len += (size_t)n;
    }
}

/* The units: per batch on a timed queue, the batch, then its instances
 * and commands outside spans in execution order. */
static void plan_units(const rg_graph *g, units_draft *t)
{
    const rg__compiled *c = g->compiled;
    for (uint32_t b = 0; b < c->queues.batch_count; b++) {
        const rg__batch *batch = &c->queues.batches[b];
        if (!t->mask[batch->queue])
            continue;
        uint32_t u = add_unit(t, RG__TIMING_BATCH, RG__NONE, b, batch->queue);
        t->batch_unit[b] = u;
        snprintf(t->units[u].name, RG__NAME_MAX, "batch %u (%s)", b, rg_queue_name(batch->queue));
        for (uint32_t p = batch->first; p <= batch->last && p < c->merge.order.count; p++) {
            if (c->queues.pos_batch[p] != b)
                continue;
            uint32_t ci = c->merge.order.cmds[p];
            const rg__cmd *cmd = &g->decl.cmds[ci];
            if (cmd->span == RG__NONE) {
                u = add_unit(t, RG__TIMING_COMMAND, ci, b, batch->queue);
                rg__copy_name(t->units[u].name, cmd->name, "command");
                t->pos_begin[p] = t->pos_end[p] = t->cmd_unit[ci] = u;
                continue;
            }
            uint32_t inst = c->merge.span_map[cmd->span].instance;
            const rg__instance *in = &c->merge.instances[inst];
            if (cmd->type != RG_COMMAND_TYPE_BEGIN_RENDERING || in->begin_pos != p)
                continue;
            u = add_unit(t, RG__TIMING_INSTANCE, ci, b, batch->queue);
            instance_name(g, in, t->units[u].name);
            t->pos_begin[p] = u;
            t->pos_end[in->end_pos] = u;
        }
        /* The batch resets its queries at its start. */
        rg__timing_unit *bu = &t->units[t->batch_unit[b]];
        bu->query_count = t->per_frame[batch->queue] - bu->query;
    }
    /* Every command of a span answers for its instance. */
    for (uint32_t ci = 0; ci < g->decl.cmd_count; ci++) {
        const rg__cmd *cmd = &g->decl.cmds[ci];
        if (cmd->span == RG__NONE || rg__culled(g, ci))
            continue;
        uint32_t inst = c->merge.span_map[cmd->span].instance;
        if (inst == RG__NONE)
            continue;
        uint32_t p = c->merge.instances[inst].begin_pos;
        t->cmd_unit[ci] = t->pos_begin[p];
    }
}

rg_result rg__place_timings(const rg_graph *g, rg__timings *t)
{
    if (!g->timings)
        return RG_SUCCESS;
    const rg__compiled *c = g->compiled;
    VkDevice dev = g->dev->device;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        uint32_t bits = g->dev->timestamp_bits[q];
        t->mask[q] = bits == 0 ? 0 : bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    }
    /* A unit per batch and per position at most. */
    size_t most = (size_t)c->queues.batch_count + c->merge.order.count;
    units_draft d = {.mask = t->mask};
    t->units = d.units = rg__calloc(g, most + 1, sizeof *d.units);
    t->pos_begin = d.pos_begin = rg__malloc(g, ((size_t)c->merge.order.count + 1) * sizeof *d.pos_begin);
    t->pos_end = d.pos_end = rg__malloc(g, ((size_t)c->merge.order.count + 1) * sizeof *d.pos_end);
    t->batch_unit = d.batch_unit = rg__malloc(g, ((size_t)c->queues.batch_count + 1) * sizeof *d.batch_unit);
    t->cmd_unit = d.cmd_unit = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *d.cmd_unit);
    if (!d.units || !d.pos_begin || !d.pos_end || !d.batch_unit || !d.cmd_unit)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: timings: out of host memory");
    memset(d.pos_begin, 0xff, ((size_t)c->merge.order.count + 1) * sizeof *d.pos_begin);
    memset(d.pos_end, 0xff, ((size_t)c->merge.order.count + 1) * sizeof *d.pos_end);
    memset(d.batch_unit, 0xff, ((size_t)c->queues.batch_count + 1) * sizeof *d.batch_unit);
    memset(d.cmd_unit, 0xff, ((size_t)g->decl.cmd_count + 1) * sizeof *d.cmd_unit);
    plan_units(g, &d);
    t->unit_count = d.unit_count;
    uint32_t total = 0;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        t->per_frame[q] = d.per_frame[q];
        if (t->per_frame[q] == 0)
            continue;
        total += t->per_frame[q];
        VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = RG__TIMING_FRAMES * t->per_frame[q] };
        VkResult vr = g->dev->vk.CreateQueryPool(dev, &qi, g->dev->vk_alloc, &t->pools[q]);
        if (vr != VK_SUCCESS)
            return vk_fail(g, vr, "vkCreateQueryPool");
    }
    if (total == 0)
        return RG_SUCCESS;
    for (uint32_t s = 0; s < RG__TIMING_FRAMES; s++) {
        VkEventCreateInfo ei = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
        VkResult vr = g->dev->vk.CreateEvent(dev, &ei, g->dev->vk_alloc, &t->events[s]);
        if (vr != VK_SUCCESS)
            return vk_fail(g, vr, "vkCreateEvent");
    }
    return RG_SUCCESS;
}
