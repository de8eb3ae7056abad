/* Vulkan commands' arguments as text (call_text.h). */
#include "call_text.h"

#include <stdint.h>
#include <string.h>

void test_text_barrier(test_text_out *out, void *sink, const VkDependencyInfo *d)
{
    out(sink, "barrier flags %x memory %u buffers %u images %u\n", (unsigned)d->dependencyFlags,
        d->memoryBarrierCount, d->bufferMemoryBarrierCount, d->imageMemoryBarrierCount);
    for (uint32_t i = 0; i < d->memoryBarrierCount; i++) {
        const VkMemoryBarrier2 *m = &d->pMemoryBarriers[i];
        out(sink, "  memory %llx/%llx -> %llx/%llx\n", (unsigned long long)m->srcStageMask,
            (unsigned long long)m->srcAccessMask, (unsigned long long)m->dstStageMask,
            (unsigned long long)m->dstAccessMask);
    }
    for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; i++) {
        const VkBufferMemoryBarrier2 *b = &d->pBufferMemoryBarriers[i];
        out(sink, "  buffer %llx %llx/%llx -> %llx/%llx [%llu+%llu]\n", (unsigned long long)(uintptr_t)b->buffer,
            (unsigned long long)b->srcStageMask, (unsigned long long)b->srcAccessMask,
            (unsigned long long)b->dstStageMask, (unsigned long long)b->dstAccessMask,
            (unsigned long long)b->offset, (unsigned long long)b->size);
    }
    for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++) {
        const VkImageMemoryBarrier2 *b = &d->pImageMemoryBarriers[i];
        const VkImageSubresourceRange *r = &b->subresourceRange;
        out(sink, "  image %llx %llx/%llx -> %llx/%llx layout %d -> %d aspect %x mips %u+%u layers %u+%u\n",
            (unsigned long long)(uintptr_t)b->image, (unsigned long long)b->srcStageMask,
            (unsigned long long)b->srcAccessMask, (unsigned long long)b->dstStageMask,
            (unsigned long long)b->dstAccessMask, (int)b->oldLayout, (int)b->newLayout, r->aspectMask,
            r->baseMipLevel, r->levelCount, r->baseArrayLayer, r->layerCount);
    }
}

void test_text_attachment(test_text_out *out, void *sink, const char *what, const VkRenderingAttachmentInfo *a)
{
    /* The clear value's first four bytes, whatever its type. */
    unsigned char clear[sizeof a->clearValue];
    memcpy(clear, &a->clearValue, sizeof clear);
    out(sink, "  %s view %llx layout %d load %d store %d resolve %x view %llx layout %d clear %02x%02x%02x%02x\n",
        what, (unsigned long long)(uintptr_t)a->imageView, (int)a->imageLayout, (int)a->loadOp, (int)a->storeOp,
        (unsigned)a->resolveMode, (unsigned long long)(uintptr_t)a->resolveImageView, (int)a->resolveImageLayout,
        clear[0], clear[1], clear[2], clear[3]);
}
