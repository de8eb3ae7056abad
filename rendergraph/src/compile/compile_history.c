/* Compile stage "history": the targets of every history pair's previous
 * half (rendergraph.h, "History"). The image a previous half reads is the
 * one its current half wrote in the frame before, so per subresource the
 * current half must end the frame the way the previous half's reads begin
 * it: in the layout the first of them is in, visible to every read in that
 * layout. That state is the subresource's target. The barrier planner
 * reads it to plan the current half's final step, the previous half's
 * start, and the first execute's clears, which leave every target.
 */
#include "compile/stages.h"

/* Folds one read of a previous half into the targets of its slots. */
static void target_read(const rg_graph *g, uint32_t access, rg__history_target *t)
{
    const rg__access *a = &g->decl.accesses[access];
    const rg__resource *r = &g->decl.resources[a->resource];
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 mask;
    VkImageLayout layout;
    rg__access_effective(g, access, &stage, &mask, &layout);
    for (uint32_t bits = a->range.aspect; bits; bits &= bits - 1)
        for (uint32_t m = a->range.base_mip; m < a->range.base_mip + a->range.mip_count; m++)
            for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++) {
                rg__history_target *x = &t[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), m, l)];
                if (!x->read)
                    *x = (rg__history_target){true, layout, 0, 0};
                if (x->layout == layout) {
                    x->stage |= stage;
                    x->access |= mask;
                }
            }
}

/* The previous halves' accesses in execution order: the first read of a
 * slot sets its layout, later reads in that layout widen its scope. */
rg_result rg__compile_history(const rg_graph *g, rg__history_targets *out)
{
    rg__history_target *t = rg__calloc(g, (size_t)g->decl.sub_total + 1, sizeof *t);
    out->of = t;
    if (!t)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t pos = 0; pos < rg__order_count(g); pos++) {
        const rg__cmd *cmd = &g->decl.cmds[rg__order_cmds(g)[pos]];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            const rg__resource *r = &g->decl.resources[a->resource];
            if (a->role != RG__ROLE_LIFETIME && rg__history(r) && r->history_previous)
                target_read(g, cmd->first_access + k, t);
        }
    }
    return RG_SUCCESS;
}

void rg__history_free(const rg_graph *g, rg__history_targets *h)
{
    rg__free(g, h->of);
    *h = (rg__history_targets){0};
}
