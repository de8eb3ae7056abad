/* The runner behind tests/tsan/criterion/criterion.h (scripts/tsan.sh):
 * every registered test whose suite --filter names ("SUITE/\*", or all),
 * in one process, one after another: its suite's init, its body, its
 * suite's fini, each under a setjmp that a fatal check or a skip returns
 * to. It prints Criterion's lines ([RUN ], [PASS], [FAIL], [SKIP] and the
 * synthesis, which tests/CMakeLists.txt's SKIP_REGULAR_EXPRESSION reads)
 * and exits 1 when a test failed. --jobs and --verbose are accepted and
 * mean nothing here. */
#include "criterion/criterion.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static tsan_suite *suites;
static tsan_test *tests, **tests_tail = &tests;

void tsan_register_suite(tsan_suite *suite)
{
    suite->next = suites;
    suites = suite;
}

void tsan_register_test(tsan_test *test)
{
    *tests_tail = test; /* in declaration order */
    tests_tail = &test->next;
}

/* The test running: where a fatal check or a skip returns to, on which
 * thread, and how it went. */
static struct {
    jmp_buf out;
    thrd_t thread;
    const tsan_test *test;
    const tsan_suite *suite;
    bool failed, skipped;
} run;

void tsan_fail(bool fatal, const char *file, int line, const char *check, const char *fmt, ...)
{
    fprintf(stderr, "[----] %s:%d: %s failed: %s\n[----]   ", file, line, fatal ? "Assertion" : "Expectation", check);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    run.failed = true;
    if (!fatal)
        return;
    if (!thrd_equal(thrd_current(), run.thread)) {
        fprintf(stderr, "[----] a fatal check off the test's thread: the run stops\n");
        abort();
    }
    longjmp(run.out, 1);
}

void tsan_skip(const char *fmt, ...)
{
    fprintf(stderr, "[SKIP] ");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    run.skipped = true;
    longjmp(run.out, 1);
}

void tsan_log(const char *fmt, ...)
{
    fprintf(stderr, "[----] ");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static const tsan_suite *suite_of(const char *name)
{
    for (const tsan_suite *s = suites; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* "SUITE/\*" (Criterion's form), "SUITE/NAME", or NULL for all. */
static bool wanted(const tsan_test *t, const char *filter)
{
    if (!filter)
        return true;
    size_t n = strlen(t->suite);
    if (strncmp(filter, t->suite, n) != 0 || filter[n] != '/')
        return false;
    return strcmp(filter + n + 1, "*") == 0 || strcmp(filter + n + 1, t->name) == 0;
}

/* The suite's init and the test's body, until a fatal check or a skip
 * (no local variable lives across the setjmp). */
static void run_test(void)
{
    if (setjmp(run.out) == 0) {
        if (run.suite && run.suite->init)
            run.suite->init();
        run.test->body();
    }
}

int main(int argc, char **argv)
{
    const char *filter = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
            filter = argv[++i];
    unsigned tested = 0, passing = 0, failing = 0;
    for (tsan_test *t = tests; t; t = t->next) {
        if (!wanted(t, filter))
            continue;
        const tsan_suite *s = suite_of(t->suite);
        fprintf(stderr, "[RUN ] %s::%s\n", t->suite, t->name);
        run.thread = thrd_current();
        run.test = t;
        run.suite = s;
        run.failed = run.skipped = false;
        run_test();
        if (s && s->fini)
            s->fini();
        if (run.skipped && !run.failed)
            continue;
        tested++;
        passing += !run.failed;
        failing += run.failed;
        fprintf(stderr, "[%s] %s::%s\n", run.failed ? "FAIL" : "PASS", t->suite, t->name);
    }
    fprintf(stderr, "[====] Synthesis: Tested: %u | Passing: %u | Failing: %u | Crashing: 0 \n", tested, passing,
            failing);
    return failing ? 1 : 0;
}
