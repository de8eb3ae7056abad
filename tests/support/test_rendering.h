/* Dynamic rendering recorded by hand, for the tests that draw without a
 * graph (the graph begins its own rendering instances). */
#ifndef TEST_RENDERING_H
#define TEST_RENDERING_H

#include <engine/engine.h>
#include <vulkan/vulkan.h>

/* d as the depth attachment, cleared to 1.0 and not stored. */
static inline VkRenderingAttachmentInfo test_depth_cleared(const eng_image_info *d)
{
    return (VkRenderingAttachmentInfo){
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = d->view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = { .depthStencil = { 1.0f, 0 } },
    };
}

/* img as a color attachment in COLOR_ATTACHMENT_OPTIMAL with load, store
 * and clear; averaged into resolve (in the same layout) unless that is
 * NULL. */
static inline VkRenderingAttachmentInfo test_color_attachment(const eng_image_info *img, const eng_image_info *resolve,
                                                              VkAttachmentLoadOp load, VkAttachmentStoreOp store,
                                                              VkClearColorValue clear)
{
    VkRenderingAttachmentInfo a = { .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = img->view,
                                    .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .loadOp = load,
                                    .storeOp = store, .clearValue = { .color = clear } };
    if (resolve) {
        a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        a.resolveImageView = resolve->view;
        a.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    return a;
}

/* A rendering instance of one layer over w x h: color_count colors, depth
 * (or NULL). */
static inline void test_begin_rendering(VkCommandBuffer cmd, uint32_t w, uint32_t h,
                                        const VkRenderingAttachmentInfo *colors, uint32_t color_count,
                                        const VkRenderingAttachmentInfo *depth)
{
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = { { 0, 0 }, { w, h } },
        .layerCount = 1,
        .colorAttachmentCount = color_count,
        .pColorAttachments = colors,
        .pDepthAttachment = depth,
    };
    vkCmdBeginRendering(cmd, &ri);
}

/* The viewport (depth 0 to 1) and the scissor over the whole w x h. */
static inline void test_whole_viewport(VkCommandBuffer cmd, uint32_t w, uint32_t h)
{
    VkViewport vp = { 0, 0, (float)w, (float)h, 0, 1 };
    VkRect2D all = { { 0, 0 }, { w, h } };
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &all);
}

#endif
