/* The cube every demo draws: 24 vertices (each face has its own normals and
 * texture coordinates) and 36 indices, counter-clockwise seen from outside. */
#ifndef DEMO_MESH_H
#define DEMO_MESH_H

#include "demo_app.h"

/* The vertex layout of shaders/cube.vert. */
typedef struct demo_vertex {
    float position[3];
    float normal[3];
    float uv[2];
} demo_vertex;

extern const VkVertexInputBindingDescription demo_vertex_binding;
extern const VkVertexInputAttributeDescription demo_vertex_attributes[3];

typedef struct demo_mesh {
    eng_buffer *vertices;
    eng_buffer *indices;
    uint32_t index_count;
} demo_mesh;

/* A cube from -1 to 1 on each axis, in device-local buffers. */
void demo_cube_create(demo_app *app, demo_mesh *mesh);
void demo_mesh_destroy(demo_mesh *mesh);
void demo_mesh_draw(VkCommandBuffer cmd, const demo_mesh *mesh);

#endif
