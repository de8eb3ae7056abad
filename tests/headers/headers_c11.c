/* The public headers compile as strict ISO C11 (-std=c11 -pedantic, with
 * -Wstrict-prototypes and -Wmissing-prototypes; -Werror in CI builds):
 * rendergraph.h on its own first (it must not rely on engine.h having been
 * included), then engine.h after it, then engine_files.h. Built with the
 * project; the CTest entry runs it. RG_EXPERIMENTAL is the application's
 * to define first (a redefinition would warn, an error with -Werror). */
#define RG_EXPERIMENTAL __attribute__(())
#include <rendergraph/rendergraph.h>
#include <engine/engine.h>
#include <engine_files/engine_files.h>
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    _Static_assert(ENG_VERSION_NUMBER == ENG_MAKE_VERSION(ENG_VERSION_MAJOR, ENG_VERSION_MINOR,
                                                          ENG_VERSION_PATCH), "ENG_VERSION_NUMBER");
    _Static_assert(RG_VERSION_NUMBER == ENG_VERSION_NUMBER, "engine and rendergraph share a version");
    rg_graph *graph = NULL;
    if (rg_graph_create(&(rg_graph_desc){ .name = "c11" }, &graph) != RG_SUCCESS)
        return 1;
    rg_graph_destroy(graph);
    /* engine_files reports through the engine's last-error message. */
    if (eng_write_png(NULL, 1, 1, NULL) != ENG_ERROR_INVALID_ARGUMENT || !strstr(eng_last_error(), "eng_write_png"))
        return 1;
    printf("headers_c11: engine %s, rendergraph %s\n", eng_version_string(), rg_version_string());
    return strcmp(eng_version_string(), ENG_VERSION) == 0 && strcmp(rg_version_string(), RG_VERSION) == 0 ? 0 : 1;
}
