/* msaa: a lit, rotating, textured cube drawn with 4x MSAA, declared as a
 * render graph of one span. The multisampled color and the depth attachment
 * are cleared at the start of the span, resolved (color) into the swapchain
 * image and discarded at its end, so the graph makes them TRANSIENT by
 * inference (lazily allocated where the device offers it: no memory at all
 * on a tile GPU).
 *
 * The whole life of the graph is in this file (record_frame):
 *   - declare the frame (declare_frame), compile it, place its memory:
 *     at the first frame and whenever the swapchain's size changed;
 *   - each frame: point the swapchain import at the acquired image and
 *     execute the graph into the frame's command buffer.
 * With --chunks or --threads the frame goes through the render-graph
 * demos' path instead (demo_app_present_graph:
 * eng_swapchain_present_graph_parallel records it in chunks, submits and
 * presents it). demo_app (window, swapchain, flags) only runs the loop. */
#include "demo_app.h"
#include "demo_graph.h"
#include "demo_mesh.h"
#include "demo_texture_binding.h"
#include "demo_transform.h"

#include <stdio.h>

static const uint32_t cube_frag[] =
#include "cube.frag.inc"
    ;

typedef struct scene {
    demo_app *app;
    demo_textured_cube cube;
    eng_pipeline *pipeline;
    rg_graph *graph;
    rg_texture backbuffer;            /* the swapchain image, imported */
    VkExtent2D extent;                /* the graph was declared for */
    uint64_t index;                   /* frame being recorded */
    bool resolve_texture;             /* --resolve-texture */
} scene;

static void scene_destroy(void *user)
{
    scene *s = user;
    /* demo_app waited for the device: nothing of the graph is in flight
     * (it records into the frame's command buffer, which the engine
     * submits; "Placement and the GPU" in rendergraph.h). */
    if (s->graph)
        rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(s->graph);
    eng_pipeline_destroy(s->pipeline);
    demo_textured_cube_destroy(&s->cube);
}

static bool draw(const rg_record_context *rc, void *user)
{
    scene *s = user;
    mat4 view_projection, model;
    float aspect = (float)s->extent.width / (float)s->extent.height;
    demo_view_projection(40.0f, aspect, (vec3){ 0.0f, 1.8f, 6.6f }, (vec3){ 0.0f, 0.0f, 0.0f }, view_projection);
    /* Tilted towards the viewer so three faces show, turning by frame
     * index: the same --frames always gives the same picture. */
    glm_rotate_make(model, 0.35f, (vec3){ 1.0f, 0.0f, 0.0f });
    glm_rotate(model, 0.6f + 0.02f * (float)s->index, (vec3){ 0.0f, 1.0f, 0.0f });
    demo_push push;
    demo_push_make(view_projection, model, (vec4){ 1.0f, 1.0f, 1.0f, 1.0f }, &push);

    demo_cube_draw(rg_record_cmd(rc), s->pipeline, &s->cube.binding, &push, &s->cube.mesh);
    return true;
}

/* One span into the swapchain image (demo_declare_forward): with
 * --samples > 1 through an MSAA color attachment resolved into it, depth
 * tested. Both are cleared at the start and discarded at the end: the
 * graph makes them transient. */
static void declare_frame(scene *s, const eng_frame *frame)
{
    s->backbuffer = demo_import_swapchain(s->graph, frame);
    demo_target t = { .backbuffer = s->backbuffer, .format = frame->format, .extent = frame->extent,
                      .samples = (VkSampleCountFlagBits)s->app->opts.samples,
                      .resolve_texture = s->resolve_texture };
    demo_declare_forward(s->graph, &t, s->app->desc.clear_color, VK_FORMAT_D32_SFLOAT, "cube", draw, s);
}

static void record_frame(demo_app *app, eng_frame *frame, uint64_t index, void *user)
{
    scene *s = user;
    if (frame->extent.width != s->extent.width || frame->extent.height != s->extent.height) {
        /* A new size: declare the frame again. Compiling a changed
         * declaration frees the old placement, which frames in flight may
         * still use. */
        DEMO_CHECK(app, eng_context_wait_idle(app->ctx));
        DEMO_RG_CHECK(app, s->graph, rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE));
        rg_graph_reset(s->graph);
        declare_frame(s, frame);
        DEMO_RG_CHECK(app, s->graph, rg_compile(s->graph));
        DEMO_RG_CHECK(app, s->graph, rg_place(s->graph));
        s->extent = frame->extent;
        demo_graph_placed(app, s->graph, s->extent);
    }
    s->index = index;
    if (demo_app_records_chunks(app)) {
        demo_app_present_graph(app, frame, s->graph, s->backbuffer); /* the import re-pointed, submitted, presented */
        return;
    }
    DEMO_RG_CHECK(app, s->graph, rg_texture_set_image(s->graph, s->backbuffer, &(rg_import_image){
        .image = frame->image, .view = frame->view, .format = frame->format, .width = frame->extent.width,
        .height = frame->extent.height, .usage = frame->usage }));
    DEMO_RG_CHECK(app, s->graph, rg_execute(s->graph, frame->cmd));
    eng_swapchain_finish_image(app->swapchain, frame, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

int main(int argc, char **argv)
{
    demo_flag flags[] = {
        { .name = "--texture", .arg = "PATH", .help = "image for the cube (default: assets/bricks.png next to msaa)" },
        { .name = "--resolve-texture", .help = "resolve into a created texture blitted to the swapchain image: the "
                                               "graph folds the span into it where the device offers "
                                               "VK_EXT_multisampled_render_to_single_sampled (no multisampled image)" },
    };
    demo_app_desc desc = {
        .name = "msaa",
        .summary = "a lit, rotating, textured cube; the render graph makes its MSAA color and depth transient",
        .default_samples = 4,
        .clear_color = { 0.010f, 0.018f, 0.035f, 1.0f },
        DEMO_APP_FLAGS(flags),
    };
    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    scene s = { .app = &app, .resolve_texture = flags[1].value != NULL };
    demo_app_on_cleanup(&app, scene_destroy, &s);

    char path[4096];
    const char *texture = demo_app_asset(&app, flags[0].value, argv[0], "bricks.png", path, sizeof path);
    demo_textured_cube_create(&app, texture, &s.cube);
    eng_pipeline_desc pd = demo_cube_pipeline_desc(&app, "textured cube", cube_frag, sizeof cube_frag,
                                                   eng_swapchain_format(app.swapchain));
    demo_pipeline_add_depth(&pd, true);
    pd.set_layouts = &s.cube.binding.layout;
    pd.set_layout_count = 1;
    DEMO_CHECK(&app, eng_pipeline_create(app.ctx, &pd, &s.pipeline));
    rg_result r = rg_graph_create(&(rg_graph_desc){ .name = "msaa", .device = eng_context_graph_device(app.ctx) }, &s.graph);
    if (r != RG_SUCCESS)
        demo_app_fail(&app, "rg_graph_create: %s", rg_result_string(r));
    if (demo_app_records_chunks(&app))
        return demo_app_run_frames_presented(&app, record_frame, &s);
    return demo_app_run_frames(&app, record_frame, &s);
}
