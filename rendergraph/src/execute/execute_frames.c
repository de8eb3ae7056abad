/* The frame state a placement prepares for execute (rg__frames): each
 * span's rendering info, the spans whose views change per frame, the
 * first cut of the frame into chunks and the submission plan's array;
 * freed with the placement. */
#include "compile/stages.h"
#include "execute/stages.h"
#include "place/stages.h"

/* Each span's rendering as the frame begins it, made at placement; the
 * spans whose instance has an import or history attachment (its views
 * change per frame) are made again at every frame (dynamic_spans). */
static rg_result spans_prepare(rg_graph *g, const char *what)
{
    rg__frames *f = &g->exec->frames;
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

rg_result rg__frames_prepare(rg_graph *g, const char *what)
{
    rg__frames *f = &g->exec->frames;
    const rg__sync *s = rg__sync_of(g);
    uint32_t need = s->point_max > s->history_clear_count ? s->point_max : s->history_clear_count;
    if (f->chunks)
        rg__frames_free(g);
    f->barrier_cap = need;
    f->submissions = rg__calloc(g, (size_t)g->compiled->queues.batch_count + 1, sizeof *f->submissions);
    if (!f->submissions)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    rg_result r = spans_prepare(g, what);
    return r == RG_SUCCESS ? rg__chunks_cut(g, 0, what) : r;
}

void rg__frames_take_plan(rg_graph *g, rg_submission **submissions, VkCommandBuffer **cmds)
{
    rg__frames *f = &g->exec->frames;
    *submissions = f->submissions;
    *cmds = f->cmds;
    f->submissions = NULL;
    f->cmds = NULL;
}

void rg__frames_free(rg_graph *g)
{
    rg__frames *f = &g->exec->frames;
    RG__FREE_ALL(g, f->chunks, f->batch_chunk, f->runs, f->cmds, f->image_barriers, f->buffer_barriers, f->spans,
                 f->dynamic_spans, f->submissions);
    *f = (rg__frames){0};
}

bool rg__frame_open(const rg_graph *g, const char *what)
{
    if (!g->exec->frames.open)
        return false;
    rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' is recording a frame in chunks (rg_execute_end "
               "ends it)", what, g->name);
    return true;
}
