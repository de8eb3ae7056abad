/* Execute's chunks (rendergraph.h, "Parallel recording"): each batch's
 * positions of the order cut into contiguous runs of about equal cost, to
 * be recorded into command buffers of their own. A batch gets chunks in
 * proportion to its share of the frame's cost, at least one. A chunk never
 * starts at a span's end (it would resume an instance only to end it), and
 * one is cut off only once it costs something (never a span's begin
 * alone). Where a cut falls inside a rendering instance, the chunk before
 * suspends it and the chunk after resumes it: the cut records which
 * instance and which span are open there.
 */
#include "execute/stages.h"

/* What recording position p costs: a user command its cost hint, a
 * transfer 1, a span's begin and end nothing. */
static uint64_t position_cost(const rg_graph *g, uint32_t p)
{
    const rg__cmd *c = &g->decl.cmds[g->compiled->merge.order.cmds[p]];
    switch (c->type) {
    case RG_COMMAND_TYPE_USER:
        return c->u.user.cost;
    case RG_COMMAND_TYPE_BEGIN_RENDERING:
    case RG_COMMAND_TYPE_END_RENDERING:
        return 0;
    default:
        return 1;
    }
}

/* The frame's batches' costs and positions where a chunk may start. */
typedef struct batch_load {
    uint64_t cost;
    uint32_t starts;
} batch_load;

static bool may_start(const rg_graph *g, uint32_t p)
{
    return g->decl.cmds[g->compiled->merge.order.cmds[p]].type != RG_COMMAND_TYPE_END_RENDERING;
}

static batch_load load_of(const rg_graph *g, uint32_t b)
{
    const rg__batch *batch = &g->compiled->queues.batches[b];
    batch_load l = {0, 0};
    for (uint32_t p = batch->first; p <= batch->last && p < g->compiled->merge.order.count; p++) {
        if (g->compiled->queues.pos_batch[p] != b)
            continue;
        l.cost += position_cost(g, p);
        l.starts += may_start(g, p);
    }
    return l;
}

/* Chunks per batch for max_chunks; 0: one each. */
static uint32_t chunks_of(uint64_t frame_cost, uint32_t max_chunks, batch_load l)
{
    if (max_chunks == 0 || frame_cost == 0 || l.starts == 0)
        return 1;
    uint64_t n = (uint64_t)max_chunks * l.cost / frame_cost;
    if (n < 1)
        n = 1;
    if (n > RG__MAX_CHUNKS)
        n = RG__MAX_CHUNKS;
    return n < l.starts ? (uint32_t)n : l.starts;
}

/* Room for `count` chunks; grows only. */
static rg_result make_room(rg_graph *g, rg__chunks *ch, uint32_t count, const char *what)
{
    uint32_t batches = g->compiled->queues.batch_count;
    if (!ch->batch_chunk && !(ch->batch_chunk = rg__calloc(g, (size_t)batches + 1, sizeof *ch->batch_chunk)))
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    if (count > ch->cap && !rg__grow(g, (void **)&ch->of, &ch->cap, count, sizeof *ch->of))
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    return RG_SUCCESS;
}

/* Opens and closes instances and spans as position p does: after p, *open
 * is the instance open (RG__NONE) and *span the span. */
static void follow(const rg_graph *g, uint32_t p, uint32_t *open, uint32_t *span)
{
    const rg__cmd *c = &g->decl.cmds[g->compiled->merge.order.cmds[p]];
    const rg__merged *m = &g->compiled->merge;
    if (c->type == RG_COMMAND_TYPE_BEGIN_RENDERING) {
        *open = m->span_map[c->span].instance;
        *span = c->span;
    } else if (c->type == RG_COMMAND_TYPE_END_RENDERING) {
        const rg__instance *in = &m->instances[m->span_map[c->span].instance];
        if (m->instance_spans[in->first + in->count - 1] == c->span)
            *open = RG__NONE;
        *span = RG__NONE;
    }
}

/* Cuts batch b into at most n chunks from chunk index `at`: a new chunk
 * starts at the first position that may start one once the cost done
 * passes the next n-th of the batch's, and only after the chunk before
 * has cost something (never a chunk of a span's begin alone). */
static void cut_batch(const rg_graph *g, rg__chunks *chunks, uint32_t b, uint32_t n, uint64_t cost, uint32_t at)
{
    const rg__batch *batch = &g->compiled->queues.batches[b];
    uint32_t order_count = g->compiled->merge.order.count;
    uint32_t open = RG__NONE, span = RG__NONE, made = 0, next = 1;
    uint64_t done = 0;
    rg__chunk *ch = &chunks->of[at];
    *ch = (rg__chunk){b, batch->first, batch->first, 0, RG__NONE, RG__NONE, false, true, false, 0};
    for (uint32_t p = batch->first; p <= batch->last && p < order_count; p++) {
        if (g->compiled->queues.pos_batch[p] != b)
            continue;
        if (made + 1 < n && ch->cost > 0 && may_start(g, p) && done * n >= (uint64_t)next * cost) {
            ch->end = p;
            ch->suspends = open != RG__NONE;
            ch = &chunks->of[at + ++made];
            *ch = (rg__chunk){b, p, p, 0, open, span, false, false, false, 0};
            while (next < n && done * n >= (uint64_t)next * cost)
                next++; /* shares a heavy command already passed */
        }
        uint64_t c = position_cost(g, p);
        done += c;
        ch->cost += c;
        ch->count++;
        follow(g, p, &open, &span);
    }
    ch->end = batch->last + 1 < order_count ? batch->last + 1 : order_count;
    if (ch->end < ch->first)
        ch->end = ch->first;
    ch->batch_ends = true;
    chunks->batch_chunk[b + 1] = at + made + 1;
}

rg_result rg__chunks_cut(rg_graph *g, rg__chunks *ch, uint32_t max_chunks, const char *what)
{
    if (ch->chunks_for == max_chunks && ch->of)
        return RG_SUCCESS;
    uint32_t batches = g->compiled->queues.batch_count;
    uint64_t frame_cost = 0;
    for (uint32_t b = 0; b < batches; b++)
        frame_cost += load_of(g, b).cost;
    uint32_t total = 0;
    for (uint32_t b = 0; b < batches; b++)
        total += chunks_of(frame_cost, max_chunks, load_of(g, b));
    rg_result r = make_room(g, ch, total, what);
    if (r != RG_SUCCESS)
        return r;
    uint32_t at = 0;
    for (uint32_t b = 0; b < batches; b++) {
        batch_load l = load_of(g, b);
        ch->batch_chunk[b] = at;
        cut_batch(g, ch, b, chunks_of(frame_cost, max_chunks, l), l.cost, at);
        at = ch->batch_chunk[b + 1];
    }
    ch->count = at;
    ch->chunks_for = max_chunks;
    return RG_SUCCESS;
}

void rg__chunks_free(rg_graph *g, rg__chunks *ch)
{
    RG__FREE_ALL(g, ch->of, ch->batch_chunk);
    *ch = (rg__chunks){0};
}
