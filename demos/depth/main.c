/* depth: overlapping and interpenetrating cubes that only look right with
 * the depth test. They are drawn nearest first, so without it (try
 * --no-depth-test) every farther cube paints over the nearer ones. The
 * frame is a render graph of one span whose depth attachment is cleared,
 * tested and discarded within it, so the graph makes it TRANSIENT (lazily
 * allocated where the device offers it). Each cube is a draw command of its
 * own: a frame recorded in chunks (--chunks, --threads) is cut between
 * them, the span suspended in one command buffer and resumed in the next,
 * its depth attachment carried across. */
#include "demo_app.h"
#include "demo_graph.h"
#include "demo_mesh.h"
#include "demo_transform.h"

static const uint32_t tinted_frag[] =
#include "tinted.frag.inc"
    ;

typedef struct object {
    const char *name;
    vec3 position;
    vec3 scale;
    float spin;     /* radians per frame about the object's own y axis */
    vec4 tint;      /* linear */
} object;

/* Nearest to the camera first. The yellow bar pierces the green cube, so
 * no draw order at all could get their crossing right without depth. */
static const object objects[] = {
    { "red cube", { -0.9f, -0.45f, 1.3f }, { 0.55f, 0.55f, 0.55f }, 0.015f, { 0.85f, 0.06f, 0.05f, 1 } },
    { "yellow bar", { 0.0f, 0.05f, 0.0f }, { 1.9f, 0.22f, 0.22f }, -0.004f, { 0.90f, 0.70f, 0.05f, 1 } },
    { "green cube", { 0.0f, 0.05f, 0.0f }, { 0.8f, 0.8f, 0.8f }, 0.01f, { 0.08f, 0.70f, 0.12f, 1 } },
    { "blue cube", { 1.1f, 0.55f, -1.6f }, { 0.95f, 0.95f, 0.95f }, -0.008f, { 0.08f, 0.20f, 0.90f, 1 } },
};
#define OBJECT_COUNT (sizeof objects / sizeof objects[0])

struct scene;
/* One draw command's record data: the scene and which object. */
typedef struct object_draw {
    const struct scene *scene;
    const object *object;
} object_draw;

typedef struct scene {
    demo_mesh cube;
    eng_pipeline *pipeline;
    uint64_t index;                   /* frame being recorded */
    VkExtent2D extent;
    object_draw draws[OBJECT_COUNT];
} scene;

static void scene_destroy(void *user)
{
    scene *s = user;
    eng_pipeline_destroy(s->pipeline);
    demo_mesh_destroy(&s->cube);
}

/* One object; binds everything it draws with (the draw before it may be in
 * another command buffer). */
static bool draw(const rg_record_context *rc, void *user)
{
    const object_draw *d = user;
    const scene *s = d->scene;
    const object *o = d->object;
    mat4 view_projection;
    float aspect = (float)s->extent.width / (float)s->extent.height;
    demo_view_projection(45.0f, aspect, (vec3){ 0.0f, 1.0f, 6.0f }, (vec3){ 0.0f, 0.0f, 0.0f }, view_projection);
    mat4 model;
    glm_translate_make(model, (float *)o->position);
    glm_rotate(model, 0.5f + o->spin * (float)s->index, (vec3){ 0.0f, 1.0f, 0.0f });
    glm_rotate(model, 0.3f, (vec3){ 1.0f, 0.0f, 0.0f });
    glm_scale(model, (float *)o->scale);
    demo_push push;
    demo_push_make(view_projection, model, o->tint, &push);
    demo_cube_draw(rg_record_cmd(rc), s->pipeline, NULL, &push, &s->cube);
    return true;
}

static void declare(demo_app *app, rg_graph *g, const demo_target *t, void *user)
{
    scene *s = user;
    s->extent = t->extent;
    /* Nearest first, in the order of objects[]. */
    const char *names[OBJECT_COUNT];
    void *users[OBJECT_COUNT];
    for (size_t i = 0; i < OBJECT_COUNT; i++) {
        s->draws[i] = (object_draw){ .scene = s, .object = &objects[i] };
        names[i] = objects[i].name;
        users[i] = &s->draws[i];
    }
    demo_declare_forward_draws(g, t, app->desc.clear_color, VK_FORMAT_D32_SFLOAT, "cubes", OBJECT_COUNT, names, draw,
                               users);
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
        { .name = "--no-depth-test", .help = "draw without the depth test, to see what it fixes" },
    };
    demo_app_desc desc = {
        .name = "depth",
        .summary = "overlapping cubes drawn nearest first: right only with the depth test, whose attachment the "
                   "render graph makes transient",
        .default_samples = 1,
        .clear_color = { 0.045f, 0.05f, 0.06f, 1.0f },
        DEMO_APP_FLAGS(flags),
    };
    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    scene s = { 0 };
    demo_app_on_cleanup(&app, scene_destroy, &s);
    bool depth_test = flags[0].value == NULL;

    demo_cube_create(&app, &s.cube);
    eng_pipeline_desc pd = demo_cube_pipeline_desc(&app, "tinted cube", tinted_frag, sizeof tinted_frag,
                                                   eng_swapchain_format(app.swapchain));
    demo_pipeline_add_depth(&pd, depth_test);
    DEMO_CHECK(&app, eng_pipeline_create(app.ctx, &pd, &s.pipeline));
    return demo_app_run_graph(&app, declare, update, &s);
}
