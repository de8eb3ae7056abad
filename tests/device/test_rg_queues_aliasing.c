/* Memory shared across queues on a device: buffers and textures of two
 * queues aliased in one pool, and an upper mip and layer handed from one
 * queue to another, read back exact with the validation layer silent.
 * Suite rg_queues (test_rg_queues.c declares it and says how frames run). */
#include "device_fixture.h"
#include "rg_queues_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

/* ------------------------------------------------ aliasing across queues */

static void expect_shared(rg_memory_kind ka, uint32_t pa, VkDeviceSize oa, rg_memory_kind kb, uint32_t pb,
                          VkDeviceSize ob, const char *a, const char *b)
{
    cr_expect_eq(ka, RG_MEMORY_POOLED, "%s: memory kind %d", a, ka);
    cr_expect_eq(kb, RG_MEMORY_POOLED, "%s: memory kind %d", b, kb);
    cr_expect(pa == pb && oa == ob, "%s and %s do not share bytes: pool %u offset %llu vs pool %u offset %llu", a, b,
              pa, (unsigned long long)oa, pb, (unsigned long long)ob);
}

/* 3a. Buffers: `early` lives on the async queue only (written, then read
 * into `bridge`), `late` on the graphics queue only (written from bridge,
 * then read back). Alike in size, with bridge ordering every use of early
 * before every use of late, they share bytes: on lavapipe in one batch, with
 * a compute queue across the semaphore between the batches. Three frames
 * back to back: the next frame's early overwrites the bytes this frame's
 * late is read back from. */
DEVICE_TEST(rg_queues, aliased_buffers_across_queues)
{
    enum { N = 3 };
    queues_fixture q;
    rg_graph *g = queues_fixture_open(&q, N, BYTES, "aliased buffers");
    rg_buffer early = rg_buffer_create(g, &(rg_buffer_desc){ .name = "early", .size = BYTES });
    rg_buffer bridge = rg_buffer_create(g, &(rg_buffer_desc){ .name = "bridge", .size = BYTES });
    rg_buffer late = rg_buffer_create(g, &(rg_buffer_desc){ .name = "late", .size = BYTES });
    q.j.out = test_import_buffer(g, "readback", q.j.readbacks[0], true);
    dispatch fill = queues_pattern_of(&q.k, early, 0, 1), cross = queues_transform_of(&q.k, early, bridge, 3, 1);
    dispatch after = queues_transform_of(&q.k, bridge, late, 2, 5);
    q.j.pattern = &fill;
    rg_command uses_early[2], uses_late[2];
    uses_early[0] = queues_declare_dispatch(g, "write early", &fill, RG_QUEUE_COMPUTE);
    uses_early[1] = queues_declare_dispatch(g, "early to bridge", &cross, RG_QUEUE_COMPUTE);
    uses_late[0] = queues_declare_dispatch(g, "bridge to late", &after, RG_QUEUE_GRAPHICS);
    uses_late[1] = rg_cmd_copy_buffer(g, late, 0, q.j.out, 0, BYTES);
    test_compile(g);
    queues_expect_handoff(g, uses_early, uses_late, 2);

    queues_run_frames(&q.r, g, N, queues_readback_before, NULL, NULL, &q.j);
    VkDeviceSize oe = 0, ol = 0, ob = 0;
    uint32_t pe = 0, pl = 0, pb = 0;
    rg_memory_kind ke = rg_buffer_memory(g, early, &oe, &pe), kl = rg_buffer_memory(g, late, &ol, &pl);
    rg_memory_kind kb = rg_buffer_memory(g, bridge, &ob, &pb);
    expect_shared(ke, pe, oe, kl, pl, ol, "early", "late");
    cr_expect_eq(kb, RG_MEMORY_POOLED);
    cr_expect(pb != pe || ob >= oe + BYTES || oe >= ob + BYTES, "bridge overlaps early: offsets %llu, %llu",
              (unsigned long long)ob, (unsigned long long)oe);
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect(t.pooled < t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
              (unsigned long long)t.unaliased);

    static uint32_t want[WORDS];
    for (uint32_t f = 0; f < N; f++) {
        queues_readback_before(f, &q.j);
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = queues_transform_at(&after, queues_transform_at(&cross, queues_pattern_at(&fill, i)));
        char what[32];
        snprintf(what, sizeof what, "frame %u: late", f + 1);
        queues_expect_words(eng_buffer_mapped(q.j.readbacks[f]), want, WORDS, what);
    }

    queues_fixture_close(&q);
}

/* 3b. Textures, with transfers only: `first` is cleared and copied into
 * `bridge` on the async queue, `second` is filled from bridge and read back
 * on the graphics queue. bridge goes to the readback too, so a copy out of
 * first that ran after second's upload overwrote the shared bytes would
 * show in either half. */
DEVICE_TEST(rg_queues, aliased_textures_across_queues)
{
    runner r;
    queues_runner_open(&r);
    enum { N = 3 };
    readback_job j;
    rg_graph *g = queues_readback_open(&j, N, 2 * BYTES, "aliased textures");
    rg_texture_desc td = { .format = TEX_FMT, .width = TEX_W, .height = TEX_H };
    rg_texture first = test_texture_named(g, td, "first");
    rg_texture second = test_texture_named(g, td, "second");
    rg_buffer bridge = rg_buffer_create(g, &(rg_buffer_desc){ .name = "bridge", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    const uint32_t value = 0x5EC0DE;
    rg_command uses_first[2], uses_second[2];
    uses_first[0] = rg_cmd_clear_texture(g, first, NULL, &(VkClearValue){ .color.uint32 = { value } });
    rg_command_allow_queue(g, uses_first[0], RG_QUEUE_COMPUTE);
    uses_first[1] = rg_cmd_copy_texture_to_buffer(g, first, 0, 0, 1, bridge, 0);
    rg_command_allow_queue(g, uses_first[1], RG_QUEUE_COMPUTE);
    uses_second[0] = rg_cmd_copy_buffer_to_texture(g, bridge, 0, second, 0, 0, 1);
    uses_second[1] = rg_cmd_copy_texture_to_buffer(g, second, 0, 0, 1, j.out, 0);
    rg_cmd_copy_buffer(g, bridge, 0, j.out, BYTES, BYTES);
    test_compile(g);
    queues_expect_handoff(g, uses_first, uses_second, 2);

    queues_run_frames(&r, g, N, queues_readback_before, NULL, NULL, &j);
    VkDeviceSize of = 0, os = 0;
    uint32_t pf = 0, ps = 0;
    rg_memory_kind kf = rg_texture_memory(g, first, &of, &pf), ks = rg_texture_memory(g, second, &os, &ps);
    expect_shared(kf, pf, of, ks, ps, os, "first", "second");

    static uint32_t want[2 * WORDS];
    for (uint32_t i = 0; i < 2 * WORDS; i++)
        want[i] = value;
    for (uint32_t f = 0; f < N; f++) {
        char what[32];
        snprintf(what, sizeof what, "frame %u", f + 1);
        queues_expect_words(eng_buffer_mapped(j.readbacks[f]), want, 2 * WORDS, what);
    }

    queues_readback_close(&j, N);
    queues_runner_close(&r);
}

/* 8. A mip and a layer above 0 across three queues: the compute queue
 * clears mip 1 of layer 1 of a two-mip, two-layer texture; the transfer
 * queue uploads mip 0 of layer 1 from a buffer and copies mip 1 of layer 1
 * out; the graphics queue reads both back. Two frames back to back. */
#define MIP_CLEAR 0x0BADCAFEu

DEVICE_TEST(rg_queues, upper_mip_and_layer_across_queues)
{
    runner r;
    queues_runner_open(&r);
    enum { N = 2, MIP1 = WORDS / 4 };
    readback_job j;
    rg_graph *g = queues_readback_open(&j, N, BYTES + MIP1 * 4u, "upper mip and layer");
    static uint32_t upload[WORDS];
    for (uint32_t i = 0; i < WORDS; i++)
        upload[i] = 0x5000u + 7u * i;
    eng_buffer *src = test_host_buffer(BYTES, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, upload);
    rg_texture tex = rg_texture_create(g, &(rg_texture_desc){ .name = "mips", .format = TEX_FMT, .width = TEX_W,
                                                              .height = TEX_H, .mip_levels = 2, .array_layers = 2 });
    rg_buffer in = test_import_buffer(g, "upload", src, false);
    rg_buffer small = rg_buffer_create(g, &(rg_buffer_desc){ .name = "mip 1", .size = MIP1 * 4u });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    rg_command clear = rg_cmd_clear_texture(g, tex, &(rg_range){ .aspect = VK_IMAGE_ASPECT_COLOR_BIT, .base_mip = 1,
                                                                 .mip_count = 1, .base_layer = 1, .layer_count = 1 },
                                            &(VkClearValue){ .color.uint32 = { MIP_CLEAR } });
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    rg_command upload_cmd = rg_cmd_copy_buffer_to_texture(g, in, 0, tex, 0, 1, 1);
    rg_command down = rg_cmd_copy_texture_to_buffer(g, tex, 1, 1, 1, small, 0);
    rg_command_allow_queue(g, upload_cmd, RG_QUEUE_TRANSFER);
    rg_command_allow_queue(g, down, RG_QUEUE_TRANSFER);
    rg_command reads[2] = { rg_cmd_copy_texture_to_buffer(g, tex, 0, 1, 1, j.out, 0),
                            rg_cmd_copy_buffer(g, small, 0, j.out, BYTES, MIP1 * 4u) };
    test_compile(g);
    queues_check_batches(g, true);
    queues_expect_queue(g, clear, queues_async_queue());
    queues_expect_queue(g, down, queues_transfer_queue());
    /* The upload touches an import: it stays on graphics, with a note
     * where there was a transfer queue to move it to. */
    queues_expect_queue(g, upload_cmd, RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), queues_transfer_queue() == RG_QUEUE_TRANSFER ? 1u : 0u);
    for (int i = 0; i < 2; i++)
        queues_expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);

    queues_run_frames(&r, g, N, queues_readback_before, NULL, NULL, &j);
    static uint32_t want[WORDS + MIP1];
    memcpy(want, upload, sizeof upload);
    for (uint32_t i = 0; i < MIP1; i++)
        want[WORDS + i] = MIP_CLEAR;
    for (uint32_t f = 0; f < N; f++) {
        char what[48];
        snprintf(what, sizeof what, "frame %u: mip 0 and mip 1 of layer 1", f + 1);
        queues_expect_words(eng_buffer_mapped(j.readbacks[f]), want, WORDS + MIP1, what);
    }

    queues_readback_close(&j, N);
    eng_buffer_destroy(src);
    queues_runner_close(&r);
}
