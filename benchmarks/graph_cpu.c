/* graph_cpu: what the render graph costs the CPU per command.
 *
 * Generated frames: passes of k draws (each pass renders into one of four
 * 64x64 targets and samples the one before), from about 10 to 10,000
 * commands. For each size: declare + compile, and execute (recording into a
 * command buffer, with draw callbacks that record nothing, so the figure is
 * the graph's own cost plus the driver's barrier and begin/end recording).
 * Nanoseconds per command; flat rows as N grows mean no quadratic path.
 * "compile" is a fresh graph (its first frame: the arrays' pages are new to
 * the process, which shows at large N); "steady" is what a frame loop pays:
 * rg_graph_reset, declare a changed frame (one more draw) and compile, on a
 * graph whose arrays are already grown.
 *
 *   graph_cpu [--draws K] [--sizes N,...] [--reps R] [--no-device]
 *   graph_cpu --once N      one compile + one execute, for
 *                           valgrind --tool=callgrind (instruction counts)
 */
#define _POSIX_C_SOURCE 199309L
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGETS 4
#define MAX_SIZES 16

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* Declares a frame of about `commands` commands; returns how many. */
static uint32_t declare_frame(rg_graph *g, uint32_t commands, uint32_t draws)
{
    rg_texture targets[TARGETS];
    for (int i = 0; i < TARGETS; i++) {
        char name[16];
        snprintf(name, sizeof name, "target %d", i);
        targets[i] = rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                              .width = 64, .height = 64 });
    }
    uint32_t passes = commands / (draws + 2);
    if (passes == 0)
        passes = 1;
    uint32_t made = 0;
    for (uint32_t p = 0; p < passes; p++) {
        rg_texture target = targets[p % TARGETS], source = targets[(p + TARGETS - 1) % TARGETS];
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = "pass", .color_count = 1,
            .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                          .store = VK_ATTACHMENT_STORE_OP_STORE } } });
        rg_access read = { .texture = source, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
        for (uint32_t d = 0; d < draws; d++)
            rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .accesses = p ? &read : NULL,
                                            .access_count = p ? 1 : 0, .record = record_nothing });
        rg_end_rendering(g);
        made += draws + 2;
    }
    return made;
}

typedef struct recorder {
    eng_context *ctx;
    VkCommandPool pool;
    VkCommandBuffer cmd;
} recorder;

static bool recorder_open(eng_context *ctx, recorder *r)
{
    r->ctx = ctx;
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = eng_context_queue_family(ctx) };
    if (vkCreateCommandPool(eng_context_device(ctx), &pci, NULL, &r->pool) != VK_SUCCESS)
        return false;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    return vkAllocateCommandBuffers(eng_context_device(ctx), &ai, &r->cmd) == VK_SUCCESS;
}

static void recorder_close(recorder *r)
{
    if (r->pool)
        vkDestroyCommandPool(eng_context_device(r->ctx), r->pool, NULL);
}

/* Records one execution; the command buffer is never submitted. */
static rg_result record_once(recorder *r, rg_graph *g)
{
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    vkBeginCommandBuffer(r->cmd, &bi);
    rg_result res = rg_execute(g, r->cmd);
    vkEndCommandBuffer(r->cmd);
    vkResetCommandBuffer(r->cmd, 0);
    return res;
}

int main(int argc, char **argv)
{
    uint32_t draws = 8, reps = 5, once = 0;
    uint32_t sizes[MAX_SIZES] = { 10, 100, 1000, 10000 };
    uint32_t size_count = 4;
    bool device = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--draws") && i + 1 < argc) {
            draws = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--once") && i + 1 < argc) {
            once = (uint32_t)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-device")) {
            device = false;
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            size_count = 0;
            for (char *t = strtok(argv[++i], ","); t && size_count < MAX_SIZES; t = strtok(NULL, ","))
                sizes[size_count++] = (uint32_t)atoi(t);
        } else {
            fprintf(stderr, "usage: graph_cpu [--draws K] [--sizes N,...] [--reps R] [--once N] [--no-device]\n");
            return 2;
        }
    }
    if (draws == 0 || reps == 0) {
        fprintf(stderr, "graph_cpu: --draws and --reps must be positive\n");
        return 2;
    }
    eng_context *ctx = NULL;
    recorder rec = { 0 };
    if (device) {
        eng_result r = eng_context_create(&(eng_context_desc){ .app_name = "graph_cpu" }, &ctx);
        if (r != ENG_SUCCESS || !recorder_open(ctx, &rec)) {
            fprintf(stderr, "graph_cpu: no device (%s); compile only\n", eng_last_error());
            recorder_close(&rec);
            eng_context_destroy(ctx);
            ctx = NULL;
        }
    }
    if (once) {
        sizes[0] = once;
        size_count = 1;
        reps = 1;
    } else {
        printf("device: %s; %u draws per pass; minimum of %u runs\n",
               ctx ? eng_context_properties(ctx)->deviceName : "none (compile only)", draws, reps);
        printf("%10s %14s %14s %14s %10s %8s\n", "commands", "compile ns/cmd", "steady ns/cmd", "execute ns/cmd",
               "barriers", "nodes");
    }
    int rc = 0;
    for (uint32_t s = 0; s < size_count && rc == 0; s++) {
        double compile = 1e300, steady = 1e300, execute = 1e300;
        uint32_t made = 0, barriers = 0;
        for (uint32_t rep = 0; rep < reps && rc == 0; rep++) {
            rg_graph *g = NULL;
            rg_graph_create(&(rg_graph_desc){ .name = "bench", .ctx = ctx }, &g);
            double t0 = now_ns();
            made = declare_frame(g, sizes[s], draws);
            rg_result res = rg_compile(g);
            double t1 = now_ns();
            if (res != RG_SUCCESS) {
                fprintf(stderr, "graph_cpu: compile: %s\n", rg_graph_error_message(g));
                rc = 1;
            }
            barriers = rg_barrier_count(g);
            if (rc == 0 && ctx) {
                res = record_once(&rec, g); /* first execute places memory: not timed */
                double t2 = now_ns();
                if (res == RG_SUCCESS)
                    res = record_once(&rec, g);
                double t3 = now_ns();
                if (res != RG_SUCCESS) {
                    fprintf(stderr, "graph_cpu: execute: %s\n", rg_graph_error_message(g));
                    rc = 1;
                }
                if (t3 - t2 < execute)
                    execute = t3 - t2;
            }
            if (t1 - t0 < compile)
                compile = t1 - t0;
            /* A changed declaration, so compile cannot reuse its plan. */
            rg_graph_reset(g);
            double t4 = now_ns();
            uint32_t again = declare_frame(g, sizes[s] + draws + 2, draws);
            res = rg_compile(g);
            double t5 = now_ns();
            if (res != RG_SUCCESS) {
                fprintf(stderr, "graph_cpu: compile: %s\n", rg_graph_error_message(g));
                rc = 1;
            }
            if ((t5 - t4) / again < steady)
                steady = (t5 - t4) / again;
            if (ctx)
                eng_context_wait_idle(ctx);
            rg_graph_destroy(g);
        }
        if (rc == 0 && !once) {
            char exec[32] = "-";
            if (ctx)
                snprintf(exec, sizeof exec, "%.0f", execute / made);
            printf("%10u %14.0f %14.0f %14s %10u %8u\n", made, compile / made, steady, exec, barriers,
                   made / (draws + 2));
        }
    }
    if (!once)
        printf("(the minimum over runs; nodes = spans, each contracted into one node)\n");
    recorder_close(&rec);
    eng_context_destroy(ctx);
    return rc;
}
