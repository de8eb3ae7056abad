/* The offscreen swapchain (eng_swapchain_desc.offscreen) on the fixture's
 * headless context: frames rendered through a render graph into its own
 * images, captured exactly, resized, and its refusals. */
#include "device_fixture.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

TestSuite(offscreen, .init = device_setup, .fini = device_teardown);

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* One frame: the acquired image imported, cleared to `rgba` by a span's
 * load op, captured; returns the captured pixel at (0,0) packed RGBA and
 * checks every pixel equals it. */
static uint32_t render_frame(eng_swapchain *sc, const float rgba[4], VkExtent2D *extent)
{
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    *extent = frame.extent;
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "offscreen", .device = eng_context_graph_device(test_ctx) }, &g), RG_SUCCESS);
    rg_texture t = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "frame", .image = frame.image, .view = frame.view, .format = frame.format,
        .width = frame.extent.width, .height = frame.extent.height,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT });
    rg_attachment a = { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE };
    memcpy(a.clear.color.float32, rgba, sizeof a.clear.color.float32);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .colors = { a }, .color_count = 1 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = record_nothing });
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute(g, frame.cmd), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
    eng_swapchain_finish_image(sc, &frame, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    cr_assert_eq(eng_swapchain_present(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &h), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(w, frame.extent.width);
    cr_expect_eq(h, frame.extent.height);
    uint32_t first, bad = 0;
    memcpy(&first, px, 4);
    for (uint32_t i = 0; i < w * h; i++)
        bad += memcmp(px + 4 * i, &first, 4) != 0;
    cr_expect_eq(bad, 0, "%u of %u pixels differ from the first", bad, w * h);
    free(px);
    /* The graph's objects may be freed only once the frame is done: the
     * capture read waited for it. */
    rg_graph_destroy(g);
    return first;
}

DEVICE_TEST(offscreen, frames_capture_and_resize)
{
    eng_swapchain *sc = NULL;
    cr_assert_eq(eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .offscreen = true, .width = 40, .height = 24 },
                                      &sc),
                 ENG_SUCCESS, "%s", eng_last_error());
    VkFormat f = eng_swapchain_format(sc);
    cr_expect(f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_R8G8B8A8_SRGB, "format %d", (int)f);
    VkExtent2D e;
    /* sRGB encoding of 0.5 is 188 (0xbc); 1.0 and 0.0 stay. */
    uint32_t px = render_frame(sc, (float[4]){ 1.0f, 0.5f, 0.0f, 1.0f }, &e);
    cr_expect_eq(px, 0xff00bcffu, "RGBA bytes (little-endian) %08x", px);
    cr_expect_eq(e.width, 40);
    cr_expect_eq(e.height, 24);
    for (int i = 0; i < 3; i++) /* every slot, then the first again */
        render_frame(sc, (float[4]){ 0.0f, 0.0f, 1.0f, 1.0f }, &e);

    eng_swapchain_resize(sc, 17, 9);
    px = render_frame(sc, (float[4]){ 0.0f, 1.0f, 0.0f, 1.0f }, &e);
    cr_expect_eq(e.width, 17);
    cr_expect_eq(e.height, 9);
    cr_expect_eq(px, 0xff00ff00u, "RGBA bytes %08x", px);
    cr_expect_geq(eng_swapchain_recreate_count(sc), 1);

    eng_swapchain_resize(sc, 0, 0);
    eng_frame frame;
    cr_expect_eq(eng_swapchain_acquire(sc, &frame), ENG_NOT_READY, "a 0x0 offscreen swapchain has nothing to draw");
    eng_swapchain_destroy(sc);
}

DEVICE_TEST(offscreen, needs_a_size)
{
    eng_swapchain *sc = NULL;
    cr_expect_neq(eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .offscreen = true }, &sc), ENG_SUCCESS);
    cr_expect_null(sc);
    cr_expect(strstr(eng_last_error(), "width") || strstr(eng_last_error(), "size"), "%s", eng_last_error());
    /* Without offscreen, a headless context has no surface to present to. */
    cr_expect_neq(eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .width = 8, .height = 8 }, &sc),
                  ENG_SUCCESS);
    cr_expect_null(sc);
}
