/* A 4x MSAA render through transient color and depth attachments, resolved
 * into a single-sample image, read back and compared exactly; then a second
 * submission with the same transient attachments shows nothing survives. */
#include "device_fixture.h"
#include "test_rendering.h"
#include "test_barrier.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

TestSuite(render, .init = device_setup, .fini = device_teardown);

#define W 64
#define H 64
/* The blue draw's scissor, in pixels. */
#define SX 16
#define SY 8
#define SW 24
#define SH 40

static const float full[4] = { -1.0f, -1.0f, 1.0f, 1.0f };
static const float red[4] = { 1, 0, 0, 1 };
static const float green[4] = { 0, 1, 0, 1 };
static const float blue[4] = { 0, 0, 1, 1 };

typedef struct frame_job {
    const eng_image_info *color;   /* 4x transient */
    const eng_image_info *depth;   /* 4x transient */
    const eng_image_info *resolve; /* 1x, read back */
    const eng_pipeline *pipeline;
    int frame;
} frame_job;

static void record_frame(VkCommandBuffer cmd, void *user)
{
    const frame_job *j = user;
    const VkPipelineStageFlags2 color_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkPipelineStageFlags2 depth_stages =
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    /* The source scopes cover the previous submission's use of the same
     * images: the previous frame's attachment writes and resolve (color
     * attachment output), and the readback's copy of the resolve image. */
    VkImageMemoryBarrier2 b[3] = {
        test_image_from_undefined(j->color, color_stage, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, color_stage,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        test_image_from_undefined(j->depth, depth_stages, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, depth_stages,
                                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        test_image_from_undefined(j->resolve, color_stage | VK_PIPELINE_STAGE_2_COPY_BIT,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, color_stage,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    };
    test_image_barriers(cmd, 3, b);

    /* Transient: only the resolve leaves the pass. */
    VkRenderingAttachmentInfo color = test_color_attachment(j->color, j->resolve, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                            VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                                            (VkClearColorValue){ { 0, 0, 0, 1 } });
    VkRenderingAttachmentInfo depth = test_depth_cleared(j->depth);
    test_begin_rendering(cmd, W, H, &color, 1, &depth);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    test_whole_viewport(cmd, W, H);
    if (j->frame == 1) {
        solid_draw(cmd, j->pipeline, full, red, 0.5f);
        solid_draw(cmd, j->pipeline, full, green, 0.7f); /* behind red: depth test LESS fails */
        /* In front, cut by the scissor on its right and bottom. Its left and
         * top edges are the rectangle's own, on the scissor's: lavapipe
         * (Mesa 22.3.6) applies a multisampled scissor's minimum edges half a
         * pixel early (the column left of and the row above the scissor get
         * the 2 of 4 samples that lie past the pixel centre: 128,0,128),
         * against the spec's per-pixel scissor test. The single-sample test
         * below checks all four scissor edges. */
        const float blue_rect[4] = { -1.0f + 2.0f * SX / W, -1.0f + 2.0f * SY / H, 1.0f, 1.0f };
        VkRect2D sub = { { SX, SY }, { SW, SH } };
        vkCmdSetScissor(cmd, 0, 1, &sub);
        solid_draw(cmd, j->pipeline, blue_rect, blue, 0.3f);
    } else {
        /* Would be hidden by frame 1's depth (0.5, 0.3) if anything survived. */
        solid_draw(cmd, j->pipeline, full, green, 0.7f);
    }
    vkCmdEndRendering(cmd);
}

static void expect_pixels(const uint8_t *px, int frame)
{
    int bad = 0;
    char first[160] = "";
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint8_t want[4];
            if (frame == 2) {
                memcpy(want, (uint8_t[4]){ 0, 255, 0, 255 }, 4);
            } else if (x >= SX && x < SX + SW && y >= SY && y < SY + SH) {
                memcpy(want, (uint8_t[4]){ 0, 0, 255, 255 }, 4);
            } else {
                memcpy(want, (uint8_t[4]){ 255, 0, 0, 255 }, 4);
            }
            const uint8_t *got = px + (y * W + x) * 4;
            if (memcmp(got, want, 4) != 0) {
                if (!bad++)
                    snprintf(first, sizeof first, "(%d,%d) = %u,%u,%u,%u, want %u,%u,%u,%u", x, y, got[0], got[1],
                             got[2], got[3], want[0], want[1], want[2], want[3]);
            }
        }
    }
    cr_expect_eq(bad, 0, "frame %d: %d of %d pixels differ; first %s", frame, bad, W * H, first);
}

DEVICE_TEST(render, msaa_transient_depth_scissor_resolve)
{
    eng_context *ctx = test_ctx;
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(ctx)->limits;
    cr_assert(lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT,
              "4x MSAA is required of every Vulkan device");

    eng_image *color = NULL, *depth = NULL, *resolve = NULL;
    eng_attachment_desc cd = { .name = "msaa color", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                               .samples = VK_SAMPLE_COUNT_4_BIT };
    eng_attachment_desc dd = { .name = "msaa depth", .format = VK_FORMAT_D32_SFLOAT, .width = W, .height = H,
                               .samples = VK_SAMPLE_COUNT_4_BIT };
    eng_image_desc rd = { .name = "resolved", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    cr_assert_eq(eng_attachment_create(ctx, &cd, &color), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_attachment_create(ctx, &dd, &depth), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_image_create(ctx, &rd, &resolve), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect(eng_image_get_info(color)->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
    cr_expect(eng_image_get_info(depth)->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);

    eng_pipeline *pipe = NULL;
    eng_result r = solid_pipeline_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_4_BIT,
                                         NULL, &pipe);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());

    static uint8_t px[W * H * 4];
    frame_job job = { eng_image_get_info(color), eng_image_get_info(depth), eng_image_get_info(resolve), pipe, 1 };
    for (int frame = 1; frame <= 2; frame++) {
        job.frame = frame;
        r = eng_context_submit_once(ctx, record_frame, &job);
        cr_assert_eq(r, ENG_SUCCESS, "frame %d: %s", frame, eng_last_error());
        memset(px, 0xAB, sizeof px);
        r = eng_image_read(ctx, resolve, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px);
        cr_assert_eq(r, ENG_SUCCESS, "frame %d readback: %s", frame, eng_last_error());
        expect_pixels(px, frame);
        expect_no_validation_messages(ctx);
    }
    eng_pipeline_destroy(pipe);
    eng_image_destroy(resolve);
    eng_image_destroy(depth);
    eng_image_destroy(color);
}

typedef struct simple_job {
    const eng_image_info *t, *d;
    const eng_pipeline *p;
} simple_job;

static void record_simple(VkCommandBuffer cmd, void *user)
{
    const simple_job *j = user;
    VkImageMemoryBarrier2 b[2] = {
        test_image_from_undefined(j->t, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        test_image_from_undefined(
            j->d, VK_PIPELINE_STAGE_2_NONE, 0,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
    };
    test_image_barriers(cmd, 2, b);
    VkRenderingAttachmentInfo color = test_color_attachment(j->t, NULL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                            VK_ATTACHMENT_STORE_OP_STORE, (VkClearColorValue){ { 0 } });
    VkRenderingAttachmentInfo depth = test_depth_cleared(j->d);
    test_begin_rendering(cmd, W, H, &color, 1, &depth);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->p));
    test_whole_viewport(cmd, W, H);
    const float left[4] = { -1, -1, 0, 1 };
    solid_draw(cmd, j->p, left, green, 0.2f);
    solid_draw(cmd, j->p, full, red, 0.6f);
    VkRect2D sub = { { SX, SY }, { SW, SH } };
    vkCmdSetScissor(cmd, 0, 1, &sub);
    solid_draw(cmd, j->p, full, blue, 0.1f);
    vkCmdEndRendering(cmd);
}

/* Single-sample rendering straight into the read-back image: the depth
 * test and a scissor with all four edges inside the frame, no resolve. */
DEVICE_TEST(render, single_sample_depth_order)
{
    eng_context *ctx = test_ctx;
    eng_image *target = NULL, *depth = NULL;
    eng_image_desc td = { .name = "target", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    eng_attachment_desc dd = { .name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = W, .height = H };
    cr_assert_eq(eng_image_create(ctx, &td, &target), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_attachment_create(ctx, &dd, &depth), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline *pipe = NULL;
    cr_assert_eq(solid_pipeline_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, 0, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());

    simple_job j = { eng_image_get_info(target), eng_image_get_info(depth), pipe };
    cr_assert_eq(eng_context_submit_once(ctx, record_simple, &j), ENG_SUCCESS, "%s", eng_last_error());
    static uint8_t px[W * H * 4];
    cr_assert_eq(eng_image_read(ctx, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    /* Left half: green (0.2) in front of red (0.6); right half: red only;
     * blue (0.1) in front of both inside the scissor. */
    int bad = 0;
    char first[128] = "";
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + (y * W + x) * 4;
            bool in = x >= SX && x < SX + SW && y >= SY && y < SY + SH;
            uint8_t want[4] = { in ? 0 : x < W / 2 ? 0 : 255, in ? 0 : x < W / 2 ? 255 : 0, in ? 255 : 0, 255 };
            if (memcmp(p, want, 4) != 0 && !bad++)
                snprintf(first, sizeof first, "(%d,%d) = %u,%u,%u,%u, want %u,%u,%u,%u", x, y, p[0], p[1], p[2], p[3],
                         want[0], want[1], want[2], want[3]);
        }
    cr_expect_eq(bad, 0, "%d pixels differ; first %s", bad, first);
    eng_pipeline_destroy(pipe);
    eng_image_destroy(depth);
    eng_image_destroy(target);
}
