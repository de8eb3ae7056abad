/* Memory for created resources. For now every used created resource gets
 * its own memory through the engine (the memory-type choice, lazy memory for
 * TRANSIENT attachments included); aliasing pools replace this in the
 * transient-memory issue without changing what execute sees: an image, a
 * whole view and a buffer per resource, plus cached attachment views. */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

void rg__placement_free(rg_graph *g)
{
    if (!g)
        return;
    VkDevice dev = g->ctx ? eng_context_device(g->ctx) : VK_NULL_HANDLE;
    for (uint32_t i = 0; i < g->span_count && g->span_views; i++)
        for (uint32_t a = 0; a < RG_SPAN_VIEWS; a++)
            if (g->span_views[i].views[a])
                vkDestroyImageView(dev, g->span_views[i].views[a], NULL);
    free(g->span_views);
    g->span_views = NULL;
    for (uint32_t i = 0; i < g->resource_count; i++) {
        rg_resource *r = &g->resources[i];
        if (r->imported)
            continue;
        eng_image_destroy(r->owned_image);
        eng_buffer_destroy(r->owned_buffer);
        r->owned_image = NULL;
        r->owned_buffer = NULL;
        r->image = VK_NULL_HANDLE;
        r->view = VK_NULL_HANDLE;
        r->buffer = VK_NULL_HANDLE;
    }
    g->placed = false;
}

static rg_result place_resource(rg_graph *g, rg_resource *r)
{
    eng_result er;
    if (r->is_texture) {
        eng_image_desc d = {
            .name = r->name,
            .format = r->format,
            .width = r->width,
            .height = r->height,
            .mip_levels = r->mip_levels,
            .array_layers = r->array_layers,
            .samples = r->samples,
            .usage = r->image_usage,
        };
        er = eng_image_create(g->ctx, &d, &r->owned_image);
        if (er == ENG_SUCCESS) {
            r->image = eng_image_get_info(r->owned_image)->image;
            r->view = eng_image_get_info(r->owned_image)->view;
        }
    } else {
        eng_buffer_desc d = { .name = r->name, .size = r->size, .usage = r->buffer_usage };
        er = eng_buffer_create(g->ctx, &d, &r->owned_buffer);
        if (er == ENG_SUCCESS)
            r->buffer = eng_buffer_handle(r->owned_buffer);
    }
    if (er != ENG_SUCCESS)
        return rg__fail(g, er == ENG_ERROR_OUT_OF_MEMORY ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "placing %s '%s': %s: %s", r->is_texture ? "texture" : "buffer", r->name,
                        eng_result_string(er), eng_last_error());
    return RG_SUCCESS;
}

/* A view of exactly the attachment's mip and layers, made once. Imports use
 * their own view: the swapchain image changes every frame. */
static rg_result make_attachment_view(rg_graph *g, const rg_attachment *a, VkImageView *out)
{
    uint32_t ri = rg__texture_index(g, a->texture);
    rg_resource *r = &g->resources[ri];
    if (r->imported)
        return RG_SUCCESS;
    uint32_t layers = a->layer_count ? a->layer_count : 1;
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = r->image,
        .viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = r->format,
        .subresourceRange = { r->aspects, a->mip, 1, a->base_layer, layers },
    };
    VkResult vr = vkCreateImageView(eng_context_device(g->ctx), &ci, NULL, out);
    if (vr != VK_SUCCESS)
        return rg__fail(g, RG_ERROR_VULKAN, "attachment view of texture '%s': VkResult %d", r->name, (int)vr);
    return RG_SUCCESS;
}

static rg_result make_span_views(rg_graph *g, uint32_t s)
{
    const rg_rendering_desc *d = &g->spans[s].desc;
    rg_span_views *sv = &g->span_views[s];
    rg_result res = RG_SUCCESS;
    for (uint32_t c = 0; c < d->color_count && res == RG_SUCCESS; c++) {
        res = make_attachment_view(g, &d->colors[c], &sv->views[c]);
        if (res == RG_SUCCESS && d->colors[c].resolve.id) {
            rg_attachment resolve = { .texture = d->colors[c].resolve, .mip = d->colors[c].resolve_mip,
                                      .base_layer = d->colors[c].resolve_layer,
                                      .layer_count = g->spans[s].layer_count };
            res = make_attachment_view(g, &resolve, &sv->views[8 + c]);
        }
    }
    if (res == RG_SUCCESS && d->depth.texture.id)
        res = make_attachment_view(g, &d->depth, &sv->views[16]);
    return res;
}

rg_result rg__place(rg_graph *g)
{
    if (g->placed)
        return RG_SUCCESS;
    rg_result res = RG_SUCCESS;
    for (uint32_t i = 0; i < g->resource_count && res == RG_SUCCESS; i++) {
        rg_resource *r = &g->resources[i];
        /* Created but never used: not created at all. */
        if (!r->imported && r->first_use != RG_NONE)
            res = place_resource(g, r);
    }
    if (res == RG_SUCCESS && g->span_count) {
        g->span_views = calloc(g->span_count, sizeof *g->span_views);
        if (!g->span_views)
            res = rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    }
    for (uint32_t s = 0; s < g->span_count && res == RG_SUCCESS; s++)
        res = make_span_views(g, s);
    if (res != RG_SUCCESS) {
        /* Transactional: nothing half-placed stays behind. */
        rg__placement_free(g);
        return res;
    }
    g->placed = true;
    return RG_SUCCESS;
}
