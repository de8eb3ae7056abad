/* Execute: records the compiled frame. Everything it needs was sized at
 * compile and placement; a frame allocates nothing. */
#include "graph_internal.h"

#include <string.h>

struct rg_record_context {
    rg_graph *graph;
    VkCommandBuffer cmd;
};

VkCommandBuffer rg_record_cmd(const rg_record_context *rc) { return rc ? rc->cmd : VK_NULL_HANDLE; }

VkImage rg_record_image(const rg_record_context *rc, rg_texture t)
{
    uint32_t i = rc ? rg__texture_index(rc->graph, t) : RG_NONE;
    return i == RG_NONE ? VK_NULL_HANDLE : rc->graph->resources[i].image;
}

VkImageView rg_record_view(const rg_record_context *rc, rg_texture t)
{
    uint32_t i = rc ? rg__texture_index(rc->graph, t) : RG_NONE;
    return i == RG_NONE ? VK_NULL_HANDLE : rc->graph->resources[i].view;
}

VkBuffer rg_record_buffer(const rg_record_context *rc, rg_buffer b)
{
    uint32_t i = rc ? rg__buffer_index(rc->graph, b) : RG_NONE;
    return i == RG_NONE ? VK_NULL_HANDLE : rc->graph->resources[i].buffer;
}

static void record_barriers(rg_graph *g, VkCommandBuffer cmd, uint32_t point)
{
    uint32_t first = g->point_start[point], end = g->point_start[point + 1];
    if (first == end)
        return;
    VkMemoryBarrier2 memory = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 };
    uint32_t images = 0, buffers = 0, memories = 0;
    for (uint32_t i = first; i < end; i++) {
        const rg_barrier_info *b = &g->barriers[i];
        const rg_resource *tex = b->texture.id ? &g->resources[rg__texture_index(g, b->texture)] : NULL;
        const rg_resource *buf = b->buffer.id ? &g->resources[rg__buffer_index(g, b->buffer)] : NULL;
        if (tex && tex->image) {
            const rg_resource *r = tex;
            g->scratch_image_barriers[images++] = (VkImageMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                .srcStageMask = b->src_stage,
                .srcAccessMask = b->src_access,
                .dstStageMask = b->dst_stage,
                .dstAccessMask = b->dst_access,
                .oldLayout = b->old_layout,
                .newLayout = b->new_layout,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = r->image,
                .subresourceRange = { b->range.aspect, b->range.base_mip, b->range.mip_count, b->range.base_layer,
                                      b->range.layer_count },
            };
        } else if (buf && buf->buffer && !buf->pooled) {
            const rg_resource *r = buf;
            g->scratch_buffer_barriers[buffers++] = (VkBufferMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                .srcStageMask = b->src_stage,
                .srcAccessMask = b->src_access,
                .dstStageMask = b->dst_stage,
                .dstAccessMask = b->dst_access,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .buffer = r->buffer,
                .offset = 0,
                .size = VK_WHOLE_SIZE,
            };
        } else {
            /* Global memory barriers fold into one. A pooled buffer's
             * barriers go here too: a buffer barrier only covers accesses
             * made through that buffer, not through the resources that held
             * its memory before. So do an unused import's without an object
             * (imports_ready allows them only without a layout change). */
            memory.srcStageMask |= b->src_stage;
            memory.srcAccessMask |= b->src_access;
            memory.dstStageMask |= b->dst_stage;
            memory.dstAccessMask |= b->dst_access;
            memories = 1;
        }
    }
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = memories,
        .pMemoryBarriers = &memory,
        .bufferMemoryBarrierCount = buffers,
        .pBufferMemoryBarriers = g->scratch_buffer_barriers,
        .imageMemoryBarrierCount = images,
        .pImageMemoryBarriers = g->scratch_image_barriers,
    };
    vkCmdPipelineBarrier2(cmd, &dep);
}

/* The layout a transfer command declared for its i-th access. */
static VkImageLayout access_layout(const rg_graph *g, const rg_cmd_rec *c, uint32_t i)
{
    return g->accesses[c->first_access + i].layout;
}

static const rg_resource *access_resource(const rg_graph *g, const rg_cmd_rec *c, uint32_t i)
{
    return &g->resources[g->accesses[c->first_access + i].resource];
}

static uint32_t mip_extent(uint32_t size, uint32_t mip)
{
    size >>= mip;
    return size ? size : 1;
}

/* The span's stored attachment has its resolve mode resolved at
 * declaration; the views are the slots' (views.c). */
static VkRenderingAttachmentInfo attachment_info(const rg_attachment *a, VkImageView view, VkImageView resolve_view,
                                                 VkImageLayout layout, bool depth)
{
    VkRenderingAttachmentInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = view,
        .imageLayout = layout,
        .loadOp = a->load,
        .storeOp = a->store,
        .clearValue = a->clear,
    };
    if (a->resolve.id) {
        info.resolveMode = a->resolve_mode;
        info.resolveImageView = resolve_view;
        info.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        if (depth)
            info.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    }
    return info;
}

static void begin_rendering(rg_graph *g, VkCommandBuffer cmd, uint32_t s)
{
    const rg_span *span = &g->spans[s];
    const rg_rendering_desc *d = &span->desc;
    const rg_span_views *sv = &g->span_views[s];
    VkRenderingAttachmentInfo colors[8];
    for (uint32_t c = 0; c < d->color_count; c++)
        colors[c] = attachment_info(&d->colors[c], sv->views[c], sv->views[8 + c],
                                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, false);
    VkRenderingAttachmentInfo depth = { 0 };
    bool has_depth = false, has_stencil = false;
    if (d->depth.texture.id) {
        const rg_resource *r = &g->resources[rg__texture_index(g, d->depth.texture)];
        VkImageLayout layout = d->depth_read_only ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                                  : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        depth = attachment_info(&d->depth, sv->views[RG_SPAN_VIEW_DEPTH], sv->views[RG_SPAN_VIEW_DEPTH_RESOLVE],
                                layout, true);
        has_depth = (r->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0;
        has_stencil = (r->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0;
    }
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = span->area,
        .layerCount = span->layer_count,
        .colorAttachmentCount = d->color_count,
        .pColorAttachments = colors,
        .pDepthAttachment = has_depth ? &depth : NULL,
        .pStencilAttachment = has_stencil ? &depth : NULL,
    };
    vkCmdBeginRendering(cmd, &ri);
    /* The whole render area as the default viewport and scissor: draws
     * that want others set their own. */
    VkViewport vp = { (float)span->area.offset.x, (float)span->area.offset.y, (float)span->area.extent.width,
                      (float)span->area.extent.height, 0.0f, 1.0f };
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &span->area);
}

static void record_transfer(rg_graph *g, VkCommandBuffer cmd, const rg_cmd_rec *c)
{
    switch (c->type) {
    case RG_CMD_COPY_BUFFER: {
        VkBufferCopy region = { c->u.copy_buffer.src_offset, c->u.copy_buffer.dst_offset, c->u.copy_buffer.size };
        vkCmdCopyBuffer(cmd, access_resource(g, c, 0)->buffer, access_resource(g, c, 1)->buffer, 1, &region);
        break;
    }
    case RG_CMD_COPY_BUFFER_TO_TEXTURE:
    case RG_CMD_COPY_TEXTURE_TO_BUFFER: {
        bool to_texture = c->type == RG_CMD_COPY_BUFFER_TO_TEXTURE;
        uint32_t ti = to_texture ? 1 : 0;
        const rg_resource *tex = access_resource(g, c, ti);
        const rg_resource *buf = access_resource(g, c, 1 - ti);
        VkBufferImageCopy region = {
            .bufferOffset = c->u.copy_image.offset,
            .imageSubresource = { tex->aspects, c->u.copy_image.mip, c->u.copy_image.layer,
                                  c->u.copy_image.layer_count },
            .imageExtent = { mip_extent(tex->width, c->u.copy_image.mip), mip_extent(tex->height, c->u.copy_image.mip),
                             1 },
        };
        if (to_texture)
            vkCmdCopyBufferToImage(cmd, buf->buffer, tex->image, access_layout(g, c, ti), 1, &region);
        else
            vkCmdCopyImageToBuffer(cmd, tex->image, access_layout(g, c, ti), buf->buffer, 1, &region);
        break;
    }
    case RG_CMD_CLEAR: {
        const rg_resource *tex = access_resource(g, c, 0);
        const rg_range *r = &c->u.clear.range;
        VkImageSubresourceRange range = { r->aspect, r->base_mip, r->mip_count, r->base_layer, r->layer_count };
        if (r->aspect & VK_IMAGE_ASPECT_COLOR_BIT)
            vkCmdClearColorImage(cmd, tex->image, access_layout(g, c, 0), &c->u.clear.value.color, 1, &range);
        else
            vkCmdClearDepthStencilImage(cmd, tex->image, access_layout(g, c, 0), &c->u.clear.value.depthStencil, 1,
                                        &range);
        break;
    }
    case RG_CMD_BLIT: {
        const rg_resource *src = access_resource(g, c, 0), *dst = access_resource(g, c, 1);
        uint32_t layers = src->array_layers < dst->array_layers ? src->array_layers : dst->array_layers;
        VkImageBlit region = {
            .srcSubresource = { src->aspects, c->u.blit.src_mip, 0, layers },
            .srcOffsets = { { 0, 0, 0 },
                            { (int32_t)mip_extent(src->width, c->u.blit.src_mip),
                              (int32_t)mip_extent(src->height, c->u.blit.src_mip), 1 } },
            .dstSubresource = { dst->aspects, c->u.blit.dst_mip, 0, layers },
            .dstOffsets = { { 0, 0, 0 },
                            { (int32_t)mip_extent(dst->width, c->u.blit.dst_mip),
                              (int32_t)mip_extent(dst->height, c->u.blit.dst_mip), 1 } },
        };
        vkCmdBlitImage(cmd, src->image, access_layout(g, c, 0), dst->image, access_layout(g, c, 1), 1, &region,
                       c->u.blit.filter);
        break;
    }
    default:
        break;
    }
}

/* Imports' Vulkan objects are set per frame: a used import needs its
 * object, and so does an unused texture import whose final layout differs
 * from its initial one (the transition names the image). An unused import
 * without an object gets its barriers as global memory barriers
 * (record_barriers). Checked before anything is recorded. */
static rg_result imports_ready(rg_graph *g)
{
    for (uint32_t i = 0; i < g->resource_count; i++) {
        const rg_resource *r = &g->resources[i];
        if (!r->imported || (r->is_texture ? r->image != VK_NULL_HANDLE : r->buffer != VK_NULL_HANDLE))
            continue;
        if (r->first_use != RG_NONE)
            return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: imported %s '%s' has no Vulkan object",
                            r->is_texture ? "texture" : "buffer", r->name);
        if (r->is_texture && r->final_layout != VK_IMAGE_LAYOUT_UNDEFINED && r->final_layout != r->initial_layout)
            return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: imported texture '%s' has no VkImage, and its "
                            "final transition (layout %d to %d) needs one", r->name, (int)r->initial_layout,
                            (int)r->final_layout);
    }
    return RG_SUCCESS;
}

static rg_result execute(rg_graph *g, VkCommandBuffer cmd)
{
    if (cmd == VK_NULL_HANDLE)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: no command buffer");
    if (!g->ctx)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_execute: graph '%s' was created without a device", g->name);
    if (!g->compiled)
        return rg__fail(g, RG_ERROR_NOT_COMPILED, "rg_execute: graph '%s' is not compiled", g->name);
    if (g->placed && g->placed_hash != g->compiled_hash)
        rg__placement_free(g); /* a new declaration: the old memory does not fit */
    rg_result res = rg__place(g);
    if (res != RG_SUCCESS)
        return res;
    g->placed_hash = g->compiled_hash;
    res = imports_ready(g);
    if (res == RG_SUCCESS)
        res = rg__views_bind(g);
    if (res != RG_SUCCESS)
        return res;
    rg_record_context rc = { g, cmd };
    uint32_t open_span = RG_NONE;
    for (uint32_t p = 0; p < g->order_count; p++) {
        record_barriers(g, cmd, p);
        const rg_cmd_rec *c = &g->cmds[g->order[p]];
        switch (c->type) {
        case RG_CMD_USER:
            if (!c->u.user.record(&rc, c->u.user.user)) {
                /* Never leave the command buffer inside a rendering instance. */
                if (open_span != RG_NONE)
                    vkCmdEndRendering(cmd);
                return rg__fail(g, RG_ERROR_CALLBACK, "rg_execute: command '%s' failed to record", c->name);
            }
            break;
        case RG_CMD_BEGIN_RENDERING:
            begin_rendering(g, cmd, c->span);
            open_span = c->span;
            break;
        case RG_CMD_END_RENDERING:
            vkCmdEndRendering(cmd);
            open_span = RG_NONE;
            break;
        default:
            record_transfer(g, cmd, c);
            break;
        }
    }
    record_barriers(g, cmd, g->order_count);
    return RG_SUCCESS;
}

rg_result rg_execute(rg_graph *g, VkCommandBuffer cmd)
{
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    bool clean = g->error == RG_SUCCESS;
    rg_result res = execute(g, cmd);
    /* A failure while executing (memory, a callback) is this frame's, not
     * the declaration's: the message stays readable, but the graph is not
     * poisoned, so the next execute (or compile) can succeed. */
    if (res != RG_SUCCESS && clean)
        g->error = RG_SUCCESS;
    return res;
}
