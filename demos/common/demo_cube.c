/* The demos' cube (demo_cube.h). */
#include "demo_cube.h"

#include <stddef.h>

const VkVertexInputBindingDescription demo_cube_vertex_binding = {
    .binding = 0,
    .stride = sizeof(demo_cube_vertex),
    .inputRate = VK_VERTEX_INPUT_RATE_VERTEX,
};

const VkVertexInputAttributeDescription demo_cube_vertex_attributes[3] = {
    { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(demo_cube_vertex, position) },
    { 1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(demo_cube_vertex, normal) },
    { 2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(demo_cube_vertex, uv) },
};

/* Each face: its normal n and two in-plane axes u, v with u x v = n, so the
 * corners (-u-v, +u-v, +u+v, -u+v) run counter-clockwise seen from outside,
 * and v points "up" on the face so the texture stands upright. */
static const float faces[6][3][3] = {
    { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },
    { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
    { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },
    { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
    { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
    { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
};

void demo_cube_geometry(demo_cube_vertex vertices[24], uint16_t indices[36])
{
    static const float corners[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    static const uint16_t quad[6] = { 0, 1, 2, 0, 2, 3 };
    for (int f = 0; f < 6; f++) {
        const float *n = faces[f][0], *u = faces[f][1], *v = faces[f][2];
        for (int c = 0; c < 4; c++) {
            float s = corners[c][0], t = corners[c][1];
            demo_cube_vertex *vx = &vertices[f * 4 + c];
            for (int k = 0; k < 3; k++) {
                vx->position[k] = n[k] + s * u[k] + t * v[k];
                vx->normal[k] = n[k];
            }
            vx->uv[0] = (s + 1) * 0.5f;
            vx->uv[1] = (1 - t) * 0.5f; /* image rows run downwards */
        }
        for (int i = 0; i < 6; i++)
            indices[f * 6 + i] = (uint16_t)(f * 4 + quad[i]);
    }
}
