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
 *   gpu_frame [--sizes WxH,...] [--frames N] [--warmup N] [--json FILE]
 *             [--validation] [--ground PNG] [--merge auto|on|off]
 */
#include "bench_deferred.h"
#include "bench_frame.h"

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

typedef struct timer {
    eng_context *ctx;
    VkDevice dev;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    double period_ns;
    uint64_t mask;
} timer;

static void setup_destroy(setup *s)
{
    bench_flat_destroy(s->flat);
    rg_graph_destroy(s->graph);
    bench_deferred_destroy(&s->d);
    memset(s, 0, sizeof *s);
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
    bool ok = hand ? bench_flat_record(s->flat, t->cmd) : rg_execute(s->graph, t->cmd) == RG_SUCCESS;
    vkCmdWriteTimestamp2(t->cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, t->queries, 1);
    if (vkEndCommandBuffer(t->cmd) != VK_SUCCESS || !ok)
        return -1;
    VkCommandBufferSubmitInfo ci = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = t->cmd };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                         .pCommandBufferInfos = &ci };
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

static int setup_create(eng_context *ctx, timer *t, VkExtent2D extent, bool no_aliasing, rg_merge merge,
                        const char *ground, setup *s)
{
    memset(s, 0, sizeof *s);
    if (bench_deferred_create(ctx, ground, extent, false, &s->d) != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: deferred frame: %s\n", eng_last_error());
        return 1;
    }
    rg_graph_create(&(rg_graph_desc){ .name = no_aliasing ? "deferred, no aliasing" : "deferred", .ctx = ctx,
                                      .no_aliasing = no_aliasing, .merge = merge },
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

static int timer_create(eng_context *ctx, timer *t, char *why, size_t why_size)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->dev = eng_context_device(ctx);
    uint32_t n = 0;
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *qf = calloc(n ? n : 1, sizeof *qf);
    if (!qf)
        return 1;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
    uint32_t family = eng_context_queue_family(ctx), bits = family < n ? qf[family].timestampValidBits : 0;
    free(qf);
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
    return vkAllocateCommandBuffers(t->dev, &ai, &t->cmd) == VK_SUCCESS ? 0 : 1;
}

static void timer_destroy(timer *t)
{
    if (!t->dev)
        return;
    vkDeviceWaitIdle(t->dev);
    vkDestroyQueryPool(t->dev, t->queries, NULL);
    vkDestroyFence(t->dev, t->fence, NULL);
    vkDestroyCommandPool(t->dev, t->pool, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint32_t sizes[MAX_SIZES][2] = { { 1920, 1080 }, { 3840, 2160 } };
    uint32_t size_count = 2, frames = 50, warmup = 5;
    const char *json_path = NULL, *ground = NULL;
    bool validation = false;
    rg_merge merge = RG_MERGE_AUTO;
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
        } else {
            fprintf(stderr, "usage: gpu_frame [--sizes WxH,...] [--frames N] [--warmup N] [--json FILE] "
                            "[--validation] [--ground PNG] [--merge auto|on|off]\n");
            return 2;
        }
    }
    eng_context *ctx = NULL;
    eng_result er = eng_context_create(&(eng_context_desc){ .app_name = "gpu_frame", .validation = validation }, &ctx);
    if (er != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: context: %s: %s\n", eng_result_string(er), eng_last_error());
        return (!device_required() && (er == ENG_ERROR_NO_DEVICE || er == ENG_ERROR_LAYER_MISSING)) ? 77 : 1;
    }
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    timer t;
    char why[160] = "";
    int rc = timer_create(ctx, &t, why, sizeof why);
    if (rc == 77) {
        printf("gpu_frame: GPU timestamps unavailable on %s: %s\n", props->deviceName, why);
        timer_destroy(&t);
        eng_context_destroy(ctx);
        return device_required() ? 1 : 77;
    }
    printf("device: %s (driver 0x%x, Vulkan %u.%u.%u), timestampPeriod %g ns; deferred frame; %u warm-up + %u "
           "frames per configuration; merge %s%s\n",
           props->deviceName, props->driverVersion, VK_API_VERSION_MAJOR(props->apiVersion),
           VK_API_VERSION_MINOR(props->apiVersion), VK_API_VERSION_PATCH(props->apiVersion), t.period_ns, warmup,
           frames, merge_names[merge], validation ? "; under validation (times are not meaningful)" : "");
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
        rc = setup_create(ctx, &t, extent, false, merge, ground, &s[0]);
        if (rc == 0)
            rc = setup_create(ctx, &t, extent, true, merge, ground, &s[1]);
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
