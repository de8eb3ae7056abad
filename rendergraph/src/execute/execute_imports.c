/* The attachment views a frame binds (rg__bound_views): placement's span
 * views, copied once, with every import slot set again at the start of
 * each execute, since an import's image and view may change every frame:
 *   - an import covering its whole image (a swapchain image) binds its
 *     own view;
 *   - any other import slot gets a view of the import's current image,
 *     made the first time that image is seen and kept per (slot, image)
 *     until the placement is freed;
 *   - a history half binds placement's view of the image it holds this
 *     frame (placement made both).
 */
#include "base/device.h"
#include "execute/stages.h"
#include "place/stages.h"

#include <string.h>

rg_result rg__bound_views_prepare(rg_graph *g, rg__bound_views *b, const char *what)
{
    const rg__placed_views *pv = &g->placement->views;
    b->spans = rg__calloc(g, (size_t)pv->span_count + 1, sizeof *b->spans);
    if (!b->spans)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    if (pv->span_count)
        memcpy(b->spans, pv->spans, pv->span_count * sizeof *b->spans);
    return RG_SUCCESS;
}

void rg__bound_views_free(rg_graph *g, rg__bound_views *b)
{
    rg__made_views_free(g, &b->made);
    rg__free(g, b->spans);
    *b = (rg__bound_views){0};
}

/* The graph's view of (slot, image): placement's for a history half, else
 * made on first sight. */
static rg_result import_view(rg_graph *g, rg__made_views *made, const char *what, const rg__import_slot *is,
                             VkImage image, VkImageView *out)
{
    const rg__placed_views *pv = &g->placement->views;
    if (rg__made_view_find(pv->history, pv->history_count, is->span, is->slot, image, out) ||
        rg__made_view_find(made->of, made->count, is->span, is->slot, image, out))
        return RG_SUCCESS;
    if (!rg__grow(g, (void **)&made->of, &made->cap, made->count + 1, sizeof *made->of))
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    const rg__resource *r = &g->decl.resources[is->resource];
    rg_result res = rg__attachment_view(g, what, r, image, is->mip, is->base_layer, is->layers, out);
    if (res == RG_SUCCESS)
        made->of[made->count++] = (rg__made_view){ is->span, is->slot, image, *out };
    return res;
}

rg_result rg__bind_imports(rg_graph *g, rg__bound_views *b, const char *what)
{
    const rg__placed_views *pv = &g->placement->views;
    for (uint32_t i = 0; i < pv->import_slot_count; i++) {
        const rg__import_slot *is = &pv->import_slots[i];
        const rg__resource *r = &g->decl.resources[is->resource];
        VkImageView *slot = &b->spans[is->span].views[is->slot];
        if (!is->sub) {
            if (!rg__view(g, is->resource))
                return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: imported texture '%s' is an attachment "
                                "of span '%s' but has no view", what, r->name,
                                g->decl.cmds[g->decl.spans[is->span].begin_cmd].name);
            *slot = rg__view(g, is->resource);
            continue;
        }
        rg_result res = import_view(g, &b->made, what, is, rg__image(g, is->resource), slot);
        if (res != RG_SUCCESS)
            return res;
    }
    return RG_SUCCESS;
}
