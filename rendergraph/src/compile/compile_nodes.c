/* Compile stage "nodes": a span (begin .. end, contiguous in record order)
 * is contracted into one node, every other command is a node of its own.
 * Node indices follow record order, so every hazard edge found later goes
 * from a lower node to a higher one and node index order is topological.
 */
#include "compile/stages.h"

#include <stdlib.h>

/* Sets each command's node; fills first_cmd (node count + 1 entries) when
 * given. Returns the node count. */
rg_result rg__compile_nodes(const rg_graph *g, rg__nodes *out)
{
    uint32_t *first_cmd = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *first_cmd);
    uint32_t *of_cmd = rg__malloc(g, ((size_t)g->decl.cmd_count + 1) * sizeof *of_cmd);
    out->first_cmd = first_cmd;
    out->of_cmd = of_cmd;
    if (!first_cmd || !of_cmd)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t n = 0;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (cmd->span == RG__NONE || cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING)
            first_cmd[n++] = c;
        of_cmd[c] = n - 1;
    }
    first_cmd[n] = g->decl.cmd_count;
    out->count = n;
    return RG_SUCCESS;
}

void rg__nodes_free(const rg_graph *g, rg__nodes *n)
{
    rg__free(g, n->first_cmd);
    rg__free(g, n->of_cmd);
    *n = (rg__nodes){0};
}
