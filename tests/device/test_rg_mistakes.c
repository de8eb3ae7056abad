/* Mistakes of an application that brings its own device and submits the
 * graph's command buffers itself (issue 35's list): each is refused with a
 * result code and a message that names the call, the graph and what is
 * wrong, never a crash, under the validation layer with synchronization
 * validation. Retirement without a retire point is test_rg_retire.c's,
 * the imports' checks test_rg_execute.c's. */
#include "device_fixture.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "test_log.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <rendergraph/rendergraph.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

TestSuite(rg_mistakes, .init = device_setup, .fini = device_teardown);

/* ------------------------------------------------------- command buffers */

typedef struct recorder {
    VkDevice dev;
    VkCommandPool pool;
} recorder;

static recorder recorder_open(void)
{
    recorder r = { eng_context_device(test_ctx), VK_NULL_HANDLE };
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = eng_context_queue_family(test_ctx) };
    cr_assert_eq(vkCreateCommandPool(r.dev, &pci, NULL, &r.pool), VK_SUCCESS);
    return r;
}

static VkCommandBuffer begin(recorder *r)
{
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    cr_assert_eq(vkAllocateCommandBuffers(r->dev, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    return cmd;
}

/* Recorded, never submitted: a failed frame must not be. */
static void drop(recorder *r, VkCommandBuffer cmd)
{
    vkEndCommandBuffer(cmd);
    vkFreeCommandBuffers(r->dev, r->pool, 1, &cmd);
}

static void recorder_close(recorder *r) { vkDestroyCommandPool(r->dev, r->pool, NULL); }

/* ---------------------------------------------------------------- frames */

typedef struct frame {
    rg_graph *g;
    rg_texture written, other;
    test_heard log;
    /* The second thread's part (see below). */
    int (*intrude)(struct frame *f);
    rg_result got;
    const char *call;
} frame;

/* One outside command writes 'written' by storage; 'other' is cleared by
 * a command of its own, so both exist; the callback is `record`. */
static void declare(frame *f, rg_record_fn record)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "mistakes", .device = eng_context_graph_device(test_ctx),
                                                   .no_culling = true, .log = test_hear, .log_user = &f->log },
                                 &g),
                 RG_SUCCESS);
    f->g = g;
    f->written = rg_texture_create(g, &(rg_texture_desc){ .name = "written", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 16, .height = 16 });
    f->other = rg_texture_create(g, &(rg_texture_desc){ .name = "other", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                        .width = 16, .height = 16 });
    rg_cmd_clear_texture(g, f->other, NULL, &(VkClearValue){ 0 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "compute", .record = record, .user = f, .access_count = 1,
                                    .accesses = &(rg_access){ .texture = f->written, .whole = true,
                                                              .usage = RG_USAGE_STORAGE_WRITE_COMPUTE } });
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
}

/* A callback that asks for what its command did not declare, and fails. */
static bool asks_undeclared(const rg_record_context *rc, void *user)
{
    frame *f = user;
    return rg_record_image(rc, f->other) != VK_NULL_HANDLE;
}

/* A failed callback is one failure: one line in the log, carrying the
 * reason the graph gave the callback. */
DEVICE_TEST(rg_mistakes, a_failed_callback_is_logged_once)
{
    recorder r = recorder_open();
    frame f = { .log = TEST_HEARD_INIT };
    declare(&f, asks_undeclared);
    VkCommandBuffer cmd = begin(&r);
    cr_expect_eq(rg_execute(f.g, cmd), RG_ERROR_CALLBACK);
    drop(&r, cmd);
    cr_expect_eq(atomic_load(&f.log.errors), 1, "one line per failure, got %d: %s", atomic_load(&f.log.errors),
                 f.log.first_error);
    cr_expect(strstr(f.log.first_error, "command 'compute' failed to record") &&
                  strstr(f.log.first_error, "did not declare texture 'other'"),
              "%s", f.log.first_error);
    rg_graph_destroy(f.g);
    recorder_close(&r);
}

/* A callback that calls back into the graph it records: refused. */
static bool resets_its_graph(const rg_record_context *rc, void *user)
{
    (void)rc;
    frame *f = user;
    f->got = rg_graph_reset(f->g);
    return true;
}

/* The refusal of a call back into the graph from its own callback is
 * logged, naming both calls, even while the graph's status is the frame's
 * (a callback's report is otherwise said once, by the call that returns
 * it). */
DEVICE_TEST(rg_mistakes, a_call_back_into_the_graph_from_its_callback_is_logged)
{
    recorder r = recorder_open();
    frame f = { .log = TEST_HEARD_INIT };
    declare(&f, resets_its_graph);
    VkCommandBuffer cmd = begin(&r);
    cr_expect_eq(rg_execute(f.g, cmd), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    drop(&r, cmd);
    cr_expect_eq(f.got, RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(atomic_load(&f.log.errors), 1, "one line, got %d: %s", atomic_load(&f.log.errors),
                 f.log.first_error);
    cr_expect(strstr(f.log.first_error, "rg_graph_reset: graph 'mistakes' is in rg_execute on this thread"), "%s",
              f.log.first_error);
    rg_graph_set_retire_point(f.g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(f.g);
    recorder_close(&r);
}

/* ------------------------------------------------------ two threads, one graph */

static void *intruder(void *arg)
{
    frame *f = arg;
    f->intrude(f);
    return NULL;
}

static int try_reset(frame *f)
{
    f->call = "rg_graph_reset";
    f->got = rg_graph_reset(f->g);
    return 0;
}

static int try_execute(frame *f)
{
    f->call = "rg_execute";
    recorder r = recorder_open();
    VkCommandBuffer cmd = begin(&r);
    f->got = rg_execute(f->g, cmd);
    drop(&r, cmd);
    recorder_close(&r);
    return 0;
}

/* While the graph records on this thread (inside the callback), another
 * thread tries its call, and is done before the frame goes on. */
static bool let_another_thread_in(const rg_record_context *rc, void *user)
{
    (void)rc;
    frame *f = user;
    if (!f->intrude)
        return true;
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, intruder, f), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    f->intrude = NULL;
    return true;
}

/* The crash: one thread executes while another resets and
 * declares again. The second is refused with RG_ERROR_BUSY, the log names
 * both calls, and the frame the first thread records is whole. */
DEVICE_TEST(rg_mistakes, a_reset_from_another_thread_while_executing_is_refused)
{
    int (*tries[])(frame *) = { try_reset, try_execute };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        recorder r = recorder_open();
        frame f = { .log = TEST_HEARD_INIT, .intrude = tries[i] };
        declare(&f, let_another_thread_in);
        VkCommandBuffer cmd = begin(&r);
        cr_expect_eq(rg_execute(f.g, cmd), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
        cr_assert_eq(vkEndCommandBuffer(cmd), VK_SUCCESS);
        cr_expect_eq(f.got, RG_ERROR_BUSY, "%s from another thread: %s", f.call, rg_result_string(f.got));
        char want[256];
        snprintf(want, sizeof want, "%s: graph 'mistakes' is busy: another thread is in rg_execute", f.call);
        cr_expect(strstr(f.log.first_error, want) != NULL, "%s", f.log.first_error);
        cr_expect_eq(rg_graph_error(f.g), RG_SUCCESS, "the graph is as it was");
        cr_expect_neq(rg_texture_image(f.g, f.written), VK_NULL_HANDLE, "still placed");
        /* The frame is whole: submitted, it runs clean. */
        VkCommandBufferSubmitInfo cb = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
        VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                             .pCommandBufferInfos = &cb };
        cr_assert_eq(vkQueueSubmit2(eng_context_queue(test_ctx), 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
        cr_assert_eq(vkQueueWaitIdle(eng_context_queue(test_ctx)), VK_SUCCESS);
        cr_assert_eq(rg_graph_set_retire_point(f.g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
        rg_graph_destroy(f.g);
        vkFreeCommandBuffers(r.dev, r.pool, 1, &cmd);
        recorder_close(&r);
    }
}

/* A frame in chunks holds the graph from rg_execute_begin to
 * rg_execute_end: its chunks record on any thread, a reset (from another
 * thread, between the two) is refused. */
DEVICE_TEST(rg_mistakes, a_reset_during_a_chunked_frame_is_refused)
{
    recorder r = recorder_open();
    frame f = { .log = TEST_HEARD_INIT, .intrude = try_reset };
    declare(&f, test_record_nothing);
    uint32_t chunks = 0;
    cr_assert_eq(rg_execute_begin(f.g, NULL, &chunks), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, intruder, &f), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_expect_eq(f.got, RG_ERROR_BUSY);
    cr_expect(strstr(f.log.first_error, "rg_graph_reset: graph 'mistakes' is busy: another thread is in rg_execute_begin"),
              "%s", f.log.first_error);
    VkCommandBuffer cmds[8];
    cr_assert_leq(chunks, 8);
    for (uint32_t i = 0; i < chunks; i++) {
        cmds[i] = begin(&r);
        cr_expect_eq(rg_execute_chunk(f.g, i, cmds[i]), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    }
    cr_expect_eq(rg_execute_end(f.g, cmds, NULL), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    cr_expect_eq(rg_graph_reset(f.g), RG_SUCCESS, "after the frame, the graph is free");
    for (uint32_t i = 0; i < chunks; i++)
        drop(&r, cmds[i]);
    rg_graph_destroy(f.g);
    recorder_close(&r);
}

/* ----------------------------------------------------------------- device */

static rg_result create(const void *features, bool timeline, test_heard *h)
{
    rg_device_desc d = test_spy_desc(NULL, false);
    d.enabled_features = features;
    d.timeline_semaphore = timeline;
    return test_device_try(d, test_hear, h, NULL);
}

/* The features the graph records with must be what vkCreateDevice
 * enabled: the application says which, and a missing one is refused by
 * name before anything is recorded. */
DEVICE_TEST(rg_mistakes, a_device_without_the_features_the_graph_needs_is_refused)
{
    VkPhysicalDeviceVulkan12Features v12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceVulkan13Features v13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = &v12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v13 };
    static const struct {
        VkBool32 dynamic_rendering, synchronization2, timeline;
        bool ask_timeline;
        rg_result want;
        const char *named;
    } cases[] = {
        { VK_FALSE, VK_TRUE, VK_TRUE, false, RG_ERROR_UNSUPPORTED, "created without dynamicRendering" },
        { VK_TRUE, VK_FALSE, VK_TRUE, false, RG_ERROR_UNSUPPORTED, "created without synchronization2" },
        { VK_TRUE, VK_TRUE, VK_FALSE, true, RG_ERROR_UNSUPPORTED, "created without timelineSemaphore" },
        { VK_TRUE, VK_TRUE, VK_FALSE, false, RG_SUCCESS, NULL },
        { VK_TRUE, VK_TRUE, VK_TRUE, true, RG_SUCCESS, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_heard h = TEST_HEARD_INIT;
        v13.dynamicRendering = cases[i].dynamic_rendering;
        v13.synchronization2 = cases[i].synchronization2;
        v12.timelineSemaphore = cases[i].timeline;
        cr_expect_eq(create(&f2, cases[i].ask_timeline, &h), cases[i].want, "case %zu: %s", i, h.first_error);
        if (cases[i].named)
            cr_expect(strstr(h.first_error, cases[i].named) != NULL, "case %zu names the feature: %s", i, h.first_error);
    }
    test_heard h = TEST_HEARD_INIT;
    cr_expect_eq(create(NULL, false, &h), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(h.first_error, "enabled_features (the feature chain given to vkCreateDevice) is required"), "%s",
              h.first_error);
}

/* A physical device of another instance: refused by name, before any
 * function of it is called through the wrong instance. */
DEVICE_TEST(rg_mistakes, a_physical_device_of_another_instance_is_refused)
{
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    VkInstance other;
    cr_assert_eq(vkCreateInstance(&ici, NULL, &other), VK_SUCCESS);
    VkPhysicalDevice theirs[4];
    uint32_t n = 4;
    VkResult vr = vkEnumeratePhysicalDevices(other, &n, theirs);
    cr_assert(vr == VK_SUCCESS || vr == VK_INCOMPLETE);
    cr_assert_gt(n, 0);
    test_heard h = TEST_HEARD_INIT;
    rg_device_desc d = test_spy_desc(NULL, false);
    d.physical_device = theirs[0];
    d.log = test_hear;
    d.log_user = &h;
    rg_device *dev = NULL;
    cr_expect_eq(rg_device_create(&d, &dev), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(dev);
    cr_expect(strstr(h.first_error, "physical_device is not one of the instance's"), "%s", h.first_error);
    vkDestroyInstance(other, NULL);
}
