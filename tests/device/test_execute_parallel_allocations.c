/* Parallel recording allocates nothing once the graph has recorded with
 * as many chunks (an rg_allocator that counts, shared by the chunks'
 * threads). Suite execute_parallel (test_execute_parallel.c declares it
 * and says how frames are recorded and compared). */
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

/* A host allocator that counts, safe on any thread (a frame's chunks
 * record on several: an allocation there must be counted, not raced). */
static atomic_uint host_calls;

static void *atomic_alloc(void *user, size_t size)
{
    (void)user;
    atomic_fetch_add(&host_calls, 1);
    return malloc(size);
}

static void *atomic_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    atomic_fetch_add(&host_calls, 1);
    return realloc(ptr, size);
}

static void atomic_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

/* A graph with its own allocator: the first frame in chunks may allocate
 * (its chunks' arrays); every frame after it with the same max_chunks, or
 * fewer chunks, allocates nothing, on any threads. */
DEVICE_TEST(execute_parallel, frames_allocate_nothing_after_the_first)
{
    static const rg_allocator counting = { atomic_alloc, atomic_realloc, atomic_free, NULL };
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    rg_graph *g = parallel_declare_single(eng_context_graph_device(test_ctx), &counting, s, NULL, false);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = 4 }, &workers), RG_SUCCESS);
    frame *f = calloc(1, sizeof *f);
    cr_assert_not_null(f);

    unsigned before = atomic_load(&host_calls);
    cr_assert_eq(parallel_record_frame(f, g, MODE_WORKERS, 8, workers, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t chunks = f->count;
    parallel_submit_frame(f);
    parallel_frame_free(f);
    unsigned first = atomic_load(&host_calls) - before;
    cr_log_info("the first frame in %u chunks: %u host allocations", chunks, first);

    before = atomic_load(&host_calls);
    for (uint32_t i = 0; i < 4; i++) {
        cr_assert_eq(parallel_record_frame(f, g, i % 2 ? MODE_THREADS : MODE_WORKERS, 8, workers, false), RG_SUCCESS, "%s",
                     rg_graph_error_message(g));
        cr_expect_eq(f->count, chunks);
        parallel_submit_frame(f);
        parallel_frame_free(f);
    }
    cr_expect_eq(atomic_load(&host_calls) - before, 0, "four frames of max_chunks 8 made %u host allocations",
                 atomic_load(&host_calls) - before);
    /* Fewer chunks, and one chunk (rg_execute). */
    before = atomic_load(&host_calls);
    cr_assert_eq(parallel_record_frame(f, g, MODE_HAND, 4, NULL, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_lt(f->count, chunks);
    parallel_submit_frame(f);
    parallel_frame_free(f);
    cr_assert_eq(parallel_record_frame(f, g, MODE_WHOLE, 0, NULL, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    cr_assert_eq(parallel_record_frame(f, g, MODE_WORKERS, 8, workers, false), RG_SUCCESS, "%s", rg_graph_error_message(g));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    cr_expect_eq(atomic_load(&host_calls) - before, 0,
                 "frames of 4 chunks, rg_execute and 8 chunks again made %u host allocations",
                 atomic_load(&host_calls) - before);

    free(f);
    parallel_end(workers, g, s);
}
