/* Placement stage "memory plan": pure, device-free. From each created resource's
 * memory requirements and the compile step's happens-before closure it
 * decides where the memory comes from (lazy, dedicated or a pool), packs
 * the pooled resources so that only ordered ones share bytes, and records
 * what each pooled resource's first use must wait for.
 *
 * Sharing rule (DESIGN.md): A and B may overlap only when every use of one
 * happens-before every use of the other. Two proofs of that exist:
 *   - the declared dependencies: per pooled resource the planner keeps its
 *     use nodes U and the nodes that happen-before all of its uses P (the
 *     AND of the closure rows of its use nodes); A before B is U(A) ⊆ P(B).
 *     Closure rows never hold their own node, so two uses in one node (one
 *     span) are never ordered;
 *   - the alias barrier (the default, one queue): when every use of A comes
 *     before every use of B in the execution order, B's first use waits for
 *     A's last uses' stages and accesses (the alias scope below), and on one
 *     queue that barrier orders every earlier command with those stages:
 *     it makes A happen-before B. The order stage puts lifetimes apart for
 *     this; it costs the overlap of the two on the GPU.
 * rg_graph_desc.alias_proven_only keeps the first proof only. Batch numbers
 * and record order without a barrier prove nothing. The alias barrier
 * orders work of its own queue only: two resources not both used on one
 * and the same queue need the first proof (a chain of hazards, each a
 * barrier or a semaphore wait), and the first use waits at every stage
 * (the chain reached its queue through a wait, which the barrier must
 * follow; the semaphore made the memory available).
 */
#include "base/rules.h"
#include "compile/stages.h"
#include "place/stages.h"

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
    uint32_t queues;                  /* bit per rg_queue using it */
} pooled;

/* The plan as it is made (the placement's arrays are const). */
typedef struct plan_draft {
    rg__mem_placement *items;
    rg__alias_scope *alias;
    rg__mem_pool *pools;
    uint32_t pool_count, pool_cap;
    rg_memory_totals totals;
} plan_draft;

typedef struct planner {
    const rg_graph *g;
    const VkPhysicalDeviceMemoryProperties *props;
    const rg__mem_requirements *reqs;
    const rg__mem_hint *hints;        /* NULL: none */
    plan_draft *plan;
    pooled *items;
    uint32_t count;
    uint32_t *slot;                   /* per resource: index into items, RG__NONE */
    uint64_t *uses, *preds;           /* count rows of row_words each */
} planner;

void rg__memory_plan_free(const rg_graph *g, rg__mem_plan *plan)
{
    rg__free(g, plan->items);
    rg__free(g, plan->alias);
    rg__free(g, plan->pools);
    *plan = (rg__mem_plan){0};
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) & ~(a - 1); }

/* The most bytes (and the largest alignment) one resource may ask for:
 * 1 TiB, above any device's heaps, and small enough that every sum the
 * planner makes over all the resources a graph can hold (2^20), alignment
 * padding included, stays far below 2^64, so pool ends and totals never
 * wrap. */
#define MAX_RESOURCE_BYTES (1ull << 40)

/* ------------------------------------------------------------- kinds */

static rg_result pool_for(planner *p, uint32_t type, bool optimal, uint32_t *out)
{
    const rg_graph *g = p->g;
    plan_draft *plan = p->plan;
    for (uint32_t i = 0; i < plan->pool_count; i++)
        if (plan->pools[i].memory_type == type && plan->pools[i].optimal == optimal) {
            *out = i;
            return RG_SUCCESS;
        }
    if (!rg__grow(g, (void **)&plan->pools, &plan->pool_cap, plan->pool_count + 1, sizeof *plan->pools))
        return RG_ERROR_OUT_OF_MEMORY;
    plan->pools[plan->pool_count] = (rg__mem_pool){type, optimal, 0};
    *out = plan->pool_count++;
    return RG_SUCCESS;
}

/* Lazy where a transient texture's bits offer a LAZILY_ALLOCATED type (its
 * own allocation: lazy memory is never suballocated or aliased); dedicated
 * when the driver asks for it, and for history pairs' halves, whose
 * contents outlive the frame (no other resource may take their bytes);
 * pooled otherwise. */
static rg_result classify(planner *p, uint32_t ri)
{
    const rg_graph *g = p->g;
    const rg__resource *r = &g->decl.resources[ri];
    const rg__mem_requirements *q = &p->reqs[ri];
    rg__mem_placement *m = &p->plan->items[ri];
    VkDeviceSize alignment = q->alignment ? q->alignment : 1;
    const char *kind = r->is_texture ? "texture" : "buffer";
    if (q->size == 0)
        return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: %s '%s': the driver asks for 0 bytes of memory "
                          "(it cannot make a resource of this shape)", kind, r->name);
    if (q->size > MAX_RESOURCE_BYTES)
        return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: %s '%s' needs %llu bytes, more than one resource "
                          "may take (%llu)", kind, r->name, (unsigned long long)q->size,
                          (unsigned long long)MAX_RESOURCE_BYTES);
    if ((alignment & (alignment - 1)) || alignment > MAX_RESOURCE_BYTES)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "placement: %s '%s': alignment %llu is not a power of "
                          "two up to %llu", kind, r->name, (unsigned long long)q->alignment,
                          (unsigned long long)MAX_RESOURCE_BYTES);
    m->size = q->size;
    m->alignment = alignment;
    bool transient = r->is_texture && rg__transient(g, ri);
    uint32_t type;
    if (!rg_choose_memory_type(p->props, q->type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, transient, &type))
        return rg__report(g, RG_ERROR_VULKAN, "placement: %s '%s': no DEVICE_LOCAL memory type in bits 0x%x",
                        r->is_texture ? "texture" : "buffer", r->name, q->type_bits);
    m->memory_type = type;
    if (transient && (p->props->memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) {
        m->kind = RG_MEMORY_LAZY;
        p->plan->totals.lazy += q->size;
        return RG_SUCCESS;
    }
    if (RG__RULE(DEDICATED_OUT_OF_POOLS, q->dedicated || rg__history(r))) {
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
    p->items[p->count++] = (pooled){ri, m->pool, q->size, alignment, 0, rg__first_use(g, ri), rg__last_use(g, ri), 0, 0,
                                    p->g->compiled->queues.resource_queues ? p->g->compiled->queues.resource_queues[ri] : 1u};
    return RG_SUCCESS;
}

/* ------------------------------------------------------------- order */

/* Use nodes, common predecessors and the union of access scopes of every
 * pooled resource, in one walk over the commands. */
static rg_result collect_uses(planner *p)
{
    const rg_graph *g = p->g;
    size_t words = g->compiled->closure.row_words ? g->compiled->closure.row_words : 1;
    p->uses = rg__calloc(g, (size_t)p->count * words + 1, sizeof *p->uses);
    p->preds = rg__malloc(g, ((size_t)p->count * words + 1) * sizeof *p->preds);
    uint32_t *last_node = rg__malloc(g, ((size_t)p->count + 1) * sizeof *last_node);
    if (!p->uses || !p->preds || !last_node) {
        rg__free(g, last_node);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    memset(p->preds, 0xff, (size_t)p->count * words * sizeof *p->preds);
    for (uint32_t i = 0; i < p->count; i++)
        last_node[i] = RG__NONE;
    const rg__compiled *cc = g->compiled;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c))
            continue;
        /* A merged instance binds its attachments from its first span to
         * its last: a use in it is a use in all of its spans' nodes. */
        const rg__instance *in = cmd->span != RG__NONE ? &cc->merge.instances[cc->merge.span_map[cmd->span].instance] : NULL;
        uint32_t nodes = in && in->count > 1 ? in->count : 1;
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            uint32_t i = p->slot[a->resource];
            if (i == RG__NONE)
                continue;
            VkPipelineStageFlags2 stage;
            VkAccessFlags2 access;
            VkImageLayout layout;
            rg__access_effective(g, cmd->first_access + k, &stage, &access, &layout);
            p->items[i].stage |= stage;
            p->items[i].access |= access;
            if (last_node[i] == rg__node_of(g, c))
                continue;
            last_node[i] = rg__node_of(g, c);
            uint64_t *u = &p->uses[(size_t)i * words], *pr = &p->preds[(size_t)i * words];
            for (uint32_t j = 0; j < nodes; j++) {
                uint32_t node = rg__node_of(g, c);
                if (nodes > 1)
                    node = rg__node_of(g, g->decl.spans[cc->merge.instance_spans[in->first + j]].begin_cmd);
                const uint64_t *row = &cc->closure.rows[(size_t)node * cc->closure.row_words];
                u[node / 64] |= 1ull << (node % 64);
                for (uint32_t w = 0; w < cc->closure.row_words; w++)
                    pr[w] &= row[w];
            }
        }
    }
    rg__free(g, last_node);
    return RG_SUCCESS;
}

/* Every use of a happens-before every use of b. */
static bool before(const planner *p, uint32_t a, uint32_t b)
{
    size_t words = p->g->compiled->closure.row_words;
    const uint64_t *u = &p->uses[(size_t)a * words], *pr = &p->preds[(size_t)b * words];
    for (size_t w = 0; w < words; w++)
        if (u[w] & ~pr[w])
            return false;
    return true;
}

/* Both used on one queue, the same: an alias barrier there orders them. */
static bool one_queue(const pooled *x, const pooled *y)
{
    return x->queues == y->queues && (x->queues & (x->queues - 1)) == 0;
}

/* Whether a and b may never share bytes. Ordered resources have disjoint
 * execution-order intervals (the order is topological), so overlapping
 * intervals conflict without looking at the closure. */
static bool conflict(const planner *p, uint32_t a, uint32_t b)
{
    const pooled *x = &p->items[a], *y = &p->items[b];
    if (RG__RULE(ALIAS_APART_IN_TIME, x->first <= y->last && y->first <= x->last))
        return true;
    if (!p->g->alias_proven_only && one_queue(x, y))
        return false; /* apart in the order: the alias barrier orders them */
    return x->last < y->first ? !before(p, a, b) : !before(p, b, a);
}

/* ------------------------------------------------------------- packing */

/* The packing order: larger first, then longer-lived, then declaration
 * order (deterministic). The key carries what the comparison reads, since
 * qsort passes the comparator no context. */
typedef struct pack_key {
    VkDeviceSize size;
    uint32_t life, resource, item;
} pack_key;

static int pack_order(const void *pa, const void *pb)
{
    const pack_key *a = pa, *b = pb;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    if (a->life != b->life)
        return a->life > b->life ? -1 : 1;
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

/* Item i's kept offset where it may take it: a hint in its pool's type,
 * aligned as it now must be; else ~0. */
static VkDeviceSize hinted(const planner *p, uint32_t i)
{
    const pooled *it = &p->items[i];
    const rg__mem_hint *h = p->hints ? &p->hints[it->resource] : NULL;
    if (!h || h->memory_type != p->plan->pools[it->pool].memory_type || h->offset % it->alignment)
        return ~(VkDeviceSize)0;
    return h->offset;
}

/* Two passes in the packing order: first every hinted item at its kept
 * offset where no placed item that conflicts with it overlaps that range,
 * then the rest first fit over the offset-sorted ranges of the placed
 * items of the same pool that conflict with it. With `apart` every pair
 * conflicts (each resource gets a range of its own) and hints are not
 * taken. Fills offsets (per item) and pool_sizes (per pool). */
static void pack_seq(const planner *p, bool apart, const uint32_t *seq, range *busy, bool *placed,
                     VkDeviceSize *offsets, VkDeviceSize *pool_sizes)
{
    for (int pass = apart || !p->hints; pass < 2; pass++)
        for (uint32_t k = 0; k < p->count; k++) {
            uint32_t i = seq[k];
            const pooled *it = &p->items[i];
            VkDeviceSize at = pass == 0 ? hinted(p, i) : 0;
            if (placed[i] || at == ~(VkDeviceSize)0)
                continue;
            uint32_t n = 0;
            for (uint32_t j = 0; j < p->count; j++)
                if (placed[j] && p->items[j].pool == it->pool && (apart || conflict(p, i, j)))
                    busy[n++] = (range){offsets[j], offsets[j] + p->items[j].size};
            qsort(busy, n, sizeof *busy, by_begin);
            bool free = true;
            for (uint32_t j = 0; j < n && busy[j].begin < at + it->size; j++)
                if (busy[j].end > at) {
                    free = false;
                    at = align_up(busy[j].end, it->alignment);
                }
            if (pass == 0 && !free)
                continue; /* its kept range is taken: first fit in the second pass */
            offsets[i] = at;
            placed[i] = true;
            if (at + it->size > pool_sizes[it->pool])
                pool_sizes[it->pool] = at + it->size;
        }
}

static rg_result pack(const planner *p, bool apart, VkDeviceSize *offsets, VkDeviceSize *pool_sizes)
{
    const rg_graph *g = p->g;
    uint32_t *seq = rg__malloc(g, ((size_t)p->count + 1) * sizeof *seq);
    range *busy = rg__malloc(g, ((size_t)p->count + 1) * sizeof *busy);
    pack_key *keys = rg__malloc(g, ((size_t)p->count + 1) * sizeof *keys);
    bool *placed = rg__calloc(g, (size_t)p->count + 1, sizeof *placed);
    rg_result res = seq && busy && keys && placed ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < p->count && res == RG_SUCCESS; i++)
        keys[i] = (pack_key){p->items[i].size, p->items[i].last - p->items[i].first, p->items[i].resource, i};
    if (res == RG_SUCCESS) {
        qsort(keys, p->count, sizeof *keys, pack_order);
        for (uint32_t i = 0; i < p->count; i++)
            seq[i] = keys[i].item;
        memset(pool_sizes, 0, p->plan->pool_count * sizeof *pool_sizes);
        pack_seq(p, apart, seq, busy, placed, offsets, pool_sizes);
    }
    RG__FREE_ALL(g, seq, busy, keys, placed);
    return res;
}

/* The placement itself, and the unaliased figure: the same packing with
 * every resource apart, so both count the same alignment padding
 * (rg_graph_desc.no_aliasing makes them equal). */
static rg_result pack_all(planner *p)
{
    const rg_graph *g = p->g;
    size_t n = (size_t)p->count + 1, pools = (size_t)p->plan->pool_count + 1;
    VkDeviceSize *offsets = rg__malloc(g, n * sizeof *offsets), *sizes = rg__malloc(g, pools * sizeof *sizes);
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
    rg__free(g, offsets);
    rg__free(g, sizes);
    return res;
}

/* ------------------------------------------------------------- results */

/* A pooled resource's first use waits for every other occupant of its
 * bytes: earlier ones in this frame, later ones from the frame before. */
static void alias_scopes(planner *p)
{
    for (uint32_t i = 0; i < p->count; i++) {
        const pooled *a = &p->items[i];
        p->plan->items[a->resource].offset = a->offset;
        rg__alias_scope *scope = &p->plan->alias[a->resource];
        for (uint32_t j = 0; j < p->count; j++) {
            const pooled *b = &p->items[j];
            if (j == i || b->pool != a->pool || b->offset >= a->offset + a->size || a->offset >= b->offset + b->size)
                continue;
            if (one_queue(a, b)) {
                scope->stage |= b->stage;
                scope->access |= b->access;
            } else {
                scope->stage |= VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
            }
        }
    }
}

/* Per class, the most pooled bytes live at one execution-order position:
 * resources live together conflict, so no packing can do better. */
static rg_result lower_bound(planner *p)
{
    const rg_graph *g = p->g;
    uint32_t n = p->g->compiled->merge.order.count;
    VkDeviceSize *delta = rg__malloc(g, ((size_t)n + 1) * 2 * sizeof *delta);
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
    rg__free(g, delta);
    return RG_SUCCESS;
}

static rg_result plan_all(planner *p)
{
    const rg_graph *g = p->g;
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        rg__mem_placement *m = &p->plan->items[ri];
        *m = (rg__mem_placement){.memory_type = RG__NONE, .pool = RG__NONE};
        p->slot[ri] = RG__NONE;
        if (r->imported)
            m->kind = RG_MEMORY_IMPORTED;
        else if (rg__folded(g, ri))
            m->kind = RG_MEMORY_FOLDED;
        else if (!rg__creates(g, ri))
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

rg_result rg__memory_plan(const rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg__mem_requirements *reqs, const rg__mem_hint *hints, rg__mem_plan *out)
{
    rg__memory_plan_free(g, out);
    plan_draft plan = {0};
    planner p = {.g = g, .props = props, .reqs = reqs, .hints = hints, .plan = &plan};
    size_t n = (size_t)g->decl.resource_count + 1;
    p.items = rg__malloc(g, n * sizeof *p.items);
    p.slot = rg__malloc(g, n * sizeof *p.slot);
    plan.items = rg__calloc(g, n, sizeof *plan.items);
    plan.alias = rg__calloc(g, n, sizeof *plan.alias);
    rg_result res = RG_ERROR_OUT_OF_MEMORY;
    if (p.items && p.slot && plan.items && plan.alias)
        res = plan_all(&p);
    rg__free(g, p.items);
    rg__free(g, p.slot);
    rg__free(g, p.uses);
    rg__free(g, p.preds);
    *out = (rg__mem_plan){plan.items, plan.alias, plan.pools, plan.pool_count, plan.totals};
    if (res != RG_SUCCESS)
        rg__memory_plan_free(g, out);
    if (res == RG_ERROR_OUT_OF_MEMORY)
        return rg__report(g, res, "placement: out of host memory");
    return res;
}
