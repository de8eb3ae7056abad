/* What the device must offer for the compiled frame, checked at placement
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
#include "graph_internal.h"

static rg_result check_texture(rg_graph *g, VkPhysicalDevice pd, const rg_resource *r)
{
    VkImageFormatProperties p;
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(pd, r->format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                           r->image_usage, 0, &p);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "placement: texture '%s': format %d with usage 0x%x is not "
                        "supported by this device", r->name, (int)r->format, (unsigned)r->image_usage);
    if (vr != VK_SUCCESS)
        return rg__fail(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "placement: texture '%s': vkGetPhysicalDeviceImageFormatProperties: VkResult %d", r->name,
                        (int)vr);
    if (!(p.sampleCounts & r->samples) || r->mip_levels > p.maxMipLevels || r->array_layers > p.maxArrayLayers ||
        r->width > p.maxExtent.width || r->height > p.maxExtent.height)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "placement: texture '%s' (format %d, usage 0x%x): %ux%u, %u "
                        "mips, %u layers, %u samples exceed what this device offers (%ux%u, %u mips, %u layers, "
                        "sample counts 0x%x)", r->name, (int)r->format, (unsigned)r->image_usage, r->width,
                        r->height, r->mip_levels, r->array_layers, (unsigned)r->samples, p.maxExtent.width,
                        p.maxExtent.height, p.maxMipLevels, p.maxArrayLayers, (unsigned)p.sampleCounts);
    return RG_SUCCESS;
}

static rg_result check_blit(rg_graph *g, VkPhysicalDevice pd, const rg_cmd_rec *c)
{
    const rg_resource *src = &g->resources[g->accesses[c->first_access].resource];
    const rg_resource *dst = &g->resources[g->accesses[c->first_access + 1].resource];
    VkFormatProperties fs, fd;
    vkGetPhysicalDeviceFormatProperties(pd, src->format, &fs);
    vkGetPhysicalDeviceFormatProperties(pd, dst->format, &fd);
    const char *why = NULL;
    if (!(fs.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT))
        why = "the source's format is not a blit source on this device";
    else if (!(fd.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT))
        why = "the destination's format is not a blit destination on this device";
    else if (c->u.blit.filter == VK_FILTER_LINEAR &&
             !(fs.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
        why = "the source's format cannot be filtered linearly on this device";
    if (why)
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "placement: command '%s': blit '%s' (format %d) -> '%s' "
                        "(format %d): %s", c->name, src->name, (int)src->format, dst->name, (int)dst->format, why);
    return RG_SUCCESS;
}

static rg_result check_depth_resolve(rg_graph *g, const VkPhysicalDeviceDepthStencilResolveProperties *props,
                                     const rg_span *span)
{
    const rg_attachment *a = &span->desc.depth;
    if (!a->texture.id || !a->resolve.id)
        return RG_SUCCESS;
    const rg_resource *r = &g->resources[rg__texture_index(g, a->texture)];
    bool depth = r->aspects & VK_IMAGE_ASPECT_DEPTH_BIT, stencil = r->aspects & VK_IMAGE_ASPECT_STENCIL_BIT;
    if ((depth && !(props->supportedDepthResolveModes & a->resolve_mode)) ||
        (stencil && !(props->supportedStencilResolveModes & a->resolve_mode)))
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "placement: command '%s': depth/stencil resolve of '%s' with "
                        "mode 0x%x: this device resolves depth by 0x%x and stencil by 0x%x",
                        g->cmds[span->begin_cmd].name, r->name, (unsigned)a->resolve_mode,
                        (unsigned)props->supportedDepthResolveModes, (unsigned)props->supportedStencilResolveModes);
    return RG_SUCCESS;
}

rg_result rg__check_device_support(rg_graph *g)
{
    VkPhysicalDevice pd = eng_context_physical_device(g->ctx);
    rg_result res = RG_SUCCESS;
    for (uint32_t i = 0; i < g->resource_count && res == RG_SUCCESS; i++) {
        const rg_resource *r = &g->resources[i];
        if (r->is_texture && !r->imported && r->first_use != RG_NONE)
            res = check_texture(g, pd, r);
    }
    for (uint32_t c = 0; c < g->cmd_count && res == RG_SUCCESS; c++)
        if (g->cmds[c].type == RG_CMD_BLIT)
            res = check_blit(g, pd, &g->cmds[c]);
    VkPhysicalDeviceDepthStencilResolveProperties resolve = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &resolve };
    vkGetPhysicalDeviceProperties2(pd, &p2);
    for (uint32_t s = 0; s < g->span_count && res == RG_SUCCESS; s++)
        res = check_depth_resolve(g, &resolve, &g->spans[s]);
    return res;
}
