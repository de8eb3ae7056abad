/* Helpers of the swapchain-frame tests (test_frame_graph*.c): the
 * pipelines and descriptor sets (kit), the graph of a clear, a region
 * written in compute and a copy into the swapchain image, an offscreen
 * swapchain, frames run and captured frames checked. */
#ifndef TEST_FRAME_GRAPH_SUPPORT_H
#define TEST_FRAME_GRAPH_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

#define W 24u

#define H 16u

#define CLEAR 0.25f                   /* the storage image's clear; the region holds 1.0 */

/* What the pipelines and descriptor sets share across graphs. */
typedef struct kit {
    VkDevice dev;
    eng_pipeline *region, *show;
    VkDescriptorSetLayout storage_layout, sampled_layout;
    VkDescriptorPool pool;
    VkFormat format;                  /* the swapchain's */
} kit;

/* One graph of the frame and what its callbacks read. */
typedef struct frame_graph {
    kit *k;
    rg_graph *graph;
    rg_texture back, pattern;
    rg_command dispatch;
    VkDescriptorSet storage_set, sampled_set;
    uint32_t region_w, region_h;      /* this frame's dispatch */
    bool fail_draw;                   /* the draw's callback refuses */
    /* The application's fill (frame.cmd, before the graph) and the graph's
     * copy of it into readback. */
    eng_buffer *filled, *readback;
} frame_graph;

void fg_kit_open(kit *k, VkFormat format);

void fg_kit_close(kit *k);

/* The swapchain import's final state. */
typedef enum final_state {
    FINAL_COLOR_ATTACHMENT = 0,       /* as the demos leave it */
    FINAL_UNDEFINED,                  /* left as the last use leaves it */
    FINAL_TRANSFER_SRC,               /* a layout of its own, at COPY */
} final_state;

typedef struct graph_opts {
    bool single_queue;                /* rg_graph_desc.single_queue */
    final_state final;
} graph_opts;

/* Declares and compiles the frame (see the file's head) for frames of the
 * given extent and format. */
void fg_graph_open(frame_graph *fg, kit *k, const graph_opts *o);

void fg_graph_close(frame_graph *fg);

eng_swapchain *fg_offscreen(void);

/* How every frame test starts: an offscreen swapchain (returned), the kit
 * opened on its format and the graph opened with o. */
eng_swapchain *fg_open(kit *k, frame_graph *fg, const graph_opts *o);

/* Every pixel of the capture: (1.0, 0, 0) inside the frame's region,
 * (CLEAR, 0, 0) outside, sRGB-encoded, opaque. */
void fg_expect_capture(eng_swapchain *sc, uint32_t region_w, uint32_t region_h, const char *what);

/* Frames first .. first + count - 1 through eng_swapchain_present_graph,
 * each with its own region and fill value; every third frame and the last
 * are captured (the others stay in flight) and checked, with the copy of
 * the application's fill. */
void fg_run_frames(eng_swapchain *sc, frame_graph *fg, uint32_t first, uint32_t count);

#endif
