/* Render graphs run as swapchain frames (eng_swapchain_present_graph) on an
 * offscreen swapchain, validation and synchronization validation on: a
 * clear on the graphics queue, a dispatch eligible for the compute queue
 * that writes a region of the cleared storage image, a draw on the graphics
 * queue that copies it texel for texel into the swapchain image, and a
 * copy of a buffer the application filled in frame.cmd before the graph.
 * Where the context has a compute queue that is three batches on two
 * queues (graphics, compute, graphics: two graphics command buffers of the
 * frame and one compute one); on one queue (lavapipe, single_queue) one
 * batch. Every captured frame is checked pixel by pixel against its own
 * region, over frames in flight. Also: the frame's exposed semaphores and
 * fence, its command buffers per queue, a frame submitted by hand
 * (eng_swapchain_present_submitted), and graphs that cannot record a
 * frame (failed compile, not compiled, stale backbuffer, a failing record
 * callback mid-frame): a clear error naming the call, the frame ended, the
 * next frame exact. The suite's other file:
 * test_frame_graph_failures.c; their helpers: frame_graph_support.c. */
#include "device_fixture.h"
#include "frame_graph_support.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <math.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(frame_graph, .init = device_setup, .fini = device_teardown);

#define FRAMES 7u

static bool has_compute_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_COMPUTE) != VK_NULL_HANDLE;
}

/* The batches: where the graph may use a compute queue the device has,
 * graphics (the clear), compute (the dispatch), graphics (the draw and the
 * frame's end) at least, the dispatch on compute; else one batch. The last
 * batch is on the graphics queue. */
static void expect_batches(const frame_graph *fg, bool multi)
{
    uint32_t n = rg_batch_count(fg->graph);
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(fg->graph, fg->dispatch, &info), RG_SUCCESS);
    uint32_t on[RG_QUEUE_COUNT] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(fg->graph, i, &b), RG_SUCCESS);
        cr_assert_lt(b.queue, RG_QUEUE_COUNT);
        on[b.queue]++;
        cr_log_info("batch %u of %u: %s", i, n, rg_queue_name(b.queue));
        if (i == n - 1)
            cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS, "the last batch runs on %s", rg_queue_name(b.queue));
    }
    if (multi && has_compute_queue()) {
        cr_expect_geq(n, 3, "a compute queue, yet %u batches", n);
        cr_expect_geq(on[RG_QUEUE_GRAPHICS], 2, "%u graphics batches", on[RG_QUEUE_GRAPHICS]);
        cr_expect_geq(on[RG_QUEUE_COMPUTE], 1, "no compute batch");
        cr_expect_eq(info.queue, RG_QUEUE_COMPUTE, "the dispatch runs on %s", rg_queue_name(info.queue));
    } else {
        cr_expect_eq(n, 1, "%u batches (compute queue: %d, single_queue: %d)", n, has_compute_queue(), !multi);
        cr_expect_eq(info.queue, RG_QUEUE_GRAPHICS);
    }
}

static void frames_test(const graph_opts *o)
{
    kit k;
    frame_graph fg;
    eng_swapchain *sc = fg_open(&k, &fg, o);
    expect_batches(&fg, !o->single_queue);
    fg_run_frames(sc, &fg, 0, FRAMES);
    fg_graph_close(&fg);
    eng_swapchain_destroy(sc);
    fg_kit_close(&k);
}

DEVICE_TEST(frame_graph, on_every_queue)
{
    frames_test(&(graph_opts){ 0 });
}

DEVICE_TEST(frame_graph, on_one_queue)
{
    frames_test(&(graph_opts){ .single_queue = true });
}

/* The image is finished from the state the graph leaves it in: an
 * import's final_layout UNDEFINED leaves it in the layout of its last use
 * (finished from every stage), another final layout is the graph's last
 * transition. The validation layer checks the finishing barrier's old
 * layout against the image's. */
DEVICE_TEST(frame_graph, backbuffer_left_as_last_used)
{
    frames_test(&(graph_opts){ .final = FINAL_UNDEFINED });
}

DEVICE_TEST(frame_graph, backbuffer_left_for_transfer)
{
    frames_test(&(graph_opts){ .final = FINAL_TRANSFER_SRC });
}

/* ------------------------------------------------------- synchronization */

static bool clear_only(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* The frame's semaphores and fence, its command buffers per queue, and a
 * frame submitted by hand: frame.cmd recorded with rg_execute, finished,
 * ended and submitted with frame.fence, then
 * eng_swapchain_present_submitted. */
DEVICE_TEST(frame_graph, exposed_synchronization_and_hand_submission)
{
    eng_swapchain *sc = fg_offscreen();
    VkDevice dev = eng_context_device(test_ctx);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "clear", .device = eng_context_graph_device(test_ctx) },
                                 &g),
                 RG_SUCCESS);
    rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){
                                               .name = "swapchain", .format = eng_swapchain_format(sc), .width = W,
                                               .height = H,
                                               .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                               .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT });
    rg_attachment a = { .texture = back, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                        .clear.color.float32 = { CLEAR, 0.0f, 0.0f, 1.0f } };
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .colors = { a }, .color_count = 1 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = clear_only });
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));

    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    /* Offscreen: nothing to acquire or present, the slot's fence alone,
     * unsignalled until the frame's last submission. */
    cr_expect_eq(frame.acquire_semaphore, VK_NULL_HANDLE);
    cr_expect_eq(frame.present_semaphore, VK_NULL_HANDLE);
    cr_assert_neq(frame.fence, VK_NULL_HANDLE);
    cr_expect_eq(vkGetFenceStatus(dev, frame.fence), VK_NOT_READY);

    /* One command buffer per call, of each kind's queue (the graphics
     * queue's family where there is no such queue): never frame.cmd, never
     * one handed out before. */
    VkCommandBuffer got[ENG_QUEUE_KIND_COUNT + 1];
    for (uint32_t i = 0; i <= ENG_QUEUE_KIND_COUNT; i++) {
        eng_queue_kind kind = i < ENG_QUEUE_KIND_COUNT ? (eng_queue_kind)i : ENG_QUEUE_GRAPHICS;
        eng_result r = eng_frame_command_buffer(sc, &frame, kind, &got[i]);
        cr_assert_eq(r, ENG_SUCCESS, "kind %u: %s", i, eng_last_error());
        cr_assert_neq(got[i], VK_NULL_HANDLE);
        cr_expect_neq(got[i], frame.cmd);
        for (uint32_t j = 0; j < i; j++)
            cr_expect_neq(got[i], got[j], "calls %u and %u gave one command buffer", j, i);
    }
    VkCommandBuffer none = got[0];
    cr_expect_eq(eng_frame_command_buffer(sc, &frame, ENG_QUEUE_KIND_COUNT, &none), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(none, VK_NULL_HANDLE);
    /* Those are left unsubmitted: the slot's next acquire resets them. */

    cr_assert_eq(rg_texture_set_image(g, back, &(rg_import_image){
                     .image = frame.image, .view = frame.view, .format = frame.format, .width = frame.extent.width,
                     .height = frame.extent.height, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT }),
                 RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute(g, frame.cmd), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
    eng_swapchain_finish_image(sc, &frame, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    cr_assert_eq(vkEndCommandBuffer(frame.cmd), VK_SUCCESS);
    VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                      .commandBuffer = frame.cmd };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                         .pCommandBufferInfos = &cbi };
    cr_assert_eq(vkQueueSubmit2(eng_context_queue(test_ctx), 1, &si, frame.fence), VK_SUCCESS);
    eng_frame kept = frame;
    cr_assert_eq(eng_swapchain_present_submitted(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(frame.cmd, VK_NULL_HANDLE);
    fg_expect_capture(sc, 0, 0, "hand-submitted frame");
    cr_expect_eq(vkGetFenceStatus(dev, kept.fence), VK_SUCCESS, "the capture was read, yet the fence is unsignalled");

    /* The frame is over: no more command buffers, no second present. */
    cr_expect_eq(eng_frame_command_buffer(sc, &kept, ENG_QUEUE_GRAPHICS, &none), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_present_submitted(sc, &kept), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_present(sc, &kept), ENG_ERROR_INVALID_ARGUMENT);

    /* Every slot comes round again (its pools reset with the command
     * buffers the first frame left recording); present_graph serves the
     * same single-queue graph. */
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
        cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        eng_result r = test_present_graph(sc, &frame, g, back);
        cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
        fg_expect_capture(sc, 0, 0, "present_graph frame");
    }
    eng_context_wait_idle(test_ctx);
    rg_graph_destroy(g);
    eng_swapchain_destroy(sc);
}
