/* User commands: rg_cmd_user and the resolution of its declared accesses
 * (handle, kind, range and usage row) into access records. The command kind
 * is checked against the open span (draw commands only inside one, outside
 * commands never), and an interior access may not touch an attachment of
 * its span (feedback loop).
 */
#include "base/rules.h"
#include "declare/stages.h"

/* A user access: handle, kind, range and usage row resolved. */
static bool user_access(rg__pending *p, const rg_access *a, uint32_t span)
{
    rg_graph *g = p->g;
    const rg_usage_info *info = rg_usage_get_info(a->usage);
    bool has_t = a->texture.id != 0, has_b = a->buffer.id != 0;
    if (has_t == has_b || !info || a->usage == RG_USAGE_NONE) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT,
                 "command '%s': an access needs exactly one of texture and buffer and a usage (usage %d)", p->name,
                 (int)a->usage);
        return false;
    }
    uint32_t ri = has_t ? rg__texture_arg(p, a->texture) : rg__buffer_arg(p, a->buffer);
    if (ri == RG__NONE)
        return false;
    rg__resource *r = &rg__decl_resources(g)[ri];
    bool raw = a->usage == RG_USAGE_RAW;
    if (!raw && (has_t ? info->layout == VK_IMAGE_LAYOUT_UNDEFINED : info->buffer_usage == 0)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': usage %s does not apply to %s '%s'", p->name, info->name,
                 has_t ? "texture" : "buffer", r->name);
        return false;
    }
    bool local = a->usage == RG_USAGE_PIXEL_LOCAL_READ;
    if (local && (!has_t || span == RG__NONE)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': a pixel-local read of %s '%s' needs a texture and a "
                 "draw command inside a span", p->name, has_t ? "texture" : "buffer", r->name);
        return false;
    }
    rg__access rec = {.resource = ri, .role = RG__ROLE_NORMAL, .local = local, .undefined_ok = a->undefined_ok};
    rec.stage = raw ? a->stage : info->stage;
    rec.access = raw ? a->access : info->access;
    rec.write = raw ? a->write : info->write;
    if (has_t) {
        rec.layout = raw ? a->layout : info->layout;
        if (rec.layout == VK_IMAGE_LAYOUT_UNDEFINED || rec.layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
            rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': raw access to texture '%s' needs a layout",
                     p->name, r->name);
            return false;
        }
        if (!rg__texture_range(p, r, a->whole, &a->range, &rec.range))
            return false;
    } else {
        rec.size = r->size;
    }
    /* Feedback loop: an interior access may not touch what the span renders
     * to (the attachment's own load/store is its begin access). */
    if (span != RG__NONE) {
        const rg__cmd *begin = &g->decl.cmds[g->decl.spans[span].begin_cmd];
        for (uint32_t k = 0; k < begin->access_count; k++) {
            const rg__access *att = &g->decl.accesses[begin->first_access + k];
            if (att->resource == ri && rg__ranges_overlap(&att->range, &rec.range)) {
                rg__fail(g, RG_ERROR_FEEDBACK_LOOP,
                         "command '%s': access %s to texture '%s' touches an attachment of span '%s' (feedback loop)",
                         p->name, info->name, r->name, begin->name);
                return false;
            }
        }
    }
    return rg__access_push(p, &rec, raw ? 0 : info->image_usage, raw ? 0 : info->buffer_usage);
}

static rg_command cmd_user_taken(rg_graph *graph, const rg_user_desc *desc)
{
    if (!rg__declare_begin(graph, desc, "rg_cmd_user"))
        return (rg_command){0};
    rg__pending p = rg__pending_begin(graph, desc->name ? desc->name : "user");
    uint32_t span = graph->decl.open_span;
    if (!desc->record || (desc->access_count && !desc->accesses) ||
        (desc->kind != RG_COMMAND_OUTSIDE && desc->kind != RG_COMMAND_DRAW)) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': NULL record callback, NULL accesses or bad kind",
                 p.name);
        return (rg_command){0};
    }
    if (desc->kind == RG_COMMAND_DRAW && span == RG__NONE) {
        rg__fail(graph, RG_ERROR_DRAW_OUTSIDE_SPAN, "command '%s': a draw command outside a span", p.name);
        return (rg_command){0};
    }
    if (RG__RULE(OUTSIDE_COMMAND_OUTSIDE_SPANS, desc->kind == RG_COMMAND_OUTSIDE && span != RG__NONE)) {
        rg__fail(graph, RG_ERROR_OUTSIDE_IN_SPAN,
                 "command '%s': an outside-kind command (dispatch, query, ...) inside span '%s'", p.name,
                 graph->decl.cmds[graph->decl.spans[span].begin_cmd].name);
        return (rg_command){0};
    }
    for (uint32_t i = 0; i < desc->access_count; i++)
        if (!user_access(&p, &desc->accesses[i], span))
            return (rg_command){0};
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_USER);
    c.kind = desc->kind;
    c.side_effects = desc->side_effects;
    c.span = span;
    c.u.user.record = desc->record;
    c.u.user.user = desc->user;
    c.u.user.cost = desc->cost ? desc->cost : 1;
    c.queue = desc->queue;
    if (!rg__queue_eligible(graph, p.name, &c, p.first_access, graph->decl.access_count - p.first_access, c.queue))
        return (rg_command){0};
    /* The accesses as given, for rg_declared_get. */
    uint32_t n = graph->decl.declared_count;
    if (!rg__grow_declaration(graph, (void **)&graph->decl.declared, &graph->decl.declared_cap,
                              n + desc->access_count, sizeof *graph->decl.declared))
        return (rg_command){0};
    if (desc->access_count)
        memcpy((rg_access *)graph->decl.declared + n, desc->accesses, desc->access_count * sizeof *desc->accesses);
    c.u.user.declared = n;
    rg_command h = rg__cmd_finish(&p, &c);
    if (h.id)
        graph->decl.declared_count = n + desc->access_count;
    return h;
}

/* The public calls: each takes the graph (rg__enter). */

rg_command rg_cmd_user(rg_graph *graph, const rg_user_desc *desc)
{
    RG__DECLARING(graph, "rg_cmd_user", rg_command, cmd_user_taken(graph, desc));
}
