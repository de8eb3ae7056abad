/* graph_cpu --threads' and --redeclare's helpers: median and spread over
 * runs, the cores a configuration records on, the counting allocator
 * (graph_cpu_stats.h). Pinning is
 * Linux only (sched_setaffinity on the calling thread, whose mask the
 * threads it starts afterwards inherit); elsewhere nothing is pinned. */
#ifdef __linux__
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#endif
#include "graph_cpu_stats.h"

#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double gc_median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

gc_spread gc_spread_of(const double *v, uint32_t n)
{
    double copy[GC_MAX_RUNS];
    if (n > GC_MAX_RUNS)
        n = GC_MAX_RUNS;
    memcpy(copy, v, n * sizeof *copy);
    gc_spread s = { .median = gc_median(copy, n), .min = v[0], .max = v[0] };
    for (uint32_t i = 1; i < n; i++) {
        if (v[i] < s.min)
            s.min = v[i];
        if (v[i] > s.max)
            s.max = v[i];
    }
    s.relative = s.median > 0 ? 100.0 * (s.max - s.min) / s.median : 0;
    return s;
}

static void *count_alloc(void *user, size_t size)
{
    atomic_fetch_add(&((gc_counting *)user)->calls, 1);
    return malloc(size);
}

static void *count_realloc(void *user, void *ptr, size_t size)
{
    atomic_fetch_add(&((gc_counting *)user)->calls, 1);
    return realloc(ptr, size);
}

static void count_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

rg_allocator gc_counting_allocator(gc_counting *c)
{
    return (rg_allocator){ count_alloc, count_realloc, count_free, c };
}

#ifdef __linux__
static cpu_set_t initial;             /* the calling thread's mask at gc_cores_init */
static bool have_initial;

gc_cores gc_cores_init(void)
{
    gc_cores c = { 0 };
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    c.online = online > 0 ? (uint32_t)online : 0;
    CPU_ZERO(&initial);
    have_initial = sched_getaffinity(0, sizeof initial, &initial) == 0;
    c.usable = have_initial ? (uint32_t)CPU_COUNT(&initial) : c.online;
    if (c.online && c.usable > c.online)
        c.usable = c.online;
    c.pinning = have_initial;
    return c;
}

bool gc_cores_confine(uint32_t n)
{
    if (!have_initial)
        return false;
    if (n == 0)
        return sched_setaffinity(0, sizeof initial, &initial) == 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0, taken = 0; cpu < CPU_SETSIZE && (uint32_t)taken < n; cpu++)
        if (CPU_ISSET(cpu, &initial)) {
            CPU_SET(cpu, &set);
            taken++;
        }
    return (uint32_t)CPU_COUNT(&set) == n && sched_setaffinity(0, sizeof set, &set) == 0;
}
#else
gc_cores gc_cores_init(void)
{
    return (gc_cores){ 0 };
}

bool gc_cores_confine(uint32_t n)
{
    (void)n;
    return false;
}
#endif
