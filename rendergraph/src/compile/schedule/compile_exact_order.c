/* The schedule stage's exact search (schedule.h): the least peak of live
 * bytes over every valid order of a small frame, by dynamic programming
 * over the sets of nodes already run, as SERENITY does for neural-network
 * graphs. Only sets closed under the dependencies (every predecessor of a
 * member is a member) are reachable; they are found layer by layer (sets
 * of k nodes from sets of k - 1) and kept in a hash table.
 *
 * Running node v after set S, the resources live at v are those some node
 * of S or v uses and some node outside S (v included) uses: the ones S
 * left open, plus v's own that nothing in S used. So each set keeps the
 * bytes it leaves open, and a step costs v's resources alone. A set's
 * value is the least peak of any order of its nodes, then the fewest
 * queue changes; the key includes the queue class of the node run last,
 * which the next change depends on. A known order's peak bounds the
 * search: a partial order above it cannot lead to a better one.
 */
#include "compile/schedule/schedule.h"
#include "base/bits.h"

#include <string.h>

/* Sets kept at most: beyond it (many independent passes, 2^n sets) the
 * heuristics order the frame. Up to RG__EXACT_ALWAYS nodes the search is
 * the rule and gets the larger budget; past it, it is tried where a frame
 * is narrow enough, so it gives up sooner. */
#define EXACT_STATES (1u << 14)
#define EXACT_STATES_WIDE (1u << 12)

typedef struct state {
    uint64_t key;                     /* set << 2 | queue class of the node run last */
    uint32_t prev;                    /* the state it came from (UINT32_MAX: the empty set) */
    uint64_t open;                    /* bytes the set leaves live */
    uint64_t peak;                    /* least peak of an order of the set */
    uint32_t changes;                 /* its queue changes */
    uint8_t last;                     /* the node run last */
} state;

/* One search; its arrays come from the stage's arena (rg__sched). */
typedef struct search {
    const rg__sched *s;
    uint32_t n, res_count;
    uint64_t bound;                   /* a known order's peak: partial orders above it are dropped */
    uint64_t pred[RG__EXACT_NODES];   /* per node: its predecessors, as a set */
    uint8_t class[RG__EXACT_NODES];   /* per node: the queue it is eligible for */
    uint64_t *users;                  /* per used resource: the nodes using it */
    uint64_t *bytes;                  /* per used resource */
    uint32_t *node_res_start, *node_res; /* per node: its used resources (indices above) */
    state *states;
    uint32_t count, cap;
    uint32_t *table;                  /* key hash -> state index + 1; 0 empty */
    uint32_t table_mask;
    bool out_of_memory;
} search;

static uint32_t hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return (uint32_t)(k ^ (k >> 33));
}

/* Doubles the states and the table (rehashed). Both come from the
 * stage's arena, where the ones they replace stay unused until the stage
 * ends: doubling keeps those below the size of the last. False past the
 * budget or out of memory. */
static bool grow(search *x)
{
    rg__arena *scratch = x->s->scratch;
    if (x->cap >= (x->n <= RG__EXACT_ALWAYS ? EXACT_STATES : EXACT_STATES_WIDE))
        return false;
    uint32_t cap = x->cap ? 2 * x->cap : 256, slots = 2 * cap;
    state *states = rg__arena_grow(scratch, x->states, (size_t)x->cap * sizeof *states, (size_t)cap * sizeof *states);
    if (states)
        x->states = states;
    uint32_t *table = states ? rg__arena_calloc(scratch, slots, sizeof *table) : NULL;
    if (!table) {
        x->out_of_memory = true;
        return false;
    }
    for (uint32_t i = 0; i < x->count; i++) {
        uint32_t h = hash(x->states[i].key) & (slots - 1);
        while (table[h])
            h = (h + 1) & (slots - 1);
        table[h] = i + 1;
    }
    x->table = table;
    x->table_mask = slots - 1;
    x->cap = cap;
    return true;
}

/* The state of key, made when new (fields left for the caller); NULL past
 * the budget or out of memory. */
static state *lookup(search *x, uint64_t key, bool *made)
{
    if (x->count == x->cap && !grow(x))
        return NULL;
    uint32_t h = hash(key) & x->table_mask;
    for (;; h = (h + 1) & x->table_mask) {
        uint32_t at = x->table[h];
        if (at == 0)
            break;
        if (x->states[at - 1].key == key) {
            *made = false;
            return &x->states[at - 1];
        }
    }
    x->table[h] = ++x->count;
    *made = true;
    state *st = &x->states[x->count - 1];
    st->key = key;
    return st;
}

/* Sets, resources and classes from the schedule's lists. */
static rg_result prepare(search *x)
{
    const rg__sched *s = x->s;
    uint32_t rc = s->g->decl.resource_count, total = s->res_start[s->n];
    uint32_t *slot = rg__arena_alloc(s->scratch, ((size_t)rc + 1) * sizeof *slot);
    x->users = rg__arena_calloc(s->scratch, (size_t)total + 1, sizeof *x->users);
    x->bytes = rg__arena_calloc(s->scratch, (size_t)total + 1, sizeof *x->bytes);
    x->node_res_start = rg__arena_calloc(s->scratch, (size_t)x->n + 1, sizeof *x->node_res_start);
    x->node_res = rg__arena_alloc(s->scratch, ((size_t)total + 1) * sizeof *x->node_res);
    if (!slot || !x->users || !x->bytes || !x->node_res_start || !x->node_res)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t ri = 0; ri < rc; ri++)
        slot[ri] = RG__NONE;
    for (uint32_t i = 0; i < x->n; i++) {
        x->class[i] = rg__sched_class(s, i);
        x->node_res_start[i] = s->res_start[i];
        for (uint32_t k = s->res_start[i]; k < s->res_start[i + 1]; k++) {
            uint32_t ri = s->res[k];
            if (slot[ri] == RG__NONE) {
                slot[ri] = x->res_count++;
                x->bytes[slot[ri]] = s->bytes[ri];
            }
            x->users[slot[ri]] |= 1ull << i;
            x->node_res[k] = slot[ri];
        }
        for (uint32_t k = s->succ_start[i]; k < s->succ_start[i + 1]; k++)
            x->pred[s->succ[k]] |= 1ull << i;
    }
    x->node_res_start[x->n] = total;
    return RG_SUCCESS;
}

/* One step: node v after state `from` (index, or UINT32_MAX for the empty
 * set). False past the budget. */
static bool step(search *x, uint32_t from, uint32_t v)
{
    /* A copy: making the next state may move the states. */
    const state f_copy = from == UINT32_MAX ? (state){.prev = UINT32_MAX, .last = 0xff} : x->states[from];
    const state *f = &f_copy;
    uint64_t set = f->key >> 2, done = set | 1ull << v;
    uint64_t added = 0, closed = 0;
    for (uint32_t k = x->node_res_start[v]; k < x->node_res_start[v + 1]; k++) {
        uint32_t r = x->node_res[k];
        if (!(x->users[r] & set))
            added += x->bytes[r];
        if (!(x->users[r] & ~done))
            closed += x->bytes[r];
    }
    uint64_t live = f->open + added, peak = live > f->peak ? live : f->peak;
    if (peak > x->bound)
        return true;
    uint32_t changes = f->changes + (from != UINT32_MAX && x->class[f->last] != x->class[v]);
    bool made;
    state *to = lookup(x, done << 2 | x->class[v], &made);
    if (!to)
        return false;
    /* The same set reached another way: keep the better; on a full tie the
     * first found (states and nodes are tried in a fixed order). */
    if (made || peak < to->peak || (peak == to->peak && changes < to->changes)) {
        to->prev = from;
        to->open = f->open + added - closed;
        to->peak = peak;
        to->changes = changes;
        to->last = (uint8_t)v;
    }
    return true;
}

/* Layer by layer: the states of sets of k + 1 nodes from those of k. */
static bool run(search *x)
{
    for (uint32_t v = 0; v < x->n; v++)
        if (!x->pred[v] && !step(x, UINT32_MAX, v))
            return false;
    uint32_t begin = 0;
    uint64_t full = x->n == 64 ? UINT64_MAX : (1ull << x->n) - 1;
    for (uint32_t k = 1; k < x->n; k++) {
        uint32_t end = x->count;
        for (uint32_t i = begin; i < end; i++) {
            uint64_t set = x->states[i].key >> 2;
            for (uint64_t rest = full & ~set; rest; rest &= rest - 1) {
                uint32_t v = rg__ctz64(rest);
                if (!(x->pred[v] & ~set) && !step(x, i, v))
                    return false;
            }
        }
        begin = end;
    }
    return true;
}

rg_result rg__exact_order(const rg__sched *s, uint64_t bound, uint32_t *seq)
{
    if (s->n == 0 || s->n > RG__EXACT_NODES)
        return RG_ERROR_UNSUPPORTED;
    search x = {.s = s, .n = s->n, .bound = bound};
    rg_result r = prepare(&x);
    if (r == RG_SUCCESS && !run(&x))
        r = x.out_of_memory ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_UNSUPPORTED;
    if (r == RG_SUCCESS) {
        /* The full set's best state over the classes of its last node. */
        uint64_t full = (1ull << x.n) - 1;
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < x.count; i++) {
            const state *st = &x.states[i];
            if (st->key >> 2 == full &&
                (best == UINT32_MAX || st->peak < x.states[best].peak ||
                 (st->peak == x.states[best].peak && st->changes < x.states[best].changes)))
                best = i;
        }
        uint32_t p = x.n;
        for (uint32_t i = best; i != UINT32_MAX && p > 0; i = x.states[i].prev)
            seq[--p] = x.states[i].last;
        if (best == UINT32_MAX || p != 0)
            r = RG_ERROR_INTERNAL;
    }
    return r;
}
