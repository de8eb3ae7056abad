/* A monotonic clock for what the library measures on the CPU (the
 * measured queue policy's submission times): clock_gettime's
 * CLOCK_MONOTONIC on POSIX systems, QueryPerformanceCounter on Windows. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#endif
#include "base/base.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

double rg__clock_ms(void)
{
    LARGE_INTEGER now, freq;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&freq);
    return (double)now.QuadPart * 1e3 / (double)freq.QuadPart;
}
#else
#include <time.h>

double rg__clock_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
#endif
