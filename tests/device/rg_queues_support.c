/* Queues, frames and kernels of the several-queue tests (rg_queues_support.h). */
#include "rg_queues_support.h"

#include "device_fixture.h"
#include "test_descriptors.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

static const uint32_t pattern_comp[] =
#include "queue_pattern.comp.inc"
    ;

static const uint32_t transform_comp[] =
#include "queue_transform.comp.inc"
    ;

/* ---------------------------------------------------------------- queues */

rg_queue queues_async_queue(void)
{
    return test_has_compute_queue() ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS;
}

/* The VkQueue and family of a graph queue: the context's queue of that
 * kind, the graphics one where it has none. */
static VkQueue vk_queue_of(rg_queue q)
{
    VkQueue queue = eng_context_queue_of(test_ctx, test_engine_kind(q));
    return queue ? queue : eng_context_queue(test_ctx);
}

rg_graph *queues_queue_graph(const char *name, bool single_queue)
{
    rg_graph *g = NULL;
    rg_graph_desc d = { .name = name, .device = eng_context_graph_device(test_ctx), .no_culling = true, .single_queue = single_queue };
    cr_assert_eq(rg_graph_create(&d, &g), RG_SUCCESS);
    return g;
}

void queues_check_batches(const rg_graph *g, bool multi)
{
    uint32_t n = rg_batch_count(g);
    if (multi && test_has_compute_queue())
        cr_assert_gt(n, 1, "a compute queue, yet %u batch", n);
    else
        cr_assert_eq(n, 1, "%u batches, want 1 (compute queue: %d, single_queue: %d)", n, test_has_compute_queue(), !multi);
    cr_assert_leq(n, MAX_BATCHES);
    rg_batch_info b;
    for (uint32_t i = 0; i < n; i++) {
        cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS, "batch %u: %s", i, rg_graph_error_message(g));
        if (n == 1)
            cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS, "the one batch runs on %s", rg_queue_name(b.queue));
        cr_expect(b.queue == RG_QUEUE_GRAPHICS || b.queue == RG_QUEUE_COMPUTE || b.queue == RG_QUEUE_TRANSFER,
                  "batch %u on %s", i, rg_queue_name(b.queue));
        cr_assert_leq(b.wait_count, RG_QUEUE_COUNT, "batch %u: %u waits", i, b.wait_count);
        cr_log_info("batch %u of %u: %s, positions %u..%u, %u waits, signal %llu", i, n, rg_queue_name(b.queue),
                    b.first, b.last, b.wait_count, (unsigned long long)b.signal);
        for (uint32_t w = 0; w < b.wait_count; w++) {
            const rg_batch_wait *wt = &b.waits[w];
            cr_expect_neq(wt->queue, b.queue, "batch %u waits for its own queue", i);
            cr_expect_neq(wt->stage, 0, "batch %u, wait %u: no stage", i, w);
            if (wt->batch == RG_INDEX_NONE)
                continue;
            cr_expect_lt(wt->batch, i, "batch %u waits for batch %u", i, wt->batch);
            rg_batch_info other;
            if (wt->batch < n && rg_batch_get(g, wt->batch, &other) == RG_SUCCESS)
                cr_expect_eq(other.queue, wt->queue, "batch %u waits on %s for batch %u, which is on %s", i,
                             rg_queue_name(wt->queue), wt->batch, rg_queue_name(other.queue));
        }
    }
    cr_assert_eq(rg_batch_get(g, n - 1, &b), RG_SUCCESS);
    cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS, "the frame's last batch runs on %s", rg_queue_name(b.queue));
    cr_expect_neq(rg_batch_get(g, n, &b), RG_SUCCESS, "batch %u of %u", n, n);
}

void queues_expect_queue(const rg_graph *g, rg_command c, rg_queue want)
{
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, c, &info), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(info.queue, want, "%s runs on %s, want %s", info.name, rg_queue_name(info.queue),
                 rg_queue_name(want));
    cr_assert_lt(info.batch, rg_batch_count(g), "%s: batch %u of %u", info.name, info.batch, rg_batch_count(g));
    rg_batch_info b;
    cr_assert_eq(rg_batch_get(g, info.batch, &b), RG_SUCCESS);
    cr_expect_eq(b.queue, info.queue, "%s on %s in batch %u of %s", info.name, rg_queue_name(info.queue), info.batch,
                 rg_queue_name(b.queue));
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(g, &order), at = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++)
        if (order[i].id == c.id)
            at = i;
    cr_expect(at >= b.first && at <= b.last, "%s at position %u, its batch %u holds %u..%u", info.name, at,
              info.batch, b.first, b.last);
}

/* ---------------------------------------------------------------- frames */

void queues_runner_open(runner *r)
{
    memset(r, 0, sizeof *r);
    r->dev = eng_context_device(test_ctx);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        for (uint32_t p = 0; p < q && !r->pools[q]; p++)
            if (test_family_of((rg_queue)p) == test_family_of((rg_queue)q))
                r->pools[q] = r->pools[p];
        if (r->pools[q])
            continue;
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                        .queueFamilyIndex = test_family_of((rg_queue)q) };
        cr_assert_eq(vkCreateCommandPool(r->dev, &pci, NULL, &r->pools[q]), VK_SUCCESS);
        r->owns[q] = true;
    }
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(r->dev, &fci, NULL, &r->fence), VK_SUCCESS);
}

void queues_runner_close(runner *r)
{
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        if (r->owns[q])
            vkDestroyCommandPool(r->dev, r->pools[q], NULL);
    vkDestroyFence(r->dev, r->fence, NULL);
}

/* A plan as rg_execute_batches returned it: one submission per batch, on
 * the batch's queue, with the command buffer recorded for it, signalling
 * its queue's timeline at increasing values. */
static void check_plan(const rg_graph *g, const rg_submit_plan *plan, const VkCommandBuffer *cmds)
{
    cr_assert_eq(plan->count, rg_batch_count(g));
    cr_assert_not_null(plan->submissions);
    uint64_t last_value[RG_QUEUE_COUNT] = { 0 };
    for (uint32_t i = 0; i < plan->count; i++) {
        const rg_submission *s = &plan->submissions[i];
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS);
        cr_expect_eq(s->queue, b.queue, "submission %u on %s, batch on %s", i, rg_queue_name(s->queue),
                     rg_queue_name(b.queue));
        cr_expect_eq(s->vk_queue, vk_queue_of(b.queue), "submission %u: not the context's %s queue", i,
                     rg_queue_name(b.queue));
        if (test_chunks_max())
            cr_expect(s->cmd_count >= 1 && s->cmd == s->cmds[0], "submission %u: its chunks not listed", i);
        else
            cr_expect_eq(s->cmd, cmds[i], "submission %u: another command buffer", i);
        cr_assert_leq(s->wait_count, RG_QUEUE_COUNT);
        for (uint32_t w = 0; w < s->wait_count; w++) {
            cr_expect_eq(s->waits[w].sType, VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
            cr_expect_neq(s->waits[w].semaphore, VK_NULL_HANDLE, "submission %u, wait %u", i, w);
        }
        cr_expect_eq(s->signal.sType, VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
        cr_expect_neq(s->signal.semaphore, VK_NULL_HANDLE, "submission %u signals nothing", i);
        if (s->queue < RG_QUEUE_COUNT) {
            cr_expect_gt(s->signal.value, last_value[s->queue], "submission %u signals %llu after %llu", i,
                         (unsigned long long)s->signal.value, (unsigned long long)last_value[s->queue]);
            last_value[s->queue] = s->signal.value;
        }
    }
}

void queues_run_frames(runner *r, rg_graph *g, uint32_t frames, frame_fn before, submit_fn submit,
                       void (*after_submit)(void *), void *user)
{
    cr_assert_leq(frames, MAX_FRAMES);
    uint32_t n = rg_batch_count(g);
    cr_assert(n >= 1 && n <= MAX_BATCHES, "%u batches", n);
    VkCommandBuffer cmds[MAX_FRAMES][MAX_BATCHES];
    VkCommandPool pool_of[MAX_BATCHES];
    rg_submit_plan plan = { 0 };
    for (uint32_t f = 0; f < frames; f++) {
        if (before)
            before(f, user);
        for (uint32_t i = 0; i < n; i++) {
            rg_batch_info b;
            cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS);
            cr_assert_lt(b.queue, RG_QUEUE_COUNT);
            pool_of[i] = r->pools[b.queue];
            VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                               .commandPool = pool_of[i], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                               .commandBufferCount = 1 };
            cr_assert_eq(vkAllocateCommandBuffers(r->dev, &ai, &cmds[f][i]), VK_SUCCESS);
            VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
            cr_assert_eq(vkBeginCommandBuffer(cmds[f][i], &bi), VK_SUCCESS);
        }
        rg_result res = test_execute_batches(g, cmds[f], &plan);
        cr_assert_eq(res, RG_SUCCESS, "frame %u: rg_execute_batches: %s: %s", f, rg_result_string(res),
                     rg_graph_error_message(g));
        for (uint32_t i = 0; i < n; i++)
            cr_assert_eq(vkEndCommandBuffer(cmds[f][i]), VK_SUCCESS);
        check_plan(g, &plan, cmds[f]);
        rg_submit_desc sd = { .fence = f + 1 == frames ? r->fence : VK_NULL_HANDLE };
        if (submit)
            submit(f, &sd, user);
        res = rg_submit(g, &plan, &sd);
        cr_assert_eq(res, RG_SUCCESS, "frame %u: rg_submit: %s: %s", f, rg_result_string(res),
                     rg_graph_error_message(g));
    }
    if (after_submit)
        after_submit(user);
    cr_assert_eq(vkWaitForFences(r->dev, 1, &r->fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    cr_assert_eq(vkResetFences(r->dev, 1, &r->fence), VK_SUCCESS);
    /* The fence, on the last batch, covers the other queues' work of the
     * frame through that batch's waits: their timelines have reached what
     * the plan signals by then. The graphics timeline is not checked: its
     * last value is signalled by the fence's own submission, and Vulkan
     * does not order a submission's semaphore signals before its fence
     * (lavapipe signals the fence first at times). The host then waits for
     * every value, so that the layer knows the command buffers are done. */
    for (uint32_t i = 0; i < plan.count; i++) {
        const rg_submission *sub = &plan.submissions[i];
        const VkSemaphoreSubmitInfo *s = &sub->signal;
        uint64_t value = 0;
        cr_expect_eq(vkGetSemaphoreCounterValue(r->dev, s->semaphore, &value), VK_SUCCESS);
        if (sub->queue != RG_QUEUE_GRAPHICS)
            cr_expect_geq(value, s->value, "after the fence, batch %u's %s timeline is at %llu, want %llu", i,
                          rg_queue_name(sub->queue), (unsigned long long)value, (unsigned long long)s->value);
        VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                   .pSemaphores = &s->semaphore, .pValues = &s->value };
        cr_expect_eq(vkWaitSemaphores(r->dev, &wi, WAIT_NS), VK_SUCCESS, "batch %u's %s timeline never reached %llu",
                     i, rg_queue_name(sub->queue), (unsigned long long)s->value);
    }
    for (uint32_t f = 0; f < frames; f++)
        for (uint32_t i = 0; i < n; i++)
            vkFreeCommandBuffers(r->dev, pool_of[i], 1, &cmds[f][i]);
}

/* --------------------------------------------------------------- kernels */

VkDescriptorSetLayout queues_buffers_layout(VkDevice dev, uint32_t count, VkShaderStageFlags stages)
{
    return test_set_layout(dev, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count, stages);
}

void queues_compute_pipeline(VkDevice dev, const uint32_t *code, size_t size, VkDescriptorSetLayout set,
                             VkPipelineLayout *layout, VkPipeline *pipeline)
{
    VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 16 };
    VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                        .pSetLayouts = &set, .pushConstantRangeCount = 1,
                                        .pPushConstantRanges = &push };
    cr_assert_eq(vkCreatePipelineLayout(dev, &plci, NULL, layout), VK_SUCCESS);
    VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                      .pCode = code };
    VkShaderModule module;
    cr_assert_eq(vkCreateShaderModule(dev, &smci, NULL, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = *layout,
    };
    cr_assert_eq(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, pipeline), VK_SUCCESS);
    vkDestroyShaderModule(dev, module, NULL);
}

void queues_kernels_open(kernels *k)
{
    memset(k, 0, sizeof *k);
    k->dev = eng_context_device(test_ctx);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64 };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 32,
                                       .poolSizeCount = 1, .pPoolSizes = &size };
    cr_assert_eq(vkCreateDescriptorPool(k->dev, &pci, NULL, &k->pool), VK_SUCCESS);
    k->one = queues_buffers_layout(k->dev, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    k->two = queues_buffers_layout(k->dev, 2, VK_SHADER_STAGE_COMPUTE_BIT);
    queues_compute_pipeline(k->dev, pattern_comp, sizeof pattern_comp, k->one, &k->pattern_layout, &k->pattern);
    queues_compute_pipeline(k->dev, transform_comp, sizeof transform_comp, k->two, &k->transform_layout, &k->transform);
}

void queues_kernels_close(kernels *k)
{
    vkDestroyPipeline(k->dev, k->pattern, NULL);
    vkDestroyPipeline(k->dev, k->transform, NULL);
    vkDestroyPipelineLayout(k->dev, k->pattern_layout, NULL);
    vkDestroyPipelineLayout(k->dev, k->transform_layout, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->one, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->two, NULL);
    vkDestroyDescriptorPool(k->dev, k->pool, NULL);
}

dispatch queues_pattern_of(kernels *k, rg_buffer dst, uint32_t base, uint32_t step)
{
    return (dispatch){ .k = k, .set = test_alloc_set(k->dev, k->pool, k->one), .dst = dst, .push = { base, step, WORDS } };
}

dispatch queues_transform_of(kernels *k, rg_buffer src, rg_buffer dst, uint32_t mul, uint32_t add)
{
    return (dispatch){ .k = k, .set = test_alloc_set(k->dev, k->pool, k->two), .src = src, .dst = dst,
                       .push = { mul, add, WORDS } };
}

void queues_history_step(history_step *h, rg_graph *g, kernels *k, const char *name, uint32_t clear)
{
    rg_texture_desc desc = { .name = name, .format = TEX_FMT, .width = TEX_W, .height = TEX_H,
                             .history_clear.color.uint32 = { clear } };
    h->current = rg_texture_create_history(g, &desc, &h->previous);
    rg_buffer before = rg_buffer_create(g, &(rg_buffer_desc){ .name = "before", .size = BYTES });
    rg_buffer after = rg_buffer_create(g, &(rg_buffer_desc){ .name = "after", .size = BYTES });
    h->step = queues_transform_of(k, before, after, 3, 7);
    h->on_async[0] = rg_cmd_copy_texture_to_buffer(g, h->previous, 0, 0, 1, before, 0);
    h->on_async[1] = queues_declare_dispatch(g, "step", &h->step, RG_QUEUE_COMPUTE);
    h->on_async[2] = rg_cmd_copy_buffer_to_texture(g, after, 0, h->current, 0, 0, 1);
    rg_command_allow_queue(g, h->on_async[0], RG_QUEUE_COMPUTE);
    rg_command_allow_queue(g, h->on_async[2], RG_QUEUE_COMPUTE);
}

static bool record_dispatch(const rg_record_context *rc, void *user)
{
    dispatch *d = user;
    VkBuffer src = d->src.id ? rg_record_buffer(rc, d->src) : VK_NULL_HANDLE;
    VkBuffer dst = rg_record_buffer(rc, d->dst);
    if (!dst || (d->src.id && !src))
        return false;
    if (src != d->bound_src || dst != d->bound_dst) {
        /* Binding 0 is src for the transform, dst for the pattern. */
        VkDescriptorBufferInfo bi[2] = { { src ? src : dst, 0, VK_WHOLE_SIZE }, { dst, 0, VK_WHOLE_SIZE } };
        VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = d->set,
                                   .descriptorCount = src ? 2 : 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = bi };
        vkUpdateDescriptorSets(d->k->dev, 1, &w, 0, NULL);
        d->bound_src = src;
        d->bound_dst = dst;
    }
    VkPipeline pipeline = src ? d->k->transform : d->k->pattern;
    VkPipelineLayout layout = src ? d->k->transform_layout : d->k->pattern_layout;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    test_bind_with_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline, layout, d->set);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof d->push, d->push);
    vkCmdDispatch(cmd, (WORDS + 63) / 64, 1, 1);
    return true;
}

rg_command queues_declare_dispatch(rg_graph *g, const char *name, dispatch *d, rg_queue queue)
{
    rg_access acc[2];
    uint32_t n = 0;
    if (d->src.id)
        acc[n++] = (rg_access){ .buffer = d->src, .usage = RG_USAGE_STORAGE_READ_COMPUTE };
    acc[n++] = (rg_access){ .buffer = d->dst, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    return rg_cmd_user(g, &(rg_user_desc){ .name = name, .accesses = acc, .access_count = n,
                                           .record = record_dispatch, .user = d, .queue = queue });
}

uint32_t queues_pattern_at(const dispatch *d, uint32_t i) { return d->push[0] + i * d->push[1]; }

uint32_t queues_transform_at(const dispatch *d, uint32_t v) { return v * d->push[0] + d->push[1]; }

uint32_t queues_expect_words(const uint32_t *got, const uint32_t *want, uint32_t count, const char *what)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; i++)
        if (got[i] != want[i] && bad++ < 4)
            cr_expect_eq(got[i], want[i], "%s, word %u: 0x%08x, want 0x%08x", what, i, got[i], want[i]);
    cr_expect_eq(bad, 0, "%s: %u of %u words differ", what, bad, count);
    return bad;
}

void queues_expect_queues(const rg_graph *g, const rg_command *c, uint32_t n, rg_queue want)
{
    for (uint32_t i = 0; i < n; i++)
        queues_expect_queue(g, c[i], want);
}

void queues_expect_handoff(const rg_graph *g, const rg_command *early, const rg_command *late, uint32_t n)
{
    queues_check_batches(g, true);
    queues_expect_queues(g, early, n, queues_async_queue());
    queues_expect_queues(g, late, n, RG_QUEUE_GRAPHICS);
    queues_expect_ordered(g, early, n, late, n);
}

void queues_expect_ordered(const rg_graph *g, const rg_command *first, uint32_t nf, const rg_command *then,
                           uint32_t nt)
{
    for (uint32_t i = 0; i < nf; i++)
        for (uint32_t j = 0; j < nt; j++) {
            rg_command_info a, b;
            cr_assert_eq(rg_command_get_info(g, first[i], &a), RG_SUCCESS);
            cr_assert_eq(rg_command_get_info(g, then[j], &b), RG_SUCCESS);
            cr_expect(rg_happens_before(g, first[i], then[j]), "%s (%s) does not happen before %s (%s)", a.name,
                      rg_queue_name(a.queue), b.name, rg_queue_name(b.queue));
        }
}

void queues_readback_before(uint32_t frame, void *user)
{
    readback_job *j = user;
    if (j->pattern) {
        j->pattern->push[0] = 0xA0000u + 0x1111u * frame;
        j->pattern->push[1] = 2 * frame + 1;
    }
    rg_result r = rg_buffer_set_buffer(j->g, j->out, &(rg_import_buffer){
        .buffer = eng_buffer_handle(j->readbacks[frame]), .size = eng_buffer_size(j->readbacks[frame]),
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "%s", rg_graph_error_message(j->g));
}

rg_graph *queues_readback_open(readback_job *j, uint32_t frames, VkDeviceSize bytes, const char *name)
{
    memset(j, 0, sizeof *j);
    for (uint32_t f = 0; f < frames; f++)
        j->readbacks[f] = test_host_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    return j->g = queues_queue_graph(name, false);
}

void queues_readback_close(readback_job *j, uint32_t frames)
{
    rg_graph_destroy(j->g);
    for (uint32_t f = 0; f < frames; f++)
        eng_buffer_destroy(j->readbacks[f]);
}

/* ------------------------------------------------ the transfer queue */

rg_queue queues_transfer_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_TRANSFER) ? RG_QUEUE_TRANSFER : RG_QUEUE_GRAPHICS;
}

void queues_open(kernels *k, runner *r)
{
    queues_kernels_open(k);
    queues_runner_open(r);
}

rg_graph *queues_fixture_open(queues_fixture *q, uint32_t frames, VkDeviceSize bytes, const char *name)
{
    queues_open(&q->k, &q->r);
    q->frames = frames;
    return queues_readback_open(&q->j, frames, bytes, name);
}

void queues_fixture_close(queues_fixture *q)
{
    queues_readback_close(&q->j, q->frames);
    queues_runner_close(&q->r);
    queues_kernels_close(&q->k);
}
