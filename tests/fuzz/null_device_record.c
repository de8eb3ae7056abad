/* The null device's recording functions (vkCmd*): each writes one line,
 * every field of the call, to its command buffer's log, with the image
 * subresources it transitions or uses (see null_device.h). */
#include "null_device_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void sb_add(sb *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap : 128) * 2;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            fprintf(stderr, "null_device: out of memory\n");
            abort();
        }
        b->s = s;
        b->cap = cap;
    }
}

/* Any bytes (a label's name): printable ASCII as is, the rest as \xNN. */
static void sb_escaped(sb *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\')
            sb_add(b, "%c", c);
        else
            sb_add(b, "\\x%02x", c);
    }
}

/* A new call of cmd, with its text (taken) and no uses yet. */
nd_call *nd_add_call(nd_cmd *c, nd_kind kind, sb *text)
{
    c->calls = nd_grow(c->calls, &c->cap, c->count + 1, sizeof *c->calls);
    nd_call *call = &c->calls[c->count++];
    *call = (nd_call){.kind = kind, .text = text->s ? text->s : calloc(1, 1), .first_use = c->use_count};
    text->s = NULL;
    return call;
}

static void add_use(nd_cmd *c, nd_call *call, nd_image_use u)
{
    c->uses = nd_grow(c->uses, &c->use_cap, c->use_count + 1, sizeof *c->uses);
    c->uses[c->use_count++] = u;
    call->use_count++;
}

/* A use of an image by handle; VK_NULL_HANDLE when the device holds no
 * such image. */
static void use_image(nd_cmd *c, nd_call *call, VkImage image, VkImageSubresourceRange range, VkImageLayout layout)
{
    uint64_t h = RAW(image);
    add_use(c, call, (nd_image_use){nd_image_of(c->nd, h) ? image : VK_NULL_HANDLE, range, layout, layout, false, h});
}

/* A use through a view: its image and range, aspects as the attachment
 * reads them. */
static void use_view(nd_cmd *c, nd_call *call, VkImageView view, VkImageAspectFlags aspects, VkImageLayout layout)
{
    uint64_t h = RAW(view);
    const nd_view *v = nd_view_of(c->nd, h);
    nd_image_use u = {VK_NULL_HANDLE, {aspects, 0, 1, 0, 1}, layout, layout, false, h};
    if (v && nd_image_of(c->nd, RAW(v->image))) {
        u.image = v->image;
        u.range = v->range;
        u.range.aspectMask &= aspects;
    }
    add_use(c, call, u);
}

static const char *subresources(const VkImageSubresourceRange *r)
{
    static char bufs[4][96];
    static unsigned next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "aspect %x mips %u+%u layers %u+%u", r->aspectMask, r->baseMipLevel, r->levelCount,
             r->baseArrayLayer, r->layerCount);
    return b;
}

static const char *layers_of(const VkImageSubresourceLayers *l)
{
    static char bufs[4][80];
    static unsigned next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "aspect %x mip %u layers %u+%u", l->aspectMask, l->mipLevel, l->baseArrayLayer,
             l->layerCount);
    return b;
}

static VkImageSubresourceRange range_of(const VkImageSubresourceLayers *l)
{
    return (VkImageSubresourceRange){l->aspectMask, l->mipLevel, 1, l->baseArrayLayer, l->layerCount};
}

/* --------------------------------------------------- recording functions */

static void dependency_text(sb *t, const VkDependencyInfo *d)
{
    sb_add(t, "flags %x memory %u buffers %u images %u next %s", (unsigned)d->dependencyFlags, d->memoryBarrierCount,
           d->bufferMemoryBarrierCount, d->imageMemoryBarrierCount, d->pNext ? "set" : "0");
    for (uint32_t i = 0; i < d->memoryBarrierCount; i++) {
        const VkMemoryBarrier2 *m = &d->pMemoryBarriers[i];
        sb_add(t, " | memory %llx/%llx -> %llx/%llx", (unsigned long long)m->srcStageMask,
               (unsigned long long)m->srcAccessMask, (unsigned long long)m->dstStageMask,
               (unsigned long long)m->dstAccessMask);
    }
    for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; i++) {
        const VkBufferMemoryBarrier2 *b = &d->pBufferMemoryBarriers[i];
        sb_add(t, " | %s %llx/%llx -> %llx/%llx families %u -> %u [%llu+%llu]", nd_hname(RAW(b->buffer)),
               (unsigned long long)b->srcStageMask, (unsigned long long)b->srcAccessMask,
               (unsigned long long)b->dstStageMask, (unsigned long long)b->dstAccessMask, b->srcQueueFamilyIndex,
               b->dstQueueFamilyIndex, (unsigned long long)b->offset, (unsigned long long)b->size);
    }
    for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++) {
        const VkImageMemoryBarrier2 *b = &d->pImageMemoryBarriers[i];
        sb_add(t, " | %s %llx/%llx -> %llx/%llx layout %d -> %d families %u -> %u %s", nd_hname(RAW(b->image)),
               (unsigned long long)b->srcStageMask, (unsigned long long)b->srcAccessMask,
               (unsigned long long)b->dstStageMask, (unsigned long long)b->dstAccessMask, (int)b->oldLayout,
               (int)b->newLayout, b->srcQueueFamilyIndex, b->dstQueueFamilyIndex, subresources(&b->subresourceRange));
    }
}

static void image_transitions(nd_cmd *c, nd_call *call, const VkDependencyInfo *d)
{
    for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++) {
        const VkImageMemoryBarrier2 *b = &d->pImageMemoryBarriers[i];
        uint64_t h = RAW(b->image);
        add_use(c, call,
                (nd_image_use){nd_image_of(c->nd, h) ? b->image : VK_NULL_HANDLE, b->subresourceRange, b->oldLayout,
                               b->newLayout, true, h});
    }
}

static void VKAPI_CALL cmd_barrier(VkCommandBuffer cmd, const VkDependencyInfo *d)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "barrier ");
    dependency_text(&t, d);
    image_transitions(c, nd_add_call(c, ND_BARRIER, &t), d);
}

static void attachment_text(sb *t, const char *what, const VkRenderingAttachmentInfo *a)
{
    const unsigned char *v = (const unsigned char *)&a->clearValue;
    sb_add(t, " | %s %s layout %d load %d store %d resolve %x %s layout %d clear ", what, nd_hname(RAW(a->imageView)),
           (int)a->imageLayout, (int)a->loadOp, (int)a->storeOp, (unsigned)a->resolveMode,
           nd_hname(RAW(a->resolveImageView)), (int)a->resolveImageLayout);
    for (size_t i = 0; i < sizeof a->clearValue; i++)
        sb_add(t, "%02x", v[i]);
    if (a->pNext)
        sb_add(t, " next set");
}

static void attachment_uses(nd_cmd *c, nd_call *call, const VkRenderingAttachmentInfo *a, VkImageAspectFlags aspects)
{
    if (a->imageView)
        use_view(c, call, a->imageView, aspects, a->imageLayout);
    if (a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveImageView)
        use_view(c, call, a->resolveImageView, aspects, a->resolveImageLayout);
}

static void VKAPI_CALL cmd_begin_rendering(VkCommandBuffer cmd, const VkRenderingInfo *ri)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "area %d,%d %ux%u layers %u view mask %x colors %u", ri->renderArea.offset.x, ri->renderArea.offset.y,
           ri->renderArea.extent.width, ri->renderArea.extent.height, ri->layerCount, ri->viewMask,
           ri->colorAttachmentCount);
    for (const VkBaseInStructure *n = ri->pNext; n; n = n->pNext)
        sb_add(&t, " next %d", (int)n->sType);
    for (uint32_t i = 0; i < ri->colorAttachmentCount; i++)
        attachment_text(&t, "color", &ri->pColorAttachments[i]);
    if (ri->pDepthAttachment)
        attachment_text(&t, "depth", ri->pDepthAttachment);
    if (ri->pStencilAttachment)
        attachment_text(&t, "stencil", ri->pStencilAttachment);
    nd_call *call = nd_add_call(c, ND_BEGIN, &t);
    call->flags = ri->flags;
    call->area = ri->renderArea;
    for (uint32_t i = 0; i < ri->colorAttachmentCount; i++)
        attachment_uses(c, call, &ri->pColorAttachments[i], VK_IMAGE_ASPECT_COLOR_BIT);
    if (ri->pDepthAttachment)
        attachment_uses(c, call, ri->pDepthAttachment, VK_IMAGE_ASPECT_DEPTH_BIT);
    if (ri->pStencilAttachment)
        attachment_uses(c, call, ri->pStencilAttachment, VK_IMAGE_ASPECT_STENCIL_BIT);
}

static void VKAPI_CALL cmd_end_rendering(VkCommandBuffer cmd)
{
    sb t = {0};
    sb_add(&t, "end");
    nd_add_call(cmd_of(cmd), ND_END, &t);
}

static void VKAPI_CALL cmd_viewport(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkViewport *v)
{
    sb t = {0};
    sb_add(&t, "viewport %u count %u", first, count);
    for (uint32_t i = 0; i < count; i++)
        sb_add(&t, " | %g,%g %gx%g depth %g-%g", (double)v[i].x, (double)v[i].y, (double)v[i].width,
               (double)v[i].height, (double)v[i].minDepth, (double)v[i].maxDepth);
    nd_call *call = nd_add_call(cmd_of(cmd), ND_VIEWPORT, &t);
    if (count)
        call->viewport = v[0];
}

static void VKAPI_CALL cmd_scissor(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkRect2D *r)
{
    sb t = {0};
    sb_add(&t, "scissor %u count %u", first, count);
    for (uint32_t i = 0; i < count; i++)
        sb_add(&t, " | %d,%d %ux%u", r[i].offset.x, r[i].offset.y, r[i].extent.width, r[i].extent.height);
    nd_call *call = nd_add_call(cmd_of(cmd), ND_SCISSOR, &t);
    if (count)
        call->area = r[0];
}

static void indices(sb *t, uint32_t n, const uint32_t *v)
{
    for (uint32_t i = 0; i < n; i++)
        sb_add(t, " %d", v ? (int)v[i] : -2);
}

static void VKAPI_CALL cmd_locations(VkCommandBuffer cmd, const VkRenderingAttachmentLocationInfoKHR *l)
{
    sb t = {0};
    sb_add(&t, "locations %u:", l->colorAttachmentCount);
    indices(&t, l->colorAttachmentCount, l->pColorAttachmentLocations);
    nd_add_call(cmd_of(cmd), ND_LOCATIONS, &t);
}

static void VKAPI_CALL cmd_inputs(VkCommandBuffer cmd, const VkRenderingInputAttachmentIndexInfoKHR *in)
{
    sb t = {0};
    sb_add(&t, "inputs %u:", in->colorAttachmentCount);
    indices(&t, in->colorAttachmentCount, in->pColorAttachmentInputIndices);
    sb_add(&t, " depth %d stencil %d", in->pDepthInputAttachmentIndex ? (int)*in->pDepthInputAttachmentIndex : -2,
           in->pStencilInputAttachmentIndex ? (int)*in->pStencilInputAttachmentIndex : -2);
    nd_add_call(cmd_of(cmd), ND_INPUTS, &t);
}

static void VKAPI_CALL cmd_label_begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT *label)
{
    sb t = {0};
    sb_add(&t, "label ");
    sb_escaped(&t, label->pLabelName);
    nd_add_call(cmd_of(cmd), ND_LABEL_BEGIN, &t);
}

static void VKAPI_CALL cmd_label_end(VkCommandBuffer cmd)
{
    sb t = {0};
    sb_add(&t, "label end");
    nd_add_call(cmd_of(cmd), ND_LABEL_END, &t);
}

static void VKAPI_CALL cmd_copy_buffer(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint32_t n,
                                       const VkBufferCopy *r)
{
    sb t = {0};
    sb_add(&t, "copy buffer %s -> %s regions %u", nd_hname(RAW(src)), nd_hname(RAW(dst)), n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %llu -> %llu size %llu", (unsigned long long)r[i].srcOffset, (unsigned long long)r[i].dstOffset,
               (unsigned long long)r[i].size);
    nd_add_call(cmd_of(cmd), ND_COPY_BUFFER, &t);
}

static void image_copy(VkCommandBuffer cmd, nd_kind kind, VkBuffer buffer, VkImage image, VkImageLayout layout,
                       uint32_t n, const VkBufferImageCopy *r)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "%s buffer %s image %s layout %d regions %u",
           kind == ND_COPY_TO_IMAGE ? "copy to image" : "copy to buffer", nd_hname(RAW(buffer)), nd_hname(RAW(image)),
           (int)layout, n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | offset %llu row %u height %u %s at %d,%d,%d size %ux%ux%u",
               (unsigned long long)r[i].bufferOffset, r[i].bufferRowLength, r[i].bufferImageHeight,
               layers_of(&r[i].imageSubresource), r[i].imageOffset.x, r[i].imageOffset.y, r[i].imageOffset.z,
               r[i].imageExtent.width, r[i].imageExtent.height, r[i].imageExtent.depth);
    nd_call *call = nd_add_call(c, kind, &t);
    for (uint32_t i = 0; i < n; i++)
        use_image(c, call, image, range_of(&r[i].imageSubresource), layout);
}

static void VKAPI_CALL cmd_copy_to_image(VkCommandBuffer cmd, VkBuffer src, VkImage dst, VkImageLayout layout,
                                         uint32_t n, const VkBufferImageCopy *r)
{
    image_copy(cmd, ND_COPY_TO_IMAGE, src, dst, layout, n, r);
}

static void VKAPI_CALL cmd_copy_to_buffer(VkCommandBuffer cmd, VkImage src, VkImageLayout layout, VkBuffer dst,
                                          uint32_t n, const VkBufferImageCopy *r)
{
    image_copy(cmd, ND_COPY_TO_BUFFER, dst, src, layout, n, r);
}

static void VKAPI_CALL cmd_blit(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout, VkImage dst,
                                VkImageLayout dst_layout, uint32_t n, const VkImageBlit *r, VkFilter filter)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "blit %s layout %d -> %s layout %d filter %d regions %u", nd_hname(RAW(src)), (int)src_layout,
           nd_hname(RAW(dst)), (int)dst_layout, (int)filter, n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s %d,%d,%d-%d,%d,%d -> %s %d,%d,%d-%d,%d,%d", layers_of(&r[i].srcSubresource),
               r[i].srcOffsets[0].x, r[i].srcOffsets[0].y, r[i].srcOffsets[0].z, r[i].srcOffsets[1].x,
               r[i].srcOffsets[1].y, r[i].srcOffsets[1].z, layers_of(&r[i].dstSubresource), r[i].dstOffsets[0].x,
               r[i].dstOffsets[0].y, r[i].dstOffsets[0].z, r[i].dstOffsets[1].x, r[i].dstOffsets[1].y,
               r[i].dstOffsets[1].z);
    nd_call *call = nd_add_call(c, ND_BLIT, &t);
    for (uint32_t i = 0; i < n; i++) {
        use_image(c, call, src, range_of(&r[i].srcSubresource), src_layout);
        use_image(c, call, dst, range_of(&r[i].dstSubresource), dst_layout);
    }
}

static void clear_uses(nd_cmd *c, nd_call *call, VkImage image, VkImageLayout layout, uint32_t n,
                       const VkImageSubresourceRange *r)
{
    for (uint32_t i = 0; i < n; i++)
        use_image(c, call, image, r[i], layout);
}

static void VKAPI_CALL cmd_clear_color(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                       const VkClearColorValue *v, uint32_t n, const VkImageSubresourceRange *r)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "clear color %s layout %d value %08x %08x %08x %08x ranges %u", nd_hname(RAW(image)), (int)layout,
           v->uint32[0], v->uint32[1], v->uint32[2], v->uint32[3], n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s", subresources(&r[i]));
    clear_uses(c, nd_add_call(c, ND_CLEAR_COLOR, &t), image, layout, n, r);
}

static void VKAPI_CALL cmd_clear_depth(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                       const VkClearDepthStencilValue *v, uint32_t n, const VkImageSubresourceRange *r)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    uint32_t depth;
    memcpy(&depth, &v->depth, sizeof depth);
    sb_add(&t, "clear depth %s layout %d value %08x %u ranges %u", nd_hname(RAW(image)), (int)layout, depth, v->stencil,
           n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s", subresources(&r[i]));
    clear_uses(c, nd_add_call(c, ND_CLEAR_DEPTH, &t), image, layout, n, r);
}

static void VKAPI_CALL cmd_reset_queries(VkCommandBuffer cmd, VkQueryPool pool, uint32_t first, uint32_t count)
{
    sb t = {0};
    sb_add(&t, "reset queries %s %u+%u", nd_hname(RAW(pool)), first, count);
    nd_add_call(cmd_of(cmd), ND_RESET_QUERIES, &t);
}

static void VKAPI_CALL cmd_timestamp(VkCommandBuffer cmd, VkPipelineStageFlags2 stage, VkQueryPool pool, uint32_t query)
{
    sb t = {0};
    sb_add(&t, "timestamp %llx %s %u", (unsigned long long)stage, nd_hname(RAW(pool)), query);
    nd_add_call(cmd_of(cmd), ND_TIMESTAMP, &t);
}

static void VKAPI_CALL cmd_set_event(VkCommandBuffer cmd, VkEvent event, const VkDependencyInfo *d)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "set event %s ", nd_hname(RAW(event)));
    dependency_text(&t, d);
    image_transitions(c, nd_add_call(c, ND_SET_EVENT, &t), d);
}

/* The recording functions by name: vkCmd* through vkGetDeviceProcAddr, the
 * debug-utils labels (instance-level) through vkGetInstanceProcAddr. */
static const proc record_procs[] = {
    PROC("vkCmdPipelineBarrier2", cmd_barrier),
    PROC("vkCmdBeginRendering", cmd_begin_rendering),
    PROC("vkCmdEndRendering", cmd_end_rendering),
    PROC("vkCmdSetViewport", cmd_viewport),
    PROC("vkCmdSetScissor", cmd_scissor),
    PROC("vkCmdCopyBuffer", cmd_copy_buffer),
    PROC("vkCmdCopyBufferToImage", cmd_copy_to_image),
    PROC("vkCmdCopyImageToBuffer", cmd_copy_to_buffer),
    PROC("vkCmdBlitImage", cmd_blit),
    PROC("vkCmdClearColorImage", cmd_clear_color),
    PROC("vkCmdClearDepthStencilImage", cmd_clear_depth),
    PROC("vkCmdResetQueryPool", cmd_reset_queries),
    PROC("vkCmdWriteTimestamp2", cmd_timestamp),
    PROC("vkCmdSetEvent2", cmd_set_event),
    PROC("vkCmdSetRenderingAttachmentLocationsKHR", cmd_locations),
    PROC("vkCmdSetRenderingInputAttachmentIndicesKHR", cmd_inputs),
};

static const proc label_procs[] = {
    PROC("vkCmdBeginDebugUtilsLabelEXT", cmd_label_begin),
    PROC("vkCmdEndDebugUtilsLabelEXT", cmd_label_end),
};

PFN_vkVoidFunction nd_record_proc(const char *name, bool instance)
{
    if (instance)
        return nd_find_proc(label_procs, sizeof label_procs / sizeof label_procs[0], name);
    return nd_find_proc(record_procs, sizeof record_procs / sizeof record_procs[0], name);
}
