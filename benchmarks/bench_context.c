/* The benchmarks' context handling (bench_context.h). */
#include "bench_context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bench_device_required(void)
{
    const char *req = getenv("ENG_REQUIRE_DEVICE");
    return req && req[0] && strcmp(req, "0") != 0;
}

int bench_context_finish(eng_context *ctx, const char *name, bool validation, int rc)
{
    eng_message_counts mc = ctx ? eng_context_messages(ctx) : (eng_message_counts){ 0 };
    eng_context_destroy(ctx);
    if (validation && mc.warning + mc.error) {
        fprintf(stderr, "%s: %u validation warnings, %u errors\n", name, mc.warning, mc.error);
        return 1;
    }
    return rc;
}
