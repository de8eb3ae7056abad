/* The scene demo's frame as a render graph (scene_frame.h). */
#include "scene_frame.h"

#include <cglm/cglm.h>
#include <cglm/clipspace/ortho_rh_zo.h>
#include <cglm/clipspace/persp_rh_zo.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t object_vert[] =
#include "scene_object.vert.inc"
    ;
static const uint32_t shadow_vert[] =
#include "scene_shadow.vert.inc"
    ;
static const uint32_t sky_vert[] =
#include "scene_sky.vert.inc"
    ;
static const uint32_t sky_frag[] =
#include "scene_sky.frag.inc"
    ;
static const uint32_t forward_frag[] =
#include "scene_forward.frag.inc"
    ;
static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t bright_frag[] =
#include "scene_bright.frag.inc"
    ;
static const uint32_t down_frag[] =
#include "scene_down.frag.inc"
    ;
static const uint32_t up_frag[] =
#include "scene_up.frag.inc"
    ;
static const uint32_t tonemap_frag[] =
#include "scene_tonemap.frag.inc"
    ;
static const uint32_t ssao_comp[] =
#include "scene_ssao.comp.inc"
    ;
static const uint32_t blur_comp[] =
#include "scene_blur.comp.inc"
    ;

static const VkFormat DEPTH_FORMAT = VK_FORMAT_D32_SFLOAT;
static const VkFormat HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
static const VkFormat AO_FORMAT = VK_FORMAT_R8_UNORM;
static const uint32_t SHADOW_SIZE = 1024;
static const float NEAR_PLANE = 0.1f, FAR_PLANE = 120.0f;
/* View depth where each cascade ends: the nearest one covers the front
 * of the scene, the last one reaches past its back. */
static const float CASCADE_END[SCENE_CASCADES] = { 17.0f, 27.0f, 60.0f };

enum { MAX_OBJECTS = 32, MAX_PASSES = 32, MAX_PIPELINES = 64 };

/* ---------------------------------------------------------- the scene */

/* The vertex layout of scene_object.vert and scene_shadow.vert. */
typedef struct scene_vertex {
    float position[3];
    float normal[3];
} scene_vertex;

static const VkVertexInputBindingDescription vertex_binding = { 0, sizeof(scene_vertex), VK_VERTEX_INPUT_RATE_VERTEX };
static const VkVertexInputAttributeDescription vertex_attributes[2] = {
    { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
    { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 3 * sizeof(float) },
};

/* The push constants of scene_object.vert / scene_forward.frag. */
typedef struct object_push {
    float model[16];
    float color[4];                   /* rgb albedo (linear), a emission */
    float material[4];                /* x tiled floor, y specular power, z specular strength */
} object_push;

/* The push constants of scene_shadow.vert. */
typedef struct shadow_push {
    float model[16];
    uint32_t cascade;
    uint32_t unused[3];
} shadow_push;

/* The frame's uniform block (std140; the shaders' Frame). */
typedef struct frame_uniforms {
    float matrices[4][16];            /* camera view-projection, then the cascades' */
    float inv_view_proj[16];
    float camera_pos[4];
    float camera_forward[4];
    float sun_dir[4];                 /* towards the sun; w intensity */
    float sun_color[4];               /* w: 1 tints the cascades */
    float sky_zenith[4];
    float sky_horizon[4];
    float ground_color[4];
    float splits[4];                  /* cascade ends; w 1 / shadow map size */
    float cascade_texel[4];
} frame_uniforms;

_Static_assert(sizeof(frame_uniforms) == 464, "frame_uniforms must match the shaders' std140 block");

/* A box of the scene: centre, half extents, turn about y (radians). */
typedef struct box {
    float center[3], half[3], turn;
    float color[4], material[4];
} box;

/* ---------------------------------------------------------- programs */

/* The frame's draws and dispatches by what they run. */
typedef enum program {
    PROGRAM_SHADOW,
    PROGRAM_PREPASS,
    PROGRAM_SKY,
    PROGRAM_FORWARD,
    PROGRAM_BRIGHT,
    PROGRAM_DOWN,
    PROGRAM_UP,
    PROGRAM_TONEMAP,
    PROGRAM_GRAPHICS_COUNT,
    PROGRAM_SSAO = PROGRAM_GRAPHICS_COUNT,
    PROGRAM_BLUR,
    PROGRAM_COUNT
} program;

#define UBO VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
#define TEX VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
#define IMG VK_DESCRIPTOR_TYPE_STORAGE_IMAGE

/* Everything of a program but the attachments, which the compiled graph
 * gives (eng_pipeline_desc_set_rendering). Set 0 is pushed: its binding
 * types in shader order. */
typedef struct program_info {
    const char *name;
    const uint32_t *vert;             /* compute: the compute shader */
    size_t vert_size;
    const uint32_t *frag;             /* NULL: depth only, or compute */
    size_t frag_size;
    bool mesh, depth_test, depth_write;
    VkCompareOp compare;
    float bias_constant, bias_slope;
    eng_blend blend;
    uint32_t push_size;
    uint32_t binding_count;
    VkDescriptorType bindings[3];
} program_info;

#define SHADER(words) words, sizeof words
static const program_info programs[PROGRAM_COUNT] = {
    [PROGRAM_SHADOW] = { "scene shadow", SHADER(shadow_vert), NULL, 0, true, true, true,
                         VK_COMPARE_OP_LESS, 1.5f, 2.5f, ENG_BLEND_OPAQUE, sizeof(shadow_push), 1, { UBO } },
    [PROGRAM_PREPASS] = { "scene prepass", SHADER(object_vert), NULL, 0, true, true, true,
                          VK_COMPARE_OP_LESS, 0, 0, ENG_BLEND_OPAQUE, sizeof(object_push), 1, { UBO } },
    [PROGRAM_SKY] = { "scene sky", SHADER(sky_vert), SHADER(sky_frag), false, true, false,
                      VK_COMPARE_OP_LESS_OR_EQUAL, 0, 0, ENG_BLEND_OPAQUE, 0, 1, { UBO } },
    [PROGRAM_FORWARD] = { "scene forward", SHADER(object_vert), SHADER(forward_frag), true, true, false,
                          VK_COMPARE_OP_LESS_OR_EQUAL, 0, 0, ENG_BLEND_OPAQUE, sizeof(object_push), 3,
                          { UBO, TEX, TEX } },
    [PROGRAM_BRIGHT] = { "bloom bright pass", SHADER(fullscreen_vert), SHADER(bright_frag), false, false, false, 0, 0,
                         0, ENG_BLEND_OPAQUE, 16, 1, { TEX } },
    [PROGRAM_DOWN] = { "bloom downsample", SHADER(fullscreen_vert), SHADER(down_frag), false, false, false, 0, 0, 0,
                       ENG_BLEND_OPAQUE, 0, 1, { TEX } },
    [PROGRAM_UP] = { "bloom upsample", SHADER(fullscreen_vert), SHADER(up_frag), false, false, false, 0, 0, 0,
                     ENG_BLEND_ADDITIVE, 16, 1, { TEX } },
    [PROGRAM_TONEMAP] = { "tonemap", SHADER(fullscreen_vert), SHADER(tonemap_frag), false, false, false, 0, 0, 0,
                          ENG_BLEND_OPAQUE, 16, 2, { TEX, TEX } },
    [PROGRAM_SSAO] = { "ssao", SHADER(ssao_comp), NULL, 0, false, false, false, 0, 0, 0, ENG_BLEND_OPAQUE, 32, 2,
                       { TEX, IMG } },
    [PROGRAM_BLUR] = { "ssao blur", SHADER(blur_comp), NULL, 0, false, false, false, 0, 0, 0, ENG_BLEND_OPAQUE, 16,
                       3, { TEX, TEX, IMG } },
};

/* A built graphics pipeline and the rendering state (key) it was built
 * for. */
typedef struct pipeline_entry {
    program program;
    uint64_t key;
    eng_pipeline *pipeline;
} pipeline_entry;

/* One draw or dispatch of the frame: what its record callback binds. */
typedef struct pass {
    scene_renderer *r;
    program program;
    rg_command cmd;
    uint32_t cascade;                 /* PROGRAM_SHADOW */
    rg_texture src[2];                /* a fullscreen pass's sources */
    float push[4];
    /* The pipeline for the rendering state of key (graphics). */
    uint64_t key;
    const eng_pipeline *pipeline;
} pass;

struct scene_renderer {
    eng_context *ctx;
    eng_pipeline_cache *cache;
    VkSampleCountFlagBits samples;
    uint32_t ssao_samples;
    bool show_cascades;
    eng_buffer *vertices, *indices;
    uint32_t index_count;
    eng_buffer *uniforms[SCENE_SLOTS]; /* frame_uniforms each, host-visible */
    VkSampler linear, nearest, shadow;
    eng_pipeline *compute[PROGRAM_COUNT - PROGRAM_GRAPHICS_COUNT];
    pipeline_entry pipelines[MAX_PIPELINES];
    uint32_t pipeline_count;
    /* Per declaration: */
    rg_graph *graph;
    rg_buffer uniform_import;
    VkExtent2D extent;
    scene_frame_textures tex;
    pass passes[MAX_PASSES];
    uint32_t pass_count;
    /* Per frame: */
    box boxes[MAX_OBJECTS];
    uint32_t box_count;
    float proj[4];                    /* SSAO's view of the projection */
};

/* ------------------------------------------------------------ creation */

/* A cube from -1 to 1: 24 vertices (a normal per face), 36 indices,
 * counter-clockwise seen from outside. */
static eng_result make_cube(scene_renderer *r)
{
    /* Per face: normal n and in-plane axes u, v with u x v = n. */
    static const float faces[6][3][3] = {
        { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },  { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },  { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
        { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },   { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
    };
    static const float corners[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    static const uint16_t quad[6] = { 0, 1, 2, 0, 2, 3 };
    scene_vertex v[24];
    uint16_t idx[36];
    for (int f = 0; f < 6; f++) {
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < 3; k++) {
                v[f * 4 + c].position[k] = faces[f][0][k] + corners[c][0] * faces[f][1][k] +
                                           corners[c][1] * faces[f][2][k];
                v[f * 4 + c].normal[k] = faces[f][0][k];
            }
        for (int i = 0; i < 6; i++)
            idx[f * 6 + i] = (uint16_t)(f * 4 + quad[i]);
    }
    r->index_count = 36;
    eng_result res = eng_buffer_create_with_data(r->ctx, "scene cube vertices", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
                                                 sizeof v, &r->vertices);
    if (res == ENG_SUCCESS)
        res = eng_buffer_create_with_data(r->ctx, "scene cube indices", VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx,
                                          sizeof idx, &r->indices);
    return res;
}

eng_result scene_renderer_create(const scene_renderer_desc *desc, scene_renderer **out)
{
    *out = NULL;
    if (!desc || !desc->ctx)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "scene_renderer_create: no context");
    if (!eng_context_has_push_descriptors(desc->ctx))
        return eng_set_error(ENG_ERROR_UNSUPPORTED, "scene_renderer_create: the device has no push descriptors "
                                                    "(VK_KHR_push_descriptor)");
    scene_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "scene_renderer_create: out of memory");
    r->ctx = desc->ctx;
    r->cache = desc->cache;
    r->samples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_4_BIT;
    r->ssao_samples = desc->ssao_samples ? desc->ssao_samples : 16;
    r->show_cascades = desc->show_cascades;
    eng_result res = make_cube(r);
    for (uint32_t i = 0; i < SCENE_SLOTS && res == ENG_SUCCESS; i++)
        res = eng_buffer_create(r->ctx,
                                &(eng_buffer_desc){ .name = "scene frame uniforms", .size = sizeof(frame_uniforms),
                                                    .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                                    .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                              VK_MEMORY_PROPERTY_HOST_COHERENT_BIT },
                                &r->uniforms[i]);
    /* Samplers: bloom's filtered reads, the exact reads of depth and AO,
     * and the shadow map's comparison (outside the map: lit). */
    if (res == ENG_SUCCESS)
        res = eng_sampler_get(r->ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR,
                                                           .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE },
                              &r->linear);
    if (res == ENG_SUCCESS)
        res = eng_sampler_get(r->ctx, &(eng_sampler_desc){ .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE },
                              &r->nearest);
    if (res == ENG_SUCCESS)
        res = eng_sampler_get(r->ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR,
                                                           .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                                           .border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                                           .compare = true,
                                                           .compare_op = VK_COMPARE_OP_LESS_OR_EQUAL },
                              &r->shadow);
    /* The dispatches' pipelines depend on no rendering state. */
    for (program p = PROGRAM_SSAO; p < PROGRAM_COUNT && res == ENG_SUCCESS; p++) {
        const program_info *pi = &programs[p];
        res = eng_compute_pipeline_create(r->ctx,
                                          &(eng_compute_pipeline_desc){ .name = pi->name, .spirv = pi->vert,
                                                                        .size = pi->vert_size,
                                                                        .push_descriptors = pi->bindings,
                                                                        .push_descriptor_count = pi->binding_count,
                                                                        .push_constant_size = pi->push_size,
                                                                        .cache = r->cache },
                                          &r->compute[p - PROGRAM_GRAPHICS_COUNT]);
    }
    if (res != ENG_SUCCESS) {
        scene_renderer_destroy(r);
        return res;
    }
    *out = r;
    return ENG_SUCCESS;
}

void scene_renderer_destroy(scene_renderer *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        eng_pipeline_destroy(r->pipelines[i].pipeline);
    for (uint32_t i = 0; i < PROGRAM_COUNT - PROGRAM_GRAPHICS_COUNT; i++)
        eng_pipeline_destroy(r->compute[i]);
    for (uint32_t i = 0; i < SCENE_SLOTS; i++)
        eng_buffer_destroy(r->uniforms[i]);
    eng_buffer_destroy(r->indices);
    eng_buffer_destroy(r->vertices);
    free(r); /* the samplers are the context's */
}

/* ------------------------------------------------------------ pipelines */

/* The program's pipeline for a rendering state the graph reported: one
 * already built for that key, or a new one kept until the renderer is
 * destroyed. */
static eng_result pipeline_for(scene_renderer *r, program prog, const rg_command_rendering *st,
                               const eng_pipeline **out)
{
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        if (r->pipelines[i].program == prog && r->pipelines[i].key == st->key) {
            *out = r->pipelines[i].pipeline;
            return ENG_SUCCESS;
        }
    if (r->pipeline_count == MAX_PIPELINES)
        return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "%s: more than %d rendering states", programs[prog].name,
                             MAX_PIPELINES);
    const program_info *pi = &programs[prog];
    eng_pipeline_desc d = {
        .name = pi->name,
        .vertex_spirv = pi->vert,
        .vertex_size = pi->vert_size,
        .fragment_spirv = pi->frag,
        .fragment_size = pi->frag_size,
        .bindings = pi->mesh ? &vertex_binding : NULL,
        .binding_count = pi->mesh ? 1 : 0,
        .attributes = pi->mesh ? vertex_attributes : NULL,
        .attribute_count = pi->mesh ? (prog == PROGRAM_SHADOW ? 1 : 2) : 0,
        .cull_mode = prog == PROGRAM_PREPASS || prog == PROGRAM_FORWARD ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
        .depth_test = pi->depth_test,
        .depth_write = pi->depth_write,
        .depth_compare = pi->compare,
        .depth_bias_constant = pi->bias_constant,
        .depth_bias_slope = pi->bias_slope,
        .blend = { pi->blend },
        .push_descriptors = pi->bindings,
        .push_descriptor_count = pi->binding_count,
        .push_constant_size = pi->push_size,
        .cache = r->cache,
    };
    eng_pipeline_desc_set_rendering(&d, st);
    eng_pipeline *p = NULL;
    eng_result res = eng_pipeline_create(r->ctx, &d, &p);
    if (res != ENG_SUCCESS)
        return res;
    r->pipelines[r->pipeline_count++] = (pipeline_entry){ prog, st->key, p };
    *out = p;
    return ENG_SUCCESS;
}

static bool pass_fail(const pass *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool pass_fail(const pass *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "scene frame: %s: ", programs[p->program].name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

/* The draw's pipeline for the rendering state the compiled graph reports
 * for it; looked up again only when the state's key changes. */
static bool pass_prepare(pass *p)
{
    rg_command_rendering st;
    rg_result rr = rg_command_get_rendering(p->r->graph, p->cmd, &st);
    if (rr != RG_SUCCESS)
        return pass_fail(p, "rg_command_get_rendering: %s: %s", rg_result_string(rr),
                         rg_graph_error_message(p->r->graph));
    if (p->pipeline && p->key == st.key)
        return true;
    eng_result er = pipeline_for(p->r, p->program, &st, &p->pipeline);
    if (er != ENG_SUCCESS)
        return pass_fail(p, "%s: %s", eng_result_string(er), eng_last_error());
    p->key = st.key;
    return true;
}

/* Binds the pass's pipeline and pushes set 0 from the graph. */
static bool bind(const rg_record_context *rc, pass *p, const eng_pipeline *pipeline, const eng_binding *b,
                 uint32_t count)
{
    vkCmdBindPipeline(rg_record_cmd(rc), eng_pipeline_bind_point(pipeline), eng_pipeline_handle(pipeline));
    if (eng_push_bindings(rc, pipeline, b, count) != ENG_SUCCESS)
        return pass_fail(p, "eng_push_bindings: %s", eng_last_error());
    return true;
}

eng_result scene_frame_prepare(scene_renderer *r, rg_graph *g)
{
    if (g != r->graph)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "scene_frame_prepare: not the graph of the last declaration");
    for (uint32_t i = 0; i < r->pass_count; i++)
        if (r->passes[i].program < PROGRAM_GRAPHICS_COUNT && !pass_prepare(&r->passes[i]))
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "scene_frame_prepare: %s: no pipeline",
                                 programs[r->passes[i].program].name);
    return ENG_SUCCESS;
}

/* ---------------------------------------------------------- recording */

static void model_matrix(const box *b, float out[16])
{
    mat4 m;
    glm_translate_make(m, (float *)b->center);
    glm_rotate_y(m, b->turn, m);
    glm_scale(m, (float *)b->half);
    memcpy(out, m, sizeof m);
}

/* A graphics pipeline's push constants (its range covers both stages). */
static void push_constants(VkCommandBuffer cmd, const eng_pipeline *pipeline, const void *data, uint32_t size)
{
    vkCmdPushConstants(cmd, eng_pipeline_layout(pipeline), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       size, data);
}

static void bind_mesh(VkCommandBuffer cmd, const scene_renderer *r)
{
    VkBuffer vb = eng_buffer_handle(r->vertices);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
    vkCmdBindIndexBuffer(cmd, eng_buffer_handle(r->indices), 0, VK_INDEX_TYPE_UINT16);
}

/* The scene's boxes into one shadow cascade. */
static bool draw_shadow(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!pass_prepare(p) || !bind(rc, p, p->pipeline, &(eng_binding){ .buffer = r->uniform_import }, 1))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    bind_mesh(cmd, r);
    for (uint32_t i = 0; i < r->box_count; i++) {
        shadow_push push = { .cascade = p->cascade };
        model_matrix(&r->boxes[i], push.model);
        push_constants(cmd, p->pipeline, &push, sizeof push);
        vkCmdDrawIndexed(cmd, r->index_count, 1, 0, 0, 0);
    }
    return true;
}

/* The scene's boxes as the camera sees them: depth alone in the prepass;
 * lit in the forward pass, reading the cascades and the AO. */
static bool draw_objects(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!pass_prepare(p))
        return false;
    eng_binding b[3] = {
        { .buffer = r->uniform_import },
        { .texture = r->tex.shadow, .sampler = r->shadow },
        { .texture = r->tex.ao, .sampler = r->nearest },
    };
    if (!bind(rc, p, p->pipeline, b, programs[p->program].binding_count))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    bind_mesh(cmd, r);
    for (uint32_t i = 0; i < r->box_count; i++) {
        object_push push;
        model_matrix(&r->boxes[i], push.model);
        memcpy(push.color, r->boxes[i].color, sizeof push.color);
        memcpy(push.material, r->boxes[i].material, sizeof push.material);
        push_constants(cmd, p->pipeline, &push, sizeof push);
        vkCmdDrawIndexed(cmd, r->index_count, 1, 0, 0, 0);
    }
    return true;
}

/* A triangle over the viewport: the sky, or a bloom / tonemap step reading
 * the pass's sources. */
static bool draw_fullscreen(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!pass_prepare(p))
        return false;
    const program_info *pi = &programs[p->program];
    eng_binding b[2] = { { .buffer = r->uniform_import } };
    if (p->program != PROGRAM_SKY)
        for (uint32_t i = 0; i < pi->binding_count; i++)
            b[i] = (eng_binding){ .texture = p->src[i], .sampler = r->linear };
    if (!bind(rc, p, p->pipeline, b, pi->binding_count))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    if (pi->push_size)
        push_constants(cmd, p->pipeline, p->push, sizeof p->push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

/* SSAO (sources: depth; target: raw AO) or its blur (depth, raw AO;
 * target: AO), 8x8 pixels a workgroup. */
static bool dispatch(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    const eng_pipeline *pipeline = r->compute[p->program - PROGRAM_GRAPHICS_COUNT];
    eng_binding ssao[2] = { { .texture = r->tex.depth_resolved, .sampler = r->nearest }, { .texture = r->tex.ao_raw } };
    eng_binding blur[3] = { { .texture = r->tex.depth_resolved, .sampler = r->nearest },
                            { .texture = r->tex.ao_raw, .sampler = r->nearest },
                            { .texture = r->tex.ao } };
    const eng_binding *b = p->program == PROGRAM_SSAO ? ssao : blur;
    if (!bind(rc, p, pipeline, b, programs[p->program].binding_count))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    /* SSAO: the projection, then radius, bias, strength and sample count;
     * the blur reads the projection alone. */
    float push[8] = { r->proj[0], r->proj[1], r->proj[2], r->proj[3], 1.0f, 0.03f, 1.8f, (float)r->ssao_samples };
    vkCmdPushConstants(cmd, eng_pipeline_layout(pipeline), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       programs[p->program].push_size, push);
    /* The AO image's size, as the graph resolved it from the target. */
    VkExtent2D e = rg_texture_extent(rg_record_graph(rc), r->tex.ao);
    vkCmdDispatch(cmd, (e.width + 7) / 8, (e.height + 7) / 8, 1);
    return true;
}

/* ---------------------------------------------------------- declaration */

/* A draw command's cost hint for cutting the frame into chunks
 * (rg_user_desc.cost): the boxes it draws, as many as the last frame had
 * (before the first frame, as many as there may be). */
static uint32_t boxes_cost(const scene_renderer *r)
{
    return r->box_count ? r->box_count : MAX_OBJECTS;
}

static pass *new_pass(scene_renderer *r, program prog)
{
    if (r->pass_count == MAX_PASSES)
        return NULL; /* cannot happen: MAX_PASSES counts the frame's passes */
    pass *p = &r->passes[r->pass_count++];
    *p = (pass){ .r = r, .program = prog };
    return p;
}

static rg_access read(rg_texture t, rg_usage usage)
{
    return (rg_access){ .texture = t, .usage = usage, .whole = true };
}

/* A span of one fullscreen draw into target, sampling sources. load LOAD
 * keeps what target holds (the upsamples add to it). */
static void fullscreen_span(scene_renderer *r, rg_graph *g, const char *name, program prog, rg_texture target,
                            VkAttachmentLoadOp load, const rg_texture *src, uint32_t src_count, const float push[4])
{
    pass *p = new_pass(r, prog);
    if (!p)
        return;
    rg_access reads[2];
    for (uint32_t i = 0; i < src_count; i++) {
        p->src[i] = src[i];
        reads[i] = read(src[i], RG_USAGE_SAMPLED_FRAGMENT);
    }
    if (push)
        memcpy(p->push, push, sizeof p->push);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { { .texture = target, .load = load, .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 1,
    });
    p->cmd = rg_cmd_user(g, &(rg_user_desc){ .name = name, .kind = RG_COMMAND_DRAW, .accesses = reads,
                                             .access_count = src_count, .record = draw_fullscreen, .user = p });
    rg_end_rendering(g);
}

/* A texture the size of `of` times scale. */
static rg_texture sized(rg_graph *g, const char *name, VkFormat format, rg_texture of, float scale,
                        VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = format, .size_of = of, .scale = scale,
                                                    .samples = samples });
}

void scene_frame_declare(scene_renderer *r, rg_graph *g, rg_texture target, bool async_compute,
                         scene_frame_textures *textures)
{
    static const char *const cascade_names[SCENE_CASCADES] = { "shadow cascade 0", "shadow cascade 1",
                                                               "shadow cascade 2" };
    static const char *const bloom_names[SCENE_BLOOM_LEVELS] = { "bloom 1/2", "bloom 1/4", "bloom 1/8",
                                                                 "bloom 1/16", "bloom 1/32" };
    static const char *const up_names[SCENE_BLOOM_LEVELS - 1] = { "bloom up 1/2", "bloom up 1/4", "bloom up 1/8",
                                                                   "bloom up 1/16" };
    r->graph = g;
    r->extent = rg_texture_extent(g, target);
    r->pass_count = 0;
    scene_frame_textures *t = &r->tex;
    *t = (scene_frame_textures){ 0 };
    bool ms = r->samples > VK_SAMPLE_COUNT_1_BIT;

    /* The frame's uniforms: the slot's buffer, re-pointed by
     * scene_frame_update; the host wrote it before the submission. */
    r->uniform_import = rg_buffer_import(g, &(rg_buffer_import_desc){
        .name = "frame uniforms", .buffer = eng_buffer_handle(r->uniforms[0]), .size = sizeof(frame_uniforms),
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT });
    rg_access ubo_vertex = { .buffer = r->uniform_import, .usage = RG_USAGE_UNIFORM_VERTEX, .whole = true };

    /* Depth prepass: the camera's depth, kept for the forward pass and
     * resolved (sample 0: a real depth, never an average) for SSAO. */
    t->depth = sized(g, "depth", DEPTH_FORMAT, target, 1.0f, r->samples);
    t->depth_resolved = ms ? sized(g, "depth resolved", DEPTH_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT) : t->depth;
    pass *p = new_pass(r, PROGRAM_PREPASS);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "depth prepass",
        .depth = { .texture = t->depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                   .clear.depthStencil = { 1.0f, 0 }, .resolve = ms ? t->depth_resolved : (rg_texture){ 0 },
                   .resolve_mode = ms ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : 0 },
    });
    rg_command draw = rg_cmd_user(g, &(rg_user_desc){ .name = "prepass draws", .kind = RG_COMMAND_DRAW,
                                                      .accesses = &ubo_vertex, .access_count = 1,
                                                      .record = draw_objects, .user = p, .cost = boxes_cost(r) });
    if (p)
        p->cmd = draw;
    rg_end_rendering(g);

    /* SSAO and its blur: compute, on the compute queue where allowed. The
     * shadow cascades need nothing of theirs, so the graph can run the two
     * side by side. */
    rg_queue queue = async_compute ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS;
    t->ao_raw = sized(g, "ao raw", AO_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT);
    t->ao = sized(g, "ao", AO_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT);
    rg_access ssao_access[2] = { read(t->depth_resolved, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao_raw, RG_USAGE_STORAGE_WRITE_COMPUTE) };
    t->ssao = rg_cmd_user(g, &(rg_user_desc){ .name = "ssao", .accesses = ssao_access, .access_count = 2,
                                              .record = dispatch, .user = new_pass(r, PROGRAM_SSAO),
                                              .queue = queue });
    rg_access blur_access[3] = { read(t->depth_resolved, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao_raw, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao, RG_USAGE_STORAGE_WRITE_COMPUTE) };
    t->blur = rg_cmd_user(g, &(rg_user_desc){ .name = "ssao blur", .accesses = blur_access, .access_count = 3,
                                              .record = dispatch, .user = new_pass(r, PROGRAM_BLUR),
                                              .queue = queue });

    /* Shadow cascades: one span per layer of the array. */
    t->shadow = rg_texture_create(g, &(rg_texture_desc){ .name = "shadow cascades", .format = DEPTH_FORMAT,
                                                         .width = SHADOW_SIZE, .height = SHADOW_SIZE,
                                                         .array_layers = SCENE_CASCADES });
    for (uint32_t i = 0; i < SCENE_CASCADES; i++) {
        p = new_pass(r, PROGRAM_SHADOW);
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = cascade_names[i],
            .depth = { .texture = t->shadow, .base_layer = i, .layer_count = 1, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                       .store = VK_ATTACHMENT_STORE_OP_STORE, .clear.depthStencil = { 1.0f, 0 } },
        });
        draw = rg_cmd_user(g, &(rg_user_desc){ .name = cascade_names[i], .kind = RG_COMMAND_DRAW,
                                               .accesses = &ubo_vertex, .access_count = 1, .record = draw_shadow,
                                               .user = p, .cost = boxes_cost(r) });
        if (p)
            *p = (pass){ .r = r, .program = PROGRAM_SHADOW, .cmd = draw, .cascade = i };
        rg_end_rendering(g);
    }

    /* Forward: the prepass's depth loaded read-only (nothing stored), the
     * sky where it is still clear, then the lit scene; the multisampled
     * color lives in this span alone (transient) and resolves into hdr. */
    t->color = sized(g, "color", HDR_FORMAT, target, 1.0f, r->samples);
    t->hdr = ms ? sized(g, "hdr", HDR_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT) : t->color;
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "forward",
        .colors = { { .texture = t->color, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = ms ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
                      .resolve = ms ? t->hdr : (rg_texture){ 0 } } },
        .color_count = 1,
        .depth = { .texture = t->depth, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_NONE },
        .depth_read_only = true,
    });
    rg_access ubo_fragment = { .buffer = r->uniform_import, .usage = RG_USAGE_UNIFORM_FRAGMENT, .whole = true };
    p = new_pass(r, PROGRAM_SKY);
    draw = rg_cmd_user(g, &(rg_user_desc){ .name = "sky", .kind = RG_COMMAND_DRAW, .accesses = &ubo_fragment,
                                           .access_count = 1, .record = draw_fullscreen, .user = p });
    if (p)
        p->cmd = draw;
    rg_access lit[4] = { ubo_vertex, ubo_fragment, read(t->shadow, RG_USAGE_SAMPLED_FRAGMENT),
                         read(t->ao, RG_USAGE_SAMPLED_FRAGMENT) };
    p = new_pass(r, PROGRAM_FORWARD);
    draw = rg_cmd_user(g, &(rg_user_desc){ .name = "lit scene", .kind = RG_COMMAND_DRAW, .accesses = lit,
                                           .access_count = 4, .record = draw_objects, .user = p,
                                           .cost = boxes_cost(r) });
    if (p)
        p->cmd = draw;
    rg_end_rendering(g);

    /* Bloom: each level half the one before; then back up, each level
     * adding the one below it (additive blend onto its loaded contents). */
    rg_texture from = t->hdr;
    for (uint32_t i = 0; i < SCENE_BLOOM_LEVELS; i++) {
        t->bloom[i] = sized(g, bloom_names[i], HDR_FORMAT, from, 0.5f, VK_SAMPLE_COUNT_1_BIT);
        const float bright[4] = { 1.0f, 0.5f, 0.0f, 0.0f }; /* threshold, knee */
        fullscreen_span(r, g, i ? bloom_names[i] : "bloom bright pass", i ? PROGRAM_DOWN : PROGRAM_BRIGHT, t->bloom[i],
                        VK_ATTACHMENT_LOAD_OP_DONT_CARE, &from, 1, i ? NULL : bright);
        from = t->bloom[i];
    }
    for (uint32_t i = SCENE_BLOOM_LEVELS - 1; i-- > 0;) {
        const float strength[4] = { 1.0f, 0.0f, 0.0f, 0.0f };
        fullscreen_span(r, g, up_names[i], PROGRAM_UP, t->bloom[i], VK_ATTACHMENT_LOAD_OP_LOAD, &t->bloom[i + 1], 1,
                        strength);
    }

    /* Tonemap into the target. */
    rg_texture src[2] = { t->hdr, t->bloom[0] };
    const float tone[4] = { 0.65f, 0.1f, 0.0f, 0.0f }; /* exposure, bloom strength */
    fullscreen_span(r, g, "tonemap", PROGRAM_TONEMAP, target, VK_ATTACHMENT_LOAD_OP_DONT_CARE, src, 2, tone);
    if (textures)
        *textures = *t;
}

/* ------------------------------------------------------------ per frame */

static void add_box(scene_renderer *r, float x, float y, float z, float hx, float hy, float hz, float turn,
                    const float color[4], const float material[4])
{
    if (r->box_count == MAX_OBJECTS)
        return;
    box *b = &r->boxes[r->box_count++];
    *b = (box){ { x, y, z }, { hx, hy, hz }, turn, { 0 }, { 0 } };
    memcpy(b->color, color, sizeof b->color);
    memcpy(b->material, material, sizeof b->material);
}

/* The scene at frame `index`: a tiled floor, a row of pillars of different
 * heights, two walls meeting in a corner, crates, steps, a turning block
 * and glowing lamps. */
static void build_scene(scene_renderer *r, uint64_t index)
{
    static const float floor_color[4] = { 0.46f, 0.43f, 0.40f, 0 }, floor_mat[4] = { 1, 32, 0.05f, 0 };
    static const float stone[4] = { 0.62f, 0.56f, 0.48f, 0 }, stone_mat[4] = { 0, 24, 0.08f, 0 };
    static const float plaster[4] = { 0.70f, 0.70f, 0.72f, 0 }, matte[4] = { 0, 8, 0.02f, 0 };
    static const float red[4] = { 0.62f, 0.16f, 0.12f, 0 }, blue[4] = { 0.14f, 0.26f, 0.58f, 0 };
    static const float wood[4] = { 0.52f, 0.36f, 0.20f, 0 }, gloss[4] = { 0, 64, 0.5f, 0 };
    static const float amber[4] = { 1.0f, 0.62f, 0.28f, 14.0f }, cyan[4] = { 0.35f, 0.85f, 1.0f, 10.0f };
    static const float pillar_half[5] = { 1.2f, 2.0f, 2.8f, 1.6f, 2.4f }; /* half heights */
    r->box_count = 0;
    add_box(r, 0, -0.5f, 0, 40, 0.5f, 40, 0, floor_color, floor_mat);
    /* A row of pillars, lamps on the tallest two. */
    for (int i = 0; i < 5; i++)
        add_box(r, -1.0f + 2.5f * (float)i, pillar_half[i], -6.0f + (float)i, 0.45f, pillar_half[i], 0.45f, 0, stone,
                stone_mat);
    add_box(r, 4.0f, 2 * pillar_half[2] + 0.25f, -4.0f, 0.25f, 0.25f, 0.25f, 0.6f, amber, matte);
    add_box(r, 9.0f, 2 * pillar_half[4] + 0.25f, -2.0f, 0.25f, 0.25f, 0.25f, 0.3f, amber, matte);
    /* Walls meeting in a corner, and what stands in it. */
    add_box(r, -9.3f, 1.4f, -3.5f, 0.3f, 1.4f, 4.8f, 0, plaster, matte);
    add_box(r, -4.5f, 1.4f, -8.0f, 4.5f, 1.4f, 0.3f, 0, plaster, matte);
    add_box(r, -8.1f, 0.6f, -6.8f, 0.6f, 0.6f, 0.6f, 0.2f, wood, matte);
    add_box(r, -8.2f, 1.6f, -6.9f, 0.4f, 0.4f, 0.4f, 0.7f, wood, matte);
    add_box(r, -6.4f, 0.35f, -7.2f, 0.35f, 0.35f, 0.35f, -0.3f, wood, matte);
    add_box(r, -8.5f, 0.45f, -1.5f, 0.45f, 0.45f, 0.45f, 0.15f, wood, matte);
    /* Crates and a block that turns with the frame index. */
    add_box(r, 2.0f, 0.8f, 1.5f, 0.8f, 0.8f, 0.8f, 0.35f, red, gloss);
    add_box(r, 3.8f, 0.5f, 3.0f, 0.5f, 0.5f, 0.5f, -0.2f, blue, gloss);
    add_box(r, -2.5f, 0.9f, 2.5f, 0.9f, 0.9f, 0.25f, 0.5f + 0.02f * (float)(index % 315), stone, stone_mat);
    /* Steps. */
    for (int i = 0; i < 3; i++)
        add_box(r, 6.5f, 0.25f + 0.25f * (float)i, 1.0f - 0.6f * (float)i, 1.6f, 0.25f + 0.25f * (float)i, 0.3f, 0,
                stone, stone_mat);
    /* A glowing bar on the floor. */
    add_box(r, 1.5f, 0.08f, 5.5f, 1.2f, 0.08f, 0.08f, 0.1f, cyan, matte);
}

/* A cascade's light view-projection: an orthographic box around the
 * bounding sphere of the camera frustum's slice [near, far], looking along
 * the sun, its centre snapped to whole shadow texels (so that the map does
 * not shimmer as the camera moves). */
static void cascade_matrix(const vec3 eye, const vec3 fwd, const vec3 right, const vec3 up, float tan_y, float aspect,
                           float near, float far, const vec3 sun, mat4 out, float *texel)
{
    vec3 corners[8], center = { 0, 0, 0 };
    for (int i = 0; i < 8; i++) {
        float d = (i & 4) ? far : near;
        float sx = (i & 1) ? 1.0f : -1.0f, sy = (i & 2) ? 1.0f : -1.0f;
        for (int k = 0; k < 3; k++)
            corners[i][k] = eye[k] + fwd[k] * d + right[k] * sx * d * tan_y * aspect + up[k] * sy * d * tan_y;
        glm_vec3_add(center, corners[i], center);
    }
    glm_vec3_scale(center, 1.0f / 8.0f, center);
    float radius = 0.0f;
    for (int i = 0; i < 8; i++)
        radius = fmaxf(radius, glm_vec3_distance(center, corners[i]));
    radius = ceilf(radius * 4.0f) / 4.0f;
    *texel = 2.0f * radius / (float)SHADOW_SIZE;
    mat4 view, proj;
    vec3 toward = { -sun[0], -sun[1], -sun[2] };
    glm_look((vec3){ 0, 0, 0 }, toward, (vec3){ 0, 1, 0 }, view);
    vec3 c;
    glm_mat4_mulv3(view, center, 1.0f, c);
    c[0] = floorf(c[0] / *texel) * *texel;
    c[1] = floorf(c[1] / *texel) * *texel;
    /* Depth covers the sphere and 40 units towards the sun, for casters
     * outside the slice. */
    glm_ortho_rh_zo(c[0] - radius, c[0] + radius, c[1] - radius, c[1] + radius, -c[2] - radius - 40.0f, -c[2] + radius,
                    proj);
    glm_mat4_mul(proj, view, out);
}

eng_result scene_frame_update(scene_renderer *r, rg_graph *g, uint32_t slot, uint64_t index)
{
    if (slot >= SCENE_SLOTS || g != r->graph || r->extent.width == 0)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "scene_frame_update: slot %u of %d, or not the declared graph",
                             slot, SCENE_SLOTS);
    build_scene(r, index);

    /* The camera circles the scene slowly. */
    float angle = 0.72f + 0.003f * (float)(index % 2094);
    vec3 target = { 0.0f, 2.0f, -1.5f };
    vec3 eye = { target[0] + 17.0f * sinf(angle), 7.0f, target[2] + 17.0f * cosf(angle) };
    float fov = glm_rad(45.0f), aspect = (float)r->extent.width / (float)r->extent.height;
    mat4 view, proj, view_proj, inv;
    glm_lookat(eye, target, (vec3){ 0, 1, 0 }, view);
    glm_perspective_rh_zo(fov, aspect, NEAR_PLANE, FAR_PLANE, proj);
    /* Vulkan's framebuffer y runs down: flipping y keeps up up and keeps
     * counter-clockwise faces front-facing. */
    proj[1][1] *= -1.0f;
    glm_mat4_mul(proj, view, view_proj);
    glm_mat4_inv(view_proj, inv);
    r->proj[0] = proj[0][0], r->proj[1] = proj[1][1], r->proj[2] = proj[2][2], r->proj[3] = proj[3][2];

    frame_uniforms u = {
        .sun_dir = { 0, 0, 0, 2.2f },
        .sun_color = { 1.0f, 0.88f, 0.72f, r->show_cascades ? 1.0f : 0.0f },
        .sky_zenith = { 0.12f, 0.27f, 0.62f, 0 },
        .sky_horizon = { 0.50f, 0.60f, 0.76f, 0 },
        .ground_color = { 0.16f, 0.14f, 0.12f, 0 },
        .splits = { CASCADE_END[0], CASCADE_END[1], CASCADE_END[2], 1.0f / (float)SHADOW_SIZE },
    };
    vec3 sun = { -0.42f, 0.62f, 0.75f }, fwd, right, up;
    glm_vec3_normalize(sun);
    memcpy(u.sun_dir, sun, sizeof sun);
    glm_vec3_sub(target, eye, fwd);
    glm_vec3_normalize(fwd);
    glm_vec3_crossn(fwd, (vec3){ 0, 1, 0 }, right);
    glm_vec3_cross(right, fwd, up);
    memcpy(u.camera_pos, eye, sizeof eye);
    memcpy(u.camera_forward, fwd, sizeof fwd);
    memcpy(u.matrices[0], view_proj, sizeof view_proj);
    memcpy(u.inv_view_proj, inv, sizeof inv);
    float tan_y = tanf(fov * 0.5f), near = NEAR_PLANE;
    for (int i = 0; i < SCENE_CASCADES; i++) {
        mat4 m;
        cascade_matrix(eye, fwd, right, up, tan_y, aspect, near, CASCADE_END[i], sun, m, &u.cascade_texel[i]);
        memcpy(u.matrices[1 + i], m, sizeof m);
        near = CASCADE_END[i];
    }
    /* Host-coherent: written before the submission that reads it, which
     * makes it visible; the slot's previous reader has finished. */
    memcpy(eng_buffer_mapped(r->uniforms[slot]), &u, sizeof u);
    rg_result rr = rg_buffer_set_buffer(g, r->uniform_import, &(rg_import_buffer){
        .buffer = eng_buffer_handle(r->uniforms[slot]), .size = eng_buffer_size(r->uniforms[slot]),
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT });
    if (rr != RG_SUCCESS)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "rg_buffer_set_buffer: %s: %s", rg_result_string(rr),
                             rg_graph_error_message(g));
    return ENG_SUCCESS;
}
