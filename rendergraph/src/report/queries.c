/* What the public API reads back from the stages: happens-before, the
 * order, commands, barriers, spans' rendering, transient flags, placement
 * and Vulkan objects. Read-only; each query says what it needs (compiled or
 * placed) and returns a neutral value otherwise. A query that returns an
 * rg_result sets the graph's message when it fails, the one write it makes:
 * one that succeeds writes nothing (record callbacks call queries during
 * rg_execute, and may come to do so from several threads).
 */
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"
#include "place/reuse.h"
#include "report/stages.h"

#include <stddef.h>
#include <string.h>

static bool compiled(const rg_graph *g) { return g && g->status->state != RG__FAILED && g->status->state >= RG__COMPILED; }
static bool placed(const rg_graph *g) { return g && g->status->state == RG__PLACED; }

/* The checks every query and report makes first (report/stages.h). */

bool rg__query_compiled(const rg_graph *g, const char *what) { return g && rg__graph_live(g, what) && compiled(g); }

rg_result rg__query_begin(const rg_graph *g, const char *what, const void *arg, const char *name)
{
    if (!g)
        return RG_ERROR_INVALID_ARGUMENT;
    if (!rg__graph_live(g, what))
        return RG_ERROR_INVALID_HANDLE;
    if (!arg)
        return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", what, name);
    return RG_SUCCESS;
}

rg_result rg__query_start(const rg_graph *g, const char *what, void *out, size_t size)
{
    rg_result r = rg__query_begin(g, what, out, "out");
    if (r != RG_SUCCESS)
        return r;
    memset(out, 0, size);
    if (!compiled(g))
        return rg__report(g, RG_ERROR_NOT_COMPILED, "%s: graph '%s' is not compiled", what, g->name);
    return RG_SUCCESS;
}

/* A handle that names nothing of g's current declaration. */
static rg_result bad_handle(const rg_graph *g, const char *what, const char *type, uint32_t id)
{
    return rg__report(g, RG_ERROR_INVALID_HANDLE, "%s: %s handle 0x%x is not a %s of graph '%s' (0, "
                      "stale or foreign)", what, type, id, type, g->name);
}

/* An index past the end of one of g's lists. */
static rg_result bad_index(const rg_graph *g, const char *what, uint32_t index, uint32_t count, const char *items)
{
    return rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s: index %u of graph '%s', which has %u %s", what,
                      index, g->name, count, items);
}

/* A get call (what) of item `index` of a list: rg__query_start(), the
 * index checked against count(g) (the list's public count call; its items
 * called `items`), then fill(g, index, out) writes the item's info. */
static rg_result get_item(const rg_graph *g, const char *what, uint32_t index, void *out, size_t size,
                          uint32_t (*count)(const rg_graph *), const char *items,
                          void (*fill)(const rg_graph *, uint32_t, void *))
{
    rg_result r = rg__query_start(g, what, out, size);
    if (r == RG_SUCCESS && index >= count(g))
        r = bad_index(g, what, index, count(g), items);
    if (r == RG_SUCCESS)
        fill(g, index, out);
    return r;
}

/* rg__query_start() for a command's query; sets the command's index. */
static rg_result start_command(const rg_graph *g, void *out, size_t size, const char *what, rg_command command,
                               uint32_t *i)
{
    rg_result r = rg__query_start(g, what, out, size);
    if (r != RG_SUCCESS)
        return r;
    *i = rg__command_index(g, command);
    return *i == RG__NONE ? bad_handle(g, what, "command", command.id) : RG_SUCCESS;
}

/* ---------------------------------------------------------------- compile */

bool rg_happens_before(const rg_graph *graph, rg_command a, rg_command b)
{
    if (!rg__query_compiled(graph, "rg_happens_before"))
        return false;
    uint32_t ia = rg__command_index(graph, a), ib = rg__command_index(graph, b);
    if (ia == RG__NONE || ib == RG__NONE)
        return false;
    uint32_t na = rg__node_of(graph, ia), nb = rg__node_of(graph, ib);
    if (na >= nb) /* same node (one span) or later: never */
        return false;
    return (graph->compiled->closure.rows[(size_t)nb * graph->compiled->closure.row_words + na / 64] >> (na % 64)) & 1u;
}

uint32_t rg_execution_order(const rg_graph *graph, const rg_command **order)
{
    if (graph && !rg__graph_live(graph, "rg_execution_order"))
        return 0;
    bool ok = compiled(graph);
    if (order)
        *order = ok ? rg__sync_of(graph)->order_handles : NULL;
    return ok ? graph->compiled->merge.order.count : 0;
}

rg_result rg_command_get_info(const rg_graph *graph, rg_command command, rg_command_info *out)
{
    uint32_t i = RG__NONE;
    rg_result r = start_command(graph, out, sizeof *out, "rg_command_get_info", command, &i);
    if (r != RG_SUCCESS)
        return r;
    const rg__cmd *c = &graph->decl.cmds[i];
    *out = (rg_command_info){ .name = c->name, .type = c->type, .kind = c->kind, .index = i, .span = c->span,
                              .culled = rg__culled(graph, i), .cull_reason = rg__cull_reason(graph, i),
                              .queue = rg__queue_of(graph, i),
                              .batch = rg__culled(graph, i) ? RG_INDEX_NONE
                                                            : graph->compiled->queues.node_batch[rg__node_of(graph, i)] };
    if (c->type == RG_COMMAND_TYPE_USER) {
        out->record = c->u.user.record;
        out->user = c->u.user.user;
    }
    return RG_SUCCESS;
}

/* The instance's format of an attachment. */
static VkFormat att_format(const rg_graph *g, const rg__inst_att *att)
{
    return g->decl.resources[att->resource].format;
}

rg_result rg_command_get_rendering(const rg_graph *graph, rg_command command, rg_command_rendering *out)
{
    uint32_t i = RG__NONE;
    rg_result r = start_command(graph, out, sizeof *out, "rg_command_get_rendering", command, &i);
    if (r != RG_SUCCESS)
        return r;
    uint32_t s = graph->decl.cmds[i].span;
    if (s == RG__NONE)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_command_get_rendering: command '%s' is "
                          "outside spans", graph->decl.cmds[i].name);
    const rg__span_map *map = &graph->compiled->merge.span_map[s];
    if (map->instance == RG__NONE)
        return rg__report(graph, RG_ERROR_CULLED, "rg_command_get_rendering: command '%s' was culled",
                          graph->decl.cmds[i].name);
    const rg__instance *in = &graph->compiled->merge.instances[map->instance];
    out->instance = map->instance;
    out->merged = in->count > 1;
    out->color_count = in->color_count;
    out->samples = VK_SAMPLE_COUNT_1_BIT;
    for (uint32_t u = 0; u < in->color_count; u++) {
        out->color_formats[u] = att_format(graph, &in->colors[u]);
        out->color_locations[u] = map->locations[u];
        out->color_input_indices[u] = map->inputs[u];
        out->samples = graph->decl.resources[in->colors[u].resource].samples;
    }
    for (uint32_t u = in->color_count; u < RG_MAX_COLOR_ATTACHMENTS; u++)
        out->color_locations[u] = out->color_input_indices[u] = VK_ATTACHMENT_UNUSED;
    out->depth_input_index = out->stencil_input_index = VK_ATTACHMENT_UNUSED;
    if (in->has_depth) {
        const rg__resource *d = &graph->decl.resources[in->depth.resource];
        if (d->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) {
            out->depth_format = d->format;
            out->depth_input_index = map->depth_input;
        }
        if (d->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) {
            out->stencil_format = d->format;
            out->stencil_input_index = map->depth_input;
        }
        out->samples = d->samples;
    }
    /* FNV-1a over the fields a pipeline depends on, not the instance's
     * index (padding zeroed by rg__query_start()): equal states, equal keys. */
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = (const unsigned char *)out;
    for (size_t k = offsetof(rg_command_rendering, merged); k < offsetof(rg_command_rendering, key); k++)
        h = (h ^ b[k]) * 0x100000001b3ull;
    out->key = h;
    return RG_SUCCESS;
}

rg_result rg_command_get_local_read(const rg_graph *graph, rg_command command, rg_texture texture,
                                    rg_local_read_info *out)
{
    uint32_t i = RG__NONE;
    rg_result r = start_command(graph, out, sizeof *out, "rg_command_get_local_read", command, &i);
    if (r != RG_SUCCESS)
        return r;
    uint32_t t = rg__texture_index(graph, texture);
    if (t == RG__NONE)
        return bad_handle(graph, "rg_command_get_local_read", "texture", texture.id);
    const rg__cmd *c = &graph->decl.cmds[i];
    for (uint32_t k = 0; k < c->access_count; k++) {
        uint32_t ai = c->first_access + k;
        const rg__access *a = &graph->decl.accesses[ai];
        if (!a->local || a->resource != t)
            continue;
        out->input_attachment = graph->compiled->merge.access_mode[ai] == RG__MODE_INPUT;
        out->input_index = VK_ATTACHMENT_UNUSED;
        out->layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (out->input_attachment) {
            const rg__span_map *map = &graph->compiled->merge.span_map[c->span];
            const rg__instance *in = &graph->compiled->merge.instances[map->instance];
            out->layout = VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR;
            for (uint32_t u = 0; u < in->color_count; u++)
                if (in->colors[u].resource == t && map->inputs[u] != VK_ATTACHMENT_UNUSED)
                    out->input_index = map->inputs[u];
            if (in->has_depth && in->depth.resource == t)
                out->input_index = map->depth_input;
        }
        return RG_SUCCESS;
    }
    return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_command_get_local_read: command '%s' does "
                      "not read texture '%s' pixel-locally", c->name, graph->decl.resources[t].name);
}

uint32_t rg_merge_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_merge_count") ? graph->compiled->merge.merge_count : 0;
}

static void merge_info(const rg_graph *g, uint32_t index, void *info)
{
    const rg__merge_note *n = &g->compiled->merge.merges[index];
    rg_merge_info *out = info;
    out->first = (rg_command){rg__make_id(g, g->decl.spans[n->first].begin_cmd)};
    out->second = (rg_command){rg__make_id(g, g->decl.spans[n->second].begin_cmd)};
    out->merged = n->reason[0] == '\0';
    out->reason = n->reason;
}

rg_result rg_merge_get(const rg_graph *graph, uint32_t index, rg_merge_info *out)
{
    return get_item(graph, "rg_merge_get", index, out, sizeof *out, rg_merge_count, "merge notes", merge_info);
}

uint32_t rg_barrier_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_barrier_count") ? rg__sync_of(graph)->barrier_count : 0;
}

const rg_barrier_info *rg_barrier_get(const rg_graph *graph, uint32_t index)
{
    if (!rg__query_compiled(graph, "rg_barrier_get") || index >= rg__sync_of(graph)->barrier_count)
        return NULL;
    return &rg__sync_of(graph)->infos[index];
}

/* The count of recorded frames is since placement on the device: the
 * frame being recorded (or the next) reads an earlier one's writes after
 * the first. */
bool rg_texture_history_valid(const rg_graph *graph, rg_texture previous)
{
    if (graph && !rg__graph_live(graph, "rg_texture_history_valid"))
        return false;
    uint32_t i = graph ? rg__texture_index(graph, previous) : RG__NONE;
    return i != RG__NONE && rg__history(&graph->decl.resources[i]) && placed(graph) &&
           graph->placement->on_device && graph->exec->frame.recorded > 0;
}

bool rg_texture_is_transient(const rg_graph *graph, rg_texture texture)
{
    if (!rg__query_compiled(graph, "rg_texture_is_transient"))
        return false;
    uint32_t i = rg__texture_index(graph, texture);
    return i != RG__NONE && rg__transient(graph, i);
}

/* The rg_resource_info of resource i of a compiled graph: the
 * declaration, compile's results and the placement's (when placed). */
static void resource_info_of(const rg_graph *g, uint32_t i, void *info)
{
    const rg__resource *r = &g->decl.resources[i];
    rg_resource_info *out = info;
    /* The shape: a texture's fields from t, a buffer's from b, the other
     * kind's from a resource of zeroes. */
    static const rg__resource none;
    const rg__resource *t = r->is_texture ? r : &none, *b = r->is_texture ? &none : r;
    uint32_t id = rg__make_id(g, i);
    *out = (rg_resource_info){ .name = r->name, .imported = r->imported, .transient = rg__transient(g, i),
        .not_transient = g->compiled->transient.why ? g->compiled->transient.why[i] : NULL,
        .fold = g->compiled->fold.note ? g->compiled->fold.note[i] : NULL,
                               .first_use = rg__first_use(g, i), .last_use = rg__last_use(g, i),
                               .format = t->format, .width = t->width, .height = t->height,
                               .mip_levels = t->mip_levels, .array_layers = t->array_layers, .samples = t->samples,
                               .size = b->size, .texture = {r->is_texture ? id : 0}, .buffer = {r->is_texture ? 0 : id},
                               .kind = rg__resource_kind(r), .memory_type = RG__NONE, .pool = RG__NONE };
    if (placed(g)) {
        rg__mem_placement placed_at = rg__placed_memory(g, i);
        const rg__mem_placement *m = &placed_at;
        out->memory = m->kind;
        if (m->kind != RG_MEMORY_NOT_CREATED && m->kind != RG_MEMORY_IMPORTED) {
            out->memory_size = m->size;
            out->memory_type = m->memory_type;
            out->memory_alignment = m->alignment;
        }
        if (m->kind == RG_MEMORY_POOLED) {
            out->pool = m->pool;
            out->memory_offset = m->offset;
        }
    }
    if (!r->imported) {
        out->image_usage = rg__image_usage(g, i);
        out->buffer_usage = r->buffer_usage;
    }
}

static rg_result resource_info(const rg_graph *g, uint32_t id, bool texture, rg_resource_info *out)
{
    const char *what = texture ? "rg_texture_get_info" : "rg_buffer_get_info";
    rg_result res = rg__query_start(g, what, out, sizeof *out);
    if (res != RG_SUCCESS)
        return res;
    uint32_t i = texture ? rg__texture_index(g, (rg_texture){id}) : rg__buffer_index(g, (rg_buffer){id});
    if (i == RG__NONE)
        return bad_handle(g, what, texture ? "texture" : "buffer", id);
    resource_info_of(g, i, out);
    return RG_SUCCESS;
}

uint32_t rg_resource_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_resource_count") ? graph->decl.resource_count : 0;
}

rg_result rg_resource_get(const rg_graph *graph, uint32_t index, rg_resource_info *out)
{
    return get_item(graph, "rg_resource_get", index, out, sizeof *out, rg_resource_count, "resources",
                    resource_info_of);
}

VkExtent2D rg_texture_extent(const rg_graph *graph, rg_texture texture)
{
    if (graph && !rg__graph_live(graph, "rg_texture_extent"))
        return (VkExtent2D){0};
    uint32_t i = rg__texture_index(graph, texture);
    if (i == RG__NONE)
        return (VkExtent2D){ 0, 0 };
    return (VkExtent2D){ graph->decl.resources[i].width, graph->decl.resources[i].height };
}

rg_result rg_texture_get_info(const rg_graph *graph, rg_texture texture, rg_resource_info *out)
{
    return resource_info(graph, texture.id, true, out);
}

rg_result rg_buffer_get_info(const rg_graph *graph, rg_buffer buffer, rg_resource_info *out)
{
    return resource_info(graph, buffer.id, false, out);
}

/* ---------------------------------------------------------------- spans */

uint32_t rg_span_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_span_count") ? graph->decl.span_count : 0;
}

rg_result rg_span_get_rendering(const rg_graph *graph, uint32_t span, rg_span_rendering *out)
{
    rg_result r = rg__query_start(graph, "rg_span_get_rendering", out, sizeof *out);
    if (r != RG_SUCCESS)
        return r;
    if (!placed(graph) || !graph->placement->on_device)
        return rg__report(graph, RG_ERROR_NOT_PLACED, "rg_span_get_rendering: graph '%s' is not placed "
                          "on the device", graph->name);
    if (span >= graph->decl.span_count)
        return bad_index(graph, "rg_span_get_rendering", span, graph->decl.span_count, "spans");
    if (graph->compiled->merge.span_map[span].instance == RG__NONE)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_span_get_rendering: span %u was culled",
                          span);
    rg__span_rendering(graph, graph->exec->bound.spans, span, out);
    return RG_SUCCESS;
}

/* ---------------------------------------------------------------- memory */

rg_memory_totals rg_memory_get_totals(const rg_graph *graph)
{
    if (graph && !rg__graph_live(graph, "rg_memory_get_totals"))
        return (rg_memory_totals){0};
    rg_memory_totals t;
    memset(&t, 0, sizeof t); /* padding too: callers may compare totals whole */
    if (!placed(graph))
        return t;
    memcpy(&t, &graph->placement->plan.totals, sizeof t);
    for (uint32_t i = 0; i < graph->decl.resource_count; i++)
        if (rg__placed_memory(graph, i).kind == RG_MEMORY_LAZY_FALLBACK)
            t.lazy_fallback += graph->placement->plan.items[i].size;
    t.lazy -= t.lazy_fallback;
    t.objects_reused = graph->placement->objects.reused;
    t.objects_created = graph->placement->objects.made;
    const rg__reuse *k = graph->reuse;
    for (uint32_t i = 0; k && i < k->memory_count; i++)
        t.kept += k->memories[i].taken ? 0 : k->memories[i].m.size;
    t.objects_released = k ? k->released : 0;
    return t;
}

static rg_memory_kind memory_of(const rg_graph *g, uint32_t i, VkDeviceSize *offset, uint32_t *pool)
{
    bool known = placed(g) && i != RG__NONE;
    rg__mem_placement m = known ? rg__placed_memory(g, i) : (rg__mem_placement){.pool = RG__NONE};
    if (offset)
        *offset = m.offset;
    if (pool)
        *pool = m.pool;
    return known ? m.kind : RG_MEMORY_NOT_CREATED;
}

rg_memory_kind rg_texture_memory(const rg_graph *graph, rg_texture texture, VkDeviceSize *offset, uint32_t *pool)
{
    if (graph && !rg__graph_live(graph, "rg_texture_memory"))
        return RG_MEMORY_NOT_CREATED;
    return memory_of(graph, graph ? rg__texture_index(graph, texture) : RG__NONE, offset, pool);
}

rg_memory_kind rg_buffer_memory(const rg_graph *graph, rg_buffer buffer, VkDeviceSize *offset, uint32_t *pool)
{
    if (graph && !rg__graph_live(graph, "rg_buffer_memory"))
        return RG_MEMORY_NOT_CREATED;
    return memory_of(graph, graph ? rg__buffer_index(graph, buffer) : RG__NONE, offset, pool);
}

/* Created resources' objects exist only once placed on the device; an
 * import's are what the application set. */
static bool with_objects(const rg_graph *g, uint32_t i)
{
    return i != RG__NONE && (g->decl.resources[i].imported || (placed(g) && g->placement->on_device));
}

VkImage rg_texture_image(const rg_graph *graph, rg_texture texture)
{
    if (graph && !rg__graph_live(graph, "rg_texture_image"))
        return VK_NULL_HANDLE;
    uint32_t i = graph ? rg__texture_index(graph, texture) : RG__NONE;
    return with_objects(graph, i) ? rg__image(graph, i) : VK_NULL_HANDLE;
}

VkImageView rg_texture_view(const rg_graph *graph, rg_texture texture)
{
    if (graph && !rg__graph_live(graph, "rg_texture_view"))
        return VK_NULL_HANDLE;
    uint32_t i = graph ? rg__texture_index(graph, texture) : RG__NONE;
    return with_objects(graph, i) ? rg__view(graph, i) : VK_NULL_HANDLE;
}

VkBuffer rg_buffer_handle(const rg_graph *graph, rg_buffer buffer)
{
    if (graph && !rg__graph_live(graph, "rg_buffer_handle"))
        return VK_NULL_HANDLE;
    uint32_t i = graph ? rg__buffer_index(graph, buffer) : RG__NONE;
    return with_objects(graph, i) ? rg__buffer(graph, i) : VK_NULL_HANDLE;
}

uint32_t rg_batch_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_batch_count") ? graph->compiled->queues.batch_count : 0;
}

static void batch_info(const rg_graph *g, uint32_t batch, void *info)
{
    const rg__batch *b = &g->compiled->queues.batches[batch];
    rg_batch_info *out = info;
    *out = (rg_batch_info){.queue = b->queue, .first = b->first, .last = b->last, .signal = b->signal};
    for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
        if (b->waits_on[r])
            out->waits[out->wait_count++] = (rg_batch_wait){(rg_queue)r, b->wait[r].batch, rg__wait_stage(g, batch, r)};
}

rg_result rg_batch_get(const rg_graph *graph, uint32_t batch, rg_batch_info *out)
{
    return get_item(graph, "rg_batch_get", batch, out, sizeof *out, rg_batch_count, "batches", batch_info);
}

uint32_t rg_queue_note_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_queue_note_count") ? graph->compiled->queues.note_count : 0;
}

static void queue_note_info(const rg_graph *g, uint32_t index, void *info)
{
    const rg__queue_note *n = &g->compiled->queues.notes[index];
    rg_queue_note *out = info;
    *out = (rg_queue_note){{rg__make_id(g, n->cmd)}, g->decl.cmds[n->cmd].queue, n->reason};
}

rg_result rg_queue_note_get(const rg_graph *graph, uint32_t index, rg_queue_note *out)
{
    return get_item(graph, "rg_queue_note_get", index, out, sizeof *out, rg_queue_note_count, "queue notes",
                    queue_note_info);
}

/* ---------------------------------------------------------------- chunks */

rg_result rg_chunk_get(const rg_graph *graph, uint32_t chunk, rg_chunk_info *out)
{
    if (graph && !rg__graph_live(graph, "rg_chunk_get"))
        return RG_ERROR_INVALID_HANDLE;
    if (!graph || !out)
        return RG_ERROR_INVALID_ARGUMENT;
    bool open = graph->exec->frame.open;
    const rg__chunks *chunks = &graph->exec->chunks;
    if (!open || chunk >= chunks->count)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "rg_chunk_get: %s", !open
                          ? "no frame begun (rg_execute_begin)" : "an index past the chunk count");
    const rg__chunk *c = &chunks->of[chunk];
    *out = (rg_chunk_info){
        .batch = c->batch,
        .queue = graph->compiled->queues.batches[c->batch].queue,
        .first = c->first,
        .count = c->count,
        .cost = c->cost,
        .resumes = c->resume != RG__NONE,
        .suspends = c->suspends,
    };
    return RG_SUCCESS;
}
