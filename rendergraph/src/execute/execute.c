/* Execute: records a placed graph, chunk by chunk (execute_chunks.c cuts
 * them; one per batch unless the application asks for more: rendergraph.h,
 * "Parallel recording"). Everything it needs was sized at compile and
 * placement or at the first frame with as many chunks; a frame allocates
 * nothing (but an import's view the first time one of its images is seen:
 * place_views.c). A chunk writes only its own run (result, messages,
 * scratch arrays: rg__runs, this file's part of the frame) and its command
 * buffer, so chunks record on any threads at once; the conductor
 * (graph_execute.c) begins and ends the frame. History pairs
 * (rendergraph.h, "History"): the first frame of a placement clears the
 * previous halves before the frame's commands (execute_frames.c swaps the
 * halves in every later one). */
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"
#include "place/stages.h"

#include <stdio.h>
#include <string.h>

/* One chunk being recorded: into cmd, with the chunk's run (its scratch
 * arrays) and the access views its callbacks' queries add to. */
typedef struct recorder {
    rg_graph *g;
    VkCommandBuffer cmd;
    uint32_t index;
    const rg__chunk *chunk;
    rg__chunk_run *run;
    rg__made_views *access_views;
} recorder;

/* Inside a merged instance: one by-region memory barrier (image barriers
 * there would have to name attachments in RENDERING_LOCAL_READ only). */
static void record_local_barrier(rg_graph *g, VkCommandBuffer cmd, uint32_t first, uint32_t end)
{
    VkMemoryBarrier2 memory = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 };
    const rg__barrier *barriers = rg__sync_of(g)->barriers;
    for (uint32_t i = first; i < end; i++) {
        const rg__barrier *b = &barriers[i];
        memory.srcStageMask |= b->src_stage;
        memory.srcAccessMask |= b->src_access;
        memory.dstStageMask |= b->dst_stage;
        memory.dstAccessMask |= b->dst_access;
    }
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &memory,
    };
    g->dev->vk.CmdPipelineBarrier2(cmd, &dep);
}

/* The fields image and buffer barriers share: the barrier's scope, no
 * queue family ownership transfer (created resources shared across
 * families are CONCURRENT). */
#define SCOPE_OF(b)                                                                                           \
    .srcStageMask = (b)->src_stage, .srcAccessMask = (b)->src_access, .dstStageMask = (b)->dst_stage,         \
    .dstAccessMask = (b)->dst_access, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,                        \
    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED

static void record_barriers(const recorder *rec, uint32_t point)
{
    rg_graph *g = rec->g;
    VkCommandBuffer cmd = rec->cmd;
    const rg__sync *sync = rg__sync_of(g);
    uint32_t first = sync->point_start[point], end = sync->point_start[point + 1];
    if (first == end)
        return;
    if (sync->barriers[first].by_region) {
        record_local_barrier(g, cmd, first, end);
        return;
    }
    VkMemoryBarrier2 memory = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 };
    uint32_t images = 0, buffers = 0, memories = 0;
    for (uint32_t i = first; i < end; i++) {
        const rg__barrier *b = &sync->barriers[i];
        uint32_t ri = b->resource;
        bool texture = ri != RG__NONE && g->decl.resources[ri].is_texture;
        VkImage image = texture ? rg__image(g, ri) : VK_NULL_HANDLE;
        VkBuffer buffer = ri != RG__NONE && !texture && !rg__pooled(g, ri) ? rg__buffer(g, ri) : VK_NULL_HANDLE;
        if (image) {
            rec->run->image_barriers[images++] = (VkImageMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                SCOPE_OF(b),
                .oldLayout = b->old_layout,
                .newLayout = b->new_layout,
                .image = image,
                .subresourceRange = { b->range.aspect, b->range.base_mip, b->range.mip_count, b->range.base_layer,
                                      b->range.layer_count },
            };
        } else if (buffer) {
            rec->run->buffer_barriers[buffers++] = (VkBufferMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, SCOPE_OF(b), .buffer = buffer, .size = VK_WHOLE_SIZE,
            };
        } else {
            /* Global memory barriers fold into one. A pooled buffer's
             * barriers go here too: a buffer barrier only covers accesses
             * made through that buffer, not through the resources that held
             * its memory before. So do an unused import's without an object
             * (imports_ready allows them only without a layout change). */
            memory.srcStageMask |= b->src_stage;
            memory.srcAccessMask |= b->src_access;
            memory.dstStageMask |= b->dst_stage;
            memory.dstAccessMask |= b->dst_access;
            memories = 1;
        }
    }
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = memories,
        .pMemoryBarriers = &memory,
        .bufferMemoryBarrierCount = buffers,
        .pBufferMemoryBarriers = rec->run->buffer_barriers,
        .imageMemoryBarrierCount = images,
        .pImageMemoryBarriers = rec->run->image_barriers,
    };
    g->dev->vk.CmdPipelineBarrier2(cmd, &dep);
}

/* A merged span's attachment locations and input-attachment indices. */
static void set_local_read_state(const rg_graph *g, VkCommandBuffer cmd, uint32_t s)
{
    const rg__span_map *map = &g->compiled->merge.span_map[s];
    const rg__instance *in = &g->compiled->merge.instances[map->instance];
    VkRenderingAttachmentLocationInfoKHR loc = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR,
        .colorAttachmentCount = in->color_count,
        .pColorAttachmentLocations = map->locations,
    };
    g->placement->views.set_locations(cmd, &loc);
    VkRenderingInputAttachmentIndexInfoKHR inputs = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR,
        .colorAttachmentCount = in->color_count,
        .pColorAttachmentInputIndices = map->inputs,
        .pDepthInputAttachmentIndex = &map->depth_input,
        .pStencilInputAttachmentIndex = &map->depth_input,
    };
    g->placement->views.set_input_indices(cmd, &inputs);
}

/* The whole render area as the default viewport and scissor, for every
 * span (merged ones too) and every resumed chunk: draws that want others
 * set their own. */
static void set_area(const rg_graph *g, VkCommandBuffer cmd, const VkRect2D *area)
{
    VkViewport vp = { (float)area->offset.x, (float)area->offset.y, (float)area->extent.width,
                      (float)area->extent.height, 0.0f, 1.0f };
    g->dev->vk.CmdSetViewport(cmd, 0, 1, &vp);
    g->dev->vk.CmdSetScissor(cmd, 0, 1, area);
}

static const rg__instance *instance_of(const rg_graph *g, uint32_t s)
{
    return &g->compiled->merge.instances[g->compiled->merge.span_map[s].instance];
}

/* Suspended where the chunk ends before the instance does. */
static VkRenderingFlags suspending(const recorder *rec, const rg__instance *in)
{
    return in->end_pos >= rec->chunk->end ? VK_RENDERING_SUSPENDING_BIT : 0;
}

/* Begins span s's rendering instance, or continues it (merged). */
static void begin_rendering(const recorder *rec, uint32_t s)
{
    const rg_graph *g = rec->g;
    const rg_span_rendering *r = &g->exec->frame.spans[s];
    const rg__instance *in = instance_of(g, s);
    if (!r->continues) {
        VkRenderingInfo info = r->info;
        info.flags |= suspending(rec, in);
        g->dev->vk.CmdBeginRendering(rec->cmd, &info);
    }
    if (in->count > 1)
        set_local_read_state(g, rec->cmd, s);
    set_area(g, rec->cmd, &r->info.renderArea);
}

/* A chunk that starts inside an instance resumes it: the instance's info
 * as its first span began it, and inside a span, that span's state. */
static void resume_rendering(const recorder *rec)
{
    const rg_graph *g = rec->g;
    const rg__chunk *ch = rec->chunk;
    const rg__instance *in = &g->compiled->merge.instances[ch->resume];
    const rg_span_rendering *spans = g->exec->frame.spans;
    VkRenderingInfo info = spans[g->compiled->merge.instance_spans[in->first]].info;
    info.flags |= VK_RENDERING_RESUMING_BIT | suspending(rec, in);
    g->dev->vk.CmdBeginRendering(rec->cmd, &info);
    if (ch->resume_span == RG__NONE)
        return; /* between merged spans: the next span's begin sets its state */
    if (in->count > 1)
        set_local_read_state(g, rec->cmd, ch->resume_span);
    const rg_span_rendering *resumed = &spans[ch->resume_span];
    set_area(g, rec->cmd, &resumed->info.renderArea);
}

/* Imports' Vulkan objects are set per frame: a used import needs its
 * object, and so does an unused texture import whose final layout differs
 * from its initial one (the transition names the image). An unused import
 * without an object gets its barriers as global memory barriers
 * (record_barriers). Checked before anything is recorded. */
rg_result rg__imports_ready(rg_graph *g, const char *what)
{
    for (uint32_t i = 0; i < g->decl.resource_count; i++) {
        const rg__resource *r = &g->decl.resources[i];
        if (!r->imported || (r->is_texture ? r->image != VK_NULL_HANDLE : r->buffer != VK_NULL_HANDLE))
            continue;
        if (rg__first_use(g, i) != RG__NONE)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: imported %s '%s' has no Vulkan object", what,
                              r->is_texture ? "texture" : "buffer", r->name);
        if (r->is_texture && r->final_layout != VK_IMAGE_LAYOUT_UNDEFINED && r->final_layout != r->initial_layout)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: imported texture '%s' has no VkImage, and its "
                              "final transition (layout %s to %s) needs one", what, r->name,
                              rg_layout_name(r->initial_layout), rg_layout_name(r->final_layout));
    }
    return RG_SUCCESS;
}

/* The first frame of a placement that took objects frames of another
 * placement used (place/reuse.h): everything those frames did on the
 * queue happens before this frame, whose barriers know only its own frame
 * before. Every kept image starts from UNDEFINED behind its own barrier
 * then, as a pooled image does every frame. */
static void record_kept_wait(const recorder *rec)
{
    if (!rec->g->placement->waits_for_kept)
        return;
    VkMemoryBarrier2 all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                            .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
                            .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                            .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT};
    VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                            .pMemoryBarriers = &all};
    rec->g->dev->vk.CmdPipelineBarrier2(rec->cmd, &dep);
}

/* The first frame of a placement: previous halves' subresources the frame
 * reads are cleared to their history_clear values and left as the frame
 * expects them (compile_barriers.c). The images are new, or kept ones
 * behind record_kept_wait: nothing else to wait for before the transition
 * from UNDEFINED. */
static void record_history_clears(const recorder *rec)
{
    rg_graph *g = rec->g;
    VkCommandBuffer cmd = rec->cmd;
    const rg__sync *c = rg__sync_of(g);
    if (c->history_clear_count == 0)
        return;
    VkImageMemoryBarrier2 *b = rec->run->image_barriers;
    for (int phase = 0; phase < 2; phase++) {
        for (uint32_t i = 0; i < c->history_clear_count; i++) {
            const rg__history_clear *h = &c->history_clears[i];
            b[i] = (VkImageMemoryBarrier2){
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = rg__image(g, h->resource),
                .subresourceRange = { h->range.aspect, h->range.base_mip, h->range.mip_count, h->range.base_layer,
                                      h->range.layer_count },
            };
            if (phase == 0) {
                b[i].dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
                b[i].dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
                b[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
                b[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
            } else {
                b[i].srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
                b[i].srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
                b[i].dstStageMask = h->stage;
                b[i].dstAccessMask = h->access;
                b[i].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
                b[i].newLayout = h->layout;
            }
        }
        VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                 .imageMemoryBarrierCount = c->history_clear_count, .pImageMemoryBarriers = b };
        g->dev->vk.CmdPipelineBarrier2(cmd, &dep);
        for (uint32_t i = 0; i < c->history_clear_count && phase == 0; i++) {
            const rg__history_clear *h = &c->history_clears[i];
            const rg__resource *r = &g->decl.resources[h->resource];
            VkImageSubresourceRange range = b[i].subresourceRange;
            if (r->aspects & VK_IMAGE_ASPECT_COLOR_BIT)
                g->dev->vk.CmdClearColorImage(cmd, b[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                              &r->history_clear.color, 1, &range);
            else
                g->dev->vk.CmdClearDepthStencilImage(cmd, b[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                                     &r->history_clear.depthStencil, 1, &range);
        }
    }
}

/* Ends what a chunk has open when a callback fails (or it suspends):
 * the rendering instance, then the labels. */
static void close_open(const recorder *rec, uint32_t open, uint32_t labels)
{
    if (open != RG__NONE)
        rec->g->dev->vk.CmdEndRendering(rec->cmd);
    if (labels)
        rg__labels_end(rec->g, rec->cmd, labels);
}

/* A user command's callback failed: say which command and why (a query
 * the callback made may have said, in the chunk's message). */
static rg_result user_failed(const recorder *rec, const rg__cmd *c, const char *what)
{
    char why[sizeof rec->run->status.message];
    snprintf(why, sizeof why, "%s", rec->run->status.message);
    return rg__report(rec->g, RG_ERROR_CALLBACK, "%s: command '%s' failed to record%s%s", what, c->name,
                      why[0] ? ": " : "", why);
}

/* A command the graph records itself: a span's begin or end, a transfer.
 * *open is the instance open (RG__NONE: none). */
static void record_own(const recorder *rec, const rg__cmd *c, uint32_t *open)
{
    rg_graph *g = rec->g;
    if (c->type == RG_COMMAND_TYPE_BEGIN_RENDERING) {
        begin_rendering(rec, c->span);
        *open = g->compiled->merge.span_map[c->span].instance;
    } else if (c->type == RG_COMMAND_TYPE_END_RENDERING) {
        const rg__instance *in = instance_of(g, c->span);
        if (g->compiled->merge.instance_spans[in->first + in->count - 1] == c->span) {
            g->dev->vk.CmdEndRendering(rec->cmd);
            *open = RG__NONE;
        }
    } else {
        rg__record_transfer(g, rec->cmd, c);
    }
}

#if defined(__GNUC__)
#define RG__SPECIALIZED static inline __attribute__((always_inline))
#else
#define RG__SPECIALIZED static inline
#endif

/* The chunk's positions: each one's barriers, then its command. What
 * every position would ask is asked once and passed as constants, so the
 * plain loop (one batch, no labels, no timings) is compiled apart:
 * whether labels and timings are recorded, whether other batches'
 * positions lie between the chunk's. *labels counts the open labels. */
RG__SPECIALIZED rg_result positions_loop(const recorder *rec, uint32_t *open, uint32_t *labels, const char *what,
                                         bool timed, bool labelled, bool mixed)
{
    rg_graph *g = rec->g;
    VkCommandBuffer cmd = rec->cmd;
    const rg__chunk *ch = rec->chunk;
    const uint32_t *pos_batch = g->compiled->queues.pos_batch;
    const uint32_t *order = g->compiled->merge.order.cmds;
    const uint32_t *point_start = rg__sync_of(g)->point_start;
    const rg__cmd *cmds = g->decl.cmds;
    rg_record_context rc = { g, cmd, RG__NONE, rec->access_views };
    for (uint32_t p = ch->first; p < ch->end; p++) {
        if (mixed && pos_batch[p] != ch->batch)
            continue;
        if (timed)
            rg__timings_before(g, cmd, p);
        if (labelled)
            *labels += rg__label_before(g, cmd, p);
        if (point_start[p] != point_start[p + 1])
            record_barriers(rec, p);
        const rg__cmd *c = &cmds[order[p]];
        rg_result r = RG_SUCCESS;
        if (c->type == RG_COMMAND_TYPE_USER) {
            rc.command = order[p];
            rec->run->status.message[0] = '\0';
            if (!c->u.user.record(&rc, c->u.user.user))
                r = user_failed(rec, c, what);
        } else {
            record_own(rec, c, open);
        }
        if (labelled)
            *labels -= rg__label_after(g, cmd, p);
        if (r != RG_SUCCESS)
            return r;
        if (timed)
            rg__timings_after(g, cmd, p);
    }
    return RG_SUCCESS;
}

static rg_result record_positions(const recorder *rec, uint32_t *open, uint32_t *labels, const char *what)
{
    const rg__chunk *ch = rec->chunk;
    bool timed = rg__timed(rec->g), labelled = rg__labelled(rec->g), mixed = ch->count != ch->end - ch->first;
    if (!timed && !labelled && !mixed)
        return positions_loop(rec, open, labels, what, false, false, false);
    return positions_loop(rec, open, labels, what, timed, labelled, mixed);
}

/* One chunk's commands and barriers into its command buffer: its batch's
 * positions from its first to its end. The batch's first chunk begins with
 * the batch's timing (and, in the first graphics batch of the first frame
 * of a placement, the history clears); its last ends with the frame's
 * final barriers after the last batch and the batch's timing. A chunk cut
 * inside an instance resumes it or suspends it; labels open and close in
 * pairs in each chunk. */
static rg_result record_chunk(const recorder *rec, const char *what)
{
    rg_graph *g = rec->g;
    VkCommandBuffer cmd = rec->cmd;
    const rg__chunk *ch = rec->chunk;
    uint32_t b = ch->batch;
    uint32_t labels = rg__labelled(g) ? rg__label_batch_begin(g, cmd, b) : 0; /* open debug labels */
    bool timed = rg__timed(g);
    if (timed && ch->batch_begins)
        rg__timings_batch_begin(g, cmd, b);
    if (rec->index == g->exec->frame.clears_chunk) {
        record_kept_wait(rec);
        record_history_clears(rec);
    }
    uint32_t open = ch->resume;
    if (open != RG__NONE) {
        labels += rg__label_span(g, cmd, ch->resume_span);
        resume_rendering(rec);
    }
    rg_result r = record_positions(rec, &open, &labels, what);
    if (r != RG_SUCCESS) {
        /* Never leave the command buffer inside a rendering instance, nor
         * inside a label. */
        close_open(rec, open, labels);
        return r;
    }
    /* After the last batch, the frame's final barriers. */
    const uint32_t *point_start = rg__sync_of(g)->point_start;
    uint32_t end = g->compiled->merge.order.count;
    if (ch->batch_ends && b == g->compiled->queues.batch_count - 1 && point_start[end] != point_start[end + 1])
        record_barriers(rec, end);
    if (timed && ch->batch_ends)
        rg__timings_batch_end(g, cmd, b);
    close_open(rec, ch->suspends ? open : RG__NONE, labels);
    return RG_SUCCESS;
}

/* The scratch arrays hold the most barriers at one point, or the history
 * clears. */
static uint32_t barrier_cap_of(const rg_graph *g)
{
    const rg__sync *s = rg__sync_of(g);
    return s->point_max > s->history_clear_count ? s->point_max : s->history_clear_count;
}

rg_result rg__runs_prepare(rg_graph *g, rg__runs *runs, const char *what)
{
    uint32_t count = g->exec->chunks.count, cap = barrier_cap_of(g);
    if (runs->of && runs->barrier_cap != cap)
        rg__runs_free(g, runs); /* placed again */
    if (count <= runs->cap)
        return RG_SUCCESS;
    size_t per = (size_t)cap + 1;
    rg__chunk_run *of = rg__realloc(g, runs->of, count * sizeof *of);
    if (of)
        runs->of = of;
    VkImageMemoryBarrier2 *images = rg__realloc(g, runs->image_barriers, count * per * sizeof *images);
    if (images)
        runs->image_barriers = images;
    VkBufferMemoryBarrier2 *buffers = rg__realloc(g, runs->buffer_barriers, count * per * sizeof *buffers);
    if (buffers)
        runs->buffer_barriers = buffers;
    if (!of || !images || !buffers)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    for (uint32_t i = 0; i < count; i++)
        runs->of[i] = (rg__chunk_run){.image_barriers = images + i * per, .buffer_barriers = buffers + i * per};
    runs->cap = count;
    runs->barrier_cap = cap;
    return RG_SUCCESS;
}

void rg__runs_reset(rg_graph *g, rg__runs *runs)
{
    for (uint32_t i = 0; i < g->exec->chunks.count; i++) {
        rg__chunk_run *run = &runs->of[i];
        run->frame = 0;
        run->result = RG_SUCCESS;
        run->status.state = g->status->state;
        run->status.error = RG_SUCCESS;
        run->status.message[0] = '\0';
    }
}

rg_result rg__execute_chunk(rg_graph *g, rg__runs *runs, rg__made_views *access_views, uint32_t chunk,
                            VkCommandBuffer cmd, const char *what)
{
    const rg__execution *x = g->exec;
    if (!x->frame.open)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s' has no frame begun (rg_execute_begin)",
                          what, g->name);
    if (chunk >= x->chunks.count)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: chunk %u of %u", what, chunk, x->chunks.count);
    rg__chunk_run *run = &runs->of[chunk];
    rg__redirect saved = rg__redirect_status(g, &run->status);
    if (run->frame != 0 || cmd == VK_NULL_HANDLE) {
        run->result = rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: chunk %u %s", what, chunk,
                                 run->frame ? "recorded twice in one frame" : "without a command buffer");
        run->frame = x->frame.recorded + 1;
    } else {
        run->frame = x->frame.recorded + 1;
        recorder rec = { g, cmd, chunk, &x->chunks.of[chunk], run, access_views };
        run->result = record_chunk(&rec, what);
    }
    rg__redirect_restore(saved);
    return run->result;
}

rg_result rg__runs_check(rg_graph *g, const rg__runs *runs, const VkCommandBuffer *cmds, const char *what)
{
    const rg__chunks *ch = &g->exec->chunks;
    for (uint32_t i = 0; i < ch->count; i++) {
        const rg__chunk_run *run = &runs->of[i];
        if (run->frame == 0)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: chunk %u (batch %u) was not recorded", what, i,
                              ch->of[i].batch);
        if (run->result != RG_SUCCESS)
            return rg__report(g, run->result, "%s", run->status.message);
        if (!cmds || cmds[i] == VK_NULL_HANDLE)
            return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: no command buffer for chunk %u", what, i);
    }
    return RG_SUCCESS;
}

void rg__runs_free(rg_graph *g, rg__runs *runs)
{
    RG__FREE_ALL(g, runs->of, runs->image_barriers, runs->buffer_barriers);
    *runs = (rg__runs){0};
}
