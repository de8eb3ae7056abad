/* The scene demo's frame as a render graph (scene_frame.h): the renderer
 * made and destroyed, and each frame's scene, cascades and uniforms
 * (scene_renderer.h names the other files). */
#include "demo_cube.h"
#include "scene_renderer.h"

#include <cglm/cglm.h>
#include <cglm/clipspace/ortho_rh_zo.h>
#include <cglm/clipspace/persp_rh_zo.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const float NEAR_PLANE = 0.1f, FAR_PLANE = 120.0f;
/* View depth where each cascade ends: the nearest one covers the front
 * of the scene, the last one reaches past its back. */
static const float CASCADE_END[SCENE_CASCADES] = { 17.0f, 27.0f, 60.0f };

/* ------------------------------------------------------------ creation */

/* The demos' cube (demo_cube.h) without its texture coordinates. */
static eng_result make_cube(scene_renderer *r)
{
    demo_cube_vertex cube[24];
    uint16_t idx[36];
    demo_cube_geometry(cube, idx);
    scene_vertex v[24];
    for (int i = 0; i < 24; i++)
        for (int k = 0; k < 3; k++) {
            v[i].position[k] = cube[i].position[k];
            v[i].normal[k] = cube[i].normal[k];
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
        const program_info *pi = &scene_programs[p];
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
