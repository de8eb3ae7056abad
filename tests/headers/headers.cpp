// The public headers compile as C++ (C++11, -Wall -Wextra -pedantic, with
// -Werror in CI builds) and the C libraries link into a C++ program through
// their extern "C" declarations. Built with the project, so a header that
// C++ rejects fails the build; the CTest entry runs it.
#include <engine/engine.h>
#include <engine_files/engine_files.h>
#include <rendergraph_frame/rendergraph_frame.h>
#include <rendergraph/rendergraph.h>

#include <cstdio>
#include <cstring>

int main()
{
    if (std::strcmp(eng_version_string(), ENG_VERSION) != 0 || eng_version() != ENG_VERSION_NUMBER ||
        std::strcmp(rg_version_string(), RG_VERSION) != 0 || rg_version() != RG_VERSION_NUMBER) {
        std::fprintf(stderr, "version mismatch: engine %s, rendergraph %s\n", eng_version_string(),
                     rg_version_string());
        return 1;
    }

    // A device-free graph: one cleared, stored texture copied to a buffer.
    rg_graph_desc gd = {};
    gd.name = "cxx";
    rg_graph *graph = nullptr;
    if (rg_graph_create(&gd, &graph) != RG_SUCCESS)
        return 1;
    rg_texture_desc td = {};
    td.name = "color";
    td.format = VK_FORMAT_R8G8B8A8_UNORM;
    td.width = td.height = 16;
    rg_texture color = rg_texture_create(graph, &td);
    rg_buffer_desc bd = {};
    bd.name = "readback";
    bd.size = 16 * 16 * 4;
    rg_buffer readback = rg_buffer_create(graph, &bd);

    rg_rendering_desc rd = {};
    rd.name = "pass";
    rd.color_count = 1;
    rd.colors[0].texture = color;
    rd.colors[0].load = VK_ATTACHMENT_LOAD_OP_CLEAR;
    rg_begin_rendering(graph, &rd);
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, readback, 0);

    rg_result r = rg_compile(graph);
    if (r != RG_SUCCESS) {
        std::fprintf(stderr, "rg_compile: %s: %s\n", rg_result_string(r), rg_graph_error_message(graph));
        rg_graph_destroy(graph);
        return 1;
    }
    std::printf("headers_cxx: engine %s, rendergraph %s, %u barriers\n", eng_version_string(),
                rg_version_string(), rg_barrier_count(graph));
    rg_graph_destroy(graph);

    // engine's pure functions through C++ too.
    char flags[128];
    std::printf("headers_cxx: %s, %s\n", eng_result_string(ENG_ERROR_NO_MEMORY_TYPE),
                eng_memory_flags_string(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                            VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
                                        flags, sizeof flags));
    // engine_files, and the last-error message it shares with the engine.
    if (eng_write_png(nullptr, 1, 1, nullptr) != ENG_ERROR_INVALID_ARGUMENT ||
        eng_set_error(ENG_ERROR_IO, "cxx %d", 1) != ENG_ERROR_IO || std::strcmp(eng_last_error(), "cxx 1") != 0)
        return 1;
    return 0;
}
