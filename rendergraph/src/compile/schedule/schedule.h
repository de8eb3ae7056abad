/* What the schedule stage (compile_schedule.c) and its searches
 * (compile_order_search.c, compile_exact_order.c) share: the live nodes of
 * the frame with the created resources each uses, their estimated sizes
 * and the dependencies between live nodes, and the stage's scratch arena,
 * which holds these arrays and every search's own. Not installed.
 */
#ifndef RG_SCHEDULE_H
#define RG_SCHEDULE_H

#include "base/arena.h"
#include "compile/stages.h"

typedef struct rg__sched {
    const rg_graph *g;
    rg__arena *scratch;               /* the stage's temporaries, freed when it returns */
    uint32_t n;                       /* live nodes */
    uint32_t *node;                   /* live node -> graph node, in batch order */
    uint32_t *live;                   /* graph node -> live node, RG__NONE when culled */
    uint32_t *res_start, *res;        /* per live node: the created resources it uses */
    uint32_t *succ_start, *succ;      /* per live node: its successors (live nodes) */
    uint32_t *preds;                  /* per live node: its predecessors */
    uint64_t *bytes;                  /* per resource: estimated size, 0 for imports */
} rg__sched;

/* The class of a live node: the queue it may run on besides graphics,
 * where the graph uses that queue (compile_queues.c decides later; a tie
 * only needs the likely one). */
static inline uint8_t rg__sched_class(const rg__sched *s, uint32_t i)
{
    const rg_graph *g = s->g;
    const rg__cmd *c = &g->decl.cmds[g->compiled->nodes.first_cmd[s->node[i]]];
    if (rg__one_queue(g) || c->span != RG__NONE)
        return 0;
    if (c->queue == RG_QUEUE_COMPUTE && g->caps.compute_queue)
        return 1;
    if (c->queue == RG_QUEUE_TRANSFER && g->caps.transfer_queue)
        return 2;
    return 0;
}

/* The most estimated bytes live at one position of seq (live node
 * indices; a resource lives from its first use to its last) into *peak,
 * and their sum over the positions in KiB into *area (NULL: not wanted).
 * first, last: scratch per resource; diff: per position + 1. */
void rg__sched_live(const rg__sched *s, const uint32_t *seq, uint32_t *first, uint32_t *last, int64_t *diff,
                    uint64_t *peak, uint64_t *area);

/* Local search over the valid order seq (compile_order_search.c): nodes
 * moved one at a time while (peak, queue-class changes, area) drops. Each
 * order tried scans the positions once: at most `work` / n orders are
 * tried (2^18: 4,096 orders of 64 nodes, where the search has converged
 * on random DAGs; few on a frame of thousands). RG_ERROR_OUT_OF_MEMORY
 * (seq unchanged). */
#define RG__ORDER_SEARCH_WORK (1u << 18)
rg_result rg__order_search(const rg__sched *s, uint32_t *seq, uint32_t work);

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
