/* The zero-validation-message checks every device test ends with can fail:
 * deliberate misuse in contexts of their own is counted. */
#include "device_fixture.h"
#include "test_image_info.h"

#include <criterion/criterion.h>
#include <string.h>

TestSuite(validation, .init = device_setup, .fini = device_teardown);

static eng_context *quiet_context(void)
{
    eng_context_desc desc = { .app_name = "tests-misuse", .validation = true, .quiet = true };
    eng_context *ctx = test_context_create(&desc);
    return ctx;
}

/* An image of zero extent (VUID-VkImageCreateInfo-extent-00944): the
 * validation layer reports it. */
static void create_invalid_image(eng_context *ctx)
{
    /* A zero extent: the layer reports it. */
    VkImageCreateInfo ci =
        test_image_info(VK_FORMAT_R8G8B8A8_UNORM, 0, 0, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImage image = VK_NULL_HANDLE;
    VkResult vr = vkCreateImage(eng_context_device(ctx), &ci, NULL, &image);
    if (vr == VK_SUCCESS && image) /* the layer may let the call through */
        vkDestroyImage(eng_context_device(ctx), image, NULL);
}

DEVICE_TEST(validation, fixture_context_is_validated)
{
    cr_assert_not_null(test_ctx);
    cr_assert(eng_context_device(test_ctx));
    cr_assert(eng_context_queue(test_ctx));
    cr_assert_eq(eng_context_surface(test_ctx), VK_NULL_HANDLE, "headless");
    cr_assert_geq(eng_context_properties(test_ctx)->apiVersion, VK_API_VERSION_1_3);
    eng_message_counts m = eng_context_messages(test_ctx);
    cr_expect_eq(m.warning + m.error, 0, "first: %s", eng_context_first_message(test_ctx));
    cr_expect_str_eq(eng_context_first_message(test_ctx), "");
}

DEVICE_TEST(validation, invalid_call_is_counted)
{
    eng_context *ctx = quiet_context();
    cr_assert_eq(eng_context_messages(ctx).error, 0, "a fresh context has no errors: %s",
                 eng_context_first_message(ctx));
    create_invalid_image(ctx);
    eng_message_counts m = eng_context_messages(ctx);
    cr_expect_gt(m.error, 0, "an image with zero extent was not reported");
    cr_expect_neq(strstr(eng_context_first_message(ctx), "extent"), NULL, "first message: %s",
                  eng_context_first_message(ctx));
    char first[1024];
    m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_gt(m.error, 0);
}

/* Objects still alive at vkDestroyDevice are reported there, and the
 * fixture's teardown counts those reports. */
DEVICE_TEST(validation, leaked_object_is_counted_at_teardown)
{
    eng_context *ctx = quiet_context();
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence = VK_NULL_HANDLE;
    cr_assert_eq(vkCreateFence(eng_context_device(ctx), &fci, NULL, &fence), VK_SUCCESS);
    eng_message_counts before = eng_context_messages(ctx);
    cr_assert_eq(before.warning + before.error, 0, "%s", eng_context_first_message(ctx));
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first); /* fence leaked on purpose */
    cr_expect_gt(m.error, 0, "the leaked VkFence was not reported");
    cr_expect_neq(strstr(first, "VkFence"), NULL, "first message: %s", first);
}

typedef struct logged {
    uint32_t errors;
    char first[1024];
    char object[128];
} logged;

static void keep(void *user, rg_log_level level, const char *object, const char *message)
{
    logged *l = user;
    if (level != RG_LOG_ERROR)
        return;
    if (!l->errors++) {
        snprintf(l->first, sizeof l->first, "%s", message);
        snprintf(l->object, sizeof l->object, "%s", object);
    }
}

/* eng_context_desc.log gets the validation layer's messages instead of
 * stderr, and the render graph's about graphs on the context's device. */
DEVICE_TEST(validation, messages_reach_the_log)
{
    logged l = { 0 };
    eng_context_desc desc = { .app_name = "tests-log", .validation = true, .log = keep, .log_user = &l,
                              .get_instance_proc_addr = vkGetInstanceProcAddr };
    eng_context *ctx = NULL;
    eng_result er = eng_context_create(&desc, &ctx);
    cr_assert_eq(er, ENG_SUCCESS, "%s: %s", eng_result_string(er), eng_last_error());
    create_invalid_image(ctx);
    cr_expect_gt(l.errors, 0, "the invalid image reached no log");
    cr_expect_neq(strstr(l.first, "extent"), NULL, "first: %s", l.first);

    uint32_t before = l.errors;
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "logged", .device = eng_context_graph_device(ctx) }, &g),
                 RG_SUCCESS);
    rg_command_info info;
    cr_expect_eq(rg_command_get_info(g, (rg_command){ 0 }, &info), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(l.errors, before + 1, "the graph's error reached the context's log %u times", l.errors - before);
    rg_graph_destroy(g);
    char first[1024];
    destroy_context_counted(ctx, first, sizeof first);
}
