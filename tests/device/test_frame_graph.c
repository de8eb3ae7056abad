/* Render graphs run as swapchain frames (eng_swapchain_present_graph) on an
 * offscreen swapchain, validation and synchronization validation on: a
 * clear on the graphics queue, a dispatch eligible for the compute queue
 * that writes a region of the cleared storage image, a draw on the graphics
 * queue that copies it texel for texel into the swapchain image, and a
 * copy of a buffer the application filled in frame.cmd before the graph.
 * Where the context has a compute queue that is three batches on two
 * queues (graphics, compute, graphics: two graphics command buffers of the
 * frame and one compute one); on one queue (lavapipe, single_queue) one
 * batch. Every captured frame is checked pixel by pixel against its own
 * region, over frames in flight. Also: the frame's exposed semaphores and
 * fence, its command buffers per queue, a frame submitted by hand
 * (eng_swapchain_present_submitted), and graphs that cannot record a
 * frame (failed compile, not compiled, stale backbuffer, a failing record
 * callback mid-frame): a clear error naming the call, the frame ended, the
 * next frame exact. */
#include "device_fixture.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <math.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(frame_graph, .init = device_setup, .fini = device_teardown);

/* overlap_ao.comp with 0 samples stores 1.0 in every texel of the region
 * params.yz from the origin; sample.frag copies its texel (r, 0, 0, 1). */
static const uint32_t region_comp[] =
#include "overlap_ao.comp.inc"
    ;
static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t sample_frag[] =
#include "sample.frag.inc"
    ;

#define W 24u
#define H 16u
#define FRAMES 7u
#define CLEAR 0.25f                   /* the storage image's clear; the region holds 1.0 */

/* What the pipelines and descriptor sets share across graphs. */
typedef struct kit {
    VkDevice dev;
    eng_pipeline *region, *show;
    VkDescriptorSetLayout storage_layout, sampled_layout;
    VkDescriptorPool pool;
    VkFormat format;                  /* the swapchain's */
} kit;

/* One graph of the frame and what its callbacks read. */
typedef struct frame_graph {
    kit *k;
    rg_graph *graph;
    rg_texture back, pattern;
    rg_command dispatch;
    VkDescriptorSet storage_set, sampled_set;
    uint32_t region_w, region_h;      /* this frame's dispatch */
    bool fail_draw;                   /* the draw's callback refuses */
    /* The application's fill (frame.cmd, before the graph) and the graph's
     * copy of it into readback. */
    eng_buffer *filled, *readback;
} frame_graph;

static bool has_compute_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_COMPUTE) != VK_NULL_HANDLE;
}

/* An 8-bit sRGB channel of a linear value; the values used are away from
 * rounding ties, so that any conforming conversion gives this byte. */
static uint8_t srgb8(float c)
{
    double v = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    double scaled = v * 255.0;
    cr_assert(fabs(scaled - floor(scaled) - 0.5) > 0.15, "%f lands on a rounding tie", (double)c);
    return (uint8_t)lround(scaled);
}

/* ------------------------------------------------------------------ kit */

static VkDescriptorSetLayout one_binding(VkDevice dev, VkDescriptorType type, VkShaderStageFlags stage)
{
    VkDescriptorSetLayoutBinding b = { 0, type, 1, stage, NULL };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 1, .pBindings = &b };
    VkDescriptorSetLayout layout;
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &ci, NULL, &layout), VK_SUCCESS);
    return layout;
}

static void kit_open(kit *k, VkFormat format)
{
    *k = (kit){ .dev = eng_context_device(test_ctx), .format = format };
    k->storage_layout = one_binding(k->dev, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_SHADER_STAGE_COMPUTE_BIT);
    k->sampled_layout = one_binding(k->dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 8 },
                                      { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8 } };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 16,
                                       .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(k->dev, &pci, NULL, &k->pool), VK_SUCCESS);
    eng_result r = eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                   .name = "region", .spirv = region_comp,
                                                   .size = sizeof region_comp, .set_layouts = &k->storage_layout,
                                                   .set_layout_count = 1, .push_constant_size = 16 },
                                               &k->region);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    r = eng_pipeline_create(test_ctx, &(eng_pipeline_desc){
                                .name = "show", .vertex_spirv = fullscreen_vert, .vertex_size = sizeof fullscreen_vert,
                                .fragment_spirv = sample_frag, .fragment_size = sizeof sample_frag,
                                .color_formats = { format }, .color_count = 1,
                                .set_layouts = &k->sampled_layout, .set_layout_count = 1 },
                            &k->show);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
}

static void kit_close(kit *k)
{
    eng_pipeline_destroy(k->region);
    eng_pipeline_destroy(k->show);
    vkDestroyDescriptorPool(k->dev, k->pool, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->storage_layout, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->sampled_layout, NULL);
}

/* A set of the one binding, written once: the graph's views stay the same
 * while it stays placed. Callbacks of a frame recorded on several threads
 * (test_chunks.h) allocate at once: the pool is taken in turn. */
static VkDescriptorSet one_set(kit *k, VkDescriptorSetLayout layout, VkDescriptorType type, VkImageView view,
                               VkImageLayout image_layout)
{
    static atomic_flag pool_busy = ATOMIC_FLAG_INIT;
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = k->pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    VkDescriptorSet set;
    while (atomic_flag_test_and_set_explicit(&pool_busy, memory_order_acquire))
        ;
    VkResult vr = vkAllocateDescriptorSets(k->dev, &ai, &set);
    atomic_flag_clear_explicit(&pool_busy, memory_order_release);
    cr_assert_eq(vr, VK_SUCCESS);
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, image_layout };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                               .descriptorType = type, .pImageInfo = &ii };
    vkUpdateDescriptorSets(k->dev, 1, &w, 0, NULL);
    return set;
}

/* ---------------------------------------------------------------- graph */

static bool record_region(const rg_record_context *rc, void *user)
{
    frame_graph *fg = user;
    VkImageView view = rg_record_view(rc, fg->pattern);
    if (!view)
        return false;
    if (!fg->storage_set)
        fg->storage_set = one_set(fg->k, fg->k->storage_layout, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, view,
                                  VK_IMAGE_LAYOUT_GENERAL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(fg->k->region);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, eng_pipeline_handle(fg->k->region));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &fg->storage_set, 0, NULL);
    const uint32_t params[4] = { 0, fg->region_w, fg->region_h, 0 }; /* 0 samples: 1.0 */
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params, params);
    vkCmdDispatch(cmd, (fg->region_w + 7) / 8, (fg->region_h + 7) / 8, 1);
    return true;
}

static bool record_show(const rg_record_context *rc, void *user)
{
    frame_graph *fg = user;
    if (fg->fail_draw)
        return false;
    VkImageView view = rg_record_view(rc, fg->pattern);
    if (!view)
        return false;
    if (!fg->sampled_set)
        fg->sampled_set = one_set(fg->k, fg->k->sampled_layout, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view,
                                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(fg->k->show));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(fg->k->show), 0, 1,
                            &fg->sampled_set, 0, NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

/* The swapchain import's final state. */
typedef enum final_state {
    FINAL_COLOR_ATTACHMENT = 0,       /* as the demos leave it */
    FINAL_UNDEFINED,                  /* left as the last use leaves it */
    FINAL_TRANSFER_SRC,               /* a layout of its own, at COPY */
} final_state;

typedef struct graph_opts {
    bool single_queue;                /* rg_graph_desc.single_queue */
    final_state final;
} graph_opts;

/* Declares and compiles the frame (see the file's head) for frames of the
 * given extent and format. */
static void graph_open(frame_graph *fg, kit *k, const graph_opts *o)
{
    *fg = (frame_graph){ .k = k };
    rg_graph_desc gd = { .name = o->single_queue ? "frame (one queue)" : "frame",
                         .device = eng_context_graph_device(test_ctx), .single_queue = o->single_queue };
    cr_assert_eq(rg_graph_create(&gd, &fg->graph), RG_SUCCESS);
    rg_graph *g = fg->graph;
    rg_texture_import_desc back = {
        .name = "swapchain", .format = k->format, .width = W, .height = H,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
    };
    if (o->final == FINAL_COLOR_ATTACHMENT) {
        back.final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        back.final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        back.final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    } else if (o->final == FINAL_TRANSFER_SRC) {
        back.final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        back.final_stage = VK_PIPELINE_STAGE_2_COPY_BIT;
        back.final_access = VK_ACCESS_2_TRANSFER_READ_BIT;
    }
    fg->back = rg_texture_import(g, &back);
    fg->pattern = rg_texture_create(g, &(rg_texture_desc){ .name = "pattern", .format = VK_FORMAT_R32_SFLOAT,
                                                           .width = W, .height = H });
    rg_cmd_clear_texture(g, fg->pattern, NULL, &(VkClearValue){ .color.float32 = { CLEAR, 0, 0, 0 } });
    rg_access rw = { .texture = fg->pattern, .usage = RG_USAGE_STORAGE_READ_WRITE_COMPUTE, .whole = true };
    fg->dispatch = rg_cmd_user(g, &(rg_user_desc){ .name = "region", .accesses = &rw, .access_count = 1,
                                                    .record = record_region, .user = fg,
                                                    .queue = RG_QUEUE_COMPUTE });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "show", .color_count = 1,
                                                .colors = { { .texture = fg->back,
                                                              .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access read = { .texture = fg->pattern, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "show", .kind = RG_COMMAND_DRAW, .accesses = &read, .access_count = 1,
                                     .record = record_show, .user = fg });
    rg_end_rendering(g);

    /* The application's fill of `filled` in frame.cmd is the import's
     * previous use; the graph copies it into readback for the host. */
    eng_buffer_desc bd = { .size = 16, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
    bd.name = "filled";
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &fg->filled), ENG_SUCCESS, "%s", eng_last_error());
    bd.name = "readback";
    bd.memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &fg->readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_buffer filled = rg_buffer_import(g, &(rg_buffer_import_desc){
                                               .name = "filled", .buffer = eng_buffer_handle(fg->filled), .size = 16,
                                               .initial_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                               .initial_access = VK_ACCESS_2_TRANSFER_WRITE_BIT });
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){
                                                 .name = "readback", .buffer = eng_buffer_handle(fg->readback),
                                                 .size = 16, .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                 .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_cmd_copy_buffer(g, filled, 0, readback, 0, 16);
    rg_result r = rg_compile(g);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(g));
}

static void graph_close(frame_graph *fg)
{
    eng_context_wait_idle(test_ctx); /* the graph's memory and the buffers are in use until then */
    rg_graph_destroy(fg->graph);
    eng_buffer_destroy(fg->filled);
    eng_buffer_destroy(fg->readback);
}

/* The batches: where the graph may use a compute queue the device has,
 * graphics (the clear), compute (the dispatch), graphics (the draw and the
 * frame's end) at least, the dispatch on compute; else one batch. The last
 * batch is on the graphics queue. */
static void expect_batches(const frame_graph *fg, bool multi)
{
    uint32_t n = rg_batch_count(fg->graph);
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(fg->graph, fg->dispatch, &info), RG_SUCCESS);
    uint32_t on[RG_QUEUE_COUNT] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(fg->graph, i, &b), RG_SUCCESS);
        cr_assert_lt(b.queue, RG_QUEUE_COUNT);
        on[b.queue]++;
        cr_log_info("batch %u of %u: %s", i, n, rg_queue_name(b.queue));
        if (i == n - 1)
            cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS, "the last batch runs on %s", rg_queue_name(b.queue));
    }
    if (multi && has_compute_queue()) {
        cr_expect_geq(n, 3, "a compute queue, yet %u batches", n);
        cr_expect_geq(on[RG_QUEUE_GRAPHICS], 2, "%u graphics batches", on[RG_QUEUE_GRAPHICS]);
        cr_expect_geq(on[RG_QUEUE_COMPUTE], 1, "no compute batch");
        cr_expect_eq(info.queue, RG_QUEUE_COMPUTE, "the dispatch runs on %s", rg_queue_name(info.queue));
    } else {
        cr_expect_eq(n, 1, "%u batches (compute queue: %d, single_queue: %d)", n, has_compute_queue(), !multi);
        cr_expect_eq(info.queue, RG_QUEUE_GRAPHICS);
    }
}

/* ---------------------------------------------------------------- frames */

static eng_swapchain *offscreen(void)
{
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .offscreen = true, .width = W, .height = H },
                                        &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return sc;
}

/* Every pixel of the capture: (1.0, 0, 0) inside the frame's region,
 * (CLEAR, 0, 0) outside, sRGB-encoded, opaque. */
static void expect_capture(eng_swapchain *sc, uint32_t region_w, uint32_t region_h, const char *what)
{
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &h), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(w == W && h == H, "%ux%u", w, h);
    const uint8_t inside = srgb8(1.0f), outside = srgb8(CLEAR);
    uint32_t bad = 0;
    char first[128] = "";
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            uint8_t want = x < region_w && y < region_h ? inside : outside;
            if (p[0] != want || p[1] != 0 || p[2] != 0 || p[3] != 255) {
                if (!bad++)
                    snprintf(first, sizeof first, "(%u,%u) = %u,%u,%u,%u, want %u,0,0,255", x, y, p[0], p[1], p[2],
                             p[3], want);
            }
        }
    cr_expect_eq(bad, 0, "%s: %u of %u pixels differ; first %s", what, bad, w * h, first);
    free(px);
}

/* The application's own work in frame.cmd before the graph: `value` into
 * fg->filled, after the previous frame's copy of it (same queue). */
static void record_fill(const frame_graph *fg, VkCommandBuffer cmd, uint32_t value)
{
    VkMemoryBarrier2 mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                            .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                            .dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                            .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                             .pMemoryBarriers = &mb };
    vkCmdPipelineBarrier2(cmd, &dep);
    vkCmdFillBuffer(cmd, eng_buffer_handle(fg->filled), 0, 16, value);
}

/* Frames first .. first + count - 1 through eng_swapchain_present_graph,
 * each with its own region and fill value; every third frame and the last
 * are captured (the others stay in flight) and checked, with the copy of
 * the application's fill. */
static void run_frames(eng_swapchain *sc, frame_graph *fg, uint32_t first, uint32_t count)
{
    for (uint32_t f = first; f < first + count; f++) {
        eng_frame frame;
        eng_result r = eng_swapchain_acquire(sc, &frame);
        cr_assert_eq(r, ENG_SUCCESS, "frame %u: %s", f, eng_last_error());
        fg->region_w = 3 + 2 * (f % 8);
        fg->region_h = 2 + f % 12;
        bool check = f % 3 == 2 || f == first + count - 1;
        if (check)
            cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        record_fill(fg, frame.cmd, 1000 + f);
        r = test_present_graph(sc, &frame, fg->graph, fg->back);
        cr_assert_eq(r, ENG_SUCCESS, "frame %u: %s: %s", f, eng_result_string(r), eng_last_error());
        cr_expect_eq(frame.cmd, VK_NULL_HANDLE, "frame %u: frame.cmd still set after the present", f);
        if (!check)
            continue;
        char what[32];
        snprintf(what, sizeof what, "frame %u", f);
        expect_capture(sc, fg->region_w, fg->region_h, what); /* waits for the frame's fence */
        const uint32_t *copied = eng_buffer_mapped(fg->readback);
        cr_expect_eq(copied[0], 1000 + f, "frame %u: the graph copied %u: the fill in frame.cmd did not run first", f,
                     copied[0]);
    }
}

static void frames_test(const graph_opts *o)
{
    eng_swapchain *sc = offscreen();
    kit k;
    kit_open(&k, eng_swapchain_format(sc));
    frame_graph fg;
    graph_open(&fg, &k, o);
    expect_batches(&fg, !o->single_queue);
    run_frames(sc, &fg, 0, FRAMES);
    graph_close(&fg);
    eng_swapchain_destroy(sc);
    kit_close(&k);
}

DEVICE_TEST(frame_graph, on_every_queue)
{
    frames_test(&(graph_opts){ 0 });
}

DEVICE_TEST(frame_graph, on_one_queue)
{
    frames_test(&(graph_opts){ .single_queue = true });
}

/* The image is finished from the state the graph leaves it in: an
 * import's final_layout UNDEFINED leaves it in the layout of its last use
 * (finished from every stage), another final layout is the graph's last
 * transition. The validation layer checks the finishing barrier's old
 * layout against the image's. */
DEVICE_TEST(frame_graph, backbuffer_left_as_last_used)
{
    frames_test(&(graph_opts){ .final = FINAL_UNDEFINED });
}

DEVICE_TEST(frame_graph, backbuffer_left_for_transfer)
{
    frames_test(&(graph_opts){ .final = FINAL_TRANSFER_SRC });
}

/* ------------------------------------------------------- synchronization */

static bool clear_only(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* The frame's semaphores and fence, its command buffers per queue, and a
 * frame submitted by hand: frame.cmd recorded with rg_execute, finished,
 * ended and submitted with frame.fence, then
 * eng_swapchain_present_submitted. */
DEVICE_TEST(frame_graph, exposed_synchronization_and_hand_submission)
{
    eng_swapchain *sc = offscreen();
    VkDevice dev = eng_context_device(test_ctx);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "clear", .device = eng_context_graph_device(test_ctx) },
                                 &g),
                 RG_SUCCESS);
    rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){
                                               .name = "swapchain", .format = eng_swapchain_format(sc), .width = W,
                                               .height = H,
                                               .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                               .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT });
    rg_attachment a = { .texture = back, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                        .clear.color.float32 = { CLEAR, 0.0f, 0.0f, 1.0f } };
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .colors = { a }, .color_count = 1 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = clear_only });
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));

    eng_frame frame;
    cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    /* Offscreen: nothing to acquire or present, the slot's fence alone,
     * unsignalled until the frame's last submission. */
    cr_expect_eq(frame.acquire_semaphore, VK_NULL_HANDLE);
    cr_expect_eq(frame.present_semaphore, VK_NULL_HANDLE);
    cr_assert_neq(frame.fence, VK_NULL_HANDLE);
    cr_expect_eq(vkGetFenceStatus(dev, frame.fence), VK_NOT_READY);

    /* One command buffer per call, of each kind's queue (the graphics
     * queue's family where there is no such queue): never frame.cmd, never
     * one handed out before. */
    VkCommandBuffer got[ENG_QUEUE_KIND_COUNT + 1];
    for (uint32_t i = 0; i <= ENG_QUEUE_KIND_COUNT; i++) {
        eng_queue_kind kind = i < ENG_QUEUE_KIND_COUNT ? (eng_queue_kind)i : ENG_QUEUE_GRAPHICS;
        eng_result r = eng_frame_command_buffer(sc, &frame, kind, &got[i]);
        cr_assert_eq(r, ENG_SUCCESS, "kind %u: %s", i, eng_last_error());
        cr_assert_neq(got[i], VK_NULL_HANDLE);
        cr_expect_neq(got[i], frame.cmd);
        for (uint32_t j = 0; j < i; j++)
            cr_expect_neq(got[i], got[j], "calls %u and %u gave one command buffer", j, i);
    }
    VkCommandBuffer none = got[0];
    cr_expect_eq(eng_frame_command_buffer(sc, &frame, ENG_QUEUE_KIND_COUNT, &none), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(none, VK_NULL_HANDLE);
    /* Those are left unsubmitted: the slot's next acquire resets them. */

    cr_assert_eq(rg_texture_set_image(g, back, &(rg_import_image){
                     .image = frame.image, .view = frame.view, .format = frame.format, .width = frame.extent.width,
                     .height = frame.extent.height, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT }),
                 RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute(g, frame.cmd), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
    eng_swapchain_finish_image(sc, &frame, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    cr_assert_eq(vkEndCommandBuffer(frame.cmd), VK_SUCCESS);
    VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                      .commandBuffer = frame.cmd };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                         .pCommandBufferInfos = &cbi };
    cr_assert_eq(vkQueueSubmit2(eng_context_queue(test_ctx), 1, &si, frame.fence), VK_SUCCESS);
    eng_frame kept = frame;
    cr_assert_eq(eng_swapchain_present_submitted(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(frame.cmd, VK_NULL_HANDLE);
    expect_capture(sc, 0, 0, "hand-submitted frame");
    cr_expect_eq(vkGetFenceStatus(dev, kept.fence), VK_SUCCESS, "the capture was read, yet the fence is unsignalled");

    /* The frame is over: no more command buffers, no second present. */
    cr_expect_eq(eng_frame_command_buffer(sc, &kept, ENG_QUEUE_GRAPHICS, &none), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_present_submitted(sc, &kept), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_present(sc, &kept), ENG_ERROR_INVALID_ARGUMENT);

    /* Every slot comes round again (its pools reset with the command
     * buffers the first frame left recording); present_graph serves the
     * same single-queue graph. */
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(eng_swapchain_acquire(sc, &frame), ENG_SUCCESS, "%s", eng_last_error());
        cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        eng_result r = test_present_graph(sc, &frame, g, back);
        cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
        expect_capture(sc, 0, 0, "present_graph frame");
    }
    eng_context_wait_idle(test_ctx);
    rg_graph_destroy(g);
    eng_swapchain_destroy(sc);
}

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
    eng_swapchain *sc = offscreen();
    kit k;
    kit_open(&k, eng_swapchain_format(sc));
    frame_graph fg;
    graph_open(&fg, &k, &(graph_opts){ 0 });
    run_frames(sc, &fg, 0, 2);

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

    run_frames(sc, &fg, 2, 4);
    rg_graph_destroy(bad);
    graph_close(&fg);
    eng_swapchain_destroy(sc);
    kit_close(&k);
}

/* The draw's callback fails in the frame's last graphics batch, after the
 * other batches were recorded (on a compute queue too, where there is
 * one): the frame is dropped whole, the graph stays as before (its
 * timeline values unspent), and the next frames, on the same graph, are
 * exact and silent under synchronization validation. */
DEVICE_TEST(frame_graph, record_callback_fails_mid_frame)
{
    eng_swapchain *sc = offscreen();
    kit k;
    kit_open(&k, eng_swapchain_format(sc));
    frame_graph fg;
    graph_open(&fg, &k, &(graph_opts){ 0 });
    run_frames(sc, &fg, 0, 3);
    fg.fail_draw = true;
    expect_refused(sc, fg.graph, fg.back, ENG_ERROR_INVALID_ARGUMENT, "'show' failed to record");
    expect_refused(sc, fg.graph, fg.back, ENG_ERROR_INVALID_ARGUMENT, "'show' failed to record");
    fg.fail_draw = false;
    run_frames(sc, &fg, 3, 4);
    graph_close(&fg);
    eng_swapchain_destroy(sc);
    kit_close(&k);
}
