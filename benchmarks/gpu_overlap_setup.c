/* gpu_frame's overlap frame, set up: per queue a command pool and its
 * timestamps, per configuration a graph (overlap_frame.c's declaration or
 * the scene demo's frame) with a command buffer per batch, and one frame
 * timed per batch. */
#include "gpu_frame.h"

const char *ov_config_names[OV_CONFIGS] = { "single queue", "async compute",
                                            "single queue, concurrent sharing", "measured" };
const bool ov_single_queue[OV_CONFIGS] = { true, false, true, false };
const bool ov_concurrent[OV_CONFIGS] = { false, false, true, false };

/* C11's clock (this file is strict C11, without POSIX's monotonic one):
 * good enough for a few milliseconds between two readings. */
static double now_ms(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void ov_timer_destroy(ov_timer *t)
{
    if (!t->dev)
        return;
    vkDeviceWaitIdle(t->dev);
    vkDestroyQueryPool(t->dev, t->queries, NULL);
    vkDestroyFence(t->dev, t->fence, NULL);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        vkDestroyCommandPool(t->dev, t->pools[q], NULL);
}

/* 77 (with why) where a queue the context has writes no timestamps. */
int ov_timer_create(eng_context *ctx, ov_timer *t, char *why, size_t why_size)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->dev = eng_context_device(ctx);
    const VkPhysicalDeviceLimits *limits = &eng_context_properties(ctx)->limits;
    t->period_ns = limits->timestampPeriod;
    int rc = 0;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT && rc == 0; q++) {
        uint32_t family = eng_context_queue_family_of(ctx, (eng_queue_kind)q);
        t->families[q] = family;
        if (family == UINT32_MAX)
            continue; /* the context has no such queue: the graph never uses it */
        t->bits[q] = gf_timestamp_bits(ctx, family);
        if (t->bits[q] == 0 || limits->timestampPeriod <= 0.0f) {
            snprintf(why, why_size, "the %s queue's family %u has %u timestamp bits, timestampPeriod %g",
                     rg_queue_name((rg_queue)q), family, t->bits[q], (double)limits->timestampPeriod);
            rc = 77;
            break;
        }
        t->mask[q] = t->bits[q] >= 64 ? UINT64_MAX : (1ull << t->bits[q]) - 1;
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                        .queueFamilyIndex = family };
        if (vkCreateCommandPool(t->dev, &pci, NULL, &t->pools[q]) != VK_SUCCESS)
            rc = 1;
    }
    if (rc)
        return rc;
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                 .queryCount = 2 * OV_MAX_BATCHES * OV_CONFIGS };
    if (vkCreateFence(t->dev, &fi, NULL, &t->fence) != VK_SUCCESS ||
        vkCreateQueryPool(t->dev, &qi, NULL, &t->queries) != VK_SUCCESS)
        return 1;
    return 0;
}

/* A timestamp difference in ticks, signed: the counter wraps at its valid
 * bits, and a batch of another queue may start before the first batch. */
static int64_t ov_ticks(uint64_t from, uint64_t to, uint64_t mask)
{
    uint64_t d = (to - from) & mask;
    if (mask != UINT64_MAX && d > mask / 2)
        return (int64_t)d - (int64_t)mask - 1;
    return (int64_t)d;
}

/* The graph's batches now: their queues, waits and a command buffer each
 * (again when the measured queue policy changed them). */
static bool ov_batches(ov_timer *t, ov_setup *s, const char *name)
{
    for (uint32_t i = 0; i < s->batch_count; i++)
        if (s->cmds[i])
            vkFreeCommandBuffers(t->dev, t->pools[s->queues[i]], 1, &s->cmds[i]);
    memset(s->cmds, 0, sizeof s->cmds);
    memset(s->waits, 0, sizeof s->waits);
    s->batch_count = 0;
    uint32_t n = rg_batch_count(s->graph);
    if (n == 0 || n > OV_MAX_BATCHES) {
        fprintf(stderr, "gpu_frame: %s: %u batches (1..%d here)\n", name, n, OV_MAX_BATCHES);
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        if (rg_batch_get(s->graph, i, &b) != RG_SUCCESS || b.queue >= RG_QUEUE_COUNT || !t->pools[b.queue]) {
            fprintf(stderr, "gpu_frame: %s: batch %u: no queue for it: %s\n", name, i,
                    rg_graph_error_message(s->graph));
            return false;
        }
        s->queues[i] = b.queue;
        for (uint32_t w = 0; w < b.wait_count; w++)
            if (b.waits[w].batch < i)
                s->waits[i] |= 1u << b.waits[w].batch;
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = t->pools[b.queue],
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
        if (vkAllocateCommandBuffers(t->dev, &ai, &s->cmds[i]) != VK_SUCCESS)
            return false;
        s->batch_count = i + 1;
    }
    return true;
}

/* One frame: every batch's command buffer begins with a timestamp, the
 * graph records all batches (rg_execute_batches), each ends with one;
 * rg_submit submits the plan with the fence on its last batch, and the
 * frame is waited for alone. Timestamps of different queues are compared
 * on the device's one timestamp clock (Vulkan promises comparability only
 * within a queue; sample.cpu, the CPU's submit-to-fence time, does not
 * depend on it). */
bool ov_frame(ov_timer *t, ov_work *w, ov_setup *s, ov_sample *out)
{
    eng_result begun = w->scene ? scene_frame_update(s->renderer, s->graph, 0, OV_SCENE_INDEX)
                                : overlap_frame_begin(w->overlap);
    if (begun != ENG_SUCCESS)
        return false;
    rg_declaration decl;
    rg_declaration_get(s->graph, &decl);
    if (rg_batch_count(s->graph) != s->batch_count && !ov_batches(t, s, decl.desc.name))
        return false;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    uint32_t n = s->batch_count, base = s->query_base;
    for (uint32_t i = 0; i < n; i++) {
        if (vkResetCommandBuffer(s->cmds[i], 0) != VK_SUCCESS || vkBeginCommandBuffer(s->cmds[i], &bi) != VK_SUCCESS)
            return false;
        vkCmdResetQueryPool(s->cmds[i], t->queries, base + 2 * i, 2);
        vkCmdWriteTimestamp2(s->cmds[i], VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, t->queries, base + 2 * i);
    }
    rg_submit_plan plan = { 0 };
    rg_result rr = rg_execute_batches(s->graph, s->cmds, &plan);
    bool ok = rr == RG_SUCCESS && plan.count == n;
    for (uint32_t i = 0; i < n; i++) {
        vkCmdWriteTimestamp2(s->cmds[i], VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, t->queries, base + 2 * i + 1);
        ok = vkEndCommandBuffer(s->cmds[i]) == VK_SUCCESS && ok;
    }
    if (!ok || vkResetFences(t->dev, 1, &t->fence) != VK_SUCCESS)
        return false;
    double cpu0 = now_ms();
    if (rg_submit(s->graph, &plan, &(rg_submit_desc){ .fence = t->fence }) != RG_SUCCESS ||
        vkWaitForFences(t->dev, 1, &t->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return false;
    double cpu = now_ms() - cpu0;
    uint64_t ts[2 * OV_MAX_BATCHES];
    if (vkGetQueryPoolResults(t->dev, t->queries, base, 2 * n, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return false;
    /* Everything relative to batch 0's start. A batch's start timestamp
     * (TOP_OF_PIPE) may be written before the work it waits for is done:
     * the same queue's batch before it, and the batches of other queues it
     * waits on (a semaphore wait at the stages that need them). So a batch
     * counts as busy from the latest of those ends (and its own start) to
     * its end: the intervals of one queue never overlap. */
    int64_t first = 0, last = 0, busy[RG_QUEUE_COUNT] = { 0 }, end[OV_MAX_BATCHES];
    int64_t queue_end[RG_QUEUE_COUNT];
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        queue_end[q] = INT64_MIN;
    for (uint32_t i = 0; i < n; i++) {
        rg_queue q = s->queues[i];
        int64_t start = ov_ticks(ts[0], ts[2 * i], t->mask[q]);
        end[i] = ov_ticks(ts[0], ts[2 * i + 1], t->mask[q]);
        first = start < first ? start : first;
        last = end[i] > last ? end[i] : last;
        int64_t from = start > queue_end[q] ? start : queue_end[q];
        for (uint32_t j = 0; j < i; j++)
            if (s->waits[i] & (1u << j) && end[j] > from)
                from = end[j];
        busy[q] += end[i] > from ? end[i] - from : 0;
        queue_end[q] = end[i];
    }
    double scale = t->period_ns / 1e6;
    memset(out, 0, sizeof *out);
    out->total = (double)(last - first) * scale;
    out->overlap = -out->total;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        out->busy[q] = (double)busy[q] * scale;
        out->overlap += out->busy[q];
    }
    out->cpu = cpu;
    return true;
}

void ov_setup_destroy(ov_timer *t, ov_setup *s)
{
    for (uint32_t i = 0; i < s->batch_count; i++)
        if (s->cmds[i])
            vkFreeCommandBuffers(t->dev, t->pools[s->queues[i]], 1, &s->cmds[i]);
    rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* its frames were waited for */
    rg_graph_destroy(s->graph);
    scene_renderer_destroy(s->renderer);
    memset(s, 0, sizeof *s);
}

/* The scene frame into w->output, imported as the overlap frame imports
 * its own. */
static void ov_declare_scene(ov_work *w, ov_setup *s)
{
    const eng_image_info *oi = eng_image_get_info(w->output);
    rg_texture target = rg_texture_import(
        s->graph, &(rg_texture_import_desc){ .name = "output", .image = oi->image, .view = oi->view,
                                             .format = oi->format, .width = w->extent.width,
                                             .height = w->extent.height,
                                             .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                             .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                                             .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    scene_frame_declare(s->renderer, s->graph, target, true, &s->scene);
    s->async_pass = s->scene.ssao;
}

int ov_setup_create(ov_timer *t, ov_work *w, uint32_t config, ov_setup *s)
{
    memset(s, 0, sizeof *s);
    s->query_base = 2 * OV_MAX_BATCHES * config;
    bool measured = config == OV_MEASURED;
    rg_graph_create(&(rg_graph_desc){ .name = ov_config_names[config], .device = eng_context_graph_device(t->ctx),
                                      .single_queue = ov_single_queue[config],
                                      .concurrent_sharing = ov_concurrent[config],
                                      .queue_policy = measured ? RG_QUEUE_POLICY_MEASURED : RG_QUEUE_POLICY_ELIGIBLE,
                                      .timings = measured },
                    &s->graph);
    if (!s->graph)
        return 1;
    if (w->scene) {
        if (scene_renderer_create(&(scene_renderer_desc){ .ctx = t->ctx, .ssao_samples = w->ssao_samples },
                                  &s->renderer) != ENG_SUCCESS) {
            fprintf(stderr, "gpu_frame: %s: scene: %s\n", ov_config_names[config], eng_last_error());
            return 1;
        }
        ov_declare_scene(w, s);
    } else {
        overlap_frame_declare(w->overlap, s->graph, &s->decl);
        s->async_pass = s->decl.ao_pass;
    }
    if (rg_compile(s->graph) != RG_SUCCESS) {
        fprintf(stderr, "gpu_frame: %s: compile: %s\n", ov_config_names[config], rg_graph_error_message(s->graph));
        return 1;
    }
    /* Pipelines before the first timed frame. */
    if (w->scene && scene_frame_prepare(s->renderer, s->graph) != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: %s: pipelines: %s\n", ov_config_names[config], eng_last_error());
        return 1;
    }
    if (!ov_batches(t, s, ov_config_names[config]))
        return 1;
    rg_command_info ci;
    s->ao_queue = rg_command_get_info(s->graph, s->async_pass, &ci) == RG_SUCCESS ? ci.queue : RG_QUEUE_GRAPHICS;
    for (uint32_t i = 0; i < rg_queue_note_count(s->graph); i++) {
        rg_queue_note note;
        if (rg_queue_note_get(s->graph, i, &note) == RG_SUCCESS && note.command.id == s->async_pass.id)
            snprintf(s->note, sizeof s->note, "%s", note.reason ? note.reason : "");
    }
    /* The first frame places the memory. */
    ov_sample first;
    if (!ov_frame(t, w, s, &first)) {
        fprintf(stderr, "gpu_frame: %s: first frame: %s (%s)\n", ov_config_names[config],
                rg_graph_error_message(s->graph), eng_last_error());
        return 1;
    }
    s->totals = rg_memory_get_totals(s->graph);
    return 0;
}

int ov_setup_measure(ov_timer *t, ov_work *w, ov_setup *s)
{
    rg_queue_choice c = { 0 };
    uint32_t f = 0;
    for (; f < OV_MEASURE_FRAMES_MAX; f++) {
        if (rg_queue_choice_get(s->graph, &c) != RG_SUCCESS)
            return 1;
        /* Nothing to measure (one queue here), or made and compiled. */
        if (c.state == RG_QUEUE_CHOICE_NONE || c.state == RG_QUEUE_CHOICE_UNMEASURED ||
            (c.state == RG_QUEUE_CHOICE_MADE && (rg_batch_count(s->graph) > 1) == c.async))
            break;
        ov_sample unused;
        if (!ov_frame(t, w, s, &unused)) {
            fprintf(stderr, "gpu_frame: measured: frame %u: %s (%s)\n", f, rg_graph_error_message(s->graph),
                    eng_last_error());
            return 1;
        }
    }
    if (c.state == RG_QUEUE_CHOICE_MEASURING || f == OV_MEASURE_FRAMES_MAX) {
        fprintf(stderr, "gpu_frame: measured: no choice after %u frames: %s\n", f, c.reason);
        return 1;
    }
    s->measure_frames = f;
    rg_command_info ci;
    s->ao_queue = rg_command_get_info(s->graph, s->async_pass, &ci) == RG_SUCCESS ? ci.queue : RG_QUEUE_GRAPHICS;
    s->totals = rg_memory_get_totals(s->graph);
    return 0;
}

