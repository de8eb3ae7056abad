/* Multi-queue compile, device-free (see "Queues" in rendergraph.h): which
 * commands move to the compute and transfer queues and which stay on the
 * graphics queue (and are noted), the declaration errors of queue
 * eligibility, the batches and their semaphore waits against the
 * happens-before closure, the stages of barriers recorded on the other
 * queues, and that placement never lets resources of queues nothing orders
 * share bytes (random frames placed offline over one memory type). The suite's other files:
 * test_rg_queues_errors.c, test_rg_queues_batches.c,
 * test_rg_queues_random.c; their helpers: rg_queues_unit.c. */
#include "rg_mem_unit.h"
#include <stdio.h>
#include <stdlib.h>
#include "rg_queues_unit.h"

static const rg_device_caps no_queues = {.compute_queue = false};

/* ------------------------------------------------------------ assignment */

Test(rg_queues, queue_names)
{
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_GRAPHICS), "graphics");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_COMPUTE), "compute");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_TRANSFER), "transfer");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_COUNT), "?");
}

/* With both queues: a dispatch marked for compute (compute-shader,
 * indirect and transfer accesses) runs there, copies and color clears
 * allowed onto compute run there, copies and a transfer-only user command
 * allowed onto transfer run there; nothing is noted. */
Test(rg_queues, eligible_commands_move_to_their_queues)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_texture lit = test_color(g, "lit"), mask = test_color(g, "mask");
    rg_buffer args = test_buf(g, "args"), params = test_buf(g, "params"), counts = test_buf(g, "counts");
    rg_buffer staging = test_buf(g, "staging"), vertices = test_buf(g, "vertices");
    rg_buffer pixels = rg_buffer_create(g, &(rg_buffer_desc){.name = "pixels", .size = 64 * 64 * 4});
    /* The copies' sources, written first (as an upload would). */
    test_queued(g, "fill", RG_QUEUE_TRANSFER, ACC(BUF(staging, RG_USAGE_TRANSFER_DST)));
    test_queued(g, "fill pixels", RG_QUEUE_TRANSFER, ACC(BUF(pixels, RG_USAGE_TRANSFER_DST)));
    rg_command scene = test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command blur = test_async(g, "blur", TEX(lit, SMC), TEX(mask, SWC));
    rg_command cull = test_async(g, "cull", BUF_UNDEF(args, RG_USAGE_INDIRECT_BUFFER),
                                 BUF_UNDEF(params, RG_USAGE_UNIFORM_COMPUTE), BUF(counts, RG_USAGE_TRANSFER_DST));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, vertices, 0, 128);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    rg_command copy_c = rg_cmd_copy_buffer(g, vertices, 0, staging, 128, 64);
    rg_command_allow_queue(g, copy_c, RG_QUEUE_COMPUTE);
    rg_command clear = rg_cmd_clear_texture(g, test_color(g, "cleared"), NULL,
                                            &(VkClearValue){.color = {.float32 = {0, 0, 0, 0}}});
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    rg_command upload = test_queued(g, "upload", RG_QUEUE_TRANSFER,
                                    ACC(BUF_UNDEF(test_buf(g, "src"), RG_USAGE_TRANSFER_SRC),
                                        BUF(test_buf(g, "dst"), RG_USAGE_TRANSFER_DST)));
    rg_command to_tex = rg_cmd_copy_buffer_to_texture(g, pixels, 0, test_color(g, "uploaded"), 0, 0, 1);
    rg_command_allow_queue(g, to_tex, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queues_queue_of(g, scene), RG_QUEUE_GRAPHICS);
    queues_expect_on(g, (const rg_command[]){blur, cull}, 2, RG_QUEUE_COMPUTE);
    cr_expect_eq(queues_queue_of(g, copy), RG_QUEUE_TRANSFER);
    queues_expect_on(g, (const rg_command[]){copy_c, clear}, 2, RG_QUEUE_COMPUTE);
    queues_expect_on(g, (const rg_command[]){upload, to_tex}, 2, RG_QUEUE_TRANSFER);
    cr_expect_eq(rg_queue_note_count(g), 0, "nothing stayed behind");
    cr_expect_gt(rg_batch_count(g), 1);
    queues_check_batches(g, "eligible");
    queues_check_closure(g, "eligible");
    queues_check_barrier_stages(g, "eligible");
    rg_graph_destroy(g);
}

/* The eligible commands of one frame: a compute dispatch, a transfer copy,
 * a compute dispatch that touches an import. */
static void declare_eligible(rg_graph *g, rg_command c[4])
{
    rg_texture lit = test_color(g, "lit"), blurred = test_color(g, "blurred");
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 256});
    rg_buffer a = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "a", .size = 256}), b = test_buf(g, "b");
    c[0] = test_begin(g, "scene", lit);
    rg_end_rendering(g);
    c[1] = test_async(g, "blur", TEX(lit, SMC), TEX(blurred, SWC));
    c[2] = rg_cmd_copy_buffer(g, a, 0, b, 0, 64);
    rg_command_allow_queue(g, c[2], RG_QUEUE_TRANSFER);
    c[3] = test_async(g, "reduce", TEX(blurred, SMC), BUF(readback, SWC));
}

/* Without the device's queue, with single_queue, or without a device,
 * everything runs on graphics in one batch and nothing is noted. */
Test(rg_queues, one_queue_without_the_queue_or_with_single_queue)
{
    struct {
        const char *what;
        const rg_device_caps *caps;
        bool single;
    } cases[] = {
        {"caps without queues", &no_queues, false},
        {"single_queue", &queues_both_queues, true},
        {"no device", NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rg_graph *g = queues_queue_graph(cases[i].caps, cases[i].single);
        rg_command c[4];
        declare_eligible(g, c);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", cases[i].what, rg_graph_error_message(g));
        for (int k = 0; k < 4; k++)
            cr_expect_eq(queues_queue_of(g, c[k]), RG_QUEUE_GRAPHICS, "%s: command %d on %s", cases[i].what, k,
                         rg_queue_name(queues_queue_of(g, c[k])));
        cr_expect_eq(rg_queue_note_count(g), 0, "%s: notes only where the queue exists", cases[i].what);
        cr_expect_eq(rg_batch_count(g), 1, "%s", cases[i].what);
        queues_check_batches(g, cases[i].what);
        rg_graph_destroy(g);
    }
}

/* A device with a compute queue but no transfer queue: a copy allowed only
 * onto transfer does not run on a transfer queue. */
Test(rg_queues, transfer_eligible_copy_without_a_transfer_queue)
{
    static const rg_device_caps compute_only = {.compute_queue = true};
    rg_graph *g = queues_queue_graph(&compute_only, false);
    rg_command c[4];
    declare_eligible(g, c);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_neq(queues_queue_of(g, c[2]), RG_QUEUE_TRANSFER);
    cr_expect_eq(queues_queue_of(g, c[1]), RG_QUEUE_COMPUTE);
    queues_check_batches(g, "compute only");
    rg_graph_destroy(g);
}

static const rg_queue_note *find_note(const rg_graph *g, rg_command c, rg_queue_note *out)
{
    for (uint32_t i = 0; i < rg_queue_note_count(g); i++) {
        cr_assert_eq(rg_queue_note_get(g, i, out), RG_SUCCESS);
        if (out->command.id == c.id)
            return out;
    }
    return NULL;
}

static void expect_note(const rg_graph *g, rg_command c, rg_queue eligible, const char *resource)
{
    rg_queue_note note;
    const char *name = queues_cmd_info(g, c).name;
    cr_expect_eq(queues_queue_of(g, c), RG_QUEUE_GRAPHICS, "'%s' stays on graphics", name);
    if (!find_note(g, c, &note)) {
        cr_expect_fail("no queue note for '%s'", name);
        return;
    }
    cr_expect_eq(note.eligible, eligible, "'%s' noted as eligible for %s", name, rg_queue_name(note.eligible));
    cr_expect(note.reason && strstr(note.reason, resource), "'%s': reason '%s' does not name '%s'", name,
              note.reason ? note.reason : "(null)", resource);
}

/* A 64x64 RGBA16F history texture: current returned, previous in *previous. */
static rg_texture accumulation(rg_graph *g, const char *name, rg_texture *previous)
{
    return test_history(g, name, VK_FORMAT_R16G16B16A16_SFLOAT, previous);
}

/* An eligible command touching an import (texture or buffer) stays on
 * graphics (its state before and after the frame lives there), and a note
 * names the resource; an eligible command next to it moves, and so do the
 * commands reading and writing a history texture. */
Test(rg_queues, imports_stay_on_graphics_with_a_note)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_texture lit = test_color(g, "lit"), resolved = test_color(g, "resolved"), blurred = test_color(g, "blurred");
    rg_texture env_map = rg_texture_import(g, &(rg_texture_import_desc){
                                                  .name = "env map", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                  .height = 64,
                                                  .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                                  .final_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 256});
    rg_buffer staging = test_buf(g, "staging");
    rg_texture previous;
    rg_texture current = accumulation(g, "taa_accum", &previous);
    test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command blur = test_async(g, "blur", TEX(lit, SMC), TEX(blurred, SWC));
    rg_command sky = test_async(g, "sky", TEX(env_map, SMC), TEX(lit, SWC));
    rg_command resolve = test_async(g, "resolve", TEX(previous, SMC), TEX(resolved, SWC));
    rg_command accumulate = test_async(g, "accumulate", TEX(resolved, SMC), TEX(current, SWC));
    rg_command reduce = test_async(g, "reduce", TEX(blurred, SMC), BUF(staging, SWC));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, readback, 0, 256);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    queues_expect_on(g, (const rg_command[]){blur, reduce, resolve, accumulate}, 4, RG_QUEUE_COMPUTE);
    expect_note(g, sky, RG_QUEUE_COMPUTE, "env map");
    expect_note(g, copy, RG_QUEUE_TRANSFER, "readback");
    cr_expect_eq(rg_queue_note_count(g), 2);
    rg_queue_note note;
    cr_expect_neq(rg_queue_note_get(g, rg_queue_note_count(g), &note), RG_SUCCESS, "past the last note");
    queues_check_batches(g, "notes");
    queues_check_closure(g, "notes");
    queues_check_barrier_stages(g, "notes");
    rg_graph_destroy(g);
}

/* A history texture on the compute queue: the frame opens with a graphics
 * batch of no commands (the first frame's history clears), which the
 * compute queue's first batch waits for at every stage instead of the
 * frame before's last graphics batch. Without a read of previous on
 * another queue there is no such batch. */
Test(rg_queues, history_on_compute_opens_the_frame)
{
    for (int read = 0; read < 2; read++) {
        rg_graph *g = queues_queue_graph(&queues_both_queues, false);
        rg_texture lit = test_color(g, "lit"), out = test_color(g, "out");
        rg_texture previous;
        rg_texture current = accumulation(g, "accum", &previous);
        test_begin(g, "scene", lit);
        rg_end_rendering(g);
        test_queued(g, "tonemap", RG_QUEUE_GRAPHICS, ACC(TEX(lit, SMC), TEX(out, SWC)));
        /* Nothing of this frame's graphics work needed: the wait is the
         * frame's first one. */
        rg_command temporal = read ? test_async(g, "temporal", TEX(previous, SMC), TEX(current, SWC))
                                   : test_async(g, "temporal", TEX(current, SWC));
        test_queued(g, "show", RG_QUEUE_GRAPHICS, ACC(TEX(current, SMC), TEX(out, RG_USAGE_STORAGE_READ_COMPUTE)));
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_eq(queues_queue_of(g, temporal), RG_QUEUE_COMPUTE);
        cr_expect_eq(rg_queue_note_count(g), 0);
        rg_batch_info first, async;
        cr_assert_eq(rg_batch_get(g, 0, &first), RG_SUCCESS);
        cr_assert_eq(rg_batch_get(g, queues_cmd_info(g, temporal).batch, &async), RG_SUCCESS);
        const rg_batch_wait *gw = NULL;
        for (uint32_t k = 0; k < async.wait_count; k++)
            if (async.waits[k].queue == RG_QUEUE_GRAPHICS)
                gw = &async.waits[k];
        cr_assert_not_null(gw, "read %d: the compute batch does not wait for graphics", read);
        if (read) {
            cr_expect(first.queue == RG_QUEUE_GRAPHICS && first.first == RG_INDEX_NONE && first.wait_count == 0,
                      "the frame does not open with a command-less graphics batch:%s", queues_batches_text(g));
            cr_expect_eq(gw->batch, 0, "the compute batch waits for graphics batch %u", gw->batch);
            cr_expect(gw->stage & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        } else {
            cr_expect_neq(first.first, RG_INDEX_NONE, "an opening batch without a read of previous:%s",
                          queues_batches_text(g));
        }
        queues_check_batches(g, read ? "history read on compute" : "history written on compute");
        queues_check_closure(g, "history on compute");
        queues_check_barrier_stages(g, "history on compute");
        rg_graph_destroy(g);
    }
}

/* rg_command_allow_queue(..., RG_QUEUE_GRAPHICS) makes a command
 * graphics-only again. */
Test(rg_queues, allow_graphics_makes_a_command_graphics_only_again)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_buffer a = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "a", .size = 256});
    rg_command copy = rg_cmd_copy_buffer(g, a, 0, test_buf(g, "b"), 0, 64);
    rg_command_allow_queue(g, copy, RG_QUEUE_COMPUTE);
    rg_command_allow_queue(g, copy, RG_QUEUE_GRAPHICS);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queues_queue_of(g, copy), RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), 0);
    cr_expect_eq(rg_batch_count(g), 1);
    rg_graph_destroy(g);
}
