/* Compile stage "barriers": synchronization2 barriers planned over the
 * execution order from a per-subresource current state. Run by compile with
 * no alias scopes, and again by placement with the alias scopes of its
 * memory plan (what each pooled resource's first use must wait for): that
 * second list is what execute records.
 *
 * Per slot the state is: the current layout; the pending write (stage and
 * access of the last write, or of the last layout transition, which is a
 * write too); the stages that read since; and to which stages/accesses the
 * pending write has already been made visible. A reader whose stage and
 * access are already covered needs nothing, so two readers of one producer
 * get one barrier.
 *
 * Per access and slot two things are decided apart, and a barrier carries
 * both: what the access waits for (slot_need: the source scope and the
 * layout change), and where the barrier is recorded (slot_site). Every
 * barrier a command inside a span needs is placed at the begin point
 * of its rendering instance (before vkCmdBeginRendering): a barrier inside
 * a dynamic rendering instance is illegal without
 * VK_KHR_dynamic_rendering_local_read, and compile already rejected every
 * hazard between two interior commands of a span, so whatever an interior
 * command waits for lies outside the span. In a merged instance a span
 * after the first may wait for an earlier span of the instance: that
 * barrier goes to the span's own begin point, inside the instance, and is
 * recorded by region (the merge rules made it a framebuffer-local
 * dependency in one layout). Barriers that meet one subresource at one
 * point are merged (unioned scopes); the list is then sorted by point.
 *
 * Several queues: planning notes per position and queue the stages at
 * which the command there needs another queue's work (pos_wait); the
 * batches' semaphore waits get their stages from that afterwards
 * (compile_waits.c).
 *
 * History pairs (rendergraph.h, "History"): the image a previous half reads
 * is the one its current half wrote in the frame before, and the image the
 * current half writes is the one the previous half read then. So, per
 * subresource, the current half ends the frame in its previous half's
 * target (compile_history.c: as if read by the previous half's reads);
 * the previous half starts the frame
 * as the current half ended it (so its first reads need no barrier); the
 * current half starts in UNDEFINED, waiting for the previous half's uses
 * of the frame before, or, for a subresource previous does not read, for
 * the current half's own uses of the frame before (that image's uses two
 * frames back, nothing having touched it since). The first execute after
 * placement has no frame
 * before: it clears the targeted subresources and leaves them in their
 * targets (history_clears), the state the previous half's plan starts
 * from.
 */
#include "compile/barrier_planner.h"

#include <stdlib.h>
#include <string.h>

static bool target_eq(const rg__history_target *a, const rg__history_target *b)
{
    return a->read == b->read && a->layout == b->layout && a->stage == b->stage && a->access == b->access;
}

/* Calls fn for every run of consecutive layers of one mip of previous half
 * r whose slots have one read target (every aspect together: accesses to
 * one aspect of a depth/stencil texture touch both). */
static bool target_runs(rg__planner *p, const rg__resource *r,
                        bool (*fn)(rg__planner *p, const rg__resource *r, const rg_range *range,
                                   const rg__history_target *x))
{
    const rg__history_target *t = p->g->compiled->history.of;
    VkImageAspectFlagBits first = (VkImageAspectFlagBits)(r->aspects & -r->aspects);
    for (uint32_t m = 0; m < r->mip_levels; m++)
        for (uint32_t l = 0; l < r->array_layers;) {
            const rg__history_target *x = &t[rg__sub_slot(r, first, m, l)];
            uint32_t n = 1;
            while (l + n < r->array_layers && target_eq(&t[rg__sub_slot(r, first, m, l + n)], x))
                n++;
            rg_range range = {r->aspects, m, 1, l, n};
            if (x->read && !fn(p, r, &range, x))
                return false;
            l += n;
        }
    return true;
}

/* The current half's final step on one run: its previous half's target,
 * planned as a read (so a write already visible to it needs nothing). */
static bool history_final(rg__planner *p, const rg__resource *previous, const rg_range *range,
                          const rg__history_target *x)
{
    rg__step s = {x->stage, x->access, x->layout, false, false};
    return rg__plan_texture(p, previous->history_pair, range, &s);
}

/* One run for the first execute's clear. */
static bool history_clear(rg__planner *p, const rg__resource *previous, const rg_range *range,
                          const rg__history_target *x)
{
    rg__sbuild *c = p->out;
    if (!rg__grow(p->g, (void **)&c->history_clears, &c->history_clear_cap, c->history_clear_count + 1,
                  sizeof *c->history_clears))
        return false;
    c->history_clears[c->history_clear_count++] = (rg__history_clear){
        (uint32_t)(previous - p->g->decl.resources), *range, x->layout, x->stage, x->access};
    return true;
}

/* The slot whose end of the frame before holds slot i's image now: for a
 * history half, the other half's slot of the same subresource (the halves
 * trade images), except where previous does not read the subresource:
 * then the frame before left current's image of then untouched, as the
 * current half had left it the frame before that, which is how the same
 * compiled frame's current half ends (so the first write of current waits
 * for that write). */
static uint32_t frame_before_slot(const rg_graph *g, const rg__resource *r, uint32_t i)
{
    if (!rg__history(r))
        return i;
    uint32_t other = g->decl.resources[r->history_pair].sub_base + (i - r->sub_base);
    return r->history_previous || g->compiled->history.of[other].read ? other : i;
}

/* Starting states: imports as declared, plus what the frame before left
 * them with; created resources as the frame before left them (carry), in
 * layout UNDEFINED, since the same compiled graph runs frame after frame on
 * the same queues; history pairs as above, the previous half in its target
 * on the first pass (as the current half's final step or the first
 * execute's clear leaves it), as the current half ended the frame
 * afterwards. Imports are used on the graphics queue only
 * (compile_queues.c). Several queues: each starts from its own state of
 * the frame before; where another queue touched a slot after it then, the
 * frame's first waits cover that (foreign_prev). */
static void init_slot(const rg_graph *g, const rg__planner *p, uint32_t q, uint32_t ri, uint32_t i,
                      const rg__slot_state *carry, const rg__alias_scope *alias)
{
    const rg__resource *r = &g->decl.resources[ri];
    const rg__history_target *t = g->compiled->history.of;
    size_t base = (size_t)q * p->n;
    rg__slot_state *st = &p->slots[base + i];
    memset(st, 0, sizeof *st);
    st->bar = st->written = RG__NONE;
    uint32_t src = frame_before_slot(g, r, i);
    if (rg__history(r) && r->history_previous) {
        if (carry) {
            *st = carry[base + src];
            st->bar = st->written = RG__NONE;
            st->foreign = st->foreign_writers = 0;
        } else if (t[i].read) {
            st->layout = t[i].layout;
            st->ws = st->rs = st->vs = t[i].stage;
            st->va = t[i].access;
        }
    } else if (rg__history(r)) {
        if (carry) {
            st->ws = carry[base + src].ws | carry[base + src].rs;
            st->wa = carry[base + src].wa;
            /* Last handed to presentation (stage NONE): the layout it left
             * still has to happen before this frame's transition. */
            if (!st->ws && carry[base + src].layout != VK_IMAGE_LAYOUT_UNDEFINED)
                st->ws = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        }
    } else if (r->imported) {
        if (q == RG_QUEUE_GRAPHICS) {
            st->layout = r->initial_layout;
            st->ws = r->initial_stage;
            st->wa = r->initial_access;
        }
        /* Executed again on the same queue, the frame before touched the
         * import last: wait for that too (on the first frame the extra
         * source scope costs nothing). */
        if (carry) {
            st->ws |= carry[base + i].ws | carry[base + i].rs;
            st->wa |= carry[base + i].wa;
        }
    } else if (carry) {
        st->ws = carry[base + i].ws | carry[base + i].rs;
        st->wa = carry[base + i].wa;
    }
    /* Another queue touched the slot's image after this one in the frame
     * before: the frame's first waits cover that work. */
    if (carry && !r->imported && (carry[base + src].foreign || carry[base + src].foreign_prev)) {
        st->foreign_prev = true;
        st->foreign_write_prev = carry[base + src].foreign_writers || carry[base + src].foreign_write_prev;
    }
    /* A pooled resource takes its memory over from the resources
     * overlapping it: its first use (a transition from UNDEFINED for an
     * image) waits on their last uses too, on the queue of that use. */
    if (alias && !r->imported && rg__first_use(g, ri) != RG__NONE &&
        rg__queue_of(g, rg__order_cmds(g)[rg__first_use(g, ri)]) == (rg_queue)q) {
        st->ws |= alias[ri].stage;
        st->wa |= alias[ri].access;
    }
}

static void init_slots(const rg_graph *g, const rg__planner *p, const rg__slot_state *carry,
                       const rg__alias_scope *alias)
{
    for (uint32_t q = 0; q < p->nq; q++)
        for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
            const rg__resource *r = &g->decl.resources[ri];
            for (uint32_t i = r->sub_base; i < r->sub_base + r->sub_count; i++)
                init_slot(g, p, q, ri, i, carry, alias);
        }
}

/* Where the command at pos records its barriers (the point, hoisted) and
 * its queue. Inside a span everything is placed before its instance's
 * begin, which the order puts right before the span's other commands; in
 * a merged instance, what waits for an earlier span of it at the span's
 * own begin (begin_pos: the last span begin met). */
static void plan_position(rg__planner *p, uint32_t pos, uint32_t *begin_pos)
{
    const rg_graph *g = p->g;
    const rg__cmd *cmd = &g->decl.cmds[rg__order_cmds(g)[pos]];
    p->pos = pos;
    p->queue = p->nq > 1 ? rg__queue_of(g, rg__order_cmds(g)[pos]) : RG_QUEUE_GRAPHICS;
    p->hoisted = cmd->span != RG__NONE &&
                 (cmd->type != RG_COMMAND_TYPE_BEGIN_RENDERING ||
                  g->compiled->merge.instances[g->compiled->merge.span_map[cmd->span].instance].begin_pos != pos);
    p->local_point = p->instance_begin = RG__NONE;
    if (cmd->type == RG_COMMAND_TYPE_BEGIN_RENDERING)
        *begin_pos = pos;
    if (cmd->span == RG__NONE) {
        p->point = pos;
    } else {
        const rg__instance *in = &g->compiled->merge.instances[g->compiled->merge.span_map[cmd->span].instance];
        p->point = in->begin_pos;
        if (in->begin_pos != *begin_pos) {
            p->instance_begin = in->begin_pos;
            p->local_point = *begin_pos;
        }
    }
}

/* After the last command, on the graphics queue: imports end in their
 * final state; history pairs' current halves end in their previous
 * halves' targets; the clears of the first execute after placement. */
static bool plan_frame_end(rg__planner *p)
{
    const rg_graph *g = p->g;
    p->point = p->pos = rg__order_count(g);
    p->queue = RG_QUEUE_GRAPHICS;
    p->hoisted = false;
    p->local_point = p->instance_begin = RG__NONE;
    bool ok = true;
    for (uint32_t ri = 0; ri < g->decl.resource_count && ok; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (!r->imported)
            continue;
        rg__step s = {r->final_stage, r->final_access, r->final_layout, false, true};
        rg_range whole = {r->aspects, 0, r->mip_levels, 0, r->array_layers};
        ok = r->is_texture ? rg__plan_texture(p, ri, &whole, &s) : rg__plan_buffer(p, ri, &s);
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count && ok; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (rg__history(r) && r->history_previous)
            ok = target_runs(p, r, history_final) && target_runs(p, r, history_clear);
    }
    return ok;
}

/* One pass over the frame: the barriers and clears into out, the
 * positions' needs of other queues into pos_wait, each slot's state at
 * the end of the frame in slots. */
static rg_result plan(const rg_graph *g, rg__sbuild *out, rg__slot_state *slots, uint32_t nq,
                      const rg__slot_state *carry, const rg__alias_scope *alias, VkPipelineStageFlags2 *pos_wait)
{
    rg__planner p = {.g = g, .out = out, .slots = slots, .nq = nq, .n = g->decl.sub_total + 1, .pos_wait = pos_wait,
                 .instance_begin = RG__NONE, .local_point = RG__NONE};
    out->barrier_count = 0;
    out->history_clear_count = 0;
    memset(pos_wait, 0, ((size_t)rg__order_count(g) + 1) * RG_QUEUE_COUNT * sizeof *pos_wait);
    init_slots(g, &p, carry, alias);
    bool ok = true;
    uint32_t begin_pos = 0;
    for (uint32_t pos = 0; pos < rg__order_count(g) && ok; pos++) {
        plan_position(&p, pos, &begin_pos);
        const rg__cmd *cmd = &g->decl.cmds[rg__order_cmds(g)[pos]];
        for (uint32_t k = 0; k < cmd->access_count && ok; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            if (a->role == RG__ROLE_LIFETIME || rg__folded(g, a->resource))
                continue;
            rg__step s = {0, 0, VK_IMAGE_LAYOUT_UNDEFINED, a->write, false};
            rg__access_effective(g, cmd->first_access + k, &s.stage, &s.access, &s.layout);
            rg__fold_effective(g, cmd, cmd->first_access + k, &s.stage, &s.access, &s.layout);
            ok = g->decl.resources[a->resource].is_texture ? rg__plan_texture(&p, a->resource, &a->range, &s)
                                                      : rg__plan_buffer(&p, a->resource, &s);
        }
    }
    ok = ok && plan_frame_end(&p);
    return ok ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
}

/* A merged instance's hoisted barriers are made after barriers of later
 * points: a stable sort by point puts them in place. */
static rg_result sort_by_point(const rg_graph *g, rg__sbuild *c)
{
    bool sorted = true;
    for (uint32_t i = 1; i < c->barrier_count && sorted; i++)
        sorted = c->barriers[i - 1].point <= c->barriers[i].point;
    if (sorted)
        return RG_SUCCESS;
    uint32_t *start = rg__calloc(g, (size_t)rg__order_count(g) + 2, sizeof *start);
    rg__barrier *b = rg__malloc(g, (size_t)c->barrier_count * sizeof *b);
    if (!start || !b) {
        rg__free(g, start);
        rg__free(g, b);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < c->barrier_count; i++)
        start[c->barriers[i].point + 1]++;
    for (uint32_t p = 0; p <= rg__order_count(g); p++)
        start[p + 1] += start[p];
    for (uint32_t i = 0; i < c->barrier_count; i++)
        b[start[c->barriers[i].point]++] = c->barriers[i];
    memcpy(c->barriers, b, (size_t)c->barrier_count * sizeof *b);
    rg__free(g, start);
    rg__free(g, b);
    return RG_SUCCESS;
}

/* Where each point's barriers start, and the most at one point (execute
 * sizes its arrays by it). */
static rg_result point_index(const rg_graph *g, rg__sbuild *c)
{
    c->point_start = rg__malloc(g, ((size_t)rg__order_count(g) + 2) * sizeof *c->point_start);
    if (!c->point_start)
        return RG_ERROR_OUT_OF_MEMORY;
    uint32_t b = 0, most = 1;
    for (uint32_t pt = 0; pt <= rg__order_count(g) + 1; pt++) {
        c->point_start[pt] = b;
        while (b < c->barrier_count && c->barriers[b].point == pt)
            b++;
        if (b - c->point_start[pt] > most)
            most = b - c->point_start[pt];
    }
    c->point_max = most;
    return RG_SUCCESS;
}

void rg__sync_free(const rg_graph *g, rg__sync *s)
{
    RG__FREE_ALL(g, s->barriers, s->infos, s->order_handles, s->point_start, s->wait_stage, s->history_clears);
    *s = (rg__sync){0};
}

void rg__sync_retag(const rg_graph *g, rg__sync *s)
{
    /* The writer's own arrays, made by rg__compile_barriers below. */
    rg_command *order = (rg_command *)(uintptr_t)s->order_handles;
    rg_barrier_info *infos = (rg_barrier_info *)(uintptr_t)s->infos;
    for (uint32_t p = 0; order && p < rg__order_count(g); p++)
        order[p].id = rg__make_id(g, (order[p].id & RG__INDEX_MASK) - 1);
    for (uint32_t i = 0; infos && i < s->barrier_count; i++) {
        rg_barrier_info *b = &infos[i];
        uint32_t *ids[] = {&b->before.id, &b->texture.id, &b->buffer.id};
        for (uint32_t k = 0; k < 3; k++)
            if (*ids[k])
                *ids[k] = rg__make_id(g, (*ids[k] & RG__INDEX_MASK) - 1);
    }
}

/* The execution order as public handles (they carry the tag). */
static rg_command *order_handles(const rg_graph *g)
{
    rg_command *h = rg__malloc(g, ((size_t)rg__order_count(g) + 1) * sizeof *h);
    for (uint32_t p = 0; h && p < rg__order_count(g); p++)
        h[p] = (rg_command){rg__make_id(g, rg__order_cmds(g)[p])};
    return h;
}

/* The barriers' public forms, for rg_barrier_get. */
static rg_barrier_info *barrier_infos(const rg_graph *g, const rg__sbuild *c)
{
    rg_barrier_info *infos = rg__malloc(g, ((size_t)c->barrier_count + 1) * sizeof *infos);
    for (uint32_t i = 0; infos && i < c->barrier_count; i++) {
        const rg__barrier *b = &c->barriers[i];
        bool texture = b->resource != RG__NONE && g->decl.resources[b->resource].is_texture;
        uint32_t id = b->resource == RG__NONE ? 0 : rg__make_id(g, b->resource);
        infos[i] = (rg_barrier_info){
            .before = {b->point < rg__order_count(g) ? rg__make_id(g, rg__order_cmds(g)[b->point]) : 0},
            .hoisted = b->hoisted,
            .by_region = b->by_region,
            .texture = {texture ? id : 0},
            .buffer = {texture ? 0 : id},
            .range = b->range,
            .src_stage = b->src_stage, .dst_stage = b->dst_stage,
            .src_access = b->src_access, .dst_access = b->dst_access,
            .old_layout = b->old_layout, .new_layout = b->new_layout,
        };
    }
    return infos;
}

rg_result rg__compile_barriers(const rg_graph *g, const rg__alias_scope *alias, rg__sync *out)
{
    rg__sbuild sb = {0};
    VkPipelineStageFlags2 *wait_stage = NULL;
    uint32_t nq = g->compiled->queues.queues_used & ~(1u << RG_QUEUE_GRAPHICS) ? RG_QUEUE_COUNT : 1;
    size_t n = ((size_t)g->decl.sub_total + 1) * nq;
    rg__slot_state *slots = rg__malloc(g, n * sizeof *slots), *carry = rg__malloc(g, n * sizeof *carry);
    VkPipelineStageFlags2 *pos_wait = rg__malloc(g, ((size_t)rg__order_count(g) + 1) * RG_QUEUE_COUNT *
                                             sizeof *pos_wait);
    rg_command *handles = order_handles(g);
    rg_result r = slots && carry && pos_wait && handles ? RG_SUCCESS : RG_ERROR_OUT_OF_MEMORY;
    /* First pass: where the frame leaves each slot; second: the real plan,
     * with created resources starting from there. */
    if (r == RG_SUCCESS)
        r = plan(g, &sb, slots, nq, NULL, alias, pos_wait);
    if (r == RG_SUCCESS) {
        memcpy(carry, slots, n * sizeof *slots);
        r = plan(g, &sb, slots, nq, carry, alias, pos_wait);
    }
    if (r == RG_SUCCESS)
        r = rg__compile_wait_stages(g, pos_wait, &wait_stage);
    rg__free(g, slots);
    rg__free(g, carry);
    rg__free(g, pos_wait);
    if (r == RG_SUCCESS)
        r = sort_by_point(g, &sb);
    if (r == RG_SUCCESS)
        r = point_index(g, &sb);
    rg_barrier_info *infos = r == RG_SUCCESS ? barrier_infos(g, &sb) : NULL;
    if (r == RG_SUCCESS && !infos)
        r = RG_ERROR_OUT_OF_MEMORY;
    *out = (rg__sync){
        .barriers = sb.barriers,
        .barrier_count = sb.barrier_count,
        .infos = infos,
        .order_handles = handles,
        .point_start = sb.point_start,
        .point_max = sb.point_max,
        .wait_stage = wait_stage,
        .history_clears = sb.history_clears,
        .history_clear_count = sb.history_clear_count,
    };
    return r;
}
