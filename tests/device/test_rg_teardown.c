/* Teardown in any order and calls on destroyed objects (rendergraph.h,
 * "Lifetimes"): a device destroyed while a graph made on it lives takes
 * the graph's Vulkan objects with it and leaves the graph inert (every
 * call refused until rg_graph_destroy frees its host memory); a call on a
 * destroyed graph or device, on the same thread or racing from another,
 * is refused with RG_ERROR_INVALID_HANDLE and a message naming the call,
 * never read. Under the sanitizers' build ASan must stay silent; the
 * fixture fails on any validation message. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "test_log.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <rendergraph/rendergraph.h>
#include <stdatomic.h>
#include <string.h>

TestSuite(rg_teardown, .init = device_setup, .fini = device_teardown);

#define W 32
#define H 32

/* Objects the graphs of the counting device made and have not destroyed. */
static atomic_int live;

static void count(int delta, const VkAllocationCallbacks *a)
{
    (void)a;
    atomic_fetch_add(&live, delta);
}

/* A cleared texture copied into a pooled buffer and from there into the
 * readback, compiled. */
static rg_graph *frame(rg_device *dev, const char *name, eng_buffer *readback, rg_log_fn log, void *log_user)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = name, .device = dev, .log = log, .log_user = log_user },
                                 &g),
                 RG_SUCCESS);
    test_declare_cleared_copy(g, W, H, (const float[4]){ 1, 0, 0, 1 }, readback);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

DEVICE_TEST(rg_teardown, device_destroyed_before_its_graph)
{
    test_heard heard = TEST_HEARD_INIT, graph_heard = TEST_HEARD_INIT;
    rg_device_desc d = test_spy_desc(test_object_spies(count), false);
    d.log = test_hear;
    d.log_user = &heard;
    atomic_store(&live, 0);
    rg_device *dev = test_spy_device(&d);
    eng_buffer *readback = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = frame(dev, "orphan", readback, test_hear, &graph_heard);
    cr_assert_eq(test_execute_once_on(test_ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_gt(atomic_load(&live), 0, "the placement made no object");

    /* The GPU is idle (the frame was waited for): the device goes first. */
    rg_device_destroy(dev);
    cr_assert_eq(atomic_load(&heard.errors), 1);
    cr_assert(strstr(heard.first_error, "rg_device_destroy") && strstr(heard.first_error, "'orphan'"), "%s",
              heard.first_error);
    cr_assert_eq(atomic_load(&live), 0, "%d Vulkan objects of the graph outlive its device", atomic_load(&live));

    /* The graph is inert: refused, naming the call, until destroyed. */
    cr_assert_eq(rg_compile(g), RG_ERROR_INVALID_HANDLE);
    cr_assert(strstr(rg_graph_error_message(g), "rg_compile") && strstr(rg_graph_error_message(g), "rg_device_destroy"),
              "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_HANDLE);
    cr_assert_eq(rg_texture_image(g, (rg_texture){ 1 }), VK_NULL_HANDLE);
    rg_graph_destroy(g);

    /* The destroyed device is refused too, never read. */
    cr_assert_eq(rg_device_collect(dev), 0);
    cr_assert_eq(rg_device_handle(dev), VK_NULL_HANDLE);
    rg_graph *late = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "late", .device = dev }, &late), RG_ERROR_INVALID_HANDLE);
    cr_assert_null(late);
    rg_device_destroy(dev); /* twice: refused, nothing freed twice */
    eng_buffer_destroy(readback);
}

DEVICE_TEST(rg_teardown, a_call_on_a_destroyed_graph_is_refused)
{
    test_heard heard = TEST_HEARD_INIT;
    eng_buffer *readback = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = frame(eng_context_graph_device(test_ctx), "gone", readback, test_hear, &heard);
    cr_assert_eq(test_execute_once_on(test_ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(g);
    /* Other graphs come and go meanwhile, fewer than the quarantine holds. */
    for (int i = 0; i < 4; i++) {
        rg_graph *other = NULL;
        cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "other" }, &other), RG_SUCCESS);
        rg_graph_destroy(other);
    }
    cr_assert_eq(rg_compile(g), RG_ERROR_INVALID_HANDLE);
    cr_assert(strstr(rg_graph_error_message(g), "rg_compile") && strstr(rg_graph_error_message(g), "destroyed"), "%s",
              rg_graph_error_message(g));
    cr_assert_eq(rg_graph_error(g), RG_ERROR_INVALID_HANDLE);
    cr_assert_eq(rg_texture_create(g, &(rg_texture_desc){ .name = "t", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = W, .height = H }).id, 0);
    cr_assert(strstr(rg_graph_error_message(g), "rg_texture_create"), "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_barrier_count(g), 0);
    cr_assert_eq(rg_execute(g, VK_NULL_HANDLE), RG_ERROR_INVALID_HANDLE);
    cr_assert_eq(rg_graph_reset(g), RG_ERROR_INVALID_HANDLE);
    rg_graph_destroy(g); /* twice: refused, nothing freed twice */
    cr_assert_eq(atomic_load(&heard.errors), 0, "the destroyed graph's log was used: %s", heard.first_error);
    eng_buffer_destroy(readback);
}

/* ------------------------------------------------ a call from another thread */

typedef struct racer {
    rg_graph *graph;
    atomic_bool destroyed;            /* the destroying thread says so */
    bool wait_for_destroy;            /* call only after it (else race it) */
    rg_result last;
    uint32_t calls, unexpected;
} racer;

/* Calls rg_compile on the graph until it is refused as destroyed; every
 * answer before that is success or BUSY (the other thread is in it). */
static void *race(void *user)
{
    racer *r = user;
    while (r->wait_for_destroy && !atomic_load(&r->destroyed))
        ;
    do {
        r->last = rg_compile(r->graph);
        r->calls++;
        if (r->last != RG_SUCCESS && r->last != RG_ERROR_BUSY && r->last != RG_ERROR_INVALID_HANDLE)
            r->unexpected++;
    } while (r->last != RG_ERROR_INVALID_HANDLE && r->calls < 1000000);
    cr_assert(strstr(rg_graph_error_message(r->graph), "rg_compile") &&
              strstr(rg_graph_error_message(r->graph), "destroyed"), "%s", rg_graph_error_message(r->graph));
    return NULL;
}

/* The graph's log: counts the refusals of rg_graph_destroy (the other
 * thread was in the graph), the only lines that start so. */
static atomic_int destroys_refused;

static void hear_destroy(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object;
    if (strncmp(message, "rg_graph_destroy:", 17) == 0)
        atomic_fetch_add(&destroys_refused, 1);
}

static void destroy_while_another_thread_calls(bool wait_for_destroy)
{
    eng_buffer *readback = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    atomic_store(&destroys_refused, 0);
    racer r = { .graph = frame(eng_context_graph_device(test_ctx), "raced", readback, hear_destroy, NULL),
                .wait_for_destroy = wait_for_destroy };
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, race, &r), 0);
    /* While the other thread is in the graph, rg_graph_destroy frees
     * nothing and says so ("Threads"): it is called until it is silent. */
    for (int refused = 0;; refused++) {
        rg_graph_destroy(r.graph);
        if (atomic_load(&destroys_refused) == refused)
            break;
    }
    atomic_store(&r.destroyed, true);
    pthread_join(t, NULL);
    cr_assert_eq(r.last, RG_ERROR_INVALID_HANDLE);
    cr_assert_eq(r.unexpected, 0);
    eng_buffer_destroy(readback);
}

DEVICE_TEST(rg_teardown, a_call_from_another_thread_after_the_destroy_is_refused)
{
    destroy_while_another_thread_calls(true);
}

DEVICE_TEST(rg_teardown, a_call_from_another_thread_racing_the_destroy_is_refused_or_busy)
{
    destroy_while_another_thread_calls(false);
}

/* ------------------------------------------- an engine context torn down first */

/* Spies on the context's vkDeviceWaitIdle and vkDestroyImage: the step of
 * the first call of each since the counters were cleared. */
static int step, waited_at, destroyed_at;
static PFN_vkGetDeviceProcAddr real_gdpa;
static PFN_vkDeviceWaitIdle real_wait;
static PFN_vkDestroyImage real_destroy_image;

static VKAPI_ATTR VkResult VKAPI_CALL spy_wait(VkDevice d)
{
    if (!waited_at)
        waited_at = ++step;
    return real_wait(d);
}

static VKAPI_ATTR void VKAPI_CALL spy_destroy_image(VkDevice d, VkImage image, const VkAllocationCallbacks *a)
{
    if (!destroyed_at)
        destroyed_at = ++step;
    real_destroy_image(d, image, a);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL spy_gdpa(VkDevice d, const char *name)
{
    if (strcmp(name, "vkDeviceWaitIdle") == 0) {
        real_wait = (PFN_vkDeviceWaitIdle)real_gdpa(d, name);
        return (PFN_vkVoidFunction)spy_wait;
    }
    if (strcmp(name, "vkDestroyImage") == 0) {
        real_destroy_image = (PFN_vkDestroyImage)real_gdpa(d, name);
        return (PFN_vkVoidFunction)spy_destroy_image;
    }
    return real_gdpa(d, name);
}

/* The test program's vkGetInstanceProcAddr (the fixture's, which counts
 * leaks at vkDestroyDevice) with the spies above in the device's table. */
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL spy_gipa(VkInstance instance, const char *name)
{
    if (instance && strcmp(name, "vkGetDeviceProcAddr") == 0) {
        real_gdpa = (PFN_vkGetDeviceProcAddr)vkGetInstanceProcAddr(instance, name);
        return (PFN_vkVoidFunction)spy_gdpa;
    }
    return vkGetInstanceProcAddr(instance, name);
}

/* eng_context_destroy with a graph still made on its device: the wait for
 * the device comes before the graph's objects go, the ERROR names the
 * graph in the context's log, and the graph's later lines no longer go
 * to that log (it went with the context), but to stderr. */
DEVICE_TEST(rg_teardown, a_context_destroyed_before_its_graph)
{
    test_heard heard = TEST_HEARD_INIT;
    eng_context *ctx = test_context_create(&(eng_context_desc){ .app_name = "teardown", .validation = true,
                                                                .get_instance_proc_addr = spy_gipa,
                                                                .log = test_hear, .log_user = &heard });
    eng_buffer *readback = NULL;
    cr_assert_eq(eng_buffer_create(ctx, &(eng_buffer_desc){ .name = "readback", .size = (VkDeviceSize)W * H * 4,
                                                             .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                             .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT },
                                   &readback),
                 ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = frame(eng_context_graph_device(ctx), "outlived", readback, NULL, NULL);
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    eng_buffer_destroy(readback);
    step = waited_at = destroyed_at = 0;
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.warning + m.error, 0, "%u validation warnings, %u errors; first: %s", m.warning, m.error, first);
    cr_assert(waited_at && destroyed_at, "wait %d, destroy %d", waited_at, destroyed_at);
    cr_expect_lt(waited_at, destroyed_at, "the graph's images went before the wait for the device");
    cr_expect_eq(atomic_load(&heard.errors), 1, "%s", heard.first_error);
    cr_expect(strstr(heard.first_error, "'outlived'"), "%s", heard.first_error);
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(atomic_load(&heard.errors), 1, "the destroyed context's log heard the graph: %s", heard.first_error);
    rg_graph_destroy(g);
}
