/* The harness's one way to fail: CHECK(cond, fmt, ...) prints the
 * condition and the message, then aborts, so libFuzzer keeps the input
 * (fuzz_graph.c and record_check.c). */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "fuzz_graph: check failed: %s: ", #cond); \
            fprintf(stderr, __VA_ARGS__);                             \
            fputc('\n', stderr);                                      \
            abort();                                                  \
        }                                                             \
    } while (0)

#endif
