/* Re-declaring (rendergraph.h, rg_graph_reset): a graph reset and declared
 * again every frame keeps its placement's Vulkan objects for the next
 * placement. Declared alike, a frame creates and destroys nothing; with a
 * pass toggled, only that pass's resources are made, and only until both
 * shapes are kept; resized, the new size is made and the old one given
 * back after rg_graph_desc.reuse_age placements. Every frame reads back
 * what a fresh graph renders, under the validation layer with
 * synchronization validation, also with frames in flight across the
 * re-declarations. Objects are counted through the device's function
 * table (rg_spy.h). */
#include "counting_allocator.h"
#include "device_fixture.h"
#include "rg_spy.h"
#include "rg_support.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_reuse, .init = device_setup, .fini = device_teardown);

#define W 32
#define H 16
#define FMT VK_FORMAT_R8G8B8A8_UNORM

static int live, created;

static void count(int delta, const VkAllocationCallbacks *a)
{
    (void)a;
    live += delta;
    created += delta > 0;
}

/* A graph of desc on a device whose objects are counted. */
static rg_graph *counted_graph(rg_device **dev, rg_graph_desc desc)
{
    rg_device_desc d = test_spy_desc(test_object_spies(count), false);
    *dev = test_spy_device(&d);
    live = created = 0;
    rg_graph *g = NULL;
    desc.name = "reuse";
    desc.device = *dev;
    cr_assert_eq(rg_graph_create(&desc, &g), RG_SUCCESS);
    return g;
}

/* One frame: "a" cleared to red; with `extra`, "extra" cleared to blue and
 * blitted over "a"; "a" blitted into "b" (w wide), copied through a
 * pooled staging buffer into readback. It reads back blue with extra,
 * else red. */
static void declare(rg_graph *g, uint32_t w, bool extra, eng_buffer *readback)
{
    rg_texture_desc td = {.format = FMT, .width = w, .height = H};
    rg_texture a = test_texture_named(g, td, "a"), b = test_texture_named(g, td, "b");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "clear a", .color_count = 1,
                                               .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                           .clear.color.float32 = {1, 0, 0, 1}}}});
    rg_end_rendering(g);
    if (extra) {
        rg_texture x = test_texture_named(g, td, "extra");
        rg_begin_rendering(g, &(rg_rendering_desc){.name = "clear extra", .color_count = 1,
                                                   .colors = {{.texture = x, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                               .clear.color.float32 = {0, 0, 1, 1}}}});
        rg_end_rendering(g);
        rg_cmd_blit(g, x, 0, a, 0, VK_FILTER_NEAREST);
    }
    rg_cmd_blit(g, a, 0, b, 0, VK_FILTER_NEAREST);
    VkDeviceSize bytes = (VkDeviceSize)w * H * 4;
    rg_buffer staging = rg_buffer_create(g, &(rg_buffer_desc){.name = "staging", .size = bytes});
    rg_cmd_copy_texture_to_buffer(g, b, 0, 0, 1, staging, 0);
    rg_cmd_copy_buffer(g, staging, 0, test_import_buffer(g, "readback", readback, true), 0, bytes);
}

/* How many texels of the readback (w wide) are not rgba. */
static uint32_t wrong(const eng_buffer *readback, uint32_t w, const uint8_t rgba[4])
{
    const uint8_t *p = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < w * H; i++)
        bad += memcmp(&p[i * 4], rgba, 4) != 0;
    return bad;
}

static const uint8_t red[4] = {255, 0, 0, 255}, blue[4] = {0, 0, 255, 255};

/* Reset, declare, compile and run one frame (placed by its execute), and
 * check what it read back; the objects it created. */
static int frame(rg_graph *g, uint32_t w, bool extra, eng_buffer *readback)
{
    int before = created;
    cr_assert_eq(rg_graph_reset(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    memset(eng_buffer_mapped(readback), 0, eng_buffer_size(readback));
    declare(g, w, extra, readback);
    test_compile(g);
    test_run(g, 1);
    uint32_t bad = wrong(readback, w, extra ? blue : red);
    cr_expect_eq(bad, 0, "%u of %u texels wrong (w %u, extra %d)", bad, w * H, w, extra);
    return created - before;
}

DEVICE_TEST(rg_reuse, declared_alike_creates_nothing)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){0});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    int first = frame(g, W, true, readback);
    cr_expect_gt(first, 0);
    for (int i = 0; i < 5; i++) {
        int made = frame(g, W, true, readback);
        cr_expect_eq(made, 0, "frame %d declared alike created %d objects", i + 1, made);
    }
    cr_expect_eq(live, first, "objects live %d, the first placement made %d", live, first);
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect_eq(t.objects_created, 0, "the memory report: %u created", t.objects_created);
    cr_expect_gt(t.objects_reused, 0, "the memory report: %u reused", t.objects_reused);
    rg_graph_destroy(g);
    cr_expect_eq(live, 0, "%d objects left", live);
    rg_device_destroy(dev);
    eng_buffer_destroy(readback);
}

/* Declared alike, the placement is taken back whole: no host memory is
 * allocated either (counted through the device's rg_allocator), and the
 * graph frees all it allocated. */
DEVICE_TEST(rg_reuse, declared_alike_allocates_no_host_memory)
{
    counting c = {0};
    static rg_allocator host;
    host = (rg_allocator){count_alloc, count_realloc, count_free, &c};
    rg_device_desc d = test_spy_desc(test_object_spies(count), false);
    d.allocator = &host;
    rg_device *dev = test_spy_device(&d);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "reuse", .device = dev}, &g), RG_SUCCESS);
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    frame(g, W, true, readback);
    frame(g, W, true, readback);
    uint32_t before = c.calls;
    for (int i = 0; i < 4; i++)
        frame(g, W, true, readback);
    cr_expect_eq(c.calls - before, 0, "4 frames declared alike made %u host allocations", c.calls - before);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    cr_expect_eq(c.live, 0, "%u host blocks leaked", c.live);
    eng_buffer_destroy(readback);
}

DEVICE_TEST(rg_reuse, a_toggled_pass_is_made_once)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){0});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    int with = frame(g, W, true, readback);
    /* Without the pass, "a" is no blit destination: an image of that usage
     * is made, the rest kept. */
    int without = frame(g, W, false, readback);
    cr_expect_eq(without, 1, "leaving the pass out created %d objects", without);
    for (int i = 0; i < 6; i++) {
        int made = frame(g, W, i % 2 == 0, readback);
        cr_expect_eq(made, 0, "toggle %d created %d objects", i, made);
    }
    cr_expect_eq(live, with + without, "live %d, the placements made %d", live, with + without);
    cr_expect_eq(rg_memory_get_totals(g).kept, 0, "both shapes share one pool's memory: nothing kept beside it");
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    cr_expect_eq(live, 0, "%d objects left", live);
    eng_buffer_destroy(readback);
}

/* Resized: the new size is made; the old is kept for reuse_age placements
 * (so resizing back reuses it), then given back. */
DEVICE_TEST(rg_reuse, resized_then_given_back)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){.reuse_age = 2});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    int small = frame(g, W, false, readback);
    int large = frame(g, 2 * W, false, readback);
    cr_expect_gt(large, 0, "the larger size is made");
    cr_expect_eq(frame(g, W, false, readback), 0, "back to the first size: kept");
    cr_expect_eq(frame(g, 2 * W, false, readback), 0, "and the larger again: kept");
    cr_expect_eq(live, small + large);
    for (int i = 0; i < 3; i++)
        frame(g, W, false, readback);
    cr_expect_eq(live, small, "unused by 2 placements (reuse_age 2): given back at the next reset, %d live, %d wanted", live, small);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    eng_buffer_destroy(readback);
}

/* rg_graph_desc.no_reuse: every re-declaration makes its placement anew. */
DEVICE_TEST(rg_reuse, no_reuse_makes_every_placement)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){.no_reuse = true});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    int first = frame(g, W, true, readback);
    cr_expect_eq(frame(g, W, true, readback), first);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    eng_buffer_destroy(readback);
}

/* Timings turned on between two declarations alike: the placement made
 * without them is not taken back whole (a new one times the frames). */
DEVICE_TEST(rg_reuse, timings_turned_on_between_declarations_alike)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){0});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    frame(g, W, true, readback);
    cr_assert_eq(rg_graph_reset(g), RG_SUCCESS); /* the placement is stashed, without timings */
    cr_assert_eq(rg_graph_set_timings(g, true), RG_SUCCESS, "%s", rg_graph_error_message(g));
    for (int i = 0; i < 3; i++)
        frame(g, W, true, readback);
    cr_expect_gt(rg_timing_count(g), 0, "the frames were timed");
    rg_timing t;
    cr_expect_eq(rg_timing_get(g, 0, &t), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    eng_buffer_destroy(readback);
}

static bool any_requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                             VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index;
    *size = 65536;
    *alignment = 256;
    *type_bits = ~0u;
    *dedicated = false;
    return true;
}

/* Placed offline after a reset: the stashed placement goes (its parts
 * freed, its objects still kept), and the next device placement makes
 * its own from the kept objects. */
DEVICE_TEST(rg_reuse, an_offline_placement_after_a_reset)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){0});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    int first = frame(g, W, true, readback);
    cr_assert_eq(rg_graph_reset(g), RG_SUCCESS);
    declare(g, W, true, readback);
    test_compile(g);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(eng_context_physical_device(test_ctx), &props);
    cr_assert_eq(rg_place_offline(g, &props, any_requirements, NULL), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_gt(rg_memory_get_totals(g).pooled, 0);
    cr_expect_eq(live, first, "placing offline destroys nothing kept");
    cr_expect_eq(frame(g, W, true, readback), 0, "the next frame takes the kept objects");
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    cr_expect_eq(live, 0, "%d objects left", live);
    eng_buffer_destroy(readback);
}

/* ------------------------------------------------------ frames in flight */

/* Frames submitted through rg_submit behind a gate the host opens only at
 * the end: a command buffer each, nothing waited for until gated_finish. */
#define GATED_MAX 8

typedef struct gated {
    VkDevice dev;
    VkCommandPool pool;
    VkCommandBuffer cmds[GATED_MAX];
    uint32_t used;
    VkSemaphore gate;
} gated;

static void gated_open(gated *q)
{
    *q = (gated){.dev = eng_context_device(test_ctx)};
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = eng_context_queue_family(test_ctx)};
    cr_assert_eq(vkCreateCommandPool(q->dev, &pci, NULL, &q->pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = q->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = GATED_MAX};
    cr_assert_eq(vkAllocateCommandBuffers(q->dev, &ai, q->cmds), VK_SUCCESS);
    q->gate = test_timeline(q->dev);
}

/* The compiled graph's frame recorded and submitted behind the gate. */
static void gated_frame(gated *q, rg_graph *g)
{
    cr_assert_lt(q->used, GATED_MAX);
    VkCommandBuffer *cmd = &q->cmds[q->used++];
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    cr_assert_eq(vkBeginCommandBuffer(*cmd, &bi), VK_SUCCESS);
    rg_submit_plan plan = {0};
    cr_assert_eq(test_execute_batches(g, cmd, &plan), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(vkEndCommandBuffer(*cmd), VK_SUCCESS);
    VkSemaphoreSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = q->gate,
                                  .value = 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    cr_assert_eq(rg_submit(g, &plan, &(rg_submit_desc){.waits = &wait, .wait_count = 1}), RG_SUCCESS, "%s",
                 rg_graph_error_message(g));
}

/* The gate opens; the host waits for the queue. */
static void gated_finish(gated *q)
{
    VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = q->gate, .value = 1};
    cr_assert_eq(vkSignalSemaphore(q->dev, &si), VK_SUCCESS);
    cr_assert_eq(vkQueueWaitIdle(eng_context_queue(test_ctx)), VK_SUCCESS);
}

static void gated_close(gated *q)
{
    vkFreeCommandBuffers(q->dev, q->pool, GATED_MAX, q->cmds);
    vkDestroyCommandPool(q->dev, q->pool, NULL);
    vkDestroySemaphore(q->dev, q->gate, NULL);
}

/* Frames behind the gate, re-declared between them (alike, toggled,
 * resized): the kept
 * objects' new frames must wait for the old ones (synchronization
 * validation), and each frame's readback holds its own picture. */
#define IN_FLIGHT 6

DEVICE_TEST(rg_reuse, frames_in_flight_across_redeclarations)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){0});
    gated q;
    gated_open(&q);
    eng_buffer *readbacks[IN_FLIGHT];
    static const struct { uint32_t w; bool extra; } shape[IN_FLIGHT] = {
        {W, true}, {W, true}, {W, false}, {W, true}, {2 * W, true}, {W, false}};
    for (int f = 0; f < IN_FLIGHT; f++) {
        readbacks[f] = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
        cr_assert_eq(rg_graph_reset(g), RG_SUCCESS);
        declare(g, shape[f].w, shape[f].extra, readbacks[f]);
        test_compile(g);
        gated_frame(&q, g);
    }
    gated_finish(&q);
    for (int f = 0; f < IN_FLIGHT; f++) {
        uint32_t bad = wrong(readbacks[f], shape[f].w, shape[f].extra ? blue : red);
        cr_expect_eq(bad, 0, "frame %d: %u texels wrong", f, bad);
        eng_buffer_destroy(readbacks[f]);
    }
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    cr_expect_eq(live, 0, "%d objects left", live);
    gated_close(&q);
}

/* Two declarations whose texture "x" (the same create info) ends the frame
 * differently: "paint last" stores it from a span after it was read back,
 * "paint first" clears it in a span first and reads it back last. Taking
 * x over from a "paint last" frame, a "paint first" frame's barriers know
 * only its own frame before (a transfer read): its span's write waits for
 * the earlier frame's store through the barrier a placement that took
 * another placement's objects begins with (synchronization validation
 * follows the store on Debian 13's layer). */
static void declare_paint(rg_graph *g, bool paint_last, eng_buffer *readback)
{
    rg_texture_desc td = {.format = FMT, .width = W, .height = H};
    rg_texture x = test_texture_named(g, td, "x"), y = test_texture_named(g, td, "y");
    rg_rendering_desc paint = {.name = "paint x", .color_count = 1,
                               .colors = {{.texture = x, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           .clear.color.float32 = {0, 1, 0, 1}}}};
    if (!paint_last) {
        rg_begin_rendering(g, &paint);
        rg_end_rendering(g);
    }
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "clear y", .color_count = 1,
                                               .colors = {{.texture = y, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                           .clear.color.float32 = {1, 0, 0, 1}}}});
    rg_end_rendering(g);
    rg_cmd_blit(g, y, 0, x, 0, VK_FILTER_NEAREST);
    VkDeviceSize bytes = (VkDeviceSize)W * H * 4;
    rg_buffer staging = rg_buffer_create(g, &(rg_buffer_desc){.name = "staging", .size = bytes});
    rg_cmd_copy_texture_to_buffer(g, x, 0, 0, 1, staging, 0);
    rg_cmd_copy_buffer(g, staging, 0, test_import_buffer(g, "readback", readback, true), 0, bytes);
    if (paint_last) {
        rg_begin_rendering(g, &paint);
        rg_end_rendering(g);
    }
}

DEVICE_TEST(rg_reuse, a_kept_image_waits_for_another_declarations_frame)
{
    rg_device *dev;
    rg_graph *g = counted_graph(&dev, (rg_graph_desc){.no_culling = true});
    eng_buffer *readback = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    gated q;
    gated_open(&q);
    int made_second = 0;
    for (int f = 0; f < 4; f++) {
        int before = created;
        cr_assert_eq(rg_graph_reset(g), RG_SUCCESS);
        declare_paint(g, f % 2 == 0, readback);
        test_compile(g);
        gated_frame(&q, g);
        if (f == 1)
            made_second = created - before;
    }
    cr_expect_eq(made_second, 0, "the second declaration took the first one's objects (%d made)", made_second);
    gated_finish(&q);
    uint32_t bad = wrong(readback, W, red);
    cr_expect_eq(bad, 0, "%u texels wrong", bad);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    gated_close(&q);
    eng_buffer_destroy(readback);
}
