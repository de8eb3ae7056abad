/* Frames and graphs of the GPU timings tests (rg_timings_support.h). */
#include "rg_timings_support.h"

#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- frames */

void timings_runner_open(runner *r)
{
    memset(r, 0, sizeof *r);
    r->dev = eng_context_device(test_ctx);
    test_queue_pools(r->dev, r->pools);
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 * MAX_FRAMES };
    cr_assert_eq(vkCreateQueryPool(r->dev, &qi, NULL, &r->frame_queries), VK_SUCCESS);
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(r->dev, &fi, NULL, &r->fence), VK_SUCCESS);
}

void timings_runner_close(runner *r)
{
    vkDeviceWaitIdle(r->dev);
    test_queue_pools_destroy(r->dev, r->pools);
    vkDestroyQueryPool(r->dev, r->frame_queries, NULL);
    vkDestroyFence(r->dev, r->fence, NULL);
}

void timings_record_frame(runner *r, rg_graph *g, rg_submit_plan *plan)
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

void timings_submit_frame(runner *r, rg_graph *g, const rg_submit_plan *plan, const VkSemaphoreSubmitInfo *wait,
                         bool fenced)
{
    rg_submit_desc sd = { .waits = wait, .wait_count = wait ? 1 : 0, .fence = fenced ? r->fence : VK_NULL_HANDLE };
    rg_result res = rg_submit(g, plan, &sd);
    cr_assert_eq(res, RG_SUCCESS, "rg_submit: %s: %s", rg_result_string(res), rg_graph_error_message(g));
}

void timings_wait_frames(runner *r)
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

void timings_run_frame(runner *r, rg_graph *g)
{
    rg_submit_plan plan = { 0 };
    timings_record_frame(r, g, &plan);
    timings_submit_frame(r, g, &plan, NULL, true);
    timings_wait_frames(r);
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

bool timings_fail_marker;

static bool record_marker(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return !timings_fail_marker;
}

void timings_declare(frame_graph *fg, rg_device *dev, const char *name, bool single_queue, bool timings)
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

void timings_release(frame_graph *fg)
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

void timings_check_frame(const runner *r, const frame_graph *fg, uint64_t frame)
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

void timings_open(runner *r, frame_graph *fg, rg_device *dev, const char *name, bool single_queue, bool timings,
                  int frames)
{
    timings_runner_open(r);
    timings_declare(fg, dev, name, single_queue, timings);
    for (int i = 0; i < frames; i++)
        timings_run_frame(r, fg->g);
}

void timings_close(runner *r, frame_graph *fg)
{
    timings_release(fg);
    timings_runner_close(r);
}
