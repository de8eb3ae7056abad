/* The render graph's log (rg_log_fn) as a test hears it, from any thread:
 * errors and warnings counted, the first of each kept as "object:
 * message". Give test_hear as the log and a test_heard, made with
 * TEST_HEARD_INIT, as its user. */
#ifndef TEST_LOG_H
#define TEST_LOG_H

#include <rendergraph/rendergraph.h>
#include <stdatomic.h>
#include <stdio.h>

typedef struct test_heard {
    atomic_int errors, warnings;
    atomic_flag error_taken, warning_taken;
    char first_error[1024], first_warning[1024];
} test_heard;

#define TEST_HEARD_INIT { .error_taken = ATOMIC_FLAG_INIT, .warning_taken = ATOMIC_FLAG_INIT }

static inline void test_hear(void *user, rg_log_level level, const char *object, const char *message)
{
    test_heard *h = user;
    if (level == RG_LOG_ERROR) {
        if (!atomic_flag_test_and_set(&h->error_taken))
            snprintf(h->first_error, sizeof h->first_error, "%s: %s", object, message);
        atomic_fetch_add(&h->errors, 1);
    } else if (level == RG_LOG_WARNING) {
        if (!atomic_flag_test_and_set(&h->warning_taken))
            snprintf(h->first_warning, sizeof h->first_warning, "%s: %s", object, message);
        atomic_fetch_add(&h->warnings, 1);
    }
}

#endif
