/* rgtool dot and rgtool timeline: the library's own writers, on a frame
 * loaded and placed as rgtool plan loads it. */
#include "rgtool.h"

/* Graphviz DOT of the compiled graph (rgf_frame_place compiled it). */
int rgt_write_dot(const rgt_frame *frame, const char *path)
{
    if (rg_write_dot(frame->graph, path) != RG_SUCCESS) {
        fprintf(stderr, "rgtool: %s\n", rg_graph_error_message(frame->graph));
        return RGT_EXIT_TROUBLE;
    }
    return RGT_EXIT_OK;
}

/* The pools over the execution order as SVG: needs the placement. */
int rgt_write_timeline(const rgt_frame *frame, const char *path)
{
    if (rg_memory_timeline_svg(frame->graph, path) != RG_SUCCESS) {
        fprintf(stderr, "rgtool: %s\n", rg_graph_error_message(frame->graph));
        return RGT_EXIT_TROUBLE;
    }
    return RGT_EXIT_OK;
}
