/* Criterion fixture for tests that need a Vulkan device.
 *
 *   TestSuite(render, .init = device_setup, .fini = device_teardown);
 *   DEVICE_TEST(render, clears) { eng_context *ctx = test_ctx; ... }
 *
 * device_setup makes a headless context with the validation layer and
 * synchronization validation on, plus the layer named by VKG_TEST_LAYER
 * below it when that is set. With no device (or no layer) the test is
 * skipped, unless ENG_REQUIRE_DEVICE=1 (CI sets it): then it fails.
 *
 * device_finish, which DEVICE_TEST calls after the test's body, destroys the
 * context and fails the test if any validation warning or error was
 * reported during it, including the ones the layer reports while the device
 * is destroyed (Vulkan objects the test leaked). It has to run inside the
 * test: Criterion 2.4 ignores assertion failures in .fini functions.
 * device_teardown (.fini) destroys a context a failed assertion left
 * behind; should that one have validation messages, it prints them and
 * ends the process with status 1, so the run fails even for a test that
 * bypassed DEVICE_TEST. */
#ifndef TEST_DEVICE_FIXTURE_H
#define TEST_DEVICE_FIXTURE_H

#include <engine/engine.h>
#include <stddef.h>

extern eng_context *test_ctx;

void device_setup(void);
void device_teardown(void);
void device_finish(void);

/* A Criterion Test(suite, name) whose body is followed by device_finish(). */
#define DEVICE_TEST(suite, name)                  \
    static void suite##__##name##__body(void);    \
    Test(suite, name)                             \
    {                                             \
        suite##__##name##__body();                \
        device_finish();                          \
    }                                             \
    static void suite##__##name##__body(void)

/* fn runs before the fixture destroys a context (destroy_context_counted,
 * device_finish, device_teardown), with that context: a helper's objects
 * of its device that live across calls go first. One hook at a time. */
void device_on_release(void (*fn)(eng_context *ctx));

/* The features a context the engine made (without
 * eng_context_desc.features) enabled on its device, as a vkCreateDevice
 * pNext chain: Vulkan 1.2's timelineSemaphore, 1.3's dynamicRendering,
 * synchronization2 and maintenance4, and local read where ctx enabled it;
 * what rg_device_desc.enabled_features and
 * eng_existing_device.enabled_features take over ctx's device. Valid
 * until the next call. */
const void *test_enabled_features(const eng_context *ctx);

/* ctx's instance, physical device, device, enabled features
 * (test_enabled_features) and every queue, with timeline semaphores: what
 * a second context over ctx's device (eng_context_desc.existing) is given.
 * Valid until the next test_enabled_features call. */
eng_existing_device test_existing_of(const eng_context *ctx);

/* A context of the test's own made from desc, asserted to succeed, given
 * the test program's vkGetInstanceProcAddr where desc names none (so that
 * destroy_context_counted sees its vkDestroyDevice); the test destroys it. */
eng_context *test_context_create(const eng_context_desc *desc);

/* True when ENG_REQUIRE_DEVICE says a missing device is a failure. */
int device_required(void);

/* Fails the current test if ctx saw validation warnings or errors. */
void expect_no_validation_messages(const eng_context *ctx);

/* Destroys ctx and returns its validation message counts as they stand
 * after vkDestroyDevice: the layer reports leaked objects there. When
 * first_message is not NULL it receives the first warning's or error's
 * text. */
eng_message_counts destroy_context_counted(eng_context *ctx, char *first_message, size_t size);
/* destroy_context_counted, and fails the current test (cr_expect) if a
 * validation warning or error was counted; `what` names the context in
 * the failure. */
void destroy_context_expect_clean(eng_context *ctx, const char *what);

/* A path for a temporary file, unique to this process: $TMPDIR (or /tmp)
 * / vkg-test-<pid>-<name>. The caller removes the file. */
const char *test_temp_path(char *buf, size_t size, const char *name);

/* Fails (ENG_REQUIRE_DEVICE) or skips the test because `what` is missing. */
void require_or_skip(const char *what);

#endif
