/* The scene demo's programs (shaders, fixed state, set 0's bindings) and
 * their pipelines, built per rendering state the compiled graph reports
 * and kept until the renderer is destroyed. */
#include "scene_renderer.h"
#include "demo_record_fail.h"

#include <string.h>

static const VkVertexInputBindingDescription vertex_binding = { 0, sizeof(scene_vertex), VK_VERTEX_INPUT_RATE_VERTEX };
static const VkVertexInputAttributeDescription vertex_attributes[2] = {
    { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
    { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, 3 * sizeof(float) },
};

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

#define UBO VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
#define TEX VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
#define IMG VK_DESCRIPTOR_TYPE_STORAGE_IMAGE

#define SHADER(words) words, sizeof words
const program_info scene_programs[PROGRAM_COUNT] = {
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
        return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "%s: more than %d rendering states", scene_programs[prog].name,
                             MAX_PIPELINES);
    const program_info *pi = &scene_programs[prog];
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

/* Says why a pass cannot record (demo_record_fail.h). */
#define pass_fail(p, ...) demo_record_fail("scene frame", scene_programs[(p)->program].name, __VA_ARGS__)

/* The draw's pipeline for the rendering state the compiled graph reports
 * for it; looked up again only when the state's key changes. */
bool scene_pass_prepare(pass *p)
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
bool scene_pass_bind(const rg_record_context *rc, pass *p, const eng_pipeline *pipeline, const eng_binding *b,
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
        if (r->passes[i].program < PROGRAM_GRAPHICS_COUNT && !scene_pass_prepare(&r->passes[i]))
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "scene_frame_prepare: %s: no pipeline",
                                 scene_programs[r->passes[i].program].name);
    return ENG_SUCCESS;
}

