/* deferred: a small scene lit by many moving point lights through a
 * G-buffer, with bloom and a tonemap, declared entirely as a render graph
 * (deferred_frame.c). The G-buffer dies after the lighting pass and the
 * bloom chain's targets reuse its memory: the demo says so once each time
 * the graph is placed. With --merge on (or auto on a tile GPU) the lighting
 * span shares the G-buffer span's rendering instance where the device has
 * local read, and the G-buffer needs no pooled memory: the demo prints the
 * graph's merge decisions, the G-buffer's pooled bytes and the frame's tile
 * traffic estimate after each placement. With --samples N the G-buffer is
 * multisampled and lit per sample. This file is the window glue only. */
#include "demo_app.h"
#include "demo_graph.h"

#include "deferred_frame.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct demo {
    deferred_scene scene;
    deferred_renderer *renderer;
    deferred_frame_textures textures;  /* of the latest declaration */
} demo;

static void demo_destroy(void *user)
{
    demo *d = user;
    deferred_renderer_destroy(d->renderer);
    d->renderer = NULL;
    deferred_scene_destroy(&d->scene);
}

static void declare(demo_app *app, rg_graph *g, const demo_target *target, void *user)
{
    (void)app;
    demo *d = user;
    deferred_frame_declare(d->renderer, g, target->backbuffer, target->extent, &d->textures);
}

/* The name of a span by its begin_rendering command. */
static const char *span_name(const rg_graph *g, rg_command begin)
{
    rg_command_info info;
    return rg_command_get_info(g, begin, &info) == RG_SUCCESS ? info.name : "?";
}

/* Whether the bloom chain landed in the G-buffer's memory, and what merging
 * did: read back from the graph's placement, not assumed. Fixed formats,
 * for tests to match:
 *   deferred: merge MODE: merged: FIRST + SECOND
 *   deferred: merge MODE: not merged: FIRST / SECOND: REASON
 *   deferred: merge MODE: G-buffer pooled N bytes; pooled X MiB, lazy Y MiB; tile traffic Z MiB/frame */
static void report_placement(demo_app *app, rg_graph *g, void *user)
{
    demo *d = user;
    deferred_aliasing a;
    deferred_frame_bloom_aliasing(d->renderer, g, &d->textures, &a);
    if (!a.placed)
        return;
    const double mib = 1024.0 * 1024.0;
    if (a.sharing)
        printf("%s: bloom targets share memory with the G-buffer: %u of %u bloom targets lie in G-buffer memory, "
               "%.2f of their %.2f MiB\n",
               app->desc.name, a.sharing, a.bloom_targets, (double)a.shared_bytes / mib, (double)a.bloom_bytes / mib);
    else
        printf("%s: bloom targets do not share memory with the G-buffer (%u bloom targets, %.2f MiB)\n",
               app->desc.name, a.bloom_targets, (double)a.bloom_bytes / mib);

    const char *mode = demo_merge_name(app->opts.merge);
    for (uint32_t i = 0; i < rg_merge_count(g); i++) {
        rg_merge_info m;
        if (rg_merge_get(g, i, &m) != RG_SUCCESS)
            continue;
        if (m.merged)
            printf("%s: merge %s: merged: %s + %s\n", app->desc.name, mode, span_name(g, m.first),
                   span_name(g, m.second));
        else
            printf("%s: merge %s: not merged: %s / %s: %s\n", app->desc.name, mode, span_name(g, m.first),
                   span_name(g, m.second), m.reason);
    }
    deferred_placement p;
    deferred_frame_placement(d->renderer, g, &d->textures, &p);
    char traffic[48] = "unknown";
    if (p.traffic_known)
        snprintf(traffic, sizeof traffic, "%.2f MiB/frame", (double)p.traffic.total / mib);
    printf("%s: merge %s: G-buffer pooled %llu bytes; pooled %.2f MiB, lazy %.2f MiB; tile traffic %s\n",
           app->desc.name, mode, (unsigned long long)p.gbuffer_pooled, (double)p.totals.pooled / mib,
           (double)p.totals.lazy / mib, traffic);
}

static void update(demo_app *app, const eng_frame *frame, uint64_t index, void *user)
{
    demo *d = user;
    deferred_scene_animate(&d->scene, index);
    DEMO_CHECK(app, deferred_renderer_begin_frame(d->renderer, frame->slot));
    /* Recorded on several threads (--threads), the draws find their
     * pipelines made (a merged state's is made here the first time). */
    if (app->record_threads)
        DEMO_CHECK(app, deferred_frame_prepare(d->renderer, demo_app_graph(app)));
}

int main(int argc, char **argv)
{
    demo_flag flags[] = {
        { .name = "--lights", .arg = "N", .help = "point lights, 1 to 64 (default 48)" },
        { .name = "--ground", .arg = "PATH", .help = "ground texture (default: assets/ground.png next to deferred)" },
    };
    demo_app_desc desc = {
        .name = "deferred",
        .summary = "deferred shading of many point lights, bloom and tonemap as one render graph; "
                   "the bloom chain reuses the G-buffer's memory",
        .default_samples = 1,
        DEMO_APP_FLAGS(flags),
    };
    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    demo d = { 0 };
    demo_app_on_cleanup(&app, demo_destroy, &d);

    uint32_t lights = 48;
    if (flags[0].value) {
        char *end = NULL;
        unsigned long n = strtoul(flags[0].value, &end, 10);
        if (!*flags[0].value || *end || n < 1 || n > DEFERRED_MAX_LIGHTS)
            demo_app_fail(&app, "--lights '%s': want a number from 1 to %d", flags[0].value, DEFERRED_MAX_LIGHTS);
        lights = (uint32_t)n;
    }
    char path[4096];
    const char *ground = demo_app_asset(&app, flags[1].value, argv[0], "ground.png", path, sizeof path);
    DEMO_CHECK(&app, deferred_scene_create(app.ctx, ground, lights, &d.scene));
    deferred_renderer_desc rd = {
        .ctx = app.ctx,
        .cache = app.pipeline_cache,
        .scene = &d.scene,
        .output_format = eng_swapchain_format(app.swapchain),
        .samples = (VkSampleCountFlagBits)app.opts.samples,
    };
    DEMO_CHECK(&app, deferred_renderer_create(&rd, &d.renderer));
    demo_app_on_placed(&app, report_placement);
    return demo_app_run_graph(&app, declare, update, &d);
}
