/* Planning without a device (rg_place_offline) and the placement queries.
 * Offline planning takes recorded requirements through a callback, so tools
 * and tests see exactly what a device with those requirements would get. */
#include "graph_internal.h"

#include <stdlib.h>

/* A refused call leaves the graph as it was: its message says why (when no
 * declaration or compile error is kept, which stays first), but no error
 * becomes sticky, as for rg_write_dot. Without it a caller that placed
 * before compiling got an error code and an empty message (found by
 * tests/fuzz). */
static rg_result refuse(rg_graph *g, rg_result r, const char *why)
{
    if (g->error == RG_SUCCESS)
        snprintf(g->message, sizeof g->message, "rg_place_offline: %s", why);
    return r;
}

rg_result rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                           rg_requirements_fn requirements, void *user)
{
    rg_graph *g = graph;
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!props || !requirements)
        return refuse(g, RG_ERROR_INVALID_ARGUMENT, "no memory properties or no requirements callback");
    if (!g->compiled)
        return refuse(g, RG_ERROR_NOT_COMPILED, "the graph is not compiled");
    if (g->placed) /* the device's plan is what its memory was bound by */
        return refuse(g, RG_ERROR_INVALID_ARGUMENT, "the graph's memory was placed on the device");
    rg_mem_requirements *reqs = calloc((size_t)g->resource_count + 1, sizeof *reqs);
    if (!reqs)
        return rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t i = 0; i < g->resource_count; i++) {
        const rg_resource *r = &g->resources[i];
        if (r->imported || r->first_use == RG_NONE)
            continue;
        rg_mem_requirements *q = &reqs[i];
        if (!requirements(user, r->name, r->is_texture, i, &q->size, &q->alignment, &q->type_bits, &q->dedicated)) {
            free(reqs);
            return rg__fail(g, RG_ERROR_CALLBACK, "placement: no memory requirements for %s '%s'",
                            r->is_texture ? "texture" : "buffer", r->name);
        }
    }
    rg_result res = rg__plan_memory(g, props, reqs);
    free(reqs);
    return res;
}

rg_memory_totals rg_memory_get_totals(const rg_graph *graph)
{
    const rg_mem_plan *p = rg__mem_plan_current(graph);
    return p ? p->totals : (rg_memory_totals){0};
}

static rg_memory_kind memory_of(const rg_graph *g, uint32_t i, VkDeviceSize *offset, uint32_t *pool)
{
    const rg_mem_plan *p = rg__mem_plan_current(g);
    const rg_mem_placement *m = p && i != RG_NONE ? &p->items[i] : NULL;
    if (offset)
        *offset = m ? m->offset : 0;
    if (pool)
        *pool = m ? m->pool : RG_NONE;
    return m ? m->kind : RG_MEMORY_NOT_CREATED;
}

rg_memory_kind rg_texture_memory(const rg_graph *graph, rg_texture texture, VkDeviceSize *offset, uint32_t *pool)
{
    return memory_of(graph, graph ? rg__texture_index(graph, texture) : RG_NONE, offset, pool);
}

rg_memory_kind rg_buffer_memory(const rg_graph *graph, rg_buffer buffer, VkDeviceSize *offset, uint32_t *pool)
{
    return memory_of(graph, graph ? rg__buffer_index(graph, buffer) : RG_NONE, offset, pool);
}
