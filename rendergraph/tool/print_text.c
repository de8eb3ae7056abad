/* A plan as text a person reads: aligned columns, sizes in MiB (two
 * decimals) beside exact bytes. Sections in pipeline order: what ran and
 * where, what did not, barriers, merges, queues, memory, the log. */
#include "rgtool.h"

#include <inttypes.h>
#include <string.h>

static double mib(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

/* The widest of the names, for the name column (at least the header's). */
static int name_width(const rgt_command *commands, uint32_t count, int indent, int minimum)
{
    int width = minimum;
    for (uint32_t i = 0; i < count; i++) {
        int w = (int)strlen(commands[i].name) + indent;
        if (w > width)
            width = w;
    }
    return width > 48 ? 48 : width;
}

static void print_header(const rgt_plan *p, FILE *out)
{
    const rgf_frame_info *i = &p->info;
    fprintf(out, "frame     %s\n", p->file);
    fprintf(out, "saved by  %s%s%s%s\n", i->saved_by ? i->saved_by : "?",
            i->device_name && i->device_name[0] ? " on \"" : "",
            i->device_name && i->device_name[0] ? i->device_name : "", i->device_name && i->device_name[0] ? "\"" : "");
    fprintf(out, "size      %ux%u (saved %ux%u)\n", i->width, i->height, i->saved_width, i->saved_height);
    fprintf(out, "profile   %s (%s), merge %s\n", p->profile_key, p->profile_name, rgt_merge_name(p->merge));
    fprintf(out, "memory    %s\n",
            p->memory == RGF_MEMORY_SAVED
                ? "saved: the saving device's memory types and requirements"
                : "model: a device-local (and lazy) type; requirements as saved at this size, else texel bytes");
    rgt_print_memory_notes(p, "          ", out);
}

void rgt_print_memory_notes(const rgt_plan *plan, const char *indent, FILE *out)
{
    for (uint32_t i = 0; i < plan->memory_note_count; i++)
        fprintf(out, "%s%s\n", indent, plan->memory_notes[i]);
}

static void print_order(const rgt_plan *p, FILE *out)
{
    int width = name_width(p->order, p->order_count, 2, 7);
    fprintf(out, "\nexecution order: %u commands, %u rendering instances, %u batches\n", p->order_count,
            p->instance_count, p->batch_count);
    fprintf(out, "  %4s  %-*s  %-22s  %-8s  %5s  %-12s  %8s\n", "pos", width, "command", "type", "queue", "batch",
            "instance", "barriers");
    for (uint32_t i = 0; i < p->order_count; i++) {
        const rgt_command *c = &p->order[i];
        /* Commands inside a span are indented under its begin_rendering. */
        bool inner = c->span != RG_INDEX_NONE && c->type != RG_COMMAND_TYPE_BEGIN_RENDERING &&
                     c->type != RG_COMMAND_TYPE_END_RENDERING;
        char instance[24] = "-";
        if (c->instance != RG_INDEX_NONE)
            snprintf(instance, sizeof instance, "%u%s", c->instance, c->merged ? " merged" : "");
        const char *type = c->type == RG_COMMAND_TYPE_USER ? (c->kind == RG_COMMAND_DRAW ? "user draw" : "user")
                                                           : rgt_command_type_name(c->type);
        fprintf(out, "  %4u  %s%-*s  %-22s  %-8s  %5u  %-12s  %8u\n", i, inner ? "  " : "", width - (inner ? 2 : 0),
                c->name, type, rg_queue_name(c->queue), c->batch, instance, c->barriers);
    }
}

static void print_culled(const rgt_plan *p, FILE *out)
{
    fprintf(out, "\nculled commands: %u\n", p->culled_count);
    int width = name_width(p->culled, p->culled_count, 0, 7);
    for (uint32_t i = 0; i < p->culled_count; i++) {
        const rgt_command *c = &p->culled[i];
        char why[400];
        if (c->span_name)
            snprintf(why, sizeof why, "in culled span '%s'%s%s", c->span_name, c->cull_reason ? ": " : "",
                     c->cull_reason ? c->cull_reason : "");
        else
            snprintf(why, sizeof why, "%s", c->cull_reason ? c->cull_reason : "(no notice names it)");
        fprintf(out, "  %-*s  %-22s  %s\n", width, c->name, rgt_command_type_name(c->type), why);
    }
}

static void print_barrier(const rgt_plan *p, const rgt_barrier *b, FILE *out)
{
    char src[160], dst[160], sa[160], da[160];
    rg_flag_names(RG_FLAGS_STAGE, b->src_stage, src, sizeof src);
    rg_flag_names(RG_FLAGS_STAGE, b->dst_stage, dst, sizeof dst);
    rg_flag_names(RG_FLAGS_ACCESS, b->src_access, sa, sizeof sa);
    rg_flag_names(RG_FLAGS_ACCESS, b->dst_access, da, sizeof da);
    const char *before = b->position < p->order_count ? p->order[b->position].name : "(end of frame)";
    fprintf(out, "  before %-24s %s %s", before,
            b->is_texture    ? "texture"
            : b->resource[0] ? "buffer"
                             : "memory",
            b->resource);
    if (b->is_texture)
        fprintf(out, " %s -> %s", rg_layout_name(b->old_layout), rg_layout_name(b->new_layout));
    fprintf(out, "%s%s\n", b->hoisted ? " [hoisted]" : "", b->by_region ? " [by region]" : "");
    fprintf(out, "      stages %s -> %s; access %s -> %s\n", src, dst, sa, da);
}

static void print_barriers(const rgt_plan *p, bool verbose, FILE *out)
{
    uint32_t points = 0;
    for (uint32_t i = 0; i < p->order_count; i++)
        points += p->order[i].barriers != 0;
    fprintf(out, "\nbarriers: %u in all, before %u commands, %u after the last (per command: the order's column)\n",
            p->barrier_count, points, p->final_barriers);
    if (verbose)
        for (uint32_t i = 0; i < p->barrier_count; i++)
            print_barrier(p, &p->barriers[i], out);
}

static void print_merges_and_queues(const rgt_plan *p, FILE *out)
{
    fprintf(out, "\nmerges: %u of %u candidate pairs taken\n", p->merges_taken, p->merge_count);
    for (uint32_t i = 0; i < p->merge_count; i++) {
        const rgt_merge *m = &p->merges[i];
        fprintf(out, "  %s + %s: %s%s%s\n", m->first, m->second, m->merged ? "merged" : "refused",
                m->merged ? "" : ": ", m->merged ? "" : m->reason);
    }
    fprintf(out, "\nbatches: %u\n", p->batch_count);
    for (uint32_t i = 0; i < p->batch_count; i++) {
        const rg_batch_info *b = &p->batches[i];
        char range[32] = "(final transitions)";
        if (b->first != RG_INDEX_NONE && b->first <= b->last)
            snprintf(range, sizeof range, "%u..%u", b->first, b->last);
        fprintf(out, "  %3u  %-8s  positions %-19s  signal %" PRIu64, i, rg_queue_name(b->queue), range, b->signal);
        for (uint32_t w = 0; w < b->wait_count; w++) {
            if (b->waits[w].batch == RG_INDEX_NONE)
                fprintf(out, "%s%s (previous frame)", w ? ", " : "  waits ", rg_queue_name(b->waits[w].queue));
            else
                fprintf(out, "%sbatch %u (%s)", w ? ", " : "  waits ", b->waits[w].batch,
                        rg_queue_name(b->waits[w].queue));
        }
        fputc('\n', out);
    }
    if (p->queue_note_count)
        fprintf(out, "\nkept on graphics: %u\n", p->queue_note_count);
    for (uint32_t i = 0; i < p->queue_note_count; i++)
        fprintf(out, "  %s (eligible for %s): %s\n", p->queue_notes[i].command,
                rg_queue_name(p->queue_notes[i].eligible), p->queue_notes[i].reason);
}

static void print_memory(const rgt_plan *p, FILE *out)
{
    fprintf(out, "\nmemory (%s requirements, profile %s)\n", rgt_memory_source_name(p->memory), p->profile_key);
    for (uint32_t i = 0; i < RGT_TOTAL_COUNT; i++) {
        uint64_t v = rgt_total_value(&p->totals, i);
        fprintf(out, "  %-14s %10.2f MiB  %12" PRIu64 " bytes\n", rgt_total_name(i), mib(v), v);
    }
    fprintf(out, "  %-14s %10u\n", "pools", p->totals.pools);
    int width = 8;
    for (uint32_t i = 0; i < p->resource_count; i++)
        if ((int)strlen(p->resources[i].name) > width)
            width = (int)strlen(p->resources[i].name);
    width = width > 40 ? 40 : width;
    fprintf(out, "\nresources: %u\n  %-*s  %-16s  %-13s  %10s  %12s  %4s  %10s  %s\n", p->resource_count, width,
            "resource", "kind", "memory", "MiB", "bytes", "pool", "offset", "shape");
    for (uint32_t i = 0; i < p->resource_count; i++) {
        const rg_resource_info *r = &p->resources[i];
        char pool[12] = "-", offset[24] = "-", shape[96];
        if (r->pool != RG_INDEX_NONE) {
            snprintf(pool, sizeof pool, "%u", r->pool);
            snprintf(offset, sizeof offset, "%" PRIu64, (uint64_t)r->memory_offset);
        }
        if (r->texture.id)
            snprintf(shape, sizeof shape, "%ux%u %s%s", r->width, r->height, rg_format_name(r->format),
                     r->transient ? " transient" : "");
        else
            snprintf(shape, sizeof shape, "buffer %" PRIu64 " bytes", (uint64_t)r->size);
        fprintf(out, "  %-*s  %-16s  %-13s  %10.2f  %12" PRIu64 "  %4s  %10s  %s\n", width, r->name,
                rgt_resource_kind_name(r->kind), rgt_memory_kind_name(r->memory), mib(r->memory_size),
                (uint64_t)r->memory_size, pool, offset, shape);
    }
}

static void print_notes(const rgt_plan *p, FILE *out)
{
    fprintf(out, "\nnotes: %u\n", p->note_count);
    for (uint32_t i = 0; i < p->note_count; i++) {
        rg_log_level l = p->notes[i].level;
        fprintf(out, "  %-7s %s\n",
                l == RG_LOG_ERROR     ? "error"
                : l == RG_LOG_WARNING ? "warning"
                                      : "info",
                p->notes[i].text);
    }
}

void rgt_print_text(const rgt_plan *plan, bool verbose, FILE *out)
{
    print_header(plan, out);
    print_order(plan, out);
    print_culled(plan, out);
    print_barriers(plan, verbose, out);
    print_merges_and_queues(plan, out);
    print_memory(plan, out);
    rgt_print_tiles_text(plan, out);
    print_notes(plan, out);
}
