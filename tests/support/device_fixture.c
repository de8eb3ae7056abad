#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

eng_context *test_ctx;

int device_required(void)
{
    const char *v = getenv("ENG_REQUIRE_DEVICE");
    return v && v[0] && strcmp(v, "0") != 0;
}

void device_setup(void)
{
    eng_context_desc desc = { .app_name = "tests", .validation = true };
    eng_result r = eng_context_create(&desc, &test_ctx);
    if (r == ENG_SUCCESS)
        return;
    if (device_required())
        cr_assert_fail("a Vulkan device with validation is required (ENG_REQUIRE_DEVICE) but: %s: %s",
                 eng_result_string(r), eng_last_error());
    cr_skip_test("no Vulkan device with validation: %s: %s", eng_result_string(r), eng_last_error());
}

void expect_no_validation_messages(const eng_context *ctx)
{
    eng_message_counts m = eng_context_messages(ctx);
    cr_expect_eq(m.warning + m.error, 0, "%u validation warnings, %u errors; first: %s", m.warning, m.error,
                 eng_context_first_message(ctx));
}

void device_teardown(void)
{
    if (!test_ctx)
        return;
    eng_context *ctx = test_ctx;
    test_ctx = NULL;
    /* Destroying the device can itself report leaks: count those too. The
     * messenger lives until the instance dies, so read the counts after
     * everything but the instance is gone by checking twice. */
    expect_no_validation_messages(ctx);
    eng_context_destroy(ctx);
}
