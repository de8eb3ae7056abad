/* The device suite's switch between the two ways of recording a frame
 * (rendergraph.h, "Parallel recording"): whole (rg_execute,
 * rg_execute_batches, eng_swapchain_present_graph), or in chunks.
 *
 *   VKG_TEST_CHUNKS=N      every frame the tests record through these
 *                          helpers is cut for max_chunks N (1 to 64), its
 *                          chunks recorded in order on the test's thread
 *   VKG_TEST_CHUNKS=N:T    the same, the chunks recorded on T rg_workers
 *                          threads at once
 *   unset or 0             whole, as the helpers' names say
 *
 * In chunks, each chunk is recorded into a command buffer of a pool of
 * its own (threads record at once):
 *   - test_execute: secondaries, executed in order into the command buffer
 *     the test gave (one vkCmdExecuteCommands each), which the test
 *     submits as it would have; a suspended instance resumes in the next
 *     secondary, nothing recorded between them, as Vulkan requires;
 *   - test_execute_batches: primaries, listed by the graph's own plan,
 *     which the test submits with rg_submit as it would have (what an
 *     application does); the command buffers the test gave stay as the
 *     test left them and are not submitted. (In secondaries, the 1.4.309
 *     layer's synchronization validation reports hazards between frames
 *     on several queues that the same calls in primaries do not have.)
 * Every check the test makes (pixels, validation, synchronization
 * validation, the graph's state) then holds for the chunked frame.
 * The pools live until the fixture destroys their context; the workers
 * (rg_workers, no Vulkan object) live as long as the process. */
#ifndef TEST_CHUNKS_H
#define TEST_CHUNKS_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

/* max_chunks the switch asks for; 0: frames are recorded whole. */
uint32_t test_chunks_max(void);
/* Whether chunks record on other threads (whose eng_last_error is their
 * own: the engine's last error is per thread). */
bool test_chunks_threaded(void);
/* rg_execute(g, cmd), or the frame in chunks executed into cmd; g's
 * device is the fixture's (test_ctx), or ctx's. */
rg_result test_execute(rg_graph *g, VkCommandBuffer cmd);
rg_result test_execute_on(eng_context *ctx, rg_graph *g, VkCommandBuffer cmd);
/* test_execute_on into a command buffer of ctx submitted once and waited
 * for (asserted); what it returned, for the test to check. */
rg_result test_execute_once_on(eng_context *ctx, rg_graph *g);
/* rg_execute_batches(g, cmds, plan), or the frame in chunks recorded into
 * primaries of the helper's, which the plan lists (plan is required). */
rg_result test_execute_batches(rg_graph *g, const VkCommandBuffer *cmds, rg_submit_plan *plan);
/* eng_swapchain_present_graph, or eng_swapchain_present_graph_parallel
 * cut as the switch says. */
eng_result test_present_graph(eng_swapchain *swapchain, eng_frame *frame, rg_graph *graph, rg_texture backbuffer);

#endif
