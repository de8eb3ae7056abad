/* What consumer.c and consumer_graph.c share: how the program was built
 * (CONSUMER_HOW, set by the project), a texture cleared by a span, the
 * host readback that keeps a device-free frame from being culled, and the
 * frame's compile, whose plan is checked and printed. Header-only: each program is one file of
 * another project (CMakeLists.txt). */
#ifndef CONSUMER_COMMON_H
#define CONSUMER_COMMON_H

#include <rendergraph/rendergraph.h>

#include <stdio.h>

#ifndef CONSUMER_HOW
#define CONSUMER_HOW "pkg-config"
#endif

/* A size x size RGBA8 texture `name`, cleared by a span `span` of its own. */
static inline rg_texture consumer_cleared(rg_graph *graph, const char *name, const char *span, uint32_t size)
{
    rg_texture t = rg_texture_create(graph, &(rg_texture_desc){ .name = name, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = size, .height = size });
    rg_begin_rendering(graph, &(rg_rendering_desc){ .name = span, .color_count = 1,
        .colors = { { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } } });
    rg_end_rendering(graph);
    return t;
}

/* A buffer of `bytes` imported into graph and read by the host after the
 * frame: what the frame writes into it is observable, so nothing is
 * culled. */
static inline rg_buffer consumer_readback(rg_graph *graph, VkDeviceSize bytes)
{
    return rg_buffer_import(graph, &(rg_buffer_import_desc){ .name = "readback", .size = bytes,
                                                             .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                             .final_access = VK_ACCESS_2_HOST_READ_BIT });
}

/* Compiles graph and destroys it; prints (as program) how many commands
 * and barriers it planned. 0 when those are `commands` commands and at
 * least min_barriers barriers, else 1. */
static inline int consumer_compile(const char *program, rg_graph *graph, uint32_t commands, uint32_t min_barriers)
{
    rg_result r = rg_compile(graph);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "%s: rg_compile: %s: %s\n", program, rg_result_string(r), rg_graph_error_message(graph));
        rg_graph_destroy(graph);
        return 1;
    }
    const rg_command *order = NULL;
    uint32_t planned = rg_execution_order(graph, &order);
    uint32_t barriers = rg_barrier_count(graph);
    rg_graph_destroy(graph);
    printf("%s: compiled %u commands, %u barriers\n", program, planned, barriers);
    if (planned != commands || barriers < min_barriers)
        return 1;
    printf("%s: ok\n", program);
    return 0;
}

#endif
