/* The measured queue policy on a device (RG_QUEUE_POLICY_MEASURED): real
 * frames timed by the graph's own timestamps, async compute first, one
 * queue after the switch that rg_submit makes, the faster way kept; every
 * frame's results exact across both switches, the plan of the frame
 * before a switch still readable after rg_submit, the log's and the
 * report's sentence, the validation layer silent. Where the device has no
 * compute queue (lavapipe), the graph's compute queue is the graphics
 * queue itself: the batches and semaphores are the same, submitted in
 * order to one queue. Which way wins is the device's; the rule is tested
 * with given times in tests/unit/test_rg_queue_measure.c. */
#include "device_fixture.h"
#include "rg_queues_support.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

TestSuite(rg_queue_measure, .init = device_setup, .fini = device_teardown);

typedef struct logged {
    char text[8192];
    uint32_t problems;                /* errors and warnings */
} logged;

static void keep(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)object;
    logged *l = user;
    l->problems += level != RG_LOG_INFO;
    size_t len = strlen(l->text);
    snprintf(l->text + len, sizeof l->text - len, "%s\n", message);
}

/* The context's queues, with the graphics queue standing in for a compute
 * queue the device lacks. */
static rg_device *two_queue_device(void)
{
    rg_device_desc d = {
        .instance = eng_context_instance(test_ctx),
        .physical_device = eng_context_physical_device(test_ctx),
        .device = eng_context_device(test_ctx),
        .get_instance_proc_addr = vkGetInstanceProcAddr,
        .enabled_features = test_enabled_features(test_ctx),
        .timeline_semaphore = true,
    };
    d.queues[RG_QUEUE_GRAPHICS] = (rg_device_queue){ eng_context_queue(test_ctx), eng_context_queue_family(test_ctx) };
    VkQueue compute = eng_context_queue_of(test_ctx, ENG_QUEUE_COMPUTE);
    d.queues[RG_QUEUE_COMPUTE] = compute ? (rg_device_queue){ compute, test_family_of(RG_QUEUE_COMPUTE) }
                                         : d.queues[RG_QUEUE_GRAPHICS];
    rg_device *dev = NULL;
    rg_result r = rg_device_create(&d, &dev);
    cr_assert_eq(r, RG_SUCCESS, "rg_device_create: %s", rg_result_string(r));
    return dev;
}

/* pattern -> data (async), scale data -> mid (async), offset mid ->
 * result (graphics); data and result copied to the readback. */
typedef struct chain {
    rg_graph *g;
    dispatch pattern, scale, offset;
    eng_buffer *readback;
} chain;

/* What both tests hold: the kernels, the runner, the graph's device, its
 * log and the chain. */
typedef struct fixture {
    kernels k;
    runner r;
    rg_device *dev;
    logged log;
    chain ch;
} fixture;

static void chain_declare(chain *ch, kernels *k, rg_device *dev, logged *log);

static void fixture_open(fixture *x)
{
    memset(x, 0, sizeof *x);
    queues_open(&x->k, &x->r);
    x->dev = two_queue_device();
    x->ch.readback = test_host_buffer(2 * BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    chain_declare(&x->ch, &x->k, x->dev, &x->log);
}

static void fixture_close(fixture *x)
{
    rg_graph_destroy(x->ch.g);
    rg_device_destroy(x->dev);
    eng_buffer_destroy(x->ch.readback);
    queues_runner_close(&x->r);
    queues_kernels_close(&x->k);
}

/* The chain declared into ch->g and compiled; spare adds a buffer nothing
 * uses (another declaration, the same frame). */
static void chain_fill(chain *ch, kernels *k, bool spare)
{
    rg_graph *g = ch->g;
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    rg_buffer mid = rg_buffer_create(g, &(rg_buffer_desc){ .name = "mid", .size = BYTES });
    rg_buffer result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    rg_buffer out = test_import_buffer(g, "readback", ch->readback, true);
    ch->pattern = queues_pattern_of(k, data, 0x1000, 3);
    ch->scale = queues_transform_of(k, data, mid, 5, 7);
    ch->offset = queues_transform_of(k, mid, result, 1, 0x100000);
    queues_declare_dispatch(g, "pattern", &ch->pattern, RG_QUEUE_COMPUTE);
    queues_declare_dispatch(g, "scale", &ch->scale, RG_QUEUE_COMPUTE);
    queues_declare_dispatch(g, "offset", &ch->offset, RG_QUEUE_GRAPHICS);
    rg_cmd_copy_buffer(g, data, 0, out, 0, BYTES);
    rg_cmd_copy_buffer(g, result, 0, out, BYTES, BYTES);
    if (spare)
        rg_buffer_create(g, &(rg_buffer_desc){ .name = "spare", .size = 256 });
    test_compile(g);
}

static void chain_declare(chain *ch, kernels *k, rg_device *dev, logged *log)
{
    rg_graph_desc d = { .name = "measured", .device = dev, .queue_policy = RG_QUEUE_POLICY_MEASURED,
                        .timings = true, .log = keep, .log_user = log };
    cr_assert_eq(rg_graph_create(&d, &ch->g), RG_SUCCESS);
    chain_fill(ch, k, false);
}

static void chain_expect(const chain *ch, const char *what)
{
    static uint32_t want[2 * WORDS];
    for (uint32_t i = 0; i < WORDS; i++) {
        uint32_t v = queues_pattern_at(&ch->pattern, i);
        want[i] = v;
        want[WORDS + i] = queues_transform_at(&ch->offset, queues_transform_at(&ch->scale, v));
    }
    const uint32_t *got = eng_buffer_mapped(ch->readback);
    cr_expect_eq(queues_expect_words(got, want, 2 * WORDS, what), 0, "%s", what);
}

static rg_queue_choice choice_of(const rg_graph *g)
{
    rg_queue_choice c;
    cr_assert_eq(rg_queue_choice_get(g, &c), RG_SUCCESS);
    return c;
}

/* One frame with its own pattern, run and waited for, read back exact. */
static void frame(chain *ch, runner *r, uint32_t f)
{
    ch->pattern.push[0] = 0x10000u * (f + 1);
    ch->pattern.push[1] = f + 2;
    char what[64];
    snprintf(what, sizeof what, "frame %u (%u batches)", f, rg_batch_count(ch->g));
    queues_run_frames(r, ch->g, 1, NULL, NULL, NULL, NULL);
    chain_expect(ch, what);
}

DEVICE_TEST(rg_queue_measure, keeps_the_faster_way_and_every_frame_exact)
{
    static fixture x;
    fixture_open(&x);
    cr_assert_gt(rg_batch_count(x.ch.g), 1, "async compute first");
    cr_expect_eq(choice_of(x.ch.g).state, RG_QUEUE_CHOICE_MEASURING);

    /* Frame f's times are read at frame f + 1: three passed over, 15 timed
     * on each way, a switch after the first 15; the choice is made while
     * recording the frame after the last 15, and compiled after its
     * submission when it is async compute (which a busy machine's lavapipe
     * may measure faster). */
    uint32_t f = 0, switched_at[2] = { 0, 0 }, switches = 0;
    bool async = true;
    while (f < 60 && choice_of(x.ch.g).state == RG_QUEUE_CHOICE_MEASURING) {
        frame(&x.ch, &x.r, f++);
        bool now = rg_batch_count(x.ch.g) > 1;
        if (now != async && switches < 2)
            switched_at[switches++] = f;
        async = now;
    }
    rg_queue_choice c = choice_of(x.ch.g);
    cr_assert_eq(c.state, RG_QUEUE_CHOICE_MADE, "after %u frames: %s", f, c.reason);
    cr_log_info("%s", c.reason);
    cr_expect_eq(switches, c.async ? 2u : 1u, "%u switches: one to one queue, %s", switches,
                 c.async ? "one back to async compute" : "none back");
    if (c.async)
        cr_expect_eq(switched_at[1], f, "back to async compute after the frame that chose it");
    cr_expect_eq(switched_at[0], 3 + RG_QUEUE_MEASURE_FRAMES + 1, "async compute timed over 15 frames, then one "
                 "queue (switched after frame %u)", switched_at[0]);
    cr_expect_eq(f, switched_at[0] + 3 + RG_QUEUE_MEASURE_FRAMES + 1, "one queue timed over 15 frames (%u)", f);
    cr_expect_gt(c.async_ms, 0.0);
    cr_expect_gt(c.single_ms, 0.0);
    /* rg_submit timed on the CPU each way, said beside the choice. */
    cr_expect_gt(c.async_submit_ms, 0.0);
    cr_expect_gt(c.single_submit_ms, 0.0);
    cr_expect(strstr(c.reason, "; rg_submit took "), "%s", c.reason);
    cr_expect_eq(c.frames, RG_QUEUE_MEASURE_FRAMES);
    cr_expect(strstr(x.log.text, "queue policy measured: graph 'measured': async compute "), "%s", x.log.text);
    cr_expect_eq(x.log.problems, 0, "%s", x.log.text);

    /* The choice is compiled after the next submission, and stays. */
    frame(&x.ch, &x.r, f++);
    cr_expect_eq(rg_batch_count(x.ch.g) > 1, c.async, "%s", c.reason);
    for (uint32_t i = 0; i < 4; i++)
        frame(&x.ch, &x.r, f++);
    cr_expect_eq(rg_batch_count(x.ch.g) > 1, c.async);
    cr_expect_eq(choice_of(x.ch.g).state, RG_QUEUE_CHOICE_MADE);

    /* The report says what was chosen and why. */
    char path[256];
    test_temp_path(path, sizeof path, "measure-report.txt");
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    cr_expect_eq(rg_memory_report_print(x.ch.g, file), RG_SUCCESS);
    fclose(file);
    char text[16384] = { 0 };
    file = fopen(path, "r");
    cr_assert_not_null(file);
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    remove(path);
    text[n] = '\0';
    char line[320];
    snprintf(line, sizeof line, "queue policy measured: %s\n", c.reason);
    cr_expect(strstr(text, line), "want %s in:\n%s", line, text);

    fixture_close(&x);
}

/* Frames in flight as an application keeps them: the host waits for
 * frame f - 3 before recording frame f, so the timings arrive frames
 * later, each switch comes after whichever submission follows the
 * decision with frames of the old way still running, and each frame is
 * recorded with the batch count of its own time. Each frame writes its own
 * pattern; the last one's is read back exact. */
DEVICE_TEST(rg_queue_measure, switches_with_frames_in_flight)
{
    static fixture x;
    fixture_open(&x);
    enum { FRAMES_MAX = 80 };
    static VkCommandBuffer cmds[FRAMES_MAX][MAX_BATCHES];
    static VkCommandPool pools[FRAMES_MAX][MAX_BATCHES];
    uint32_t counts[FRAMES_MAX] = { 0 }, f = 0, batch_counts_seen = 0, last_count = 0;
    VkFence fences[3];
    for (uint32_t i = 0; i < 3; i++)
        cr_assert_eq(vkCreateFence(x.r.dev, &(VkFenceCreateInfo){ .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO }, NULL,
                                   &fences[i]), VK_SUCCESS);
    for (; f < FRAMES_MAX && (f == 0 || choice_of(x.ch.g).state == RG_QUEUE_CHOICE_MEASURING ||
                              rg_batch_count(x.ch.g) != last_count); f++) {
        x.ch.pattern.push[0] = 0x10000u * (f + 1);
        VkFence fence = fences[f % 3];
        if (f >= 3) {
            cr_assert_eq(vkWaitForFences(x.r.dev, 1, &fence, VK_TRUE, WAIT_NS), VK_SUCCESS);
            cr_assert_eq(vkResetFences(x.r.dev, 1, &fence), VK_SUCCESS);
        }
        uint32_t n = counts[f] = rg_batch_count(x.ch.g);
        cr_assert(n >= 1 && n <= MAX_BATCHES);
        batch_counts_seen += n != last_count;
        last_count = n;
        for (uint32_t i = 0; i < n; i++) {
            rg_batch_info b;
            cr_assert_eq(rg_batch_get(x.ch.g, i, &b), RG_SUCCESS);
            pools[f][i] = x.r.pools[b.queue];
            VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                               .commandPool = pools[f][i], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                               .commandBufferCount = 1 };
            cr_assert_eq(vkAllocateCommandBuffers(x.r.dev, &ai, &cmds[f][i]), VK_SUCCESS);
            VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
            cr_assert_eq(vkBeginCommandBuffer(cmds[f][i], &bi), VK_SUCCESS);
        }
        rg_submit_plan plan = { 0 };
        rg_result res = rg_execute_batches(x.ch.g, cmds[f], &plan);
        cr_assert_eq(res, RG_SUCCESS, "frame %u: %s", f, rg_graph_error_message(x.ch.g));
        cr_assert_eq(plan.count, n);
        for (uint32_t i = 0; i < n; i++)
            cr_assert_eq(vkEndCommandBuffer(cmds[f][i]), VK_SUCCESS);
        res = rg_submit(x.ch.g, &plan, &(rg_submit_desc){ .fence = fence });
        cr_assert_eq(res, RG_SUCCESS, "frame %u: %s", f, rg_graph_error_message(x.ch.g));
        /* The plan stays readable after a switch, until the next execute. */
        cr_expect_eq(plan.submissions[n - 1].queue, RG_QUEUE_GRAPHICS);
        cr_expect_eq(plan.submissions[n - 1].cmds[0], cmds[f][n - 1]);
        /* A switch placed the graph anew with frames still running: the
         * dispatches' descriptor sets, which the next frame rewrites for
         * the new buffers, must wait for them (the test's, not the
         * graph's: its old placement retires after them by itself). */
        if (rg_batch_count(x.ch.g) != n) {
            cr_assert_eq(vkDeviceWaitIdle(x.r.dev), VK_SUCCESS);
            /* The plan's semaphores are the old placement's: done with on
             * the GPU, yet valid until the next execute, collected or not. */
            rg_device_collect(x.dev);
            for (uint32_t i = 0; i < n; i++) {
                uint64_t value = 0;
                cr_expect_eq(vkGetSemaphoreCounterValue(x.r.dev, plan.submissions[i].signal.semaphore, &value),
                             VK_SUCCESS);
                cr_expect_geq(value, plan.submissions[i].signal.value, "frame %u, batch %u", f, i);
            }
        }
    }
    cr_assert_eq(vkDeviceWaitIdle(x.r.dev), VK_SUCCESS);
    for (uint32_t i = 0; i < 3; i++)
        vkDestroyFence(x.r.dev, fences[i], NULL);
    chain_expect(&x.ch, "the last frame");
    rg_queue_choice c = choice_of(x.ch.g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MADE, "after %u frames: %s", f, c.reason);
    cr_expect_geq(batch_counts_seen, 2, "both ways ran");
    cr_expect_eq(rg_batch_count(x.ch.g) > 1, c.async, "%s", c.reason);
    cr_expect_eq(x.log.problems, 0, "%s", x.log.text);
    for (uint32_t i = 0; i < f; i++)
        for (uint32_t b = 0; b < counts[i]; b++)
            vkFreeCommandBuffers(x.r.dev, pools[i][b], 1, &cmds[i][b]);
    fixture_close(&x);
}

/* Another declaration right after a switch, before any frame of it: it is
 * measured afresh, with async compute first, and the plan the switch kept
 * readable is freed at its first frame (the sanitizers' build checks no
 * leak). */
DEVICE_TEST(rg_queue_measure, a_new_declaration_right_after_a_switch)
{
    static fixture x;
    fixture_open(&x);
    uint32_t f = 0;
    while (f < 40 && rg_batch_count(x.ch.g) > 1)
        frame(&x.ch, &x.r, f++);
    cr_assert_eq(rg_batch_count(x.ch.g), 1, "on one queue after %u frames", f);
    cr_assert_eq(rg_graph_reset(x.ch.g), RG_SUCCESS);
    chain_fill(&x.ch, &x.k, true);
    rg_queue_choice c = choice_of(x.ch.g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MEASURING, "%s", c.reason);
    cr_expect_eq(c.frames, 0);
    cr_expect_gt(rg_batch_count(x.ch.g), 1, "async compute first again");
    frame(&x.ch, &x.r, f++);
    cr_expect_eq(x.log.problems, 0, "%s", x.log.text);
    fixture_close(&x);
}

/* One frame submitted by hand from its plan (vkQueueSubmit2 per batch, as
 * rg_submit would), the fence on the last, waited for; nothing tells the
 * graph about it. */
static void frame_by_hand(fixture *x, uint32_t f)
{
    x->ch.pattern.push[0] = 0x10000u * (f + 1);
    uint32_t n = rg_batch_count(x->ch.g);
    cr_assert(n >= 1 && n <= MAX_BATCHES);
    VkCommandBuffer cmds[MAX_BATCHES];
    VkCommandPool pools[MAX_BATCHES];
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(x->ch.g, i, &b), RG_SUCCESS);
        pools[i] = x->r.pools[b.queue];
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = pools[i], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        cr_assert_eq(vkAllocateCommandBuffers(x->r.dev, &ai, &cmds[i]), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
        cr_assert_eq(vkBeginCommandBuffer(cmds[i], &bi), VK_SUCCESS);
    }
    rg_submit_plan plan = { 0 };
    cr_assert_eq(rg_execute_batches(x->ch.g, cmds, &plan), RG_SUCCESS, "%s", rg_graph_error_message(x->ch.g));
    for (uint32_t i = 0; i < n; i++)
        cr_assert_eq(vkEndCommandBuffer(cmds[i]), VK_SUCCESS);
    for (uint32_t i = 0; i < plan.count; i++) {
        const rg_submission *sub = &plan.submissions[i];
        VkCommandBufferSubmitInfo cb = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                         .commandBuffer = sub->cmd };
        VkSubmitInfo2 info = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = sub->wait_count,
                               .pWaitSemaphoreInfos = sub->waits, .commandBufferInfoCount = 1,
                               .pCommandBufferInfos = &cb, .signalSemaphoreInfoCount = 1,
                               .pSignalSemaphoreInfos = &sub->signal };
        bool last = i + 1 == plan.count;
        cr_assert_eq(vkQueueSubmit2(sub->vk_queue, 1, &info, last ? x->r.fence : VK_NULL_HANDLE), VK_SUCCESS);
    }
    cr_assert_eq(vkWaitForFences(x->r.dev, 1, &x->r.fence, VK_TRUE, WAIT_NS), VK_SUCCESS);
    cr_assert_eq(vkResetFences(x->r.dev, 1, &x->r.fence), VK_SUCCESS);
    cr_assert_eq(vkDeviceWaitIdle(x->r.dev), VK_SUCCESS); /* every batch's signal done, for the layer */
    char what[64];
    snprintf(what, sizeof what, "frame %u by hand (%u batches)", f, n);
    chain_expect(&x->ch, what);
    for (uint32_t i = 0; i < n; i++)
        vkFreeCommandBuffers(x->r.dev, pools[i], 1, &cmds[i]);
}

/* Frames submitted by hand without a retire point: the switch the
 * measurement needs never comes, and the log says why, naming the graph
 * and the call it misses; the retire point then makes it. */
DEVICE_TEST(rg_queue_measure, a_forgotten_retire_point_is_named)
{
    static fixture x;
    fixture_open(&x);
    uint32_t f = 0;
    for (; f < 3 + RG_QUEUE_MEASURE_FRAMES + 1; f++)
        frame_by_hand(&x, f);
    cr_expect_eq(x.log.problems, 0, "%s", x.log.text);
    for (uint32_t i = 0; i < 3; i++)
        frame_by_hand(&x, f++);
    cr_expect_gt(rg_batch_count(x.ch.g), 1, "no switch: the graph saw no submission");
    cr_expect_eq(x.log.problems, 1, "%s", x.log.text);
    cr_expect(strstr(x.log.text, "graph 'measured': the measured queue policy would compile on one queue after a "
                                 "frame's submission, but 3 frames were recorded since with neither rg_submit nor "
                                 "rg_graph_set_retire_point"), "%s", x.log.text);
    cr_assert_eq(rg_graph_set_retire_point(x.ch.g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
    cr_expect_eq(rg_batch_count(x.ch.g), 1, "switched at the retire point");
    frame_by_hand(&x, f++);
    cr_assert_eq(rg_graph_set_retire_point(x.ch.g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
    fixture_close(&x);
}

/* A history texture under the measured policy: each frame the eligible
 * commands copy previous out, transform it and copy the result into
 * current, and graphics reads both back. A switch places the graph anew,
 * so history restarts there (docs/queues.md#measured-queues): previous
 * holds the history clear in the first frame and the first after each
 * switch (rg_texture_history_valid false), what the frame before wrote in
 * every other. */
#define HISTORY_CLEAR 0x00000101u

DEVICE_TEST(rg_queue_measure, history_restarts_at_each_switch)
{
    static fixture x;
    fixture_open(&x);
    eng_buffer *readback = test_host_buffer(2 * BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = NULL;
    rg_graph_desc d = { .name = "measured history", .device = x.dev, .queue_policy = RG_QUEUE_POLICY_MEASURED,
                        .timings = true, .log = keep, .log_user = &x.log };
    cr_assert_eq(rg_graph_create(&d, &g), RG_SUCCESS);
    static history_step h;
    queues_history_step(&h, g, &x.k, "accum", HISTORY_CLEAR);
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_cmd_copy_texture_to_buffer(g, h.current, 0, 0, 1, out, 0);
    rg_cmd_copy_texture_to_buffer(g, h.previous, 0, 0, 1, out, BYTES);
    test_compile(g);
    cr_assert_gt(rg_batch_count(g), 1, "async compute first");

    static uint32_t want[2 * WORDS];
    uint32_t prev = HISTORY_CLEAR, batches = 0, restarts = 0, f = 0, after_choice = 0;
    for (; f < 80 && after_choice < 3; f++) {
        uint32_t n = rg_batch_count(g);
        bool valid = rg_texture_history_valid(g, h.previous);
        cr_expect_eq(valid, f > 0 && n == batches, "frame %u (%u batches, %u before): history %s", f, n, batches,
                     valid ? "kept" : "restarted");
        if (!valid) {
            prev = HISTORY_CLEAR;
            restarts++;
        }
        batches = n;
        queues_run_frames(&x.r, g, 1, NULL, NULL, NULL, NULL);
        uint32_t cur = queues_transform_at(&h.step, prev);
        for (uint32_t i = 0; i < WORDS; i++) {
            want[i] = cur;
            want[WORDS + i] = prev;
        }
        char what[64];
        snprintf(what, sizeof what, "frame %u (%u batches)", f, n);
        cr_expect_eq(queues_expect_words(eng_buffer_mapped(readback), want, 2 * WORDS, what), 0, "%s", what);
        prev = cur;
        after_choice += choice_of(g).state == RG_QUEUE_CHOICE_MADE;
    }
    rg_queue_choice c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MADE, "after %u frames: %s", f, c.reason);
    cr_expect_eq(restarts, c.async ? 3u : 2u, "history restarted %u times: the first frame, then at each switch (%s)",
                 restarts, c.reason);
    cr_expect_eq(x.log.problems, 0, "%s", x.log.text);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    fixture_close(&x);
}
