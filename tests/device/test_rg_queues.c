/* Render graphs on several queues (async compute) on a device: commands
 * eligible for the compute queue run there where the device has a
 * compute-only queue family, in batches ordered by the graph's timeline
 * semaphores, and everything runs in one batch on the graphics queue where
 * it has none (lavapipe), and copies eligible for the transfer queue run
 * on its transfer-only family. Exact results read back within a frame,
 * over frames submitted back to back, through memory two queues' resources
 * share, across three queues, after the declaration changed, and on the
 * single-queue path; the validation layer
 * (synchronization validation included) stays silent throughout. Nothing
 * skips: a device without a compute queue checks the one-batch fallback.
 *
 * Each frame is recorded into command buffers of its own, one per batch,
 * each from a pool of its batch's queue family; its plan is submitted with
 * rg_submit, the last frame's with a fence that the host waits for. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_queues, .init = device_setup, .fini = device_teardown);

static const uint32_t pattern_comp[] =
#include "queue_pattern.comp.inc"
    ;
static const uint32_t transform_comp[] =
#include "queue_transform.comp.inc"
    ;
static const uint32_t fill_comp[] =
#include "fill.comp.inc"
    ;
static const uint32_t ssbo_frag[] =
#include "ssbo_color.frag.inc"
    ;

#define WORDS 4096u                   /* 32-bit words in each test buffer */
#define BYTES (WORDS * 4u)
#define TEX_W 64u                     /* an R32_UINT texture of WORDS texels */
#define TEX_H (WORDS / TEX_W)
#define TEX_FMT VK_FORMAT_R32_UINT
#define MAX_FRAMES 8u
#define MAX_BATCHES 16u
#define WAIT_NS 10000000000ull        /* 10 s: a semaphore value that takes longer never comes */

/* ---------------------------------------------------------------- queues */

static bool has_compute_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_COMPUTE) != VK_NULL_HANDLE;
}

/* Where a command eligible for async compute runs: the compute queue where
 * the device has one, else the graphics queue. */
static rg_queue async_queue(void)
{
    return has_compute_queue() ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS;
}

static eng_queue_kind engine_kind(rg_queue q)
{
    return q == RG_QUEUE_COMPUTE ? ENG_QUEUE_COMPUTE : q == RG_QUEUE_TRANSFER ? ENG_QUEUE_TRANSFER : ENG_QUEUE_GRAPHICS;
}

/* The VkQueue and family of a graph queue: the context's queue of that
 * kind, the graphics one where it has none. */
static VkQueue vk_queue_of(rg_queue q)
{
    VkQueue queue = eng_context_queue_of(test_ctx, engine_kind(q));
    return queue ? queue : eng_context_queue(test_ctx);
}

static uint32_t family_of(rg_queue q)
{
    uint32_t f = eng_context_queue_family_of(test_ctx, engine_kind(q));
    return f == UINT32_MAX ? eng_context_queue_family(test_ctx) : f;
}

/* Culling off, as test_device_graph: these graphs' every command is meant
 * to run. single_queue: everything on the graphics queue. */
static rg_graph *queue_graph(const char *name, bool single_queue)
{
    rg_graph *g = NULL;
    rg_graph_desc d = { .name = name, .device = eng_context_graph_device(test_ctx), .no_culling = true, .single_queue = single_queue };
    cr_assert_eq(rg_graph_create(&d, &g), RG_SUCCESS);
    return g;
}

/* The batches of a compiled graph: more than one exactly where the device
 * has a compute queue and the graph may use it (multi); each batch's waits
 * name another queue, at a batch before it (or the frame before's:
 * RG_INDEX_NONE), at some stage; the last batch is on the graphics queue. */
static void check_batches(const rg_graph *g, bool multi)
{
    uint32_t n = rg_batch_count(g);
    if (multi && has_compute_queue())
        cr_assert_gt(n, 1, "a compute queue, yet %u batch", n);
    else
        cr_assert_eq(n, 1, "%u batches, want 1 (compute queue: %d, single_queue: %d)", n, has_compute_queue(), !multi);
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

/* A command runs on `want`, in a batch of that queue whose execution-order
 * range holds it. */
static void expect_queue(const rg_graph *g, rg_command c, rg_queue want)
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

/* Command pools per graph queue (one per family: queues of one family
 * share it) and the fence of the last frame. */
typedef struct runner {
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    bool owns[RG_QUEUE_COUNT];
    VkFence fence;
} runner;

static void runner_open(runner *r)
{
    memset(r, 0, sizeof *r);
    r->dev = eng_context_device(test_ctx);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        for (uint32_t p = 0; p < q && !r->pools[q]; p++)
            if (family_of((rg_queue)p) == family_of((rg_queue)q))
                r->pools[q] = r->pools[p];
        if (r->pools[q])
            continue;
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                        .queueFamilyIndex = family_of((rg_queue)q) };
        cr_assert_eq(vkCreateCommandPool(r->dev, &pci, NULL, &r->pools[q]), VK_SUCCESS);
        r->owns[q] = true;
    }
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(r->dev, &fci, NULL, &r->fence), VK_SUCCESS);
}

static void runner_close(runner *r)
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

/* Called before frame `frame` is recorded: per-frame push constants and
 * readbacks. */
typedef void (*frame_fn)(uint32_t frame, void *user);

/* What run_frames adds to each frame's rg_submit (the gate of
 * frames_back_to_back); NULL: a fence on the last frame only. */
typedef void (*submit_fn)(uint32_t frame, rg_submit_desc *desc, void *user);

/* Records `frames` frames of g, each into fresh command buffers (one per
 * batch, from its queue family's pool), submits each frame's plan right
 * after recording it, the last with the fence; after_submit runs once all
 * are submitted (may be NULL); then waits for the fence, which covers every
 * batch of every frame, and frees the command buffers. */
static void run_frames(runner *r, rg_graph *g, uint32_t frames, frame_fn before, submit_fn submit,
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

/* The two compute shaders over storage buffers: queue_pattern.comp writes
 * base + i * step, queue_transform.comp writes src * mul + add. */
typedef struct kernels {
    VkDevice dev;
    VkDescriptorPool pool;
    VkDescriptorSetLayout one, two;   /* dst; src and dst */
    VkPipelineLayout pattern_layout, transform_layout;
    VkPipeline pattern, transform;
} kernels;

static VkDescriptorSetLayout buffers_layout(VkDevice dev, uint32_t count, VkShaderStageFlags stages)
{
    VkDescriptorSetLayoutBinding b[2] = { { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL },
                                          { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL } };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = count, .pBindings = b };
    VkDescriptorSetLayout l;
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &ci, NULL, &l), VK_SUCCESS);
    return l;
}

static void compute_pipeline(VkDevice dev, const uint32_t *code, size_t size, VkDescriptorSetLayout set,
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

static void kernels_open(kernels *k)
{
    memset(k, 0, sizeof *k);
    k->dev = eng_context_device(test_ctx);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64 };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 32,
                                       .poolSizeCount = 1, .pPoolSizes = &size };
    cr_assert_eq(vkCreateDescriptorPool(k->dev, &pci, NULL, &k->pool), VK_SUCCESS);
    k->one = buffers_layout(k->dev, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    k->two = buffers_layout(k->dev, 2, VK_SHADER_STAGE_COMPUTE_BIT);
    compute_pipeline(k->dev, pattern_comp, sizeof pattern_comp, k->one, &k->pattern_layout, &k->pattern);
    compute_pipeline(k->dev, transform_comp, sizeof transform_comp, k->two, &k->transform_layout, &k->transform);
}

static void kernels_close(kernels *k)
{
    vkDestroyPipeline(k->dev, k->pattern, NULL);
    vkDestroyPipeline(k->dev, k->transform, NULL);
    vkDestroyPipelineLayout(k->dev, k->pattern_layout, NULL);
    vkDestroyPipelineLayout(k->dev, k->transform_layout, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->one, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->two, NULL);
    vkDestroyDescriptorPool(k->dev, k->pool, NULL);
}

static VkDescriptorSet alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout)
{
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    VkDescriptorSet s;
    cr_assert_eq(vkAllocateDescriptorSets(dev, &ai, &s), VK_SUCCESS);
    return s;
}

/* One dispatch over WORDS words: the pattern into dst (src 0) or the
 * transform of src into dst. push: base, step or mul, add; then the count.
 * The set is written when the graph's buffers change, which a placed graph's
 * do not: a set bound by a frame still pending must not be updated, and
 * frames here are submitted back to back. */
typedef struct dispatch {
    kernels *k;
    VkDescriptorSet set;
    rg_buffer src, dst;
    VkBuffer bound_src, bound_dst;
    uint32_t push[4];
} dispatch;

static dispatch pattern_of(kernels *k, rg_buffer dst, uint32_t base, uint32_t step)
{
    return (dispatch){ .k = k, .set = alloc_set(k->dev, k->pool, k->one), .dst = dst, .push = { base, step, WORDS } };
}

static dispatch transform_of(kernels *k, rg_buffer src, rg_buffer dst, uint32_t mul, uint32_t add)
{
    return (dispatch){ .k = k, .set = alloc_set(k->dev, k->pool, k->two), .src = src, .dst = dst,
                       .push = { mul, add, WORDS } };
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
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &d->set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof d->push, d->push);
    vkCmdDispatch(cmd, (WORDS + 63) / 64, 1, 1);
    return true;
}

/* Declares the dispatch with its accesses (storage read of src, storage
 * write of dst in the compute shader), eligible for `queue`. */
static rg_command declare_dispatch(rg_graph *g, const char *name, dispatch *d, rg_queue queue)
{
    rg_access acc[2];
    uint32_t n = 0;
    if (d->src.id)
        acc[n++] = (rg_access){ .buffer = d->src, .usage = RG_USAGE_STORAGE_READ_COMPUTE };
    acc[n++] = (rg_access){ .buffer = d->dst, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    return rg_cmd_user(g, &(rg_user_desc){ .name = name, .accesses = acc, .access_count = n,
                                           .record = record_dispatch, .user = d, .queue = queue });
}

static uint32_t pattern_at(const dispatch *d, uint32_t i) { return d->push[0] + i * d->push[1]; }
static uint32_t transform_at(const dispatch *d, uint32_t v) { return v * d->push[0] + d->push[1]; }

/* Counts the words of got that differ from want, reporting the first few. */
static uint32_t expect_words(const uint32_t *got, const uint32_t *want, uint32_t count, const char *what)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; i++)
        if (got[i] != want[i] && bad++ < 4)
            cr_expect_eq(got[i], want[i], "%s, word %u: 0x%08x, want 0x%08x", what, i, got[i], want[i]);
    cr_expect_eq(bad, 0, "%s: %u of %u words differ", what, bad, count);
    return bad;
}

/* ------------------------------------------------- the chain (tests 1, 2, 4) */

/* The graph most tests share. On the async queue (compute where the device
 * has it): `pattern` writes data, `scale` reads it into mid, and a clear
 * fills tex. On the graphics queue: `offset` (a dispatch, graphics only)
 * reads mid into result, and three copies take data, result and tex into
 * the imported readback (a copy eligible for compute that stays on
 * graphics: it writes an import). */
#define TEX_CLEAR 0x00C0FFEEu

typedef struct chain {
    rg_graph *g;
    dispatch pattern, scale, offset;
    rg_buffer data, mid, result, out;
    rg_texture tex;
    rg_command c_pattern, c_scale, c_offset, c_copy_data, c_copy_result, c_clear, c_copy_tex;
} chain;

/* The readback: data, result, tex, each BYTES. */
#define CHAIN_OUT (3u * BYTES)

static void chain_declare(chain *ch, kernels *k, eng_buffer *readback, bool single_queue)
{
    memset(ch, 0, sizeof *ch);
    rg_graph *g = ch->g = queue_graph(single_queue ? "queues (single)" : "queues", single_queue);
    ch->data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    ch->mid = rg_buffer_create(g, &(rg_buffer_desc){ .name = "mid", .size = BYTES });
    ch->result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    ch->tex = rg_texture_create(g, &(rg_texture_desc){ .name = "tex", .format = TEX_FMT, .width = TEX_W,
                                                       .height = TEX_H });
    ch->out = test_import_buffer(g, "readback", readback, true);
    ch->pattern = pattern_of(k, ch->data, 0x1000, 3);
    ch->scale = transform_of(k, ch->data, ch->mid, 5, 7);
    ch->offset = transform_of(k, ch->mid, ch->result, 1, 0x100000);
    ch->c_pattern = declare_dispatch(g, "pattern", &ch->pattern, RG_QUEUE_COMPUTE);
    ch->c_scale = declare_dispatch(g, "scale", &ch->scale, RG_QUEUE_COMPUTE);
    ch->c_offset = declare_dispatch(g, "offset", &ch->offset, RG_QUEUE_GRAPHICS);
    ch->c_copy_data = rg_cmd_copy_buffer(g, ch->data, 0, ch->out, 0, BYTES);
    rg_command_allow_queue(g, ch->c_copy_data, RG_QUEUE_COMPUTE);
    ch->c_copy_result = rg_cmd_copy_buffer(g, ch->result, 0, ch->out, BYTES, BYTES);
    ch->c_clear = rg_cmd_clear_texture(g, ch->tex, NULL, &(VkClearValue){ .color.uint32 = { TEX_CLEAR } });
    rg_command_allow_queue(g, ch->c_clear, RG_QUEUE_COMPUTE);
    ch->c_copy_tex = rg_cmd_copy_texture_to_buffer(g, ch->tex, 0, 0, 1, ch->out, 2 * BYTES);
    test_compile(g);
}

/* Where each command of the chain runs, how the dependencies order them,
 * and the note on the copy that stays on graphics. */
static void chain_check_compiled(const chain *ch, bool single_queue)
{
    const rg_graph *g = ch->g;
    rg_queue async = single_queue ? RG_QUEUE_GRAPHICS : async_queue();
    check_batches(g, !single_queue);
    expect_queue(g, ch->c_pattern, async);
    expect_queue(g, ch->c_scale, async);
    expect_queue(g, ch->c_clear, async);
    expect_queue(g, ch->c_offset, RG_QUEUE_GRAPHICS);
    expect_queue(g, ch->c_copy_data, RG_QUEUE_GRAPHICS);
    expect_queue(g, ch->c_copy_result, RG_QUEUE_GRAPHICS);
    expect_queue(g, ch->c_copy_tex, RG_QUEUE_GRAPHICS);
    cr_expect(rg_happens_before(g, ch->c_pattern, ch->c_scale));
    cr_expect(rg_happens_before(g, ch->c_pattern, ch->c_copy_data));
    cr_expect(rg_happens_before(g, ch->c_scale, ch->c_offset));
    cr_expect(rg_happens_before(g, ch->c_offset, ch->c_copy_result));
    cr_expect(rg_happens_before(g, ch->c_clear, ch->c_copy_tex));
    cr_expect_not(rg_happens_before(g, ch->c_copy_result, ch->c_pattern));

    /* The copy of data is eligible for compute but writes the readback. */
    uint32_t notes = rg_queue_note_count(g);
    if (single_queue || !has_compute_queue()) {
        cr_expect_eq(notes, 0, "%u notes without a compute queue to move to", notes);
        return;
    }
    cr_assert_eq(notes, 1, "%u queue notes, want the copy of data's", notes);
    rg_queue_note note;
    cr_assert_eq(rg_queue_note_get(g, 0, &note), RG_SUCCESS);
    cr_expect_eq(note.command.id, ch->c_copy_data.id);
    cr_expect_eq(note.eligible, RG_QUEUE_COMPUTE);
    cr_expect(note.reason && strstr(note.reason, "readback"), "reason: %s", note.reason ? note.reason : "(null)");
    cr_expect_neq(rg_queue_note_get(g, 1, &note), RG_SUCCESS, "note 1 of 1");
}

/* What the readback holds after a frame whose pattern starts at base. */
static void chain_expect(const chain *ch, const uint32_t *out, const char *what)
{
    static uint32_t want[3 * WORDS];
    for (uint32_t i = 0; i < WORDS; i++) {
        uint32_t v = pattern_at(&ch->pattern, i);
        want[i] = v;
        want[WORDS + i] = transform_at(&ch->offset, transform_at(&ch->scale, v));
        want[2 * WORDS + i] = TEX_CLEAR;
    }
    char label[96];
    snprintf(label, sizeof label, "%s: data", what);
    expect_words(out, want, WORDS, label);
    snprintf(label, sizeof label, "%s: result", what);
    expect_words(out + WORDS, want + WORDS, WORDS, label);
    snprintf(label, sizeof label, "%s: tex", what);
    expect_words(out + 2 * WORDS, want + 2 * WORDS, WORDS, label);
}

/* 1. Compute on the async queue feeds the graphics queue: a dispatch,
 * copies and a texture clear there, read back exact. */
DEVICE_TEST(rg_queues, compute_feeds_graphics)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    eng_buffer *readback = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    chain ch;
    chain_declare(&ch, &k, readback, false);
    chain_check_compiled(&ch, false);

    run_frames(&r, ch.g, 1, NULL, NULL, NULL, NULL);
    chain_expect(&ch, eng_buffer_mapped(readback), "frame 1");
    /* A created resource two queue families use is made CONCURRENT; it
     * exists, placed, like any other. */
    cr_expect_neq(rg_buffer_handle(ch.g, ch.mid), VK_NULL_HANDLE);
    cr_expect_neq(rg_texture_image(ch.g, ch.tex), VK_NULL_HANDLE);

    rg_graph_destroy(ch.g);
    eng_buffer_destroy(readback);
    runner_close(&r);
    kernels_close(&k);
}

/* 2. Five frames submitted back to back, each recorded into command
 * buffers of its own with its own pattern and its own readback (the import
 * re-pointed per frame): frame N+1's compute work overwrites what frame N's
 * graphics work still reads, so only the graph's cross-frame waits keep
 * each frame's results exact. The first frame also waits on a timeline
 * semaphore the host signals only once every frame is submitted
 * (rg_submit_desc.waits), and each frame's last batch signals another one
 * (rg_submit_desc.signals). */
#define FRAMES 5u

typedef struct frames_job {
    chain *ch;
    eng_buffer *readbacks[FRAMES];
    VkSemaphore gate, done;
    VkSemaphoreSubmitInfo gate_wait, done_signal;
} frames_job;

static void frames_before(uint32_t frame, void *user)
{
    frames_job *j = user;
    j->ch->pattern.push[0] = 0x10000u * (frame + 1);
    j->ch->pattern.push[1] = frame + 2;
    rg_result r = rg_buffer_set_buffer(j->ch->g, j->ch->out, &(rg_import_buffer){
        .buffer = eng_buffer_handle(j->readbacks[frame]), .size = eng_buffer_size(j->readbacks[frame]),
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "%s", rg_graph_error_message(j->ch->g));
}

static void frames_submit(uint32_t frame, rg_submit_desc *desc, void *user)
{
    frames_job *j = user;
    if (frame == 0) {
        desc->waits = &j->gate_wait;
        desc->wait_count = 1;
    }
    j->done_signal.value = frame + 1;
    desc->signals = &j->done_signal;
    desc->signal_count = 1;
}

/* Every frame is submitted: frame 1's graphics work cannot have run (it
 * waits for the gate), so its readback is still zero; then the gate opens. */
static void frames_open_gate(void *user)
{
    frames_job *j = user;
    const uint32_t *out = eng_buffer_mapped(j->readbacks[0]);
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < CHAIN_OUT / 4; i++)
        nonzero += out[i] != 0;
    cr_expect_eq(nonzero, 0, "frame 1 read back %u words before its wait was signalled", nonzero);
    VkSemaphoreSignalInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = j->gate, .value = 1 };
    cr_assert_eq(vkSignalSemaphore(eng_context_device(test_ctx), &si), VK_SUCCESS);
}

static VkSemaphore timeline(VkDevice dev)
{
    VkSemaphoreTypeCreateInfo ti = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                     .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti };
    VkSemaphore s;
    cr_assert_eq(vkCreateSemaphore(dev, &sci, NULL, &s), VK_SUCCESS);
    return s;
}

DEVICE_TEST(rg_queues, frames_back_to_back)
{
    VkDevice dev = eng_context_device(test_ctx);
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    frames_job j = { 0 };
    for (uint32_t f = 0; f < FRAMES; f++)
        j.readbacks[f] = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    j.gate = timeline(dev);
    j.done = timeline(dev);
    j.gate_wait = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = j.gate,
                                           .value = 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    j.done_signal = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = j.done,
                                             .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    chain ch;
    chain_declare(&ch, &k, j.readbacks[0], false);
    chain_check_compiled(&ch, false);
    j.ch = &ch;

    run_frames(&r, ch.g, FRAMES, frames_before, frames_submit, frames_open_gate, &j);
    /* Signalled with the last frame's fence, not necessarily before it. */
    uint64_t done = FRAMES;
    VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                               .pSemaphores = &j.done, .pValues = &done };
    cr_expect_eq(vkWaitSemaphores(dev, &wi, WAIT_NS), VK_SUCCESS, "the frames' signals never reached %u", FRAMES);
    cr_expect_eq(vkGetSemaphoreCounterValue(dev, j.done, &done), VK_SUCCESS);
    cr_expect_eq(done, FRAMES, "the frames' last batches signalled up to %llu", (unsigned long long)done);
    for (uint32_t f = 0; f < FRAMES; f++) {
        frames_before(f, &j); /* the pattern frame f wrote */
        char what[32];
        snprintf(what, sizeof what, "frame %u", f + 1);
        chain_expect(&ch, eng_buffer_mapped(j.readbacks[f]), what);
    }

    /* Again, waited frame by frame: the timelines count on from where the
     * back-to-back frames left them. */
    for (uint32_t f = 0; f < 2; f++) {
        memset(eng_buffer_mapped(j.readbacks[FRAMES - 1]), 0, CHAIN_OUT);
        run_frames(&r, ch.g, 1, NULL, NULL, NULL, NULL);
        chain_expect(&ch, eng_buffer_mapped(j.readbacks[FRAMES - 1]), "a later frame");
    }

    rg_graph_destroy(ch.g);
    for (uint32_t f = 0; f < FRAMES; f++)
        eng_buffer_destroy(j.readbacks[f]);
    vkDestroySemaphore(dev, j.gate, NULL);
    vkDestroySemaphore(dev, j.done, NULL);
    runner_close(&r);
    kernels_close(&k);
}

/* ------------------------------------------------ aliasing across queues */

static void expect_shared(rg_memory_kind ka, uint32_t pa, VkDeviceSize oa, rg_memory_kind kb, uint32_t pb,
                          VkDeviceSize ob, const char *a, const char *b)
{
    cr_expect_eq(ka, RG_MEMORY_POOLED, "%s: memory kind %d", a, ka);
    cr_expect_eq(kb, RG_MEMORY_POOLED, "%s: memory kind %d", b, kb);
    cr_expect(pa == pb && oa == ob, "%s and %s do not share bytes: pool %u offset %llu vs pool %u offset %llu", a, b,
              pa, (unsigned long long)oa, pb, (unsigned long long)ob);
}

/* Every use in `first` happens before every use in `then`. */
static void expect_ordered(const rg_graph *g, const rg_command *first, uint32_t nf, const rg_command *then,
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

/* Frames that each read back into a buffer of their own (the import
 * re-pointed per frame) from a pattern that changes per frame. */
typedef struct readback_job {
    dispatch *pattern;
    rg_graph *g;
    rg_buffer out;
    eng_buffer *readbacks[FRAMES];
} readback_job;

static void readback_before(uint32_t frame, void *user)
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

/* A multi-queue graph and `frames` host-visible readbacks of `bytes`. */
static rg_graph *readback_open(readback_job *j, uint32_t frames, VkDeviceSize bytes, const char *name)
{
    memset(j, 0, sizeof *j);
    for (uint32_t f = 0; f < frames; f++)
        j->readbacks[f] = test_host_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    return j->g = queue_graph(name, false);
}

/* Destroys the job's graph and its first `frames` readbacks. */
static void readback_close(readback_job *j, uint32_t frames)
{
    rg_graph_destroy(j->g);
    for (uint32_t f = 0; f < frames; f++)
        eng_buffer_destroy(j->readbacks[f]);
}

/* 3a. Buffers: `early` lives on the async queue only (written, then read
 * into `bridge`), `late` on the graphics queue only (written from bridge,
 * then read back). Alike in size, with bridge ordering every use of early
 * before every use of late, they share bytes: on lavapipe in one batch, with
 * a compute queue across the semaphore between the batches. Three frames
 * back to back: the next frame's early overwrites the bytes this frame's
 * late is read back from. */
DEVICE_TEST(rg_queues, aliased_buffers_across_queues)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    enum { N = 3 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, BYTES, "aliased buffers");
    rg_buffer early = rg_buffer_create(g, &(rg_buffer_desc){ .name = "early", .size = BYTES });
    rg_buffer bridge = rg_buffer_create(g, &(rg_buffer_desc){ .name = "bridge", .size = BYTES });
    rg_buffer late = rg_buffer_create(g, &(rg_buffer_desc){ .name = "late", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    dispatch fill = pattern_of(&k, early, 0, 1), cross = transform_of(&k, early, bridge, 3, 1);
    dispatch after = transform_of(&k, bridge, late, 2, 5);
    j.pattern = &fill;
    rg_command uses_early[2], uses_late[2];
    uses_early[0] = declare_dispatch(g, "write early", &fill, RG_QUEUE_COMPUTE);
    uses_early[1] = declare_dispatch(g, "early to bridge", &cross, RG_QUEUE_COMPUTE);
    uses_late[0] = declare_dispatch(g, "bridge to late", &after, RG_QUEUE_GRAPHICS);
    uses_late[1] = rg_cmd_copy_buffer(g, late, 0, j.out, 0, BYTES);
    test_compile(g);
    check_batches(g, true);
    for (int i = 0; i < 2; i++) {
        expect_queue(g, uses_early[i], async_queue());
        expect_queue(g, uses_late[i], RG_QUEUE_GRAPHICS);
    }
    expect_ordered(g, uses_early, 2, uses_late, 2);

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    VkDeviceSize oe = 0, ol = 0, ob = 0;
    uint32_t pe = 0, pl = 0, pb = 0;
    rg_memory_kind ke = rg_buffer_memory(g, early, &oe, &pe), kl = rg_buffer_memory(g, late, &ol, &pl);
    rg_memory_kind kb = rg_buffer_memory(g, bridge, &ob, &pb);
    expect_shared(ke, pe, oe, kl, pl, ol, "early", "late");
    cr_expect_eq(kb, RG_MEMORY_POOLED);
    cr_expect(pb != pe || ob >= oe + BYTES || oe >= ob + BYTES, "bridge overlaps early: offsets %llu, %llu",
              (unsigned long long)ob, (unsigned long long)oe);
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect(t.pooled < t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
              (unsigned long long)t.unaliased);

    static uint32_t want[WORDS];
    for (uint32_t f = 0; f < N; f++) {
        readback_before(f, &j);
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = transform_at(&after, transform_at(&cross, pattern_at(&fill, i)));
        char what[32];
        snprintf(what, sizeof what, "frame %u: late", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, WORDS, what);
    }

    readback_close(&j, N);
    runner_close(&r);
    kernels_close(&k);
}

/* 3b. Textures, with transfers only: `first` is cleared and copied into
 * `bridge` on the async queue, `second` is filled from bridge and read back
 * on the graphics queue. bridge goes to the readback too, so a copy out of
 * first that ran after second's upload overwrote the shared bytes would
 * show in either half. */
DEVICE_TEST(rg_queues, aliased_textures_across_queues)
{
    runner r;
    runner_open(&r);
    enum { N = 3 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, 2 * BYTES, "aliased textures");
    rg_texture_desc td = { .format = TEX_FMT, .width = TEX_W, .height = TEX_H };
    td.name = "first";
    rg_texture first = rg_texture_create(g, &td);
    td.name = "second";
    rg_texture second = rg_texture_create(g, &td);
    rg_buffer bridge = rg_buffer_create(g, &(rg_buffer_desc){ .name = "bridge", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    const uint32_t value = 0x5EC0DE;
    rg_command uses_first[2], uses_second[2];
    uses_first[0] = rg_cmd_clear_texture(g, first, NULL, &(VkClearValue){ .color.uint32 = { value } });
    rg_command_allow_queue(g, uses_first[0], RG_QUEUE_COMPUTE);
    uses_first[1] = rg_cmd_copy_texture_to_buffer(g, first, 0, 0, 1, bridge, 0);
    rg_command_allow_queue(g, uses_first[1], RG_QUEUE_COMPUTE);
    uses_second[0] = rg_cmd_copy_buffer_to_texture(g, bridge, 0, second, 0, 0, 1);
    uses_second[1] = rg_cmd_copy_texture_to_buffer(g, second, 0, 0, 1, j.out, 0);
    rg_cmd_copy_buffer(g, bridge, 0, j.out, BYTES, BYTES);
    test_compile(g);
    check_batches(g, true);
    for (int i = 0; i < 2; i++) {
        expect_queue(g, uses_first[i], async_queue());
        expect_queue(g, uses_second[i], RG_QUEUE_GRAPHICS);
    }
    expect_ordered(g, uses_first, 2, uses_second, 2);

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    VkDeviceSize of = 0, os = 0;
    uint32_t pf = 0, ps = 0;
    rg_memory_kind kf = rg_texture_memory(g, first, &of, &pf), ks = rg_texture_memory(g, second, &os, &ps);
    expect_shared(kf, pf, of, ks, ps, os, "first", "second");

    static uint32_t want[2 * WORDS];
    for (uint32_t i = 0; i < 2 * WORDS; i++)
        want[i] = value;
    for (uint32_t f = 0; f < N; f++) {
        char what[32];
        snprintf(what, sizeof what, "frame %u", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, 2 * WORDS, what);
    }

    readback_close(&j, N);
    runner_close(&r);
}

/* --------------------------------------------------- the single-queue path */

typedef struct execute_job {
    rg_graph *graph;
    rg_result result;
} execute_job;

static void record_execute(VkCommandBuffer cmd, void *user)
{
    execute_job *j = user;
    j->result = test_execute(j->graph, cmd);
}

/* 4. The chain declared with rg_graph_desc.single_queue runs in one batch
 * on the graphics queue and, executed with plain rg_execute, reads back
 * exactly what the multi-queue graph does; so does rg_execute_batches on
 * it. rg_execute refuses a graph of several batches (and, where the device
 * has one queue, runs the default graph, whose one batch it is). */
DEVICE_TEST(rg_queues, single_queue_same_results)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    eng_buffer *multi_out = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *single_out = test_host_buffer(CHAIN_OUT, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    chain multi, single;
    chain_declare(&multi, &k, multi_out, false);
    chain_declare(&single, &k, single_out, true);
    chain_check_compiled(&multi, false);
    chain_check_compiled(&single, true);

    run_frames(&r, multi.g, 1, NULL, NULL, NULL, NULL);
    test_run(single.g, 1);
    chain_expect(&single, eng_buffer_mapped(single_out), "single queue, rg_execute");
    cr_expect(memcmp(eng_buffer_mapped(multi_out), eng_buffer_mapped(single_out), CHAIN_OUT) == 0,
              "single-queue and multi-queue graphs read back different bytes");

    /* The single-queue graph through rg_execute_batches: one submission. */
    memset(eng_buffer_mapped(single_out), 0, CHAIN_OUT);
    run_frames(&r, single.g, 1, NULL, NULL, NULL, NULL);
    chain_expect(&single, eng_buffer_mapped(single_out), "single queue, rg_execute_batches");

    /* rg_execute on the default graph: refused where it has several
     * batches, its one batch recorded otherwise. */
    memset(eng_buffer_mapped(multi_out), 0, CHAIN_OUT);
    execute_job ej = { multi.g, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(test_ctx, record_execute, &ej), ENG_SUCCESS, "%s", eng_last_error());
    if (has_compute_queue()) {
        cr_expect_eq(ej.result, RG_ERROR_INVALID_ARGUMENT, "rg_execute on %u batches: %s",
                     rg_batch_count(multi.g), rg_result_string(ej.result));
        cr_expect_neq(rg_graph_error_message(multi.g)[0], '\0', "no message");
        cr_expect_eq(rg_graph_error(multi.g), RG_SUCCESS, "the refusal failed the graph");
        /* The graph still runs as it should. */
        run_frames(&r, multi.g, 1, NULL, NULL, NULL, NULL);
    } else {
        cr_expect_eq(ej.result, RG_SUCCESS, "rg_execute on one batch: %s: %s", rg_result_string(ej.result),
                     rg_graph_error_message(multi.g));
    }
    chain_expect(&multi, eng_buffer_mapped(multi_out), "default graph, after rg_execute");

    rg_graph_destroy(multi.g);
    rg_graph_destroy(single.g);
    eng_buffer_destroy(multi_out);
    eng_buffer_destroy(single_out);
    runner_close(&r);
    kernels_close(&k);
}

/* ------------------------------------------- compute feeds a draw's shader */

typedef struct color_fill {
    VkDevice dev;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSet set;
    rg_buffer buffer;
    VkBuffer bound;
    float color[4];
} color_fill;

typedef struct color_draw {
    VkDevice dev;
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_buffer buffer;
    VkBuffer bound;
} color_draw;

static void bind_storage(VkDevice dev, VkDescriptorSet set, VkBuffer buffer, VkBuffer *bound)
{
    if (buffer == *bound)
        return;
    *bound = buffer;
    VkDescriptorBufferInfo bi = { buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
}

static bool record_fill(const rg_record_context *rc, void *user)
{
    color_fill *c = user;
    VkBuffer b = rg_record_buffer(rc, c->buffer);
    if (!b)
        return false;
    bind_storage(c->dev, c->set, b, &c->bound);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, c->color);
    vkCmdDispatch(cmd, 1, 1, 1);
    return true;
}

static bool record_draw(const rg_record_context *rc, void *user)
{
    color_draw *d = user;
    VkBuffer b = rg_record_buffer(rc, d->buffer);
    if (!b)
        return false;
    bind_storage(d->dev, d->set, b, &d->bound);
    solid_draw_with_set(rg_record_cmd(rc), d->pipeline, d->set);
    return true;
}

/* 1b. A dispatch on the async queue writes a color into a storage buffer;
 * a span's draw on the graphics queue reads it in the fragment shader (the
 * semaphore wait reaches the fragment stage) and the target is read back:
 * every pixel exact, over three frames back to back with a new color each. */
typedef struct draw_job {
    color_fill *fill;
    rg_graph *g;
    rg_buffer out;
    eng_buffer *readbacks[3];
} draw_job;

static void draw_before(uint32_t frame, void *user)
{
    draw_job *j = user;
    static const float colors[3][4] = { { 0, 1, 1, 1 }, { 1, 0, 1, 1 }, { 1, 1, 0, 1 } };
    memcpy(j->fill->color, colors[frame], sizeof colors[frame]);
    rg_result r = rg_buffer_set_buffer(j->g, j->out, &(rg_import_buffer){
        .buffer = eng_buffer_handle(j->readbacks[frame]), .size = eng_buffer_size(j->readbacks[frame]),
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "%s", rg_graph_error_message(j->g));
}

DEVICE_TEST(rg_queues, compute_feeds_a_draw)
{
    enum { W = 32, H = 32, N = 3 };
    const VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
    VkDevice dev = eng_context_device(test_ctx);
    runner r;
    runner_open(&r);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 };
    VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 4,
                                        .poolSizeCount = 1, .pPoolSizes = &size };
    VkDescriptorPool pool;
    cr_assert_eq(vkCreateDescriptorPool(dev, &dpci, NULL, &pool), VK_SUCCESS);
    VkDescriptorSetLayout comp_l = buffers_layout(dev, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    VkDescriptorSetLayout frag_l = buffers_layout(dev, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    color_fill fill = { .dev = dev, .set = alloc_set(dev, pool, comp_l) };
    compute_pipeline(dev, fill_comp, sizeof fill_comp, comp_l, &fill.layout, &fill.pipeline);
    eng_pipeline_desc pd = { .name = "ssbo color", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                             .fragment_spirv = ssbo_frag, .fragment_size = sizeof ssbo_frag,
                             .color_formats = { fmt }, .color_count = 1, .triangle_strip = true,
                             .set_layouts = &frag_l, .set_layout_count = 1,
                             .push_constant_size = sizeof(solid_push) };
    color_draw draw = { .dev = dev, .set = alloc_set(dev, pool, frag_l) };
    cr_assert_eq(eng_pipeline_create(test_ctx, &pd, &draw.pipeline), ENG_SUCCESS, "%s", eng_last_error());
    draw_job j = { .fill = &fill };
    for (uint32_t f = 0; f < N; f++)
        j.readbacks[f] = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);

    rg_graph *g = j.g = queue_graph("compute to draw", false);
    rg_buffer color = rg_buffer_create(g, &(rg_buffer_desc){ .name = "color", .size = 16 });
    rg_texture target = rg_texture_create(g, &(rg_texture_desc){ .name = "target", .format = fmt, .width = W,
                                                                 .height = H });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    fill.buffer = draw.buffer = color;
    rg_access write = { .buffer = color, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_access read = { .buffer = color, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    rg_command c_fill = rg_cmd_user(g, &(rg_user_desc){ .name = "fill", .accesses = &write, .access_count = 1,
                                                        .record = record_fill, .user = &fill,
                                                        .queue = RG_QUEUE_COMPUTE });
    rg_command c_begin = rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "show", .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_command c_draw = rg_cmd_user(g, &(rg_user_desc){ .name = "read color", .kind = RG_COMMAND_DRAW,
                                                        .accesses = &read, .access_count = 1,
                                                        .record = record_draw, .user = &draw });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, target, 0, 0, 1, j.out, 0);
    test_compile(g);
    check_batches(g, true);
    expect_queue(g, c_fill, async_queue());
    expect_queue(g, c_begin, RG_QUEUE_GRAPHICS);
    expect_queue(g, c_draw, RG_QUEUE_GRAPHICS);
    cr_expect(rg_happens_before(g, c_fill, c_draw));

    /* The draw's batch waits for the fill's at a stage that covers the
     * fragment shader's read. */
    rg_command_info fi, di;
    cr_assert_eq(rg_command_get_info(g, c_fill, &fi), RG_SUCCESS);
    cr_assert_eq(rg_command_get_info(g, c_draw, &di), RG_SUCCESS);
    if (has_compute_queue()) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, di.batch, &b), RG_SUCCESS);
        bool waits = false;
        for (uint32_t w = 0; w < b.wait_count; w++)
            if (b.waits[w].queue == RG_QUEUE_COMPUTE && b.waits[w].batch == fi.batch)
                waits = (b.waits[w].stage & (VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                             VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT |
                                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)) != 0;
        cr_expect(waits, "the draw's batch %u does not wait for the fill's batch %u at the fragment shader", di.batch,
                  fi.batch);
    } else {
        cr_expect_eq(fi.batch, di.batch);
    }

    run_frames(&r, g, N, draw_before, NULL, NULL, &j);
    static const uint8_t want[3][4] = { { 0, 255, 255, 255 }, { 255, 0, 255, 255 }, { 255, 255, 0, 255 } };
    for (uint32_t f = 0; f < N; f++) {
        const uint8_t *px = eng_buffer_mapped(j.readbacks[f]);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < W * H; i++)
            if (memcmp(px + 4 * i, want[f], 4) != 0 && bad++ < 4)
                cr_expect(false, "frame %u, pixel %u: %u,%u,%u,%u", f + 1, i, px[4 * i], px[4 * i + 1], px[4 * i + 2],
                          px[4 * i + 3]);
        cr_expect_eq(bad, 0, "frame %u: %u pixels differ", f + 1, bad);
    }

    rg_graph_destroy(g);
    for (uint32_t f = 0; f < N; f++)
        eng_buffer_destroy(j.readbacks[f]);
    eng_pipeline_destroy(draw.pipeline);
    vkDestroyPipeline(dev, fill.pipeline, NULL);
    vkDestroyPipelineLayout(dev, fill.layout, NULL);
    vkDestroyDescriptorSetLayout(dev, comp_l, NULL);
    vkDestroyDescriptorSetLayout(dev, frag_l, NULL);
    vkDestroyDescriptorPool(dev, pool, NULL);
    runner_close(&r);
}

/* ------------------------------------------------ the transfer queue */

/* Where a copy eligible for the transfer queue runs: there where the
 * device has a transfer-only queue family, else on graphics. */
static rg_queue transfer_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_TRANSFER) ? RG_QUEUE_TRANSFER : RG_QUEUE_GRAPHICS;
}

#define LAYER_CLEAR 0x5EEDF00Du

/* 5. Three queues: `pattern` writes data on the async compute queue; on
 * the transfer queue (where the device has one) data is copied into
 * staged and into layer 1 of a two-layer texture whose layer 0 the
 * compute queue cleared, and layer 0 into `back`; on graphics `offset`
 * reads staged, and copies take result, both layers and back into the
 * readback. Two frames back to back: frame 2's compute and transfer work
 * overwrite what frame 1's graphics work reads, so only the semaphores
 * across the three queues and the frames keep every word exact. */
DEVICE_TEST(rg_queues, transfers_on_the_transfer_queue)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    enum { N = 2, OUT_WORDS = 4 * WORDS };
    readback_job j;
    rg_graph *g = readback_open(&j, N, OUT_WORDS * 4u, "transfer queue");
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    rg_buffer staged = rg_buffer_create(g, &(rg_buffer_desc){ .name = "staged", .size = BYTES });
    rg_buffer result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    rg_buffer back = rg_buffer_create(g, &(rg_buffer_desc){ .name = "back", .size = BYTES });
    rg_texture layers = rg_texture_create(g, &(rg_texture_desc){ .name = "layers", .format = TEX_FMT,
                                                                 .width = TEX_W, .height = TEX_H,
                                                                 .array_layers = 2 });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    dispatch pattern = pattern_of(&k, data, 0, 1), offset = transform_of(&k, staged, result, 3, 0x200000);
    j.pattern = &pattern;

    rg_command c_pattern = declare_dispatch(g, "pattern", &pattern, RG_QUEUE_COMPUTE);
    rg_command c_clear = rg_cmd_clear_texture(g, layers, &(rg_range){ .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                                                      .mip_count = 1, .base_layer = 0,
                                                                      .layer_count = 1 },
                                              &(VkClearValue){ .color.uint32 = { LAYER_CLEAR } });
    rg_command_allow_queue(g, c_clear, RG_QUEUE_COMPUTE);
    rg_command c_stage = rg_cmd_copy_buffer(g, data, 0, staged, 0, BYTES);
    rg_command c_upload = rg_cmd_copy_buffer_to_texture(g, data, 0, layers, 0, 1, 1);
    rg_command c_back = rg_cmd_copy_texture_to_buffer(g, layers, 0, 0, 1, back, 0);
    rg_command transfers[3] = { c_stage, c_upload, c_back };
    for (int i = 0; i < 3; i++)
        rg_command_allow_queue(g, transfers[i], RG_QUEUE_TRANSFER);
    rg_command c_offset = declare_dispatch(g, "offset", &offset, RG_QUEUE_GRAPHICS);
    rg_command reads[4] = { rg_cmd_copy_buffer(g, result, 0, j.out, 0, BYTES),
                            rg_cmd_copy_texture_to_buffer(g, layers, 0, 0, 2, j.out, BYTES),
                            rg_cmd_copy_buffer(g, back, 0, j.out, 3 * BYTES, BYTES), c_offset };
    test_compile(g);

    check_batches(g, true);
    expect_queue(g, c_pattern, async_queue());
    expect_queue(g, c_clear, async_queue());
    for (int i = 0; i < 3; i++)
        expect_queue(g, transfers[i], transfer_queue());
    for (int i = 0; i < 4; i++)
        expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);
    /* The dependencies that cross queues, producer before consumer. */
    const rg_command pairs[][2] = { { c_pattern, c_stage }, { c_pattern, c_upload }, { c_clear, c_back },
                                    { c_stage, c_offset }, { c_upload, reads[1] }, { c_clear, reads[1] },
                                    { c_back, reads[2] } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        expect_ordered(g, &pairs[i][0], 1, &pairs[i][1], 1);
    bool three = async_queue() == RG_QUEUE_COMPUTE && transfer_queue() == RG_QUEUE_TRANSFER;
    uint32_t on[RG_QUEUE_COUNT] = { 0 };
    for (uint32_t b = 0; b < rg_batch_count(g); b++) {
        rg_batch_info info;
        cr_assert_eq(rg_batch_get(g, b, &info), RG_SUCCESS);
        on[info.queue]++;
    }
    if (three)
        cr_expect(on[RG_QUEUE_GRAPHICS] && on[RG_QUEUE_COMPUTE] && on[RG_QUEUE_TRANSFER],
                  "batches on graphics/compute/transfer: %u/%u/%u", on[0], on[1], on[2]);
    cr_log_info("transfer queue: %s; batches on graphics/compute/transfer: %u/%u/%u",
                rg_queue_name(transfer_queue()), on[0], on[1], on[2]);

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    static uint32_t want[OUT_WORDS];
    for (uint32_t f = 0; f < N; f++) {
        readback_before(f, &j);
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t v = pattern_at(&pattern, i);
            want[i] = transform_at(&offset, v);
            want[WORDS + i] = LAYER_CLEAR;
            want[2 * WORDS + i] = v;
            want[3 * WORDS + i] = LAYER_CLEAR;
        }
        static const char *const parts[4] = { "result", "layer 0", "layer 1", "back" };
        const uint32_t *got = eng_buffer_mapped(j.readbacks[f]);
        for (uint32_t p = 0; p < 4; p++) {
            char what[48];
            snprintf(what, sizeof what, "frame %u: %s", f + 1, parts[p]);
            expect_words(got + p * WORDS, want + p * WORDS, WORDS, what);
        }
    }

    readback_close(&j, N);
    runner_close(&r);
    kernels_close(&k);
}

/* 6. A declaration changed after frames ran: `pattern` (async) feeds
 * `offset` (graphics), read back; two frames. Then, the GPU done with
 * them, `scale` (async) reads offset's result back on the compute queue
 * and a copy on graphics reads it back: a compile of the changed graph
 * places it again (new semaphores, timelines from 0) with batches going
 * compute, graphics, compute, graphics. Two more frames, exact. */
DEVICE_TEST(rg_queues, declaration_changed_after_frames)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    enum { N = 2 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, 2 * BYTES, "changed declaration");
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = BYTES });
    rg_buffer result = rg_buffer_create(g, &(rg_buffer_desc){ .name = "result", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    dispatch pattern = pattern_of(&k, data, 0, 1), offset = transform_of(&k, data, result, 7, 0x30000);
    j.pattern = &pattern;
    rg_command c_pattern = declare_dispatch(g, "pattern", &pattern, RG_QUEUE_COMPUTE);
    rg_command c_offset = declare_dispatch(g, "offset", &offset, RG_QUEUE_GRAPHICS);
    rg_cmd_copy_buffer(g, result, 0, j.out, 0, BYTES);
    test_compile(g);
    check_batches(g, true);
    uint32_t before = rg_batch_count(g);
    run_frames(&r, g, N, readback_before, NULL, NULL, &j);

    static uint32_t want[2 * WORDS];
    for (uint32_t f = 0; f < N; f++) {
        readback_before(f, &j);
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = transform_at(&offset, pattern_at(&pattern, i));
        char what[48];
        snprintf(what, sizeof what, "first declaration, frame %u", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, WORDS, what);
    }

    rg_buffer scaled = rg_buffer_create(g, &(rg_buffer_desc){ .name = "scaled", .size = BYTES });
    dispatch scale = transform_of(&k, result, scaled, 3, 11);
    rg_command c_scale = declare_dispatch(g, "scale", &scale, RG_QUEUE_COMPUTE);
    rg_cmd_copy_buffer(g, scaled, 0, j.out, BYTES, BYTES);
    test_compile(g);
    check_batches(g, true);
    expect_queue(g, c_pattern, async_queue());
    expect_queue(g, c_offset, RG_QUEUE_GRAPHICS);
    expect_queue(g, c_scale, async_queue());
    if (has_compute_queue())
        cr_expect_gt(rg_batch_count(g), before, "%u batches after the change, %u before", rg_batch_count(g), before);
    for (uint32_t f = 0; f < N; f++)
        memset(eng_buffer_mapped(j.readbacks[f]), 0, 2 * BYTES);
    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    for (uint32_t f = 0; f < N; f++) {
        readback_before(f, &j);
        for (uint32_t i = 0; i < WORDS; i++) {
            want[i] = transform_at(&offset, pattern_at(&pattern, i));
            want[WORDS + i] = transform_at(&scale, want[i]);
        }
        char what[48];
        snprintf(what, sizeof what, "changed declaration, frame %u", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, 2 * WORDS, what);
    }

    readback_close(&j, N);
    runner_close(&r);
    kernels_close(&k);
}

/* 7. A history texture on the async queue: each frame the compute queue
 * copies previous out, transforms it and copies the result into current;
 * the graphics queue reads previous and current back. The first frame
 * reads the history clear, recorded in the frame's opening graphics batch,
 * which the compute queue's first batch waits for; four frames back to
 * back, each one's previous what the frame before wrote. */
#define HISTORY_CLEAR 0x00000101u

DEVICE_TEST(rg_queues, history_on_the_async_queue)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    enum { N = 4 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, 2 * BYTES, "history on async");
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){ .name = "accum", .format = TEX_FMT, .width = TEX_W, .height = TEX_H,
                               .history_clear.color.uint32 = { HISTORY_CLEAR } },
        &previous);
    rg_buffer before = rg_buffer_create(g, &(rg_buffer_desc){ .name = "before", .size = BYTES });
    rg_buffer after = rg_buffer_create(g, &(rg_buffer_desc){ .name = "after", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    dispatch step = transform_of(&k, before, after, 3, 7);
    rg_command on_async[3] = { rg_cmd_copy_texture_to_buffer(g, previous, 0, 0, 1, before, 0),
                               declare_dispatch(g, "step", &step, RG_QUEUE_COMPUTE),
                               rg_cmd_copy_buffer_to_texture(g, after, 0, current, 0, 0, 1) };
    rg_command_allow_queue(g, on_async[0], RG_QUEUE_COMPUTE);
    rg_command_allow_queue(g, on_async[2], RG_QUEUE_COMPUTE);
    rg_command reads[2] = { rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, j.out, 0),
                            rg_cmd_copy_texture_to_buffer(g, previous, 0, 0, 1, j.out, BYTES) };
    test_compile(g);
    check_batches(g, true);
    for (int i = 0; i < 3; i++)
        expect_queue(g, on_async[i], async_queue());
    for (int i = 0; i < 2; i++)
        expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), 0);
    if (has_compute_queue()) {
        rg_batch_info first;
        cr_assert_eq(rg_batch_get(g, 0, &first), RG_SUCCESS);
        cr_expect(first.queue == RG_QUEUE_GRAPHICS && first.first == RG_INDEX_NONE,
                  "the frame does not open with a command-less graphics batch");
    }

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    static uint32_t want[2 * WORDS];
    uint32_t prev = HISTORY_CLEAR;
    for (uint32_t f = 0; f < N; f++) {
        uint32_t cur = transform_at(&step, prev);
        for (uint32_t i = 0; i < WORDS; i++) {
            want[i] = cur;
            want[WORDS + i] = prev;
        }
        char what[48];
        snprintf(what, sizeof what, "frame %u: current, previous", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, 2 * WORDS, what);
        prev = cur;
    }

    readback_close(&j, N);
    runner_close(&r);
    kernels_close(&k);
}

/* 7b. A history texture written on the async queue whose previous half
 * nothing reads: each frame's first write of current (the copy's layout
 * transition) waits for that image's write two frames before, with
 * nothing in between to chain through; a pattern that changes per frame
 * is copied into current and read back on graphics, four frames back to
 * back. */
DEVICE_TEST(rg_queues, history_unread_on_the_async_queue)
{
    kernels k;
    kernels_open(&k);
    runner r;
    runner_open(&r);
    enum { N = 4 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, BYTES, "history unread on async");
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){ .name = "written only", .format = TEX_FMT, .width = TEX_W, .height = TEX_H },
        &previous);
    rg_buffer values = rg_buffer_create(g, &(rg_buffer_desc){ .name = "values", .size = BYTES });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    dispatch fill = pattern_of(&k, values, 0, 1);
    j.pattern = &fill;
    rg_command on_async[2] = { declare_dispatch(g, "fill", &fill, RG_QUEUE_COMPUTE),
                               rg_cmd_copy_buffer_to_texture(g, values, 0, current, 0, 0, 1) };
    rg_command_allow_queue(g, on_async[1], RG_QUEUE_COMPUTE);
    rg_command read = rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, j.out, 0);
    test_compile(g);
    check_batches(g, true);
    for (int i = 0; i < 2; i++)
        expect_queue(g, on_async[i], async_queue());
    expect_queue(g, read, RG_QUEUE_GRAPHICS);

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    static uint32_t want[WORDS];
    for (uint32_t f = 0; f < N; f++) {
        for (uint32_t i = 0; i < WORDS; i++)
            want[i] = 0xA0000u + 0x1111u * f + i * (2 * f + 1); /* readback_before's pattern of frame f */
        char what[32];
        snprintf(what, sizeof what, "frame %u: current", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, WORDS, what);
    }

    readback_close(&j, N);
    runner_close(&r);
    kernels_close(&k);
}

/* 8. A mip and a layer above 0 across three queues: the compute queue
 * clears mip 1 of layer 1 of a two-mip, two-layer texture; the transfer
 * queue uploads mip 0 of layer 1 from a buffer and copies mip 1 of layer 1
 * out; the graphics queue reads both back. Two frames back to back. */
#define MIP_CLEAR 0x0BADCAFEu

DEVICE_TEST(rg_queues, upper_mip_and_layer_across_queues)
{
    runner r;
    runner_open(&r);
    enum { N = 2, MIP1 = WORDS / 4 };
    readback_job j;
    rg_graph *g = readback_open(&j, N, BYTES + MIP1 * 4u, "upper mip and layer");
    static uint32_t upload[WORDS];
    for (uint32_t i = 0; i < WORDS; i++)
        upload[i] = 0x5000u + 7u * i;
    eng_buffer *src = test_host_buffer(BYTES, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, upload);
    rg_texture tex = rg_texture_create(g, &(rg_texture_desc){ .name = "mips", .format = TEX_FMT, .width = TEX_W,
                                                              .height = TEX_H, .mip_levels = 2, .array_layers = 2 });
    rg_buffer in = test_import_buffer(g, "upload", src, false);
    rg_buffer small = rg_buffer_create(g, &(rg_buffer_desc){ .name = "mip 1", .size = MIP1 * 4u });
    j.out = test_import_buffer(g, "readback", j.readbacks[0], true);
    rg_command clear = rg_cmd_clear_texture(g, tex, &(rg_range){ .aspect = VK_IMAGE_ASPECT_COLOR_BIT, .base_mip = 1,
                                                                 .mip_count = 1, .base_layer = 1, .layer_count = 1 },
                                            &(VkClearValue){ .color.uint32 = { MIP_CLEAR } });
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    rg_command upload_cmd = rg_cmd_copy_buffer_to_texture(g, in, 0, tex, 0, 1, 1);
    rg_command down = rg_cmd_copy_texture_to_buffer(g, tex, 1, 1, 1, small, 0);
    rg_command_allow_queue(g, upload_cmd, RG_QUEUE_TRANSFER);
    rg_command_allow_queue(g, down, RG_QUEUE_TRANSFER);
    rg_command reads[2] = { rg_cmd_copy_texture_to_buffer(g, tex, 0, 1, 1, j.out, 0),
                            rg_cmd_copy_buffer(g, small, 0, j.out, BYTES, MIP1 * 4u) };
    test_compile(g);
    check_batches(g, true);
    expect_queue(g, clear, async_queue());
    expect_queue(g, down, transfer_queue());
    /* The upload touches an import: it stays on graphics, with a note
     * where there was a transfer queue to move it to. */
    expect_queue(g, upload_cmd, RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), transfer_queue() == RG_QUEUE_TRANSFER ? 1u : 0u);
    for (int i = 0; i < 2; i++)
        expect_queue(g, reads[i], RG_QUEUE_GRAPHICS);

    run_frames(&r, g, N, readback_before, NULL, NULL, &j);
    static uint32_t want[WORDS + MIP1];
    memcpy(want, upload, sizeof upload);
    for (uint32_t i = 0; i < MIP1; i++)
        want[WORDS + i] = MIP_CLEAR;
    for (uint32_t f = 0; f < N; f++) {
        char what[48];
        snprintf(what, sizeof what, "frame %u: mip 0 and mip 1 of layer 1", f + 1);
        expect_words(eng_buffer_mapped(j.readbacks[f]), want, WORDS + MIP1, what);
    }

    readback_close(&j, N);
    eng_buffer_destroy(src);
    runner_close(&r);
}
