/* Camera and per-object push constants for shaders/cube.vert (cglm). */
#ifndef DEMO_TRANSFORM_H
#define DEMO_TRANSFORM_H

#include <cglm/cglm.h>

/* The push-constant block of cube.vert / cube.frag: 128 bytes, the minimum
 * every device offers. Matrices are column-major, as in cglm and GLSL. */
typedef struct demo_push {
    mat4 mvp;
    vec4 normal_matrix[3];   /* columns of the model's inverse-transpose 3x3 */
    vec4 tint;
} demo_push;

/* Perspective (vertical field of view in degrees) looking from eye at
 * center, in Vulkan clip space: depth 0..1 and y pointing down. */
void demo_view_projection(float fov_degrees, float aspect, vec3 eye, vec3 center, mat4 out);

void demo_push_make(mat4 view_projection, mat4 model, const vec4 tint, demo_push *out);

#endif
