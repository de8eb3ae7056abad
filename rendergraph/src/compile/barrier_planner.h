/* The barrier planner's model (compile stage "barriers"), shared by its
 * files: a slot's state per queue (compile_barrier_slots.c moves it access
 * by access and makes the barriers), the steps and needs it reasons in,
 * and the result under construction. compile_barriers.c drives it over
 * the execution order, history pairs and the frame's end. Not installed. */
#ifndef RG_BARRIER_PLANNER_H
#define RG_BARRIER_PLANNER_H

#include "compile/stages.h"

typedef struct rg__slot_state {
    VkImageLayout layout;
    VkPipelineStageFlags2 ws, rs, vs; /* pending write, readers since, visible to */
    VkAccessFlags2 wa, va;
    uint32_t bar, bar_point;          /* the last barrier touching the slot, and its point */
    uint32_t written;                 /* position of this frame's last write or
                                         transition, RG__NONE before */
    VkPipelineStageFlags2 bar_src_stage; /* what that barrier had to wait for */
    VkAccessFlags2 bar_src_access;
    /* Several queues: each keeps its own state of the slot (a barrier
     * names only its queue's work). Queues that touched the slot since
     * this one did (bits of rg_queue), those of them that wrote it or
     * changed its layout, and whether such work was in the frame before
     * (then the frame's first waits, at every stage, cover it). */
    uint8_t foreign, foreign_writers;
    bool foreign_prev, foreign_write_prev;
} rg__slot_state;

/* One access as the planner sees it. */
typedef struct rg__step {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;             /* UNDEFINED for buffers; for a final
                                         rg__step: keep the current layout */
    bool write, final;
} rg__step;

/* What an access waits for on one slot (barrier false: nothing): the
 * source scope and the layout change. */
typedef struct rg__need {
    bool barrier;
    VkImageLayout old_layout, new_layout;
    VkPipelineStageFlags2 src_stage;
    VkAccessFlags2 src_access;
} rg__need;

/* Where a barrier is recorded: before the command at point; hoisted there
 * from inside a span; or by region, between two spans of a merged
 * instance. */
typedef struct rg__site {
    uint32_t point;
    bool hoisted, by_region;
} rg__site;

/* A barrier as planned: what it waits for and where it is recorded. */
typedef struct rg__planned {
    rg__need n;
    rg__site at;
} rg__planned;

/* The result under construction, published as rg__sync. */
typedef struct rg__sbuild {
    rg__barrier *barriers;
    uint32_t barrier_count, barrier_cap;
    uint32_t *point_start;
    uint32_t point_max;
    rg__history_clear *history_clears;
    uint32_t history_clear_count, history_clear_cap;
} rg__sbuild;

typedef struct rg__planner {
    const rg_graph *g;
    rg__sbuild *out;
    rg__slot_state *slots;                /* nq blocks of n: one per queue */
    uint32_t nq, n;
    rg_queue queue;                   /* the current access's queue */
    /* The planner's other output: per position and queue r, the stages at
     * which the command there needs what queue r did. */
    VkPipelineStageFlags2 *pos_wait;
    uint32_t pos;                     /* the access's command's position */
    uint32_t point;
    bool hoisted;
    /* A span after the first of a merged instance: its instance's begin
     * position and its own begin point (else RG__NONE). */
    uint32_t instance_begin, local_point;
    uint32_t first_new;               /* first barrier made by the current access */
} rg__planner;

/* Plans access step s of the current command to texture ri's subresources
 * in range (compile_barrier_slots.c), or to buffer ri: the barriers it
 * needs, merged with those already at the same point; false when out of
 * host memory. */
bool rg__plan_texture(rg__planner *p, uint32_t ri, const rg_range *range, const rg__step *s);
bool rg__plan_buffer(rg__planner *p, uint32_t ri, const rg__step *s);

#endif
