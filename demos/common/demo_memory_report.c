#include "demo_memory_report.h"

#include <stdio.h>

static const char *format_name(VkFormat format, char *buf, size_t size)
{
    switch (format) {
    case VK_FORMAT_B8G8R8A8_SRGB: return "B8G8R8A8_SRGB";
    case VK_FORMAT_B8G8R8A8_UNORM: return "B8G8R8A8_UNORM";
    case VK_FORMAT_R8G8B8A8_SRGB: return "R8G8B8A8_SRGB";
    case VK_FORMAT_R8G8B8A8_UNORM: return "R8G8B8A8_UNORM";
    case VK_FORMAT_D32_SFLOAT: return "D32_SFLOAT";
    case VK_FORMAT_D24_UNORM_S8_UINT: return "D24_UNORM_S8_UINT";
    case VK_FORMAT_D16_UNORM: return "D16_UNORM";
    default: snprintf(buf, size, "VkFormat %d", (int)format); return buf;
    }
}

static bool device_has_lazy_memory(const eng_context *ctx)
{
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(ctx);
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
        if (mp->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
            return true;
    return false;
}

static void print_attachment(const eng_context *ctx, const char *label, const eng_image *image)
{
    if (!image)
        return;
    const eng_image_info *info = eng_image_get_info(image);
    const double mib = 1024.0 * 1024.0;
    char flags[256], fmt[32];
    printf("%s %ux %s %ux%u %s: %.1f MiB, memory type %u (%s), lazily allocated: ", label,
           (unsigned)info->samples, format_name(info->format, fmt, sizeof fmt), info->extent.width,
           info->extent.height, (info->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) ? "transient" : "persistent",
           (double)info->memory_size / mib, info->memory_type,
           eng_memory_flags_string(info->memory_flags, flags, sizeof flags));
    if (info->memory_flags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
        printf("yes, %.1f MiB committed now\n", (double)info->committed / mib);
    else if (!device_has_lazy_memory(ctx))
        printf("no (device offers no LAZILY_ALLOCATED type)\n");
    else
        printf("no (no LAZILY_ALLOCATED type fits this image)\n");
}

void demo_print_swapchain_memory(const eng_context *ctx, const eng_swapchain *swapchain)
{
    print_attachment(ctx, "msaa color", eng_swapchain_msaa_color(swapchain));
    print_attachment(ctx, "depth", eng_swapchain_depth(swapchain));
}
