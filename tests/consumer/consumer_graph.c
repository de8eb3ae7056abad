/* A program of another project that takes the render graph alone, on a
 * machine with Vulkan's headers and no Vulkan loader: only
 * <rendergraph/rendergraph.h>, linked with rendergraph and nothing else (no
 * engine, no libvulkan; run.cmake's graph_only mode checks the link line).
 * Declares a small frame (a cleared pass blitted into a second texture,
 * then copied out) and compiles it without a device. Exit 0 when everything
 * agrees. */
#include "consumer_common.h"

#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <string.h>

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
    rg_texture scene = consumer_cleared(graph, "scene", "scene", 32);
    rg_texture color = rg_texture_create(graph, &(rg_texture_desc){ .name = "color",
        .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 32, .height = 32 });
    rg_buffer readback = consumer_readback(graph, 32 * 32 * 4);
    rg_cmd_blit(graph, scene, 0, color, 0, VK_FILTER_NEAREST);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, readback, 0);
    return consumer_compile("consumer_graph", graph, 4, 2);
}
