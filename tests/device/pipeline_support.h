/* Helpers of the pipeline tests (test_pipeline*.c): a failing create's
 * poisoned handle, the whole viewport as a rectangle, a graph with a
 * readback buffer imported. */
#ifndef TEST_PIPELINE_SUPPORT_H
#define TEST_PIPELINE_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdint.h>

/* A handle a failing create must reset to NULL. */
#define POISON(type) ((type *)(uintptr_t)0x1)

extern const float pipeline_full_rect[4];

/* A graph named name on the fixture's device, and a host-visible buffer of
 * `bytes` (*readback; the test destroys it) imported into it as
 * "readback", which the host reads after the frame (*out). */
rg_graph *pipeline_readback_graph(const char *name, VkDeviceSize bytes, eng_buffer **readback, rg_buffer *out);

#endif
