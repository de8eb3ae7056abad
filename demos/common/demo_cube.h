/* The cube the demos draw, as plain data for any renderer: from -1 to 1 on
 * each axis, each face its own four vertices (flat normals, texture
 * coordinates 0..1 standing upright on the face), 36 indices
 * counter-clockwise seen from outside. Its own library (cube.cmake), with
 * no engine: demo_common and the deferred and scene frames share it. */
#ifndef DEMO_CUBE_H
#define DEMO_CUBE_H

#include <vulkan/vulkan.h>

#include <stdint.h>

/* The vertex layout of shaders/cube.vert and deferred_gbuffer.vert. */
typedef struct demo_cube_vertex {
    float position[3];
    float normal[3];
    float uv[2];
} demo_cube_vertex;

/* Binding 0 with a demo_cube_vertex each; locations 0, 1, 2: position,
 * normal, uv. */
extern const VkVertexInputBindingDescription demo_cube_vertex_binding;
extern const VkVertexInputAttributeDescription demo_cube_vertex_attributes[3];

void demo_cube_geometry(demo_cube_vertex vertices[24], uint16_t indices[36]);

#endif
