/* The runner behind tests/runner/criterion/criterion.h: every registered
 * test that --filter matches (a glob over "SUITE/NAME", Criterion's form:
 * 'SUITE/\*'; all when absent), in one process, one after another, in
 * Criterion's order (suites, then tests, by name): its suite's init, its
 * own init, its body, its own fini, its suite's fini, the init and body
 * under a setjmp that a fatal check or a skip returns to. It prints
 * Criterion's lines ([RUN ], [PASS], [FAIL], [SKIP] and the synthesis
 * "Tested: N | Passing: N | Failing: N | Crashing: 0", which
 * tests/CMakeLists.txt's SKIP_REGULAR_EXPRESSION and the count checks read)
 * and exits 1 when a test failed. --list prints the tests as Criterion's
 * --list does. --jobs/-j and --verbose are accepted and mean nothing here:
 * one process, one test at a time. */
#if defined(_WIN32) && !defined(__USE_MINGW_ANSI_STDIO)
#define __USE_MINGW_ANSI_STDIO 1 /* %zu and %llu in the tests' messages */
#endif
#include "criterion/criterion.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static cr_standin_suite *suites;
static cr_standin_test *tests;
static size_t test_count;

void cr_standin_register_suite(cr_standin_suite *suite)
{
    suite->next = suites;
    suites = suite;
}

void cr_standin_register_test(cr_standin_test *test)
{
    test->next = tests;
    tests = test;
    test_count++;
}

/* The test running: where a fatal check or a skip returns to and how it
 * went. Only the thread main runs on has on_test_thread set. */
static struct {
    jmp_buf out;
    const cr_standin_test *test;
    const cr_standin_suite *suite;
    volatile bool failed, skipped;
} run;
static _Thread_local bool on_test_thread;

static void print_message(const char *fmt, va_list ap)
{
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cr_standin_fail(bool fatal, const char *file, int line, const char *check, const char *fmt, ...)
{
    fprintf(stderr, "[----] %s:%d: %s failed: %s\n", file, line, fatal ? "Assertion" : "Expectation", check);
    if (fmt[0]) {
        fprintf(stderr, "[----]   ");
        va_list ap;
        va_start(ap, fmt);
        print_message(fmt, ap);
        va_end(ap);
    }
    run.failed = true;
    if (!fatal)
        return;
    if (!on_test_thread) {
        fprintf(stderr, "[----] a fatal check off the test's thread: the run stops\n");
        abort();
    }
    longjmp(run.out, 1);
}

void cr_standin_skip(const char *fmt, ...)
{
    fprintf(stderr, "[SKIP] %s::%s: ", run.test->suite, run.test->name);
    va_list ap;
    va_start(ap, fmt);
    print_message(fmt, ap);
    va_end(ap);
    run.skipped = true;
    if (!on_test_thread) {
        fprintf(stderr, "[----] a skip off the test's thread: the run stops\n");
        abort();
    }
    longjmp(run.out, 1);
}

void cr_standin_log(const char *tag, const char *fmt, ...)
{
    fputs(tag, stderr);
    va_list ap;
    va_start(ap, fmt);
    print_message(fmt, ap);
    va_end(ap);
}

static const cr_standin_suite *suite_of(const char *name)
{
    for (const cr_standin_suite *s = suites; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* A glob: '*' any run of characters, '?' any one. */
static bool glob(const char *p, const char *s)
{
    for (; *p; p++, s++) {
        if (*p == '*') {
            for (const char *t = s;; t++) {
                if (glob(p + 1, t))
                    return true;
                if (!*t)
                    return false;
            }
        }
        if (!*s || (*p != '?' && *p != *s))
            return false;
    }
    return !*s;
}

static bool wanted(const cr_standin_test *t, const char *filter)
{
    if (!filter)
        return true;
    char full[512];
    snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
    return glob(filter, full);
}

static int by_name(const void *a, const void *b)
{
    const cr_standin_test *x = *(const cr_standin_test *const *)a, *y = *(const cr_standin_test *const *)b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->name, y->name);
}

/* The inits and the body, until a fatal check or a skip (no local
 * variable lives across the setjmp). */
static void run_test(void)
{
    if (setjmp(run.out) == 0) {
        if (run.suite && run.suite->opts.init)
            run.suite->opts.init();
        if (run.test->opts.init)
            run.test->opts.init();
        run.test->body();
    }
}

/* Criterion's --list: "SUITE: N tests" and a tree line per test. */
static void list(cr_standin_test **order, size_t n, const char *filter)
{
    static const char branch[] = "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80"; /* U+251C U+2500 U+2500 */
    static const char last[] = "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80";   /* U+2514 U+2500 U+2500 */
    for (size_t i = 0; i < n;) {
        size_t end = i, count = 0;
        while (end < n && strcmp(order[end]->suite, order[i]->suite) == 0)
            count += wanted(order[end++], filter);
        if (count) {
            printf("%s: %zu test%s\n", order[i]->suite, count, count == 1 ? "" : "s");
            size_t shown = 0;
            for (size_t k = i; k < end; k++)
                if (wanted(order[k], filter))
                    printf("%s %s\n", ++shown == count ? last : branch, order[k]->name);
        }
        i = end;
    }
}

int main(int argc, char **argv)
{
    const char *filter = NULL;
    bool listing = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--filter") == 0 && i + 1 < argc)
            filter = argv[++i];
        else if (strncmp(a, "--filter=", 9) == 0)
            filter = a + 9;
        else if (strcmp(a, "--list") == 0 || strcmp(a, "-l") == 0)
            listing = true;
        else if ((strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) && i + 1 < argc)
            i++;
        else if (strncmp(a, "--jobs=", 7) == 0 || (strncmp(a, "-j", 2) == 0 && a[2]) ||
                 strncmp(a, "--verbose", 9) == 0)
            ;
        else {
            fprintf(stderr, "%s: unknown option '%s' (a stand-in for Criterion: --filter GLOB, --list, "
                            "--jobs N, --verbose)\n", argv[0], a);
            return 2;
        }
    }
    cr_standin_test **order = malloc((test_count ? test_count : 1) * sizeof *order);
    if (!order)
        return 2;
    size_t n = 0;
    for (cr_standin_test *t = tests; t; t = t->next)
        order[n++] = t;
    qsort(order, n, sizeof *order, by_name);
    if (listing) {
        list(order, n, filter);
        free(order);
        return 0;
    }
    on_test_thread = true;
    unsigned tested = 0, passing = 0, failing = 0;
    for (size_t i = 0; i < n; i++) {
        cr_standin_test *t = order[i];
        const cr_standin_suite *s = suite_of(t->suite);
        if (!wanted(t, filter) || t->opts.disabled || (s && s->opts.disabled))
            continue;
        fprintf(stderr, "[RUN ] %s::%s\n", t->suite, t->name);
        run.test = t;
        run.suite = s;
        run.failed = run.skipped = false;
        run_test();
        if (t->opts.fini)
            t->opts.fini();
        if (s && s->opts.fini)
            s->opts.fini();
        if (run.skipped && !run.failed)
            continue;
        tested++;
        passing += !run.failed;
        failing += run.failed;
        fprintf(stderr, "[%s] %s::%s\n", run.failed ? "FAIL" : "PASS", t->suite, t->name);
    }
    free(order);
    fprintf(stderr, "[====] Synthesis: Tested: %u | Passing: %u | Failing: %u | Crashing: 0 \n", tested, passing,
            failing);
    fflush(stderr);
    return failing ? 1 : 0;
}
