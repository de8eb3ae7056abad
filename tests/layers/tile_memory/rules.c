/* The memoryless rules MoltenVK enforces, reported as errors through the
 * application's debug-utils messengers (message id VKGRAPH-tile-memoryless):
 * a lazy attachment is never loaded or stored at vkCmdBeginRendering; a lazy
 * image is never copied, blitted or cleared outside rendering; and never
 * bound to a descriptor that reads or writes memory (sampled, combined,
 * storage), since its contents exist only in tile memory during a pass.
 * Input attachments are tile reads, allowed. Descriptor update templates:
 * templates.c. */
#include "layer.h"

#include <stdio.h>

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

VKAPI_ATTR void VKAPI_CALL tile_CmdBeginRendering(VkCommandBuffer cmd, const VkRenderingInfo *info)
{
    device_data *d = tile_find_device(tile_key(cmd));
    for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
        check_attachment(d, &info->pColorAttachments[i], "color", i);
    check_attachment(d, info->pDepthAttachment, "depth", 0);
    check_attachment(d, info->pStencilAttachment, "stencil", 0);
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
