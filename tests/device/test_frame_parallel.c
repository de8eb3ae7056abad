/* Render graphs run as swapchain frames recorded on several threads
 * (eng_swapchain_present_graph_parallel), on an offscreen swapchain, under
 * validation (its thread-safety checks see two threads use one command
 * pool at once) and synchronization validation. The frame: a span cleared
 * and drawn by many commands, each a few overlapping rectangles (so a
 * chunk recorded out of order would change the picture), a chunk boundary
 * suspending and resuming its rendering instance, then a second span
 * drawing over it. Checked: the captured image is byte for byte the one
 * eng_swapchain_present_graph gives, with chunks on 4 threads and on the
 * calling thread; the frame really is cut (commands land in several
 * command buffers); what the application recorded in frame.cmd runs
 * first; a chunk's pools are kept and reset, not freed (the slot's
 * command buffers come back); a failing callback in one chunk ends the
 * frame with a message naming the call, and the next frame is exact. */
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(frame_parallel, .init = device_setup, .fini = device_teardown);

static const uint32_t solid_vert[] =
#include "solid.vert.inc"
    ;
static const uint32_t solid_frag[] =
#include "solid.frag.inc"
    ;

#define W 64u
#define H 48u
#define FIRST_COMMANDS 24u            /* in the cleared span */
#define SECOND_COMMANDS 8u            /* in the span drawn over it */
#define RECTS 5u                      /* per command */
#define MAX_CMDS 64u                  /* distinct command buffers a frame may use, noted */
#define THREADS 4u

typedef struct solid_push {
    float rect[4];
    float color[4];
    float depth;
} solid_push;

typedef struct scene {
    eng_pipeline *pipeline;
    rg_graph *graph;
    rg_texture back;
    uint32_t frame;                   /* moves the rectangles per frame */
    int fail_command;                 /* this command's callback refuses; -1: none */
    /* The command buffers the callbacks recorded into this frame. */
    _Atomic(VkCommandBuffer) seen[MAX_CMDS];
    atomic_uint seen_count;
} scene;

typedef struct command {
    scene *s;
    uint32_t index;
} command;

static command commands[FIRST_COMMANDS + SECOND_COMMANDS];

static void note_cmd(scene *s, VkCommandBuffer cmd)
{
    unsigned n = atomic_load(&s->seen_count);
    for (unsigned i = 0; i < n && i < MAX_CMDS; i++)
        if (atomic_load(&s->seen[i]) == cmd)
            return;
    /* Callbacks of one chunk run on one thread in order, so a buffer is
     * new to at most one thread at a time; two threads may race for a slot. */
    unsigned at = atomic_fetch_add(&s->seen_count, 1);
    if (at < MAX_CMDS)
        atomic_store(&s->seen[at], cmd);
}

/* Overlapping rectangles whose place and color follow the command, the
 * rectangle and the frame. */
static bool record_rects(const rg_record_context *rc, void *user)
{
    const command *c = user;
    scene *s = c->s;
    if ((int)c->index == s->fail_command)
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    note_cmd(s, cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(s->pipeline));
    for (uint32_t k = 0; k < RECTS; k++) {
        uint32_t h = (c->index * 7919u + k * 104729u + s->frame * 31u) * 2654435761u;
        float x = (float)(h % 97) / 97.0f * 1.6f - 1.0f, y = (float)((h >> 8) % 89) / 89.0f * 1.6f - 1.0f;
        solid_push p = {
            .rect = { x, y, x + 0.45f, y + 0.35f },
            .color = { (float)(c->index % 5) / 4.0f, (float)(k % 3) / 2.0f, (float)((h >> 16) % 7) / 6.0f, 1.0f },
        };
        vkCmdPushConstants(cmd, eng_pipeline_layout(s->pipeline), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                           0, sizeof p, &p);
        vkCmdDraw(cmd, 4, 1, 0, 0);
    }
    return true;
}

static void span(scene *s, const char *name, VkAttachmentLoadOp load, uint32_t first, uint32_t count)
{
    rg_begin_rendering(s->graph, &(rg_rendering_desc){
        .name = name, .color_count = 1,
        .colors = { { .texture = s->back, .load = load, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear.color.float32 = { 0.1f, 0.2f, 0.3f, 1.0f } } } });
    for (uint32_t i = first; i < first + count; i++) {
        commands[i] = (command){ .s = s, .index = i };
        rg_cmd_user(s->graph, &(rg_user_desc){ .name = "rects", .kind = RG_COMMAND_DRAW, .record = record_rects,
                                               .user = &commands[i], .cost = RECTS });
    }
    rg_end_rendering(s->graph);
}

static void scene_open(scene *s, VkFormat format)
{
    memset(s, 0, sizeof *s);
    s->fail_command = -1;
    eng_pipeline_desc pd = { .name = "solid", .vertex_spirv = solid_vert, .vertex_size = sizeof solid_vert,
                             .fragment_spirv = solid_frag, .fragment_size = sizeof solid_frag,
                             .color_formats = { format }, .color_count = 1, .triangle_strip = true,
                             .push_constant_size = sizeof(solid_push) };
    cr_assert_eq(eng_pipeline_create(test_ctx, &pd, &s->pipeline), ENG_SUCCESS, "%s", eng_last_error());
    rg_graph_desc gd = { .name = "parallel frame", .device = eng_context_graph_device(test_ctx) };
    cr_assert_eq(rg_graph_create(&gd, &s->graph), RG_SUCCESS);
    s->back = rg_texture_import(s->graph, &(rg_texture_import_desc){
                                              .name = "swapchain", .format = format, .width = W, .height = H,
                                              .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                              .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                              .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                              .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT });
    span(s, "cleared", VK_ATTACHMENT_LOAD_OP_CLEAR, 0, FIRST_COMMANDS);
    span(s, "over", VK_ATTACHMENT_LOAD_OP_LOAD, FIRST_COMMANDS, SECOND_COMMANDS);
    rg_result r = rg_compile(s->graph);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(s->graph));
}

static void scene_close(scene *s)
{
    eng_context_wait_idle(test_ctx);
    rg_graph_destroy(s->graph);
    eng_pipeline_destroy(s->pipeline);
}

static eng_swapchain *offscreen(void)
{
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .offscreen = true, .width = W, .height = H },
                                        &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return sc;
}

typedef struct how {
    bool parallel;                    /* else eng_swapchain_present_graph */
    eng_parallel_desc desc;
} how;

/* Frame f through the chosen call; returns how many command buffers the
 * callbacks recorded into. */
static uint32_t present(eng_swapchain *sc, scene *s, const how *h, uint32_t f, bool capture)
{
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    if (capture)
        cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
    s->frame = f;
    atomic_store(&s->seen_count, 0);
    eng_result r = h->parallel ? eng_swapchain_present_graph_parallel(sc, &frame, s->graph, s->back, &h->desc)
                               : eng_swapchain_present_graph(sc, &frame, s->graph, s->back);
    cr_assert_eq(r, ENG_SUCCESS, "frame %u: %s: %s", f, eng_result_string(r), eng_last_error());
    cr_expect_eq(frame.cmd, VK_NULL_HANDLE);
    return atomic_load(&s->seen_count);
}

/* The last of `frames` frames (over the frames in flight), captured. */
static uint8_t *picture(const how *h, uint32_t frames, uint32_t *cmds)
{
    eng_swapchain *sc = offscreen();
    scene s;
    scene_open(&s, eng_swapchain_format(sc));
    for (uint32_t f = 0; f < frames; f++)
        *cmds = present(sc, &s, h, f, f + 1 == frames);
    uint8_t *px = NULL;
    uint32_t w = 0, hh = 0;
    cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &hh), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(w == W && hh == H);
    scene_close(&s);
    eng_swapchain_destroy(sc);
    return px;
}

static void expect_same(const uint8_t *a, const uint8_t *b, const char *what)
{
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < W * H * 4; i++)
        if (a[i] != b[i] && !bad++)
            first = i;
    cr_expect_eq(bad, 0, "%s: %u bytes differ, first at pixel %u", what, bad, first / 4);
}

/* Chunks on 4 threads, and the same cut on the calling thread: the image
 * eng_swapchain_present_graph gives, byte for byte, over frames in flight;
 * the frame in several command buffers. */
DEVICE_TEST(frame_parallel, same_picture_on_four_threads)
{
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = THREADS }, &workers), RG_SUCCESS);
    uint32_t one = 0, four = 0, serial = 0;
    uint8_t *want = picture(&(how){ 0 }, 5, &one);
    uint8_t *got = picture(&(how){ .parallel = true, .desc = { .workers = workers, .max_chunks = 2 * THREADS } }, 5,
                           &four);
    uint8_t *cut = picture(&(how){ .parallel = true, .desc = { .max_chunks = 2 * THREADS } }, 5, &serial);
    cr_log_info("command buffers recorded into: %u (one per batch), %u (4 threads), %u (calling thread)", one, four,
                serial);
    cr_expect_eq(one, 1, "eng_swapchain_present_graph used %u command buffers", one);
    cr_expect_geq(four, 2, "the frame was not cut into chunks: %u command buffers", four);
    cr_expect_eq(serial, four, "the same cut on one thread: %u command buffers, %u on 4", serial, four);
    expect_same(want, got, "4 threads");
    expect_same(want, cut, "chunks on the calling thread");
    free(want);
    free(got);
    free(cut);
    rg_workers_destroy(workers);
}

/* The first graphics chunk is recorded into frame.cmd (after what the
 * application recorded there): a callback of it recorded into that
 * command buffer. */
DEVICE_TEST(frame_parallel, first_chunk_is_frame_cmd)
{
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = THREADS }, &workers), RG_SUCCESS);
    eng_swapchain *sc = offscreen();
    scene s;
    scene_open(&s, eng_swapchain_format(sc));
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    VkCommandBuffer first = frame.cmd;
    eng_result r = eng_swapchain_present_graph_parallel(sc, &frame, s.graph, s.back,
                                                        &(eng_parallel_desc){ .workers = workers, .max_chunks = 8 });
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    bool found = false;
    for (unsigned i = 0; i < atomic_load(&s.seen_count) && i < MAX_CMDS; i++)
        found |= atomic_load(&s.seen[i]) == first;
    cr_expect(found, "no callback recorded into frame.cmd");
    scene_close(&s);
    eng_swapchain_destroy(sc);
    rg_workers_destroy(workers);
}

/* A chunk's command buffers come from pools kept per slot and chunk
 * index: reset at the slot's acquire, not freed, so the slot's next frame
 * gets the same handles back; indices past ENG_MAX_FRAME_CHUNKS are
 * refused. */
DEVICE_TEST(frame_parallel, chunk_pools_kept_per_slot)
{
    eng_swapchain *sc = offscreen(); /* 2 frames in flight */
    VkCommandBuffer got[4][3];
    for (uint32_t f = 0; f < 4; f++) {
        eng_frame frame;
        cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
        for (uint32_t i = 0; i < 3; i++)
            cr_assert_eq(eng_frame_chunk_command_buffer(sc, &frame, ENG_QUEUE_GRAPHICS, 2 * i + 1, &got[f][i]),
                         ENG_SUCCESS, "%s", eng_last_error());
        VkCommandBuffer none = VK_NULL_HANDLE;
        cr_expect_eq(eng_frame_chunk_command_buffer(sc, &frame, ENG_QUEUE_GRAPHICS, ENG_MAX_FRAME_CHUNKS, &none),
                     ENG_ERROR_INVALID_ARGUMENT);
        cr_expect(strstr(eng_last_error(), "eng_frame_chunk_command_buffer: chunk") != NULL, "%s", eng_last_error());
        cr_expect_eq(none, VK_NULL_HANDLE);
        for (uint32_t i = 0; i < 3; i++)
            cr_assert_eq(vkEndCommandBuffer(got[f][i]), VK_SUCCESS);
        eng_swapchain_finish_image(sc, &frame, VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0);
        cr_assert_eq(eng_swapchain_present(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    }
    for (uint32_t i = 0; i < 3; i++) {
        cr_expect_eq(got[2][i], got[0][i], "slot 0, chunk %u: a new command buffer", 2 * i + 1);
        cr_expect_eq(got[3][i], got[1][i], "slot 1, chunk %u: a new command buffer", 2 * i + 1);
        cr_expect_neq(got[0][i], got[1][i], "two slots share chunk %u's command buffer", 2 * i + 1);
    }
    /* A presented frame is refused. */
    eng_frame stale = { 0 };
    VkCommandBuffer none = VK_NULL_HANDLE;
    cr_expect_eq(eng_frame_chunk_command_buffer(sc, &stale, ENG_QUEUE_GRAPHICS, 0, &none), ENG_ERROR_INVALID_ARGUMENT);
    eng_swapchain_destroy(sc);
}

/* A callback failing in one chunk while others record on other threads:
 * the frame is ended without the graph, the message names the call and
 * the command, and the next frames are exact (the picture of
 * eng_swapchain_present_graph's frame of the same number). */
DEVICE_TEST(frame_parallel, failed_chunk_ends_the_frame)
{
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = THREADS }, &workers), RG_SUCCESS);
    uint32_t ignored = 0;
    uint8_t *want = picture(&(how){ 0 }, 4, &ignored);

    eng_swapchain *sc = offscreen();
    scene s;
    scene_open(&s, eng_swapchain_format(sc));
    how h = { .parallel = true, .desc = { .workers = workers, .max_chunks = 2 * THREADS } };
    present(sc, &s, &h, 0, false);
    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    s.frame = 1;
    s.fail_command = FIRST_COMMANDS / 2;
    eng_result r = eng_swapchain_present_graph_parallel(sc, &frame, s.graph, s.back, &h.desc);
    const char *msg = eng_last_error();
    cr_log_info("refused: %s: %s", eng_result_string(r), msg);
    cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT, "%s: %s", eng_result_string(r), msg);
    cr_expect(strncmp(msg, "eng_swapchain_present_graph_parallel: ", 38) == 0, "the message does not name the call: %s",
              msg);
    cr_expect(strstr(msg, "rects") != NULL, "the message does not name the command: %s", msg);
    cr_assert_eq(frame.cmd, VK_NULL_HANDLE, "the refused frame was not ended");
    s.fail_command = -1;
    present(sc, &s, &h, 2, false);
    present(sc, &s, &h, 3, true);
    uint8_t *px = NULL;
    uint32_t w = 0, hh = 0;
    cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &hh), ENG_SUCCESS, "%s", eng_last_error());
    expect_same(want, px, "the frame after a failed one");
    free(px);
    free(want);
    scene_close(&s);
    eng_swapchain_destroy(sc);
    rg_workers_destroy(workers);
}
