/* Helpers of the render graph's device tests (tests/device/test_rg_*.c),
 * on the fixture's context (test_ctx): a graph, its compile and execution
 * asserted to succeed, and host-visible buffers imported for uploads and
 * readbacks. */
#ifndef TEST_RG_SUPPORT_H
#define TEST_RG_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>

/* Culling off: device tests check what commands record, whether or not an
 * import sees their results (test_rg_cull.c tests culling). */
rg_graph *test_device_graph(const char *name);
void test_compile(rg_graph *g);
/* A texture of d, named name (d itself unchanged). */
rg_texture test_texture_named(rg_graph *g, rg_texture_desc d, const char *name);
/* Executes g `times` times into one command buffer, submits and waits,
 * and tells g that nothing of it is in flight (rg_graph_set_retire_point
 * with no handles). */
void test_run(rg_graph *g, int times);
/* Executes g once (test_execute) into a command buffer submitted and
 * waited for; what it returned, for the test to check (a refusal too). */
rg_result test_execute_once(rg_graph *g);
/* A timeline semaphore at 0 on dev (the host signals it, frames wait on
 * it); the test destroys it. */
VkSemaphore test_timeline(VkDevice dev);
/* Host-visible, coherent, mapped; filled from data or zeroed. */
eng_buffer *test_host_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void *data);
/* Imported as written by the host before the frame; readback: read by the
 * host after it. */
rg_buffer test_import_buffer(rg_graph *g, const char *name, eng_buffer *b, bool readback);
/* Mesa's major version on lavapipe; 0 on another driver. */
unsigned test_lavapipe_mesa(void);
/* Skips the test where the driver resolves into layer 0 (and mip 0) of any
 * resolve view (lavapipe: Mesa 22.3 for color and depth, Mesa 25.0 for
 * depth), folded or not. */
void test_skip_if_resolve_ignores_base_layer(bool depth);
/* A w x h RGBA8 texture "color" cleared to clear_rgba, copied into a
 * pooled buffer "staging", which is copied into readback (imported as
 * "readback", read by the host after the frame). */
void test_declare_cleared_copy(rg_graph *g, uint32_t w, uint32_t h, const float clear_rgba[4], eng_buffer *readback);
/* A draw that records nothing (attachments' load and store ops do the work). */
bool test_record_nothing(const rg_record_context *rc, void *user);

#endif
