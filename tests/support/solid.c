#include "solid.h"

_Static_assert(sizeof(solid_push) == 48, "the pipelines declare 48 bytes of push constants");

const uint32_t solid_vert_spv[] =
#include "solid.vert.inc"
    ;
const size_t solid_vert_size = sizeof solid_vert_spv;

const uint32_t solid_frag_spv[] =
#include "solid.frag.inc"
    ;
const size_t solid_frag_size = sizeof solid_frag_spv;

eng_pipeline_desc solid_fragment_desc(const char *name, const uint32_t *frag, size_t size, VkFormat color_format)
{
    eng_pipeline_desc d = { .name = name,
                            .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                            .fragment_spirv = frag, .fragment_size = size,
                            .color_formats = { color_format }, .color_count = 1,
                            .triangle_strip = true, .push_constant_size = sizeof(solid_push) };
    return d;
}

eng_result solid_pipeline_create(eng_context *ctx, VkFormat color_format, VkFormat depth_format,
                                 VkSampleCountFlagBits samples, eng_pipeline_cache *cache, eng_pipeline **out)
{
    eng_pipeline_desc d = solid_fragment_desc("solid", solid_frag_spv, solid_frag_size, color_format);
    d.color_count = color_format != VK_FORMAT_UNDEFINED ? 1 : 0;
    d.depth_format = depth_format;
    d.samples = samples;
    d.depth_test = d.depth_write = depth_format != VK_FORMAT_UNDEFINED;
    d.depth_compare = VK_COMPARE_OP_LESS;
    d.cache = cache;
    return eng_pipeline_create(ctx, &d, out);
}

void solid_draw(VkCommandBuffer cmd, const eng_pipeline *pipeline, const float rect[4], const float color[4],
                float depth)
{
    solid_push p = { .depth = depth };
    for (int i = 0; i < 4; i++) {
        p.rect[i] = rect[i];
        p.color[i] = color[i];
    }
    vkCmdPushConstants(cmd, eng_pipeline_layout(pipeline), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       sizeof p, &p);
    vkCmdDraw(cmd, 4, 1, 0, 0);
}

static const float full_rect[4] = { -1, -1, 1, 1 }, no_color[4] = { 0, 0, 0, 0 };

void solid_draw_with_set(VkCommandBuffer cmd, const eng_pipeline *pipeline, VkDescriptorSet set)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(pipeline), 0, 1, &set, 0, NULL);
    solid_draw(cmd, pipeline, full_rect, no_color, 0.0f);
}

void solid_draw_full(VkCommandBuffer cmd, const eng_pipeline *pipeline)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(pipeline));
    solid_draw(cmd, pipeline, full_rect, no_color, 0.0f);
}
