/* graph_cpu --redeclare (graph_cpu_redeclare.c): the deferred and scene
 * demos' frames declared once against the same frames re-declared every
 * frame, with the Vulkan objects and host allocations each frame costs. */
#ifndef GRAPH_CPU_REDECLARE_H
#define GRAPH_CPU_REDECLARE_H

#include "graph_cpu.h"

typedef struct graph_cpu_redeclare_desc {
    uint32_t frames;                  /* timed frames per path and run */
    uint32_t runs;                    /* interleaved runs of every path (1..GC_MAX_RUNS) */
    VkExtent2D extent;                /* of both frames' output */
    const char *json_path;            /* NULL, or where to write the figures */
    bool validation;                  /* the context validates (said in the output) */
} graph_cpu_redeclare_desc;

/* Prints the table (and writes json_path), submitting every frame on rec's
 * command buffer; 0 on success, 1 on a failure. */
int graph_cpu_redeclare(eng_context *ctx, recorder *rec, const graph_cpu_redeclare_desc *desc);

#endif
