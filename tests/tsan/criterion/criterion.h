/* A stand-in for Criterion's <criterion/criterion.h> in the
 * ThreadSanitizer build (scripts/tsan.sh, VKG_TSAN=ON).
 * Criterion's runner cannot start under ThreadSanitizer: its boxfort
 * arena probes ten random addresses in a range that ThreadSanitizer has
 * mostly reserved and gives up ("Could not initialize inheritable arena",
 * Snaipe/Criterion#274). Here the suites' tests register themselves and
 * tests/tsan/runner.c runs them in one process, one after another, each
 * between its suite's init and fini, as Criterion would in a process of
 * its own. Only what the suites built this way use is defined. An assert
 * (or a skip) leaves the test by longjmp: call them on the test's thread
 * only (a failed one elsewhere aborts the run). */
#ifndef VKG_TSAN_CRITERION_H
#define VKG_TSAN_CRITERION_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct tsan_suite {
    const char *name;
    void (*init)(void);
    void (*fini)(void);
    struct tsan_suite *next;
} tsan_suite;

typedef struct tsan_test {
    const char *suite, *name;
    void (*body)(void);
    struct tsan_test *next;
} tsan_test;

void tsan_register_suite(tsan_suite *suite);
void tsan_register_test(tsan_test *test);
/* A failed check: says where and why; fatal leaves the test. */
void tsan_fail(bool fatal, const char *file, int line, const char *check, const char *fmt, ...);
void tsan_skip(const char *fmt, ...);
void tsan_log(const char *fmt, ...);

#define TestSuite(suite, ...)                                                        \
    static tsan_suite tsan_suite_##suite = { #suite, __VA_ARGS__ };                  \
    __attribute__((constructor)) static void tsan_register_suite_##suite(void)       \
    {                                                                                \
        tsan_register_suite(&tsan_suite_##suite);                                    \
    }

#define Test(suite, name, ...)                                                       \
    static void tsan_body_##suite##_##name(void);                                    \
    static tsan_test tsan_test_##suite##_##name = { #suite, #name, tsan_body_##suite##_##name, NULL }; \
    __attribute__((constructor)) static void tsan_register_##suite##_##name(void)    \
    {                                                                                \
        tsan_register_test(&tsan_test_##suite##_##name);                             \
    }                                                                                \
    static void tsan_body_##suite##_##name(void)

/* The message, when given, is a string literal first: "" joins it. */
#define TSAN_CHECK_(fatal, cond, ...)                                                \
    do {                                                                             \
        if (!(cond))                                                                 \
            tsan_fail(fatal, __FILE__, __LINE__, #cond, "" __VA_ARGS__);             \
    } while (0)

#define cr_assert(cond, ...) TSAN_CHECK_(true, cond, __VA_ARGS__)
#define cr_expect(cond, ...) TSAN_CHECK_(false, cond, __VA_ARGS__)
#define cr_assert_eq(a, b, ...) TSAN_CHECK_(true, (a) == (b), __VA_ARGS__)
#define cr_expect_eq(a, b, ...) TSAN_CHECK_(false, (a) == (b), __VA_ARGS__)
#define cr_assert_neq(a, b, ...) TSAN_CHECK_(true, (a) != (b), __VA_ARGS__)
#define cr_expect_neq(a, b, ...) TSAN_CHECK_(false, (a) != (b), __VA_ARGS__)
#define cr_assert_lt(a, b, ...) TSAN_CHECK_(true, (a) < (b), __VA_ARGS__)
#define cr_expect_lt(a, b, ...) TSAN_CHECK_(false, (a) < (b), __VA_ARGS__)
#define cr_assert_leq(a, b, ...) TSAN_CHECK_(true, (a) <= (b), __VA_ARGS__)
#define cr_expect_leq(a, b, ...) TSAN_CHECK_(false, (a) <= (b), __VA_ARGS__)
#define cr_assert_gt(a, b, ...) TSAN_CHECK_(true, (a) > (b), __VA_ARGS__)
#define cr_expect_gt(a, b, ...) TSAN_CHECK_(false, (a) > (b), __VA_ARGS__)
#define cr_assert_geq(a, b, ...) TSAN_CHECK_(true, (a) >= (b), __VA_ARGS__)
#define cr_expect_geq(a, b, ...) TSAN_CHECK_(false, (a) >= (b), __VA_ARGS__)
#define cr_assert_not_null(p, ...) TSAN_CHECK_(true, (p) != NULL, __VA_ARGS__)
#define cr_expect_not_null(p, ...) TSAN_CHECK_(false, (p) != NULL, __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) TSAN_CHECK_(true, strcmp((a), (b)) == 0, __VA_ARGS__)
#define cr_expect_str_eq(a, b, ...) TSAN_CHECK_(false, strcmp((a), (b)) == 0, __VA_ARGS__)
#define cr_assert_fail(...) tsan_fail(true, __FILE__, __LINE__, "cr_assert_fail", "" __VA_ARGS__)
#define cr_skip_test(...) tsan_skip("" __VA_ARGS__)
#define cr_log_info(...) tsan_log(__VA_ARGS__)

#endif
