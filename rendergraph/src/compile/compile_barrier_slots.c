/* The barrier planner's per-slot work (compile stage "barriers"; the model
 * is barrier_planner.h): what an access needs of a subresource's current
 * state (slot_need), where its barrier goes (slot_site), the state it
 * leaves (slot_advance), and the barriers themselves, merged per point and
 * run of subresources (rg__plan_texture, rg__plan_buffer). */
#include "compile/barrier_planner.h"

#include <string.h>

/* The layout a step leaves the slot in. */
static VkImageLayout step_layout(const rg__slot_state *st, const rg__step *s)
{
    return s->final && s->layout == VK_IMAGE_LAYOUT_UNDEFINED ? st->layout : s->layout;
}

/* Another queue touched the slot since this one did: a semaphore wait
 * orders that work before this access (compile_queues.c cut the batches
 * for every cross-queue hazard). What that queue did is no longer this
 * queue's to wait for; what remains is to chain a barrier this access
 * needs after the wait, whose stages then must include the access's
 * (noted in pos_wait). A write or layout change
 * there left nothing of this queue's pending; reads there leave this
 * queue's own state as it was. */
static void foreign_step(rg__planner *p, rg__slot_state *st, const rg__step *s, bool transition)
{
    VkPipelineStageFlags2 token = s->stage ? s->stage : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    /* The queues whose work of this frame this access depends on: their
     * writes, and for a write or layout change their reads too (the frame
     * before's work is the frame's first waits'). */
    uint8_t depends = s->write || transition ? st->foreign : st->foreign_writers;
    if (st->foreign_writers || st->foreign_write_prev) {
        /* A read is visible at the wait's stages; a later read at other
         * stages gets a barrier from them. A plain write needs no barrier. */
        st->ws = s->write && !transition ? 0 : token;
        st->wa = 0;
        st->rs = 0;
        st->vs = token;
        st->va = s->access;
        st->bar = RG__NONE;
    } else if (transition) {
        st->ws |= token;
    }
    for (uint32_t r = 0; r < RG_QUEUE_COUNT; r++)
        if (depends & (1u << r))
            p->pos_wait[(size_t)p->pos * RG_QUEUE_COUNT + r] |= token;
    st->foreign = st->foreign_writers = 0;
    st->foreign_prev = st->foreign_write_prev = false;
}

/* What the step waits for on a slot in state st. A layout change, a
 * write or a final step waits for the pending write and the reads since;
 * a read for the pending write, unless it was already made visible to
 * the read's stage and access. */
static rg__need slot_need(const rg__slot_state *st, const rg__step *s)
{
    rg__need n = {.old_layout = st->layout, .new_layout = step_layout(st, s)};
    bool transition = n.new_layout != st->layout;
    if (transition || s->write || (s->final && (s->stage | s->access))) {
        n.barrier = transition || (st->ws | st->rs) != 0;
        n.src_stage = st->ws | st->rs;
        n.src_access = st->wa;
    } else if (st->ws && ((s->stage & ~st->vs) || (s->access & ~st->va))) {
        n.barrier = true;
        n.src_stage = st->ws;
        n.src_access = st->wa;
    }
    return n;
}

/* Where the current access's barrier on a slot in state st is recorded.
 * Waiting for a write of an earlier span of the instance: between the
 * spans, by region. Anything else (the frame before, work before the
 * instance) waits at the access's point (plan_position). */
static rg__site slot_site(const rg__planner *p, const rg__slot_state *st)
{
    rg__site at = {.point = p->point};
    if (p->local_point != RG__NONE && st->written != RG__NONE && st->written >= p->instance_begin)
        at.point = p->local_point;
    at.by_region = at.point == p->local_point;
    at.hoisted = p->hoisted && !at.by_region;
    return at;
}

/* The slot's state after the step (synced: it got a barrier from the
 * pending write), and the other queues' view of the slot. */
static void slot_advance(rg__planner *p, uint32_t slot, const rg__step *s, VkImageLayout layout, bool synced)
{
    rg__slot_state *st = &p->slots[(size_t)p->queue * p->n + slot];
    bool transition = layout != st->layout;
    if (s->write) {
        st->ws = s->stage;
        st->wa = s->access;
        st->rs = st->vs = 0;
        st->va = 0;
    } else if (transition) {
        st->ws = st->rs = st->vs = s->stage;
        st->wa = 0;
        st->va = s->access;
    } else {
        if (synced) {
            st->vs |= s->stage;
            st->va |= s->access;
        }
        st->rs |= s->stage;
    }
    st->layout = layout;
    if (s->write || transition)
        st->written = p->pos;
    /* The other queues' states: the layout is the image's, and they now
     * follow this queue's work. */
    for (uint32_t q = 0; q < p->nq; q++) {
        if (q == (uint32_t)p->queue)
            continue;
        rg__slot_state *o = &p->slots[(size_t)q * p->n + slot];
        o->layout = layout;
        o->foreign |= (uint8_t)(1u << p->queue);
        if (s->write || transition)
            o->foreign_writers |= (uint8_t)(1u << p->queue);
    }
}

/* What the slot needs before the step and where, then its state after. A
 * barrier met at the same point is widened instead of a second one. */
static rg__planned slot_step(rg__planner *p, uint32_t slot, const rg__step *s)
{
    rg__slot_state *st = &p->slots[(size_t)p->queue * p->n + slot];
    if (st->foreign || st->foreign_prev)
        foreign_step(p, st, s, step_layout(st, s) != st->layout);
    rg__planned b = {slot_need(st, s), slot_site(p, st)};
    bool transition = b.n.new_layout != st->layout;
    bool synced = b.n.barrier;
    if (b.n.barrier && !transition && st->bar != RG__NONE && st->bar_point == b.at.point) {
        /* Nothing ran on the slot since that barrier: widen it. */
        rg__barrier *w = &p->out->barriers[st->bar];
        w->src_stage |= st->bar_src_stage;
        w->src_access |= st->bar_src_access;
        w->dst_stage |= s->stage;
        w->dst_access |= s->access;
        b.n = (rg__need){.old_layout = st->layout, .new_layout = st->layout};
    } else if (b.n.barrier) {
        st->bar_src_stage = b.n.src_stage;
        st->bar_src_access = b.n.src_access;
    }
    slot_advance(p, slot, s, b.n.new_layout, synced);
    return b;
}

static bool planned_eq(const rg__planned *a, const rg__planned *b)
{
    return a->n.barrier == b->n.barrier && a->at.point == b->at.point && a->at.hoisted == b->at.hoisted &&
           a->at.by_region == b->at.by_region && a->n.old_layout == b->n.old_layout &&
           a->n.new_layout == b->n.new_layout && a->n.src_stage == b->n.src_stage && a->n.src_access == b->n.src_access;
}

/* A new barrier of resource ri (RG__NONE: memory) where pl goes: from
 * the stages and accesses pl waits for to step s's. */
static rg__barrier *barrier_append(rg__planner *p, const rg__planned *pl, uint32_t ri, const rg__step *s)
{
    rg__sbuild *c = p->out;
    if (!rg__grow(p->g, (void **)&c->barriers, &c->barrier_cap, c->barrier_count + 1, sizeof *c->barriers))
        return NULL;
    rg__barrier *b = &c->barriers[c->barrier_count++];
    *b = (rg__barrier){.point = pl->at.point, .resource = ri, .hoisted = pl->at.hoisted, .by_region = pl->at.by_region,
                       .src_stage = pl->n.src_stage, .src_access = pl->n.src_access,
                       .dst_stage = s->stage, .dst_access = s->access};
    return b;
}

/* A run of slots of one texture access that need the same barrier: one
 * aspect mask, one mip, consecutive layers. It extends a barrier the same
 * access made for the previous mip when the layers match, else it is a new
 * barrier. */
typedef struct rg__run {
    VkImageAspectFlags aspect;
    uint32_t mip, layer, count;
    rg__planned b;
} rg__run;

static bool run_flush(rg__planner *p, uint32_t ri, const rg__step *s, const rg__run *r)
{
    const rg_graph *g = p->g;
    const rg__need *n = &r->b.n;
    if (r->count == 0 || !n->barrier)
        return true;
    uint32_t index = RG__NONE;
    for (uint32_t i = p->first_new; i < p->out->barrier_count; i++) {
        rg__barrier *b = &p->out->barriers[i];
        if (b->point == r->b.at.point && b->range.aspect == r->aspect &&
            b->range.base_layer == r->layer && b->range.layer_count == r->count &&
            b->range.base_mip + b->range.mip_count == r->mip && b->old_layout == n->old_layout &&
            b->new_layout == n->new_layout && b->src_stage == n->src_stage && b->src_access == n->src_access) {
            b->range.mip_count++;
            index = i;
            break;
        }
    }
    if (index == RG__NONE) {
        rg__barrier *b = barrier_append(p, &r->b, ri, s);
        if (!b)
            return false;
        b->range = (rg_range){r->aspect, r->mip, 1, r->layer, r->count};
        b->old_layout = n->old_layout;
        b->new_layout = n->new_layout;
        index = p->out->barrier_count - 1;
    }
    const rg__resource *res = &g->decl.resources[ri];
    for (uint32_t bits = r->aspect; bits; bits &= bits - 1)
        for (uint32_t l = 0; l < r->count; l++) {
            rg__slot_state *st = &p->slots[(size_t)p->queue * p->n +
                                       rg__sub_slot(res, (VkImageAspectFlagBits)(bits & -bits), r->mip, r->layer + l)];
            st->bar = index;
            st->bar_point = r->b.at.point;
        }
    return true;
}

bool rg__plan_texture(rg__planner *p, uint32_t ri, const rg_range *range, const rg__step *s)
{
    const rg__resource *res = &p->g->decl.resources[ri];
    p->first_new = p->out->barrier_count;
    rg__run cur = {0};
    for (uint32_t m = range->base_mip; m < range->base_mip + range->mip_count; m++) {
        for (uint32_t l = range->base_layer; l < range->base_layer + range->layer_count; l++) {
            /* Aspects of one (mip, layer) share a barrier when their needs
             * agree (a depth/stencil image without separate layouts must
             * transition both together). */
            rg__planned na[3];
            VkImageAspectFlagBits bit[3];
            uint32_t k = 0;
            bool same = true;
            for (uint32_t bits = range->aspect; bits; bits &= bits - 1, k++) {
                bit[k] = (VkImageAspectFlagBits)(bits & -bits);
                na[k] = slot_step(p, rg__sub_slot(res, bit[k], m, l), s);
                same = same && planned_eq(&na[k], &na[0]);
            }
            for (uint32_t i = 0; i < (same ? 1 : k); i++) {
                VkImageAspectFlags aspect = same ? range->aspect : (VkImageAspectFlags)bit[i];
                if (cur.count && cur.aspect == aspect && cur.mip == m && cur.layer + cur.count == l &&
                    planned_eq(&cur.b, &na[i])) {
                    cur.count++;
                    continue;
                }
                if (!run_flush(p, ri, s, &cur))
                    return false;
                cur = (rg__run){aspect, m, l, 1, na[i]};
            }
        }
    }
    return run_flush(p, ri, s, &cur);
}

bool rg__plan_buffer(rg__planner *p, uint32_t ri, const rg__step *s)
{
    const rg_graph *g = p->g;
    uint32_t slot = g->decl.resources[ri].sub_base;
    rg__slot_state *st = &p->slots[(size_t)p->queue * p->n + slot];
    rg__planned pl = slot_step(p, slot, s);
    if (!pl.n.barrier)
        return true;
    if (!barrier_append(p, &pl, ri, s))
        return false;
    st->bar = p->out->barrier_count - 1;
    st->bar_point = pl.at.point;
    return true;
}
