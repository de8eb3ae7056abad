/* A program of another project: engine and rendergraph through their
 * installed headers only, no device. Prints the versions and compiles a
 * small graph (a cleared pass whose texture is copied out, so the graph
 * has a barrier to plan). Exit 0 when everything agrees. */
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <string.h>

#ifndef CONSUMER_HOW
#define CONSUMER_HOW "pkg-config"
#endif

int main(void)
{
    printf("consumer (%s): engine %s (%u), rendergraph %s (%u)\n", CONSUMER_HOW, eng_version_string(),
           eng_version(), rg_version_string(), rg_version());
    if (strcmp(eng_version_string(), ENG_VERSION) != 0 || strcmp(rg_version_string(), RG_VERSION) != 0) {
        fprintf(stderr, "consumer: headers say %s / %s\n", ENG_VERSION, RG_VERSION);
        return 1;
    }

    rg_graph *graph = NULL;
    if (rg_graph_create(&(rg_graph_desc){ .name = "consumer" }, &graph) != RG_SUCCESS)
        return 1;
    rg_texture color = rg_texture_create(graph, &(rg_texture_desc){ .name = "color",
        .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64 });
    /* Imported: what the frame writes into it is observable, so nothing is
     * culled. */
    rg_buffer readback = rg_buffer_import(graph, &(rg_buffer_import_desc){ .name = "readback", .size = 64 * 64 * 4,
        .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT, .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_begin_rendering(graph, &(rg_rendering_desc){ .name = "clear", .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } } });
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, readback, 0);
    rg_result r = rg_compile(graph);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "consumer: rg_compile: %s: %s\n", rg_result_string(r), rg_graph_error_message(graph));
        rg_graph_destroy(graph);
        return 1;
    }
    const rg_command *order = NULL;
    uint32_t commands = rg_execution_order(graph, &order);
    uint32_t barriers = rg_barrier_count(graph);
    rg_graph_destroy(graph);
    printf("consumer: compiled %u commands, %u barriers\n", commands, barriers);
    if (commands != 3 || barriers == 0)
        return 1;
    printf("consumer: ok\n");
    return 0;
}
