/* bench_frame: a placed graph's frame recorded by hand (bench_frame.h). */
#include "bench_frame.h"

#include <engine/engine.h> /* VK_KHR_dynamic_rendering_local_read on older headers */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OP_BEGIN begins a span's rendering instance, OP_CONTINUE continues it
 * with the next merged span (its locations and input indices). */
typedef enum op_kind { OP_BARRIER, OP_BEGIN, OP_CONTINUE, OP_END, OP_CALL } op_kind;

typedef struct op {
    op_kind kind;
    uint32_t index;                   /* deps[] / spans[] / calls[] */
} op;

typedef struct call {
    rg_record_fn record;
    void *user;
    rg_command command;               /* its context: rg_record_context_for */
} call;

struct bench_flat {
    rg_graph *graph;
    op *ops;
    uint32_t op_count;
    VkDependencyInfo *deps;
    VkImageMemoryBarrier2 *images;
    VkBufferMemoryBarrier2 *buffers;
    VkMemoryBarrier2 *memories;
    rg_span_rendering *spans;         /* never moved: their infos point into them */
    rg_command_rendering *states;     /* per span: its merged locations and input indices */
    VkViewport *viewports;
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
    call *calls;
    bench_flat_counts counts;
};

void bench_flat_destroy(bench_flat *f)
{
    if (!f)
        return;
    free(f->ops);
    free(f->deps);
    free(f->images);
    free(f->buffers);
    free(f->memories);
    free(f->spans);
    free(f->states);
    free(f->viewports);
    free(f->calls);
    free(f);
}

bench_flat_counts bench_flat_get_counts(const bench_flat *f) { return f->counts; }

/* Execution-order position of each command, by its record index. */
static uint32_t *positions(const rg_graph *g, uint32_t *n_out, const rg_command **order_out)
{
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(g, &order);
    uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos);
    for (uint32_t p = 0; p < n && pos; p++) {
        rg_command_info info;
        if (rg_command_get_info(g, order[p], &info) != RG_SUCCESS || info.index >= n) {
            free(pos);
            return NULL;
        }
        pos[info.index] = p;
    }
    *n_out = n;
    *order_out = order;
    return pos;
}

/* A barrier's point: before order[point], or n after the last command. */
static uint32_t point_of(const rg_graph *g, const rg_barrier_info *b, const uint32_t *pos, uint32_t n)
{
    rg_command_info info;
    if (!b->before.id || rg_command_get_info(g, b->before, &info) != RG_SUCCESS)
        return n;
    return pos[info.index];
}

bench_flat_counts bench_graph_counts(const rg_graph *g)
{
    bench_flat_counts c = { 0 };
    uint32_t n = 0;
    const rg_command *order = NULL;
    uint32_t *pos = positions(g, &n, &order);
    if (!pos)
        return c;
    uint32_t count = rg_barrier_count(g), last_point = UINT32_MAX;
    bool memory_in_call = false;
    for (uint32_t i = 0; i < count; i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        uint32_t p = point_of(g, b, pos, n);
        if (p != last_point) {
            c.barrier_calls++;
            last_point = p;
            memory_in_call = false;
        }
        /* Between merged spans everything folds into one memory barrier. */
        bool image = b->texture.id && !b->by_region && rg_texture_image(g, b->texture);
        bool buffer = b->buffer.id && !b->by_region && rg_buffer_memory(g, b->buffer, NULL, NULL) != RG_MEMORY_POOLED &&
                      rg_buffer_handle(g, b->buffer);
        if (image)
            c.image_barriers++;
        else if (buffer)
            c.buffer_barriers++;
        else if (!memory_in_call) {
            c.memory_barriers++;
            memory_in_call = true;
        }
    }
    uint32_t instance = UINT32_MAX;
    for (uint32_t p = 0; p < n; p++) {
        rg_command_info info;
        rg_command_get_info(g, order[p], &info);
        rg_command_rendering st;
        /* One vkCmdBeginRendering per rendering instance. */
        if (info.type == RG_COMMAND_TYPE_BEGIN_RENDERING && rg_command_get_rendering(g, order[p], &st) == RG_SUCCESS &&
            st.instance != instance) {
            c.spans++;
            instance = st.instance;
        }
        c.calls += info.type == RG_COMMAND_TYPE_USER;
    }
    free(pos);
    return c;
}

/* One barrier into this point's call, as rg_execute makes it: an image
 * barrier per texture, a buffer barrier per buffer unless its memory is
 * pooled, and the rest (pooled buffers, memory, an unused import without
 * its object) folded into the one memory barrier. */
static void add_barrier(bench_flat *f, const rg_graph *g, const rg_barrier_info *b, VkMemoryBarrier2 *mem,
                        bool *memory)
{
    /* Between merged spans: folded into the one by-region memory barrier. */
    VkImage image = b->texture.id && !b->by_region ? rg_texture_image(g, b->texture) : VK_NULL_HANDLE;
    VkBuffer buffer = b->buffer.id && !b->by_region && rg_buffer_memory(g, b->buffer, NULL, NULL) != RG_MEMORY_POOLED
                          ? rg_buffer_handle(g, b->buffer) : VK_NULL_HANDLE;
    if (image) {
        f->images[f->counts.image_barriers++] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = b->src_stage,
            .srcAccessMask = b->src_access,
            .dstStageMask = b->dst_stage,
            .dstAccessMask = b->dst_access,
            .oldLayout = b->old_layout,
            .newLayout = b->new_layout,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = image,
            .subresourceRange = { b->range.aspect, b->range.base_mip, b->range.mip_count, b->range.base_layer,
                                  b->range.layer_count },
        };
    } else if (buffer) {
        f->buffers[f->counts.buffer_barriers++] = (VkBufferMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
            .srcStageMask = b->src_stage,
            .srcAccessMask = b->src_access,
            .dstStageMask = b->dst_stage,
            .dstAccessMask = b->dst_access,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .buffer = buffer,
            .offset = 0,
            .size = VK_WHOLE_SIZE,
        };
    } else {
        mem->srcStageMask |= b->src_stage;
        mem->srcAccessMask |= b->src_access;
        mem->dstStageMask |= b->dst_stage;
        mem->dstAccessMask |= b->dst_access;
        *memory = true;
    }
}

/* The barriers recorded before order[p] (p == n: after the last command),
 * from *next on; one dependency op when there are any. */
static const char *flatten_point(bench_flat *f, const rg_graph *g, uint32_t p, const uint32_t *pos, uint32_t n,
                                 uint32_t *next)
{
    uint32_t first_image = f->counts.image_barriers, first_buffer = f->counts.buffer_barriers;
    uint32_t barriers = rg_barrier_count(g);
    VkMemoryBarrier2 *mem = &f->memories[f->counts.barrier_calls];
    *mem = (VkMemoryBarrier2){ .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 };
    bool any = false, memory = false, by_region = false;
    for (; *next < barriers; (*next)++) {
        const rg_barrier_info *b = rg_barrier_get(g, *next);
        uint32_t bp = point_of(g, b, pos, n);
        if (bp < p)
            return "barriers not sorted by execution order";
        if (bp != p)
            break;
        any = true;
        by_region = by_region || b->by_region;
        add_barrier(f, g, b, mem, &memory);
    }
    if (!any)
        return NULL;
    f->deps[f->counts.barrier_calls] = (VkDependencyInfo){
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .dependencyFlags = by_region ? VK_DEPENDENCY_BY_REGION_BIT : 0,
        .memoryBarrierCount = memory ? 1 : 0,
        .pMemoryBarriers = mem,
        .bufferMemoryBarrierCount = f->counts.buffer_barriers - first_buffer,
        .pBufferMemoryBarriers = &f->buffers[first_buffer],
        .imageMemoryBarrierCount = f->counts.image_barriers - first_image,
        .pImageMemoryBarriers = &f->images[first_image],
    };
    f->counts.memory_barriers += memory;
    f->ops[f->op_count++] = (op){ OP_BARRIER, f->counts.barrier_calls++ };
    return NULL;
}

/* The command at order position p. */
static const char *flatten_command(bench_flat *f, const rg_graph *g, rg_command c)
{
    rg_command_info info;
    if (rg_command_get_info(g, c, &info) != RG_SUCCESS)
        return "a command the graph does not know";
    switch (info.type) {
    case RG_COMMAND_TYPE_USER:
        f->calls[f->counts.calls] = (call){ info.record, info.user, c };
        f->ops[f->op_count++] = (op){ OP_CALL, f->counts.calls++ };
        return NULL;
    case RG_COMMAND_TYPE_BEGIN_RENDERING: {
        uint32_t s = info.span;
        if (rg_span_get_rendering(g, s, &f->spans[s]) != RG_SUCCESS ||
            rg_command_get_rendering(g, c, &f->states[s]) != RG_SUCCESS)
            return "a span whose rendering the graph does not give";
        if (f->states[s].merged && (!f->set_locations || !f->set_input_indices))
            return "a merged span, and the device has no VK_KHR_dynamic_rendering_local_read";
        const VkRect2D *a = &f->spans[s].info.renderArea;
        /* rg_execute sets the render area as viewport and scissor at each
         * span's begin: so does the hand-written frame. */
        f->viewports[s] = (VkViewport){ (float)a->offset.x, (float)a->offset.y, (float)a->extent.width,
                                        (float)a->extent.height, 0.0f, 1.0f };
        f->ops[f->op_count++] = (op){ f->spans[s].continues ? OP_CONTINUE : OP_BEGIN, s };
        f->counts.spans += !f->spans[s].continues;
        return NULL;
    }
    case RG_COMMAND_TYPE_END_RENDERING:
        if (f->spans[info.span].ends)
            f->ops[f->op_count++] = (op){ OP_END, 0 };
        return NULL;
    default:
        return "a command the hand-written path does not know (transfers are not supported)";
    }
}

bench_flat *bench_flatten(rg_graph *g, VkDevice device, const char **error)
{
    *error = NULL;
    uint32_t n = 0;
    const rg_command *order = NULL;
    uint32_t *pos = positions(g, &n, &order);
    uint32_t barriers = rg_barrier_count(g), spans = rg_span_count(g);
    bench_flat *f = calloc(1, sizeof *f);
    if (!pos || !f) {
        free(pos);
        free(f);
        *error = "out of memory, or the graph is not compiled";
        return NULL;
    }
    f->graph = g;
    f->set_locations = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)vkGetDeviceProcAddr(
        device, "vkCmdSetRenderingAttachmentLocationsKHR");
    f->set_input_indices = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)vkGetDeviceProcAddr(
        device, "vkCmdSetRenderingInputAttachmentIndicesKHR");
    size_t points = (size_t)n + 1;
    f->ops = calloc(2 * points, sizeof *f->ops);
    f->deps = calloc(points, sizeof *f->deps);
    f->images = calloc((size_t)barriers + 1, sizeof *f->images);
    f->buffers = calloc((size_t)barriers + 1, sizeof *f->buffers);
    f->memories = calloc(points, sizeof *f->memories);
    f->spans = calloc((size_t)spans + 1, sizeof *f->spans);
    f->states = calloc((size_t)spans + 1, sizeof *f->states);
    f->viewports = calloc((size_t)spans + 1, sizeof *f->viewports);
    f->calls = calloc(points, sizeof *f->calls);
    if (!f->ops || !f->deps || !f->images || !f->buffers || !f->memories || !f->spans || !f->states || !f->viewports ||
        !f->calls)
        *error = "out of memory";
    uint32_t next = 0; /* next barrier, sorted by point */
    for (uint32_t p = 0; p <= n && !*error; p++) {
        *error = flatten_point(f, g, p, pos, n, &next);
        if (!*error && p < n)
            *error = flatten_command(f, g, order[p]);
    }
    if (!*error && next != barriers)
        *error = "barriers left over after the last point";
    free(pos);
    if (*error) {
        bench_flat_destroy(f);
        return NULL;
    }
    return f;
}

/* A merged span's attachment locations and input-attachment indices. */
static void set_span_state(const bench_flat *f, VkCommandBuffer cmd, const rg_command_rendering *st)
{
    VkRenderingAttachmentLocationInfoKHR loc = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR,
        .colorAttachmentCount = st->color_count,
        .pColorAttachmentLocations = st->color_locations,
    };
    f->set_locations(cmd, &loc);
    VkRenderingInputAttachmentIndexInfoKHR inputs = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR,
        .colorAttachmentCount = st->color_count,
        .pColorAttachmentInputIndices = st->color_input_indices,
        .pDepthInputAttachmentIndex = &st->depth_input_index,
        .pStencilInputAttachmentIndex = &st->stencil_input_index,
    };
    f->set_input_indices(cmd, &inputs);
}

bool bench_flat_record(const bench_flat *f, VkCommandBuffer cmd)
{
    const op *ops = f->ops;
    bool in_span = false;
    for (uint32_t i = 0, n = f->op_count; i < n; i++) {
        switch (ops[i].kind) {
        case OP_BARRIER:
            vkCmdPipelineBarrier2(cmd, &f->deps[ops[i].index]);
            break;
        case OP_BEGIN:
        case OP_CONTINUE: {
            const VkRenderingInfo *ri = &f->spans[ops[i].index].info;
            if (ops[i].kind == OP_BEGIN)
                vkCmdBeginRendering(cmd, ri);
            if (f->states[ops[i].index].merged)
                set_span_state(f, cmd, &f->states[ops[i].index]);
            vkCmdSetViewport(cmd, 0, 1, &f->viewports[ops[i].index]);
            vkCmdSetScissor(cmd, 0, 1, &ri->renderArea);
            in_span = true;
            break;
        }
        case OP_END:
            vkCmdEndRendering(cmd);
            in_span = false;
            break;
        case OP_CALL: {
            /* The command's own context, as rg_execute gives it: the
             * callback sees what its command declared, and its
             * descriptors (rg_record_image_info). */
            const call *c = &f->calls[ops[i].index];
            if (!c->record(rg_record_context_for(f->graph, cmd, c->command), c->user)) {
                if (in_span)
                    vkCmdEndRendering(cmd);
                return false;
            }
            break;
        }
        }
    }
    return true;
}
