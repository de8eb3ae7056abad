/* gpu_frame: GPU time per frame of the deferred demo's frame, headless.
 *
 * The frame is demos/deferred/deferred_frame.c's (G-buffer of the demo's
 * scene, lighting of 48 point lights, bloom chain, tonemap) with its real
 * shaders and pipelines, rendered into an offscreen imported RGBA8 target at
 * each --sizes extent (default 1920x1080 and 3840x2160), in four
 * configurations:
 *   aliasing on  / graph   rg_execute of a graph whose pools alias (default)
 *   aliasing on  / hand    the same frame recorded by hand: the graph's
 *                          barriers and rendering infos from flat arrays
 *                          (bench_frame.c), the same draw callbacks
 *   aliasing off / graph   rg_graph_desc.no_aliasing: every pooled resource
 *                          in its own range
 *   aliasing off / hand
 * Time per frame: vkCmdWriteTimestamp2 at the frame's start and end, in
 * one command buffer per frame, submitted and waited for alone (so frames
 * never overlap), scaled by timestampPeriod. --warmup frames per
 * configuration first, then --frames rounds with the four configurations
 * in alternating order; median, min and max in ms, and each graph's pooled
 * bytes. Without timestamp support on the queue: says so and exits 77
 * (skipped), or 1 when ENG_REQUIRE_DEVICE is set.
 *
 * --merge auto|on|off is the graphs' span merging (rg_graph_desc.merge;
 * default auto, the driver's policy): run it once with on and once with off
 * to compare a frame whose lighting shares the G-buffer's rendering
 * instance (VK_KHR_dynamic_rendering_local_read) with one that samples the
 * G-buffer. The mode and the spans that merged are printed and in the JSON;
 * the hand-written recording continues merged instances as rg_execute does.
 *
 * --chunks N (deferred frame) records the graph's frames in chunks
 * (rg_execute_begin with max_chunks N, each chunk into a command buffer of
 * its own pool, between a command buffer holding the start timestamp and
 * one holding the end one, all in one submission), so that the GPU time of
 * a frame whose spans are suspended and resumed across command buffers can
 * be set beside the whole one (run without --chunks).
 *
 * --timings (deferred frame) adds, per size, the graph's own GPU timings
 * (rg_graph_desc.timings): what they cost (the frame's median with them
 * off and on, alternating), the per-pass breakdown of one frame heaviest
 * first (rg_timings_print), and the sum of its passes against that
 * frame's own timestamps.
 *
 * --frame overlap times another frame instead (overlap_frame.c): four
 * shadow cascades of a dense terrain on the graphics queue (rasterizer
 * bound) beside an ambient-occlusion dispatch declared for the compute
 * queue (ALU bound), then a composite that reads both into an offscreen
 * import. Three configurations, each its own graph, executed with
 * rg_execute_batches and submitted with rg_submit:
 *   single queue                      rg_graph_desc.single_queue: one batch
 *   async compute                     the AO pass on the compute queue where
 *                                     the device has one (else one batch)
 *   single queue, concurrent sharing  single_queue + concurrent_sharing:
 *                                     what CONCURRENT images cost alone
 * Each batch's command buffer (from a pool of its queue's family) holds a
 * timestamp before and after what the graph records into it; per frame:
 * end-to-end = last end - first start over the batches, busy time per
 * queue = the sum of its batches' durations (each from when what it waits
 * for is done), overlap = the sum of the busy times - end-to-end (the time
 * both queues worked at once). --warmup frames per configuration, --frames
 * rounds in alternating order; median, min and max. Then one more frame of
 * each, whose pictures must be equal byte for byte. --shadow-tris (the
 * terrain's triangles), --shadow-layers (how many times each cascade draws
 * it, each layer nearer the light: depth overdraw) and --compute-iters (AO
 * samples per pixel) set the two halves' work at 1920x1080; other sizes
 * scale triangles and AO pixels by their pixel count, the shadow map's side
 * by its square root. --png writes the async picture of the first size.
 *
 * --frame scene times the scene demo's frame (demos/scene/scene_frame.c:
 * three shadow cascades, a 4x MSAA depth prepass, SSAO and its blur
 * declared for the compute queue, 4x MSAA forward, a bloom chain and a
 * tonemap) into an offscreen RGBA8 sRGB import, at animation frame 120, in
 * the same three configurations and with the same figures: what async
 * compute gives on a frame where only a part (SSAO, beside the shadow
 * cascades) is eligible. --ssao-samples (default 16) makes that part
 * larger, to see how the gain follows it.
 *
 *   gpu_frame [--sizes WxH,...] [--frames N] [--warmup N] [--json FILE]
 *             [--validation] [--ground PNG] [--merge auto|on|off] [--timings]
 *   gpu_frame --frame overlap [--sizes WxH,...] [--frames N] [--warmup N]
 *             [--json FILE] [--validation] [--shadow-tris N] [--shadow-layers N]
 *             [--compute-iters N] [--png FILE]
 */
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

#define MAX_SIZES 8
#define MAX_FRAMES 1000
#define CONFIGS 4

static const char *config_names[CONFIGS] = { "aliasing on, graph", "aliasing on, hand", "aliasing off, graph",
                                             "aliasing off, hand" };

static bool device_required(void)
{
    const char *req = getenv("ENG_REQUIRE_DEVICE");
    return req && req[0] && strcmp(req, "0") != 0;
}

static const char *merge_names[] = { [RG_MERGE_AUTO] = "auto", [RG_MERGE_ON] = "on", [RG_MERGE_OFF] = "off" };

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

static void setup_destroy(setup *s)
{
    bench_flat_destroy(s->flat);
    /* Its frames were waited for: nothing of the graph is in flight. */
    rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(s->graph);
    bench_deferred_destroy(&s->d);
    memset(s, 0, sizeof *s);
}

/* The graph's frame in chunks (--chunks), each into its own pool's
 * command buffer, after t->cmd and before t->cmd_end: the command buffers
 * to submit in order into ci, their count in *count. */
static bool record_chunks(timer *t, setup *s, VkCommandBufferSubmitInfo *ci, uint32_t *count)
{
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    uint32_t n = 0;
    if (rg_execute_begin(s->graph, &(rg_execute_desc){ .max_chunks = t->chunks }, &n) != RG_SUCCESS)
        return false;
    bool ok = n <= MAX_CHUNKS;
    for (uint32_t i = 0; i < n && ok; i++) {
        ok = vkResetCommandPool(t->dev, t->chunk_pools[i], 0) == VK_SUCCESS &&
             vkBeginCommandBuffer(t->chunk_cmds[i], &bi) == VK_SUCCESS &&
             rg_execute_chunk(s->graph, i, t->chunk_cmds[i]) == RG_SUCCESS &&
             vkEndCommandBuffer(t->chunk_cmds[i]) == VK_SUCCESS;
        ci[1 + i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                 .commandBuffer = t->chunk_cmds[i] };
    }
    ok = rg_execute_end(s->graph, t->chunk_cmds, NULL) == RG_SUCCESS && ok;
    ci[1 + n] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                             .commandBuffer = t->cmd_end };
    *count = n + 2;
    return ok && vkResetCommandBuffer(t->cmd_end, 0) == VK_SUCCESS &&
           vkBeginCommandBuffer(t->cmd_end, &bi) == VK_SUCCESS;
}

/* One frame, timed on the GPU; ms, or < 0 on failure. */
static double frame_ms(timer *t, setup *s, bool hand)
{
    if (deferred_renderer_begin_frame(s->d.renderer, 0) != ENG_SUCCESS)
        return -1;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    if (vkResetCommandBuffer(t->cmd, 0) != VK_SUCCESS || vkBeginCommandBuffer(t->cmd, &bi) != VK_SUCCESS)
        return -1;
    vkCmdResetQueryPool(t->cmd, t->queries, 0, 2);
    vkCmdWriteTimestamp2(t->cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, t->queries, 0);
    VkCommandBufferSubmitInfo ci[MAX_CHUNKS + 2] = {
        { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = t->cmd } };
    uint32_t count = 1;
    VkCommandBuffer last = t->cmd;
    bool ok;
    if (hand) {
        ok = bench_flat_record(s->flat, t->cmd);
    } else if (t->chunks) {
        ok = vkEndCommandBuffer(t->cmd) == VK_SUCCESS && record_chunks(t, s, ci, &count);
        last = t->cmd_end;
    } else {
        ok = rg_execute(s->graph, t->cmd) == RG_SUCCESS;
    }
    vkCmdWriteTimestamp2(last, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, t->queries, 1);
    if (vkEndCommandBuffer(last) != VK_SUCCESS || !ok)
        return -1;
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = count,
                         .pCommandBufferInfos = ci };
    if (vkResetFences(t->dev, 1, &t->fence) != VK_SUCCESS ||
        vkQueueSubmit2(eng_context_queue(t->ctx), 1, &si, t->fence) != VK_SUCCESS ||
        vkWaitForFences(t->dev, 1, &t->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return -1;
    uint64_t ts[2];
    if (vkGetQueryPoolResults(t->dev, t->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return -1;
    return (double)((ts[1] - ts[0]) & t->mask) * t->period_ns / 1e6;
}

static int setup_create(eng_context *ctx, timer *t, VkExtent2D extent, bool no_aliasing, bool timings,
                        rg_merge merge, const char *ground, setup *s)
{
    memset(s, 0, sizeof *s);
    if (bench_deferred_create(ctx, ground, extent, false, &s->d) != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: deferred frame: %s\n", eng_last_error());
        return 1;
    }
    rg_graph_create(&(rg_graph_desc){ .name = no_aliasing ? "deferred, no aliasing" : timings ? "deferred, timed" : "deferred",
                                      .device = eng_context_graph_device(ctx), .no_aliasing = no_aliasing,
                                      .merge = merge, .timings = timings },
                    &s->graph);
    if (!s->graph)
        return 1;
    bench_deferred_declare(&s->d, s->graph);
    if (rg_compile(s->graph) != RG_SUCCESS) {
        fprintf(stderr, "gpu_frame: compile: %s\n", rg_graph_error_message(s->graph));
        return 1;
    }
    /* The first frame places the memory and binds the imports' views;
     * then the frame is flattened. */
    if (frame_ms(t, s, false) < 0) {
        fprintf(stderr, "gpu_frame: first frame: %s\n", rg_graph_error_message(s->graph));
        return 1;
    }
    s->totals = rg_memory_get_totals(s->graph);
    for (uint32_t i = 0; i < rg_merge_count(s->graph); i++) {
        rg_merge_info m;
        s->merged += rg_merge_get(s->graph, i, &m) == RG_SUCCESS && m.merged;
    }
    const char *error = NULL;
    s->flat = bench_flatten(s->graph, eng_context_device(ctx), &error);
    if (!s->flat) {
        fprintf(stderr, "gpu_frame: flattening: %s\n", error);
        return 1;
    }
    bench_flat_counts gc = bench_graph_counts(s->graph);
    s->counts = bench_flat_get_counts(s->flat);
    if (gc.barrier_calls != s->counts.barrier_calls || gc.image_barriers != s->counts.image_barriers ||
        gc.memory_barriers != s->counts.memory_barriers) {
        fprintf(stderr, "gpu_frame: the hand-written frame differs from the graph's (%u/%u barrier calls)\n",
                gc.barrier_calls, s->counts.barrier_calls);
        return 1;
    }
    return 0;
}

/* The timestampValidBits of a queue family (0: none, or no such family). */
static uint32_t timestamp_bits(eng_context *ctx, uint32_t family)
{
    uint32_t n = 0;
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *qf = calloc(n ? n : 1, sizeof *qf);
    if (!qf)
        return 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
    uint32_t bits = family < n ? qf[family].timestampValidBits : 0;
    free(qf);
    return bits;
}

static int timer_create(eng_context *ctx, timer *t, char *why, size_t why_size)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->dev = eng_context_device(ctx);
    uint32_t family = eng_context_queue_family(ctx), bits = timestamp_bits(ctx, family);
    const VkPhysicalDeviceLimits *limits = &eng_context_properties(ctx)->limits;
    if (bits == 0 || limits->timestampPeriod <= 0.0f) {
        snprintf(why, why_size, "the queue family %u has %u timestamp bits, timestampPeriod %g", family, bits,
                 (double)limits->timestampPeriod);
        return 77;
    }
    t->period_ns = limits->timestampPeriod;
    t->mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = family };
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
    if (vkCreateCommandPool(t->dev, &pci, NULL, &t->pool) != VK_SUCCESS ||
        vkCreateFence(t->dev, &fi, NULL, &t->fence) != VK_SUCCESS ||
        vkCreateQueryPool(t->dev, &qi, NULL, &t->queries) != VK_SUCCESS)
        return 1;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = t->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    if (vkAllocateCommandBuffers(t->dev, &ai, &t->cmd) != VK_SUCCESS ||
        vkAllocateCommandBuffers(t->dev, &ai, &t->cmd_end) != VK_SUCCESS)
        return 1;
    pci.flags = 0; /* chunk pools are reset whole each frame */
    for (uint32_t i = 0; i < MAX_CHUNKS; i++) {
        ai.commandPool = VK_NULL_HANDLE;
        if (vkCreateCommandPool(t->dev, &pci, NULL, &t->chunk_pools[i]) != VK_SUCCESS)
            return 1;
        ai.commandPool = t->chunk_pools[i];
        if (vkAllocateCommandBuffers(t->dev, &ai, &t->chunk_cmds[i]) != VK_SUCCESS)
            return 1;
    }
    return 0;
}

static void timer_destroy(timer *t)
{
    if (!t->dev)
        return;
    vkDeviceWaitIdle(t->dev);
    vkDestroyQueryPool(t->dev, t->queries, NULL);
    vkDestroyFence(t->dev, t->fence, NULL);
    vkDestroyCommandPool(t->dev, t->pool, NULL);
    for (uint32_t i = 0; i < MAX_CHUNKS; i++)
        vkDestroyCommandPool(t->dev, t->chunk_pools[i], NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --timings: the graph's GPU timings (rendergraph.h, "Timings") of the
 * deferred frame. What they cost: the same frame with timings off (plain,
 * the aliasing-on graph) and on (a graph of its own), --frames rounds in
 * alternating order after --warmup frames each, medians of the frame's own
 * timestamps. Then the per-pass breakdown of one frame, heaviest first,
 * and the sum of its passes against that frame's own timestamps (which
 * bracket everything the graph records: the sum stays below). */
static int run_timings(eng_context *ctx, timer *t, VkExtent2D extent, rg_merge merge, const char *ground,
                       uint32_t warmup, uint32_t frames, setup *plain)
{
    setup timed;
    int rc = setup_create(ctx, t, extent, false, true, merge, ground, &timed);
    double *v = calloc(2 * (size_t)frames, sizeof *v);
    if (!v)
        rc = 1;
    for (uint32_t w = 0; w < warmup && rc == 0; w++)
        rc = frame_ms(t, plain, false) < 0 || frame_ms(t, &timed, false) < 0;
    for (uint32_t f = 0; f < frames && rc == 0; f++) {
        setup *first = f % 2 ? &timed : plain, *second = f % 2 ? plain : &timed;
        double a = frame_ms(t, first, false), b = frame_ms(t, second, false);
        rc = a < 0 || b < 0;
        v[f] = f % 2 ? b : a;                /* off */
        v[frames + f] = f % 2 ? a : b;       /* on */
    }
    /* One frame, then another whose execute reads the first's timings. */
    double own = rc == 0 ? frame_ms(t, &timed, false) : -1;
    rc = rc || own < 0 || frame_ms(t, &timed, false) < 0;
    double passes = 0.0, batches = 0.0;
    uint64_t frame = 0;
    for (uint32_t i = 0; i < rg_timing_count(timed.graph) && rc == 0; i++) {
        rg_timing tm;
        if (rg_timing_get(timed.graph, i, &tm) != RG_SUCCESS) {
            fprintf(stderr, "gpu_frame: timings: %s\n", rg_graph_error_message(timed.graph));
            rc = 1;
            break;
        }
        frame = tm.frame;
        if (tm.kind == RG_TIMING_BATCH)
            batches += tm.ms;
        else
            passes += tm.ms;
    }
    if (rc == 0) {
        double off = median_of(v, frames), on = median_of(v + frames, frames);
        printf("%ux%u timings: frame median %.3f ms off, %.3f ms on (%+.2f%%), over %u frames each\n", extent.width,
               extent.height, off, on, off > 0 ? 100.0 * (on - off) / off : 0.0, frames);
        rc = rg_timings_print(timed.graph, stdout) != RG_SUCCESS;
        printf("%ux%u timings: frame %llu: passes %.3f ms, batches %.3f ms, the frame's own timestamps %.3f ms "
               "(passes %.1f%% of it)\n", extent.width, extent.height, (unsigned long long)frame, passes, batches,
               own, own > 0 ? 100.0 * passes / own : 0.0);
    }
    free(v);
    vkDeviceWaitIdle(eng_context_device(ctx));
    setup_destroy(&timed);
    return rc;
}

/* ------------------------------------------------------------ overlap frame */

/* --frame overlap: shadow cascades (graphics) beside an AO dispatch that
 * may run on the compute queue, then a composite (overlap_frame.c), in
 * three configurations, each its own graph: */
#define OV_CONFIGS 3
#define OV_MAX_BATCHES 16
static const char *ov_config_names[OV_CONFIGS] = { "single queue", "async compute",
                                                   "single queue, concurrent sharing" };
static const bool ov_single_queue[OV_CONFIGS] = { true, false, true };
static const bool ov_concurrent[OV_CONFIGS] = { false, false, true };
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
} ov_setup;

/* One frame's figures, ms. */
typedef struct ov_sample {
    double total;                     /* last batch end - first batch start */
    double busy[RG_QUEUE_COUNT];      /* sum of the queue's batch durations */
    double overlap;                   /* sum of busy - total */
    double cpu;                       /* first submission to the fence, on the CPU */
} ov_sample;

/* C11's clock (this file is strict C11, without POSIX's monotonic one):
 * good enough for a few milliseconds between two readings. */
static double now_ms(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void ov_timer_destroy(ov_timer *t)
{
    if (!t->dev)
        return;
    vkDeviceWaitIdle(t->dev);
    vkDestroyQueryPool(t->dev, t->queries, NULL);
    vkDestroyFence(t->dev, t->fence, NULL);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        vkDestroyCommandPool(t->dev, t->pools[q], NULL);
}

/* 77 (with why) where a queue the context has writes no timestamps. */
static int ov_timer_create(eng_context *ctx, ov_timer *t, char *why, size_t why_size)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->dev = eng_context_device(ctx);
    const VkPhysicalDeviceLimits *limits = &eng_context_properties(ctx)->limits;
    t->period_ns = limits->timestampPeriod;
    int rc = 0;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT && rc == 0; q++) {
        uint32_t family = eng_context_queue_family_of(ctx, (eng_queue_kind)q);
        t->families[q] = family;
        if (family == UINT32_MAX)
            continue; /* the context has no such queue: the graph never uses it */
        t->bits[q] = timestamp_bits(ctx, family);
        if (t->bits[q] == 0 || limits->timestampPeriod <= 0.0f) {
            snprintf(why, why_size, "the %s queue's family %u has %u timestamp bits, timestampPeriod %g",
                     rg_queue_name((rg_queue)q), family, t->bits[q], (double)limits->timestampPeriod);
            rc = 77;
            break;
        }
        t->mask[q] = t->bits[q] >= 64 ? UINT64_MAX : (1ull << t->bits[q]) - 1;
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                        .queueFamilyIndex = family };
        if (vkCreateCommandPool(t->dev, &pci, NULL, &t->pools[q]) != VK_SUCCESS)
            rc = 1;
    }
    if (rc)
        return rc;
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                 .queryCount = 2 * OV_MAX_BATCHES * OV_CONFIGS };
    if (vkCreateFence(t->dev, &fi, NULL, &t->fence) != VK_SUCCESS ||
        vkCreateQueryPool(t->dev, &qi, NULL, &t->queries) != VK_SUCCESS)
        return 1;
    return 0;
}

/* A timestamp difference in ticks, signed: the counter wraps at its valid
 * bits, and a batch of another queue may start before the first batch. */
static int64_t ov_ticks(uint64_t from, uint64_t to, uint64_t mask)
{
    uint64_t d = (to - from) & mask;
    if (mask != UINT64_MAX && d > mask / 2)
        return (int64_t)d - (int64_t)mask - 1;
    return (int64_t)d;
}

/* One frame: every batch's command buffer begins with a timestamp, the
 * graph records all batches (rg_execute_batches), each ends with one;
 * rg_submit submits the plan with the fence on its last batch, and the
 * frame is waited for alone. Timestamps of different queues are compared
 * on the device's one timestamp clock (Vulkan promises comparability only
 * within a queue; sample.cpu, the CPU's submit-to-fence time, does not
 * depend on it). */
static bool ov_frame(ov_timer *t, ov_work *w, ov_setup *s, ov_sample *out)
{
    eng_result begun = w->scene ? scene_frame_update(s->renderer, s->graph, 0, OV_SCENE_INDEX)
                                : overlap_frame_begin(w->overlap);
    if (begun != ENG_SUCCESS)
        return false;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    uint32_t n = s->batch_count, base = s->query_base;
    for (uint32_t i = 0; i < n; i++) {
        if (vkResetCommandBuffer(s->cmds[i], 0) != VK_SUCCESS || vkBeginCommandBuffer(s->cmds[i], &bi) != VK_SUCCESS)
            return false;
        vkCmdResetQueryPool(s->cmds[i], t->queries, base + 2 * i, 2);
        vkCmdWriteTimestamp2(s->cmds[i], VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, t->queries, base + 2 * i);
    }
    rg_submit_plan plan = { 0 };
    rg_result rr = rg_execute_batches(s->graph, s->cmds, &plan);
    bool ok = rr == RG_SUCCESS && plan.count == n;
    for (uint32_t i = 0; i < n; i++) {
        vkCmdWriteTimestamp2(s->cmds[i], VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, t->queries, base + 2 * i + 1);
        ok = vkEndCommandBuffer(s->cmds[i]) == VK_SUCCESS && ok;
    }
    if (!ok || vkResetFences(t->dev, 1, &t->fence) != VK_SUCCESS)
        return false;
    double cpu0 = now_ms();
    if (rg_submit(s->graph, &plan, &(rg_submit_desc){ .fence = t->fence }) != RG_SUCCESS ||
        vkWaitForFences(t->dev, 1, &t->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return false;
    double cpu = now_ms() - cpu0;
    uint64_t ts[2 * OV_MAX_BATCHES];
    if (vkGetQueryPoolResults(t->dev, t->queries, base, 2 * n, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return false;
    /* Everything relative to batch 0's start. A batch's start timestamp
     * (TOP_OF_PIPE) may be written before the work it waits for is done:
     * the same queue's batch before it, and the batches of other queues it
     * waits on (a semaphore wait at the stages that need them). So a batch
     * counts as busy from the latest of those ends (and its own start) to
     * its end: the intervals of one queue never overlap. */
    int64_t first = 0, last = 0, busy[RG_QUEUE_COUNT] = { 0 }, end[OV_MAX_BATCHES];
    int64_t queue_end[RG_QUEUE_COUNT];
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        queue_end[q] = INT64_MIN;
    for (uint32_t i = 0; i < n; i++) {
        rg_queue q = s->queues[i];
        int64_t start = ov_ticks(ts[0], ts[2 * i], t->mask[q]);
        end[i] = ov_ticks(ts[0], ts[2 * i + 1], t->mask[q]);
        first = start < first ? start : first;
        last = end[i] > last ? end[i] : last;
        int64_t from = start > queue_end[q] ? start : queue_end[q];
        for (uint32_t j = 0; j < i; j++)
            if (s->waits[i] & (1u << j) && end[j] > from)
                from = end[j];
        busy[q] += end[i] > from ? end[i] - from : 0;
        queue_end[q] = end[i];
    }
    double scale = t->period_ns / 1e6;
    memset(out, 0, sizeof *out);
    out->total = (double)(last - first) * scale;
    out->overlap = -out->total;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        out->busy[q] = (double)busy[q] * scale;
        out->overlap += out->busy[q];
    }
    out->cpu = cpu;
    return true;
}

static void ov_setup_destroy(ov_timer *t, ov_setup *s)
{
    for (uint32_t i = 0; i < s->batch_count; i++)
        if (s->cmds[i])
            vkFreeCommandBuffers(t->dev, t->pools[s->queues[i]], 1, &s->cmds[i]);
    rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* its frames were waited for */
    rg_graph_destroy(s->graph);
    scene_renderer_destroy(s->renderer);
    memset(s, 0, sizeof *s);
}

/* The scene frame into w->output, imported as the overlap frame imports
 * its own. */
static void ov_declare_scene(ov_work *w, ov_setup *s)
{
    const eng_image_info *oi = eng_image_get_info(w->output);
    rg_texture target = rg_texture_import(
        s->graph, &(rg_texture_import_desc){ .name = "output", .image = oi->image, .view = oi->view,
                                             .format = oi->format, .width = w->extent.width,
                                             .height = w->extent.height,
                                             .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                             .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                                             .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    scene_frame_declare(s->renderer, s->graph, target, true, &s->scene);
    s->async_pass = s->scene.ssao;
}

static int ov_setup_create(ov_timer *t, ov_work *w, uint32_t config, ov_setup *s)
{
    memset(s, 0, sizeof *s);
    s->query_base = 2 * OV_MAX_BATCHES * config;
    rg_graph_create(&(rg_graph_desc){ .name = ov_config_names[config], .device = eng_context_graph_device(t->ctx),
                                      .single_queue = ov_single_queue[config],
                                      .concurrent_sharing = ov_concurrent[config] },
                    &s->graph);
    if (!s->graph)
        return 1;
    if (w->scene) {
        if (scene_renderer_create(&(scene_renderer_desc){ .ctx = t->ctx, .ssao_samples = w->ssao_samples },
                                  &s->renderer) != ENG_SUCCESS) {
            fprintf(stderr, "gpu_frame: %s: scene: %s\n", ov_config_names[config], eng_last_error());
            return 1;
        }
        ov_declare_scene(w, s);
    } else {
        overlap_frame_declare(w->overlap, s->graph, &s->decl);
        s->async_pass = s->decl.ao_pass;
    }
    if (rg_compile(s->graph) != RG_SUCCESS) {
        fprintf(stderr, "gpu_frame: %s: compile: %s\n", ov_config_names[config], rg_graph_error_message(s->graph));
        return 1;
    }
    /* Pipelines before the first timed frame. */
    if (w->scene && scene_frame_prepare(s->renderer, s->graph) != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: %s: pipelines: %s\n", ov_config_names[config], eng_last_error());
        return 1;
    }
    uint32_t n = rg_batch_count(s->graph);
    if (n == 0 || n > OV_MAX_BATCHES) {
        fprintf(stderr, "gpu_frame: %s: %u batches (1..%d here)\n", ov_config_names[config], n, OV_MAX_BATCHES);
        return 1;
    }
    s->batch_count = n;
    for (uint32_t i = 0; i < s->batch_count; i++) {
        rg_batch_info b;
        if (rg_batch_get(s->graph, i, &b) != RG_SUCCESS || b.queue >= RG_QUEUE_COUNT || !t->pools[b.queue]) {
            fprintf(stderr, "gpu_frame: %s: batch %u: no queue for it: %s\n", ov_config_names[config], i,
                    rg_graph_error_message(s->graph));
            return 1;
        }
        s->queues[i] = b.queue;
        for (uint32_t w = 0; w < b.wait_count; w++)
            if (b.waits[w].batch < i)
                s->waits[i] |= 1u << b.waits[w].batch;
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = t->pools[b.queue],
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
        if (vkAllocateCommandBuffers(t->dev, &ai, &s->cmds[i]) != VK_SUCCESS)
            return 1;
    }
    rg_command_info ci;
    s->ao_queue = rg_command_get_info(s->graph, s->async_pass, &ci) == RG_SUCCESS ? ci.queue : RG_QUEUE_GRAPHICS;
    for (uint32_t i = 0; i < rg_queue_note_count(s->graph); i++) {
        rg_queue_note note;
        if (rg_queue_note_get(s->graph, i, &note) == RG_SUCCESS && note.command.id == s->async_pass.id)
            snprintf(s->note, sizeof s->note, "%s", note.reason ? note.reason : "");
    }
    /* The first frame places the memory. */
    ov_sample first;
    if (!ov_frame(t, w, s, &first)) {
        fprintf(stderr, "gpu_frame: %s: first frame: %s (%s)\n", ov_config_names[config],
                rg_graph_error_message(s->graph), eng_last_error());
        return 1;
    }
    s->totals = rg_memory_get_totals(s->graph);
    return 0;
}

typedef struct ov_stat {
    double median, min, max;
} ov_stat;

/* The median, min and max of field `offset` (a double) of n samples. */
static ov_stat ov_stat_of(const ov_sample *samples, uint32_t n, size_t offset, double *scratch)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(&scratch[i], (const char *)&samples[i] + offset, sizeof(double));
    qsort(scratch, n, sizeof *scratch, cmp_double);
    return (ov_stat){ n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2, scratch[0], scratch[n - 1] };
}

static void ov_json_stat(FILE *json, const char *name, ov_stat st)
{
    fprintf(json, "\"%s\":{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f}", name, st.median, st.min, st.max);
}

/* "graphics+compute+graphics": the batches' queues in submission order. */
static void ov_batch_string(const ov_setup *s, char *buf, size_t size, bool json)
{
    size_t used = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < s->batch_count && used < size; i++) {
        const char *name = rg_queue_name(s->queues[i]);
        int w = json ? snprintf(buf + used, size - used, "%s\"%s\"", i ? "," : "", name)
                     : snprintf(buf + used, size - used, "%s%c", i ? "+" : "", name[0]);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* The output of one more frame of each configuration; every picture must
 * equal the single queue's byte for byte (the async one only does when the
 * composite waited for the whole AO pass). */
static int ov_compare_images(ov_timer *t, ov_work *w, ov_setup *s, uint8_t **pixels, size_t size)
{
    for (uint32_t c = 0; c < OV_CONFIGS; c++) {
        ov_sample unused;
        if (!ov_frame(t, w, &s[c], &unused)) {
            fprintf(stderr, "gpu_frame: %s: frame failed: %s\n", ov_config_names[c],
                    rg_graph_error_message(s[c].graph));
            return 1;
        }
        eng_result er = eng_image_read(t->ctx, w->output, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels[c], size);
        if (er != ENG_SUCCESS) {
            fprintf(stderr, "gpu_frame: reading the output: %s\n", eng_last_error());
            return 1;
        }
        size_t differ = 0;
        for (size_t i = 0; c > 0 && i < size; i++)
            differ += pixels[c][i] != pixels[0][i];
        if (differ) {
            fprintf(stderr, "gpu_frame: %s: the picture differs from the single queue's in %zu of %zu bytes\n",
                    ov_config_names[c], differ, size);
            return 1;
        }
    }
    return 0;
}

static int run_overlap(eng_context *ctx, const ov_options *o)
{
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    ov_timer t;
    char why[200] = "";
    int rc = ov_timer_create(ctx, &t, why, sizeof why);
    if (rc == 77) {
        printf("gpu_frame: GPU timestamps unavailable on %s: %s\n", props->deviceName, why);
        ov_timer_destroy(&t);
        return device_required() ? 1 : 77;
    }
    char queues[160] = "";
    for (uint32_t q = 0, used = 0; q < RG_QUEUE_COUNT && used < sizeof queues; q++) {
        int w = t.families[q] == UINT32_MAX
                    ? snprintf(queues + used, sizeof queues - used, "%sno %s queue", q ? ", " : "",
                               rg_queue_name((rg_queue)q))
                    : snprintf(queues + used, sizeof queues - used, "%s%s family %u (%u timestamp bits)", q ? ", " : "",
                               rg_queue_name((rg_queue)q), t.families[q], t.bits[q]);
        used += w > 0 ? (unsigned)w : 0;
    }
    printf("device: %s (driver 0x%x, Vulkan %u.%u.%u), timestampPeriod %g ns; %s frame; %s; %u warm-up + %u "
           "frames per configuration%s\n",
           props->deviceName, props->driverVersion, VK_API_VERSION_MAJOR(props->apiVersion),
           VK_API_VERSION_MINOR(props->apiVersion), VK_API_VERSION_PATCH(props->apiVersion), t.period_ns,
           o->scene ? "scene" : "overlap", queues,
           o->warmup, o->frames, o->validation ? "; under validation (times are not meaningful)" : "");
    FILE *json = NULL;
    if (rc == 0 && o->json_path && !(json = fopen(o->json_path, "w"))) {
        fprintf(stderr, "gpu_frame: cannot write %s\n", o->json_path);
        rc = 1;
    }
    if (json) {
        fprintf(json,
                "{\"benchmark\":\"gpu_frame\",\"device\":\"%s\",\"driver_version\":%u,\"timestamp_period_ns\":%g,"
                "\"frame\":\"%s\",\"warmup\":%u,\"frames\":%u,\"validation\":%s,\"compute_queue\":%s,",
                props->deviceName, props->driverVersion, t.period_ns, o->scene ? "scene" : "overlap", o->warmup,
                o->frames, o->validation ? "true" : "false",
                t.families[RG_QUEUE_COMPUTE] == UINT32_MAX ? "false" : "true");
        if (o->scene)
            fprintf(json, "\"animation_frame\":%u,\"ssao_samples\":%u,", OV_SCENE_INDEX,
                    o->ssao_samples ? o->ssao_samples : 16);
        else
            fprintf(json, "\"shadow_triangles_1080p\":%u,\"shadow_layers\":%u,\"compute_iterations\":%u,",
                    o->shadow_tris, o->shadow_layers, o->compute_iters);
        fputs("\"results\":[", json);
    }
    ov_sample *samples = calloc((size_t)OV_CONFIGS * o->frames, sizeof *samples);
    double *scratch = calloc(o->frames, sizeof *scratch);
    bool json_first = true;
    if (!samples || !scratch)
        rc = 1;
    for (uint32_t si = 0; si < o->size_count && rc == 0; si++) {
        VkExtent2D extent = { o->sizes[si][0], o->sizes[si][1] };
        ov_work w = { .scene = o->scene, .ssao_samples = o->ssao_samples, .extent = extent };
        overlap_frame_info info = { 0 };
        if (o->scene) {
            eng_result er = eng_image_create(ctx, &(eng_image_desc){ .name = "scene output", .format = VK_FORMAT_R8G8B8A8_SRGB,
                                                              .width = extent.width, .height = extent.height,
                                                              .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT },
                                      &w.output);
            if (er != ENG_SUCCESS) {
                fprintf(stderr, "gpu_frame: scene output: %s\n", eng_last_error());
                rc = 1;
                break;
            }
            printf("%ux%u: scene frame (demos/scene): %u shadow cascades, 4x MSAA depth prepass and forward, SSAO "
                   "(%u samples per pixel) and its blur (may run on the compute queue), %u bloom levels, tonemap; "
                   "animation frame %u\n",
                   extent.width, extent.height, SCENE_CASCADES, o->ssao_samples ? o->ssao_samples : 16,
                   SCENE_BLOOM_LEVELS, OV_SCENE_INDEX);
        } else {
            double scale = (double)extent.width * extent.height / OV_BASE_PIXELS;
            uint32_t side = (uint32_t)lround(OV_BASE_SHADOW_SIZE * sqrt(scale) / 16.0) * 16;
            double tris = (double)o->shadow_tris * scale;
            if (overlap_frame_create(&(overlap_frame_desc){ .ctx = ctx, .extent = extent,
                                                            .shadow_size = side < 64 ? 64 : side,
                                                            .shadow_triangles = tris < 2 ? 2 : (uint32_t)tris,
                                                            .shadow_layers = o->shadow_layers,
                                                            .ao_iterations = o->compute_iters },
                                     &w.overlap) != ENG_SUCCESS) {
                fprintf(stderr, "gpu_frame: overlap frame: %s\n", eng_last_error());
                rc = 1;
                break;
            }
            info = overlap_frame_get_info(w.overlap);
            w.output = info.output;
            printf("%ux%u: shadow map %u x %ux%u D32, terrain of %llu triangles (grid %u^2) x %u layers per cascade; "
                   "AO %u samples per pixel\n",
                   extent.width, extent.height, OVERLAP_CASCADES, info.shadow_size, info.shadow_size,
                   (unsigned long long)info.shadow_triangles, info.grid, info.shadow_layers, info.ao_iterations);
        }
        ov_setup s[OV_CONFIGS];
        memset(s, 0, sizeof s);
        for (uint32_t c = 0; c < OV_CONFIGS && rc == 0; c++)
            rc = ov_setup_create(&t, &w, c, &s[c]);
        for (uint32_t c = 0; c < OV_CONFIGS && rc == 0; c++)
            for (uint32_t k = 0; k < o->warmup && rc == 0; k++) {
                ov_sample unused;
                if (!ov_frame(&t, &w, &s[c], &unused)) {
                    fprintf(stderr, "gpu_frame: %s: warm-up frame failed: %s (%s)\n", ov_config_names[c],
                            rg_graph_error_message(s[c].graph), eng_last_error());
                    rc = 1;
                }
            }
        for (uint32_t fr = 0; fr < o->frames && rc == 0; fr++)
            for (uint32_t k = 0; k < OV_CONFIGS && rc == 0; k++) {
                uint32_t c = (fr % 2) ? OV_CONFIGS - 1 - k : k; /* alternate the order */
                if (!ov_frame(&t, &w, &s[c], &samples[c * o->frames + fr])) {
                    fprintf(stderr, "gpu_frame: %s: frame failed: %s\n", ov_config_names[c],
                            rg_graph_error_message(s[c].graph));
                    rc = 1;
                }
            }
        size_t bytes = (size_t)extent.width * extent.height * 4;
        uint8_t *pixels[OV_CONFIGS] = { 0 };
        for (uint32_t c = 0; c < OV_CONFIGS && rc == 0; c++)
            if (!(pixels[c] = malloc(bytes)))
                rc = 1;
        if (rc == 0)
            rc = ov_compare_images(&t, &w, s, pixels, bytes);
        if (rc == 0 && o->png_path && si == 0 && eng_write_png(o->png_path, extent.width, extent.height, pixels[1])) {
            fprintf(stderr, "gpu_frame: %s: %s\n", o->png_path, eng_last_error());
            rc = 1;
        }
        for (uint32_t c = 0; c < OV_CONFIGS; c++)
            free(pixels[c]);
        if (rc == 0)
            printf("%-10s %-33s %-8s %-8s %9s %8s %8s %9s %9s %9s %8s\n", "size", "configuration", "batches",
                   o->scene ? "SSAO on" : "AO on", "median ms", "min ms", "max ms", "graphics", "compute", "overlap", "cpu ms");
        ov_stat totals[OV_CONFIGS];
        for (uint32_t c = 0; c < OV_CONFIGS && rc == 0; c++) {
            const ov_sample *v = &samples[c * o->frames];
            ov_stat total = ov_stat_of(v, o->frames, offsetof(ov_sample, total), scratch);
            ov_stat gfx = ov_stat_of(v, o->frames, offsetof(ov_sample, busy[RG_QUEUE_GRAPHICS]), scratch);
            ov_stat comp = ov_stat_of(v, o->frames, offsetof(ov_sample, busy[RG_QUEUE_COMPUTE]), scratch);
            ov_stat xfer = ov_stat_of(v, o->frames, offsetof(ov_sample, busy[RG_QUEUE_TRANSFER]), scratch);
            ov_stat overlap = ov_stat_of(v, o->frames, offsetof(ov_sample, overlap), scratch);
            ov_stat cpu = ov_stat_of(v, o->frames, offsetof(ov_sample, cpu), scratch);
            totals[c] = total;
            char res[32], batches[64];
            snprintf(res, sizeof res, "%ux%u", extent.width, extent.height);
            ov_batch_string(&s[c], batches, sizeof batches, false);
            printf("%-10s %-33s %-8s %-8s %9.3f %8.3f %8.3f %9.3f %9.3f %9.3f %8.3f\n", res, ov_config_names[c],
                   batches, rg_queue_name(s[c].ao_queue), total.median, total.min, total.max, gfx.median,
                   comp.median, overlap.median, cpu.median);
            if (s[c].note[0])
                printf("           (%s pass on graphics: %s)\n", o->scene ? "SSAO" : "AO", s[c].note);
            if (!json)
                continue;
            ov_batch_string(&s[c], batches, sizeof batches, true);
            fprintf(json,
                    "%s{\"width\":%u,\"height\":%u,\"configuration\":\"%s\",\"single_queue\":%s,"
                    "\"concurrent_sharing\":%s,",
                    json_first ? "" : ",", extent.width, extent.height, ov_config_names[c],
                    ov_single_queue[c] ? "true" : "false", ov_concurrent[c] ? "true" : "false");
            if (!o->scene)
                fprintf(json, "\"shadow_size\":%u,\"shadow_triangles\":%llu,\"shadow_layers\":%u,"
                              "\"compute_iterations\":%u,",
                        info.shadow_size, (unsigned long long)info.shadow_triangles, info.shadow_layers,
                        info.ao_iterations);
            fprintf(json, "\"batches\":[%s],\"%s\":\"%s\",\"identical_image\":true,", batches,
                    o->scene ? "ssao_queue" : "ao_queue", rg_queue_name(s[c].ao_queue));
            ov_json_stat(json, "ms", total);
            fputs(",\"busy_ms\":{", json);
            ov_json_stat(json, "graphics", gfx);
            fputc(',', json);
            ov_json_stat(json, "compute", comp);
            fputc(',', json);
            ov_json_stat(json, "transfer", xfer);
            fputs("},", json);
            ov_json_stat(json, "overlap_ms", overlap);
            fputc(',', json);
            ov_json_stat(json, "cpu_ms", cpu);
            fprintf(json, ",\"pooled_bytes\":%llu,\"unaliased_bytes\":%llu,\"vs_single_queue\":%.4f}",
                    (unsigned long long)s[c].totals.pooled, (unsigned long long)s[c].totals.unaliased,
                    total.median / totals[0].median);
            json_first = false;
        }
        if (rc == 0)
            printf("%-10s async compute %+.1f%% end-to-end against single queue%s; concurrent sharing %+.1f%% against "
                   "exclusive (medians)\n",
                   "", 100.0 * (totals[1].median / totals[0].median - 1.0),
                   s[1].batch_count == 1 ? " (one batch here too: no compute queue)" : "",
                   100.0 * (totals[2].median / totals[0].median - 1.0));
        vkDeviceWaitIdle(t.dev);
        for (uint32_t c = 0; c < OV_CONFIGS; c++)
            ov_setup_destroy(&t, &s[c]);
        overlap_frame_destroy(w.overlap);
        if (w.scene)
            eng_image_destroy(w.output);
    }
    if (json) {
        fprintf(json, "]}\n");
        fclose(json);
    }
    free(scratch);
    free(samples);
    ov_timer_destroy(&t);
    return rc;
}

int main(int argc, char **argv)
{
    uint32_t sizes[MAX_SIZES][2] = { { 1920, 1080 }, { 3840, 2160 } };
    uint32_t size_count = 2, frames = 50, warmup = 5;
    const char *json_path = NULL, *ground = NULL;
    bool validation = false, overlap = false, timings = false;
    uint32_t chunks = 0;
    rg_merge merge = RG_MERGE_AUTO;
    ov_options ov = { .shadow_tris = OV_DEFAULT_SHADOW_TRIS, .shadow_layers = OV_DEFAULT_SHADOW_LAYERS,
                      .compute_iters = OV_DEFAULT_COMPUTE_ITERS };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            size_count = 0;
            for (char *tok = strtok(argv[++i], ","); tok && size_count < MAX_SIZES; tok = strtok(NULL, ",")) {
                unsigned w, h;
                if (sscanf(tok, "%ux%u", &w, &h) != 2 || !w || !h) {
                    fprintf(stderr, "gpu_frame: --sizes WxH,...\n");
                    return 2;
                }
                sizes[size_count][0] = w;
                sizes[size_count][1] = h;
                size_count++;
            }
        } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = (uint32_t)atoi(argv[++i]);
            if (frames < 1 || frames > MAX_FRAMES) {
                fprintf(stderr, "gpu_frame: --frames 1..%d\n", MAX_FRAMES);
                return 2;
            }
        } else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
            warmup = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json_path = argv[++i];
        } else if (!strcmp(argv[i], "--ground") && i + 1 < argc) {
            ground = argv[++i];
        } else if (!strcmp(argv[i], "--chunks") && i + 1 < argc) {
            chunks = (uint32_t)strtoul(argv[++i], NULL, 10);
            if (chunks > MAX_CHUNKS) {
                fprintf(stderr, "gpu_frame: --chunks 0..%d\n", MAX_CHUNKS);
                return 2;
            }
        } else if (!strcmp(argv[i], "--timings")) {
            timings = true;
        } else if (!strcmp(argv[i], "--validation")) {
            validation = true;
        } else if (!strcmp(argv[i], "--merge") && i + 1 < argc) {
            const char *mode = argv[++i];
            if (!strcmp(mode, "auto"))
                merge = RG_MERGE_AUTO;
            else if (!strcmp(mode, "on"))
                merge = RG_MERGE_ON;
            else if (!strcmp(mode, "off"))
                merge = RG_MERGE_OFF;
            else {
                fprintf(stderr, "gpu_frame: --merge needs auto, on or off, got '%s'\n", mode);
                return 2;
            }
        } else if (!strcmp(argv[i], "--frame") && i + 1 < argc) {
            const char *name = argv[++i];
            if (strcmp(name, "deferred") && strcmp(name, "overlap") && strcmp(name, "scene")) {
                fprintf(stderr, "gpu_frame: --frame needs deferred, overlap or scene, got '%s'\n", name);
                return 2;
            }
            overlap = strcmp(name, "deferred") != 0;
            ov.scene = !strcmp(name, "scene");
        } else if (!strcmp(argv[i], "--shadow-tris") && i + 1 < argc) {
            ov.shadow_tris = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--shadow-layers") && i + 1 < argc) {
            ov.shadow_layers = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--compute-iters") && i + 1 < argc) {
            ov.compute_iters = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--ssao-samples") && i + 1 < argc) {
            ov.ssao_samples = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--png") && i + 1 < argc) {
            ov.png_path = argv[++i];
        } else {
            fprintf(stderr, "usage: gpu_frame [--sizes WxH,...] [--frames N] [--warmup N] [--json FILE] "
                            "[--validation] [--ground PNG] [--merge auto|on|off] [--timings] [--chunks N]\n"
                            "       gpu_frame --frame overlap [--sizes WxH,...] [--frames N] [--warmup N] "
                            "[--json FILE] [--validation] [--shadow-tris N] [--shadow-layers N] [--compute-iters N] "
                            "[--png FILE]\n"
                            "       gpu_frame --frame scene [--sizes WxH,...] [--frames N] [--warmup N] "
                            "[--json FILE] [--validation] [--ssao-samples N] [--png FILE]\n");
            return 2;
        }
    }
    eng_context *ctx = NULL;
    eng_result er = eng_context_create(&(eng_context_desc){ .app_name = "gpu_frame", .validation = validation }, &ctx);
    if (er != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: context: %s: %s\n", eng_result_string(er), eng_last_error());
        return (!device_required() && (er == ENG_ERROR_NO_DEVICE || er == ENG_ERROR_LAYER_MISSING)) ? 77 : 1;
    }
    if (overlap) {
        ov.sizes = (const uint32_t(*)[2])sizes;
        ov.size_count = size_count;
        ov.frames = frames;
        ov.warmup = warmup;
        ov.json_path = json_path;
        ov.validation = validation;
        int orc = run_overlap(ctx, &ov);
        eng_message_counts mc = eng_context_messages(ctx);
        eng_context_destroy(ctx);
        if (validation && mc.warning + mc.error) {
            fprintf(stderr, "gpu_frame: %u validation warnings, %u errors\n", mc.warning, mc.error);
            return 1;
        }
        return orc;
    }
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    timer t;
    char why[160] = "";
    int rc = timer_create(ctx, &t, why, sizeof why);
    t.chunks = chunks;
    if (rc == 77) {
        printf("gpu_frame: GPU timestamps unavailable on %s: %s\n", props->deviceName, why);
        timer_destroy(&t);
        eng_context_destroy(ctx);
        return device_required() ? 1 : 77;
    }
    char chunk_text[64];
    snprintf(chunk_text, sizeof chunk_text, "in up to %u chunks (rg_execute_chunk)", chunks);
    printf("device: %s (driver 0x%x, Vulkan %u.%u.%u), timestampPeriod %g ns; deferred frame; %u warm-up + %u "
           "frames per configuration; merge %s; graph recorded %s%s\n",
           props->deviceName, props->driverVersion, VK_API_VERSION_MAJOR(props->apiVersion),
           VK_API_VERSION_MINOR(props->apiVersion), VK_API_VERSION_PATCH(props->apiVersion), t.period_ns, warmup,
           frames, merge_names[merge], chunks ? chunk_text : "whole (rg_execute)",
           validation ? "; under validation (times are not meaningful)" : "");
    printf("%-10s %-20s %10s %10s %10s %12s %12s %6s %7s %6s\n", "size", "configuration", "median ms", "min ms",
           "max ms", "pooled MiB", "unaliased", "calls", "images", "merged");
    FILE *json = NULL;
    if (rc == 0 && json_path && !(json = fopen(json_path, "w"))) {
        fprintf(stderr, "gpu_frame: cannot write %s\n", json_path);
        rc = 1;
    }
    if (json)
        fprintf(json, "{\"benchmark\":\"gpu_frame\",\"device\":\"%s\",\"driver_version\":%u,\"timestamp_period_ns\":%g,"
                      "\"frame\":\"deferred\",\"warmup\":%u,\"frames\":%u,\"validation\":%s,\"merge\":\"%s\","
                      "\"results\":[",
                props->deviceName, props->driverVersion, t.period_ns, warmup, frames, validation ? "true" : "false",
                merge_names[merge]);
    double *ms = calloc((size_t)CONFIGS * frames, sizeof *ms);
    bool json_first = true;
    if (!ms)
        rc = 1;
    for (uint32_t si = 0; si < size_count && rc == 0; si++) {
        VkExtent2D extent = { sizes[si][0], sizes[si][1] };
        setup s[2];
        memset(s, 0, sizeof s);
        rc = setup_create(ctx, &t, extent, false, false, merge, ground, &s[0]);
        if (rc == 0)
            rc = setup_create(ctx, &t, extent, true, false, merge, ground, &s[1]);
        /* A hand configuration runs where its graph has the flat copy. */
        bool runs[CONFIGS];
        for (uint32_t c = 0; c < CONFIGS; c++)
            runs[c] = c % 2 == 0 || s[c / 2].flat;
        for (uint32_t c = 0; c < CONFIGS && rc == 0; c++)
            for (uint32_t w = 0; w < warmup && rc == 0 && runs[c]; w++)
                rc = frame_ms(&t, &s[c / 2], c % 2) < 0;
        for (uint32_t f = 0; f < frames && rc == 0; f++)
            for (uint32_t k = 0; k < CONFIGS && rc == 0; k++) {
                uint32_t c = (f % 2) ? CONFIGS - 1 - k : k; /* alternate the order */
                if (!runs[c])
                    continue;
                double v = frame_ms(&t, &s[c / 2], c % 2);
                if (v < 0) {
                    fprintf(stderr, "gpu_frame: %s: frame failed: %s\n", config_names[c],
                            rg_graph_error_message(s[c / 2].graph));
                    rc = 1;
                }
                ms[c * frames + f] = v;
            }
        for (uint32_t c = 0; c < CONFIGS && rc == 0; c++) {
            const setup *st = &s[c / 2];
            char res[32];
            snprintf(res, sizeof res, "%ux%u", extent.width, extent.height);
            if (!runs[c]) {
                printf("%-10s %-20s %10s %10s %10s %12s %12s %6s %7s %6s  (merged spans: not recorded by hand)\n",
                       res, config_names[c], "-", "-", "-", "-", "-", "-", "-", "-");
                continue;
            }
            double *v = &ms[c * frames];
            qsort(v, frames, sizeof *v, cmp_double);
            double median = frames % 2 ? v[frames / 2] : (v[frames / 2 - 1] + v[frames / 2]) / 2;
            /* The graph's barrier counts: the flat copy's equal them where it exists. */
            bench_flat_counts counts = st->flat ? st->counts : bench_graph_counts(st->graph);
            printf("%-10s %-20s %10.3f %10.3f %10.3f %12.2f %12.2f %6u %7u %6u\n", res, config_names[c], median, v[0],
                   v[frames - 1], st->totals.pooled / 1048576.0, st->totals.unaliased / 1048576.0,
                   counts.barrier_calls, counts.image_barriers, st->merged);
            if (json)
                fprintf(json,
                        "%s{\"width\":%u,\"height\":%u,\"configuration\":\"%s\",\"aliasing\":%s,\"recording\":\"%s\","
                        "\"merge\":\"%s\",\"merged_span_pairs\":%u,"
                        "\"ms\":{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f},\"pooled_bytes\":%llu,"
                        "\"unaliased_bytes\":%llu,\"lower_bound_bytes\":%llu,\"lazy_bytes\":%llu,"
                        "\"dedicated_bytes\":%llu,\"pools\":%u,\"barrier_calls\":%u,\"image_barriers\":%u}",
                        json_first ? "" : ",", extent.width, extent.height, config_names[c],
                        c / 2 ? "false" : "true", c % 2 ? "hand" : "graph", merge_names[merge], st->merged, median,
                        v[0], v[frames - 1], (unsigned long long)st->totals.pooled,
                        (unsigned long long)st->totals.unaliased, (unsigned long long)st->totals.lower_bound,
                        (unsigned long long)st->totals.lazy, (unsigned long long)st->totals.dedicated,
                        st->totals.pools, counts.barrier_calls, counts.image_barriers);
            json_first = false;
        }
        if (rc == 0 && timings)
            rc = run_timings(ctx, &t, extent, merge, ground, warmup, frames, &s[0]);
        vkDeviceWaitIdle(eng_context_device(ctx));
        setup_destroy(&s[1]);
        setup_destroy(&s[0]);
    }
    if (json) {
        fprintf(json, "]}\n");
        fclose(json);
    }
    free(ms);
    timer_destroy(&t);
    eng_message_counts mc = eng_context_messages(ctx);
    eng_context_destroy(ctx);
    if (validation && mc.warning + mc.error) {
        fprintf(stderr, "gpu_frame: %u validation warnings, %u errors\n", mc.warning, mc.error);
        return 1;
    }
    return rc;
}
