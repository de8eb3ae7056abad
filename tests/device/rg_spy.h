/* The fixture's device for a render graph (test_ctx), with spies: an
 * rg_device whose function table hands out the test's own functions in
 * place of the driver's, to log, count or check the graph's Vulkan calls
 * (rg_device_desc.get_instance_proc_addr, an application's own dispatch).
 *
 *   static const test_spy mine[] = { { "vkCreateImage", (PFN_vkVoidFunction)count_create_image } };
 *   rg_device_desc d = test_spy_desc(&(test_spies){ .device = mine, .device_count = 1 }, false);
 *   d.timeline_semaphore = true;
 *   rg_device *dev = test_spy_device(&d);
 *
 * A spy calls the driver's function through test_real_device_proc or
 * test_real_instance_proc. The spies given last are the ones handed out:
 * one set at a time, kept by pointer (give a static array). */
#ifndef TEST_RG_SPY_H
#define TEST_RG_SPY_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

/* A function handed out for name; fn NULL hides the function (the table
 * gets NULL, as from a driver that lacks it). A spy is handed out only
 * where the driver has the function. */
typedef struct test_spy {
    const char *name;
    PFN_vkVoidFunction fn;
} test_spy;

typedef struct test_spies {
    const test_spy *device;           /* through vkGetDeviceProcAddr */
    uint32_t device_count;
    const test_spy *instance;         /* through vkGetInstanceProcAddr (debug labels, physical-device queries) */
    uint32_t instance_count;
} test_spies;

/* test_ctx's instance, physical device, enabled features and device, with
 * spies in its function table (NULL: none, the driver's functions); the
 * graphics queue, and with all_queues every other queue the context has.
 * The caller sets the rest. */
rg_device_desc test_spy_desc(const test_spies *spies, bool all_queues);
/* rg_device_create(d) with its log into log/log_user (test_log.h's
 * test_hear), the device's caps into *caps (when given), the device
 * destroyed again: what creating it says. */
rg_result test_device_try(rg_device_desc d, rg_log_fn log, void *log_user, rg_device_caps *caps);
/* rg_device_create(d), asserted to succeed. */
rg_device *test_spy_device(const rg_device_desc *d);

/* The driver's function on test_ctx's device or instance, asserted present. */
PFN_vkVoidFunction test_real_device_proc(const char *name);
PFN_vkVoidFunction test_real_instance_proc(const char *name);

/* Spies on the objects a graph makes and destroys: images, buffers,
 * image views, memory and semaphores. fn is told of each call, after the
 * driver's: +1 for an object created, -1 for one destroyed, 0 for a failed
 * creation or a destroyed VK_NULL_HANDLE, with the allocation callbacks
 * the graph passed. One fn at a time. */
typedef void test_object_fn(int live, const VkAllocationCallbacks *a);
const test_spies *test_object_spies(test_object_fn *fn);

/* The engine's queue kind of a graph queue, and the context's family for
 * it (the graphics family where the context has no queue of that kind). */
eng_queue_kind test_engine_kind(rg_queue q);
uint32_t test_family_of(rg_queue q);
/* A command pool per graph queue, on its family (test_family_of), and
 * their destruction. */
void test_queue_pools(VkDevice dev, VkCommandPool pools[RG_QUEUE_COUNT]);
void test_queue_pools_destroy(VkDevice dev, VkCommandPool pools[RG_QUEUE_COUNT]);
/* Whether the context has a compute-only queue. */
bool test_has_compute_queue(void);

#endif
