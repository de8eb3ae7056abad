/* A stand-in for Criterion's <criterion/criterion.h>: the subset the
 * project's tests use, run by tests/runner/runner.c in one process.
 * Built instead of Criterion (tests/CMakeLists.txt, VKG_TEST_RUNNER=standin)
 * where Criterion cannot be used:
 *   - under ThreadSanitizer (scripts/tsan.sh): Criterion's boxfort arena
 *     probes ten random addresses in a range that ThreadSanitizer has
 *     mostly reserved and gives up ("Could not initialize inheritable
 *     arena", Snaipe/Criterion#274);
 *   - on Windows (scripts/windows.sh, MinGW-w64 under wine): Criterion is
 *     not packaged for MinGW;
 *   - on Linux beside Criterion (the unit.standin entry), which checks
 *     that both run the same tests.
 * Tests register themselves from constructor functions (gcc and clang,
 * ELF and PE alike); the runner runs each between its suite's and its own
 * init and fini, as Criterion would in a process of its own. An assert (or
 * a skip) leaves the test by longjmp: call them on the test's thread only
 * (a fatal one elsewhere aborts the run); an expect may fail on any thread. */
#ifndef VKG_STANDIN_CRITERION_H
#define VKG_STANDIN_CRITERION_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* What Test(suite, name, ...) and TestSuite(suite, ...) take, by name
 * (.init, .fini, .disabled, .description; .timeout is accepted and not
 * enforced). */
typedef struct cr_standin_opts {
    void (*init)(void);
    void (*fini)(void);
    bool disabled;
    const char *description;
    double timeout;
} cr_standin_opts;

typedef struct cr_standin_suite {
    const char *name;
    cr_standin_opts opts;
    struct cr_standin_suite *next;
} cr_standin_suite;

typedef struct cr_standin_test {
    const char *suite, *name;
    void (*body)(void);
    cr_standin_opts opts;
    struct cr_standin_test *next;
} cr_standin_test;

void cr_standin_register_suite(cr_standin_suite *suite);
void cr_standin_register_test(cr_standin_test *test);
/* A failed check: says where and why; fatal leaves the test. */
void cr_standin_fail(bool fatal, const char *file, int line, const char *check, const char *fmt, ...);
void cr_standin_skip(const char *fmt, ...);
void cr_standin_log(const char *tag, const char *fmt, ...);

#define TestSuite(suite, ...)                                                        \
    static cr_standin_suite cr_standin_suite_##suite = { #suite, { __VA_ARGS__ }, NULL }; \
    __attribute__((constructor)) static void cr_standin_register_suite_##suite(void) \
    {                                                                                \
        cr_standin_register_suite(&cr_standin_suite_##suite);                        \
    }

#define Test(suite, name, ...)                                                       \
    static void cr_standin_body_##suite##_##name(void);                              \
    static cr_standin_test cr_standin_test_##suite##_##name = {                      \
        #suite, #name, cr_standin_body_##suite##_##name, { __VA_ARGS__ }, NULL };     \
    __attribute__((constructor)) static void cr_standin_register_##suite##_##name(void) \
    {                                                                                \
        cr_standin_register_test(&cr_standin_test_##suite##_##name);                 \
    }                                                                                \
    static void cr_standin_body_##suite##_##name(void)

/* The message, when given, is a format string literal first: "" joins it. */
#define CR_STANDIN_CHECK_(fatal, cond, text, ...)                                    \
    do {                                                                             \
        if (!(cond))                                                                 \
            cr_standin_fail(fatal, __FILE__, __LINE__, text, "" __VA_ARGS__);        \
    } while (0)

#define cr_assert(cond, ...) CR_STANDIN_CHECK_(true, cond, #cond, __VA_ARGS__)
#define cr_expect(cond, ...) CR_STANDIN_CHECK_(false, cond, #cond, __VA_ARGS__)
#define cr_assert_not(cond, ...) CR_STANDIN_CHECK_(true, !(cond), "!(" #cond ")", __VA_ARGS__)
#define cr_expect_not(cond, ...) CR_STANDIN_CHECK_(false, !(cond), "!(" #cond ")", __VA_ARGS__)
#define CR_STANDIN_CMP_(fatal, a, op, b, ...) CR_STANDIN_CHECK_(fatal, (a) op (b), #a " " #op " " #b, __VA_ARGS__)
#define cr_assert_eq(a, b, ...) CR_STANDIN_CMP_(true, a, ==, b, __VA_ARGS__)
#define cr_expect_eq(a, b, ...) CR_STANDIN_CMP_(false, a, ==, b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...) CR_STANDIN_CMP_(true, a, !=, b, __VA_ARGS__)
#define cr_expect_neq(a, b, ...) CR_STANDIN_CMP_(false, a, !=, b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...) CR_STANDIN_CMP_(true, a, <, b, __VA_ARGS__)
#define cr_expect_lt(a, b, ...) CR_STANDIN_CMP_(false, a, <, b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...) CR_STANDIN_CMP_(true, a, <=, b, __VA_ARGS__)
#define cr_expect_leq(a, b, ...) CR_STANDIN_CMP_(false, a, <=, b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...) CR_STANDIN_CMP_(true, a, >, b, __VA_ARGS__)
#define cr_expect_gt(a, b, ...) CR_STANDIN_CMP_(false, a, >, b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...) CR_STANDIN_CMP_(true, a, >=, b, __VA_ARGS__)
#define cr_expect_geq(a, b, ...) CR_STANDIN_CMP_(false, a, >=, b, __VA_ARGS__)
#define cr_assert_null(p, ...) CR_STANDIN_CHECK_(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_expect_null(p, ...) CR_STANDIN_CHECK_(false, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...) CR_STANDIN_CHECK_(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_expect_not_null(p, ...) CR_STANDIN_CHECK_(false, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) CR_STANDIN_CHECK_(true, strcmp((a), (b)) == 0, #a " equals " #b, __VA_ARGS__)
#define cr_expect_str_eq(a, b, ...) CR_STANDIN_CHECK_(false, strcmp((a), (b)) == 0, #a " equals " #b, __VA_ARGS__)
#define cr_assert_str_neq(a, b, ...) CR_STANDIN_CHECK_(true, strcmp((a), (b)) != 0, #a " differs: " #b, __VA_ARGS__)
#define cr_expect_str_neq(a, b, ...) CR_STANDIN_CHECK_(false, strcmp((a), (b)) != 0, #a " differs: " #b, __VA_ARGS__)
#define cr_assert_fail(...) cr_standin_fail(true, __FILE__, __LINE__, "cr_assert_fail", "" __VA_ARGS__)
#define cr_expect_fail(...) cr_standin_fail(false, __FILE__, __LINE__, "cr_expect_fail", "" __VA_ARGS__)
#define cr_skip_test(...) cr_standin_skip("" __VA_ARGS__)
#define cr_log_info(...) cr_standin_log("[----] ", __VA_ARGS__)
#define cr_log_warn(...) cr_standin_log("[WARN] ", __VA_ARGS__)
#define cr_log_error(...) cr_standin_log("[ERR ] ", __VA_ARGS__)

#endif
