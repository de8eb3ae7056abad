/* gpu_frame's overlap frame, run: every size and configuration, the
 * pictures compared across configurations, the medians of total, busy and
 * overlapped time printed and written as JSON. */
#include "gpu_frame.h"

typedef struct ov_stat {
    double median, min, max;
} ov_stat;

/* The median, min and max of field `offset` (a double) of n samples. */
static ov_stat ov_stat_of(const ov_sample *samples, uint32_t n, size_t offset, double *scratch)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(&scratch[i], (const char *)&samples[i] + offset, sizeof(double));
    qsort(scratch, n, sizeof *scratch, gf_cmp_double);
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

int ov_run(eng_context *ctx, const ov_options *o)
{
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    ov_timer t;
    char why[200] = "";
    int rc = ov_timer_create(ctx, &t, why, sizeof why);
    if (rc == 77) {
        printf("gpu_frame: GPU timestamps unavailable on %s: %s\n", props->deviceName, why);
        ov_timer_destroy(&t);
        return bench_device_required() ? 1 : 77;
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
        /* The measured graph chooses before it is timed. */
        rg_queue_choice choice = { 0 };
        if (rc == 0)
            rc = ov_setup_measure(&t, &w, &s[OV_MEASURED]);
        if (rc == 0) {
            rg_queue_choice_get(s[OV_MEASURED].graph, &choice);
            printf("%ux%u: measured queue policy, after %u frames: %s\n", extent.width, extent.height,
                   s[OV_MEASURED].measure_frames, choice.reason);
        }
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
            fprintf(json, ",\"pooled_bytes\":%llu,\"unaliased_bytes\":%llu,\"vs_single_queue\":%.4f",
                    (unsigned long long)s[c].totals.pooled, (unsigned long long)s[c].totals.unaliased,
                    total.median / totals[0].median);
            if (c == OV_MEASURED)
                fprintf(json, ",\"choice\":{\"async\":%s,\"async_ms\":%.4f,\"single_ms\":%.4f,"
                              "\"async_spread_ms\":%.4f,\"single_spread_ms\":%.4f,\"frames_each\":%u,"
                              "\"frames_to_choose\":%u,\"async_submit_cpu_ms\":%.4f,\"single_submit_cpu_ms\":%.4f}",
                        choice.async ? "true" : "false", choice.async_ms, choice.single_ms, choice.async_spread,
                        choice.single_spread, choice.frames, s[c].measure_frames, choice.async_submit_ms,
                        choice.single_submit_ms);
            fputc('}', json);
            json_first = false;
        }
        if (rc == 0)
            printf("%-10s async compute %+.1f%% end-to-end against single queue%s; concurrent sharing %+.1f%% against "
                   "exclusive; measured (%s, timings on) %+.1f%% (medians)\n",
                   "", 100.0 * (totals[1].median / totals[0].median - 1.0),
                   s[1].batch_count == 1 ? " (one batch here too: no compute queue)" : "",
                   100.0 * (totals[2].median / totals[0].median - 1.0),
                   choice.state == RG_QUEUE_CHOICE_MADE ? (choice.async ? "async compute kept" : "one queue kept")
                   : choice.state == RG_QUEUE_CHOICE_NONE ? "nothing to measure" : "unmeasured",
                   100.0 * (totals[OV_MEASURED].median / totals[0].median - 1.0));
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

