/* Compile stage "schedule": the order that lowers the peak of memory.
 *
 * A frame of at most RG__EXACT_NODES live nodes (spans count once) gets
 * the order of least peak of any valid order, found exactly
 * (compile_exact_order.c), unless its sets of nodes are too many to keep;
 * then, and for larger frames, the heuristics below decide, their best
 * order improved by a local search (compile_order_search.c), which also
 * gives the exact search a lower bound to prune with.
 *
 * The order stage's batch order (longest path, as soon as possible) keeps
 * every resource's first use early and so many resources live at once.
 * This stage makes a few other valid orders and keeps the one whose peak
 * is lowest (the batch order on a tie, so it is never worse):
 *   - the declaration order (record order is topological);
 *   - the "as late as possible" order: nodes by the longest path from them
 *     to a sink, counted from the end, so a producer runs right before its
 *     first consumer (shadow maps declared first but read one light at a
 *     time);
 *   - two list schedules: of the ready nodes (every predecessor placed)
 *     the one that allocates the fewest bytes less those it frees (the last
 *     use of a resource frees it), among the SCHEDULE_WINDOW ready nodes
 *     first in the as-soon-as-possible or the as-late-as-possible order,
 *     ties to that order.
 * The bytes are an estimate of each created resource's size from its
 * description (texel blocks of every mip and layer times samples; a
 * buffer's size): the device's requirements come only at placement. The
 * peak of an order is the most estimated bytes live at one node (a
 * resource lives from its first use to its last). Everything is linear in
 * the nodes, resources and edges (the list schedules: times the window),
 * and deterministic.
 *
 * rg_graph_desc.order picks the batch order or the declaration order
 * instead (measurements, tests). Spans are nodes, so they stay contiguous;
 * merge candidates are made adjacent by the merge stage after this one.
 * Every array of the stage but its order comes from one scratch arena
 * (base/arena.h), freed when the stage returns.
 */
#include "compile/schedule/schedule.h"

#include <string.h>

/* Ready nodes looked at per step: bounds the cost per node. */
#define SCHEDULE_WINDOW 32

typedef rg__sched sched;

/* Estimates are capped at 1 TiB, above any device's heaps, so sums over
 * every resource a graph can hold (2^20) stay far below 2^63. */
#define MAX_BYTES (1ull << 40)

static uint64_t capped_mul(uint64_t a, uint64_t b) { return b && a > MAX_BYTES / b ? MAX_BYTES : a * b; }

static uint64_t texture_bytes(const rg__resource *r)
{
    rg_format_info fi = rg_format_get_info(r->format);
    uint64_t bw = fi.block_width ? fi.block_width : 1, bh = fi.block_height ? fi.block_height : 1, total = 0;
    for (uint32_t m = 0; m < r->mip_levels && total < MAX_BYTES && m < 32; m++) {
        uint64_t w = r->width >> m ? r->width >> m : 1, h = r->height >> m ? r->height >> m : 1;
        total += capped_mul(capped_mul((w + bw - 1) / bw, (h + bh - 1) / bh), fi.block_size);
    }
    total = capped_mul(capped_mul(total, r->array_layers), r->samples ? r->samples : 1);
    return total < MAX_BYTES ? total : MAX_BYTES;
}

static rg_result live_edges(sched *s);

/* The per-node resource lists and the successor lists of the live nodes.
 * A node lists each resource once, so the lists hold at most one entry
 * per access. */
static rg_result build(sched *s)
{
    const rg_graph *g = s->g;
    const rg__compiled *c = g->compiled;
    uint32_t rc = g->decl.resource_count;
    s->bytes = rg__arena_calloc(s->scratch, (size_t)rc + 1, sizeof *s->bytes);
    uint32_t *seen = rg__arena_alloc(s->scratch, ((size_t)rc + 1) * sizeof *seen);
    s->res_start = rg__arena_calloc(s->scratch, (size_t)s->n + 1, sizeof *s->res_start);
    s->succ_start = rg__arena_calloc(s->scratch, (size_t)s->n + 2, sizeof *s->succ_start);
    s->preds = rg__arena_calloc(s->scratch, (size_t)s->n + 1, sizeof *s->preds);
    s->res = rg__arena_alloc(s->scratch, ((size_t)g->decl.access_count + 1) * sizeof *s->res);
    if (!s->bytes || !seen || !s->res_start || !s->succ_start || !s->preds || !s->res)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t ri = 0; ri < rc; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        /* Imports and history pairs (dedicated, kept across frames) are
         * never pooled: the order does not change their memory. */
        bool pooled = !r->imported && r->history_pair == RG__NONE;
        s->bytes[ri] = !pooled ? 0 : r->is_texture ? texture_bytes(r) : r->size < MAX_BYTES ? r->size : MAX_BYTES;
        seen[ri] = RG__NONE;
    }
    size_t count = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t nd = s->node[i];
        s->res_start[i] = (uint32_t)count;
        uint32_t first = g->decl.cmds[c->nodes.first_cmd[nd]].first_access;
        uint32_t end = c->nodes.first_cmd[nd + 1] < g->decl.cmd_count
                           ? g->decl.cmds[c->nodes.first_cmd[nd + 1]].first_access
                           : g->decl.access_count;
        for (uint32_t ai = first; ai < end; ai++) {
            uint32_t ri = g->decl.accesses[ai].resource;
            if (s->bytes[ri] == 0 || seen[ri] == i)
                continue;
            seen[ri] = i;
            s->res[count++] = ri;
        }
    }
    s->res_start[s->n] = (uint32_t)count;
    return live_edges(s);
}

/* Appends (from, to) to the pair list; false when out of memory. */
static bool pair_push(rg__arena *a, uint32_t **pairs, size_t *count, size_t *cap, uint32_t from, uint32_t to)
{
    if (*count == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 64;
        uint32_t *grown = rg__arena_grow(a, *pairs, *cap * 2 * sizeof **pairs, grown_cap * 2 * sizeof **pairs);
        if (!grown)
            return false;
        *pairs = grown;
        *cap = grown_cap;
    }
    (*pairs)[2 * *count] = from;
    (*pairs)[2 * *count + 1] = to;
    (*count)++;
    return true;
}

/* The dependencies between live nodes, culled ones bridged: a live node
 * depends on every live node that reaches it through culled nodes only
 * (an order that dropped the culled node's edges could run them the wrong
 * way round). One backward walk per live node over the culled region
 * behind it, with a stamp per node. Then the successor lists and the
 * predecessor counts. */
static rg_result live_edges(sched *s)
{
    const rg__compiled *c = s->g->compiled;
    uint32_t *in_start = rg__arena_calloc(s->scratch, (size_t)c->nodes.count + 2, sizeof *in_start);
    uint32_t *stamp = rg__arena_alloc(s->scratch, ((size_t)c->nodes.count + 1) * sizeof *stamp);
    uint32_t *stack = rg__arena_alloc(s->scratch, ((size_t)c->nodes.count + 1) * sizeof *stack);
    uint32_t *pairs = NULL;
    size_t count = 0, cap = 0;
    bool ok = in_start && stamp && stack;
    for (uint32_t nd = 0; ok && nd < c->nodes.count; nd++)
        stamp[nd] = RG__NONE;
    /* The kept edges come sorted by target: each node's incoming ones are
     * contiguous. */
    for (uint32_t e = 0; ok && e < c->closure.reduced_count; e++)
        in_start[c->closure.reduced[2 * e + 1] + 1]++;
    for (uint32_t nd = 0; ok && nd < c->nodes.count; nd++)
        in_start[nd + 1] += in_start[nd];
    for (uint32_t i = 0; ok && i < s->n; i++) {
        uint32_t top = 0, b = s->node[i];
        stack[top++] = b;
        stamp[b] = i;
        while (top && ok) {
            uint32_t nd = stack[--top];
            for (uint32_t e = in_start[nd]; e < in_start[nd + 1] && ok; e++) {
                uint32_t p = c->closure.reduced[2 * e];
                if (stamp[p] == i)
                    continue;
                stamp[p] = i;
                if (s->live[p] != RG__NONE)
                    ok = pair_push(s->scratch, &pairs, &count, &cap, s->live[p], i);
                else
                    stack[top++] = p; /* culled: look behind it */
            }
        }
    }
    if (ok) {
        for (size_t k = 0; k < count; k++) {
            s->succ_start[pairs[2 * k] + 2]++;
            s->preds[pairs[2 * k + 1]]++;
        }
        for (uint32_t i = 0; i < s->n; i++)
            s->succ_start[i + 2] += s->succ_start[i + 1];
        s->succ = rg__arena_alloc(s->scratch, (count + 1) * sizeof *s->succ);
        ok = s->succ != NULL;
        for (size_t k = 0; ok && k < count; k++)
            s->succ[s->succ_start[pairs[2 * k] + 1]++] = pairs[2 * k + 1];
    }
    return ok ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
}

/* The most estimated bytes live at one node of seq (live node indices). */
static uint64_t peak(const sched *s, const uint32_t *seq, uint32_t *first, uint32_t *last, int64_t *diff)
{
    uint64_t most;
    rg__sched_live(s, seq, first, last, diff, &most, NULL);
    return most;
}

/* Ready nodes by batch rank: a binary min-heap of live node indices (a
 * live node's index is its rank). */
typedef struct heap {
    uint32_t *v;
    uint32_t n;
    const uint32_t *rank;             /* per live node: its place in the order the window follows */
} heap;

static void heap_push(heap *h, uint32_t x)
{
    uint32_t i = h->n++;
    while (i > 0 && h->rank[h->v[(i - 1) / 2]] > h->rank[x]) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static uint32_t heap_pop(heap *h)
{
    uint32_t top = h->v[0], x = h->v[--h->n], i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        uint32_t rm = h->rank[x];
        if (l < h->n && h->rank[h->v[l]] < rm) {
            m = l;
            rm = h->rank[h->v[l]];
        }
        if (l + 1 < h->n && h->rank[h->v[l + 1]] < rm)
            m = l + 1;
        if (m == i)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n)
        h->v[i] = x;
    return top;
}

/* The list schedule into seq, its window following rank. remaining: per
 * resource, its use nodes not yet placed. */
static rg_result list_schedule(const sched *s, const uint32_t *rank, uint32_t *seq)
{
    uint32_t rc = s->g->decl.resource_count;
    uint32_t *remaining = rg__arena_calloc(s->scratch, (size_t)rc + 1, sizeof *remaining);
    uint32_t *preds = rg__arena_alloc(s->scratch, ((size_t)s->n + 1) * sizeof *preds);
    uint8_t *started = rg__arena_calloc(s->scratch, (size_t)rc + 1, 1);
    heap h = {rg__arena_alloc(s->scratch, ((size_t)s->n + 1) * sizeof *h.v), 0, rank};
    if (!remaining || !preds || !started || !h.v)
        return RG_ERROR_OUT_OF_MEMORY;
    memcpy(preds, s->preds, (size_t)s->n * sizeof *preds);
    for (uint32_t k = 0; k < s->res_start[s->n]; k++)
        remaining[s->res[k]]++;
    for (uint32_t i = 0; i < s->n; i++)
        if (preds[i] == 0)
            heap_push(&h, i);
    uint32_t window[SCHEDULE_WINDOW];
    for (uint32_t p = 0; p < s->n; p++) {
        uint32_t w = 0;
        while (w < SCHEDULE_WINDOW && h.n)
            window[w++] = heap_pop(&h);
        uint32_t best = 0;
        int64_t best_score = INT64_MAX;
        for (uint32_t k = 0; k < w; k++) {
            int64_t score = 0;
            uint32_t x = window[k];
            for (uint32_t q = s->res_start[x]; q < s->res_start[x + 1]; q++) {
                uint32_t ri = s->res[q];
                if (!started[ri])
                    score += (int64_t)s->bytes[ri];
                if (remaining[ri] == 1)
                    score -= (int64_t)s->bytes[ri];
            }
            if (score < best_score) { /* the window is in rank order: ties keep the earlier */
                best_score = score;
                best = k;
            }
        }
        uint32_t x = window[best];
        for (uint32_t k = 0; k < w; k++)
            if (k != best)
                heap_push(&h, window[k]);
        seq[p] = x;
        for (uint32_t q = s->res_start[x]; q < s->res_start[x + 1]; q++) {
            started[s->res[q]] = 1;
            remaining[s->res[q]]--;
        }
        for (uint32_t k = s->succ_start[x]; k < s->succ_start[x + 1]; k++)
            if (--preds[s->succ[k]] == 0)
                heap_push(&h, s->succ[k]);
    }
    return RG_SUCCESS;
}

/* The as-late-as-possible order into seq and each node's place in it into
 * rank: nodes by (deepest path to a sink, counted from the end), then batch
 * order. Live node indices are in batch order, which is topological, so
 * one backward walk finds the heights. */
static rg_result alap(const sched *s, uint32_t *seq, uint32_t *rank)
{
    uint32_t *height = rg__arena_calloc(s->scratch, (size_t)s->n + 1, sizeof *height), top = 0;
    uint32_t *start = rg__arena_calloc(s->scratch, (size_t)s->n + 2, sizeof *start);
    if (!height || !start)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = s->n; i-- > 0;) {
        for (uint32_t k = s->succ_start[i]; k < s->succ_start[i + 1]; k++)
            if (height[s->succ[k]] + 1 > height[i])
                height[i] = height[s->succ[k]] + 1;
        top = height[i] > top ? height[i] : top;
    }
    /* Counting sort by top - height (the latest level), stable. */
    for (uint32_t i = 0; i < s->n; i++)
        start[top - height[i] + 1]++;
    for (uint32_t l = 0; l <= top; l++)
        start[l + 1] += start[l];
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t at = start[top - height[i]]++;
        seq[at] = i;
        rank[i] = at;
    }
    return RG_SUCCESS;
}

/* The order of the live nodes in sequence seq. */
static bool order_of(const sched *s, const uint32_t *seq, rg__order *out)
{
    uint32_t *nodes = rg__arena_alloc(s->scratch, ((size_t)s->n + 1) * sizeof *nodes);
    bool ok = nodes != NULL;
    for (uint32_t i = 0; ok && i < s->n; i++)
        nodes[i] = s->node[seq[i]];
    return ok && rg__order_of_nodes(s->g, nodes, s->n, out);
}

/* The live nodes in order as they are (the level order, or the
 * declaration order) into out. */
static rg_result as_is(const sched *s, rg__order *out)
{
    uint32_t *seq = rg__arena_alloc(s->scratch, ((size_t)s->n + 1) * sizeof *seq);
    for (uint32_t i = 0; seq && i < s->n; i++)
        seq[i] = i;
    return seq && order_of(s, seq, out) ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
}

/* The stage, its arrays from s's scratch arena. */
static rg_result schedule(sched *s, rg__order *out)
{
    const rg_graph *g = s->g;
    const rg__compiled *c = g->compiled;
    s->node = rg__arena_alloc(s->scratch, ((size_t)c->nodes.count + 1) * sizeof *s->node);
    s->live = rg__arena_alloc(s->scratch, ((size_t)c->nodes.count + 1) * sizeof *s->live);
    if (!s->node || !s->live)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t nd = 0; nd < c->nodes.count; nd++)
        s->live[nd] = RG__NONE;
    if (g->order == RG_ORDER_DECLARATION) {
        /* Record order is topological: every edge goes to a later node. */
        for (uint32_t nd = 0; nd < c->nodes.count; nd++)
            if (!c->cull.node_culled[nd])
                s->node[s->n++] = nd;
        return as_is(s, out);
    }
    /* The level order's node sequence. */
    for (uint32_t p = 0; p < c->levels.order.count; p++) {
        uint32_t nd = rg__node_of(g, c->levels.order.cmds[p]);
        if (s->n == 0 || s->node[s->n - 1] != nd)
            s->node[s->n++] = nd;
    }
    if (g->order == RG_ORDER_BATCHES)
        return as_is(s, out);
    for (uint32_t i = 0; i < s->n; i++)
        s->live[s->node[i]] = i;
    rg_result r = build(s);
    if (r != RG_SUCCESS)
        return r;
    size_t nn = (size_t)s->n + 1, rc = (size_t)g->decl.resource_count + 1;
    /* Candidates: batch, declaration, as late as possible, and the list
     * schedules following the first and the third. */
    uint32_t *cand[5];
    bool ok = true;
    for (int k = 0; k < 5; k++) {
        cand[k] = rg__arena_alloc(s->scratch, nn * sizeof *cand[k]);
        ok = ok && cand[k];
    }
    uint32_t *batch_rank = rg__arena_alloc(s->scratch, nn * sizeof *batch_rank);
    uint32_t *alap_rank = rg__arena_alloc(s->scratch, nn * sizeof *alap_rank);
    uint32_t *first = rg__arena_alloc(s->scratch, rc * sizeof *first);
    uint32_t *last = rg__arena_alloc(s->scratch, rc * sizeof *last);
    int64_t *diff = rg__arena_alloc(s->scratch, nn * sizeof *diff);
    if (!ok || !batch_rank || !alap_rank || !first || !last || !diff)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t d = 0;
    for (uint32_t i = 0; i < s->n; i++)
        cand[0][i] = batch_rank[i] = i;
    for (uint32_t nd = 0; nd < c->nodes.count; nd++) /* record order */
        if (s->live[nd] != RG__NONE)
            cand[1][d++] = s->live[nd];
    r = alap(s, cand[2], alap_rank);
    if (r == RG_SUCCESS)
        r = list_schedule(s, batch_rank, cand[3]);
    if (r == RG_SUCCESS)
        r = list_schedule(s, alap_rank, cand[4]);
    if (r != RG_SUCCESS)
        return r;
    int best = 0;
    uint64_t best_peak = peak(s, cand[0], first, last, diff);
    for (int k = 1; k < 5; k++) {
        uint64_t p = peak(s, cand[k], first, last, diff);
        if (p < best_peak) {
            best_peak = p;
            best = k;
        }
    }
    /* The best candidate improved by local search; then, for a small
     * frame, the least peak of any order, found exactly below the
     * improved one's (into cand[0], which is free after: the search's
     * order stands where the exact one is out of reach). */
    r = rg__order_search(s, cand[best], RG__ORDER_SEARCH_WORK);
    if (r == RG_SUCCESS && s->n <= RG__EXACT_NODES) {
        memcpy(cand[0], cand[best], (size_t)s->n * sizeof *cand[0]);
        r = rg__exact_order(s, peak(s, cand[best], first, last, diff), cand[0]);
        best = 0;
        r = r == RG_ERROR_UNSUPPORTED ? RG_SUCCESS : r;
    }
    if (r == RG_SUCCESS && !order_of(s, cand[best], out))
        r = RG_ERROR_OUT_OF_MEMORY;
    return r;
}

rg_result rg__compile_schedule(const rg_graph *g, rg__schedule *out)
{
    rg__arena scratch = {.g = g};
    sched s = {.g = g, .scratch = &scratch};
    rg_result r = schedule(&s, &out->order);
    rg__arena_free(&scratch);
    return r;
}

void rg__schedule_free(const rg_graph *g, rg__schedule *s)
{
    rg__order_free(g, &s->order);
}
