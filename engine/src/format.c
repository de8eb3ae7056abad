/* The engine's format helpers over the render graph's format table
 * (rg_format_get_info): the aspect mask of a view, and the swapchain
 * formats the engine asks for. */
#include "internal.h"

VkImageAspectFlags eng__format_aspect(VkFormat f)
{
    VkImageAspectFlags a = rg_format_get_info(f).aspects;
    return a ? a : VK_IMAGE_ASPECT_COLOR_BIT;
}

const VkFormat eng__display_formats[ENG__DISPLAY_FORMAT_COUNT] = { VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB };

const char *eng__sample_counts_text(VkSampleCountFlags counts, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t bit = 1; bit <= 64 && n < size; bit <<= 1)
        if (counts & bit)
            n += (size_t)snprintf(buf + n, size - n, "%s%u", n ? ", " : "", bit);
    return counts ? buf : "none";
}
