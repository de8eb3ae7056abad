/* The scene pass of postfx (postfx.h): a sky with a striped sun over a neon
 * grid (one fullscreen triangle), then the brick cube in front of it, into
 * an RGBA16F target. One convex cube with back faces culled needs no depth
 * buffer; with --samples above 1 the pass renders into a multisampled
 * target resolved into the scene target, which the graph then makes
 * transient (lazily allocated where offered). */
#include "postfx.h"
#include "demo_transform.h"

#include <math.h>

static const uint32_t sky_frag[] =
#include "postfx_sky.frag.inc"
    ;
static const uint32_t cube_frag[] =
#include "postfx_cube.frag.inc"
    ;

/* The push constants of postfx_sky.frag. */
typedef struct sky_push {
    float frame;
    float aspect;
    float horizon;
    float pad;
} sky_push;

void postfx_scene_create(postfx *fx, const char *texture_path)
{
    demo_app *app = fx->app;
    postfx_scene *s = &fx->scene;
    demo_textured_cube_create(app, texture_path, &s->cube);
    const VkSampleCountFlagBits samples = (VkSampleCountFlagBits)app->opts.samples;
    eng_pipeline_desc sky = postfx_fullscreen_desc(app, "postfx sky", sky_frag, sizeof sky_frag, sizeof(sky_push));
    sky.color_formats[0] = POSTFX_FORMAT;
    sky.color_count = 1;
    sky.samples = samples;
    DEMO_CHECK(app, eng_pipeline_create(app->ctx, &sky, &s->sky));
    eng_pipeline_desc cube = demo_cube_pipeline_desc(app, "postfx cube", cube_frag, sizeof cube_frag, POSTFX_FORMAT);
    cube.set_layouts = &s->cube.binding.layout;
    cube.set_layout_count = 1;
    DEMO_CHECK(app, eng_pipeline_create(app->ctx, &cube, &s->cube_pipeline));
}

void postfx_scene_destroy(postfx_scene *s)
{
    eng_pipeline_destroy(s->cube_pipeline);
    eng_pipeline_destroy(s->sky);
    demo_textured_cube_destroy(&s->cube);
}

static bool draw_scene(const rg_record_context *rc, void *user)
{
    postfx *fx = user;
    postfx_scene *s = &fx->scene;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    const float aspect = (float)fx->extent.width / (float)fx->extent.height;
    const float t = (float)fx->index; /* frame index, not the clock: --frames N always looks the same */

    sky_push sp = { .frame = t, .aspect = aspect, .horizon = 0.62f };
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(s->sky));
    vkCmdPushConstants(cmd, eng_pipeline_layout(s->sky), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof sp, &sp);
    vkCmdDraw(cmd, 3, 1, 0, 0);

    mat4 view_projection, model;
    demo_view_projection(40.0f, aspect, (vec3){ 0.0f, 1.4f, 7.0f }, (vec3){ 0.0f, 0.35f, 0.0f }, view_projection);
    glm_translate_make(model, (vec3){ 0.0f, 0.12f * sinf(0.05f * t), 0.0f });
    glm_rotate(model, 0.3f, (vec3){ 1.0f, 0.0f, 0.0f });
    glm_rotate(model, 0.7f + 0.02f * t, (vec3){ 0.0f, 1.0f, 0.0f });
    glm_scale_uni(model, 0.8f);
    demo_push push;
    /* tint.w: the height (texture v) of the glowing band sweeping the cube. */
    float band = 1.2f - fmodf(0.015f * t + 0.45f, 1.4f);
    demo_push_make(view_projection, model, (vec4){ 1.0f, 1.0f, 1.0f, band }, &push);
    demo_cube_draw(cmd, s->cube_pipeline, &s->cube.binding, &push, &s->cube.mesh);
    return true;
}

rg_texture postfx_declare_scene(postfx *fx, rg_graph *g, const demo_target *target)
{
    rg_texture_desc td = {
        .name = "scene",
        .format = POSTFX_FORMAT,
        .width = target->extent.width,
        .height = target->extent.height,
    };
    rg_texture scene = rg_texture_create(g, &td);
    fx->target_count++;
    /* The sky covers every pixel: nothing to clear or load. */
    rg_attachment color = { .texture = scene, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                            .store = VK_ATTACHMENT_STORE_OP_STORE };
    fx->msaa_target = target->samples > 1;
    if (fx->msaa_target) {
        td.name = "scene msaa";
        td.samples = target->samples;
        color.texture = rg_texture_create(g, &td);
        color.store = VK_ATTACHMENT_STORE_OP_DONT_CARE; /* only the resolve is kept */
        color.resolve = scene;
    }
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "scene", .colors = { color }, .color_count = 1 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw scene", .kind = RG_COMMAND_DRAW, .record = draw_scene, .user = fx });
    rg_end_rendering(g);
    return scene;
}
