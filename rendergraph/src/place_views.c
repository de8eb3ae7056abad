/* Attachment views. Every attachment slot of a span (colors, their resolve
 * targets, depth and its resolve target) renders through a view of exactly
 * its mip and layers:
 *   - a created texture's view is made at placement, once;
 *   - an import covering its whole image (one mip, every layer: a swapchain
 *     image) uses the import's own view, which may change every frame;
 *   - any other import attachment (a mip or some layers of a persistent
 *     texture) gets a view the graph makes of the import's current image,
 *     the first time that image is seen, kept per (slot, image) until the
 *     placement is freed.
 * rg__views_bind runs at the start of every execute and leaves the view of
 * every slot in g->span_views, so recording reads one array.
 */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* What slot `slot` of span s views; false when the span has no such slot. */
static bool slot_subresource(const rg_graph *g, uint32_t s, uint32_t slot, uint32_t *resource, uint32_t *mip,
                             uint32_t *base_layer, uint32_t *layers)
{
    const rg_span *span = &g->spans[s];
    const rg_rendering_desc *d = &span->desc;
    bool depth = slot >= RG_SPAN_VIEW_DEPTH, resolve = depth ? slot == RG_SPAN_VIEW_DEPTH_RESOLVE : slot >= 8;
    uint32_t color = slot % 8;
    const rg_attachment *a = depth ? &d->depth : &d->colors[color];
    if ((!depth && color >= d->color_count) || a->texture.id == 0 || (resolve && a->resolve.id == 0))
        return false;
    if (resolve) {
        *resource = rg__texture_index(g, a->resolve);
        *mip = a->resolve_mip;
        *base_layer = a->resolve_layer;
        *layers = span->layer_count;
    } else {
        *resource = rg__texture_index(g, a->texture);
        *mip = a->mip;
        *base_layer = a->base_layer;
        *layers = a->layer_count ? a->layer_count : 1;
    }
    return true;
}

static rg_result make_view(rg_graph *g, const rg_resource *r, VkImage image, uint32_t mip, uint32_t base_layer,
                           uint32_t layers, VkImageView *out)
{
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = r->format,
        .subresourceRange = { r->aspects, mip, 1, base_layer, layers },
    };
    VkResult vr = vkCreateImageView(eng_context_device(g->ctx), &ci, NULL, out);
    if (vr != VK_SUCCESS)
        return rg__fail(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "attachment view of texture '%s' (mip %u, layers %u+%u): VkResult %d", r->name, mip,
                        base_layer, layers, (int)vr);
    return RG_SUCCESS;
}

static bool whole_image(const rg_resource *r, uint32_t mip, uint32_t base_layer, uint32_t layers)
{
    return r->mip_levels == 1 && mip == 0 && base_layer == 0 && layers == r->array_layers;
}

rg_result rg__views_make(rg_graph *g)
{
    g->span_views = calloc((size_t)g->span_count + 1, sizeof *g->span_views);
    if (!g->span_views)
        return rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    /* The count the array was made with: a declaration extended later must
     * not change how much of it is walked. */
    g->span_view_count = g->span_count;
    uint32_t imports = 0;
    for (uint32_t s = 0; s < g->span_count; s++) {
        for (uint32_t slot = 0; slot < RG_SPAN_VIEWS; slot++) {
            uint32_t ri, mip, base, layers;
            if (!slot_subresource(g, s, slot, &ri, &mip, &base, &layers))
                continue;
            const rg_resource *r = &g->resources[ri];
            if (r->imported) {
                imports++;
                continue;
            }
            rg_result res = make_view(g, r, r->image, mip, base, layers, &g->span_views[s].views[slot]);
            if (res != RG_SUCCESS)
                return res;
            g->span_views[s].owned |= 1u << slot;
        }
    }
    g->import_slots = calloc((size_t)imports + 1, sizeof *g->import_slots);
    if (!g->import_slots)
        return rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t s = 0; s < g->span_count; s++)
        for (uint32_t slot = 0; slot < RG_SPAN_VIEWS; slot++) {
            uint32_t ri, mip, base, layers;
            if (slot_subresource(g, s, slot, &ri, &mip, &base, &layers) && g->resources[ri].imported)
                g->import_slots[g->import_slot_count++] = (rg_import_slot){ s, slot, ri, mip, base, layers,
                                                                            !whole_image(&g->resources[ri], mip,
                                                                                         base, layers) };
        }
    return RG_SUCCESS;
}

/* The graph's view of (slot, image), made on first sight. */
static rg_result import_view(rg_graph *g, const rg_import_slot *is, VkImage image, VkImageView *out)
{
    for (uint32_t i = 0; i < g->import_view_count; i++) {
        const rg_import_view *v = &g->import_views[i];
        if (v->image == image && v->span == is->span && v->slot == is->slot) {
            *out = v->view;
            return RG_SUCCESS;
        }
    }
    if (g->import_view_count == g->import_view_cap) {
        uint32_t cap = g->import_view_cap ? g->import_view_cap * 2 : 8;
        rg_import_view *v = realloc(g->import_views, (size_t)cap * sizeof *v);
        if (!v)
            return rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "rg_execute: out of host memory");
        g->import_views = v;
        g->import_view_cap = cap;
    }
    const rg_resource *r = &g->resources[is->resource];
    rg_result res = make_view(g, r, image, is->mip, is->base_layer, is->layers, out);
    if (res == RG_SUCCESS)
        g->import_views[g->import_view_count++] = (rg_import_view){ is->span, is->slot, image, *out };
    return res;
}

rg_result rg__views_bind(rg_graph *g)
{
    for (uint32_t i = 0; i < g->import_slot_count; i++) {
        const rg_import_slot *is = &g->import_slots[i];
        const rg_resource *r = &g->resources[is->resource];
        VkImageView *slot = &g->span_views[is->span].views[is->slot];
        if (!is->sub) {
            if (!r->view)
                return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: imported texture '%s' is an attachment "
                                "of span '%s' but has no view", r->name, g->cmds[g->spans[is->span].begin_cmd].name);
            *slot = r->view;
            continue;
        }
        rg_result res = import_view(g, is, r->image, slot);
        if (res != RG_SUCCESS)
            return res;
    }
    return RG_SUCCESS;
}

void rg__views_free(rg_graph *g)
{
    VkDevice dev = g->ctx ? eng_context_device(g->ctx) : VK_NULL_HANDLE;
    for (uint32_t s = 0; s < g->span_view_count && dev; s++)
        for (uint32_t slot = 0; slot < RG_SPAN_VIEWS; slot++)
            if (g->span_views[s].owned & (1u << slot))
                vkDestroyImageView(dev, g->span_views[s].views[slot], NULL);
    for (uint32_t i = 0; i < g->import_view_count && dev; i++)
        vkDestroyImageView(dev, g->import_views[i].view, NULL);
    free(g->span_views);
    free(g->import_slots);
    free(g->import_views);
    g->span_views = NULL;
    g->import_slots = NULL;
    g->import_views = NULL;
    g->span_view_count = g->import_slot_count = g->import_view_count = g->import_view_cap = 0;
}
