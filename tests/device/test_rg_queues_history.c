/* History resources on the async compute queue: written there, read the
 * next frame, or left unread. Suite rg_queues (test_rg_queues.c declares
 * it and says how frames run). */
#include "device_fixture.h"
#include "rg_queues_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

/* 7. A history texture on the async queue: each frame the compute queue
 * copies previous out, transforms it and copies the result into current;
 * the graphics queue reads previous and current back. The first frame
 * reads the history clear, recorded in the frame's opening graphics batch,
 * which the compute queue's first batch waits for; four frames back to
 * back, each one's previous what the frame before wrote. */
#define HISTORY_CLEAR 0x00000101u

DEVICE_TEST(rg_queues, history_on_the_async_queue)
{
    enum { N = 4 };
    queues_fixture q;
    rg_graph *g = queues_fixture_open(&q, N, 2 * BYTES, "history on async");
    static history_step h;
    queues_history_step(&h, g, &q.k, "accum", HISTORY_CLEAR);
    q.j.out = test_import_buffer(g, "readback", q.j.readbacks[0], true);
    rg_command reads[2] = { rg_cmd_copy_texture_to_buffer(g, h.current, 0, 0, 1, q.j.out, 0),
                            rg_cmd_copy_texture_to_buffer(g, h.previous, 0, 0, 1, q.j.out, BYTES) };
    test_compile(g);
    queues_check_batches(g, true);
    for (int i = 0; i < 3; i++)
        queues_expect_queue(g, h.on_async[i], queues_async_queue());
    for (int i = 0; i < 2; i++)
        queues_expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), 0);
    if (test_has_compute_queue()) {
        rg_batch_info first;
        cr_assert_eq(rg_batch_get(g, 0, &first), RG_SUCCESS);
        cr_expect(first.queue == RG_QUEUE_GRAPHICS && first.first == RG_INDEX_NONE,
                  "the frame does not open with a command-less graphics batch");
    }

    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);
    static uint32_t want[2 * WORDS];
    uint32_t prev = HISTORY_CLEAR;
    for (uint32_t f = 0; f < N; f++) {
        uint32_t cur = queues_transform_at(&h.step, prev);
        for (uint32_t i = 0; i < WORDS; i++) {
            want[i] = cur;
            want[WORDS + i] = prev;
        }
        char what[48];
        snprintf(what, sizeof what, "frame %u: current, previous", f + 1);
        queues_expect_words(eng_buffer_mapped(q.j.readbacks[f]), want, 2 * WORDS, what);
        prev = cur;
    }

    queues_fixture_close(&q);
}

/* 7b. A history texture written on the async queue whose previous half
 * nothing reads: each frame's first write of current (the copy's layout
 * transition) waits for that image's write two frames before, with
 * nothing in between to chain through; a pattern that changes per frame
 * is copied into current and read back on graphics, four frames back to
 * back. */
DEVICE_TEST(rg_queues, history_unread_on_the_async_queue)
{
    enum { N = 4 };
    queues_fixture q;
    rg_graph *g = queues_fixture_open(&q, N, BYTES, "history unread on async");
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){ .name = "written only", .format = TEX_FMT, .width = TEX_W, .height = TEX_H },
        &previous);
    rg_buffer values = rg_buffer_create(g, &(rg_buffer_desc){ .name = "values", .size = BYTES });
    q.j.out = test_import_buffer(g, "readback", q.j.readbacks[0], true);
    dispatch fill = queues_pattern_of(&q.k, values, 0, 1);
    q.j.pattern = &fill;
    rg_command on_async[2] = { queues_declare_dispatch(g, "fill", &fill, RG_QUEUE_COMPUTE),
                               rg_cmd_copy_buffer_to_texture(g, values, 0, current, 0, 0, 1) };
    rg_command_allow_queue(g, on_async[1], RG_QUEUE_COMPUTE);
    rg_command read = rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, q.j.out, 0);
    test_compile(g);
    queues_check_batches(g, true);
    for (int i = 0; i < 2; i++)
        queues_expect_queue(g, on_async[i], queues_async_queue());
    queues_expect_queue(g, read, RG_QUEUE_GRAPHICS);

    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);
    static uint32_t want[WORDS];
    for (uint32_t f = 0; f < N; f++) {
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = 0xA0000u + 0x1111u * f + i * (2 * f + 1); /* queues_readback_before's pattern of frame f */
        char what[32];
        snprintf(what, sizeof what, "frame %u: current", f + 1);
        queues_expect_words(eng_buffer_mapped(q.j.readbacks[f]), want, WORDS, what);
    }

    queues_fixture_close(&q);
}
