/* A sampler's create info as the demos make them: one filter and one
 * address mode on every axis, mips picked nearest up to max_lod.
 * Header-only (as demo_lock.h), so the deferred frame, which links no
 * demo_common, shares it. */
#ifndef DEMO_SAMPLER_H
#define DEMO_SAMPLER_H

#include <vulkan/vulkan.h>

static inline VkSamplerCreateInfo demo_sampler_info(VkFilter filter, VkSamplerAddressMode mode, float max_lod)
{
    return (VkSamplerCreateInfo){
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = mode,
        .addressModeV = mode,
        .addressModeW = mode,
        .maxLod = max_lod,
    };
}

#endif
