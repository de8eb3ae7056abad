/* Compile stage "closure": the transitive happens-before relation as
 * bitset rows (bit b of row a: node b happens-before node a), from the
 * hazard edges in the order the edges stage found them. Since every edge
 * goes from a lower node to a higher one and they come sorted by target,
 * a source's row is final when an edge from it is met. An edge the row
 * already implies is dropped from the list: what remains is what the DOT
 * dump draws and what the order stage's longest paths walk (dropping an
 * implied edge shortens no path).
 */
#include "graph_internal.h"

#include <stdlib.h>

rg_result rg__compile_closure(rg_graph *g)
{
    rg__compiled *c = &g->compiled;
    c->row_words = (c->node_count + 63) / 64;
    c->closure = rg__calloc(g, (size_t)c->node_count * c->row_words + 1, sizeof *c->closure);
    if (!c->closure)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t kept = 0;
    for (uint32_t e = 0; e < c->edge_count; e++) {
        uint32_t from = c->edges[2 * e], to = c->edges[2 * e + 1];
        uint64_t *row = &c->closure[(size_t)to * c->row_words];
        if ((row[from / 64] >> (from % 64)) & 1u)
            continue; /* implied already */
        const uint64_t *src = &c->closure[(size_t)from * c->row_words];
        for (uint32_t w = 0; w <= from / 64; w++) /* rows only hold lower nodes */
            row[w] |= src[w];
        row[from / 64] |= 1ull << (from % 64);
        c->edges[2 * kept] = from;
        c->edges[2 * kept + 1] = to;
        kept++;
    }
    c->edge_count = kept;
    return RG_SUCCESS;
}
