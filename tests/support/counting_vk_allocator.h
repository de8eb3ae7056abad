/* Vulkan's allocation callbacks (VkAllocationCallbacks), counted: every
 * allocation and the blocks still live, for the tests that check an
 * application's callbacks see every Vulkan allocation and get each back
 * (device/test_existing_device.c, device/test_context_allocators.c). Each
 * block carries its size and alignment in front of it, for reallocation
 * and freeing. */
#ifndef TEST_COUNTING_VK_ALLOCATOR_H
#define TEST_COUNTING_VK_ALLOCATOR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

typedef struct vk_counts {
    uint32_t allocations, live;
} vk_counts;

static VKAPI_ATTR void *VKAPI_CALL vk_counted_alloc(void *user, size_t size, size_t align,
                                                    VkSystemAllocationScope scope)
{
    (void)scope;
    vk_counts *c = user;
    if (align < 2 * sizeof(size_t))
        align = 2 * sizeof(size_t);
    unsigned char *base = aligned_alloc(align, (size + align + align - 1) / align * align);
    if (!base)
        return NULL;
    size_t *p = (size_t *)(base + align);
    p[-1] = size;
    p[-2] = align;
    c->allocations++;
    c->live++;
    return p;
}

static VKAPI_ATTR void VKAPI_CALL vk_counted_free(void *user, void *mem)
{
    vk_counts *c = user;
    if (!mem)
        return;
    free((unsigned char *)mem - ((size_t *)mem)[-2]);
    c->live--;
}

static VKAPI_ATTR void *VKAPI_CALL vk_counted_realloc(void *user, void *orig, size_t size, size_t align,
                                                      VkSystemAllocationScope scope)
{
    if (!orig)
        return vk_counted_alloc(user, size, align, scope);
    if (size == 0) {
        vk_counted_free(user, orig);
        return NULL;
    }
    void *p = vk_counted_alloc(user, size, align, scope);
    if (!p)
        return NULL;
    size_t old = ((size_t *)orig)[-1];
    memcpy(p, orig, old < size ? old : size);
    vk_counted_free(user, orig);
    return p;
}

static inline VkAllocationCallbacks vk_counting_callbacks(vk_counts *c)
{
    return (VkAllocationCallbacks){ .pUserData = c, .pfnAllocation = vk_counted_alloc,
                                    .pfnReallocation = vk_counted_realloc, .pfnFree = vk_counted_free };
}

#endif
