/* The scene demo's record callbacks: shadow cascades, objects,
 * fullscreen passes and the SSAO dispatches. */
#include "scene_renderer.h"

#include <cglm/cglm.h>

#include <string.h>

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

/* Writes one box's push constants for pass p into push. */
typedef void (*box_push_fn)(const pass *p, const box *b, void *push);

/* Binds the box mesh and draws every box with the push constants fill
 * writes for it (push_size bytes, in push). */
static void draw_boxes(const rg_record_context *rc, const pass *p, box_push_fn fill, void *push, uint32_t push_size)
{
    const scene_renderer *r = p->r;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkBuffer vb = eng_buffer_handle(r->vertices);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
    vkCmdBindIndexBuffer(cmd, eng_buffer_handle(r->indices), 0, VK_INDEX_TYPE_UINT16);
    for (uint32_t i = 0; i < r->box_count; i++) {
        fill(p, &r->boxes[i], push);
        push_constants(cmd, p->pipeline, push, push_size);
        vkCmdDrawIndexed(cmd, r->index_count, 1, 0, 0, 0);
    }
}

static void shadow_box(const pass *p, const box *b, void *out)
{
    shadow_push *push = out;
    *push = (shadow_push){ .cascade = p->cascade };
    model_matrix(b, push->model);
}

static void object_box(const pass *p, const box *b, void *out)
{
    (void)p;
    object_push *push = out;
    model_matrix(b, push->model);
    memcpy(push->color, b->color, sizeof push->color);
    memcpy(push->material, b->material, sizeof push->material);
}

/* The scene's boxes into one shadow cascade. */
bool scene_draw_shadow(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!scene_pass_prepare(p) ||
        !scene_pass_bind(rc, p, p->pipeline, &(eng_binding){ .buffer = r->uniform_import }, 1))
        return false;
    shadow_push push;
    draw_boxes(rc, p, shadow_box, &push, sizeof push);
    return true;
}

/* The scene's boxes as the camera sees them: depth alone in the prepass;
 * lit in the forward pass, reading the cascades and the AO. */
bool scene_draw_objects(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!scene_pass_prepare(p))
        return false;
    eng_binding b[3] = {
        { .buffer = r->uniform_import },
        { .texture = r->tex.shadow, .sampler = r->shadow },
        { .texture = r->tex.ao, .sampler = r->nearest },
    };
    if (!scene_pass_bind(rc, p, p->pipeline, b, scene_programs[p->program].binding_count))
        return false;
    object_push push;
    draw_boxes(rc, p, object_box, &push, sizeof push);
    return true;
}

/* A triangle over the viewport: the sky, or a bloom / tonemap step reading
 * the pass's sources. */
bool scene_draw_fullscreen(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    if (!scene_pass_prepare(p))
        return false;
    const program_info *pi = &scene_programs[p->program];
    eng_binding b[2] = { { .buffer = r->uniform_import } };
    if (p->program != PROGRAM_SKY)
        for (uint32_t i = 0; i < pi->binding_count; i++)
            b[i] = (eng_binding){ .texture = p->src[i], .sampler = r->linear };
    if (!scene_pass_bind(rc, p, p->pipeline, b, pi->binding_count))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    if (pi->push_size)
        push_constants(cmd, p->pipeline, p->push, sizeof p->push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

/* SSAO (sources: depth; target: raw AO) or its blur (depth, raw AO;
 * target: AO), 8x8 pixels a workgroup. */
bool scene_dispatch(const rg_record_context *rc, void *user)
{
    pass *p = user;
    scene_renderer *r = p->r;
    const eng_pipeline *pipeline = r->compute[p->program - PROGRAM_GRAPHICS_COUNT];
    eng_binding ssao[2] = { { .texture = r->tex.depth_resolved, .sampler = r->nearest }, { .texture = r->tex.ao_raw } };
    eng_binding blur[3] = { { .texture = r->tex.depth_resolved, .sampler = r->nearest },
                            { .texture = r->tex.ao_raw, .sampler = r->nearest },
                            { .texture = r->tex.ao } };
    const eng_binding *b = p->program == PROGRAM_SSAO ? ssao : blur;
    if (!scene_pass_bind(rc, p, pipeline, b, scene_programs[p->program].binding_count))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    /* SSAO: the projection, then radius, bias, strength and sample count;
     * the blur reads the projection alone. */
    float push[8] = { r->proj[0], r->proj[1], r->proj[2], r->proj[3], 1.0f, 0.03f, 1.8f, (float)r->ssao_samples };
    vkCmdPushConstants(cmd, eng_pipeline_layout(pipeline), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       scene_programs[p->program].push_size, push);
    /* The AO image's size, as the graph resolved it from the target. */
    VkExtent2D e = rg_texture_extent(rg_record_graph(rc), r->tex.ao);
    vkCmdDispatch(cmd, (e.width + 7) / 8, (e.height + 7) / 8, 1);
    return true;
}

