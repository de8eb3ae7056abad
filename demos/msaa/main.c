/* msaa: a lit, rotating, textured cube drawn with 4x MSAA, declared as a
 * render graph of one span. The multisampled color and the depth attachment
 * are cleared at the start of the span, resolved (color) into the swapchain
 * image and discarded at its end, so the graph makes them TRANSIENT by
 * inference (lazily allocated where the device offers it: no memory at all
 * on a tile GPU). */
#include "demo_app.h"
#include "demo_asset.h"
#include "demo_graph.h"
#include "demo_mesh.h"
#include "demo_texture_binding.h"
#include "demo_transform.h"

#include <engine_files/engine_files.h>
#include <stdio.h>

static const uint32_t cube_vert[] =
#include "cube.vert.inc"
    ;
static const uint32_t cube_frag[] =
#include "cube.frag.inc"
    ;

typedef struct scene {
    eng_image *texture;
    demo_texture_binding binding;
    demo_mesh cube;
    eng_pipeline *pipeline;
    uint64_t index;                   /* frame being recorded */
    VkExtent2D extent;
} scene;

static void scene_destroy(void *user)
{
    scene *s = user;
    eng_pipeline_destroy(s->pipeline);
    demo_mesh_destroy(&s->cube);
    demo_texture_binding_destroy(&s->binding);
    eng_image_destroy(s->texture);
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

    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(s->pipeline));
    demo_texture_binding_bind(cmd, &s->binding, eng_pipeline_layout(s->pipeline));
    vkCmdPushConstants(cmd, eng_pipeline_layout(s->pipeline), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                       0, sizeof push, &push);
    demo_mesh_draw(cmd, &s->cube);
    return true;
}

/* One span: MSAA color resolved into the swapchain image, depth tested. */
static void declare(demo_app *app, rg_graph *g, const demo_target *t, void *user)
{
    scene *s = user;
    s->extent = t->extent;
    demo_declare_forward(g, t, app->desc.clear_color, VK_FORMAT_D32_SFLOAT, "cube", draw, s);
}

static void update(demo_app *app, const eng_frame *frame, uint64_t index, void *user)
{
    (void)app;
    (void)frame;
    ((scene *)user)->index = index;
}

int main(int argc, char **argv)
{
    demo_flag flags[] = {
        { .name = "--texture", .arg = "PATH", .help = "image for the cube (default: assets/bricks.png next to msaa)" },
    };
    demo_app_desc desc = {
        .name = "msaa",
        .summary = "a lit, rotating, textured cube; the render graph makes its MSAA color and depth transient",
        .default_samples = 4,
        .clear_color = { 0.010f, 0.018f, 0.035f, 1.0f },
        .extra_flags = flags,
        .extra_flag_count = 1,
    };
    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    scene s = { 0 };
    demo_app_on_cleanup(&app, scene_destroy, &s);

    char path[4096];
    const char *texture = flags[0].value;
    if (!texture) {
        if (!demo_asset_path(argv[0], "bricks.png", path, sizeof path))
            demo_app_fail(&app, "the path of assets/bricks.png is too long");
        texture = path;
    }
    DEMO_CHECK(&app, eng_texture_load(app.ctx, texture, &s.texture));
    demo_texture_binding_create(&app, s.texture, &s.binding);
    demo_cube_create(&app, &s.cube);
    eng_pipeline_desc pd = {
        .name = "textured cube",
        .vertex_spirv = cube_vert,
        .vertex_size = sizeof cube_vert,
        .fragment_spirv = cube_frag,
        .fragment_size = sizeof cube_frag,
        .bindings = &demo_vertex_binding,
        .binding_count = 1,
        .attributes = demo_vertex_attributes,
        .attribute_count = 3,
        .color_formats = { eng_swapchain_format(app.swapchain) },
        .color_count = 1,
        .depth_format = VK_FORMAT_D32_SFLOAT,
        .samples = (VkSampleCountFlagBits)app.opts.samples,
        .cull_mode = VK_CULL_MODE_BACK_BIT,
        .depth_test = true,
        .depth_write = true,
        .set_layouts = &s.binding.layout,
        .set_layout_count = 1,
        .push_constant_size = sizeof(demo_push),
        .cache = app.pipeline_cache,
    };
    DEMO_CHECK(&app, eng_pipeline_create(app.ctx, &pd, &s.pipeline));
    return demo_app_run_graph(&app, declare, update, &s);
}
