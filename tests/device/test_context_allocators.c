/* A context the engine creates with the application's allocators
 * (eng_context_desc.allocator, .vk_allocator): the instance, the device,
 * the engine's objects and the graph's go through them, and everything is
 * freed with the context. */
#include "counting_allocator.h"
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/* Vulkan's allocation callbacks, counted: each block carries its size and
 * alignment in front of it (for reallocation and freeing). */
typedef struct vk_counts {
    uint32_t allocations, live;
} vk_counts;

static VKAPI_ATTR void *VKAPI_CALL vk_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
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

static VKAPI_ATTR void VKAPI_CALL vk_free(void *user, void *mem)
{
    vk_counts *c = user;
    if (!mem)
        return;
    free((unsigned char *)mem - ((size_t *)mem)[-2]);
    c->live--;
}

static VKAPI_ATTR void *VKAPI_CALL vk_realloc(void *user, void *orig, size_t size, size_t align,
                                              VkSystemAllocationScope scope)
{
    if (!orig)
        return vk_alloc(user, size, align, scope);
    if (size == 0) {
        vk_free(user, orig);
        return NULL;
    }
    void *p = vk_alloc(user, size, align, scope);
    if (!p)
        return NULL;
    size_t old = ((size_t *)orig)[-1];
    memcpy(p, orig, old < size ? old : size);
    vk_free(user, orig);
    return p;
}

TestSuite(context_allocators);

Test(context_allocators, an_engine_made_context_allocates_through_the_application)
{
    counting host = { 0 };
    rg_allocator host_allocator = counting_allocator(&host);
    vk_counts vkc = { 0 };
    VkAllocationCallbacks vk_allocator = { .pUserData = &vkc, .pfnAllocation = vk_alloc,
                                           .pfnReallocation = vk_realloc, .pfnFree = vk_free };
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&(eng_context_desc){ .app_name = "allocators", .validation = true,
                                                           .allocator = &host_allocator,
                                                           .vk_allocator = &vk_allocator },
                                      &ctx);
    if (r == ENG_ERROR_NO_DEVICE || r == ENG_ERROR_LAYER_MISSING)
        require_or_skip(eng_last_error());
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    uint32_t host_before = host.calls, vk_before = vkc.allocations;
    cr_expect_gt(host_before, 0);
    cr_expect_gt(vk_before, 0, "the instance and device did not go through the callbacks");
    eng_image *image = NULL;
    cr_assert_eq(eng_image_create(ctx, &(eng_image_desc){ .name = "counted", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 4, .height = 4,
                                                          .usage = VK_IMAGE_USAGE_SAMPLED_BIT },
                                  &image),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_gt(host.calls, host_before);
    cr_expect_gt(vkc.allocations, vk_before);
    eng_image_destroy(image);
    eng_message_counts m = eng_context_messages(ctx);
    cr_expect_eq(m.warning + m.error, 0, "first: %s", eng_context_first_message(ctx));
    eng_context_destroy(ctx);
    cr_expect_eq(host.live, 0, "%u host blocks of %u allocations left", host.live, host.calls);
    cr_expect_eq(vkc.live, 0, "%u Vulkan blocks of %u allocations left", vkc.live, vkc.allocations);
}

/* An allocator without all three functions is refused before anything is
 * made. */
Test(context_allocators, an_incomplete_allocator_is_refused)
{
    rg_allocator half = { .alloc = count_alloc };
    eng_context *ctx = (eng_context *)(uintptr_t)1;
    cr_expect_eq(eng_context_create(&(eng_context_desc){ .allocator = &half }, &ctx), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(ctx);
    cr_expect(strstr(eng_last_error(), "allocator"), "%s", eng_last_error());
}
