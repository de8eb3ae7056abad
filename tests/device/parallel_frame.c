/* Frames recorded whole or in chunks, submitted and waited for
 * (parallel_support.h). */
#include "parallel_support.h"

#include "device_fixture.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* ------------------------------------------------------------ the frames */

const char *const parallel_mode_names[] = { "whole", "rg_workers", "a thread per chunk", "a loop" };

void parallel_frame_cmds(frame *f, bool log)
{
    VkDevice dev = eng_context_device(test_ctx);
    for (uint32_t i = 0; i < f->count; i++) {
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                        .queueFamilyIndex = test_family_of(f->chunks[i].queue) };
        cr_assert_eq(vkCreateCommandPool(dev, &pci, NULL, &f->pools[i]), VK_SUCCESS);
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = f->pools[i], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        cr_assert_eq(vkAllocateCommandBuffers(dev, &ai, &f->cmds[i]), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
        cr_assert_eq(vkBeginCommandBuffer(f->cmds[i], &bi), VK_SUCCESS);
        if (log)
            parallel_log_open(f->cmds[i]);
    }
}

static void *chunk_thread(void *arg)
{
    chunk_job *j = arg;
    *j->result = rg_execute_chunk(j->graph, j->index, j->cmd);
    return NULL;
}

/* Begins a frame in chunks and records every chunk the way m says. */
static void record_chunks(frame *f, rg_workers *workers)
{
    rg_graph *g = f->graph;
    if (f->mode == MODE_WORKERS) {
        f->recorded = rg_workers_execute(workers, g, f->cmds);
        return;
    }
    if (f->mode == MODE_HAND) {
        for (uint32_t i = f->count; i-- > 0;)
            f->results[i] = rg_execute_chunk(g, i, f->cmds[i]);
        return;
    }
    pthread_t threads[MAX_CMDS];
    chunk_job jobs[MAX_CMDS];
    for (uint32_t i = 0; i < f->count; i++) {
        jobs[i] = (chunk_job){ g, i, f->cmds[i], &f->results[i] };
        cr_assert_eq(pthread_create(&threads[i], NULL, chunk_thread, &jobs[i]), 0);
    }
    for (uint32_t i = 0; i < f->count; i++)
        pthread_join(threads[i], NULL);
}

rg_result parallel_record_frame(frame *f, rg_graph *g, mode m, uint32_t max_chunks, rg_workers *workers, bool log)
{
    memset(f, 0, sizeof *f);
    f->graph = g;
    f->mode = m;
    f->max_chunks = max_chunks;
    rg_result r;
    if (m == MODE_WHOLE) {
        f->count = rg_batch_count(g);
        cr_assert(f->count >= 1 && f->count <= MAX_CMDS);
        for (uint32_t i = 0; i < f->count; i++) {
            rg_batch_info b;
            cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS);
            f->chunks[i] = (rg_chunk_info){ .batch = i, .queue = b.queue };
        }
        parallel_frame_cmds(f, log);
        if (f->count == 1) {
            r = rg_execute(g, f->cmds[0]);
        } else {
            r = rg_execute_batches(g, f->cmds, &f->plan);
            f->has_plan = r == RG_SUCCESS;
        }
    } else {
        r = rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = max_chunks }, &f->count);
        cr_assert_eq(r, RG_SUCCESS, "rg_execute_begin: %s", rg_graph_error_message(g));
        cr_assert(f->count >= 1 && f->count <= MAX_CMDS, "%u chunks", f->count);
        for (uint32_t i = 0; i < f->count; i++)
            cr_assert_eq(rg_chunk_get(g, i, &f->chunks[i]), RG_SUCCESS, "%s", rg_graph_error_message(g));
        parallel_frame_cmds(f, log);
        record_chunks(f, workers);
        bool by_hand = m == MODE_HAND && rg_batch_count(g) == 1;
        r = rg_execute_end(g, f->cmds, by_hand ? NULL : &f->plan);
        f->has_plan = r == RG_SUCCESS && !by_hand;
    }
    for (uint32_t i = 0; i < f->count; i++)
        cr_assert_eq(vkEndCommandBuffer(f->cmds[i]), VK_SUCCESS);
    for (uint32_t i = 0; log && i < f->count; i++)
        f->texts[i] = parallel_log_take(f->cmds[i]);
    parallel_logs_close();
    return r;
}

/* Whether a command buffer of the frame both resumes and suspends.
 *
 * The validation layer's check of vkQueueSubmit2 (Vulkan-ValidationLayers
 * up to 2025, Debian 12's 1.3.239 and Debian 13's 1.4.309 among them)
 * marks such a command buffer's suspension before it checks its
 * resumption, which then consumes it: the next command buffer's
 * resumption is reported as VUID-VkSubmitInfo2-commandBuffer-06192
 * ("resumes a render pass instance, but there is no suspended render
 * pass instance") although the one before suspends it. Issue
 * KhronosGroup/Vulkan-ValidationLayers#4195 reported it for vkQueueSubmit,
 * whose check was put in order (pull request #4202); vkQueueSubmit2's
 * kept the old order until the suspend tracking was rewritten (pull
 * request #10811). Such frames are submitted through vkQueueSubmit, whose
 * check is right, so that the layer still checks every pairing. */
static bool resumes_and_suspends(const frame *f)
{
    for (uint32_t i = 0; i < f->count; i++)
        if (f->chunks[i].resumes && f->chunks[i].suspends)
            return true;
    return false;
}

/* vkQueueSubmit2's semaphore stages as vkQueueSubmit's: stages past the
 * first 32 bits (copy, clear...) widen to all commands. */
static VkPipelineStageFlags stage_v1(VkPipelineStageFlags2 stage)
{
    return stage >> 32 || stage == 0 ? VK_PIPELINE_STAGE_ALL_COMMANDS_BIT : (VkPipelineStageFlags)stage;
}

/* One submission by vkQueueSubmit: cmds in order, the plan's waits and
 * signal (timeline values) where s is given. */
static void submit_v1(VkQueue queue, const VkCommandBuffer *cmds, uint32_t count, const rg_submission *s)
{
    VkSemaphore waits[RG_QUEUE_COUNT], signal = VK_NULL_HANDLE;
    uint64_t wait_values[RG_QUEUE_COUNT], signal_value = 0;
    VkPipelineStageFlags stages[RG_QUEUE_COUNT];
    uint32_t wait_count = s ? s->wait_count : 0;
    for (uint32_t w = 0; w < wait_count; w++) {
        waits[w] = s->waits[w].semaphore;
        wait_values[w] = s->waits[w].value;
        stages[w] = stage_v1(s->waits[w].stageMask);
    }
    if (s) {
        signal = s->signal.semaphore;
        signal_value = s->signal.value;
    }
    VkTimelineSemaphoreSubmitInfo timeline = { .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                               .waitSemaphoreValueCount = wait_count,
                                               .pWaitSemaphoreValues = wait_values,
                                               .signalSemaphoreValueCount = s ? 1 : 0,
                                               .pSignalSemaphoreValues = &signal_value };
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = s ? &timeline : NULL,
                        .waitSemaphoreCount = wait_count, .pWaitSemaphores = waits, .pWaitDstStageMask = stages,
                        .commandBufferCount = count, .pCommandBuffers = cmds,
                        .signalSemaphoreCount = s ? 1 : 0, .pSignalSemaphores = &signal };
    cr_assert_eq(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
}

void parallel_submit_frame(frame *f)
{
    bool v1 = resumes_and_suspends(f);
    if (f->has_plan) {
        cr_assert_eq(f->plan.count, rg_batch_count(f->graph));
        uint32_t listed = 0;
        for (uint32_t b = 0; b < f->plan.count; b++) {
            const rg_submission *s = &f->plan.submissions[b];
            cr_assert_eq(s->cmd, s->cmds[0]);
            for (uint32_t k = 0; k < s->cmd_count; k++, listed++) {
                cr_assert_lt(listed, f->count);
                cr_expect_eq(s->cmds[k], f->cmds[listed], "batch %u lists command buffer %u out of order", b, k);
                cr_expect_eq(f->chunks[listed].batch, b, "batch %u lists chunk %u of batch %u", b, listed,
                             f->chunks[listed].batch);
            }
        }
        cr_assert_eq(listed, f->count, "the plan lists %u of %u command buffers", listed, f->count);
        if (v1) {
            for (uint32_t b = 0; b < f->plan.count; b++) {
                const rg_submission *s = &f->plan.submissions[b];
                submit_v1(s->vk_queue, s->cmds, s->cmd_count, s);
            }
        } else {
            rg_result r = rg_submit(f->graph, &f->plan, NULL);
            cr_assert_eq(r, RG_SUCCESS, "rg_submit: %s", rg_graph_error_message(f->graph));
        }
    } else if (v1) {
        submit_v1(eng_context_queue(test_ctx), f->cmds, f->count, NULL);
    } else {
        VkCommandBufferSubmitInfo infos[MAX_CMDS];
        for (uint32_t i = 0; i < f->count; i++)
            infos[i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                    .commandBuffer = f->cmds[i] };
        VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = f->count,
                             .pCommandBufferInfos = infos };
        cr_assert_eq(vkQueueSubmit2(eng_context_queue(test_ctx), 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    }
    cr_assert_eq(vkDeviceWaitIdle(eng_context_device(test_ctx)), VK_SUCCESS);
}

void parallel_frame_free(frame *f)
{
    for (uint32_t i = 0; i < f->count; i++) {
        vkDestroyCommandPool(eng_context_device(test_ctx), f->pools[i], NULL);
        free(f->texts[i]);
    }
    memset(f, 0, sizeof *f);
}

void parallel_check_chunks(const frame *f, uint64_t cost)
{
    uint64_t sum = 0;
    uint32_t positions = 0;
    for (uint32_t i = 0; i < f->count; i++) {
        const rg_chunk_info *c = &f->chunks[i];
        sum += c->cost;
        positions += c->count;
        bool first = i == 0 || f->chunks[i - 1].batch != c->batch;
        bool last = i + 1 == f->count || f->chunks[i + 1].batch != c->batch;
        /* Only a batch of no commands (the last graphics batch of a frame
         * on several queues may hold only the final barriers) has an
         * empty chunk, its only one. */
        cr_expect(c->count > 0 || (first && last), "chunk %u is empty, beside others of batch %u", i, c->batch);
        cr_expect(!first || !c->resumes, "chunk %u, the first of batch %u, resumes", i, c->batch);
        cr_expect(!last || !c->suspends, "chunk %u, the last of batch %u, suspends", i, c->batch);
        if (!first) {
            cr_expect_eq(f->chunks[i - 1].suspends, c->resumes, "chunk %u suspends %d, chunk %u resumes %d", i - 1,
                         f->chunks[i - 1].suspends, i, c->resumes);
            cr_expect_gt(c->first, f->chunks[i - 1].first, "chunk %u starts at %u, before chunk %u", i, c->first,
                         i - 1);
            if (rg_batch_count(f->graph) == 1)
                cr_expect_eq(c->first, f->chunks[i - 1].first + f->chunks[i - 1].count,
                             "chunk %u starts at %u, chunk %u ends at %u", i, c->first, i - 1,
                             f->chunks[i - 1].first + f->chunks[i - 1].count);
        }
        if (i > 0)
            cr_expect_geq(c->batch, f->chunks[i - 1].batch, "chunks out of batch order");
    }
    const rg_command *order = NULL;
    cr_expect_eq(positions, rg_execution_order(f->graph, &order), "the chunks hold %u positions", positions);
    cr_expect_eq(sum, cost, "the chunks cost %llu, the frame %llu", (unsigned long long)sum,
                 (unsigned long long)cost);
    if (f->max_chunks > 0 && rg_batch_count(f->graph) == 1)
        cr_expect_leq(f->count, f->max_chunks, "%u chunks for max_chunks %u", f->count, f->max_chunks);
}
