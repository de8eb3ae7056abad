/* bench_frame: the same frame recorded two ways, for graph_cpu and gpu_frame.
 *
 *   1. through the compiled graph (rg_execute);
 *   2. by hand: the barriers the graph computed (rg_barrier_get, grouped by
 *      rg_execution_order as rg_execute groups them), the rendering infos
 *      of its spans and its draw callbacks, flattened once into plain arrays
 *      and replayed with vkCmdPipelineBarrier2 / vkCmdBeginRendering /
 *      vkCmdEndRendering / the callbacks.
 *
 * The flat arrays need what the public API does not hand out after the
 * fact: each span's rg_rendering_desc, each draw's callback, and textures'
 * VkImage and VkImageView. So the frame is declared through the bench_rg_*
 * wrappers below, which forward to the rg_ calls and keep a copy (a
 * "capture"). The deferred demo's frame (demos/deferred/deferred_frame.c)
 * is compiled for the benchmarks with -Drg_cmd_user=bench_rg_cmd_user and
 * the like, so its own declaration goes through them unchanged.
 *
 * Callbacks get a bench context in place of rg_record_context: through the
 * graph it wraps the real one (bench_rg_record_* forward to it); by hand it
 * holds the command buffer, and views and images come from the capture.
 *
 * Only what the benchmark frames use is supported: user commands, spans
 * (colors, depth, resolves) and texture and memory barriers. Anything else
 * makes bench_flatten fail with a message.
 */
#ifndef BENCH_FRAME_H
#define BENCH_FRAME_H

#include <rendergraph/rendergraph.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct bench_capture bench_capture;

/* A capture for frames of at most max_commands commands and max_textures
 * textures. stub: every user command's callback is replaced by one that
 * records nothing (accesses kept), to measure the graph's own cost. */
bench_capture *bench_capture_create(uint32_t max_commands, uint32_t max_textures, bool stub);
void bench_capture_destroy(bench_capture *cap);
/* Forgets the declaration (after rg_graph_reset, before declaring again). */
void bench_capture_reset(bench_capture *cap);
/* The capture the bench_rg_* wrappers write to (NULL: they only forward). */
void bench_capture_use(bench_capture *cap);
/* "" when fine, else what went wrong (too many commands, unsupported). */
const char *bench_capture_error(const bench_capture *cap);

/* The wrappers (same signatures as the rg_ calls). */
rg_texture bench_rg_texture_create(rg_graph *g, const rg_texture_desc *desc);
rg_texture bench_rg_texture_import(rg_graph *g, const rg_texture_import_desc *desc);
rg_command bench_rg_cmd_user(rg_graph *g, const rg_user_desc *desc);
rg_command bench_rg_begin_rendering(rg_graph *g, const rg_rendering_desc *desc);
rg_command bench_rg_end_rendering(rg_graph *g);
VkCommandBuffer bench_rg_record_cmd(const rg_record_context *rc);
VkImage bench_rg_record_image(const rg_record_context *rc, rg_texture texture);
VkImageView bench_rg_record_view(const rg_record_context *rc, rg_texture texture);
VkBuffer bench_rg_record_buffer(const rg_record_context *rc, rg_buffer buffer);

/* The flattened frame. */
typedef struct bench_flat bench_flat;

typedef struct bench_flat_counts {
    uint32_t barrier_calls;           /* vkCmdPipelineBarrier2 calls */
    uint32_t image_barriers;          /* VkImageMemoryBarrier2 structs */
    uint32_t memory_barriers;         /* VkMemoryBarrier2 structs */
    uint32_t spans, calls;            /* vkCmdBeginRendering, callbacks */
} bench_flat_counts;

/* What rg_execute records for g, counted from the public barrier list the
 * way execute.c groups it (one call per execution-order point that has
 * barriers; memory barriers folded into one per call). */
bench_flat_counts bench_graph_counts(const rg_graph *g);

/* Flattens g (compiled, executed at least once so that it is placed, its
 * barriers carry the alias scopes, and the capture saw its Vulkan objects).
 * NULL on failure: *error says why. */
bench_flat *bench_flatten(bench_capture *cap, const rg_graph *g, const char **error);
void bench_flat_destroy(bench_flat *flat);
bench_flat_counts bench_flat_get_counts(const bench_flat *flat);
/* Records the frame by hand; false when a callback failed (no rendering
 * instance is left open). */
bool bench_flat_record(const bench_flat *flat, VkCommandBuffer cmd);

#endif
