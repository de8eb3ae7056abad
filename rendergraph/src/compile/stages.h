/* The compile stages' functions (compile_*.c), in stage order, and the
 * accessors of their results. Not installed.
 */
#ifndef RG_COMPILE_STAGES_H
#define RG_COMPILE_STAGES_H

#include "compile/results.h"
#include "model.h"

/* Each stage reads the declaration and earlier stages' results (const) and
 * writes only its own result, which its _free releases (and zeroes). A
 * stage's error is kept (rg__fail) and its result left for _free. */
rg_result rg__compile_nodes(const rg_graph *g, rg__nodes *out);
void rg__nodes_free(const rg_graph *g, rg__nodes *n);
/* The node of command c (after compile_nodes). */
static inline uint32_t rg__node_of(const rg_graph *g, uint32_t c) { return g->compiled->nodes.of_cmd[c]; }
rg_result rg__compile_edges(const rg_graph *g, rg__edges *out);
void rg__edges_free(const rg_graph *g, rg__edges *e);
rg_result rg__compile_closure(const rg_graph *g, rg__closure *out);
void rg__closure_free(const rg_graph *g, rg__closure *c);
rg_result rg__compile_cull(const rg_graph *g, rg__cull *out);
void rg__cull_free(const rg_graph *g, rg__cull *c);
/* Whether command c was culled (after compile_cull). */
static inline bool rg__culled(const rg_graph *g, uint32_t c)
{
    return g->compiled->cull.node_culled && g->compiled->cull.node_culled[rg__node_of(g, c)];
}
/* Why command c is culled, as rg_command_info.cull_reason gives it; NULL
 * when it runs. */
static inline const char *rg__cull_reason(const rg_graph *g, uint32_t c)
{
    const rg__cull *cu = &g->compiled->cull;
    uint32_t at = cu->reason_at ? cu->reason_at[rg__node_of(g, c)] : RG__NONE;
    return at == RG__NONE ? NULL : cu->reasons + at;
}
/* RG_ERROR_READ_BEFORE_WRITE at the first read of a created subresource
 * that no earlier command writes (imports, history previous, undefined_ok
 * and CLEAR/DONT_CARE loads excepted). Writes nothing else. */
rg_result rg__compile_reads(const rg_graph *g);
rg_result rg__compile_order(const rg_graph *g, rg__levels *out);
void rg__levels_free(const rg_graph *g, rg__levels *l);
/* The order of a sequence of nodes: each node's commands in record order
 * (*out zeroed when out of memory: false). The one way a stage makes an
 * order. */
bool rg__order_of_nodes(const rg_graph *g, const uint32_t *nodes, uint32_t count, rg__order *out);
void rg__order_free(const rg_graph *g, rg__order *o);
rg_result rg__compile_schedule(const rg_graph *g, rg__schedule *out);
void rg__schedule_free(const rg_graph *g, rg__schedule *s);
/* Rendering instances from the schedule's order (made anew where merge
 * candidates become adjacent), the accesses' modes, and the usage
 * pixel-local reads need. */
rg_result rg__compile_merge(const rg_graph *g, rg__merged *out);
void rg__merged_free(const rg_graph *g, rg__merged *m);
/* The execution order (after compile_merge). */
static inline uint32_t rg__order_count(const rg_graph *g) { return g->compiled->merge.order.count; }
static inline const uint32_t *rg__order_cmds(const rg_graph *g) { return g->compiled->merge.order.cmds; }
/* An access as compile decided it: stage, access and layout. */
void rg__access_effective(const rg_graph *g, uint32_t access, VkPipelineStageFlags2 *stage, VkAccessFlags2 *mask,
                          VkImageLayout *layout);
rg_result rg__compile_fold(const rg_graph *g, rg__folds *out);
void rg__folds_free(const rg_graph *g, rg__folds *f);
/* Whether texture ri was folded into its resolve target: no image, no
 * access left (after compile_fold). */
static inline bool rg__folded(const rg_graph *g, uint32_t ri)
{
    return g->compiled->fold.into && g->compiled->fold.into[ri] != RG__NONE;
}
/* A folded span's depth target as the depth attachment it becomes: the
 * access's stage, access and layout (rg__access_effective's) changed so;
 * any other access left as given. */
void rg__fold_effective(const rg_graph *g, const rg__cmd *cmd, uint32_t ai, VkPipelineStageFlags2 *stage,
                        VkAccessFlags2 *mask, VkImageLayout *layout);
rg_result rg__compile_transient(const rg_graph *g, rg__transients *out);
void rg__transients_free(const rg_graph *g, rg__transients *t);
/* A created image's usage and whether it is transient (after compile_transient). */
static inline VkImageUsageFlags rg__image_usage(const rg_graph *g, uint32_t ri)
{
    return g->compiled->transient.usage ? g->compiled->transient.usage[ri] : g->decl.resources[ri].declared_usage;
}
/* The usage the compiled graph's accesses need of import ri's object
 * (VkImageUsageFlags or VkBufferUsageFlags; after compile_transient for a
 * texture, which adds what merging needs). */
static inline VkFlags rg__import_needs(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->is_texture ? rg__image_usage(g, ri) : r->buffer_usage;
}
static inline bool rg__transient(const rg_graph *g, uint32_t ri)
{
    return g->compiled->transient.transient && g->compiled->transient.transient[ri];
}
/* After compile: whether created texture ri would have been transient
 * (AUTO) but for a load or store op of its instance; if so, out gets the
 * log notice naming the texture, the span and the op. */
bool rg__transient_notice(const rg_graph *g, uint32_t ri, char *out, size_t size);
rg_result rg__compile_lifetimes(const rg_graph *g, rg__lifetimes *out);
void rg__lifetimes_free(const rg_graph *g, rg__lifetimes *l);
/* Resource ri's first use (RG__NONE: unused) and last (after compile_lifetimes). */
static inline uint32_t rg__first_use(const rg_graph *g, uint32_t ri) { return g->compiled->lifetimes.of[ri].first; }
static inline uint32_t rg__last_use(const rg_graph *g, uint32_t ri) { return g->compiled->lifetimes.of[ri].last; }
rg_result rg__compile_queues(const rg_graph *g, rg__queues *out);
void rg__queues_free(const rg_graph *g, rg__queues *q);
/* The queue command c runs on (after compile_queues). */
static inline rg_queue rg__queue_of(const rg_graph *g, uint32_t c)
{
    return g->compiled->queues.node_queue ? (rg_queue)g->compiled->queues.node_queue[rg__node_of(g, c)]
                                         : RG_QUEUE_GRAPHICS;
}
/* The history pairs' targets from the previous halves' reads in the order. */
rg_result rg__compile_history(const rg_graph *g, rg__history_targets *out);
void rg__history_free(const rg_graph *g, rg__history_targets *h);
/* The barriers over the execution order into out; alias: per resource,
 * what its first use waits for besides the frame before (NULL: nothing
 * shares memory). Compile runs it with NULL, placement with its plan's. */
rg_result rg__compile_barriers(const rg_graph *g, const rg__alias_scope *alias, rg__sync *out);
/* The same barriers after a reset re-declared the graph alike: their
 * public forms given the declaration's new handle tag, in place. */
void rg__sync_retag(const rg_graph *g, rg__sync *s);
void rg__sync_free(const rg_graph *g, rg__sync *s);
/* Merging's rules (compile_merge_rules.c): whether span s may join the
 * instance of spans[0..count), else false with the reason (a merge note's
 * text); the first and end access of span s (its commands' records are
 * contiguous); whether two attachments name one view; and the reason
 * writer, which returns false. */
bool rg__merge_may_join(const rg_graph *g, const uint32_t *spans, uint32_t count, uint32_t s, char *reason);
void rg__span_accesses(const rg_graph *g, uint32_t s, uint32_t *first, uint32_t *end);
bool rg__same_view(const rg_graph *g, const rg_attachment *a, const rg_attachment *b);
/* Whether count colour attachments at `samples` fit the tile of the
 * graph's caps (rg_tile_info); else false with the arithmetic in why. */
bool rg__tile_fits(const rg_graph *g, const rg_attachment *colors, uint32_t count, VkSampleCountFlagBits samples,
                   char *why, size_t size);
/* RG_ERROR_UNSUPPORTED (kept) for the first span not culled whose colour
 * alone is over a hard tile limit: the device cannot render it. */
rg_result rg__spans_fit_tile(const rg_graph *g);
/* Whether two ranges are one; the command access `access` belongs to. */
bool rg__ranges_equal(const rg_range *a, const rg_range *b);
uint32_t rg__access_cmd(const rg_graph *g, uint32_t access);
bool rg__merge_why(char *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The batches' waits' stages (compile_waits.c): per batch and queue, as
 * rg__sync.wait_stage, from the planner's per-position needs. */
rg_result rg__compile_wait_stages(const rg_graph *g, const VkPipelineStageFlags2 *pos_wait,
                                  VkPipelineStageFlags2 **out);
/* Frees every compile result (the declaration stays). */
void rg__compiled_free(rg_graph *g);
/* The log's notices of a finished compile (compile_notices.c). */
void rg__compile_notices(const rg_graph *g);

#endif
