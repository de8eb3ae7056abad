/* rgtool diff's result as data: diff.c compares two plans into it,
 * diff_text.c and diff_json.c print it (and call nothing of diff.c). Commands and resources are matched
 * by name and type (the k-th such command in one plan with the k-th in
 * the other), since handles belong to one graph. */
#ifndef RGTOOL_DIFF_H
#define RGTOOL_DIFF_H

#include "rgtool.h"

/* A command present in both plans whose placement changed. */
typedef struct rgt_moved {
    const char *name;
    uint32_t a, b;           /* execution-order positions */
    uint32_t rank_a, rank_b; /* places among the commands both run */
    rg_queue queue_a, queue_b;
    uint32_t batch_a, batch_b;
    uint32_t barriers_a, barriers_b;
} rgt_moved;

/* A name present in one plan's list only (a command run, culled, a
 * resource). */
typedef struct rgt_only {
    const char *name;
    rg_command_type type; /* commands */
    bool in_a;            /* false: in b only */
} rgt_only;

/* A merge candidate whose outcome differs, or present on one side only. */
typedef struct rgt_merge_change {
    const char *first, *second;
    int a, b; /* 1 merged, 0 refused, -1 not a candidate */
    const char *reason_a, *reason_b;
} rgt_merge_change;

typedef struct rgt_resource_change {
    const char *name;
    const rg_resource_info *a, *b; /* NULL: not in that plan */
    bool moved_only;               /* same kind and bytes, another pool or offset */
} rgt_resource_change;

typedef struct rgt_diff_result {
    const rgt_plan *a, *b;
    bool totals_differ;
    rgt_moved *reordered; /* relative order changed */
    uint32_t reordered_count;
    rgt_moved *requeued; /* queue or batch changed */
    uint32_t requeued_count;
    rgt_moved *rebarriered; /* barrier count before it changed */
    uint32_t rebarriered_count;
    rgt_only *run_only; /* run by one plan only */
    uint32_t run_only_count;
    rgt_only *culled_only; /* culled by one plan only */
    uint32_t culled_only_count;
    rgt_merge_change *merges;
    uint32_t merge_count;
    rgt_resource_change *resources; /* kind of memory, bytes, pool changed; or one side only */
    uint32_t resource_count;
    uint32_t *tiles;      /* instances whose tile view changed, or in one plan only (tiles.c) */
    uint32_t tile_count;
    bool tiles_differ;    /* those, or the frame's traffic */
    bool barriers_differ; /* totals or per command */
    bool same;            /* none of the above: identical plans */
} rgt_diff_result;

/* tiles.c: the tile views compared (false: out of memory), and printed. */
struct cJSON;
bool rgt_tiles_compare(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *d);
void rgt_diff_print_tiles_text(const rgt_diff_result *d, FILE *out);
void rgt_diff_add_tiles_json(const rgt_diff_result *d, struct cJSON *root);

bool rgt_diff_compute(const rgt_plan *a, const rgt_plan *b, rgt_diff_result *out);
void rgt_diff_result_free(rgt_diff_result *d);

void rgt_diff_print_text(const rgt_diff_result *d, FILE *out);
bool rgt_diff_print_json(const rgt_diff_result *d, FILE *out);

#endif /* RGTOOL_DIFF_H */
