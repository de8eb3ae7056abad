/* A program of another project that takes the render graph alone, on a
 * machine with Vulkan's headers and no Vulkan loader: only
 * <rendergraph/rendergraph.h>, linked with rendergraph and nothing else (no
 * engine, no libvulkan; run.cmake's graph_only mode checks the link line).
 * Declares a small frame (a cleared pass blitted into a second texture,
 * then copied out) and compiles it without a device. Exit 0 when everything
 * agrees. */
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <string.h>

#ifndef CONSUMER_HOW
#define CONSUMER_HOW "pkg-config"
#endif

int main(void)
{
    printf("consumer_graph (%s): rendergraph %s (%u)\n", CONSUMER_HOW, rg_version_string(), rg_version());
    if (strcmp(rg_version_string(), RG_VERSION) != 0) {
        fprintf(stderr, "consumer_graph: the header says %s\n", RG_VERSION);
        return 1;
    }

    rg_graph *graph = NULL;
    if (rg_graph_create(&(rg_graph_desc){ .name = "consumer_graph" }, &graph) != RG_SUCCESS)
        return 1;
    rg_texture scene = rg_texture_create(graph, &(rg_texture_desc){ .name = "scene",
        .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 32, .height = 32 });
    rg_texture color = rg_texture_create(graph, &(rg_texture_desc){ .name = "color",
        .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 32, .height = 32 });
    /* Imported and read back by the host: observable, so nothing is culled. */
    rg_buffer readback = rg_buffer_import(graph, &(rg_buffer_import_desc){ .name = "readback", .size = 32 * 32 * 4,
        .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT, .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_begin_rendering(graph, &(rg_rendering_desc){ .name = "scene", .color_count = 1,
        .colors = { { .texture = scene, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } } });
    rg_end_rendering(graph);
    rg_cmd_blit(graph, scene, 0, color, 0, VK_FILTER_NEAREST);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, readback, 0);
    rg_result r = rg_compile(graph);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "consumer_graph: rg_compile: %s: %s\n", rg_result_string(r), rg_graph_error_message(graph));
        rg_graph_destroy(graph);
        return 1;
    }
    const rg_command *order = NULL;
    uint32_t commands = rg_execution_order(graph, &order);
    uint32_t barriers = rg_barrier_count(graph);
    rg_graph_destroy(graph);
    printf("consumer_graph: compiled %u commands, %u barriers\n", commands, barriers);
    if (commands != 4 || barriers < 2)
        return 1;
    printf("consumer_graph: ok\n");
    return 0;
}
