/* A context the engine creates with the application's allocators
 * (eng_context_desc.allocator, .vk_allocator): the instance, the device,
 * the engine's objects and the graph's go through them, and everything is
 * freed with the context. */
#include "counting_allocator.h"
#include "counting_vk_allocator.h"
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(context_allocators);

Test(context_allocators, an_engine_made_context_allocates_through_the_application)
{
    counting host = { 0 };
    rg_allocator host_allocator = counting_allocator(&host);
    vk_counts vkc = { 0 };
    VkAllocationCallbacks vk_allocator = vk_counting_callbacks(&vkc);
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&(eng_context_desc){ .app_name = "allocators", .validation = true,
                                                           .allocator = &host_allocator,
                                                           .vk_allocator = &vk_allocator,
                                                           .get_instance_proc_addr = vkGetInstanceProcAddr },
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
