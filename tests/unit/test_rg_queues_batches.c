/* Multi-queue compile, device-free: the batches and their semaphore waits
 * against the happens-before closure, and the stages of barriers recorded
 * on the other queues. Suite rg_queues (test_rg_queues.c). */
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include "rg_queues_unit.h"

#define SRC RG_USAGE_STORAGE_READ_COMPUTE

static uint32_t batch_of(const rg_graph *g, rg_command c) { return queues_cmd_info(g, c).batch; }

/* Batch b's wait on queue q within the frame (a batch index, not the frame
 * before), or NULL. */
static const rg_batch_wait *wait_on(const rg_batch_info *b, rg_queue q)
{
    for (uint32_t i = 0; i < b->wait_count && i < RG_QUEUE_COUNT; i++)
        if (b->waits[i].queue == q && b->waits[i].batch != RG_INDEX_NONE)
            return &b->waits[i];
    return NULL;
}

/* Whether a semaphore wait at `wait` orders work at every stage of
 * `stages`: the meta stages expanded to what they stand for; TOP_OF_PIPE
 * (and NONE) as a barrier's source waits for nothing. */
static bool stage_covers(VkPipelineStageFlags2 wait, VkPipelineStageFlags2 stages)
{
    if (wait & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        return true;
    if (wait & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT)
        wait |= VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT |
                VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    if (wait & VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT)
        wait |= VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    if (wait & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
        wait |= VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT |
                VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT;
    if (wait & VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT)
        wait |= VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                VK_PIPELINE_STAGE_2_BLIT_BIT;
    stages &= ~VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT;
    return (stages & ~wait) == 0;
}

/* -------------------------------------------------------------- batches */

/* scene (graphics span) renders lit; blur (compute) samples lit and
 * writes blurred; ui (graphics span) renders hud, independent of both;
 * the consumer samples blurred: a span compose (fragment shader) or a
 * graphics-queue dispatch tonemap (compute shader). */
typedef struct chain {
    rg_command scene, blur, ui, consumer, consumer_draw;
    rg_texture lit, blurred;
} chain;

static void declare_chain(rg_graph *g, chain *c, bool span_consumer)
{
    c->lit = test_color(g, "lit");
    c->blurred = test_color(g, "blurred");
    rg_texture hud = test_color(g, "hud"), out = test_color(g, "out");
    c->scene = test_begin(g, "scene", c->lit);
    rg_end_rendering(g);
    c->blur = test_async(g, "blur", TEX(c->lit, SMC), TEX(c->blurred, SWC));
    c->ui = test_begin(g, "ui", hud);
    rg_end_rendering(g);
    if (span_consumer) {
        c->consumer = test_begin(g, "compose", out);
        c->consumer_draw = test_draw(g, "composite", TEX(c->blurred, SMF));
        rg_end_rendering(g);
    } else {
        c->consumer = c->consumer_draw = test_outside(g, "tonemap", TEX(c->blurred, SMC), TEX(out, SWC));
    }
}

/* The batches of a chain: scene's on graphics, blur's on compute waiting
 * for it, the consumer's on graphics waiting for blur at the stage the
 * consumer reads in and starting at the consumer (the cut is there), so
 * graphics work placed before the consumer is not held back with it. */
static void check_chain(rg_order order, bool span_consumer, VkPipelineStageFlags2 read_stage)
{
    char what[96];
    snprintf(what, sizeof what, "chain, %s order, %s consumer", order == RG_ORDER_MEMORY ? "memory" : "declaration",
             span_consumer ? "span" : "dispatch");
    rg_graph *g = queues_queue_graph_ex(&queues_both_queues, false, order);
    chain c;
    declare_chain(g, &c, span_consumer);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", what, rg_graph_error_message(g));
    queues_check_batches(g, what);
    queues_check_closure(g, what);
    queues_check_barrier_stages(g, what);
    cr_expect_eq(queues_queue_of(g, c.scene), RG_QUEUE_GRAPHICS, "%s", what);
    cr_assert_eq(queues_queue_of(g, c.blur), RG_QUEUE_COMPUTE, "%s", what);
    cr_expect_eq(queues_queue_of(g, c.ui), RG_QUEUE_GRAPHICS, "%s", what);
    cr_expect_eq(queues_queue_of(g, c.consumer), RG_QUEUE_GRAPHICS, "%s", what);
    uint32_t bs = batch_of(g, c.scene), bb = batch_of(g, c.blur), bc = batch_of(g, c.consumer);
    cr_expect(bs < bb && bb < bc, "%s: batches scene %u, blur %u, consumer %u:%s", what, bs, bb, bc,
              queues_batches_text(g));
    cr_expect_eq(batch_of(g, c.consumer_draw), bc, "%s", what);
    rg_batch_info blur = queues_batch_at(g, bb), consumer = queues_batch_at(g, bc);
    /* blur waits for scene, at least where it samples lit. */
    const rg_batch_wait *w = wait_on(&blur, RG_QUEUE_GRAPHICS);
    cr_assert_not_null(w, "%s: the compute batch does not wait for graphics:%s", what, queues_batches_text(g));
    cr_expect(w->batch >= bs && w->batch < bb, "%s: blur waits graphics batch %u, scene is in %u", what, w->batch,
              bs);
    cr_expect(stage_covers(w->stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT), "%s: compute waits at 0x%llx", what,
              (unsigned long long)w->stage);
    /* The consumer waits for blur where it reads blurred. */
    w = wait_on(&consumer, RG_QUEUE_COMPUTE);
    cr_assert_not_null(w, "%s: the consumer's batch does not wait for compute:%s", what, queues_batches_text(g));
    cr_expect_geq(w->batch, bb, "%s", what);
    cr_expect(stage_covers(w->stage, read_stage), "%s: the consumer waits at 0x%llx, reads at 0x%llx", what,
              (unsigned long long)w->stage, (unsigned long long)read_stage);
    /* What the consumer's barriers on blurred wait for came from compute:
     * the semaphore wait's stages include their source stages. */
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *bi = rg_barrier_get(g, i);
        if (bi->texture.id != c.blurred.id || bi->before.id == 0 || queues_queue_of(g, bi->before) != RG_QUEUE_GRAPHICS)
            continue;
        cr_expect(stage_covers(w->stage, bi->src_stage), "%s: barrier %u on blurred before '%s' from 0x%llx, the "
                  "wait is at 0x%llx", what, i, queues_cmd_info(g, bi->before).name, (unsigned long long)bi->src_stage,
                  (unsigned long long)w->stage);
    }
    /* The cut is at the consumer. */
    uint32_t consumer_pos = test_pos(g, c.consumer);
    cr_expect_eq(consumer.first, consumer_pos, "%s: the consumer's batch starts at %u, the consumer is at %u", what,
                 consumer.first, consumer_pos);
    if (test_pos(g, c.ui) < consumer_pos)
        cr_expect_lt(batch_of(g, c.ui), bc, "%s: ui, before the consumer, is held back with it", what);
    if (order == RG_ORDER_DECLARATION)
        cr_expect_lt(test_pos(g, c.ui), consumer_pos, "%s: declaration order", what);
    rg_graph_destroy(g);
}

Test(rg_queues, chain_to_a_span_waits_at_the_fragment_shader)
{
    check_chain(RG_ORDER_MEMORY, true, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    check_chain(RG_ORDER_DECLARATION, true, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
}

Test(rg_queues, chain_to_a_graphics_dispatch_waits_at_the_compute_shader)
{
    check_chain(RG_ORDER_MEMORY, false, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    check_chain(RG_ORDER_DECLARATION, false, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
}

/* single_queue, and a graph without a device: one graphics batch over the
 * whole order, waiting for nothing, every command in it. */
Test(rg_queues, single_queue_graph_is_one_batch)
{
    for (int nodev = 0; nodev < 2; nodev++) {
        rg_graph *g = queues_queue_graph(nodev ? NULL : &queues_both_queues, !nodev);
        chain c;
        declare_chain(g, &c, true);
        cr_expect_eq(rg_batch_count(g), 0, "0 before compile");
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_assert_eq(rg_batch_count(g), 1);
        rg_batch_info b = queues_batch_at(g, 0);
        const rg_command *order;
        uint32_t m = rg_execution_order(g, &order);
        cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS);
        cr_expect_eq(b.first, 0);
        cr_expect_eq(b.last, m - 1);
        cr_expect_eq(b.wait_count, 0);
        cr_expect_eq(b.signal, 1);
        for (uint32_t p = 0; p < m; p++) {
            cr_expect_eq(queues_queue_of(g, order[p]), RG_QUEUE_GRAPHICS);
            cr_expect_eq(batch_of(g, order[p]), 0);
        }
        cr_expect_neq(rg_batch_get(g, 1, &b), RG_SUCCESS, "past the last batch");
        queues_check_batches(g, nodev ? "no device" : "single_queue");
        rg_graph_destroy(g);
    }
}

/* A compute dispatch that needs nothing of the frame runs first: its batch
 * waits only for the frame before's last graphics batch, at every stage;
 * the draw reading its buffer as vertices waits for it at vertex input. */
Test(rg_queues, first_compute_batch_waits_for_the_frame_before)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_buffer vertices = test_buf(g, "vertices");
    rg_command gen = test_async(g, "generate", BUF(vertices, SWC));
    test_begin(g, "draw pass", test_color(g, "color"));
    rg_command draw = test_draw(g, "draw", BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    queues_check_batches(g, "generate");
    queues_check_closure(g, "generate");
    cr_assert_eq(queues_queue_of(g, gen), RG_QUEUE_COMPUTE);
    rg_batch_info b = queues_batch_at(g, batch_of(g, gen));
    cr_expect_eq(b.wait_count, 1, "nothing of the frame precedes it");
    cr_expect_eq(b.waits[0].queue, RG_QUEUE_GRAPHICS);
    cr_expect_eq(b.waits[0].batch, RG_INDEX_NONE, "the frame before");
    cr_expect_eq(b.waits[0].stage, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    rg_batch_info d = queues_batch_at(g, batch_of(g, draw));
    const rg_batch_wait *w = wait_on(&d, RG_QUEUE_COMPUTE);
    cr_assert_not_null(w, "the draw's batch does not wait for compute");
    cr_expect_eq(w->batch, batch_of(g, gen));
    VkPipelineStageFlags2 vertex = rg_usage_get_info(RG_USAGE_VERTEX_BUFFER)->stage;
    cr_expect(stage_covers(w->stage, vertex), "waits at 0x%llx, reads at 0x%llx", (unsigned long long)w->stage,
              (unsigned long long)vertex);
    rg_graph_destroy(g);
}

/* Compute work last in the frame: the frame still ends on graphics, with
 * a batch that waits for it. */
Test(rg_queues, last_batch_is_graphics_and_waits_for_the_other_queues)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_texture lit = test_color(g, "lit");
    test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command hist = test_async(g, "histogram", TEX(lit, SMC), BUF(test_buf(g, "bins"), SWC));
    rg_buffer a = test_buf(g, "a");
    test_queued(g, "fill", RG_QUEUE_TRANSFER, ACC(BUF(a, RG_USAGE_TRANSFER_DST)));
    rg_command copy = rg_cmd_copy_buffer(g, a, 0, test_buf(g, "b"), 0, 64);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    queues_check_batches(g, "last");
    queues_check_closure(g, "last");
    cr_assert_eq(queues_queue_of(g, hist), RG_QUEUE_COMPUTE);
    cr_assert_eq(queues_queue_of(g, copy), RG_QUEUE_TRANSFER);
    uint32_t n = rg_batch_count(g);
    rg_batch_info last = queues_batch_at(g, n - 1);
    cr_expect_eq(last.queue, RG_QUEUE_GRAPHICS);
    const rg_batch_wait *wc = wait_on(&last, RG_QUEUE_COMPUTE), *wt = wait_on(&last, RG_QUEUE_TRANSFER);
    cr_assert_not_null(wc, "the last batch does not wait for compute");
    cr_assert_not_null(wt, "the last batch does not wait for transfer");
    cr_expect_geq(wc->batch, batch_of(g, hist));
    cr_expect_geq(wt->batch, batch_of(g, copy));
    rg_graph_destroy(g);
}

/* A copy on the transfer queue between two graphics dispatches: graphics,
 * transfer, graphics, each wait at the stage of the access that needs it. */
Test(rg_queues, transfer_copy_between_graphics_dispatches)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_buffer staging = test_buf(g, "staging"), vertices = test_buf(g, "vertices");
    rg_command produce = test_outside(g, "produce", BUF(staging, SWC));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, vertices, 0, 256);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    rg_command consume = test_outside(g, "consume", BUF(vertices, SRC));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    queues_check_batches(g, "transfer");
    queues_check_closure(g, "transfer");
    queues_check_barrier_stages(g, "transfer");
    cr_assert_eq(queues_queue_of(g, copy), RG_QUEUE_TRANSFER);
    uint32_t bp = batch_of(g, produce), bt = batch_of(g, copy), bc = batch_of(g, consume);
    cr_expect(bp < bt && bt < bc, "batches produce %u, copy %u, consume %u:%s", bp, bt, bc, queues_batches_text(g));
    rg_batch_info t = queues_batch_at(g, bt), c = queues_batch_at(g, bc);
    const rg_batch_wait *w = wait_on(&t, RG_QUEUE_GRAPHICS);
    cr_assert_not_null(w, "the copy does not wait for produce");
    cr_expect(w->batch >= bp && w->batch < bt, "the copy waits graphics batch %u, produce is in %u", w->batch, bp);
    VkPipelineStageFlags2 xfer = rg_usage_get_info(RG_USAGE_TRANSFER_SRC)->stage;
    cr_expect(stage_covers(w->stage, xfer), "copy waits at 0x%llx", (unsigned long long)w->stage);
    w = wait_on(&c, RG_QUEUE_TRANSFER);
    cr_assert_not_null(w, "consume does not wait for the copy");
    cr_expect_geq(w->batch, bt);
    cr_expect(stage_covers(w->stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT), "consume waits at 0x%llx",
              (unsigned long long)w->stage);
    rg_graph_destroy(g);
}

/* Hazards from graphics stages into compute (a texture sampled by a draw
 * then written by compute: write-after-read with a layout change; a vertex
 * buffer rewritten; an attachment then sampled by compute): the compute
 * queue's barriers name only its stages. */
Test(rg_queues, barriers_on_the_compute_queue_name_only_its_stages)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_texture lit = test_color(g, "lit"), noise = test_color(g, "noise"), out = test_color(g, "out");
    rg_buffer vertices = test_buf(g, "vertices");
    test_begin(g, "scene", lit);
    test_draw(g, "draw", TEX_UNDEF(noise, SMF), BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    rg_command regen = test_async(g, "regenerate", TEX(noise, SWC), BUF(vertices, SWC), TEX(lit, SMC));
    rg_command post = test_async(g, "post", TEX(lit, SMC), TEX(noise, SMC), TEX(out, SWC));
    test_begin(g, "again", lit);
    test_draw(g, "draw again", TEX(noise, SMF), TEX(out, SMF), BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    queues_expect_on(g, (const rg_command[]){regen, post}, 2, RG_QUEUE_COMPUTE);
    queues_check_barrier_stages(g, "graphics to compute");
    queues_check_batches(g, "graphics to compute");
    queues_check_closure(g, "graphics to compute");
    rg_graph_destroy(g);
}
