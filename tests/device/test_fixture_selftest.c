/* The fixture's own check, seen failing: both tests here must FAIL, one for
 * an invalid Vulkan call, one for a Vulkan object left alive at the end.
 * CTest runs this program expecting exactly that (tests/CMakeLists.txt:
 * device_fixture_selftest), which proves that the zero-message check every
 * device test ends with is not vacuous. */
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>

TestSuite(selftest, .init = device_setup, .fini = device_teardown);

DEVICE_TEST(selftest, invalid_call_fails_the_test)
{
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .extent = { 0, 0, 1 }, /* invalid on purpose */
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
    };
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(eng_context_device(test_ctx), &ci, NULL, &image) == VK_SUCCESS && image)
        vkDestroyImage(eng_context_device(test_ctx), image, NULL);
    fprintf(stderr, "selftest body done\n");
}

DEVICE_TEST(selftest, leaked_object_fails_the_test)
{
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    cr_assert_eq(vkCreateFence(eng_context_device(test_ctx), &fci, NULL, &fence), VK_SUCCESS);
    fprintf(stderr, "selftest body done\n"); /* the fence is never destroyed */
}
