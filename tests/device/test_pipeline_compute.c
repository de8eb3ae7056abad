/* Compute pipelines on a device: a dispatch writes a storage image that a
 * draw reads. Suite pipeline (test_pipeline.c declares it). */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "pipeline_support.h"
#include "test_chunks.h"
#include "solid.h"
#include "test_shaders.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ compute pipelines */

#define CW 16

#define CH 8

#define CBASE 5000u

/* A dispatch writes base + x + 100y into a storage image; a draw samples
 * it (history_step.frag adds 1 + x + 100y) into an R32_UINT target that is
 * read back: every texel exact. */
typedef struct compute_frame {
    VkDevice dev;
    eng_pipeline *compute, *draw;
    VkDescriptorSetLayout storage_layout, sampled_layout;
    VkDescriptorPool pool;
    VkDescriptorSet storage_set, sampled_set;
    rg_texture pattern;
} compute_frame;

/* Binds p (at its own bind point) with *set, one binding of `type` over
 * the view the graph gives the pattern, written at the first call (the
 * view stays the same while the graph stays placed). Returns the command
 * buffer to record into, or VK_NULL_HANDLE where the graph gives no view. */
static VkCommandBuffer bind_pattern(const rg_record_context *rc, compute_frame *f, const eng_pipeline *p,
                                    VkDescriptorSet *set, VkDescriptorSetLayout layout, VkDescriptorType type,
                                    VkImageLayout image_layout)
{
    VkImageView view = rg_record_view(rc, f->pattern);
    if (!view)
        return VK_NULL_HANDLE;
    if (!*set) {
        *set = test_alloc_set(f->dev, f->pool, layout);
        test_write_image(f->dev, *set, 0, type, view, image_layout);
    }
    VkCommandBuffer cmd = rg_record_cmd(rc);
    test_bind_with_set(cmd, eng_pipeline_bind_point(p), eng_pipeline_handle(p), eng_pipeline_layout(p), *set);
    return cmd;
}

static bool record_dispatch(const rg_record_context *rc, void *user)
{
    compute_frame *f = user;
    cr_assert_eq(eng_pipeline_bind_point(f->compute), VK_PIPELINE_BIND_POINT_COMPUTE);
    VkCommandBuffer cmd = bind_pattern(rc, f, f->compute, &f->storage_set, f->storage_layout,
                                       VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_IMAGE_LAYOUT_GENERAL);
    if (!cmd)
        return false;
    const uint32_t push[3] = { CBASE, CW, CH };
    vkCmdPushConstants(cmd, eng_pipeline_layout(f->compute), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cmd, (CW + 7) / 8, (CH + 7) / 8, 1);
    return true;
}

static bool record_read_pattern(const rg_record_context *rc, void *user)
{
    compute_frame *f = user;
    VkCommandBuffer cmd = bind_pattern(rc, f, f->draw, &f->sampled_set, f->sampled_layout,
                                       VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    if (!cmd)
        return false;
    static const float none[4] = { 0, 0, 0, 0 };
    solid_draw(cmd, f->draw, pipeline_full_rect, none, 0.0f);
    return true;
}

DEVICE_TEST(pipeline, compute_writes_a_storage_image_a_draw_reads)
{
    compute_frame f = { .dev = eng_context_device(test_ctx) };
    f.storage_layout = test_set_layout(f.dev, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    f.sampled_layout = test_set_layout(f.dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 },
                                      { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1 } };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2,
                                       .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(f.dev, &pci, NULL, &f.pool), VK_SUCCESS);
    eng_result r = eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                   .name = "pattern", .spirv = storage_pattern_comp,
                                                   .size = storage_pattern_comp_size,
                                                   .set_layouts = &f.storage_layout, .set_layout_count = 1,
                                                   .push_constant_size = 12 },
                                               &f.compute);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    f.draw = NULL;
    eng_pipeline_desc dd = solid_fragment_desc("read pattern", history_step_frag, history_step_frag_size,
                                               VK_FORMAT_R32_UINT);
    dd.set_layouts = &f.sampled_layout;
    dd.set_layout_count = 1;
    r = eng_pipeline_create(test_ctx, &dd, &f.draw);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_eq(eng_pipeline_bind_point(f.draw), VK_PIPELINE_BIND_POINT_GRAPHICS);

    eng_buffer *readback = NULL;
    rg_buffer rb;
    rg_graph *g = pipeline_readback_graph("compute", CW * CH * 4, &readback, &rb);
    f.pattern = rg_texture_create(g, &(rg_texture_desc){ .name = "pattern", .format = VK_FORMAT_R32_UINT,
                                                         .width = CW, .height = CH });
    rg_texture out = rg_texture_create(g, &(rg_texture_desc){ .name = "out", .format = VK_FORMAT_R32_UINT,
                                                              .width = CW, .height = CH });
    rg_access write = { .texture = f.pattern, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "dispatch", .accesses = &write, .access_count = 1,
                                     .record = record_dispatch, .user = &f });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "read", .color_count = 1,
                                                .colors = { { .texture = out, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access read = { .texture = f.pattern, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .accesses = &read, .access_count = 1,
                                     .record = record_read_pattern, .user = &f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, out, 0, 0, 1, rb, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(test_ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const uint32_t *v = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t y = 0; y < CH; y++)
        for (uint32_t x = 0; x < CW; x++)
            bad += v[y * CW + x] != CBASE + 1 + 2 * (x + 100 * y);
    cr_expect_eq(bad, 0, "%u texels differ; (0,0) = %u, want %u", bad, v[0], CBASE + 1);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    /* Not SPIR-V, and a bad push constant size, are refused. */
    eng_pipeline *p = POISON(eng_pipeline);
    static const uint32_t junk[2] = { 1, 2 };
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){ .spirv = junk,
                                                                                     .size = sizeof junk },
                                             &p),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    p = POISON(eng_pipeline);
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                 .spirv = storage_pattern_comp, .size = storage_pattern_comp_size,
                                                 .push_constant_size = 6 },
                                             &p),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    eng_pipeline_destroy(f.compute);
    eng_pipeline_destroy(f.draw);
    vkDestroyDescriptorPool(f.dev, f.pool, NULL);
    vkDestroyDescriptorSetLayout(f.dev, f.storage_layout, NULL);
    vkDestroyDescriptorSetLayout(f.dev, f.sampled_layout, NULL);
}
