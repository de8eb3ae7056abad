/* Compile stage "closure": the transitive happens-before relation as
 * bitset rows (bit b of row a: node b happens-before node a), from the
 * hazard edges in the order the edges stage found them. Since every edge
 * goes from a lower node to a higher one and they come sorted by target,
 * a source's row is final when an edge from it is met. An edge the row
 * already implies is dropped from the list: what remains is what the DOT
 * dump draws and what the order stage's longest paths walk (dropping an
 * implied edge shortens no path).
 */
#include "compile/stages.h"

#include <stdlib.h>

rg_result rg__compile_closure(const rg_graph *g, rg__closure *out)
{
    const rg__edges *e = &g->compiled->edges;
    uint32_t words = (g->compiled->nodes.count + 63) / 64;
    uint64_t *rows = rg__calloc(g, (size_t)g->compiled->nodes.count * words + 1, sizeof *rows);
    uint32_t *reduced = rg__malloc(g, 2 * ((size_t)e->count + 1) * sizeof *reduced);
    out->rows = rows;
    out->row_words = words;
    out->reduced = reduced;
    if (!rows || !reduced)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < e->count; i++) {
        uint32_t from = e->pairs[2 * i], to = e->pairs[2 * i + 1];
        uint64_t *row = &rows[(size_t)to * words];
        if ((row[from / 64] >> (from % 64)) & 1u)
            continue; /* implied already */
        const uint64_t *src = &rows[(size_t)from * words];
        for (uint32_t w = 0; w <= from / 64; w++) /* rows only hold lower nodes */
            row[w] |= src[w];
        row[from / 64] |= 1ull << (from % 64);
        reduced[2 * kept] = from;
        reduced[2 * kept + 1] = to;
        kept++;
    }
    out->reduced_count = kept;
    return RG_SUCCESS;
}

void rg__closure_free(const rg_graph *g, rg__closure *c)
{
    rg__free(g, c->rows);
    rg__free(g, c->reduced);
    *c = (rg__closure){0};
}
