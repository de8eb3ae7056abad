/* graph_cpu --redeclare: what a renderer pays that declares its frame
 * graph again every frame, against one that declares it once.
 *
 * Frames: the deferred demo's (bench_deferred.c; its draws skipped, so the
 * graph's own cost shows) and the scene demo's (demos/scene/scene_frame.c
 * with its own draws: it has no way to skip them), both into an offscreen
 * output of --size (256x256), on graphs of one queue (single_queue, the
 * scene's SSAO declared for graphics), so that every frame is one command
 * buffer.
 *
 * Paths, per frame:
 *   once          declared, compiled and placed at setup; each frame the
 *                 demo's per-frame update, rg_execute_batches into the
 *                 command buffer, rg_submit with a fence, and a wait for it;
 *   compile only  rg_graph_reset, declare, rg_compile (the same declaration
 *                 as the frame before: compile may reuse its plan);
 *   identical     rg_graph_reset, declare, rg_compile, rg_place, then as
 *                 once: the whole per-frame cost of re-declaring;
 *   toggled       as identical, but every other frame declares one more
 *                 pass, a debug view drawn over the output after tonemap
 *                 that samples a texture the frame made earlier (the
 *                 deferred frame's G-buffer normals, the scene's blurred
 *                 AO): a pass left out every other frame, which also
 *                 stretches that texture's lifetime and so changes what
 *                 aliasing can share. Its draw records nothing.
 * Each path has a graph and a demo renderer of its own (a renderer serves
 * the graph of its latest declaration only). rg_submit signals the graph's
 * timelines, which retire a reset's placement (rendergraph.h "Placement and
 * the GPU").
 *
 * Runs (--runs R, 9): a run measures every path of both frames, the paths
 * in an order rotated by one each run; a measurement is WARMUP frames,
 * then --frames F (30) timed ones (CLOCK_MONOTONIC around the F frames):
 * their mean is the run's figure, and the median over runs is reported,
 * with min..max and the spread (max - min) / median.
 *
 * Counted over the timed frames of all runs, per frame: the Vulkan objects
 * the graphs create and destroy, and their host allocations. The graphs
 * run on an rg_device of their own over the context's VkDevice, whose
 * get_instance_proc_addr hands out a vkGetDeviceProcAddr that wraps
 * vkCreate/vkDestroy of images, image views, buffers, semaphores, query
 * pools, events, and vkAllocateMemory/vkFreeMemory with counters (the
 * library loads every device function through it: base/device.c); its
 * rg_allocator counts alloc and realloc calls (the device's and its
 * graphs'). The setup's placements must have created objects through it,
 * else the run fails: zeros from a wrapper the library bypasses would
 * mean nothing. Also the ratio identical / (compile only + once): what
 * re-declaring costs over the least it could, a compile and a frame.
 */
#define _POSIX_C_SOURCE 199309L
#include "graph_cpu_redeclare.h"
#include "graph_cpu_stats.h"
#include "scene_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP 3u
#define SCENE_INDEX 120u              /* the scene's animation frame, every frame */

/* ------------------------------------------------ counted Vulkan objects */

/* The objects counted: kind, its Vulkan type and its create and destroy
 * functions (same shapes: device, info, allocator, out / device, object,
 * allocator). */
#define COUNTED_OBJECTS(X)                                                                                           \
    X(IMAGE, Image, CreateImage, DestroyImage, VkImageCreateInfo)                                                    \
    X(VIEW, ImageView, CreateImageView, DestroyImageView, VkImageViewCreateInfo)                                     \
    X(BUFFER, Buffer, CreateBuffer, DestroyBuffer, VkBufferCreateInfo)                                               \
    X(MEMORY, DeviceMemory, AllocateMemory, FreeMemory, VkMemoryAllocateInfo)                                        \
    X(SEMAPHORE, Semaphore, CreateSemaphore, DestroySemaphore, VkSemaphoreCreateInfo)                                \
    X(QUERY_POOL, QueryPool, CreateQueryPool, DestroyQueryPool, VkQueryPoolCreateInfo)                               \
    X(EVENT, Event, CreateEvent, DestroyEvent, VkEventCreateInfo)

#define KIND_ENUM(kind, type, create, destroy, info) KIND_##kind,
typedef enum object_kind { COUNTED_OBJECTS(KIND_ENUM) KIND_COUNT } object_kind;
#undef KIND_ENUM

static const char *const kind_keys[KIND_COUNT] = { "images", "views", "buffers", "memory", "semaphores",
                                                   "query_pools", "events" };

typedef struct vk_counts {
    uint64_t created[KIND_COUNT], destroyed[KIND_COUNT];
} vk_counts;

/* Global: one counted device per process. */
static vk_counts counted;
static PFN_vkGetDeviceProcAddr real_get_device_proc;

#define WRAPPERS(kind, type, create, destroy, info)                                                                  \
    static PFN_vk##create real_##create;                                                                             \
    static PFN_vk##destroy real_##destroy;                                                                           \
    static VKAPI_ATTR VkResult VKAPI_CALL counted_##create(VkDevice device, const info *ci,                           \
                                                           const VkAllocationCallbacks *a, Vk##type *out)            \
    {                                                                                                                \
        VkResult r = real_##create(device, ci, a, out);                                                              \
        if (r == VK_SUCCESS)                                                                                         \
            counted.created[KIND_##kind]++;                                                                          \
        return r;                                                                                                    \
    }                                                                                                                \
    static VKAPI_ATTR void VKAPI_CALL counted_##destroy(VkDevice device, Vk##type object,                            \
                                                        const VkAllocationCallbacks *a)                              \
    {                                                                                                                \
        if (object != VK_NULL_HANDLE)                                                                                \
            counted.destroyed[KIND_##kind]++;                                                                        \
        real_##destroy(device, object, a);                                                                           \
    }
COUNTED_OBJECTS(WRAPPERS)
#undef WRAPPERS

/* The device's functions, the counted ones swapped for their wrappers. */
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL counted_device_proc(VkDevice device, const char *name)
{
    PFN_vkVoidFunction real = real_get_device_proc(device, name);
#define SWAP(kind, type, create, destroy, info)                                                                      \
    if (real && !strcmp(name, "vk" #create)) {                                                                       \
        real_##create = (PFN_vk##create)real;                                                                        \
        return (PFN_vkVoidFunction)counted_##create;                                                                 \
    }                                                                                                                \
    if (real && !strcmp(name, "vk" #destroy)) {                                                                      \
        real_##destroy = (PFN_vk##destroy)real;                                                                      \
        return (PFN_vkVoidFunction)counted_##destroy;                                                                \
    }
    COUNTED_OBJECTS(SWAP)
#undef SWAP
    return real;
}

/* The loader's, but vkGetDeviceProcAddr is counted_device_proc. */
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL counted_instance_proc(VkInstance instance, const char *name)
{
    PFN_vkVoidFunction real = vkGetInstanceProcAddr(instance, name);
    if (!real || strcmp(name, "vkGetDeviceProcAddr") != 0)
        return real;
    real_get_device_proc = (PFN_vkGetDeviceProcAddr)real;
    return (PFN_vkVoidFunction)counted_device_proc;
}

/* An rg_device over the context's VkDevice with the counted functions and
 * allocator: the features the context's graph device reports enabled
 * (timeline semaphores always), its tile profile, the graphics queue. */
static rg_device *counted_device_create(eng_context *ctx, const rg_allocator *allocator)
{
    rg_device_caps caps = rg_device_get_caps(eng_context_graph_device(ctx));
    VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT fold = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT,
        .multisampledRenderToSingleSampled = VK_TRUE };
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
        .dynamicRenderingLocalRead = VK_TRUE };
    VkPhysicalDeviceVulkan12Features v12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .timelineSemaphore = VK_TRUE };
    VkPhysicalDeviceVulkan13Features v13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = &v12, .dynamicRendering = VK_TRUE,
                                             .synchronization2 = VK_TRUE };
    void **tail = &v12.pNext;
    if (caps.local_read) {
        *tail = &local_read;
        tail = &local_read.pNext;
    }
    if (caps.msaa_to_single_sampled)
        *tail = &fold;
    rg_device_desc d = {
        .instance = eng_context_instance(ctx), .physical_device = eng_context_physical_device(ctx),
        .device = eng_context_device(ctx), .get_instance_proc_addr = counted_instance_proc,
        .enabled_features = &v13, .timeline_semaphore = true, .local_read = caps.local_read,
        .allocator = allocator, .tile_profile = caps.tile_profile,
        .queues[RG_QUEUE_GRAPHICS] = { eng_context_queue(ctx), eng_context_queue_family(ctx) },
    };
    rg_device *device = NULL;
    return rg_device_create(&d, &device) == RG_SUCCESS ? device : NULL;
}

/* --------------------------------------------------------------- frames */

typedef enum frame_kind { FRAME_DEFERRED, FRAME_SCENE, FRAME_KIND_COUNT } frame_kind;
typedef enum path { PATH_ONCE, PATH_COMPILE, PATH_IDENTICAL, PATH_TOGGLED, PATH_COUNT } path;

static const char *const frame_names[FRAME_KIND_COUNT] = { "deferred", "scene" };
static const char *const path_names[PATH_COUNT] = { "once", "compile only", "redeclared identical",
                                                    "redeclared toggled" };
static const char *const path_keys[PATH_COUNT] = { "once", "compile_only", "redeclared_identical",
                                                   "redeclared_toggled" };
static const char *const debug_view_of[FRAME_KIND_COUNT] = { "gbuffer normal", "ao" };

typedef struct bench {
    eng_context *ctx;
    VkDevice dev;
    recorder *rec;
    VkFence fence;
    VkExtent2D extent;
    gc_counting allocs;               /* the counted device's and its graphs' */
    rg_allocator allocator;
    rg_device *device;                /* counted */
} bench;

/* One path of one frame: its renderer, its graph, the frames it ran. */
typedef struct subject {
    frame_kind kind;
    path path;
    bench_deferred deferred;          /* FRAME_DEFERRED */
    bool deferred_made;
    scene_renderer *scene;            /* FRAME_SCENE, with its output */
    eng_image *output;
    rg_graph *graph;
    uint64_t frames;
    uint32_t commands;                /* recorded, of the frame without the debug view */
    /* Over the timed frames of every run. */
    double ns[GC_MAX_RUNS];           /* per run: mean ns per frame */
    vk_counts objects;
    uint64_t host_allocs;
} subject;

/* The toggled pass: `shown` sampled and drawn over the output. */
static void declare_debug_view(rg_graph *g, rg_texture output, rg_texture shown)
{
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "debug view", .color_count = 1,
        .colors = { { .texture = output, .load = VK_ATTACHMENT_LOAD_OP_LOAD,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "debug view", .kind = RG_COMMAND_DRAW,
                                    .accesses = &(rg_access){ .texture = shown, .usage = RG_USAGE_SAMPLED_FRAGMENT,
                                                              .whole = true },
                                    .access_count = 1, .record = gc_record_nothing });
    rg_end_rendering(g);
}

static void declare(const bench *b, subject *s, bool debug_view)
{
    rg_texture output, shown;
    if (s->kind == FRAME_DEFERRED) {
        deferred_frame_textures t;
        output = bench_deferred_declare(&s->deferred, s->graph, &t);
        shown = t.normal;
    } else {
        scene_frame_textures t;
        output = bench_output_import(s->graph, s->output, b->extent);
        scene_frame_declare(s->scene, s->graph, output, false, &t);
        shown = t.ao;
    }
    if (debug_view)
        declare_debug_view(s->graph, output, shown);
}

static bool graph_failed(const subject *s, const char *what)
{
    fprintf(stderr, "graph_cpu --redeclare: %s, %s: %s: %s\n", frame_names[s->kind], path_names[s->path], what,
            rg_graph_error_message(s->graph));
    return false;
}

/* The demo's per-frame update, the frame recorded, submitted and waited
 * for. */
static bool submit_frame(bench *b, subject *s)
{
    eng_result er = s->kind == FRAME_DEFERRED ? deferred_renderer_begin_frame(s->deferred.renderer, 0)
                                              : scene_frame_update(s->scene, s->graph, 0, SCENE_INDEX);
    if (er != ENG_SUCCESS) {
        fprintf(stderr, "graph_cpu --redeclare: %s frame update: %s\n", frame_names[s->kind], eng_last_error());
        return false;
    }
    VkCommandBuffer cmd = b->rec->cmd;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    if (vkResetCommandBuffer(cmd, 0) != VK_SUCCESS || vkBeginCommandBuffer(cmd, &bi) != VK_SUCCESS) {
        fprintf(stderr, "graph_cpu --redeclare: cannot begin the command buffer\n");
        return false;
    }
    rg_submit_plan plan = { 0 };
    rg_result r = rg_execute_batches(s->graph, &cmd, &plan);
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS || r != RG_SUCCESS)
        return graph_failed(s, "execute");
    if (rg_submit(s->graph, &plan, &(rg_submit_desc){ .fence = b->fence }) != RG_SUCCESS)
        return graph_failed(s, "submit");
    return vkWaitForFences(b->dev, 1, &b->fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS &&
           vkResetFences(b->dev, 1, &b->fence) == VK_SUCCESS;
}

/* One frame of the subject's path. */
static bool step(bench *b, subject *s)
{
    bool debug_view = s->path == PATH_TOGGLED && s->frames % 2 == 1;
    s->frames++;
    if (s->path != PATH_ONCE) {
        if (rg_graph_reset(s->graph) != RG_SUCCESS)
            return graph_failed(s, "reset");
        declare(b, s, debug_view);
        if (rg_compile(s->graph) != RG_SUCCESS)
            return graph_failed(s, "compile");
        if (s->path == PATH_COMPILE)
            return true;
        if (rg_place(s->graph) != RG_SUCCESS)
            return graph_failed(s, "place");
    }
    return submit_frame(b, s);
}

static void subject_destroy(subject *s)
{
    /* Waited for by the caller; a failed frame may have gone unsubmitted. */
    if (s->graph)
        rg_graph_set_retire_point(s->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(s->graph);
    if (s->deferred_made)
        bench_deferred_destroy(&s->deferred);
    scene_renderer_destroy(s->scene);
    eng_image_destroy(s->output);
    memset(s, 0, sizeof *s);
}

/* The subject's renderer and graph (the once path's frame declared,
 * compiled and placed), then one frame of its path, whose execute makes
 * the pipelines. ENG_ERROR_UNSUPPORTED: the device cannot run the frame. */
static eng_result subject_create(bench *b, frame_kind kind, path p, subject *s)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->path = p;
    eng_result er;
    if (kind == FRAME_DEFERRED) {
        er = bench_deferred_create(b->ctx, NULL, b->extent, true, &s->deferred);
        s->deferred_made = er == ENG_SUCCESS;
    } else {
        er = scene_renderer_create(&(scene_renderer_desc){ .ctx = b->ctx }, &s->scene);
        if (er == ENG_SUCCESS)
            er = eng_image_create(b->ctx,
                                  &(eng_image_desc){ .name = "scene output", .format = VK_FORMAT_R8G8B8A8_SRGB,
                                                     .width = b->extent.width, .height = b->extent.height,
                                                     .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT },
                                  &s->output);
    }
    if (er != ENG_SUCCESS)
        return er;
    if (rg_graph_create(&(rg_graph_desc){ .name = path_names[p], .device = b->device, .single_queue = true },
                        &s->graph) != RG_SUCCESS)
        return ENG_ERROR_OUT_OF_MEMORY;
    if (p == PATH_ONCE) {
        declare(b, s, false);
        if (rg_compile(s->graph) != RG_SUCCESS || rg_place(s->graph) != RG_SUCCESS) {
            graph_failed(s, "setup");
            return ENG_ERROR_VULKAN;
        }
    }
    if (!step(b, s))
        return ENG_ERROR_VULKAN;
    const rg_command *order = NULL;
    s->commands = rg_execution_order(s->graph, &order);
    return ENG_SUCCESS;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One measurement: warm-up, then the timed frames (their mean into run r,
 * their objects and allocations added up). */
static int measure(bench *b, subject *s, uint32_t frames, uint32_t r)
{
    for (uint32_t f = 0; f < WARMUP; f++)
        if (!step(b, s))
            return 1;
    vk_counts before = counted;
    unsigned long allocs = atomic_load(&b->allocs.calls);
    double t0 = now_ns();
    for (uint32_t f = 0; f < frames; f++)
        if (!step(b, s))
            return 1;
    s->ns[r] = (now_ns() - t0) / frames;
    for (uint32_t k = 0; k < KIND_COUNT; k++) {
        s->objects.created[k] += counted.created[k] - before.created[k];
        s->objects.destroyed[k] += counted.destroyed[k] - before.destroyed[k];
    }
    s->host_allocs += atomic_load(&b->allocs.calls) - allocs;
    return 0;
}

/* -------------------------------------------------------------- report */

static uint64_t sum(const uint64_t *v)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < KIND_COUNT; k++)
        n += v[k];
    return n;
}

/* identical / (compile only + once), of the medians. */
static double ratio_of(const subject *s, uint32_t runs)
{
    return gc_spread_of(s[PATH_IDENTICAL].ns, runs).median /
           (gc_spread_of(s[PATH_COMPILE].ns, runs).median + gc_spread_of(s[PATH_ONCE].ns, runs).median);
}

static void print_frame(const bench *b, const subject *s, uint32_t runs, uint32_t frames)
{
    double timed = (double)runs * frames;
    printf("\n%s %ux%u: %u commands; toggled: a \"debug view\" pass sampling \"%s\" over the output, every other "
           "frame\n",
           frame_names[s->kind], b->extent.width, b->extent.height, s->commands, debug_view_of[s->kind]);
    printf("%-21s %11s %-21s %6s | %7s %9s %-25s %7s | %6s\n", "path", "ns/frame", "min..max", "spread", "created",
           "destroyed", "img/view/buf/mem/sem/q/ev", "vkAlloc", "host");
    for (uint32_t p = 0; p < PATH_COUNT; p++) {
        const subject *x = &s[p];
        gc_spread t = gc_spread_of(x->ns, runs);
        char range[48], kinds[KIND_COUNT * 12] = "";
        snprintf(range, sizeof range, "%.0f..%.0f", t.min, t.max);
        for (uint32_t k = 0; k < KIND_COUNT; k++)
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%.3g", k ? "/" : "",
                     (double)x->objects.created[k] / timed);
        printf("%-21s %11.0f %-21s %5.1f%% | %7.2f %9.2f %-25s %7.2f | %6.1f\n", path_names[p], t.median, range,
               t.relative, (double)sum(x->objects.created) / timed, (double)sum(x->objects.destroyed) / timed, kinds,
               (double)x->objects.created[KIND_MEMORY] / timed, (double)x->host_allocs / timed);
    }
    printf("ratio redeclared identical / (compile only + once) = %.3f (target <= 1.5)\n", ratio_of(s, runs));
}

static void json_frame(FILE *j, const bench *b, const subject *s, uint32_t runs, uint32_t frames, bool first)
{
    double timed = (double)runs * frames;
    fprintf(j, "%s{\"frame\":\"%s\",\"width\":%u,\"height\":%u,\"commands\":%u,\"toggled_pass\":\"debug view\","
               "\"toggled_pass_samples\":\"%s\",\"paths\":[",
            first ? "" : ",", frame_names[s->kind], b->extent.width, b->extent.height, s->commands,
            debug_view_of[s->kind]);
    for (uint32_t p = 0; p < PATH_COUNT; p++) {
        const subject *x = &s[p];
        gc_spread t = gc_spread_of(x->ns, runs);
        fprintf(j, "%s{\"path\":\"%s\",\"ns_per_frame\":{\"median\":%.1f,\"min\":%.1f,\"max\":%.1f,"
                   "\"spread_percent\":%.2f,\"runs\":[",
                p ? "," : "", path_keys[p], t.median, t.min, t.max, t.relative);
        for (uint32_t r = 0; r < runs; r++)
            fprintf(j, "%s%.1f", r ? "," : "", x->ns[r]);
        fprintf(j, "]},\"vk_created_per_frame\":%.4f,\"vk_destroyed_per_frame\":%.4f,"
                   "\"vk_allocate_memory_per_frame\":%.4f,\"host_allocs_per_frame\":%.4f,\"created_per_frame\":{",
                (double)sum(x->objects.created) / timed, (double)sum(x->objects.destroyed) / timed,
                (double)x->objects.created[KIND_MEMORY] / timed, (double)x->host_allocs / timed);
        for (uint32_t k = 0; k < KIND_COUNT; k++)
            fprintf(j, "%s\"%s\":%.4f", k ? "," : "", kind_keys[k], (double)x->objects.created[k] / timed);
        fprintf(j, "},\"destroyed_per_frame\":{");
        for (uint32_t k = 0; k < KIND_COUNT; k++)
            fprintf(j, "%s\"%s\":%.4f", k ? "," : "", kind_keys[k], (double)x->objects.destroyed[k] / timed);
        fprintf(j, "}}");
    }
    fprintf(j, "],\"ratio_identical_over_compile_plus_once\":%.4f}", ratio_of(s, runs));
}

static int write_json(const bench *b, const graph_cpu_redeclare_desc *d, subject (*s)[PATH_COUNT],
                      const bool *measured)
{
    FILE *j = fopen(d->json_path, "w");
    if (!j) {
        fprintf(stderr, "graph_cpu --redeclare: cannot write %s\n", d->json_path);
        return 1;
    }
    fprintf(j, "{\"benchmark\":\"graph_cpu --redeclare\",\"device\":\"%s\",\"frames\":%u,\"runs\":%u,\"warmup\":%u,"
               "\"validation\":%s,\"results\":[",
            eng_context_properties(b->ctx)->deviceName, d->frames, d->runs, WARMUP, d->validation ? "true" : "false");
    for (uint32_t f = 0, first = 1; f < FRAME_KIND_COUNT; f++)
        if (measured[f]) {
            json_frame(j, b, s[f], d->runs, d->frames, first);
            first = 0;
        }
    fprintf(j, "]}\n");
    return fclose(j) == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------- run */

int graph_cpu_redeclare(eng_context *ctx, recorder *rec, const graph_cpu_redeclare_desc *d)
{
    static subject subjects[FRAME_KIND_COUNT][PATH_COUNT];
    bool measured[FRAME_KIND_COUNT] = { false };
    bench b = { .ctx = ctx, .dev = eng_context_device(ctx), .rec = rec, .extent = d->extent };
    atomic_init(&b.allocs.calls, 0);
    b.allocator = gc_counting_allocator(&b.allocs);
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    int rc = vkCreateFence(b.dev, &fci, NULL, &b.fence) == VK_SUCCESS ? 0 : 1;
    if (rc == 0 && !(b.device = counted_device_create(ctx, &b.allocator))) {
        fprintf(stderr, "graph_cpu --redeclare: no counted rg_device over the context's device\n");
        rc = 1;
    }
    for (uint32_t f = 0; f < FRAME_KIND_COUNT && rc == 0; f++) {
        eng_result er = ENG_SUCCESS;
        for (uint32_t p = 0; p < PATH_COUNT && er == ENG_SUCCESS; p++)
            er = subject_create(&b, (frame_kind)f, (path)p, &subjects[f][p]);
        measured[f] = er == ENG_SUCCESS;
        if (er == ENG_ERROR_UNSUPPORTED) {
            printf("note: the %s frame is skipped: %s\n", frame_names[f], eng_last_error());
        } else if (er != ENG_SUCCESS) {
            fprintf(stderr, "graph_cpu --redeclare: %s frame setup: %s\n", frame_names[f], eng_last_error());
            rc = 1;
        }
    }
    /* The setup placed graphs: a counter that saw nothing is not wired
     * in, and its zeros would say nothing. */
    uint64_t setup_objects = sum(counted.created);
    if (rc == 0 && setup_objects == 0) {
        fprintf(stderr, "graph_cpu --redeclare: the setup created no Vulkan object through the counted "
                        "vkGetDeviceProcAddr: the counts would be wrong\n");
        rc = 1;
    }
    if (rc == 0)
        printf("re-declared frames on %s: per path and run %u warm-up and %u timed frames, the median over %u run%s "
               "of their mean%s;\nthe setup created %llu Vulkan objects through the counted device\n",
               eng_context_properties(ctx)->deviceName, WARMUP, d->frames, d->runs, d->runs == 1 ? "" : "s",
               d->validation ? "; under validation (times are not meaningful)" : "",
               (unsigned long long)setup_objects);
    for (uint32_t r = 0; r < d->runs && rc == 0; r++) /* run r starts at path r mod PATH_COUNT */
        for (uint32_t f = 0; f < FRAME_KIND_COUNT && rc == 0; f++)
            for (uint32_t k = 0; k < PATH_COUNT && measured[f] && rc == 0; k++)
                rc = measure(&b, &subjects[f][(r + k) % PATH_COUNT], d->frames, r);
    for (uint32_t f = 0; f < FRAME_KIND_COUNT && rc == 0; f++)
        if (measured[f])
            print_frame(&b, subjects[f], d->runs, d->frames);
    if (rc == 0)
        printf("\nns/frame: the median over runs of the mean per frame (min..max over runs; spread = (max - min) / "
               "median); created,\ndestroyed: the graphs' Vulkan objects per timed frame (img/view/buf/mem/sem/q/ev: "
               "images, image views, buffers,\nvkAllocateMemory, semaphores, query pools, events created); vkAlloc "
               "= vkAllocateMemory calls; host = rg_allocator\nalloc and realloc calls of the device and graph, per "
               "frame\n");
    if (rc == 0 && d->json_path)
        rc = write_json(&b, d, subjects, measured);
    eng_context_wait_idle(ctx);
    for (uint32_t f = 0; f < FRAME_KIND_COUNT; f++)
        for (uint32_t p = 0; p < PATH_COUNT; p++)
            subject_destroy(&subjects[f][p]);
    rg_device_destroy(b.device);
    if (b.fence)
        vkDestroyFence(b.dev, b.fence, NULL);
    return rc;
}
