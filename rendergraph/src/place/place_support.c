/* Placement stage "support": what the device must offer for the compiled
 * frame, checked
 * before anything is created, so the error names the texture or the command
 * instead of leaving it to vkCreateImage, the driver or the validation
 * layer:
 *   - each created, used texture: its format with the usage the graph
 *     derived, its sample count, mips, layers and extent
 *     (vkGetPhysicalDeviceImageFormatProperties);
 *   - each blit: BLIT_SRC and BLIT_DST format features, and
 *     SAMPLED_IMAGE_FILTER_LINEAR on the source for a LINEAR blit
 *     (VUID-vkCmdBlitImage-srcImage-01999, -dstImage-02000, -filter-02001);
 *   - each depth/stencil resolve: its mode among the device's supported
 *     depth (and, with a stencil aspect, stencil) resolve modes
 *     (VkPhysicalDeviceDepthStencilResolveProperties).
 * What no device allows (an integer LINEAR blit, AVERAGE for depth) was
 * refused at declaration. */
#include "compile/stages.h"
#include "base/device.h"
#include "base/names.h"
#include "place/stages.h"

static rg_result check_texture(const rg_graph *g, VkPhysicalDevice pd, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    VkImageUsageFlags usage = rg__image_usage(g, ri);
    VkImageFormatProperties p;
    VkResult vr = g->dev->vk.GetPhysicalDeviceImageFormatProperties(pd, r->format, VK_IMAGE_TYPE_2D,
                                                                    VK_IMAGE_TILING_OPTIMAL, usage, 0, &p);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return rg__report(g, RG_ERROR_UNSUPPORTED,
                          "placement: texture '%s': format %s with usage %s is not "
                          "supported by this device",
                          r->name, rg_format_name(r->format), RG__IMAGE_USAGES(usage));
    if (vr != VK_SUCCESS)
        return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "placement: texture '%s': vkGetPhysicalDeviceImageFormatProperties: %s", r->name,
                        rg_vk_result_string(vr));
    if (!(p.sampleCounts & r->samples) || r->mip_levels > p.maxMipLevels || r->array_layers > p.maxArrayLayers ||
        r->width > p.maxExtent.width || r->height > p.maxExtent.height)
        return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: texture '%s' (format %s, usage %s): %ux%u, %u "
                        "mips, %u layers, %u samples exceed what this device offers (%ux%u, %u mips, %u layers, "
                        "sample counts %s)", r->name, rg_format_name(r->format), RG__IMAGE_USAGES(usage),
                        r->width,
                        r->height, r->mip_levels, r->array_layers, (unsigned)r->samples, p.maxExtent.width,
                        p.maxExtent.height, p.maxMipLevels, p.maxArrayLayers, RG__SAMPLE_COUNTS(p.sampleCounts));
    return RG_SUCCESS;
}

static rg_result check_blit(const rg_graph *g, VkPhysicalDevice pd, const rg__cmd *c)
{
    const rg__resource *src = &g->decl.resources[g->decl.accesses[c->first_access].resource];
    const rg__resource *dst = &g->decl.resources[g->decl.accesses[c->first_access + 1].resource];
    VkFormatProperties fs, fd;
    g->dev->vk.GetPhysicalDeviceFormatProperties(pd, src->format, &fs);
    g->dev->vk.GetPhysicalDeviceFormatProperties(pd, dst->format, &fd);
    const char *why = NULL;
    if (!(fs.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT))
        why = "the source's format is not a blit source on this device";
    else if (!(fd.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT))
        why = "the destination's format is not a blit destination on this device";
    else if (c->u.blit.filter == VK_FILTER_LINEAR &&
             !(fs.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
        why = "the source's format cannot be filtered linearly on this device";
    if (why)
        return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: command '%s': blit '%s' (format %s) -> '%s' "
                        "(format %s): %s", c->name, src->name, rg_format_name(src->format), dst->name,
                        rg_format_name(dst->format), why);
    return RG_SUCCESS;
}

static rg_result check_depth_resolve(const rg_graph *g, const VkPhysicalDeviceDepthStencilResolveProperties *props,
                                     const rg__span *span)
{
    const rg_attachment *a = &span->desc.depth;
    if (!a->texture.id || !a->resolve.id)
        return RG_SUCCESS;
    const rg__resource *r = &g->decl.resources[rg__texture_index(g, a->texture)];
    bool depth = r->aspects & VK_IMAGE_ASPECT_DEPTH_BIT, stencil = r->aspects & VK_IMAGE_ASPECT_STENCIL_BIT;
    if ((depth && !(props->supportedDepthResolveModes & a->resolve_mode)) ||
        (stencil && !(props->supportedStencilResolveModes & a->resolve_mode)))
        return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: command '%s': depth/stencil resolve of '%s' with "
                        "mode 0x%x: this device resolves depth by 0x%x and stencil by 0x%x",
                        g->decl.cmds[span->begin_cmd].name, r->name, (unsigned)a->resolve_mode,
                        (unsigned)props->supportedDepthResolveModes, (unsigned)props->supportedStencilResolveModes);
    return RG_SUCCESS;
}

rg_result rg__place_support(const rg_graph *g)
{
    VkPhysicalDevice pd = g->dev->physical;
    rg_result res = RG_SUCCESS;
    for (uint32_t i = 0; i < g->decl.resource_count && res == RG_SUCCESS; i++) {
        const rg__resource *r = &g->decl.resources[i];
        if (r->is_texture && rg__creates(g, i))
            res = check_texture(g, pd, i);
    }
    for (uint32_t c = 0; c < g->decl.cmd_count && res == RG_SUCCESS; c++)
        if (g->decl.cmds[c].type == RG_COMMAND_TYPE_BLIT && !rg__culled(g, c))
            res = check_blit(g, pd, &g->decl.cmds[c]);
    VkPhysicalDeviceMaintenance4Properties m4 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES };
    VkPhysicalDeviceDepthStencilResolveProperties resolve = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES, .pNext = &m4 };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &resolve };
    g->dev->vk.GetPhysicalDeviceProperties2(pd, &p2);
    /* A buffer over maxBufferSize (core in 1.3) cannot be made: said by
     * name and size here, before any driver reports it as a size of 0. */
    for (uint32_t i = 0; i < g->decl.resource_count && res == RG_SUCCESS; i++) {
        const rg__resource *r = &g->decl.resources[i];
        if (!r->is_texture && rg__creates(g, i) && m4.maxBufferSize && r->size > m4.maxBufferSize)
            res = rg__report(g, RG_ERROR_UNSUPPORTED, "placement: buffer '%s' is %llu bytes, over the device's "
                             "maxBufferSize (%llu)", r->name, (unsigned long long)r->size,
                             (unsigned long long)m4.maxBufferSize);
    }
    for (uint32_t s = 0; s < g->decl.span_count && res == RG_SUCCESS; s++)
        res = check_depth_resolve(g, &resolve, &g->decl.spans[s]);
    return res;
}

uint32_t rg__queue_families(const rg_graph *g, uint32_t mask, uint32_t *families)
{
    uint32_t count = 0;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT && g->dev; q++) {
        if (!(mask & (1u << q)))
            continue;
        uint32_t f = g->dev->queues[q].queue ? g->dev->queues[q].family : UINT32_MAX;
        bool seen = f == UINT32_MAX;
        for (uint32_t i = 0; i < count && !seen; i++)
            seen = families[i] == f;
        if (!seen)
            families[count++] = f;
    }
    return count;
}

/* A created resource commands of several queue families use is shared
 * CONCURRENT across them (rendergraph.h, "Queues"); families holds them. */
static uint32_t sharing(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t mask = g->compiled->queues.resource_queues ? g->compiled->queues.resource_queues[r - g->decl.resources] : 0;
    if (g->concurrent_sharing)
        mask = (1u << RG_QUEUE_GRAPHICS) | (g->caps.compute_queue ? 1u << RG_QUEUE_COMPUTE : 0) |
               (g->caps.transfer_queue ? 1u << RG_QUEUE_TRANSFER : 0);
    return rg__queue_families(g, mask, families);
}

VkImageCreateInfo rg__image_info(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t count = sharing(g, r, families);
    uint32_t ri = (uint32_t)(r - g->decl.resources);
    return (VkImageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        /* A folded span renders multisampled into it (compile_fold.c). */
        .flags = g->compiled->fold.target[ri] ? VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT : 0,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = r->format,
        .extent = { r->width, r->height, 1 },
        .mipLevels = r->mip_levels,
        .arrayLayers = r->array_layers,
        .samples = g->compiled->fold.target[ri] ? VK_SAMPLE_COUNT_1_BIT : r->samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = rg__image_usage(g, ri),
        .sharingMode = count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = count > 1 ? count : 0,
        .pQueueFamilyIndices = count > 1 ? families : NULL,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
}

VkBufferCreateInfo rg__buffer_info(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t count = sharing(g, r, families);
    return (VkBufferCreateInfo){
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = r->size,
        .usage = r->buffer_usage,
        .sharingMode = count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = count > 1 ? count : 0,
        .pQueueFamilyIndices = count > 1 ? families : NULL,
    };
}

/* FNV-1a over what makes two create infos interchangeable. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        h = (h ^ (v & 0xff)) * 0x100000001b3ull;
    return h;
}

uint64_t rg__object_key(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    uint32_t families[RG_QUEUE_COUNT];
    uint64_t h = mix(0xcbf29ce484222325ull, r->is_texture);
    uint32_t count;
    if (r->is_texture) {
        VkImageCreateInfo ci = rg__image_info(g, r, families);
        count = ci.queueFamilyIndexCount;
        h = mix(mix(mix(h, ci.flags), ci.format), ((uint64_t)ci.extent.width << 32) | ci.extent.height);
        h = mix(mix(mix(h, ci.mipLevels), ci.arrayLayers), ci.samples);
        h = mix(mix(h, ci.usage), ci.sharingMode);
    } else {
        VkBufferCreateInfo ci = rg__buffer_info(g, r, families);
        count = ci.queueFamilyIndexCount;
        h = mix(mix(mix(h, ci.size), ci.usage), ci.sharingMode);
    }
    for (uint32_t i = 0; i < count; i++)
        h = mix(h, families[i]);
    return h;
}
