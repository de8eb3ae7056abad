/* Samplers: eng_sampler_get resolves a desc's defaults once, at the entry,
 * checks it, and hands out the context's sampler for it, made on first use
 * and kept in the context's cache (sampler_cache.c) until the context goes. */
#include "internal.h"

#include <stdio.h>

static const char *filter_name(VkFilter filter) { return filter == VK_FILTER_LINEAR ? "linear" : "nearest"; }

static const char *address_name(VkSamplerAddressMode address)
{
    switch (address) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return "repeat";
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: return "mirrored-repeat";
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return "clamp-to-edge";
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: return "clamp-to-border";
    default: return "?";
    }
}

/* desc as the cache key: defaults filled in, and the fields Vulkan ignores
 * (border without CLAMP_TO_BORDER, compare_op without compare, anisotropy
 * at 1 or below) cleared, so that descs making the same sampler share it.
 * Refuses what a core Vulkan 1.3 device without extra features cannot make
 * (CUBIC filtering, MIRROR_CLAMP_TO_EDGE, custom border colors), and
 * anisotropy where samplerAnisotropy is not enabled. */
static eng_result normalize(const eng_sampler_desc *desc, const eng__sampler_cache *cache,
                            const VkPhysicalDeviceLimits *limits, eng_sampler_desc *key)
{
    *key = (eng_sampler_desc){ 0 };
    if (desc->filter != VK_FILTER_NEAREST && desc->filter != VK_FILTER_LINEAR)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "eng_sampler_get: filter %d is not NEAREST or LINEAR (CUBIC needs an extension "
                         "the engine does not enable)", (int)desc->filter);
    if (desc->mipmap != VK_SAMPLER_MIPMAP_MODE_NEAREST && desc->mipmap != VK_SAMPLER_MIPMAP_MODE_LINEAR)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_sampler_get: mipmap %d is not NEAREST or LINEAR",
                         (int)desc->mipmap);
    switch (desc->address) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT:
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: break;
    default:
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "eng_sampler_get: address %d is not REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE or "
                         "CLAMP_TO_BORDER (MIRROR_CLAMP_TO_EDGE needs samplerMirrorClampToEdge, which the "
                         "engine does not enable)", (int)desc->address);
    }
    /* The six core colors; the custom ones need VK_EXT_custom_border_color. */
    if ((unsigned)desc->border > VK_BORDER_COLOR_INT_OPAQUE_WHITE)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "eng_sampler_get: border %d is not a core VkBorderColor (custom colors need "
                         "VK_EXT_custom_border_color)", (int)desc->border);
    if (desc->compare && (unsigned)desc->compare_op > VK_COMPARE_OP_ALWAYS)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_sampler_get: compare_op %d is not a VkCompareOp",
                         (int)desc->compare_op);
    /* Written so that NaN fails too. */
    if (!(desc->anisotropy >= 0.0f))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_sampler_get: anisotropy %g: 0 or 1 (off) or more",
                         (double)desc->anisotropy);
    if (!(desc->max_lod >= 0.0f))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_sampler_get: max_lod %g: 0 (every mip) or more",
                         (double)desc->max_lod);

    key->filter = desc->filter;
    key->mipmap = desc->mipmap;
    key->address = desc->address;
    if (desc->address == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER)
        key->border = desc->border;
    if (desc->anisotropy > 1.0f) {
        if (!cache->anisotropy)
            return eng__fail(ENG_ERROR_MISSING_FEATURE,
                             "eng_sampler_get: anisotropy %g needs the samplerAnisotropy feature, which this "
                             "context's device was not created with (enable it in eng_context_desc.features; a "
                             "context over an existing device cannot tell and never has it)",
                             (double)desc->anisotropy);
        /* The limit is at least 16 wherever the feature exists. */
        key->anisotropy = desc->anisotropy < limits->maxSamplerAnisotropy ? desc->anisotropy
                                                                           : limits->maxSamplerAnisotropy;
    }
    key->compare = desc->compare;
    if (desc->compare)
        key->compare_op = desc->compare_op;
    /* Any level at or past VK_LOD_CLAMP_NONE (1000) already means every mip. */
    key->max_lod = desc->max_lod == 0.0f || desc->max_lod > VK_LOD_CLAMP_NONE ? VK_LOD_CLAMP_NONE : desc->max_lod;
    return ENG_SUCCESS;
}

eng_result eng_sampler_get(eng_context *ctx, const eng_sampler_desc *desc, VkSampler *out)
{
    ENG__CHECK_CREATE("eng_sampler_get", ctx, desc, out);
    eng__sampler_cache *cache = eng__context_samplers(ctx);
    eng_sampler_desc key;
    eng_result res = normalize(desc, cache, &eng_context_properties(ctx)->limits, &key);
    if (res != ENG_SUCCESS)
        return res;
    VkSampler sampler = eng__sampler_cache_find(cache, &key);
    if (sampler) {
        *out = sampler;
        return ENG_SUCCESS;
    }
    /* Room first: a sampler made and then not kept would leak. */
    if (!eng__sampler_cache_reserve(cache, eng__host_of(ctx)))
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "eng_sampler_get: out of host memory (%u samplers cached)",
                         cache->count);
    VkSamplerCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = key.filter,
        .minFilter = key.filter,
        .mipmapMode = key.mipmap,
        .addressModeU = key.address,
        .addressModeV = key.address,
        .addressModeW = key.address,
        .anisotropyEnable = key.anisotropy > 0.0f,
        .maxAnisotropy = key.anisotropy > 0.0f ? key.anisotropy : 1.0f,
        .compareEnable = key.compare,
        .compareOp = key.compare_op,
        .minLod = 0.0f,
        .maxLod = key.max_lod,
        .borderColor = key.border,
    };
    const eng__vk *vk = eng__vk_of(ctx);
    ENG_VK_CHECK(vk->CreateSampler(eng_context_device(ctx), &ci, vk->allocator, &sampler));
    char name[128];
    int len = snprintf(name, sizeof name, "sampler %s mip-%s %s", filter_name(key.filter),
                       key.mipmap == VK_SAMPLER_MIPMAP_MODE_LINEAR ? "linear" : "nearest", address_name(key.address));
    if (key.anisotropy > 0.0f)
        len += snprintf(name + len, sizeof name - (size_t)len, " anisotropy %g", (double)key.anisotropy);
    if (key.compare)
        snprintf(name + len, sizeof name - (size_t)len, " compare-op %d", (int)key.compare_op);
    eng__set_name(ctx, VK_OBJECT_TYPE_SAMPLER, (uint64_t)sampler, name);
    eng__sampler_cache_add(cache, &key, sampler);
    *out = sampler;
    return ENG_SUCCESS;
}
