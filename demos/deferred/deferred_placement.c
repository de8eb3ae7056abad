/* The deferred demo's placement reports: which of the frame's textures
 * share memory (the bloom chain's aliasing, the G-buffer's ranges). */
#include "deferred_renderer.h"

/* A rendering instance's (or with RG_INDEX_NONE the frame's) tile traffic. */
static rg_result traffic_get(const rg_graph *g, uint32_t instance, rg_tile_traffic *out)
{
    rg_tile_view v;
    rg_result r = rg_tile_view_get(g, instance, out ? &v : NULL);
    if (out)
        *out = r == RG_SUCCESS ? v.traffic : (rg_tile_traffic){0};
    return r;
}

/* ------------------------------------------------------------- placement */

/* The size the graph's image of this texture takes when pooled: placement
 * asks the device the same way, with the usage compile derived for it (from
 * the accesses, merging and transience) and the alias flag. */
static VkDeviceSize image_size(const deferred_renderer *r, const rg_graph *g, rg_texture t, VkFormat format,
                               VkExtent2D e, VkSampleCountFlagBits samples)
{
    rg_resource_info info;
    if (rg_texture_get_info(g, t, &info) != RG_SUCCESS)
        return 0;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = VK_IMAGE_CREATE_ALIAS_BIT,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { e.width, e.height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = info.image_usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkDeviceImageMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                          .pCreateInfo = &ci };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    vkGetDeviceImageMemoryRequirements(r->device, &q, &req);
    return req.memoryRequirements.size;
}

typedef struct range {
    bool pooled;
    uint32_t pool;
    VkDeviceSize begin, end;
} range;

static range range_of(const rg_graph *g, rg_texture t, VkDeviceSize size)
{
    range rr = { 0 };
    VkDeviceSize offset = 0;
    rr.pooled = rg_texture_memory(g, t, &offset, &rr.pool) == RG_MEMORY_POOLED;
    rr.begin = offset;
    rr.end = offset + size;
    return rr;
}

/* The pool ranges of the four G-buffer textures. */
static void gbuffer_ranges(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                           range out[4], VkDeviceSize sizes[4])
{
    const rg_texture tex[4] = { t->albedo, t->normal, t->material, t->depth };
    const VkFormat formats[4] = { ALBEDO_FORMAT, NORMAL_FORMAT, MATERIAL_FORMAT, DEPTH_FORMAT };
    for (int k = 0; k < 4; k++) {
        sizes[k] = image_size(r, g, tex[k], formats[k], r->extent, r->samples);
        out[k] = range_of(g, tex[k], sizes[k]);
    }
}

void deferred_frame_bloom_aliasing(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                                   deferred_aliasing *out)
{
    *out = (deferred_aliasing){ 0 };
    if (rg_texture_memory(g, t->hdr, NULL, NULL) == RG_MEMORY_NOT_CREATED)
        return; /* no placement yet */
    out->placed = true;
    range gbuf[4];
    VkDeviceSize gbuf_sizes[4];
    gbuffer_ranges(r, g, t, gbuf, gbuf_sizes);
    rg_texture bloom[2 * DEFERRED_MAX_BLOOM];
    VkExtent2D extents[2 * DEFERRED_MAX_BLOOM];
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->bloom_levels; i++) {
        bloom[n] = t->bloom_down[i], extents[n++] = t->bloom_extent[i];
        if (i + 1 < t->bloom_levels)
            bloom[n] = t->bloom_up[i], extents[n++] = t->bloom_extent[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        if (rg_texture_memory(g, bloom[i], NULL, NULL) == RG_MEMORY_NOT_CREATED)
            continue;
        VkDeviceSize size = image_size(r, g, bloom[i], HDR_FORMAT, extents[i], VK_SAMPLE_COUNT_1_BIT);
        range b = range_of(g, bloom[i], size);
        out->bloom_targets++;
        out->bloom_bytes += size;
        VkDeviceSize shared = 0;
        for (int k = 0; k < 4; k++) {
            if (!b.pooled || !gbuf[k].pooled || b.pool != gbuf[k].pool)
                continue;
            VkDeviceSize lo = b.begin > gbuf[k].begin ? b.begin : gbuf[k].begin;
            VkDeviceSize hi = b.end < gbuf[k].end ? b.end : gbuf[k].end;
            if (hi > lo)
                shared += hi - lo; /* G-buffer textures are live together: never overlap each other */
        }
        out->sharing += shared > 0;
        out->shared_bytes += shared;
    }
}

void deferred_frame_placement(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                              deferred_placement *out)
{
    *out = (deferred_placement){ 0 };
    if (rg_texture_memory(g, t->hdr, NULL, NULL) == RG_MEMORY_NOT_CREATED)
        return; /* no placement yet */
    out->placed = true;
    /* passes[0] is the G-buffer draw, passes[1] lighting's (declaration order). */
    rg_command_rendering scene, light;
    out->gbuffer_merged = r->pass_count > 1 && rg_command_get_rendering(g, r->passes[0].cmd, &scene) == RG_SUCCESS &&
                          rg_command_get_rendering(g, r->passes[1].cmd, &light) == RG_SUCCESS &&
                          scene.instance == light.instance;
    range gbuf[4];
    VkDeviceSize sizes[4];
    gbuffer_ranges(r, g, t, gbuf, sizes);
    for (int k = 0; k < 4; k++)
        out->gbuffer_pooled += gbuf[k].pooled ? sizes[k] : 0;
    out->totals = rg_memory_get_totals(g);
    out->traffic_known = traffic_get(g, RG_INDEX_NONE, &out->traffic) == RG_SUCCESS;
}
