/* bench_frame: a placed graph's frame recorded by hand, for graph_cpu and
 * gpu_frame: the barriers the graph computed (rg_barrier_get, one
 * vkCmdPipelineBarrier2 per point as rg_execute groups them), its spans'
 * rendering infos (rg_span_get_rendering) and its user commands' callbacks
 * (rg_command_get_info, each called with its command's context from
 * rg_record_context_for, so it sees what rg_execute would let it see),
 * flattened once into plain arrays and replayed with vkCmdPipelineBarrier2
 * / vkCmdBeginRendering / vkCmdEndRendering / the callbacks; a merged
 * span continues its instance with the locations and input indices of
 * rg_command_get_rendering. Everything
 * comes from the graph's public queries.
 *
 * Built-in transfer commands (copies, clears, blits) are not supported:
 * bench_flatten fails with a message. Also used by the device test that
 * checks the barrier list against what rg_execute records.
 */
#ifndef BENCH_FRAME_H
#define BENCH_FRAME_H

#include <rendergraph/rendergraph.h>

#include <stdbool.h>
#include <stdint.h>

/* The flattened frame. */
typedef struct bench_flat bench_flat;

typedef struct bench_flat_counts {
    uint32_t barrier_calls;           /* vkCmdPipelineBarrier2 calls */
    uint32_t image_barriers;          /* VkImageMemoryBarrier2 structs */
    uint32_t buffer_barriers;         /* VkBufferMemoryBarrier2 structs */
    uint32_t memory_barriers;         /* VkMemoryBarrier2 structs */
    uint32_t spans, calls;            /* vkCmdBeginRendering, callbacks */
} bench_flat_counts;

/* What rg_execute records for g, counted from the public barrier list the
 * way rg_execute groups it (one call per execution-order point that has
 * barriers; memory barriers folded into one per call). */
bench_flat_counts bench_graph_counts(const rg_graph *g);

/* Flattens g, which must be placed and executed once (so that imports'
 * attachment views are bound), on the device it was placed on (merged
 * spans need its VK_KHR_dynamic_rendering_local_read commands). NULL on
 * failure: *error says why. */
bench_flat *bench_flatten(rg_graph *g, VkDevice device, const char **error);
void bench_flat_destroy(bench_flat *flat);
bench_flat_counts bench_flat_get_counts(const bench_flat *flat);
/* Records the frame by hand; false when a callback failed (no rendering
 * instance is left open). */
bool bench_flat_record(const bench_flat *flat, VkCommandBuffer cmd);

#endif
