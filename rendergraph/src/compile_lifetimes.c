/* Compile stage "lifetimes": each resource's first and last use as
 * positions in the execution order (RG__NONE: unused, so placement does not
 * create it). Lifetime-only accesses (a span's end) count: an attachment
 * lives to the end of its span, and an attachment of a merged instance
 * from its begin to its end (it is bound, loaded and stored there).
 */
#include "graph_internal.h"

void rg__compile_lifetimes(rg_graph *g)
{
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++)
        g->decl.resources[ri].first_use = g->decl.resources[ri].last_use = RG__NONE;
    for (uint32_t pos = 0; pos < g->compiled.order_count; pos++) {
        const rg__cmd *cmd = &g->decl.cmds[g->compiled.order[pos]];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            rg__resource *r = &g->decl.resources[g->decl.accesses[cmd->first_access + k].resource];
            if (r->first_use == RG__NONE)
                r->first_use = pos;
            r->last_use = pos;
        }
    }
    for (uint32_t ii = 0; ii < g->compiled.instance_count; ii++) {
        const rg__instance *in = &g->compiled.instances[ii];
        if (in->count < 2)
            continue;
        for (uint32_t u = 0; u <= in->color_count; u++) {
            const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
            if (!att)
                continue;
            rg__resource *r = &g->decl.resources[att->resource];
            if (r->first_use > in->begin_pos)
                r->first_use = in->begin_pos;
            if (r->last_use == RG__NONE || r->last_use < in->end_pos)
                r->last_use = in->end_pos;
        }
    }
}
