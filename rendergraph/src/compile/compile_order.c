/* Compile stage "order": each node's level (the longest path to it from a
 * source, over the edges the closure kept, which come sorted by target so
 * a source's level is final when met; the nodes of one level are
 * independent), then an execution order: levels ascending, node index
 * within a level, culled nodes left out. Deterministic, and a span's
 * commands stay together in record order. Also the one helper every stage
 * that makes an order uses (rg__order_of_nodes).
 */
#include "compile/stages.h"

#include <stdlib.h>

bool rg__order_of_nodes(const rg_graph *g, const uint32_t *nodes, uint32_t count, rg__order *out)
{
    const rg__nodes *nd = &g->compiled->nodes;
    uint32_t *cmds = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *cmds);
    *out = (rg__order){cmds, 0};
    if (!cmds)
        return false;
    uint32_t p = 0;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t c = nd->first_cmd[nodes[i]]; c < nd->first_cmd[nodes[i] + 1]; c++)
            cmds[p++] = c;
    out->count = p;
    return true;
}

void rg__order_free(const rg_graph *g, rg__order *o)
{
    rg__free(g, o->cmds);
    *o = (rg__order){0};
}

/* Each node's level: the longest path to it from a source. */
static uint32_t *levels(const rg_graph *g)
{
    const rg__closure *e = &g->compiled->closure;
    uint32_t *level = rg__calloc(g, (size_t)g->compiled->nodes.count + 1, sizeof *level);
    for (uint32_t i = 0; level && i < e->reduced_count; i++) {
        uint32_t from = e->reduced[2 * i], to = e->reduced[2 * i + 1];
        if (level[from] + 1 > level[to])
            level[to] = level[from] + 1;
    }
    return level;
}

rg_result rg__compile_order(const rg_graph *g, rg__levels *out)
{
    const rg__nodes *nd = &g->compiled->nodes;
    uint32_t *level = levels(g);
    out->node_level = level;
    if (!level)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t count = 0;
    for (uint32_t n = 0; n < nd->count; n++)
        if (level[n] + 1 > count)
            count = level[n] + 1;
    uint32_t *start = rg__calloc(g, (size_t)count + 1, sizeof *start);
    uint32_t *sorted = rg__malloc(g, ((size_t)nd->count + 1) * sizeof *sorted);
    bool ok = start && sorted;
    if (ok) {
        /* Counting sort by level, stable (record order within a level),
         * culled nodes left out. */
        for (uint32_t n = 0; n < nd->count; n++)
            start[level[n] + 1]++;
        for (uint32_t l = 0; l < count; l++)
            start[l + 1] += start[l];
        for (uint32_t n = 0; n < nd->count; n++)
            sorted[start[level[n]]++] = n;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < nd->count; i++)
            if (!g->compiled->cull.node_culled[sorted[i]])
                sorted[kept++] = sorted[i];
        ok = rg__order_of_nodes(g, sorted, kept, &out->order);
    }
    rg__free(g, start);
    rg__free(g, sorted);
    return ok ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
}

void rg__levels_free(const rg_graph *g, rg__levels *l)
{
    rg__free(g, l->node_level);
    rg__order_free(g, &l->order);
    *l = (rg__levels){0};
}
