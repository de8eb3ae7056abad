/* Barriers recorded by hand, for the tests that record their own commands
 * around or without a graph (the graph records its own barriers). */
#ifndef TEST_BARRIER_H
#define TEST_BARRIER_H

#include <engine/engine.h>
#include <vulkan/vulkan.h>

/* One VkMemoryBarrier2 from src to dst, recorded into cmd with flags
 * (VK_DEPENDENCY_BY_REGION_BIT, or 0). */
static inline void test_memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                                       VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                       VkAccessFlags2 dst_access, VkDependencyFlags flags)
{
    VkMemoryBarrier2 mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src_stage,
                            .srcAccessMask = src_access, .dstStageMask = dst_stage, .dstAccessMask = dst_access };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .dependencyFlags = flags,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb };
    vkCmdPipelineBarrier2(cmd, &dep);
}

/* A barrier that takes img (its first mip and layer, its aspect) from
 * UNDEFINED to layout, its contents not kept; src: the previous use of its
 * memory (VK_PIPELINE_STAGE_2_NONE and 0 for none). */
static inline VkImageMemoryBarrier2
test_image_from_undefined(const eng_image_info *img, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access, VkImageLayout layout)
{
    return (VkImageMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = layout,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = {img->aspect, 0, 1, 0, 1},
    };
}

/* The count image barriers b, recorded into cmd. */
static inline void test_image_barriers(VkCommandBuffer cmd, uint32_t count, const VkImageMemoryBarrier2 *b)
{
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = count,
                             .pImageMemoryBarriers = b };
    vkCmdPipelineBarrier2(cmd, &dep);
}

#endif
