/* Compile stage "nodes": a span (begin .. end, contiguous in record order)
 * is contracted into one node, every other command is a node of its own.
 * Node indices follow record order, so every hazard edge found later goes
 * from a lower node to a higher one and node index order is topological.
 */
#include "graph_internal.h"

#include <stdlib.h>

/* Sets each command's node; fills first_cmd (node count + 1 entries) when
 * given. Returns the node count. */
static uint32_t assign_nodes(rg_graph *g, uint32_t *first_cmd)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        rg__cmd *cmd = &g->decl.cmds[c];
        if (cmd->span == RG__NONE || cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING) {
            if (first_cmd)
                first_cmd[n] = c;
            n++;
        }
        cmd->node = n - 1;
    }
    if (first_cmd)
        first_cmd[n] = g->decl.cmd_count;
    return n;
}

rg_result rg__compile_nodes(rg_graph *g)
{
    rg__compiled *c = &g->compiled;
    if (c->node_first_cmd) {
        /* An identical re-declaration: the node arrays are still right, the
         * commands' node fields are new. */
        assign_nodes(g, NULL);
        return RG_SUCCESS;
    }
    c->node_count = assign_nodes(g, NULL);
    c->node_first_cmd = rg__malloc(g, ((size_t)c->node_count + 1) * sizeof *c->node_first_cmd);
    if (!c->node_first_cmd)
        return RG_ERROR_OUT_OF_MEMORY;
    assign_nodes(g, c->node_first_cmd);
    return RG_SUCCESS;
}
