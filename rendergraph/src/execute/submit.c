/* Submitting a frame's plan (rendergraph.h, "Queues"): one vkQueueSubmit2
 * per batch, in batch order, so every semaphore value a batch waits for
 * was submitted before it. The application's waits join the first
 * graphics batch; its signals and fence the last batch. The values
 * submitted, and the application's retire point, are what a freed
 * placement waits for (rendergraph.h, "Placement and the GPU"). */
#include "base/device.h"
#include "execute/stages.h"

/* Command buffers per submission: a batch's chunks. */
#define RG__SUBMIT_CMDS RG__MAX_CHUNKS

rg_result rg__submit(rg_graph *g, uint64_t submitted[RG_QUEUE_COUNT], const rg_submit_plan *plan,
                     const rg_submit_desc *desc)
{
    rg__call_begin(g);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: graph '%s' was created without a device", g->name);
    if (!plan || !plan->submissions || plan->count == 0)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: no plan (rg_execute_batches fills one)");
    rg_submit_desc none = {0};
    if (!desc)
        desc = &none;
    if ((desc->wait_count && !desc->waits) || (desc->signal_count && !desc->signals))
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: a wait or signal count without its array");
    /* The first graphics batch's waits: the plan's and the application's. */
    uint32_t first_graphics = plan->count;
    for (uint32_t b = 0; b < plan->count && first_graphics == plan->count; b++)
        if (plan->submissions[b].queue == RG_QUEUE_GRAPHICS)
            first_graphics = b;
    for (uint32_t b = 0; b < plan->count; b++) {
        const rg_submission *s = &plan->submissions[b];
        bool last = b == plan->count - 1;
        VkSemaphoreSubmitInfo waits[RG_QUEUE_COUNT + 16], signals[1 + 16];
        uint32_t wait_count = 0, signal_count = 0;
        for (uint32_t i = 0; i < s->wait_count; i++)
            waits[wait_count++] = s->waits[i];
        signals[signal_count++] = s->signal;
        if (b == first_graphics) {
            if (desc->wait_count > 16)
                return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: %u waits, at most 16", desc->wait_count);
            for (uint32_t i = 0; i < desc->wait_count; i++)
                waits[wait_count++] = desc->waits[i];
        }
        if (last) {
            if (desc->signal_count > 16)
                return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: %u signals, at most 16",
                                  desc->signal_count);
            for (uint32_t i = 0; i < desc->signal_count; i++)
                signals[signal_count++] = desc->signals[i];
        }
        /* The batch's chunks, in order (one when recorded whole). */
        uint32_t cmd_count = s->cmd_count ? s->cmd_count : 1;
        if (cmd_count > RG__SUBMIT_CMDS)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_submit: batch %u has %u command buffers, at most %u",
                              b, cmd_count, RG__SUBMIT_CMDS);
        VkCommandBufferSubmitInfo cmds[RG__SUBMIT_CMDS];
        for (uint32_t i = 0; i < cmd_count; i++)
            cmds[i] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                  .commandBuffer = s->cmd_count ? s->cmds[i] : s->cmd};
        VkSubmitInfo2 info = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
            .waitSemaphoreInfoCount = wait_count,
            .pWaitSemaphoreInfos = waits,
            .commandBufferInfoCount = cmd_count,
            .pCommandBufferInfos = cmds,
            .signalSemaphoreInfoCount = signal_count,
            .pSignalSemaphoreInfos = signals,
        };
        VkResult vr = g->dev->vk.QueueSubmit2(s->vk_queue, 1, &info, last ? desc->fence : VK_NULL_HANDLE);
        if (vr != VK_SUCCESS)
            return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                                     ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                              "rg_submit: batch %u on the %s queue: vkQueueSubmit2: %s", b, rg_queue_name(s->queue),
                              rg_vk_result_string(vr));
        /* What retiring the placement waits for (device.c). */
        for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
            if (s->signal.semaphore == g->placement->semaphores[q] && s->signal.value > submitted[q])
                submitted[q] = s->signal.value;
    }
    g->unretired = 0; /* the graph's timelines signal after the frame */
    return RG_SUCCESS;
}

rg_result rg__set_retire_point(rg_graph *g, VkSemaphore timeline, uint64_t value, VkFence fence)
{
    rg__call_begin(g);
    if (!g->dev)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "rg_graph_set_retire_point: graph '%s' was created without "
                          "a device", g->name);
    g->retire_timeline = timeline;
    g->retire_value = timeline ? value : 0;
    g->retire_fence = fence;
    g->unretired = 0; /* what it names signals after the frames recorded so far */
    return RG_SUCCESS;
}
