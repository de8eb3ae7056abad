/* What the schedule stage (compile_schedule.c) and its exact search
 * (compile_exact_order.c) share: the live nodes of the frame with the
 * created resources each uses, their estimated sizes and the dependencies
 * between live nodes. Not installed.
 */
#ifndef RG_SCHEDULE_H
#define RG_SCHEDULE_H

#include "compile_stages.h"

typedef struct rg__sched {
    const rg_graph *g;
    uint32_t n;                       /* live nodes */
    uint32_t *node;                   /* live node -> graph node, in batch order */
    uint32_t *live;                   /* graph node -> live node, RG__NONE when culled */
    uint32_t *res_start, *res;        /* per live node: the created resources it uses */
    uint32_t *succ_start, *succ;      /* per live node: its successors (live nodes) */
    uint32_t *preds;                  /* per live node: its predecessors */
    uint64_t *bytes;                  /* per resource: estimated size, 0 for imports */
} rg__sched;

/* Frames of at most RG__EXACT_ALWAYS live nodes (a span counts once) are
 * ordered exactly; up to RG__EXACT_NODES where their sets of nodes fit a
 * smaller budget (rg__exact_order). */
#define RG__EXACT_ALWAYS 20
#define RG__EXACT_NODES 32

/* The order of s's live nodes whose peak of estimated live bytes is the
 * least of any order the dependencies allow (ties: the fewest changes
 * between queues the nodes are eligible for), into seq. bound: the peak
 * of an order already known (no better order passes above it, so the
 * search drops every partial order that does). RG_ERROR_UNSUPPORTED when
 * s has more than RG__EXACT_NODES nodes or the search would keep more
 * than its budget of sets (a frame of many independent passes): the
 * caller's order stands then. */
rg_result rg__exact_order(const rg__sched *s, uint64_t bound, uint32_t *seq);

#endif
