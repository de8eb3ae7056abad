/* A Vulkan image made by hand (the tests that check what the validation
 * layer or the tile-memory layer says of one): its create info. */
#ifndef TEST_IMAGE_INFO_H
#define TEST_IMAGE_INFO_H

#include <vulkan/vulkan.h>

/* A 2D image of w x h, one mip and layer, optimal tiling, starting UNDEFINED. */
static inline VkImageCreateInfo test_image_info(VkFormat format, uint32_t w, uint32_t h, VkSampleCountFlagBits samples,
                                                VkImageUsageFlags usage)
{
    return (VkImageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { w, h, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
}

#endif
