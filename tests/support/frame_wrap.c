/* VKG_TEST_FRAMES=1: every rg_compile and rg_place_offline of a test
 * program is followed by the frame-file round trip of frame_check.h, so
 * the whole suite checks that a saved and loaded frame compiles and places
 * as the declared one (tests/README.md). Linked with GNU ld's
 * -Wl,--wrap=rg_compile -Wl,--wrap=rg_place_offline (tests/CMakeLists.txt,
 * test_frames): the program's calls reach __wrap_*, the library's own
 * functions are __real_*. A mismatch prints why and aborts, so the test
 * fails wherever it compiled. The checker's own compiles and placements
 * (frame_check_active) go straight to the library. */
#include "frame_check.h"

#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rg_result __real_rg_compile(rg_graph *graph);
rg_result __real_rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                                  rg_requirements_fn requirements, void *user);
rg_result __wrap_rg_compile(rg_graph *graph);
rg_result __wrap_rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                                  rg_requirements_fn requirements, void *user);

/* Read each time: cheap next to a compile, and no shared state. */
static bool fw_enabled(void)
{
    const char *v = getenv("VKG_TEST_FRAMES");
    return v && strcmp(v, "1") == 0;
}

/* Prints why, and with VKG_TEST_FRAMES_DUMP=1 the graph's frame text
 * (the reproducer: rgf_load_text it), then aborts. */
static void fw_abort(const rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props, const char *why)
{
    fprintf(stderr, "VKG_TEST_FRAMES: %s\n", why);
    const char *dump = getenv("VKG_TEST_FRAMES_DUMP");
    char *text = NULL;
    if (dump && strcmp(dump, "1") == 0 &&
        rgf_save_text(graph, &(rgf_save_desc){.memory = props}, &text, NULL) == RG_SUCCESS)
        fprintf(stderr, "VKG_TEST_FRAMES: the saved frame:\n%s\n", text);
    rgf_free(text);
    fflush(stderr);
    abort();
}

rg_result __wrap_rg_compile(rg_graph *graph)
{
    rg_result r = __real_rg_compile(graph);
    if (!graph || frame_check_active() || !fw_enabled())
        return r;
    /* A call on a destroyed graph (refused, never read) has no frame. */
    if (r == RG_ERROR_INVALID_HANDLE && strstr(rg_graph_error_message(graph), "was destroyed"))
        return r;
    char why[1024];
    if (!frame_check_graph(graph, r, why, sizeof why))
        fw_abort(graph, NULL, why);
    return r;
}

rg_result __wrap_rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                                  rg_requirements_fn requirements, void *user)
{
    rg_result r = __real_rg_place_offline(graph, props, requirements, user);
    if (r != RG_SUCCESS || !graph || !props || frame_check_active() || !fw_enabled())
        return r;
    char why[1024];
    if (!frame_check_placement(graph, props, why, sizeof why))
        fw_abort(graph, props, why);
    return r;
}
