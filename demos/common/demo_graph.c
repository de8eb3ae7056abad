/* The frame loop of a render-graph demo (demo_graph.h). */
#include "demo_graph.h"

#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct demo_graph_state {
    rg_graph *graph;
    demo_declare_fn declare;
    demo_update_fn update;
    void (*on_placed)(demo_app *app, rg_graph *g, void *user);
    void *user;
    rg_texture backbuffer;
    VkExtent2D extent;                /* of the declared graph */
    bool stale;                       /* declare again before the next frame */
    bool placed;                      /* the reports of this build are written */
    bool queues_said;                 /* --queues measured: the choice of this build printed */
    uint32_t frames_built;            /* frames since the build (--report prints the
                                         GPU timings at DEMO_TIMED_FRAMES) */
};

/* Frames after a build before --report prints the GPU timings: the graph
 * reads a frame's timestamps once the GPU is done with it, a frame or two
 * after it was recorded. */
#define DEMO_TIMED_FRAMES 4

rg_access demo_read(rg_texture texture, rg_usage usage)
{
    return (rg_access){ .texture = texture, .usage = usage, .whole = true };
}

void demo_declare_forward(rg_graph *g, const demo_target *t, const float clear_rgba[4], VkFormat depth_format,
                          const char *name, rg_record_fn draw, void *user)
{
    demo_declare_forward_draws(g, t, clear_rgba, depth_format, name, 1, &name, draw, &user);
}

void demo_declare_forward_draws(rg_graph *g, const demo_target *t, const float clear_rgba[4], VkFormat depth_format,
                                const char *name, uint32_t count, const char *const *names, rg_record_fn draw,
                                void *const *users)
{
    rg_texture_desc td = { .width = t->extent.width, .height = t->extent.height, .samples = t->samples };
    td.name = "depth";
    td.format = depth_format;
    rg_texture depth = rg_texture_create(g, &td);
    rg_attachment color = {
        .texture = t->backbuffer,
        .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .store = VK_ATTACHMENT_STORE_OP_STORE,
    };
    memcpy(color.clear.color.float32, clear_rgba, sizeof color.clear.color.float32);
    rg_texture resolved = {0};
    if (t->samples > 1) {
        td.name = "msaa color";
        td.format = t->format;
        color.texture = rg_texture_create(g, &td);
        color.store = VK_ATTACHMENT_STORE_OP_DONT_CARE; /* only the resolve is kept */
        color.resolve = t->backbuffer;
        if (t->resolve_texture) {
            td.name = "scene color";
            td.samples = VK_SAMPLE_COUNT_1_BIT;
            color.resolve = resolved = rg_texture_create(g, &td);
        }
    }
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { color },
        .color_count = 1,
        .depth = { .texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                   .clear.depthStencil = { 1.0f, 0 } },
    });
    for (uint32_t i = 0; i < count; i++)
        rg_cmd_user(g, &(rg_user_desc){ .name = names[i], .kind = RG_COMMAND_DRAW, .record = draw, .user = users[i] });
    rg_end_rendering(g);
    if (resolved.id)
        rg_cmd_blit(g, resolved, 0, t->backbuffer, 0, VK_FILTER_NEAREST);
}

rg_merge demo_graph_merge(demo_merge merge)
{
    switch (merge) {
    case DEMO_MERGE_ON:
        return RG_MERGE_ON;
    case DEMO_MERGE_OFF:
        return RG_MERGE_OFF;
    default:
        return RG_MERGE_AUTO;
    }
}

rg_graph *demo_app_graph(const demo_app *app)
{
    return app->graph ? app->graph->graph : NULL;
}

void demo_app_on_placed(demo_app *app, void (*on_placed)(demo_app *app, rg_graph *g, void *user))
{
    app->placed_hook = on_placed;
}

void demo_app_record_threads(demo_app *app, uint32_t threads)
{
    app->record_threads = threads;
}

void demo_app_present_graph(demo_app *app, eng_frame *frame, rg_graph *g, rg_texture backbuffer)
{
    if (!demo_app_records_chunks(app)) {
        DEMO_CHECK(app, eng_swapchain_present_graph(app->swapchain, frame, g, backbuffer));
        return;
    }
    if (app->record_threads && !app->workers) {
        rg_result r = rg_workers_create(&(rg_workers_desc){ .thread_count = app->record_threads }, &app->workers);
        if (r != RG_SUCCESS)
            demo_app_fail(app, "rg_workers_create: %s", rg_result_string(r));
    }
    /* Without --threads the workers are NULL: the chunks are recorded on
     * this thread, in order, each into its own command buffer. */
    DEMO_CHECK(app, eng_swapchain_present_graph_parallel(
                        app->swapchain, frame, g, backbuffer,
                        &(eng_parallel_desc){ .workers = app->workers, .max_chunks = demo_app_max_chunks(app) }));
}

void demo_app_rebuild_graph(demo_app *app)
{
    if (app->graph)
        app->graph->stale = true;
}

void demo_graph_destroy(demo_app *app)
{
    if (!app->graph)
        return;
    rg_graph_destroy(app->graph->graph);
    free(app->graph);
    app->graph = NULL;
}

rg_texture demo_import_swapchain(rg_graph *g, const eng_frame *frame)
{
    /* The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT: the first
     * transition of the image waits there. The graph leaves it as a color
     * attachment, the state eng_swapchain_present_graph finishes it from. */
    return rg_texture_import(g, &(rg_texture_import_desc){
        .name = "swapchain",
        .image = frame->image,
        .view = frame->view,
        .format = frame->format,
        .width = frame->extent.width,
        .height = frame->extent.height,
        .initial_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    });
}

/* Declares and compiles the frame for the swapchain's current extent. The
 * previous build's memory may still be in use by frames in flight. */
static void build(demo_app *app, const eng_frame *frame)
{
    demo_graph_state *s = app->graph;
    DEMO_CHECK(app, eng_context_wait_idle(app->ctx));
    rg_graph_reset(s->graph);
    s->backbuffer = demo_import_swapchain(s->graph, frame);
    demo_target target = {
        .backbuffer = s->backbuffer,
        .format = frame->format,
        .extent = frame->extent,
        .samples = (VkSampleCountFlagBits)app->opts.samples,
    };
    s->declare(app, s->graph, &target, s->user);
    DEMO_RG_CHECK(app, s->graph, rg_compile(s->graph));
    DEMO_RG_CHECK(app, s->graph, rg_place(s->graph));
    s->extent = frame->extent;
    s->stale = false;
    s->placed = false;
    s->queues_said = false;
    s->frames_built = 0;
}

void demo_graph_placed(demo_app *app, rg_graph *g, VkExtent2D extent)
{
    const demo_options *o = &app->opts;
    rg_memory_totals t = rg_memory_get_totals(g);
    const double mib = 1024.0 * 1024.0;
    printf("%s: graph placed at %ux%u: pooled %.1f MiB in %u pools (unaliased %.1f MiB, lower bound %.1f MiB), "
           "lazy %.1f MiB, dedicated %.1f MiB\n",
           app->desc.name, extent.width, extent.height, (double)t.pooled / mib, t.pools,
           (double)t.unaliased / mib, (double)t.lower_bound / mib, (double)t.lazy / mib, (double)t.dedicated / mib);
    snprintf(app->status, sizeof app->status, "transient %.1f MiB pooled, %.1f MiB lazy", (double)t.pooled / mib,
             (double)t.lazy / mib);
    /* Which way each multisampled attachment went (rendergraph.h
     * "Multisampling"): folded into its resolve target, or why not. */
    for (uint32_t i = 0; i < rg_resource_count(g); i++) {
        rg_resource_info info;
        if (rg_resource_get(g, i, &info) == RG_SUCCESS && info.fold)
            printf("%s: multisampling: '%s' %s\n", app->desc.name, info.name, info.fold);
    }
    if (o->report)
        DEMO_RG_CHECK(app, g, rg_memory_report_print(g, stdout));
    if (o->dot)
        DEMO_RG_CHECK(app, g, rg_write_dot(g, o->dot));
    if (o->timeline)
        DEMO_RG_CHECK(app, g, rg_memory_timeline_svg(g, o->timeline));
    if (o->save_frame) {
        /* With the device's memory types, so that rgtool plan gives the
         * figures printed above. */
        rgf_save_desc save = {.width = extent.width, .height = extent.height,
                              .device_name = eng_context_properties(app->ctx)->deviceName,
                              .memory = eng_context_memory_properties(app->ctx)};
        rgf_error error;
        if (rgf_save(g, &save, o->save_frame, &error) != RG_SUCCESS)
            demo_app_fail(app, "--save-frame: %s", error.message);
    }
    fflush(stdout);
}

static void write_reports(demo_app *app)
{
    demo_graph_state *s = app->graph;
    demo_graph_placed(app, s->graph, s->extent);
    if (s->on_placed)
        s->on_placed(app, s->graph, s->user);
    fflush(stdout);
    s->placed = true;
}

/* One frame: the graph runs on every queue it uses (its batches), the
 * swapchain image is finished in its last batch and presented. */
static void run_graph(demo_app *app, eng_frame *frame, uint64_t index, void *user)
{
    (void)user;
    demo_graph_state *s = app->graph;
    if (s->stale || frame->extent.width != s->extent.width || frame->extent.height != s->extent.height)
        build(app, frame);
    if (s->update)
        s->update(app, frame, index, s->user);
    demo_app_present_graph(app, frame, s->graph, s->backbuffer);
    if (!s->placed)
        write_reports(app);
    rg_queue_choice choice;
    if (app->opts.queues == DEMO_QUEUES_MEASURED && !s->queues_said &&
        rg_queue_choice_get(s->graph, &choice) == RG_SUCCESS && choice.state != RG_QUEUE_CHOICE_MEASURING) {
        printf("%s: queue policy measured: %s\n", app->desc.name, choice.reason);
        fflush(stdout);
        s->queues_said = true;
    }
    if (app->opts.report && ++s->frames_built == DEMO_TIMED_FRAMES) {
        DEMO_RG_CHECK(app, s->graph, rg_timings_print(s->graph, stdout));
        fflush(stdout);
    }
}

int demo_app_run_graph(demo_app *app, demo_declare_fn declare, demo_update_fn update, void *user)
{
    app->graph = calloc(1, sizeof *app->graph);
    if (!app->graph)
        demo_app_fail(app, "out of memory");
    app->graph_destroy = demo_graph_destroy;
    *app->graph = (demo_graph_state){ .declare = declare, .update = update, .on_placed = app->placed_hook,
                                      .user = user, .stale = true };
    static const rg_queue_policy policies[] = { [DEMO_QUEUES_ELIGIBLE] = RG_QUEUE_POLICY_ELIGIBLE,
                                                [DEMO_QUEUES_SINGLE] = RG_QUEUE_POLICY_SINGLE,
                                                [DEMO_QUEUES_MEASURED] = RG_QUEUE_POLICY_MEASURED };
    bool measured = app->opts.queues == DEMO_QUEUES_MEASURED;
    rg_graph_desc gd = { .name = app->desc.name, .device = eng_context_graph_device(app->ctx),
                         .merge = demo_graph_merge(app->opts.merge), .queue_policy = policies[app->opts.queues],
                         .timings = app->opts.report || measured };
    rg_result r = rg_graph_create(&gd, &app->graph->graph);
    if (r != RG_SUCCESS)
        demo_app_fail(app, "rg_graph_create: %s", rg_result_string(r));
    return demo_app_run_frames_presented(app, run_graph, NULL);
}
