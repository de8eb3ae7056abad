/* A global memory barrier recorded by hand, for the tests that record
 * their own commands around or without a graph (the graph records its own
 * barriers). */
#ifndef TEST_BARRIER_H
#define TEST_BARRIER_H

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

#endif
