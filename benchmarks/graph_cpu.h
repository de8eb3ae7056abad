/* graph_cpu's private header: the recorder and the two kinds of frame it
 * times (graph_cpu_run.c), run and reported by main (graph_cpu.c, whose
 * head comment says what is measured). */
#ifndef BENCH_GRAPH_CPU_H
#define BENCH_GRAPH_CPU_H

#include "bench_deferred.h"
#include "bench_frame.h"

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

/* Recordings per timed batch: about this many commands, at least one. */
#define BATCH_COMMANDS 20000u

typedef struct recorder {
    eng_context *ctx;
    VkCommandPool pool;
    VkCommandBuffer cmd;
} recorder;

typedef struct row {
    char frame[64];
    uint32_t commands, nodes;
    double compile, steady;           /* ns per command; < 0: not measured */
    double graph, hand;               /* ns per command; < 0: no device */
    bench_flat_counts counts;
    bool validated;
} row;

typedef struct options {
    uint32_t draws, reps;
    bool validation;
    const char *ground;
} options;

/* A record callback that records nothing (the graph's own cost alone). */
bool gc_record_nothing(const rg_record_context *rc, void *user);

/* A command pool and buffer on the context's graphics queue. */
bool gc_recorder_open(eng_context *ctx, recorder *r);
void gc_recorder_close(recorder *r);
/* One row: a generated frame of n commands, or the deferred frame (stub:
 * its passes record no draws); once: one recording of each side, quietly
 * (for callgrind). 0 on success. */
int gc_run_generated(eng_context *ctx, recorder *rec, uint32_t n, const options *o, bool once, row *out);
int gc_run_deferred(eng_context *ctx, recorder *rec, VkExtent2D extent, bool stub, const options *o, bool once,
                    row *out);

#endif
