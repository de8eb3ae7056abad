/* The graph object and its declaration bookkeeping: create, destroy and
 * reset, the sticky first error (rg__fail, rg_graph_error*, rg_result_string),
 * handle tags and handle -> index lookup, and the small helpers every
 * declaration call appends through (growing an array, copying a name).
 * Distinct tags per graph and per reset let every later call reject stale
 * and foreign handles; reset clears the declaration and its hash but keeps
 * the compiled arrays for an identical re-declaration.
 */
#include "declare_internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>

const char *rg_result_string(rg_result result)
{
    switch (result) {
    case RG_SUCCESS: return "success";
    case RG_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case RG_ERROR_INVALID_HANDLE: return "invalid handle (0, stale or foreign)";
    case RG_ERROR_BAD_RANGE: return "subresource range outside the resource or not concrete";
    case RG_ERROR_UNBALANCED_SPAN: return "begin_rendering without end_rendering";
    case RG_ERROR_NESTED_SPAN: return "begin_rendering inside a span";
    case RG_ERROR_END_WITHOUT_BEGIN: return "end_rendering without begin_rendering";
    case RG_ERROR_DRAW_OUTSIDE_SPAN: return "draw command outside a span";
    case RG_ERROR_TRANSFER_IN_SPAN: return "copy, clear or blit inside a span";
    case RG_ERROR_ATTACHMENT_LAYOUT: return "attachment layout not legal for rendering";
    case RG_ERROR_ATTACHMENT_OVERLAP: return "two attachments on one subresource";
    case RG_ERROR_FEEDBACK_LOOP: return "interior access touches an attachment (feedback loop)";
    case RG_ERROR_TRANSITION_IN_SPAN: return "intra-span hazard needs a layout transition";
    case RG_ERROR_NOT_COMPILED: return "graph not compiled";
    case RG_ERROR_OUT_OF_MEMORY: return "out of memory";
    case RG_ERROR_CALLBACK: return "record callback failed";
    case RG_ERROR_VULKAN: return "Vulkan call failed";
    case RG_ERROR_HAZARD_IN_SPAN: return "intra-span hazard needs a barrier inside the render pass";
    case RG_ERROR_OUTSIDE_IN_SPAN: return "outside-kind command inside a span";
    case RG_ERROR_TRANSIENT_CONTENTS: return "transient texture used in a way that needs its contents";
    case RG_ERROR_NOT_PLACED: return "graph memory not placed";
    case RG_RESULT_COUNT: break;
    }
    return "invalid rg_result value";
}

rg_result rg__fail(rg_graph *g, rg_result r, const char *fmt, ...)
{
    if (g->error != RG_SUCCESS)
        return g->error;
    g->error = r;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->message, sizeof g->message, fmt, ap);
    va_end(ap);
    return r;
}

/* Geometric growth keeps appends amortised O(1). */
bool rg__grow(rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) {
        rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "out of memory growing the declaration to %u entries", need);
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

/* Every command is named: a plain bounded copy, since snprintf's format
 * machinery was a tenth of declaring a command. */
void rg__copy_name(char *dst, const char *src, const char *fallback)
{
    const char *from = src && src[0] ? src : fallback;
    size_t n = 0;
    while (n < RG_NAME_MAX - 1 && from[n]) {
        dst[n] = from[n];
        n++;
    }
    dst[n] = '\0';
}

static uint32_t resource_index(const rg_graph *g, uint32_t id, bool texture)
{
    if (!g || id == 0 || (id >> RG_INDEX_BITS) != g->tag)
        return RG_NONE;
    uint32_t i = (id & RG_INDEX_MASK) - 1;
    if (i >= g->resource_count || g->resources[i].is_texture != texture)
        return RG_NONE;
    return i;
}

uint32_t rg__texture_index(const rg_graph *g, rg_texture t) { return resource_index(g, t.id, true); }
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b) { return resource_index(g, b.id, false); }

static uint32_t next_tag(void)
{
    /* Distinct tags across graphs and resets catch foreign and stale handles. */
    static atomic_uint counter;
    return atomic_fetch_add(&counter, 1u) % ((1u << (32 - RG_INDEX_BITS)) - 1u) + 1u;
}

static void declaration_clear(rg_graph *g)
{
    g->resource_count = 0;
    g->cmd_count = 0;
    g->access_count = 0;
    g->span_count = 0;
    g->open_span = RG_NONE;
    g->sub_total = 0;
    g->error = RG_SUCCESS;
    g->message[0] = '\0';
    g->declaration_hash = FNV_OFFSET;
    g->tag = next_tag();
}

rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out)
{
    if (!out)
        return RG_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc)
        return RG_ERROR_INVALID_ARGUMENT;
    rg_graph *g = calloc(1, sizeof *g);
    if (!g)
        return RG_ERROR_OUT_OF_MEMORY;
    rg__copy_name(g->name, desc->name, "graph");
    g->ctx = desc->ctx;
    g->no_aliasing = desc->no_aliasing;
    declaration_clear(g);
    *out = g;
    return RG_SUCCESS;
}

void rg_graph_destroy(rg_graph *graph)
{
    if (!graph)
        return;
    rg__placement_free(graph);
    rg__compiled_free(graph);
    free(graph->resources);
    free(graph->cmds);
    free(graph->accesses);
    free(graph->spans);
    free(graph);
}

void rg_graph_reset(rg_graph *graph)
{
    if (!graph)
        return;
    /* The compiled arrays stay: an identical re-declaration reuses them (see
     * rg_compile). Placed memory belongs to the old resources. */
    rg__placement_free(graph);
    graph->compiled = false;
    declaration_clear(graph);
}

rg_result rg_graph_error(const rg_graph *graph) { return graph ? graph->error : RG_ERROR_INVALID_ARGUMENT; }

const char *rg_graph_error_message(const rg_graph *graph) { return graph ? graph->message : "no graph"; }
