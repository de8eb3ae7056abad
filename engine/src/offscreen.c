/* The images of an offscreen swapchain (eng_swapchain_desc.offscreen): what
 * a surface's swapchain would hand out, made by the engine instead, so that
 * a frame loop runs unchanged with no window system at all. The format is
 * the one a window's swapchain gets where the device can render to it
 * (B8G8R8A8_SRGB, else R8G8B8A8_SRGB): the same frame gives the same texels
 * offscreen as in a window. */
#include "internal.h"

#include <stdio.h>

/* What a frame does with a swapchain image: draw (and blend) into it, copy
 * it out for a capture. */
static const VkFormatFeatureFlags needed_features = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                                    VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT |
                                                    VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;

eng_result eng__offscreen_format(eng_context *ctx, VkFormat *out)
{
    for (uint32_t i = 0; i < ENG__DISPLAY_FORMAT_COUNT; i++) {
        VkFormatProperties fp;
        eng__vk_of(ctx)->GetPhysicalDeviceFormatProperties(eng_context_physical_device(ctx), eng__display_formats[i],
                                                           &fp);
        if ((fp.optimalTilingFeatures & needed_features) == needed_features) {
            *out = eng__display_formats[i];
            return ENG_SUCCESS;
        }
    }
    return eng__fail(ENG_ERROR_UNSUPPORTED, "offscreen swapchain: the device renders to neither "
                                            "VK_FORMAT_B8G8R8A8_SRGB nor VK_FORMAT_R8G8B8A8_SRGB");
}

eng_result eng__offscreen_images_create(eng_context *ctx, VkFormat format, VkExtent2D extent, uint32_t count,
                                        eng_image **out)
{
    for (uint32_t i = 0; i < count; i++) {
        char name[48];
        snprintf(name, sizeof name, "offscreen swapchain image %u", i);
        eng_image_desc d = {
            .name = name,
            .format = format,
            .width = extent.width,
            .height = extent.height,
            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        };
        eng_result res = eng_image_create(ctx, &d, &out[i]);
        if (res != ENG_SUCCESS) {
            eng__offscreen_images_destroy(out, i);
            return res;
        }
    }
    return ENG_SUCCESS;
}

void eng__offscreen_images_destroy(eng_image **images, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        eng_image_destroy(images[i]);
        images[i] = NULL;
    }
}
