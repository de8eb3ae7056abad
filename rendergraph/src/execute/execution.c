/* The frame state (execute/results.h) made and freed with the placement
 * on the device: each part by the file that writes it, handed its part
 * here by the conductor's call (graph.c). */
#include "execute/stages.h"

rg_result rg__execution_prepare(rg_graph *g, rg__execution *x, const char *what)
{
    rg_result r = rg__bound_views_prepare(g, &x->bound, what);
    if (r == RG_SUCCESS)
        r = rg__timings_frames_prepare(g, &x->timing, what);
    if (r == RG_SUCCESS)
        r = rg__chunks_cut(g, &x->chunks, 0, what);
    if (r == RG_SUCCESS)
        r = rg__runs_prepare(g, &x->runs, what);
    return r == RG_SUCCESS ? rg__frame_prepare(g, &x->frame, what) : r;
}

void rg__execution_free(rg_graph *g, rg__execution *x)
{
    rg__chunks_free(g, &x->chunks);
    rg__runs_free(g, &x->runs);
    rg__frame_free(g, &x->frame);
    rg__bound_views_free(g, &x->bound);
    rg__access_views_free(g, &x->access_views);
    rg__timings_frames_free(g, &x->timing);
    *x = (rg__execution){0};
}
