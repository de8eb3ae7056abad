/* Comparing two plans (rgtool diff): memory totals, barriers, merges,
 * culling, the order and queues, and each resource's memory. Commands are
 * matched by name, type and occurrence (the k-th "blur" with the k-th "blur"),
 * since two graphs share no handles; the result is data (diff.h) that
 * diff_text.c and diff_json.c print. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

/* Same name and type: a span's begin and its draw often share a name. */
static bool same(const rgt_command *x, const rgt_command *y)
{
    return x->type == y->type && strcmp(x->name, y->name) == 0;
}

/* How many commands before index i in list are the same as it. */
static uint32_t occurrence(const rgt_command *list, uint32_t i)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < i; j++)
        k += same(&list[j], &list[i]);
    return k;
}

/* The index in list of the k-th command the same as c; RG_INDEX_NONE if none. */
static uint32_t find(const rgt_command *list, uint32_t count, const rgt_command *c, uint32_t k)
{
    for (uint32_t j = 0; j < count; j++)
        if (same(&list[j], c) && k-- == 0)
            return j;
    return RG_INDEX_NONE;
}

/* For each command of a, its match in b (RG_INDEX_NONE: none). */
static uint32_t *match(const rgt_command *a, uint32_t na, const rgt_command *b, uint32_t nb)
{
    uint32_t *m = malloc((na ? na : 1) * sizeof *m);
    if (m)
        for (uint32_t i = 0; i < na; i++)
            m[i] = find(b, nb, &a[i], occurrence(a, i));
    return m;
}

/* Names of list x that list y lacks, appended to *out as in_a. */
static bool only_in(const rgt_command *x, uint32_t nx, const rgt_command *y, uint32_t ny, bool in_a, rgt_only *out,
                    uint32_t *count)
{
    uint32_t *m = match(x, nx, y, ny);
    if (!m)
        return false;
    for (uint32_t i = 0; i < nx; i++)
        if (m[i] == RG_INDEX_NONE)
            out[(*count)++] = (rgt_only){x[i].name, x[i].type, in_a};
    free(m);
    return true;
}

static rgt_moved moved(const rgt_command *ca, const rgt_command *cb, uint32_t rank_a, uint32_t rank_b)
{
    return (rgt_moved){ca->name,  ca->position, cb->position, rank_a,       rank_b,      ca->queue,
                       cb->queue, ca->batch,    cb->batch,    ca->barriers, cb->barriers};
}

/* Order, queues and barriers of the commands both plans run. Ranks count
 * only those common commands, so one command added elsewhere does not
 * show every later command as moved. */
static bool compare_order(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d)
{
    uint32_t na = a->order_count, nb = b->order_count;
    uint32_t *ab = match(a->order, na, b->order, nb);
    uint32_t *rank_b = calloc(nb ? nb : 1, sizeof *rank_b);
    bool *common_b = calloc(nb ? nb : 1, sizeof *common_b);
    d->reordered = calloc(na ? na : 1, sizeof *d->reordered);
    d->requeued = calloc(na ? na : 1, sizeof *d->requeued);
    d->rebarriered = calloc(na ? na : 1, sizeof *d->rebarriered);
    bool ok = ab && rank_b && common_b && d->reordered && d->requeued && d->rebarriered;
    if (ok) {
        for (uint32_t i = 0; i < na; i++)
            if (ab[i] != RG_INDEX_NONE)
                common_b[ab[i]] = true;
        for (uint32_t j = 0, r = 0; j < nb; j++)
            rank_b[j] = common_b[j] ? r++ : RG_INDEX_NONE;
        for (uint32_t i = 0, r = 0; i < na; i++) {
            if (ab[i] == RG_INDEX_NONE)
                continue;
            const rgt_command *ca = &a->order[i], *cb = &b->order[ab[i]];
            rgt_moved m = moved(ca, cb, r, rank_b[ab[i]]);
            if (m.rank_a != m.rank_b)
                d->reordered[d->reordered_count++] = m;
            if (ca->queue != cb->queue || ca->batch != cb->batch)
                d->requeued[d->requeued_count++] = m;
            if (ca->barriers != cb->barriers)
                d->rebarriered[d->rebarriered_count++] = m;
            r++;
        }
    }
    free(ab);
    free(rank_b);
    free(common_b);
    return ok;
}

static bool compare_lists(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d)
{
    d->run_only = calloc(a->order_count + b->order_count + 1, sizeof *d->run_only);
    d->culled_only = calloc(a->culled_count + b->culled_count + 1, sizeof *d->culled_only);
    return d->run_only && d->culled_only &&
           only_in(a->order, a->order_count, b->order, b->order_count, true, d->run_only, &d->run_only_count) &&
           only_in(b->order, b->order_count, a->order, a->order_count, false, d->run_only, &d->run_only_count) &&
           only_in(a->culled, a->culled_count, b->culled, b->culled_count, true, d->culled_only,
                   &d->culled_only_count) &&
           only_in(b->culled, b->culled_count, a->culled, a->culled_count, false, d->culled_only,
                   &d->culled_only_count);
}

static const rgt_merge *find_merge(const rgt_plan *p, const rgt_merge *m)
{
    for (uint32_t i = 0; i < p->merge_count; i++)
        if (!strcmp(p->merges[i].first, m->first) && !strcmp(p->merges[i].second, m->second))
            return &p->merges[i];
    return NULL;
}

/* Merge candidates whose outcome or reason changed, or that are one
 * side's only. */
static bool compare_merges(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d)
{
    d->merges = calloc(a->merge_count + b->merge_count + 1, sizeof *d->merges);
    if (!d->merges)
        return false;
    for (uint32_t i = 0; i < a->merge_count; i++) {
        const rgt_merge *ma = &a->merges[i], *mb = find_merge(b, ma);
        if (mb && mb->merged == ma->merged && !strcmp(mb->reason, ma->reason))
            continue;
        d->merges[d->merge_count++] = (rgt_merge_change){
            ma->first, ma->second, ma->merged, mb ? mb->merged : -1, ma->reason, mb ? mb->reason : NULL};
    }
    for (uint32_t i = 0; i < b->merge_count; i++) {
        const rgt_merge *mb = &b->merges[i];
        if (!find_merge(a, mb))
            d->merges[d->merge_count++] = (rgt_merge_change){mb->first, mb->second, -1, mb->merged, NULL, mb->reason};
    }
    return true;
}

static const rg_resource_info *find_resource(const rgt_plan *p, const char *name)
{
    for (uint32_t i = 0; i < p->resource_count; i++)
        if (!strcmp(p->resources[i].name, name))
            return &p->resources[i];
    return NULL;
}

/* Resources whose memory kind, bytes, pool or offset changed. */
static bool compare_resources(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d)
{
    d->resources = calloc(a->resource_count + b->resource_count + 1, sizeof *d->resources);
    if (!d->resources)
        return false;
    for (uint32_t i = 0; i < a->resource_count; i++) {
        const rg_resource_info *ra = &a->resources[i], *rb = find_resource(b, ra->name);
        if (rb && rb->memory == ra->memory && rb->memory_size == ra->memory_size && rb->pool == ra->pool &&
            rb->memory_offset == ra->memory_offset && rb->transient == ra->transient)
            continue;
        bool moved_only =
            rb && rb->memory == ra->memory && rb->memory_size == ra->memory_size && rb->transient == ra->transient;
        d->resources[d->resource_count++] = (rgt_resource_change){ra->name, ra, rb, moved_only};
    }
    for (uint32_t i = 0; i < b->resource_count; i++)
        if (!find_resource(a, b->resources[i].name))
            d->resources[d->resource_count++] =
                (rgt_resource_change){b->resources[i].name, NULL, &b->resources[i], false};
    return true;
}

bool rgt_diff_compute(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *out)
{
    memset(out, 0, sizeof *out);
    out->a = a;
    out->b = b;
    out->totals_differ = a->totals.pools != b->totals.pools;
    for (uint32_t i = 0; i < RGT_TOTAL_COUNT; i++)
        out->totals_differ |= rgt_total_value(&a->totals, i) != rgt_total_value(&b->totals, i);
    bool ok = compare_order(a, b, out) && compare_lists(a, b, out) && compare_merges(a, b, out) &&
              compare_resources(a, b, out) && rgt_tiles_compare(a, b, out);
    out->barriers_differ =
        a->barrier_count != b->barrier_count || a->final_barriers != b->final_barriers || out->rebarriered_count != 0;
    /* Same plan: nothing above differs, and the batches are as many. */
    out->same = !out->totals_differ && !out->barriers_differ && !out->reordered_count && !out->requeued_count &&
                !out->run_only_count && !out->culled_only_count && !out->merge_count && !out->resource_count &&
                !out->tiles_differ &&
                a->batch_count == b->batch_count;
    if (!ok)
        rgt_diff_result_free(out);
    return ok;
}

void rgt_diff_result_free(rgt_diff_result *d)
{
    free(d->reordered);
    free(d->requeued);
    free(d->rebarriered);
    free(d->run_only);
    free(d->culled_only);
    free(d->merges);
    free(d->resources);
    free(d->tiles);
    memset(d, 0, sizeof *d);
}

int rgt_diff(const rgt_plan *a, const rgt_plan *b, bool json, FILE *out)
{
    rgt_diff_result d;
    if (!rgt_diff_compute(a, b, &d)) {
        fprintf(stderr, "rgtool: out of memory comparing the plans\n");
        return RGT_EXIT_TROUBLE;
    }
    bool same = d.same;
    bool printed = true;
    if (json)
        printed = rgt_diff_print_json(&d, out);
    else
        rgt_diff_print_text(&d, out);
    rgt_diff_result_free(&d);
    return !printed ? RGT_EXIT_TROUBLE : same ? RGT_EXIT_OK : RGT_EXIT_DIFFERENT;
}
