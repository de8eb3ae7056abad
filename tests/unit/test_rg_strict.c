/* Loud mistakes, device-free: attachments of different extents in one span
 * without an area (RG_ERROR_EXTENT_MISMATCH), the notice for an attachment
 * that only its load or store op keeps from being transient, and the
 * declaration of one-aspect copies of depth+stencil textures. */
#include "rg_unit.h"
#include "rg_unit_output.h"

#include <stdio.h>

#define CLEAR VK_ATTACHMENT_LOAD_OP_CLEAR
#define DISCARD VK_ATTACHMENT_STORE_OP_DONT_CARE
#define D32S8 VK_FORMAT_D32_SFLOAT_S8_UINT

static rg_texture sized(rg_graph *g, const char *name, VkFormat format, uint32_t w, uint32_t h)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = w, .height = h});
}

/* A span with a 64x64 color and a depth of the given extent. */
static void color_and_depth(rg_graph *g, uint32_t w, uint32_t h, VkRect2D area)
{
    rg_texture color = sized(g, "color", VK_FORMAT_R8G8B8A8_UNORM, 64, 64);
    rg_texture depth = sized(g, "small depth", VK_FORMAT_D32_SFLOAT, w, h);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "forward",
                              .colors = {{.texture = color, .load = CLEAR}},
                              .color_count = 1,
                              .depth = {.texture = depth, .load = CLEAR},
                              .area = area,
                          });
    test_draw(g, "draw");
    rg_end_rendering(g);
}

/* -------------------------------------------------------------- extents */

Test(rg_strict, attachments_of_different_extents_need_an_area)
{
    rg_graph *g = test_graph();
    color_and_depth(g, 32, 32, (VkRect2D){0});
    test_expect_error(g, RG_ERROR_EXTENT_MISMATCH, "span 'forward'");
    const char *m = rg_graph_error_message(g);
    cr_expect_not_null(strstr(m, "'color' (64x64)"), "%s", m);
    cr_expect_not_null(strstr(m, "'small depth' (32x32)"), "%s", m);
    rg_graph_destroy(g);
}

Test(rg_strict, an_explicit_area_within_every_attachment_is_allowed)
{
    rg_graph *g = test_graph();
    color_and_depth(g, 32, 48, (VkRect2D){{0, 0}, {32, 48}});
    test_expect_compiles(g);
}

Test(rg_strict, an_explicit_area_outside_an_attachment_is_refused)
{
    rg_graph *g = test_graph();
    color_and_depth(g, 32, 32, (VkRect2D){{0, 0}, {64, 64}});
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "forward");
}

/* A rendering's attachments share one sample count: a 1-sample colour with
 * a 4-sample depth is refused by name (found by fuzz_graph: merging's tile
 * budget read the colour's count, the pipeline state the depth's). */
Test(rg_strict, attachments_of_different_sample_counts_are_refused)
{
    rg_graph *g = test_graph();
    rg_texture color = sized(g, "color", VK_FORMAT_R8G8B8A8_UNORM, 64, 64);
    rg_texture depth = rg_texture_create(g, &(rg_texture_desc){.name = "msaa depth", .format = VK_FORMAT_D32_SFLOAT,
                                                              .width = 64, .height = 64,
                                                              .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "forward", .colors = {{.texture = color, .load = CLEAR}},
                                               .color_count = 1, .depth = {.texture = depth, .load = CLEAR}});
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "'color' (1 sample) and 'msaa depth' (4 samples)");
}

/* Extents compare at the mip viewed: mip 1 of a 64x64 texture is 32x32. */
Test(rg_strict, equal_extents_at_the_viewed_mips_need_no_area)
{
    rg_graph *g = test_graph();
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){.name = "mips", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = 64, .height = 64, .mip_levels = 2});
    rg_texture depth = sized(g, "depth", VK_FORMAT_D32_SFLOAT, 32, 32);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "half",
                                               .colors = {{.texture = color, .mip = 1, .load = CLEAR}},
                                               .color_count = 1,
                                               .depth = {.texture = depth, .load = CLEAR}});
    rg_end_rendering(g);
    test_expect_compiles(g);
}

/* ---------------------------------------------------- transient notices */

/* A 4x MSAA color resolved into an import, cleared, stored as given. */
static rg_graph *msaa_frame(test_notices *n, VkAttachmentStoreOp store, bool read_after)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "notes", .log = test_keep_notice, .log_user = n}, &g),
                 RG_SUCCESS);
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa color",
                                                              .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                              .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture out = rg_texture_import(g, &(rg_texture_import_desc){.name = "out", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                     .width = 64, .height = 64,
                                                                     .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "forward",
                              .colors = {{.texture = msaa, .load = CLEAR, .store = store, .resolve = out}},
                              .color_count = 1,
                          });
    test_draw(g, "draw");
    rg_end_rendering(g);
    if (read_after) {
        rg_begin_rendering(g, &(rg_rendering_desc){
                                  .name = "overlay",
                                  .colors = {{.texture = msaa, .store = DISCARD, .resolve = out}},
                                  .color_count = 1,
                              });
        test_draw(g, "hud");
        rg_end_rendering(g);
    }
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

Test(rg_strict, an_attachment_kept_from_transient_by_its_store_op_gets_a_notice)
{
    test_notices n = {.filter = "not transient"};
    rg_graph *g = msaa_frame(&n, VK_ATTACHMENT_STORE_OP_STORE, false);
    cr_expect_eq(n.count, 1u, "notices: %u", n.count);
    cr_expect_str_eq(n.text[0], "texture 'msaa color' is not transient: span 'forward' stores it (store STORE); "
                                "DONT_CARE would make it transient");
    rg_graph_destroy(g);
}

Test(rg_strict, a_transient_attachment_gets_no_notice)
{
    test_notices n = {.filter = "not transient"};
    rg_graph *g = msaa_frame(&n, DISCARD, false);
    cr_expect_eq(n.count, 0u, "%s", n.text[0]);
    rg_graph_destroy(g);
}

/* Stored for a later span that loads it: the store is needed, and no op
 * change would make it transient. */
Test(rg_strict, an_attachment_another_span_loads_gets_no_notice)
{
    test_notices n = {.filter = "not transient"};
    rg_graph *g = msaa_frame(&n, VK_ATTACHMENT_STORE_OP_STORE, true);
    cr_expect_eq(n.count, 0u, "%s", n.text[0]);
    rg_graph_destroy(g);
}

/* ------------------------------------------------------- aspect copies */

/* One aspect of a depth+stencil texture, sized by that aspect's texel
 * size: 4 bytes of depth, 1 of stencil per texel of a 16x16 mip. */
Test(rg_strict, one_aspect_of_depth_stencil_copies_to_a_buffer)
{
    rg_graph *g = test_graph();
    rg_texture ds = sized(g, "ds", D32S8, 16, 16);
    rg_buffer depth = rg_buffer_create(g, &(rg_buffer_desc){.name = "depth bytes", .size = 16 * 16 * 4});
    rg_buffer stencil = rg_buffer_create(g, &(rg_buffer_desc){.name = "stencil bytes", .size = 16 * 16});
    rg_cmd_clear_texture(g, ds, NULL, &(VkClearValue){0});
    rg_command cd = rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1, depth, 0);
    rg_command cs = rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1, stencil, 0);
    cr_expect_neq(cd.id, 0u, "%s", rg_graph_error_message(g));
    cr_expect_neq(cs.id, 0u, "%s", rg_graph_error_message(g));
    test_expect_compiles(g);
}

Test(rg_strict, the_buffer_must_hold_the_aspects_bytes)
{
    rg_graph *g = test_graph();
    rg_texture ds = sized(g, "ds", D32S8, 16, 16);
    rg_buffer small = rg_buffer_create(g, &(rg_buffer_desc){.name = "stencil sized", .size = 16 * 16});
    rg_cmd_clear_texture(g, ds, NULL, &(VkClearValue){0});
    rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1, small, 0);
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "takes 1024 bytes");
}

/* The other direction: a buffer fills the stencil aspect alone. */
Test(rg_strict, a_buffer_fills_one_aspect)
{
    rg_graph *g = test_graph();
    rg_texture ds = sized(g, "ds", D32S8, 16, 16);
    rg_buffer stencil = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "stencil bytes", .size = 16 * 16});
    rg_cmd_clear_texture(g, ds, NULL, &(VkClearValue){0});
    rg_command c = rg_cmd_copy_buffer_to_texture_aspect(g, stencil, 0, ds, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1);
    cr_expect_neq(c.id, 0u, "%s", rg_graph_error_message(g));
    test_expect_compiles(g);
}

/* Both aspects at once (aspect 0 or DEPTH|STENCIL) stay refused: Vulkan
 * copies one aspect per region. */
Test(rg_strict, both_aspects_at_once_are_refused)
{
    rg_graph *g = test_graph();
    rg_texture ds = sized(g, "ds", D32S8, 16, 16);
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){.name = "bytes", .size = 16 * 16 * 8});
    rg_cmd_copy_texture_to_buffer(g, ds, 0, 0, 1, b, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "rg_cmd_copy_texture_aspect_to_buffer");
}

Test(rg_strict, an_aspect_the_format_lacks_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture d = sized(g, "depth only", VK_FORMAT_D32_SFLOAT, 16, 16);
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){.name = "bytes", .size = 16 * 16 * 4});
    rg_cmd_copy_buffer_to_texture_aspect(g, b, 0, d, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "aspect 0x4 is not one aspect of texture 'depth only'");
}
