/* Compile stage "order": each node's Kahn batch (the longest path to it
 * from a source, over the kept hazard edges, which come sorted by target so
 * a source's batch is final when met), then the execution order: batches
 * ascending, node index within a batch, culled nodes left out.
 * Deterministic, and a span's commands stay together in record order.
 */
#include "graph_internal.h"

#include <stdlib.h>

static rg_result batches(rg_graph *g)
{
    rg__compiled *c = &g->compiled;
    c->node_batch = rg__calloc(g, (size_t)c->node_count + 1, sizeof *c->node_batch);
    if (!c->node_batch)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t e = 0; e < c->edge_count; e++) {
        uint32_t from = c->edges[2 * e], to = c->edges[2 * e + 1];
        if (c->node_batch[from] + 1 > c->node_batch[to])
            c->node_batch[to] = c->node_batch[from] + 1;
    }
    return RG_SUCCESS;
}

rg_result rg__compile_order(rg_graph *g)
{
    rg__compiled *c = &g->compiled;
    rg_result r = batches(g);
    if (r != RG_SUCCESS)
        return r;
    uint32_t count = 0;
    for (uint32_t n = 0; n < c->node_count; n++)
        if (c->node_batch[n] + 1 > count)
            count = c->node_batch[n] + 1;
    uint32_t *start = rg__calloc(g, (size_t)count + 1, sizeof *start);
    uint32_t *sorted = rg__malloc(g, ((size_t)c->node_count + 1) * sizeof *sorted);
    c->order = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *c->order);
    c->order_handles = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *c->order_handles);
    if (!start || !sorted || !c->order || !c->order_handles) {
        rg__free(g, start);
        rg__free(g, sorted);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t n = 0; n < c->node_count; n++)
        start[c->node_batch[n] + 1]++;
    for (uint32_t b = 0; b < count; b++)
        start[b + 1] += start[b];
    for (uint32_t n = 0; n < c->node_count; n++)
        sorted[start[c->node_batch[n]]++] = n;
    uint32_t p = 0;
    for (uint32_t i = 0; i < c->node_count; i++) {
        uint32_t n = sorted[i];
        if (c->node_culled[n])
            continue;
        for (uint32_t cmd = c->node_first_cmd[n]; cmd < c->node_first_cmd[n + 1]; cmd++) {
            c->order[p] = cmd;
            c->order_handles[p] = (rg_command){rg__make_id(g, cmd)};
            p++;
        }
    }
    c->order_count = p;
    rg__free(g, start);
    rg__free(g, sorted);
    return RG_SUCCESS;
}
