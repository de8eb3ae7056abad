/* The memoryless rules MoltenVK enforces, reported as errors through the
 * application's debug-utils messengers (message id VKGRAPH-tile-memoryless):
 * a lazy attachment is never loaded or stored at vkCmdBeginRendering; a lazy
 * image is never copied, blitted or cleared outside rendering; and never
 * bound to a descriptor that reads or writes memory (sampled, combined,
 * storage), since its contents exist only in tile memory during a pass.
 * Input attachments are tile reads, allowed, as is an attachment in
 * VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR read through one inside its
 * rendering instance. Descriptor update templates: templates.c. With
 * VKGRAPH_TILE_MOLTENVK=1, also MoltenVK's local-read rule (the end of this
 * file): a lazy attachment's contents do not survive a barrier inside
 * dynamic rendering. */
#include "layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t view_image(device_data *d, VkImageView view)
{
    uint64_t image = 0;
    pthread_mutex_lock(&d->lock);
    if (!view || !tile_map_get(&d->views, (uint64_t)view, &image))
        image = 0;
    pthread_mutex_unlock(&d->lock);
    return image;
}

/* The memoryless rule: a lazy attachment's contents exist only on the tile,
 * so it can be neither loaded nor stored. */
static void check_attachment(device_data *d, const VkRenderingAttachmentInfo *a, const char *what, uint32_t index)
{
    if (!a || !a->imageView)
        return;
    uint64_t image = view_image(d, a->imageView);
    if (!tile_image_is_lazy(d, image))
        return;
    const char *op = a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD     ? "loadOp LOAD"
                     : a->storeOp == VK_ATTACHMENT_STORE_OP_STORE ? "storeOp STORE"
                                                                  : NULL;
    if (!op)
        return;
    char text[512];
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] vkCmdBeginRendering: %s attachment %u (VkImage 0x%llx) is bound to LAZILY_ALLOCATED "
             "(memoryless) memory but uses %s; a lazy attachment's contents exist only in tile memory, so it "
             "must be cleared or DONT_CARE and never stored (" LAYER_NAME ")",
             what, index, (unsigned long long)image, op);
    tile_report_error(d->instance, text);
}

static void begin_pass(device_data *d, VkCommandBuffer cmd, const VkRenderingInfo *info);

VKAPI_ATTR void VKAPI_CALL tile_CmdBeginRendering(VkCommandBuffer cmd, const VkRenderingInfo *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
        check_attachment(d, &info->pColorAttachments[i], "color", i);
    check_attachment(d, info->pDepthAttachment, "depth", 0);
    check_attachment(d, info->pStencilAttachment, "stencil", 0);
    tile_profile_begin(d, info);
    if (d->moltenvk)
        begin_pass(d, cmd, info);
    d->begin_rendering(cmd, info);
}

/* A lazy image has no memory outside a render pass: copies, blits and
 * clears outside rendering have nothing to read or write. */
static void check_transfer(device_data *d, VkImage image, const char *command)
{
    if (!tile_image_is_lazy(d, (uint64_t)image))
        return;
    char text[512];
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] %s: VkImage 0x%llx is bound to LAZILY_ALLOCATED (memoryless) memory, which exists "
             "only in tile memory during a render pass: it cannot be copied, blitted or cleared outside one "
             "(" LAYER_NAME ")",
             command, (unsigned long long)(uint64_t)image);
    tile_report_error(d->instance, text);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout,
                                                    VkImage dst, VkImageLayout dst_layout, uint32_t count,
                                                    const VkImageCopy *regions)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, src, "vkCmdCopyImage (source)");
    check_transfer(d, dst, "vkCmdCopyImage (destination)");
    d->copy_image(cmd, src, src_layout, dst, dst_layout, count, regions);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage2(VkCommandBuffer cmd, const VkCopyImageInfo2 *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, info->srcImage, "vkCmdCopyImage2 (source)");
    check_transfer(d, info->dstImage, "vkCmdCopyImage2 (destination)");
    d->copy_image2(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer(VkCommandBuffer cmd, VkImage src, VkImageLayout layout,
                                                            VkBuffer dst, uint32_t count,
                                                            const VkBufferImageCopy *regions)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, src, "vkCmdCopyImageToBuffer");
    d->copy_image_to_buffer(cmd, src, layout, dst, count, regions);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer2(VkCommandBuffer cmd, const VkCopyImageToBufferInfo2 *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, info->srcImage, "vkCmdCopyImageToBuffer2");
    d->copy_image_to_buffer2(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage(VkCommandBuffer cmd, VkBuffer src, VkImage dst,
                                                            VkImageLayout layout, uint32_t count,
                                                            const VkBufferImageCopy *regions)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, dst, "vkCmdCopyBufferToImage");
    d->copy_buffer_to_image(cmd, src, dst, layout, count, regions);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage2(VkCommandBuffer cmd, const VkCopyBufferToImageInfo2 *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, info->dstImage, "vkCmdCopyBufferToImage2");
    d->copy_buffer_to_image2(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout,
                                                    VkImage dst, VkImageLayout dst_layout, uint32_t count,
                                                    const VkImageBlit *regions, VkFilter filter)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, src, "vkCmdBlitImage (source)");
    check_transfer(d, dst, "vkCmdBlitImage (destination)");
    d->blit_image(cmd, src, src_layout, dst, dst_layout, count, regions, filter);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage2(VkCommandBuffer cmd, const VkBlitImageInfo2 *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, info->srcImage, "vkCmdBlitImage2 (source)");
    check_transfer(d, info->dstImage, "vkCmdBlitImage2 (destination)");
    d->blit_image2(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdClearColorImage(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                                          const VkClearColorValue *color, uint32_t count,
                                                          const VkImageSubresourceRange *ranges)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, image, "vkCmdClearColorImage");
    d->clear_color(cmd, image, layout, color, count, ranges);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdClearDepthStencilImage(VkCommandBuffer cmd, VkImage image,
                                                                 VkImageLayout layout,
                                                                 const VkClearDepthStencilValue *value,
                                                                 uint32_t count, const VkImageSubresourceRange *ranges)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_transfer(d, image, "vkCmdClearDepthStencilImage");
    d->clear_depth(cmd, image, layout, value, count, ranges);
}

/* Descriptor types whose use reads or writes the image's memory. */
bool tile_descriptor_needs_memory(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
           type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
}

void tile_check_descriptor(device_data *d, const char *command, uint32_t index, uint32_t binding, uint32_t element,
                           VkDescriptorType type, VkImageView view)
{
    uint64_t image = view_image(d, view);
    if (!tile_image_is_lazy(d, image))
        return;
    char text[512];
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] %s: write %u, binding %u, element %u: VkImage 0x%llx is bound to LAZILY_ALLOCATED "
             "(memoryless) memory, which exists only in tile memory during a render pass; it cannot be used "
             "through a descriptor of type %d (only as an input attachment) (" LAYER_NAME ")",
             command, index, binding, element, (unsigned long long)image, (int)type);
    tile_report_error(d->instance, text);
}

static void check_writes(device_data *d, uint32_t count, const VkWriteDescriptorSet *writes, const char *command)
{
    for (uint32_t w = 0; w < count; w++) {
        if (!tile_descriptor_needs_memory(writes[w].descriptorType) || !writes[w].pImageInfo)
            continue;
        for (uint32_t i = 0; i < writes[w].descriptorCount; i++)
            tile_check_descriptor(d, command, w, writes[w].dstBinding, writes[w].dstArrayElement + i,
                                  writes[w].descriptorType, writes[w].pImageInfo[i].imageView);
    }
}

VKAPI_ATTR void VKAPI_CALL tile_UpdateDescriptorSets(VkDevice device, uint32_t write_count,
                                                     const VkWriteDescriptorSet *writes, uint32_t copy_count,
                                                     const VkCopyDescriptorSet *copies)
{
    device_data *d = tile_find_device(tile_key(device));
    check_writes(d, write_count, writes, "vkUpdateDescriptorSets");
    d->update_descriptor_sets(device, write_count, writes, copy_count, copies);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdPushDescriptorSetKHR(VkCommandBuffer cmd, VkPipelineBindPoint bind_point,
                                                        VkPipelineLayout layout, uint32_t set, uint32_t count,
                                                        const VkWriteDescriptorSet *writes)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_writes(d, count, writes, "vkCmdPushDescriptorSetKHR");
    d->push_descriptor_set(cmd, bind_point, layout, set, count, writes);
}

/* ------------------------------------------------ MoltenVK: local read */

/* MoltenVK (since its VK_KHR_dynamic_rendering_local_read support) records
 * a local-read barrier, vkCmdPipelineBarrier or vkCmdPipelineBarrier2 inside
 * a dynamic rendering instance, by ending the Metal render pass and starting
 * another: every attachment is stored and loaded again, except memoryless
 * ones, which are DontCare on both sides. A lazy attachment's contents do
 * not survive the barrier there, though they do on every other driver. With
 * VKGRAPH_TILE_MOLTENVK=1 the layer follows each command buffer's rendering
 * instance and reports a lazy attachment that holds contents at such a
 * barrier (cleared by its loadOp, or written by a draw while mapped to a
 * color location, or the depth or stencil attachment of a draw) and is in
 * use at a draw after it: a color attachment mapped to a location or to an
 * input attachment index (vkCmdSetRenderingAttachmentLocationsKHR and
 * vkCmdSetRenderingInputAttachmentIndicesKHR; both default to the
 * attachment's own index), or the depth or stencil attachment. Draws are
 * vkCmdDraw, its indexed and indirect forms and vkCmdExecuteCommands (the
 * secondaries' own draws are not seen). */

typedef enum contents_kind {
    CONTENTS_NONE,
    CONTENTS_CLEARED, /* loadOp CLEAR */
    CONTENTS_DRAWN,   /* a draw wrote it */
    CONTENTS_RESUMED, /* a resumed instance's: what the suspended one left, unseen by the layer */
} contents_kind;

typedef struct pass_attachment {
    uint64_t image;         /* the lazy image; 0: not lazy, not followed */
    uint32_t location;      /* color: its location, VK_ATTACHMENT_UNUSED for none */
    uint32_t input;         /* color: its input attachment index, VK_ATTACHMENT_UNUSED for none */
    contents_kind contents; /* what it holds now */
    contents_kind carried;  /* what it held at a local-read barrier, until a draw uses it */
} pass_attachment;

typedef struct pass_state {
    const char *barrier; /* the command of the latest local-read barrier */
    uint32_t color_count;
    pass_attachment depth, stencil;
    pass_attachment colors[];
} pass_state;

void tile_moltenvk_reset(device_data *d)
{
    const char *v = getenv("VKGRAPH_TILE_MOLTENVK");
    d->moltenvk = v && strcmp(v, "1") == 0;
}

static void free_pass(uint64_t value)
{
    free((void *)(uintptr_t)value);
}

void tile_moltenvk_clear(device_data *d)
{
    for (uint32_t b = 0; b < TILE_MAP_BUCKETS; b++) {
        for (tile_map_entry *e = d->names.buckets[b]; e; e = e->next)
            free((void *)(uintptr_t)e->value);
        for (tile_map_entry *e = d->passes.buckets[b]; e; e = e->next)
            free_pass(e->value);
    }
    tile_map_clear(&d->names);
    tile_map_clear(&d->passes);
}

void tile_forget_name(device_data *d, VkImage image)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    if (tile_map_get(&d->names, (uint64_t)image, &v))
        tile_map_remove(&d->names, (uint64_t)image);
    pthread_mutex_unlock(&d->lock);
    free((void *)(uintptr_t)v);
}

/* Image names, for the reports: the application's debug-utils names. */
VKAPI_ATTR VkResult VKAPI_CALL tile_SetDebugUtilsObjectNameEXT(VkDevice device,
                                                               const VkDebugUtilsObjectNameInfoEXT *info)
{
    device_data *d = tile_find_device(tile_key(device));
    if (d->moltenvk && info->objectType == VK_OBJECT_TYPE_IMAGE && info->objectHandle) {
        tile_forget_name(d, (VkImage)info->objectHandle);
        size_t len = info->pObjectName ? strlen(info->pObjectName) : 0;
        char *name = len ? malloc(len + 1) : NULL;
        if (name) {
            memcpy(name, info->pObjectName, len + 1);
            pthread_mutex_lock(&d->lock);
            if (!tile_map_put(&d->names, info->objectHandle, (uint64_t)(uintptr_t)name)) {
                free(name); /* out of host memory: reports give the handle alone */
            }
            pthread_mutex_unlock(&d->lock);
        }
    }
    return d->set_object_name(device, info);
}

/* Replaces cmd's rendering instance state with p (NULL: none). */
static void set_pass(device_data *d, VkCommandBuffer cmd, pass_state *p)
{
    uint64_t old = 0;
    pthread_mutex_lock(&d->lock);
    if (tile_map_get(&d->passes, (uint64_t)(uintptr_t)cmd, &old))
        tile_map_remove(&d->passes, (uint64_t)(uintptr_t)cmd);
    if (p && !tile_map_put(&d->passes, (uint64_t)(uintptr_t)cmd, (uint64_t)(uintptr_t)p)) {
        free(p); /* out of host memory: this instance goes unchecked */
    }
    pthread_mutex_unlock(&d->lock);
    free_pass(old);
}

/* A command buffer is recorded by one thread at a time: its state is read
 * and changed without the lock once found. */
static pass_state *get_pass(device_data *d, VkCommandBuffer cmd)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    if (!tile_map_get(&d->passes, (uint64_t)(uintptr_t)cmd, &v))
        v = 0;
    pthread_mutex_unlock(&d->lock);
    return (pass_state *)(uintptr_t)v;
}

static void follow(device_data *d, pass_attachment *a, const VkRenderingAttachmentInfo *info, bool resumed)
{
    if (!info || !info->imageView)
        return;
    uint64_t image = view_image(d, info->imageView);
    if (!tile_image_is_lazy(d, image))
        return;
    a->image = image;
    a->contents = resumed                                       ? CONTENTS_RESUMED
                  : info->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR ? CONTENTS_CLEARED
                                                                : CONTENTS_NONE;
}

/* Starts following a rendering instance that has a lazy attachment. */
static void begin_pass(device_data *d, VkCommandBuffer cmd, const VkRenderingInfo *info)
{
    pass_state *p = calloc(1, sizeof *p + info->colorAttachmentCount * sizeof p->colors[0]);
    if (!p) {
        set_pass(d, cmd, NULL);
        return;
    }
    bool resumed = info->flags & VK_RENDERING_RESUMING_BIT;
    bool lazy = false;
    p->color_count = info->colorAttachmentCount;
    for (uint32_t i = 0; i < p->color_count; i++) {
        p->colors[i].location = p->colors[i].input = i;
        follow(d, &p->colors[i], &info->pColorAttachments[i], resumed);
        lazy |= p->colors[i].image != 0;
    }
    follow(d, &p->depth, info->pDepthAttachment, resumed);
    follow(d, &p->stencil, info->pStencilAttachment, resumed);
    /* One depth/stencil image: followed once, holding what either aspect holds. */
    if (p->stencil.image && p->stencil.image == p->depth.image) {
        if (p->depth.contents == CONTENTS_NONE)
            p->depth.contents = p->stencil.contents;
        p->stencil.image = 0;
    }
    lazy |= p->depth.image || p->stencil.image;
    if (!lazy) {
        free(p);
        p = NULL;
    }
    set_pass(d, cmd, p);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_BeginCommandBuffer(VkCommandBuffer cmd, const VkCommandBufferBeginInfo *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    if (d->moltenvk)
        set_pass(d, cmd, NULL); /* a rendering instance left open by an abandoned recording */
    return d->begin_command_buffer(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdEndRendering(VkCommandBuffer cmd)
{
    device_data *d = tile_find_device(tile_key(cmd));
    if (d->moltenvk)
        set_pass(d, cmd, NULL);
    d->end_rendering(cmd);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdSetRenderingAttachmentLocationsKHR(VkCommandBuffer cmd,
                                                                      const VkRenderingAttachmentLocationInfoKHR *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    pass_state *p = d->moltenvk ? get_pass(d, cmd) : NULL;
    for (uint32_t i = 0; p && i < info->colorAttachmentCount && i < p->color_count; i++)
        p->colors[i].location = info->pColorAttachmentLocations ? info->pColorAttachmentLocations[i] : i;
    d->set_locations(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL
tile_CmdSetRenderingInputAttachmentIndicesKHR(VkCommandBuffer cmd, const VkRenderingInputAttachmentIndexInfoKHR *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    pass_state *p = d->moltenvk ? get_pass(d, cmd) : NULL;
    for (uint32_t i = 0; p && i < info->colorAttachmentCount && i < p->color_count; i++)
        p->colors[i].input = info->pColorAttachmentInputIndices ? info->pColorAttachmentInputIndices[i] : i;
    d->set_input_indices(cmd, info);
}

/* What a lazy attachment held before the barrier is lost in MoltenVK. */
static void carry(pass_attachment *a)
{
    if (!a->image || a->contents == CONTENTS_NONE)
        return;
    a->carried = a->contents;
    a->contents = CONTENTS_NONE;
}

static void barrier_seen(device_data *d, VkCommandBuffer cmd, const char *command)
{
    pass_state *p = d->moltenvk ? get_pass(d, cmd) : NULL;
    if (!p)
        return;
    p->barrier = command;
    for (uint32_t i = 0; i < p->color_count; i++)
        carry(&p->colors[i]);
    carry(&p->depth);
    carry(&p->stencil);
}

static void image_label(device_data *d, uint64_t image, char *out, size_t size)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    if (tile_map_get(&d->names, image, &v))
        snprintf(out, size, "VkImage 0x%llx \"%s\"", (unsigned long long)image, (const char *)(uintptr_t)v);
    else
        snprintf(out, size, "VkImage 0x%llx", (unsigned long long)image);
    pthread_mutex_unlock(&d->lock);
}

static void report_lost(device_data *d, const pass_state *p, const pass_attachment *a, const char *what,
                        const char *command)
{
    char label[320], use[64], text[1024];
    image_label(d, a->image, label, sizeof label);
    if (a != &p->depth && a != &p->stencil && a->location != VK_ATTACHMENT_UNUSED)
        snprintf(use, sizeof use, "bound to color location %u", a->location);
    else if (a != &p->depth && a != &p->stencil)
        snprintf(use, sizeof use, "read as input attachment index %u", a->input);
    else
        snprintf(use, sizeof use, "in use");
    const char *held = a->carried == CONTENTS_CLEARED ? "cleared by its loadOp"
                       : a->carried == CONTENTS_DRAWN ? "written by a draw"
                                                      : "held from the suspended instance this one resumes";
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] %s: %s (%s) is bound to LAZILY_ALLOCATED (memoryless) memory and %s after the "
             "local-read barrier (%s inside the rendering instance), but its contents come from before it (%s): "
             "MoltenVK restarts the render pass at a local-read barrier and discards memoryless attachments, so "
             "they would be undefined there; write it after the barrier or give it ordinary memory "
             "(VKGRAPH_TILE_MOLTENVK=1, " LAYER_NAME ")",
             command, what, label, use, p->barrier, held);
    tile_report_error(d->instance, text);
}

static void use(device_data *d, const pass_state *p, pass_attachment *a, bool bound, bool written, const char *what,
                const char *command)
{
    if (!a->image)
        return;
    if (a->carried != CONTENTS_NONE && bound) {
        report_lost(d, p, a, what, command);
        a->carried = CONTENTS_NONE; /* once per barrier */
    }
    if (written)
        a->contents = CONTENTS_DRAWN;
}

static void draw_seen(device_data *d, VkCommandBuffer cmd, const char *command)
{
    pass_state *p = d->moltenvk ? get_pass(d, cmd) : NULL;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->color_count; i++) {
        pass_attachment *a = &p->colors[i];
        char what[48];
        snprintf(what, sizeof what, "color attachment %u", i);
        bool written = a->location != VK_ATTACHMENT_UNUSED;
        use(d, p, a, written || a->input != VK_ATTACHMENT_UNUSED, written, what, command);
    }
    use(d, p, &p->depth, true, true, "depth attachment", command);
    use(d, p, &p->stencil, true, true, "stencil attachment", command);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdPipelineBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src,
                                                   VkPipelineStageFlags dst, VkDependencyFlags flags,
                                                   uint32_t memory_count, const VkMemoryBarrier *memory,
                                                   uint32_t buffer_count, const VkBufferMemoryBarrier *buffers,
                                                   uint32_t image_count, const VkImageMemoryBarrier *images)
{
    device_data *d = tile_find_device(tile_key(cmd));
    barrier_seen(d, cmd, "vkCmdPipelineBarrier");
    d->pipeline_barrier(cmd, src, dst, flags, memory_count, memory, buffer_count, buffers, image_count, images);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdPipelineBarrier2(VkCommandBuffer cmd, const VkDependencyInfo *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    barrier_seen(d, cmd, "vkCmdPipelineBarrier2");
    d->pipeline_barrier2(cmd, info);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDraw(VkCommandBuffer cmd, uint32_t vertices, uint32_t instances,
                                        uint32_t first_vertex, uint32_t first_instance)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDraw");
    d->draw(cmd, vertices, instances, first_vertex, first_instance);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexed(VkCommandBuffer cmd, uint32_t indices, uint32_t instances,
                                               uint32_t first_index, int32_t vertex_offset, uint32_t first_instance)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDrawIndexed");
    d->draw_indexed(cmd, indices, instances, first_index, vertex_offset, first_instance);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndirect(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset,
                                                uint32_t count, uint32_t stride)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDrawIndirect");
    d->draw_indirect(cmd, buffer, offset, count, stride);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexedIndirect(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset,
                                                       uint32_t count, uint32_t stride)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDrawIndexedIndirect");
    d->draw_indexed_indirect(cmd, buffer, offset, count, stride);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndirectCount(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset,
                                                     VkBuffer count_buffer, VkDeviceSize count_offset,
                                                     uint32_t max_count, uint32_t stride)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDrawIndirectCount");
    d->draw_indirect_count(cmd, buffer, offset, count_buffer, count_offset, max_count, stride);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexedIndirectCount(VkCommandBuffer cmd, VkBuffer buffer, VkDeviceSize offset,
                                                            VkBuffer count_buffer, VkDeviceSize count_offset,
                                                            uint32_t max_count, uint32_t stride)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdDrawIndexedIndirectCount");
    d->draw_indexed_indirect_count(cmd, buffer, offset, count_buffer, count_offset, max_count, stride);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdExecuteCommands(VkCommandBuffer cmd, uint32_t count,
                                                   const VkCommandBuffer *secondaries)
{
    device_data *d = tile_find_device(tile_key(cmd));
    draw_seen(d, cmd, "vkCmdExecuteCommands");
    d->execute_commands(cmd, count, secondaries);
}
