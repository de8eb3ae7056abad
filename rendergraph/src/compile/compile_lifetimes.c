/* Compile stage "lifetimes": each resource's first and last use as
 * positions in the execution order (RG__NONE: unused, so placement does not
 * create it). Lifetime-only accesses (a span's end) count: an attachment
 * lives to the end of its span, and an attachment or resolve target of a
 * merged instance from its begin to its end (it is bound, loaded and
 * stored or resolved there).
 */
#include "compile/stages.h"

/* What a merged instance binds lives from its begin to its end. */
static void live_across(const rg__instance *in, rg__lifetime *l)
{
    if (l->first > in->begin_pos)
        l->first = in->begin_pos;
    if (l->last == RG__NONE || l->last < in->end_pos)
        l->last = in->end_pos;
}

/* The resolve targets of a merged instance's spans (or a folded span's)
 * are bound from the instance's begin (vkCmdBeginRendering names them) to
 * its end, where the resolve writes them. */
static void resolves_live(const rg_graph *g, const rg__instance *in, rg__lifetime *of)
{
    for (uint32_t k = 0; k < in->count; k++) {
        const rg__span *sp = &g->decl.spans[g->compiled->merge.instance_spans[in->first + k]];
        /* A span's attachments and resolves are its begin's and end's accesses. */
        const uint32_t ends[2] = {sp->begin_cmd, sp->end_cmd};
        for (uint32_t e = 0; e < 2; e++) {
            const rg__cmd *cmd = &g->decl.cmds[ends[e]];
            for (uint32_t a = cmd->first_access; a < cmd->first_access + cmd->access_count; a++) {
                if (g->decl.accesses[a].role != RG__ROLE_RESOLVE)
                    continue;
                live_across(in, &of[g->decl.accesses[a].resource]);
            }
        }
    }
}

rg_result rg__compile_lifetimes(const rg_graph *g, rg__lifetimes *out)
{
    rg__lifetime *of = rg__malloc(g, ((size_t)g->decl.resource_count + 1) * sizeof *of);
    out->of = of;
    if (!of)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++)
        of[ri] = (rg__lifetime){RG__NONE, RG__NONE};
    const rg__merged *m = &g->compiled->merge;
    for (uint32_t pos = 0; pos < m->order.count; pos++) {
        const rg__cmd *cmd = &g->decl.cmds[m->order.cmds[pos]];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            if (rg__folded(g, g->decl.accesses[cmd->first_access + k].resource))
                continue; /* no image: nothing to keep alive */
            rg__lifetime *l = &of[g->decl.accesses[cmd->first_access + k].resource];
            if (l->first == RG__NONE)
                l->first = pos;
            l->last = pos;
        }
    }
    for (uint32_t ii = 0; ii < m->instance_count; ii++) {
        const rg__instance *in = &m->instances[ii];
        /* A folded span renders into its resolve targets from its begin. */
        if (in->count == 1 && g->compiled->fold.span_samples[m->instance_spans[in->first]])
            resolves_live(g, &m->instances[ii], of);
        if (in->count < 2)
            continue;
        for (uint32_t u = 0; u <= in->color_count; u++) {
            const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
            if (!att)
                continue;
            live_across(in, &of[att->resource]);
        }
        resolves_live(g, in, of);
    }
    return RG_SUCCESS;
}

void rg__lifetimes_free(const rg_graph *g, rg__lifetimes *l)
{
    rg__free(g, l->of);
    *l = (rg__lifetimes){0};
}
