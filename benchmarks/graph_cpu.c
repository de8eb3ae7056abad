/* graph_cpu: what the render graph costs the CPU per command, side by side
 * with recording the same frame by hand.
 *
 * Frames:
 *   generated  passes of k draws (each pass renders into one of four 64x64
 *              targets and samples the one before), from about 10 to
 *              10,000 commands;
 *   deferred   the deferred demo's frame (demos/deferred/deferred_frame.c:
 *              G-buffer, lighting, bloom chain, tonemap), twice: with its
 *              draw callbacks replaced by ones that record nothing (the
 *              graph's own cost, like the generated frames), and with the
 *              demo's own draws (descriptor sets, pipelines, 80 indexed
 *              draws), which both sides record alike.
 *
 * Per frame:
 *   compile   declare + rg_compile on a fresh graph (its first frame: the
 *             arrays' pages are new to the process, which shows at large N);
 *   steady    what a frame loop pays: rg_graph_reset, declare a changed
 *             frame (one more pass) and compile, on a graph already grown;
 *   graph     rg_execute into a command buffer (after the first execute,
 *             which places memory);
 *   hand      the same commands recorded by hand: the barriers the graph
 *             computed and its spans' rendering infos, flattened once into
 *             plain arrays (bench_frame.c), replayed with
 *             vkCmdPipelineBarrier2 / vkCmdBeginRendering / the callbacks;
 *   ratio     graph / hand: what the graph's execute costs over the least
 *             a renderer could do with the same barriers.
 * graph and hand time only the recording (between vkBeginCommandBuffer and
 * vkEndCommandBuffer), alternating, averaged over a batch of recordings;
 * the minimum over --reps batches. Nanoseconds per declared command.
 * Before timing, the hand-written frame is checked against the graph's:
 * the same number of vkCmdPipelineBarrier2 calls, image barriers and memory
 * barriers (else the run fails); with --validation both are also submitted
 * under synchronization validation, which must stay silent.
 *
 *   graph_cpu [--draws K] [--sizes N,...] [--reps R] [--deferred WxH|none]
 *             [--json FILE] [--validation] [--ground PNG] [--no-device]
 *   graph_cpu --once N      one compile + one graph execute + one hand
 *                           recording of a generated frame of N commands,
 *                           for valgrind --tool=callgrind (instruction
 *                           counts); --once deferred for the deferred frame
 *   graph_cpu --threads T,... [--frame-draws N] [--frames F] [--runs R]
 *             [--json FILE] [--validation]
 *                           a frame of N draws recorded on T threads, every
 *                           configuration measured in R interleaved runs
 *                           (5; 1 to 100), median and spread over them
 *                           (graph_cpu_threads.c says how); nothing else
 *   graph_cpu --redeclare [--frames F] [--runs R] [--size WxH] [--json FILE]
 *             [--validation]
 *                           a frame graph re-declared every frame against
 *                           one declared once: the deferred and the scene
 *                           demos' frames (WxH, 256x256), each by four
 *                           paths: once (declared, compiled and placed at
 *                           setup; per frame execute, rg_submit, wait),
 *                           compile only (reset, declare, compile),
 *                           redeclared identical (reset, declare, compile,
 *                           place, execute, submit, wait) and redeclared
 *                           toggled (the same with a debug-view pass left
 *                           out every other frame); per path the median
 *                           over R runs (9) of the mean ns per frame over F
 *                           frames (30), the Vulkan objects the graph
 *                           creates and destroys and its vkAllocateMemory
 *                           calls (through a counting vkGetDeviceProcAddr)
 *                           and host allocations (a counting rg_allocator)
 *                           per frame, and the ratio redeclared identical /
 *                           (compile only + once); graph_cpu_redeclare.c
 *                           says how; nothing else
 */
#include "bench_context.h"
#include "graph_cpu.h"
#include "graph_cpu_redeclare.h"
#include "graph_cpu_stats.h"
#include "graph_cpu_threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 16
#define MAX_ROWS (MAX_SIZES + 2)


static void print_row(const row *r)
{
    char graph[32] = "-", hand[32] = "-", ratio[32] = "-";
    if (r->graph >= 0) {
        snprintf(graph, sizeof graph, "%.1f", r->graph);
        snprintf(hand, sizeof hand, "%.1f", r->hand);
        snprintf(ratio, sizeof ratio, "%.2f", r->graph / r->hand);
    }
    printf("%-34s %8u %9.0f %9.0f %9s %9s %7s %6u %7u %6u %5s\n", r->frame, r->commands, r->compile, r->steady,
           graph, hand, ratio, r->counts.barrier_calls, r->counts.image_barriers, r->nodes,
           r->validated ? "yes" : "-");
}

static void json_row(FILE *j, const row *r, bool first)
{
    fprintf(j,
            "%s{\"frame\":\"%s\",\"commands\":%u,\"nodes\":%u,\"compile_ns_per_cmd\":%.2f,"
            "\"steady_ns_per_cmd\":%.2f",
            first ? "" : ",", r->frame, r->commands, r->nodes, r->compile, r->steady);
    if (r->graph >= 0)
        fprintf(j,
                ",\"graph_execute_ns_per_cmd\":%.2f,\"hand_ns_per_cmd\":%.2f,\"ratio\":%.4f,"
                "\"barrier_calls\":%u,\"image_barriers\":%u,\"memory_barriers\":%u,\"spans\":%u,"
                "\"callbacks\":%u,\"validated\":%s",
                r->graph, r->hand, r->graph / r->hand, r->counts.barrier_calls, r->counts.image_barriers,
                r->counts.memory_barriers, r->counts.spans, r->counts.calls, r->validated ? "true" : "false");
    else
        fprintf(j, ",\"graph_execute_ns_per_cmd\":null,\"hand_ns_per_cmd\":null,\"ratio\":null");
    fprintf(j, "}");
}

/* Closes the recorder and the context; 1 where validation said anything,
 * else rc. */
static int finish(eng_context *ctx, recorder *rec, bool validation, int rc)
{
    gc_recorder_close(rec);
    return bench_context_finish(ctx, "graph_cpu", validation, rc);
}

static int usage(void)
{
    fprintf(stderr, "usage: graph_cpu [--draws K] [--sizes N,...] [--reps R] [--deferred WxH|none] [--json FILE]\n"
                    "                 [--validation] [--ground PNG] [--no-device] [--once N|deferred]\n"
                    "       graph_cpu --threads T,... [--frame-draws N] [--frames F] [--runs R] [--json FILE]\n"
                    "                 [--validation]\n"
                    "       graph_cpu --redeclare [--frames F] [--runs R] [--size WxH] [--json FILE] [--validation]\n");
    return 2;
}

int main(int argc, char **argv)
{
    options o = { .draws = 8, .reps = 11 };
    uint32_t sizes[MAX_SIZES] = { 10, 100, 1000, 10000 };
    uint32_t size_count = 4, once = 0;
    bool device = true, once_deferred = false, deferred = true;
    VkExtent2D deferred_extent = { 1920, 1080 };
    const char *json_path = NULL;
    uint32_t threads[GRAPH_CPU_MAX_THREAD_COUNTS];
    graph_cpu_threads_desc td = { .threads = threads, .draws = 10000 };
    bool redeclare = false;
    VkExtent2D redeclare_extent = { 256, 256 };
    uint32_t frames = 0, runs = 0;    /* 0: the mode's default */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--draws") && i + 1 < argc) {
            o.draws = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            o.reps = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--once") && i + 1 < argc) {
            if (!strcmp(argv[++i], "deferred"))
                once_deferred = true;
            else if ((once = (uint32_t)atoi(argv[i])) == 0)
                return usage();
        } else if (!strcmp(argv[i], "--no-device")) {
            device = false;
        } else if (!strcmp(argv[i], "--validation")) {
            o.validation = true;
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            json_path = argv[++i];
        } else if (!strcmp(argv[i], "--ground") && i + 1 < argc) {
            o.ground = argv[++i];
        } else if (!strcmp(argv[i], "--deferred") && i + 1 < argc) {
            if (!strcmp(argv[++i], "none"))
                deferred = false;
            else if (sscanf(argv[i], "%ux%u", &deferred_extent.width, &deferred_extent.height) != 2 ||
                     !deferred_extent.width || !deferred_extent.height)
                return usage();
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            for (char *t = strtok(argv[++i], ","); t && td.thread_count < GRAPH_CPU_MAX_THREAD_COUNTS; t = strtok(NULL, ","))
                if ((threads[td.thread_count++] = (uint32_t)atoi(t)) == 0 || threads[td.thread_count - 1] > 64)
                    return usage();
            if (td.thread_count == 0)
                return usage();
        } else if (!strcmp(argv[i], "--frame-draws") && i + 1 < argc) {
            if ((td.draws = (uint32_t)atoi(argv[++i])) == 0)
                return usage();
        } else if (!strcmp(argv[i], "--redeclare")) {
            redeclare = true;
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%ux%u", &redeclare_extent.width, &redeclare_extent.height) != 2 ||
                !redeclare_extent.width || !redeclare_extent.height)
                return usage();
        } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            if ((frames = (uint32_t)atoi(argv[++i])) == 0)
                return usage();
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            int r = atoi(argv[++i]);
            if (r < 1 || r > (int)GC_MAX_RUNS)
                return usage();
            runs = (uint32_t)r;
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            size_count = 0;
            for (char *t = strtok(argv[++i], ","); t && size_count < MAX_SIZES; t = strtok(NULL, ","))
                if ((sizes[size_count++] = (uint32_t)atoi(t)) == 0)
                    return usage();
            if (size_count == 0)
                return usage();
        } else {
            return usage();
        }
    }
    if (o.draws == 0 || o.reps == 0) {
        fprintf(stderr, "graph_cpu: --draws and --reps must be positive\n");
        return 2;
    }
    eng_context *ctx = NULL;
    recorder rec = { 0 };
    if (device) {
        eng_result r = eng_context_create(&(eng_context_desc){ .app_name = "graph_cpu", .validation = o.validation },
                                          &ctx);
        if (r != ENG_SUCCESS || !gc_recorder_open(ctx, &rec)) {
            fprintf(stderr, "graph_cpu: no device (%s); compile only\n", eng_last_error());
            gc_recorder_close(&rec);
            eng_context_destroy(ctx);
            ctx = NULL;
            /* The validated side-by-side run needs a device: 77 ("skipped"
             * to CTest) unless one is required. */
            if (o.validation)
                return bench_device_required() ? 1 : 77;
        }
    }
    if (td.thread_count || redeclare) {
        /* --threads, --redeclare: that table alone. */
        int mrc = 1;
        if (!ctx)
            fprintf(stderr, "graph_cpu %s needs a device\n", redeclare ? "--redeclare" : "--threads");
        else if (redeclare)
            mrc = graph_cpu_redeclare(ctx, &rec, &(graph_cpu_redeclare_desc){ .frames = frames ? frames : 30,
                                                                              .runs = runs ? runs : 9,
                                                                              .extent = redeclare_extent,
                                                                              .json_path = json_path,
                                                                              .validation = o.validation });
        else
            mrc = graph_cpu_threads(ctx, &(graph_cpu_threads_desc){ .threads = threads,
                                                                    .thread_count = td.thread_count,
                                                                    .draws = td.draws,
                                                                    .frames = frames ? frames : 50,
                                                                    .runs = runs ? runs : 5,
                                                                    .json_path = json_path,
                                                                    .validation = o.validation });
        return finish(ctx, &rec, o.validation, mrc);
    }
    bool quiet = once || once_deferred;
    if (once || once_deferred) {
        sizes[0] = once;
        size_count = once ? 1 : 0;
        deferred = once_deferred;
    }
    if (!ctx)
        deferred = false;
    const VkPhysicalDeviceProperties *props = ctx ? eng_context_properties(ctx) : NULL;
    if (!quiet) {
        printf("device: %s (driver 0x%x, Vulkan %u.%u.%u); generated frames: %u draws per pass; "
               "minimum of %u batches%s\n",
               props ? props->deviceName : "none (compile only)", props ? props->driverVersion : 0,
               props ? VK_API_VERSION_MAJOR(props->apiVersion) : 0, props ? VK_API_VERSION_MINOR(props->apiVersion) : 0,
               props ? VK_API_VERSION_PATCH(props->apiVersion) : 0, o.draws, o.reps,
               o.validation ? "; under validation (times are not meaningful)" : "");
        printf("%-34s %8s %9s %9s %9s %9s %7s %6s %7s %6s %5s\n", "frame", "commands", "compile", "steady", "graph",
               "hand", "ratio", "calls", "images", "nodes", "valid");
    }
    row rows[MAX_ROWS];
    uint32_t row_count = 0;
    int rc = 0;
    for (uint32_t s = 0; s < size_count && rc == 0; s++) {
        rc = gc_run_generated(ctx, &rec, sizes[s], &o, quiet, &rows[row_count]);
        if (rc == 0 && !quiet)
            print_row(&rows[row_count]);
        row_count++;
    }
    for (int stub = 1; stub >= 0 && deferred && rc == 0; stub--) {
        rc = gc_run_deferred(ctx, &rec, deferred_extent, stub, &o, quiet, &rows[row_count]);
        if (rc == 0 && !quiet)
            print_row(&rows[row_count]);
        row_count++;
    }
    if (!quiet)
        printf("ns per command: compile (fresh graph), steady (reset + declare + compile), graph (rg_execute), "
               "hand (the same\nbarriers and rendering infos from flat arrays); ratio = graph / hand; calls = "
               "vkCmdPipelineBarrier2 calls,\nimages = image barriers (equal on both sides, checked); nodes = spans; "
               "valid = submitted under sync validation, silent\n");
    if (rc == 0 && json_path) {
        FILE *j = fopen(json_path, "w");
        if (!j) {
            fprintf(stderr, "graph_cpu: cannot write %s\n", json_path);
            rc = 1;
        } else {
            fprintf(j, "{\"benchmark\":\"graph_cpu\",\"device\":\"%s\",\"driver_version\":%u,\"draws_per_pass\":%u,"
                       "\"reps\":%u,\"batch_commands\":%u,\"validation\":%s,\"results\":[",
                    props ? props->deviceName : "none", props ? props->driverVersion : 0, o.draws, o.reps,
                    BATCH_COMMANDS, o.validation ? "true" : "false");
            for (uint32_t i = 0; i < row_count; i++)
                json_row(j, &rows[i], i == 0);
            fprintf(j, "]}\n");
            fclose(j);
        }
    }
    return finish(ctx, &rec, o.validation, rc);
}
