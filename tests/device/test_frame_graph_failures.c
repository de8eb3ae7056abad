/* Render graphs that cannot record a swapchain frame (a failed compile,
 * not compiled, a stale backbuffer, a record callback failing mid-frame):
 * a clear error naming the call, the frame ended, the next frame exact.
 * Suite frame_graph (test_frame_graph.c declares it). */
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

/* -------------------------------------------------------------- failures */

/* present_graph refuses the frame with `want` and a message naming the
 * call and holding `part`; the frame is over either way. */
static void expect_refused(eng_swapchain *sc, rg_graph *g, rg_texture back, eng_result want, const char *part)
{
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    eng_result r = eng_swapchain_present_graph(sc, &frame, g, back);
    const char *msg = eng_last_error();
    cr_log_info("refused: %s: %s", eng_result_string(r), msg);
    cr_expect_eq(r, want, "%s: %s", eng_result_string(r), msg);
    cr_expect(strncmp(msg, "eng_swapchain_present_graph: ", 29) == 0, "the message does not name the call: %s", msg);
    cr_expect(strstr(msg, part) != NULL, "the message lacks '%s': %s", part, msg);
    /* Not ended, the slot's fence would never signal: stop here. */
    cr_assert_eq(frame.cmd, VK_NULL_HANDLE, "the refused frame was not ended");
}

/* Graphs that cannot record a frame: one that failed to compile, one never
 * compiled, a stale backbuffer handle. Each frame is ended without the
 * graph, and the frames after it run a good graph exactly. */
DEVICE_TEST(frame_graph, graphs_that_cannot_run)
{
    kit k;
    frame_graph fg;
    eng_swapchain *sc = fg_open(&k, &fg, &(graph_opts){ 0 });
    fg_run_frames(sc, &fg, 0, 2);

    rg_graph *bad = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "bad", .device = eng_context_graph_device(test_ctx) },
                                 &bad),
                 RG_SUCCESS);
    rg_texture bad_back = rg_texture_import(bad, &(rg_texture_import_desc){
                                                     .name = "swapchain", .format = k.format, .width = W,
                                                     .height = H });
    /* Declared but not compiled. */
    expect_refused(sc, bad, bad_back, ENG_ERROR_INVALID_ARGUMENT, "not compiled");
    /* A span ended without a beginning: compile fails, and the graph's
     * message is relayed. */
    rg_end_rendering(bad);
    cr_assert_neq(rg_compile(bad), RG_SUCCESS);
    char compile_message[512];
    snprintf(compile_message, sizeof compile_message, "%s", rg_graph_error_message(bad));
    cr_log_info("compile: %s", compile_message);
    expect_refused(sc, bad, bad_back, ENG_ERROR_INVALID_ARGUMENT, compile_message);
    /* No backbuffer (a zero handle), then no graph. */
    expect_refused(sc, fg.graph, (rg_texture){ 0 }, ENG_ERROR_INVALID_ARGUMENT, "rg_texture_set_image");
    /* A resize the graph was not declared again for: the swapchain's
     * smaller images are refused before anything is recorded; back at the
     * declared size the graph runs again. */
    eng_swapchain_resize(sc, W / 2, H / 2);
    expect_refused(sc, fg.graph, fg.back, ENG_ERROR_INVALID_ARGUMENT,
                   "rg_texture_set_image: graph 'frame': import 'swapchain' declared 24x16, given 12x8: re-declare "
                   "or use a relative size");
    eng_swapchain_resize(sc, W, H);
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_swapchain_present_graph(sc, &frame, NULL, fg.back), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(frame.cmd, VK_NULL_HANDLE);
    cr_expect_eq(eng_swapchain_present_graph(sc, &frame, fg.graph, fg.back), ENG_ERROR_INVALID_ARGUMENT,
                 "a frame already over");
    cr_expect_eq(eng_swapchain_present_graph(NULL, &frame, fg.graph, fg.back), ENG_ERROR_INVALID_ARGUMENT);

    fg_run_frames(sc, &fg, 2, 4);
    rg_graph_destroy(bad);
    fg_graph_close(&fg);
    eng_swapchain_destroy(sc);
    fg_kit_close(&k);
}

/* The draw's callback fails in the frame's last graphics batch, after the
 * other batches were recorded (on a compute queue too, where there is
 * one): the frame is dropped whole, the graph stays as before (its
 * timeline values unspent), and the next frames, on the same graph, are
 * exact and silent under synchronization validation. */
DEVICE_TEST(frame_graph, record_callback_fails_mid_frame)
{
    kit k;
    frame_graph fg;
    eng_swapchain *sc = fg_open(&k, &fg, &(graph_opts){ 0 });
    fg_run_frames(sc, &fg, 0, 3);
    fg.fail_draw = true;
    expect_refused(sc, fg.graph, fg.back, ENG_ERROR_INVALID_ARGUMENT, "'show' failed to record");
    expect_refused(sc, fg.graph, fg.back, ENG_ERROR_INVALID_ARGUMENT, "'show' failed to record");
    fg.fail_draw = false;
    fg_run_frames(sc, &fg, 3, 4);
    fg_graph_close(&fg);
    eng_swapchain_destroy(sc);
    fg_kit_close(&k);
}
