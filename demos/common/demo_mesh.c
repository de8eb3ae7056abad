#include "demo_mesh.h"

#include <engine_files/engine_files.h>

static const uint32_t cube_vert[] =
#include "cube.vert.inc"
    ;

void demo_cube_create(demo_app *app, demo_mesh *mesh)
{
    demo_cube_vertex vertices[24];
    uint16_t indices[36];
    demo_cube_geometry(vertices, indices);
    DEMO_CHECK(app, eng_buffer_create_with_data(app->ctx, "cube vertices", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                                vertices, sizeof vertices, &mesh->vertices));
    DEMO_CHECK(app, eng_buffer_create_with_data(app->ctx, "cube indices", VK_BUFFER_USAGE_INDEX_BUFFER_BIT, indices,
                                                sizeof indices, &mesh->indices));
    mesh->index_count = 36;
}

void demo_mesh_destroy(demo_mesh *mesh)
{
    eng_buffer_destroy(mesh->indices);
    eng_buffer_destroy(mesh->vertices);
    *mesh = (demo_mesh){ 0 };
}

void demo_textured_cube_create(demo_app *app, const char *texture_path, demo_textured_cube *cube)
{
    DEMO_CHECK(app, eng_texture_load(app->ctx, texture_path, &cube->texture));
    demo_texture_binding_create(app, cube->texture, &cube->binding);
    demo_cube_create(app, &cube->mesh);
}

void demo_textured_cube_destroy(demo_textured_cube *cube)
{
    demo_mesh_destroy(&cube->mesh);
    demo_texture_binding_destroy(&cube->binding);
    eng_image_destroy(cube->texture);
    cube->texture = NULL;
}

void demo_mesh_draw(VkCommandBuffer cmd, const demo_mesh *mesh)
{
    VkBuffer vb = eng_buffer_handle(mesh->vertices);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
    vkCmdBindIndexBuffer(cmd, eng_buffer_handle(mesh->indices), 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cmd, mesh->index_count, 1, 0, 0, 0);
}

eng_pipeline_desc demo_cube_pipeline_desc(const demo_app *app, const char *name, const uint32_t *fragment_spirv,
                                          size_t fragment_size, VkFormat color_format)
{
    eng_pipeline_desc pd =
        demo_app_pipeline_desc(app, name, cube_vert, sizeof cube_vert, fragment_spirv, fragment_size);
    pd.bindings = &demo_cube_vertex_binding;
    pd.binding_count = 1;
    pd.attributes = demo_cube_vertex_attributes;
    pd.attribute_count = 3;
    pd.color_formats[0] = color_format;
    pd.color_count = 1;
    pd.samples = (VkSampleCountFlagBits)app->opts.samples;
    pd.cull_mode = VK_CULL_MODE_BACK_BIT;
    pd.push_constant_size = sizeof(demo_push);
    return pd;
}

void demo_pipeline_add_depth(eng_pipeline_desc *pd, bool test)
{
    pd->depth_format = VK_FORMAT_D32_SFLOAT;
    pd->depth_test = test;
    pd->depth_write = test;
}

void demo_cube_draw(VkCommandBuffer cmd, const eng_pipeline *pipeline, const demo_texture_binding *binding,
                    const demo_push *push, const demo_mesh *mesh)
{
    VkPipelineLayout layout = eng_pipeline_layout(pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(pipeline));
    if (binding)
        demo_texture_binding_bind(cmd, binding, layout);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof *push, push);
    demo_mesh_draw(cmd, mesh);
}
