/* rgtool diff's result as one JSON object (cJSON): every section is
 * present, empty when nothing differs, so scripts need no key checks. */
#include "diff.h"

#include <cjson/cJSON.h>

static void add_side(cJSON *root, const char *key, const rgt_plan *p)
{
    cJSON *o = cJSON_AddObjectToObject(root, key);
    cJSON_AddStringToObject(o, "file", p->file);
    cJSON_AddNumberToObject(o, "width", p->info.width);
    cJSON_AddNumberToObject(o, "height", p->info.height);
    cJSON_AddStringToObject(o, "profile", p->profile_key);
    cJSON_AddStringToObject(o, "memory_source", rgt_memory_source_name(p->memory));
    cJSON_AddItemToObject(o, "memory_notes", rgt_memory_notes_json(p));
    cJSON_AddNumberToObject(o, "commands", p->order_count);
    cJSON_AddNumberToObject(o, "culled", p->culled_count);
    cJSON_AddNumberToObject(o, "batches", p->batch_count);
}

/* {"a": x, "b": y, "delta": y - x} */
static void add_triple(cJSON *o, const char *key, double a, double b)
{
    cJSON *t = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(t, "a", a);
    cJSON_AddNumberToObject(t, "b", b);
    cJSON_AddNumberToObject(t, "delta", b - a);
}

static void add_moved(cJSON *root, const char *key, const rgt_moved *list, uint32_t count)
{
    cJSON *arr = cJSON_AddArrayToObject(root, key);
    for (uint32_t i = 0; i < count; i++) {
        const rgt_moved *m = &list[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->name);
        add_triple(o, "position", m->a, m->b);
        cJSON_AddStringToObject(o, "queue_a", rg_queue_name(m->queue_a));
        cJSON_AddStringToObject(o, "queue_b", rg_queue_name(m->queue_b));
        cJSON_AddNumberToObject(o, "batch_a", m->batch_a);
        cJSON_AddNumberToObject(o, "batch_b", m->batch_b);
        add_triple(o, "barriers", m->barriers_a, m->barriers_b);
        cJSON_AddItemToArray(arr, o);
    }
}

/* {"removed": [names in A only], "added": [names in B only]} */
static void add_only(cJSON *root, const char *key, const rgt_only *list, uint32_t count)
{
    cJSON *o = cJSON_AddObjectToObject(root, key);
    cJSON *removed = cJSON_AddArrayToObject(o, "removed"), *added = cJSON_AddArrayToObject(o, "added");
    for (uint32_t i = 0; i < count; i++)
        cJSON_AddItemToArray(list[i].in_a ? removed : added, cJSON_CreateString(list[i].name));
}

static void add_outcome(cJSON *o, const char *key, int merged, const char *reason)
{
    if (merged < 0) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    cJSON *t = cJSON_AddObjectToObject(o, key);
    cJSON_AddBoolToObject(t, "merged", merged);
    cJSON_AddStringToObject(t, "reason", reason ? reason : "");
}

static void add_resource_side(cJSON *o, const char *key, const rg_resource_info *r)
{
    if (!r) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    cJSON *t = cJSON_AddObjectToObject(o, key);
    cJSON_AddStringToObject(t, "memory", rgt_memory_kind_name(r->memory));
    cJSON_AddNumberToObject(t, "bytes", (double)r->memory_size);
    if (r->pool == RG_INDEX_NONE) {
        cJSON_AddNullToObject(t, "pool");
    } else {
        cJSON_AddNumberToObject(t, "pool", r->pool);
        cJSON_AddNumberToObject(t, "offset", (double)r->memory_offset);
    }
    cJSON_AddBoolToObject(t, "transient", r->transient);
}

static cJSON *diff_json(const rgt_diff_result *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "rgtool", rg_version_string());
    cJSON_AddBoolToObject(root, "identical", d->same);
    add_side(root, "a", d->a);
    add_side(root, "b", d->b);
    cJSON *memory = cJSON_AddObjectToObject(root, "memory");
    for (uint32_t i = 0; i < RGT_TOTAL_COUNT; i++)
        add_triple(memory, rgt_total_name(i), (double)rgt_total_value(&d->a->totals, i),
                   (double)rgt_total_value(&d->b->totals, i));
    add_triple(memory, "pools", d->a->totals.pools, d->b->totals.pools);
    cJSON *barriers = cJSON_AddObjectToObject(root, "barriers");
    add_triple(barriers, "total", d->a->barrier_count, d->b->barrier_count);
    add_triple(barriers, "final", d->a->final_barriers, d->b->final_barriers);
    add_moved(barriers, "changed", d->rebarriered, d->rebarriered_count);
    cJSON *merges = cJSON_AddObjectToObject(root, "merges");
    add_triple(merges, "taken", d->a->merges_taken, d->b->merges_taken);
    add_triple(merges, "candidates", d->a->merge_count, d->b->merge_count);
    cJSON *changed = cJSON_AddArrayToObject(merges, "changed");
    for (uint32_t i = 0; i < d->merge_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "first", d->merges[i].first);
        cJSON_AddStringToObject(o, "second", d->merges[i].second);
        add_outcome(o, "a", d->merges[i].a, d->merges[i].reason_a);
        add_outcome(o, "b", d->merges[i].b, d->merges[i].reason_b);
        cJSON_AddItemToArray(changed, o);
    }
    add_only(root, "culled", d->culled_only, d->culled_only_count);
    add_only(root, "run", d->run_only, d->run_only_count);
    add_moved(root, "reordered", d->reordered, d->reordered_count);
    add_moved(root, "requeued", d->requeued, d->requeued_count);
    add_triple(root, "batches", d->a->batch_count, d->b->batch_count);
    cJSON *resources = cJSON_AddArrayToObject(root, "resources");
    for (uint32_t i = 0; i < d->resource_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", d->resources[i].name);
        cJSON_AddBoolToObject(o, "moved_only", d->resources[i].moved_only);
        add_resource_side(o, "a", d->resources[i].a);
        add_resource_side(o, "b", d->resources[i].b);
        cJSON_AddItemToArray(resources, o);
    }
    rgt_diff_add_tiles_json(d, root);
    return root;
}

bool rgt_diff_print_json(const rgt_diff_result *d, FILE *out)
{
    cJSON *root = diff_json(d);
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
