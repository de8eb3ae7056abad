/* The frame's life (rg__frame, this file's part of the frame): each span's
 * rendering info, the spans whose views change per frame, the chunks'
 * command buffers and the submission plan, made when the graph is placed
 * on its device and freed with the placement; from frame to frame, how
 * many frames were recorded and whether history pairs' halves are swapped
 * (rendergraph.h, "History": every frame after the first of a placement
 * swaps the halves' images before anything is bound). */
#include "compile/stages.h"
#include "execute/stages.h"
#include "place/stages.h"

/* Each span's rendering as the frame begins it, made at placement; the
 * spans whose instance has an import or history attachment (its views
 * change per frame) are made again at every frame (dynamic_spans). */
static rg_result spans_prepare(rg_graph *g, rg__frame *f, const char *what)
{
    const rg__merged *m = &g->compiled->merge;
    uint32_t count = g->decl.span_count;
    f->spans = rg__calloc(g, (size_t)count + 1, sizeof *f->spans);
    f->dynamic_spans = rg__calloc(g, (size_t)count + 1, sizeof *f->dynamic_spans);
    bool *dynamic = rg__calloc(g, (size_t)count + 1, sizeof *dynamic);
    if (!f->spans || !f->dynamic_spans || !dynamic) {
        rg__free(g, dynamic);
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    }
    const rg__placed_views *pv = &g->placement->views;
    for (uint32_t i = 0; i < pv->import_slot_count; i++) {
        uint32_t span = pv->import_slots[i].span;
        if (m->span_map[span].instance == RG__NONE)
            continue; /* culled */
        const rg__instance *in = &m->instances[m->span_map[span].instance];
        for (uint32_t k = 0; k < in->count; k++)
            dynamic[m->instance_spans[in->first + k]] = true;
    }
    f->dynamic_count = 0;
    for (uint32_t s = 0; s < count; s++) {
        if (m->span_map[s].instance == RG__NONE)
            continue; /* culled: never begun */
        rg__span_rendering(g, g->exec->bound.spans, s, &f->spans[s]);
        if (dynamic[s])
            f->dynamic_spans[f->dynamic_count++] = s;
    }
    rg__free(g, dynamic);
    return RG_SUCCESS;
}

/* Room for the chunks' command buffers; grows only. */
static rg_result cmds_room(rg_graph *g, rg__frame *f, const char *what)
{
    uint32_t count = g->exec->chunks.count;
    if (count > f->cmd_cap) {
        VkCommandBuffer *cmds = rg__realloc(g, f->cmds, count * sizeof *cmds);
        if (!cmds)
            return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
        f->cmds = cmds;
        f->cmd_cap = count;
    }
    return RG_SUCCESS;
}

rg_result rg__frame_prepare(rg_graph *g, rg__frame *f, const char *what)
{
    f->submissions = rg__calloc(g, (size_t)g->compiled->queues.batch_count + 1, sizeof *f->submissions);
    if (!f->submissions)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    rg_result r = spans_prepare(g, f, what);
    return r == RG_SUCCESS ? cmds_room(g, f, what) : r;
}

/* The halves of every history pair trade images (and whole views): what
 * current wrote becomes previous (rg__holder). Swapping again undoes it. */
static void history_swap(rg__frame *f) { f->history_swapped = !f->history_swapped; }

rg_result rg__frame_begin(rg_graph *g, rg__frame *f, const char *what)
{
    rg_result r = cmds_room(g, f, what);
    if (r != RG_SUCCESS)
        return r;
    f->swapped_now = f->recorded > 0;
    if (f->swapped_now)
        history_swap(f);
    return RG_SUCCESS;
}

void rg__frame_abandon(rg__frame *f)
{
    if (f->swapped_now)
        history_swap(f);
    f->swapped_now = false;
}

void rg__frame_opened(rg_graph *g, rg__frame *f)
{
    for (uint32_t i = 0; i < f->dynamic_count; i++)
        rg__span_rendering(g, g->exec->bound.spans, f->dynamic_spans[i], &f->spans[f->dynamic_spans[i]]);
    /* The first graphics batch's first chunk clears history, in the
     * first frame of a placement. */
    f->clears_chunk = RG__NONE;
    for (uint32_t b = 0; b < g->compiled->queues.batch_count && f->recorded == 0; b++)
        if (g->compiled->queues.batches[b].queue == RG_QUEUE_GRAPHICS) {
            f->clears_chunk = g->exec->chunks.batch_chunk[b];
            break;
        }
    f->open = true;
}

/* The submission plan of the frame just recorded; the timelines move on
 * by the frame's batches. */
static void fill_plan(rg_graph *g, rg__frame *f, rg_submit_plan *plan)
{
    const rg__compiled *c = g->compiled;
    const VkSemaphore *semaphores = g->placement->semaphores;
    const uint32_t *batch_chunk = g->exec->chunks.batch_chunk;
    uint64_t count[RG_QUEUE_COUNT] = {0};
    for (uint32_t b = 0; b < c->queues.batch_count; b++) {
        const rg__batch *batch = &c->queues.batches[b];
        rg_submission *s = &f->submissions[b];
        uint32_t first = batch_chunk[b];
        *s = (rg_submission){
            .queue = batch->queue,
            .vk_queue = g->dev->queues[batch->queue].queue,
            .cmd = f->cmds[first],
            .cmds = &f->cmds[first],
            .cmd_count = batch_chunk[b + 1] - first,
            .signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphores[batch->queue],
                       .value = f->timeline[batch->queue] + batch->signal,
                       .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT},
        };
        for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++) {
            if (!batch->waits_on[r])
                continue;
            const rg__wait *w = &batch->wait[r];
            s->waits[s->wait_count++] = (VkSemaphoreSubmitInfo){
                .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                .semaphore = semaphores[r],
                .value = f->timeline[r] + (w->batch == RG__NONE ? 0 : c->queues.batches[w->batch].signal),
                .stageMask = rg__wait_stage(g, b, r),
            };
        }
        count[batch->queue] = batch->signal;
    }
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        f->timeline[q] += count[q];
    *plan = (rg_submit_plan){c->queues.batch_count, f->submissions};
}

void rg__frame_end(rg_graph *g, rg__frame *f, bool recorded, const VkCommandBuffer *cmds, rg_submit_plan *plan)
{
    f->open = false;
    if (!recorded) {
        rg__frame_abandon(f); /* the history stays as it was */
        return;
    }
    f->recorded++;
    if (g->unretired < UINT32_MAX)
        g->unretired++; /* until rg_submit or a retire point covers it (device.c) */
    for (uint32_t i = 0; i < g->exec->chunks.count; i++)
        f->cmds[i] = cmds[i];
    if (plan)
        fill_plan(g, f, plan);
}

void rg__frame_take_plan(rg__frame *f, rg_submission **submissions, VkCommandBuffer **cmds)
{
    *submissions = f->submissions;
    *cmds = f->cmds;
    f->submissions = NULL;
    f->cmds = NULL;
    f->cmd_cap = 0;
}

void rg__frame_free(rg_graph *g, rg__frame *f)
{
    RG__FREE_ALL(g, f->cmds, f->spans, f->dynamic_spans, f->submissions);
    *f = (rg__frame){0};
}

bool rg__frame_open(const rg_graph *g, const char *what)
{
    if (!g->exec->frame.open)
        return false;
    rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' is recording a frame in chunks (rg_execute_end "
               "ends it)", what, g->name);
    return true;
}
