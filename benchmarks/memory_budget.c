/* memory_budget: what transient attachments save.
 *
 * Setup (as published for the C++ engine's transient-attachment change):
 * 4 sets of 4x MSAA RGBA8 color + 4x D32 depth, at 1280x720, 1920x1080 and
 * 2560x1440, in four modes:
 *   persistent  plain attachments (no TRANSIENT usage), own memory each
 *   transient   TRANSIENT_ATTACHMENT usage: LAZILY_ALLOCATED where offered
 *   graph       the sets declared through the render graph, one pass each,
 *               resolved into one imported image: transient by inference,
 *               lazy where offered, else aliased in pools
 *   fold        the same resolved into one created image, which the graph
 *               folds into (VK_EXT_multisampled_render_to_single_sampled,
 *               where the device offers it): no multisampled image at all,
 *               the depth buffers at one sample; the path taken is printed
 * Three columns per mode: the device-local heap usage delta from
 * VK_EXT_memory_budget ("unavailable" without it, never 0), the sum of
 * vkGetDeviceMemoryCommitment (lazy memory) or allocation sizes (other), and
 * the sum of the images' memory requirements. One warm-up per mode, then
 * --rounds rounds alternating the mode order; median, min and max.
 *
 *   memory_budget [--rounds N] [--sizes WxH,...] [--json FILE] [--validation]
 */
#include "bench_context.h"
#include "msaa_sets.h"

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SETS 4
#define MAX_SIZES 8
#define MAX_ROUNDS 64

typedef struct sample {
    long long heap_delta; /* -1: unavailable */
    unsigned long long committed;
    unsigned long long required;
} sample;

typedef struct mode_result {
    sample rounds[MAX_ROUNDS];
    unsigned n;
    VkMemoryPropertyFlags color_flags, depth_flags;
    unsigned long long color_size, depth_size;
    uint32_t pools;                   /* graph modes */
    unsigned long long lazy;
    char path[200];                   /* fold mode: folded, or why not */
} mode_result;

#define MODES 4
static const char *mode_names[MODES] = { "persistent", "transient", "graph", "fold" };

static int die(eng_result r, const char *what)
{
    fprintf(stderr, "memory_budget: %s: %s: %s\n", what, eng_result_string(r), eng_last_error());
    return 1;
}

/* Device-local usage summed over device-local heaps. */
static long long device_local_usage(eng_context *ctx)
{
    eng_memory_budget b;
    if (eng_memory_budget_query(ctx, &b) != ENG_SUCCESS || !b.available)
        return -1;
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(ctx);
    long long sum = 0;
    for (uint32_t h = 0; h < b.heap_count; h++)
        if (mp->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            sum += (long long)b.usage[h];
    return sum;
}

static int measure(eng_context *ctx, int transient, uint32_t w, uint32_t h, sample *out, mode_result *mr)
{
    eng_image *images[SETS * 2] = { 0 };
    long long before = device_local_usage(ctx);
    int rc = 0;
    memset(out, 0, sizeof *out);
    for (int s = 0; s < SETS && rc == 0; s++) {
        eng_attachment_desc color = { .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = w, .height = h,
                                      .samples = VK_SAMPLE_COUNT_4_BIT, .persistent = !transient };
        eng_attachment_desc depth = { .name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = w, .height = h,
                                      .samples = VK_SAMPLE_COUNT_4_BIT, .persistent = !transient };
        eng_result r = eng_attachment_create(ctx, &color, &images[s * 2]);
        if (r == ENG_SUCCESS)
            r = eng_attachment_create(ctx, &depth, &images[s * 2 + 1]);
        if (r != ENG_SUCCESS)
            rc = die(r, "attachment");
    }
    long long after = device_local_usage(ctx);
    out->heap_delta = (before < 0 || after < 0) ? -1 : after - before;
    for (int i = 0; i < SETS * 2 && images[i]; i++) {
        const eng_image_info *info = eng_image_get_info(images[i]);
        out->committed += info->committed;
        out->required += info->memory_size;
        if (i == 0) { mr->color_flags = info->memory_flags; mr->color_size = info->memory_size; }
        if (i == 1) { mr->depth_flags = info->memory_flags; mr->depth_size = info->memory_size; }
    }
    for (int i = 0; i < SETS * 2; i++)
        eng_image_destroy(images[i]);
    return rc;
}

typedef struct exec_job {
    rg_graph *graph;
    rg_result result;
} exec_job;

static void record_graph(VkCommandBuffer cmd, void *user)
{
    exec_job *j = user;
    j->result = rg_execute(j->graph, cmd);
}

/* The graph places memory at its first execute: measured around that.
 * fold: the sets resolve into a created texture the graph may fold into. */
static int measure_graph(eng_context *ctx, uint32_t w, uint32_t h, bool fold, sample *out, mode_result *mr)
{
    memset(out, 0, sizeof *out);
    eng_image *target = NULL;
    eng_image_desc td = { .name = "resolve target", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = w, .height = h,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT };
    eng_result er = eng_image_create(ctx, &td, &target);
    if (er != ENG_SUCCESS)
        return die(er, "resolve target");
    const eng_image_info *ti = eng_image_get_info(target);
    rg_graph *g = NULL;
    rg_graph_create(&(rg_graph_desc){ .name = "memory_budget", .device = eng_context_graph_device(ctx),
                                      .no_culling = fold }, &g);
    rg_texture resolved =
        fold ? rg_texture_create(g, &(rg_texture_desc){ .name = "resolved", .format = td.format, .width = w,
                                                        .height = h })
             : rg_texture_import(g, &(rg_texture_import_desc){ .name = "resolved", .image = ti->image,
                                                               .view = ti->view, .format = td.format, .width = w,
                                                               .height = h });
    rg_texture first_color = { 0 };
    for (int s = 0; s < SETS; s++) {
        rg_texture color = msaa_set(g, w, h, resolved, (VkClearColorValue){ { 0 } });
        if (s == 0)
            first_color = color;
    }
    int rc = 0;
    long long before = device_local_usage(ctx);
    exec_job job = { g, rg_compile(g) };
    if (job.result == RG_SUCCESS && eng_context_submit_once(ctx, record_graph, &job) != ENG_SUCCESS)
        rc = die(ENG_ERROR_VULKAN, "submit");
    if (job.result != RG_SUCCESS) {
        fprintf(stderr, "memory_budget: graph: %s\n", rg_graph_error_message(g));
        rc = 1;
    }
    long long after = device_local_usage(ctx);
    out->heap_delta = (before < 0 || after < 0) ? -1 : after - before;
    rg_memory_totals t = rg_memory_get_totals(g);
    /* Lazy memory is committed on demand (0 on a tile GPU): not counted. */
    out->committed = t.pooled + t.dedicated;
    out->required = t.unaliased + t.lazy + t.dedicated;
    mr->color_flags = rg_texture_is_transient(g, first_color) ? VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT : 0;
    mr->pools = t.pools;
    mr->lazy = t.lazy;
    rg_resource_info info;
    if (rg_texture_get_info(g, first_color, &info) == RG_SUCCESS)
        snprintf(mr->path, sizeof mr->path, "%s", info.memory == RG_MEMORY_FOLDED ? "folded, no multisampled image"
                                                  : info.fold ? info.fold : "classic");
    rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* eng_context_submit_once waited */
    rg_graph_destroy(g);
    eng_image_destroy(target);
    return rc;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* median/min/max of one column; returns 0 when any round was unavailable. */
static int stats(const mode_result *m, int column, long long out[3])
{
    long long v[MAX_ROUNDS];
    for (unsigned i = 0; i < m->n; i++) {
        const sample *s = &m->rounds[i];
        v[i] = column == 0 ? s->heap_delta : column == 1 ? (long long)s->committed : (long long)s->required;
        if (v[i] < 0)
            return 0;
    }
    qsort(v, m->n, sizeof v[0], cmp_ll);
    out[0] = v[m->n / 2];
    out[1] = v[0];
    out[2] = v[m->n - 1];
    return 1;
}

static void print_mib(char *buf, size_t n, const long long s[3], int ok)
{
    if (!ok)
        snprintf(buf, n, "%-26s", "unavailable");
    else
        snprintf(buf, n, "%7.1f [%6.1f..%6.1f]   ", s[0] / 1048576.0, s[1] / 1048576.0, s[2] / 1048576.0);
}

int main(int argc, char **argv)
{
    unsigned rounds = 7;
    uint32_t sizes[MAX_SIZES][2] = { { 1280, 720 }, { 1920, 1080 }, { 2560, 1440 } };
    unsigned size_count = 3;
    const char *json_path = NULL;
    bool validation = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = (unsigned)atoi(argv[++i]);
            if (rounds < 1 || rounds > MAX_ROUNDS) { fprintf(stderr, "--rounds: 1..%d\n", MAX_ROUNDS); return 2; }
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            size_count = 0;
            for (char *tok = strtok(argv[++i], ","); tok && size_count < MAX_SIZES; tok = strtok(NULL, ",")) {
                unsigned w, h;
                if (sscanf(tok, "%ux%u", &w, &h) != 2 || !w || !h) { fprintf(stderr, "--sizes: WxH,...\n"); return 2; }
                sizes[size_count][0] = w;
                sizes[size_count][1] = h;
                size_count++;
            }
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json_path = argv[++i];
        } else if (!strcmp(argv[i], "--validation")) {
            validation = true;
        } else {
            fprintf(stderr, "usage: memory_budget [--rounds N] [--sizes WxH,...] [--json FILE] [--validation]\n");
            return 2;
        }
    }

    eng_context *ctx = NULL;
    eng_context_desc cd = { .app_name = "memory_budget", .validation = validation };
    eng_result r = eng_context_create(&cd, &ctx);
    if (r != ENG_SUCCESS) {
        die(r, "context");
        /* 77: "skipped" to CTest, unless a device is required. */
        return (!bench_device_required() && (r == ENG_ERROR_NO_DEVICE || r == ENG_ERROR_LAYER_MISSING)) ? 77 : 1;
    }
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    /* Figures from a layer's emulation (the tile-memory layer on lavapipe)
     * are labelled as such, in the table and the JSON. */
    const char *budget_layer = eng_context_memory_budget_layer(ctx);
    char budget_note[160];
    snprintf(budget_note, sizeof budget_note, "%s%s",
             !eng_context_has_memory_budget(ctx) ? "no (unavailable)" : budget_layer ? "emulated by " : "yes",
             budget_layer ? budget_layer : "");
    printf("device: %s (driver 0x%x, Vulkan %u.%u.%u), VK_EXT_memory_budget: %s\n", props->deviceName,
           props->driverVersion, VK_API_VERSION_MAJOR(props->apiVersion), VK_API_VERSION_MINOR(props->apiVersion),
           VK_API_VERSION_PATCH(props->apiVersion), budget_note);
    printf("%d sets of 4x RGBA8 color + 4x D32 depth; %u rounds after 1 warm-up per mode; MiB median [min..max]\n\n",
           SETS, rounds);
    printf("%-10s %-10s %-26s %-26s %-26s %s\n", "size", "mode", "heap usage delta", "committed", "required",
           "memory types (color / depth)");

    FILE *json = NULL;
    if (json_path && !(json = fopen(json_path, "w"))) {
        fprintf(stderr, "memory_budget: cannot write %s\n", json_path);
        eng_context_destroy(ctx);
        return 1;
    }
    if (json)
        fprintf(json, "{\"device\":\"%s\",\"memory_budget\":%s,\"memory_budget_emulated_by\":%s%s%s,"
                      "\"sets\":%d,\"rounds\":%u,\"results\":[",
                props->deviceName, eng_context_has_memory_budget(ctx) ? "true" : "false", budget_layer ? "\"" : "",
                budget_layer ? budget_layer : "null", budget_layer ? "\"" : "", SETS, rounds);
    int rc = 0;
    for (unsigned si = 0; si < size_count && rc == 0; si++) {
        uint32_t w = sizes[si][0], h = sizes[si][1];
        mode_result modes[MODES];
        memset(modes, 0, sizeof modes);
        sample warm;
        for (int m = 0; m < MODES && rc == 0; m++)
            rc = m >= 2 ? measure_graph(ctx, w, h, m == 3, &warm, &modes[m]) : measure(ctx, m, w, h, &warm, &modes[m]);
        for (unsigned i = 0; i < rounds && rc == 0; i++) {
            for (int k = 0; k < MODES && rc == 0; k++) {
                int m = (i % 2) ? MODES - 1 - k : k; /* alternate the mode order */
                sample *out = &modes[m].rounds[modes[m].n];
                rc = m >= 2 ? measure_graph(ctx, w, h, m == 3, out, &modes[m])
                            : measure(ctx, m, w, h, out, &modes[m]);
                modes[m].n++;
            }
        }
        for (int m = 0; m < MODES && rc == 0; m++) {
            long long col[3][3];
            int ok[3];
            char text[3][64], cf[96], df[96];
            for (int c = 0; c < 3; c++) {
                ok[c] = stats(&modes[m], c, col[c]);
                print_mib(text[c], sizeof text[c], col[c], ok[c]);
            }
            char res[32];
            snprintf(res, sizeof res, "%ux%u", w, h);
            if (m == 3)
                printf("%-10s %-10s %s %s %s %u pools, lazy %.1f MiB, path: %s\n", res, mode_names[m], text[0],
                       text[1], text[2], modes[m].pools, modes[m].lazy / 1048576.0, modes[m].path);
            else if (m == 2)
                printf("%-10s %-10s %s %s %s %u pools, lazy %.1f MiB, inferred transient: %s\n", res, mode_names[m],
                       text[0], text[1], text[2], modes[m].pools, modes[m].lazy / 1048576.0,
                       modes[m].color_flags ? "yes" : "no");
            else
                printf("%-10s %-10s %s %s %s %s / %s\n", res, mode_names[m], text[0], text[1], text[2],
                       eng_memory_flags_string(modes[m].color_flags, cf, sizeof cf),
                       eng_memory_flags_string(modes[m].depth_flags, df, sizeof df));
            if (json) {
                fprintf(json, "%s{\"width\":%u,\"height\":%u,\"mode\":\"%s\",\"color_image_bytes\":%llu,"
                              "\"depth_image_bytes\":%llu,\"color_memory_flags\":%u,\"depth_memory_flags\":%u",
                        (si || m) ? "," : "", w, h, mode_names[m], modes[m].color_size, modes[m].depth_size,
                        modes[m].color_flags, modes[m].depth_flags);
                if (m >= 2)
                    fprintf(json, ",\"pools\":%u,\"lazy_bytes\":%llu", modes[m].pools, modes[m].lazy);
                if (m == 3)
                    fprintf(json, ",\"path\":\"%s\"", modes[m].path);
                static const char *keys[3] = { "heap_delta", "committed", "required" };
                for (int c = 0; c < 3; c++) {
                    if (ok[c])
                        fprintf(json, ",\"%s\":{\"median\":%lld,\"min\":%lld,\"max\":%lld}", keys[c], col[c][0],
                                col[c][1], col[c][2]);
                    else
                        fprintf(json, ",\"%s\":\"unavailable\"", keys[c]);
                }
                fprintf(json, "}");
            }
        }
        if (rc == 0)
            printf("%-10s image sizes: color %.2f MiB, depth %.2f MiB (vkGetImageMemoryRequirements)\n", "",
                   modes[0].color_size / 1048576.0, modes[0].depth_size / 1048576.0);
    }
    if (json) {
        fprintf(json, "]}\n");
        fclose(json);
    }
    return bench_context_finish(ctx, "memory_budget", validation, rc);
}
