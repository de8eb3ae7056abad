/* graph_cpu --threads: a frame recorded on several threads ("Parallel
 * recording" in rendergraph.h), wall time and CPU time against one thread.
 *
 * The frame: `draws` draws (10,000 by default) in SPANS spans of
 * COMMANDS_PER_SPAN user commands each, every span rendering into a 256x256
 * target of its own. Each command's callback records real work per draw:
 * binds one of PIPELINES pipelines (alternating, so every draw binds),
 * binds a descriptor set (one of PIPELINES, a storage buffer the fragment
 * shader reads), pushes constants and draws a rectangle; its cost hint
 * (rg_user_desc.cost) is its draw count.
 *
 * Per thread count T and chunk count M (M = T and M = 2T): rg_workers with
 * T threads; per frame the chunk command buffers' pools are reset
 * (vkResetCommandPool: never freed, never submitted, so nothing to wait
 * for), then timed: rg_execute_begin (max_chunks M), vkBeginCommandBuffer
 * per chunk, rg_workers_execute, vkEndCommandBuffer per chunk,
 * rg_execute_end. Wall time (CLOCK_MONOTONIC) and the process's CPU time
 * over all threads (CLOCK_PROCESS_CPUTIME_ID: the workers wait on a
 * condition variable, so idle threads add nothing) are the medians over
 * the frames after warm-up. The graph's host allocations go through a
 * counting rg_allocator (rg_graph_desc.allocator): allocations per timed
 * frame, which must be 0. The baseline row is T = 1, M = 1 (the whole
 * frame in one command buffer, on the calling thread). With --validation
 * the last frame of each row is also submitted (and waited for) under
 * synchronization validation, which must stay silent.
 */
#define _POSIX_C_SOURCE 199309L
#include "graph_cpu_threads.h"

#include <rendergraph/rendergraph.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const uint32_t solid_vert[] =
#include "solid.vert.inc"
    ;
static const uint32_t ssbo_color_frag[] =
#include "ssbo_color.frag.inc"
    ;

#define SPANS 4u
#define COMMANDS_PER_SPAN 32u
#define COMMANDS (SPANS * COMMANDS_PER_SPAN)
#define PIPELINES 4u
#define TARGET_SIZE 256u
#define WARMUP 5u
/* Chunks a frame may have: max_chunks (at most 2 * 64 threads) plus one per batch. */
#define MAX_CHUNK_CMDS 160u
#define SET_STRIDE 256u               /* >= any minStorageBufferOffsetAlignment */

typedef struct solid_push {
    float rect[4];
    float color[4];
    float depth;
} solid_push;

/* The graph's host allocations, counted. */
typedef struct counting {
    atomic_ulong calls;
} counting;

static void *count_alloc(void *user, size_t size)
{
    atomic_fetch_add(&((counting *)user)->calls, 1);
    return malloc(size);
}

static void *count_realloc(void *user, void *ptr, size_t size)
{
    atomic_fetch_add(&((counting *)user)->calls, 1);
    return realloc(ptr, size);
}

static void count_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

typedef struct bench {
    eng_context *ctx;
    VkDevice dev;
    eng_pipeline *pipelines[PIPELINES];
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[PIPELINES];
    eng_buffer *colors;
    rg_graph *graph;
    counting allocs;
    uint32_t draws_per_command;
    /* Per chunk index: a pool and its one command buffer, reset each frame. */
    VkCommandPool pools[MAX_CHUNK_CMDS];
    VkCommandBuffer cmds[MAX_CHUNK_CMDS];
} bench;

typedef struct command {
    const bench *b;
    uint32_t index;
} command;

static command commands[COMMANDS];

static bool record_draws(const rg_record_context *rc, void *user)
{
    const command *c = user;
    const bench *b = c->b;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    for (uint32_t d = 0; d < b->draws_per_command; d++) {
        uint32_t k = (c->index + d) % PIPELINES;
        const eng_pipeline *p = b->pipelines[k];
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p));
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(p), 0, 1, &b->sets[k], 0,
                                NULL);
        float x = (float)((c->index * 131u + d * 17u) % 64u) / 32.0f - 1.0f;
        float y = (float)((c->index * 71u + d * 29u) % 64u) / 32.0f - 1.0f;
        solid_push push = { .rect = { x, y, x + 0.05f, y + 0.05f }, .color = { 1, 1, 1, 1 } };
        vkCmdPushConstants(cmd, eng_pipeline_layout(p), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof push, &push);
        vkCmdDraw(cmd, 4, 1, 0, 0);
    }
    return true;
}

static bool make_pipelines(bench *b)
{
    VkDescriptorSetLayoutBinding binding = { .binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                             .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT };
    VkDescriptorSetLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &binding };
    if (vkCreateDescriptorSetLayout(b->dev, &lci, NULL, &b->set_layout) != VK_SUCCESS)
        return false;
    static const eng_blend blends[PIPELINES] = { ENG_BLEND_OPAQUE, ENG_BLEND_ALPHA, ENG_BLEND_ADDITIVE,
                                                 ENG_BLEND_PREMULTIPLIED };
    for (uint32_t i = 0; i < PIPELINES; i++) {
        eng_pipeline_desc pd = {
            .name = "threads bench", .vertex_spirv = solid_vert, .vertex_size = sizeof solid_vert,
            .fragment_spirv = ssbo_color_frag, .fragment_size = sizeof ssbo_color_frag,
            .color_formats = { VK_FORMAT_R8G8B8A8_UNORM }, .color_count = 1, .triangle_strip = true,
            .blend = { blends[i] }, .set_layouts = &b->set_layout, .set_layout_count = 1,
            .push_constant_size = sizeof(solid_push),
        };
        if (eng_pipeline_create(b->ctx, &pd, &b->pipelines[i]) != ENG_SUCCESS)
            return false;
    }
    eng_buffer_desc bd = { .name = "colors", .size = SET_STRIDE * PIPELINES, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    if (eng_buffer_create(b->ctx, &bd, &b->colors) != ENG_SUCCESS)
        return false;
    for (uint32_t i = 0; i < PIPELINES; i++) {
        float *c = (float *)((char *)eng_buffer_mapped(b->colors) + i * SET_STRIDE);
        c[0] = 0.2f * (float)i, c[1] = 0.5f, c[2] = 1.0f - 0.2f * (float)i, c[3] = 0.5f;
    }
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, PIPELINES };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = PIPELINES,
                                       .poolSizeCount = 1, .pPoolSizes = &size };
    if (vkCreateDescriptorPool(b->dev, &pci, NULL, &b->pool) != VK_SUCCESS)
        return false;
    VkDescriptorSetLayout layouts[PIPELINES];
    for (uint32_t i = 0; i < PIPELINES; i++)
        layouts[i] = b->set_layout;
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = b->pool, .descriptorSetCount = PIPELINES,
                                       .pSetLayouts = layouts };
    if (vkAllocateDescriptorSets(b->dev, &ai, b->sets) != VK_SUCCESS)
        return false;
    for (uint32_t i = 0; i < PIPELINES; i++) {
        VkDescriptorBufferInfo info = { eng_buffer_handle(b->colors), i * SET_STRIDE, 16 };
        VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = b->sets[i],
                                   .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   .pBufferInfo = &info };
        vkUpdateDescriptorSets(b->dev, 1, &w, 0, NULL);
    }
    return true;
}

static bool make_graph(bench *b)
{
    rg_allocator alloc = { count_alloc, count_realloc, count_free, &b->allocs };
    rg_graph_desc gd = { .name = "threads bench", .device = eng_context_graph_device(b->ctx), .allocator = &alloc,
                         .single_queue = true };
    if (rg_graph_create(&gd, &b->graph) != RG_SUCCESS)
        return false;
    for (uint32_t s = 0; s < SPANS; s++) {
        char name[32];
        snprintf(name, sizeof name, "target %u", s);
        rg_texture target = rg_texture_create(b->graph, &(rg_texture_desc){ .name = name,
                                                                           .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                           .width = TARGET_SIZE,
                                                                           .height = TARGET_SIZE });
        rg_begin_rendering(b->graph, &(rg_rendering_desc){
            .name = name, .color_count = 1,
            .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                          .store = VK_ATTACHMENT_STORE_OP_STORE } } });
        for (uint32_t c = 0; c < COMMANDS_PER_SPAN; c++) {
            uint32_t i = s * COMMANDS_PER_SPAN + c;
            commands[i] = (command){ b, i };
            /* Nothing reads the targets: side effects keep the draws. */
            rg_cmd_user(b->graph, &(rg_user_desc){ .name = "draws", .kind = RG_COMMAND_DRAW, .record = record_draws,
                                                   .user = &commands[i], .side_effects = true,
                                                   .cost = b->draws_per_command });
        }
        rg_end_rendering(b->graph);
    }
    if (rg_compile(b->graph) != RG_SUCCESS) {
        fprintf(stderr, "graph_cpu --threads: compile: %s\n", rg_graph_error_message(b->graph));
        return false;
    }
    return true;
}

static bool make_command_buffers(bench *b)
{
    for (uint32_t i = 0; i < MAX_CHUNK_CMDS; i++) {
        VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                        .queueFamilyIndex = eng_context_queue_family(b->ctx) };
        if (vkCreateCommandPool(b->dev, &pci, NULL, &b->pools[i]) != VK_SUCCESS)
            return false;
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = b->pools[i], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        if (vkAllocateCommandBuffers(b->dev, &ai, &b->cmds[i]) != VK_SUCCESS)
            return false;
    }
    return true;
}

static void bench_destroy(bench *b)
{
    if (b->ctx)
        eng_context_wait_idle(b->ctx);
    for (uint32_t i = 0; i < MAX_CHUNK_CMDS; i++)
        if (b->pools[i])
            vkDestroyCommandPool(b->dev, b->pools[i], NULL);
    if (b->graph) /* waited for above (its frames are never submitted) */
        rg_graph_set_retire_point(b->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(b->graph);
    for (uint32_t i = 0; i < PIPELINES; i++)
        eng_pipeline_destroy(b->pipelines[i]);
    if (b->pool)
        vkDestroyDescriptorPool(b->dev, b->pool, NULL);
    if (b->set_layout)
        vkDestroyDescriptorSetLayout(b->dev, b->set_layout, NULL);
    eng_buffer_destroy(b->colors);
}

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* One frame in chunks; its wall and CPU ms, or false. */
static bool record_frame(bench *b, rg_workers *w, uint32_t max_chunks, bool submit, double *wall, double *cpu,
                         uint32_t *chunks)
{
    for (uint32_t i = 0; i < MAX_CHUNK_CMDS; i++)
        if (vkResetCommandPool(b->dev, b->pools[i], 0) != VK_SUCCESS)
            return false;
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    uint32_t n = 0;
    if (rg_execute_begin(b->graph, &(rg_execute_desc){ .max_chunks = max_chunks }, &n) != RG_SUCCESS)
        return false;
    if (n > MAX_CHUNK_CMDS) {
        rg_execute_end(b->graph, NULL, NULL);
        return false;
    }
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    for (uint32_t i = 0; i < n; i++)
        vkBeginCommandBuffer(b->cmds[i], &bi);
    rg_workers_execute(w, b->graph, b->cmds); /* a failure is rg_execute_end's */
    for (uint32_t i = 0; i < n; i++)
        vkEndCommandBuffer(b->cmds[i]);
    rg_result r = rg_execute_end(b->graph, b->cmds, NULL);
    *wall = clock_ms(CLOCK_MONOTONIC) - w0;
    *cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    *chunks = n;
    if (r != RG_SUCCESS) {
        fprintf(stderr, "graph_cpu --threads: %s\n", rg_graph_error_message(b->graph));
        return false;
    }
    if (!submit)
        return true;
    VkCommandBufferSubmitInfo infos[MAX_CHUNK_CMDS];
    for (uint32_t i = 0; i < n; i++)
        infos[i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                .commandBuffer = b->cmds[i] };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = n,
                         .pCommandBufferInfos = infos };
    return vkQueueSubmit2(eng_context_queue(b->ctx), 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
           eng_context_wait_idle(b->ctx) == ENG_SUCCESS;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct result {
    uint32_t threads, max_chunks, chunks;
    double wall, cpu;                 /* medians, ms */
    double allocs;                    /* per timed frame */
} result;

static int measure(bench *b, uint32_t threads, uint32_t max_chunks, const graph_cpu_threads_desc *d, result *out)
{
    rg_workers *w = NULL;
    if (rg_workers_create(&(rg_workers_desc){ .thread_count = threads }, &w) != RG_SUCCESS) {
        fprintf(stderr, "graph_cpu --threads: cannot start %u threads\n", threads);
        return 1;
    }
    double *wall = calloc(d->frames, sizeof *wall), *cpu = calloc(d->frames, sizeof *cpu);
    int rc = wall && cpu ? 0 : 1;
    *out = (result){ .threads = threads, .max_chunks = max_chunks };
    for (uint32_t f = 0; f < WARMUP && rc == 0; f++)
        rc = record_frame(b, w, max_chunks, false, &wall[0], &cpu[0], &out->chunks) ? 0 : 1;
    unsigned long before = atomic_load(&b->allocs.calls);
    for (uint32_t f = 0; f < d->frames && rc == 0; f++)
        rc = record_frame(b, w, max_chunks, false, &wall[f], &cpu[f], &out->chunks) ? 0 : 1;
    out->allocs = (double)(atomic_load(&b->allocs.calls) - before) / d->frames;
    if (rc == 0 && d->validation) {
        double ignored_wall, ignored_cpu;
        uint32_t ignored_chunks;
        rc = record_frame(b, w, max_chunks, true, &ignored_wall, &ignored_cpu, &ignored_chunks) ? 0 : 1;
    }
    if (rc == 0) {
        out->wall = median(wall, d->frames);
        out->cpu = median(cpu, d->frames);
    } else {
        fprintf(stderr, "graph_cpu --threads: recording on %u threads failed\n", threads);
    }
    free(wall);
    free(cpu);
    rg_workers_destroy(w);
    return rc;
}

static void print_row(const result *r, const result *base)
{
    double speedup = base->wall / r->wall;
    printf("%7u %7u %7u %9.3f %8.2f %10.2f %9.3f %9.2f %13.1f\n", r->threads, r->max_chunks, r->chunks, r->wall,
           speedup, speedup / r->threads, r->cpu, r->cpu / base->cpu, r->allocs);
}

int graph_cpu_threads(eng_context *ctx, const graph_cpu_threads_desc *d)
{
    bench b = { .ctx = ctx, .dev = eng_context_device(ctx) };
    atomic_init(&b.allocs.calls, 0);
    b.draws_per_command = (d->draws + COMMANDS - 1) / COMMANDS;
    int rc = make_pipelines(&b) && make_graph(&b) && make_command_buffers(&b) ? 0 : 1;
    if (rc) {
        fprintf(stderr, "graph_cpu --threads: setup failed: %s\n", eng_last_error());
        bench_destroy(&b);
        return 1;
    }
    const VkPhysicalDeviceProperties *props = eng_context_properties(ctx);
    printf("parallel recording on %s: a frame of %u draws in %u spans of %u commands (%u draws each: bind one of %u "
           "pipelines, bind a descriptor set, push constants, draw); median of %u frames after %u%s\n",
           props->deviceName, b.draws_per_command * COMMANDS, SPANS, COMMANDS_PER_SPAN, b.draws_per_command, PIPELINES,
           d->frames, WARMUP, d->validation ? "; under validation (times are not meaningful)" : "");
    printf("%7s %7s %7s %9s %8s %10s %9s %9s %13s\n", "threads", "max", "chunks", "wall ms", "speedup", "efficiency",
           "cpu ms", "cpu ratio", "allocs/frame");
    result base;
    rc = measure(&b, 1, 1, d, &base);
    if (rc == 0)
        print_row(&base, &base);
    bool allocated = rc == 0 && base.allocs > 0;
    for (uint32_t i = 0; i < d->thread_count && rc == 0; i++)
        for (uint32_t per = 1; per <= 2 && rc == 0; per++) {
            uint32_t t = d->threads[i];
            if (t == 1 && per == 1)
                continue; /* the baseline */
            result r;
            rc = measure(&b, t, per * t, d, &r);
            if (rc == 0)
                print_row(&r, &base);
            allocated |= rc == 0 && r.allocs > 0;
        }
    if (rc == 0)
        printf("max = rg_execute_desc.max_chunks (T or 2T), chunks = what the frame was cut into; speedup = wall of "
               "1 thread, 1 chunk / wall;\nefficiency = speedup / threads; cpu = process CPU time over all threads "
               "during the recording; allocs = the graph's\nhost allocations per frame (rg_allocator), 0 in steady "
               "state\n");
    if (rc == 0 && allocated) {
        fprintf(stderr, "graph_cpu --threads: the graph allocated in steady state\n");
        rc = 1;
    }
    bench_destroy(&b);
    return rc;
}
