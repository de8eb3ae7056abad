/* Why a demo frame's draw cannot record: a record callback can only
 * return false (rg_execute then reports RG_ERROR_CALLBACK), so the reason
 * goes to stderr. Header only, as demo_lock.h: the deferred and scene
 * frames, built for the benchmarks too, link no demo_common. */
#ifndef DEMO_RECORD_FAIL_H
#define DEMO_RECORD_FAIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Writes "<frame>: <pass>: <message>" and a newline on stderr; returns
 * false, for the callback to return. */
static inline bool demo_record_fail(const char *frame, const char *pass, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline bool demo_record_fail(const char *frame, const char *pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: %s: ", frame, pass);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

#endif
