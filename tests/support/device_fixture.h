/* Criterion fixture for tests that need a Vulkan device.
 *
 *   TestSuite(render, .init = device_setup, .fini = device_teardown);
 *   Test(render, clears) { eng_context *ctx = test_ctx; ... }
 *
 * device_setup makes a headless context with the validation layer and
 * synchronization validation on. With no device (or no layer) the test is
 * skipped, unless ENG_REQUIRE_DEVICE=1 (CI sets it): then it fails.
 * device_teardown fails the test if any validation warning or error was
 * reported during it. */
#ifndef TEST_DEVICE_FIXTURE_H
#define TEST_DEVICE_FIXTURE_H

#include <engine/engine.h>

extern eng_context *test_ctx;

void device_setup(void);
void device_teardown(void);

/* True when ENG_REQUIRE_DEVICE says a missing device is a failure. */
int device_required(void);

/* Fails the current test if ctx saw validation warnings or errors. */
void expect_no_validation_messages(const eng_context *ctx);

#endif
