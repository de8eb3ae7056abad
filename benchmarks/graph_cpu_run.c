/* graph_cpu's frames, timed: a generated frame or the deferred demo's,
 * compiled, placed and flattened, then recorded by rg_execute and by hand
 * from the flat copy, batches of recordings each side, the minimum kept. */
#define _POSIX_C_SOURCE 199309L
#include "graph_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TARGETS 4


static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

bool gc_record_nothing(const rg_record_context *rc, void *user)
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
        /* The last pass's draws stand for the frame's output (side
         * effects): every pass feeds the next, so culling keeps them all. */
        for (uint32_t d = 0; d < draws; d++)
            rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW,
                                                  .accesses = p ? &read : NULL, .access_count = p ? 1 : 0,
                                                  .record = gc_record_nothing, .side_effects = p + 1 == passes });
        rg_end_rendering(g);
        made += draws + 2;
    }
    return made;
}

bool gc_recorder_open(eng_context *ctx, recorder *r)
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

void gc_recorder_close(recorder *r)
{
    if (r->pool)
        vkDestroyCommandPool(eng_context_device(r->ctx), r->pool, NULL);
}

/* One frame to record: its graph, the flattened copy, and what must happen
 * before each recording (the deferred renderer resets its descriptor pool). */
typedef struct frame {
    rg_graph *graph;
    bench_flat *flat;
    bench_deferred *deferred;         /* NULL for generated frames */
} frame;

static bool before_recording(const frame *f)
{
    return !f->deferred || deferred_renderer_begin_frame(f->deferred->renderer, 0) == ENG_SUCCESS;
}

/* Records once, by the graph or by hand; the recording alone is timed.
 * The command buffer is never submitted. Returns the ns, or -1. */
static double record_timed(recorder *r, const frame *f, bool hand)
{
    if (!before_recording(f))
        return -1;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    vkBeginCommandBuffer(r->cmd, &bi);
    double t0 = now_ns();
    bool ok = hand ? bench_flat_record(f->flat, r->cmd) : rg_execute(f->graph, r->cmd) == RG_SUCCESS;
    double t1 = now_ns();
    vkEndCommandBuffer(r->cmd);
    vkResetCommandBuffer(r->cmd, 0);
    return ok ? t1 - t0 : -1;
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* --once: one recording each way, in functions of their own, so that
 * callgrind_annotate --inclusive=yes reports them apart (README.md). */
static NOINLINE double once_graph_execute(recorder *r, const frame *f) { return record_timed(r, f, false); }
static NOINLINE double once_hand_record(recorder *r, const frame *f) { return record_timed(r, f, true); }

typedef struct submit_job {
    const frame *f;
    bool hand, ok;
} submit_job;

static void record_job(VkCommandBuffer cmd, void *user)
{
    submit_job *j = user;
    j->ok = j->hand ? bench_flat_record(j->f->flat, cmd) : rg_execute(j->f->graph, cmd) == RG_SUCCESS;
}

static bool submit(eng_context *ctx, const frame *f, bool hand)
{
    submit_job j = { f, hand, false };
    if (!before_recording(f))
        return false;
    return eng_context_submit_once(ctx, record_job, &j) == ENG_SUCCESS && j.ok;
}

/* Places g (first execute), flattens it, checks the counts; optionally
 * submits both under validation. 0 on success. */
static int prepare(eng_context *ctx, recorder *rec, frame *f, row *out, const options *o)
{
    if (record_timed(rec, f, false) < 0) {
        fprintf(stderr, "graph_cpu: %s: execute: %s\n", out->frame, rg_graph_error_message(f->graph));
        return 1;
    }
    const char *error = NULL;
    f->flat = bench_flatten(f->graph, eng_context_device(ctx), &error);
    if (!f->flat) {
        fprintf(stderr, "graph_cpu: %s: flattening: %s\n", out->frame, error);
        return 1;
    }
    bench_flat_counts gc = bench_graph_counts(f->graph), hc = bench_flat_get_counts(f->flat);
    if (gc.barrier_calls != hc.barrier_calls || gc.image_barriers != hc.image_barriers ||
        gc.memory_barriers != hc.memory_barriers) {
        fprintf(stderr,
                "graph_cpu: %s: the hand-written frame differs: %u/%u barrier calls, %u/%u image barriers, "
                "%u/%u memory barriers (graph/hand)\n",
                out->frame, gc.barrier_calls, hc.barrier_calls, gc.image_barriers, hc.image_barriers,
                gc.memory_barriers, hc.memory_barriers);
        return 1;
    }
    out->counts = hc;
    if (o->validation) {
        eng_message_counts before = eng_context_messages(ctx);
        /* Graph, hand, hand, graph: each must follow either. */
        bool ok = submit(ctx, f, false) && submit(ctx, f, true) && submit(ctx, f, true) && submit(ctx, f, false);
        eng_message_counts after = eng_context_messages(ctx);
        if (!ok || after.warning + after.error != before.warning + before.error) {
            fprintf(stderr, "graph_cpu: %s: submitting under validation: %s; first message: %s\n", out->frame,
                    ok ? "validation messages" : "failed", eng_context_first_message(ctx));
            return 1;
        }
        out->validated = true;
    }
    return 0;
}

/* Alternating graph and hand recordings; per-command ns, min over reps. */
static int time_both(recorder *rec, const frame *f, row *out, uint32_t reps)
{
    uint32_t batch = BATCH_COMMANDS / (out->commands ? out->commands : 1);
    if (batch == 0)
        batch = 1;
    out->graph = out->hand = 1e300;
    for (uint32_t r = 0; r < reps; r++) {
        double sum[2] = { 0, 0 };
        for (uint32_t i = 0; i < batch; i++)
            for (int hand = 0; hand < 2; hand++) {
                /* Alternate which goes first, so neither always follows the other. */
                int which = (i & 1) ? 1 - hand : hand;
                double t = record_timed(rec, f, which);
                if (t < 0) {
                    fprintf(stderr, "graph_cpu: %s: recording failed\n", out->frame);
                    return 1;
                }
                sum[which] += t;
            }
        double g = sum[0] / batch / out->commands, h = sum[1] / batch / out->commands;
        if (g < out->graph)
            out->graph = g;
        if (h < out->hand)
            out->hand = h;
    }
    return 0;
}

static uint32_t command_count(const rg_graph *g)
{
    const rg_command *order = NULL;
    return rg_execution_order(g, &order);
}

/* A generated frame of about n commands. */
int gc_run_generated(eng_context *ctx, recorder *rec, uint32_t n, const options *o, bool once, row *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->frame, sizeof out->frame, "generated");
    out->compile = out->steady = 1e300;
    out->graph = out->hand = -1;
    uint32_t reps = once ? 1 : o->reps;
    for (uint32_t rep = 0; rep < reps; rep++) {
        rg_graph *g = NULL;
        rg_graph_create(&(rg_graph_desc){ .name = "bench" }, &g);
        double t0 = now_ns();
        out->commands = declare_frame(g, n, o->draws);
        rg_result res = rg_compile(g);
        double t1 = now_ns();
        if (res != RG_SUCCESS) {
            fprintf(stderr, "graph_cpu: compile: %s\n", rg_graph_error_message(g));
            rg_graph_destroy(g);
            return 1;
        }
        if ((t1 - t0) / out->commands < out->compile)
            out->compile = (t1 - t0) / out->commands;
        /* A changed declaration, so compile cannot reuse its plan. */
        rg_graph_reset(g);
        double t4 = now_ns();
        uint32_t again = declare_frame(g, n + o->draws + 2, o->draws);
        res = rg_compile(g);
        double t5 = now_ns();
        rg_graph_destroy(g);
        if (res != RG_SUCCESS) {
            fprintf(stderr, "graph_cpu: compile: %s\n", rg_graph_error_message(g));
            return 1;
        }
        if ((t5 - t4) / again < out->steady)
            out->steady = (t5 - t4) / again;
    }
    out->nodes = out->commands / (o->draws + 2);
    if (!ctx)
        return 0;
    frame f = { 0 };
    int rc = 0;
    if (rc == 0) {
        rg_graph_create(&(rg_graph_desc){ .name = "bench", .device = eng_context_graph_device(ctx) }, &f.graph);
        declare_frame(f.graph, n, o->draws);
        if (rg_compile(f.graph) != RG_SUCCESS) {
            fprintf(stderr, "graph_cpu: compile: %s\n", rg_graph_error_message(f.graph));
            rc = 1;
        }
    }
    if (rc == 0)
        rc = prepare(ctx, rec, &f, out, o);
    if (rc == 0 && once) {
        rc = once_graph_execute(rec, &f) < 0 || once_hand_record(rec, &f) < 0;
    } else if (rc == 0) {
        rc = time_both(rec, &f, out, o->reps);
    }
    eng_context_wait_idle(ctx);
    bench_flat_destroy(f.flat);
    rg_graph_set_retire_point(f.graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* nothing in flight */
    rg_graph_destroy(f.graph);
    return rc;
}

/* The deferred demo's frame; stub: recorded without its draws
 * (deferred_renderer_desc.skip_draws). */
int gc_run_deferred(eng_context *ctx, recorder *rec, VkExtent2D extent, bool stub, const options *o, bool once,
                        row *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->frame, sizeof out->frame, "deferred %ux%u%s", extent.width, extent.height,
             stub ? " (draws stubbed)" : " (demo draws)");
    bench_deferred d;
    if (bench_deferred_create(ctx, o->ground, extent, stub, &d) != ENG_SUCCESS) {
        fprintf(stderr, "graph_cpu: deferred frame: %s\n", eng_last_error());
        return 1;
    }
    int rc = 0;
    out->compile = out->steady = 1e300;
    uint32_t reps = once ? 1 : o->reps;
    /* compile (fresh graph) and steady (reset + declare + compile), as for
     * the generated frames; the renderer is the same. */
    for (uint32_t rep = 0; rep < reps && rc == 0; rep++) {
        rg_graph *g = NULL;
        rg_graph_create(&(rg_graph_desc){ .name = "deferred", .device = eng_context_graph_device(ctx) }, &g);
        double t0 = now_ns();
        bench_deferred_declare(&d, g, NULL);
        rg_result res = rg_compile(g);
        double t1 = now_ns();
        out->commands = command_count(g);
        rg_graph_reset(g);
        /* A changed declaration (the frame at a slightly larger extent), so
         * compile cannot reuse its plan; this graph is never executed. */
        d.extent.width += 2;
        d.extent.height += 2;
        double t4 = now_ns();
        bench_deferred_declare(&d, g, NULL);
        rg_result res2 = rg_compile(g);
        double t5 = now_ns();
        d.extent = extent;
        if (res != RG_SUCCESS || res2 != RG_SUCCESS) {
            fprintf(stderr, "graph_cpu: deferred compile: %s\n", rg_graph_error_message(g));
            rc = 1;
        }
        rg_graph_destroy(g);
        if (rc == 0 && (t1 - t0) / out->commands < out->compile)
            out->compile = (t1 - t0) / out->commands;
        if (rc == 0 && (t5 - t4) / out->commands < out->steady)
            out->steady = (t5 - t4) / out->commands;
    }
    frame f = { .deferred = &d };
    if (rc == 0) {
        rg_graph_create(&(rg_graph_desc){ .name = "deferred", .device = eng_context_graph_device(ctx) }, &f.graph);
        bench_deferred_declare(&d, f.graph, NULL);
        if (rg_compile(f.graph) != RG_SUCCESS) {
            fprintf(stderr, "graph_cpu: deferred compile: %s\n", rg_graph_error_message(f.graph));
            rc = 1;
        }
        out->commands = command_count(f.graph);
    }
    if (rc == 0)
        rc = prepare(ctx, rec, &f, out, o);
    out->nodes = out->counts.spans;
    if (rc == 0 && once)
        rc = once_graph_execute(rec, &f) < 0 || once_hand_record(rec, &f) < 0;
    else if (rc == 0)
        rc = time_both(rec, &f, out, o->reps);
    eng_context_wait_idle(ctx);
    bench_flat_destroy(f.flat);
    rg_graph_set_retire_point(f.graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* nothing in flight */
    rg_graph_destroy(f.graph);
    bench_deferred_destroy(&d);
    return rc;
}
