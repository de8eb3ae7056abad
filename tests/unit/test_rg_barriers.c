/* Execution order and barriers: spans stay whole, interior needs are hoisted
 * before begin_rendering, readers share transitions, imports start and end
 * as declared. No device. */
#include "rg_unit.h"

#define FRAG VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
#define VERT VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT
#define COMP VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define SRO VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL

/* No barrier is recorded before a command strictly inside a span. */
static void expect_no_barrier_inside(const rg_graph *g, const rg_command *interior, uint32_t n)
{
    for (uint32_t i = 0; i < rg_barrier_count(g); i++)
        for (uint32_t k = 0; k < n; k++)
            cr_expect_neq(rg_barrier_get(g, i)->before.id, interior[k].id, "barrier %u inside a span", i);
}

Test(rg_barriers, foreign_command_never_lands_inside_a_span)
{
    rg_graph *g = test_graph();
    rg_texture src = test_color(g, "src"), color = test_color(g, "color");
    rg_buffer other = test_buf(g, "other");
    rg_command produce = test_outside(g, "produce", TEX(src, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command begin = test_begin(g, "pass", color);
    rg_command draw = test_draw(g, "draw", TEX(src, RG_USAGE_SAMPLED_FRAGMENT));
    rg_command end = rg_end_rendering(g);
    /* Independent of everything: batch 0, like produce, before the span. */
    rg_command foreign = test_outside(g, "foreign", BUF(other, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t b = test_pos(g, begin), f = test_pos(g, foreign);
    cr_expect_eq(test_pos(g, draw), b + 1);
    cr_expect_eq(test_pos(g, end), b + 2);
    cr_expect(f < b || f > b + 2, "foreign at %u, span at %u..%u", f, b, b + 2);
    cr_expect_lt(test_pos(g, produce), b);
    cr_expect_lt(f, b, "hazard-free, it runs in an earlier batch");
    rg_graph_destroy(g);
}

Test(rg_barriers, interior_consumer_barrier_is_hoisted_to_begin)
{
    rg_graph *g = test_graph();
    rg_texture lut = test_color(g, "lut"), color = test_color(g, "color");
    test_outside(g, "compute", TEX(lut, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command begin = test_begin(g, "pass", color);
    rg_command draw = test_draw(g, "draw", TEX(lut, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, lut, b, 4), 2, "first use, then the sampled read");
    cr_expect_eq(b[1]->before.id, begin.id, "recorded before vkCmdBeginRendering");
    cr_expect(b[1]->hoisted);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_GENERAL, SRO);
    test_expect_src(b[1], COMP, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    test_expect_dst(b[1], FRAG, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    expect_no_barrier_inside(g, &draw, 1);
    rg_graph_destroy(g);
}

Test(rg_barriers, two_interior_readers_share_one_barrier)
{
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "img"), color = test_color(g, "color");
    test_outside(g, "compute", TEX(img, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command begin = test_begin(g, "pass", color);
    rg_command d[2];
    d[0] = test_draw(g, "frag_reader", TEX(img, RG_USAGE_SAMPLED_FRAGMENT));
    d[1] = test_draw(g, "vert_reader", TEX(img, RG_USAGE_SAMPLED_VERTEX));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, img, b, 4), 2, "the first use and one shared transition");
    cr_expect_eq(b[1]->before.id, begin.id);
    cr_expect_eq(b[1]->old_layout, VK_IMAGE_LAYOUT_GENERAL, "not a stale UNDEFINED nor SRO");
    cr_expect_eq(b[1]->new_layout, SRO);
    cr_expect_eq(b[1]->src_stage, COMP);
    cr_expect_eq(b[1]->dst_stage, FRAG | VERT, "unioned destination scopes");
    expect_no_barrier_inside(g, d, 2);
    rg_graph_destroy(g);
}

Test(rg_barriers, readers_in_two_layouts_outside_a_pass_chain)
{
    static const VkClearValue zero = {{{0}}};
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "img");
    rg_buffer out = rg_buffer_create(g, &(rg_buffer_desc){.name = "out", .size = 64 * 64 * 4});
    rg_command clear = rg_cmd_clear_texture(g, img, NULL, &zero);
    rg_command sample = test_outside(g, "sample", TEX(img, RG_USAGE_SAMPLED_COMPUTE));
    rg_command copy = rg_cmd_copy_texture_to_buffer(g, img, 0, 0, 1, out, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(rg_happens_before(g, sample, copy), "the layout change orders the readers");
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, img, b, 4), 3);
    cr_expect_eq(b[0]->before.id, clear.id);
    test_expect_layouts(b[0], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    cr_expect_eq(b[1]->before.id, sample.id);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, SRO);
    cr_expect_eq(b[1]->src_access, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    cr_expect_eq(b[2]->before.id, copy.id);
    cr_expect_eq(b[2]->old_layout, b[1]->new_layout, "chained: old layout of the second = new of the first");
    cr_expect_eq(b[2]->new_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    cr_expect_eq(b[2]->src_stage, COMP, "waits for the sampling reader");
    rg_graph_destroy(g);
}

Test(rg_barriers, same_layout_readers_after_one_transition_need_no_second)
{
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "img");
    test_outside(g, "write", TEX(img, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "read1", TEX(img, RG_USAGE_SAMPLED_COMPUTE));
    test_outside(g, "read2", TEX(img, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_expect_eq(test_tex_barriers(g, img, b, 4), 2, "first use and one GENERAL -> SRO");
    rg_graph_destroy(g);
}

Test(rg_barriers, storage_image_first_used_inside_a_pass_is_hoisted)
{
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "scratch"), color = test_color(g, "color");
    rg_texture imported = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "history", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64,
        .initial_layout = SRO, .initial_stage = FRAG, .initial_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
        .final_layout = SRO});
    rg_command begin = test_begin(g, "pass", color);
    rg_command d = test_draw(g, "draw", TEX(img, RG_USAGE_STORAGE_WRITE_FRAGMENT),
                            TEX(imported, RG_USAGE_STORAGE_READ_WRITE_FRAGMENT));
    rg_command end = rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, img, b, 4), 1);
    cr_expect_eq(b[0]->before.id, begin.id);
    cr_expect(b[0]->hoisted);
    cr_expect_eq(b[0]->old_layout, VK_IMAGE_LAYOUT_UNDEFINED, "a created texture's first use");
    cr_expect_eq(b[0]->new_layout, VK_IMAGE_LAYOUT_GENERAL);
    cr_assert_eq(test_tex_barriers(g, imported, b, 4), 2, "initial transition and final one");
    cr_expect_eq(b[0]->before.id, begin.id);
    cr_expect(b[0]->hoisted);
    cr_expect_eq(b[0]->old_layout, SRO, "starts from the declared layout");
    cr_expect_eq(b[0]->src_stage, FRAG);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_GENERAL, SRO);
    cr_expect_eq(b[1]->before.id, 0, "after the last command");
    rg_command inside[2] = {d, end};
    expect_no_barrier_inside(g, inside, 2);
    rg_graph_destroy(g);
}

Test(rg_barriers, swapchain_ends_in_present_with_chained_source)
{
    rg_graph *g = test_graph();
    rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB, .width = 64, .height = 64,
        .initial_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    rg_command begin = test_begin(g, "pass", back);
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, back, b, 4), 2);
    cr_expect_eq(b[0]->before.id, begin.id);
    test_expect_layouts(b[0], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    cr_expect_eq(b[0]->src_stage, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 "chained to the acquire semaphore's wait stage");
    cr_expect_eq(b[0]->dst_access, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, "cleared: no read");
    cr_expect_eq(b[1]->before.id, 0);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    test_expect_src(b[1], VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    rg_graph_destroy(g);
}

Test(rg_barriers, depth_attachment_and_msaa_resolve)
{
    rg_graph *g = test_graph();
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                               .width = 32, .height = 32,
                                                               .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture depth = rg_texture_create(g, &(rg_texture_desc){.name = "depth",
                                                                .format = VK_FORMAT_D24_UNORM_S8_UINT, .width = 32,
                                                                .height = 32, .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture resolved = rg_texture_create(g, &(rg_texture_desc){.name = "resolved",
                                                                   .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 32,
                                                                   .height = 32});
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "msaa_pass", .color_count = 1,
                              .colors = {{.texture = msaa, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = resolved}},
                              .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}});
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, depth, b, 4), 1);
    cr_expect_eq(b[0]->range.aspect, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, "both aspects at once");
    cr_expect_eq(b[0]->new_layout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    cr_assert_eq(test_tex_barriers(g, resolved, b, 4), 1);
    cr_expect_eq(b[0]->new_layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    cr_expect_eq(b[0]->dst_stage, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    rg_graph_destroy(g);
}

Test(rg_barriers, mips_written_one_by_one_get_exact_ranges)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "chain", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                            .width = 64, .height = 64, .mip_levels = 3,
                                                            .array_layers = 2});
    static const VkClearValue zero = {{{0}}};
    rg_cmd_clear_texture(g, t, NULL, &zero);
    rg_cmd_blit(g, t, 0, t, 1, VK_FILTER_LINEAR);
    test_outside(g, "sample_all", TEX(t, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[8];
    uint32_t n = test_tex_barriers(g, t, b, 8);
    /* clear: whole; blit: mip0 DST->SRC, mip1 DST->DST (write after write);
     * sample: mip0 from SRC, mips 1 and 2 from DST in one range. */
    cr_assert_eq(n, 5);
    cr_expect_eq(b[0]->range.mip_count, 3);
    cr_expect_eq(b[0]->range.layer_count, 2);
    test_expect_layouts(b[2], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    cr_expect_eq(b[3]->range.base_mip, 0);
    cr_expect_eq(b[3]->old_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    cr_expect_eq(b[4]->range.base_mip, 1);
    cr_expect_eq(b[4]->range.mip_count, 2);
    cr_expect_eq(b[4]->old_layout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    rg_graph_destroy(g);
}

Test(rg_barriers, created_resources_wait_for_the_previous_frame)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "b");
    test_outside(g, "write", BUF(b, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "read", BUF(b, RG_USAGE_INDIRECT_BUFFER));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_barrier_count(g), 2);
    const rg_barrier_info *first = rg_barrier_get(g, 0);
    cr_expect_eq(first->buffer.id, b.id);
    cr_expect_eq(first->src_stage, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | COMP,
                 "the last writer and reader of the frame before");
    cr_expect_eq(rg_barrier_get(g, 1)->src_access, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    cr_expect_null(rg_barrier_get(g, 2));
    rg_graph_destroy(g);
}
