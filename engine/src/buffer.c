/* Buffers with their own memory; host-visible ones stay mapped. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct eng_buffer {
    eng_context *ctx;
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint32_t memory_type;
    VkMemoryPropertyFlags flags;
    void *mapped;
    char name[64];
};

eng_result eng_buffer_create(eng_context *ctx, const eng_buffer_desc *desc, eng_buffer **out)
{
    ENG__CHECK_CREATE("eng_buffer_create", ctx, desc, out);
    char name[64];
    eng__copy_name(name, sizeof name, desc->name, "unnamed");
    if (desc->size == 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "buffer '%s': size is 0", name);
    if (desc->usage == 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "buffer '%s': no usage flags", name);
    if (desc->memory & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "buffer '%s': buffers cannot use LAZILY_ALLOCATED memory", name);

    eng_buffer *b = eng__new_object(ctx, sizeof *b, "buffer", name);
    if (!b)
        return ENG_ERROR_OUT_OF_MEMORY;
    b->ctx = ctx;
    b->size = desc->size;
    memcpy(b->name, name, sizeof name);
    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    eng_result res = ENG_SUCCESS;
    VkBufferCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = desc->size,
        .usage = desc->usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    ENG_VK_TRY(res, vk->CreateBuffer(dev, &ci, vk->allocator, &b->buffer), done);
    eng__set_name(ctx, VK_OBJECT_TYPE_BUFFER, (uint64_t)b->buffer, name);
    VkMemoryRequirements req;
    vk->GetBufferMemoryRequirements(dev, b->buffer, &req);
    char what[96];
    snprintf(what, sizeof what, "buffer '%s'", name);
    res = eng__allocate(ctx, what, &req, desc->memory, false, &b->memory, &b->memory_type);
    if (res != ENG_SUCCESS)
        goto done;
    b->flags = eng_context_memory_properties(ctx)->memoryTypes[b->memory_type].propertyFlags;
    ENG_VK_TRY(res, vk->BindBufferMemory(dev, b->buffer, b->memory, 0), done);
    if (b->flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        ENG_VK_TRY(res, vk->MapMemory(dev, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped), done);
done:
    return ENG__HAND_OUT(res, out, b, eng_buffer_destroy);
}

void eng_buffer_destroy(eng_buffer *b)
{
    if (!b)
        return;
    VkDevice dev = eng_context_device(b->ctx);
    const eng__vk *vk = eng__vk_of(b->ctx);
    if (b->buffer)
        vk->DestroyBuffer(dev, b->buffer, vk->allocator);
    if (b->memory)
        vk->FreeMemory(dev, b->memory, vk->allocator); /* unmaps implicitly */
    eng__free(b->ctx, b);
}

VkBuffer eng_buffer_handle(const eng_buffer *b) { return b ? b->buffer : VK_NULL_HANDLE; }
VkDeviceSize eng_buffer_size(const eng_buffer *b) { return b ? b->size : 0; }
void *eng_buffer_mapped(const eng_buffer *b) { return b ? b->mapped : NULL; }
uint32_t eng_buffer_memory_type(const eng_buffer *b) { return b ? b->memory_type : UINT32_MAX; }

typedef struct buffer_copy {
    const eng__vk *vk;
    VkBuffer src, dst;
    VkDeviceSize offset, size;
} buffer_copy;

/* Records one global memory barrier (src stage and access to dst). */
static void memory_barrier(const eng__vk *vk, VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                           VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 b = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src_stage,
                           .srcAccessMask = src_access, .dstStageMask = dst_stage, .dstAccessMask = dst_access };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                             .pMemoryBarriers = &b };
    vk->CmdPipelineBarrier2(cmd, &dep);
}

static void record_buffer_copy(VkCommandBuffer cmd, void *user)
{
    const buffer_copy *c = user;
    const eng__vk *vk = c->vk;
    /* Earlier submissions may still read the destination range. */
    memory_barrier(vk, cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferCopy region = { 0, c->offset, c->size };
    vk->CmdCopyBuffer(cmd, c->src, c->dst, 1, &region);
    /* Later submissions read without a barrier of their own. */
    memory_barrier(vk, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

eng_result eng_buffer_upload(eng_context *ctx, eng_buffer *b, VkDeviceSize offset, const void *data, size_t size)
{
    if (!ctx || !b || !data)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_buffer_upload: NULL argument");
    if (size == 0 || offset > b->size || size > b->size - offset)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_buffer_upload: %llu bytes at %llu overrun buffer '%s' (%llu bytes)",
                         (unsigned long long)size, (unsigned long long)offset, b->name, (unsigned long long)b->size);
    if (b->mapped) {
        memcpy((char *)b->mapped + offset, data, size);
        if (!(b->flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
            VkMappedMemoryRange range = {
                .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
                .memory = b->memory,
                .offset = 0,
                .size = VK_WHOLE_SIZE,
            };
            const eng__vk *vk = eng__vk_of(ctx);
            ENG_VK_CHECK(vk->FlushMappedMemoryRanges(eng_context_device(ctx), 1, &range));
        }
        return ENG_SUCCESS;
    }
    eng_buffer *staging = NULL;
    eng_buffer_desc sd = {
        .name = "buffer staging",
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
        .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    };
    eng_result res = eng_buffer_create(ctx, &sd, &staging);
    if (res != ENG_SUCCESS)
        return res;
    memcpy(staging->mapped, data, size);
    buffer_copy c = { eng__vk_of(ctx), staging->buffer, b->buffer, offset, size };
    res = eng_context_submit_once(ctx, record_buffer_copy, &c);
    eng_buffer_destroy(staging);
    return res;
}

eng_result eng_buffer_create_with_data(eng_context *ctx, const char *name, VkBufferUsageFlags usage,
                                       const void *data, size_t size, eng_buffer **out)
{
    if (!out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_buffer_create_with_data: NULL out");
    eng_buffer_desc d = { .name = name, .size = size, .usage = usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
    eng_result res = eng_buffer_create(ctx, &d, out);
    if (res != ENG_SUCCESS)
        return res;
    res = eng_buffer_upload(ctx, *out, 0, data, size);
    if (res != ENG_SUCCESS) {
        eng_buffer_destroy(*out);
        *out = NULL;
    }
    return res;
}
