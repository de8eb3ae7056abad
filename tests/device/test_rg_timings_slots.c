/* GPU timings' query slots (rendergraph.h, "Timings"): a frame is read
 * only once the GPU is done with it, never waiting; a frame recorded while
 * three are in flight is not timed; one that fails to record gives its
 * slot back. Suite rg_timings (test_rg_timings.c declares it). */
#include "device_fixture.h"
#include "rg_timings_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

/* A timeline semaphore the host signals later, and the wait on it that
 * holds a frame's first batch on the GPU until then. */
typedef struct gate {
    VkSemaphore semaphore;
    VkSemaphoreSubmitInfo wait;
} gate;

/* timings_open (no device of the test's, timings on), then the gate. */
static gate gated_open(runner *r, frame_graph *fg, const char *name, int frames)
{
    timings_open(r, fg, NULL, name, false, true, frames);
    gate g = { .semaphore = test_timeline(r->dev) };
    g.wait = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = g.semaphore,
                                      .value = 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    return g;
}

/* Signals the gate and waits for every frame so far. */
static void gate_open(runner *r, const gate *g)
{
    VkSemaphoreSignalInfo open = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = g->semaphore,
                                   .value = 1 };
    cr_assert_eq(vkSignalSemaphore(r->dev, &open), VK_SUCCESS);
    timings_wait_frames(r);
}

/* One more frame run, which reads those before it: the latest completed
 * is frame `latest`, checked; then the gate and the test's objects go. */
static void gate_finish(runner *r, frame_graph *fg, const gate *g, uint64_t latest)
{
    timings_run_frame(r, fg->g);
    timings_check_frame(r, fg, latest);
    vkDestroySemaphore(r->dev, g->semaphore, NULL);
    timings_close(r, fg);
}

/* A frame held on the GPU by a semaphore the host signals later: the next
 * execute reads nothing of it and returns at once (a read that waited
 * would never return), the results stay at the frame before, and once it
 * is done a later execute reads it. The slot it uses was read and used
 * before, so a stale read would report it early. */
DEVICE_TEST(rg_timings, never_waits)
{
    runner r;
    frame_graph fg;
    gate gate = gated_open(&r, &fg, "timings held", 4);
    rg_submit_plan plan = { 0 };
    timings_record_frame(&r, fg.g, &plan);          /* frame 5: reads frames 1..4 */
    timings_submit_frame(&r, fg.g, &plan, &gate.wait, false);
    rg_timing t;
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS);
    cr_expect_eq(t.frame, 4);
    timings_record_frame(&r, fg.g, &plan);          /* frame 6: frame 5 is held */
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS);
    cr_expect_eq(t.frame, 4, "frame %llu read while the GPU holds frame 5", (unsigned long long)t.frame);
    timings_submit_frame(&r, fg.g, &plan, NULL, true);
    gate_open(&r, &gate);
    gate_finish(&r, &fg, &gate, 6);                 /* frame 7: reads 5 and 6 */
}

/* Three frames in flight hold every slot: a fourth recorded meanwhile is
 * not timed (its slot would be the first's, still unread), and timing goes
 * on with the frame after it. */
DEVICE_TEST(rg_timings, fourth_frame_in_flight_not_timed)
{
    runner r;
    frame_graph fg;
    gate gate = gated_open(&r, &fg, "timings ring", 0);
    rg_submit_plan plan = { 0 };
    for (uint32_t f = 1; f <= 4; f++) {     /* frame 1 waits for the gate, 2..4 behind it */
        timings_record_frame(&r, fg.g, &plan);
        timings_submit_frame(&r, fg.g, &plan, f == 1 ? &gate.wait : NULL, f == 4);
    }
    rg_timing t;
    cr_expect_eq(rg_timing_get(fg.g, 0, &t), RG_ERROR_NOT_READY);
    gate_open(&r, &gate);
    rg_submit_plan next = { 0 };
    timings_record_frame(&r, fg.g, &next);          /* frame 5: reads 1..3; 4 was not timed */
    timings_submit_frame(&r, fg.g, &next, NULL, true);
    timings_wait_frames(&r);
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_eq(t.frame, 3, "latest completed frame %llu, want 3", (unsigned long long)t.frame);
    gate_finish(&r, &fg, &gate, 5);                 /* frame 6: reads 5 */
}

/* A frame that fails to record gives its slot back: three failures in a
 * row leave every slot free for the frames after them. */
DEVICE_TEST(rg_timings, failed_frame_frees_its_slot)
{
    runner r;
    frame_graph fg;
    timings_open(&r, &fg, NULL, "timings failures", true, true, 0);
    timings_fail_marker = true;
    for (int i = 0; i < 3; i++) {
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = r.pools[RG_QUEUE_GRAPHICS],
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
        VkCommandBuffer cmd;
        cr_assert_eq(vkAllocateCommandBuffers(r.dev, &ai, &cmd), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
        rg_submit_plan plan = { 0 };
        cr_expect_eq(rg_execute_batches(fg.g, &cmd, &plan), RG_ERROR_CALLBACK);
        cr_assert_eq(vkEndCommandBuffer(cmd), VK_SUCCESS);
        vkFreeCommandBuffers(r.dev, r.pools[RG_QUEUE_GRAPHICS], 1, &cmd);
    }
    timings_fail_marker = false;
    timings_run_frame(&r, fg.g);
    timings_run_frame(&r, fg.g);
    double ms = 0.0;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_gt(ms, 0.0);
    timings_close(&r, &fg);
}
