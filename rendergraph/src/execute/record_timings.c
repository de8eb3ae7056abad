/* GPU timings while recording, and what they measured (rendergraph.h,
 * "Timings"). Every timestamp is written at ALL_COMMANDS: it is taken when
 * every command before it on the queue is done, so a unit's time runs from
 * the end of the work before it (its own barriers included) to the end of
 * its own, the units of a batch never overlap and their sum stays within
 * the batch's time. A frame is read at a later rg_execute, once the event
 * its last batch sets is set (vkGetEventStatus, then vkGetQueryPoolResults
 * without WAIT, every query checked for availability): recording never
 * waits for the GPU. The slot's queries are reset by the batch that writes
 * them (vkCmdResetQueryPool at its start) and the event on the host after
 * it was read, so a slot read again never shows an older frame's values.
 */
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- state */

/* The queries of a frame's pools, summed. */
static uint32_t queries_per_frame(const rg__timings *t)
{
    uint32_t total = 0;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        total += t->per_frame[q];
    return total;
}

rg_result rg__timings_frames_prepare(rg_graph *g, rg__timing_frames *f, const char *what)
{
    const rg__timings *t = &g->placement->timings;
    if (!t->units)
        return RG_SUCCESS;
    /* Each query's value and availability; each unit's time. */
    f->raw = rg__malloc(g, ((size_t)queries_per_frame(t) * 2 + 2) * sizeof *f->raw);
    f->ms = rg__calloc(g, (size_t)t->unit_count + 1, sizeof *f->ms);
    if (!f->raw || !f->ms)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: timings: out of host memory", what);
    return RG_SUCCESS;
}

void rg__timings_frames_free(rg_graph *g, rg__timing_frames *f)
{
    rg__free(g, f->raw);
    rg__free(g, f->ms);
    *f = (rg__timing_frames){0};
}

/* ----------------------------------------------------------------- reads */

/* The queries of pool q of slot s start at raw + 2 * offset(q). */
static uint32_t raw_offset(const rg__timings *t, uint32_t q)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < q; i++)
        off += t->per_frame[i];
    return off;
}

/* a - b in ticks of a timer of `mask` bits, negative when a is earlier. */
static double tick_diff(uint64_t a, uint64_t b, uint64_t mask)
{
    uint64_t d = (a - b) & mask;
    return d > mask / 2 ? -(double)((b - a) & mask) : (double)d;
}

/* The frame's time on the GPU: from the first batch's start to the last
 * one's end, over every queue (timestamps of one device share its time
 * domain); -1 when a batch is not timed. */
static double frame_span(const rg_graph *g, const uint64_t *all_raw)
{
    const rg__timings *t = &g->placement->timings;
    uint64_t mask = UINT64_MAX;
    for (uint32_t b = 0; b < g->compiled->queues.batch_count; b++) {
        if (t->batch_unit[b] == RG__NONE)
            return -1.0;
        uint64_t m = t->mask[t->units[t->batch_unit[b]].queue];
        mask = m < mask ? m : mask;
    }
    const rg__timing_unit *first = &t->units[t->batch_unit[0]];
    uint64_t origin = all_raw[2 * ((size_t)raw_offset(t, first->queue) + first->query)];
    double begin = 0.0, end = 0.0;
    for (uint32_t b = 0; b < g->compiled->queues.batch_count; b++) {
        const rg__timing_unit *unit = &t->units[t->batch_unit[b]];
        const uint64_t *raw = all_raw + 2 * ((size_t)raw_offset(t, unit->queue) + unit->query);
        double from = tick_diff(raw[0], origin, mask), to = tick_diff(raw[2], origin, mask);
        begin = from < begin ? from : begin;
        end = to > end ? to : end;
    }
    return (end - begin) * (double)g->dev->properties.limits.timestampPeriod / 1e6;
}

/* Reads slot s when its frame is done and every query of it available,
 * with its time on the GPU in *span; false (nothing changed) otherwise. */
static bool read_slot(rg_graph *g, rg__timing_frames *f, uint32_t s, double *span)
{
    const rg__timings *t = &g->placement->timings;
    VkDevice dev = g->dev->device;
    if (g->dev->vk.GetEventStatus(dev, t->events[s]) != VK_EVENT_SET)
        return false;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        uint32_t n = t->per_frame[q];
        if (n == 0)
            continue;
        uint64_t *raw = f->raw + 2 * raw_offset(t, q);
        VkResult vr = g->dev->vk.GetQueryPoolResults(dev, t->pools[q], s * n, n, (size_t)n * 2 * sizeof *raw, raw,
                                                     2 * sizeof *raw,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        if (vr != VK_SUCCESS)
            return false;
        for (uint32_t i = 0; i < n; i++)
            if (!raw[2 * i + 1])
                return false;
    }
    double period = (double)g->dev->properties.limits.timestampPeriod;
    for (uint32_t u = 0; u < t->unit_count; u++) {
        const rg__timing_unit *unit = &t->units[u];
        const uint64_t *raw = f->raw + 2 * ((size_t)raw_offset(t, unit->queue) + unit->query);
        uint64_t ticks = (raw[2] - raw[0]) & t->mask[unit->queue];
        f->ms[u] = (double)ticks * period / 1e6;
    }
    *span = g->queue_policy == RG_QUEUE_POLICY_MEASURED ? frame_span(g, f->raw) : 0.0; /* only it reads it */
    f->completed = f->slot_frame[s];
    return true;
}

void rg__timings_frame_begin(rg_graph *g, rg__timing_frames *f)
{
    const rg__timings *t = &g->placement->timings;
    f->recording = 0;
    if (!t->events[0])
        return;
    /* Oldest first: frames complete in order, so the first one not done
     * ends the reading. */
    for (;;) {
        uint32_t oldest = RG__NONE;
        for (uint32_t s = 0; s < RG__TIMING_FRAMES; s++)
            if (f->slot_frame[s] && (oldest == RG__NONE || f->slot_frame[s] < f->slot_frame[oldest]))
                oldest = s;
        double span;
        if (oldest == RG__NONE || !read_slot(g, f, oldest, &span))
            break;
        g->dev->vk.ResetEvent(g->dev->device, t->events[oldest]);
        f->slot_frame[oldest] = 0;
        rg__measure(g, (rg__measure_event){.kind = RG__WHEN_FRAME_TIMED, .ms = span});
    }
    f->frames++;
    for (uint32_t s = 0; s < RG__TIMING_FRAMES; s++) {
        if (f->slot_frame[s] == 0) {
            f->slot_frame[s] = f->frames;
            f->recording = s + 1;
            return;
        }
    }
}

void rg__timings_frame_end(rg__timing_frames *f, bool ok)
{
    if (f->recording && !ok)
        f->slot_frame[f->recording - 1] = 0;
    f->recording = 0;
}

/* ---------------------------------------------------------------- writes */

static void stamp(rg_graph *g, VkCommandBuffer cmd, uint32_t u, uint32_t second)
{
    const rg__timings *t = &g->placement->timings;
    const rg__timing_unit *unit = &t->units[u];
    uint32_t base = (g->exec->timing.recording - 1) * t->per_frame[unit->queue];
    g->dev->vk.CmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, t->pools[unit->queue],
                                  base + unit->query + second);
}

void rg__timings_batch_begin(rg_graph *g, VkCommandBuffer cmd, uint32_t b)
{
    const rg__timings *t = &g->placement->timings;
    uint32_t u = t->batch_unit[b];
    if (u == RG__NONE)
        return;
    const rg__timing_unit *unit = &t->units[u];
    uint32_t base = (g->exec->timing.recording - 1) * t->per_frame[unit->queue];
    g->dev->vk.CmdResetQueryPool(cmd, t->pools[unit->queue], base + unit->query, unit->query_count);
    stamp(g, cmd, u, 0);
}

void rg__timings_batch_end(rg_graph *g, VkCommandBuffer cmd, uint32_t b)
{
    const rg__timings *t = &g->placement->timings;
    if (t->batch_unit[b] != RG__NONE)
        stamp(g, cmd, t->batch_unit[b], 1);
    if (b + 1 < g->compiled->queues.batch_count)
        return;
    /* The last batch runs after every other queue's work of the frame. */
    VkMemoryBarrier2 done = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                              .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                             .pMemoryBarriers = &done };
    g->dev->vk.CmdSetEvent2(cmd, t->events[g->exec->timing.recording - 1], &dep);
}

void rg__timings_before(rg_graph *g, VkCommandBuffer cmd, uint32_t p)
{
    uint32_t u = g->placement->timings.pos_begin[p];
    if (u != RG__NONE)
        stamp(g, cmd, u, 0);
}

void rg__timings_after(rg_graph *g, VkCommandBuffer cmd, uint32_t p)
{
    uint32_t u = g->placement->timings.pos_end[p];
    if (u != RG__NONE)
        stamp(g, cmd, u, 1);
}

/* --------------------------------------------------------------- queries */

/* The checks every query makes (a live, placed graph with timings on, and
 * somewhere to write); what: the call, arg: its output's name. */
static rg_result timings_ready(const rg_graph *g, const void *out, const char *what, const char *arg)
{
    if (g && !rg__graph_live(g, what))
        return RG_ERROR_INVALID_HANDLE;
    if (!g || !out)
        return g ? rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", what, arg) : RG_ERROR_INVALID_ARGUMENT;
    if (g->status->state != RG__PLACED || !g->placement->on_device)
        return rg__report(g, RG_ERROR_NOT_PLACED, "%s: graph '%s' is not placed on its device", what, g->name);
    if (!g->timings)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' has timings off (rg_graph_desc.timings, "
                          "rg_graph_set_timings)", what, g->name);
    return RG_SUCCESS;
}

static rg_result not_ready(const rg_graph *g, const char *what)
{
    return rg__report(g, RG_ERROR_NOT_READY, "%s: graph '%s' has no completed frame yet (a frame is "
                      "read at a later rg_execute, once the GPU is done with it)", what, g->name);
}

rg_result rg_command_get_time(const rg_graph *graph, rg_command command, double *ms)
{
    if (graph && !rg__graph_live(graph, "rg_command_get_time"))
        return RG_ERROR_INVALID_HANDLE;
    const rg_graph *g = graph;
    uint32_t c = g ? rg__command_index(g, command) : RG__NONE;
    if (g && ms && c == RG__NONE)
        return rg__report(g, RG_ERROR_INVALID_HANDLE, "rg_command_get_time: command 0x%x is not a "
                          "command of graph '%s' (0, stale or foreign)", command.id, g->name);
    rg_result r = timings_ready(g, ms, "rg_command_get_time", "ms");
    if (r != RG_SUCCESS)
        return r;
    const rg__timings *t = &g->placement->timings;
    const rg__cmd *cmd = &g->decl.cmds[c];
    if (rg__culled(g, c))
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_command_get_time: command '%s' is culled: "
                          "not recorded, not timed", cmd->name);
    if (t->cmd_unit[c] == RG__NONE)
        return rg__report(g, RG_ERROR_UNSUPPORTED, "rg_command_get_time: command '%s' runs on the %s "
                          "queue, whose family has no timestamps (timestampValidBits 0)", cmd->name,
                          rg_queue_name(rg__queue_of(g, c)));
    const rg__timing_frames *f = &g->exec->timing;
    if (!f->completed)
        return not_ready(g, "rg_command_get_time");
    *ms = f->ms[t->cmd_unit[c]];
    return RG_SUCCESS;
}

uint32_t rg_timing_count(const rg_graph *graph)
{
    if (graph && !rg__graph_live(graph, "rg_timing_count"))
        return 0;
    if (!graph || graph->status->state != RG__PLACED || !graph->placement->on_device)
        return 0;
    return graph->placement->timings.unit_count;
}

rg_result rg_timing_get(const rg_graph *graph, uint32_t index, rg_timing *out)
{
    const rg_graph *g = graph;
    rg_result r = timings_ready(g, out, "rg_timing_get", "out");
    if (r != RG_SUCCESS)
        return r;
    const rg__timings *t = &g->placement->timings;
    if (index >= t->unit_count)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_timing_get: index %u, graph '%s' has %u "
                          "timed units", index, g->name, t->unit_count);
    const rg__timing_frames *f = &g->exec->timing;
    if (!f->completed)
        return not_ready(g, "rg_timing_get");
    const rg__timing_unit *u = &t->units[index];
    static const rg_timing_kind kinds[] = { [RG__TIMING_BATCH] = RG_TIMING_BATCH,
                                            [RG__TIMING_INSTANCE] = RG_TIMING_SPAN,
                                            [RG__TIMING_COMMAND] = RG_TIMING_COMMAND };
    *out = (rg_timing){
        .kind = kinds[u->kind],
        .command = { u->cmd == RG__NONE ? 0 : rg__make_id(g, u->cmd) },
        .name = u->name,
        .queue = u->queue,
        .batch = u->batch,
        .ms = f->ms[index],
        .frame = f->completed,
    };
    return RG_SUCCESS;
}

typedef struct heavy {
    double ms;
    uint32_t unit;
} heavy;

static int heaviest_first(const void *a, const void *b)
{
    const heavy *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms < y->ms ? 1 : -1;
    return x->unit < y->unit ? -1 : x->unit > y->unit;
}

rg_result rg_timings_print(const rg_graph *graph, FILE *out)
{
    const rg_graph *g = graph;
    rg_result r = timings_ready(g, out, "rg_timings_print", "out");
    if (r != RG_SUCCESS)
        return r;
    const rg__timings *t = &g->placement->timings;
    const rg__timing_frames *f = &g->exec->timing;
    if (!f->completed) {
        if (fprintf(out, "GPU timings of graph '%s': no completed frame yet\n", g->name) < 0)
            return rg__report(g, RG_ERROR_IO, "rg_timings_print: the file cannot be written");
        return RG_SUCCESS;
    }
    heavy *list = rg__malloc(g, ((size_t)t->unit_count + 1) * sizeof *list);
    if (!list)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "rg_timings_print: out of host memory");
    uint32_t n = 0;
    double batches = 0.0, passes = 0.0;
    for (uint32_t u = 0; u < t->unit_count; u++) {
        if (t->units[u].kind == RG__TIMING_BATCH) {
            batches += f->ms[u];
            continue;
        }
        passes += f->ms[u];
        list[n++] = (heavy){ f->ms[u], u };
    }
    qsort(list, n, sizeof *list, heaviest_first);
    int w = fprintf(out, "GPU timings of graph '%s', frame %llu: passes %.3f ms, batches %.3f ms\n", g->name,
                    (unsigned long long)f->completed, passes, batches);
    for (uint32_t i = 0; i < n && w >= 0; i++) {
        const rg__timing_unit *u = &t->units[list[i].unit];
        w = fprintf(out, "  %9.3f ms %5.1f%%  %-8s %-8s %s\n", list[i].ms,
                    passes > 0.0 ? 100.0 * list[i].ms / passes : 0.0,
                    u->kind == RG__TIMING_INSTANCE ? "span" : "command", rg_queue_name(u->queue), u->name);
    }
    for (uint32_t u = 0; u < t->unit_count && w >= 0; u++)
        if (t->units[u].kind == RG__TIMING_BATCH)
            w = fprintf(out, "  %9.3f ms         %s\n", f->ms[u], t->units[u].name);
    rg__free(g, list);
    if (w < 0)
        return rg__report(g, RG_ERROR_IO, "rg_timings_print: the file cannot be written");
    return RG_SUCCESS;
}
