/* Compile stage "edges": hazard edges between nodes from a per-subresource
 * frontier walked in record order (last writer, readers since it, layout),
 * never by comparing all pairs; and the rules inside one node (a span): no
 * hazard between two of its commands, no layout change inside it. Edges go
 * from a lower node to a higher one and come out sorted by their target.
 * A node with no accesses is pinned between its record-order neighbours.
 */
#include "base/rules.h"
#include "compile/stages.h"

#include <stdlib.h>

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
    const rg_graph *g;
    uint32_t *pairs;                  /* the edges found, published as rg__edges */
    uint32_t count, cap;
    slot_front *slots;
    reader *pool;
    uint32_t pool_count, pool_cap;
    uint32_t *seen;                   /* per node: the last node an edge from it went to */
} frontier;

/* Records the hazard edge from -> to (to: the node being walked), once:
 * a node's accesses meet the same earlier node on many subresources. */
static bool edge(frontier *f, uint32_t from, uint32_t to)
{
    if (from == to || f->seen[from] == to)
        return true;
    f->seen[from] = to;
    if (!rg__grow(f->g, (void **)&f->pairs, &f->cap, 2 * (f->count + 1), sizeof *f->pairs))
        return false;
    f->pairs[2 * f->count] = from;
    f->pairs[2 * f->count + 1] = to;
    f->count++;
    return true;
}

static const char *res_name(const rg_graph *g, uint32_t r) { return g->decl.resources[r].name; }

static const char *span_name(const rg_graph *g, uint32_t c)
{
    return g->decl.cmds[g->decl.spans[g->decl.cmds[c].span].begin_cmd].name;
}

/* The rules inside one node: no barrier may be recorded between two
 * interior commands of a span (vkCmdPipelineBarrier2 inside a dynamic
 * rendering instance needs VK_KHR_dynamic_rendering_local_read), and one
 * command cannot use a subresource in two layouts. */
static rg_result node_rules(frontier *f, slot_front *s, uint32_t c, const rg__access *a)
{
    const rg_graph *g = f->g;
    uint32_t n = rg__node_of(g, c);
    if (s->node != n) {
        s->node = n;
        s->node_layout = a->layout;
        s->node_last = c;
        s->node_prev = RG__NONE;
        s->node_writer = a->write ? c : RG__NONE;
        return RG_SUCCESS;
    }
    bool others = s->node_last != c || s->node_prev != RG__NONE;
    uint32_t other = s->node_last != c ? s->node_last : s->node_prev;
    if (a->layout != s->node_layout) {
        if (!others)
            return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s' uses texture '%s' in two layouts (%s, %s)",
                            g->decl.cmds[c].name, res_name(g, a->resource), rg_layout_name(s->node_layout),
                            rg_layout_name(a->layout));
        return rg__fail(g, RG_ERROR_TRANSITION_IN_SPAN,
                        "commands '%s' and '%s' in span '%s' use texture '%s' in layouts %s and %s: the transition "
                        "would need a barrier inside the rendering instance (VUID-vkCmdPipelineBarrier2-None-06191)",
                        g->decl.cmds[other].name, g->decl.cmds[c].name, span_name(g, c), res_name(g, a->resource),
                        rg_layout_name(s->node_layout), rg_layout_name(a->layout));
    }
    bool other_wrote = s->node_writer != RG__NONE && s->node_writer != c;
    if (RG__RULE(NO_HAZARD_INSIDE_A_SPAN, others && (a->write || other_wrote)))
        return rg__fail(g, RG_ERROR_HAZARD_IN_SPAN,
                        "commands '%s' and '%s' in span '%s' have a %s hazard on %s '%s' that would need a barrier "
                        "inside the rendering instance (VUID-vkCmdPipelineBarrier2-None-06191); split the span",
                        g->decl.cmds[other_wrote ? s->node_writer : other].name, g->decl.cmds[c].name,
                        span_name(g, c),
                        a->write ? (other_wrote ? "write-after-write" : "write-after-read") : "read-after-write",
                        g->decl.resources[a->resource].is_texture ? "texture" : "buffer", res_name(g, a->resource));
    if (s->node_last != c) {
        s->node_prev = s->node_last;
        s->node_last = c;
    }
    if (a->write && s->node_writer == RG__NONE)
        s->node_writer = c;
    return RG_SUCCESS;
}

/* One access of node n to one slot: edges from the frontier, then the
 * frontier moves. A layout change is a write: it destroys what the readers
 * in the old layout see. */
static rg_result touch(frontier *f, uint32_t slot, uint32_t c, const rg__access *a)
{
    slot_front *s = &f->slots[slot];
    uint32_t n = rg__node_of(f->g, c);
    rg_result r = node_rules(f, s, c, a);
    if (r != RG_SUCCESS)
        return r;
    bool write = a->write || a->layout != s->layout;
    if (s->last_writer != RG__NONE && !edge(f, s->last_writer, n))
        return RG_ERROR_OUT_OF_MEMORY;
    if (write) {
        for (uint32_t i = s->readers; i != RG__NONE; i = f->pool[i].next)
            if (!edge(f, f->pool[i].node, n))
                return RG_ERROR_OUT_OF_MEMORY;
        s->readers = RG__NONE;
        s->last_writer = n;
        s->layout = a->layout;
    } else if (s->last_writer != n && (s->readers == RG__NONE || f->pool[s->readers].node != n)) {
        if (!rg__grow(f->g, (void **)&f->pool, &f->pool_cap, f->pool_count + 1, sizeof *f->pool))
            return RG_ERROR_OUT_OF_MEMORY;
        f->pool[f->pool_count] = (reader){n, s->readers};
        s->readers = f->pool_count++;
    }
    return RG_SUCCESS;
}

rg_result rg__compile_edges(const rg_graph *g, rg__edges *out)
{
    frontier f = {.g = g, .slots = rg__malloc(g, ((size_t)g->decl.sub_total + 1) * sizeof(slot_front)),
                  .seen = rg__malloc(g, ((size_t)g->compiled->nodes.count + 1) * sizeof(uint32_t))};
    if (!f.slots || !f.seen) {
        rg__free(g, f.slots);
        rg__free(g, f.seen);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < g->compiled->nodes.count; i++)
        f.seen[i] = RG__NONE;
    for (uint32_t i = 0; i < g->decl.sub_total; i++)
        f.slots[i] = (slot_front){RG__NONE, RG__NONE, VK_IMAGE_LAYOUT_UNDEFINED, RG__NONE,
                                  VK_IMAGE_LAYOUT_UNDEFINED, RG__NONE, RG__NONE, RG__NONE};
    rg_result r = RG_SUCCESS;
    /* A node with no accesses (a timestamp, a debug label) has no hazards to
     * place it: it is pinned between the nodes recorded before and after
     * it, so it runs where it was recorded relative to its neighbours. */
    uint32_t pinned = RG__NONE;
    bool accessed = false;
    for (uint32_t c = 0; c < g->decl.cmd_count && r == RG_SUCCESS; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        uint32_t n = rg__node_of(g, c);
        if (c == g->compiled->nodes.first_cmd[n]) {
            accessed = false;
            if (pinned != RG__NONE && !edge(&f, pinned, n))
                r = RG_ERROR_OUT_OF_MEMORY;
            pinned = RG__NONE;
        }
        for (uint32_t k = 0; k < cmd->access_count && r == RG_SUCCESS; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            if (a->role == RG__ROLE_LIFETIME)
                continue;
            accessed = true;
            const rg__resource *res = &g->decl.resources[a->resource];
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
        if (c + 1 == g->compiled->nodes.first_cmd[n + 1] && !accessed && r == RG_SUCCESS) {
            if (n > 0 && !edge(&f, n - 1, n))
                r = RG_ERROR_OUT_OF_MEMORY;
            pinned = n;
        }
    }
    rg__free(g, f.slots);
    rg__free(g, f.pool);
    rg__free(g, f.seen);
    out->pairs = f.pairs;
    out->count = f.count;
    return r;
}

void rg__edges_free(const rg_graph *g, rg__edges *e)
{
    rg__free(g, e->pairs);
    *e = (rg__edges){0};
}
