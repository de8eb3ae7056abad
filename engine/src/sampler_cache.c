/* The container behind eng_sampler_get: normalized descs and their
 * samplers. It calls nothing of the context's, so eng_context_destroy can
 * empty it (see eng__sampler_cache in internal.h). */
#include "internal.h"


/* Field by field: the desc has padding (after `compare`) that a memcmp
 * would read. Keys are normalized, so equal descs compare equal here and
 * the floats are never NaN. */
static bool same_key(const eng_sampler_desc *a, const eng_sampler_desc *b)
{
    return a->filter == b->filter && a->mipmap == b->mipmap && a->address == b->address &&
           a->border == b->border && a->anisotropy == b->anisotropy && a->compare == b->compare &&
           a->compare_op == b->compare_op && a->max_lod == b->max_lod;
}

VkSampler eng__sampler_cache_find(const eng__sampler_cache *cache, const eng_sampler_desc *key)
{
    for (uint32_t i = 0; i < cache->count; i++)
        if (same_key(&cache->entries[i].key, key))
            return cache->entries[i].sampler;
    return VK_NULL_HANDLE;
}

bool eng__sampler_cache_reserve(eng__sampler_cache *cache, const rg_allocator *host)
{
    if (cache->count < cache->capacity)
        return true;
    uint32_t capacity = cache->capacity ? cache->capacity * 2 : 8;
    eng__sampler_entry *grown = eng__host_realloc(host, cache->entries, capacity * sizeof *grown);
    if (!grown)
        return false;
    cache->entries = grown;
    cache->capacity = capacity;
    return true;
}

void eng__sampler_cache_add(eng__sampler_cache *cache, const eng_sampler_desc *key, VkSampler sampler)
{
    cache->entries[cache->count++] = (eng__sampler_entry){ .key = *key, .sampler = sampler };
}

void eng__sampler_cache_destroy(eng__sampler_cache *cache, const eng__vk *vk, VkDevice device,
                                const rg_allocator *host)
{
    for (uint32_t i = 0; i < cache->count; i++)
        vk->DestroySampler(device, cache->entries[i].sampler, vk->allocator);
    eng__host_free(host, cache->entries);
    *cache = (eng__sampler_cache){ .anisotropy = cache->anisotropy };
}
