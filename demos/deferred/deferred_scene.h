/* The deferred demo's scene: a textured ground slab, lit boxes and spheres,
 * and point lights circling them, each with a small glowing bulb. Animated
 * by frame index only, so a run of N frames always ends on the same
 * picture. No window: a headless benchmark can build the same scene. */
#ifndef DEFERRED_SCENE_H
#define DEFERRED_SCENE_H

#include "demo_cube.h"

#include <engine/engine.h>

#include <cglm/cglm.h>

#define DEFERRED_MAX_LIGHTS 64
#define DEFERRED_MAX_OBJECTS (16 + DEFERRED_MAX_LIGHTS)

/* The vertex layout of shaders/deferred_gbuffer.vert: the demos' cube's
 * (demo_cube_vertex_binding and demo_cube_vertex_attributes). */
typedef demo_cube_vertex deferred_vertex;

typedef struct deferred_mesh {
    eng_buffer *vertices;
    eng_buffer *indices;              /* uint16 */
    uint32_t index_count;
} deferred_mesh;

typedef struct deferred_material {
    float albedo[3];                  /* linear; multiplies the texture when textured */
    float roughness, metal;
    float emissive;                   /* albedo * emissive is added unlit */
    float uv_scale;                   /* 0: untextured; else texture repeats per unit uv */
} deferred_material;

typedef struct deferred_object {
    const deferred_mesh *mesh;
    mat4 model;
    deferred_material material;
} deferred_object;

typedef struct deferred_light {
    vec3 position;                    /* world space */
    float range;                      /* no light beyond this distance */
    vec3 color;                       /* linear, times intensity */
} deferred_light;

typedef struct deferred_scene {
    deferred_mesh cube, sphere;
    eng_image *ground;                /* SHADER_READ_ONLY_OPTIMAL */
    uint32_t light_count;
    /* Filled by deferred_scene_animate: */
    vec3 eye, center;
    float fov_degrees;                /* vertical */
    deferred_object objects[DEFERRED_MAX_OBJECTS];
    uint32_t object_count;            /* the scene's objects, then one bulb per light */
    deferred_light lights[DEFERRED_MAX_LIGHTS];
} deferred_scene;

/* Loads the ground texture (a PNG, through eng_texture_load) and makes the meshes.
 * light_count: 0 = 48, at most DEFERRED_MAX_LIGHTS. On failure everything
 * made so far is freed. */
eng_result deferred_scene_create(eng_context *ctx, const char *ground_png, uint32_t light_count,
                                 deferred_scene *scene);
void deferred_scene_destroy(deferred_scene *scene);
/* Places objects and lights for frame `index`. */
void deferred_scene_animate(deferred_scene *scene, uint64_t index);

#endif
