/* A render graph run as a swapchain frame (eng_swapchain_present_graph and
 * eng_swapchain_present_graph_parallel, one path): the graph's chunks (one
 * per batch, or more: "Parallel recording" in rendergraph.h) recorded into
 * the frame's command buffers of their queues, on the calling thread or on
 * rg_workers' threads, the swapchain image finished after the graph, the
 * plan submitted with the frame's semaphores and fence, the image
 * presented. Built on the swapchain's public frame calls alone, as an
 * application doing the same by hand would be (tests/device/test_rg_queues.c's
 * runner is that). */
#include "internal.h"

#include <stdlib.h>

/* Chunks whose command buffers fit on the stack; a frame that may have
 * more allocates their array. */
#define STACK_CHUNKS 64
/* rg_execute_desc.max_chunks's cap per batch (rendergraph.h). */
#define CHUNKS_PER_BATCH 256

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
static eng_result end_without_graph(eng_swapchain *sc, eng_frame *frame, eng_result result, const char *call,
                                    const char *why)
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
        return eng__fail(result, "%s: %s (and the frame could not be ended: %s)", call, message, eng_last_error());
    return eng__fail(result, "%s: %s", call, message);
}

static eng_result graph_failed(eng_swapchain *sc, eng_frame *frame, const rg_graph *graph, rg_result r,
                               const char *call)
{
    char why[1024];
    snprintf(why, sizeof why, "%s (%s)", graph ? rg_graph_error_message(graph) : "", rg_result_string(r));
    return end_without_graph(sc, frame, result_of(r), call, why);
}

/* Gives every chunk of the begun frame a begun command buffer of its
 * queue: the first graphics chunk frame->cmd, chunk i otherwise one from
 * the slot's pools for index i, so that chunks recorded at once never
 * share a pool. On failure the frame begun is ended unrecorded. */
static eng_result chunk_commands(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, uint32_t n,
                                 VkCommandBuffer *cmds, const char *call)
{
    bool first_graphics = true;
    for (uint32_t i = 0; i < n; i++) {
        rg_chunk_info info;
        rg_result r = rg_chunk_get(graph, i, &info);
        eng_result res = ENG_SUCCESS;
        if (r != RG_SUCCESS) {
            res = result_of(r);
            eng__fail(res, "%s (%s)", rg_graph_error_message(graph), rg_result_string(r));
        } else if (info.queue == RG_QUEUE_GRAPHICS && first_graphics) {
            cmds[i] = frame->cmd;
            first_graphics = false;
        } else {
            res = eng_frame_chunk_command_buffer(sc, frame, kind_of(info.queue), i, &cmds[i]);
        }
        if (res != ENG_SUCCESS) {
            char why[1024];
            snprintf(why, sizeof why, "%s", eng_last_error());
            rg_submit_plan none;
            rg_execute_end(graph, NULL, &none); /* fails: nothing recorded; the graph stays as it was */
            return end_without_graph(sc, frame, res, call, why);
        }
    }
    return ENG_SUCCESS;
}

/* Records the graph's chunks into cmds (room for `room`), on the workers'
 * threads or this one, and ends the frame into *plan. */
static eng_result record(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, const eng_parallel_desc *desc,
                         VkCommandBuffer *cmds, uint32_t room, rg_submit_plan *plan, const char *call)
{
    uint32_t n = 0;
    rg_result r = rg_execute_begin(graph, &(rg_execute_desc){ .max_chunks = desc->max_chunks }, &n);
    if (r != RG_SUCCESS)
        return graph_failed(sc, frame, graph, r, call);
    if (n > room) { /* rendergraph.h's bound says never */
        rg_execute_end(graph, NULL, plan);
        return end_without_graph(sc, frame, ENG_ERROR_INVALID_ARGUMENT, call, "more chunks than the graph's bound");
    }
    eng_result res = chunk_commands(sc, frame, graph, n, cmds, call);
    if (res != ENG_SUCCESS)
        return res;
    if (desc->workers) {
        rg_workers_execute(desc->workers, graph, cmds); /* a failure is rg_execute_end's to report */
    } else {
        for (uint32_t i = 0; i < n && r == RG_SUCCESS; i++)
            r = rg_execute_chunk(graph, i, cmds[i]);
    }
    r = rg_execute_end(graph, cmds, plan);
    return r == RG_SUCCESS ? ENG_SUCCESS : graph_failed(sc, frame, graph, r, call);
}

/* Finishes the image in the last batch's last command buffer (on the
 * graphics queue: it holds the frame's final transitions), ends every
 * command buffer of the plan, submits it with the frame's semaphores and
 * fence and presents. */
static eng_result submit(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, rg_texture backbuffer,
                         const rg_submit_plan *plan, const char *call)
{
    VkImageLayout layout;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    backbuffer_state(graph, backbuffer, &layout, &stage, &access);
    const rg_submission *last_batch = &plan->submissions[plan->count - 1];
    eng_frame last = *frame;
    last.cmd = last_batch->cmds[last_batch->cmd_count - 1];
    eng_swapchain_finish_image(sc, &last, layout, stage, access);
    for (uint32_t b = 0; b < plan->count; b++)
        for (uint32_t i = 0; i < plan->submissions[b].cmd_count; i++) {
            VkResult vr = eng__vk_of(eng__swapchain_context(sc))->EndCommandBuffer(plan->submissions[b].cmds[i]);
            if (vr != VK_SUCCESS) {
                char what[96];
                snprintf(what, sizeof what, "%s: vkEndCommandBuffer", call);
                return eng__vk_fail(vr, what);
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
    rg_result r = rg_submit(graph, plan, &sd);
    if (r != RG_SUCCESS)
        return eng__fail(result_of(r), "%s: %s", call, rg_graph_error_message(graph));
    return eng_swapchain_present_submitted(sc, frame);
}

static eng_result present_graph(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, rg_texture backbuffer,
                                const eng_parallel_desc *desc, const char *call)
{
    if (!sc || !frame || !frame->cmd)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: no frame acquired", call);
    if (!graph)
        return end_without_graph(sc, frame, ENG_ERROR_INVALID_ARGUMENT, call, "NULL graph");
    /* COLOR_ATTACHMENT is the usage eng_frame promises of every swapchain
     * image (TRANSFER_SRC only where the surface allows it). */
    rg_result r = rg_texture_set_image(graph, backbuffer, &(rg_import_image){
        .image = frame->image, .view = frame->view, .format = frame->format, .width = frame->extent.width,
        .height = frame->extent.height, .usage = frame->usage });
    if (r != RG_SUCCESS)
        return graph_failed(sc, frame, graph, r, call);

    /* At most max_chunks over the frame (each batch's share, rounded down,
     * capped per batch) plus one per batch. A graph that is not compiled
     * has no batches: rg_execute_begin refuses it with its message. */
    uint32_t batches = rg_batch_count(graph);
    uint64_t cap = (uint64_t)CHUNKS_PER_BATCH * batches;
    uint64_t room = batches + (desc->max_chunks < cap ? desc->max_chunks : cap);
    VkCommandBuffer stack[STACK_CHUNKS];
    VkCommandBuffer *cmds = stack;
    if (room > STACK_CHUNKS && !(cmds = eng__alloc(eng__swapchain_context(sc), room * sizeof *cmds)))
        return end_without_graph(sc, frame, ENG_ERROR_OUT_OF_MEMORY, call, "out of host memory");
    rg_submit_plan plan = { 0 };
    eng_result res = record(sc, frame, graph, desc, cmds, room > STACK_CHUNKS ? (uint32_t)room : STACK_CHUNKS,
                            &plan, call);
    /* Recorded: from here the plan must be submitted (its timeline values
     * are taken); a Vulkan failure leaves the frame unsubmitted. */
    if (res == ENG_SUCCESS)
        res = submit(sc, frame, graph, backbuffer, &plan, call);
    if (cmds != stack)
        eng__free(eng__swapchain_context(sc), cmds);
    return res;
}

eng_result eng_swapchain_present_graph(eng_swapchain *sc, eng_frame *frame, rg_graph *graph, rg_texture backbuffer)
{
    return present_graph(sc, frame, graph, backbuffer, &(eng_parallel_desc){ 0 }, "eng_swapchain_present_graph");
}

eng_result eng_swapchain_present_graph_parallel(eng_swapchain *sc, eng_frame *frame, rg_graph *graph,
                                                rg_texture backbuffer, const eng_parallel_desc *desc)
{
    return present_graph(sc, frame, graph, backbuffer, desc ? desc : &(eng_parallel_desc){ 0 },
                         "eng_swapchain_present_graph_parallel");
}
