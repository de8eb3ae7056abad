/* The frame the raw device tests run (tests/raw), on a device of their own
 * (raw_device.h) with no engine: two spans and a readback, declared on a
 * graph made with rg_graph_desc.device, culling on.
 *
 *   A (R32_UINT 64x64, created)  span "mark": load CLEAR 7, then a draw
 *                                clears a rectangle to 1000
 *                                (vkCmdClearAttachments)
 *   B (R32_UINT 64x64, created)  span "step": a fullscreen draw samples A
 *                                (texelFetch; declared SAMPLED_FRAGMENT) and
 *                                writes A + 1 + x + 100 y
 *                                (shaders/solid.vert, history_step.frag)
 *   readback (imported buffer)   B copied into it, read by the host
 *
 * Three frames go into one command buffer and one submission, then a
 * fourth into its own, into a second readback buffer
 * (rg_buffer_set_buffer); every pixel is compared exactly after each. The
 * test fails on any validation warning or error (synchronization
 * validation on), counted after the frames and again after the graph,
 * the rg_device, the test's objects and the VkDevice are destroyed (the
 * layer reports leaked objects then), and on any message the library
 * logs as a warning or an error. */
#ifndef TEST_RAW_FRAME_H
#define TEST_RAW_FRAME_H

/* The whole test: device, frame, checks, teardown. Skips (or fails under
 * ENG_REQUIRE_DEVICE) where no device with validation can be made. */
void test_raw_frame(void);

#endif
