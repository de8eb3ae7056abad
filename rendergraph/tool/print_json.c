/* A plan as one JSON object for scripts (cJSON writes it, so it is valid
 * JSON whatever the names hold). The keys mirror the text sections; the
 * report in docs and `rgtool --help` list them. Byte counts are JSON
 * numbers: exact up to 2^53. "none" indices (RG_INDEX_NONE) are null. */
#include "rgtool.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static void add_index(cJSON *o, const char *key, uint32_t v)
{
    if (v == RG_INDEX_NONE)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

static void add_string_or_null(cJSON *o, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_flags(cJSON *o, const char *key, uint64_t flags, bool access)
{
    char buf[512];
    if (access)
        rg_flag_names(RG_FLAGS_ACCESS, flags, buf, sizeof buf);
    else
        rg_flag_names(RG_FLAGS_STAGE, flags, buf, sizeof buf);
    cJSON_AddStringToObject(o, key, buf);
}

static cJSON *command_json(const rgt_command *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", c->name);
    cJSON_AddStringToObject(o, "type", rgt_command_type_name(c->type));
    if (c->type == RG_COMMAND_TYPE_USER)
        cJSON_AddStringToObject(o, "kind", c->kind == RG_COMMAND_DRAW ? "draw" : "outside");
    cJSON_AddNumberToObject(o, "declared", c->declared);
    if (c->position != RG_INDEX_NONE) {
        cJSON_AddNumberToObject(o, "position", c->position);
        cJSON_AddStringToObject(o, "queue", rg_queue_name(c->queue));
        add_index(o, "batch", c->batch);
        add_index(o, "instance", c->instance);
        cJSON_AddBoolToObject(o, "merged", c->merged);
        cJSON_AddNumberToObject(o, "barriers", c->barriers);
    } else {
        add_string_or_null(o, "span", c->span_name);
        add_string_or_null(o, "reason", c->cull_reason);
    }
    return o;
}

static cJSON *barrier_json(const rgt_plan *p, const rgt_barrier *b)
{
    cJSON *o = cJSON_CreateObject();
    add_index(o, "position", b->position);
    add_string_or_null(o, "before", b->position < p->order_count ? p->order[b->position].name : NULL);
    cJSON_AddStringToObject(o, "resource", b->resource);
    cJSON_AddStringToObject(o, "type", b->is_texture ? "texture" : b->resource[0] ? "buffer" : "memory");
    if (b->is_texture) {
        cJSON_AddStringToObject(o, "old_layout", rg_layout_name(b->old_layout));
        cJSON_AddStringToObject(o, "new_layout", rg_layout_name(b->new_layout));
    }
    add_flags(o, "src_stage", b->src_stage, false);
    add_flags(o, "dst_stage", b->dst_stage, false);
    add_flags(o, "src_access", b->src_access, true);
    add_flags(o, "dst_access", b->dst_access, true);
    cJSON_AddBoolToObject(o, "hoisted", b->hoisted);
    cJSON_AddBoolToObject(o, "by_region", b->by_region);
    return o;
}

static cJSON *batch_json(const rg_batch_info *b, uint32_t index)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", index);
    cJSON_AddStringToObject(o, "queue", rg_queue_name(b->queue));
    bool empty = b->first == RG_INDEX_NONE || b->first > b->last;
    add_index(o, "first", empty ? RG_INDEX_NONE : b->first);
    add_index(o, "last", empty ? RG_INDEX_NONE : b->last);
    cJSON_AddNumberToObject(o, "signal", (double)b->signal);
    cJSON *waits = cJSON_AddArrayToObject(o, "waits");
    for (uint32_t w = 0; w < b->wait_count; w++) {
        cJSON *wo = cJSON_CreateObject();
        cJSON_AddStringToObject(wo, "queue", rg_queue_name(b->waits[w].queue));
        add_index(wo, "batch", b->waits[w].batch); /* null: the frame before's last batch */
        add_flags(wo, "stage", b->waits[w].stage, false);
        cJSON_AddItemToArray(waits, wo);
    }
    return o;
}

static cJSON *resource_json(const rg_resource_info *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", r->name);
    cJSON_AddStringToObject(o, "type", r->texture.id ? "texture" : "buffer");
    cJSON_AddStringToObject(o, "kind", rgt_resource_kind_name(r->kind));
    cJSON_AddStringToObject(o, "memory", rgt_memory_kind_name(r->memory));
    cJSON_AddNumberToObject(o, "bytes", (double)r->memory_size);
    add_index(o, "memory_type", r->memory_type);
    add_index(o, "pool", r->pool);
    if (r->pool != RG_INDEX_NONE)
        cJSON_AddNumberToObject(o, "offset", (double)r->memory_offset);
    cJSON_AddNumberToObject(o, "alignment", (double)r->memory_alignment);
    if (r->texture.id) {
        cJSON_AddStringToObject(o, "format", rg_format_name(r->format));
        cJSON_AddNumberToObject(o, "width", r->width);
        cJSON_AddNumberToObject(o, "height", r->height);
        cJSON_AddNumberToObject(o, "mip_levels", r->mip_levels);
        cJSON_AddNumberToObject(o, "array_layers", r->array_layers);
        cJSON_AddNumberToObject(o, "samples", r->samples);
        cJSON_AddBoolToObject(o, "transient", r->transient);
    } else {
        cJSON_AddNumberToObject(o, "size", (double)r->size);
    }
    add_index(o, "first_use", r->first_use);
    add_index(o, "last_use", r->last_use);
    return o;
}

static void add_header(const rgt_plan *p, cJSON *root)
{
    cJSON_AddStringToObject(root, "file", p->file);
    add_string_or_null(root, "saved_by", p->info.saved_by);
    add_string_or_null(root, "device_name", p->info.device_name);
    cJSON_AddNumberToObject(root, "width", p->info.width);
    cJSON_AddNumberToObject(root, "height", p->info.height);
    cJSON_AddNumberToObject(root, "saved_width", p->info.saved_width);
    cJSON_AddNumberToObject(root, "saved_height", p->info.saved_height);
    cJSON *profile = cJSON_AddObjectToObject(root, "profile");
    cJSON_AddStringToObject(profile, "key", p->profile_key);
    cJSON_AddStringToObject(profile, "name", p->profile_name);
    cJSON_AddStringToObject(root, "memory_source", rgt_memory_source_name(p->memory));
    cJSON_AddItemToObject(root, "memory_notes", rgt_memory_notes_json(p));
    cJSON_AddStringToObject(root, "merge", rgt_merge_name(p->merge));
}

cJSON *rgt_memory_notes_json(const rgt_plan *plan)
{
    cJSON *list = cJSON_CreateArray();
    for (uint32_t i = 0; list && i < plan->memory_note_count; i++)
        cJSON_AddItemToArray(list, cJSON_CreateString(plan->memory_notes[i]));
    return list;
}

static void add_memory(const rgt_plan *p, cJSON *root)
{
    cJSON *memory = cJSON_AddObjectToObject(root, "memory");
    cJSON *totals = cJSON_AddObjectToObject(memory, "totals");
    for (uint32_t i = 0; i < RGT_TOTAL_COUNT; i++)
        cJSON_AddNumberToObject(totals, rgt_total_name(i), (double)rgt_total_value(&p->totals, i));
    cJSON_AddNumberToObject(totals, "pools", p->totals.pools);
    cJSON *resources = cJSON_AddArrayToObject(memory, "resources");
    for (uint32_t i = 0; i < p->resource_count; i++)
        cJSON_AddItemToArray(resources, resource_json(&p->resources[i]));
}

/* The plan as a cJSON tree (NULL when out of memory): for rgtool plan
 * --json, and embedded by nothing else. */
static cJSON *plan_json(const rgt_plan *p)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "rgtool", rg_version_string());
    add_header(p, root);
    cJSON *order = cJSON_AddArrayToObject(root, "order");
    for (uint32_t i = 0; i < p->order_count; i++)
        cJSON_AddItemToArray(order, command_json(&p->order[i]));
    cJSON *culled = cJSON_AddArrayToObject(root, "culled");
    for (uint32_t i = 0; i < p->culled_count; i++)
        cJSON_AddItemToArray(culled, command_json(&p->culled[i]));
    cJSON *barriers = cJSON_AddObjectToObject(root, "barriers");
    cJSON_AddNumberToObject(barriers, "total", p->barrier_count);
    cJSON_AddNumberToObject(barriers, "final", p->final_barriers);
    cJSON *list = cJSON_AddArrayToObject(barriers, "list");
    for (uint32_t i = 0; i < p->barrier_count; i++)
        cJSON_AddItemToArray(list, barrier_json(p, &p->barriers[i]));
    cJSON *merges = cJSON_AddObjectToObject(root, "merges");
    cJSON_AddNumberToObject(merges, "taken", p->merges_taken);
    cJSON_AddNumberToObject(merges, "candidates", p->merge_count);
    list = cJSON_AddArrayToObject(merges, "list");
    for (uint32_t i = 0; i < p->merge_count; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "first", p->merges[i].first);
        cJSON_AddStringToObject(m, "second", p->merges[i].second);
        cJSON_AddBoolToObject(m, "merged", p->merges[i].merged);
        cJSON_AddStringToObject(m, "reason", p->merges[i].reason);
        cJSON_AddItemToArray(list, m);
    }
    cJSON *batches = cJSON_AddArrayToObject(root, "batches");
    for (uint32_t i = 0; i < p->batch_count; i++)
        cJSON_AddItemToArray(batches, batch_json(&p->batches[i], i));
    cJSON *notes = cJSON_AddArrayToObject(root, "queue_notes");
    for (uint32_t i = 0; i < p->queue_note_count; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "command", p->queue_notes[i].command);
        cJSON_AddStringToObject(n, "eligible", rg_queue_name(p->queue_notes[i].eligible));
        cJSON_AddStringToObject(n, "reason", p->queue_notes[i].reason);
        cJSON_AddItemToArray(notes, n);
    }
    add_memory(p, root);
    cJSON_AddNumberToObject(root, "instances", p->instance_count);
    rgt_add_tiles_json(p, root);
    notes = cJSON_AddArrayToObject(root, "notes");
    for (uint32_t i = 0; i < p->note_count; i++) {
        cJSON *n = cJSON_CreateObject();
        rg_log_level l = p->notes[i].level;
        cJSON_AddStringToObject(n, "level", l == RG_LOG_ERROR ? "error" : l == RG_LOG_WARNING ? "warning" : "info");
        cJSON_AddStringToObject(n, "text", p->notes[i].text);
        cJSON_AddItemToArray(notes, n);
    }
    return root;
}

bool rgt_print_json(const rgt_plan *plan, bool verbose, FILE *out)
{
    (void)verbose; /* JSON always carries every barrier and resource */
    cJSON *root = plan_json(plan);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "rgtool: out of memory writing JSON\n");
        return false;
    }
    fprintf(out, "%s\n", text);
    cJSON_free(text);
    return true;
}
