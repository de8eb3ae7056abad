/* Workers (rendergraph.h, "Parallel recording"): a few threads (thread.h) kept
 * for applications without a job system. rg_workers_execute hands them a
 * frame's chunks: every thread, the calling one included, takes the next
 * chunk from an atomic counter until none is left, and the call returns
 * once every worker has finished with the frame. A frame allocates
 * nothing: the job is four fields, the wake-ups a condition variable.
 */
#include "execute/stages.h"

#include <stdatomic.h>

struct rg_workers {
    rg_allocator alloc;               /* rg_workers_desc.allocator, resolved */
    uint32_t count;                   /* threads started */
    rg__thread *threads;
    rg__mutex lock;
    rg__cond wake, done;
    /* Under lock: the job's number (a new one wakes the workers), how many
     * workers are still on it, and whether to quit. */
    uint64_t job;
    uint32_t busy;
    bool quit;
    /* The job: read by the workers after they see its number. */
    rg_graph *graph;
    rg__runs *runs;
    rg__made_views *access_views;
    const VkCommandBuffer *cmds;
    uint32_t chunk_count;
    atomic_uint next;
    atomic_int failed;                /* the first failed chunk's result */
};

/* Takes chunks until none is left. */
static void run_chunks(rg_workers *w)
{
    for (;;) {
        unsigned i = atomic_fetch_add(&w->next, 1);
        if (i >= w->chunk_count)
            return;
        rg_result r = rg__execute_chunk(w->graph, w->runs, w->access_views, i, w->cmds[i], "rg_workers_execute");
        int none = RG_SUCCESS;
        if (r != RG_SUCCESS)
            atomic_compare_exchange_strong(&w->failed, &none, (int)r);
    }
}

static void worker(void *arg)
{
    rg_workers *w = arg;
    uint64_t seen = 0;
    for (;;) {
        rg__mutex_lock(&w->lock);
        while (w->job == seen && !w->quit)
            rg__cond_wait(&w->wake, &w->lock);
        if (w->quit) {
            rg__mutex_unlock(&w->lock);
            return;
        }
        seen = w->job;
        rg__mutex_unlock(&w->lock);
        run_chunks(w);
        rg__mutex_lock(&w->lock);
        if (--w->busy == 0)
            rg__cond_signal(&w->done);
        rg__mutex_unlock(&w->lock);
    }
}

/* Hands the workers' memory back to their allocator. */
static void release(rg_workers *w)
{
    rg_allocator a = w->alloc;
    if (w->threads)
        a.free(a.user, w->threads);
    a.free(a.user, w);
}

rg_result rg_workers_create(const rg_workers_desc *desc, rg_workers **out)
{
    if (!out)
        return RG_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    uint32_t threads = desc && desc->thread_count > 1 ? desc->thread_count - 1 : 0;
    rg_allocator a;
    if (!rg__allocator_resolve(desc ? desc->allocator : NULL, NULL, &a))
        return RG_ERROR_INVALID_ARGUMENT;
    rg_workers *w = a.alloc(a.user, sizeof *w);
    if (w)
        *w = (rg_workers){.alloc = a};
    if (!w || (threads && !(w->threads = a.alloc(a.user, threads * sizeof *w->threads)))) {
        if (w)
            a.free(a.user, w);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    /* Each step undoes the ones before it when it fails. */
    bool lock = rg__mutex_init(&w->lock);
    bool wake = lock && rg__cond_init(&w->wake);
    bool done = wake && rg__cond_init(&w->done);
    if (!done) {
        if (wake)
            rg__cond_destroy(&w->wake);
        if (lock)
            rg__mutex_destroy(&w->lock);
        release(w);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    atomic_init(&w->next, 0);
    atomic_init(&w->failed, RG_SUCCESS);
    for (; w->count < threads; w->count++)
        if (!rg__thread_create(&w->threads[w->count], worker, w)) {
            rg_workers_destroy(w);
            return RG_ERROR_OUT_OF_MEMORY;
        }
    *out = w;
    return RG_SUCCESS;
}

void rg_workers_destroy(rg_workers *workers)
{
    rg_workers *w = workers;
    if (!w)
        return;
    rg__mutex_lock(&w->lock);
    w->quit = true;
    rg__cond_broadcast(&w->wake);
    rg__mutex_unlock(&w->lock);
    for (uint32_t i = 0; i < w->count; i++)
        rg__thread_join(w->threads[i]);
    rg__cond_destroy(&w->wake);
    rg__cond_destroy(&w->done);
    rg__mutex_destroy(&w->lock);
    release(w);
}

rg_result rg__workers_run(rg_workers *w, rg_graph *graph, rg__runs *runs, rg__made_views *access_views,
                          const VkCommandBuffer *cmds)
{
    if (!cmds)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_workers_execute: cmds is NULL");
    rg__mutex_lock(&w->lock);
    w->graph = graph;
    w->runs = runs;
    w->access_views = access_views;
    w->cmds = cmds;
    w->chunk_count = graph->exec->chunks.count;
    atomic_store(&w->next, 0);
    atomic_store(&w->failed, RG_SUCCESS);
    w->busy = w->count;
    w->job++;
    rg__cond_broadcast(&w->wake);
    rg__mutex_unlock(&w->lock);
    run_chunks(w);
    rg__mutex_lock(&w->lock);
    while (w->busy > 0)
        rg__cond_wait(&w->done, &w->lock);
    rg__mutex_unlock(&w->lock);
    return (rg_result)atomic_load(&w->failed);
}
