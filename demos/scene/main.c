/* A realistic frame as one render graph: shadow cascades, a depth prepass,
 * SSAO on the async compute queue, 4x MSAA forward shading, bloom and an
 * ACES tonemap (scene_frame.h). This file is the window glue only. */
#include "demo_app.h"
#include "demo_graph.h"

#include "scene_frame.h"

#include <stdio.h>

typedef struct demo {
    scene_renderer *renderer;
    bool async_compute;
    scene_frame_textures textures;    /* of the latest declaration */
} demo;

static void demo_destroy(void *user)
{
    demo *d = user;
    scene_renderer_destroy(d->renderer);
    d->renderer = NULL;
}

static void declare(demo_app *app, rg_graph *g, const demo_target *target, void *user)
{
    (void)app;
    demo *d = user;
    scene_frame_declare(d->renderer, g, target->backbuffer, d->async_compute, &d->textures);
}

static void update(demo_app *app, const eng_frame *frame, uint64_t index, void *user)
{
    demo *d = user;
    DEMO_CHECK(app, scene_frame_update(d->renderer, demo_app_graph(app), frame->slot, index));
    /* Recorded on several threads (--threads), the draws find their
     * pipelines made (a new rendering state after a rebuild gets its
     * pipeline here). */
    if (app->record_threads)
        DEMO_CHECK(app, scene_frame_prepare(d->renderer, demo_app_graph(app)));
}

/* Where SSAO and its blur ran, read back from the compiled graph, in a
 * fixed format for tests to match:
 *   scene: ssao on the QUEUE queue, blur on the QUEUE queue, N batches */
static void report_queues(demo_app *app, rg_graph *g, void *user)
{
    demo *d = user;
    rg_command_info ssao, blur;
    if (rg_command_get_info(g, d->textures.ssao, &ssao) != RG_SUCCESS ||
        rg_command_get_info(g, d->textures.blur, &blur) != RG_SUCCESS)
        return;
    printf("%s: ssao on the %s queue, blur on the %s queue, %u batches\n", app->desc.name, rg_queue_name(ssao.queue),
           rg_queue_name(blur.queue), rg_batch_count(g));
}

int main(int argc, char **argv)
{
    demo_flag flags[] = {
        { .name = "--no-async-compute", .help = "SSAO and its blur on the graphics queue" },
        { .name = "--show-cascades", .help = "tint what each shadow cascade covers" },
    };
    demo_app_desc desc = {
        .name = "scene",
        .summary = "shadow cascades, a depth prepass, SSAO on the async compute queue, MSAA forward shading, "
                   "bloom and tonemap as one render graph",
        .default_samples = 4,
        DEMO_APP_FLAGS(flags),
    };
    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    demo d = { .async_compute = !flags[0].value };
    demo_app_on_cleanup(&app, demo_destroy, &d);
    scene_renderer_desc rd = {
        .ctx = app.ctx,
        .cache = app.pipeline_cache,
        .samples = (VkSampleCountFlagBits)app.opts.samples,
        .show_cascades = flags[1].value != NULL,
    };
    DEMO_CHECK(&app, scene_renderer_create(&rd, &d.renderer));
    demo_app_on_placed(&app, report_queues);
    return demo_app_run_graph(&app, declare, update, &d);
}
