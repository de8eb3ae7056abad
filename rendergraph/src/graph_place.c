/* The placement's conductor (graph_block.h): rg_place's stages in order,
 * each handed its own part of the placement, and the placement's freeing,
 * into retirement or into the objects kept for the next placement
 * (place/reuse.h). graph.c calls it; it calls only the stages.
 */
#include "base/device.h"
#include "compile/stages.h"
#include "execute/stages.h"
#include "graph_block.h"
#include "place/reuse.h"
#include "place/stages.h"

/* Whether a placement on one queue may keep and take: kept objects are
 * ordered after the frames that used them by one barrier on that queue
 * (execute.c), so graphs on several queues neither keep nor take. */
static bool reusable(const rg_graph *g)
{
    return g->dev && !g->no_reuse && g->compiled->queues.queues_used == 1u << RG_QUEUE_GRAPHICS;
}

void rg__placement_free(rg_graph *g, const char *what, bool keep)
{
    rg__placement *pl = rg__placement_of(g);
    rg__execution *x = rg__block_execution(g);
    rg__retire_point timelines = {.on_device = pl->on_device};
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        timelines.semaphores[q] = pl->semaphores[q];
        timelines.values[q] = x->submitted[q];
    }
    rg__retire_begin(g, &timelines);
    rg__reuse *k = keep && pl->on_device && reusable(g) ? rg__reuse_of(g) : NULL;
    if (k) {
        rg__reuse_age(g, k);
        k->placed_hash = g->decl.hash;
        k->generation++;
        /* The timeline goes on where its frames left it. */
        if (k->semaphore)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_SEMAPHORE, .u.semaphore = k->semaphore});
        k->semaphore = pl->semaphores[RG_QUEUE_GRAPHICS];
        k->timeline = x->frame.timeline[RG_QUEUE_GRAPHICS];
        k->submitted = x->submitted[RG_QUEUE_GRAPHICS];
        pl->semaphores[RG_QUEUE_GRAPHICS] = VK_NULL_HANDLE;
    } else if (!keep || pl->on_device) {
        rg__reuse_release(g, g->reuse);
    }
    rg__execution_free(g, x);
    rg__place_timings_free(g, &pl->timings);
    rg__place_queues_free(g, pl->semaphores);
    rg__place_views_free(g, &pl->views, k);
    rg__place_memory_free(g, &pl->objects, k);
    rg__memory_plan_free(g, &pl->plan);
    rg__sync_free(g, &pl->sync);
    pl->synced = false;
    pl->on_device = false;
    pl->waits_for_kept = false;
    uint32_t unretired = g->unretired;
    rg__retire_end(g, what);
    if (k) /* what is kept may still be in use by those frames */
        g->unretired = unretired;
    rg__printed_forget(g->printed); /* a new placement's failures print again */
}

rg_result rg__placed(rg_graph *g, bool on_device)
{
    rg__placement *pl = rg__placement_of(g);
    rg_result r = rg__compile_barriers(g, pl->plan.alias, &pl->sync);
    if (r == RG_ERROR_OUT_OF_MEMORY)
        return rg__report(g, r, "placement: out of host memory planning the barriers");
    if (r != RG_SUCCESS)
        return r;
    pl->synced = true;
    if (on_device)
        r = rg__execution_prepare(g, rg__block_execution(g), "placement");
    if (r != RG_SUCCESS)
        return r;
    pl->on_device = on_device;
    g->status->state = RG__PLACED;
    return RG_SUCCESS;
}

/* The kept graphics timeline, taken with the values it reached. */
static bool take_timeline(rg__reuse *k, rg__placement *pl)
{
    if (!k || !k->usable || !k->semaphore)
        return false;
    pl->semaphores[RG_QUEUE_GRAPHICS] = k->semaphore;
    k->semaphore = VK_NULL_HANDLE;
    return true;
}

/* Whether the placement is the kept one again, object for object, for the
 * same declaration: then the frames before used exactly what this one's
 * barriers already wait for (the frame before's own last uses), as
 * frames of one placement do. */
static bool same_as_kept(const rg_graph *g, const rg__reuse *k)
{
    const rg__placement *pl = g->placement;
    return k->placed_hash == g->decl.hash && pl->objects.made == 0 && pl->objects.memory_made == 0 &&
           pl->views.reused == pl->views.made_count && k->exact == pl->objects.reused;
}

rg_result rg__place_stages(rg_graph *g)
{
    rg_result r = rg__place_support(g);     /* formats, usages, blits, resolves on this device */
    if (r != RG_SUCCESS)
        return r;
    rg__reuse *k = g->no_reuse ? NULL : rg__reuse_of(g);
    size_t n = (size_t)g->decl.resource_count + 1;
    rg__mem_requirements *reqs = rg__calloc(g, n, sizeof *reqs);
    rg__mem_hint *hints = k ? rg__calloc(g, n, sizeof *hints) : NULL;
    if (k) {
        k->usable = reusable(g);
        k->taken = k->exact = 0;
    }
    if (!reqs || (!g->no_reuse && !hints) || (k && !rg__reuse_hints(g, k, hints))) { /* where kept pooled objects sit */
        RG__FREE_ALL(g, reqs, hints);
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    }
    rg__placement *pl = rg__placement_of(g);
    rg__place_requirements(g, reqs);        /* vkGetDevice*MemoryRequirements */
    r = rg__memory_plan(g, &g->dev->memory, reqs, hints, &pl->plan); /* lazy, dedicated, pools */
    RG__FREE_ALL(g, reqs, hints);
    if (r == RG_SUCCESS)
        r = rg__place_memory(g, &pl->objects, k); /* take kept ones, or allocate, create, bind */
    if (r == RG_SUCCESS)
        r = rg__place_views(g, &pl->views, k); /* attachment views */
    bool timeline = r == RG_SUCCESS && take_timeline(k, pl);
    if (r == RG_SUCCESS)
        r = rg__place_queues(g, pl->semaphores); /* timeline semaphores */
    if (r == RG_SUCCESS)
        r = rg__place_timings(g, &pl->timings); /* query pools, when timings are on */
    if (r == RG_SUCCESS)
        r = rg__placed(g, true);            /* barriers with the alias scopes */
    if (r == RG_SUCCESS && timeline) {
        rg__execution *x = rg__block_execution(g);
        x->frame.timeline[RG_QUEUE_GRAPHICS] = k->timeline;
        x->submitted[RG_QUEUE_GRAPHICS] = k->submitted;
    }
    if (r == RG_SUCCESS && k) {
        bool took = pl->objects.reused || pl->objects.memory_reused || pl->views.reused || timeline;
        pl->waits_for_kept = took && !same_as_kept(g, k);
    }
    return r;
}
