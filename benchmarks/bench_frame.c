/* bench_frame: a compiled graph's frame recorded by hand (bench_frame.h).
 * This file calls the real rg_ functions; only the frames' declaring code
 * is compiled with the bench_rg_* renames. */
#include "bench_frame.h"

#include <engine/engine.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum cmd_kind { CMD_OTHER = 0, CMD_USER, CMD_BEGIN, CMD_END } cmd_kind;

/* One declared command, by its handle's record index. A user command's
 * callback and data as declared (the graph gets the trampoline). */
typedef struct bench_cmd {
    bench_capture *cap;
    cmd_kind kind;
    rg_record_fn record;
    void *user;
    uint32_t span;                    /* CMD_BEGIN: index into spans */
} bench_cmd;

typedef struct bench_tex {
    rg_texture handle;
    uint32_t width, height;
    VkFormat format;
    VkImage image;
    VkImageView view;
} bench_tex;

struct bench_capture {
    bench_cmd *cmds;                  /* max_commands, never moved: callbacks point in */
    uint32_t cmd_count, max_commands;
    rg_rendering_desc *spans;
    uint32_t span_count;
    bench_tex *texs;
    uint32_t tex_count, max_textures;
    bool stub;
    bool resolve_pending;             /* textures' Vulkan objects not looked up yet */
    char error[160];
};

/* What callbacks get in place of rg_record_context. */
typedef struct bench_rc {
    const rg_record_context *real;    /* through the graph; NULL by hand */
    VkCommandBuffer cmd;              /* by hand */
    const bench_capture *cap;
} bench_rc;

static bench_capture *current;

bench_capture *bench_capture_create(uint32_t max_commands, uint32_t max_textures, bool stub)
{
    bench_capture *cap = calloc(1, sizeof *cap);
    if (!cap)
        return NULL;
    cap->cmds = calloc((size_t)max_commands + 1, sizeof *cap->cmds);
    cap->spans = calloc((size_t)max_commands + 1, sizeof *cap->spans);
    cap->texs = calloc((size_t)max_textures + 1, sizeof *cap->texs);
    cap->max_commands = max_commands;
    cap->max_textures = max_textures;
    cap->stub = stub;
    if (!cap->cmds || !cap->spans || !cap->texs) {
        bench_capture_destroy(cap);
        return NULL;
    }
    return cap;
}

void bench_capture_destroy(bench_capture *cap)
{
    if (!cap)
        return;
    if (current == cap)
        current = NULL;
    free(cap->cmds);
    free(cap->spans);
    free(cap->texs);
    free(cap);
}

void bench_capture_reset(bench_capture *cap)
{
    cap->cmd_count = cap->span_count = cap->tex_count = 0;
    cap->resolve_pending = true;
    cap->error[0] = '\0';
}

void bench_capture_use(bench_capture *cap) { current = cap; }

const char *bench_capture_error(const bench_capture *cap) { return cap->error; }

static void fail(bench_capture *cap, const char *what)
{
    if (!cap->error[0])
        snprintf(cap->error, sizeof cap->error, "%s", what);
}

/* The command's slot; commands made by other rg_ calls (transfers) leave
 * theirs CMD_OTHER, which bench_flatten refuses. */
static bench_cmd *slot(bench_capture *cap, rg_command c)
{
    if (!c.id)
        return NULL;
    if (c.id > cap->max_commands) {
        fail(cap, "more commands than the capture holds");
        return NULL;
    }
    if (c.id > cap->cmd_count)
        cap->cmd_count = c.id;
    return &cap->cmds[c.id - 1];
}

static void add_texture(bench_capture *cap, rg_texture t, uint32_t w, uint32_t h, VkFormat f, VkImage image,
                        VkImageView view)
{
    if (!t.id)
        return;
    if (cap->tex_count == cap->max_textures) {
        fail(cap, "more textures than the capture holds");
        return;
    }
    cap->texs[cap->tex_count++] = (bench_tex){ t, w, h, f, image, view };
    cap->resolve_pending = true;
}

static const bench_tex *find_texture(const bench_capture *cap, rg_texture t)
{
    for (uint32_t i = 0; i < cap->tex_count; i++)
        if (cap->texs[i].handle.id == t.id)
            return &cap->texs[i];
    return NULL;
}

rg_texture bench_rg_texture_create(rg_graph *g, const rg_texture_desc *desc)
{
    rg_texture t = rg_texture_create(g, desc);
    if (current && desc)
        add_texture(current, t, desc->width, desc->height, desc->format, VK_NULL_HANDLE, VK_NULL_HANDLE);
    return t;
}

rg_texture bench_rg_texture_import(rg_graph *g, const rg_texture_import_desc *desc)
{
    rg_texture t = rg_texture_import(g, desc);
    if (current && desc)
        add_texture(current, t, desc->width, desc->height, desc->format, desc->image, desc->view);
    return t;
}

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* The views and images of every captured texture, asked once from a real
 * record context (the first callback after placement). */
static void resolve_objects(bench_capture *cap, const rg_record_context *rc)
{
    for (uint32_t i = 0; i < cap->tex_count; i++) {
        cap->texs[i].image = rg_record_image(rc, cap->texs[i].handle);
        cap->texs[i].view = rg_record_view(rc, cap->texs[i].handle);
    }
    cap->resolve_pending = false;
}

/* What the graph calls: the declared callback with a bench context. */
static bool trampoline(const rg_record_context *rc, void *user)
{
    bench_cmd *c = user;
    if (c->cap->resolve_pending)
        resolve_objects(c->cap, rc);
    bench_rc b = { rc, VK_NULL_HANDLE, c->cap };
    return c->record((const rg_record_context *)&b, c->user);
}

rg_command bench_rg_cmd_user(rg_graph *g, const rg_user_desc *desc)
{
    if (!current || !desc)
        return rg_cmd_user(g, desc);
    rg_user_desc d = *desc;
    bench_cmd entry = { current, CMD_USER, current->stub || !desc->record ? record_nothing : desc->record,
                        desc->user, 0 };
    /* The handle is known only after the call: the next record index. */
    bench_cmd *c = NULL;
    if (current->cmd_count < current->max_commands)
        c = &current->cmds[current->cmd_count];
    if (c) {
        *c = entry;
        d.record = trampoline;
        d.user = c;
    }
    rg_command cmd = rg_cmd_user(g, &d);
    bench_cmd *s = slot(current, cmd);
    if (s && s != c) {
        fail(current, "a command handle out of record order");
        return cmd;
    }
    return cmd;
}

rg_command bench_rg_begin_rendering(rg_graph *g, const rg_rendering_desc *desc)
{
    rg_command cmd = rg_begin_rendering(g, desc);
    bench_cmd *s = current ? slot(current, cmd) : NULL;
    if (s) {
        *s = (bench_cmd){ current, CMD_BEGIN, NULL, NULL, current->span_count };
        current->spans[current->span_count++] = *desc;
    }
    return cmd;
}

rg_command bench_rg_end_rendering(rg_graph *g)
{
    rg_command cmd = rg_end_rendering(g);
    bench_cmd *s = current ? slot(current, cmd) : NULL;
    if (s)
        *s = (bench_cmd){ current, CMD_END, NULL, NULL, 0 };
    return cmd;
}

VkCommandBuffer bench_rg_record_cmd(const rg_record_context *rc)
{
    const bench_rc *b = (const bench_rc *)rc;
    return b->real ? rg_record_cmd(b->real) : b->cmd;
}

VkImage bench_rg_record_image(const rg_record_context *rc, rg_texture texture)
{
    const bench_rc *b = (const bench_rc *)rc;
    if (b->real)
        return rg_record_image(b->real, texture);
    const bench_tex *t = find_texture(b->cap, texture);
    return t ? t->image : VK_NULL_HANDLE;
}

VkImageView bench_rg_record_view(const rg_record_context *rc, rg_texture texture)
{
    const bench_rc *b = (const bench_rc *)rc;
    if (b->real)
        return rg_record_view(b->real, texture);
    const bench_tex *t = find_texture(b->cap, texture);
    return t ? t->view : VK_NULL_HANDLE;
}

VkBuffer bench_rg_record_buffer(const rg_record_context *rc, rg_buffer buffer)
{
    const bench_rc *b = (const bench_rc *)rc;
    return b->real ? rg_record_buffer(b->real, buffer) : VK_NULL_HANDLE; /* no buffers in the frames */
}

/* ------------------------------------------------------------ flattening */

typedef enum op_kind { OP_BARRIER, OP_BEGIN, OP_END, OP_CALL } op_kind;

typedef struct op {
    op_kind kind;
    uint32_t index;                   /* deps[] / rendering[] / cmds[] */
} op;

struct bench_flat {
    const bench_capture *cap;
    op *ops;
    uint32_t op_count;
    VkDependencyInfo *deps;
    VkImageMemoryBarrier2 *images;
    VkMemoryBarrier2 *memories;
    VkRenderingInfo *rendering;
    VkRenderingAttachmentInfo *attachments; /* 9 per span: 8 colors, depth */
    VkViewport *viewports;
    bench_flat_counts counts;
};

void bench_flat_destroy(bench_flat *f)
{
    if (!f)
        return;
    free(f->ops);
    free(f->deps);
    free(f->images);
    free(f->memories);
    free(f->rendering);
    free(f->attachments);
    free(f->viewports);
    free(f);
}

bench_flat_counts bench_flat_get_counts(const bench_flat *f) { return f->counts; }

/* Execution-order position of each command handle's record index. */
static uint32_t *positions(const rg_graph *g, uint32_t *n_out, const rg_command **order_out)
{
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(g, &order);
    uint32_t max_id = 0;
    for (uint32_t p = 0; p < n; p++)
        if (order[p].id > max_id)
            max_id = order[p].id;
    uint32_t *pos = malloc(((size_t)max_id + 1) * sizeof *pos);
    if (pos)
        for (uint32_t p = 0; p < n; p++)
            pos[order[p].id] = p;
    *n_out = n;
    *order_out = order;
    return pos;
}

/* A barrier's point: before order[point], or n after the last command. */
static uint32_t point_of(const rg_barrier_info *b, const uint32_t *pos, uint32_t n)
{
    return b->before.id ? pos[b->before.id] : n;
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
        uint32_t p = point_of(b, pos, n);
        if (p != last_point) {
            c.barrier_calls++;
            last_point = p;
            memory_in_call = false;
        }
        if (b->texture.id)
            c.image_barriers++;
        else if (!memory_in_call) {
            c.memory_barriers++;
            memory_in_call = true;
        }
    }
    free(pos);
    return c;
}

static VkRenderingAttachmentInfo attachment(const bench_capture *cap, const rg_attachment *a, VkImageLayout layout,
                                            bool depth, const char **error)
{
    const bench_tex *t = find_texture(cap, a->texture);
    VkRenderingAttachmentInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = t ? t->view : VK_NULL_HANDLE,
        .imageLayout = layout,
        .loadOp = a->load,
        .storeOp = a->store,
        .clearValue = a->clear,
    };
    if (!t || !t->view)
        *error = "an attachment without a captured view";
    if (a->mip || a->base_layer || a->layer_count > 1)
        *error = "attachments other than mip 0, layer 0 are not supported by the hand-written path";
    if (a->resolve.id) {
        const bench_tex *r = find_texture(cap, a->resolve);
        info.resolveMode = a->resolve_mode ? a->resolve_mode
                                           : depth ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT;
        info.resolveImageView = r ? r->view : VK_NULL_HANDLE;
        info.resolveImageLayout = depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                        : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        if (!r || !r->view)
            *error = "a resolve target without a captured view";
    }
    return info;
}

static void flatten_span(bench_flat *f, const bench_capture *cap, uint32_t s, const char **error)
{
    const rg_rendering_desc *d = &cap->spans[s];
    VkRenderingAttachmentInfo *att = &f->attachments[(size_t)s * 9];
    for (uint32_t c = 0; c < d->color_count; c++)
        att[c] = attachment(cap, &d->colors[c], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, false, error);
    bool has_depth = false, has_stencil = false;
    const bench_tex *first = d->color_count ? find_texture(cap, d->colors[0].texture) : NULL;
    if (d->depth.texture.id) {
        const bench_tex *t = find_texture(cap, d->depth.texture);
        att[8] = attachment(cap, &d->depth,
                            d->depth_read_only ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                               : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                            true, error);
        has_depth = t && eng_format_has_depth(t->format);
        has_stencil = t && eng_format_has_stencil(t->format);
        if (!first)
            first = t;
    }
    VkRect2D area = d->area;
    if (area.extent.width == 0 || area.extent.height == 0)
        area = (VkRect2D){ { 0, 0 }, { first ? first->width : 0, first ? first->height : 0 } };
    f->rendering[s] = (VkRenderingInfo){
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = area,
        .layerCount = 1,
        .colorAttachmentCount = d->color_count,
        .pColorAttachments = att,
        .pDepthAttachment = has_depth ? &att[8] : NULL,
        .pStencilAttachment = has_stencil ? &att[8] : NULL,
    };
    /* rg_execute sets the render area as viewport and scissor after each
     * vkCmdBeginRendering: so does the hand-written frame. */
    f->viewports[s] = (VkViewport){ (float)area.offset.x, (float)area.offset.y, (float)area.extent.width,
                                    (float)area.extent.height, 0.0f, 1.0f };
}

bench_flat *bench_flatten(bench_capture *cap, const rg_graph *g, const char **error)
{
    *error = NULL;
    if (cap->error[0]) {
        *error = cap->error;
        return NULL;
    }
    if (cap->resolve_pending) {
        *error = "the graph has not run a callback since the capture (execute it once first)";
        return NULL;
    }
    uint32_t n = 0;
    const rg_command *order = NULL;
    uint32_t *pos = positions(g, &n, &order);
    uint32_t barriers = rg_barrier_count(g);
    bench_flat *f = calloc(1, sizeof *f);
    if (!pos || !f) {
        free(pos);
        free(f);
        *error = "out of memory";
        return NULL;
    }
    f->cap = cap;
    size_t points = (size_t)n + 1;
    f->ops = calloc(2 * points, sizeof *f->ops);
    f->deps = calloc(points, sizeof *f->deps);
    f->images = calloc((size_t)barriers + 1, sizeof *f->images);
    f->memories = calloc(points, sizeof *f->memories);
    f->rendering = calloc((size_t)cap->span_count + 1, sizeof *f->rendering);
    f->attachments = calloc((size_t)cap->span_count * 9 + 1, sizeof *f->attachments);
    f->viewports = calloc((size_t)cap->span_count + 1, sizeof *f->viewports);
    if (!f->ops || !f->deps || !f->images || !f->memories || !f->rendering || !f->attachments || !f->viewports) {
        *error = "out of memory";
        goto fail;
    }
    for (uint32_t s = 0; s < cap->span_count && !*error; s++)
        flatten_span(f, cap, s, error);
    uint32_t next = 0; /* next barrier, sorted by point */
    for (uint32_t p = 0; p <= n && !*error; p++) {
        /* This point's barriers: one call, as rg_execute makes it. */
        uint32_t first_image = f->counts.image_barriers;
        VkMemoryBarrier2 *mem = &f->memories[f->counts.barrier_calls];
        *mem = (VkMemoryBarrier2){ .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2 };
        bool any = false, memory = false;
        for (; next < barriers; next++) {
            const rg_barrier_info *b = rg_barrier_get(g, next);
            uint32_t bp = point_of(b, pos, n);
            if (bp < p) {
                *error = "barriers not sorted by execution order";
                break;
            }
            if (bp != p)
                break;
            any = true;
            if (b->texture.id) {
                const bench_tex *t = find_texture(cap, b->texture);
                if (!t || !t->image) {
                    *error = "a barrier on a texture without a captured image";
                    break;
                }
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
                    .image = t->image,
                    .subresourceRange = { b->range.aspect, b->range.base_mip, b->range.mip_count,
                                          b->range.base_layer, b->range.layer_count },
                };
            } else if (b->buffer.id) {
                *error = "buffer barriers are not supported by the hand-written path";
                break;
            } else {
                mem->srcStageMask |= b->src_stage;
                mem->srcAccessMask |= b->src_access;
                mem->dstStageMask |= b->dst_stage;
                mem->dstAccessMask |= b->dst_access;
                memory = true;
            }
        }
        if (any && !*error) {
            f->deps[f->counts.barrier_calls] = (VkDependencyInfo){
                .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                .memoryBarrierCount = memory ? 1 : 0,
                .pMemoryBarriers = mem,
                .imageMemoryBarrierCount = f->counts.image_barriers - first_image,
                .pImageMemoryBarriers = &f->images[first_image],
            };
            f->counts.memory_barriers += memory;
            f->ops[f->op_count++] = (op){ OP_BARRIER, f->counts.barrier_calls++ };
        }
        if (p == n || *error)
            break;
        uint32_t id = order[p].id;
        const bench_cmd *c = id <= cap->cmd_count ? &cap->cmds[id - 1] : NULL;
        switch (c ? c->kind : CMD_OTHER) {
        case CMD_USER:
            f->ops[f->op_count++] = (op){ OP_CALL, id - 1 };
            f->counts.calls++;
            break;
        case CMD_BEGIN:
            f->ops[f->op_count++] = (op){ OP_BEGIN, c->span };
            f->counts.spans++;
            break;
        case CMD_END:
            f->ops[f->op_count++] = (op){ OP_END, 0 };
            break;
        default:
            *error = "a command the hand-written path does not know (transfers are not supported)";
            break;
        }
    }
    if (!*error && next != barriers)
        *error = "barriers left over after the last point";
    if (*error)
        goto fail;
    free(pos);
    return f;
fail:
    free(pos);
    bench_flat_destroy(f);
    return NULL;
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* By hand, a callback is reached through a call shaped like trampoline()
 * (a flag test, a bench context, the indirect call), so that neither side
 * pays an indirection the other does not. */
static NOINLINE bool hand_call(const bench_cmd *c, VkCommandBuffer cmd)
{
    if (c->cap->resolve_pending)
        return false;
    bench_rc b = { NULL, cmd, c->cap };
    return c->record((const rg_record_context *)&b, c->user);
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
        case OP_BEGIN: {
            const VkRenderingInfo *ri = &f->rendering[ops[i].index];
            vkCmdBeginRendering(cmd, ri);
            vkCmdSetViewport(cmd, 0, 1, &f->viewports[ops[i].index]);
            vkCmdSetScissor(cmd, 0, 1, &ri->renderArea);
            in_span = true;
            break;
        }
        case OP_END:
            vkCmdEndRendering(cmd);
            in_span = false;
            break;
        case OP_CALL:
            if (!hand_call(&f->cap->cmds[ops[i].index], cmd)) {
                if (in_span)
                    vkCmdEndRendering(cmd);
                return false;
            }
            break;
        }
    }
    return true;
}
