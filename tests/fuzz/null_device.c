/* The null device (null_device.h): fake Vulkan entry points behind
 * rg_device_create, and per command buffer a log of the calls recorded
 * into it. Dispatchable handles are pointers to this file's structs cast
 * to the Vulkan handle types (the device, instance and physical device to
 * the null_device, a queue to its slot, a command buffer to its log); the
 * others are numbers that say their kind and their index per kind, printed
 * in the logs as "image3", "view7", ... so two recordings of one placement
 * compare as text. */
#include "null_device.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- objects */

typedef enum nd_object {
    OBJ_NONE,
    OBJ_IMAGE,
    OBJ_VIEW,
    OBJ_BUFFER,
    OBJ_MEMORY,
    OBJ_SEMAPHORE,
    OBJ_QUERY_POOL,
    OBJ_EVENT,
    OBJ_KINDS,
} nd_object;

static const char *const object_names[OBJ_KINDS] = {"?",      "image",     "view",      "buffer",
                                                    "memory", "semaphore", "querypool", "event"};

/* A handle: its kind in the high 32 bits, its index + 1 in the low. */
static uint64_t make_handle(nd_object kind, uint32_t index) { return (uint64_t)kind << 32 | (index + 1u); }
static nd_object handle_kind(uint64_t h) { return (h >> 32) < OBJ_KINDS ? (nd_object)(h >> 32) : OBJ_NONE; }
static uint32_t handle_index(uint64_t h) { return (uint32_t)h - 1u; }

#define HANDLE(type, h) ((type)(uintptr_t)(h))
#define RAW(h) ((uint64_t)(uintptr_t)(h))

typedef struct nd_image {
    bool alive;
    nd_image_info info;
} nd_image;

typedef struct nd_view {
    bool alive;
    VkImage image;
    VkImageSubresourceRange range;
} nd_view;

typedef struct nd_queue {
    struct null_device *nd;
    uint32_t family;
} nd_queue;

struct null_device {
    rg_device *rg;
    VkPhysicalDeviceMemoryProperties memory;
    nd_queue queues[RG_QUEUE_COUNT];
    uint32_t count[OBJ_KINDS]; /* objects made per kind (the next index) */
    nd_image *images;
    uint32_t image_cap;
    nd_view *views;
    uint32_t view_cap;
    VkCommandBuffer *submitted;
    uint32_t submitted_count, submitted_cap;
};

/* The log of one command buffer. */
typedef struct nd_cmd {
    null_device *nd;
    nd_call *calls;
    uint32_t count, cap;
    nd_image_use *uses;
    uint32_t use_count, use_cap;
} nd_cmd;

static null_device *dev_of(VkDevice d) { return (null_device *)(void *)d; }
static nd_cmd *cmd_of(VkCommandBuffer c) { return (nd_cmd *)(void *)c; }

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, (size_t)n * size);
    if (!q) {
        fprintf(stderr, "null_device: out of memory\n");
        abort();
    }
    memset((char *)q + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *cap = n;
    return q;
}

static uint64_t new_object(null_device *nd, nd_object kind) { return make_handle(kind, nd->count[kind]++); }

static uint64_t new_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers)
{
    uint64_t h = new_object(nd, OBJ_IMAGE);
    uint32_t i = handle_index(h);
    nd->images = grow(nd->images, &nd->image_cap, i + 1, sizeof *nd->images);
    rg_format_info fi = rg_format_get_info(format);
    nd->images[i] = (nd_image){
        true, {i, format, mips ? mips : 1, layers ? layers : 1, fi.aspects ? fi.aspects : VK_IMAGE_ASPECT_COLOR_BIT}};
    return h;
}

static uint64_t new_view(null_device *nd, VkImage image, VkImageSubresourceRange range)
{
    uint64_t h = new_object(nd, OBJ_VIEW);
    uint32_t i = handle_index(h);
    nd->views = grow(nd->views, &nd->view_cap, i + 1, sizeof *nd->views);
    nd->views[i] = (nd_view){true, image, range};
    return h;
}

static const nd_image *image_of(const null_device *nd, uint64_t h)
{
    if (handle_kind(h) != OBJ_IMAGE || handle_index(h) >= nd->count[OBJ_IMAGE] || !nd->images[handle_index(h)].alive)
        return NULL;
    return &nd->images[handle_index(h)];
}

static const nd_view *view_of(const null_device *nd, uint64_t h)
{
    if (handle_kind(h) != OBJ_VIEW || handle_index(h) >= nd->count[OBJ_VIEW] || !nd->views[handle_index(h)].alive)
        return NULL;
    return &nd->views[handle_index(h)];
}

/* A handle as the logs print it: "image3", "view7", "0" for none, the raw
 * number for one this device never made. */
const char *null_handle_name(uint64_t h, char *buf, size_t size)
{
    nd_object k = handle_kind(h);
    if (h == 0)
        snprintf(buf, size, "0");
    else if (k == OBJ_NONE)
        snprintf(buf, size, "0x%llx", (unsigned long long)h);
    else
        snprintf(buf, size, "%s%u", object_names[k], handle_index(h));
    return buf;
}

/* The same in rotating buffers, so a call can print a few. */
static const char *hname(uint64_t h)
{
    static char bufs[8][40];
    static unsigned next;
    return null_handle_name(h, bufs[next++ % 8], sizeof bufs[0]);
}

/* ------------------------------------------------------------ text lines */

typedef struct sb {
    char *s;
    size_t len, cap;
} sb;

static void sb_add(sb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sb_add(sb *b, const char *fmt, ...)
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
static nd_call *add_call(nd_cmd *c, nd_kind kind, sb *text)
{
    c->calls = grow(c->calls, &c->cap, c->count + 1, sizeof *c->calls);
    nd_call *call = &c->calls[c->count++];
    *call = (nd_call){.kind = kind, .text = text->s ? text->s : calloc(1, 1), .first_use = c->use_count};
    text->s = NULL;
    return call;
}

static void add_use(nd_cmd *c, nd_call *call, nd_image_use u)
{
    c->uses = grow(c->uses, &c->use_cap, c->use_count + 1, sizeof *c->uses);
    c->uses[c->use_count++] = u;
    call->use_count++;
}

/* A use of an image by handle; VK_NULL_HANDLE when the device holds no
 * such image. */
static void use_image(nd_cmd *c, nd_call *call, VkImage image, VkImageSubresourceRange range, VkImageLayout layout)
{
    uint64_t h = RAW(image);
    add_use(c, call, (nd_image_use){image_of(c->nd, h) ? image : VK_NULL_HANDLE, range, layout, layout, false, h});
}

/* A use through a view: its image and range, aspects as the attachment
 * reads them. */
static void use_view(nd_cmd *c, nd_call *call, VkImageView view, VkImageAspectFlags aspects, VkImageLayout layout)
{
    uint64_t h = RAW(view);
    const nd_view *v = view_of(c->nd, h);
    nd_image_use u = {VK_NULL_HANDLE, {aspects, 0, 1, 0, 1}, layout, layout, false, h};
    if (v && image_of(c->nd, RAW(v->image))) {
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
        sb_add(t, " | %s %llx/%llx -> %llx/%llx families %u -> %u [%llu+%llu]", hname(RAW(b->buffer)),
               (unsigned long long)b->srcStageMask, (unsigned long long)b->srcAccessMask,
               (unsigned long long)b->dstStageMask, (unsigned long long)b->dstAccessMask, b->srcQueueFamilyIndex,
               b->dstQueueFamilyIndex, (unsigned long long)b->offset, (unsigned long long)b->size);
    }
    for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++) {
        const VkImageMemoryBarrier2 *b = &d->pImageMemoryBarriers[i];
        sb_add(t, " | %s %llx/%llx -> %llx/%llx layout %d -> %d families %u -> %u %s", hname(RAW(b->image)),
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
                (nd_image_use){image_of(c->nd, h) ? b->image : VK_NULL_HANDLE, b->subresourceRange, b->oldLayout,
                               b->newLayout, true, h});
    }
}

static void VKAPI_CALL cmd_barrier(VkCommandBuffer cmd, const VkDependencyInfo *d)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "barrier ");
    dependency_text(&t, d);
    image_transitions(c, add_call(c, ND_BARRIER, &t), d);
}

static void attachment_text(sb *t, const char *what, const VkRenderingAttachmentInfo *a)
{
    const unsigned char *v = (const unsigned char *)&a->clearValue;
    sb_add(t, " | %s %s layout %d load %d store %d resolve %x %s layout %d clear ", what, hname(RAW(a->imageView)),
           (int)a->imageLayout, (int)a->loadOp, (int)a->storeOp, (unsigned)a->resolveMode,
           hname(RAW(a->resolveImageView)), (int)a->resolveImageLayout);
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
    nd_call *call = add_call(c, ND_BEGIN, &t);
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
    add_call(cmd_of(cmd), ND_END, &t);
}

static void VKAPI_CALL cmd_viewport(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkViewport *v)
{
    sb t = {0};
    sb_add(&t, "viewport %u count %u", first, count);
    for (uint32_t i = 0; i < count; i++)
        sb_add(&t, " | %g,%g %gx%g depth %g-%g", (double)v[i].x, (double)v[i].y, (double)v[i].width,
               (double)v[i].height, (double)v[i].minDepth, (double)v[i].maxDepth);
    nd_call *call = add_call(cmd_of(cmd), ND_VIEWPORT, &t);
    if (count)
        call->viewport = v[0];
}

static void VKAPI_CALL cmd_scissor(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkRect2D *r)
{
    sb t = {0};
    sb_add(&t, "scissor %u count %u", first, count);
    for (uint32_t i = 0; i < count; i++)
        sb_add(&t, " | %d,%d %ux%u", r[i].offset.x, r[i].offset.y, r[i].extent.width, r[i].extent.height);
    nd_call *call = add_call(cmd_of(cmd), ND_SCISSOR, &t);
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
    add_call(cmd_of(cmd), ND_LOCATIONS, &t);
}

static void VKAPI_CALL cmd_inputs(VkCommandBuffer cmd, const VkRenderingInputAttachmentIndexInfoKHR *in)
{
    sb t = {0};
    sb_add(&t, "inputs %u:", in->colorAttachmentCount);
    indices(&t, in->colorAttachmentCount, in->pColorAttachmentInputIndices);
    sb_add(&t, " depth %d stencil %d", in->pDepthInputAttachmentIndex ? (int)*in->pDepthInputAttachmentIndex : -2,
           in->pStencilInputAttachmentIndex ? (int)*in->pStencilInputAttachmentIndex : -2);
    add_call(cmd_of(cmd), ND_INPUTS, &t);
}

static void VKAPI_CALL cmd_label_begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT *label)
{
    sb t = {0};
    sb_add(&t, "label ");
    sb_escaped(&t, label->pLabelName);
    add_call(cmd_of(cmd), ND_LABEL_BEGIN, &t);
}

static void VKAPI_CALL cmd_label_end(VkCommandBuffer cmd)
{
    sb t = {0};
    sb_add(&t, "label end");
    add_call(cmd_of(cmd), ND_LABEL_END, &t);
}

static void VKAPI_CALL cmd_copy_buffer(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint32_t n,
                                       const VkBufferCopy *r)
{
    sb t = {0};
    sb_add(&t, "copy buffer %s -> %s regions %u", hname(RAW(src)), hname(RAW(dst)), n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %llu -> %llu size %llu", (unsigned long long)r[i].srcOffset, (unsigned long long)r[i].dstOffset,
               (unsigned long long)r[i].size);
    add_call(cmd_of(cmd), ND_COPY_BUFFER, &t);
}

static void image_copy(VkCommandBuffer cmd, nd_kind kind, VkBuffer buffer, VkImage image, VkImageLayout layout,
                       uint32_t n, const VkBufferImageCopy *r)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "%s buffer %s image %s layout %d regions %u",
           kind == ND_COPY_TO_IMAGE ? "copy to image" : "copy to buffer", hname(RAW(buffer)), hname(RAW(image)),
           (int)layout, n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | offset %llu row %u height %u %s at %d,%d,%d size %ux%ux%u",
               (unsigned long long)r[i].bufferOffset, r[i].bufferRowLength, r[i].bufferImageHeight,
               layers_of(&r[i].imageSubresource), r[i].imageOffset.x, r[i].imageOffset.y, r[i].imageOffset.z,
               r[i].imageExtent.width, r[i].imageExtent.height, r[i].imageExtent.depth);
    nd_call *call = add_call(c, kind, &t);
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
    sb_add(&t, "blit %s layout %d -> %s layout %d filter %d regions %u", hname(RAW(src)), (int)src_layout,
           hname(RAW(dst)), (int)dst_layout, (int)filter, n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s %d,%d,%d-%d,%d,%d -> %s %d,%d,%d-%d,%d,%d", layers_of(&r[i].srcSubresource),
               r[i].srcOffsets[0].x, r[i].srcOffsets[0].y, r[i].srcOffsets[0].z, r[i].srcOffsets[1].x,
               r[i].srcOffsets[1].y, r[i].srcOffsets[1].z, layers_of(&r[i].dstSubresource), r[i].dstOffsets[0].x,
               r[i].dstOffsets[0].y, r[i].dstOffsets[0].z, r[i].dstOffsets[1].x, r[i].dstOffsets[1].y,
               r[i].dstOffsets[1].z);
    nd_call *call = add_call(c, ND_BLIT, &t);
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
    sb_add(&t, "clear color %s layout %d value %08x %08x %08x %08x ranges %u", hname(RAW(image)), (int)layout,
           v->uint32[0], v->uint32[1], v->uint32[2], v->uint32[3], n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s", subresources(&r[i]));
    clear_uses(c, add_call(c, ND_CLEAR_COLOR, &t), image, layout, n, r);
}

static void VKAPI_CALL cmd_clear_depth(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                       const VkClearDepthStencilValue *v, uint32_t n, const VkImageSubresourceRange *r)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    uint32_t depth;
    memcpy(&depth, &v->depth, sizeof depth);
    sb_add(&t, "clear depth %s layout %d value %08x %u ranges %u", hname(RAW(image)), (int)layout, depth, v->stencil,
           n);
    for (uint32_t i = 0; i < n; i++)
        sb_add(&t, " | %s", subresources(&r[i]));
    clear_uses(c, add_call(c, ND_CLEAR_DEPTH, &t), image, layout, n, r);
}

static void VKAPI_CALL cmd_reset_queries(VkCommandBuffer cmd, VkQueryPool pool, uint32_t first, uint32_t count)
{
    sb t = {0};
    sb_add(&t, "reset queries %s %u+%u", hname(RAW(pool)), first, count);
    add_call(cmd_of(cmd), ND_RESET_QUERIES, &t);
}

static void VKAPI_CALL cmd_timestamp(VkCommandBuffer cmd, VkPipelineStageFlags2 stage, VkQueryPool pool, uint32_t query)
{
    sb t = {0};
    sb_add(&t, "timestamp %llx %s %u", (unsigned long long)stage, hname(RAW(pool)), query);
    add_call(cmd_of(cmd), ND_TIMESTAMP, &t);
}

static void VKAPI_CALL cmd_set_event(VkCommandBuffer cmd, VkEvent event, const VkDependencyInfo *d)
{
    nd_cmd *c = cmd_of(cmd);
    sb t = {0};
    sb_add(&t, "set event %s ", hname(RAW(event)));
    dependency_text(&t, d);
    image_transitions(c, add_call(c, ND_SET_EVENT, &t), d);
}

/* ------------------------------------------------ device and instance */

static VkResult VKAPI_CALL allocate_memory(VkDevice d, const VkMemoryAllocateInfo *ai, const VkAllocationCallbacks *a,
                                           VkDeviceMemory *out)
{
    (void)ai, (void)a;
    *out = HANDLE(VkDeviceMemory, new_object(dev_of(d), OBJ_MEMORY));
    return VK_SUCCESS;
}

static void VKAPI_CALL free_memory(VkDevice d, VkDeviceMemory m, const VkAllocationCallbacks *a)
{
    (void)d, (void)m, (void)a;
}

static VkResult VKAPI_CALL create_buffer(VkDevice d, const VkBufferCreateInfo *ci, const VkAllocationCallbacks *a,
                                         VkBuffer *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkBuffer, new_object(dev_of(d), OBJ_BUFFER));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_buffer(VkDevice d, VkBuffer b, const VkAllocationCallbacks *a)
{
    (void)d, (void)b, (void)a;
}

static VkResult VKAPI_CALL create_image(VkDevice d, const VkImageCreateInfo *ci, const VkAllocationCallbacks *a,
                                        VkImage *out)
{
    (void)a;
    *out = HANDLE(VkImage, new_image(dev_of(d), ci->format, ci->mipLevels, ci->arrayLayers));
    return VK_SUCCESS;
}

/* A destroyed image or view stays in the tables, marked dead: a later call
 * naming it is logged as one the device does not hold. */
static void VKAPI_CALL destroy_image(VkDevice d, VkImage image, const VkAllocationCallbacks *a)
{
    (void)a;
    null_device *nd = dev_of(d);
    if (image_of(nd, RAW(image)))
        nd->images[handle_index(RAW(image))].alive = false;
}

static VkResult VKAPI_CALL create_view(VkDevice d, const VkImageViewCreateInfo *ci, const VkAllocationCallbacks *a,
                                       VkImageView *out)
{
    (void)a;
    *out = HANDLE(VkImageView, new_view(dev_of(d), ci->image, ci->subresourceRange));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_view(VkDevice d, VkImageView view, const VkAllocationCallbacks *a)
{
    (void)a;
    null_device *nd = dev_of(d);
    if (view_of(nd, RAW(view)))
        nd->views[handle_index(RAW(view))].alive = false;
}

static VkResult VKAPI_CALL bind_buffers(VkDevice d, uint32_t n, const VkBindBufferMemoryInfo *b)
{
    (void)d, (void)n, (void)b;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL bind_images(VkDevice d, uint32_t n, const VkBindImageMemoryInfo *b)
{
    (void)d, (void)n, (void)b;
    return VK_SUCCESS;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return v > UINT64_MAX - a ? UINT64_MAX : (v + a - 1) / a * a; }

static uint32_t all_types(const null_device *nd)
{
    uint32_t n = nd->memory.memoryTypeCount;
    return n >= 32 ? UINT32_MAX : (1u << n) - 1u;
}

static void requirements(const null_device *nd, uint64_t size, uint64_t alignment, VkMemoryRequirements2 *out)
{
    out->memoryRequirements = (VkMemoryRequirements){align_up(size ? size : 1, alignment), alignment, all_types(nd)};
    for (VkBaseOutStructure *n = out->pNext; n; n = n->pNext)
        if (n->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
            VkMemoryDedicatedRequirements *ded = (VkMemoryDedicatedRequirements *)n;
            ded->prefersDedicatedAllocation = ded->requiresDedicatedAllocation = VK_FALSE;
        }
}

static void VKAPI_CALL buffer_requirements(VkDevice d, const VkDeviceBufferMemoryRequirements *q,
                                           VkMemoryRequirements2 *out)
{
    requirements(dev_of(d), q->pCreateInfo->size, 256, out);
}

/* Texel blocks of every mip, times layers and samples. */
static void VKAPI_CALL image_requirements(VkDevice d, const VkDeviceImageMemoryRequirements *q,
                                          VkMemoryRequirements2 *out)
{
    const VkImageCreateInfo *ci = q->pCreateInfo;
    rg_format_info fi = rg_format_get_info(ci->format);
    uint64_t block = fi.block_size ? fi.block_size : 16, bw = fi.block_width ? fi.block_width : 1,
             bh = fi.block_height ? fi.block_height : 1, size = 0;
    for (uint32_t m = 0; m < ci->mipLevels && m < 32; m++) {
        uint64_t w = ci->extent.width >> m ? ci->extent.width >> m : 1,
                 h = ci->extent.height >> m ? ci->extent.height >> m : 1;
        uint64_t bytes = sat_mul(sat_mul((w + bw - 1) / bw, (h + bh - 1) / bh), block);
        bytes = sat_mul(sat_mul(bytes, ci->arrayLayers ? ci->arrayLayers : 1), ci->samples ? ci->samples : 1);
        size = size > UINT64_MAX - bytes ? UINT64_MAX : size + bytes;
    }
    requirements(dev_of(d), size, 4096, out);
}

static VkResult VKAPI_CALL create_semaphore(VkDevice d, const VkSemaphoreCreateInfo *ci, const VkAllocationCallbacks *a,
                                            VkSemaphore *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkSemaphore, new_object(dev_of(d), OBJ_SEMAPHORE));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_semaphore(VkDevice d, VkSemaphore s, const VkAllocationCallbacks *a)
{
    (void)d, (void)s, (void)a;
}

/* Remembers the command buffers, in order, for null_device_take_submitted. */
static VkResult VKAPI_CALL queue_submit(VkQueue queue, uint32_t n, const VkSubmitInfo2 *infos, VkFence fence)
{
    (void)fence;
    null_device *nd = ((nd_queue *)(void *)queue)->nd;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < infos[i].commandBufferInfoCount; k++) {
            nd->submitted = grow(nd->submitted, &nd->submitted_cap, nd->submitted_count + 1, sizeof *nd->submitted);
            nd->submitted[nd->submitted_count++] = infos[i].pCommandBufferInfos[k].commandBuffer;
        }
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL create_query_pool(VkDevice d, const VkQueryPoolCreateInfo *ci,
                                             const VkAllocationCallbacks *a, VkQueryPool *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkQueryPool, new_object(dev_of(d), OBJ_QUERY_POOL));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_query_pool(VkDevice d, VkQueryPool p, const VkAllocationCallbacks *a)
{
    (void)d, (void)p, (void)a;
}

/* Every query reads 0 and available. */
static VkResult VKAPI_CALL query_results(VkDevice d, VkQueryPool pool, uint32_t first, uint32_t count, size_t size,
                                         void *data, VkDeviceSize stride, VkQueryResultFlags flags)
{
    (void)d, (void)pool, (void)first;
    size_t word = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
    for (uint32_t i = 0; i < count; i++) {
        unsigned char *q = (unsigned char *)data + (size_t)i * stride;
        if ((size_t)i * stride + 2 * word > size)
            break;
        memset(q, 0, word);
        if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) {
            uint64_t one = 1;
            uint32_t one32 = 1;
            memcpy(q + word, word == 8 ? (const void *)&one : (const void *)&one32, word);
        }
    }
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL create_event(VkDevice d, const VkEventCreateInfo *ci, const VkAllocationCallbacks *a,
                                        VkEvent *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkEvent, new_object(dev_of(d), OBJ_EVENT));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_event(VkDevice d, VkEvent e, const VkAllocationCallbacks *a)
{
    (void)d, (void)e, (void)a;
}

/* The GPU is done at once: every event set, every semaphore signalled,
 * every fence too. */
static VkResult VKAPI_CALL event_status(VkDevice d, VkEvent e)
{
    (void)d, (void)e;
    return VK_EVENT_SET;
}

static VkResult VKAPI_CALL reset_event(VkDevice d, VkEvent e)
{
    (void)d, (void)e;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL semaphore_value(VkDevice d, VkSemaphore s, uint64_t *value)
{
    (void)d, (void)s;
    *value = UINT64_MAX;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL fence_status(VkDevice d, VkFence f)
{
    (void)d, (void)f;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL set_object_name(VkDevice d, const VkDebugUtilsObjectNameInfoEXT *info)
{
    (void)d, (void)info;
    return VK_SUCCESS;
}

/* Physical-device queries: Vulkan 1.3, limits a desktop GPU has. */
static void VKAPI_CALL physical_properties(VkPhysicalDevice pd, VkPhysicalDeviceProperties *p)
{
    (void)pd;
    memset(p, 0, sizeof *p);
    p->apiVersion = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
    p->driverVersion = 1;
    p->deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    snprintf(p->deviceName, sizeof p->deviceName, "null device (tests/fuzz)");
    VkPhysicalDeviceLimits *l = &p->limits;
    l->maxImageDimension2D = 16384;
    l->maxImageArrayLayers = 2048;
    l->maxColorAttachments = RG_MAX_COLOR_ATTACHMENTS;
    l->maxPerStageDescriptorInputAttachments = 8;
    l->maxFramebufferWidth = l->maxFramebufferHeight = 16384;
    l->maxFramebufferLayers = 2048;
    l->maxViewports = 16;
    l->maxViewportDimensions[0] = l->maxViewportDimensions[1] = 16384;
    l->timestampComputeAndGraphics = VK_TRUE;
    l->timestampPeriod = 1.0f;
    l->framebufferColorSampleCounts = l->framebufferDepthSampleCounts = l->framebufferStencilSampleCounts = 0x7F;
    l->nonCoherentAtomSize = 64;
    l->bufferImageGranularity = 1024;
}

static void VKAPI_CALL physical_properties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *p)
{
    physical_properties(pd, &p->properties);
    for (VkBaseOutStructure *n = p->pNext; n; n = n->pNext) {
        if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES) {
            VkPhysicalDeviceDriverProperties *d = (VkPhysicalDeviceDriverProperties *)n;
            d->driverID = VK_DRIVER_ID_MESA_LLVMPIPE;
            snprintf(d->driverName, sizeof d->driverName, "null");
        } else if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES) {
            VkPhysicalDeviceDepthStencilResolveProperties *r = (VkPhysicalDeviceDepthStencilResolveProperties *)n;
            r->supportedDepthResolveModes = r->supportedStencilResolveModes =
                VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT |
                VK_RESOLVE_MODE_MAX_BIT;
            r->independentResolveNone = r->independentResolve = VK_TRUE;
        } else if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES) {
            ((VkPhysicalDeviceMaintenance4Properties *)n)->maxBufferSize = 1ull << 40;
        }
    }
}

static void VKAPI_CALL physical_memory(VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties *p)
{
    *p = ((null_device *)(void *)pd)->memory;
}

/* Every format can do everything (what the harness declares is placed). */
static void VKAPI_CALL format_properties(VkPhysicalDevice pd, VkFormat f, VkFormatProperties *p)
{
    (void)pd, (void)f;
    p->linearTilingFeatures = p->optimalTilingFeatures = UINT32_MAX;
    p->bufferFeatures = UINT32_MAX;
}

static VkResult VKAPI_CALL image_format_properties(VkPhysicalDevice pd, VkFormat f, VkImageType type,
                                                   VkImageTiling tiling, VkImageUsageFlags usage,
                                                   VkImageCreateFlags flags, VkImageFormatProperties *p)
{
    (void)pd, (void)type, (void)tiling, (void)usage, (void)flags;
    if (rg_format_get_info(f).block_size == 0)
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    *p = (VkImageFormatProperties){{16384, 16384, 1}, 15, 2048, 0x7F, 1ull << 40};
    return VK_SUCCESS;
}

static void VKAPI_CALL queue_families(VkPhysicalDevice pd, uint32_t *count, VkQueueFamilyProperties *p)
{
    (void)pd;
    static const VkQueueFlags flags[RG_QUEUE_COUNT] = {
        VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
        VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, VK_QUEUE_TRANSFER_BIT};
    if (!p) {
        *count = RG_QUEUE_COUNT;
        return;
    }
    if (*count > RG_QUEUE_COUNT)
        *count = RG_QUEUE_COUNT;
    for (uint32_t i = 0; i < *count; i++)
        p[i] = (VkQueueFamilyProperties){flags[i], 1, 64, {1, 1, 1}};
}

typedef struct proc {
    const char *name;
    PFN_vkVoidFunction fn;
} proc;

#define PROC(name, fn)                 \
    {                                  \
        name, (PFN_vkVoidFunction)(fn) \
    }

static const proc device_procs[] = {
    PROC("vkAllocateMemory", allocate_memory),
    PROC("vkFreeMemory", free_memory),
    PROC("vkCreateBuffer", create_buffer),
    PROC("vkDestroyBuffer", destroy_buffer),
    PROC("vkCreateImage", create_image),
    PROC("vkDestroyImage", destroy_image),
    PROC("vkCreateImageView", create_view),
    PROC("vkDestroyImageView", destroy_view),
    PROC("vkBindBufferMemory2", bind_buffers),
    PROC("vkBindImageMemory2", bind_images),
    PROC("vkGetDeviceBufferMemoryRequirements", buffer_requirements),
    PROC("vkGetDeviceImageMemoryRequirements", image_requirements),
    PROC("vkCreateSemaphore", create_semaphore),
    PROC("vkDestroySemaphore", destroy_semaphore),
    PROC("vkQueueSubmit2", queue_submit),
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
    PROC("vkCreateQueryPool", create_query_pool),
    PROC("vkDestroyQueryPool", destroy_query_pool),
    PROC("vkCmdResetQueryPool", cmd_reset_queries),
    PROC("vkCmdWriteTimestamp2", cmd_timestamp),
    PROC("vkGetQueryPoolResults", query_results),
    PROC("vkCreateEvent", create_event),
    PROC("vkDestroyEvent", destroy_event),
    PROC("vkCmdSetEvent2", cmd_set_event),
    PROC("vkGetEventStatus", event_status),
    PROC("vkResetEvent", reset_event),
    PROC("vkGetSemaphoreCounterValue", semaphore_value),
    PROC("vkGetFenceStatus", fence_status),
    PROC("vkCmdSetRenderingAttachmentLocationsKHR", cmd_locations),
    PROC("vkCmdSetRenderingInputAttachmentIndicesKHR", cmd_inputs),
};

static PFN_vkVoidFunction find(const proc *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

static PFN_vkVoidFunction VKAPI_CALL device_proc(VkDevice d, const char *name)
{
    (void)d;
    return find(device_procs, sizeof device_procs / sizeof device_procs[0], name);
}

/* One physical device: the null device itself. */
static VKAPI_ATTR VkResult VKAPI_CALL enumerate_physical(VkInstance instance, uint32_t *count, VkPhysicalDevice *out)
{
    if (out && *count >= 1)
        out[0] = (VkPhysicalDevice)(void *)instance;
    else if (out)
        return VK_INCOMPLETE;
    *count = 1;
    return VK_SUCCESS;
}

static const proc instance_procs[] = {
    PROC("vkGetDeviceProcAddr", device_proc),
    PROC("vkEnumeratePhysicalDevices", enumerate_physical),
    PROC("vkGetPhysicalDeviceProperties", physical_properties),
    PROC("vkGetPhysicalDeviceProperties2", physical_properties2),
    PROC("vkGetPhysicalDeviceMemoryProperties", physical_memory),
    PROC("vkGetPhysicalDeviceFormatProperties", format_properties),
    PROC("vkGetPhysicalDeviceImageFormatProperties", image_format_properties),
    PROC("vkGetPhysicalDeviceQueueFamilyProperties", queue_families),
    PROC("vkSetDebugUtilsObjectNameEXT", set_object_name),
    PROC("vkCmdBeginDebugUtilsLabelEXT", cmd_label_begin),
    PROC("vkCmdEndDebugUtilsLabelEXT", cmd_label_end),
};

static PFN_vkVoidFunction VKAPI_CALL instance_proc(VkInstance instance, const char *name)
{
    (void)instance;
    return find(instance_procs, sizeof instance_procs / sizeof instance_procs[0], name);
}

/* ---------------------------------------------------------------- public */

null_device *null_device_create(const VkPhysicalDeviceMemoryProperties *memory, bool debug_utils)
{
    null_device *nd = calloc(1, sizeof *nd);
    if (!nd)
        return NULL;
    nd->memory = *memory;
    /* What a device made for the graph enables. */
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
        .dynamicRenderingLocalRead = VK_TRUE};
    VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &local_read, .timelineSemaphore = VK_TRUE};
    VkPhysicalDeviceVulkan13Features v13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pNext = &v12, .dynamicRendering = VK_TRUE,
                                            .synchronization2 = VK_TRUE};
    rg_device_desc desc = {
        .enabled_features = &v13,
        .instance = (VkInstance)(void *)nd,
        .physical_device = (VkPhysicalDevice)(void *)nd,
        .device = (VkDevice)(void *)nd,
        .get_instance_proc_addr = instance_proc,
        .api_version = VK_API_VERSION_1_3,
        .timeline_semaphore = true,
        .local_read = true,
        .debug_utils = debug_utils,
    };
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        nd->queues[q] = (nd_queue){nd, q};
        desc.queues[q] = (rg_device_queue){(VkQueue)(void *)&nd->queues[q], q};
    }
    if (rg_device_create(&desc, &nd->rg) != RG_SUCCESS) {
        free(nd);
        return NULL;
    }
    return nd;
}

void null_device_destroy(null_device *nd)
{
    if (!nd)
        return;
    rg_device_destroy(nd->rg);
    free(nd->images);
    free(nd->views);
    free(nd->submitted);
    free(nd);
}

rg_device *null_device_rg(const null_device *nd) { return nd->rg; }

VkImage null_device_app_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers, VkImageView *view)
{
    VkImage image = HANDLE(VkImage, new_image(nd, format, mips, layers));
    const nd_image *im = image_of(nd, RAW(image));
    *view =
        HANDLE(VkImageView,
               new_view(nd, image, (VkImageSubresourceRange){im->info.aspects, 0, im->info.mips, 0, im->info.layers}));
    return image;
}

VkBuffer null_device_app_buffer(null_device *nd) { return HANDLE(VkBuffer, new_object(nd, OBJ_BUFFER)); }

bool null_device_image(const null_device *nd, VkImage image, nd_image_info *out)
{
    const nd_image *im = image_of(nd, RAW(image));
    if (im && out)
        *out = im->info;
    return im != NULL;
}

uint32_t null_device_image_count(const null_device *nd) { return nd->count[OBJ_IMAGE]; }

const VkCommandBuffer *null_device_take_submitted(null_device *nd, uint32_t *count)
{
    *count = nd->submitted_count;
    nd->submitted_count = 0;
    return nd->submitted;
}

VkCommandBuffer null_cmd_create(null_device *nd)
{
    nd_cmd *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "null_device: out of memory\n");
        abort();
    }
    c->nd = nd;
    return (VkCommandBuffer)(void *)c;
}

void null_cmd_destroy(VkCommandBuffer cmd)
{
    nd_cmd *c = cmd_of(cmd);
    if (!c)
        return;
    for (uint32_t i = 0; i < c->count; i++)
        free(c->calls[i].text);
    free(c->calls);
    free(c->uses);
    free(c);
}

void null_cmd_note(VkCommandBuffer cmd, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    sb t = {0};
    sb_add(&t, "%s", line);
    add_call(cmd_of(cmd), ND_NOTE, &t);
}

const nd_call *null_cmd_calls(VkCommandBuffer cmd, uint32_t *count)
{
    *count = cmd_of(cmd)->count;
    return cmd_of(cmd)->calls;
}

const nd_image_use *null_cmd_uses(VkCommandBuffer cmd) { return cmd_of(cmd)->uses; }

const char *null_call_line(const nd_call *c, VkRenderingFlags flag_mask, char *buf, size_t size)
{
    if (c->kind == ND_BEGIN)
        snprintf(buf, size, "begin flags %x %s", (unsigned)(c->flags & flag_mask), c->text);
    else
        snprintf(buf, size, "%s", c->text);
    return buf;
}
