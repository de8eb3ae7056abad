/* GPU timings switched off or impossible (rendergraph.h, "Timings"):
 * timings off make no query pool and write no timestamp; a queue without
 * timestamp bits is not timed. Suite rg_timings (test_rg_timings.c
 * declares it). */
#include "device_fixture.h"
#include "rg_timings_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------ counting device */

/* An rg_device whose function table counts what the timings call, and can
 * say that no queue family has timestamps. */
static struct {
    int create_query_pool, write_timestamp;
    bool no_timestamps;
} calls;

static VkResult VKAPI_CALL counting_create_query_pool(VkDevice dev, const VkQueryPoolCreateInfo *info,
                                                      const VkAllocationCallbacks *alloc, VkQueryPool *pool)
{
    calls.create_query_pool++;
    return vkCreateQueryPool(dev, info, alloc, pool);
}

static void VKAPI_CALL counting_write_timestamp(VkCommandBuffer cmd, VkPipelineStageFlags2 stage, VkQueryPool pool,
                                                uint32_t query)
{
    calls.write_timestamp++;
    vkCmdWriteTimestamp2(cmd, stage, pool, query);
}

static void VKAPI_CALL counting_queue_families(VkPhysicalDevice physical, uint32_t *count,
                                               VkQueueFamilyProperties *props)
{
    vkGetPhysicalDeviceQueueFamilyProperties(physical, count, props);
    for (uint32_t i = 0; props && calls.no_timestamps && i < *count; i++)
        props[i].timestampValidBits = 0;
}

static rg_device *counting_device(void)
{
    static const test_spy device[] = {
        { "vkCreateQueryPool", (PFN_vkVoidFunction)counting_create_query_pool },
        { "vkCmdWriteTimestamp2", (PFN_vkVoidFunction)counting_write_timestamp },
    };
    static const test_spy instance[] = {
        { "vkGetPhysicalDeviceQueueFamilyProperties", (PFN_vkVoidFunction)counting_queue_families },
    };
    static const test_spies spies = { device, 2, instance, 1 };
    rg_device_desc d = test_spy_desc(&spies, false);
    d.timeline_semaphore = true;
    return test_spy_device(&d);
}

/* Off: no query pool, no timestamp, no time; the setter turns them on for
 * the placed graph, and reset frees them (the device's destruction would
 * report a leaked pool). */
DEVICE_TEST(rg_timings, off_makes_nothing)
{
    rg_device *dev = counting_device();
    memset(&calls, 0, sizeof calls);
    runner r;
    frame_graph fg;
    timings_open(&r, &fg, dev, "timings off", true, false, 3);
    cr_expect_eq(calls.create_query_pool, 0);
    cr_expect_eq(calls.write_timestamp, 0, "%d timestamps with timings off", calls.write_timestamp);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    double ms;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(rg_graph_set_timings(fg.g, true), RG_SUCCESS);
    cr_expect_eq(calls.create_query_pool, 1);
    cr_expect_gt(rg_timing_count(fg.g), 0);
    timings_run_frame(&r, fg.g);
    timings_run_frame(&r, fg.g);
    double marker = 0.0;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &marker), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_gt(marker, 0.0);
    vkDeviceWaitIdle(r.dev);
    rg_graph_reset(fg.g);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    timings_close(&r, &fg);
    rg_device_destroy(dev);
}

/* A queue family without timestamp bits is not timed: no pool, and its
 * commands say so. */
DEVICE_TEST(rg_timings, queue_without_timestamps)
{
    memset(&calls, 0, sizeof calls);
    calls.no_timestamps = true;
    rg_device *dev = counting_device();
    runner r;
    frame_graph fg;
    timings_open(&r, &fg, dev, "timings without bits", true, true, 0);
    timings_run_frame(&r, fg.g);
    timings_run_frame(&r, fg.g);
    cr_expect_eq(calls.create_query_pool, 0);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    double ms;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_UNSUPPORTED, "%s",
                 rg_graph_error_message(fg.g));
    timings_close(&r, &fg);
    rg_device_destroy(dev);
    calls.no_timestamps = false;
}
