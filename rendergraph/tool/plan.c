/* Gathering a placed frame's plan into plain data: the execution order,
 * culled commands with their reasons, barriers, merges, batches, queue
 * notes, resources and memory totals. Everything printed or compared
 * comes from here, so the outputs never disagree. */
#include "rgtool.h"

#include <stdlib.h>
#include <string.h>

/* A command handle's place in the execution order, found by binary search
 * on the ids (barriers name commands by handle; handles are not indices). */
typedef struct handle_pos {
    uint32_t id, position;
} handle_pos;

static int compare_handle(const void *a, const void *b)
{
    uint32_t x = ((const handle_pos *)a)->id, y = ((const handle_pos *)b)->id;
    return x < y ? -1 : x > y;
}

static uint32_t position_of(const handle_pos *map, uint32_t count, rg_command command)
{
    handle_pos key = {command.id, 0};
    const handle_pos *hit = bsearch(&key, map, count, sizeof *map, compare_handle);
    return hit ? hit->position : RG_INDEX_NONE;
}

static const char *or_empty(const char *s) { return s ? s : ""; }

static bool gather_order(const rgt_frame *f, rgt_plan *p, handle_pos **map_out)
{
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->graph, &order);
    p->order = calloc(n ? n : 1, sizeof *p->order);
    handle_pos *map = calloc(n ? n : 1, sizeof *map);
    *map_out = map;
    if (!p->order || !map)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        rg_command_info ci;
        if (rg_command_get_info(f->graph, order[i], &ci) != RG_SUCCESS) {
            fprintf(stderr, "rgtool: %s\n", rg_graph_error_message(f->graph));
            return false;
        }
        rgt_command *c = &p->order[i];
        *c = (rgt_command){.name = or_empty(ci.name),
                           .type = ci.type,
                           .kind = ci.kind,
                           .declared = ci.index,
                           .position = i,
                           .queue = ci.queue,
                           .batch = ci.batch,
                           .span = ci.span,
                           .instance = RG_INDEX_NONE};
        rg_command_rendering cr;
        if (ci.span != RG_INDEX_NONE && rg_command_get_rendering(f->graph, order[i], &cr) == RG_SUCCESS) {
            c->instance = cr.instance;
            c->merged = cr.merged;
        }
        map[i] = (handle_pos){order[i].id, i};
    }
    p->order_count = n;
    qsort(map, n, sizeof *map, compare_handle);
    return true;
}

static bool gather_barriers(const rgt_frame *f, rgt_plan *p, const handle_pos *map)
{
    uint32_t n = rg_barrier_count(f->graph);
    p->barriers = calloc(n ? n : 1, sizeof *p->barriers);
    if (!p->barriers)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->graph, i);
        if (!b)
            return false;
        rgt_barrier *o = &p->barriers[i];
        *o = (rgt_barrier){.position = RG_INDEX_NONE,
                           .resource = "",
                           .is_texture = b->texture.id != 0,
                           .hoisted = b->hoisted,
                           .by_region = b->by_region,
                           .old_layout = b->old_layout,
                           .new_layout = b->new_layout,
                           .src_stage = b->src_stage,
                           .dst_stage = b->dst_stage,
                           .src_access = b->src_access,
                           .dst_access = b->dst_access};
        rg_resource_info ri;
        if (b->texture.id && rg_texture_get_info(f->graph, b->texture, &ri) == RG_SUCCESS)
            o->resource = or_empty(ri.name);
        else if (b->buffer.id && rg_buffer_get_info(f->graph, b->buffer, &ri) == RG_SUCCESS)
            o->resource = or_empty(ri.name);
        if (b->before.id)
            o->position = position_of(map, p->order_count, b->before);
        if (o->position < p->order_count)
            p->order[o->position].barriers++;
        else
            p->final_barriers++;
    }
    p->barrier_count = n;
    return true;
}

/* Culled commands, in declaration order (rg_command_info.culled of each
 * declared command's handle, with its cull_reason: a command of a culled
 * span has its span's). */
static bool gather_culled(const rgt_frame *f, rgt_plan *p)
{
    rg_declaration decl;
    rg_declaration_get(f->graph, &decl);
    uint32_t n = decl.command_count;
    p->culled = calloc(n ? n : 1, sizeof *p->culled);
    if (!p->culled)
        return false;
    const char *span = NULL;
    uint32_t span_index = RG_INDEX_NONE, spans = 0;
    for (uint32_t i = 0; i < n; i++) {
        rg_declared got;
        if (rg_declared_get(f->graph, RG_DECLARED_COMMAND, i, &got) != RG_SUCCESS)
            break;
        const rg_declared_command *dc = &got.command;
        const char *name = or_empty(dc->name);
        bool begins = dc->type == RG_COMMAND_TYPE_BEGIN_RENDERING;
        if (begins) {
            span = name;
            span_index = spans++;
        }
        rg_command_info info;
        if (rg_command_get_info(f->graph, dc->command, &info) == RG_SUCCESS && info.culled) {
            bool inside = span && !begins;
            p->culled[p->culled_count++] = (rgt_command){.name = name,
                                                         .type = dc->type,
                                                         .kind = dc->user.kind,
                                                         .declared = i,
                                                         .position = RG_INDEX_NONE,
                                                         .queue = RG_QUEUE_GRAPHICS,
                                                         .batch = RG_INDEX_NONE,
                                                         .span = span ? span_index : RG_INDEX_NONE,
                                                         .instance = RG_INDEX_NONE,
                                                         .span_name = inside ? span : NULL,
                                                         .cull_reason = info.cull_reason};
        }
        if (dc->type == RG_COMMAND_TYPE_END_RENDERING)
            span = NULL;
    }
    return true;
}

static const char *command_name(const rg_graph *g, rg_command command)
{
    rg_command_info ci;
    return rg_command_get_info(g, command, &ci) == RG_SUCCESS ? or_empty(ci.name) : "?";
}

static bool gather_queues(const rgt_frame *f, rgt_plan *p)
{
    uint32_t merges = rg_merge_count(f->graph), batches = rg_batch_count(f->graph),
             notes = rg_queue_note_count(f->graph);
    p->merges = calloc(merges ? merges : 1, sizeof *p->merges);
    p->batches = calloc(batches ? batches : 1, sizeof *p->batches);
    p->queue_notes = calloc(notes ? notes : 1, sizeof *p->queue_notes);
    if (!p->merges || !p->batches || !p->queue_notes)
        return false;
    for (uint32_t i = 0; i < merges; i++) {
        rg_merge_info mi;
        if (rg_merge_get(f->graph, i, &mi) != RG_SUCCESS)
            return false;
        p->merges[p->merge_count++] = (rgt_merge){command_name(f->graph, mi.first), command_name(f->graph, mi.second),
                                                  mi.merged, or_empty(mi.reason)};
        p->merges_taken += mi.merged;
    }
    for (uint32_t i = 0; i < batches; i++)
        if (rg_batch_get(f->graph, i, &p->batches[p->batch_count]) == RG_SUCCESS)
            p->batch_count++;
    for (uint32_t i = 0; i < notes; i++) {
        rg_queue_note qn;
        if (rg_queue_note_get(f->graph, i, &qn) == RG_SUCCESS)
            p->queue_notes[p->queue_note_count++] =
                (rgt_queue_note){command_name(f->graph, qn.command), qn.eligible, or_empty(qn.reason)};
    }
    return true;
}

static bool gather_resources(const rgt_frame *f, rgt_plan *p)
{
    uint32_t n = rg_resource_count(f->graph);
    p->resources = calloc(n ? n : 1, sizeof *p->resources);
    if (!p->resources)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        rg_resource_info *ri = &p->resources[p->resource_count];
        if (rg_resource_get(f->graph, i, ri) == RG_SUCCESS) {
            ri->name = or_empty(ri->name);
            p->resource_count++;
        }
    }
    p->totals = rg_memory_get_totals(f->graph);
    return true;
}

/* rgf_frame_info.memory_notes ("line\nline\n") as a list of lines. */
static bool gather_memory_notes(rgt_plan *p)
{
    const char *notes = p->info.memory_notes ? p->info.memory_notes : "";
    size_t len = strlen(notes);
    uint32_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += notes[i] == '\n';
    p->memory_text = malloc(len + 1);
    p->memory_notes = calloc(lines + 1, sizeof *p->memory_notes);
    if (!p->memory_text || !p->memory_notes)
        return false;
    memcpy(p->memory_text, notes, len + 1);
    for (char *line = p->memory_text, *end; (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        p->memory_notes[p->memory_note_count++] = line;
    }
    return true;
}

bool rgt_plan_gather(const char *file, const rgt_frame *frame, rgt_plan *out)
{
    memset(out, 0, sizeof *out);
    rg_tile_info tile = rg_tile_profile_info(frame->profile);
    out->file = file;
    out->info = rgf_frame_get_info(frame->frame);
    out->profile_key = or_empty(tile.key);
    out->profile_name = or_empty(tile.name);
    out->memory = frame->memory;
    rg_declaration decl;
    rg_declaration_get(frame->graph, &decl);
    out->merge = decl.desc.merge;
    out->instance_count = rg_instance_count(frame->graph);
    out->notes = frame->notes;
    out->note_count = frame->note_count;
    handle_pos *map = NULL;
    bool ok = gather_order(frame, out, &map) && gather_barriers(frame, out, map) && gather_culled(frame, out) &&
              gather_queues(frame, out) && gather_resources(frame, out) && gather_memory_notes(out) &&
              rgt_tiles_gather(frame, out);
    free(map);
    if (!ok) {
        fprintf(stderr, "rgtool: %s: could not gather the plan (out of memory or a failed query)\n", file);
        rgt_plan_free(out);
    }
    return ok;
}

void rgt_plan_free(rgt_plan *plan)
{
    if (!plan)
        return;
    free(plan->order);
    free(plan->culled);
    free(plan->barriers);
    free(plan->merges);
    free(plan->batches);
    free(plan->queue_notes);
    free(plan->resources);
    free(plan->memory_notes);
    free(plan->memory_text);
    free(plan->tiles);
    memset(plan, 0, sizeof *plan);
}
