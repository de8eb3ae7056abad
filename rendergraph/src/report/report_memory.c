/* The memory report over a placement: a table, the same data as JSON, and
 * an SVG timeline per pool (x = execution-order position, y = byte offset)
 * where aliasing shows as bars stacked at one offset. Reads the placement's
 * plan; a failure sets the graph's message (its one mutable field). The
 * table and the JSON end with the tile traffic per rendering instance
 * (report_traffic.c), the merge notes and, for several queues, the batches
 * with their semaphore points, after the memory lines (tests
 * and scripts compare those line by line). */
#include "compile/stages.h"
#include "base/names.h"
#include "place/stages.h"
#include "report/stages.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(rg_memory_kind k)
{
    switch (k) {
    case RG_MEMORY_NOT_CREATED: return "unused";
    case RG_MEMORY_IMPORTED: return "imported";
    case RG_MEMORY_LAZY: return "lazy";
    case RG_MEMORY_DEDICATED: return "dedicated";
    case RG_MEMORY_POOLED: return "pooled";
    case RG_MEMORY_LAZY_FALLBACK: return "lazy-fallback";
    case RG_MEMORY_FOLDED: return "folded";
    }
    return "?";
}

/* Where a resource comes from: made by the graph, the application's, or
 * a history pair's half (rg_resource_kind). */
static const char *origin_name(const rg__resource *r)
{
    return r->imported ? "imported" : !rg__history(r) ? "created" : r->history_previous ? "history-prev" : "history";
}

/* The memory kind, "transient-" first for a TRANSIENT_ATTACHMENT texture
 * (lazy: tile memory; pooled: no lazily allocated type on the device). */
static const char *memory_name(bool transient, const rg__mem_placement *m, char *buf, size_t size)
{
    if (!transient)
        return kind_name(m->kind);
    snprintf(buf, size, "transient-%s", kind_name(m->kind));
    return buf;
}

/* The usage the graph creates it with, as flag names; NULL for what the
 * graph does not create (imports, unused). */
static const char *usage_text(const rg_graph *g, uint32_t ri, char *buf, size_t size)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (!rg__creates(g, ri))
        return NULL;
    if (r->is_texture)
        rg_flag_names(RG_FLAGS_IMAGE_USAGE, rg__image_usage(g, ri), buf, size);
    else
        rg_flag_names(RG_FLAGS_BUFFER_USAGE, r->buffer_usage, buf, size);
    return buf;
}

/* Two pooled resources whose byte ranges in one pool overlap. */
static bool aliases(const rg__mem_plan *p, uint32_t a, uint32_t b)
{
    const rg__mem_placement *x = &p->items[a], *y = &p->items[b];
    return a != b && x->kind == RG_MEMORY_POOLED && y->kind == RG_MEMORY_POOLED && x->pool == y->pool &&
           x->offset < y->offset + y->size && y->offset < x->offset + x->size;
}

/* The reports' files, this one's and the DOT file's (report/stages.h). */

rg_result rg__report_open(const rg_graph *graph, const char *what, const char *path, FILE **f)
{
    *f = fopen(path, "w");
    if (!*f)
        return rg__report(graph, RG_ERROR_IO, "%s: could not open '%s' for writing: %s", what, path,
                          strerror(errno));
    return RG_SUCCESS;
}

rg_result rg__report_close(const rg_graph *graph, const char *what, const char *path, FILE *f)
{
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return rg__report(graph, RG_ERROR_IO, "%s: writing '%s' failed", what, path);
    return RG_SUCCESS;
}

static double mib(VkDeviceSize v) { return (double)v / (1024.0 * 1024.0); }

/* ---------------------------------------------------------- tile traffic */

/* The tile traffic of every instance and of the frame, for the reports. */
typedef struct traffic {
    rg_tile_view *per;                /* instance_count entries */
    rg_tile_traffic outside, total;
} traffic;

static rg_result traffic_of(const rg_graph *graph, const char *what, traffic *t)
{
    t->per = rg__malloc(graph, ((size_t)graph->compiled->merge.instance_count + 1) * sizeof *t->per);
    rg_result r = t->per ? rg__tile_views(graph, t->per, &t->outside, &t->total) : RG_ERROR_OUT_OF_MEMORY;
    if (r != RG_SUCCESS) {
        rg__free(graph, t->per);
        t->per = NULL;
        return rg__report(graph, r, "%s: out of memory for the tile traffic", what);
    }
    return RG_SUCCESS;
}

/* What every report checks first: a graph that lives, the output given
 * (named `arg`: rg__query_begin) and the graph placed; *plan its plan and,
 * with t, the tile traffic in *t. */
static rg_result report_begin(const rg_graph *graph, const char *what, const void *output, const char *arg,
                              const rg__mem_plan **plan, traffic *t)
{
    *plan = NULL;
    rg_result r = rg__query_begin(graph, what, output, arg);
    if (r != RG_SUCCESS)
        return r;
    if (graph->status->state != RG__PLACED)
        return rg__report(graph, RG_ERROR_NOT_PLACED, "%s: graph '%s' is not placed", what, graph->name);
    *plan = &graph->placement->plan;
    return t ? traffic_of(graph, what, t) : RG_SUCCESS;
}

static const char *span_name(const rg_graph *g, uint32_t s) { return g->decl.cmds[g->decl.spans[s].begin_cmd].name; }

/* The culled commands (spans by their begin) and the created resources
 * that therefore were not created. */
static void culled_lines(const rg_graph *g, FILE *out)
{
    if (g->compiled->cull.culled_count == 0)
        return;
    fprintf(out, "culled (nothing observable reads their results):");
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c) && (cmd->span == RG__NONE || cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING))
            fprintf(out, " '%s'%s", cmd->name, cmd->span == RG__NONE ? "" : " (span)");
    }
    fprintf(out, "\nnot created, used by culled commands only:");
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (r->imported || rg__creates(g, ri))
            continue;
        bool used = false;
        for (uint32_t a = 0; a < g->decl.access_count && !used; a++)
            used = g->decl.accesses[a].resource == ri;
        if (used)
            fprintf(out, " '%s'", r->name);
    }
    fprintf(out, "\n");
}

/* An instance's spans' names joined with " + ", through put (raw or
 * escaped). */
static void put_instance(FILE *f, const rg_graph *g, uint32_t ii, void (*put)(FILE *, const char *))
{
    const rg__instance *in = &g->compiled->merge.instances[ii];
    for (uint32_t k = 0; k < in->count; k++) {
        if (k)
            fputs(" + ", f);
        put(f, span_name(g, g->compiled->merge.instance_spans[in->first + k]));
    }
}

static void put_raw(FILE *f, const char *s) { fputs(s, f); }

/* A graph on several queues: its batches with their semaphore points (the
 * value each signals and waits for, relative to its queue's count at the
 * frame's start); the measured queue policy's state; and eligible commands
 * kept on graphics. */
static void queue_lines(const rg_graph *g, FILE *out)
{
    const rg__compiled *cc = g->compiled;
    if (cc->queues.queues_used != 1u << RG_QUEUE_GRAPHICS) {
        fprintf(out, "queues: %u batches per frame (semaphore values relative to the frame's start)\n",
                cc->queues.batch_count);
        for (uint32_t b = 0; b < cc->queues.batch_count; b++) {
            const rg__batch *x = &cc->queues.batches[b];
            fprintf(out, "  batch %u %s: ", b, rg_queue_name(x->queue));
            if (x->first == RG__NONE)
                fprintf(out, "no commands (%s)",
                        b + 1 == cc->queues.batch_count ? "frame end" : "frame start: history clears");
            else
                fprintf(out, "'%s'..'%s' (positions %u..%u)", g->decl.cmds[cc->merge.order.cmds[x->first]].name,
                        g->decl.cmds[cc->merge.order.cmds[x->last]].name, x->first, x->last);
            for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++) {
                if (!x->waits_on[r])
                    continue;
                if (x->wait[r].batch == RG__NONE)
                    fprintf(out, ", waits %s +0 (the frame before)", rg_queue_name((rg_queue)r));
                else
                    fprintf(out, ", waits %s +%llu (batch %u)", rg_queue_name((rg_queue)r),
                            (unsigned long long)cc->queues.batches[x->wait[r].batch].signal, x->wait[r].batch);
                fprintf(out, " at stages %s", RG__STAGES(rg__wait_stage(g, b, r)));
            }
            fprintf(out, ", signals %s +%llu\n", rg_queue_name(x->queue), (unsigned long long)x->signal);
        }
    }
    if (g->queue_policy == RG_QUEUE_POLICY_MEASURED)
        fprintf(out, "queue policy measured: %s\n", g->measure.reason);
    for (uint32_t i = 0; i < cc->queues.note_count; i++)
        fprintf(out, "queue: '%s' (eligible for %s) stays on graphics: %s\n",
                g->decl.cmds[cc->queues.notes[i].cmd].name,
                rg_queue_name(g->decl.cmds[cc->queues.notes[i].cmd].queue), cc->queues.notes[i].reason);
}

/* Where attachment ri's memory comes from: lazy (tile memory), transient
 * but pooled (no lazy type), or why it is not transient. */
static void attachment_memory(const rg_graph *g, uint32_t ri, char *buf, size_t size)
{
    rg_memory_kind kind = g->placement->plan.items[ri].kind;
    const char *why = g->compiled->transient.why[ri];
    if (kind == RG_MEMORY_FOLDED)
        snprintf(buf, size, "%s", g->compiled->fold.note[ri]);
    else if (kind == RG_MEMORY_LAZY)
        snprintf(buf, size, "lazy (tile memory)");
    else if (rg__transient(g, ri))
        snprintf(buf, size, "transient, %s (no lazily allocated type)%s%s", kind_name(kind),
                 g->compiled->fold.note[ri] ? "; " : "", g->compiled->fold.note[ri] ? g->compiled->fold.note[ri] : "");
    else
        snprintf(buf, size, "%s: %s", kind_name(kind), why ? why : "not transient");
}

static void put_attachments(FILE *out, const rg_graph *g, const rg_tile_view *v)
{
    char text[320];
    for (uint32_t a = 0; a < v->attachment_count; a++) {
        attachment_memory(g, v->attachments[a], text, sizeof text);
        fprintf(out, "    %s: %s\n", g->decl.resources[v->attachments[a]].name, text);
    }
}

static void print_traffic(const rg_graph *g, const traffic *t, FILE *out)
{
    const rg_tile_info tile = g->tile;
    char line[512];
    fprintf(out, "tile profile %s: what each rendering instance costs its GPU (docs/tiles.md), traffic an estimate "
                 "of attachment loads, stores, resolves, spills and reads of what the frame wrote\n", tile.name);
    for (uint32_t ii = 0; ii < g->compiled->merge.instance_count; ii++) {
        fprintf(out, "  instance %u '", ii);
        put_instance(out, g, ii, put_raw);
        rg_tile_view_text(&t->per[ii], g->caps.tile_profile, line, sizeof line);
        fprintf(out, "'%s: %s\n", g->compiled->merge.instances[ii].count > 1 ? " (merged)" : "", line);
        put_attachments(out, g, &t->per[ii]);
    }
    fprintf(out, "  outside spans: sampled %.2f MiB\n", mib(t->outside.sampled));
    const rg_tile_traffic *x = &t->total;
    fprintf(out,
            "  frame: loads %.2f MiB, stores %.2f MiB, resolves %.2f MiB, sampled %.2f MiB, spills %.2f MiB, total "
            "%llu bytes (%.2f MiB, %.2f GB/s at 60 fps)\n",
            mib(x->loads), mib(x->stores), mib(x->resolves), mib(x->sampled), mib(x->spills),
            (unsigned long long)x->total, mib(x->total), (double)x->total * 60.0 / 1e9);
    for (uint32_t i = 0; i < g->compiled->merge.merge_count; i++) {
        const rg__merge_note *n = &g->compiled->merge.merges[i];
        fprintf(out, "merge '%s' -> '%s': %s%s\n", span_name(g, n->first), span_name(g, n->second),
                n->reason[0] ? "not merged: " : "merged", n->reason);
    }
    culled_lines(g, out);
    queue_lines(g, out);
}

rg_result rg_memory_report_print(const rg_graph *graph, FILE *out)
{
    const rg__mem_plan *p;
    traffic tr;
    rg_result r = report_begin(graph, "rg_memory_report_print", out, "out", &p, &tr);
    if (r != RG_SUCCESS)
        return r;
    fprintf(out, "memory of graph '%s'\n%-24s %-7s %-12s %-16s %-20s %12s %8s %4s %4s %12s %9s %-48s  %s\n",
            graph->name, "resource", "kind", "origin", "memory", "format", "size", "align", "type", "pool", "offset",
            "lifetime", "usage", "aliases");
    for (uint32_t i = 0; i < graph->decl.resource_count; i++) {
        const rg__resource *r = &graph->decl.resources[i];
        rg__mem_placement placed_at = rg__placed_memory(graph, i);
        const rg__mem_placement *m = &placed_at;
        bool placed = m->kind != RG_MEMORY_NOT_CREATED && m->kind != RG_MEMORY_IMPORTED;
        char memory[32], usage[512];
        fprintf(out, "%-24s %-7s %-12s %-16s %-20s ", r->name, r->is_texture ? "texture" : "buffer", origin_name(r),
                memory_name(rg__transient(graph, i), m, memory, sizeof memory), r->is_texture ? rg_format_name(r->format) : "-");
        if (placed)
            fprintf(out, "%12llu %8llu %4u ", (unsigned long long)m->size, (unsigned long long)m->alignment,
                    m->memory_type);
        else
            fprintf(out, "%12s %8s %4s ", "-", "-", "-");
        if (m->kind == RG_MEMORY_POOLED)
            fprintf(out, "%4u %12llu ", m->pool, (unsigned long long)m->offset);
        else
            fprintf(out, "%4s %12s ", "-", "-");
        if (rg__first_use(graph, i) != RG__NONE)
            fprintf(out, "%4u..%-3u ", rg__first_use(graph, i), rg__last_use(graph, i));
        else
            fprintf(out, "%9s ", "-");
        const char *used = usage_text(graph, i, usage, sizeof usage);
        fprintf(out, "%-48s ", used ? used : "-");
        const char *sep = " ";
        for (uint32_t j = 0; j < graph->decl.resource_count; j++)
            if (aliases(p, i, j)) {
                fprintf(out, "%s%s", sep, graph->decl.resources[j].name);
                sep = ", ";
            }
        fputc('\n', out);
    }
    rg_memory_totals totals = rg_memory_get_totals(graph);
    const rg_memory_totals *t = &totals;
    fprintf(out,
            "pooled %llu bytes (%.2f MiB) in %u pools; unaliased %llu (%.2f MiB, padding %llu); lower bound %llu "
            "(%.2f MiB); lazy %llu (%.2f MiB); dedicated %llu (%.2f MiB)",
            (unsigned long long)t->pooled, mib(t->pooled), t->pools, (unsigned long long)t->unaliased,
            mib(t->unaliased), (unsigned long long)t->padding, (unsigned long long)t->lower_bound,
            mib(t->lower_bound), (unsigned long long)t->lazy,
            mib(t->lazy), (unsigned long long)t->dedicated, mib(t->dedicated));
    if (t->lazy_fallback)
        fprintf(out, "; lazy fallback %llu (%.2f MiB): lazy memory ran out", (unsigned long long)t->lazy_fallback,
                mib(t->lazy_fallback));
    fprintf(out, "\nobjects: %u reused from earlier placements, %u created, %u released at the last reset; kept for "
            "later placements %llu bytes (%.2f MiB)\n", t->objects_reused, t->objects_created, t->objects_released,
            (unsigned long long)t->kept, mib(t->kept));
    for (uint32_t i = 0; i < p->pool_count; i++)
        fprintf(out, "pool %u: memory type %u, %s, %llu bytes\n", i, p->pools[i].memory_type,
                p->pools[i].optimal ? "optimal images" : "buffers", (unsigned long long)p->pools[i].size);
    print_traffic(graph, &tr, out);
    rg__free(graph, tr.per);
    /* The GPU's side of the same frame, where it is measured. */
    if (graph->timings && graph->status->state == RG__PLACED && graph->placement->on_device)
        return rg_timings_print(graph, out);
    return RG_SUCCESS;
}

/* Resource names are user text: escaped for JSON and XML alike by dropping
 * what would need escaping in either. */
static void put_name(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(strchr("\"\\<>&", *s) || (unsigned char)*s < 0x20 ? '_' : *s, f);
}

/* Free text (merge reasons) as a JSON string's contents. */
static void put_json_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
}

static void json_counts(FILE *f, const rg_tile_traffic *x)
{
    fprintf(f, "\"loads\": %llu, \"stores\": %llu, \"resolves\": %llu, \"sampled\": %llu, \"spills\": %llu, "
            "\"total\": %llu", (unsigned long long)x->loads, (unsigned long long)x->stores,
            (unsigned long long)x->resolves, (unsigned long long)x->sampled, (unsigned long long)x->spills,
            (unsigned long long)x->total);
}

/* An instance's tile view but its traffic. */
static void json_view(FILE *f, const rg_tile_view *v)
{
    fprintf(f, "\"width\": %u, \"height\": %u, \"layers\": %u, \"samples\": %u, \"color_bytes\": %u, "
            "\"depth_bytes\": %u, \"tile_width\": %u, \"tile_height\": %u, \"bins\": %u, "
            "\"spilled\": %u, ", v->width, v->height, v->layers, v->samples, v->color_bytes, v->depth_bytes,
            v->tile_width, v->tile_height, v->bins, v->spilled);
}

/* Closes the pools' array, writes the tile traffic, and opens the merges'
 * array with its entries (the totals' line closes it). */
static void json_traffic(FILE *f, const rg_graph *g, const traffic *t)
{
    fprintf(f, "\n  ],\n  \"tile_traffic\": {\n    \"instances\": [");
    for (uint32_t ii = 0; ii < g->compiled->merge.instance_count; ii++) {
        fprintf(f, "%s\n      {\"spans\": \"", ii ? "," : "");
        put_instance(f, g, ii, put_name);
        fprintf(f, "\", \"merged\": %s, ", g->compiled->merge.instances[ii].count > 1 ? "true" : "false");
        json_view(f, &t->per[ii]);
        json_counts(f, &t->per[ii].traffic);
        fprintf(f, ", \"attachments\": [");
        for (uint32_t a = 0; a < t->per[ii].attachment_count; a++) {
            char text[320];
            uint32_t ri = t->per[ii].attachments[a];
            attachment_memory(g, ri, text, sizeof text);
            fprintf(f, "%s{\"resource\": \"", a ? ", " : "");
            put_name(f, g->decl.resources[ri].name);
            fprintf(f, "\", \"memory\": \"");
            put_json_text(f, text);
            fprintf(f, "\"}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n    ],\n    \"outside\": {\"sampled\": %llu},\n    \"frame\": {",
            (unsigned long long)t->outside.sampled);
    json_counts(f, &t->total);
    fprintf(f, "}\n  },\n  \"merges\": [");
    for (uint32_t i = 0; i < g->compiled->merge.merge_count; i++) {
        const rg__merge_note *n = &g->compiled->merge.merges[i];
        fprintf(f, "%s\n    {\"first\": \"", i ? "," : "");
        put_name(f, span_name(g, n->first));
        fprintf(f, "\", \"second\": \"");
        put_name(f, span_name(g, n->second));
        fprintf(f, "\", \"merged\": %s, \"reason\": \"", n->reason[0] ? "false" : "true");
        put_json_text(f, n->reason);
        fprintf(f, "\"}");
    }
}

rg_result rg_memory_report_json(const rg_graph *graph, const char *path)
{
    const rg__mem_plan *p;
    traffic tr;
    rg_result r = report_begin(graph, "rg_memory_report_json", path, "path", &p, &tr);
    if (r != RG_SUCCESS)
        return r;
    FILE *f = NULL;
    r = rg__report_open(graph, "rg_memory_report_json", path, &f);
    if (r != RG_SUCCESS) {
        rg__free(graph, tr.per);
        return r;
    }
    fprintf(f, "{\n  \"graph\": \"");
    put_name(f, graph->name);
    fprintf(f, "\",\n  \"resources\": [");
    for (uint32_t i = 0; i < graph->decl.resource_count; i++) {
        const rg__resource *r = &graph->decl.resources[i];
        rg__mem_placement placed_at = rg__placed_memory(graph, i);
        const rg__mem_placement *m = &placed_at;
        fprintf(f, "%s\n    {\"name\": \"", i ? "," : "");
        put_name(f, r->name);
        char usage[512];
        fprintf(f, "\", \"type\": \"%s\", \"kind\": \"%s\", \"size\": %llu, \"alignment\": %llu, ",
                r->is_texture ? "texture" : "buffer", kind_name(m->kind), (unsigned long long)m->size,
                (unsigned long long)m->alignment);
        /* Format and usage names are enumerants and hex: nothing to escape. */
        fprintf(f, "\"origin\": \"%s\", \"transient\": %s, \"format\": ", origin_name(r),
                rg__transient(graph, i) ? "true" : "false");
        if (r->is_texture)
            fprintf(f, "\"%s\", ", rg_format_name(r->format));
        else
            fprintf(f, "null, ");
        const char *used = usage_text(graph, i, usage, sizeof usage);
        fprintf(f, used ? "\"usage\": \"%s\", " : "\"usage\": null, ", used);
        fprintf(f, "\"memory_type\": %d, \"pool\": %d, \"offset\": %llu, \"first_use\": %d, \"last_use\": %d, "
                   "\"aliases\": [",
                m->memory_type == RG__NONE ? -1 : (int)m->memory_type, m->pool == RG__NONE ? -1 : (int)m->pool,
                (unsigned long long)m->offset, rg__first_use(graph, i) == RG__NONE ? -1 : (int)rg__first_use(graph, i),
                rg__last_use(graph, i) == RG__NONE ? -1 : (int)rg__last_use(graph, i));
        const char *sep = "";
        for (uint32_t j = 0; j < graph->decl.resource_count; j++)
            if (aliases(p, i, j)) {
                fprintf(f, "%s\"", sep);
                put_name(f, graph->decl.resources[j].name);
                fputc('"', f);
                sep = ", ";
            }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n  \"pools\": [");
    for (uint32_t i = 0; i < p->pool_count; i++)
        fprintf(f, "%s\n    {\"memory_type\": %u, \"class\": \"%s\", \"size\": %llu}", i ? "," : "",
                p->pools[i].memory_type, p->pools[i].optimal ? "optimal" : "buffer",
                (unsigned long long)p->pools[i].size);
    /* Between the pools and the totals, so that the totals' line keeps its
     * form: it closes the merges' array. */
    json_traffic(f, graph, &tr);
    rg__free(graph, tr.per);
    rg_memory_totals totals = rg_memory_get_totals(graph);
    const rg_memory_totals *t = &totals;
    fprintf(f,
            "\n  ],\n  \"totals\": {\"pooled\": %llu, \"unaliased\": %llu, \"padding\": %llu, \"lower_bound\": %llu, "
            "\"lazy\": %llu, \"lazy_fallback\": %llu, \"dedicated\": %llu, \"pools\": %u, \"objects_reused\": %u, "
            "\"objects_created\": %u, \"objects_released\": %u, \"kept\": %llu}\n}\n",
            (unsigned long long)t->pooled, (unsigned long long)t->unaliased, (unsigned long long)t->padding,
            (unsigned long long)t->lower_bound, (unsigned long long)t->lazy, (unsigned long long)t->lazy_fallback,
            (unsigned long long)t->dedicated, t->pools, t->objects_reused, t->objects_created, t->objects_released,
            (unsigned long long)t->kept);
    return rg__report_close(graph, "rg_memory_report_json", path, f);
}

/* ------------------------------------------------------------------ SVG */

#define SVG_COL 48.0                  /* pixels per execution-order position */
#define SVG_POOL_H 240.0              /* pixels per pool, whatever its size */
#define SVG_MARGIN 24.0

#define SVG_ROW 16.0                  /* pixels per lazy attachment */

static uint32_t lazy_count(const rg_graph *g, const rg__mem_plan *p)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->decl.resource_count; i++)
        n += p->items[i].kind == RG_MEMORY_LAZY;
    return n;
}

/* A resource's bar over the positions it lives, named (its tooltip says
 * what), filled or, for memory never committed, dashed. */
static void put_bar(FILE *f, const rg_graph *g, uint32_t i, double y, double h, bool lazy, const char *what)
{
    uint32_t first = rg__first_use(g, i), last = rg__last_use(g, i);
    double x = SVG_MARGIN + SVG_COL * first, w = SVG_COL * (last + 1 - first);
    /* A hue per resource so neighbours differ. */
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"hsl(%u,60%%,75%%)\" ", x, y, w, h,
            (i * 67u) % 360u);
    fprintf(f, lazy ? "fill-opacity=\"0.3\" stroke=\"black\" stroke-dasharray=\"4 2\"><title>"
                    : "fill-opacity=\"0.8\" stroke=\"black\"><title>");
    put_name(f, g->decl.resources[i].name);
    fprintf(f, ": %s, positions %u..%u</title></rect>\n", what, first, last);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + (h < 14 ? h : 14) - 2);
    put_name(f, g->decl.resources[i].name);
    fprintf(f, "</text>\n");
}

/* The lazy attachments below the pools: on chip (tile memory), no memory
 * committed, a row each. */
static void put_lazy_lane(FILE *f, const rg_graph *g, const rg__mem_plan *p, double top, double width)
{
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">lazy: tile memory, no memory committed</text>\n", SVG_MARGIN, top - 6);
    fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"gray\" "
            "stroke-dasharray=\"4 2\"/>\n", SVG_MARGIN, top, width - 2 * SVG_MARGIN, SVG_ROW * lazy_count(g, p));
    uint32_t row = 0;
    for (uint32_t i = 0; i < g->decl.resource_count; i++) {
        const rg__mem_placement *m = &p->items[i];
        if (m->kind != RG_MEMORY_LAZY)
            continue;
        char what[64];
        snprintf(what, sizeof what, "lazy, %llu bytes never committed", (unsigned long long)m->size);
        put_bar(f, g, i, top + SVG_ROW * row++, SVG_ROW, true, what);
    }
}

rg_result rg_memory_timeline_svg(const rg_graph *graph, const char *path)
{
    const rg__mem_plan *p;
    FILE *f = NULL;
    rg_result r = report_begin(graph, "rg_memory_timeline_svg", path, "path", &p, NULL);
    if (r == RG_SUCCESS)
        r = rg__report_open(graph, "rg_memory_timeline_svg", path, &f);
    if (r != RG_SUCCESS)
        return r;
    double width = 2 * SVG_MARGIN + SVG_COL * (graph->compiled->merge.order.count ? graph->compiled->merge.order.count : 1);
    double pools_end = SVG_MARGIN + (SVG_POOL_H + 2 * SVG_MARGIN) * (p->pool_count ? p->pool_count : 1);
    uint32_t lazy = lazy_count(graph, p);
    double height = pools_end + (lazy ? SVG_ROW * lazy + 2 * SVG_MARGIN : 0);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
            "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height);
    for (uint32_t pool = 0; pool < p->pool_count; pool++) {
        const rg__mem_pool *pl = &p->pools[pool];
        double top = SVG_MARGIN + pool * (SVG_POOL_H + 2 * SVG_MARGIN) + SVG_MARGIN;
        double scale = pl->size ? SVG_POOL_H / (double)pl->size : 0;
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">pool %u: memory type %u, %s, %llu bytes</text>\n", SVG_MARGIN,
                top - 6, pool, pl->memory_type, pl->optimal ? "optimal images" : "buffers",
                (unsigned long long)pl->size);
        fprintf(f, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"gray\"/>\n",
                SVG_MARGIN, top, width - 2 * SVG_MARGIN, SVG_POOL_H);
        for (uint32_t i = 0; i < graph->decl.resource_count; i++) {
            const rg__mem_placement *m = &p->items[i];
            if (m->kind != RG_MEMORY_POOLED || m->pool != pool)
                continue;
            char what[64];
            snprintf(what, sizeof what, "offset %llu, %llu bytes", (unsigned long long)m->offset,
                     (unsigned long long)m->size);
            put_bar(f, graph, i, top + scale * (double)m->offset, scale * (double)m->size, false, what);
        }
    }
    if (lazy)
        put_lazy_lane(f, graph, p, pools_end + SVG_MARGIN, width);
    fprintf(f, "</svg>\n");
    return rg__report_close(graph, "rg_memory_timeline_svg", path, f);
}
