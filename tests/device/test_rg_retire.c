/* Retirement (rendergraph.h, "Placement and the GPU"): a graph destroyed,
 * or placed again after a change of declaration, while its last frames are
 * still in flight hands its Vulkan objects to the rg_device, which
 * destroys them only once those frames have finished, and the library
 * never waits for the GPU to get there. The frames here wait on a gate
 * (a timeline semaphore the host signals), so they cannot have finished
 * when the graph lets go of its placement: the validation layer
 * (synchronization validation on) must stay silent, the objects must
 * still be alive, and rg_device_collect releases them once the gate is
 * open and the queue is done. The test never waits before the graph is
 * destroyed or placed again; it waits only at the end. Live objects are
 * counted through the device's function table: its vkGetDeviceProcAddr
 * returns counting wrappers. The graphs here keep nothing across a reset
 * (rg_graph_desc.no_reuse), so a reset frees the placement as a
 * destruction does; test_rg_reuse.c keeps it. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "test_log.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_retire, .init = device_setup, .fini = device_teardown);

/* ------------------------------------------------ counted Vulkan objects */

/* Objects the graph made and has not destroyed (images, buffers, views,
 * memory, semaphores). */
static int live;

static void count(int delta, const VkAllocationCallbacks *a)
{
    (void)a;
    live += delta;
}

static rg_device *counting_device(void)
{
    rg_device_desc d = test_spy_desc(test_object_spies(count), false);
    rg_device *dev = test_spy_device(&d);
    live = 0;
    return dev;
}

/* ---------------------------------------------------------------- frames */

#define W 64
#define H 64
#define FRAMES 2

/* A cleared texture (size w x h) copied into a pooled buffer, which is
 * copied into the frame's readback. */
static void declare(rg_graph *g, uint32_t w, eng_buffer *readback)
{
    test_declare_cleared_copy(g, w, H, (const float[4]){ 0.25f, 0.5f, 0.75f, 1 }, readback);
}

typedef struct runner {
    VkDevice dev;
    VkCommandPool pool;
    VkCommandBuffer cmds[FRAMES + 1];
    uint32_t recorded;
    VkSemaphore gate;                 /* the host signals 1: frames may run */
    VkFence fence;                    /* the last frame submitted */
    eng_buffer *readbacks[FRAMES + 1];
} runner;

static void runner_open(runner *r)
{
    memset(r, 0, sizeof *r);
    r->dev = eng_context_device(test_ctx);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = eng_context_queue_family(test_ctx) };
    cr_assert_eq(vkCreateCommandPool(r->dev, &pci, NULL, &r->pool), VK_SUCCESS);
    r->gate = test_timeline(r->dev);
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(r->dev, &fci, NULL, &r->fence), VK_SUCCESS);
    for (uint32_t i = 0; i <= FRAMES; i++)
        r->readbacks[i] = test_host_buffer((VkDeviceSize)2 * W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
}

static VkCommandBuffer begin(runner *r)
{
    cr_assert_leq(r->recorded, FRAMES);
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    cr_assert_eq(vkAllocateCommandBuffers(r->dev, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    r->cmds[r->recorded++] = cmd;
    return cmd;
}

/* One frame through rg_execute_batches and rg_submit, behind the gate;
 * fence: signal the runner's fence. Not waited for. */
static void submit_frame(runner *r, rg_graph *g, rg_buffer readback, bool fence)
{
    const eng_buffer *given = r->readbacks[r->recorded];
    cr_assert_eq(rg_buffer_set_buffer(g, readback, &(rg_import_buffer){ .buffer = eng_buffer_handle(given),
                                                                        .size = eng_buffer_size(given),
                                                                        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT }),
                 RG_SUCCESS, "%s", rg_graph_error_message(g));
    VkCommandBuffer cmd = begin(r);
    rg_submit_plan plan = { 0 };
    rg_result res = test_execute_batches(g, &cmd, &plan);
    cr_assert_eq(res, RG_SUCCESS, "%s: %s", rg_result_string(res), rg_graph_error_message(g));
    cr_assert_eq(vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkSemaphoreSubmitInfo gate = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = r->gate, .value = 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    rg_submit_desc sd = { .waits = &gate, .wait_count = 1, .fence = fence ? r->fence : VK_NULL_HANDLE };
    res = rg_submit(g, &plan, &sd);
    cr_assert_eq(res, RG_SUCCESS, "%s: %s", rg_result_string(res), rg_graph_error_message(g));
}

/* One frame through rg_execute into a command buffer the test submits
 * itself (signalling the runner's fence), behind the gate when gated. Not
 * waited for. */
static void submit_own(runner *r, rg_graph *g, bool gated)
{
    VkCommandBuffer cmd = begin(r);
    cr_assert_eq(test_execute(g, cmd), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkSemaphoreSubmitInfo gate = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = r->gate, .value = 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo cb = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = gated ? 1 : 0,
                         .pWaitSemaphoreInfos = &gate, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cb };
    cr_assert_eq(vkQueueSubmit2(eng_context_queue(test_ctx), 1, &si, r->fence), VK_SUCCESS);
}

/* The end of the test: the gate opens, the host waits for the last frame's
 * fence and for the queue, and frees what it made. */
static void finish(runner *r)
{
    VkSemaphoreSignalInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = r->gate, .value = 1 };
    cr_assert_eq(vkSignalSemaphore(r->dev, &si), VK_SUCCESS);
    cr_assert_eq(vkWaitForFences(r->dev, 1, &r->fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    cr_assert_eq(vkQueueWaitIdle(eng_context_queue(test_ctx)), VK_SUCCESS);
}

static void runner_close(runner *r)
{
    vkFreeCommandBuffers(r->dev, r->pool, r->recorded, r->cmds);
    vkDestroyCommandPool(r->dev, r->pool, NULL);
    vkDestroySemaphore(r->dev, r->gate, NULL);
    vkDestroyFence(r->dev, r->fence, NULL);
    for (uint32_t i = 0; i <= FRAMES; i++)
        eng_buffer_destroy(r->readbacks[i]);
}

/* The counting device, the runner and the frame declared (W wide) and
 * compiled on a graph of that device. */
static rg_graph *open_frame(rg_device **dev, runner *r)
{
    *dev = counting_device();
    runner_open(r);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "retire", .device = *dev, .no_reuse = true }, &g), RG_SUCCESS);
    declare(g, W, r->readbacks[0]);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

/* ----------------------------------------------------------------- tests */

DEVICE_TEST(rg_retire, destroying_a_graph_with_frames_in_flight)
{
    rg_device *dev;
    runner r;
    rg_graph *g = open_frame(&dev, &r);
    rg_buffer readback = { 0 };
    for (uint32_t i = 0; i < rg_resource_count(g); i++) {
        rg_resource_info info;
        cr_assert_eq(rg_resource_get(g, i, &info), RG_SUCCESS);
        if (info.kind == RG_RESOURCE_IMPORTED)
            readback = info.buffer;
    }
    for (uint32_t f = 0; f < FRAMES; f++)
        submit_frame(&r, g, readback, f + 1 == FRAMES);
    int placed = live;
    cr_assert_gt(placed, 0);
    /* Both frames wait for the gate: the graph's objects must outlive it. */
    rg_graph_destroy(g);
    cr_expect_eq(live, placed, "destroyed under frames in flight: %d of %d objects left", live, placed);
    cr_expect_eq(rg_device_collect(dev), (uint32_t)placed, "held until the frames finish");
    cr_expect_eq(live, placed);
    finish(&r);
    cr_expect_eq(rg_device_collect(dev), 0, "the frames have finished");
    cr_expect_eq(live, 0, "%d objects not destroyed", live);
    rg_device_destroy(dev);
    runner_close(&r);
}

DEVICE_TEST(rg_retire, placing_again_with_frames_in_flight)
{
    rg_device *dev;
    runner r;
    rg_graph *g = open_frame(&dev, &r);
    rg_resource_info info;
    cr_assert_eq(rg_resource_get(g, 2, &info), RG_SUCCESS); /* color, staging, readback */
    rg_buffer readback = info.buffer;
    cr_assert_neq(readback.id, 0);
    for (uint32_t f = 0; f < FRAMES; f++)
        submit_frame(&r, g, readback, false);
    int first = live;
    cr_assert_gt(first, 0);
    /* A resize: a new declaration, compiled and placed while the frames of
     * the first placement still wait for the gate. */
    rg_graph_reset(g);
    declare(g, 2 * W, r.readbacks[FRAMES]);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    int second = live - first;
    cr_expect_gt(second, 0, "the new placement's objects");
    cr_expect_eq(rg_device_collect(dev), (uint32_t)first, "the first placement is held");
    cr_assert_eq(rg_resource_get(g, 2, &info), RG_SUCCESS);
    submit_frame(&r, g, info.buffer, true);
    finish(&r);
    cr_expect_eq(rg_device_collect(dev), 0);
    cr_expect_eq(live, second, "the first placement's objects are destroyed once its frames finished");
    /* Nothing in flight: destroying lets go of everything at once. */
    rg_graph_destroy(g);
    cr_expect_eq(live, 0, "%d objects not destroyed", live);
    rg_device_destroy(dev);
    runner_close(&r);
}

/* rg_execute into the application's command buffer, submitted by the
 * application: the retire point it names is what the objects wait for. */
DEVICE_TEST(rg_retire, the_applications_retire_point)
{
    rg_device *dev;
    runner r;
    rg_graph *g = open_frame(&dev, &r);
    submit_own(&r, g, true);
    cr_assert_eq(rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, r.fence), RG_SUCCESS);
    int placed = live;
    cr_assert_gt(placed, 0);
    rg_graph_destroy(g);
    cr_expect_eq(live, placed, "destroyed before the application's fence: %d of %d left", live, placed);
    finish(&r);
    cr_expect_eq(rg_device_collect(dev), 0);
    cr_expect_eq(live, 0, "%d objects not destroyed", live);
    rg_device_destroy(dev);
    runner_close(&r);
}

/* The application submits rg_execute's command buffer itself and never
 * names a retire point: the placement the graph frees is held (the GPU
 * may still use it) until rg_device_destroy, and the log's WARNING, once,
 * names the graph, the call that freed it and the rule. */
DEVICE_TEST(rg_retire, no_retire_point_holds_until_device_destroy)
{
    rg_device *dev = counting_device();
    runner r;
    runner_open(&r);
    test_heard w = TEST_HEARD_INIT;
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "own submit", .device = dev, .no_reuse = true, .log = test_hear,
                                                   .log_user = &w },
                                 &g),
                 RG_SUCCESS);
    declare(g, W, r.readbacks[0]);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    submit_own(&r, g, true);
    int placed = live;
    cr_assert_gt(placed, 0);
    /* A resize with the frame in flight: the placement goes, its objects stay. */
    rg_graph_reset(g);
    cr_expect_eq(live, placed, "destroyed under a frame in flight: %d of %d objects left", live, placed);
    cr_expect_eq(atomic_load(&w.warnings), 1, "one WARNING, got %u", atomic_load(&w.warnings));
    cr_expect(strstr(w.first_warning, "graph 'own submit'") && strstr(w.first_warning, "rg_graph_reset") &&
                  strstr(w.first_warning, "rg_graph_set_retire_point") && strstr(w.first_warning, "rg_device_destroy"),
              "the warning names the graph, the call and the rule: %s", w.first_warning);
    finish(&r);
    cr_expect_eq(rg_device_collect(dev), (uint32_t)placed, "nothing proves the frame finished: still held");
    cr_expect_eq(live, placed);
    /* Declared and executed again, then the application says the GPU is
     * idle: that placement goes at once, and the warning is not repeated. */
    declare(g, W, r.readbacks[1]);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(vkResetFences(r.dev, 1, &r.fence), VK_SUCCESS);
    submit_own(&r, g, false);
    cr_assert_eq(vkWaitForFences(r.dev, 1, &r.fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    cr_assert_eq(rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
    rg_graph_destroy(g);
    cr_expect_eq(live, placed, "the second placement is destroyed at once: %d left, %d held", live, placed);
    cr_expect_eq(atomic_load(&w.warnings), 1, "the warning comes once per graph");
    rg_device_destroy(dev);
    cr_expect_eq(live, 0, "rg_device_destroy destroys what it held: %d left", live);
    runner_close(&r);
}
