/* The command buffers of one frame-in-flight slot (eng_frame_command_buffer):
 * a pool per queue family the slot's frames use, made on first use, and
 * the command buffers allocated from it, handed out again after each reset.
 * A slot is reset only once its fence says the GPU is done with its frames
 * (eng_swapchain_acquire), so a frame's command buffers live until its
 * slot comes round again, and after the first frames no frame allocates.
 * A slot's chunks (eng_frame_chunk_command_buffer) get the same per chunk
 * index: a set of pools each, so that no two chunks recorded at once
 * share a pool (Vulkan wants a pool externally synchronized). */
#include "internal.h"


/* The slot's pool for family, made when there is none yet. */
static eng_result pool_for(eng_context *ctx, eng__frame_commands *fc, uint32_t family, eng__frame_pool **out)
{
    for (uint32_t i = 0; i < fc->pool_count; i++)
        if (fc->pools[i].family == family) {
            *out = &fc->pools[i];
            return ENG_SUCCESS;
        }
    if (fc->pool_count == ENG_QUEUE_KIND_COUNT) /* one family per queue kind at most */
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "frame command buffers: queue family %u is none of the "
                                                     "context's", family);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                    .queueFamilyIndex = family };
    eng__frame_pool *p = &fc->pools[fc->pool_count];
    *p = (eng__frame_pool){ .family = family };
    const eng__vk *vk = eng__vk_of(ctx);
    ENG_VK_CHECK(vk->CreateCommandPool(eng_context_device(ctx), &pci, vk->allocator, &p->pool));
    fc->pool_count++;
    *out = p;
    return ENG_SUCCESS;
}

/* Makes sure p has an allocated command buffer that no frame holds. */
static eng_result reserve(eng_context *ctx, eng__frame_pool *p)
{
    if (p->used < p->count)
        return ENG_SUCCESS;
    if (p->count == p->capacity) {
        uint32_t capacity = p->capacity ? p->capacity * 2 : 4;
        VkCommandBuffer *cmds = eng__realloc(ctx, p->cmds, capacity * sizeof *cmds);
        if (!cmds)
            return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "frame command buffers: out of host memory");
        p->cmds = cmds;
        p->capacity = capacity;
    }
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = p->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1 };
    const eng__vk *vk = eng__vk_of(ctx);
    ENG_VK_CHECK(vk->AllocateCommandBuffers(eng_context_device(ctx), &ai, &p->cmds[p->count]));
    p->count++;
    return ENG_SUCCESS;
}

eng_result eng__frame_commands_reserve(eng_context *ctx, eng__frame_commands *fc, uint32_t family)
{
    eng__frame_pool *p = NULL;
    eng_result res = pool_for(ctx, fc, family, &p);
    return res == ENG_SUCCESS ? reserve(ctx, p) : res;
}

eng_result eng__frame_commands_begin(eng_context *ctx, eng__frame_commands *fc, uint32_t family,
                                     VkCommandBuffer *out)
{
    eng__frame_pool *p = NULL;
    eng_result res = pool_for(ctx, fc, family, &p);
    if (res == ENG_SUCCESS)
        res = reserve(ctx, p);
    if (res != ENG_SUCCESS)
        return res;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    const eng__vk *vk = eng__vk_of(ctx);
    ENG_VK_CHECK(vk->BeginCommandBuffer(p->cmds[p->used], &bi));
    *out = p->cmds[p->used++];
    return ENG_SUCCESS;
}

eng_result eng__frame_commands_reset(eng_context *ctx, eng__frame_commands *fc)
{
    const eng__vk *vk = eng__vk_of(ctx);
    VkDevice device = eng_context_device(ctx);
    for (uint32_t i = 0; i < fc->pool_count; i++) {
        ENG_VK_CHECK(vk->ResetCommandPool(device, fc->pools[i].pool, 0));
        fc->pools[i].used = 0;
    }
    return ENG_SUCCESS;
}

void eng__frame_commands_destroy(eng_context *ctx, eng__frame_commands *fc)
{
    const eng__vk *vk = eng__vk_of(ctx);
    VkDevice device = eng_context_device(ctx);
    for (uint32_t i = 0; i < fc->pool_count; i++) {
        vk->DestroyCommandPool(device, fc->pools[i].pool, vk->allocator); /* frees its command buffers */
        eng__free(ctx, fc->pools[i].cmds);
    }
    *fc = (eng__frame_commands){ 0 };
}

eng_result eng__chunk_commands_begin(eng_context *ctx, eng__chunk_commands *cc, uint32_t chunk, uint32_t family,
                                     VkCommandBuffer *out)
{
    if (chunk >= cc->count) {
        eng__frame_commands *sets = eng__realloc(ctx, cc->sets, (chunk + 1) * sizeof *sets);
        if (!sets)
            return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "frame command buffers: out of host memory");
        for (uint32_t i = cc->count; i <= chunk; i++)
            sets[i] = (eng__frame_commands){ 0 };
        cc->sets = sets;
        cc->count = chunk + 1;
    }
    return eng__frame_commands_begin(ctx, &cc->sets[chunk], family, out);
}

eng_result eng__chunk_commands_reset(eng_context *ctx, eng__chunk_commands *cc)
{
    for (uint32_t i = 0; i < cc->count; i++) {
        eng_result res = eng__frame_commands_reset(ctx, &cc->sets[i]);
        if (res != ENG_SUCCESS)
            return res;
    }
    return ENG_SUCCESS;
}

void eng__chunk_commands_destroy(eng_context *ctx, eng__chunk_commands *cc)
{
    for (uint32_t i = 0; i < cc->count; i++)
        eng__frame_commands_destroy(ctx, &cc->sets[i]);
    eng__free(ctx, cc->sets);
    *cc = (eng__chunk_commands){ 0 };
}
