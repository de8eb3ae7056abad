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
 * Configurations: the baseline, T = 1 thread and M = 1 chunk (the whole
 * frame in one command buffer, on the calling thread), then per thread
 * count T of --threads M = T and M = 2T chunks (rg_execute_desc
 * max_chunks). A T above the cores this process may run on is skipped,
 * with a printed note: on fewer cores than threads the row measures the
 * scheduler.
 *
 * Runs (--runs R, 5 by default): one run measures every configuration
 * once; the R runs follow one another, interleaved (run 1 all
 * configurations, then run 2 all of them, ...), and run r starts at
 * configuration r mod count (the order rotated, so no configuration is
 * always first), so that a machine
 * whose speed drifts during the program moves every configuration alike.
 *
 * One measurement (one configuration in one run): the calling thread is
 * confined to the first T cores of those the process may run on
 * (Linux: sched_setaffinity on the calling thread; the mask the program
 * started with gives the cores), then rg_workers with T threads is
 * created: its T - 1 threads inherit that mask, so the configuration's T
 * recording threads run on T cores of their own, the baseline on exactly
 * one (pinned). The threads are confined to the set, not each pinned to
 * one core of it: rg_workers' threads are the library's own and cannot be
 * pinned from outside; the scheduler places them within the T cores.
 * Threads the process started earlier (the driver's, the validation
 * layer's) keep the whole mask. After the measurement the workers are
 * destroyed and the calling thread gets its whole mask back. Elsewhere
 * than Linux nothing is pinned (said in the output). Per frame the chunk
 * command buffers' pools are reset (vkResetCommandPool: never freed,
 * never submitted, so nothing to wait for), then timed: rg_execute_begin
 * (max_chunks M), vkBeginCommandBuffer per chunk, rg_workers_execute,
 * vkEndCommandBuffer per chunk, rg_execute_end. Wall time
 * (CLOCK_MONOTONIC) and the process's CPU time over all threads
 * (CLOCK_PROCESS_CPUTIME_ID: the workers wait on a condition variable, so
 * idle threads add nothing): the medians over the frames after WARMUP
 * warm-up frames are the measurement.
 *
 * Reported per configuration, over the runs: the median, min..max and
 * relative spread ((max - min) / median) of the wall and CPU times; the
 * speedup computed per run (that run's baseline wall time / that run's
 * configuration's), its median and min..max, and the CPU-time ratio
 * (configuration / baseline, per run) alike. --json FILE writes the same
 * per configuration (median, min, max, spread and every run's value;
 * graph_cpu_stats.c has the helpers). The graph's host allocations go
 * through a counting rg_allocator (rg_graph_desc.allocator): allocations
 * per timed frame, the most of any run, which must be 0. With
 * --validation the last frame of each configuration in the last run is
 * also submitted (and waited for) under synchronization validation, which
 * must stay silent.
 */
#define _POSIX_C_SOURCE 199309L
#include "graph_cpu_stats.h"
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

typedef struct bench {
    eng_context *ctx;
    VkDevice dev;
    eng_pipeline *pipelines[PIPELINES];
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[PIPELINES];
    eng_buffer *colors;
    rg_graph *graph;
    gc_counting allocs;               /* the graph's host allocations */
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
    rg_allocator alloc = gc_counting_allocator(&b->allocs);
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

#define MAX_CONFIGS (1u + 2u * GRAPH_CPU_MAX_THREAD_COUNTS)

/* One configuration (T threads, M = max_chunks) and its runs. */
typedef struct config {
    uint32_t threads, max_chunks, chunks;
    double wall[GC_MAX_RUNS], cpu[GC_MAX_RUNS];     /* per run: medians over the frames, ms */
    double speedup[GC_MAX_RUNS], cpu_ratio[GC_MAX_RUNS]; /* per run, against the same run's baseline */
    double allocs;                    /* per timed frame, the most of any run */
} config;

/* One run of one configuration: confined to its cores, rg_workers with its
 * threads, warm-up, the timed frames (their medians into run r), and with
 * submit (--validation, the last run) one more frame, submitted. */
static int measure(bench *b, const graph_cpu_threads_desc *d, const gc_cores *cores, config *c, uint32_t r,
                   bool submit)
{
    if (cores->pinning && !gc_cores_confine(c->threads)) {
        fprintf(stderr, "graph_cpu --threads: cannot confine the recording to %u cores\n", c->threads);
        return 1;
    }
    rg_workers *w = NULL;
    if (rg_workers_create(&(rg_workers_desc){ .thread_count = c->threads }, &w) != RG_SUCCESS) {
        fprintf(stderr, "graph_cpu --threads: cannot start %u threads\n", c->threads);
        if (cores->pinning)
            gc_cores_confine(0);
        return 1;
    }
    double *wall = calloc(d->frames, sizeof *wall), *cpu = calloc(d->frames, sizeof *cpu);
    int rc = wall && cpu ? 0 : 1;
    for (uint32_t f = 0; f < WARMUP && rc == 0; f++)
        rc = record_frame(b, w, c->max_chunks, false, &wall[0], &cpu[0], &c->chunks) ? 0 : 1;
    unsigned long before = atomic_load(&b->allocs.calls);
    for (uint32_t f = 0; f < d->frames && rc == 0; f++)
        rc = record_frame(b, w, c->max_chunks, false, &wall[f], &cpu[f], &c->chunks) ? 0 : 1;
    double allocs = (double)(atomic_load(&b->allocs.calls) - before) / d->frames;
    if (allocs > c->allocs)
        c->allocs = allocs;
    if (rc == 0 && submit) {
        double ignored_wall, ignored_cpu;
        uint32_t ignored_chunks;
        rc = record_frame(b, w, c->max_chunks, true, &ignored_wall, &ignored_cpu, &ignored_chunks) ? 0 : 1;
    }
    if (rc == 0) {
        c->wall[r] = gc_median(wall, d->frames);
        c->cpu[r] = gc_median(cpu, d->frames);
    } else {
        fprintf(stderr, "graph_cpu --threads: recording on %u threads failed\n", c->threads);
    }
    free(wall);
    free(cpu);
    rg_workers_destroy(w);
    if (cores->pinning && !gc_cores_confine(0)) {
        fprintf(stderr, "graph_cpu --threads: cannot restore the process's cores\n");
        rc = 1;
    }
    return rc;
}

static void print_row(const config *c, uint32_t runs)
{
    gc_spread w = gc_spread_of(c->wall, runs), u = gc_spread_of(c->cpu, runs);
    gc_spread s = gc_spread_of(c->speedup, runs), q = gc_spread_of(c->cpu_ratio, runs);
    printf("%7u %4u %6u | %8.3f %7.3f..%-7.3f %5.1f%% | %8.3f %7.3f..%-7.3f %5.1f%% | %6.2f %5.2f..%-5.2f %5.2f | "
           "%5.2f %4.2f..%-4.2f | %6.1f\n",
           c->threads, c->max_chunks, c->chunks, w.median, w.min, w.max, w.relative, u.median, u.min, u.max,
           u.relative, s.median, s.min, s.max, s.median / c->threads, q.median, q.min, q.max, c->allocs);
}

static void json_values(FILE *j, const char *name, const double *v, uint32_t runs)
{
    gc_spread s = gc_spread_of(v, runs);
    fprintf(j, ",\"%s\":{\"median\":%.4f,\"min\":%.4f,\"max\":%.4f,\"spread_percent\":%.2f,\"runs\":[", name,
            s.median, s.min, s.max, s.relative);
    for (uint32_t r = 0; r < runs; r++)
        fprintf(j, "%s%.4f", r ? "," : "", v[r]);
    fprintf(j, "]}");
}

static int write_json(const char *path, const char *device, const bench *b, const graph_cpu_threads_desc *d,
                      const gc_cores *cores, const config *configs, uint32_t count)
{
    FILE *j = fopen(path, "w");
    if (!j) {
        fprintf(stderr, "graph_cpu --threads: cannot write %s\n", path);
        return 1;
    }
    fprintf(j, "{\"benchmark\":\"graph_cpu --threads\",\"device\":\"%s\",\"draws\":%u,\"frames\":%u,\"warmup\":%u,"
               "\"runs\":%u,\"online_cores\":%u,\"usable_cores\":%u,\"pinned\":%s,\"validation\":%s,\"results\":[",
            device, b->draws_per_command * COMMANDS, d->frames, WARMUP, d->runs, cores->online, cores->usable,
            cores->pinning ? "true" : "false", d->validation ? "true" : "false");
    for (uint32_t i = 0; i < count; i++) {
        const config *c = &configs[i];
        fprintf(j, "%s{\"threads\":%u,\"max_chunks\":%u,\"chunks\":%u,\"allocs_per_frame\":%.2f", i ? "," : "",
                c->threads, c->max_chunks, c->chunks, c->allocs);
        json_values(j, "wall_ms", c->wall, d->runs);
        json_values(j, "cpu_ms", c->cpu, d->runs);
        json_values(j, "speedup", c->speedup, d->runs);
        json_values(j, "cpu_ratio", c->cpu_ratio, d->runs);
        fprintf(j, "}");
    }
    fprintf(j, "]}\n");
    return fclose(j) == 0 ? 0 : 1;
}

/* The configurations: the baseline (1 thread, 1 chunk) first, then every
 * T with M = T and M = 2T, T above the usable cores skipped (said so). */
static uint32_t make_configs(const graph_cpu_threads_desc *d, const gc_cores *cores, config *configs)
{
    uint32_t count = 0;
    configs[count++] = (config){ .threads = 1, .max_chunks = 1 };
    for (uint32_t i = 0; i < d->thread_count; i++) {
        uint32_t t = d->threads[i];
        if (cores->usable && t > cores->usable) {
            printf("note: %u threads skipped: more than the %u cores this process may run on\n", t, cores->usable);
            continue;
        }
        for (uint32_t per = 1; per <= 2; per++) {
            bool seen = false;
            for (uint32_t k = 0; k < count; k++)
                seen |= configs[k].threads == t && configs[k].max_chunks == per * t;
            if (!seen && count < MAX_CONFIGS)
                configs[count++] = (config){ .threads = t, .max_chunks = per * t };
        }
    }
    return count;
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
    gc_cores cores = gc_cores_init();
    printf("parallel recording on %s: a frame of %u draws in %u spans of %u commands (%u draws each: bind one of %u "
           "pipelines, bind a descriptor set, push constants, draw); median of %u frames after %u, %u run%s "
           "interleaved%s\n",
           props->deviceName, b.draws_per_command * COMMANDS, SPANS, COMMANDS_PER_SPAN, b.draws_per_command, PIPELINES,
           d->frames, WARMUP, d->runs, d->runs == 1 ? "" : "s",
           d->validation ? "; under validation (times are not meaningful)" : "");
    if (cores.pinning)
        printf("cores: %u online, %u usable by this process; a configuration of T threads records on the first T "
               "usable cores (its\nthreads confined to them, not one per core), the baseline on one\n",
               cores.online, cores.usable);
    else
        printf("cores: %u online (0: unknown); nothing pinned on this system\n", cores.online);
    static config configs[MAX_CONFIGS];
    uint32_t count = make_configs(d, &cores, configs);
    for (uint32_t r = 0; r < d->runs && rc == 0; r++) /* run r starts at configuration r mod count */
        for (uint32_t k = 0; k < count && rc == 0; k++)
            rc = measure(&b, d, &cores, &configs[(r + k) % count], r, d->validation && r + 1 == d->runs);
    bool allocated = false;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        for (uint32_t r = 0; r < d->runs; r++) {
            configs[i].speedup[r] = configs[0].wall[r] / configs[i].wall[r];
            configs[i].cpu_ratio[r] = configs[i].cpu[r] / configs[0].cpu[r];
        }
        allocated |= configs[i].allocs > 0;
    }
    if (rc == 0) {
        printf("%7s %4s %6s | %8s %-16s %6s | %8s %-16s %6s | %6s %-12s %5s | %5s %-10s | %6s\n", "threads", "max",
               "chunks", "wall ms", "min..max", "spread", "cpu ms", "min..max", "spread", "speedup", "min..max",
               "effic", "cpu x", "min..max", "allocs");
        for (uint32_t i = 0; i < count; i++)
            print_row(&configs[i], d->runs);
        printf("medians over %u runs (each a median over %u frames); spread = (max - min) / median over the runs; "
               "max = rg_execute_desc.max_chunks\n(T or 2T), chunks = what the frame was cut into; speedup = the "
               "run's wall time of 1 thread, 1 chunk / the row's, per run;\neffic = median speedup / threads; cpu = "
               "process CPU time over all threads during the recording; cpu x = the row's / the\nbaseline's, per "
               "run; allocs = the graph's host allocations per frame (rg_allocator), 0 in steady state\n",
               d->runs, d->frames);
    }
    if (rc == 0 && d->json_path)
        rc = write_json(d->json_path, props->deviceName, &b, d, &cores, configs, count);
    if (rc == 0 && allocated) {
        fprintf(stderr, "graph_cpu --threads: the graph allocated in steady state\n");
        rc = 1;
    }
    bench_destroy(&b);
    return rc;
}
