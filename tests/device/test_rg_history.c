/* History textures on a device (rg_texture_create_history): every frame
 * reads exactly what the frame before wrote, the first frame after a
 * placement reads the declared clear value, and a new declaration (another
 * size) starts over; exact values read back, and the validation layer
 * (synchronization validation included) stays silent across frames, in
 * one command buffer and across submissions. */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "rg_support.h"
#include "solid.h"
#include "test_shaders.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_history, .init = device_setup, .fini = device_teardown);

#define FMT VK_FORMAT_R32_UINT
#define MAX_W 16
#define MAX_H 8
#define CLEAR 7u
#define MAX_FRAMES 16

static const float full[4] = { -1, -1, 1, 1 };

/* What history_step.frag adds at (x, y) each frame. */
static uint32_t step(uint32_t x, uint32_t y) { return 1 + x + 100 * y; }

/* The draw of one frame: current = previous + step, previous sampled
 * through a descriptor set per view (previous alternates between two
 * images, and a set bound in a recording command buffer must not be
 * updated). */
typedef struct feedback {
    VkDevice dev;
    rg_graph *graph;
    eng_pipeline *pipeline;
    VkDescriptorSetLayout layout;
    VkDescriptorPool pool;
    rg_texture previous;
    VkImageView views[8];
    VkDescriptorSet sets[8];
    uint32_t set_count;
    bool valid[MAX_FRAMES];           /* rg_texture_history_valid as each frame was recorded */
    uint32_t frames;
} feedback;

static VkDescriptorSet set_for(feedback *f, VkImageView view)
{
    for (uint32_t i = 0; i < f->set_count; i++)
        if (f->views[i] == view)
            return f->sets[i];
    cr_assert_lt(f->set_count, 8);
    VkDescriptorSet set = test_alloc_set(f->dev, f->pool, f->layout);
    test_write_image(f->dev, set, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    f->views[f->set_count] = view;
    f->sets[f->set_count++] = set;
    return set;
}

static bool draw_step(const rg_record_context *rc, void *user)
{
    feedback *f = user;
    VkImageView view = rg_record_view(rc, f->previous);
    if (!view || f->frames >= MAX_FRAMES)
        return false;
    f->valid[f->frames++] = rg_texture_history_valid(f->graph, f->previous);
    VkDescriptorSet set = set_for(f, view);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(f->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(f->pipeline), 0, 1, &set, 0,
                            NULL);
    static const float none[4] = { 0, 0, 0, 0 };
    solid_draw(cmd, f->pipeline, full, none, 0.0f);
    return true;
}

static void feedback_open(feedback *f)
{
    memset(f, 0, sizeof *f);
    f->dev = eng_context_device(test_ctx);
    f->layout = test_set_layout(f->dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    f->pool = test_descriptor_pool(f->dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8, 8);
    eng_pipeline_desc d = solid_fragment_desc("history step", history_step_frag, history_step_frag_size, FMT);
    d.set_layouts = &f->layout;
    d.set_layout_count = 1;
    cr_assert_eq(eng_pipeline_create(test_ctx, &d, &f->pipeline), ENG_SUCCESS, "%s", eng_last_error());
}

static void feedback_close(feedback *f)
{
    eng_pipeline_destroy(f->pipeline);
    vkDestroyDescriptorPool(f->dev, f->pool, NULL);
    vkDestroyDescriptorSetLayout(f->dev, f->layout, NULL);
}

/* The frame: one span writes current from previous, then current is
 * copied to the readback buffer. Returns current. */
static rg_texture declare_feedback(feedback *f, uint32_t w, uint32_t h, eng_buffer *readback)
{
    rg_graph *g = f->graph;
    rg_texture current = rg_texture_create_history(g, &(rg_texture_desc){
                                                          .name = "accumulated", .format = FMT, .width = w,
                                                          .height = h, .history_clear.color.uint32 = { CLEAR } },
                                                   &f->previous);
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "step",
                              .colors = { { .texture = current, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                            .store = VK_ATTACHMENT_STORE_OP_STORE } },
                              .color_count = 1 });
    rg_access read = { .texture = f->previous, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "add step", .kind = RG_COMMAND_DRAW, .accesses = &read,
                                     .access_count = 1, .record = draw_step, .user = f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, out, 0);
    test_compile(g);
    return current;
}

/* The read-back frame holds the clear value plus `frames` steps at every
 * pixel. */
static void expect_frames(const eng_buffer *readback, uint32_t w, uint32_t h, uint32_t frames)
{
    const uint32_t *v = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t want = CLEAR + frames * step(x, y);
            if (v[y * w + x] != want && bad++ < 4)
                cr_expect_eq(v[y * w + x], want, "(%u,%u) after %u frames: %u, want %u", x, y, frames,
                             v[y * w + x], want);
        }
    cr_expect_eq(bad, 0, "%u pixels differ after %u frames", bad, frames);
}

/* Frames 1..4 one per submission, then three in one command buffer; then
 * a declaration at another size starts over from the clear value. */
DEVICE_TEST(rg_history, each_frame_reads_the_frame_before)
{
    feedback f;
    feedback_open(&f);
    eng_buffer *readback = test_host_buffer(MAX_W * MAX_H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    f.graph = test_device_graph("history");
    rg_texture current = declare_feedback(&f, 8, 4, readback);
    cr_expect_not(rg_texture_history_valid(f.graph, f.previous), "compiled, not placed");
    cr_assert_eq(rg_place(f.graph), RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    cr_expect_eq(rg_texture_memory(f.graph, current, NULL, NULL), RG_MEMORY_DEDICATED);
    cr_expect_eq(rg_texture_memory(f.graph, f.previous, NULL, NULL), RG_MEMORY_DEDICATED);
    cr_expect_not(rg_texture_history_valid(f.graph, f.previous), "placed: the next frame is the first");
    VkImage written[5] = { 0 };
    for (uint32_t n = 1; n <= 4; n++) {
        test_run(f.graph, 1);
        expect_frames(readback, 8, 4, n);
        cr_expect_eq(f.valid[n - 1], n > 1, "frame %u recorded with history valid = %d", n, f.valid[n - 1]);
        cr_expect(rg_texture_history_valid(f.graph, f.previous));
        written[n] = rg_texture_image(f.graph, current);
        /* The image the frame before wrote is the one this frame read;
         * two images take turns. */
        if (n > 1)
            cr_expect_eq(rg_texture_image(f.graph, f.previous), written[n - 1]);
        if (n > 2)
            cr_expect_eq(written[n], written[n - 2]);
    }
    test_run(f.graph, 3);
    expect_frames(readback, 8, 4, 7);
    cr_expect_eq(f.frames, 7);

    /* Re-declared alike (rg_graph_reset): the placement is taken back
     * whole, and the history goes on. */
    rg_graph_reset(f.graph);
    declare_feedback(&f, 8, 4, readback);
    test_run(f.graph, 1);
    expect_frames(readback, 8, 4, 8);
    cr_expect(f.valid[7], "the history goes on across a re-declaration alike");

    /* Resized: a new declaration, new images, cleared again. */
    rg_graph_reset(f.graph);
    f.frames = 0;
    declare_feedback(&f, MAX_W, MAX_H, readback);
    test_run(f.graph, 1);
    expect_frames(readback, MAX_W, MAX_H, 1);
    cr_expect_not(f.valid[0], "the first frame after a new declaration has no history");
    test_run(f.graph, 2);
    expect_frames(readback, MAX_W, MAX_H, 3);
    cr_expect(f.valid[1] && f.valid[2]);

    rg_graph_destroy(f.graph);
    eng_buffer_destroy(readback);
    feedback_close(&f);
}

/* Transfers only, with culling on: each frame copies an upload buffer
 * into current and previous into a readback buffer, so frame N reads back
 * frame N-1's upload, and the first frame the clear value. Nothing in the
 * frame reads current: its copy is kept because the next frame does. */
DEVICE_TEST(rg_history, copies_see_the_frame_before)
{
    enum { W = 4, H = 4, N = W * H };
    eng_buffer *upload = test_host_buffer(N * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, NULL);
    eng_buffer *readback = test_host_buffer(N * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "history copies", .device = eng_context_graph_device(test_ctx) }, &g), RG_SUCCESS);
    rg_texture previous;
    rg_texture current = rg_texture_create_history(g, &(rg_texture_desc){
                                                          .name = "copied", .format = FMT, .width = W, .height = H,
                                                          .history_clear.color.uint32 = { 0xabcd } },
                                                   &previous);
    rg_buffer in = test_import_buffer(g, "upload", upload, false);
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_command read = rg_cmd_copy_texture_to_buffer(g, previous, 0, 0, 1, out, 0);
    rg_command write = rg_cmd_copy_buffer_to_texture(g, in, 0, current, 0, 0, 1);
    test_compile(g);
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, write, &info), RG_SUCCESS);
    cr_expect_not(info.culled, "the write of current is kept");
    cr_assert_eq(rg_command_get_info(g, read, &info), RG_SUCCESS);
    cr_expect_not(info.culled);
    uint32_t *up = eng_buffer_mapped(upload);
    const uint32_t *back = eng_buffer_mapped(readback);
    for (uint32_t frame = 1; frame <= 5; frame++) {
        for (uint32_t i = 0; i < N; i++)
            up[i] = frame * 1000 + i;
        test_run(g, 1);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want = frame == 1 ? 0xabcd : (frame - 1) * 1000 + i;
            cr_expect_eq(back[i], want, "frame %u, texel %u: %u, want %u", frame, i, back[i], want);
        }
    }
    rg_graph_destroy(g);
    eng_buffer_destroy(upload);
    eng_buffer_destroy(readback);
}

/* Previous read by nothing (what a first frame that skips the read
 * declares): frame N's first write of current, a layout transition from
 * UNDEFINED, must wait for frame N-2's write of the same image, with
 * nothing in between to chain through. Three frames in one command buffer
 * (synchronization validation 1.4.309 sees the write-after-write there),
 * then two more one per submission; with the copy, each frame reads back
 * its own clear value. */
DEVICE_TEST(rg_history, unread_previous_waits_for_the_write_two_frames_before)
{
    enum { W = 64, H = 64 };
    eng_buffer *readback = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    for (int copy = 0; copy < 2; copy++) {
        rg_graph *g = test_device_graph("history, previous unread");
        rg_texture previous;
        rg_texture current = rg_texture_create_history(
            g, &(rg_texture_desc){ .name = "written only", .format = FMT, .width = W, .height = H }, &previous);
        rg_begin_rendering(g, &(rg_rendering_desc){
                                  .name = "clear current",
                                  .colors = { { .texture = current, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                .store = VK_ATTACHMENT_STORE_OP_STORE,
                                                .clear.color.uint32 = { 0x5eed } } },
                                  .color_count = 1 });
        rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
        rg_end_rendering(g);
        if (copy)
            rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, test_import_buffer(g, "readback", readback, true), 0);
        test_compile(g);
        static const int runs[] = { 3, 1, 1 };
        for (uint32_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
            memset(eng_buffer_mapped(readback), 0, W * H * 4);
            test_run(g, runs[i]);
            const uint32_t *v = eng_buffer_mapped(readback);
            if (copy)
                cr_expect_eq(v[0] == 0x5eed && v[W * H - 1] == 0x5eed, true, "read back 0x%x .. 0x%x", v[0],
                             v[W * H - 1]);
        }
        rg_graph_destroy(g);
    }
    eng_buffer_destroy(readback);
}
