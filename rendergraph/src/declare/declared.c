/* The declaration as data (rg_declared_*, rg_graph_get_desc): what the
 * application declared, given back as the arguments of the calls that
 * declared it, so that a tool (the frame files, rendergraph_frame) can
 * write it down and declare it again into another graph. Read-only, from
 * the declaration records alone: it needs no compile, so a frame whose
 * compile fails can be saved too.
 */
#include "model.h"

#include <string.h>

/* The handle of resource i, of the kind it is. */
static rg_texture texture_of(const rg_graph *g, uint32_t i) { return (rg_texture){rg__make_id(g, i)}; }
static rg_buffer buffer_of(const rg_graph *g, uint32_t i) { return (rg_buffer){rg__make_id(g, i)}; }

/* A declaration a failed call left incomplete has no data: counts 0. */
uint32_t rg_declared_resource_count(const rg_graph *graph)
{
    if (graph && !rg__graph_live(graph, "rg_declared_resource_count"))
        return 0;
    return graph && !graph->status->incomplete ? graph->decl.resource_count : 0;
}

uint32_t rg_declared_command_count(const rg_graph *graph)
{
    if (graph && !rg__graph_live(graph, "rg_declared_command_count"))
        return 0;
    return graph && !graph->status->incomplete ? graph->decl.cmd_count : 0;
}

static rg_result refuse(const rg_graph *g, const char *what, uint32_t index, uint32_t count, const char *items)
{
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    if (g->status->incomplete) {
        char kept[sizeof g->status->message];
        memcpy(kept, g->status->message, sizeof kept);
        return rg__report(g, g->status->error, "%s: graph '%s': a declaration call failed, so the declaration "
                          "lacks it (%s)", what, g->name, kept);
    }
    return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: index %u of graph '%s', which has %u declared %s", what,
                      index, g->name, count, items);
}

/* A created or history texture's desc as declared. A previous half gets
 * its current's desc under its own name. */
static rg_texture_desc texture_desc(const rg_graph *g, const rg__resource *r)
{
    rg_texture_desc d = {.name = r->name, .transient = r->transient_mode, .format = r->format,
                         .mip_levels = r->mip_levels, .array_layers = r->array_layers, .samples = r->samples,
                         .extra_usage = r->extra_usage, .history_clear = r->history_clear};
    if (rg__history(r))
        d.transient = RG_TRANSIENT_AUTO;
    if (r->size_of == RG__NONE) {
        d.width = r->width;
        d.height = r->height;
    } else {
        d.size_of = texture_of(g, r->size_of);
        d.scale = r->scale;
        d.rounding = r->rounding;
    }
    return d;
}

rg_result rg_declared_resource_get(const rg_graph *graph, uint32_t index, rg_declared_resource *out)
{
    if (graph && !rg__graph_live(graph, "rg_declared_resource_get"))
        return RG_ERROR_INVALID_HANDLE;
    if (!graph || !out || index >= graph->decl.resource_count || graph->status->incomplete) {
        if (out)
            memset(out, 0, sizeof *out);
        return refuse(graph, "rg_declared_resource_get", index, rg_declared_resource_count(graph), "resources");
    }
    const rg__resource *r = &graph->decl.resources[index];
    memset(out, 0, sizeof *out);
    out->is_texture = r->is_texture;
    if (r->is_texture)
        out->texture_handle = texture_of(graph, index);
    else
        out->buffer_handle = buffer_of(graph, index);
    out->kind = rg__resource_kind(r);
    if (r->is_texture && r->imported)
        out->texture_import = (rg_texture_import_desc){
            .name = r->name, .image = r->image, .view = r->view, .format = r->format, .width = r->width,
            .height = r->height, .mip_levels = r->mip_levels, .array_layers = r->array_layers,
            .samples = r->samples, .usage = r->given_usage, .initial_layout = r->initial_layout,
            .initial_stage = r->initial_stage, .initial_access = r->initial_access,
            .final_layout = r->final_layout, .final_stage = r->final_stage, .final_access = r->final_access};
    else if (r->is_texture)
        out->texture = texture_desc(graph, r);
    else if (r->imported)
        out->buffer_import = (rg_buffer_import_desc){
            .name = r->name, .buffer = r->buffer, .size = r->size, .usage = r->given_usage,
            .initial_stage = r->initial_stage, .initial_access = r->initial_access, .final_stage = r->final_stage,
            .final_access = r->final_access};
    else
        out->buffer = (rg_buffer_desc){.name = r->name, .size = r->size, .extra_usage = r->extra_usage};
    return RG_SUCCESS;
}

/* A built-in command's arguments: its accesses are source then
 * destination (a clear: the texture alone), declare_transfers.c. */
static void transfer_args(const rg_graph *g, const rg__cmd *c, rg_declared_command *out)
{
    const rg__access *a = &g->decl.accesses[c->first_access];
    uint32_t src = a[0].resource, dst = c->access_count > 1 ? a[1].resource : src;
    switch (c->type) {
    case RG_COMMAND_TYPE_COPY_BUFFER:
        out->src_buffer = buffer_of(g, src);
        out->dst_buffer = buffer_of(g, dst);
        out->src_offset = c->u.copy_buffer.src_offset;
        out->dst_offset = c->u.copy_buffer.dst_offset;
        out->size = c->u.copy_buffer.size;
        break;
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE:
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER: {
        bool to_texture = c->type == RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE;
        out->src_buffer = to_texture ? buffer_of(g, src) : (rg_buffer){0};
        out->src_texture = to_texture ? (rg_texture){0} : texture_of(g, src);
        out->dst_texture = to_texture ? texture_of(g, dst) : (rg_texture){0};
        out->dst_buffer = to_texture ? (rg_buffer){0} : buffer_of(g, dst);
        (to_texture ? &out->src_offset : &out->dst_offset)[0] = c->u.copy_image.offset;
        out->aspect = c->u.copy_image.aspect;
        out->src_mip = out->dst_mip = c->u.copy_image.mip;
        out->layer = c->u.copy_image.layer;
        out->layer_count = c->u.copy_image.layer_count;
        break;
    }
    case RG_COMMAND_TYPE_CLEAR:
        out->dst_texture = texture_of(g, src);
        out->range = c->u.clear.range;
        out->clear = c->u.clear.value;
        break;
    case RG_COMMAND_TYPE_BLIT:
        out->src_texture = texture_of(g, src);
        out->dst_texture = texture_of(g, dst);
        out->src_mip = c->u.blit.src_mip;
        out->dst_mip = c->u.blit.dst_mip;
        out->filter = c->u.blit.filter;
        break;
    default:
        break;
    }
}

rg_result rg_declared_command_get(const rg_graph *graph, uint32_t index, rg_declared_command *out)
{
    if (graph && !rg__graph_live(graph, "rg_declared_command_get"))
        return RG_ERROR_INVALID_HANDLE;
    if (!graph || !out || index >= graph->decl.cmd_count || graph->status->incomplete) {
        if (out)
            memset(out, 0, sizeof *out);
        return refuse(graph, "rg_declared_command_get", index, rg_declared_command_count(graph), "commands");
    }
    const rg__cmd *c = &graph->decl.cmds[index];
    memset(out, 0, sizeof *out);
    out->type = c->type;
    out->command = (rg_command){rg__make_id(graph, index)};
    out->name = c->name;
    out->queue = c->queue;
    if (c->type == RG_COMMAND_TYPE_USER) {
        out->user = (rg_user_desc){.name = c->name, .kind = c->kind, .record = c->u.user.record,
                                   .user = c->u.user.user, .side_effects = c->side_effects, .queue = c->queue,
                                   .cost = c->u.user.cost, .access_count = c->access_count};
        out->user.accesses = c->access_count ? graph->decl.declared + c->u.user.declared : NULL;
    } else if (c->type == RG_COMMAND_TYPE_BEGIN_RENDERING) {
        out->rendering = graph->decl.spans[c->span].desc;
        out->rendering.name = c->name;
    } else if (c->type != RG_COMMAND_TYPE_END_RENDERING) {
        transfer_args(graph, c, out);
    }
    return RG_SUCCESS;
}

rg_graph_desc rg_graph_get_desc(const rg_graph *graph)
{
    if (graph && !rg__graph_live(graph, "rg_graph_get_desc"))
        return (rg_graph_desc){0};
    if (!graph)
        return (rg_graph_desc){0};
    return (rg_graph_desc){.name = graph->name, .device = graph->dev, .no_aliasing = graph->no_aliasing,
                           .merge = graph->merge, .no_culling = graph->no_culling, .order = graph->order,
                           .alias_proven_only = graph->alias_proven_only, .caps = &graph->caps,
                           .single_queue = graph->single_queue, .queue_policy = graph->queue_policy, .log = graph->log, .log_user = graph->log_user,
                           .concurrent_sharing = graph->concurrent_sharing, .timings = graph->timings,
                           .lenient_record_access = graph->lenient_record_access};
}
