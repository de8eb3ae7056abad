/* Graphviz DOT dump of a compiled graph: commands as nodes (spans as
 * clusters, a merged rendering instance as one cluster holding its spans'),
 * hazard edges between nodes (named for the resources they order), a dashed edge between the begin commands of
 * two spans that could merge and did not (labelled with the reason), and
 * each barrier point as a note attached to the command it is recorded
 * before; a graph on several queues draws each queue as a lane and its
 * semaphore waits as bold edges. A graph with neither merged instances nor merge candidates that
 * stayed apart gets no instance clusters and no such edges: its DOT is the
 * plain spans-and-nodes one (scripts/demo_outputs.sh compares DOT files
 * across builds). */
#include "compile/stages.h"
#include "base/names.h"
#include "place/results.h" /* the barriers placement planned, where it did */
#include "report/stages.h"

/* Names are user text: keep them inside the quotes. */
static void put_label(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

/* A culled command is drawn grey and says so. */
static void put_cmd(FILE *f, const rg_graph *g, uint32_t c, const char *indent)
{
    bool culled = rg__culled(g, c);
    fprintf(f, "%sc%u [label=\"#%u ", indent, c, c + 1);
    put_label(f, g->decl.cmds[c].name);
    const char *shape = g->decl.cmds[c].type == RG_COMMAND_TYPE_USER ? "" : ", shape=box";
    fprintf(f, "%s\"%s%s];\n", culled ? " (culled)" : "", shape, culled ? ", color=gray, fontcolor=gray" : "");
}

static void put_barrier(FILE *f, const rg_graph *g, const rg__barrier *b)
{
    const rg__resource *r = b->resource != RG__NONE ? &g->decl.resources[b->resource] : NULL;
    put_label(f, r ? r->name : "memory");
    if (r && r->is_texture)
        fprintf(f, " [a%x m%u+%u l%u+%u] %s->%s", b->range.aspect, b->range.base_mip, b->range.mip_count,
                b->range.base_layer, b->range.layer_count, rg_layout_name(b->old_layout),
                rg_layout_name(b->new_layout));
    fprintf(f, " src %s/%s dst %s/%s%s\\l", RG__STAGES(b->src_stage), RG__ACCESSES(b->src_access),
            RG__STAGES(b->dst_stage), RG__ACCESSES(b->dst_access), b->hoisted ? " (hoisted)" : "");
}

/* The merged instance of span s, or NULL when its instance is s alone. */
static const rg__instance *merged_instance(const rg_graph *g, uint32_t s)
{
    uint32_t ii = g->compiled->merge.span_map[s].instance;
    return ii != RG__NONE && g->compiled->merge.instances[ii].count > 1 ? &g->compiled->merge.instances[ii] : NULL;
}

static uint32_t span_node(const rg_graph *g, uint32_t s) { return rg__node_of(g, g->decl.spans[s].begin_cmd); }

/* A merged instance as one cluster, its spans (in execution order) as
 * clusters inside it. */
static void put_instance(FILE *f, const rg_graph *g, const rg__instance *in)
{
    const uint32_t *spans = &g->compiled->merge.instance_spans[in->first];
    fprintf(f, "  subgraph cluster_i%u {\n    label=\"instance: ", g->compiled->merge.span_map[spans[0]].instance);
    for (uint32_t k = 0; k < in->count; k++) {
        fputs(k ? " + " : "", f);
        put_label(f, g->decl.cmds[g->decl.spans[spans[k]].begin_cmd].name);
    }
    fprintf(f, " (merged)\";\n");
    for (uint32_t k = 0; k < in->count; k++) {
        uint32_t n = span_node(g, spans[k]);
        uint32_t first = g->compiled->nodes.first_cmd[n], end = g->compiled->nodes.first_cmd[n + 1];
        fprintf(f, "    subgraph cluster_%u {\n      label=\"span ", n);
        put_label(f, g->decl.cmds[first].name);
        fprintf(f, " (level %u)\";\n", g->compiled->levels.node_level[n]);
        for (uint32_t c = first; c < end; c++)
            put_cmd(f, g, c, "      ");
        for (uint32_t c = first; c + 1 < end; c++)
            fprintf(f, "      c%u -> c%u [style=dotted];\n", c, c + 1);
        fprintf(f, "    }\n");
    }
    fprintf(f, "  }\n");
}

/* Node n: a command, a span's cluster, or (at its first span) a merged
 * instance's. */
static void put_node(FILE *f, const rg_graph *g, uint32_t n)
{
    uint32_t first = g->compiled->nodes.first_cmd[n], end = g->compiled->nodes.first_cmd[n + 1];
    bool span = g->decl.cmds[first].span != RG__NONE;
    const rg__instance *in = span ? merged_instance(g, g->decl.cmds[first].span) : NULL;
    if (in) {
        /* Drawn whole where its first span's node comes. */
        if (n == span_node(g, g->compiled->merge.instance_spans[in->first]))
            put_instance(f, g, in);
        return;
    }
    if (span) {
        fprintf(f, "  subgraph cluster_%u {\n    label=\"span ", n);
        put_label(f, g->decl.cmds[first].name);
        if (g->compiled->cull.node_culled[n])
            fprintf(f, " (culled)\";\n    color=gray;\n    fontcolor=gray;\n");
        else
            fprintf(f, " (level %u)\";\n", g->compiled->levels.node_level[n]);
    }
    for (uint32_t c = first; c < end; c++)
        put_cmd(f, g, c, span ? "    " : "  ");
    for (uint32_t c = first; c + 1 < end; c++) /* record order inside a span */
        fprintf(f, "    c%u -> c%u [style=dotted];\n", c, c + 1);
    if (span)
        fprintf(f, "  }\n");
}

/* The last command of a batch (the node of a position ends there). */
/* The DOT node of batch b's end: its last command, or the batch itself
 * when it has none. */
static void put_batch_end(FILE *f, const rg_graph *g, uint32_t b)
{
    const rg__batch *x = &g->compiled->queues.batches[b];
    if (x->first == RG__NONE)
        fprintf(f, "q%u", b);
    else
        fprintf(f, "c%u", g->compiled->merge.order.cmds[x->last]);
}

/* A graph on several queues: each queue a lane (cluster) of its nodes;
 * each semaphore wait a bold edge from the last command of the batch
 * waited for to the first of the waiting one, labelled with the signal
 * and the wait's stages; batches without commands (the frame's end, and
 * its opening batch for history clears) a node each. */
static void put_lanes(FILE *f, const rg_graph *g)
{
    static const char *colors[RG_QUEUE_COUNT] = {"black", "blue", "darkgreen"};
    const rg__compiled *cc = g->compiled;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        if (!(cc->queues.queues_used & (1u << q)))
            continue;
        fprintf(f, "subgraph cluster_queue_%s {\n  label=\"%s queue\";\n  color=%s;\n", rg_queue_name((rg_queue)q),
                rg_queue_name((rg_queue)q), colors[q]);
        for (uint32_t n = 0; n < cc->nodes.count; n++)
            if (cc->queues.node_queue[n] == q)
                put_node(f, g, n);
        fprintf(f, "}\n");
    }
    for (uint32_t b = 0; b < cc->queues.batch_count; b++) {
        const rg__batch *x = &cc->queues.batches[b];
        bool empty = x->first == RG__NONE;
        if (empty)
            fprintf(f, "  q%u [shape=doublecircle, label=\"%s\\n%s batch %u\"];\n", b,
                    b + 1 == cc->queues.batch_count ? "frame end" : "frame start", rg_queue_name(x->queue), b);
        for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++) {
            if (!x->waits_on[r] || x->wait[r].batch == RG__NONE)
                continue;
            const rg__batch *w = &cc->queues.batches[x->wait[r].batch];
            fprintf(f, "  ");
            put_batch_end(f, g, x->wait[r].batch);
            fprintf(f, " -> ");
            if (empty)
                fprintf(f, "q%u", b);
            else
                fprintf(f, "c%u", cc->merge.order.cmds[x->first]);
            fprintf(f, " [style=bold, color=%s, label=\"%s #%llu, wait %s\"];\n", colors[r],
                    rg_queue_name((rg_queue)r), (unsigned long long)w->signal, RG__STAGES(rg__wait_stage(g, b, r)));
        }
    }
}

/* Node n's accesses, [*first, *end): its commands' are contiguous. */
static void node_accesses(const rg_graph *g, uint32_t n, uint32_t *first, uint32_t *end)
{
    const uint32_t *first_cmd = g->compiled->nodes.first_cmd;
    *first = g->decl.cmds[first_cmd[n]].first_access;
    *end = first_cmd[n + 1] < g->decl.cmd_count ? g->decl.cmds[first_cmd[n + 1]].first_access : g->decl.access_count;
}

/* Whether node `from` and the access at ai conflict on its resource: one
 * of the two writes it, or they use the texture in different layouts (the
 * transition writes it; a pixel-local read has a layout of its own). */
static bool conflicts(const rg_graph *g, uint32_t from, uint32_t ai)
{
    const rg__access *b = &g->decl.accesses[ai];
    uint32_t first, end;
    node_accesses(g, from, &first, &end);
    for (uint32_t k = first; k < end; k++) {
        const rg__access *a = &g->decl.accesses[k];
        if (a->resource == b->resource && a->role != RG__ROLE_LIFETIME &&
            (a->write || b->write || a->layout != b->layout || a->local != b->local))
            return true;
    }
    return false;
}

/* A hazard edge, labelled with the resources it orders (at most three
 * names, then how many more); none for an order the declaration alone
 * makes. */
static void put_edge(FILE *f, const rg_graph *g, uint32_t from, uint32_t to)
{
    const uint32_t *first_cmd = g->compiled->nodes.first_cmd;
    fprintf(f, "  c%u -> c%u", first_cmd[from + 1] - 1, first_cmd[to]);
    uint32_t first, end, named = 0, more = 0;
    node_accesses(g, to, &first, &end);
    for (uint32_t ai = first; ai < end; ai++) {
        uint32_t r = g->decl.accesses[ai].resource;
        bool seen = false;
        for (uint32_t k = first; k < ai && !seen; k++)
            seen = g->decl.accesses[k].resource == r && g->decl.accesses[k].role != RG__ROLE_LIFETIME &&
                   conflicts(g, from, k);
        if (seen || g->decl.accesses[ai].role == RG__ROLE_LIFETIME || !conflicts(g, from, ai))
            continue;
        if (named == 3) {
            more++;
            continue;
        }
        fprintf(f, named++ ? ", " : " [label=\"");
        put_label(f, g->decl.resources[r].name);
    }
    if (more)
        fprintf(f, " +%u", more);
    fprintf(f, named ? "\"];\n" : ";\n");
}

static void write_graph(FILE *f, const rg_graph *g)
{
    fprintf(f, "digraph \"");
    put_label(f, g->name);
    fprintf(f, "\" {\n  node [fontname=monospace];\n");
    if (g->compiled->queues.queues_used != 1u << RG_QUEUE_GRAPHICS)
        put_lanes(f, g);
    else
        for (uint32_t n = 0; n < g->compiled->nodes.count; n++)
            put_node(f, g, n);
    /* Hazard edges from the last command of the earlier node to the first
     * of the later one, named for what they order. */
    for (uint32_t e = 0; e < g->compiled->closure.reduced_count; e++)
        put_edge(f, g, g->compiled->closure.reduced[2 * e], g->compiled->closure.reduced[2 * e + 1]);
    for (uint32_t i = 0; i < g->compiled->merge.merge_count; i++) {
        const rg__merge_note *m = &g->compiled->merge.merges[i];
        if (!m->reason[0])
            continue;
        fprintf(f, "  c%u -> c%u [style=dashed, constraint=false, label=\"not merged: ",
                g->decl.spans[m->first].begin_cmd, g->decl.spans[m->second].begin_cmd);
        put_label(f, m->reason);
        fprintf(f, "\"];\n");
    }
    for (uint32_t p = 0; p <= g->compiled->merge.order.count; p++) {
        uint32_t b0 = rg__sync_of(g)->point_start[p], b1 = rg__sync_of(g)->point_start[p + 1];
        if (b0 == b1)
            continue;
        fprintf(f, "  b%u [shape=note, label=\"", p);
        for (uint32_t b = b0; b < b1; b++)
            put_barrier(f, g, &rg__sync_of(g)->barriers[b]);
        if (p < g->compiled->merge.order.count)
            fprintf(f, "\"];\n  b%u -> c%u [style=dashed, arrowhead=none];\n", p, g->compiled->merge.order.cmds[p]);
        else
            fprintf(f, "\"];\n");
    }
    fprintf(f, "}\n");
}

rg_result rg_write_dot(const rg_graph *graph, const char *path)
{
    rg_result r = rg__query_begin(graph, "rg_write_dot", path, "path");
    if (r != RG_SUCCESS)
        return r;
    if (graph->status->state == RG__FAILED || graph->status->state < RG__COMPILED)
        return rg__report(graph, RG_ERROR_NOT_COMPILED, "rg_write_dot: graph '%s' is not compiled", graph->name);
    FILE *f = NULL;
    if ((r = rg__report_open(graph, "rg_write_dot", path, &f)) != RG_SUCCESS)
        return r;
    write_graph(f, graph);
    return rg__report_close(graph, "rg_write_dot", path, f);
}
