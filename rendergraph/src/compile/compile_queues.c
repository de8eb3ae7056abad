/* Compile stage "queues": which queue each node runs on, and the frame cut
 * into batches, one submission each (rendergraph.h, "Queues").
 *
 * Assignment: a command eligible for another queue (rg__cmd.queue) runs
 * there when the device has that queue and the graph is not single-queue,
 * unless it touches an import: its state before and after the frame lives
 * on the graphics queue (noted, with the resource). The two halves of a
 * history texture trade images every frame, so each is used by the queues
 * of both (its sharing follows).
 *
 * Batches: the execution order is walked once. A node joins its queue's
 * open batch unless it needs, through the happens-before closure, a batch
 * of another queue its own queue has not waited for yet: then its queue's
 * batch is cut and the new one waits, per other queue, for the latest
 * batch it needs there. A batch is closed right after a unit another
 * queue needs, so it signals as soon as that work is done (unless each
 * node needing it also needs the next unit of its queue: then an early
 * signal helps no one). A merged rendering instance is one unit (no cut
 * inside a rendering instance): its needs are its spans' together, met at
 * its first span.
 *
 * Frame edges: the first batch of a queue other than graphics waits for
 * the frame before's last graphics batch, or, where such a queue reads a
 * history texture's previous half, for a graphics batch of no commands
 * that opens the frame (the first frame of a placement records the
 * history clears there, execute.c; it comes after the frame before's
 * graphics work). A frame on several queues ends with a graphics batch of
 * no commands (the frame's final barriers) that waits for every other
 * queue's last batch at every stage. Waits only name earlier batches, so
 * submitting in batch order never waits for a later submission. The
 * waits' stages come from the barrier planner (compile_barriers.c), which
 * knows which accesses need them.
 */
#include "base/rules.h"
#include "compile/stages.h"
#include "base/arena.h"
#include "base/bits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The result under construction, published as rg__queues. */
typedef struct qbuild {
    uint8_t *node_queue;
    uint32_t queues_used;
    uint32_t *resource_queues;
    rg__batch *batches;
    uint32_t batch_count, batch_cap;
    uint32_t *pos_batch;
    uint32_t *node_batch;
    rg__queue_note *notes;
    uint32_t note_count;
} qbuild;

typedef struct walker {
    const rg_graph *g;
    qbuild *b;
    uint32_t open[RG_QUEUE_COUNT];                  /* open batch per queue, RG__NONE */
    uint64_t count[RG_QUEUE_COUNT];                 /* batches per queue so far */
    uint64_t waited[RG_QUEUE_COUNT][RG_QUEUE_COUNT];/* [q][r]: r's signal q waited for */
    uint32_t *by_signal[RG_QUEUE_COUNT];            /* per queue: batch index of signal s at s - 1 */
    uint64_t *node_signal;                          /* per node: its batch's signal */
    uint32_t start;                                 /* the frame's opening graphics batch, RG__NONE */
    uint8_t *producer;                              /* per node: another queue's node needs it, and
                                                       not the next node of its own queue */
} walker;

/* The queue node n runs on, with a note when an eligible command stays on
 * graphics. */
static rg_queue assign(const rg_graph *g, qbuild *w, uint32_t n)
{
    uint32_t ci = g->compiled->nodes.first_cmd[n];
    const rg__cmd *c = &g->decl.cmds[ci];
    if (c->queue == RG_QUEUE_GRAPHICS || c->span != RG__NONE || rg__one_queue(g))
        return RG_QUEUE_GRAPHICS;
    if ((c->queue == RG_QUEUE_COMPUTE && !g->caps.compute_queue) ||
        (c->queue == RG_QUEUE_TRANSFER && !g->caps.transfer_queue))
        return RG_QUEUE_GRAPHICS;
    for (uint32_t k = 0; k < c->access_count; k++) {
        const rg__resource *r = &g->decl.resources[g->decl.accesses[c->first_access + k].resource];
        if (!RG__RULE(IMPORTS_STAY_ON_GRAPHICS, r->imported))
            continue;
        rg__queue_note *note = &w->notes[w->note_count++];
        note->cmd = ci;
        int len = snprintf(note->reason, sizeof note->reason, "touches imported %s '%.64s' (its state before "
                           "and after the frame lives on the graphics queue)", r->is_texture ? "texture" : "buffer",
                           r->name);
        (void)len;
        return RG_QUEUE_GRAPHICS;
    }
    return c->queue;
}

static rg_result batch_open(walker *w, rg_queue q)
{
    qbuild *cc = w->b;
    if (!rg__grow(w->g, (void **)&cc->batches, &cc->batch_cap, cc->batch_count + 1, sizeof *cc->batches))
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t b = cc->batch_count++;
    /* No commands yet: first > last (RG__NONE stays for a batch that gets none). */
    cc->batches[b] = (rg__batch){.queue = q, .first = RG__NONE, .last = 0, .signal = ++w->count[q]};
    w->by_signal[q][w->count[q] - 1] = b;
    w->open[q] = b;
    /* Across frames: what the graphics queue did last frame (and, with an
     * opening batch, the history clears) comes first. */
    if (q != RG_QUEUE_GRAPHICS && w->count[q] == 1) {
        cc->batches[b].waits_on[RG_QUEUE_GRAPHICS] = true;
        cc->batches[b].wait[RG_QUEUE_GRAPHICS] = (rg__wait){w->start, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
        if (w->start != RG__NONE)
            w->waited[q][RG_QUEUE_GRAPHICS] = 1;
    }
    return RG_SUCCESS;
}

/* Batch b waits for queue r's batch with signal s (closing it). */
static void wait_for(walker *w, uint32_t b, rg_queue r, uint64_t s)
{
    rg__batch *x = &w->b->batches[b];
    uint32_t target = w->by_signal[r][s - 1];
    x->waits_on[r] = true;
    x->wait[r].batch = target;
    w->waited[x->queue][r] = s;
    if (w->open[r] == target)
        w->open[r] = RG__NONE;
}

/* Adds to need what node n requires from queues other than q: per queue,
 * the latest signal. */
static void node_needs(const walker *w, uint32_t n, rg_queue q, uint64_t *need)
{
    const rg__compiled *cc = w->g->compiled;
    const uint8_t *node_queue = w->b->node_queue;
    const uint64_t *row = &cc->closure.rows[(size_t)n * cc->closure.row_words];
    for (uint32_t wd = 0; wd < cc->closure.row_words; wd++)
        for (uint64_t bits = row[wd]; bits; bits &= bits - 1) {
            uint32_t m = wd * 64 + rg__ctz64(bits);
            if (cc->cull.node_culled[m] || node_queue[m] == q || w->node_signal[m] == 0)
                continue;
            if (w->node_signal[m] > need[node_queue[m]])
                need[node_queue[m]] = w->node_signal[m];
        }
}

/* What the command at pos needs, with the rest of its rendering instance. */
static void needs(const walker *w, uint32_t pos, rg_queue q, uint64_t *need)
{
    const rg_graph *g = w->g;
    const rg__merged *cc = &g->compiled->merge;
    uint32_t ci = cc->order.cmds[pos];
    const rg__cmd *c = &g->decl.cmds[ci];
    memset(need, 0, RG_QUEUE_COUNT * sizeof *need);
    if (c->span == RG__NONE) {
        node_needs(w, rg__node_of(g, ci), q, need);
        return;
    }
    const rg__instance *in = &cc->instances[cc->span_map[c->span].instance];
    for (uint32_t j = 0; j < in->count; j++)
        node_needs(w, rg__node_of(g, g->decl.spans[cc->instance_spans[in->first + j]].begin_cmd), q, need);
}

/* Whether the command at pos ends a unit (a node outside spans, or a
 * rendering instance) that another queue's node needs. */
static bool unit_end(const walker *w, uint32_t pos)
{
    const rg_graph *g = w->g;
    const rg__merged *cc = &g->compiled->merge;
    uint32_t ci = cc->order.cmds[pos], n = rg__node_of(g, ci);
    const rg__cmd *c = &g->decl.cmds[ci];
    if (c->span == RG__NONE)
        return (pos + 1 == cc->order.count || rg__node_of(g, cc->order.cmds[pos + 1]) != n) && w->producer[n];
    const rg__instance *in = &cc->instances[cc->span_map[c->span].instance];
    bool producer = false;
    for (uint32_t j = 0; j < in->count; j++)
        producer = producer || w->producer[rg__node_of(g, g->decl.spans[cc->instance_spans[in->first + j]].begin_cmd)];
    return pos == in->end_pos && producer;
}

/* Whether a node on a queue other than graphics reads a history
 * texture's previous half (its first frame reads the clears). */
static bool history_read_elsewhere(const rg_graph *g, const qbuild *b)
{
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c) || b->node_queue[rg__node_of(g, c)] == RG_QUEUE_GRAPHICS)
            continue;
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__resource *r = &g->decl.resources[g->decl.accesses[cmd->first_access + k].resource];
            if (rg__history(r) && r->history_previous)
                return true;
        }
    }
    return false;
}

/* Per node, whether a node of another queue needs it (through the
 * closure) without needing the next node of its queue in the execution
 * order: closing the batch after it signals that node earlier. */
static rg_result find_producers(const rg_graph *g, const qbuild *b, rg__arena *scratch, uint8_t *producer)
{
    const rg__compiled *cc = g->compiled;
    const uint8_t *node_queue = b->node_queue;
    uint32_t *next = rg__arena_alloc(scratch, ((size_t)cc->nodes.count + 1) * sizeof *next);
    if (!next)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t last[RG_QUEUE_COUNT] = {RG__NONE, RG__NONE, RG__NONE};
    for (uint32_t n = 0; n < cc->nodes.count; n++)
        next[n] = RG__NONE;
    for (uint32_t pos = 0; pos < cc->merge.order.count; pos++) {
        uint32_t n = rg__node_of(g, cc->merge.order.cmds[pos]), q = node_queue[n];
        if (last[q] != n) {
            if (last[q] != RG__NONE)
                next[last[q]] = n;
            last[q] = n;
        }
    }
    for (uint32_t m = 0; m < cc->nodes.count; m++) {
        if (cc->cull.node_culled[m])
            continue;
        const uint64_t *row = &cc->closure.rows[(size_t)m * cc->closure.row_words];
        for (uint32_t wd = 0; wd < cc->closure.row_words; wd++)
            for (uint64_t bits = row[wd]; bits; bits &= bits - 1) {
                uint32_t n = wd * 64 + rg__ctz64(bits);
                if (cc->cull.node_culled[n] || node_queue[n] == node_queue[m])
                    continue;
                uint32_t after = next[n];
                if (after == RG__NONE || !(row[after / 64] >> (after % 64) & 1))
                    producer[n] = 1;
            }
    }
    return RG_SUCCESS;
}

static rg_result walk(walker *w)
{
    const rg_graph *g = w->g;
    const rg__merged *mg = &g->compiled->merge;
    qbuild *cc = w->b;
    uint32_t prev_node = RG__NONE;
    if (history_read_elsewhere(g, cc)) {
        rg_result res = batch_open(w, RG_QUEUE_GRAPHICS);
        if (res != RG_SUCCESS)
            return res;
        w->start = w->open[RG_QUEUE_GRAPHICS];
        w->open[RG_QUEUE_GRAPHICS] = RG__NONE;
    }
    for (uint32_t pos = 0; pos < mg->order.count; pos++) {
        const rg__cmd *c = &g->decl.cmds[mg->order.cmds[pos]];
        uint32_t node = rg__node_of(g, mg->order.cmds[pos]);
        rg_queue q = (rg_queue)cc->node_queue[node];
        /* A span continuing its instance, or a later command of a span:
         * same batch. */
        bool unit_start = node != prev_node &&
                          (c->span == RG__NONE ||
                           mg->instances[mg->span_map[c->span].instance].begin_pos == pos);
        prev_node = node;
        if (unit_start) {
            uint64_t need[RG_QUEUE_COUNT];
            needs(w, pos, q, need);
            bool wait = false;
            for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
                wait = wait || need[r] > w->waited[q][r];
            if (w->open[q] == RG__NONE || wait) {
                rg_result res = batch_open(w, q);
                if (res != RG_SUCCESS)
                    return res;
                for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
                    if (need[r] > w->waited[q][r])
                        wait_for(w, w->open[q], (rg_queue)r, need[r]);
            }
        }
        uint32_t b = w->open[q];
        if (cc->batches[b].first == RG__NONE)
            cc->batches[b].first = pos;
        cc->batches[b].last = pos;
        cc->pos_batch[pos] = b;
        cc->node_batch[node] = b;
        w->node_signal[node] = cc->batches[b].signal;
        /* Another queue waits for this unit: signal as soon as it is done. */
        if (unit_end(w, pos))
            w->open[q] = RG__NONE;
    }
    /* The frame ends on graphics, after every other queue's work at every
     * stage (the next frame's barriers chain after that wait): with
     * several queues, in a batch of its own, so the graphics work before
     * it need not wait. One queue: its only batch. */
    if (cc->batch_count == 0 || cc->queues_used != 1u << RG_QUEUE_GRAPHICS) {
        rg_result res = batch_open(w, RG_QUEUE_GRAPHICS);
        if (res != RG_SUCCESS)
            return res;
        uint32_t b = cc->batch_count - 1;
        for (uint32_t r = 1; r < RG_QUEUE_COUNT; r++)
            if (w->count[r] > 0) {
                wait_for(w, b, (rg_queue)r, w->count[r]);
                cc->batches[b].wait[r].base = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
            }
    }
    return RG_SUCCESS;
}

void rg__queues_free(const rg_graph *g, rg__queues *q)
{
    RG__FREE_ALL(g, q->node_queue, q->resource_queues, q->batches, q->pos_batch, q->node_batch, q->notes);
    *q = (rg__queues){0};
}

rg_result rg__compile_queues(const rg_graph *g, rg__queues *out)
{
    const rg__compiled *in = g->compiled;
    uint32_t nodes = in->nodes.count, positions = in->merge.order.count;
    qbuild b = {
        .node_queue = rg__calloc(g, (size_t)nodes + 1, 1),
        .resource_queues = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *b.resource_queues),
        .pos_batch = rg__calloc(g, (size_t)positions + 1, sizeof *b.pos_batch),
        .node_batch = rg__malloc(g, ((size_t)nodes + 1) * sizeof *b.node_batch),
        .notes = rg__calloc(g, (size_t)nodes + 1, sizeof *b.notes),
    };
    /* The walk's own arrays: scratch, freed at the end. */
    rg__arena scratch = {.g = g};
    walker w = {.g = g, .b = &b, .start = RG__NONE,
                .node_signal = rg__arena_calloc(&scratch, (size_t)nodes + 1, sizeof *w.node_signal),
                .producer = rg__arena_calloc(&scratch, (size_t)nodes + 1, 1)};
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        w.open[q] = RG__NONE;
        w.by_signal[q] = rg__arena_alloc(&scratch, ((size_t)positions + 2) * sizeof *w.by_signal[q]);
    }
    rg_result res = RG_SUCCESS;
    if (!b.node_queue || !b.resource_queues || !b.pos_batch || !b.node_batch || !b.notes || !w.node_signal ||
        !w.producer || !w.by_signal[0] || !w.by_signal[1] || !w.by_signal[2])
        res = RG_ERROR_OUT_OF_MEMORY;
    if (res == RG_SUCCESS) {
        b.queues_used = 1u << RG_QUEUE_GRAPHICS;
        for (uint32_t n = 0; n < nodes; n++) {
            b.node_batch[n] = RG__NONE;
            b.node_queue[n] = (uint8_t)(in->cull.node_culled[n] ? RG_QUEUE_GRAPHICS : assign(g, &b, n));
            if (!in->cull.node_culled[n])
                b.queues_used |= 1u << b.node_queue[n];
        }
        for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
            const rg__cmd *cmd = &g->decl.cmds[c];
            if (rg__culled(g, c))
                continue;
            for (uint32_t k = 0; k < cmd->access_count; k++)
                b.resource_queues[g->decl.accesses[cmd->first_access + k].resource] |=
                    1u << b.node_queue[rg__node_of(g, c)];
        }
        for (uint32_t r = 0; r < g->decl.resource_count; r++) {
            const rg__resource *h = &g->decl.resources[r];
            if (rg__history(h))
                b.resource_queues[r] |= b.resource_queues[h->history_pair];
        }
        res = find_producers(g, &b, &scratch, w.producer);
    }
    if (res == RG_SUCCESS)
        res = walk(&w);
    rg__arena_free(&scratch);
    *out = (rg__queues){
        .node_queue = b.node_queue, .queues_used = b.queues_used, .resource_queues = b.resource_queues,
        .batches = b.batches, .batch_count = b.batch_count, .pos_batch = b.pos_batch, .node_batch = b.node_batch,
        .notes = b.notes, .note_count = b.note_count,
    };
    return res;
}
