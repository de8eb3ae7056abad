/* GPU timings (rendergraph.h, "Timings") on a device: after a few frames
 * every rendering instance and every command outside spans that was
 * recorded has a time, named as declared, within its batch's time, the
 * sum within the frame's time the test measures itself; culled commands
 * have none; a frame is read only once the GPU is done with it, never
 * waiting (a frame held back by a semaphore the host signals later leaves
 * the results at the frame before); the latest completed frame is the one
 * reported; a frame recorded while three are in flight is not timed, and
 * one that fails to record gives its slot back; the heaviest passes are
 * printed first, and the memory report ends with them. Timings off make no query pool and write no timestamp;
 * a queue without timestamp bits is not timed. The validation layer
 * (synchronization included) stays silent, and the device's destruction
 * finds nothing of the graph's left (placement and reset free the pools).
 * On the graphics queue alone (lavapipe, or rg_graph_desc.single_queue)
 * and on several batches where the device has a compute queue. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

TestSuite(rg_timings, .init = device_setup, .fini = device_teardown, .timeout = 60);

#define MAX_FRAMES 16u
#define MAX_BATCHES 8u
#define WAIT_NS 10000000000ull

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

/* ---------------------------------------------------------------- frames */

/* Command buffers per frame and batch, a fence, and the test's own
 * timestamps around each frame of a one-batch graph. */
typedef struct runner {
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    VkQueryPool frame_queries;        /* 2 per frame: before and after rg_execute_batches */
    VkFence fence;
    uint32_t frames;                  /* recorded so far */
    VkSemaphoreSubmitInfo signals[MAX_FRAMES][MAX_BATCHES]; /* each plan's, to wait for */
    uint32_t signal_count[MAX_FRAMES];
} runner;

static void runner_open(runner *r)
{
    memset(r, 0, sizeof *r);
    r->dev = eng_context_device(test_ctx);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .queueFamilyIndex = test_family_of((rg_queue)q) };
        cr_assert_eq(vkCreateCommandPool(r->dev, &pi, NULL, &r->pools[q]), VK_SUCCESS);
    }
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 * MAX_FRAMES };
    cr_assert_eq(vkCreateQueryPool(r->dev, &qi, NULL, &r->frame_queries), VK_SUCCESS);
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(r->dev, &fi, NULL, &r->fence), VK_SUCCESS);
}

static void runner_close(runner *r)
{
    vkDeviceWaitIdle(r->dev);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        vkDestroyCommandPool(r->dev, r->pools[q], NULL);
    vkDestroyQueryPool(r->dev, r->frame_queries, NULL);
    vkDestroyFence(r->dev, r->fence, NULL);
}

/* Records frame r->frames of g; the plan in *plan. */
static void record_frame(runner *r, rg_graph *g, rg_submit_plan *plan)
{
    uint32_t f = r->frames++;
    cr_assert_lt(f, MAX_FRAMES);
    uint32_t n = rg_batch_count(g);
    cr_assert(n >= 1 && n <= MAX_BATCHES, "%u batches", n);
    VkCommandBuffer cmds[MAX_BATCHES];
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS);
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = r->pools[b.queue], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        cr_assert_eq(vkAllocateCommandBuffers(r->dev, &ai, &cmds[i]), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
        cr_assert_eq(vkBeginCommandBuffer(cmds[i], &bi), VK_SUCCESS);
    }
    if (n == 1) {
        vkCmdResetQueryPool(cmds[0], r->frame_queries, 2 * f, 2);
        vkCmdWriteTimestamp2(cmds[0], VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->frame_queries, 2 * f);
    }
    /* One batch: the frame's own timestamps bracket it in cmds[0], which
     * a frame in chunks (test_chunks.h) would not submit. */
    rg_result res = n == 1 ? rg_execute_batches(g, cmds, plan) : test_execute_batches(g, cmds, plan);
    cr_assert_eq(res, RG_SUCCESS, "frame %u: rg_execute_batches: %s: %s", f, rg_result_string(res),
                 rg_graph_error_message(g));
    if (n == 1)
        vkCmdWriteTimestamp2(cmds[0], VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->frame_queries, 2 * f + 1);
    for (uint32_t i = 0; i < n; i++)
        cr_assert_eq(vkEndCommandBuffer(cmds[i]), VK_SUCCESS);
    r->signal_count[f] = plan->count;
    for (uint32_t i = 0; i < plan->count; i++)
        r->signals[f][i] = plan->submissions[i].signal;
}

/* Submits the plan of the frame just recorded; wait: a semaphore value
 * its first graphics batch waits for (NULL: none); fenced: with the fence. */
static void submit_frame(runner *r, rg_graph *g, const rg_submit_plan *plan, const VkSemaphoreSubmitInfo *wait,
                         bool fenced)
{
    rg_submit_desc sd = { .waits = wait, .wait_count = wait ? 1 : 0, .fence = fenced ? r->fence : VK_NULL_HANDLE };
    rg_result res = rg_submit(g, plan, &sd);
    cr_assert_eq(res, RG_SUCCESS, "rg_submit: %s: %s", rg_result_string(res), rg_graph_error_message(g));
}

/* Waits for the fence and for every value the frames so far signal (so
 * the layer knows their command buffers are done). */
static void wait_frames(runner *r)
{
    cr_assert_eq(vkWaitForFences(r->dev, 1, &r->fence, VK_TRUE, WAIT_NS), VK_SUCCESS);
    cr_assert_eq(vkResetFences(r->dev, 1, &r->fence), VK_SUCCESS);
    for (uint32_t f = 0; f < r->frames; f++)
        for (uint32_t i = 0; i < r->signal_count[f]; i++) {
            VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                       .pSemaphores = &r->signals[f][i].semaphore, .pValues = &r->signals[f][i].value };
            cr_assert_eq(vkWaitSemaphores(r->dev, &wi, WAIT_NS), VK_SUCCESS);
        }
}

/* One frame, recorded, submitted and waited for. */
static void run_frame(runner *r, rg_graph *g)
{
    rg_submit_plan plan = { 0 };
    record_frame(r, g, &plan);
    submit_frame(r, g, &plan, NULL, true);
    wait_frames(r);
}

/* The test's own time of frame f (one batch). */
static double own_frame_ms(const runner *r, uint32_t f)
{
    uint64_t ts[2];
    cr_assert_eq(vkGetQueryPoolResults(r->dev, r->frame_queries, 2 * f, 2, sizeof ts, ts, sizeof ts[0],
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT), VK_SUCCESS);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(eng_context_physical_device(test_ctx), &props);
    return (double)(ts[1] - ts[0]) * (double)props.limits.timestampPeriod / 1e6;
}

/* ----------------------------------------------------------------- graph */

typedef struct frame_graph {
    rg_graph *g;
    eng_buffer *readback;
    rg_command clear_span, shade_span, marker, fill, copy, readback_copy, culled;
} frame_graph;

/* The marker's callback fails while this is set. */
static bool fail_marker;

static bool record_marker(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return !fail_marker;
}

/* Two spans over a texture, its readback, a compute fill (eligible for the
 * compute queue) copied to the readback, a marker without accesses, and a
 * clear nothing reads (culled). */
static void declare(frame_graph *fg, rg_device *dev, const char *name, bool single_queue, bool timings)
{
    memset(fg, 0, sizeof *fg);
    rg_graph_desc d = { .name = name, .device = dev ? dev : eng_context_graph_device(test_ctx),
                        .single_queue = single_queue, .timings = timings };
    cr_assert_eq(rg_graph_create(&d, &fg->g), RG_SUCCESS);
    rg_graph *g = fg->g;
    fg->readback = test_host_buffer(64 * 64 * 4 + 1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_buffer readback = test_import_buffer(g, "readback", fg->readback, true);
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .width = 64, .height = 64,
                                                               .format = VK_FORMAT_R8G8B8A8_UNORM });
    rg_texture unused = rg_texture_create(g, &(rg_texture_desc){ .name = "unused", .width = 16, .height = 16,
                                                                .format = VK_FORMAT_R8G8B8A8_UNORM });
    rg_buffer scratch = rg_buffer_create(g, &(rg_buffer_desc){ .name = "scratch", .size = 1024 });
    fg->clear_span = rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "clear pass", .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "clear draw", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    fg->marker = rg_cmd_user(g, &(rg_user_desc){ .name = "marker", .record = record_marker });
    fg->shade_span = rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "shade pass", .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "shade draw", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    rg_access fill_access = { .buffer = scratch, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    fg->fill = rg_cmd_user(g, &(rg_user_desc){ .name = "fill", .kind = RG_COMMAND_OUTSIDE, .accesses = &fill_access,
                                               .access_count = 1, .record = test_record_nothing,
                                               .queue = RG_QUEUE_COMPUTE });
    fg->copy = rg_cmd_copy_buffer(g, scratch, 0, readback, 64 * 64 * 4, 1024);
    fg->readback_copy = rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, readback, 0);
    VkClearValue zero = { 0 };
    fg->culled = rg_cmd_clear_texture(g, unused, NULL, &zero);
    test_compile(g);
}

static void release(frame_graph *fg)
{
    rg_graph_destroy(fg->g);
    eng_buffer_destroy(fg->readback);
}

static const char *command_name(const rg_graph *g, rg_command c)
{
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, c, &info), RG_SUCCESS);
    return info.name;
}

/* Every unit of the latest completed frame (frame number `frame`): times
 * above 0, names as declared, each batch's units within the batch, each
 * command's time its unit's (a span's commands their instance's), culled
 * commands without one; one batch: within the test's own frame time. */
static void check_frame(const runner *r, const frame_graph *fg, uint64_t frame)
{
    const rg_graph *g = fg->g;
    uint32_t n = rg_timing_count(g), batches = rg_batch_count(g);
    cr_assert_gt(n, batches, "%u timed units for %u batches", n, batches);
    double batch_ms[MAX_BATCHES] = { 0 }, sum[MAX_BATCHES] = { 0 }, passes = 0.0;
    bool batch_seen[MAX_BATCHES] = { false };
    uint32_t spans = 0, commands = 0;
    for (uint32_t i = 0; i < n; i++) {
        rg_timing t;
        rg_result res = rg_timing_get(g, i, &t);
        cr_assert_eq(res, RG_SUCCESS, "unit %u: %s: %s", i, rg_result_string(res), rg_graph_error_message(g));
        cr_expect_eq(t.frame, frame, "unit %u '%s' is of frame %llu, want the latest completed, %llu", i, t.name,
                     (unsigned long long)t.frame, (unsigned long long)frame);
        cr_expect_gt(t.ms, 0.0, "unit %u '%s' took %f ms", i, t.name, t.ms);
        cr_assert_lt(t.batch, batches);
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, t.batch, &b), RG_SUCCESS);
        cr_expect_eq(t.queue, b.queue, "unit '%s' on %s, its batch on %s", t.name, rg_queue_name(t.queue),
                     rg_queue_name(b.queue));
        if (t.kind == RG_TIMING_BATCH) {
            cr_expect_eq(t.command.id, 0u);
            cr_expect_not(batch_seen[t.batch], "batch %u timed twice", t.batch);
            batch_seen[t.batch] = true;
            batch_ms[t.batch] = t.ms;
            continue;
        }
        cr_expect(batch_seen[t.batch], "unit '%s' listed before its batch %u", t.name, t.batch);
        sum[t.batch] += t.ms;
        passes += t.ms;
        cr_expect_str_eq(t.name, command_name(g, t.command));
        double ms = -1.0;
        cr_expect_eq(rg_command_get_time(g, t.command, &ms), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_eq(ms, t.ms, "'%s': rg_command_get_time %f, rg_timing_get %f", t.name, ms, t.ms);
        if (t.kind == RG_TIMING_SPAN) {
            spans++;
            rg_command_info info;
            cr_assert_eq(rg_command_get_info(g, t.command, &info), RG_SUCCESS);
            cr_expect_eq(info.type, RG_COMMAND_TYPE_BEGIN_RENDERING, "span unit '%s'", t.name);
        } else {
            commands++;
        }
    }
    for (uint32_t b = 0; b < batches; b++) {
        cr_expect(batch_seen[b], "batch %u not timed", b);
        cr_expect_leq(sum[b], batch_ms[b] * (1.0 + 1e-9), "batch %u: units %f ms, the batch %f ms", b, sum[b],
                      batch_ms[b]);
    }
    cr_expect_eq(spans, 2, "%u span units", spans);
    cr_expect_eq(commands, 4, "%u command units (marker, fill, two copies)", commands);
    /* Every recorded command has its time (a span's draws their span's);
     * the culled clear none. */
    const rg_command *order = NULL;
    uint32_t recorded = rg_execution_order(g, &order);
    cr_assert_gt(recorded, 0);
    for (uint32_t i = 0; i < recorded; i++) {
        rg_command_info info;
        cr_assert_eq(rg_command_get_info(g, order[i], &info), RG_SUCCESS);
        double ms = -1.0;
        rg_result res = rg_command_get_time(g, order[i], &ms);
        cr_expect_eq(res, RG_SUCCESS, "'%s': %s: %s", info.name, rg_result_string(res), rg_graph_error_message(g));
        cr_expect_gt(ms, 0.0, "'%s' took %f ms", info.name, ms);
        if (info.span != RG_INDEX_NONE) {
            double span_ms = -1.0;
            rg_span_rendering sr;
            cr_assert_eq(rg_span_get_rendering(g, info.span, &sr), RG_SUCCESS);
            cr_expect_eq(rg_command_get_time(g, sr.begin, &span_ms), RG_SUCCESS);
            cr_expect_eq(ms, span_ms, "'%s' %f ms, its span %f ms", info.name, ms, span_ms);
        }
    }
    rg_command_info culled;
    cr_assert_eq(rg_command_get_info(g, fg->culled, &culled), RG_SUCCESS);
    cr_expect(culled.culled, "the clear nothing reads is not culled");
    double ms = -1.0;
    cr_expect_eq(rg_command_get_time(g, fg->culled, &ms), RG_ERROR_INVALID_ARGUMENT, "the culled clear: %s",
                 rg_graph_error_message(g));
    cr_expect_str_eq(command_name(g, fg->shade_span), "shade pass");
    if (batches == 1) {
        double own = own_frame_ms(r, (uint32_t)frame - 1);
        cr_expect_leq(passes, own * (1.0 + 1e-9), "passes %f ms, the frame %f ms", passes, own);
        cr_expect_leq(batch_ms[0], own * (1.0 + 1e-9), "the batch %f ms, the frame %f ms", batch_ms[0], own);
    }
}

/* Four frames, each waited for; the fifth's execute reads them. */
static void timings_over_frames(bool single_queue)
{
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, NULL, single_queue ? "timings one queue" : "timings", single_queue, true);
    if (single_queue)
        cr_assert_eq(rg_batch_count(fg.g), 1);
    cr_log_info("%s: %u batches", single_queue ? "single queue" : "any queue", rg_batch_count(fg.g));
    run_frame(&r, fg.g);
    /* Frame 1 is done on the GPU, yet nothing reads it before the next
     * execute. */
    double ms = 0.0;
    rg_timing t;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_NOT_READY);
    cr_expect_eq(rg_timing_get(fg.g, 0, &t), RG_ERROR_NOT_READY);
    for (int i = 0; i < 3; i++)
        run_frame(&r, fg.g);
    run_frame(&r, fg.g);
    check_frame(&r, &fg, 4);
    release(&fg);
    runner_close(&r);
}

DEVICE_TEST(rg_timings, every_pass_of_a_frame)
{
    timings_over_frames(false);
}

DEVICE_TEST(rg_timings, single_queue)
{
    timings_over_frames(true);
}

/* A frame held on the GPU by a semaphore the host signals later: the next
 * execute reads nothing of it and returns at once (a read that waited
 * would never return), the results stay at the frame before, and once it
 * is done a later execute reads it. The slot it uses was read and used
 * before, so a stale read would report it early. */
DEVICE_TEST(rg_timings, never_waits)
{
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, NULL, "timings held", false, true);
    for (int i = 0; i < 4; i++)
        run_frame(&r, fg.g);
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore gate;
    cr_assert_eq(vkCreateSemaphore(r.dev, &si, NULL, &gate), VK_SUCCESS);
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = gate, .value = 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    rg_submit_plan plan = { 0 };
    record_frame(&r, fg.g, &plan);          /* frame 5: reads frames 1..4 */
    submit_frame(&r, fg.g, &plan, &wait, false);
    rg_timing t;
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS);
    cr_expect_eq(t.frame, 4);
    record_frame(&r, fg.g, &plan);          /* frame 6: frame 5 is held */
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS);
    cr_expect_eq(t.frame, 4, "frame %llu read while the GPU holds frame 5", (unsigned long long)t.frame);
    submit_frame(&r, fg.g, &plan, NULL, true);
    VkSemaphoreSignalInfo open = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate, .value = 1 };
    cr_assert_eq(vkSignalSemaphore(r.dev, &open), VK_SUCCESS);
    wait_frames(&r);
    run_frame(&r, fg.g);                    /* frame 7: reads 5 and 6 */
    check_frame(&r, &fg, 6);
    release(&fg);
    vkDestroySemaphore(r.dev, gate, NULL);
    runner_close(&r);
}

/* Three frames in flight hold every slot: a fourth recorded meanwhile is
 * not timed (its slot would be the first's, still unread), and timing goes
 * on with the frame after it. */
DEVICE_TEST(rg_timings, fourth_frame_in_flight_not_timed)
{
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, NULL, "timings ring", false, true);
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore gate;
    cr_assert_eq(vkCreateSemaphore(r.dev, &si, NULL, &gate), VK_SUCCESS);
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = gate, .value = 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    rg_submit_plan plan = { 0 };
    for (uint32_t f = 1; f <= 4; f++) {     /* frame 1 waits for the gate, 2..4 behind it */
        record_frame(&r, fg.g, &plan);
        submit_frame(&r, fg.g, &plan, f == 1 ? &wait : NULL, f == 4);
    }
    rg_timing t;
    cr_expect_eq(rg_timing_get(fg.g, 0, &t), RG_ERROR_NOT_READY);
    VkSemaphoreSignalInfo open = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate, .value = 1 };
    cr_assert_eq(vkSignalSemaphore(r.dev, &open), VK_SUCCESS);
    wait_frames(&r);
    rg_submit_plan next = { 0 };
    record_frame(&r, fg.g, &next);          /* frame 5: reads 1..3; 4 was not timed */
    submit_frame(&r, fg.g, &next, NULL, true);
    wait_frames(&r);
    cr_assert_eq(rg_timing_get(fg.g, 0, &t), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_eq(t.frame, 3, "latest completed frame %llu, want 3", (unsigned long long)t.frame);
    run_frame(&r, fg.g);                    /* frame 6: reads 5 */
    check_frame(&r, &fg, 5);
    release(&fg);
    vkDestroySemaphore(r.dev, gate, NULL);
    runner_close(&r);
}

/* A frame that fails to record gives its slot back: three failures in a
 * row leave every slot free for the frames after them. */
DEVICE_TEST(rg_timings, failed_frame_frees_its_slot)
{
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, NULL, "timings failures", true, true);
    fail_marker = true;
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
    fail_marker = false;
    run_frame(&r, fg.g);
    run_frame(&r, fg.g);
    double ms = 0.0;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_gt(ms, 0.0);
    release(&fg);
    runner_close(&r);
}

/* The print: the passes heaviest first, then the batches; the memory
 * report ends with it. */
DEVICE_TEST(rg_timings, print_heaviest_first)
{
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, NULL, "timings print", false, true);
    for (int i = 0; i < 3; i++)
        run_frame(&r, fg.g);
    char path[256];
    test_temp_path(path, sizeof path, "timings.txt");
    FILE *f = fopen(path, "w+");
    cr_assert_not_null(f);
    cr_assert_eq(rg_timings_print(fg.g, f), RG_SUCCESS);
    rewind(f);
    char line[512];
    double last = 1e300;
    uint32_t passes = 0, batches = 0;
    while (fgets(line, sizeof line, f)) {
        double ms, share;
        if (sscanf(line, " %lf ms %lf%%", &ms, &share) == 2) {
            cr_expect_leq(ms, last, "not heaviest first: %s", line);
            last = ms;
            passes++;
        } else if (strstr(line, " ms ") && strstr(line, "batch ")) {
            batches++;
        }
    }
    cr_expect_eq(passes, 6, "%u pass lines", passes);
    cr_expect_eq(batches, rg_batch_count(fg.g));
    fclose(f);
    f = fopen(path, "w+");
    cr_assert_not_null(f);
    cr_assert_eq(rg_memory_report_print(fg.g, f), RG_SUCCESS);
    rewind(f);
    bool timings = false;
    while (fgets(line, sizeof line, f))
        timings = timings || strstr(line, "GPU timings of graph 'timings print'") != NULL;
    cr_expect(timings, "the memory report does not end with the timings");
    fclose(f);
    remove(path);
    release(&fg);
    runner_close(&r);
}

/* Off: no query pool, no timestamp, no time; the setter turns them on for
 * the placed graph, and reset frees them (the device's destruction would
 * report a leaked pool). */
DEVICE_TEST(rg_timings, off_makes_nothing)
{
    rg_device *dev = counting_device();
    memset(&calls, 0, sizeof calls);
    runner r;
    runner_open(&r);
    frame_graph fg;
    declare(&fg, dev, "timings off", true, false);
    for (int i = 0; i < 3; i++)
        run_frame(&r, fg.g);
    cr_expect_eq(calls.create_query_pool, 0);
    cr_expect_eq(calls.write_timestamp, 0, "%d timestamps with timings off", calls.write_timestamp);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    double ms;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(rg_graph_set_timings(fg.g, true), RG_SUCCESS);
    cr_expect_eq(calls.create_query_pool, 1);
    cr_expect_gt(rg_timing_count(fg.g), 0);
    run_frame(&r, fg.g);
    run_frame(&r, fg.g);
    double marker = 0.0;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &marker), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
    cr_expect_gt(marker, 0.0);
    vkDeviceWaitIdle(r.dev);
    rg_graph_reset(fg.g);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    release(&fg);
    runner_close(&r);
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
    runner_open(&r);
    frame_graph fg;
    declare(&fg, dev, "timings without bits", true, true);
    run_frame(&r, fg.g);
    run_frame(&r, fg.g);
    cr_expect_eq(calls.create_query_pool, 0);
    cr_expect_eq(rg_timing_count(fg.g), 0);
    double ms;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_UNSUPPORTED, "%s",
                 rg_graph_error_message(fg.g));
    release(&fg);
    runner_close(&r);
    rg_device_destroy(dev);
    calls.no_timestamps = false;
}
