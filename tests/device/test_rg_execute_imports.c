/* Imports on a device: an import re-pointed at another buffer or image
 * each frame without a recompile, and an image of another size than the
 * import's refused until the graph is declared again. Suite rg_execute
 * (test_rg_execute.c declares it). */
#include "device_fixture.h"
#include "rg_execute_support.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------- an import re-pointed per frame */

DEVICE_TEST(rg_execute, import_repointed_without_recompile)
{
    gpu g = exec_gpu_open();
    eng_pipeline *pipe = NULL;
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *images[2] = { NULL, NULL };
    eng_image_desc id = { .name = "frame image", .format = FMT, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    for (int i = 0; i < 2; i++)
        cr_assert_eq(eng_image_create(g.ctx, &id, &images[i]), ENG_SUCCESS, "%s", eng_last_error());

    /* Like a swapchain image: contents not needed, left ready to copy. */
    rg_graph *graph = exec_new_graph(&g);
    const eng_image_info *first = eng_image_get_info(images[0]);
    rg_texture target = rg_texture_import(graph, &(rg_texture_import_desc){
        .name = "frame", .image = first->image, .view = first->view, .format = FMT, .width = W, .height = H,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
        .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    float color[4] = { 1, 0, 0, 1 };
    solid_job job = { pipe, exec_full, color };
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "frame", .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "fill", .kind = RG_COMMAND_DRAW, .record = exec_draw_solid, .user = &job });
    rg_end_rendering(graph);
    exec_compile_ok(graph);
    exec_run_graph(&g, graph, 1);

    const eng_image_info *second = eng_image_get_info(images[1]);
    cr_assert_eq(rg_texture_set_image(graph, target, &(rg_import_image){
                     .image = second->image, .view = second->view, .format = second->format,
                     .width = second->extent.width, .height = second->extent.height, .usage = second->usage }),
                 RG_SUCCESS, "%s", rg_graph_error_message(graph));
    color[0] = 0;
    color[1] = 1;
    exec_run_graph(&g, graph, 1);

    uint8_t px[W * H * 4];
    static const uint8_t want[2][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 } };
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(eng_image_read(g.ctx, images[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, sizeof px),
                     ENG_SUCCESS, "%s", eng_last_error());
        exec_expect_pixel(px, 0, 0, want[i]);
        exec_expect_pixel(px, W - 1, H - 1, want[i]);
    }
    rg_graph_destroy(graph);
    for (int i = 0; i < 2; i++)
        eng_image_destroy(images[i]);
    eng_pipeline_destroy(pipe);
    exec_gpu_close(&g);
}

/* ------------------------- an image of another size than the import's */

/* The application's swapchain images at two sizes, rendered through an
 * import "backbuffer": cleared blue, the left half drawn red. */
typedef struct resize_frame {
    gpu *g;
    eng_pipeline *pipe;
    solid_job job;
    rg_graph *graph;
    rg_texture back;
} resize_frame;

static void declare_backbuffer(resize_frame *f, const eng_image_info *ii)
{
    static const float red[4] = { 1, 0, 0, 1 };
    f->job = (solid_job){ f->pipe, exec_left_half, red };
    f->back = rg_texture_import(f->graph, &(rg_texture_import_desc){
        .name = "backbuffer", .format = FMT, .width = ii->extent.width, .height = ii->extent.height,
        .usage = ii->usage, .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT, .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    rg_begin_rendering(f->graph, &(rg_rendering_desc){
        .name = "frame", .color_count = 1,
        .colors = { { .texture = f->back, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color = { .float32 = { 0, 0, 1, 1 } } } } } });
    rg_cmd_user(f->graph, &(rg_user_desc){ .name = "left half", .kind = RG_COMMAND_DRAW, .record = exec_draw_solid,
                                           .user = &f->job });
    rg_end_rendering(f->graph);
    exec_compile_ok(f->graph);
    cr_assert_eq(rg_place(f->graph), RG_SUCCESS, "%s", rg_graph_error_message(f->graph));
}

static rg_result give_image(resize_frame *f, const eng_image_info *ii)
{
    return rg_texture_set_image(f->graph, f->back, &(rg_import_image){
        .image = ii->image, .view = ii->view, .format = ii->format, .width = ii->extent.width,
        .height = ii->extent.height, .usage = ii->usage });
}

/* One frame as an application records it: the image given, and the graph
 * executed only when the image was taken. */
typedef struct resize_job {
    resize_frame *f;
    const eng_image_info *image;
    rg_result given, executed;
    bool recorded;
} resize_job;

static void record_resize_frame(VkCommandBuffer cmd, void *user)
{
    resize_job *j = user;
    j->given = give_image(j->f, j->image);
    if (j->given != RG_SUCCESS)
        return;
    j->executed = test_execute(j->f->graph, cmd);
    j->recorded = true;
}

/* Every pixel: red on the left half, blue on the right. */
static void expect_left_red(gpu *g, eng_image *image)
{
    const eng_image_info *ii = eng_image_get_info(image);
    uint32_t w = ii->extent.width, h = ii->extent.height;
    size_t size = (size_t)w * h * 4;
    uint8_t *px = malloc(size);
    cr_assert_not_null(px);
    cr_assert_eq(eng_image_read(g->ctx, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, size), ENG_SUCCESS, "%s",
                 eng_last_error());
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            bool left = x < w / 2;
            bad += p[0] != (left ? 255 : 0) || p[1] != 0 || p[2] != (left ? 0 : 255) || p[3] != 255;
        }
    cr_expect_eq(bad, 0, "%ux%u: %u pixels differ", w, h, bad);
    free(px);
}

/* Issue 35: a window resized to 640x360 while the graph still declares its
 * import 960x540. The smaller image is refused at rg_texture_set_image,
 * naming both extents, so nothing of that frame is recorded (before the
 * check the driver wrote past the image, and the validation layer
 * reported the render area). Declared again at 640x360, the graph renders
 * the new image exactly; the validation layer stays silent throughout. */
DEVICE_TEST(rg_execute, an_import_given_a_smaller_image_is_refused_until_redeclared)
{
    gpu g = exec_gpu_open();
    resize_frame f = { .g = &g };
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT, NULL, &f.pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *big = NULL, *small = NULL;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    cr_assert_eq(eng_image_create(g.ctx, &(eng_image_desc){ .name = "960x540", .format = FMT, .width = 960,
                                                            .height = 540, .usage = usage }, &big),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_image_create(g.ctx, &(eng_image_desc){ .name = "640x360", .format = FMT, .width = 640,
                                                            .height = 360, .usage = usage }, &small),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "frame", .device = eng_context_graph_device(g.ctx) },
                                 &f.graph),
                 RG_SUCCESS);
    declare_backbuffer(&f, eng_image_get_info(big));

    resize_job j = { &f, eng_image_get_info(big), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.given, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    cr_assert_eq(j.executed, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    expect_left_red(&g, big);

    /* The resize the graph was not told of. */
    j = (resize_job){ &f, eng_image_get_info(small), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(j.given, RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(f.graph),
                     "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 960x540, given 640x360: "
                     "re-declare or use a relative size");
    cr_expect_not(j.recorded, "nothing of the frame is recorded");
    cr_expect_eq(rg_graph_error(f.graph), RG_SUCCESS, "not kept");
    cr_expect_eq(rg_texture_image(f.graph, f.back), eng_image_get_info(big)->image, "the import kept its image");
    expect_no_validation_messages(g.ctx);

    /* Declared again at the new size: the small image renders right. */
    rg_graph_reset(f.graph);
    declare_backbuffer(&f, eng_image_get_info(small));
    j = (resize_job){ &f, eng_image_get_info(small), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.given, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    cr_assert_eq(j.executed, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    expect_left_red(&g, small);

    rg_graph_destroy(f.graph);
    eng_image_destroy(big);
    eng_image_destroy(small);
    eng_pipeline_destroy(f.pipe);
    exec_gpu_close(&g);
}
