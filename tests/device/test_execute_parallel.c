/* Parallel recording (rendergraph.h, "Parallel recording") on a device: a
 * frame begun with rg_execute_begin and cut into chunks, each chunk
 * recorded into a command buffer of its own (from a pool of its own) on
 * real threads (rg_workers, one POSIX thread per chunk) or by a loop on the
 * calling thread, holds exactly what rg_execute (rg_execute_batches)
 * records once the suspend/resume pairs at the cuts are taken out; the
 * frame renders byte for byte what rg_execute renders; frames allocate
 * nothing once the graph has recorded with as many chunks; and every
 * misuse and failed callback is a result code with a message, the history
 * left as it was.
 *
 * The calls are seen through the graph's function table: a device whose
 * vkGetDeviceProcAddr (and vkGetInstanceProcAddr, for the debug labels)
 * hands out loggers for barriers, rendering begins and ends, viewports,
 * scissors, local-read state and labels, which write each call as text to
 * the log of the command buffer it records into and forward to the driver
 * (as tests/device/test_rg_recording.c does, there for one command
 * buffer). Each command buffer's log is its recording thread's alone: the
 * logs are registered before the chunks record and concatenated in chunk
 * order afterwards. Every frame is submitted and waited for, under
 * validation and synchronization validation (the fixture fails a test on
 * any message), so suspended and resumed instances are checked by the
 * layer at submission too. The suite's other files: test_execute_parallel_allocations.c,
 * test_execute_parallel_misuse.c, test_execute_parallel_random.c; their
 * helpers: parallel_*.c (parallel_support.h). */
#include "device_fixture.h"
#include "parallel_support.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

TestSuite(execute_parallel, .init = device_setup, .fini = device_teardown);

/* Work eligible for async compute (user commands over storage buffers, a
 * color clear, a copy) beside a span of draws that reads what compute
 * wrote: several batches on a device with a compute-only queue family,
 * one batch where it has none (lavapipe). The readback gets the draws and
 * the cleared texture as the compute queue copied it. */
static rg_graph *declare_multi(rg_device *dev, scene *s)
{
    /* The batch order: the memory order runs the compute passes first and
     * the span right after 'lut build', which puts the depth buffer and
     * the noise texture cleared after the span in the same bytes. Cut into
     * chunks that resume and suspend the span, Mesa 22's lavapipe (Debian
     * 12) then lets the clear overwrite the depth buffer before the span's
     * draws are rasterized, although the recorded frame is the same and
     * synchronization validation finds nothing; Mesa 25's renders it
     * right. The batch order keeps the cuts this test was written for. */
    rg_graph *g = parallel_graph((rg_graph_desc){ .name = "queues", .device = dev, .merge = RG_MERGE_OFF,
                                                  .order = RG_ORDER_BATCHES });
    rg_texture color = parallel_color_texture(g, "color"), noise = parallel_color_texture(g, "noise");
    rg_texture depth = parallel_depth_texture(g);
    rg_buffer lut = rg_buffer_create(g, &(rg_buffer_desc){ .name = "lut", .size = 4096 });
    rg_buffer stats = rg_buffer_create(g, &(rg_buffer_desc){ .name = "stats", .size = 4096 });
    rg_buffer noise_copy = rg_buffer_create(g, &(rg_buffer_desc){ .name = "noise copy", .size = PIXELS_BYTES });
    rg_buffer out = test_import_buffer(g, "readback", s->readback, true);
    char name[32];

    rg_access write_lut = { .buffer = lut, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    parallel_add_user(g, s, "lut build", 3, RG_QUEUE_COMPUTE, &write_lut, 1, RG_COMMAND_OUTSIDE, NULL);
    rg_command clear = rg_cmd_clear_texture(g, noise, NULL, &(VkClearValue){ .color.float32 = { 0.25f, 0.5f, 0.75f, 1 } });
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    s->cost += 1;
    for (uint32_t i = 0; i < 6; i++) {
        rg_access a[2] = { { .buffer = lut, .usage = RG_USAGE_STORAGE_READ_COMPUTE },
                           { .buffer = stats, .usage = i == 0 ? RG_USAGE_STORAGE_WRITE_COMPUTE
                                                               : RG_USAGE_STORAGE_READ_WRITE_COMPUTE } };
        snprintf(name, sizeof name, "stats %u", i);
        parallel_add_user(g, s, name, 2, RG_QUEUE_COMPUTE, a, 2, RG_COMMAND_OUTSIDE, NULL);
    }
    rg_command copy = rg_cmd_copy_texture_to_buffer(g, noise, 0, 0, 1, noise_copy, 0);
    rg_command_allow_queue(g, copy, RG_QUEUE_COMPUTE);
    s->cost += 1;

    parallel_begin_scene(g, "main", color, (const float[4]){ 0, 0, 0.2f, 1 }, depth, VK_ATTACHMENT_STORE_OP_DONT_CARE);
    rg_access read_lut = { .buffer = lut, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    for (uint32_t i = 0; i < 10; i++) {
        snprintf(name, sizeof name, "draw %u", i);
        parallel_add_user(g, s, name, 2, RG_QUEUE_GRAPHICS, &read_lut, 1, RG_COMMAND_DRAW, s->with_depth);
    }
    rg_end_rendering(g);
    rg_access read_stats = { .buffer = stats, .usage = RG_USAGE_STORAGE_READ_COMPUTE };
    parallel_add_user(g, s, "post", 1, RG_QUEUE_GRAPHICS, &read_stats, 1, RG_COMMAND_OUTSIDE, NULL);
    rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, out, 0);
    rg_cmd_copy_buffer(g, noise_copy, 0, out, PIXELS_BYTES, PIXELS_BYTES);
    s->cost += 2;
    test_compile(g);
    return g;
}

/* Two spans merged into one rendering instance where the device has local
 * read: a G-buffer pass and a lighting pass reading it per pixel (a
 * by-region barrier between them), then a compute-stage read and a copy
 * out. The commands record no draws (their pipelines would need the
 * instance's attachment mapping): what is checked is the recording and
 * the layer's view of it. Costs put a cut right at the second span's
 * begin (between the merged spans) for 2 and 4 chunks, and inside the
 * spans for others. */
static rg_graph *declare_merged(rg_device *dev, scene *s)
{
    rg_graph *g = parallel_graph((rg_graph_desc){ .name = "merged", .device = dev, .merge = RG_MERGE_ON });
    rg_texture a = parallel_color_texture(g, "a"), b = parallel_color_texture(g, "b"), c = parallel_color_texture(g, "c");
    rg_buffer out = test_import_buffer(g, "readback", s->readback, true);
    char name[32];
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "gbuffer", .color_count = 2,
        .colors = { { .texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR },
                    { .texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } } });
    for (uint32_t i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "scene %u", i);
        parallel_add_user(g, s, name, 2, RG_QUEUE_GRAPHICS, NULL, 0, RG_COMMAND_DRAW, NULL);
    }
    rg_end_rendering(g);
    rg_access reads[2] = { { .texture = a, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true },
                           { .texture = b, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true } };
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "light", .color_count = 1,
        .colors = { { .texture = c, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color.float32 = { 0.5f, 0.25f, 0, 1 } } } } });
    for (uint32_t i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "light %u", i);
        parallel_add_user(g, s, name, i >= 4 ? 1 : 2, RG_QUEUE_GRAPHICS, reads, 2, RG_COMMAND_DRAW, NULL);
    }
    rg_end_rendering(g);
    rg_access read_c = { .texture = c, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true };
    parallel_add_user(g, s, "read c", 0, RG_QUEUE_GRAPHICS, &read_c, 1, RG_COMMAND_OUTSIDE, NULL);
    rg_cmd_copy_texture_to_buffer(g, c, 0, 0, 1, out, 0);
    s->cost += 1;
    test_compile(g);
    return g;
}

/* ----------------------------------------------------------------- tests */

static const uint32_t sweep_maxes[] = { 1, 2, 3, 4, 8, 16 };

#define SWEEP_COUNT (sizeof sweep_maxes / sizeof sweep_maxes[0])

/* One queue: the chunks, concatenated without the suspend/resume pairs
 * their cuts add, are what rg_execute records, call for call; the frame
 * renders what rg_execute's renders; chunks cut spans. */
DEVICE_TEST(execute_parallel, chunks_record_what_execute_records)
{
    rg_device *dev = parallel_logging_device();
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = parallel_declare_single(dev, NULL, s, NULL, false);
    cr_assert_eq(rg_batch_count(g), 1);
    cut_stats st = { 0 };
    parallel_sweep(g, s, sweep_maxes, SWEEP_COUNT, 2 * PIXELS_BYTES, &st);
    cr_expect_gt(st.resumed_in_span, 0, "no chunk began inside a span");
    cr_expect_gt(st.suspended_twice, 0, "no instance was cut twice");
    cr_log_info("one queue: %u resumed chunks, %u inside spans, %u cut twice", st.resumed, st.resumed_in_span,
                st.suspended_twice);
    rg_graph_destroy(g);
    parallel_scene_close(s);
    free(s);
    rg_device_destroy(dev);
}

/* Spans merged through local read: a chunk that resumes between the
 * merged spans begins the instance again and leaves the next span's begin
 * to set its state; one that resumes inside the second span sets the
 * span's attachment locations and input indices again. Skips where the
 * device lacks VK_KHR_dynamic_rendering_local_read (a Vulkan 1.4 device
 * must have it: there it fails under ENG_REQUIRE_DEVICE). */
DEVICE_TEST(execute_parallel, merged_chunks_record_what_execute_records)
{
    if (!eng_context_local_read(test_ctx).supported) {
        uint32_t version = eng_context_properties(test_ctx)->apiVersion;
        if (device_required() && version >= VK_MAKE_API_VERSION(0, 1, 4, 0))
            cr_assert_fail("a Vulkan 1.4 device without " VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME);
        cr_skip_test("'%s' (Vulkan %u.%u) offers no " VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME,
                     eng_context_properties(test_ctx)->deviceName, VK_API_VERSION_MAJOR(version),
                     VK_API_VERSION_MINOR(version));
    }
    rg_device *dev = parallel_logging_device();
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = declare_merged(dev, s);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m;
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    cr_assert(m.merged, "the spans did not merge: %s", m.reason);
    cut_stats st = { 0 };
    parallel_sweep(g, s, sweep_maxes, SWEEP_COUNT, PIXELS_BYTES, &st);
    cr_expect_gt(st.resumed_between, 0, "no chunk began between the merged spans");
    cr_expect_gt(st.resumed_local_read, 0, "no chunk began inside a merged span");
    cr_log_info("merged: %u resumed chunks, %u between the spans, %u inside with local-read state", st.resumed,
                st.resumed_between, st.resumed_local_read);
    rg_graph_destroy(g);
    parallel_scene_close(s);
    free(s);
    rg_device_destroy(dev);
}

/* Several queues where the device has a compute-only queue family: each
 * batch gets chunks of its own (at least one) in proportion to its cost,
 * each batch's chunks concatenated are what rg_execute_batches records
 * into that batch's command buffer, the plan lists every batch's chunks
 * in order, and the frame submitted with rg_submit reads back what
 * rg_execute_batches' does, the compute queue's copy included. On a
 * device without one (lavapipe) the graph is one batch, and the test
 * checks the same on it, the frame recorded whole with rg_execute. */
DEVICE_TEST(execute_parallel, queue_batches_record_what_execute_batches_records)
{
    rg_device *dev = parallel_logging_device();
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = declare_multi(dev, s);
    uint32_t batches = rg_batch_count(g);
    if (test_has_compute_queue())
        cr_assert_gt(batches, 1, "a compute queue, yet one batch");
    else
        cr_assert_eq(batches, 1);
    cr_log_info("%u batches (compute queue: %d)", batches, test_has_compute_queue());
    cut_stats st = { 0 };
    parallel_sweep(g, s, sweep_maxes, SWEEP_COUNT, 2 * PIXELS_BYTES, &st);
    cr_expect_gt(st.resumed_in_span, 0, "no chunk began inside a span");
    rg_graph_destroy(g);
    parallel_scene_close(s);
    free(s);
    rg_device_destroy(dev);
}

/* The frame on the engine's graph device (no loggers) renders, byte for
 * byte, what rg_execute renders, frame after frame, however many chunks
 * and whichever threads record them; rg_execute again after the chunks
 * still renders the same. */
DEVICE_TEST(execute_parallel, chunks_render_what_execute_renders)
{
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = parallel_declare_single(eng_context_graph_device(test_ctx), NULL, s, NULL, false);
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = 4 }, &workers), RG_SUCCESS);
    unsigned char *want = calloc(2, PIXELS_BYTES), *got = calloc(2, PIXELS_BYTES);
    frame *f = calloc(1, sizeof *f);
    cr_assert(want && got && f);

    parallel_clear_readback(s);
    cr_assert_eq(parallel_record_frame(f, g, MODE_WHOLE, 0, NULL, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    parallel_read_pixels(s, want);
    /* Not the clear colors alone: the draws are there. */
    size_t clear_texels = 0;
    for (size_t i = 0; i < PIXELS_BYTES; i += 4)
        clear_texels += want[i] == want[0] && want[i + 1] == want[1] && want[i + 2] == want[2];
    cr_expect_lt(clear_texels, W * H / 2, "the draws cover %zu of %u texels", W * H - clear_texels, W * H);

    static const uint32_t maxes[] = { 2, 5, 7, 16, 32, 3 };
    for (uint32_t k = 0; k < sizeof maxes / sizeof maxes[0]; k++) {
        for (mode m = MODE_WORKERS; m <= MODE_HAND; m++) {
            parallel_clear_readback(s);
            cr_assert_eq(parallel_record_frame(f, g, m, maxes[k], workers, false), RG_SUCCESS, "%s",
                         rg_graph_error_message(g));
            parallel_check_chunks(f, s->cost);
            parallel_submit_frame(f);
            parallel_frame_free(f);
            parallel_read_pixels(s, got);
            char what[64];
            snprintf(what, sizeof what, "max_chunks %u, %s", maxes[k], parallel_mode_names[m]);
            parallel_expect_same_pixels(want, got, 2 * PIXELS_BYTES, what);
        }
    }
    parallel_expect_frame_renders(f, g, s, MODE_WHOLE, 0, NULL, want, got, "rg_execute after the chunks");

    free(f);
    free(want);
    free(got);
    parallel_end(workers, g, s);
}
