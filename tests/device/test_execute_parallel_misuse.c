/* Parallel recording's failures: a failed callback fails the frame, and
 * every misuse of rg_execute_begin/chunk/end is a result code with a
 * message, the history left as it was. Suite execute_parallel
 * (test_execute_parallel.c declares it). */
#include "device_fixture.h"
#include "parallel_support.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* The value the plan's last submission signals (the graphics timeline). */
static uint64_t plan_signal(const frame *f)
{
    cr_assert(f->has_plan && f->plan.count > 0);
    return f->plan.submissions[f->plan.count - 1].signal.value;
}

/* A callback that fails in one chunk, while the other chunks record on
 * other threads: rg_workers_execute and rg_execute_end return
 * RG_ERROR_CALLBACK, and the graph's message names the command and what
 * its query said (rg_record_view of a texture it did not declare, said in
 * its chunk). The failed frame is not submitted; the history pair and
 * the timeline stay as the frame before left them, and the next frame
 * records, swaps the history and counts the timeline on as if the failed
 * one had never been. The same by the loop, whose rg_execute_chunk
 * returns the error for that chunk only. */
DEVICE_TEST(execute_parallel, failed_callback_fails_the_frame)
{
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = parallel_declare_single(eng_context_graph_device(test_ctx), NULL, s, "opaque 7", true);
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = 4 }, &workers), RG_SUCCESS);
    frame *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    user_cmd *bad = NULL;
    for (uint32_t i = 0; i < s->user_count; i++)
        if (s->users[i].fail)
            bad = &s->users[i];
    cr_assert_not_null(bad);

    /* Two good frames, for the history and the timeline's step. */
    bad->fail = false;
    uint64_t signals[2];
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(parallel_record_frame(f, g, MODE_WORKERS, 8, workers, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
        signals[i] = plan_signal(f);
        parallel_submit_frame(f);
        parallel_frame_free(f);
    }
    cr_assert_gt(signals[1], signals[0]);
    VkImage current = rg_texture_image(g, s->history);
    cr_assert_neq(current, VK_NULL_HANDLE);

    for (mode m = MODE_WORKERS; m <= MODE_HAND; m++) {
        bad->fail = true;
        rg_result r = parallel_record_frame(f, g, m, 8, workers, false);
        cr_expect_eq(r, RG_ERROR_CALLBACK, "%s: rg_execute_end: %s", parallel_mode_names[m], rg_result_string(r));
        const char *msg = rg_graph_error_message(g);
        cr_expect(strstr(msg, "'opaque 7'") && strstr(msg, "failed to record"), "%s: message: %s", parallel_mode_names[m],
                  msg);
        cr_expect(strstr(msg, "did not declare") && strstr(msg, "'post'"),
                  "%s: the callback's query's message is lost: %s", parallel_mode_names[m], msg);
        if (m == MODE_WORKERS)
            cr_expect_eq(f->recorded, RG_ERROR_CALLBACK, "rg_workers_execute: %s", rg_result_string(f->recorded));
        uint32_t failed = 0;
        for (uint32_t i = 0; i < f->count && m != MODE_WORKERS; i++)
            failed += f->results[i] != RG_SUCCESS;
        cr_expect(m == MODE_WORKERS || failed == 1, "%s: %u chunks failed", parallel_mode_names[m], failed);
        parallel_frame_free(f);                /* never submitted */
        cr_expect_eq(rg_texture_image(g, s->history), current, "%s: the failed frame swapped the history",
                     parallel_mode_names[m]);
    }

    bad->fail = false;
    cr_assert_eq(parallel_record_frame(f, g, MODE_WORKERS, 8, workers, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(plan_signal(f) - signals[1], signals[1] - signals[0],
                 "after failed frames the timeline moved by %llu, a frame before by %llu",
                 (unsigned long long)(plan_signal(f) - signals[1]), (unsigned long long)(signals[1] - signals[0]));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    cr_expect_neq(rg_texture_image(g, s->history), current, "the next good frame did not swap the history");

    free(f);
    parallel_end(workers, g, s);
}

/* Command buffers for chunks recorded by hand here, never submitted. */
typedef struct loose {
    uint32_t count;
    VkCommandPool pools[MAX_CMDS];
    VkCommandBuffer cmds[MAX_CMDS];
} loose;

static void loose_open(loose *l, uint32_t count)
{
    frame *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);
    f->count = count;
    parallel_frame_cmds(f, false);             /* queue 0 (graphics): the graph is on one queue */
    l->count = count;
    memcpy(l->pools, f->pools, sizeof l->pools);
    memcpy(l->cmds, f->cmds, sizeof l->cmds);
    free(f);
}

static void loose_close(loose *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        vkEndCommandBuffer(l->cmds[i]);
        vkDestroyCommandPool(eng_context_device(test_ctx), l->pools[i], NULL);
    }
}

static void expect_refused(rg_result r, rg_graph *g, const char *what, const char *says)
{
    cr_expect_eq(r, RG_ERROR_INVALID_ARGUMENT, "%s: %s", what, rg_result_string(r));
    cr_expect(strstr(rg_graph_error_message(g), says) != NULL, "%s: message '%s', want '%s'", what,
              rg_graph_error_message(g), says);
}

/* Misuse of the chunk calls: each is RG_ERROR_INVALID_ARGUMENT with a
 * message; a frame with a chunk not recorded or recorded twice fails at
 * rg_execute_end; a second rg_execute_begin, and rg_execute, are refused
 * while a frame is begun and leave it as it was; after all of it a frame
 * records and renders as before. */
DEVICE_TEST(execute_parallel, misuse_is_refused_with_a_message)
{
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = parallel_declare_single(eng_context_graph_device(test_ctx), NULL, s, NULL, false);
    frame *f = calloc(1, sizeof *f);
    unsigned char *want = calloc(2, PIXELS_BYTES), *got = calloc(2, PIXELS_BYTES);
    cr_assert(f && want && got);
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = 2 }, &workers), RG_SUCCESS);
    parallel_clear_readback(s);
    cr_assert_eq(parallel_record_frame(f, g, MODE_WHOLE, 0, NULL, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    parallel_read_pixels(s, want);
    loose l;
    loose_open(&l, 8);
    rg_chunk_info info;
    rg_submit_plan plan;

    /* Outside a frame. */
    expect_refused(rg_execute_chunk(g, 0, l.cmds[0]), g, "rg_execute_chunk without a frame", "no frame begun");
    expect_refused(rg_chunk_get(g, 0, &info), g, "rg_chunk_get without a frame", "no frame begun");
    expect_refused(rg_execute_end(g, l.cmds, &plan), g, "rg_execute_end without a frame", "no frame begun");
    expect_refused(rg_workers_execute(workers, g, l.cmds), g, "rg_workers_execute without a frame",
                   "no frame begun");

    /* A frame begun twice, executed whole meanwhile, a chunk past the
     * count, a chunk without a command buffer, a chunk recorded twice. */
    uint32_t n = 0, again = 0;
    cr_assert_eq(rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = 4 }, &n), RG_SUCCESS);
    cr_assert(n >= 2 && n <= 4, "%u chunks", n);
    expect_refused(rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = 2 }, &again), g,
                   "rg_execute_begin while a frame is begun", "is recording a frame in chunks");
    expect_refused(rg_execute(g, l.cmds[7]), g, "rg_execute while a frame is begun", "is recording a frame in chunks");
    /* Nothing may change the graph while its chunks record. */
    expect_refused(rg_compile(g), g, "rg_compile while a frame is begun", "rg_compile: graph 'parallel' is recording");
    expect_refused(rg_place(g), g, "rg_place while a frame is begun", "rg_place: graph 'parallel' is recording");
    expect_refused(rg_execute_chunk(g, n, l.cmds[7]), g, "rg_execute_chunk past the count", "chunk");
    expect_refused(rg_chunk_get(g, n, &info), g, "rg_chunk_get past the count", "past the chunk count");
    cr_assert_eq(rg_chunk_get(g, n - 1, &info), RG_SUCCESS, "the frame begun first is gone: %s",
                 rg_graph_error_message(g));
    for (uint32_t i = 0; i < n; i++)
        cr_assert_eq(rg_execute_chunk(g, i, l.cmds[i]), RG_SUCCESS, "chunk %u: %s", i, rg_graph_error_message(g));
    cr_expect_eq(rg_execute_chunk(g, 1, l.cmds[5]), RG_ERROR_INVALID_ARGUMENT, "chunk 1 recorded twice");
    expect_refused(rg_execute_end(g, l.cmds, &plan), g, "rg_execute_end after a chunk recorded twice",
                   "chunk 1 recorded twice");

    /* A chunk not recorded; a chunk without a command buffer. */
    loose_close(&l);
    loose_open(&l, 8);
    cr_assert_eq(rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = 4 }, &n), RG_SUCCESS);
    for (uint32_t i = 0; i < n; i++)
        if (i != 1)
            cr_assert_eq(rg_execute_chunk(g, i, l.cmds[i]), RG_SUCCESS, "chunk %u: %s", i, rg_graph_error_message(g));
    expect_refused(rg_execute_end(g, l.cmds, &plan), g, "rg_execute_end with a chunk not recorded",
                   "chunk 1 (batch 0) was not recorded");
    loose_close(&l);
    loose_open(&l, 8);
    cr_assert_eq(rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = 4 }, &n), RG_SUCCESS);
    cr_expect_eq(rg_execute_chunk(g, 0, VK_NULL_HANDLE), RG_ERROR_INVALID_ARGUMENT);
    for (uint32_t i = 1; i < n; i++)
        cr_assert_eq(rg_execute_chunk(g, i, l.cmds[i]), RG_SUCCESS, "chunk %u: %s", i, rg_graph_error_message(g));
    expect_refused(rg_execute_end(g, l.cmds, &plan), g, "rg_execute_end with a chunk without a command buffer",
                   "without a command buffer");
    loose_close(&l);

    /* Every refusal ended its frame: the next one records and renders. */
    parallel_expect_frame_renders(f, g, s, MODE_WORKERS, 4, workers, want, got, "a frame after the refusals");

    free(f);
    free(want);
    free(got);
    parallel_end(workers, g, s);
}
