/* The record context (rendergraph.h, section 12): what a record callback
 * asks of the graph. A callback gets only what its command declared
 * ("Declared only"); the descriptors are record_descriptors.c's, the
 * contexts tools that record by hand make (rg_record_context_get, _for)
 * the conductor's (graph_execute.c). */
#include "base/rules.h"
#include "compile/stages.h"
#include "execute/stages.h"

VkCommandBuffer rg_record_cmd(const rg_record_context *rc) { return rc ? rc->cmd : VK_NULL_HANDLE; }
rg_graph *rg_record_graph(const rg_record_context *rc) { return rc ? rc->graph : NULL; }

/* Whether the command being recorded declared resource ri: one of its
 * own accesses, or for a command inside a span one of the span's
 * attachments (the begin command's accesses). An undeclared resource would
 * be used without a barrier, so it is refused with RG_ERROR_UNDECLARED
 * naming the call, the command and the resource; a context without a
 * command (rg_record_context_get) and a lenient graph hand out anything. */
static bool declared(const rg_record_context *rc, uint32_t ri, const char *what)
{
    const rg_graph *g = rc->graph;
    if (!RG__RULE(RECORD_DECLARED_ONLY, rc->command != RG__NONE && !g->lenient_record_access))
        return true;
    const rg__cmd *c = &g->decl.cmds[rc->command];
    for (uint32_t k = 0; k < c->access_count; k++)
        if (g->decl.accesses[c->first_access + k].resource == ri)
            return true;
    if (c->span != RG__NONE) {
        const rg__cmd *begin = &g->decl.cmds[g->decl.spans[c->span].begin_cmd];
        for (uint32_t k = 0; k < begin->access_count; k++)
            if (g->decl.accesses[begin->first_access + k].resource == ri)
                return true;
    }
    const rg__resource *r = &g->decl.resources[ri];
    rg__report(rc->graph, RG_ERROR_UNDECLARED, "%s: command '%s' did not declare %s '%s' (declare an access, or "
               "rg_graph_desc.lenient_record_access)", what, c->name, r->is_texture ? "texture" : "buffer", r->name);
    return false;
}

VkImage rg_record_image(const rg_record_context *rc, rg_texture t)
{
    uint32_t i = rc ? rg__texture_index(rc->graph, t) : RG__NONE;
    return i == RG__NONE || !declared(rc, i, "rg_record_image") ? VK_NULL_HANDLE : rg__image(rc->graph, i);
}

VkImageView rg_record_view(const rg_record_context *rc, rg_texture t)
{
    uint32_t i = rc ? rg__texture_index(rc->graph, t) : RG__NONE;
    return i == RG__NONE || !declared(rc, i, "rg_record_view") ? VK_NULL_HANDLE : rg__view(rc->graph, i);
}

VkBuffer rg_record_buffer(const rg_record_context *rc, rg_buffer b)
{
    uint32_t i = rc ? rg__buffer_index(rc->graph, b) : RG__NONE;
    return i == RG__NONE || !declared(rc, i, "rg_record_buffer") ? VK_NULL_HANDLE
                                                                  : rg__buffer(rc->graph, i);
}
