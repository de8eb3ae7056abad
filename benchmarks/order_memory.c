/* order_memory: how much memory the graph's order needs, device-free.
 *
 * Three measurements of the peak of live bytes (rg_memory_totals.lower_bound
 * after an offline placement: the most pooled bytes live at one point of the
 * execution order, which the pools reach), under the three orders of
 * rg_graph_desc.order: memory (the default), batches (longest path, the
 * order before the memory-aware stage), declaration (record order):
 *   1. a corpus of random DAGs (order_corpus.c: compute passes over buffers
 *      of 1 to 64 MiB), --count of them from 8 to 64 commands: the ratios
 *      memory/batches and memory/declaration, mean, best and worst;
 *   2. small random DAGs (4 to 12, then 13 to 20 commands) against the
 *      least peak of any valid order, found by exhaustive search
 *      (order_optimum: every subset in an array, no code shared with the
 *      graph's exact search): mean and worst ratio, optimal in how many;
 *      then DAGs of 21 to 64 commands, past the exact search, against a
 *      lower bound of every order's peak (at each command, the resources
 *      one of its ancestors or itself uses and one of its descendants or
 *      itself uses are live in any order);
 *   3. a realistic wide frame at 1920x1080, written the way an author
 *      declares it: shadow maps for four lights (2048^2 each, rendered
 *      first), a depth prepass, SSAO and its blur, the G-buffer, an ambient
 *      pass and one additive pass per light reading its shadow map, a bloom
 *      chain, tonemap into the swapchain and a UI overlay; textures sized
 *      w x h x texel bytes, rounded to 64 KiB, in one device-local type (a
 *      desktop GPU).
 *
 *   4. the compile time of random DAGs of 20 commands (declare and
 *      rg_compile on a fresh graph, the exact search included): median
 *      and worst over 200, and the same under RG_ORDER_BATCHES (no search).
 *
 *   order_memory [--count N] [--seed S] [--json FILE]
 */
#include "order_corpus.h"

#include <engine/engine.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *order_names[3] = {"memory", "batches", "declaration"};

typedef struct stats {
    double sum, worst, best;
    uint32_t n, lower;
} stats;

static void stats_add(stats *s, double ratio)
{
    if (s->n == 0)
        s->worst = s->best = ratio;
    s->sum += ratio;
    s->worst = ratio > s->worst ? ratio : s->worst;
    s->best = ratio < s->best ? ratio : s->best;
    s->lower += ratio < 1.0;
    s->n++;
}

static uint64_t dag_peak(const order_dag *d, rg_order order)
{
    rg_command cmds[ORDER_MAX_COMMANDS];
    rg_graph *g = order_dag_graph(d, order, cmds);
    uint64_t p = g ? order_peak(g, d) : 0;
    rg_graph_destroy(g);
    return p;
}

/* A lower bound of every valid order's peak: at command v, a buffer one of
 * v's ancestors (or v) uses and one of its descendants (or v) uses is live
 * whatever the order. */
static uint64_t order_lower_bound(const rg_graph *g, const rg_command *cmds, const order_dag *d)
{
    uint64_t best = 0;
    for (uint32_t v = 0; v < d->commands; v++) {
        uint64_t live = 0;
        for (uint32_t b = 0; b < d->buffers; b++) {
            bool before = false, after = false;
            for (uint32_t u = 0; u < d->commands && !(before && after); u++)
                for (uint32_t k = 0; k < d->access_count[u]; k++)
                    if (d->buffer[u][k] == b) {
                        before |= u == v || rg_happens_before(g, cmds[u], cmds[v]);
                        after |= u == v || rg_happens_before(g, cmds[v], cmds[u]);
                    }
            live += before && after ? d->size[b] : 0;
        }
        best = live > best ? live : best;
    }
    return best;
}

/* Section 2's comparison for DAGs of lo..hi commands. */
static uint32_t against_optimum(uint64_t seed, uint32_t count, uint32_t lo, uint32_t hi, stats opt[3])
{
    uint32_t optimal = 0;
    for (uint32_t i = 0; i < count; i++) {
        order_dag d;
        order_dag_random(&seed, lo + i % (hi - lo + 1), &d);
        rg_command cmds[ORDER_MAX_COMMANDS];
        rg_graph *g = order_dag_graph(&d, RG_ORDER_MEMORY, cmds);
        uint64_t best = g ? order_optimum(g, cmds, &d) : 0;
        rg_graph_destroy(g);
        if (!best)
            continue;
        for (int o = 0; o < 3; o++)
            stats_add(&opt[o], (double)dag_peak(&d, (rg_order)o) / (double)best);
        optimal += dag_peak(&d, RG_ORDER_MEMORY) == best;
    }
    return optimal;
}

static double now_us(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC); /* C11; the runs are short */
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Declare + compile of `count` random DAGs of n commands: median and worst
 * microseconds. */
static void compile_times(uint64_t seed, uint32_t count, uint32_t n, rg_order order, double *median, double *worst)
{
    double t[256];
    count = count > 256 ? 256 : count;
    for (uint32_t i = 0; i < count; i++) {
        order_dag d;
        order_dag_random(&seed, n, &d);
        rg_command cmds[ORDER_MAX_COMMANDS];
        double start = now_us();
        rg_graph *g = order_dag_graph(&d, order, cmds);
        t[i] = now_us() - start;
        rg_graph_destroy(g);
    }
    qsort(t, count, sizeof t[0], by_value);
    *median = t[count / 2];
    *worst = t[count - 1];
}

/* ------------------------------------------------------------ wide frame */

typedef struct wide {
    rg_graph *g;
    uint64_t size[64];                /* per declared resource, by index */
    uint32_t n;
} wide;

static bool noop(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

static rg_texture tex(wide *w, const char *name, VkFormat f, uint32_t width, uint32_t height)
{
    rg_format_info fi = rg_format_get_info(f);
    uint64_t bytes = (uint64_t)width * height * fi.block_size;
    w->size[w->n++] = (bytes + 65535) / 65536 * 65536;
    return rg_texture_create(w->g, &(rg_texture_desc){.name = name, .format = f, .width = width, .height = height});
}

static void pass(wide *w, const char *name, rg_texture color, rg_texture depth, const rg_access *reads, uint32_t n)
{
    rg_rendering_desc d = {.name = name};
    if (color.id)
        d.colors[d.color_count++] = (rg_attachment){.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    if (depth.id)
        d.depth = (rg_attachment){.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    rg_begin_rendering(w->g, &d);
    rg_cmd_user(w->g, &(rg_user_desc){.name = name, .kind = RG_COMMAND_DRAW, .accesses = reads, .access_count = n,
                                      .record = noop});
    rg_end_rendering(w->g);
}

#define READ(t) ((rg_access){.texture = (t), .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true})

static void declare_wide(wide *w, uint32_t width, uint32_t height)
{
    rg_graph *g = w->g;
    w->size[w->n++] = 0; /* the swapchain import */
    rg_texture out = rg_texture_import(g, &(rg_texture_import_desc){
                                              .name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                              .width = width, .height = height,
                                              .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    /* Shadow maps first, as a frame is usually written. */
    rg_texture shadow[4];
    static const char *shadow_names[4] = {"shadow 0", "shadow 1", "shadow 2", "shadow 3"};
    for (int i = 0; i < 4; i++) {
        shadow[i] = tex(w, shadow_names[i], VK_FORMAT_D32_SFLOAT, 2048, 2048);
        pass(w, shadow_names[i], (rg_texture){0}, shadow[i], NULL, 0);
    }
    rg_texture depth = tex(w, "depth", VK_FORMAT_D32_SFLOAT, width, height);
    pass(w, "depth prepass", (rg_texture){0}, depth, NULL, 0);
    rg_texture ao = tex(w, "ssao", VK_FORMAT_R8_UNORM, width, height);
    rg_texture ao_blur = tex(w, "ssao blurred", VK_FORMAT_R8_UNORM, width, height);
    pass(w, "ssao", ao, (rg_texture){0}, (rg_access[]){READ(depth)}, 1);
    pass(w, "ssao blur", ao_blur, (rg_texture){0}, (rg_access[]){READ(ao)}, 1);
    rg_texture albedo = tex(w, "albedo", VK_FORMAT_R8G8B8A8_SRGB, width, height);
    rg_texture normal = tex(w, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, width, height);
    rg_texture material = tex(w, "material", VK_FORMAT_R8G8B8A8_UNORM, width, height);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "gbuffer", .color_count = 3,
                              .colors = {{.texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                                         {.texture = normal, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                                         {.texture = material, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                              .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_LOAD},
                              .depth_read_only = true});
    rg_cmd_user(g, &(rg_user_desc){.name = "scene", .kind = RG_COMMAND_DRAW, .record = noop});
    rg_end_rendering(g);
    /* Lighting: the ambient term, then each light added with its shadow
     * map (blended into hdr, so loaded). */
    rg_texture hdr = tex(w, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, width, height);
    rg_access ambient_reads[] = {READ(albedo), READ(normal), READ(material), READ(depth), READ(ao_blur)};
    pass(w, "ambient", hdr, (rg_texture){0}, ambient_reads, 5);
    static const char *light_names[4] = {"light 0", "light 1", "light 2", "light 3"};
    for (int i = 0; i < 4; i++) {
        rg_access light_reads[] = {READ(albedo), READ(normal), READ(material), READ(depth), READ(shadow[i])};
        rg_begin_rendering(g, &(rg_rendering_desc){.name = light_names[i], .color_count = 1,
                                                  .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_LOAD}}});
        rg_cmd_user(g, &(rg_user_desc){.name = light_names[i], .kind = RG_COMMAND_DRAW, .accesses = light_reads,
                                       .access_count = 5, .record = noop});
        rg_end_rendering(g);
    }
    /* Bloom: five levels down, then up. */
    rg_texture down[5], up[4];
    static const char *down_names[5] = {"bloom 1/2", "bloom 1/4", "bloom 1/8", "bloom 1/16", "bloom 1/32"};
    static const char *up_names[4] = {"bloom up 1/2", "bloom up 1/4", "bloom up 1/8", "bloom up 1/16"};
    for (int i = 0; i < 5; i++) {
        down[i] = tex(w, down_names[i], VK_FORMAT_R16G16B16A16_SFLOAT, width >> (i + 1), height >> (i + 1));
        pass(w, down_names[i], down[i], (rg_texture){0}, (rg_access[]){READ(i ? down[i - 1] : hdr)}, 1);
    }
    rg_texture bloom = down[4];
    for (int i = 3; i >= 0; i--) {
        up[i] = tex(w, up_names[i], VK_FORMAT_R16G16B16A16_SFLOAT, width >> (i + 1), height >> (i + 1));
        pass(w, up_names[i], up[i], (rg_texture){0}, (rg_access[]){READ(bloom), READ(down[i])}, 2);
        bloom = up[i];
    }
    pass(w, "tonemap", out, (rg_texture){0}, (rg_access[]){READ(hdr), READ(bloom)}, 2);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "ui", .color_count = 1,
                                              .colors = {{.texture = out, .load = VK_ATTACHMENT_LOAD_OP_LOAD}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "ui", .kind = RG_COMMAND_DRAW, .record = noop});
    rg_end_rendering(g);
}

/* Pooled and lower bound of the wide frame under one order. */
static int wide_frame(rg_order order, uint32_t width, uint32_t height, rg_memory_totals *out)
{
    wide w = {0};
    if (rg_graph_create(&(rg_graph_desc){.name = "wide frame", .order = order}, &w.g) != RG_SUCCESS)
        return 1;
    declare_wide(&w, width, height);
    rg_result r = rg_compile(w.g);
    if (r == RG_SUCCESS)
        r = order_place(w.g, w.size, w.n, 65536);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "order_memory: wide frame: %s: %s\n", rg_result_string(r), rg_graph_error_message(w.g));
        rg_graph_destroy(w.g);
        return 1;
    }
    *out = rg_memory_get_totals(w.g);
    rg_graph_destroy(w.g);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t count = 1000;
    uint64_t seed = 1;
    const char *json_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count") && i + 1 < argc) {
            count = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json_path = argv[++i];
        } else {
            fprintf(stderr, "usage: order_memory [--count N] [--seed S] [--json FILE]\n");
            return 2;
        }
    }
    if (count == 0) {
        fprintf(stderr, "order_memory: --count must be at least 1\n");
        return 2;
    }
    /* 1. The corpus. */
    stats vs_batch = {0}, vs_decl = {0}, batch_vs_decl = {0};
    uint64_t s = seed;
    for (uint32_t i = 0; i < count; i++) {
        order_dag d;
        order_dag_random(&s, 8 + i % 57, &d);
        uint64_t m = dag_peak(&d, RG_ORDER_MEMORY), b = dag_peak(&d, RG_ORDER_BATCHES);
        uint64_t c = dag_peak(&d, RG_ORDER_DECLARATION);
        if (!m || !b || !c) {
            fprintf(stderr, "order_memory: DAG %u failed\n", i);
            return 1;
        }
        if (m > b) {
            fprintf(stderr, "order_memory: DAG %u: the memory order's peak is above the batch order's\n", i);
            return 1;
        }
        stats_add(&vs_batch, (double)m / (double)b);
        stats_add(&vs_decl, (double)m / (double)c);
        stats_add(&batch_vs_decl, (double)b / (double)c);
    }
    printf("1. %u random DAGs of 8 to 64 commands (seed %llu): peak ratio, mean / best / worst, lower in\n", count,
           (unsigned long long)seed);
    printf("   memory / batches       %.3f / %.3f / %.3f  lower in %u\n", vs_batch.sum / count, vs_batch.best,
           vs_batch.worst, vs_batch.lower);
    printf("   memory / declaration   %.3f / %.3f / %.3f  lower in %u\n", vs_decl.sum / count, vs_decl.best,
           vs_decl.worst, vs_decl.lower);
    printf("   batches / declaration  %.3f / %.3f / %.3f  lower in %u\n", batch_vs_decl.sum / count,
           batch_vs_decl.best, batch_vs_decl.worst, batch_vs_decl.lower);
    /* 2. Against the optimum. */
    stats opt[3] = {{0}}, opt20[3] = {{0}};
    uint32_t small = count < 500 ? count : 500;
    uint32_t optimal = against_optimum(seed + 1, small, 4, 12, opt);
    printf("2. %u random DAGs of 4 to 12 commands against the least peak of any order (exhaustive): "
           "mean / worst, optimal in\n", opt[0].n);
    for (int o = 0; o < 3; o++)
        printf("   %-12s %.3f / %.3f\n", order_names[o], opt[o].sum / opt[o].n, opt[o].worst);
    printf("   memory order optimal in %u of %u\n", optimal, opt[0].n);
    uint32_t optimal20 = against_optimum(seed + 2, small, 13, 20, opt20);
    printf("   %u random DAGs of 13 to 20 commands, the same:\n", opt20[0].n);
    for (int o = 0; o < 3; o++)
        printf("   %-12s %.3f / %.3f\n", order_names[o], opt20[o].sum / opt20[o].n, opt20[o].worst);
    printf("   memory order optimal in %u of %u\n", optimal20, opt20[0].n);
    stats vs_bound = {0};
    uint32_t at_bound = 0;
    s = seed + 3;
    for (uint32_t i = 0; i < small; i++) {
        order_dag d;
        order_dag_random(&s, 21 + i % 44, &d);
        rg_command cmds[ORDER_MAX_COMMANDS];
        rg_graph *g = order_dag_graph(&d, RG_ORDER_MEMORY, cmds);
        uint64_t bound = g ? order_lower_bound(g, cmds, &d) : 0, mem = g ? order_peak(g, &d) : 0;
        rg_graph_destroy(g);
        if (!bound || !mem)
            continue;
        stats_add(&vs_bound, (double)mem / (double)bound);
        at_bound += mem == bound;
    }
    printf("   %u random DAGs of 21 to 64 commands (exact up to 32 where the sets fit, else heuristics and the local "
           "search) against a lower "
           "bound of any order's peak: "
           "mean %.3f, worst %.3f, at the bound (optimal) in %u\n", vs_bound.n, vs_bound.sum / vs_bound.n,
           vs_bound.worst, at_bound);
    /* 3. The wide frame. */
    rg_memory_totals wt[3];
    printf("3. wide frame at 1920x1080 (4 shadow maps 2048^2, prepass, SSAO + blur, G-buffer, ambient + 4 lights, "
           "bloom, tonemap, UI), MiB:\n   %-12s %10s %12s\n", "order", "pooled", "lower bound");
    for (int o = 0; o < 3; o++) {
        if (wide_frame((rg_order)o, 1920, 1080, &wt[o]))
            return 1;
        printf("   %-12s %10.2f %12.2f\n", order_names[o], wt[o].pooled / 1048576.0, wt[o].lower_bound / 1048576.0);
    }
    /* 4. Compile time at the exact search's limit. */
    double med_mem, worst_mem, med_batch, worst_batch;
    compile_times(seed + 4, 200, 20, RG_ORDER_MEMORY, &med_mem, &worst_mem);
    compile_times(seed + 4, 200, 20, RG_ORDER_BATCHES, &med_batch, &worst_batch);
    printf("4. declare + compile of 200 random DAGs of 20 commands, microseconds (one thread):\n"
           "   memory (exact search)  median %.1f, worst %.1f\n   batches (no search)    median %.1f, worst %.1f\n",
           med_mem, worst_mem, med_batch, worst_batch);
    double med32, worst32, med64, worst64;
    compile_times(seed + 5, 200, 32, RG_ORDER_MEMORY, &med32, &worst32);
    compile_times(seed + 6, 200, 64, RG_ORDER_MEMORY, &med64, &worst64);
    printf("   memory, 32 commands    median %.1f, worst %.1f (the exact search where its sets fit)\n"
           "   memory, 64 commands    median %.1f, worst %.1f (heuristics and the local search)\n", med32, worst32, med64, worst64);
    if (json_path) {
        FILE *f = fopen(json_path, "w");
        if (!f) {
            fprintf(stderr, "order_memory: cannot write %s\n", json_path);
            return 1;
        }
        fprintf(f, "{\"corpus\":{\"count\":%u,\"seed\":%llu,\"memory_over_batches\":{\"mean\":%.4f,\"best\":%.4f,"
                   "\"worst\":%.4f,\"lower\":%u},\"memory_over_declaration\":{\"mean\":%.4f,\"best\":%.4f,"
                   "\"worst\":%.4f,\"lower\":%u}},",
                count, (unsigned long long)seed, vs_batch.sum / count, vs_batch.best, vs_batch.worst, vs_batch.lower,
                vs_decl.sum / count, vs_decl.best, vs_decl.worst, vs_decl.lower);
        fprintf(f, "\"exhaustive\":{\"count\":%u,\"optimal\":%u", opt[0].n, optimal);
        for (int o = 0; o < 3; o++)
            fprintf(f, ",\"%s\":{\"mean\":%.4f,\"worst\":%.4f}", order_names[o], opt[o].sum / opt[o].n, opt[o].worst);
        fprintf(f, "},\"exhaustive_13_20\":{\"count\":%u,\"optimal\":%u", opt20[0].n, optimal20);
        for (int o = 0; o < 3; o++)
            fprintf(f, ",\"%s\":{\"mean\":%.4f,\"worst\":%.4f}", order_names[o], opt20[o].sum / opt20[o].n,
                    opt20[o].worst);
        fprintf(f, "},\"lower_bound_21_64\":{\"count\":%u,\"mean\":%.4f,\"worst\":%.4f,\"at_bound\":%u}",
                vs_bound.n, vs_bound.sum / vs_bound.n, vs_bound.worst, at_bound);
        fprintf(f, ",\"compile_20_us\":{\"memory\":{\"median\":%.1f,\"worst\":%.1f},"
                   "\"batches\":{\"median\":%.1f,\"worst\":%.1f}}",
                med_mem, worst_mem, med_batch, worst_batch);
        fprintf(f, ",\"wide_frame\":{");
        for (int o = 0; o < 3; o++)
            fprintf(f, "%s\"%s\":{\"pooled\":%llu,\"lower_bound\":%llu}", o ? "," : "", order_names[o],
                    (unsigned long long)wt[o].pooled, (unsigned long long)wt[o].lower_bound);
        fprintf(f, "}}\n");
        fclose(f);
    }
    return 0;
}
