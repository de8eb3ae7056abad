/* Debug labels (rg_device_desc.debug_utils): what execute records is
 * wrapped in vkCmdBeginDebugUtilsLabelEXT / vkCmdEndDebugUtilsLabelEXT
 * named after the graph's batches, spans and commands, so a capture
 * (RenderDoc), a profiler or a validation message shows where it is:
 *   graph "frame" batch 0 on graphics       the batch's command buffer
 *     gbuffer                                a span: its begin's barriers
 *       draw scene                           to its end; a command: its
 *     ssao                                   barriers and its recording
 * Spans merged into one rendering instance get one label each, nested in
 * no other. Labels open and close in pairs on each command buffer;
 * execute.c counts the open ones and closes them when a callback fails.
 * Without debug utils nothing is recorded.
 */
#include "base/device.h"
#include "execute/stages.h"

#include <stdio.h>

static void label_begin(const rg_graph *g, VkCommandBuffer cmd, const char *name)
{
    VkDebugUtilsLabelEXT label = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name };
    g->dev->vk.CmdBeginDebugUtilsLabelEXT(cmd, &label);
}


uint32_t rg__label_batch_begin(const rg_graph *g, VkCommandBuffer cmd, uint32_t b)
{
    if (!rg__labelled(g))
        return 0;
    char name[RG__NAME_MAX + 64];
    snprintf(name, sizeof name, "graph \"%s\" batch %u on %s", g->name, b,
             rg_queue_name(g->compiled->queues.batches[b].queue));
    label_begin(g, cmd, name);
    return 1;
}

/* Every command but a span's end opens one: a span's begin for the span,
 * any other for itself. */
uint32_t rg__label_before(const rg_graph *g, VkCommandBuffer cmd, uint32_t p)
{
    const rg__cmd *c = &g->decl.cmds[g->compiled->merge.order.cmds[p]];
    if (!rg__labelled(g) || c->type == RG_COMMAND_TYPE_END_RENDERING)
        return 0;
    label_begin(g, cmd, c->name);
    return 1;
}

/* A span's end closes the span's; every command but a span's begin
 * closes its own. */
uint32_t rg__label_after(const rg_graph *g, VkCommandBuffer cmd, uint32_t p)
{
    const rg__cmd *c = &g->decl.cmds[g->compiled->merge.order.cmds[p]];
    if (!rg__labelled(g) || c->type == RG_COMMAND_TYPE_BEGIN_RENDERING)
        return 0;
    g->dev->vk.CmdEndDebugUtilsLabelEXT(cmd);
    return 1;
}

uint32_t rg__label_span(const rg_graph *g, VkCommandBuffer cmd, uint32_t span)
{
    if (!rg__labelled(g) || span == RG__NONE)
        return 0;
    label_begin(g, cmd, g->decl.cmds[g->decl.spans[span].begin_cmd].name);
    return 1;
}

void rg__labels_end(const rg_graph *g, VkCommandBuffer cmd, uint32_t open)
{
    for (uint32_t i = 0; i < open && rg__labelled(g); i++)
        g->dev->vk.CmdEndDebugUtilsLabelEXT(cmd);
}
