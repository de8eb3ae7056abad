/* A pipeline cache that persists to a file (eng_pipeline_cache): loaded
 * when the file's blob is this device's and driver's, saved on request. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct eng_pipeline_cache {
    eng_context *ctx;
    VkPipelineCache cache;
    size_t loaded;
    char *path;
};

/* The header every VkPipelineCache blob starts with (version ONE). A blob
 * from another device or driver is dropped here rather than handed to the
 * driver, which would ignore it anyway. */
static bool blob_matches_device(const eng_context *ctx, const uint8_t *data, size_t size)
{
    if (size < 16 + VK_UUID_SIZE)
        return false;
    uint32_t header[4];
    memcpy(header, data, sizeof header);
    const VkPhysicalDeviceProperties *p = eng_context_properties(ctx);
    return header[0] >= 16 + VK_UUID_SIZE && header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
           header[2] == p->vendorID && header[3] == p->deviceID &&
           memcmp(data + 16, p->pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

eng_result eng_pipeline_cache_create(eng_context *ctx, const char *path, eng_pipeline_cache **out)
{
    if (!out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_pipeline_cache_create: NULL out");
    *out = NULL;
    if (!ctx)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_pipeline_cache_create: NULL context");
    eng_pipeline_cache *pc = eng__new_object(ctx, sizeof *pc, "pipeline cache", NULL);
    if (!pc)
        return ENG_ERROR_OUT_OF_MEMORY;
    pc->ctx = ctx;
    uint8_t *blob = NULL;
    size_t blob_size = 0;
    if (path) {
        pc->path = eng__alloc(ctx, strlen(path) + 1);
        if (!pc->path) {
            eng__free(ctx, pc);
            return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "pipeline cache: out of host memory");
        }
        strcpy(pc->path, path);
        /* A missing or unreadable file is a cold start, not an error. */
        FILE *f = fopen(path, "rb");
        if (f) {
            long size = -1;
            if (fseek(f, 0, SEEK_END) == 0)
                size = ftell(f);
            if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (blob = eng__alloc(ctx, (size_t)size)) != NULL) {
                blob_size = fread(blob, 1, (size_t)size, f);
                if (!blob_matches_device(ctx, blob, blob_size)) {
                    eng__free(ctx, blob);
                    blob = NULL;
                    blob_size = 0;
                }
            }
            fclose(f);
        }
    }
    VkPipelineCacheCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
        .initialDataSize = blob_size,
        .pInitialData = blob,
    };
    const eng__vk *vk = eng__vk_of(ctx);
    VkResult vr = vk->CreatePipelineCache(eng_context_device(ctx), &ci, vk->allocator, &pc->cache);
    eng__free(ctx, blob);
    if (vr != VK_SUCCESS) {
        eng_pipeline_cache_destroy(pc);
        return eng__vk_fail(vr, "vkCreatePipelineCache");
    }
    pc->loaded = blob_size;
    *out = pc;
    return ENG_SUCCESS;
}

void eng_pipeline_cache_destroy(eng_pipeline_cache *pc)
{
    if (!pc)
        return;
    const eng__vk *vk = eng__vk_of(pc->ctx);
    if (pc->cache)
        vk->DestroyPipelineCache(eng_context_device(pc->ctx), pc->cache, vk->allocator);
    eng__free(pc->ctx, pc->path);
    eng__free(pc->ctx, pc);
}

eng_result eng_pipeline_cache_save(eng_pipeline_cache *pc)
{
    if (!pc)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_pipeline_cache_save: NULL cache");
    if (!pc->path)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_pipeline_cache_save: the cache was created without a path");
    VkDevice dev = eng_context_device(pc->ctx);
    const eng__vk *vk = eng__vk_of(pc->ctx);
    size_t size = 0;
    ENG_VK_CHECK(vk->GetPipelineCacheData(dev, pc->cache, &size, NULL));
    void *data = eng__alloc(pc->ctx, size);
    if (!data)
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "pipeline cache '%s': out of host memory", pc->path);
    VkResult vr = vk->GetPipelineCacheData(dev, pc->cache, &size, data);
    if (vr != VK_SUCCESS) {
        eng__free(pc->ctx, data);
        return eng__vk_fail(vr, "vkGetPipelineCacheData");
    }
    /* Write to a temporary name and rename, so a crash never leaves a torn
     * cache file behind. */
    size_t tmp_len = strlen(pc->path) + 5;
    char *tmp = eng__alloc(pc->ctx, tmp_len);
    if (!tmp) {
        eng__free(pc->ctx, data);
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "pipeline cache '%s': out of host memory", pc->path);
    }
    snprintf(tmp, tmp_len, "%s.tmp", pc->path);
    eng_result res = ENG_SUCCESS;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        res = eng__fail(ENG_ERROR_IO, "pipeline cache '%s': %s", tmp, strerror(errno));
    } else {
        bool ok = fwrite(data, 1, size, f) == size;
        ok = (fclose(f) == 0) && ok;
        if (!ok || rename(tmp, pc->path) != 0) {
            res = eng__fail(ENG_ERROR_IO, "pipeline cache '%s': write failed: %s", pc->path, strerror(errno));
            remove(tmp);
        }
    }
    eng__free(pc->ctx, tmp);
    eng__free(pc->ctx, data);
    return res;
}

VkPipelineCache eng_pipeline_cache_handle(const eng_pipeline_cache *pc) { return pc ? pc->cache : VK_NULL_HANDLE; }
size_t eng_pipeline_cache_loaded_bytes(const eng_pipeline_cache *pc) { return pc ? pc->loaded : 0; }
