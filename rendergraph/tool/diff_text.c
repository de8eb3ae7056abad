/* rgtool diff's result as text: the memory table always (A, B, delta),
 * then only the sections that differ, and a last line saying whether the
 * plans are identical. */
#include "diff.h"

#include <inttypes.h>
#include <string.h>

static double mib(int64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

static void print_side(const char *label, const rgt_plan *p, FILE *out)
{
    fprintf(out, "%s  %s  (%ux%u, profile %s, %s memory, %u commands)\n", label, p->file, p->info.width, p->info.height,
            p->profile_key, rgt_memory_source_name(p->memory), p->order_count);
    rgt_print_memory_notes(p, "   ", out);
}

static void print_totals(const rgt_diff_result *d, FILE *out)
{
    fprintf(out, "\nmemory%s\n  %-14s %14s %14s %14s   %s\n", d->totals_differ ? "" : " (same)", "", "A MiB", "B MiB",
            "delta MiB", "delta bytes");
    for (uint32_t i = 0; i < RGT_TOTAL_COUNT; i++) {
        uint64_t va = rgt_total_value(&d->a->totals, i), vb = rgt_total_value(&d->b->totals, i);
        int64_t delta = (int64_t)(vb - va);
        fprintf(out, "  %-14s %14.2f %14.2f %+14.2f   %+" PRId64 "\n", rgt_total_name(i), mib((int64_t)va),
                mib((int64_t)vb), mib(delta), delta);
    }
    fprintf(out, "  %-14s %14u %14u %+14d\n", "pools", d->a->totals.pools, d->b->totals.pools,
            (int)d->b->totals.pools - (int)d->a->totals.pools);
}

static void print_barriers(const rgt_diff_result *d, FILE *out)
{
    fprintf(out, "\nbarriers: A %u, B %u (%+d); after the last command: A %u, B %u\n", d->a->barrier_count,
            d->b->barrier_count, (int)d->b->barrier_count - (int)d->a->barrier_count, d->a->final_barriers,
            d->b->final_barriers);
    for (uint32_t i = 0; i < d->rebarriered_count; i++) {
        const rgt_moved *m = &d->rebarriered[i];
        fprintf(out, "  before %-32s A %4u  B %4u\n", m->name, m->barriers_a, m->barriers_b);
    }
}

static const char *outcome(int merged) { return merged < 0 ? "not a candidate" : merged ? "merged" : "refused"; }

static void print_merges(const rgt_diff_result *d, FILE *out)
{
    fprintf(out, "\nmerges: A %u of %u taken, B %u of %u taken\n", d->a->merges_taken, d->a->merge_count,
            d->b->merges_taken, d->b->merge_count);
    for (uint32_t i = 0; i < d->merge_count; i++) {
        const rgt_merge_change *m = &d->merges[i];
        fprintf(out, "  %s + %s: A %s, B %s\n", m->first, m->second, outcome(m->a), outcome(m->b));
        if (m->a == 0)
            fprintf(out, "      A: %s\n", m->reason_a);
        if (m->b == 0)
            fprintf(out, "      B: %s\n", m->reason_b);
    }
}

static void print_only(const char *title, const rgt_only *list, uint32_t count, FILE *out)
{
    if (!count)
        return;
    fprintf(out, "\n%s\n", title);
    for (uint32_t i = 0; i < count; i++)
        fprintf(out, "  %s %-32s %-22s (%s only)\n", list[i].in_a ? "-" : "+", list[i].name,
                rgt_command_type_name(list[i].type), list[i].in_a ? "A" : "B");
}

static void print_order(const rgt_diff_result *d, FILE *out)
{
    if (d->reordered_count) {
        fprintf(out, "\norder: %u commands both run moved relative to the others\n  %-32s %6s %6s\n",
                d->reordered_count, "command", "A pos", "B pos");
        for (uint32_t i = 0; i < d->reordered_count; i++)
            fprintf(out, "  %-32s %6u %6u\n", d->reordered[i].name, d->reordered[i].a, d->reordered[i].b);
    }
    if (d->requeued_count) {
        fprintf(out, "\nqueues and batches: %u commands changed\n", d->requeued_count);
        for (uint32_t i = 0; i < d->requeued_count; i++) {
            const rgt_moved *m = &d->requeued[i];
            fprintf(out, "  %-32s A %s batch %u, B %s batch %u\n", m->name, rg_queue_name(m->queue_a), m->batch_a,
                    rg_queue_name(m->queue_b), m->batch_b);
        }
    }
    if (d->a->batch_count != d->b->batch_count)
        fprintf(out, "\nbatches: A %u, B %u\n", d->a->batch_count, d->b->batch_count);
}

static void print_resource_side(const char *label, const rg_resource_info *r, FILE *out)
{
    if (!r) {
        fprintf(out, "      %s: (none)\n", label);
        return;
    }
    fprintf(out, "      %s: %-13s %10.2f MiB %12" PRIu64 " bytes", label, rgt_memory_kind_name(r->memory),
            mib((int64_t)r->memory_size), (uint64_t)r->memory_size);
    if (r->pool != RG_INDEX_NONE)
        fprintf(out, "  pool %u offset %" PRIu64, r->pool, (uint64_t)r->memory_offset);
    fprintf(out, "%s\n", r->transient ? "  transient" : "");
}

/* Kind, bytes or transience changes in full; resources that only moved
 * within the pools (aliasing chose other offsets) on one line, as most of
 * a pool moves when one resource changes. */
static void print_resources(const rgt_diff_result *d, FILE *out)
{
    uint32_t moved = 0;
    for (uint32_t i = 0; i < d->resource_count; i++)
        moved += d->resources[i].moved_only;
    if (d->resource_count > moved)
        fprintf(out, "\nresources: %u placed differently\n", d->resource_count - moved);
    for (uint32_t i = 0; i < d->resource_count; i++) {
        if (d->resources[i].moved_only)
            continue;
        fprintf(out, "  %s\n", d->resources[i].name);
        print_resource_side("A", d->resources[i].a, out);
        print_resource_side("B", d->resources[i].b, out);
    }
    if (!moved)
        return;
    fprintf(out, "\nresources at another pool or offset only: %u\n ", moved);
    for (uint32_t i = 0, column = 1; i < d->resource_count; i++) {
        if (!d->resources[i].moved_only)
            continue;
        if (column > 1 && column + strlen(d->resources[i].name) + 3 > 78) {
            fprintf(out, "\n ");
            column = 1;
        }
        column += (uint32_t)fprintf(out, " '%s'", d->resources[i].name);
    }
    fputc('\n', out);
}

void rgt_diff_print_text(const rgt_diff_result *d, FILE *out)
{
    print_side("A", d->a, out);
    print_side("B", d->b, out);
    print_totals(d, out);
    if (d->barriers_differ)
        print_barriers(d, out);
    if (d->merge_count || d->a->merges_taken != d->b->merges_taken)
        print_merges(d, out);
    print_only("culled by one only:", d->culled_only, d->culled_only_count, out);
    print_only("run by one only:", d->run_only, d->run_only_count, out);
    print_order(d, out);
    print_resources(d, out);
    rgt_diff_print_tiles_text(d, out);
    fprintf(out, "\n%s\n", d->same ? "identical plans" : "plans differ");
}
