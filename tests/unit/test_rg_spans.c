/* Span validation: one test per error code, each message naming the
 * command. No device. */
#include "rg_unit.h"

Test(rg_spans, unbalanced)
{
    rg_graph *g = test_graph();
    test_begin(g, "open_pass", test_color(g, "c"));
    test_expect_refused(g, RG_ERROR_UNBALANCED_SPAN, "open_pass");
}

Test(rg_spans, nested)
{
    rg_graph *g = test_graph();
    rg_texture a = test_color(g, "a"), b = test_color(g, "b");
    test_begin(g, "outer", a);
    cr_expect_eq(test_begin(g, "inner", b).id, 0);
    test_expect_refused(g, RG_ERROR_NESTED_SPAN, "inner");
}

Test(rg_spans, end_without_begin)
{
    rg_graph *g = test_graph();
    cr_expect_eq(rg_end_rendering(g).id, 0);
    test_expect_refused(g, RG_ERROR_END_WITHOUT_BEGIN, "end_rendering");
}

Test(rg_spans, draw_outside)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "b");
    test_draw(g, "lonely_draw", BUF(b, RG_USAGE_VERTEX_BUFFER));
    test_expect_refused(g, RG_ERROR_DRAW_OUTSIDE_SPAN, "lonely_draw");
}

Test(rg_spans, transfers_inside)
{
    static const VkClearValue black = {{{0}}};
    for (int kind = 0; kind < 3; kind++) {
        rg_graph *g = test_graph();
        rg_texture c = test_color(g, "c"), t = test_color(g, "t");
        rg_texture m = rg_texture_create(g, &(rg_texture_desc){.name = "m", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = 8, .height = 8, .mip_levels = 2});
        rg_buffer a = test_buf(g, "a"), b = test_buf(g, "b");
        test_begin(g, "pass", c);
        const char *name = kind == 0 ? "copy_buffer" : kind == 1 ? "clear_texture" : "blit";
        if (kind == 0)
            rg_cmd_copy_buffer(g, a, 0, b, 0, 16);
        else if (kind == 1)
            rg_cmd_clear_texture(g, t, NULL, &black);
        else
            rg_cmd_blit(g, m, 0, m, 1, VK_FILTER_LINEAR);
        test_expect_refused(g, RG_ERROR_TRANSFER_IN_SPAN, name);
    }
}

Test(rg_spans, outside_command_inside)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "b");
    test_begin(g, "pass", test_color(g, "c"));
    test_outside(g, "dispatch", BUF(b, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_expect_refused(g, RG_ERROR_OUTSIDE_IN_SPAN, "dispatch");
}

Test(rg_spans, attachment_layout)
{
    rg_graph *g = test_graph();
    rg_texture depth = test_tex(g, "depth", VK_FORMAT_D32_SFLOAT);
    test_begin(g, "depth_as_color", depth);
    test_expect_refused(g, RG_ERROR_ATTACHMENT_LAYOUT, "depth_as_color");

    g = test_graph();
    rg_texture color = test_color(g, "color");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "color_as_depth", .depth = {.texture = color}});
    test_expect_refused(g, RG_ERROR_ATTACHMENT_LAYOUT, "color_as_depth");
}

Test(rg_spans, attachment_overlap)
{
    rg_graph *g = test_graph();
    rg_texture c = test_color(g, "shared");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "twice", .color_count = 2,
                                               .colors = {{.texture = c}, {.texture = c}}});
    test_expect_refused_naming(g, RG_ERROR_ATTACHMENT_OVERLAP, "twice", "shared");
}

Test(rg_spans, feedback_loop)
{
    rg_graph *g = test_graph();
    rg_texture c = test_color(g, "target");
    test_begin(g, "pass", c);
    test_draw(g, "sample_target", TEX(c, RG_USAGE_SAMPLED_FRAGMENT));
    test_expect_refused_naming(g, RG_ERROR_FEEDBACK_LOOP, "sample_target", "target");
}

Test(rg_spans, interior_storage_hazard_is_rejected)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "counters");
    test_two_draws(g, "writer_draw", BUF(b, RG_USAGE_STORAGE_WRITE_FRAGMENT), "reader_draw",
                   BUF(b, RG_USAGE_STORAGE_READ_FRAGMENT));
    test_expect_refused_naming(g, RG_ERROR_HAZARD_IN_SPAN, "writer_draw", "reader_draw", "counters", "06191");

    /* Storage image write then write by another draw: the same. */
    g = test_graph();
    rg_texture img = test_color(g, "img");
    test_two_draws(g, "first", TEX(img, RG_USAGE_STORAGE_READ_WRITE_FRAGMENT), "second",
                   TEX(img, RG_USAGE_STORAGE_WRITE_FRAGMENT));
    test_expect_refused(g, RG_ERROR_HAZARD_IN_SPAN, "second");
}

Test(rg_spans, interior_reads_and_one_command_read_write_are_fine)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "b");
    rg_texture img = test_color(g, "img");
    test_begin(g, "pass", test_color(g, "c"));
    test_draw(g, "r1", BUF_UNDEF(b, RG_USAGE_STORAGE_READ_FRAGMENT), TEX_UNDEF(img, RG_USAGE_SAMPLED_FRAGMENT));
    test_draw(g, "r2", BUF_UNDEF(b, RG_USAGE_UNIFORM_VERTEX), TEX_UNDEF(img, RG_USAGE_SAMPLED_VERTEX));
    rg_buffer own = test_buf(g, "own");
    test_draw(g, "rw", BUF_UNDEF(own, RG_USAGE_STORAGE_READ_FRAGMENT), BUF(own, RG_USAGE_STORAGE_WRITE_FRAGMENT));
    rg_end_rendering(g);
    test_expect_compiles(g);
}

Test(rg_spans, interior_layout_change_is_rejected)
{
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "lut");
    test_two_draws(g, "sampler_draw", TEX(img, RG_USAGE_SAMPLED_FRAGMENT), "storage_draw",
                   TEX(img, RG_USAGE_STORAGE_READ_FRAGMENT));
    test_expect_refused_naming(g, RG_ERROR_TRANSITION_IN_SPAN, "sampler_draw", "storage_draw", "lut");
}

Test(rg_spans, one_command_two_layouts)
{
    rg_graph *g = test_graph();
    rg_texture img = test_color(g, "img");
    test_outside(g, "confused", TEX(img, RG_USAGE_SAMPLED_COMPUTE), TEX(img, RG_USAGE_STORAGE_READ_COMPUTE));
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "confused");
}

Test(rg_spans, resolve_needs_multisampled_source)
{
    rg_graph *g = test_graph();
    rg_texture c = test_color(g, "c"), r = test_color(g, "r");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "bad_resolve", .color_count = 1,
                                               .colors = {{.texture = c, .resolve = r}}});
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "bad_resolve");
}
