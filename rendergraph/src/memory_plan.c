/* The memory planner: pure, device-free. From each created resource's
 * memory requirements and the compile step's happens-before closure it
 * decides where the memory comes from (lazy, dedicated or a pool), packs
 * the pooled resources so that only provably ordered ones share bytes, and
 * records what each pooled resource's first use must wait for.
 *
 * Sharing rule (DESIGN.md): A and B may overlap only when every use of one
 * happens-before every use of the other. Per pooled resource the planner
 * keeps its use nodes U and the nodes that happen-before all of its uses P
 * (the AND of the closure rows of its use nodes); A before B is U(A) ⊆ P(B).
 * Closure rows never hold their own node, so two uses in one node (one
 * span) are never ordered. Batch numbers and record order prove nothing.
 */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* A pooled resource while planning. */
typedef struct pooled {
    uint32_t resource;
    uint32_t pool;
    VkDeviceSize size, alignment, offset;
    uint32_t first, last;             /* execution-order positions */
    VkPipelineStageFlags2 stage;      /* union over its own accesses */
    VkAccessFlags2 access;
} pooled;

typedef struct planner {
    rg_graph *g;
    const VkPhysicalDeviceMemoryProperties *props;
    const rg_mem_requirements *reqs;
    rg_mem_plan *plan;
    pooled *items;
    uint32_t count;
    uint32_t *slot;                   /* per resource: index into items, RG_NONE */
    uint64_t *uses, *preds;           /* count rows of row_words each */
    uint32_t pool_cap;
} planner;

void rg__mem_plan_free(rg_mem_plan *plan)
{
    if (!plan)
        return;
    free(plan->items);
    free(plan->pools);
    free(plan);
}

const rg_mem_plan *rg__mem_plan_current(const rg_graph *g)
{
    const rg_mem_plan *p = g ? g->mem_plan : NULL;
    return p && p->planned && g->compiled && p->compiled_hash == g->compiled_hash ? p : NULL;
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) & ~(a - 1); }

/* The most bytes (and the largest alignment) one resource may ask for:
 * 1 TiB, above any device's heaps, and small enough that every sum the
 * planner makes over all the resources a graph can hold (2^20), alignment
 * padding included, stays far below 2^64. Recorded sizes near 2^64 made
 * pool ends and totals wrap, so a resource ended outside its pool (found
 * by tests/fuzz). */
#define MAX_RESOURCE_BYTES (1ull << 40)

/* ------------------------------------------------------------- kinds */

static rg_result pool_for(planner *p, uint32_t type, bool optimal, uint32_t *out)
{
    rg_mem_plan *plan = p->plan;
    for (uint32_t i = 0; i < plan->pool_count; i++)
        if (plan->pools[i].memory_type == type && plan->pools[i].optimal == optimal) {
            *out = i;
            return RG_SUCCESS;
        }
    if (plan->pool_count == p->pool_cap) {
        uint32_t cap = p->pool_cap ? p->pool_cap * 2 : 4;
        rg_mem_pool *pools = realloc(plan->pools, (size_t)cap * sizeof *pools);
        if (!pools)
            return RG_ERROR_OUT_OF_MEMORY;
        plan->pools = pools;
        p->pool_cap = cap;
    }
    plan->pools[plan->pool_count] = (rg_mem_pool){type, optimal, 0};
    *out = plan->pool_count++;
    return RG_SUCCESS;
}

/* Lazy where a transient texture's bits offer a LAZILY_ALLOCATED type (its
 * own allocation: lazy memory is never suballocated or aliased); dedicated
 * when the driver asks for it; pooled otherwise. */
static rg_result classify(planner *p, uint32_t ri)
{
    rg_graph *g = p->g;
    const rg_resource *r = &g->resources[ri];
    const rg_mem_requirements *q = &p->reqs[ri];
    rg_mem_placement *m = &p->plan->items[ri];
    VkDeviceSize alignment = q->alignment ? q->alignment : 1;
    if (q->size == 0 || (alignment & (alignment - 1)) || q->size > MAX_RESOURCE_BYTES ||
        alignment > MAX_RESOURCE_BYTES)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "placement: %s '%s': size %llu or alignment %llu not usable",
                        r->is_texture ? "texture" : "buffer", r->name, (unsigned long long)q->size,
                        (unsigned long long)q->alignment);
    m->size = q->size;
    m->alignment = alignment;
    bool transient = r->is_texture && r->transient;
    uint32_t type;
    if (eng_choose_memory_type(p->props, q->type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, transient, &type) !=
        ENG_SUCCESS)
        return rg__fail(g, RG_ERROR_VULKAN, "placement: %s '%s': no DEVICE_LOCAL memory type in bits 0x%x",
                        r->is_texture ? "texture" : "buffer", r->name, q->type_bits);
    m->memory_type = type;
    if (transient && (p->props->memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) {
        m->kind = RG_MEMORY_LAZY;
        p->plan->totals.lazy += q->size;
        return RG_SUCCESS;
    }
    if (q->dedicated) {
        m->kind = RG_MEMORY_DEDICATED;
        p->plan->totals.dedicated += q->size;
        return RG_SUCCESS;
    }
    /* Pools are keyed by type and class: a resource whose bits exclude a
     * pool's type simply lands in another pool, and optimal images never
     * share a pool with buffers (bufferImageGranularity never applies). */
    m->kind = RG_MEMORY_POOLED;
    rg_result res = pool_for(p, type, r->is_texture, &m->pool);
    if (res != RG_SUCCESS)
        return res;
    p->slot[ri] = p->count;
    p->items[p->count++] = (pooled){ri, m->pool, q->size, alignment, 0, r->first_use, r->last_use, 0, 0};
    return RG_SUCCESS;
}

/* ------------------------------------------------------------- order */

/* Use nodes, common predecessors and the union of access scopes of every
 * pooled resource, in one walk over the commands. */
static rg_result collect_uses(planner *p)
{
    rg_graph *g = p->g;
    size_t words = g->row_words ? g->row_words : 1;
    p->uses = calloc((size_t)p->count * words + 1, sizeof *p->uses);
    p->preds = malloc(((size_t)p->count * words + 1) * sizeof *p->preds);
    uint32_t *last_node = malloc(((size_t)p->count + 1) * sizeof *last_node);
    if (!p->uses || !p->preds || !last_node) {
        free(last_node);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    memset(p->preds, 0xff, (size_t)p->count * words * sizeof *p->preds);
    for (uint32_t i = 0; i < p->count; i++)
        last_node[i] = RG_NONE;
    for (uint32_t c = 0; c < g->cmd_count; c++) {
        const rg_cmd_rec *cmd = &g->cmds[c];
        const uint64_t *row = &g->closure[(size_t)cmd->node * g->row_words];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg_access_rec *a = &g->accesses[cmd->first_access + k];
            uint32_t i = p->slot[a->resource];
            if (i == RG_NONE)
                continue;
            p->items[i].stage |= a->stage;
            p->items[i].access |= a->access;
            if (last_node[i] == cmd->node)
                continue;
            last_node[i] = cmd->node;
            uint64_t *u = &p->uses[(size_t)i * words], *pr = &p->preds[(size_t)i * words];
            u[cmd->node / 64] |= 1ull << (cmd->node % 64);
            for (uint32_t w = 0; w < g->row_words; w++)
                pr[w] &= row[w];
        }
    }
    free(last_node);
    return RG_SUCCESS;
}

/* Every use of a happens-before every use of b. */
static bool before(const planner *p, uint32_t a, uint32_t b)
{
    size_t words = p->g->row_words;
    const uint64_t *u = &p->uses[(size_t)a * words], *pr = &p->preds[(size_t)b * words];
    for (size_t w = 0; w < words; w++)
        if (u[w] & ~pr[w])
            return false;
    return true;
}

/* Whether a and b may never share bytes. Ordered resources have disjoint
 * execution-order intervals (the order is topological), so overlapping
 * intervals conflict without looking at the closure. */
static bool conflict(const planner *p, uint32_t a, uint32_t b)
{
    const pooled *x = &p->items[a], *y = &p->items[b];
    if (x->first <= y->last && y->first <= x->last)
        return true;
    return x->last < y->first ? !before(p, a, b) : !before(p, b, a);
}

/* ------------------------------------------------------------- packing */

/* Larger first, then longer-lived, then declaration order (deterministic). */
static int pack_order(const void *pa, const void *pb, const planner *p)
{
    const pooled *a = &p->items[*(const uint32_t *)pa], *b = &p->items[*(const uint32_t *)pb];
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    uint32_t la = a->last - a->first, lb = b->last - b->first;
    if (la != lb)
        return la > lb ? -1 : 1;
    return a->resource < b->resource ? -1 : (a->resource > b->resource);
}

typedef struct range { VkDeviceSize begin, end; } range;

static int by_begin(const void *pa, const void *pb)
{
    const range *a = pa, *b = pb;
    if (a->begin != b->begin)
        return a->begin < b->begin ? -1 : 1;
    return a->end < b->end ? -1 : (a->end > b->end);
}

/* qsort has no context argument in C11: the comparator reads it from here,
 * set only for the duration of one sort. */
static _Thread_local const planner *sort_ctx;
static int pack_cmp(const void *a, const void *b) { return pack_order(a, b, sort_ctx); }

/* First fit over the offset-sorted ranges of the already placed resources
 * of the same pool that conflict with this one; with `apart`, every pair
 * conflicts (each resource gets a range of its own). Fills offsets (per
 * item) and pool_sizes (per pool). */
static rg_result pack(const planner *p, bool apart, VkDeviceSize *offsets, VkDeviceSize *pool_sizes)
{
    uint32_t *seq = malloc(((size_t)p->count + 1) * sizeof *seq);
    range *busy = malloc(((size_t)p->count + 1) * sizeof *busy);
    if (!seq || !busy) {
        free(seq);
        free(busy);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < p->count; i++)
        seq[i] = i;
    sort_ctx = p;
    qsort(seq, p->count, sizeof *seq, pack_cmp);
    sort_ctx = NULL;
    memset(pool_sizes, 0, p->plan->pool_count * sizeof *pool_sizes);
    for (uint32_t k = 0; k < p->count; k++) {
        const pooled *it = &p->items[seq[k]];
        uint32_t n = 0;
        for (uint32_t j = 0; j < k; j++) {
            const pooled *o = &p->items[seq[j]];
            if (o->pool == it->pool && (apart || conflict(p, seq[k], seq[j])))
                busy[n++] = (range){offsets[seq[j]], offsets[seq[j]] + o->size};
        }
        qsort(busy, n, sizeof *busy, by_begin);
        VkDeviceSize at = 0;
        for (uint32_t j = 0; j < n && busy[j].begin < at + it->size; j++)
            if (busy[j].end > at)
                at = align_up(busy[j].end, it->alignment);
        offsets[seq[k]] = at;
        if (at + it->size > pool_sizes[it->pool])
            pool_sizes[it->pool] = at + it->size;
    }
    free(seq);
    free(busy);
    return RG_SUCCESS;
}

/* The placement itself, and the unaliased figure: the same packing with
 * every resource apart, so both count the same alignment padding
 * (rg_graph_desc.no_aliasing makes them equal). */
static rg_result pack_all(planner *p)
{
    size_t n = (size_t)p->count + 1, pools = (size_t)p->plan->pool_count + 1;
    VkDeviceSize *offsets = malloc(n * sizeof *offsets), *sizes = malloc(pools * sizeof *sizes);
    rg_result res = offsets && sizes ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
    if (res == RG_SUCCESS)
        res = pack(p, true, offsets, sizes);
    rg_memory_totals *t = &p->plan->totals;
    VkDeviceSize requested = 0;
    for (uint32_t i = 0; i < p->count && res == RG_SUCCESS; i++)
        requested += p->items[i].size;
    for (uint32_t i = 0; i < p->plan->pool_count && res == RG_SUCCESS; i++)
        t->unaliased += sizes[i];
    t->padding = t->unaliased - requested;
    if (res == RG_SUCCESS && !p->g->no_aliasing)
        res = pack(p, false, offsets, sizes);
    for (uint32_t i = 0; i < p->count && res == RG_SUCCESS; i++)
        p->items[i].offset = offsets[i];
    for (uint32_t i = 0; i < p->plan->pool_count && res == RG_SUCCESS; i++)
        p->plan->pools[i].size = sizes[i];
    free(offsets);
    free(sizes);
    return res;
}

/* ------------------------------------------------------------- results */

/* A pooled resource's first use waits for every other occupant of its
 * bytes: earlier ones in this frame, later ones from the frame before. */
static void alias_scopes(planner *p)
{
    for (uint32_t i = 0; i < p->count; i++) {
        const pooled *a = &p->items[i];
        rg_mem_placement *m = &p->plan->items[a->resource];
        m->offset = a->offset;
        for (uint32_t j = 0; j < p->count; j++) {
            const pooled *b = &p->items[j];
            if (j == i || b->pool != a->pool || b->offset >= a->offset + a->size || a->offset >= b->offset + b->size)
                continue;
            m->alias_stage |= b->stage;
            m->alias_access |= b->access;
        }
    }
}

/* Per class, the most pooled bytes live at one execution-order position:
 * resources live together conflict, so no packing can do better. */
static rg_result lower_bound(planner *p)
{
    uint32_t n = p->g->order_count;
    VkDeviceSize *delta = malloc(((size_t)n + 1) * 2 * sizeof *delta);
    if (!delta)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t cls = 0; cls < 2; cls++) {
        memset(delta, 0, ((size_t)n + 1) * 2 * sizeof *delta);
        VkDeviceSize *add = delta, *sub = delta + n + 1;
        for (uint32_t i = 0; i < p->count; i++) {
            const pooled *it = &p->items[i];
            if (p->plan->pools[it->pool].optimal != (cls == 1))
                continue;
            add[it->first] += it->size;
            sub[it->last + 1] += it->size;
        }
        VkDeviceSize live = 0, most = 0;
        for (uint32_t pos = 0; pos < n; pos++) {
            live = live + add[pos] - sub[pos];
            if (live > most)
                most = live;
        }
        p->plan->totals.lower_bound += most;
    }
    free(delta);
    return RG_SUCCESS;
}

static rg_result plan_all(planner *p)
{
    rg_graph *g = p->g;
    for (uint32_t ri = 0; ri < g->resource_count; ri++) {
        const rg_resource *r = &g->resources[ri];
        rg_mem_placement *m = &p->plan->items[ri];
        *m = (rg_mem_placement){.memory_type = RG_NONE, .pool = RG_NONE};
        p->slot[ri] = RG_NONE;
        if (r->imported)
            m->kind = RG_MEMORY_IMPORTED;
        else if (r->first_use == RG_NONE)
            m->kind = RG_MEMORY_NOT_CREATED;
        else {
            rg_result res = classify(p, ri);
            if (res != RG_SUCCESS)
                return res;
        }
    }
    rg_result res = collect_uses(p);
    if (res == RG_SUCCESS)
        res = pack_all(p);
    if (res == RG_SUCCESS)
        res = lower_bound(p);
    if (res != RG_SUCCESS)
        return res;
    alias_scopes(p);
    rg_memory_totals *t = &p->plan->totals;
    t->pools = p->plan->pool_count;
    for (uint32_t i = 0; i < p->plan->pool_count; i++)
        t->pooled += p->plan->pools[i].size;
    return RG_SUCCESS;
}

rg_result rg__plan_memory(rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg_mem_requirements *reqs)
{
    if (!g || !props || !reqs)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!g->compiled)
        return RG_ERROR_NOT_COMPILED;
    planner p = {.g = g, .props = props, .reqs = reqs};
    size_t n = (size_t)g->resource_count + 1;
    p.plan = calloc(1, sizeof *p.plan);
    p.items = malloc(n * sizeof *p.items);
    p.slot = malloc(n * sizeof *p.slot);
    rg_result res = RG_ERROR_OUT_OF_MEMORY;
    if (p.plan && p.items && p.slot && (p.plan->items = calloc(n, sizeof *p.plan->items)))
        res = plan_all(&p);
    free(p.items);
    free(p.slot);
    free(p.uses);
    free(p.preds);
    if (res != RG_SUCCESS) {
        rg__mem_plan_free(p.plan);
        return res == RG_ERROR_OUT_OF_MEMORY ? rg__fail(g, res, "placement: out of host memory") : res;
    }
    p.plan->planned = true;
    p.plan->compiled_hash = g->compiled_hash;
    rg__mem_plan_free(g->mem_plan);
    g->mem_plan = p.plan;
    return RG_SUCCESS;
}
