/* The measured queue policy (rendergraph.h, RG_QUEUE_POLICY_MEASURED;
 * docs/queues.md#measured-queues): async compute where it pays. A new
 * declaration is compiled with its eligible commands on their queues and
 * timed over RG_QUEUE_MEASURE_FRAMES frames, then compiled on one queue
 * and timed again; the faster way is kept, async compute only when it
 * wins by more than the noise. Each frame's time is its span on the GPU,
 * from the first batch's start to the last one's end (record_timings.c
 * reads it). This file holds the state (one rg__measure_state) and the
 * decision; the rest of the graph tells it what happens through one
 * function (rg__measure, an event each) and asks it one question
 * (rg__measure_switch_due), after which graph.c compiles and places the
 * other way (rg__queues_switch) once the frame's submission is done, so
 * that a plan already handed out stays whole.
 */
#include "base/rules.h"
#include "base/device.h"
#include "execute/stages.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Completed frames passed over after each placement: the first records
 * the history clears, the next warm caches. */
#define SKIP_FRAMES 3u
/* Frames begun while a switch waits for a submission the graph sees,
 * before the log says a retire point is missing. */
#define DUE_FRAMES 3u
/* Async compute must beat one queue by at least this share of its time. */
#define MIN_GAIN 0.005

enum { WAY_ASYNC = 0, WAY_ONE = 1 };

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and half the interquartile range of n > 0 values. */
static void stats(const double *v, uint32_t n, double *median, double *spread)
{
    double s[RG_QUEUE_MEASURE_FRAMES];
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, by_value);
    *median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    *spread = (s[(3 * n) / 4] - s[n / 4]) / 2.0;
}

bool rg__queues_decide(const double *async_ms, const double *single_ms, uint32_t n, rg_queue_choice *out,
                       char *reason, size_t size)
{
    rg_queue_choice c = { .state = RG_QUEUE_CHOICE_MADE, .frames = n };
    stats(async_ms, n, &c.async_ms, &c.async_spread);
    stats(single_ms, n, &c.single_ms, &c.single_spread);
    double noise = c.async_spread + c.single_spread;
    if (noise < MIN_GAIN * c.single_ms)
        noise = MIN_GAIN * c.single_ms;
    double gain = c.single_ms - c.async_ms; /* > 0: async is faster */
    c.async = gain > noise;
    double pct = c.single_ms > 0.0 ? 100.0 * gain / c.single_ms : 0.0;
    int len = snprintf(reason, size, "async compute %.3f ms, one queue %.3f ms (medians of %u frames, spreads "
                       "%.3f and %.3f ms): ", c.async_ms, c.single_ms, n, c.async_spread, c.single_spread);
    if (len >= 0 && (size_t)len < size) {
        if (c.async)
            snprintf(reason + len, size - (size_t)len, "async compute kept, %.1f%% faster", pct);
        else if (gain > 0.0)
            snprintf(reason + len, size - (size_t)len, "one queue kept: async compute is %.1f%% faster, within "
                     "the noise (%.1f%%)", pct, c.single_ms > 0.0 ? 100.0 * noise / c.single_ms : 0.0);
        else
            snprintf(reason + len, size - (size_t)len, "one queue kept: async compute is %.1f%% slower", -pct);
    }
    *out = c;
    return c.async;
}

/* Frees the plan a switch kept and hands the placement it spent to the
 * device's retirement (rg__retire_release). */
static void spent_free(rg_graph *g, rg__queue_measure *m)
{
    rg__free(g, m->spent_submissions);
    rg__free(g, m->spent_cmds);
    m->spent_submissions = NULL;
    m->spent_cmds = NULL;
    rg__retire_release(g);
}

static bool measured(const rg_graph *g) { return g->queue_policy == RG_QUEUE_POLICY_MEASURED; }

/* The way the policy wants compiled in each state: the one compiled while
 * timing it, the other once it is timed, the eligible queues while
 * unmeasured, the faster one once chosen. */
static bool wants_one_queue(const rg__queue_measure *m)
{
    switch (m->state) {
    case RG__MEASURE_OTHER_WAY: return !m->one_queue;
    case RG__MEASURE_TIMINGS_OFF: return RG__RULE(MEASURE_TIMINGS_OFF, false);
    case RG__MEASURE_NO_TIMESTAMPS: return false;
    case RG__MEASURE_MADE: return RG__RULE(MEASURE_KEEPS_FASTER, !m->choice.async);
    default: return m->one_queue;
    }
}

bool rg__measure_switch_due(const rg_graph *g)
{
    return measured(g) && wants_one_queue(&g->measure) != g->measure.one_queue;
}

/* The state with its reason, logged once (INFO). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void say(rg_graph *g, rg__measure_state state, const char *fmt, ...)
{
    rg__queue_measure *m = &g->measure;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->reason, sizeof m->reason, fmt, ap);
    va_end(ap);
    m->state = state;
    rg__log(g, RG_LOG_INFO, "queue policy measured: %s", m->reason);
}

/* Before a compile: the same declaration keeps its choice, or goes on
 * being measured; a new one is measured afresh (a plan a switch kept
 * stays until the next execute). */
static void compile_begin(rg_graph *g, rg__queue_measure *m)
{
    if (RG__RULE(MEASURE_NEW_DECLARATION, m->hash != g->decl.hash))
        *m = (rg__queue_measure){ .hash = g->decl.hash, .spent_submissions = m->spent_submissions,
                                  .spent_cmds = m->spent_cmds };
}

/* After a compile (placed anew): what there is to measure. A switch still
 * due stays due. */
static void compiled(rg_graph *g, rg__queue_measure *m)
{
    m->skip = SKIP_FRAMES;
    m->submit_skip = true;
    if (m->state == RG__MEASURE_MADE || m->state == RG__MEASURE_NO_TIMESTAMPS)
        return;
    if (!m->one_queue && g->compiled->queues.batch_count <= 1) {
        if (m->state != RG__MEASURE_NOTHING || !m->reason[0])
            say(g, RG__MEASURE_NOTHING, "every command of graph '%s' runs on the graphics queue (nothing "
                "eligible for another queue it has), nothing to measure", g->name);
        return;
    }
    if (!g->timings) {
        if (m->state != RG__MEASURE_TIMINGS_OFF)
            say(g, RG__MEASURE_TIMINGS_OFF, "graph '%s' has timings off (rg_graph_desc.timings, "
                "rg_graph_set_timings): eligible commands stay on their queues, unmeasured", g->name);
        return;
    }
    if (m->state != RG__MEASURE_OTHER_WAY)
        m->state = RG__MEASURE_TIMING;
    snprintf(m->reason, sizeof m->reason, "measuring graph '%s' %s", g->name,
             m->one_queue ? "on one queue" : "with async compute");
}

static bool timing(const rg__queue_measure *m)
{
    return m->state == RG__MEASURE_TIMING || m->state == RG__MEASURE_OTHER_WAY;
}

static void timings_off(rg_graph *g, rg__queue_measure *m)
{
    if (timing(m))
        say(g, RG__MEASURE_TIMINGS_OFF, "graph '%s' had its timings turned off while measuring: eligible "
            "commands stay on their queues, unmeasured until they are on again", g->name);
}

/* Both ways timed: the choice, and the submissions' CPU times beside it. */
static void decide(rg_graph *g, rg__queue_measure *m)
{
    char why[sizeof m->reason - RG__NAME_MAX - 16];
    rg__queues_decide(m->ms[WAY_ASYNC], m->ms[WAY_ONE], RG_QUEUE_MEASURE_FRAMES, &m->choice, why, sizeof why);
    if (m->submits[WAY_ASYNC] && m->submits[WAY_ONE]) {
        double spread;
        stats(m->submit_ms[WAY_ASYNC], m->submits[WAY_ASYNC], &m->choice.async_submit_ms, &spread);
        stats(m->submit_ms[WAY_ONE], m->submits[WAY_ONE], &m->choice.single_submit_ms, &spread);
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, "; rg_submit took %.3f and %.3f ms on the CPU",
                 m->choice.async_submit_ms, m->choice.single_submit_ms);
    }
    say(g, RG__MEASURE_MADE, "graph '%s': %s", g->name, why);
}

/* A completed frame of the way compiled, while it is the way wanted. */
static void frame_timed(rg_graph *g, rg__queue_measure *m, double ms)
{
    if (rg__measure_switch_due(g) || m->state == RG__MEASURE_NOTHING || m->state == RG__MEASURE_MADE ||
        m->state == RG__MEASURE_NO_TIMESTAMPS)
        return;
    if (ms < 0.0) {
        /* A batch without timestamps: the frame cannot be timed whole. */
        say(g, RG__MEASURE_NO_TIMESTAMPS, "a queue of graph '%s' has no timestamps (timestampValidBits 0): "
            "eligible commands stay on their queues, unmeasured", g->name);
        return;
    }
    m->state = RG__MEASURE_TIMING; /* timings were turned on after compile */
    if (m->skip > 0) {
        m->skip--;
        return;
    }
    uint32_t way = m->one_queue ? WAY_ONE : WAY_ASYNC;
    if (m->count[way] < RG_QUEUE_MEASURE_FRAMES)
        m->ms[way][m->count[way]++] = ms;
    if (m->count[way] < RG_QUEUE_MEASURE_FRAMES)
        return;
    if (m->count[!way] < RG_QUEUE_MEASURE_FRAMES)
        m->state = RG__MEASURE_OTHER_WAY; /* this way timed (async compute first): the other next */
    else
        decide(g, m);
}

/* A frame begins: the plan a switch kept ends here; a switch due for a
 * few frames without a submission the graph saw is warned of once (a
 * forgotten retire point). */
static void execute(rg_graph *g, rg__queue_measure *m)
{
    spent_free(g, m);
    if (!rg__measure_switch_due(g) || ++m->due_frames != DUE_FRAMES)
        return;
    rg__log(g, RG_LOG_WARNING, "graph '%s': the measured queue policy would compile %s after a frame's submission, "
            "but %u frames were recorded since with neither rg_submit nor rg_graph_set_retire_point: a graph whose "
            "frames are submitted by hand calls rg_graph_set_retire_point after each", g->name,
            m->one_queue ? "with async compute" : "on one queue", m->due_frames);
}

static void submitted(rg__queue_measure *m, double ms)
{
    if (!timing(m))
        return;
    if (m->submit_skip) {
        m->submit_skip = false;
        return;
    }
    uint32_t way = m->one_queue ? WAY_ONE : WAY_ASYNC;
    if (m->submits[way] < RG_QUEUE_MEASURE_FRAMES)
        m->submit_ms[way][m->submits[way]++] = ms;
}

/* The other way is compiled next: it is timed if the way before was. */
static void switched(rg_graph *g, rg__queue_measure *m, rg_submission *submissions, VkCommandBuffer *cmds)
{
    spent_free(g, m);
    m->spent_submissions = submissions;
    m->spent_cmds = cmds;
    m->due_frames = 0;
    m->one_queue = !m->one_queue;
    if (m->state == RG__MEASURE_OTHER_WAY)
        m->state = RG__MEASURE_TIMING;
}

void rg__measure(rg_graph *g, rg__measure_event e)
{
    rg__queue_measure *m = &g->measure;
    if (e.kind == RG__WHEN_EXECUTE || e.kind == RG__WHEN_DESTROY) {
        if (e.kind == RG__WHEN_EXECUTE)
            execute(g, m);
        else
            spent_free(g, m);
        return; /* whatever the policy: a plan kept before it changed is freed */
    }
    if (!measured(g))
        return;
    switch (e.kind) {
    case RG__WHEN_COMPILE_BEGIN: compile_begin(g, m); break;
    case RG__WHEN_COMPILED: compiled(g, m); break;
    case RG__WHEN_TIMINGS_OFF: timings_off(g, m); break;
    case RG__WHEN_FRAME_TIMED: frame_timed(g, m, e.ms); break;
    case RG__WHEN_SUBMITTED: submitted(m, e.ms); break;
    case RG__WHEN_SWITCHED: switched(g, m, e.submissions, e.cmds); break;
    default: break;
    }
}

rg_result rg_queue_choice_get(const rg_graph *graph, rg_queue_choice *out)
{
    if (graph && !rg__graph_live(graph, "rg_queue_choice_get"))
        return RG_ERROR_INVALID_HANDLE;
    if (!graph || !out)
        return graph ? rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_queue_choice_get: out is NULL")
                     : RG_ERROR_INVALID_ARGUMENT;
    const rg__queue_measure *m = &graph->measure;
    if (graph->queue_policy != RG_QUEUE_POLICY_MEASURED) {
        *out = (rg_queue_choice){ .async = !graph->single_queue,
                                  .reason = graph->single_queue ? "the queue policy is single"
                                                                : "the queue policy is eligible" };
        return RG_SUCCESS;
    }
    static const rg_queue_choice_state public_state[] = {
        [RG__MEASURE_NOTHING] = RG_QUEUE_CHOICE_NONE,          [RG__MEASURE_TIMING] = RG_QUEUE_CHOICE_MEASURING,
        [RG__MEASURE_OTHER_WAY] = RG_QUEUE_CHOICE_MEASURING,   [RG__MEASURE_TIMINGS_OFF] = RG_QUEUE_CHOICE_UNMEASURED,
        [RG__MEASURE_NO_TIMESTAMPS] = RG_QUEUE_CHOICE_UNMEASURED, [RG__MEASURE_MADE] = RG_QUEUE_CHOICE_MADE,
    };
    if (m->state == RG__MEASURE_MADE) {
        *out = m->choice;
    } else {
        *out = (rg_queue_choice){ .async = !m->one_queue, .frames = m->count[m->one_queue ? WAY_ONE : WAY_ASYNC] };
    }
    out->state = public_state[m->state];
    out->reason = m->reason;
    return RG_SUCCESS;
}
