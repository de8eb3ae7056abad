/* The deferred demo's scene (deferred_scene.h). */
#include "deferred_scene.h"

#include <engine_files/engine_files.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static eng_result mesh_upload(eng_context *ctx, const char *name, const deferred_vertex *v, size_t vcount,
                              const uint16_t *idx, uint32_t icount, deferred_mesh *mesh)
{
    eng_result r = eng_buffer_create_with_data(ctx, name, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
                                               vcount * sizeof *v, &mesh->vertices);
    if (r == ENG_SUCCESS)
        r = eng_buffer_create_with_data(ctx, name, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, icount * sizeof *idx,
                                        &mesh->indices);
    mesh->index_count = icount;
    return r;
}

/* The demos' cube (demo_cube.h). */
static eng_result cube_create(eng_context *ctx, deferred_mesh *mesh)
{
    deferred_vertex v[24];
    uint16_t idx[36];
    demo_cube_geometry(v, idx);
    return mesh_upload(ctx, "deferred cube", v, 24, idx, 36, mesh);
}

/* A unit UV sphere: rings of latitude from the north pole down, segments
 * of longitude; the seam and poles repeat vertices so uv stays continuous. */
enum { SEGMENTS = 32, RINGS = 16 };

static eng_result sphere_create(eng_context *ctx, deferred_mesh *mesh)
{
    enum { VCOUNT = (SEGMENTS + 1) * (RINGS + 1), ICOUNT = SEGMENTS * RINGS * 6 };
    deferred_vertex *v = malloc(VCOUNT * sizeof *v);
    uint16_t *idx = malloc(ICOUNT * sizeof *idx);
    if (!v || !idx) {
        free(v);
        free(idx);
        return ENG_ERROR_OUT_OF_MEMORY;
    }
    for (int r = 0; r <= RINGS; r++) {
        float theta = GLM_PIf * (float)r / RINGS;
        for (int s = 0; s <= SEGMENTS; s++) {
            float phi = 2.0f * GLM_PIf * (float)s / SEGMENTS;
            deferred_vertex *vx = &v[r * (SEGMENTS + 1) + s];
            float n[3] = { sinf(theta) * cosf(phi), cosf(theta), -sinf(theta) * sinf(phi) };
            for (int k = 0; k < 3; k++)
                vx->position[k] = vx->normal[k] = n[k];
            vx->uv[0] = (float)s / SEGMENTS;
            vx->uv[1] = (float)r / RINGS;
        }
    }
    uint32_t n = 0;
    for (int r = 0; r < RINGS; r++)
        for (int s = 0; s < SEGMENTS; s++) {
            uint16_t a = (uint16_t)(r * (SEGMENTS + 1) + s), b = (uint16_t)(a + SEGMENTS + 1);
            /* Counter-clockwise seen from outside: phi grows towards -z,
             * theta downwards. */
            uint16_t q[6] = { a, b, (uint16_t)(b + 1), a, (uint16_t)(b + 1), (uint16_t)(a + 1) };
            for (int i = 0; i < 6; i++)
                idx[n++] = q[i];
        }
    eng_result res = mesh_upload(ctx, "deferred sphere", v, VCOUNT, idx, ICOUNT, mesh);
    free(v);
    free(idx);
    return res;
}

static void mesh_destroy(deferred_mesh *mesh)
{
    eng_buffer_destroy(mesh->indices);
    eng_buffer_destroy(mesh->vertices);
    *mesh = (deferred_mesh){ 0 };
}

eng_result deferred_scene_create(eng_context *ctx, const char *ground_png, uint32_t light_count,
                                 deferred_scene *scene)
{
    *scene = (deferred_scene){ .light_count = light_count ? light_count : 48 };
    if (scene->light_count > DEFERRED_MAX_LIGHTS)
        scene->light_count = DEFERRED_MAX_LIGHTS;
    eng_result r = eng_texture_load(ctx, ground_png, &scene->ground);
    if (r == ENG_SUCCESS)
        r = cube_create(ctx, &scene->cube);
    if (r == ENG_SUCCESS)
        r = sphere_create(ctx, &scene->sphere);
    if (r != ENG_SUCCESS)
        deferred_scene_destroy(scene);
    return r;
}

void deferred_scene_destroy(deferred_scene *scene)
{
    mesh_destroy(&scene->sphere);
    mesh_destroy(&scene->cube);
    eng_image_destroy(scene->ground);
    scene->ground = NULL;
}

static deferred_object *add(deferred_scene *s, const deferred_mesh *mesh, vec3 at, vec3 half, float turn,
                            deferred_material m)
{
    deferred_object *o = &s->objects[s->object_count++];
    o->mesh = mesh;
    glm_translate_make(o->model, at);
    glm_rotate_y(o->model, turn, o->model);
    glm_scale(o->model, half);
    o->material = m;
    return o;
}

/* Fully saturated colors around the hue circle, hue stepped by the golden
 * ratio so neighbouring lights differ. */
static void hue_color(float hue, vec3 out)
{
    for (int c = 0; c < 3; c++) {
        float k = fmodf(5.0f - 2.0f * (float)c + hue * 6.0f, 6.0f); /* r, g, b phases of HSV */
        float v = 1.0f - fmaxf(0.0f, fminf(fminf(k, 4.0f - k), 1.0f));
        out[c] = 0.15f + 0.85f * v;
    }
}

void deferred_scene_animate(deferred_scene *s, uint64_t index)
{
    const float t = (float)index;
    s->object_count = 0;
    glm_vec3_copy((vec3){ 0.0f, 4.2f, 8.0f }, s->eye);
    glm_vec3_copy((vec3){ 0.0f, 0.3f, 0.0f }, s->center);
    s->fov_degrees = 45.0f;

    /* The ground: a slab whose top face is y = 0, its texture repeated
     * four times across. */
    add(s, &s->cube, (vec3){ 0, -0.1f, 0 }, (vec3){ 7.0f, 0.1f, 7.0f }, 0,
        (deferred_material){ { 1, 1, 1 }, 0.85f, 0.0f, 0.0f, 4.0f });
    add(s, &s->sphere, (vec3){ 0, 0.9f, 0 }, (vec3){ 0.9f, 0.9f, 0.9f }, 0,
        (deferred_material){ { 1.0f, 0.78f, 0.34f }, 0.3f, 1.0f, 0, 0 });
    static const deferred_material boxes[4] = {
        { { 0.70f, 0.12f, 0.08f }, 0.55f, 0, 0, 0 },
        { { 0.08f, 0.50f, 0.55f }, 0.35f, 0, 0, 0 },
        { { 0.80f, 0.78f, 0.70f }, 0.80f, 0, 0, 0 },
        { { 0.35f, 0.15f, 0.60f }, 0.30f, 0, 0, 0 },
    };
    static const deferred_material balls[4] = {
        { { 0.92f, 0.92f, 0.95f }, 0.20f, 1, 0, 0 },
        { { 0.10f, 0.20f, 0.80f }, 0.25f, 0, 0, 0 },
        { { 0.20f, 0.60f, 0.15f }, 0.70f, 0, 0, 0 },
        { { 0.95f, 0.60f, 0.45f }, 0.40f, 1, 0, 0 },
    };
    for (int i = 0; i < 4; i++) {
        float a = GLM_PIf * (0.25f + 0.5f * (float)i);
        add(s, &s->cube, (vec3){ 2.5f * cosf(a), 0.5f, 2.5f * sinf(a) }, (vec3){ 0.5f, 0.5f, 0.5f },
            0.4f + 0.01f * t * (i % 2 ? -1.0f : 1.0f), boxes[i]);
        a = GLM_PIf * 0.5f * (float)i;
        add(s, &s->sphere, (vec3){ 2.6f * cosf(a), 0.45f, 2.6f * sinf(a) }, (vec3){ 0.45f, 0.45f, 0.45f }, 0,
            balls[i]);
    }
    for (int i = 0; i < 2; i++)
        add(s, &s->cube, (vec3){ i ? 4.0f : -4.0f, 1.2f, -4.0f }, (vec3){ 0.35f, 1.2f, 0.35f }, 0.3f,
            (deferred_material){ { 0.55f, 0.55f, 0.58f }, 0.9f, 0, 0, 0 });

    /* Rings of lights circling the middle, alternate rings the other way,
     * each light bobbing a little; a small bright bulb marks each. */
    for (uint32_t i = 0; i < s->light_count; i++) {
        uint32_t ring = i / 16, k = i % 16;
        float dir = ring % 2 ? -1.0f : 1.0f;
        float a = 2.0f * GLM_PIf * (float)k / 16.0f + 0.2f * (float)ring + dir * (0.02f - 0.004f * (float)ring) * t;
        float radius = 1.6f + 1.75f * (float)ring;
        deferred_light *l = &s->lights[i];
        glm_vec3_copy((vec3){ radius * cosf(a), 0.35f + 0.15f * (float)ring + 0.12f * sinf(0.05f * t + (float)i),
                              radius * sinf(a) },
                      l->position);
        l->range = 1.5f + 0.25f * (float)ring;
        vec3 c;
        hue_color(fmodf(0.618034f * (float)i, 1.0f), c);
        glm_vec3_scale(c, 1.3f, l->color);
        add(s, &s->sphere, l->position, (vec3){ 0.05f, 0.05f, 0.05f }, 0,
            (deferred_material){ { c[0], c[1], c[2] }, 1.0f, 0, 8.0f, 0 });
    }
}
