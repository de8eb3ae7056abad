/* Compile, first half: nodes (a span contracted into one), hazard edges from
 * a per-subresource frontier, the happens-before closure, batches and the
 * execution order; and the queries over them. Barriers are planned in
 * compile_barriers.c. Nothing here needs a device.
 *
 * Node indices follow record order and every edge goes from an earlier node
 * to a later one, so node index order is topological: the closure row and
 * the batch of a node are final once its own accesses have been walked.
 */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

void rg__compiled_free(rg_graph *g)
{
    free(g->node_first_cmd);
    free(g->node_batch);
    free(g->closure);
    free(g->edges);
    free(g->order);
    free(g->order_handles);
    rg__barriers_free(g);
    g->node_first_cmd = g->node_batch = g->order = g->edges = NULL;
    g->closure = NULL;
    g->order_handles = NULL;
    g->node_count = g->row_words = g->edge_count = g->order_count = 0;
    g->compiled = false;
    g->compiled_hash = 0;
    /* A memory plan is indexed by the old resources and alias scopes come
     * from the old order: it goes with the compile it was made for. */
    rg__mem_plan_free(g->mem_plan);
    g->mem_plan = NULL;
}

/* ------------------------------------------------------------------ nodes */

/* A span (begin .. end, contiguous in record order) is one node; every
 * other command is a node of its own. */
static uint32_t assign_nodes(rg_graph *g, uint32_t *first_cmd)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < g->cmd_count; c++) {
        rg_cmd_rec *cmd = &g->cmds[c];
        if (cmd->span == RG_NONE || cmd->type == RG_CMD_BEGIN_RENDERING) {
            if (first_cmd)
                first_cmd[n] = c;
            n++;
        }
        cmd->node = n - 1;
    }
    if (first_cmd)
        first_cmd[n] = g->cmd_count;
    return n;
}

/* ------------------------------------------------------------- frontier */

/* Per subresource slot: the hazard frontier in record order (last writer
 * node, readers since it, the layout as last declared) and what the current
 * node has done to it (for the intra-span rules). */
typedef struct slot_front {
    uint32_t last_writer;             /* node */
    uint32_t readers;                 /* head of a list in the reader pool */
    VkImageLayout layout;
    uint32_t node;                    /* node of the latest access */
    VkImageLayout node_layout;        /* its layout */
    uint32_t node_last, node_prev;    /* the last two distinct commands in it */
    uint32_t node_writer;             /* first writing command in it */
} slot_front;

typedef struct reader { uint32_t node, next; } reader;

typedef struct frontier {
    rg_graph *g;
    slot_front *slots;
    reader *pool;
    uint32_t pool_count, pool_cap;
    uint32_t edge_cap;
} frontier;

static bool edge(frontier *f, uint32_t from, uint32_t to)
{
    rg_graph *g = f->g;
    uint64_t *row = &g->closure[(size_t)to * g->row_words];
    if (from == to || (row[from / 64] >> (from % 64)) & 1u)
        return true; /* implied already */
    const uint64_t *src = &g->closure[(size_t)from * g->row_words];
    for (uint32_t w = 0; w <= from / 64; w++) /* rows only hold lower nodes */
        row[w] |= src[w];
    row[from / 64] |= 1ull << (from % 64);
    if (g->node_batch[from] + 1 > g->node_batch[to])
        g->node_batch[to] = g->node_batch[from] + 1;
    if (g->edge_count == f->edge_cap) {
        uint32_t cap = f->edge_cap ? f->edge_cap * 2 : 64;
        uint32_t *e = realloc(g->edges, (size_t)cap * 2 * sizeof *e);
        if (!e)
            return false;
        g->edges = e;
        f->edge_cap = cap;
    }
    g->edges[2 * g->edge_count] = from;
    g->edges[2 * g->edge_count + 1] = to;
    g->edge_count++;
    return true;
}

static const char *res_name(const rg_graph *g, uint32_t r) { return g->resources[r].name; }

/* The rules inside one node: no barrier may be recorded between two
 * interior commands of a span (vkCmdPipelineBarrier2 inside a dynamic
 * rendering instance needs VK_KHR_dynamic_rendering_local_read), and one
 * command cannot use a subresource in two layouts. */
static rg_result node_rules(frontier *f, slot_front *s, uint32_t c, const rg_access_rec *a)
{
    rg_graph *g = f->g;
    uint32_t n = g->cmds[c].node;
    if (s->node != n) {
        s->node = n;
        s->node_layout = a->layout;
        s->node_last = c;
        s->node_prev = RG_NONE;
        s->node_writer = a->write ? c : RG_NONE;
        return RG_SUCCESS;
    }
    bool others = s->node_last != c || s->node_prev != RG_NONE;
    uint32_t other = s->node_last != c ? s->node_last : s->node_prev;
    if (a->layout != s->node_layout) {
        if (!others)
            return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s' uses texture '%s' in two layouts (%d, %d)",
                            g->cmds[c].name, res_name(g, a->resource), (int)s->node_layout, (int)a->layout);
        return rg__fail(g, RG_ERROR_TRANSITION_IN_SPAN,
                        "commands '%s' and '%s' in span '%s' use texture '%s' in layouts %d and %d: the transition "
                        "would need a barrier inside the rendering instance (VUID-vkCmdPipelineBarrier2-None-06191)",
                        g->cmds[other].name, g->cmds[c].name, g->cmds[g->spans[g->cmds[c].span].begin_cmd].name,
                        res_name(g, a->resource), (int)s->node_layout, (int)a->layout);
    }
    bool other_wrote = s->node_writer != RG_NONE && s->node_writer != c;
    if (others && (a->write || other_wrote))
        return rg__fail(g, RG_ERROR_HAZARD_IN_SPAN,
                        "commands '%s' and '%s' in span '%s' have a %s hazard on %s '%s' that would need a barrier "
                        "inside the rendering instance (VUID-vkCmdPipelineBarrier2-None-06191); split the span",
                        g->cmds[other_wrote ? s->node_writer : other].name, g->cmds[c].name,
                        g->cmds[g->spans[g->cmds[c].span].begin_cmd].name,
                        a->write ? (other_wrote ? "write-after-write" : "write-after-read") : "read-after-write",
                        g->resources[a->resource].is_texture ? "texture" : "buffer", res_name(g, a->resource));
    if (s->node_last != c) {
        s->node_prev = s->node_last;
        s->node_last = c;
    }
    if (a->write && s->node_writer == RG_NONE)
        s->node_writer = c;
    return RG_SUCCESS;
}

/* One access of node n to one slot: edges from the frontier, then the
 * frontier moves. A layout change is a write: it destroys what the readers
 * in the old layout see. */
static rg_result touch(frontier *f, uint32_t slot, uint32_t c, const rg_access_rec *a)
{
    slot_front *s = &f->slots[slot];
    uint32_t n = f->g->cmds[c].node;
    rg_result r = node_rules(f, s, c, a);
    if (r != RG_SUCCESS)
        return r;
    bool write = a->write || a->layout != s->layout;
    if (s->last_writer != RG_NONE && !edge(f, s->last_writer, n))
        return RG_ERROR_OUT_OF_MEMORY;
    if (write) {
        for (uint32_t i = s->readers; i != RG_NONE; i = f->pool[i].next)
            if (!edge(f, f->pool[i].node, n))
                return RG_ERROR_OUT_OF_MEMORY;
        s->readers = RG_NONE;
        s->last_writer = n;
        s->layout = a->layout;
    } else if (s->last_writer != n && (s->readers == RG_NONE || f->pool[s->readers].node != n)) {
        if (f->pool_count == f->pool_cap) {
            uint32_t cap = f->pool_cap ? f->pool_cap * 2 : 256;
            reader *p = realloc(f->pool, (size_t)cap * sizeof *p);
            if (!p)
                return RG_ERROR_OUT_OF_MEMORY;
            f->pool = p;
            f->pool_cap = cap;
        }
        f->pool[f->pool_count] = (reader){n, s->readers};
        s->readers = f->pool_count++;
    }
    return RG_SUCCESS;
}

static rg_result build_edges(rg_graph *g)
{
    frontier f = {.g = g, .slots = malloc(((size_t)g->sub_total + 1) * sizeof(slot_front))};
    if (!f.slots)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < g->sub_total; i++)
        f.slots[i] = (slot_front){RG_NONE, RG_NONE, VK_IMAGE_LAYOUT_UNDEFINED, RG_NONE,
                                  VK_IMAGE_LAYOUT_UNDEFINED, RG_NONE, RG_NONE, RG_NONE};
    rg_result r = RG_SUCCESS;
    /* A node with no accesses (a timestamp, a debug label) has no hazards to
     * place it: it is pinned between the nodes recorded before and after
     * it, so it runs where it was recorded relative to its neighbours. */
    uint32_t pinned = RG_NONE;
    bool accessed = false;
    for (uint32_t c = 0; c < g->cmd_count && r == RG_SUCCESS; c++) {
        const rg_cmd_rec *cmd = &g->cmds[c];
        uint32_t n = cmd->node;
        if (c == g->node_first_cmd[n]) {
            accessed = false;
            if (pinned != RG_NONE && !edge(&f, pinned, n))
                r = RG_ERROR_OUT_OF_MEMORY;
            pinned = RG_NONE;
        }
        for (uint32_t k = 0; k < cmd->access_count && r == RG_SUCCESS; k++) {
            const rg_access_rec *a = &g->accesses[cmd->first_access + k];
            if (a->role == RG_ROLE_LIFETIME)
                continue;
            accessed = true;
            const rg_resource *res = &g->resources[a->resource];
            if (!res->is_texture) {
                r = touch(&f, res->sub_base, c, a);
                continue;
            }
            for (uint32_t bits = a->range.aspect; bits && r == RG_SUCCESS; bits &= bits - 1)
                for (uint32_t m = 0; m < a->range.mip_count && r == RG_SUCCESS; m++)
                    for (uint32_t l = 0; l < a->range.layer_count && r == RG_SUCCESS; l++)
                        r = touch(&f, rg__sub_slot(res, (VkImageAspectFlagBits)(bits & -bits),
                                                   a->range.base_mip + m, a->range.base_layer + l), c, a);
        }
        if (c + 1 == g->node_first_cmd[n + 1] && !accessed && r == RG_SUCCESS) {
            if (n > 0 && !edge(&f, n - 1, n))
                r = RG_ERROR_OUT_OF_MEMORY;
            pinned = n;
        }
    }
    free(f.slots);
    free(f.pool);
    return r;
}

/* ------------------------------------------------------------------ order */

/* Batches (longest path from a source) ascending, node index within a
 * batch: deterministic, and a span's commands stay together in record
 * order. */
static rg_result build_order(rg_graph *g)
{
    uint32_t batches = 0;
    for (uint32_t n = 0; n < g->node_count; n++)
        if (g->node_batch[n] + 1 > batches)
            batches = g->node_batch[n] + 1;
    uint32_t *start = calloc((size_t)batches + 1, sizeof *start);
    uint32_t *sorted = malloc(((size_t)g->node_count + 1) * sizeof *sorted);
    g->order = malloc(((size_t)g->cmd_count + 1) * sizeof *g->order);
    g->order_handles = malloc(((size_t)g->cmd_count + 1) * sizeof *g->order_handles);
    if (!start || !sorted || !g->order || !g->order_handles) {
        free(start);
        free(sorted);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t n = 0; n < g->node_count; n++)
        start[g->node_batch[n] + 1]++;
    for (uint32_t b = 0; b < batches; b++)
        start[b + 1] += start[b];
    for (uint32_t n = 0; n < g->node_count; n++)
        sorted[start[g->node_batch[n]]++] = n;
    uint32_t p = 0;
    for (uint32_t i = 0; i < g->node_count; i++) {
        uint32_t n = sorted[i];
        for (uint32_t c = g->node_first_cmd[n]; c < g->node_first_cmd[n + 1]; c++) {
            g->order[p] = c;
            g->order_handles[p] = (rg_command){c + 1};
            p++;
        }
    }
    g->order_count = p;
    free(start);
    free(sorted);
    return RG_SUCCESS;
}

/* ---------------------------------------------------------------- compile */

/* Barrier handles carry the graph's tag, which a reset changes. */
static void retag_barriers(rg_graph *g)
{
    for (uint32_t i = 0; i < g->barrier_count; i++) {
        rg_barrier_info *b = &g->barriers[i];
        if (b->texture.id)
            b->texture.id = (g->tag << RG_INDEX_BITS) | (b->texture.id & RG_INDEX_MASK);
        if (b->buffer.id)
            b->buffer.id = (g->tag << RG_INDEX_BITS) | (b->buffer.id & RG_INDEX_MASK);
    }
}

static rg_result oom(rg_graph *g)
{
    rg__compiled_free(g);
    return rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "compile: out of memory");
}

rg_result rg_compile(rg_graph *graph)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    if (g->error != RG_SUCCESS) {
        /* A rejected declaration is not compiled: a failed declaration call
         * that appended nothing leaves the flag of an earlier compile set,
         * and queries and rg_execute would then serve that older plan as
         * this declaration's (found by tests/fuzz). */
        g->compiled = false;
        return g->error;
    }
    if (g->open_span != RG_NONE)
        return rg__fail(g, RG_ERROR_UNBALANCED_SPAN, "command '%s': begin_rendering without end_rendering",
                        g->cmds[g->spans[g->open_span].begin_cmd].name);
    if (g->order && g->compiled_hash == g->declaration_hash) {
        if (g->compiled)
            return RG_SUCCESS;
        /* Reset and declared the same again: only what lives in the
         * declaration arrays is rebuilt. */
        assign_nodes(g, NULL);
        rg__lifetimes(g);
        if (rg__infer_transient(g) != RG_SUCCESS) /* declared as before: only memory can fail */
            return oom(g);
        retag_barriers(g);
        g->compiled = true;
        return RG_SUCCESS;
    }
    rg__compiled_free(g);
    g->node_count = assign_nodes(g, NULL);
    g->node_first_cmd = malloc(((size_t)g->node_count + 1) * sizeof *g->node_first_cmd);
    g->node_batch = calloc((size_t)g->node_count + 1, sizeof *g->node_batch);
    g->row_words = (g->node_count + 63) / 64;
    g->closure = calloc((size_t)g->node_count * g->row_words + 1, sizeof *g->closure);
    if (!g->node_first_cmd || !g->node_batch || !g->closure)
        return oom(g);
    assign_nodes(g, g->node_first_cmd);
    rg_result r = rg__infer_transient(g);
    if (r == RG_SUCCESS)
        r = build_edges(g);
    if (r == RG_SUCCESS)
        r = build_order(g);
    if (r == RG_SUCCESS)
        r = rg__plan_barriers(g);
    if (r == RG_ERROR_OUT_OF_MEMORY)
        return oom(g);
    if (r != RG_SUCCESS) {
        rg__compiled_free(g);
        return r;
    }
    g->compiled = true;
    g->compiled_hash = g->declaration_hash;
    return RG_SUCCESS;
}

/* ---------------------------------------------------------------- queries */

bool rg_happens_before(const rg_graph *graph, rg_command a, rg_command b)
{
    if (!graph || !graph->compiled || a.id == 0 || b.id == 0 || a.id > graph->cmd_count || b.id > graph->cmd_count)
        return false;
    uint32_t na = graph->cmds[a.id - 1].node, nb = graph->cmds[b.id - 1].node;
    if (na >= nb) /* same node (one span) or later: never */
        return false;
    return (graph->closure[(size_t)nb * graph->row_words + na / 64] >> (na % 64)) & 1u;
}

uint32_t rg_execution_order(const rg_graph *graph, const rg_command **order)
{
    bool ok = graph && graph->compiled;
    if (order)
        *order = ok ? graph->order_handles : NULL;
    return ok ? graph->order_count : 0;
}

uint32_t rg_barrier_count(const rg_graph *graph) { return graph && graph->compiled ? graph->barrier_count : 0; }

const rg_barrier_info *rg_barrier_get(const rg_graph *graph, uint32_t index)
{
    if (!graph || !graph->compiled || index >= graph->barrier_count)
        return NULL;
    return &graph->barriers[index];
}
