/* The transfer queue on a device: copies eligible for it run on the
 * transfer-only family, three queues in one frame, also after the
 * declaration changed between frames. Suite rg_queues (test_rg_queues.c
 * declares it and says how frames run). */
#include "device_fixture.h"
#include "rg_queues_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

#define LAYER_CLEAR 0x5EEDF00Du

/* 5. Three queues: `pattern` writes data on the async compute queue; on
 * the transfer queue (where the device has one) data is copied into
 * staged and into layer 1 of a two-layer texture whose layer 0 the
 * compute queue cleared, and layer 0 into `back`; on graphics `offset`
 * reads staged, and copies take result, both layers and back into the
 * readback. Two frames back to back: frame 2's compute and transfer work
 * overwrite what frame 1's graphics work reads, so only the semaphores
 * across the three queues and the frames keep every word exact. */
DEVICE_TEST(rg_queues, transfers_on_the_transfer_queue)
{
    enum { N = 2, OUT_WORDS = 4 * WORDS };
    queues_fixture q;
    rg_graph *g = queues_fixture_open(&q, N, OUT_WORDS * 4u, "transfer queue");
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    rg_buffer staged = rg_buffer_create(g, &(rg_buffer_desc){ .name = "staged", .size = BYTES });
    rg_buffer result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    rg_buffer back = rg_buffer_create(g, &(rg_buffer_desc){ .name = "back", .size = BYTES });
    rg_texture layers = rg_texture_create(g, &(rg_texture_desc){ .name = "layers", .format = TEX_FMT,
                                                                 .width = TEX_W, .height = TEX_H,
                                                                 .array_layers = 2 });
    q.j.out = test_import_buffer(g, "readback", q.j.readbacks[0], true);
    dispatch pattern = queues_pattern_of(&q.k, data, 0, 1), offset = queues_transform_of(&q.k, staged, result, 3, 0x200000);
    q.j.pattern = &pattern;

    rg_command c_pattern = queues_declare_dispatch(g, "pattern", &pattern, RG_QUEUE_COMPUTE);
    rg_command c_clear = rg_cmd_clear_texture(g, layers, &(rg_range){ .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                                                      .mip_count = 1, .base_layer = 0,
                                                                      .layer_count = 1 },
                                              &(VkClearValue){ .color.uint32 = { LAYER_CLEAR } });
    rg_command_allow_queue(g, c_clear, RG_QUEUE_COMPUTE);
    rg_command c_stage = rg_cmd_copy_buffer(g, data, 0, staged, 0, BYTES);
    rg_command c_upload = rg_cmd_copy_buffer_to_texture(g, data, 0, layers, 0, 1, 1);
    rg_command c_back = rg_cmd_copy_texture_to_buffer(g, layers, 0, 0, 1, back, 0);
    rg_command transfers[3] = { c_stage, c_upload, c_back };
    for (int i = 0; i < 3; i++)
        rg_command_allow_queue(g, transfers[i], RG_QUEUE_TRANSFER);
    rg_command c_offset = queues_declare_dispatch(g, "offset", &offset, RG_QUEUE_GRAPHICS);
    rg_command reads[4] = { rg_cmd_copy_buffer(g, result, 0, q.j.out, 0, BYTES),
                            rg_cmd_copy_texture_to_buffer(g, layers, 0, 0, 2, q.j.out, BYTES),
                            rg_cmd_copy_buffer(g, back, 0, q.j.out, 3 * BYTES, BYTES), c_offset };
    test_compile(g);

    queues_check_batches(g, true);
    queues_expect_queue(g, c_pattern, queues_async_queue());
    queues_expect_queue(g, c_clear, queues_async_queue());
    for (int i = 0; i < 3; i++)
        queues_expect_queue(g, transfers[i], queues_transfer_queue());
    for (int i = 0; i < 4; i++)
        queues_expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);
    /* The dependencies that cross queues, producer before consumer. */
    const rg_command pairs[][2] = { { c_pattern, c_stage }, { c_pattern, c_upload }, { c_clear, c_back },
                                    { c_stage, c_offset }, { c_upload, reads[1] }, { c_clear, reads[1] },
                                    { c_back, reads[2] } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        queues_expect_ordered(g, &pairs[i][0], 1, &pairs[i][1], 1);
    bool three = queues_async_queue() == RG_QUEUE_COMPUTE && queues_transfer_queue() == RG_QUEUE_TRANSFER;
    uint32_t on[RG_QUEUE_COUNT] = { 0 };
    for (uint32_t b = 0; b < rg_batch_count(g); b++) {
        rg_batch_info info;
        cr_assert_eq(rg_batch_get(g, b, &info), RG_SUCCESS);
        on[info.queue]++;
    }
    if (three)
        cr_expect(on[RG_QUEUE_GRAPHICS] && on[RG_QUEUE_COMPUTE] && on[RG_QUEUE_TRANSFER],
                  "batches on graphics/compute/transfer: %u/%u/%u", on[0], on[1], on[2]);
    cr_log_info("transfer queue: %s; batches on graphics/compute/transfer: %u/%u/%u",
                rg_queue_name(queues_transfer_queue()), on[0], on[1], on[2]);

    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);
    static uint32_t want[OUT_WORDS];
    for (uint32_t f = 0; f < N; f++) {
        queues_readback_before(f, &q.j);
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t v = queues_pattern_at(&pattern, i);
            want[i] = queues_transform_at(&offset, v);
            want[WORDS + i] = LAYER_CLEAR;
            want[2 * WORDS + i] = v;
            want[3 * WORDS + i] = LAYER_CLEAR;
        }
        static const char *const parts[4] = { "result", "layer 0", "layer 1", "back" };
        const uint32_t *got = eng_buffer_mapped(q.j.readbacks[f]);
        for (uint32_t p = 0; p < 4; p++) {
            char what[48];
            snprintf(what, sizeof what, "frame %u: %s", f + 1, parts[p]);
            queues_expect_words(got + p * WORDS, want + p * WORDS, WORDS, what);
        }
    }

    queues_fixture_close(&q);
}

/* 6. A declaration changed after frames ran: `pattern` (async) feeds
 * `offset` (graphics), read back; two frames. Then, the GPU done with
 * them, `scale` (async) reads offset's result back on the compute queue
 * and a copy on graphics reads it back: a compile of the changed graph
 * places it again (new semaphores, timelines from 0) with batches going
 * compute, graphics, compute, graphics. Two more frames, exact. */
DEVICE_TEST(rg_queues, declaration_changed_after_frames)
{
    enum { N = 2 };
    queues_fixture q;
    rg_graph *g = queues_fixture_open(&q, N, 2 * BYTES, "changed declaration");
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    rg_buffer result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    q.j.out = test_import_buffer(g, "readback", q.j.readbacks[0], true);
    dispatch pattern = queues_pattern_of(&q.k, data, 0, 1), offset = queues_transform_of(&q.k, data, result, 7, 0x30000);
    q.j.pattern = &pattern;
    rg_command c_pattern = queues_declare_dispatch(g, "pattern", &pattern, RG_QUEUE_COMPUTE);
    rg_command c_offset = queues_declare_dispatch(g, "offset", &offset, RG_QUEUE_GRAPHICS);
    rg_cmd_copy_buffer(g, result, 0, q.j.out, 0, BYTES);
    test_compile(g);
    queues_check_batches(g, true);
    uint32_t before = rg_batch_count(g);
    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);

    static uint32_t want[2 * WORDS];
    for (uint32_t f = 0; f < N; f++) {
        queues_readback_before(f, &q.j);
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = queues_transform_at(&offset, queues_pattern_at(&pattern, i));
        char what[48];
        snprintf(what, sizeof what, "first declaration, frame %u", f + 1);
        queues_expect_words(eng_buffer_mapped(q.j.readbacks[f]), want, WORDS, what);
    }

    rg_buffer scaled = rg_buffer_create(g, &(rg_buffer_desc){ .name = "scaled", .size = BYTES });
    dispatch scale = queues_transform_of(&q.k, result, scaled, 3, 11);
    rg_command c_scale = queues_declare_dispatch(g, "scale", &scale, RG_QUEUE_COMPUTE);
    rg_cmd_copy_buffer(g, scaled, 0, q.j.out, BYTES, BYTES);
    test_compile(g);
    queues_check_batches(g, true);
    queues_expect_queue(g, c_pattern, queues_async_queue());
    queues_expect_queue(g, c_offset, RG_QUEUE_GRAPHICS);
    queues_expect_queue(g, c_scale, queues_async_queue());
    if (test_has_compute_queue())
        cr_expect_gt(rg_batch_count(g), before, "%u batches after the change, %u before", rg_batch_count(g), before);
    for (uint32_t f = 0; f < N; f++)
        memset(eng_buffer_mapped(q.j.readbacks[f]), 0, 2 * BYTES);
    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);
    for (uint32_t f = 0; f < N; f++) {
        queues_readback_before(f, &q.j);
        for (uint32_t i = 0; i < WORDS; i++) {
            want[i] = queues_transform_at(&offset, queues_pattern_at(&pattern, i));
            want[WORDS + i] = queues_transform_at(&scale, want[i]);
        }
        char what[48];
        snprintf(what, sizeof what, "changed declaration, frame %u", f + 1);
        queues_expect_words(eng_buffer_mapped(q.j.readbacks[f]), want, 2 * WORDS, what);
    }

    queues_fixture_close(&q);
}
