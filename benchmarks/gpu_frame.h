/* gpu_frame's private header: the deferred frame's timing (gpu_frame_deferred.c)
 * and the overlap frame's (gpu_overlap_setup.c, gpu_overlap.c), run by
 * main (gpu_frame.c, whose head comment says what is measured). */
#ifndef BENCH_GPU_FRAME_H
#define BENCH_GPU_FRAME_H

#include "bench_context.h"
#include "bench_deferred.h"
#include "bench_frame.h"
#include "overlap_frame.h"
#include "scene_frame.h"

#include <engine/engine.h>
#include <engine_files/engine_files.h>
#include <rendergraph/rendergraph.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ deferred frame */

#define MAX_SIZES 8
#define MAX_FRAMES 1000
#define CONFIGS 4

/* One graph (aliasing on or off) with its renderer and the flat copy. */
typedef struct setup {
    bench_deferred d;
    rg_graph *graph;
    bench_flat *flat;
    rg_memory_totals totals;
    bench_flat_counts counts;
    uint32_t merged;                  /* span pairs that share a rendering instance */
} setup;

#define MAX_CHUNKS 64

typedef struct timer {
    eng_context *ctx;
    VkDevice dev;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    /* --chunks: the end timestamp's command buffer, and per chunk a pool
     * (reset each frame) and its command buffer. */
    uint32_t chunks;
    VkCommandBuffer cmd_end;
    VkCommandPool chunk_pools[MAX_CHUNKS];
    VkCommandBuffer chunk_cmds[MAX_CHUNKS];
    VkFence fence;
    VkQueryPool queries;
    double period_ns;
    uint64_t mask;
} timer;

/* Each configuration's name (aliasing on/off, graph/hand-written), and
 * each rg_merge's. */
extern const char *gf_config_names[CONFIGS];
extern const char *gf_merge_names[];

/* A graph and its renderer for one configuration; one frame's GPU ms. */
int gf_setup_create(eng_context *ctx, timer *t, VkExtent2D extent, bool no_aliasing, bool timings, rg_merge merge,
                    const char *ground, setup *s);
void gf_setup_destroy(setup *s);
double gf_frame_ms(timer *t, setup *s, bool hand);
/* The timestamp bits of a queue family (0: none); the timer's objects. */
uint32_t gf_timestamp_bits(eng_context *ctx, uint32_t family);
int gf_timer_create(eng_context *ctx, timer *t, char *why, size_t why_size);
void gf_timer_destroy(timer *t);
/* qsort's order for doubles. */
int gf_cmp_double(const void *a, const void *b);
/* --timings: per-pass GPU timings against the frame's own (see
 * gpu_frame_deferred.c). */
int gf_run_timings(eng_context *ctx, timer *t, VkExtent2D extent, rg_merge merge, const char *ground,
                   uint32_t warmup, uint32_t frames, setup *plain);

/* ------------------------------------------------------------ overlap frame */

/* --frame overlap: shadow cascades (graphics) beside an AO dispatch that
 * may run on the compute queue, then a composite (overlap_frame.c), in
 * four configurations, each its own graph: single queue, async compute,
 * single queue with concurrent sharing, and the measured queue policy
 * (OV_MEASURED), which runs until its choice is made before it is timed. */
#define OV_CONFIGS 4
#define OV_MEASURED 3
/* Frames the measured configuration may take to choose: its timings are
 * read a frame late, three frames are passed over after each placement. */
#define OV_MEASURE_FRAMES_MAX 120u
#define OV_MAX_BATCHES 16
/* Each configuration's name, whether its graph has one queue, and whether
 * its resources are shared concurrently (gpu_overlap_setup.c); the
 * measured one has neither. */
extern const char *ov_config_names[OV_CONFIGS];
extern const bool ov_single_queue[OV_CONFIGS];
extern const bool ov_concurrent[OV_CONFIGS];
/* The workload at 1920x1080 (--shadow-tris, --shadow-layers,
 * --compute-iters), picked on the H200 so each half takes about 4 ms alone
 * (gpu-run style tuning in benchmarks/README.md); other sizes scale it by
 * their pixel count (shadow map side by its square root), so the two halves
 * stay as balanced as at 1080p. */
#define OV_DEFAULT_SHADOW_TRIS 8192u
#define OV_DEFAULT_SHADOW_LAYERS 2u
#define OV_DEFAULT_COMPUTE_ITERS 960u
#define OV_BASE_PIXELS (1920.0 * 1080.0)
#define OV_BASE_SHADOW_SIZE 2048.0

_Static_assert((int)RG_QUEUE_GRAPHICS == (int)ENG_QUEUE_GRAPHICS && (int)RG_QUEUE_COMPUTE == (int)ENG_QUEUE_COMPUTE &&
                   (int)RG_QUEUE_TRANSFER == (int)ENG_QUEUE_TRANSFER &&
                   (int)RG_QUEUE_COUNT == (int)ENG_QUEUE_KIND_COUNT,
               "the graph's queues and the engine's are numbered alike");

typedef struct ov_options {
    bool scene;                       /* --frame scene: the scene demo's frame */
    uint32_t ssao_samples;            /* --ssao-samples: the scene's; 0 = its default */
    const uint32_t (*sizes)[2];
    uint32_t size_count, frames, warmup;
    uint32_t shadow_tris, compute_iters; /* at 1920x1080 */
    uint32_t shadow_layers;
    const char *json_path, *png_path;
    bool validation;
} ov_options;

/* The frame a size runs: the overlap frame, or the scene demo's frame
 * (demos/scene/scene_frame.c) into an offscreen RGBA8 sRGB output. */
typedef struct ov_work {
    bool scene;                       /* else overlap */
    uint32_t ssao_samples;
    overlap_frame *overlap;
    eng_image *output;                /* the picture compared across configurations */
    VkExtent2D extent;
} ov_work;

/* The animation frame the scene benchmark renders, every time. */
#define OV_SCENE_INDEX 120u

/* Command pools and timestamp masks per queue the context has, one fence,
 * and 2 timestamps per batch of every configuration. */
typedef struct ov_timer {
    eng_context *ctx;
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    uint32_t families[RG_QUEUE_COUNT];
    uint32_t bits[RG_QUEUE_COUNT];
    uint64_t mask[RG_QUEUE_COUNT];
    double period_ns;
    VkFence fence;
    VkQueryPool queries;
} ov_timer;

/* One configuration's graph, its command buffer per batch (from the pool
 * of the batch's queue family) and what it reports. */
typedef struct ov_setup {
    rg_graph *graph;
    overlap_decl decl;
    scene_renderer *renderer;         /* --frame scene: one per graph, as the demo has */
    scene_frame_textures scene;
    rg_command async_pass;            /* the first pass that may go to the compute queue */
    uint32_t batch_count;
    rg_queue queues[OV_MAX_BATCHES];
    uint32_t waits[OV_MAX_BATCHES];   /* bit j: the batch waits for batch j of the frame */
    VkCommandBuffer cmds[OV_MAX_BATCHES];
    uint32_t query_base;
    rg_queue ao_queue;                /* where the graph put the AO pass */
    char note[200];                   /* why it stayed on graphics, if the graph says */
    rg_memory_totals totals;
    uint32_t measure_frames;          /* OV_MEASURED: frames until its choice was compiled */
} ov_setup;

/* One frame's figures, ms. */
typedef struct ov_sample {
    double total;                     /* last batch end - first batch start */
    double busy[RG_QUEUE_COUNT];      /* sum of the queue's batch durations */
    double overlap;                   /* sum of busy - total */
    double cpu;                       /* first submission to the fence, on the CPU */
} ov_sample;

/* gpu_overlap_setup.c: the timer, a configuration's graph and one frame. */
int ov_timer_create(eng_context *ctx, ov_timer *t, char *why, size_t why_size);
void ov_timer_destroy(ov_timer *t);
int ov_setup_create(ov_timer *t, ov_work *w, uint32_t config, ov_setup *s);
/* OV_MEASURED: frames until the graph's choice is made and compiled; 1 if
 * it never is within OV_MEASURE_FRAMES_MAX. */
int ov_setup_measure(ov_timer *t, ov_work *w, ov_setup *s);
void ov_setup_destroy(ov_timer *t, ov_setup *s);
bool ov_frame(ov_timer *t, ov_work *w, ov_setup *s, ov_sample *out);

/* gpu_overlap.c: --frame overlap or scene, every size and configuration. */
int ov_run(eng_context *ctx, const ov_options *o);

#endif
