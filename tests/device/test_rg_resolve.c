/* Resolve attachments on a device: multisampled depth and color resolved
 * into created single-sample textures, read back exactly. Into layer 1 of a
 * two-layer texture, the graph must make a view of exactly that layer for
 * the resolve (the whole-image view would resolve into layer 0): that is
 * how a depth resolve got the wrong view before, while color resolves had
 * theirs. Lavapipe resolves into layer 0 of whatever view it is given (Mesa
 * 22.3 for color and depth, Mesa 25.0 for depth), so those layer-1 cases
 * run on other drivers only (they pass on the NVIDIA H200); the layer-0
 * case runs everywhere. */
#include "device_fixture.h"
#include "rg_support.h"

#include <criterion/criterion.h>
#include <string.h>

TestSuite(rg_resolve, .init = device_setup, .fini = device_teardown);

#define W 16
#define H 16

/* Clears a 4x multisampled texture of `format` to 0.25 and resolves it
 * into `layer` of a created two-layer texture; returns how many of the
 * read-back values differ from 0.25. */
static uint32_t resolve_and_count_wrong(VkFormat format, bool depth, uint32_t layer)
{
    enum { BYTES = W * H * 4 };
    eng_buffer *down = test_host_buffer(BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("resolve");
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){ .name = "multisampled", .format = format, .width = W,
                                                             .height = H, .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_texture single = rg_texture_create(g, &(rg_texture_desc){ .name = "resolved", .format = format, .width = W,
                                                                 .height = H, .array_layers = 2 });
    rg_attachment a = { .texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                        .resolve = single, .resolve_layer = layer };
    rg_rendering_desc rd = { .name = "resolve" };
    if (depth) {
        a.clear.depthStencil.depth = 0.25f;
        a.resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
        rd.depth = a;
    } else {
        a.clear.color.float32[0] = 0.25f;
        rd.colors[0] = a;
        rd.color_count = 1;
    }
    rg_begin_rendering(g, &rd);
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    rg_buffer out = test_import_buffer(g, "down", down, true);
    rg_cmd_copy_texture_to_buffer(g, single, 0, layer, 1, out, 0);
    test_compile(g);
    test_run(g, 2);
    cr_expect(rg_texture_is_transient(g, ms), "the multisampled texture never leaves its pass");
    const float *v = eng_buffer_mapped(down);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < W * H; i++)
        bad += v[i] != 0.25f;
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
    return bad;
}

static void require_4x_depth(void)
{
    if (!(eng_context_properties(test_ctx)->limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x depth attachments");
}

DEVICE_TEST(rg_resolve, depth_into_layer_0)
{
    require_4x_depth();
    uint32_t bad = resolve_and_count_wrong(VK_FORMAT_D32_SFLOAT, true, 0);
    cr_expect_eq(bad, 0, "%u of %u resolved depth values differ from 0.25", bad, W * H);
}

DEVICE_TEST(rg_resolve, depth_into_layer_1)
{
    require_4x_depth();
    test_skip_if_resolve_ignores_base_layer(true);
    uint32_t bad = resolve_and_count_wrong(VK_FORMAT_D32_SFLOAT, true, 1);
    cr_expect_eq(bad, 0, "%u of %u resolved depth values differ from 0.25", bad, W * H);
}

DEVICE_TEST(rg_resolve, color_into_layer_1)
{
    test_skip_if_resolve_ignores_base_layer(false);
    uint32_t bad = resolve_and_count_wrong(VK_FORMAT_R32_SFLOAT, false, 1);
    cr_expect_eq(bad, 0, "%u of %u resolved values differ from 0.25", bad, W * H);
}
