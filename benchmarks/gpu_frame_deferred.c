/* gpu_frame's deferred frame: per configuration (aliasing on or off, the
 * graph or the hand-written recording) a graph and its renderer, one
 * frame's GPU time from timestamps, and --timings. */
#include "gpu_frame.h"

const char *gf_config_names[CONFIGS] = { "aliasing on, graph", "aliasing on, hand", "aliasing off, graph",
                                             "aliasing off, hand" };

const char *gf_merge_names[] = { [RG_MERGE_AUTO] = "auto", [RG_MERGE_ON] = "on", [RG_MERGE_OFF] = "off" };

void gf_setup_destroy(setup *s)
{
    bench_flat_destroy(s->flat);
    /* Its frames were waited for: nothing of the graph is in flight. */
    rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(s->graph);
    bench_deferred_destroy(&s->d);
    memset(s, 0, sizeof *s);
}

/* The graph's frame in chunks (--chunks), each into its own pool's
 * command buffer, after t->cmd and before t->cmd_end: the command buffers
 * to submit in order into ci, their count in *count. */
static bool record_chunks(timer *t, setup *s, VkCommandBufferSubmitInfo *ci, uint32_t *count)
{
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    uint32_t n = 0;
    if (rg_execute_begin(s->graph, &(rg_execute_desc){ .max_chunks = t->chunks }, &n) != RG_SUCCESS)
        return false;
    bool ok = n <= MAX_CHUNKS;
    for (uint32_t i = 0; i < n && ok; i++) {
        ok = vkResetCommandPool(t->dev, t->chunk_pools[i], 0) == VK_SUCCESS &&
             vkBeginCommandBuffer(t->chunk_cmds[i], &bi) == VK_SUCCESS &&
             rg_execute_chunk(s->graph, i, t->chunk_cmds[i]) == RG_SUCCESS &&
             vkEndCommandBuffer(t->chunk_cmds[i]) == VK_SUCCESS;
        ci[1 + i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                 .commandBuffer = t->chunk_cmds[i] };
    }
    ok = rg_execute_end(s->graph, t->chunk_cmds, NULL) == RG_SUCCESS && ok;
    ci[1 + n] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                             .commandBuffer = t->cmd_end };
    *count = n + 2;
    return ok && vkResetCommandBuffer(t->cmd_end, 0) == VK_SUCCESS &&
           vkBeginCommandBuffer(t->cmd_end, &bi) == VK_SUCCESS;
}

/* One frame, timed on the GPU; ms, or < 0 on failure. */
double gf_frame_ms(timer *t, setup *s, bool hand)
{
    if (deferred_renderer_begin_frame(s->d.renderer, 0) != ENG_SUCCESS)
        return -1;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    if (vkResetCommandBuffer(t->cmd, 0) != VK_SUCCESS || vkBeginCommandBuffer(t->cmd, &bi) != VK_SUCCESS)
        return -1;
    vkCmdResetQueryPool(t->cmd, t->queries, 0, 2);
    vkCmdWriteTimestamp2(t->cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, t->queries, 0);
    VkCommandBufferSubmitInfo ci[MAX_CHUNKS + 2] = {
        { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = t->cmd } };
    uint32_t count = 1;
    VkCommandBuffer last = t->cmd;
    bool ok;
    if (hand) {
        ok = bench_flat_record(s->flat, t->cmd);
    } else if (t->chunks) {
        ok = vkEndCommandBuffer(t->cmd) == VK_SUCCESS && record_chunks(t, s, ci, &count);
        last = t->cmd_end;
    } else {
        ok = rg_execute(s->graph, t->cmd) == RG_SUCCESS;
    }
    vkCmdWriteTimestamp2(last, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, t->queries, 1);
    if (vkEndCommandBuffer(last) != VK_SUCCESS || !ok)
        return -1;
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = count,
                         .pCommandBufferInfos = ci };
    if (vkResetFences(t->dev, 1, &t->fence) != VK_SUCCESS ||
        vkQueueSubmit2(eng_context_queue(t->ctx), 1, &si, t->fence) != VK_SUCCESS ||
        vkWaitForFences(t->dev, 1, &t->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
        return -1;
    uint64_t ts[2];
    if (vkGetQueryPoolResults(t->dev, t->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return -1;
    return (double)((ts[1] - ts[0]) & t->mask) * t->period_ns / 1e6;
}

int gf_setup_create(eng_context *ctx, timer *t, VkExtent2D extent, bool no_aliasing, bool timings,
                        rg_merge merge, const char *ground, setup *s)
{
    memset(s, 0, sizeof *s);
    if (bench_deferred_create(ctx, ground, extent, false, &s->d) != ENG_SUCCESS) {
        fprintf(stderr, "gpu_frame: deferred frame: %s\n", eng_last_error());
        return 1;
    }
    rg_graph_create(&(rg_graph_desc){ .name = no_aliasing ? "deferred, no aliasing" : timings ? "deferred, timed" : "deferred",
                                      .device = eng_context_graph_device(ctx), .no_aliasing = no_aliasing,
                                      .merge = merge, .timings = timings },
                    &s->graph);
    if (!s->graph)
        return 1;
    bench_deferred_declare(&s->d, s->graph, NULL);
    if (rg_compile(s->graph) != RG_SUCCESS) {
        fprintf(stderr, "gpu_frame: compile: %s\n", rg_graph_error_message(s->graph));
        return 1;
    }
    /* The first frame places the memory and binds the imports' views;
     * then the frame is flattened. */
    if (gf_frame_ms(t, s, false) < 0) {
        fprintf(stderr, "gpu_frame: first frame: %s\n", rg_graph_error_message(s->graph));
        return 1;
    }
    s->totals = rg_memory_get_totals(s->graph);
    for (uint32_t i = 0; i < rg_merge_count(s->graph); i++) {
        rg_merge_info m;
        s->merged += rg_merge_get(s->graph, i, &m) == RG_SUCCESS && m.merged;
    }
    const char *error = NULL;
    s->flat = bench_flatten(s->graph, eng_context_device(ctx), &error);
    if (!s->flat) {
        fprintf(stderr, "gpu_frame: flattening: %s\n", error);
        return 1;
    }
    bench_flat_counts gc = bench_graph_counts(s->graph);
    s->counts = bench_flat_get_counts(s->flat);
    if (gc.barrier_calls != s->counts.barrier_calls || gc.image_barriers != s->counts.image_barriers ||
        gc.memory_barriers != s->counts.memory_barriers) {
        fprintf(stderr, "gpu_frame: the hand-written frame differs from the graph's (%u/%u barrier calls)\n",
                gc.barrier_calls, s->counts.barrier_calls);
        return 1;
    }
    return 0;
}

/* The timestampValidBits of a queue family (0: none, or no such family). */
uint32_t gf_timestamp_bits(eng_context *ctx, uint32_t family)
{
    uint32_t n = 0;
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *qf = calloc(n ? n : 1, sizeof *qf);
    if (!qf)
        return 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
    uint32_t bits = family < n ? qf[family].timestampValidBits : 0;
    free(qf);
    return bits;
}

int gf_timer_create(eng_context *ctx, timer *t, char *why, size_t why_size)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->dev = eng_context_device(ctx);
    uint32_t family = eng_context_queue_family(ctx), bits = gf_timestamp_bits(ctx, family);
    const VkPhysicalDeviceLimits *limits = &eng_context_properties(ctx)->limits;
    if (bits == 0 || limits->timestampPeriod <= 0.0f) {
        snprintf(why, why_size, "the queue family %u has %u timestamp bits, timestampPeriod %g", family, bits,
                 (double)limits->timestampPeriod);
        return 77;
    }
    t->period_ns = limits->timestampPeriod;
    t->mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = family };
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
    if (vkCreateCommandPool(t->dev, &pci, NULL, &t->pool) != VK_SUCCESS ||
        vkCreateFence(t->dev, &fi, NULL, &t->fence) != VK_SUCCESS ||
        vkCreateQueryPool(t->dev, &qi, NULL, &t->queries) != VK_SUCCESS)
        return 1;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = t->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    if (vkAllocateCommandBuffers(t->dev, &ai, &t->cmd) != VK_SUCCESS ||
        vkAllocateCommandBuffers(t->dev, &ai, &t->cmd_end) != VK_SUCCESS)
        return 1;
    pci.flags = 0; /* chunk pools are reset whole each frame */
    for (uint32_t i = 0; i < MAX_CHUNKS; i++) {
        ai.commandPool = VK_NULL_HANDLE;
        if (vkCreateCommandPool(t->dev, &pci, NULL, &t->chunk_pools[i]) != VK_SUCCESS)
            return 1;
        ai.commandPool = t->chunk_pools[i];
        if (vkAllocateCommandBuffers(t->dev, &ai, &t->chunk_cmds[i]) != VK_SUCCESS)
            return 1;
    }
    return 0;
}

void gf_timer_destroy(timer *t)
{
    if (!t->dev)
        return;
    vkDeviceWaitIdle(t->dev);
    vkDestroyQueryPool(t->dev, t->queries, NULL);
    vkDestroyFence(t->dev, t->fence, NULL);
    vkDestroyCommandPool(t->dev, t->pool, NULL);
    for (uint32_t i = 0; i < MAX_CHUNKS; i++)
        vkDestroyCommandPool(t->dev, t->chunk_pools[i], NULL);
}

int gf_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gf_median_of(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, gf_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --timings: the graph's GPU timings (rendergraph.h, "Timings") of the
 * deferred frame. What they cost: the same frame with timings off (plain,
 * the aliasing-on graph) and on (a graph of its own), --frames rounds in
 * alternating order after --warmup frames each, medians of the frame's own
 * timestamps. Then the per-pass breakdown of one frame, heaviest first,
 * and the sum of its passes against that frame's own timestamps (which
 * bracket everything the graph records: the sum stays below). */
int gf_run_timings(eng_context *ctx, timer *t, VkExtent2D extent, rg_merge merge, const char *ground,
                       uint32_t warmup, uint32_t frames, setup *plain)
{
    setup timed;
    int rc = gf_setup_create(ctx, t, extent, false, true, merge, ground, &timed);
    double *v = calloc(2 * (size_t)frames, sizeof *v);
    if (!v)
        rc = 1;
    for (uint32_t w = 0; w < warmup && rc == 0; w++)
        rc = gf_frame_ms(t, plain, false) < 0 || gf_frame_ms(t, &timed, false) < 0;
    for (uint32_t f = 0; f < frames && rc == 0; f++) {
        setup *first = f % 2 ? &timed : plain, *second = f % 2 ? plain : &timed;
        double a = gf_frame_ms(t, first, false), b = gf_frame_ms(t, second, false);
        rc = a < 0 || b < 0;
        v[f] = f % 2 ? b : a;                /* off */
        v[frames + f] = f % 2 ? a : b;       /* on */
    }
    /* One frame, then another whose execute reads the first's timings. */
    double own = rc == 0 ? gf_frame_ms(t, &timed, false) : -1;
    rc = rc || own < 0 || gf_frame_ms(t, &timed, false) < 0;
    double passes = 0.0, batches = 0.0;
    uint64_t frame = 0;
    for (uint32_t i = 0; i < rg_timing_count(timed.graph) && rc == 0; i++) {
        rg_timing tm;
        if (rg_timing_get(timed.graph, i, &tm) != RG_SUCCESS) {
            fprintf(stderr, "gpu_frame: timings: %s\n", rg_graph_error_message(timed.graph));
            rc = 1;
            break;
        }
        frame = tm.frame;
        if (tm.kind == RG_TIMING_BATCH)
            batches += tm.ms;
        else
            passes += tm.ms;
    }
    if (rc == 0) {
        double off = gf_median_of(v, frames), on = gf_median_of(v + frames, frames);
        printf("%ux%u timings: frame median %.3f ms off, %.3f ms on (%+.2f%%), over %u frames each\n", extent.width,
               extent.height, off, on, off > 0 ? 100.0 * (on - off) / off : 0.0, frames);
        rc = rg_timings_print(timed.graph, stdout) != RG_SUCCESS;
        printf("%ux%u timings: frame %llu: passes %.3f ms, batches %.3f ms, the frame's own timestamps %.3f ms "
               "(passes %.1f%% of it)\n", extent.width, extent.height, (unsigned long long)frame, passes, batches,
               own, own > 0 ? 100.0 * passes / own : 0.0);
    }
    free(v);
    vkDeviceWaitIdle(eng_context_device(ctx));
    gf_setup_destroy(&timed);
    return rc;
}

