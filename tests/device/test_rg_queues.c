/* Render graphs on several queues (async compute) on a device: commands
 * eligible for the compute queue run there where the device has a
 * compute-only queue family, in batches ordered by the graph's timeline
 * semaphores, and everything runs in one batch on the graphics queue where
 * it has none (lavapipe), and copies eligible for the transfer queue run
 * on its transfer-only family. Exact results read back within a frame,
 * over frames submitted back to back, through memory two queues' resources
 * share, across three queues, after the declaration changed, and on the
 * single-queue path; the validation layer
 * (synchronization validation included) stays silent throughout. Nothing
 * skips: a device without a compute queue checks the one-batch fallback.
 *
 * Each frame is recorded into command buffers of its own, one per batch,
 * each from a pool of its batch's queue family; its plan is submitted with
 * rg_submit, the last frame's with a fence that the host waits for. The suite's other files:
 * test_rg_queues_aliasing.c, test_rg_queues_transfer.c,
 * test_rg_queues_history.c; their helpers: rg_queues_support.c. */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "rg_queues_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_queues, .init = device_setup, .fini = device_teardown);

static const uint32_t fill_comp[] =
#include "fill.comp.inc"
    ;

static const uint32_t ssbo_frag[] =
#include "ssbo_color.frag.inc"
    ;

/* ------------------------------------------------- the chain (tests 1, 2, 4) */

/* The graph most tests share. On the async queue (compute where the device
 * has it): `pattern` writes data, `scale` reads it into mid, and a clear
 * fills tex. On the graphics queue: `offset` (a dispatch, graphics only)
 * reads mid into result, and three copies take data, result and tex into
 * the imported readback (a copy eligible for compute that stays on
 * graphics: it writes an import). */
#define TEX_CLEAR 0x00C0FFEEu

typedef struct chain {
    rg_graph *g;
    dispatch pattern, scale, offset;
    rg_buffer data, mid, result, out;
    rg_texture tex;
    rg_command c_pattern, c_scale, c_offset, c_copy_data, c_copy_result, c_clear, c_copy_tex;
} chain;

/* The readback: data, result, tex, each BYTES. */
#define CHAIN_OUT (3u * BYTES)

static void chain_declare(chain *ch, kernels *k, eng_buffer *readback, bool single_queue)
{
    memset(ch, 0, sizeof *ch);
    rg_graph *g = ch->g = queues_queue_graph(single_queue ? "queues (single)" : "queues", single_queue);
    ch->data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    ch->mid = rg_buffer_create(g, &(rg_buffer_desc){ .name = "mid", .size = BYTES });
    ch->result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    ch->tex = rg_texture_create(g, &(rg_texture_desc){ .name = "tex", .format = TEX_FMT, .width = TEX_W,
                                                       .height = TEX_H });
    ch->out = test_import_buffer(g, "readback", readback, true);
    ch->pattern = queues_pattern_of(k, ch->data, 0x1000, 3);
    ch->scale = queues_transform_of(k, ch->data, ch->mid, 5, 7);
    ch->offset = queues_transform_of(k, ch->mid, ch->result, 1, 0x100000);
    ch->c_pattern = queues_declare_dispatch(g, "pattern", &ch->pattern, RG_QUEUE_COMPUTE);
    ch->c_scale = queues_declare_dispatch(g, "scale", &ch->scale, RG_QUEUE_COMPUTE);
    ch->c_offset = queues_declare_dispatch(g, "offset", &ch->offset, RG_QUEUE_GRAPHICS);
    ch->c_copy_data = rg_cmd_copy_buffer(g, ch->data, 0, ch->out, 0, BYTES);
    rg_command_allow_queue(g, ch->c_copy_data, RG_QUEUE_COMPUTE);
    ch->c_copy_result = rg_cmd_copy_buffer(g, ch->result, 0, ch->out, BYTES, BYTES);
    ch->c_clear = rg_cmd_clear_texture(g, ch->tex, NULL, &(VkClearValue){ .color.uint32 = { TEX_CLEAR } });
    rg_command_allow_queue(g, ch->c_clear, RG_QUEUE_COMPUTE);
    ch->c_copy_tex = rg_cmd_copy_texture_to_buffer(g, ch->tex, 0, 0, 1, ch->out, 2 * BYTES);
    test_compile(g);
}

/* Where each command of the chain runs, how the dependencies order them,
 * and the note on the copy that stays on graphics. */
static void chain_check_compiled(const chain *ch, bool single_queue)
{
    const rg_graph *g = ch->g;
    rg_queue async = single_queue ? RG_QUEUE_GRAPHICS : queues_async_queue();
    queues_check_batches(g, !single_queue);
    queues_expect_queues(g, (const rg_command[]){ ch->c_pattern, ch->c_scale, ch->c_clear }, 3, async);
    queues_expect_queues(g, (const rg_command[]){ ch->c_offset, ch->c_copy_data, ch->c_copy_result, ch->c_copy_tex },
                         4, RG_QUEUE_GRAPHICS);
    cr_expect(rg_happens_before(g, ch->c_pattern, ch->c_scale));
    cr_expect(rg_happens_before(g, ch->c_pattern, ch->c_copy_data));
    cr_expect(rg_happens_before(g, ch->c_scale, ch->c_offset));
    cr_expect(rg_happens_before(g, ch->c_offset, ch->c_copy_result));
    cr_expect(rg_happens_before(g, ch->c_clear, ch->c_copy_tex));
    cr_expect_not(rg_happens_before(g, ch->c_copy_result, ch->c_pattern));

    /* The copy of data is eligible for compute but writes the readback. */
    uint32_t notes = rg_queue_note_count(g);
    if (single_queue || !test_has_compute_queue()) {
        cr_expect_eq(notes, 0, "%u notes without a compute queue to move to", notes);
        return;
    }
    cr_assert_eq(notes, 1, "%u queue notes, want the copy of data's", notes);
    rg_queue_note note;
    cr_assert_eq(rg_queue_note_get(g, 0, &note), RG_SUCCESS);
    cr_expect_eq(note.command.id, ch->c_copy_data.id);
    cr_expect_eq(note.eligible, RG_QUEUE_COMPUTE);
    cr_expect(note.reason && strstr(note.reason, "readback"), "reason: %s", note.reason ? note.reason : "(null)");
    cr_expect_neq(rg_queue_note_get(g, 1, &note), RG_SUCCESS, "note 1 of 1");
}

/* What the readback holds after a frame whose pattern starts at base. */
static void chain_expect(const chain *ch, const uint32_t *out, const char *what)
{
    static uint32_t want[3 * WORDS];
    for (uint32_t i = 0; i < WORDS; i++) {
        uint32_t v = queues_pattern_at(&ch->pattern, i);
        want[i] = v;
        want[WORDS + i] = queues_transform_at(&ch->offset, queues_transform_at(&ch->scale, v));
        want[2 * WORDS + i] = TEX_CLEAR;
    }
    char label[96];
    snprintf(label, sizeof label, "%s: data", what);
    queues_expect_words(out, want, WORDS, label);
    snprintf(label, sizeof label, "%s: result", what);
    queues_expect_words(out + WORDS, want + WORDS, WORDS, label);
    snprintf(label, sizeof label, "%s: tex", what);
    queues_expect_words(out + 2 * WORDS, want + 2 * WORDS, WORDS, label);
}

/* 1. Compute on the async queue feeds the graphics queue: a dispatch,
 * copies and a texture clear there, read back exact. */
DEVICE_TEST(rg_queues, compute_feeds_graphics)
{
    kernels k;
    runner r;
    queues_open(&k, &r);
    eng_buffer *readback = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    chain ch;
    chain_declare(&ch, &k, readback, false);
    chain_check_compiled(&ch, false);

    queues_run_frames(&r, ch.g, 1, NULL, NULL, NULL, NULL);
    chain_expect(&ch, eng_buffer_mapped(readback), "frame 1");
    /* A created resource two queue families use is made CONCURRENT; it
     * exists, placed, like any other. */
    cr_expect_neq(rg_buffer_handle(ch.g, ch.mid), VK_NULL_HANDLE);
    cr_expect_neq(rg_texture_image(ch.g, ch.tex), VK_NULL_HANDLE);

    rg_graph_destroy(ch.g);
    eng_buffer_destroy(readback);
    queues_runner_close(&r);
    queues_kernels_close(&k);
}

typedef struct frames_job {
    chain *ch;
    eng_buffer *readbacks[FRAMES];
    VkSemaphore gate, done;
    VkSemaphoreSubmitInfo gate_wait, done_signal;
} frames_job;

static void frames_before(uint32_t frame, void *user)
{
    frames_job *j = user;
    j->ch->pattern.push[0] = 0x10000u * (frame + 1);
    j->ch->pattern.push[1] = frame + 2;
    rg_result r = rg_buffer_set_buffer(j->ch->g, j->ch->out, &(rg_import_buffer){
        .buffer = eng_buffer_handle(j->readbacks[frame]), .size = eng_buffer_size(j->readbacks[frame]),
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "%s", rg_graph_error_message(j->ch->g));
}

static void frames_submit(uint32_t frame, rg_submit_desc *desc, void *user)
{
    frames_job *j = user;
    if (frame == 0) {
        desc->waits = &j->gate_wait;
        desc->wait_count = 1;
    }
    j->done_signal.value = frame + 1;
    desc->signals = &j->done_signal;
    desc->signal_count = 1;
}

/* Every frame is submitted: frame 1's graphics work cannot have run (it
 * waits for the gate), so its readback is still zero; then the gate opens. */
static void frames_open_gate(void *user)
{
    frames_job *j = user;
    const uint32_t *out = eng_buffer_mapped(j->readbacks[0]);
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < CHAIN_OUT / 4; i++)
        nonzero += out[i] != 0;
    cr_expect_eq(nonzero, 0, "frame 1 read back %u words before its wait was signalled", nonzero);
    VkSemaphoreSignalInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = j->gate, .value = 1 };
    cr_assert_eq(vkSignalSemaphore(eng_context_device(test_ctx), &si), VK_SUCCESS);
}

DEVICE_TEST(rg_queues, frames_back_to_back)
{
    VkDevice dev = eng_context_device(test_ctx);
    kernels k;
    runner r;
    queues_open(&k, &r);
    frames_job j = { 0 };
    for (uint32_t f = 0; f < FRAMES; f++)
        j.readbacks[f] = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    j.gate = test_timeline(dev);
    j.done = test_timeline(dev);
    j.gate_wait = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = j.gate,
                                           .value = 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    j.done_signal = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = j.done,
                                             .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    chain ch;
    chain_declare(&ch, &k, j.readbacks[0], false);
    chain_check_compiled(&ch, false);
    j.ch = &ch;

    queues_run_frames(&r, ch.g, FRAMES, frames_before, frames_submit, frames_open_gate, &j);
    /* Signalled with the last frame's fence, not necessarily before it. */
    uint64_t done = FRAMES;
    VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                               .pSemaphores = &j.done, .pValues = &done };
    cr_expect_eq(vkWaitSemaphores(dev, &wi, WAIT_NS), VK_SUCCESS, "the frames' signals never reached %u", FRAMES);
    cr_expect_eq(vkGetSemaphoreCounterValue(dev, j.done, &done), VK_SUCCESS);
    cr_expect_eq(done, FRAMES, "the frames' last batches signalled up to %llu", (unsigned long long)done);
    for (uint32_t f = 0; f < FRAMES; f++) {
        frames_before(f, &j); /* the pattern frame f wrote */
        char what[32];
        snprintf(what, sizeof what, "frame %u", f + 1);
        chain_expect(&ch, eng_buffer_mapped(j.readbacks[f]), what);
    }

    /* Again, waited frame by frame: the timelines count on from where the
     * back-to-back frames left them. */
    for (uint32_t f = 0; f < 2; f++) {
        memset(eng_buffer_mapped(j.readbacks[FRAMES - 1]), 0, CHAIN_OUT);
        queues_run_frames(&r, ch.g, 1, NULL, NULL, NULL, NULL);
        chain_expect(&ch, eng_buffer_mapped(j.readbacks[FRAMES - 1]), "a later frame");
    }

    rg_graph_destroy(ch.g);
    for (uint32_t f = 0; f < FRAMES; f++)
        eng_buffer_destroy(j.readbacks[f]);
    vkDestroySemaphore(dev, j.gate, NULL);
    vkDestroySemaphore(dev, j.done, NULL);
    queues_runner_close(&r);
    queues_kernels_close(&k);
}

/* --------------------------------------------------- the single-queue path */

/* 4. The chain declared with rg_graph_desc.single_queue runs in one batch
 * on the graphics queue and, executed with plain rg_execute, reads back
 * exactly what the multi-queue graph does; so does rg_execute_batches on
 * it. rg_execute refuses a graph of several batches (and, where the device
 * has one queue, runs the default graph, whose one batch it is). */
DEVICE_TEST(rg_queues, single_queue_same_results)
{
    kernels k;
    runner r;
    queues_open(&k, &r);
    eng_buffer *multi_out = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *single_out = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    chain multi, single;
    chain_declare(&multi, &k, multi_out, false);
    chain_declare(&single, &k, single_out, true);
    chain_check_compiled(&multi, false);
    chain_check_compiled(&single, true);

    queues_run_frames(&r, multi.g, 1, NULL, NULL, NULL, NULL);
    test_run(single.g, 1);
    chain_expect(&single, eng_buffer_mapped(single_out), "single queue, rg_execute");
    cr_expect(memcmp(eng_buffer_mapped(multi_out), eng_buffer_mapped(single_out), CHAIN_OUT) == 0,
              "single-queue and multi-queue graphs read back different bytes");

    /* The single-queue graph through rg_execute_batches: one submission. */
    memset(eng_buffer_mapped(single_out), 0, CHAIN_OUT);
    queues_run_frames(&r, single.g, 1, NULL, NULL, NULL, NULL);
    chain_expect(&single, eng_buffer_mapped(single_out), "single queue, rg_execute_batches");

    /* rg_execute on the default graph: refused where it has several
     * batches, its one batch recorded otherwise. */
    memset(eng_buffer_mapped(multi_out), 0, CHAIN_OUT);
    rg_result executed = test_execute_once(multi.g);
    if (test_has_compute_queue()) {
        cr_expect_eq(executed, RG_ERROR_INVALID_ARGUMENT, "rg_execute on %u batches: %s",
                     rg_batch_count(multi.g), rg_result_string(executed));
        cr_expect_neq(rg_graph_error_message(multi.g)[0], '\0', "no message");
        cr_expect_eq(rg_graph_error(multi.g), RG_SUCCESS, "the refusal failed the graph");
        /* The graph still runs as it should. */
        queues_run_frames(&r, multi.g, 1, NULL, NULL, NULL, NULL);
    } else {
        cr_expect_eq(executed, RG_SUCCESS, "rg_execute on one batch: %s: %s", rg_result_string(executed),
                     rg_graph_error_message(multi.g));
    }
    chain_expect(&multi, eng_buffer_mapped(multi_out), "default graph, after rg_execute");

    rg_graph_destroy(multi.g);
    rg_graph_destroy(single.g);
    eng_buffer_destroy(multi_out);
    eng_buffer_destroy(single_out);
    queues_runner_close(&r);
    queues_kernels_close(&k);
}

/* ------------------------------------------- compute feeds a draw's shader */

typedef struct color_fill {
    VkDevice dev;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSet set;
    rg_buffer buffer;
    VkBuffer bound;
    float color[4];
} color_fill;

typedef struct color_draw {
    VkDevice dev;
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_buffer buffer;
    VkBuffer bound;
} color_draw;

/* Writes the buffer the graph gives `buffer` in this callback into set's
 * binding 0 where it is not already there (*bound); false where the graph
 * gives none. */
static bool bind_storage(const rg_record_context *rc, rg_buffer buffer, VkDevice dev, VkDescriptorSet set,
                         VkBuffer *bound)
{
    VkBuffer b = rg_record_buffer(rc, buffer);
    if (!b)
        return false;
    if (b != *bound) {
        *bound = b;
        test_write_storage(dev, set, 0, b);
    }
    return true;
}

static bool record_fill(const rg_record_context *rc, void *user)
{
    color_fill *c = user;
    if (!bind_storage(rc, c->buffer, c->dev, c->set, &c->bound))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    test_bind_with_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline, c->layout, c->set);
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, c->color);
    vkCmdDispatch(cmd, 1, 1, 1);
    return true;
}

static bool record_draw(const rg_record_context *rc, void *user)
{
    color_draw *d = user;
    if (!bind_storage(rc, d->buffer, d->dev, d->set, &d->bound))
        return false;
    solid_draw_with_set(rg_record_cmd(rc), d->pipeline, d->set);
    return true;
}

/* 1b. A dispatch on the async queue writes a color into a storage buffer;
 * a span's draw on the graphics queue reads it in the fragment shader (the
 * semaphore wait reaches the fragment stage) and the target is read back:
 * every pixel exact, over three frames back to back with a new color each. */
typedef struct draw_job {
    color_fill *fill;
    rg_graph *g;
    rg_buffer out;
    eng_buffer *readbacks[3];
} draw_job;

static void draw_before(uint32_t frame, void *user)
{
    draw_job *j = user;
    static const float colors[3][4] = { { 0, 1, 1, 1 }, { 1, 0, 1, 1 }, { 1, 1, 0, 1 } };
    memcpy(j->fill->color, colors[frame], sizeof colors[frame]);
    rg_result r = rg_buffer_set_buffer(j->g, j->out, &(rg_import_buffer){
        .buffer = eng_buffer_handle(j->readbacks[frame]), .size = eng_buffer_size(j->readbacks[frame]),
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "%s", rg_graph_error_message(j->g));
}

DEVICE_TEST(rg_queues, compute_feeds_a_draw)
{
    enum { W = 32, H = 32, N = 3 };
    const VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
    VkDevice dev = eng_context_device(test_ctx);
    runner r;
    queues_runner_open(&r);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 };
    VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 4,
                                        .poolSizeCount = 1, .pPoolSizes = &size };
    VkDescriptorPool pool;
    cr_assert_eq(vkCreateDescriptorPool(dev, &dpci, NULL, &pool), VK_SUCCESS);
    VkDescriptorSetLayout comp_l = queues_buffers_layout(dev, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    VkDescriptorSetLayout frag_l = queues_buffers_layout(dev, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    color_fill fill = { .dev = dev, .set = test_alloc_set(dev, pool, comp_l) };
    queues_compute_pipeline(dev, fill_comp, sizeof fill_comp, comp_l, &fill.layout, &fill.pipeline);
    eng_pipeline_desc pd = solid_fragment_desc("ssbo color", ssbo_frag, sizeof ssbo_frag, fmt);
    pd.set_layouts = &frag_l;
    pd.set_layout_count = 1;
    color_draw draw = { .dev = dev, .set = test_alloc_set(dev, pool, frag_l) };
    cr_assert_eq(eng_pipeline_create(test_ctx, &pd, &draw.pipeline), ENG_SUCCESS, "%s", eng_last_error());
    draw_job j = { .fill = &fill };
    for (uint32_t f = 0; f < N; f++)
        j.readbacks[f] = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);

    rg_graph *g = j.g = queues_queue_graph("compute to draw", false);
    rg_buffer color = rg_buffer_create(g, &(rg_buffer_desc){ .name = "color", .size = 16 });
    rg_texture target = rg_texture_create(g, &(rg_texture_desc){ .name = "target", .format = fmt, .width = W,
                                                                 .height = H });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    fill.buffer = draw.buffer = color;
    rg_access write = { .buffer = color, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_access read = { .buffer = color, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    rg_command c_fill = rg_cmd_user(g, &(rg_user_desc){ .name = "fill", .accesses = &write, .access_count = 1,
                                                        .record = record_fill, .user = &fill,
                                                        .queue = RG_QUEUE_COMPUTE });
    rg_command c_begin = rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "show", .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_command c_draw = rg_cmd_user(g, &(rg_user_desc){ .name = "read color", .kind = RG_COMMAND_DRAW,
                                                        .accesses = &read, .access_count = 1,
                                                        .record = record_draw, .user = &draw });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, target, 0, 0, 1, j.out, 0);
    test_compile(g);
    queues_check_batches(g, true);
    queues_expect_queue(g, c_fill, queues_async_queue());
    queues_expect_queue(g, c_begin, RG_QUEUE_GRAPHICS);
    queues_expect_queue(g, c_draw, RG_QUEUE_GRAPHICS);
    cr_expect(rg_happens_before(g, c_fill, c_draw));

    /* The draw's batch waits for the fill's at a stage that covers the
     * fragment shader's read. */
    rg_command_info fi, di;
    cr_assert_eq(rg_command_get_info(g, c_fill, &fi), RG_SUCCESS);
    cr_assert_eq(rg_command_get_info(g, c_draw, &di), RG_SUCCESS);
    if (test_has_compute_queue()) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, di.batch, &b), RG_SUCCESS);
        bool waits = false;
        for (uint32_t w = 0; w < b.wait_count; w++)
            if (b.waits[w].queue == RG_QUEUE_COMPUTE && b.waits[w].batch == fi.batch)
                waits = (b.waits[w].stage & (VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                             VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT |
                                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)) != 0;
        cr_expect(waits, "the draw's batch %u does not wait for the fill's batch %u at the fragment shader", di.batch,
                  fi.batch);
    } else {
        cr_expect_eq(fi.batch, di.batch);
    }

    queues_run_frames(&r, g, N, draw_before, NULL, NULL, &j);
    static const uint8_t want[3][4] = { { 0, 255, 255, 255 }, { 255, 0, 255, 255 }, { 255, 255, 0, 255 } };
    for (uint32_t f = 0; f < N; f++) {
        const uint8_t *px = eng_buffer_mapped(j.readbacks[f]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < W * H; i++)
            if (memcmp(px + 4 * i, want[f], 4) != 0 && bad++ < 4)
                cr_expect(false, "frame %u, pixel %u: %u,%u,%u,%u", f + 1, i, px[4 * i], px[4 * i + 1], px[4 * i + 2],
                          px[4 * i + 3]);
        cr_expect_eq(bad, 0, "frame %u: %u pixels differ", f + 1, bad);
    }

    rg_graph_destroy(g);
    for (uint32_t f = 0; f < N; f++)
        eng_buffer_destroy(j.readbacks[f]);
    eng_pipeline_destroy(draw.pipeline);
    vkDestroyPipeline(dev, fill.pipeline, NULL);
    vkDestroyPipelineLayout(dev, fill.layout, NULL);
    vkDestroyDescriptorSetLayout(dev, comp_l, NULL);
    vkDestroyDescriptorSetLayout(dev, frag_l, NULL);
    vkDestroyDescriptorPool(dev, pool, NULL);
    queues_runner_close(&r);
}
