/* Render graph declaration: results, handles, sticky errors, ranges, the
 * usage table and derived usage. No device. */
#include "rg_unit.h"

Test(rg_declare, every_result_has_its_own_string)
{
    for (int i = 0; i < RG_RESULT_COUNT; i++) {
        const char *s = rg_result_string((rg_result)i);
        cr_assert_not_null(s);
        cr_expect_null(strstr(s, "invalid rg_result"), "result %d has no string", i);
        for (int k = 0; k < i; k++)
            cr_expect_str_neq(s, rg_result_string((rg_result)k), "results %d and %d share '%s'", k, i, s);
    }
    cr_expect_not_null(rg_result_string(RG_RESULT_COUNT));
    cr_expect_not_null(rg_result_string((rg_result)-1));
}

Test(rg_declare, create_and_destroy)
{
    rg_graph *g = (rg_graph *)1;
    cr_expect_eq(rg_graph_create(NULL, &g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(g);
    cr_expect_eq(rg_graph_create(&(rg_graph_desc){0}, NULL), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(NULL);
    rg_graph_reset(NULL);
    g = test_graph();
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(g), "");
    cr_expect_eq(rg_compile(g), RG_SUCCESS, "an empty graph compiles");
    cr_expect_eq(rg_execution_order(g, NULL), 0);
    rg_graph_destroy(g);
}

Test(rg_declare, stale_handle_after_reset)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "old");
    rg_graph_reset(g);
    rg_texture fresh = test_color(g, "fresh");
    cr_expect_neq(t.id, fresh.id, "a reset changes the handles");
    rg_command c = test_outside(g, "stale_user", TEX(t, RG_USAGE_SAMPLED_COMPUTE));
    cr_expect_eq(c.id, 0);
    test_expect_error(g, RG_ERROR_INVALID_HANDLE, "stale_user");
    cr_expect_eq(rg_texture_set_image(g, t, &(rg_import_image){.format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                               .height = 64, .usage = VK_IMAGE_USAGE_SAMPLED_BIT}),
                 RG_ERROR_INVALID_HANDLE);
    rg_graph_destroy(g);
}

Test(rg_declare, foreign_zero_and_wrong_kind_handles)
{
    rg_graph *a = test_graph(), *b = test_graph();
    rg_texture ta = test_color(a, "a_tex");
    test_outside(b, "foreign_user", TEX(ta, RG_USAGE_SAMPLED_COMPUTE));
    test_expect_error(b, RG_ERROR_INVALID_HANDLE, "foreign_user");
    rg_graph_destroy(b);

    b = test_graph();
    test_outside(b, "zero_user", TEX((rg_texture){0}, RG_USAGE_SAMPLED_COMPUTE));
    test_expect_error(b, RG_ERROR_INVALID_ARGUMENT, "zero_user"); /* neither texture nor buffer */
    rg_graph_destroy(b);

    /* A texture's id passed as a buffer. */
    rg_buffer as_buffer = {ta.id};
    test_outside(a, "kind_user", BUF(as_buffer, RG_USAGE_STORAGE_READ_COMPUTE));
    test_expect_error(a, RG_ERROR_INVALID_HANDLE, "kind_user");
    rg_graph_destroy(a);
}

Test(rg_declare, errors_are_sticky_and_later_calls_ignored)
{
    rg_graph *g = test_graph();
    rg_buffer zero = rg_buffer_create(g, &(rg_buffer_desc){.name = "empty", .size = 0});
    cr_expect_eq(zero.id, 0);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "empty"));
    cr_expect_eq(test_color(g, "later").id, 0, "ignored after an error");
    cr_expect_eq(rg_end_rendering(g).id, 0);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_INVALID_ARGUMENT, "the first error is kept");
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_reset(g);
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "a reset clears it");
    cr_expect_neq(test_color(g, "again").id, 0);
    rg_graph_destroy(g);
}

Test(rg_declare, zero_sizes_and_extents)
{
    rg_graph *g = test_graph();
    cr_expect_eq(rg_texture_create(g, &(rg_texture_desc){.name = "flat", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                         .width = 0, .height = 4}).id, 0);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(g);

    g = test_graph();
    rg_buffer a = test_buf(g, "a"), b = test_buf(g, "b");
    cr_expect_eq(rg_cmd_copy_buffer(g, a, 0, b, 0, 0).id, 0);
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "copy_buffer");

    g = test_graph();
    a = test_buf(g, "a");
    b = test_buf(g, "b");
    cr_expect_eq(rg_cmd_copy_buffer(g, a, 200, b, 0, 100).id, 0, "past the end of a");
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "'a'");
}

Test(rg_declare, access_needs_one_resource_and_a_callback)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    rg_buffer b = test_buf(g, "b");
    test_outside(g, "both_user", ((rg_access){.texture = t, .buffer = b, .usage = RG_USAGE_TRANSFER_SRC}));
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "both_user");

    g = test_graph();
    cr_expect_eq(rg_cmd_user(g, &(rg_user_desc){.name = "no_callback"}).id, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "no_callback");

    g = test_graph();
    t = test_color(g, "t");
    test_outside(g, "sampled_buffer", BUF((rg_buffer){0}, RG_USAGE_SAMPLED_COMPUTE), TEX(t, RG_USAGE_VERTEX_BUFFER));
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "sampled_buffer");

    g = test_graph();
    t = test_color(g, "t");
    test_outside(g, "vertex_texture", TEX(t, RG_USAGE_VERTEX_BUFFER));
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "vertex_texture");
}

Test(rg_declare, ranges_outside_the_texture)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "mipped", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                            .width = 64, .height = 64, .mip_levels = 2});
    test_outside(g, "mip_user", ((rg_access){.texture = t, .usage = RG_USAGE_SAMPLED_COMPUTE,
                                            .range = {.base_mip = 1, .mip_count = 2}}));
    test_expect_refused_naming(g, RG_ERROR_BAD_RANGE, "mip_user", "mipped");

    g = test_graph();
    t = test_color(g, "t");
    test_outside(g, "aspect_user", ((rg_access){.texture = t, .usage = RG_USAGE_SAMPLED_COMPUTE,
                                               .range = {.aspect = VK_IMAGE_ASPECT_DEPTH_BIT}}));
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "aspect_user");
}

Test(rg_declare, attachment_views_must_be_concrete)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "layered", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                            .width = 8, .height = 8, .array_layers = 4});
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "remaining_pass", .color_count = 1,
                                               .colors = {{.texture = t, .layer_count = VK_REMAINING_ARRAY_LAYERS}}});
    test_expect_refused_naming(g, RG_ERROR_BAD_RANGE, "remaining_pass", "layered");

    g = test_graph();
    t = test_color(g, "t");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "mip_pass", .color_count = 1,
                                               .colors = {{.texture = t, .mip = 1}}});
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "mip_pass");
}

Test(rg_declare, set_image_only_on_imports)
{
    rg_graph *g = test_graph();
    rg_texture created = test_color(g, "created");
    rg_texture imported = rg_texture_import(g, &(rg_texture_import_desc){
                                                   .name = "imported", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                                   .width = 8, .height = 8});
    rg_buffer ib = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "ib", .size = 16});
    rg_import_image image = {.image = (VkImage)(uintptr_t)0x10, .format = VK_FORMAT_B8G8R8A8_SRGB, .width = 8,
                             .height = 8, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
    rg_import_buffer buffer = {.buffer = (VkBuffer)(uintptr_t)0x20, .size = 16,
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    cr_expect_eq(rg_texture_set_image(g, created, &image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_texture_set_image(g, imported, &image), RG_SUCCESS);
    cr_expect_eq(rg_buffer_set_buffer(g, ib, &buffer), RG_SUCCESS);
    cr_expect_eq(rg_buffer_set_buffer(g, test_buf(g, "own"), &buffer), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "re-pointing is no declaration error");
    rg_graph_destroy(g);
}

Test(rg_declare, usage_table_rows)
{
    for (int u = 0; u < RG_USAGE_COUNT; u++) {
        const rg_usage_info *i = rg_usage_get_info((rg_usage)u);
        cr_assert_not_null(i);
        cr_expect_not_null(i->name);
    }
    cr_expect_null(rg_usage_get_info(RG_USAGE_COUNT));
    const rg_usage_info *s = rg_usage_get_info(RG_USAGE_SAMPLED_FRAGMENT);
    cr_expect_eq(s->stage, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    cr_expect_eq(s->layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    cr_expect_not(s->write);
    cr_expect(rg_usage_get_info(RG_USAGE_STORAGE_WRITE_COMPUTE)->write);
    cr_expect_eq(rg_usage_get_info(RG_USAGE_PRESENT)->layout, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
}

Test(rg_declare, raw_access_takes_its_own_scope)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    test_outside(g, "raw_user",
                ((rg_access){.texture = t, .usage = RG_USAGE_RAW, .whole = true,
                             .stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                             .access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, .layout = VK_IMAGE_LAYOUT_GENERAL,
                             .write = true}));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, t, b, 4), 1);
    cr_expect_eq(b[0]->new_layout, VK_IMAGE_LAYOUT_GENERAL);
    test_expect_dst(b[0], VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    rg_graph_destroy(g);
}

Test(rg_declare, created_usage_is_derived_from_accesses)
{
    rg_graph *g = test_graph();
    rg_texture color = test_color(g, "color");
    rg_texture extra = rg_texture_create(g, &(rg_texture_desc){.name = "extra", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = 8, .height = 8,
                                                                .extra_usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT});
    rg_buffer out = test_buf(g, "out");
    test_begin(g, "pass", color);
    rg_end_rendering(g);
    test_outside(g, "sample", TEX(color, RG_USAGE_SAMPLED_COMPUTE), TEX(extra, RG_USAGE_STORAGE_WRITE_COMPUTE),
                BUF(out, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_resource_info r[3];
    cr_assert_eq(rg_texture_get_info(g, color, &r[0]), RG_SUCCESS);
    cr_assert_eq(rg_texture_get_info(g, extra, &r[1]), RG_SUCCESS);
    cr_assert_eq(rg_buffer_get_info(g, out, &r[2]), RG_SUCCESS);
    cr_expect_eq(r[0].image_usage, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    cr_expect_eq(r[1].image_usage, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    cr_expect_eq(r[2].buffer_usage, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    rg_graph_destroy(g);
}

Test(rg_declare, lifetimes_cover_the_span_end)
{
    rg_graph *g = test_graph();
    rg_texture color = test_color(g, "color");
    rg_texture unused = test_color(g, "unused");
    rg_buffer data = test_buf(g, "data");
    test_begin(g, "pass", color);
    test_draw(g, "draw", BUF_UNDEF(data, RG_USAGE_UNIFORM_FRAGMENT));
    rg_command end = rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_resource_info r[3];
    cr_assert_eq(rg_texture_get_info(g, color, &r[0]), RG_SUCCESS);
    cr_assert_eq(rg_texture_get_info(g, unused, &r[1]), RG_SUCCESS);
    cr_assert_eq(rg_buffer_get_info(g, data, &r[2]), RG_SUCCESS);
    cr_expect_eq(r[0].first_use, 0);
    cr_expect_eq(r[0].last_use, test_pos(g, end), "the attachment lives to end_rendering");
    cr_expect_eq(r[1].first_use, RG_INDEX_NONE);
    cr_expect_eq(r[2].first_use, 1);
    cr_expect_eq(r[2].last_use, 1);
    rg_graph_destroy(g);
}

Test(rg_declare, copies_check_sizes_and_mips)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t"); /* 64x64 RGBA8: 16 KiB */
    rg_buffer small = test_buf(g, "small");
    cr_expect_eq(rg_cmd_copy_buffer_to_texture(g, small, 0, t, 0, 0, 1).id, 0);
    test_expect_refused_naming(g, RG_ERROR_BAD_RANGE, "copy_buffer_to_texture", "small");

    g = test_graph();
    t = test_color(g, "t");
    cr_expect_eq(rg_cmd_blit(g, t, 0, t, 0, VK_FILTER_NEAREST).id, 0, "one mip onto itself");
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "blit");

    g = test_graph();
    rg_buffer b = test_buf(g, "b");
    cr_expect_eq(rg_cmd_copy_buffer(g, b, 0, b, 16, 32).id, 0, "overlapping regions of one buffer");
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "copy_buffer");

    g = test_graph();
    t = test_color(g, "t");
    rg_buffer big = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "big", .size = 64 * 64 * 4});
    cr_expect_neq(rg_cmd_copy_buffer_to_texture(g, big, 0, t, 0, 0, 0).id, 0, "layer_count 0 = 1");
    cr_expect_neq(rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, big, 0).id, 0);
    test_expect_compiles(g);
}

Test(rg_declare, read_only_depth_attachment)
{
    rg_graph *g = test_graph();
    rg_texture depth = test_tex(g, "depth", VK_FORMAT_D32_SFLOAT), color = test_color(g, "color");
    /* Nothing wrote either before: the depth's contents are not what this
     * tests (its store op is), so it is not loaded. */
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "ro", .color_count = 1,
                              .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                              .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE},
                              .depth_read_only = true});
    rg_end_rendering(g);
    test_outside(g, "sample_depth", TEX(depth, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    cr_assert_eq(test_tex_barriers(g, depth, b, 4), 2);
    cr_expect_eq(b[0]->new_layout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    /* The default store op (STORE) writes even a read-only attachment. */
    cr_expect_eq(b[0]->dst_access,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    cr_expect_eq(b[0]->range.aspect, VK_IMAGE_ASPECT_DEPTH_BIT);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, depth, &info), RG_SUCCESS);
    cr_expect_eq(info.image_usage, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    rg_graph_destroy(g);
}
