/* Frames recorded whole or in chunks, as VKG_TEST_CHUNKS says
 * (test_chunks.h). */
#include "test_chunks.h"

#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#define MAX_CHUNKS 64u

static struct {
    bool read;
    uint32_t max_chunks, threads;
    rg_workers *workers;
    VkCommandPool *pools;             /* every pool made, with its device */
    VkDevice *devices;
    uint32_t pool_count, pool_cap;
    bool hooked;                      /* release is the fixture's hook */
} sw;

static void read_switch(void)
{
    if (sw.read)
        return;
    sw.read = true;
    const char *v = getenv("VKG_TEST_CHUNKS");
    if (!v || !*v)
        return;
    char *end = NULL;
    unsigned long n = strtoul(v, &end, 10), t = 0;
    if (*end == ':')
        t = strtoul(end + 1, &end, 10);
    if (*end || n > MAX_CHUNKS || t > 64 || (*v == ':')) {
        fprintf(stderr, "VKG_TEST_CHUNKS='%s': want N or N:T (max_chunks N up to %u, T threads up to 64)\n", v,
                MAX_CHUNKS);
        abort();
    }
    sw.max_chunks = (uint32_t)n;
    sw.threads = (uint32_t)t;
}

uint32_t test_chunks_max(void)
{
    read_switch();
    return sw.max_chunks;
}

bool test_chunks_threaded(void)
{
    return test_chunks_max() && sw.threads;
}

/* Destroys ctx's pools (their command buffers with them) before the
 * fixture destroys ctx. */
static void release(eng_context *ctx)
{
    VkDevice dev = eng_context_device(ctx);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < sw.pool_count; i++) {
        if (sw.devices[i] == dev) {
            vkDestroyCommandPool(dev, sw.pools[i], NULL);
        } else {
            sw.pools[kept] = sw.pools[i];
            sw.devices[kept++] = sw.devices[i];
        }
    }
    sw.pool_count = kept;
}

static eng_queue_kind kind_of(rg_queue q)
{
    return q == RG_QUEUE_COMPUTE ? ENG_QUEUE_COMPUTE : q == RG_QUEUE_TRANSFER ? ENG_QUEUE_TRANSFER : ENG_QUEUE_GRAPHICS;
}

/* A begun command buffer (secondary, or primary) of a new pool of queue
 * q's family. */
static VkCommandBuffer chunk_cmd(eng_context *ctx, rg_queue q, bool primary)
{
    if (!sw.hooked) {
        device_on_release(release);
        sw.hooked = true;
    }
    if (sw.pool_count == sw.pool_cap) {
        uint32_t cap = sw.pool_cap ? 2 * sw.pool_cap : 32;
        VkCommandPool *p = realloc(sw.pools, cap * sizeof *p);
        if (p)
            sw.pools = p;
        VkDevice *d = realloc(sw.devices, cap * sizeof *d);
        if (d)
            sw.devices = d;
        cr_assert(p && d);
        sw.pool_cap = cap;
    }
    VkDevice dev = eng_context_device(ctx);
    uint32_t family = eng_context_queue_family_of(ctx, kind_of(q));
    if (family == UINT32_MAX)
        family = eng_context_queue_family(ctx);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, .queueFamilyIndex = family };
    VkCommandPool pool;
    cr_assert_eq(vkCreateCommandPool(dev, &pci, NULL, &pool), VK_SUCCESS);
    sw.devices[sw.pool_count] = dev;
    sw.pools[sw.pool_count++] = pool;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                       .level = primary ? VK_COMMAND_BUFFER_LEVEL_PRIMARY : VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                       .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    cr_assert_eq(vkAllocateCommandBuffers(dev, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferInheritanceInfo inherit = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO };
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
                                    .pInheritanceInfo = primary ? NULL : &inherit };
    cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    return cmd;
}

/* The frame in chunks. With a plan asked for (the test submits it with
 * rg_submit), each chunk is recorded into a primary command buffer of its
 * own and the plan is the graph's, listing them: what an application
 * does. Without one (the test submits primaries[0] itself), into
 * secondaries executed in order into primaries[0]. */
static rg_result chunked(eng_context *ctx, rg_graph *g, const VkCommandBuffer *primaries, rg_submit_plan *plan)
{
    uint32_t count = 0;
    rg_result r = rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = sw.max_chunks }, &count);
    if (r != RG_SUCCESS)
        return r;
    cr_assert_leq(count, MAX_CHUNKS * 4, "%u chunks", count);
    VkCommandBuffer *cmds = calloc(count, sizeof *cmds);
    rg_chunk_info *info = calloc(count, sizeof *info);
    cr_assert(cmds && info);
    for (uint32_t i = 0; i < count; i++) {
        cr_assert_eq(rg_chunk_get(g, i, &info[i]), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cmds[i] = chunk_cmd(ctx, info[i].queue, plan != NULL);
    }
    if (sw.threads) {
        if (!sw.workers)
            cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = sw.threads }, &sw.workers),
                         RG_SUCCESS);
        (void)rg_workers_execute(sw.workers, g, cmds); /* rg_execute_end reports a failed chunk */
    } else {
        for (uint32_t i = 0; i < count; i++)
            (void)rg_execute_chunk(g, i, cmds[i]);
    }
    for (uint32_t i = 0; i < count; i++)
        cr_assert_eq(vkEndCommandBuffer(cmds[i]), VK_SUCCESS);
    r = rg_execute_end(g, cmds, plan);
    /* One vkCmdExecuteCommands per chunk: the validation layer checks the
     * secondaries of one call against the primary's layouts as they were
     * before the call, not as the secondaries before them leave them. */
    for (uint32_t i = 0; r == RG_SUCCESS && !plan && i < count; i++)
        vkCmdExecuteCommands(primaries[info[i].batch], 1, &cmds[i]);
    free(cmds);
    free(info);
    return r;
}

rg_result test_execute(rg_graph *g, VkCommandBuffer cmd)
{
    return test_execute_on(test_ctx, g, cmd);
}

rg_result test_execute_on(eng_context *ctx, rg_graph *g, VkCommandBuffer cmd)
{
    /* Several batches: rg_execute's refusal, as the test expects. */
    if (!test_chunks_max() || !g || rg_batch_count(g) != 1)
        return rg_execute(g, cmd);
    return chunked(ctx, g, &cmd, NULL);
}

typedef struct once_job {
    eng_context *ctx;
    rg_graph *graph;
    rg_result result;
} once_job;

static void record_once(VkCommandBuffer cmd, void *user)
{
    once_job *j = user;
    j->result = test_execute_on(j->ctx, j->graph, cmd);
}

rg_result test_execute_once_on(eng_context *ctx, rg_graph *g)
{
    once_job j = { ctx, g, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(ctx, record_once, &j), ENG_SUCCESS, "%s", eng_last_error());
    return j.result;
}

rg_result test_execute_batches(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    if (!test_chunks_max() || !g || !cmds || !plan)
        return rg_execute_batches(g, cmds, plan);
    return chunked(test_ctx, g, cmds, plan);
}

eng_result test_present_graph(eng_swapchain *swapchain, eng_frame *frame, rg_graph *graph, rg_texture backbuffer)
{
    if (!test_chunks_max())
        return eng_swapchain_present_graph(swapchain, frame, graph, backbuffer);
    if (sw.threads && !sw.workers) {
        cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = sw.threads }, &sw.workers), RG_SUCCESS);
    }
    return eng_swapchain_present_graph_parallel(swapchain, frame, graph, backbuffer,
                                                &(eng_parallel_desc){ .workers = sw.workers,
                                                                      .max_chunks = sw.max_chunks });
}
