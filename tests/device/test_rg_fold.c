/* Multisampling folded into the resolve targets (rendergraph.h
 * "Multisampling", VK_EXT_multisampled_render_to_single_sampled): a 4x
 * colour and depth span resolved into created textures renders the same
 * picture folded (AUTO) as the classic path (RG_FOLD_OFF), and folded
 * creates no multisampled image (RG_MEMORY_FOLDED, less pooled memory).
 * The rectangles are pixel-aligned, so the two pictures are equal byte
 * for byte. Needs the device's multisampledRenderToSingleSampled (the
 * engine enables it where offered: lavapipe does, NVIDIA's driver does
 * not, where the test is skipped). */
#include "device_fixture.h"
#include "rg_support.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <string.h>

TestSuite(rg_fold, .init = device_setup, .fini = device_teardown);

#define W 32
#define H 32
#define COLOR VK_FORMAT_R8G8B8A8_UNORM
#define DEPTH VK_FORMAT_D32_SFLOAT

typedef struct fold_job {
    eng_pipeline *pipeline;
} fold_job;

static bool draw_rect(const rg_record_context *rc, void *user)
{
    static const float rect[4] = {-1, -1, 0, 1}, green[4] = {0, 1, 0, 1};
    const eng_pipeline *pipeline = ((fold_job *)user)->pipeline;
    vkCmdBindPipeline(rg_record_cmd(rc), VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(pipeline));
    solid_draw(rg_record_cmd(rc), pipeline, rect, green, 0.5f);
    return true;
}

/* What one run left: the resolved colour and depth, and the memory. */
typedef struct fold_result {
    uint8_t color[W * H * 4];
    float depth[W * H];
    rg_memory_kind color_kind, depth_kind;
    char color_note[256], depth_note[256];
    VkDeviceSize pooled;
} fold_result;

enum { NO_DEPTH, DEPTH_RESOLVED, DEPTH_DISCARDED };

static fold_result render(rg_fold fold, int depth_mode)
{
    fold_result out = {0};
    eng_pipeline *pipe = NULL;
    bool with_depth = depth_mode != NO_DEPTH, resolved = depth_mode == DEPTH_RESOLVED;
    cr_assert_eq(solid_pipeline_create(test_ctx, COLOR, with_depth ? DEPTH : VK_FORMAT_UNDEFINED,
                                       VK_SAMPLE_COUNT_4_BIT, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_buffer *colors = test_host_buffer(sizeof out.color, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *depths = test_host_buffer(sizeof out.depth, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "fold", .device = eng_context_graph_device(test_ctx),
                                                  .msaa_fold = fold},
                                 &g),
                 RG_SUCCESS);
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){.name = "msaa color", .format = COLOR, .width = W,
                                                           .height = H, .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){.name = "color", .format = COLOR, .width = W,
                                                              .height = H});
    rg_rendering_desc rd = {.name = "scene", .color_count = 1};
    rd.colors[0] = (rg_attachment){.texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = color,
                                   .clear = {.color = {.float32 = {0, 0, 0, 1}}}};
    rg_texture msz = {0}, depth = {0};
    if (with_depth) {
        msz = rg_texture_create(g, &(rg_texture_desc){.name = "msaa depth", .format = DEPTH, .width = W, .height = H,
                                                      .samples = VK_SAMPLE_COUNT_4_BIT});
        if (resolved)
            depth = rg_texture_create(g, &(rg_texture_desc){.name = "depth", .format = DEPTH, .width = W,
                                                           .height = H});
        rd.depth = (rg_attachment){.texture = msz, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = depth,
                                   .resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
                                   .clear = {.depthStencil = {.depth = 1.0f}}};
    }
    fold_job job = {pipe};
    rg_begin_rendering(g, &rd);
    rg_cmd_user(g, &(rg_user_desc){.name = "rect", .kind = RG_COMMAND_DRAW, .record = draw_rect, .user = &job});
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, test_import_buffer(g, "colors", colors, true), 0);
    if (resolved)
        rg_cmd_copy_texture_to_buffer(g, depth, 0, 0, 1, test_import_buffer(g, "depths", depths, true), 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    test_run(g, 2);
    memcpy(out.color, eng_buffer_mapped(colors), sizeof out.color);
    if (resolved)
        memcpy(out.depth, eng_buffer_mapped(depths), sizeof out.depth);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, ms, &info), RG_SUCCESS);
    out.color_kind = info.memory;
    snprintf(out.color_note, sizeof out.color_note, "%s", info.fold ? info.fold : "");
    if (with_depth) {
        cr_assert_eq(rg_texture_get_info(g, msz, &info), RG_SUCCESS);
        out.depth_kind = info.memory;
        snprintf(out.depth_note, sizeof out.depth_note, "%s", info.fold ? info.fold : "");
    }
    out.pooled = rg_memory_get_totals(g).pooled;
    rg_graph_destroy(g);
    eng_buffer_destroy(colors);
    eng_buffer_destroy(depths);
    eng_pipeline_destroy(pipe);
    return out;
}

static void require_fold(void)
{
    if (!rg_device_get_caps(eng_context_graph_device(test_ctx)).msaa_to_single_sampled)
        cr_skip_test("the device has no multisampledRenderToSingleSampled");
}

static void expect_same_picture(const fold_result *folded, const fold_result *classic, bool with_depth)
{
    uint32_t differ = 0;
    for (uint32_t i = 0; i < W * H * 4; i++)
        differ += folded->color[i] != classic->color[i];
    cr_expect_eq(differ, 0, "%u colour bytes differ between the folded and the classic path", differ);
    const uint8_t *inside = &folded->color[(H / 2 * W + 2) * 4], *outside = &folded->color[(H / 2 * W + W - 2) * 4];
    cr_expect(inside[1] == 255 && inside[0] == 0, "the rectangle is not green: %u,%u,%u", inside[0], inside[1],
              inside[2]);
    cr_expect(outside[1] == 0, "outside the rectangle is not black: %u,%u,%u", outside[0], outside[1], outside[2]);
    if (!with_depth)
        return;
    differ = 0;
    for (uint32_t i = 0; i < W * H; i++)
        differ += folded->depth[i] != classic->depth[i];
    cr_expect_eq(differ, 0, "%u depth values differ between the folded and the classic path", differ);
    cr_expect(folded->depth[H / 2 * W + 2] == 0.5f && folded->depth[H / 2 * W + W - 2] == 1.0f,
              "depth inside %g, outside %g: want 0.5 and 1", folded->depth[H / 2 * W + 2],
              folded->depth[H / 2 * W + W - 2]);
}

DEVICE_TEST(rg_fold, colour_renders_as_the_classic_path_without_a_multisampled_image)
{
    require_fold();
    fold_result folded = render(RG_FOLD_AUTO, NO_DEPTH), classic = render(RG_FOLD_OFF, NO_DEPTH);
    expect_same_picture(&folded, &classic, false);
    cr_expect_eq(folded.color_kind, RG_MEMORY_FOLDED);
    cr_expect_neq(classic.color_kind, RG_MEMORY_FOLDED);
    cr_expect(strstr(folded.color_note, "folded: span 'scene' renders it into 'color'"), "%s", folded.color_note);
    cr_expect(strstr(classic.color_note, "not folded in span 'scene': folding is off"), "%s", classic.color_note);
    cr_expect_lt(folded.pooled, classic.pooled, "folded pools %llu bytes, the classic path %llu",
                 (unsigned long long)folded.pooled, (unsigned long long)classic.pooled);
}

DEVICE_TEST(rg_fold, colour_and_depth_render_as_the_classic_path)
{
    require_fold();
    if (!(eng_context_properties(test_ctx)->limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x depth attachments");
    fold_result folded = render(RG_FOLD_AUTO, DEPTH_RESOLVED), classic = render(RG_FOLD_OFF, DEPTH_RESOLVED);
    expect_same_picture(&folded, &classic, true);
    cr_expect_eq(folded.color_kind, RG_MEMORY_FOLDED);
    cr_expect_eq(folded.depth_kind, RG_MEMORY_FOLDED);
    cr_expect_neq(classic.depth_kind, RG_MEMORY_FOLDED);
}

/* The common pattern: colour resolved, depth tested and discarded. The
 * depth buffer folds in place (one sample, rendered at four): the
 * rectangle still passes the depth test against the cleared 1.0. */
DEVICE_TEST(rg_fold, a_discarded_depth_buffer_folds_in_place)
{
    require_fold();
    if (!(eng_context_properties(test_ctx)->limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x depth attachments");
    fold_result folded = render(RG_FOLD_AUTO, DEPTH_DISCARDED), classic = render(RG_FOLD_OFF, DEPTH_DISCARDED);
    expect_same_picture(&folded, &classic, false);
    cr_expect_eq(folded.color_kind, RG_MEMORY_FOLDED);
    cr_expect_neq(folded.depth_kind, RG_MEMORY_FOLDED, "folded in place: created, at one sample");
    cr_expect(strstr(folded.depth_note, "folded in place: span 'scene'"), "%s", folded.depth_note);
    cr_expect_lt(folded.pooled, classic.pooled);
}
