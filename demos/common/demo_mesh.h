/* The cube every demo draws: 24 vertices (each face has its own normals and
 * texture coordinates) and 36 indices, counter-clockwise seen from outside. */
#ifndef DEMO_MESH_H
#define DEMO_MESH_H

#include "demo_app.h"
#include "demo_cube.h"
#include "demo_texture_binding.h"
#include "demo_transform.h"

/* The vertex layout of shaders/cube.vert (demo_cube.h's): demo_cube_vertex,
 * demo_cube_vertex_binding and demo_cube_vertex_attributes. */

typedef struct demo_mesh {
    eng_buffer *vertices;
    eng_buffer *indices;
    uint32_t index_count;
} demo_mesh;

/* A cube from -1 to 1 on each axis, in device-local buffers. */
void demo_cube_create(demo_app *app, demo_mesh *mesh);
void demo_mesh_destroy(demo_mesh *mesh);
void demo_mesh_draw(VkCommandBuffer cmd, const demo_mesh *mesh);

/* The textured cube msaa and postfx draw: the texture (an image file), its
 * binding at set 0 and the cube's mesh. */
typedef struct demo_textured_cube {
    eng_image *texture;
    demo_texture_binding binding;
    demo_mesh mesh;
} demo_textured_cube;

/* Loads the texture at texture_path, binds it and makes the cube; exits
 * through demo_app_fail on failure. */
void demo_textured_cube_create(demo_app *app, const char *texture_path, demo_textured_cube *cube);
void demo_textured_cube_destroy(demo_textured_cube *cube);

/* A pipeline that draws the cube with shaders/cube.vert and the given
 * fragment shader into one color attachment of color_format, at the app's
 * --samples, back faces culled, demo_push as its push constants. The
 * caller adds depth and descriptor set layouts. */
eng_pipeline_desc demo_cube_pipeline_desc(const demo_app *app, const char *name, const uint32_t *fragment_spirv,
                                          size_t fragment_size, VkFormat color_format);

/* Gives pd a D32 depth attachment, tested and written when test is true. */
void demo_pipeline_add_depth(eng_pipeline_desc *pd, bool test);

/* Records the cube drawn by a pipeline made from demo_cube_pipeline_desc:
 * binds the pipeline and binding's set (binding NULL: none), pushes push
 * to both stages, draws. */
void demo_cube_draw(VkCommandBuffer cmd, const eng_pipeline *pipeline, const demo_texture_binding *binding,
                    const demo_push *push, const demo_mesh *mesh);

#endif
