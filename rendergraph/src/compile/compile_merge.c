/* Compile stage "merge": rendering instances. Every span is an instance of
 * its own unless it merges into the instance of the span right before it
 * (the rules are in rendergraph.h, "Merging"): then the two share one
 * vkCmdBeginRendering, a by-region barrier sits between them, and the
 * attachments the later span reads pixel-locally are input attachments in
 * RENDERING_LOCAL_READ layout.
 *
 * 1. Candidates: a span S reading pixel-locally exactly what an attachment
 *    of span P wrote last (one forward walk keeps each subresource's last
 *    writer).
 * 2. Adjacency: when merging is on and P and S pass the pairwise rules,
 *    the nodes between them are moved out where the closure allows: those
 *    S needs but P does not go before P, those S does not need go after S.
 * 3. Instances: the spans in the new order, each joining the instance
 *    before it when it directly follows it, reads one of its attachments
 *    pixel-locally, and passes the rules against the whole instance.
 * 4. The instance's attachments (union, load of the first span naming
 *    each, store of the last; a created texture used nowhere else is
 *    discarded), each span's locations and input indices, and each
 *    access's mode.
 * Candidate pairs that did not merge keep the reason.
 */
#include "base/rules.h"
#include "compile/stages.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool rg_merge_by_default(VkDriverId driver)
{
    switch (driver) {
    case VK_DRIVER_ID_ARM_PROPRIETARY:
    case VK_DRIVER_ID_QUALCOMM_PROPRIETARY:
    case VK_DRIVER_ID_IMAGINATION_PROPRIETARY:
    case VK_DRIVER_ID_MESA_TURNIP:
    case VK_DRIVER_ID_MESA_PANVK:
        return true;
    default:
        return false;
    }
}

typedef struct merger {
    const rg_graph *g;
    /* The result under construction, published as rg__merged. */
    uint32_t *order;
    uint32_t order_count;
    rg__instance *instances;
    uint32_t instance_count;
    uint32_t *instance_spans;
    rg__span_map *span_map;
    uint8_t *access_mode;
    rg__merge_note *merges;
    uint32_t merge_count;
    VkImageUsageFlags *usage;
    uint32_t *nodes;                  /* node sequence of the order */
    uint32_t node_len;
    uint32_t *node_pos;               /* per node: index in nodes */
    uint32_t *cand;                   /* per span: the producer span of a pixel-local read, or RG__NONE */
    const char *off;                  /* why merging is off, NULL when on */
} merger;

static const rg__span *span_of(const rg_graph *g, uint32_t s) { return &g->decl.spans[s]; }

static uint32_t span_node(const rg_graph *g, uint32_t s) { return rg__node_of(g, g->decl.spans[s].begin_cmd); }

static bool closure_has(const rg_graph *g, uint32_t row, uint32_t node)
{
    return (g->compiled->closure.rows[(size_t)row * g->compiled->closure.row_words + node / 64] >> (node % 64)) & 1u;
}

/* ------------------------------------------------------------ candidates */

/* Per span, the span whose attachment last wrote what it reads
 * pixel-locally (the first such read decides). */
static rg_result find_candidates(merger *m)
{
    const rg_graph *g = m->g;
    uint32_t *last = rg__malloc(g, ((size_t)g->decl.sub_total + 1) * sizeof *last);
    if (!last)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < g->decl.sub_total; i++)
        last[i] = RG__NONE;
    const rg__order *in = &g->compiled->schedule.order;
    for (uint32_t pos = 0; pos < in->count; pos++) {
        const rg__cmd *cmd = &g->decl.cmds[in->cmds[pos]];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            uint32_t ai = cmd->first_access + k;
            const rg__access *a = &g->decl.accesses[ai];
            const rg__resource *r = &g->decl.resources[a->resource];
            if (!r->is_texture || a->role == RG__ROLE_LIFETIME)
                continue;
            if (a->local && m->cand[cmd->span] == RG__NONE) {
                /* Every subresource read was last written by one attachment
                 * access of exactly this range. */
                uint32_t writer = last[rg__sub_slot(r, (VkImageAspectFlagBits)(a->range.aspect & -a->range.aspect),
                                                   a->range.base_mip, a->range.base_layer)];
                bool same = writer != RG__NONE;
                for (uint32_t bits = a->range.aspect; bits && same; bits &= bits - 1)
                    for (uint32_t mip = a->range.base_mip; mip < a->range.base_mip + a->range.mip_count; mip++)
                        for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++)
                            same = same && last[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), mip, l)] ==
                                               writer;
                const rg__access *w = same ? &g->decl.accesses[writer] : NULL;
                if (w && w->role == RG__ROLE_ATTACHMENT && rg__ranges_equal(&w->range, &a->range) &&
                    g->decl.cmds[rg__access_cmd(g, writer)].span != cmd->span)
                    m->cand[cmd->span] = g->decl.cmds[rg__access_cmd(g, writer)].span;
            }
            if (a->write)
                for (uint32_t bits = a->range.aspect; bits; bits &= bits - 1)
                    for (uint32_t mip = a->range.base_mip; mip < a->range.base_mip + a->range.mip_count; mip++)
                        for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++)
                            last[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), mip, l)] = ai;
        }
    }
    rg__free(g, last);
    return RG_SUCCESS;
}

/* ------------------------------------------------------------- adjacency */

static void node_positions(merger *m)
{
    for (uint32_t i = 0; i < m->node_len; i++)
        m->node_pos[m->nodes[i]] = i;
}

/* Moves the nodes between P and S out of the way where the closure allows;
 * false (with the reason) when a node must stay between them. */
static bool make_adjacent(merger *m, uint32_t p_node, uint32_t s_node, uint32_t *scratch, char *reason)
{
    const rg_graph *g = m->g;
    uint32_t pp = m->node_pos[p_node], sp = m->node_pos[s_node];
    if (sp == pp + 1)
        return true;
    for (uint32_t i = pp + 1; i < sp; i++) {
        uint32_t x = m->nodes[i];
        if (closure_has(g, s_node, x) && closure_has(g, x, p_node))
            return rg__merge_why(reason, "'%s' must run between them",
                                 g->decl.cmds[g->compiled->nodes.first_cmd[x]].name);
    }
    /* [S needs, not after P] P [S] [S does not need], relative order kept. */
    uint32_t n = 0;
    for (uint32_t i = pp + 1; i < sp; i++)
        if (closure_has(g, s_node, m->nodes[i]))
            scratch[n++] = m->nodes[i];
    scratch[n++] = p_node;
    scratch[n++] = s_node;
    for (uint32_t i = pp + 1; i < sp; i++)
        if (!closure_has(g, s_node, m->nodes[i]))
            scratch[n++] = m->nodes[i];
    memcpy(&m->nodes[pp], scratch, n * sizeof *scratch);
    node_positions(m);
    return true;
}

/* ------------------------------------------------------------- instances */

static bool note(merger *c, uint32_t first, uint32_t second, const char *reason)
{
    const rg_graph *g = c->g;
    rg__merge_note *n = rg__realloc(g, c->merges, ((size_t)c->merge_count + 1) * sizeof *n);
    if (!n)
        return false;
    c->merges = n;
    n = &c->merges[c->merge_count++];
    n->first = first;
    n->second = second;
    snprintf(n->reason, sizeof n->reason, "%s", reason);
    return true;
}

static uint32_t find_color(const rg_graph *g, const rg__instance *in, const rg_attachment *a)
{
    for (uint32_t u = 0; u < in->color_count; u++) {
        const rg_attachment *x = &span_of(g, in->colors[u].span)->desc.colors[in->colors[u].slot];
        if (rg__same_view(g, x, a))
            return u;
    }
    return RG__NONE;
}

/* Every access of resource r by a kept command (total: their count per
 * resource) lies in the instance's spans. */
static bool only_in_instance(const merger *m, const rg__instance *in, uint32_t r, const uint32_t *total)
{
    const rg_graph *g = m->g;
    uint32_t inside = 0;
    for (uint32_t i = 0; i < in->count; i++) {
        uint32_t f, e;
        rg__span_accesses(g, m->instance_spans[in->first + i], &f, &e);
        for (uint32_t a = f; a < e; a++)
            inside += g->decl.accesses[a].resource == r;
    }
    return inside == total[r];
}

/* Per resource, the accesses of kept commands (only_in_instance's total),
 * counted once for every instance. NULL when out of memory. */
static uint32_t *kept_accesses(const rg_graph *g)
{
    uint32_t *total = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *total);
    for (uint32_t c = 0; total && c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        for (uint32_t k = 0; k < cmd->access_count && !rg__culled(g, c); k++)
            total[g->decl.accesses[cmd->first_access + k].resource]++;
    }
    return total;
}

/* Adds span s's attachments to instance in (the first span naming one loads it, the last stores it). */
static void add_span_attachments(const rg_graph *g, rg__instance *in, uint32_t s)
{
    const rg_rendering_desc *d = &span_of(g, s)->desc;
    for (uint32_t j = 0; j < d->color_count; j++) {
        uint32_t u = find_color(g, in, &d->colors[j]);
        if (u == RG__NONE) {
            u = in->color_count++;
            in->colors[u] = (rg__inst_att){rg__texture_index(g, d->colors[j].texture), s, j, s, j,
                                           VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, d->colors[j].store};
        }
        in->colors[u].last_span = s;
        in->colors[u].last_slot = j;
        in->colors[u].store = d->colors[j].store;
    }
    if (d->depth.texture.id) {
        if (!in->has_depth)
            in->depth = (rg__inst_att){rg__texture_index(g, d->depth.texture), s, RG__SLOT_DEPTH, s, RG__SLOT_DEPTH,
                                       d->depth_read_only ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                                          : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                       d->depth.store};
        in->has_depth = true;
        in->depth.last_span = s;
        in->depth.store = d->depth.store;
    }
}

/* Span s's map in instance in: its color locations, no input indices yet. */
static void map_locations(const rg_graph *g, const rg__instance *in, uint32_t s, rg__span_map *map)
{
    const rg_rendering_desc *d = &span_of(g, s)->desc;
    for (uint32_t u = 0; u < RG_MAX_COLOR_ATTACHMENTS; u++) {
        map->locations[u] = u < in->color_count ? VK_ATTACHMENT_UNUSED : 0;
        map->inputs[u] = VK_ATTACHMENT_UNUSED;
    }
    map->depth_input = VK_ATTACHMENT_UNUSED;
    for (uint32_t j = 0; j < d->color_count; j++)
        map->locations[find_color(g, in, &d->colors[j])] = j;
}

/* The instance attachment pixel-local read a reads, its input index in *index; NULL when none. */
static rg__inst_att *local_target(const rg_graph *g, rg__instance *in, rg__span_map *map, const rg__access *a,
                                  uint32_t **index)
{
    for (uint32_t u = 0; u < in->color_count; u++) {
        const rg_attachment *x = &span_of(g, in->colors[u].span)->desc.colors[in->colors[u].slot];
        if (in->colors[u].resource == a->resource && x->mip == a->range.base_mip &&
            x->base_layer == a->range.base_layer && x->layer_count == a->range.layer_count && a->range.mip_count == 1) {
            *index = &map->inputs[u];
            return &in->colors[u];
        }
    }
    if (in->has_depth && in->depth.resource == a->resource) {
        const rg_attachment *x = &span_of(g, in->depth.span)->desc.depth;
        if (x->mip == a->range.base_mip && x->base_layer == a->range.base_layer &&
            x->layer_count == a->range.layer_count && a->range.mip_count == 1) {
            *index = &map->depth_input;
            return &in->depth;
        }
    }
    return NULL;
}

/* Span s's pixel-local reads of the instance's attachments: inputs, numbered in declaration order. */
static void number_inputs(merger *m, rg__instance *in, uint32_t s)
{
    const rg_graph *g = m->g;
    uint32_t f, e, next = 0;
    rg__span_accesses(g, s, &f, &e);
    for (uint32_t ai = f; ai < e; ai++) {
        const rg__access *a = &g->decl.accesses[ai];
        if (!a->local)
            continue;
        uint32_t *index = NULL;
        rg__inst_att *att = local_target(g, in, &m->span_map[s], a, &index);
        if (!att)
            continue; /* not the instance's: stays a sampled read */
        if (*index == VK_ATTACHMENT_UNUSED)
            *index = next++;
        att->layout = VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR;
        m->access_mode[ai] = RG__MODE_INPUT;
    }
}

/* Discards created textures nothing outside the instance uses (a history texture's next frame reads it). */
static void discard_unshared(const merger *m, rg__instance *in, const uint32_t *total)
{
    const rg_graph *g = m->g;
    for (uint32_t u = 0; u <= in->color_count; u++) {
        rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
        const rg__resource *r = att ? &g->decl.resources[att->resource] : NULL;
        if (r && !r->imported && !rg__history(r) && only_in_instance(m, in, att->resource, total))
            att->store = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    }
}

/* The attachment accesses of textures the instance keeps in RENDERING_LOCAL_READ use that layout. */
static void mark_local_layouts(merger *m, const rg__instance *in)
{
    const rg_graph *g = m->g;
    for (uint32_t k = 0; k < in->count; k++) {
        uint32_t f, e, s = m->instance_spans[in->first + k];
        rg__span_accesses(g, s, &f, &e);
        for (uint32_t ai = f; ai < e; ai++) {
            const rg__access *a = &g->decl.accesses[ai];
            if (a->role != RG__ROLE_ATTACHMENT && a->role != RG__ROLE_LIFETIME)
                continue;
            for (uint32_t u = 0; u <= in->color_count; u++) {
                const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
                if (att && att->resource == a->resource && att->layout == VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR)
                    m->access_mode[ai] = RG__MODE_LOCAL_LAYOUT;
            }
        }
    }
}

/* Attachments, locations, input indices and access modes of instance ii. */
static void build_instance(merger *m, uint32_t ii, const uint32_t *total)
{
    const rg_graph *g = m->g;
    rg__instance *in = &m->instances[ii];
    bool merged = in->count > 1;
    for (uint32_t k = 0; k < in->count; k++) {
        uint32_t s = m->instance_spans[in->first + k];
        m->span_map[s].instance = ii;
        add_span_attachments(g, in, s);
    }
    for (uint32_t k = 0; k < in->count; k++) {
        uint32_t s = m->instance_spans[in->first + k];
        map_locations(g, in, s, &m->span_map[s]);
        if (merged && k > 0)
            number_inputs(m, in, s);
    }
    if (!merged)
        return;
    discard_unshared(m, in, total);
    mark_local_layouts(m, in);
}

void rg__merged_free(const rg_graph *g, rg__merged *m)
{
    rg__order_free(g, &m->order);
    RG__FREE_ALL(g, m->instances, m->instance_spans, m->span_map, m->access_mode, m->merges, m->usage);
    *m = (rg__merged){0};
}

/* Why merging is off for this graph, or NULL. */
static const char *merging_off(const rg_graph *g)
{
    if (RG__RULE(MERGE_FORCED_OFF, g->merge == RG_MERGE_OFF))
        return rg__rule_text(RG__RULE_MERGE_FORCED_OFF);
    if (RG__RULE(MERGE_NEEDS_LOCAL_READ, !g->caps.local_read))
        return rg__rule_text(RG__RULE_MERGE_NEEDS_LOCAL_READ);
    if (RG__RULE(MERGE_DRIVER_DEFAULT, g->merge == RG_MERGE_AUTO && !g->merge_by_default))
        return rg__rule_text(RG__RULE_MERGE_DRIVER_DEFAULT);
    return NULL;
}

/* The node sequence of the schedule's order, and each node's position in it. */
static void node_sequence(merger *m)
{
    const rg_graph *g = m->g;
    const rg__order *from = &g->compiled->schedule.order;
    for (uint32_t p = 0; p < from->count; p++) {
        uint32_t n = rg__node_of(g, from->cmds[p]);
        if (m->node_len == 0 || m->nodes[m->node_len - 1] != n)
            m->nodes[m->node_len++] = n;
    }
    node_positions(m);
}

/* Step 2: each candidate pair that passes the pairwise rules made adjacent; else the reason in reasons. */
static void adjacency(merger *m, uint32_t *scratch, char *reasons)
{
    const rg_graph *g = m->g;
    const size_t rs = sizeof ((rg__merge_note *)0)->reason;
    for (uint32_t i = 0; i < m->node_len; i++) {
        uint32_t first = g->compiled->nodes.first_cmd[m->nodes[i]];
        uint32_t s = g->decl.cmds[first].span;
        if (s == RG__NONE || m->cand[s] == RG__NONE)
            continue;
        uint32_t p = m->cand[s];
        if (rg__merge_may_join(m->g, &p, 1, s, &reasons[(size_t)s * rs]))
            make_adjacent(m, span_node(g, p), span_node(g, s), scratch, &reasons[(size_t)s * rs]);
    }
}

/* Allocates the instances, span maps and access modes; false when out of memory. */
static bool instances_alloc(merger *m)
{
    const rg_graph *g = m->g;
    m->span_map = rg__calloc(g, (size_t)g->decl.span_count + 1, sizeof *m->span_map);
    m->instance_spans = rg__malloc(g, ((size_t)g->decl.span_count + 1) * sizeof *m->instance_spans);
    m->instances = rg__calloc(g, (size_t)g->decl.span_count + 1, sizeof *m->instances);
    m->access_mode = rg__calloc(g, (size_t)g->decl.access_count + 1, sizeof *m->access_mode);
    if (!m->span_map || !m->instance_spans || !m->instances || !m->access_mode)
        return false;
    for (uint32_t s = 0; s < g->decl.span_count; s++)
        m->span_map[s].instance = RG__NONE; /* culled spans keep it */
    return true;
}

/* Whether span s joins the last instance cur (adjacent: s's node follows the previous span's); else why_not. */
static bool joins(merger *m, const rg__instance *cur, uint32_t s, bool adjacent, char *why_not)
{
    const size_t rs = sizeof ((rg__merge_note *)0)->reason;
    bool in_cur = false;
    for (uint32_t k = 0; cur && k < cur->count; k++)
        in_cur = in_cur || m->instance_spans[cur->first + k] == m->cand[s];
    if (m->off)
        snprintf(why_not, rs, "%s", m->off);
    else if (why_not[0])
        ; /* the pairwise rules or adjacency said why */
    else if (!in_cur || !adjacent)
        snprintf(why_not, rs, "not adjacent in the execution order");
    else
        return rg__merge_may_join(m->g, &m->instance_spans[cur->first], cur->count, s, why_not);
    return false;
}

/* Step 3: the spans in order, each joining the instance before it or starting one; a note per candidate. */
static rg_result form_instances(merger *m, char *reasons)
{
    const rg_graph *g = m->g;
    const size_t rs = sizeof ((rg__merge_note *)0)->reason;
    uint32_t spans = 0, prev_node_pos = RG__NONE;
    rg_result res = RG_SUCCESS;
    for (uint32_t i = 0; i < m->node_len && res == RG_SUCCESS; i++) {
        uint32_t s = g->decl.cmds[g->compiled->nodes.first_cmd[m->nodes[i]]].span;
        if (s == RG__NONE)
            continue;
        m->instance_spans[spans] = s;
        rg__instance *cur = m->instance_count ? &m->instances[m->instance_count - 1] : NULL;
        uint32_t p = m->cand[s];
        bool joined = false;
        if (p != RG__NONE) {
            char *why_not = &reasons[(size_t)s * rs];
            joined = joins(m, cur, s, prev_node_pos + 1 == i, why_not);
            if (!note(m, p, s, joined ? "" : why_not))
                res = RG_ERROR_OUT_OF_MEMORY;
        }
        if (joined) {
            cur->count++;
        } else {
            cur = &m->instances[m->instance_count++];
            cur->first = spans;
            cur->count = 1;
        }
        spans++;
        prev_node_pos = i;
    }
    return res;
}

/* Positions of each instance's begin and end in the order. */
static void instance_bounds(merger *m)
{
    const rg_graph *g = m->g;
    for (uint32_t p = 0; p < m->order_count; p++) {
        const rg__cmd *cmd = &g->decl.cmds[m->order[p]];
        if (cmd->span == RG__NONE)
            continue;
        rg__instance *in = &m->instances[m->span_map[cmd->span].instance];
        if (cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING && cmd->span == m->instance_spans[in->first])
            in->begin_pos = p;
        if (cmd->type == RG_COMMAND_TYPE_END_RENDERING && cmd->span == m->instance_spans[in->first + in->count - 1])
            in->end_pos = p;
    }
}

/* Steps 2 to 4 on the node sequence, with a scratch sequence as long and a zeroed reason per span. */
static rg_result merge_spans(merger *m, uint32_t *scratch, char *reasons)
{
    const rg_graph *g = m->g;
    if (!m->off)
        adjacency(m, scratch, reasons);
    rg__order order;
    if (!rg__order_of_nodes(g, m->nodes, m->node_len, &order))
        return RG_ERROR_OUT_OF_MEMORY;
    m->order = (uint32_t *)(uintptr_t)order.cmds; /* this stage's own, made above */
    m->order_count = order.count;
    if (!instances_alloc(m))
        return RG_ERROR_OUT_OF_MEMORY;
    rg_result res = form_instances(m, reasons);
    uint32_t *total = res == RG_SUCCESS ? kept_accesses(g) : NULL;
    if (!total)
        return RG_ERROR_OUT_OF_MEMORY; /* the instances are incomplete: merged_free drops them */
    for (uint32_t ii = 0; ii < m->instance_count; ii++)
        build_instance(m, ii, total);
    rg__free(g, total);
    instance_bounds(m);
    return res;
}

/* Steps 1 to 4 into m. */
static rg_result merge(merger *m)
{
    const rg_graph *g = m->g;
    rg_result r = find_candidates(m);
    if (r != RG_SUCCESS)
        return r;
    node_sequence(m);
    uint32_t *scratch = rg__malloc(g, ((size_t)m->node_len + 1) * sizeof *scratch);
    char *reasons = rg__calloc(g, (size_t)g->decl.span_count + 1, sizeof ((rg__merge_note *)0)->reason);
    r = scratch && reasons ? merge_spans(m, scratch, reasons) : RG_ERROR_OUT_OF_MEMORY;
    rg__free(g, scratch);
    rg__free(g, reasons);
    return r;
}

/* What each created resource's pixel-local reads need: INPUT_ATTACHMENT
 * where merged, else SAMPLED. */
static bool local_usage(merger *m)
{
    const rg_graph *g = m->g;
    m->usage = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *m->usage);
    for (uint32_t ai = 0; m->usage && ai < g->decl.access_count; ai++) {
        const rg__access *a = &g->decl.accesses[ai];
        if (a->local && !g->decl.resources[a->resource].imported)
            m->usage[a->resource] |= m->access_mode[ai] == RG__MODE_INPUT ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT
                                                                         : VK_IMAGE_USAGE_SAMPLED_BIT;
    }
    return m->usage != NULL;
}

rg_result rg__compile_merge(const rg_graph *g, rg__merged *out)
{
    const rg__nodes *nodes = &g->compiled->nodes;
    merger m = {.g = g, .off = merging_off(g)};
    m.nodes = rg__malloc(g, ((size_t)nodes->count + 1) * sizeof *m.nodes);
    m.node_pos = rg__malloc(g, ((size_t)nodes->count + 1) * sizeof *m.node_pos);
    m.cand = rg__malloc(g, ((size_t)g->decl.span_count + 1) * sizeof *m.cand);
    rg_result r = m.nodes && m.node_pos && m.cand ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
    if (r == RG_SUCCESS)
        r = rg__spans_fit_tile(g);
    for (uint32_t s = 0; r == RG_SUCCESS && s < g->decl.span_count; s++)
        m.cand[s] = RG__NONE;
    if (r == RG_SUCCESS)
        r = merge(&m);
    if (r == RG_SUCCESS && !local_usage(&m))
        r = RG_ERROR_OUT_OF_MEMORY;
    rg__free(g, m.nodes);
    rg__free(g, m.node_pos);
    rg__free(g, m.cand);
    /* Published whole, or partly for rg__merged_free after a failure. */
    *out = (rg__merged){
        .order = {m.order, m.order_count},
        .instances = m.instances, .instance_count = m.instance_count, .instance_spans = m.instance_spans,
        .span_map = m.span_map, .access_mode = m.access_mode,
        .merges = m.merges, .merge_count = m.merge_count,
        .usage = m.usage,
    };
    return r;
}

void rg__access_effective(const rg_graph *g, uint32_t ai, VkPipelineStageFlags2 *stage, VkAccessFlags2 *mask,
                          VkImageLayout *layout)
{
    const rg__access *a = &g->decl.accesses[ai];
    *stage = a->stage;
    *mask = a->access;
    *layout = a->layout;
    switch (g->compiled->merge.access_mode ? g->compiled->merge.access_mode[ai] : RG__MODE_DECLARED) {
    case RG__MODE_INPUT:
        *stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
        *mask = VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT;
        *layout = VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR;
        break;
    case RG__MODE_LOCAL_LAYOUT:
        *layout = VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR;
        break;
    default:
        break;
    }
}
