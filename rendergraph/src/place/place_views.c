/* Placement stage "views": attachment views. Every attachment slot of a span (colors, their resolve
 * targets, depth and its resolve target) renders through a view of exactly
 * its mip and layers:
 *   - a created texture's view is made at placement, once;
 *   - an import covering its whole image (one mip, every layer: a swapchain
 *     image) uses the import's own view, which may change every frame;
 *   - any other import attachment (a mip or some layers of a persistent
 *     texture) gets a view the graph makes of the import's current image,
 *     the first time that image is seen, kept per (slot, image) until the
 *     placement is freed;
 *   - a half of a history pair is bound like such an import (its image
 *     alternates between the pair's two), its views of both images made
 *     at placement.
 * Execute binds the imports' views at the start of every frame
 * (execute_imports.c) into its own copy of the span views, from which
 * rg__span_rendering builds each span's VkRenderingInfo.
 */
#include "base/device.h"
#include "base/names.h"
#include "place/reuse.h"
#include "place/stages.h"

#include <stdlib.h>
#include <string.h>

/* What slot `slot` of span s views; false when the span has no such slot
 * or was culled (its textures may not exist). */
static bool slot_subresource(const rg_graph *g, uint32_t s, uint32_t slot, uint32_t *resource, uint32_t *mip,
                             uint32_t *base_layer, uint32_t *layers)
{
    if (g->compiled->merge.span_map[s].instance == RG__NONE)
        return false;
    const rg__span *span = &g->decl.spans[s];
    const rg_rendering_desc *d = &span->desc;
    bool depth = slot >= RG__SLOT_DEPTH;
    bool resolve = depth ? slot == RG__SLOT_DEPTH_RESOLVE : slot >= RG__SLOT_RESOLVE(0);
    uint32_t color = slot % RG_MAX_COLOR_ATTACHMENTS;
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
        *layers = a->layer_count; /* resolved at declaration */
    }
    return !rg__folded(g, *resource); /* no image: its span renders into the resolve slot's */
}

rg_result rg__attachment_view(const rg_graph *g, const char *what, const rg__resource *r, VkImage image,
                              uint32_t mip, uint32_t base_layer, uint32_t layers, VkImageView *out)
{
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = r->format,
        .subresourceRange = { r->aspects, mip, 1, base_layer, layers },
    };
    VkResult vr = g->dev->vk.CreateImageView(g->dev->device, &ci, g->dev->vk_alloc, out);
    if (vr != VK_SUCCESS)
        return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "%s: attachment view of texture '%s' (mip %u, layers %u+%u): %s", what, r->name, mip,
                        base_layer, layers, rg_vk_result_string(vr));
    rg__name_view(g->dev, *out, r->name, mip, 1, base_layer, layers);
    return RG_SUCCESS;
}

static bool whole_image(const rg__resource *r, uint32_t mip, uint32_t base_layer, uint32_t layers)
{
    return r->mip_levels == 1 && mip == 0 && base_layer == 0 && layers == r->array_layers;
}

/* The views as they are made (the placement's arrays are const). */
typedef struct views_draft {
    rg__span_views *spans;
    rg__import_slot *import_slots;
    uint32_t import_slot_count;
    rg__made_view *history;
    uint32_t history_count;
    rg__kept_view *made;              /* every view made here, for the freer */
    uint32_t made_count, made_cap, reused;
    rg__reuse *reuse;
} views_draft;

/* A view of mip, layers base..+layers of r's image: a kept one, or made. */
static rg_result placed_view(const rg_graph *g, views_draft *d, const rg__resource *r, VkImage image, uint32_t mip,
                             uint32_t base, uint32_t layers, VkImageView *out)
{
    if (!rg__grow(g, (void **)&d->made, &d->made_cap, d->made_count + 1, sizeof *d->made))
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    rg_result res = RG_SUCCESS;
    if (rg__reuse_take_view(d->reuse, image, mip, base, layers, out))
        d->reused++;
    else
        res = rg__attachment_view(g, "placement", r, image, mip, base, layers, out);
    if (res == RG_SUCCESS)
        d->made[d->made_count++] = (rg__kept_view){.image = image, .mip = mip, .base_layer = base, .layers = layers,
                                                   .view = *out};
    return res;
}

static rg_result span_views(const rg_graph *g, views_draft *d, uint32_t *imports)
{
    d->spans = rg__calloc(g, (size_t)g->decl.span_count + 1, sizeof *d->spans);
    if (!d->spans)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t s = 0; s < g->decl.span_count; s++) {
        for (uint32_t slot = 0; slot < RG__SPAN_SLOTS; slot++) {
            uint32_t ri, mip, base, layers;
            if (!slot_subresource(g, s, slot, &ri, &mip, &base, &layers))
                continue;
            const rg__resource *r = &g->decl.resources[ri];
            if (r->imported || rg__history(r)) {
                (*imports)++;
                continue;
            }
            rg_result res = placed_view(g, d, r, rg__placed_image(g, ri), mip, base, layers, &d->spans[s].views[slot]);
            if (res != RG_SUCCESS)
                return res;
            d->spans[s].owned |= 1u << slot;
        }
    }
    return RG_SUCCESS;
}

static rg_result import_slots(const rg_graph *g, views_draft *d, uint32_t imports)
{
    d->import_slots = rg__calloc(g, (size_t)imports + 1, sizeof *d->import_slots);
    if (!d->import_slots)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t s = 0; s < g->decl.span_count; s++)
        for (uint32_t slot = 0; slot < RG__SPAN_SLOTS; slot++) {
            uint32_t ri, mip, base, layers;
            if (!slot_subresource(g, s, slot, &ri, &mip, &base, &layers))
                continue;
            const rg__resource *r = &g->decl.resources[ri];
            if (!r->imported && !rg__history(r))
                continue;
            bool sub = rg__history(r) || !whole_image(r, mip, base, layers);
            d->import_slots[d->import_slot_count++] = (rg__import_slot){ s, slot, ri, mip, base, layers, sub };
        }
    return RG_SUCCESS;
}

/* A history half's views of both of its pair's images, made now so that
 * no execute allocates. */
static rg_result history_views(const rg_graph *g, views_draft *d)
{
    uint32_t halves = 0;
    for (uint32_t i = 0; i < d->import_slot_count; i++)
        halves += rg__history(&g->decl.resources[d->import_slots[i].resource]);
    d->history = rg__calloc(g, 2 * (size_t)halves + 1, sizeof *d->history);
    if (!d->history)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t i = 0; i < d->import_slot_count; i++) {
        const rg__import_slot *is = &d->import_slots[i];
        const rg__resource *r = &g->decl.resources[is->resource];
        if (!rg__history(r))
            continue;
        for (uint32_t k = 0; k < 2; k++) {
            VkImage image = g->placement->objects.of[k ? r->history_pair : is->resource].image;
            VkImageView view;
            rg_result res = placed_view(g, d, r, image, is->mip, is->base_layer, is->layers, &view);
            if (res != RG_SUCCESS)
                return res;
            d->history[d->history_count++] = (rg__made_view){ is->span, is->slot, image, view };
        }
    }
    return RG_SUCCESS;
}

static rg_result place_all(const rg_graph *g, views_draft *d, rg__placed_views *out)
{
    uint32_t imports = 0;
    rg_result res = span_views(g, d, &imports);
    if (res != RG_SUCCESS)
        return res;
    bool merged = false;
    for (uint32_t i = 0; i < g->compiled->merge.instance_count; i++)
        merged = merged || g->compiled->merge.instances[i].count > 1;
    if (merged) {
        out->set_locations = g->dev->vk.CmdSetRenderingAttachmentLocationsKHR;
        out->set_input_indices = g->dev->vk.CmdSetRenderingInputAttachmentIndicesKHR;
        if (!out->set_locations || !out->set_input_indices)
            return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: graph '%s' merges spans but the device was not "
                              "created with VK_KHR_dynamic_rendering_local_read (rg_device_desc.local_read)",
                              g->name);
    }
    res = import_slots(g, d, imports);
    return res == RG_SUCCESS ? history_views(g, d) : res;
}

rg_result rg__place_views(const rg_graph *g, rg__placed_views *out, rg__reuse *reuse)
{
    views_draft d = {.reuse = reuse};
    rg_result res = place_all(g, &d, out);
    /* The count the array was made with: a declaration extended later must
     * not change how much of it is walked. */
    out->spans = d.spans;
    out->span_count = d.spans ? g->decl.span_count : 0;
    out->import_slots = d.import_slots;
    out->import_slot_count = d.import_slot_count;
    out->history = d.history;
    out->history_count = d.history_count;
    out->made = d.made;
    out->made_count = d.made_count;
    out->reused = d.reused;
    return res;
}

bool rg__made_view_find(const rg__made_view *of, uint32_t count, uint32_t key, uint32_t key2, VkImage image,
                        VkImageView *out)
{
    for (uint32_t i = 0; i < count; i++)
        if (of[i].image == image && of[i].key == key && of[i].key2 == key2) {
            *out = of[i].view;
            return true;
        }
    return false;
}

void rg__made_views_free(const rg_graph *g, rg__made_views *views)
{
    for (uint32_t i = 0; i < views->count && g->dev; i++)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = views->of[i].view});
    rg__free(g, views->of);
    *views = (rg__made_views){0};
}

/* An attachment view made at placement, into the kept ones (k) or retired. */
static void free_view(const rg_graph *g, rg__reuse *k, const rg__kept_view *v)
{
    if (!k || !rg__keep_view(g, k, v))
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = v->view});
}

void rg__place_views_hand_over(const rg_graph *g, rg__placed_views *views, rg__reuse *k)
{
    for (uint32_t i = 0; !views->handed && i < views->made_count && g->dev; i++)
        free_view(g, k, &views->made[i]);
    views->handed = true;
}

void rg__place_views_free(const rg_graph *g, rg__placed_views *views)
{
    rg__place_views_hand_over(g, views, NULL);
    RG__FREE_ALL(g, views->spans, views->import_slots, views->history, views->made);
    *views = (rg__placed_views){0};
}

/* The view info of one attachment slot's attachment. */
static VkRenderingAttachmentInfo attachment_info(const rg__span_views *sv, const rg_attachment *a, uint32_t slot,
                                                 uint32_t resolve_slot, VkImageLayout layout,
                                                 VkImageLayout resolve_layout)
{
    VkRenderingAttachmentInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = sv->views[slot],
        .imageLayout = layout,
        .loadOp = a->load,
        .storeOp = a->store,
        .clearValue = a->clear,
    };
    if (a->resolve.id) {
        info.resolveMode = a->resolve_mode; /* resolved at declaration */
        info.resolveImageView = sv->views[resolve_slot];
        info.resolveImageLayout = resolve_layout;
    }
    return info;
}

/* A merged instance's attachment: its view from the first span naming it,
 * load and clear as that span declared them, store as the instance
 * stores it, resolve from the last span naming it. */
static VkRenderingAttachmentInfo instance_attachment(const rg_graph *g, const rg__span_views *views,
                                                     const rg__inst_att *att, bool depth)
{
    const rg_rendering_desc *first = &g->decl.spans[att->span].desc, *last = &g->decl.spans[att->last_span].desc;
    const rg_attachment *a = depth ? &first->depth : &first->colors[att->slot];
    const rg_attachment *z = depth ? &last->depth : &last->colors[att->last_slot];
    uint32_t slot = depth ? RG__SLOT_DEPTH : att->slot;
    VkRenderingAttachmentInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = views[att->span].views[slot],
        .imageLayout = att->layout,
        .loadOp = a->load,
        .storeOp = att->store,
        .clearValue = a->clear,
    };
    if (z->resolve.id) {
        info.resolveMode = z->resolve_mode;
        info.resolveImageView =
            views[att->last_span].views[depth ? RG__SLOT_DEPTH_RESOLVE : RG__SLOT_RESOLVE(att->last_slot)];
        info.resolveImageLayout = depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                        : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    return info;
}

/* out's VkRenderingInfo over its attachments: the area and layers of
 * span, color_count colors, and out->depth as the depth and the stencil
 * attachment where `depth` (NULL: none) has those aspects. */
static void rendering_info(const rg__span *span, uint32_t color_count, const rg__resource *depth,
                           rg_span_rendering *out)
{
    VkImageAspectFlags aspects = depth ? depth->aspects : 0;
    out->info = (VkRenderingInfo){
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = span->area,
        .layerCount = span->layer_count,
        .colorAttachmentCount = color_count,
        .pColorAttachments = out->colors,
        .pDepthAttachment = (aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? &out->depth : NULL,
        .pStencilAttachment = (aspects & VK_IMAGE_ASPECT_STENCIL_BIT) ? &out->depth : NULL,
    };
}

static void instance_rendering(const rg_graph *g, const rg__span_views *views, const rg__instance *in,
                               rg_span_rendering *out)
{
    const rg__span *first = &g->decl.spans[g->compiled->merge.instance_spans[in->first]];
    for (uint32_t u = 0; u < in->color_count; u++)
        out->colors[u] = instance_attachment(g, views, &in->colors[u], false);
    const rg__resource *depth = NULL;
    if (in->has_depth) {
        depth = &g->decl.resources[in->depth.resource];
        out->depth = instance_attachment(g, views, &in->depth, true);
    }
    rendering_info(first, in->color_count, depth, out);
}

/* A folded span's attachment (compile_fold.c): its resolve target as the
 * attachment, with its load op, clear value and resolve mode, stored (the
 * implicit resolve writes it); one folded in place as declared, with the
 * resolve mode its format allows, as every single-sampled attachment of a
 * folded rendering needs one (VUID-VkRenderingAttachmentInfo-None-12256). */
static VkRenderingAttachmentInfo folded_attachment(const rg_graph *g, const rg__span_views *sv,
                                                   const rg_attachment *a, uint32_t slot, uint32_t resolve_slot,
                                                   VkImageLayout layout)
{
    const rg__resource *r = &g->decl.resources[rg__texture_index(g, a->texture)];
    if (!rg__folded(g, rg__texture_index(g, a->texture))) {
        VkRenderingAttachmentInfo info = attachment_info(sv, a, slot, resolve_slot, layout, layout);
        rg_format_numeric n = rg_format_get_info(r->format).numeric;
        bool float_color = !(r->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) &&
                           n != RG_FORMAT_UINT && n != RG_FORMAT_SINT;
        info.resolveMode = float_color ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
        info.resolveImageLayout = layout;
        return info;
    }
    return (VkRenderingAttachmentInfo){
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = sv->views[resolve_slot],
        .imageLayout = layout,
        .loadOp = a->load,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = a->clear,
        /* How the samples resolve as it is stored, into the view itself
         * (VUID-VkRenderingAttachmentInfo-imageView-06861, -06862). */
        .resolveMode = a->resolve_mode,
        .resolveImageLayout = layout,
    };
}

static void folded_rendering(const rg_graph *g, const rg__span_views *sv, uint32_t s, rg_span_rendering *out)
{
    const rg__span *span = &g->decl.spans[s];
    const rg_rendering_desc *d = &span->desc;
    for (uint32_t c = 0; c < d->color_count; c++)
        out->colors[c] = folded_attachment(g, sv, &d->colors[c], c, RG__SLOT_RESOLVE(c),
                                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    const rg__resource *depth = NULL;
    if (d->depth.texture.id) {
        depth = &g->decl.resources[rg__texture_index(g, d->depth.texture)];
        out->depth = folded_attachment(g, sv, &d->depth, RG__SLOT_DEPTH, RG__SLOT_DEPTH_RESOLVE,
                                       VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    }
    rendering_info(span, d->color_count, depth, out);
    out->fold = (VkMultisampledRenderToSingleSampledInfoEXT){
        .sType = VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT,
        .multisampledRenderToSingleSampledEnable = VK_TRUE,
        .rasterizationSamples = (VkSampleCountFlagBits)g->compiled->fold.span_samples[s],
    };
    out->info.pNext = &out->fold;
}

void rg__span_rendering(const rg_graph *g, const rg__span_views *views, uint32_t s, rg_span_rendering *out)
{
    const rg__span *span = &g->decl.spans[s];
    const rg__instance *in = &g->compiled->merge.instances[g->compiled->merge.span_map[s].instance];
    out->continues = g->compiled->merge.instance_spans[in->first] != s;
    out->ends = g->compiled->merge.instance_spans[in->first + in->count - 1] == s;
    out->begin = (rg_command){rg__make_id(g, span->begin_cmd)};
    out->end = (rg_command){rg__make_id(g, span->end_cmd)};
    if (in->count > 1) {
        instance_rendering(g, views, in, out);
        return;
    }
    if (g->compiled->fold.span_samples[s]) {
        folded_rendering(g, &views[s], s, out);
        return;
    }
    const rg_rendering_desc *d = &span->desc;
    const rg__span_views *sv = &views[s];
    for (uint32_t c = 0; c < d->color_count; c++)
        out->colors[c] = attachment_info(sv, &d->colors[c], c, RG__SLOT_RESOLVE(c),
                                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    const rg__resource *depth = NULL;
    if (d->depth.texture.id) {
        depth = &g->decl.resources[rg__texture_index(g, d->depth.texture)];
        VkImageLayout layout = d->depth_read_only ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                                  : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        out->depth = attachment_info(sv, &d->depth, RG__SLOT_DEPTH, RG__SLOT_DEPTH_RESOLVE, layout,
                                     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    }
    rendering_info(span, d->color_count, depth, out);
}
