/* The stages the batches' semaphore waits block (compile stage
 * "barriers", several queues): from what the planner noted per position
 * and queue (pos_wait), each wait blocks exactly the stages that need the
 * other queue's work. */
#include "compile/stages.h"

/* The batch waits' stages from the positions' needs: each access that
 * needs another queue's work adds its stages to the wait that brought
 * that work, the nearest wait on that queue at or before its batch (waits
 * on a queue name ever later batches, so that one covers it). Waits of
 * the frame's edges keep ALL_COMMANDS; a wait no access needed waits at
 * every stage. *out: per batch and queue, as rg__sync.wait_stage. */
rg_result rg__compile_wait_stages(const rg_graph *g, const VkPipelineStageFlags2 *pos_wait,
                                  VkPipelineStageFlags2 **out)
{
    const rg__queues *c = &g->compiled->queues;
    VkPipelineStageFlags2 *ws = rg__calloc(g, ((size_t)c->batch_count + 1) * RG_QUEUE_COUNT, sizeof *ws);
    *out = ws;
    if (!ws)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t b = 0; b < c->batch_count; b++)
        for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
            ws[(size_t)b * RG_QUEUE_COUNT + r] = c->batches[b].wait[r].base;
    for (uint32_t pos = 0; pos < rg__order_count(g); pos++)
        for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++) {
            VkPipelineStageFlags2 stage = pos_wait[(size_t)pos * RG_QUEUE_COUNT + r];
            if (!stage)
                continue;
            rg_queue q = c->batches[c->pos_batch[pos]].queue;
            uint32_t b = c->pos_batch[pos] + 1;
            while (b-- > 0 && !(c->batches[b].queue == q && c->batches[b].waits_on[r] &&
                                c->batches[b].wait[r].batch != RG__NONE))
                ;
            if (b == UINT32_MAX) {
                const rg__cmd *cmd = &g->decl.cmds[rg__order_cmds(g)[pos]];
                return rg__report(g, RG_ERROR_INTERNAL, "internal: command '%s' on the %s queue needs the %s "
                                  "queue's work but no batch of its queue waits for it", cmd->name, rg_queue_name(q),
                                  rg_queue_name((rg_queue)r));
            }
            ws[(size_t)b * RG_QUEUE_COUNT + r] |= stage;
        }
    for (uint32_t b = 0; b < c->batch_count; b++)
        for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
            if (c->batches[b].waits_on[r] && !ws[(size_t)b * RG_QUEUE_COUNT + r])
                ws[(size_t)b * RG_QUEUE_COUNT + r] = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    return RG_SUCCESS;
}
