/* Vulkan values as text for messages, and debug-utils names of the
 * objects the graph creates (names.c). Not installed.
 */
#ifndef RG_NAMES_H
#define RG_NAMES_H

#include "rendergraph/rendergraph.h"

#include <stdio.h>

/* Names an object the graph created (names.c), printf-style, where the
 * device has VK_EXT_debug_utils (rg_device_desc.debug_utils); else
 * nothing. A view of part of a texture: "ao raw (mip 1)". */
void rg__name_object(const rg_device *dev, VkObjectType type, uint64_t handle, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void rg__name_view(const rg_device *dev, VkImageView view, const char *texture, uint32_t mip, uint32_t mip_count,
                   uint32_t base_layer, uint32_t layer_count);
/* Flag sets as text for one message, in a buffer that lives until the
 * end of the enclosing block: rg__fail(g, ..., "at stages %s", RG__STAGES(s)). */
#define RG__FLAGS_TEXT 384
static inline const char *rg__stage_text(VkPipelineStageFlags2 s, char *buf)
{
    rg_flag_names(RG_FLAGS_STAGE, s, buf, RG__FLAGS_TEXT);
    return buf;
}
static inline const char *rg__access_text(VkAccessFlags2 a, char *buf)
{
    rg_flag_names(RG_FLAGS_ACCESS, a, buf, RG__FLAGS_TEXT);
    return buf;
}
static inline const char *rg__image_usage_text(VkImageUsageFlags u, char *buf)
{
    rg_flag_names(RG_FLAGS_IMAGE_USAGE, u, buf, RG__FLAGS_TEXT);
    return buf;
}
#define RG__STAGES(s) rg__stage_text((s), (char[RG__FLAGS_TEXT]){0})
#define RG__ACCESSES(a) rg__access_text((a), (char[RG__FLAGS_TEXT]){0})
#define RG__IMAGE_USAGES(u) rg__image_usage_text((u), (char[RG__FLAGS_TEXT]){0})
/* A VkSampleCountFlags as the counts it holds: "1, 4" ("none" for 0). */
static inline const char *rg__sample_counts_text(VkSampleCountFlags counts, char *buf)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t bit = 1; bit <= 64 && n < RG__FLAGS_TEXT; bit <<= 1)
        if (counts & bit)
            n += (size_t)snprintf(buf + n, RG__FLAGS_TEXT - n, "%s%u", n ? ", " : "", bit);
    return counts ? buf : "none";
}
#define RG__SAMPLE_COUNTS(c) rg__sample_counts_text((c), (char[RG__FLAGS_TEXT]){0})

#endif
