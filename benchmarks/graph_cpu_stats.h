/* graph_cpu --threads' and --redeclare's helpers (graph_cpu_stats.c): the
 * median and spread of a configuration's runs, the cores a configuration
 * records on, and an rg_allocator that counts the graph's allocations. */
#ifndef GRAPH_CPU_STATS_H
#define GRAPH_CPU_STATS_H

#include <rendergraph/rendergraph.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct gc_spread {
    double median, min, max;
    double relative;                  /* (max - min) / median, in percent */
} gc_spread;

/* Runs a configuration may be measured in (--runs). */
#define GC_MAX_RUNS 100u

/* The median of v[0..n) (n >= 1), sorting v. */
double gc_median(double *v, uint32_t n);
/* Median, min, max and relative spread of v[0..n) (1 <= n <= GC_MAX_RUNS;
 * v is left as it was). */
gc_spread gc_spread_of(const double *v, uint32_t n);

/* The cores: online ones (0 where the system does not say), and how many
 * of them this process may run on (its affinity mask when the program
 * started; 0 where the system does not say). Call gc_cores_init first. */
typedef struct gc_cores {
    uint32_t online, usable;
    bool pinning;                     /* gc_cores_confine works here */
} gc_cores;

gc_cores gc_cores_init(void);
/* Confines the calling thread, and so every thread it starts afterwards
 * (they inherit its mask), to the first n of the usable cores; n == 0
 * gives the mask back as it was at gc_cores_init. False where that
 * failed or pinning is not available. */
bool gc_cores_confine(uint32_t n);

/* Host allocations, counted: every alloc and realloc call of the
 * allocator gc_counting_allocator gives (any thread). atomic_init calls
 * first. */
typedef struct gc_counting {
    atomic_ulong calls;
} gc_counting;

/* malloc, realloc and free, counting into c (which must outlive the
 * allocator's users). */
rg_allocator gc_counting_allocator(gc_counting *c);

#endif
