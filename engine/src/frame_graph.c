/* A render graph run as a swapchain frame (eng_swapchain_present_graph):
 * the graph's batches recorded into the frame's command buffers of their
 * queues, the swapchain image finished after the graph, the plan submitted
 * with the frame's semaphores and fence, the image presented. Built on the
 * swapchain's public frame calls alone, as an application doing the same
 * by hand would be (tests/device/test_rg_queues.c's runner is that). */
#include "internal.h"

#include <stdlib.h>

/* Batches whose command buffers fit on the stack; more are allocated. */
#define STACK_BATCHES 16

static eng_queue_kind kind_of(rg_queue queue)
{
    switch (queue) {
    case RG_QUEUE_COMPUTE:
        return ENG_QUEUE_COMPUTE;
    case RG_QUEUE_TRANSFER:
        return ENG_QUEUE_TRANSFER;
    default:
        return ENG_QUEUE_GRAPHICS;
    }
}

static eng_result result_of(rg_result r)
{
    switch (r) {
    case RG_ERROR_OUT_OF_MEMORY:
        return ENG_ERROR_OUT_OF_MEMORY;
    case RG_ERROR_VULKAN:
        return ENG_ERROR_VULKAN;
    case RG_ERROR_UNSUPPORTED:
        return ENG_ERROR_UNSUPPORTED;
    default: /* the graph given cannot run: not compiled, failed, a callback's refusal */
        return ENG_ERROR_INVALID_ARGUMENT;
    }
}

/* The state the graph leaves backbuffer in after its last batch. After
 * placement, rg_barrier_get lists exactly what the graph records, and
 * only barriers change an image's layout: the layout is that of the last
 * barrier on it. When that barrier is the frame's final one (the import's
 * final state), its destination scope is what comes next; otherwise a use
 * after it, at any stage, may be the last. No barrier: never touched, its
 * layout unknown here, so UNDEFINED (finishing discards the contents). */
static void backbuffer_state(const rg_graph *graph, rg_texture backbuffer, VkImageLayout *layout,
                             VkPipelineStageFlags2 *stage, VkAccessFlags2 *access)
{
    *layout = VK_IMAGE_LAYOUT_UNDEFINED;
    *stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    *access = VK_ACCESS_2_MEMORY_WRITE_BIT;
    const rg_barrier_info *last = NULL;
    for (uint32_t i = 0, n = rg_barrier_count(graph); i < n; i++) {
        const rg_barrier_info *b = rg_barrier_get(graph, i);
        if (b && b->texture.id == backbuffer.id)
            last = b;
    }
    if (!last)
        return;
    *layout = last->new_layout;
    if (last->before.id == 0 && last->dst_stage) {
        *stage = last->dst_stage;
        *access = last->dst_access;
    }
}

/* Ends a frame the graph could not record, without it: a fresh graphics
 * command buffer that only hands the image over (from UNDEFINED: what the
 * dropped recording did to it is unknown) is submitted in frame->cmd's
 * place with the frame's semaphores and fence, then presented. Then the
 * error of the graph, saved in why, is set again as the call's. */
static eng_result end_without_graph(eng_swapchain *sc, eng_frame *frame, eng_result result, const char *why)
{
    char message[1024];
    snprintf(message, sizeof message, "%s", why);
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    eng_result res = eng_frame_command_buffer(sc, frame, ENG_QUEUE_GRAPHICS, &cmd);
    if (res == ENG_SUCCESS) {
        frame->cmd = cmd;
        eng_swapchain_finish_image(sc, frame, VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0);
        res = eng_swapchain_present(sc, frame);
    }
    if (res != ENG_SUCCESS)
        return eng__fail(result, "eng_swapchain_present_graph: %s (and the frame could not be ended: %s)", message,
                         eng_last_error());
    return eng__fail(result, "eng_swapchain_present_graph: %s", message);
}

static eng_result graph_failed(eng_swapchain *sc, eng_frame *frame, const rg_graph *graph, rg_result r)
{
    char why[1024];
    snprintf(why, sizeof why, "%s (%s)", graph ? rg_graph_error_message(graph) : "", rg_result_string(r));
    return end_without_graph(sc, frame, result_of(r), why);
}

/* Records the graph's batches into cmds (the first graphics batch into
 * frame->cmd, the others into new command buffers of their queues). */
static eng_result record(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, uint32_t n, VkCommandBuffer *cmds,
                         rg_submit_plan *plan)
{
    bool first_graphics = true;
    for (uint32_t i = 0; i < n; i++) {
        rg_batch_info b;
        rg_result r = rg_batch_get(graph, i, &b);
        if (r != RG_SUCCESS)
            return graph_failed(sc, frame, graph, r);
        if (b.queue == RG_QUEUE_GRAPHICS && first_graphics) {
            cmds[i] = frame->cmd;
            first_graphics = false;
            continue;
        }
        eng_result res = eng_frame_command_buffer(sc, frame, kind_of(b.queue), &cmds[i]);
        if (res != ENG_SUCCESS) {
            char why[1024];
            snprintf(why, sizeof why, "%s", eng_last_error());
            return end_without_graph(sc, frame, res, why);
        }
    }
    rg_result r = rg_execute_batches(graph, cmds, plan);
    return r == RG_SUCCESS ? ENG_SUCCESS : graph_failed(sc, frame, graph, r);
}

eng_result eng_swapchain_present_graph(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, rg_texture backbuffer)
{
    if (!sc || !frame || !frame->cmd)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_present_graph: no frame acquired");
    if (!graph)
        return end_without_graph(sc, frame, ENG_ERROR_INVALID_ARGUMENT, "NULL graph");
    rg_result r = rg_texture_set_image(graph, backbuffer, frame->image, frame->view);
    if (r != RG_SUCCESS)
        return graph_failed(sc, frame, graph, r);

    /* A graph that is not compiled has no batches: rg_execute_batches,
     * given frame->cmd alone, refuses it with the graph's message. */
    uint32_t n = rg_batch_count(graph);
    VkCommandBuffer stack[STACK_BATCHES];
    VkCommandBuffer *cmds = stack;
    if (n > STACK_BATCHES && !(cmds = malloc(n * sizeof *cmds)))
        return end_without_graph(sc, frame, ENG_ERROR_OUT_OF_MEMORY, "out of host memory");
    if (n == 0)
        cmds[0] = frame->cmd;
    rg_submit_plan plan = { 0 };
    eng_result res = record(sc, frame, graph, n, cmds, &plan);
    if (res != ENG_SUCCESS)
        goto done;
    n = plan.count;

    /* Recorded: from here the plan must be submitted (its timeline values
     * are taken). The last batch is on the graphics queue and holds the
     * frame's final transitions; the image is finished after them. */
    VkImageLayout layout;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    backbuffer_state(graph, backbuffer, &layout, &stage, &access);
    eng_frame last = *frame;
    last.cmd = cmds[n - 1];
    eng_swapchain_finish_image(sc, &last, layout, stage, access);
    for (uint32_t i = 0; i < n; i++) {
        VkResult vr = vkEndCommandBuffer(cmds[i]);
        if (vr != VK_SUCCESS) {
            res = eng__vk_fail(vr, "eng_swapchain_present_graph: vkEndCommandBuffer");
            goto done;
        }
    }
    VkSemaphoreSubmitInfo acquired = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = frame->acquire_semaphore,
        .stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
    };
    VkSemaphoreSubmitInfo rendered = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = frame->present_semaphore,
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
    rg_submit_desc sd = {
        .waits = &acquired,
        .wait_count = frame->acquire_semaphore ? 1 : 0,
        .signals = &rendered,
        .signal_count = frame->present_semaphore ? 1 : 0,
        .fence = frame->fence,
    };
    r = rg_submit(graph, &plan, &sd);
    if (r != RG_SUCCESS) {
        res = eng__fail(result_of(r), "eng_swapchain_present_graph: %s", rg_graph_error_message(graph));
        goto done;
    }
    res = eng_swapchain_present_submitted(sc, frame);
done:
    if (cmds != stack)
        free(cmds);
    return res;
}
