/* A program of another project: engine and rendergraph through their
 * installed headers only, no device. Prints the versions and compiles a
 * small graph (a cleared pass whose texture is copied out, so the graph
 * has a barrier to plan). Exit 0 when everything agrees. */
#include "consumer_common.h"

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <string.h>

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
    rg_texture color = consumer_cleared(graph, "color", "clear", 64);
    rg_buffer readback = consumer_readback(graph, 64 * 64 * 4);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, readback, 0);
    return consumer_compile("consumer", graph, 3, 1);
}
