/* Helpers of the bad-input tests (test_errors*.c): a failing call's
 * code, message and output pointer checked at once (EXPECT_FAIL). */
#ifndef TEST_ERRORS_SUPPORT_H
#define TEST_ERRORS_SUPPORT_H

#include <engine/engine.h>
#include <stdint.h>

/* A non-NULL value the calls must overwrite with NULL. */
#define POISON(type) ((type *)(uintptr_t)0x1)

void errors_expect_fail(const char *call, int line, eng_result got, eng_result want, const void *out,
                        const char *needle);

/* Runs call and checks its result, that out is NULL afterwards, and that
 * the message contains needle (or is not empty, for needle NULL). */
#define EXPECT_FAIL(call, code, out, needle)                                 \
    do {                                                                     \
        eng_result r_ = (call); /* before out is read */                     \
        errors_expect_fail(#call, __LINE__, r_, (code), (out), (needle));    \
    } while (0)

#endif
