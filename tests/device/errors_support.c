/* The bad-input tests' check (errors_support.h). */
#include "errors_support.h"

#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <engine_files/engine_files.h>
#include <stdlib.h>
#include <string.h>

void errors_expect_fail(const char *call, int line, eng_result got, eng_result want, const void *out,
                        const char *needle)
{
    cr_expect_eq(got, want, "line %d: %s: got %s, want %s (%s)", line, call, eng_result_string(got),
                 eng_result_string(want), eng_last_error());
    cr_expect_null(out, "line %d: %s: output pointer not NULL", line, call);
    cr_expect_neq(eng_last_error()[0], '\0', "line %d: %s: no message", line, call);
    if (needle)
        cr_expect_neq(strstr(eng_last_error(), needle), NULL, "line %d: %s: '%s' lacks '%s'", line, call,
                      eng_last_error(), needle);
}
