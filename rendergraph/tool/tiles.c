/* rgtool's tile view: each rendering instance under the frame's profile
 * (rg_tile_view_get), gathered into the plan, printed as text and JSON,
 * and compared between two plans for diff. */
#include "diff.h"
#include "rgtool.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

bool rgt_tiles_gather(const rgt_frame *frame, rgt_plan *p)
{
    p->profile = frame->profile;
    p->tiles = calloc((size_t)p->instance_count + 1, sizeof *p->tiles);
    if (!p->tiles)
        return false;
    rg_tile_view total;
    for (uint32_t i = 0; i < p->instance_count; i++)
        if (rg_tile_view_get(frame->graph, i, &p->tiles[i]) != RG_SUCCESS)
            return false;
    if (rg_tile_view_get(frame->graph, RG_INDEX_NONE, &total) != RG_SUCCESS)
        return false;
    p->tile_total = total.traffic;
    return true;
}

/* The instance's spans: its begin_rendering commands' names, " + " between. */
static void instance_name(const rgt_plan *p, uint32_t instance, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < p->order_count && used < size; i++) {
        const rgt_command *c = &p->order[i];
        if (c->instance == instance && c->type == RG_COMMAND_TYPE_BEGIN_RENDERING) {
            int n = snprintf(buf + used, size - used, "%s%s", used ? " + " : "", c->name);
            used += n > 0 ? (size_t)n : 0;
        }
    }
}

/* Where an attachment's memory comes from, and why it is not lazy. */
static void attachment_text(const rgt_plan *p, uint32_t resource, char *buf, size_t size)
{
    const rg_resource_info *r = &p->resources[resource];
    if (r->memory == RG_MEMORY_FOLDED)
        snprintf(buf, size, "%s", r->fold);
    else if (r->memory == RG_MEMORY_LAZY)
        snprintf(buf, size, "lazy (tile memory)");
    else if (r->transient)
        snprintf(buf, size, "transient, %s: no lazily allocated type%s%s", rgt_memory_kind_name(r->memory),
                 r->fold ? "; " : "", r->fold ? r->fold : "");
    else
        snprintf(buf, size, "%s: %s", rgt_memory_kind_name(r->memory),
                 r->not_transient ? r->not_transient : "not transient");
}

static double gb_per_second_at_60(uint64_t bytes) { return (double)bytes * 60.0 / 1e9; }

void rgt_print_tiles_text(const rgt_plan *p, FILE *out)
{
    char name[256], line[512];
    fprintf(out, "\ntiles: profile %s, per rendering instance (docs/tiles.md)\n", p->profile_key);
    for (uint32_t i = 0; i < p->instance_count; i++) {
        const rg_tile_view *v = &p->tiles[i];
        instance_name(p, i, name, sizeof name);
        rg_tile_view_text(v, p->profile, line, sizeof line);
        fprintf(out, "  %2u  %s\n      %s\n", i, name, line);
        for (uint32_t a = 0; a < v->attachment_count; a++) {
            attachment_text(p, v->attachments[a], line, sizeof line);
            fprintf(out, "        %-18s %s\n", p->resources[v->attachments[a]].name, line);
        }
    }
    const rg_tile_traffic *t = &p->tile_total;
    fprintf(out,
            "  frame traffic: loads %llu, stores %llu, resolves %llu, sampled %llu, spills %llu, total %llu bytes "
            "(%.2f GB/s at 60 fps)\n",
            (unsigned long long)t->loads, (unsigned long long)t->stores, (unsigned long long)t->resolves,
            (unsigned long long)t->sampled, (unsigned long long)t->spills, (unsigned long long)t->total,
            gb_per_second_at_60(t->total));
}

static cJSON *traffic_json(const rg_tile_traffic *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "loads", (double)t->loads);
    cJSON_AddNumberToObject(o, "stores", (double)t->stores);
    cJSON_AddNumberToObject(o, "resolves", (double)t->resolves);
    cJSON_AddNumberToObject(o, "sampled", (double)t->sampled);
    cJSON_AddNumberToObject(o, "spills", (double)t->spills);
    cJSON_AddNumberToObject(o, "total", (double)t->total);
    return o;
}

static cJSON *view_json(const rgt_plan *p, uint32_t i)
{
    const rg_tile_view *v = &p->tiles[i];
    char name[256], text[512];
    cJSON *o = cJSON_CreateObject();
    instance_name(p, i, name, sizeof name);
    cJSON_AddStringToObject(o, "spans", name);
    cJSON_AddNumberToObject(o, "width", v->width);
    cJSON_AddNumberToObject(o, "height", v->height);
    cJSON_AddNumberToObject(o, "layers", v->layers);
    cJSON_AddNumberToObject(o, "samples", v->samples);
    cJSON_AddNumberToObject(o, "color_bytes", v->color_bytes);
    cJSON_AddNumberToObject(o, "depth_bytes", v->depth_bytes);
    cJSON_AddNumberToObject(o, "tile_width", v->tile_width);
    cJSON_AddNumberToObject(o, "tile_height", v->tile_height);
    cJSON_AddNumberToObject(o, "bins", v->bins);
    cJSON_AddNumberToObject(o, "spilled", v->spilled);
    cJSON_AddItemToObject(o, "traffic", traffic_json(&v->traffic));
    cJSON *atts = cJSON_AddArrayToObject(o, "attachments");
    for (uint32_t a = 0; a < v->attachment_count; a++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "resource", p->resources[v->attachments[a]].name);
        attachment_text(p, v->attachments[a], text, sizeof text);
        cJSON_AddStringToObject(x, "memory", text);
        cJSON_AddItemToArray(atts, x);
    }
    return o;
}

void rgt_add_tiles_json(const rgt_plan *p, cJSON *root)
{
    cJSON *tiles = cJSON_AddObjectToObject(root, "tiles");
    cJSON_AddStringToObject(tiles, "profile", p->profile_key);
    cJSON *list = cJSON_AddArrayToObject(tiles, "instances");
    for (uint32_t i = 0; i < p->instance_count; i++)
        cJSON_AddItemToArray(list, view_json(p, i));
    cJSON *frame = traffic_json(&p->tile_total);
    cJSON_AddNumberToObject(frame, "gb_per_s_at_60fps", gb_per_second_at_60(p->tile_total.total));
    cJSON_AddItemToObject(tiles, "frame", frame);
}

/* Whether two views say the same of an instance (its attachments aside:
 * the resources diff covers them). */
static bool same_view(const rg_tile_view *a, const rg_tile_view *b)
{
    rg_tile_view x = *a, y = *b;
    x.attachment_count = y.attachment_count = 0;
    memset(x.attachments, 0, sizeof x.attachments);
    memset(y.attachments, 0, sizeof y.attachments);
    return memcmp(&x, &y, sizeof x) == 0;
}

bool rgt_tiles_compare(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d)
{
    uint32_t n = a->instance_count > b->instance_count ? a->instance_count : b->instance_count;
    d->tiles = calloc((size_t)n + 1, sizeof *d->tiles);
    if (!d->tiles)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (i >= a->instance_count || i >= b->instance_count || !same_view(&a->tiles[i], &b->tiles[i]))
            d->tiles[d->tile_count++] = i;
    d->tiles_differ = d->tile_count || memcmp(&a->tile_total, &b->tile_total, sizeof a->tile_total) != 0;
    return true;
}

/* One side of a changed instance: its spans and its view, or absent. */
static void side_text(const rgt_plan *p, uint32_t i, char *buf, size_t size)
{
    char name[256], line[512];
    if (i >= p->instance_count) {
        snprintf(buf, size, "(no such instance)");
        return;
    }
    instance_name(p, i, name, sizeof name);
    rg_tile_view_text(&p->tiles[i], p->profile, line, sizeof line);
    snprintf(buf, size, "%s: %s", name, line);
}

static void print_total_delta(const char *what, uint64_t a, uint64_t b, FILE *out)
{
    fprintf(out, "  %-9s %14llu -> %14llu  (%+lld)\n", what, (unsigned long long)a, (unsigned long long)b,
            (long long)b - (long long)a);
}

void rgt_diff_print_tiles_text(const rgt_diff_result *d, FILE *out)
{
    if (!d->tiles_differ)
        return;
    char side[800];
    fprintf(out, "\ntiles: %u instance%s changed (A profile %s, B profile %s)\n", d->tile_count,
            d->tile_count == 1 ? "" : "s", d->a->profile_key, d->b->profile_key);
    for (uint32_t k = 0; k < d->tile_count; k++) {
        fprintf(out, "  instance %u\n", d->tiles[k]);
        side_text(d->a, d->tiles[k], side, sizeof side);
        fprintf(out, "    A  %s\n", side);
        side_text(d->b, d->tiles[k], side, sizeof side);
        fprintf(out, "    B  %s\n", side);
    }
    const rg_tile_traffic *x = &d->a->tile_total, *y = &d->b->tile_total;
    fprintf(out, "  frame traffic, bytes:\n");
    print_total_delta("loads", x->loads, y->loads, out);
    print_total_delta("stores", x->stores, y->stores, out);
    print_total_delta("resolves", x->resolves, y->resolves, out);
    print_total_delta("sampled", x->sampled, y->sampled, out);
    print_total_delta("spills", x->spills, y->spills, out);
    print_total_delta("total", x->total, y->total, out);
}

void rgt_diff_add_tiles_json(const rgt_diff_result *d, cJSON *root)
{
    cJSON *tiles = cJSON_AddObjectToObject(root, "tiles");
    cJSON *changed = cJSON_AddArrayToObject(tiles, "changed");
    for (uint32_t k = 0; k < d->tile_count; k++) {
        uint32_t i = d->tiles[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "instance", i);
        if (i < d->a->instance_count)
            cJSON_AddItemToObject(o, "a", view_json(d->a, i));
        if (i < d->b->instance_count)
            cJSON_AddItemToObject(o, "b", view_json(d->b, i));
        cJSON_AddItemToArray(changed, o);
    }
    cJSON_AddItemToObject(tiles, "frame_a", traffic_json(&d->a->tile_total));
    cJSON_AddItemToObject(tiles, "frame_b", traffic_json(&d->b->tile_total));
}
