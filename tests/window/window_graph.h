/* The window tests' frames, declared as a render graph the way the demos'
 * frames are (demos/common/demo_graph.c): the acquired swapchain image is
 * imported and one span clears it, through a transient MSAA color
 * attachment resolved into it when samples > 1 and with a transient depth
 * attachment when depth_format is set, and draws a solid rectangle over the
 * left half; eng_swapchain_finish_image then hands the image back for
 * capture and presentation. */
#ifndef WINDOW_GRAPH_H
#define WINDOW_GRAPH_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

typedef struct window_plan {
    float clear[4];                   /* linear */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    VkFormat depth_format;            /* UNDEFINED = none */
    const eng_pipeline *pipeline;     /* solid.h's; NULL = clear only */
    float rect_color[4];              /* drawn over the left half at depth 0.5 */
} window_plan;

typedef struct window_graph {
    eng_context *ctx;
    rg_graph *graph;
    rg_texture backbuffer;
    window_plan plan;                 /* as declared */
    VkExtent2D extent;                /* as declared; 0 = nothing declared yet */
    uint32_t declarations;
    /* The graph's WARNINGs that lazily allocated memory ran out (its
     * other messages go to stderr as the default log prints them). */
    unsigned lazy_fallbacks;
} window_graph;

rg_result window_graph_create(eng_context *ctx, window_graph *wg);
/* Waits for the device (frames in flight use the graph's memory) and frees
 * the graph. */
void window_graph_destroy(window_graph *wg);

/* Records frame f into f->cmd: declares and compiles the frame again when
 * the plan or the frame's extent changed (after waiting for the device, as
 * the old placement is freed), executes it and calls
 * eng_swapchain_finish_image. A failure (out of memory at placement)
 * records nothing, and rg_graph_error_message(wg->graph) says why
 * (eng_last_error() for a failed wait): the same call may be made again. */
rg_result window_graph_record(window_graph *wg, eng_swapchain *sc, const eng_frame *f, const window_plan *plan);

#endif
