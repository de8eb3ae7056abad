/* Values the graph passes to Vulkan as they are, checked at declaration:
 * load and store ops, resolve modes, the render area and blit filters. A
 * bad one is a sticky error naming the command and the texture, never a
 * value handed to the driver. No device. */
#include "rg_unit.h"

static rg_texture msaa(rg_graph *g, const char *name, VkFormat format)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = format, .width = 64, .height = 64,
                                                   .samples = VK_SAMPLE_COUNT_4_BIT });
}

static void one_color_span(rg_graph *g, rg_attachment a, VkRect2D area)
{
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "pass", .colors = { a }, .color_count = 1, .area = area });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .record = test_noop });
    rg_end_rendering(g);
}

/* A span begun on a color texture "target" with the given ops. */
static void begin_on_target(rg_graph *g, VkAttachmentLoadOp load, VkAttachmentStoreOp store)
{
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "pass", .color_count = 1,
                                                .colors = { { .texture = test_color(g, "target"), .load = load,
                                                              .store = store } } });
}

Test(rg_validation, unknown_load_op_is_refused)
{
    rg_graph *g = test_graph();
    begin_on_target(g, (VkAttachmentLoadOp)7, VK_ATTACHMENT_STORE_OP_STORE);
    test_expect_refused_naming(g, RG_ERROR_INVALID_ARGUMENT, "load op 7", "'target'");
}

Test(rg_validation, unknown_store_op_is_refused)
{
    rg_graph *g = test_graph();
    begin_on_target(g, VK_ATTACHMENT_LOAD_OP_LOAD, (VkAttachmentStoreOp)5);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "store op 5");
}

Test(rg_validation, store_op_none_is_accepted)
{
    rg_graph *g = test_graph();
    begin_on_target(g, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_NONE);
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .record = test_noop });
    rg_end_rendering(g);
    test_expect_compiles(g);
}

Test(rg_validation, average_depth_resolve_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture ms = msaa(g, "msaa depth", VK_FORMAT_D32_SFLOAT);
    rg_texture single = test_tex(g, "depth", VK_FORMAT_D32_SFLOAT);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "pass",
        .depth = { .texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .resolve = single,
                   .resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT } });
    test_expect_refused_naming(g, RG_ERROR_INVALID_ARGUMENT, "resolve mode 0x2", "'msaa depth'");
}

Test(rg_validation, unknown_color_resolve_mode_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture ms = msaa(g, "msaa", VK_FORMAT_R8G8B8A8_UNORM);
    one_color_span(g, (rg_attachment){ .texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .resolve = test_color(g, "resolved"),
                                       .resolve_mode = (VkResolveModeFlagBits)3 },
                   (VkRect2D){ 0 });
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "resolve mode 0x3");
}

Test(rg_validation, render_area_outside_the_attachments_is_refused)
{
    const VkRect2D bad[] = {
        { { -1, 0 }, { 8, 8 } },   /* negative offset */
        { { 60, 0 }, { 8, 8 } },   /* past the right edge of 64 */
        { { 0, 0 }, { 64, 65 } },  /* one row too many */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rg_graph *g = test_graph();
        one_color_span(g, (rg_attachment){ .texture = test_color(g, "target"), .load = VK_ATTACHMENT_LOAD_OP_CLEAR },
                       bad[i]);
        test_expect_refused(g, RG_ERROR_BAD_RANGE, "render area");
    }
    rg_graph *g = test_graph(); /* the whole attachment is fine */
    rg_texture t = test_color(g, "target");
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "pass", .color_count = 1,
                                                .colors = { { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } },
                                                .area = { { 32, 32 }, { 32, 32 } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .record = test_noop });
    rg_end_rendering(g);
    test_expect_compiles(g);
}

Test(rg_validation, unknown_blit_filter_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture a = test_color(g, "a"), b = test_color(g, "b");
    rg_cmd_blit(g, a, 0, b, 0, (VkFilter)9);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "filter 9");
}
