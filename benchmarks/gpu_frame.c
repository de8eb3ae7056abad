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
#include "gpu_frame.h"

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
        return (!bench_device_required() && (er == ENG_ERROR_NO_DEVICE || er == ENG_ERROR_LAYER_MISSING)) ? 77 : 1;
    }
    if (overlap) {
        ov.sizes = (const uint32_t(*)[2])sizes;
        ov.size_count = size_count;
        ov.frames = frames;
        ov.warmup = warmup;
        ov.json_path = json_path;
        ov.validation = validation;
        return bench_context_finish(ctx, "gpu_frame", validation, ov_run(ctx, &ov));
    }
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    timer t;
    char why[160] = "";
    int rc = gf_timer_create(ctx, &t, why, sizeof why);
    t.chunks = chunks;
    if (rc == 77) {
        printf("gpu_frame: GPU timestamps unavailable on %s: %s\n", props->deviceName, why);
        gf_timer_destroy(&t);
        eng_context_destroy(ctx);
        return bench_device_required() ? 1 : 77;
    }
    char chunk_text[64];
    snprintf(chunk_text, sizeof chunk_text, "in up to %u chunks (rg_execute_chunk)", chunks);
    printf("device: %s (driver 0x%x, Vulkan %u.%u.%u), timestampPeriod %g ns; deferred frame; %u warm-up + %u "
           "frames per configuration; merge %s; graph recorded %s%s\n",
           props->deviceName, props->driverVersion, VK_API_VERSION_MAJOR(props->apiVersion),
           VK_API_VERSION_MINOR(props->apiVersion), VK_API_VERSION_PATCH(props->apiVersion), t.period_ns, warmup,
           frames, gf_merge_names[merge], chunks ? chunk_text : "whole (rg_execute)",
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
                gf_merge_names[merge]);
    double *ms = calloc((size_t)CONFIGS * frames, sizeof *ms);
    bool json_first = true;
    if (!ms)
        rc = 1;
    for (uint32_t si = 0; si < size_count && rc == 0; si++) {
        VkExtent2D extent = { sizes[si][0], sizes[si][1] };
        setup s[2];
        memset(s, 0, sizeof s);
        rc = gf_setup_create(ctx, &t, extent, false, false, merge, ground, &s[0]);
        if (rc == 0)
            rc = gf_setup_create(ctx, &t, extent, true, false, merge, ground, &s[1]);
        /* A hand configuration runs where its graph has the flat copy. */
        bool runs[CONFIGS];
        for (uint32_t c = 0; c < CONFIGS; c++)
            runs[c] = c % 2 == 0 || s[c / 2].flat;
        for (uint32_t c = 0; c < CONFIGS && rc == 0; c++)
            for (uint32_t w = 0; w < warmup && rc == 0 && runs[c]; w++)
                rc = gf_frame_ms(&t, &s[c / 2], c % 2) < 0;
        for (uint32_t f = 0; f < frames && rc == 0; f++)
            for (uint32_t k = 0; k < CONFIGS && rc == 0; k++) {
                uint32_t c = (f % 2) ? CONFIGS - 1 - k : k; /* alternate the order */
                if (!runs[c])
                    continue;
                double v = gf_frame_ms(&t, &s[c / 2], c % 2);
                if (v < 0) {
                    fprintf(stderr, "gpu_frame: %s: frame failed: %s\n", gf_config_names[c],
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
                       res, gf_config_names[c], "-", "-", "-", "-", "-", "-", "-", "-");
                continue;
            }
            double *v = &ms[c * frames];
            qsort(v, frames, sizeof *v, gf_cmp_double);
            double median = frames % 2 ? v[frames / 2] : (v[frames / 2 - 1] + v[frames / 2]) / 2;
            /* The graph's barrier counts: the flat copy's equal them where it exists. */
            bench_flat_counts counts = st->flat ? st->counts : bench_graph_counts(st->graph);
            printf("%-10s %-20s %10.3f %10.3f %10.3f %12.2f %12.2f %6u %7u %6u\n", res, gf_config_names[c], median,
                   v[0], v[frames - 1], st->totals.pooled / 1048576.0, st->totals.unaliased / 1048576.0,
                   counts.barrier_calls, counts.image_barriers, st->merged);
            if (json)
                fprintf(json,
                        "%s{\"width\":%u,\"height\":%u,\"configuration\":\"%s\",\"aliasing\":%s,\"recording\":\"%s\","
                        "\"merge\":\"%s\",\"merged_span_pairs\":%u,"
                        "\"ms\":{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f},\"pooled_bytes\":%llu,"
                        "\"unaliased_bytes\":%llu,\"lower_bound_bytes\":%llu,\"lazy_bytes\":%llu,"
                        "\"dedicated_bytes\":%llu,\"pools\":%u,\"barrier_calls\":%u,\"image_barriers\":%u}",
                        json_first ? "" : ",", extent.width, extent.height, gf_config_names[c],
                        c / 2 ? "false" : "true", c % 2 ? "hand" : "graph", gf_merge_names[merge], st->merged, median,
                        v[0], v[frames - 1], (unsigned long long)st->totals.pooled,
                        (unsigned long long)st->totals.unaliased, (unsigned long long)st->totals.lower_bound,
                        (unsigned long long)st->totals.lazy, (unsigned long long)st->totals.dedicated,
                        st->totals.pools, counts.barrier_calls, counts.image_barriers);
            json_first = false;
        }
        if (rc == 0 && timings)
            rc = gf_run_timings(ctx, &t, extent, merge, ground, warmup, frames, &s[0]);
        vkDeviceWaitIdle(eng_context_device(ctx));
        gf_setup_destroy(&s[1]);
        gf_setup_destroy(&s[0]);
    }
    if (json) {
        fprintf(json, "]}\n");
        fclose(json);
    }
    free(ms);
    gf_timer_destroy(&t);
    return bench_context_finish(ctx, "gpu_frame", validation, rc);
}
