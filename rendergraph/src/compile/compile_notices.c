/* After compile: the log's notices (INFO, rendergraph.h "Culling" and
 * rg_log_fn), read from every stage's results and written nowhere else:
 * commands culled and why, resources not created, attachments not
 * transient only for a load or store op, commands kept off the queue they
 * are eligible for. Not printed by the default log (INFO). */
#include "compile/stages.h"

#include <stdio.h>

/* The log's notices of a compile (rg_log_fn): what will not run and why,
 * what is not created, what is not transient only for a load or store
 * op, what stays off the queue it is eligible for. */
void rg__compile_notices(const rg_graph *g)
{
    if (!g->log)
        return;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c) && (cmd->span == RG__NONE || cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING))
            rg__log(g, RG_LOG_INFO, "%s '%s' is culled: %s", cmd->span == RG__NONE ? "command" : "span", cmd->name,
                    rg__cull_reason(g, c));
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (r->imported || rg__first_use(g, ri) != RG__NONE)
            continue;
        bool used = false;
        for (uint32_t a = 0; a < g->decl.access_count && !used; a++)
            used = g->decl.accesses[a].resource == ri;
        if (used)
            rg__log(g, RG_LOG_INFO, "%s '%s' is not created: only culled commands use it",
                    r->is_texture ? "texture" : "buffer", r->name);
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        char note[320];
        if (rg__first_use(g, ri) != RG__NONE && rg__transient_notice(g, ri, note, sizeof note))
            rg__log(g, RG_LOG_INFO, "%s", note);
    }
    for (uint32_t i = 0; i < g->compiled->queues.note_count; i++)
        rg__log(g, RG_LOG_INFO, "command '%s' stays on the graphics queue: %s",
                g->decl.cmds[g->compiled->queues.notes[i].cmd].name, g->compiled->queues.notes[i].reason);
}
