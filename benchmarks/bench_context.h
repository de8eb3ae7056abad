/* What every benchmark does with its engine context around its runs: skip
 * or fail where there is no device, and fail where validation said
 * anything. */
#ifndef BENCH_CONTEXT_H
#define BENCH_CONTEXT_H

#include <engine/engine.h>

#include <stdbool.h>

/* ENG_REQUIRE_DEVICE is set (and not "0"): a missing device fails the
 * benchmark (1) instead of skipping it (77, "skipped" to CTest). */
bool bench_device_required(void);

/* Destroys ctx (NULL: none). Returns 1 when validation is on and reported
 * warnings or errors (printed on stderr after "name: "), else rc. */
int bench_context_finish(eng_context *ctx, const char *name, bool validation, int rc);

#endif
