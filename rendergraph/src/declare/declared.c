/* The declaration as data (rg_declaration_get, rg_declared_get): what the
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

/* What both calls check first: a live graph and out given (then zeroed).
 * A declaration a failed call left incomplete has no data: the calls
 * return its kept error, whose message the graph keeps (it is FAILED). */
static rg_result start(const rg_graph *g, void *out, size_t size, const char *what)
{
    if (g && !rg__graph_live(g, what))
        return RG_ERROR_INVALID_HANDLE;
    if (out)
        memset(out, 0, size);
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    return out ? RG_SUCCESS : rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: out is NULL", what);
}

/* The desc the graph was created with, its defaults resolved. */
static rg_graph_desc graph_desc(const rg_graph *graph)
{
    return (rg_graph_desc){.name = graph->name, .device = graph->dev, .no_aliasing = graph->no_aliasing,
                           .merge = graph->merge, .msaa_fold = graph->msaa_fold, .no_culling = graph->no_culling,
                           .order = graph->order,
                           .alias_proven_only = graph->alias_proven_only, .caps = &graph->caps,
                           .single_queue = graph->single_queue, .queue_policy = graph->queue_policy,
                           .log = graph->log, .log_user = graph->log_user,
                           .concurrent_sharing = graph->concurrent_sharing, .timings = graph->timings,
                           .lenient_record_access = graph->lenient_record_access};
}

/* The desc even when the declaration is incomplete: tools name the graph
 * in the error they report. */
rg_result rg_declaration_get(const rg_graph *graph, rg_declaration *out)
{
    rg_result r = start(graph, out, sizeof *out, "rg_declaration_get");
    if (r != RG_SUCCESS)
        return r;
    out->desc = graph_desc(graph);
    if (graph->status->incomplete)
        return graph->status->error;
    out->resource_count = graph->decl.resource_count;
    out->command_count = graph->decl.cmd_count;
    return RG_SUCCESS;
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

/* Resource `index` as declared. */
static void declared_resource(const rg_graph *graph, uint32_t index, rg_declared_resource *out)
{
    const rg__resource *r = &graph->decl.resources[index];
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
    else if (r->size_of == RG__NONE)
        out->buffer = (rg_buffer_desc){.name = r->name, .size = r->size, .extra_usage = r->extra_usage};
    else
        out->buffer = (rg_buffer_desc){.name = r->name, .extra_usage = r->extra_usage,
                                       .size_of = texture_of(graph, r->size_of), .per_texel = r->per_texel,
                                       .per_row = r->per_row};
}

/* Resource i's handle into the texture or the buffer one, by its kind. */
static void handle_of(const rg_graph *g, uint32_t i, rg_texture *texture, rg_buffer *buffer)
{
    if (g->decl.resources[i].is_texture)
        *texture = texture_of(g, i);
    else
        *buffer = buffer_of(g, i);
}

/* A built-in command's arguments: its accesses are source then
 * destination (a clear: the texture alone, its destination),
 * declare_transfers.c. */
static void transfer_args(const rg_graph *g, const rg__cmd *c, rg_declared_command *out)
{
    const rg__access *a = &g->decl.accesses[c->first_access];
    uint32_t src = a[0].resource, dst = c->access_count > 1 ? a[1].resource : src;
    if (c->type != RG_COMMAND_TYPE_CLEAR)
        handle_of(g, src, &out->src_texture, &out->src_buffer);
    handle_of(g, dst, &out->dst_texture, &out->dst_buffer);
    switch (c->type) {
    case RG_COMMAND_TYPE_COPY_BUFFER:
        out->src_offset = c->u.copy_buffer.src_offset;
        out->dst_offset = c->u.copy_buffer.dst_offset;
        out->size = c->u.copy_buffer.size;
        break;
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE:
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER:
        (c->type == RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE ? &out->src_offset : &out->dst_offset)[0] =
            c->u.copy_image.offset;
        out->aspect = c->u.copy_image.aspect;
        out->src_mip = out->dst_mip = c->u.copy_image.mip;
        out->layer = c->u.copy_image.layer;
        out->layer_count = c->u.copy_image.layer_count;
        break;
    case RG_COMMAND_TYPE_CLEAR:
        out->range = c->u.clear.range;
        out->clear = c->u.clear.value;
        break;
    case RG_COMMAND_TYPE_BLIT:
        out->src_mip = c->u.blit.src_mip;
        out->dst_mip = c->u.blit.dst_mip;
        out->filter = c->u.blit.filter;
        break;
    default:
        break;
    }
}

/* Command `index` as declared. */
static void declared_command(const rg_graph *graph, uint32_t index, rg_declared_command *out)
{
    const rg__cmd *c = &graph->decl.cmds[index];
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
}

rg_result rg_declared_get(const rg_graph *graph, rg_declared_kind kind, uint32_t index, rg_declared *out)
{
    rg_result r = start(graph, out, sizeof *out, "rg_declared_get");
    if (r != RG_SUCCESS)
        return r;
    if (graph->status->incomplete)
        return graph->status->error;
    bool command = kind == RG_DECLARED_COMMAND;
    if (kind != RG_DECLARED_RESOURCE && !command)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_declared_get: kind %d is not an rg_declared_kind",
                          (int)kind);
    uint32_t count = command ? graph->decl.cmd_count : graph->decl.resource_count;
    if (index >= count)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_declared_get: index %u of graph '%s', which has "
                          "%u declared %s", index, graph->name, count, command ? "commands" : "resources");
    if (command)
        declared_command(graph, index, &out->command);
    else
        declared_resource(graph, index, &out->resource);
    return RG_SUCCESS;
}
