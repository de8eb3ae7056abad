/* Helpers of the GPU timings tests (test_rg_timings*.c): an rg_device
 * whose function table counts what the timings call, command buffers and
 * fences per frame with the test's own timestamps around each frame, and a
 * graph whose every pass and command outside spans is timed and checked. */
#ifndef TEST_RG_TIMINGS_SUPPORT_H
#define TEST_RG_TIMINGS_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

#define MAX_FRAMES 16u

#define MAX_BATCHES 8u

#define WAIT_NS 10000000000ull

/* Command buffers per frame and batch, a fence, and the test's own
 * timestamps around each frame of a one-batch graph. */
typedef struct runner {
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    VkQueryPool frame_queries;        /* 2 per frame: before and after rg_execute_batches */
    VkFence fence;
    uint32_t frames;                  /* recorded so far */
    VkSemaphoreSubmitInfo signals[MAX_FRAMES][MAX_BATCHES]; /* each plan's, to wait for */
    uint32_t signal_count[MAX_FRAMES];
} runner;

void timings_runner_open(runner *r);

void timings_runner_close(runner *r);

/* Records frame r->frames of g; the plan in *plan. */
void timings_record_frame(runner *r, rg_graph *g, rg_submit_plan *plan);

/* Submits the plan of the frame just recorded; wait: a semaphore value
 * its first graphics batch waits for (NULL: none); fenced: with the fence. */
void timings_submit_frame(runner *r, rg_graph *g, const rg_submit_plan *plan, const VkSemaphoreSubmitInfo *wait,
                         bool fenced);

/* Waits for the fence and for every value the frames so far signal (so
 * the layer knows their command buffers are done). */
void timings_wait_frames(runner *r);

/* One frame, recorded, submitted and waited for. */
void timings_run_frame(runner *r, rg_graph *g);

typedef struct frame_graph {
    rg_graph *g;
    eng_buffer *readback;
    rg_command clear_span, shade_span, marker, fill, copy, readback_copy, culled;
} frame_graph;

/* The marker's callback fails while this is set. */
extern bool timings_fail_marker;

/* Two spans over a texture, its readback, a compute fill (eligible for the
 * compute queue) copied to the readback, a marker without accesses, and a
 * clear nothing reads (culled). */
void timings_declare(frame_graph *fg, rg_device *dev, const char *name, bool single_queue, bool timings);

void timings_release(frame_graph *fg);

/* Every unit of the latest completed frame (frame number `frame`): times
 * above 0, names as declared, each batch's units within the batch, each
 * command's time its unit's (a span's commands their instance's), culled
 * commands without one; one batch: within the test's own frame time. */
void timings_check_frame(const runner *r, const frame_graph *fg, uint64_t frame);

/* The runner opened, fg declared on dev (NULL: the context's graph
 * device) and `frames` frames run and waited for. */
void timings_open(runner *r, frame_graph *fg, rg_device *dev, const char *name, bool single_queue, bool timings,
                  int frames);
/* fg released, then the runner closed. */
void timings_close(runner *r, frame_graph *fg);

#endif
