/* The measured queue policy (rendergraph.h, RG_QUEUE_POLICY_MEASURED;
 * docs/queues.md#measured-queues): async compute where it pays. A new
 * declaration is compiled with its eligible commands on their queues and
 * timed over RG_QUEUE_MEASURE_FRAMES frames, then compiled on one queue
 * and timed again; the faster way is kept, async compute only when it
 * wins by more than the noise. Each frame's time is its span on the GPU,
 * from the first batch's start to the last one's end (record_timings.c
 * reads it). This file holds the state and the decision; graph.c compiles
 * and places the other way after a frame's submission (rg__queues_switch),
 * so that a plan already handed out stays whole.
 */
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

/* The state with its reason, logged once (INFO). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void say(rg_graph *g, rg_queue_choice_state state, const char *fmt, ...)
{
    rg__queue_measure *m = &g->measure;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->reason, sizeof m->reason, fmt, ap);
    va_end(ap);
    m->choice.state = state;
    rg__log(g, RG_LOG_INFO, "queue policy measured: %s", m->reason);
}

void rg__measure_compile_begin(rg_graph *g)
{
    rg__queue_measure *m = &g->measure;
    if (g->queue_policy != RG_QUEUE_POLICY_MEASURED || m->hash == g->decl.hash)
        return; /* the same declaration keeps its choice, or goes on being measured */
    /* Measured afresh; a plan a switch kept stays until the next execute. */
    *m = (rg__queue_measure){ .hash = g->decl.hash, .spent_submissions = m->spent_submissions,
                              .spent_cmds = m->spent_cmds };
}

void rg__measure_compiled(rg_graph *g)
{
    rg__queue_measure *m = &g->measure;
    if (g->queue_policy != RG_QUEUE_POLICY_MEASURED)
        return;
    m->skip = SKIP_FRAMES; /* a new compile is placed anew */
    m->submit_skip = true;
    if (m->choice.state == RG_QUEUE_CHOICE_MADE || m->no_timestamps)
        return;
    if (!m->one_queue && g->compiled->queues.batch_count <= 1) {
        if (m->choice.state != RG_QUEUE_CHOICE_NONE || !m->reason[0])
            say(g, RG_QUEUE_CHOICE_NONE, "every command of graph '%s' runs on the graphics queue (nothing "
                "eligible for another queue it has), nothing to measure", g->name);
        return;
    }
    if (!g->timings) {
        if (m->choice.state != RG_QUEUE_CHOICE_UNMEASURED)
            say(g, RG_QUEUE_CHOICE_UNMEASURED, "graph '%s' has timings off (rg_graph_desc.timings, "
                "rg_graph_set_timings): eligible commands stay on their queues, unmeasured", g->name);
        return;
    }
    m->choice.state = RG_QUEUE_CHOICE_MEASURING;
    snprintf(m->reason, sizeof m->reason, "measuring graph '%s' %s", g->name,
             m->one_queue ? "on one queue" : "with async compute");
}

void rg__measure_timings_off(rg_graph *g)
{
    rg__queue_measure *m = &g->measure;
    if (g->queue_policy != RG_QUEUE_POLICY_MEASURED || m->choice.state != RG_QUEUE_CHOICE_MEASURING)
        return;
    say(g, RG_QUEUE_CHOICE_UNMEASURED, "graph '%s' had its timings turned off while measuring: eligible commands "
        "stay on their queues, unmeasured until they are on again", g->name);
    m->switch_due = m->one_queue; /* back to the eligible queues */
}

void rg__measure_frame(rg_graph *g, double ms)
{
    rg__queue_measure *m = &g->measure;
    if (g->queue_policy != RG_QUEUE_POLICY_MEASURED || m->switch_due || m->no_timestamps ||
        m->choice.state == RG_QUEUE_CHOICE_NONE || m->choice.state == RG_QUEUE_CHOICE_MADE)
        return;
    if (ms < 0.0) {
        /* A batch without timestamps: the frame cannot be timed whole. */
        m->no_timestamps = true;
        say(g, RG_QUEUE_CHOICE_UNMEASURED, "a queue of graph '%s' has no timestamps (timestampValidBits 0): "
            "eligible commands stay on their queues, unmeasured", g->name);
        m->switch_due = m->one_queue;
        return;
    }
    m->choice.state = RG_QUEUE_CHOICE_MEASURING; /* timings were turned on after compile */
    if (m->skip > 0) {
        m->skip--;
        return;
    }
    uint32_t way = m->one_queue ? WAY_ONE : WAY_ASYNC;
    if (m->count[way] < RG_QUEUE_MEASURE_FRAMES)
        m->ms[way][m->count[way]++] = ms;
    if (m->count[way] < RG_QUEUE_MEASURE_FRAMES)
        return;
    if (m->count[!way] < RG_QUEUE_MEASURE_FRAMES) {
        m->switch_due = true; /* this way timed (async compute first): the other next */
        return;
    }
    char why[sizeof m->reason - RG__NAME_MAX - 16];
    bool async = rg__queues_decide(m->ms[WAY_ASYNC], m->ms[WAY_ONE], RG_QUEUE_MEASURE_FRAMES, &m->choice, why,
                                   sizeof why);
    if (m->submits[WAY_ASYNC] && m->submits[WAY_ONE]) {
        double spread;
        stats(m->submit_ms[WAY_ASYNC], m->submits[WAY_ASYNC], &m->choice.async_submit_ms, &spread);
        stats(m->submit_ms[WAY_ONE], m->submits[WAY_ONE], &m->choice.single_submit_ms, &spread);
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, "; rg_submit took %.3f and %.3f ms on the CPU",
                 m->choice.async_submit_ms, m->choice.single_submit_ms);
    }
    say(g, RG_QUEUE_CHOICE_MADE, "graph '%s': %s", g->name, why);
    m->switch_due = async == m->one_queue;
}

void rg__measure_executing(rg_graph *g)
{
    rg__queue_measure *m = &g->measure;
    if (!m->switch_due || ++m->due_frames != DUE_FRAMES)
        return;
    rg__log(g, RG_LOG_WARNING, "graph '%s': the measured queue policy would compile %s after a frame's submission, "
            "but %u frames were recorded since with neither rg_submit nor rg_graph_set_retire_point: a graph whose "
            "frames are submitted by hand calls rg_graph_set_retire_point after each", g->name,
            m->one_queue ? "with async compute" : "on one queue", m->due_frames);
}

void rg__measure_submit(rg_graph *g, double ms)
{
    rg__queue_measure *m = &g->measure;
    if (g->queue_policy != RG_QUEUE_POLICY_MEASURED || m->choice.state != RG_QUEUE_CHOICE_MEASURING)
        return;
    if (m->submit_skip) {
        m->submit_skip = false;
        return;
    }
    uint32_t way = m->one_queue ? WAY_ONE : WAY_ASYNC;
    if (m->submits[way] < RG_QUEUE_MEASURE_FRAMES)
        m->submit_ms[way][m->submits[way]++] = ms;
}

void rg__measure_spent_free(rg_graph *g)
{
    rg__free(g, g->measure.spent_submissions);
    rg__free(g, g->measure.spent_cmds);
    g->measure.spent_submissions = NULL;
    g->measure.spent_cmds = NULL;
    rg__retire_release(g);
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
    *out = m->choice;
    if (m->choice.state != RG_QUEUE_CHOICE_MADE) {
        out->async = !m->one_queue;
        out->frames = m->count[m->one_queue ? WAY_ONE : WAY_ASYNC];
    }
    out->reason = m->reason;
    return RG_SUCCESS;
}
