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
#include "graph_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walker {
    rg_graph *g;
    uint32_t open[RG_QUEUE_COUNT];                  /* open batch per queue, RG__NONE */
    uint64_t count[RG_QUEUE_COUNT];                 /* batches per queue so far */
    uint64_t waited[RG_QUEUE_COUNT][RG_QUEUE_COUNT];/* [q][r]: r's signal q waited for */
    uint32_t *by_signal[RG_QUEUE_COUNT];            /* per queue: batch index of signal s at s - 1 */
    uint64_t *node_signal;                          /* per node: its batch's signal */
    uint32_t start;                                 /* the frame's opening graphics batch, RG__NONE */
    uint8_t *producer;                              /* per node: another queue's node needs it, and
                                                       not the next node of its own queue */
    uint32_t batch_cap;
} walker;

/* The queue node n runs on, with a note when an eligible command stays on
 * graphics. */
static rg_queue assign(rg_graph *g, uint32_t n)
{
    const rg__compiled *cc = &g->compiled;
    uint32_t ci = cc->node_first_cmd[n];
    const rg__cmd *c = &g->decl.cmds[ci];
    if (c->queue == RG_QUEUE_GRAPHICS || c->span != RG__NONE || g->single_queue)
        return RG_QUEUE_GRAPHICS;
    if ((c->queue == RG_QUEUE_COMPUTE && !g->caps.compute_queue) ||
        (c->queue == RG_QUEUE_TRANSFER && !g->caps.transfer_queue))
        return RG_QUEUE_GRAPHICS;
    for (uint32_t k = 0; k < c->access_count; k++) {
        const rg__resource *r = &g->decl.resources[g->decl.accesses[c->first_access + k].resource];
        if (!r->imported)
            continue;
        rg__compiled *w = &g->compiled;
        rg__queue_note *note = &w->queue_notes[w->queue_note_count++];
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
    rg__compiled *cc = &w->g->compiled;
    if (!rg__grow(w->g, (void **)&cc->batches, &w->batch_cap, cc->batch_count + 1, sizeof *cc->batches))
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
        cc->batches[b].wait[RG_QUEUE_GRAPHICS] = (rg__wait){w->start, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
        if (w->start != RG__NONE)
            w->waited[q][RG_QUEUE_GRAPHICS] = 1;
    }
    return RG_SUCCESS;
}

/* Batch b waits for queue r's batch with signal s (closing it). */
static void wait_for(walker *w, uint32_t b, rg_queue r, uint64_t s)
{
    rg__batch *x = &w->g->compiled.batches[b];
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
    const rg__compiled *cc = &w->g->compiled;
    const uint64_t *row = &cc->closure[(size_t)n * cc->row_words];
    for (uint32_t wd = 0; wd < cc->row_words; wd++)
        for (uint64_t bits = row[wd]; bits; bits &= bits - 1) {
            uint32_t m = wd * 64 + (uint32_t)__builtin_ctzll(bits);
            if (cc->node_culled[m] || cc->node_queue[m] == q || w->node_signal[m] == 0)
                continue;
            if (w->node_signal[m] > need[cc->node_queue[m]])
                need[cc->node_queue[m]] = w->node_signal[m];
        }
}

/* What the command at pos needs, with the rest of its rendering instance. */
static void needs(const walker *w, uint32_t pos, rg_queue q, uint64_t *need)
{
    const rg_graph *g = w->g;
    const rg__compiled *cc = &g->compiled;
    const rg__cmd *c = &g->decl.cmds[cc->order[pos]];
    memset(need, 0, RG_QUEUE_COUNT * sizeof *need);
    if (c->span == RG__NONE) {
        node_needs(w, c->node, q, need);
        return;
    }
    const rg__instance *in = &cc->instances[cc->span_map[c->span].instance];
    for (uint32_t j = 0; j < in->count; j++)
        node_needs(w, g->decl.cmds[g->decl.spans[cc->instance_spans[in->first + j]].begin_cmd].node, q, need);
}

/* Whether the command at pos ends a unit (a node outside spans, or a
 * rendering instance) that another queue's node needs. */
static bool unit_end(const walker *w, uint32_t pos)
{
    const rg_graph *g = w->g;
    const rg__compiled *cc = &g->compiled;
    const rg__cmd *c = &g->decl.cmds[cc->order[pos]];
    if (c->span == RG__NONE)
        return (pos + 1 == cc->order_count || g->decl.cmds[cc->order[pos + 1]].node != c->node) &&
               w->producer[c->node];
    const rg__instance *in = &cc->instances[cc->span_map[c->span].instance];
    bool producer = false;
    for (uint32_t j = 0; j < in->count; j++)
        producer = producer ||
                   w->producer[g->decl.cmds[g->decl.spans[cc->instance_spans[in->first + j]].begin_cmd].node];
    return pos == in->end_pos && producer;
}

/* Whether a node on a queue other than graphics reads a history
 * texture's previous half (its first frame reads the clears). */
static bool history_read_elsewhere(const rg_graph *g)
{
    const rg__compiled *cc = &g->compiled;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c) || cc->node_queue[cmd->node] == RG_QUEUE_GRAPHICS)
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
static rg_result find_producers(const rg_graph *g, uint8_t *producer)
{
    const rg__compiled *cc = &g->compiled;
    uint32_t *next = rg__malloc(g, ((size_t)cc->node_count + 1) * sizeof *next);
    if (!next)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t last[RG_QUEUE_COUNT] = {RG__NONE, RG__NONE, RG__NONE};
    for (uint32_t n = 0; n < cc->node_count; n++)
        next[n] = RG__NONE;
    for (uint32_t pos = 0; pos < cc->order_count; pos++) {
        uint32_t n = g->decl.cmds[cc->order[pos]].node, q = cc->node_queue[n];
        if (last[q] != n) {
            if (last[q] != RG__NONE)
                next[last[q]] = n;
            last[q] = n;
        }
    }
    for (uint32_t m = 0; m < cc->node_count; m++) {
        if (cc->node_culled[m])
            continue;
        const uint64_t *row = &cc->closure[(size_t)m * cc->row_words];
        for (uint32_t wd = 0; wd < cc->row_words; wd++)
            for (uint64_t bits = row[wd]; bits; bits &= bits - 1) {
                uint32_t n = wd * 64 + (uint32_t)__builtin_ctzll(bits);
                if (cc->node_culled[n] || cc->node_queue[n] == cc->node_queue[m])
                    continue;
                uint32_t after = next[n];
                if (after == RG__NONE || !(row[after / 64] >> (after % 64) & 1))
                    producer[n] = 1;
            }
    }
    rg__free(g, next);
    return RG_SUCCESS;
}

static rg_result walk(walker *w)
{
    rg_graph *g = w->g;
    rg__compiled *cc = &g->compiled;
    uint32_t prev_node = RG__NONE;
    if (history_read_elsewhere(g)) {
        rg_result res = batch_open(w, RG_QUEUE_GRAPHICS);
        if (res != RG_SUCCESS)
            return res;
        w->start = w->open[RG_QUEUE_GRAPHICS];
        w->open[RG_QUEUE_GRAPHICS] = RG__NONE;
    }
    for (uint32_t pos = 0; pos < cc->order_count; pos++) {
        const rg__cmd *c = &g->decl.cmds[cc->order[pos]];
        rg_queue q = (rg_queue)cc->node_queue[c->node];
        /* A span continuing its instance, or a later command of a span:
         * same batch. */
        bool unit_start = c->node != prev_node &&
                          (c->span == RG__NONE ||
                           cc->instances[cc->span_map[c->span].instance].begin_pos == pos);
        prev_node = c->node;
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
        cc->node_batch_of[c->node] = b;
        w->node_signal[c->node] = cc->batches[b].signal;
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

static void queues_free(const rg_graph *g, rg__compiled *cc)
{
    rg__free(g, cc->node_queue);
    rg__free(g, cc->resource_queues);
    rg__free(g, cc->batches);
    rg__free(g, cc->pos_batch);
    rg__free(g, cc->node_batch_of);
    rg__free(g, cc->queue_notes);
    cc->node_queue = NULL;
    cc->resource_queues = cc->pos_batch = cc->node_batch_of = NULL;
    cc->batches = NULL;
    cc->queue_notes = NULL;
    cc->batch_count = cc->queue_note_count = cc->queues_used = 0;
}

rg_result rg__compile_queues(rg_graph *g)
{
    rg__compiled *cc = &g->compiled;
    queues_free(g, cc);
    uint32_t nodes = cc->node_count;
    cc->node_queue = rg__calloc(g, (size_t)nodes + 1, 1);
    cc->resource_queues = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *cc->resource_queues);
    cc->pos_batch = rg__calloc(g, (size_t)cc->order_count + 1, sizeof *cc->pos_batch);
    cc->node_batch_of = rg__malloc(g, ((size_t)nodes + 1) * sizeof *cc->node_batch_of);
    cc->queue_notes = rg__calloc(g, (size_t)nodes + 1, sizeof *cc->queue_notes);
    walker w = {.g = g, .start = RG__NONE, .node_signal = rg__calloc(g, (size_t)nodes + 1, sizeof *w.node_signal),
                .producer = rg__calloc(g, (size_t)nodes + 1, 1)};
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        w.open[q] = RG__NONE;
        w.by_signal[q] = rg__malloc(g, ((size_t)cc->order_count + 2) * sizeof *w.by_signal[q]);
    }
    rg_result res = RG_SUCCESS;
    if (!cc->node_queue || !cc->resource_queues || !cc->pos_batch || !cc->node_batch_of || !cc->queue_notes ||
        !w.node_signal || !w.producer || !w.by_signal[0] || !w.by_signal[1] || !w.by_signal[2])
        res = RG_ERROR_OUT_OF_MEMORY;
    if (res == RG_SUCCESS) {
        cc->queues_used = 1u << RG_QUEUE_GRAPHICS;
        for (uint32_t n = 0; n < nodes; n++) {
            cc->node_batch_of[n] = RG__NONE;
            cc->node_queue[n] = (uint8_t)(cc->node_culled[n] ? RG_QUEUE_GRAPHICS : assign(g, n));
            if (!cc->node_culled[n])
                cc->queues_used |= 1u << cc->node_queue[n];
        }
        for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
            const rg__cmd *cmd = &g->decl.cmds[c];
            if (rg__culled(g, c))
                continue;
            for (uint32_t k = 0; k < cmd->access_count; k++)
                cc->resource_queues[g->decl.accesses[cmd->first_access + k].resource] |=
                    1u << cc->node_queue[cmd->node];
        }
        for (uint32_t r = 0; r < g->decl.resource_count; r++) {
            const rg__resource *h = &g->decl.resources[r];
            if (rg__history(h))
                cc->resource_queues[r] |= cc->resource_queues[h->history_pair];
        }
        res = find_producers(g, w.producer);
    }
    if (res == RG_SUCCESS)
        res = walk(&w);
    rg__free(g, w.node_signal);
    rg__free(g, w.producer);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        rg__free(g, w.by_signal[q]);
    if (res != RG_SUCCESS)
        queues_free(g, cc);
    return res;
}
