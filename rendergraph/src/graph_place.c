/* The placement's conductor (graph_block.h): rg_place's stages in order,
 * each handed its own part of the placement, and the placement's freeing,
 * into retirement or into the objects kept for the next placement
 * (place/reuse.h). A reset stashes the placement instead: its objects are
 * handed to the kept ones (so a different declaration takes what fits),
 * and its arrays and execute state stay, so the same declaration,
 * compiled alike, takes it back whole, making no Vulkan object and
 * allocating no host memory. graph.c calls it; it calls only the stages.
 */
#include "base/device.h"
#include "compile/stages.h"
#include "execute/stages.h"
#include "graph_block.h"
#include "place/reuse.h"
#include "place/stages.h"

/* Whether a placement on one queue may keep and take: kept objects are
 * ordered after the frames that used them by one barrier on that queue
 * (execute.c), so graphs on several queues neither keep nor take, nor
 * graphs whose pools are the application's (its allocator owns them). */
static bool reusable(const rg_graph *g)
{
    return g->dev && !g->no_reuse && !g->pool_memory.alloc &&
           g->compiled->queues.queues_used == 1u << RG_QUEUE_GRAPHICS;
}

/* The arrays and execute state of a placement, its objects retired unless
 * they were handed over, into the open retire group. */
static void free_parts(rg_graph *g)
{
    rg__placement *pl = rg__placement_of(g);
    rg__execution_free(g, rg__block_execution(g));
    rg__place_timings_free(g, &pl->timings);
    rg__place_queues_free(g, pl->semaphores);
    rg__place_views_free(g, &pl->views);
    rg__place_memory_free(g, &pl->objects);
    rg__memory_plan_free(g, &pl->plan);
    rg__sync_free(g, &pl->sync);
    *pl = (rg__placement){0};
}

/* Closes the retire group; with something kept, the frames recorded so
 * far still owe their retire point (what is kept may be in use by them). */
static void end_retiring(rg_graph *g, const char *what, bool kept)
{
    uint32_t unretired = g->unretired;
    rg__retire_end(g, what);
    if (kept)
        g->unretired = unretired;
    rg__printed_forget(g->printed); /* a new placement's failures print again */
}

/* What the objects a placement frees wait for: its own timelines at the
 * values its frames reached and, where the graph keeps objects (which
 * frames of earlier placements may still use), the kept graphics timeline
 * at the value those reached; the application's retire point is added by
 * rg__retire_begin. A placement that took kept objects and failed, or a
 * stashed one, has no frames of its own but may free such objects. */
static rg__retire_point point_of(rg_graph *g)
{
    const rg__placement *pl = g->placement;
    const rg__execution *x = g->exec;
    const rg__reuse *k = g->reuse;
    rg__retire_point point = {.on_device = pl->on_device};
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        point.semaphores[q] = pl->semaphores[q];
        point.values[q] = x->submitted[q];
    }
    VkSemaphore *s = &point.semaphores[RG_QUEUE_GRAPHICS];
    if (k && k->point_semaphore && (!*s || *s == k->point_semaphore)) {
        *s = k->point_semaphore;
        if (k->point_value > point.values[RG_QUEUE_GRAPHICS])
            point.values[RG_QUEUE_GRAPHICS] = k->point_value;
        point.on_device = true;
    }
    return point;
}

/* Into the kept ones: the placement's objects, its graphics timeline with
 * the values its frames reached. */
static void keep(rg_graph *g, rg__reuse *k)
{
    rg__placement *pl = rg__placement_of(g);
    rg__execution *x = rg__block_execution(g);
    rg__reuse_age(g, k);
    k->placed_hash = g->decl.hash;
    k->generation++;
    if (k->semaphore)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_SEMAPHORE, .u.semaphore = k->semaphore});
    k->semaphore = pl->semaphores[RG_QUEUE_GRAPHICS];
    k->timeline = x->frame.timeline[RG_QUEUE_GRAPHICS];
    k->submitted = x->submitted[RG_QUEUE_GRAPHICS];
    k->point_semaphore = k->semaphore;
    k->point_value = k->submitted;
    pl->semaphores[RG_QUEUE_GRAPHICS] = VK_NULL_HANDLE;
    rg__place_views_hand_over(g, &pl->views, k);
    rg__place_memory_hand_over(g, &pl->objects, k);
}

void rg__placement_free(rg_graph *g, const char *what, rg__free_mode mode)
{
    rg__placement *pl = rg__placement_of(g);
    if (pl->stashed && mode != RG__FREE_RELEASE)
        return; /* stays for the next placement */
    rg__retire_point point = point_of(g);
    rg__retire_begin(g, &point);
    if (pl->stashed) /* its objects are with the kept ones: its parts go */
        free_parts(g);
    rg__reuse *k = mode != RG__FREE_RELEASE && pl->on_device && reusable(g) ? rg__reuse_of(g) : NULL;
    if (k)
        keep(g, k);
    else if (mode == RG__FREE_RELEASE || pl->on_device)
        rg__reuse_release(g, g->reuse);
    if (k && mode == RG__FREE_STASH) {
        pl->stashed = true;
        pl->stash_hash = g->decl.hash;
        pl->stash_compiles = g->compiled->compiles;
        pl->stash_timings = g->timings;
        pl->synced = pl->on_device = false; /* queries and execute see no placement */
    } else {
        free_parts(g);
    }
    end_retiring(g, what, k != NULL || (g->reuse && g->reuse->object_count));
}

void rg__placement_drop_stash(rg_graph *g, const char *what)
{
    if (!g->placement->stashed)
        return;
    rg__retire_point point = point_of(g);
    rg__retire_begin(g, &point);
    free_parts(g);
    end_retiring(g, what, true);
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

/* The stashed placement taken back whole: the same declaration, compiled
 * without running a stage since. Its barriers' public forms get the new
 * handles; its execute state goes on (history pairs keep their contents). */
static bool take_back(rg_graph *g)
{
    rg__placement *pl = rg__placement_of(g);
    rg__reuse *k = g->reuse;
    if (!pl->stashed || pl->stash_hash != g->decl.hash || pl->stash_compiles != g->compiled->compiles ||
        pl->stash_timings != g->timings || !k || !reusable(g))
        return false;
    uint32_t objects = rg__reuse_take_back(k);
    pl->semaphores[RG_QUEUE_GRAPHICS] = k->semaphore;
    k->semaphore = VK_NULL_HANDLE;
    rg__placed_objects *o = &pl->objects;
    o->handed = pl->views.handed = false;
    o->reused = objects;
    o->made = o->memory_made = 0;
    pl->views.reused = pl->views.made_count;
    rg__sync_retag(g, &pl->sync);
    pl->stashed = pl->waits_for_kept = false;
    pl->synced = pl->on_device = true;
    g->status->state = RG__PLACED;
    return true;
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
    if (take_back(g))
        return RG_SUCCESS;
    rg__placement_drop_stash(g, "rg_place");
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
