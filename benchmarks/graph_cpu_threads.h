/* graph_cpu --threads (graph_cpu_threads.c): a frame recorded on several
 * threads, wall and CPU time against one thread. */
#ifndef GRAPH_CPU_THREADS_H
#define GRAPH_CPU_THREADS_H

#include <engine/engine.h>

#include <stdbool.h>
#include <stdint.h>

/* Thread counts --threads may list. */
#define GRAPH_CPU_MAX_THREAD_COUNTS 16u

typedef struct graph_cpu_threads_desc {
    const uint32_t *threads;          /* thread counts to measure */
    uint32_t thread_count;
    uint32_t draws;                   /* draws in the frame */
    uint32_t frames;                  /* timed frames per configuration and run */
    uint32_t runs;                    /* interleaved runs of every configuration (1..GC_MAX_RUNS) */
    const char *json_path;            /* NULL, or where to write every run's figures */
    bool validation;                  /* also submit each row's last frame */
} graph_cpu_threads_desc;

/* Prints the table (and writes json_path); 0 on success, 1 on a failure or an allocation in
 * steady state. */
int graph_cpu_threads(eng_context *ctx, const graph_cpu_threads_desc *desc);

#endif
