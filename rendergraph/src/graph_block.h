/* The graph with its compile results, placement and execute state in one
 * allocation, and the conductors' way to each part (graph.c,
 * graph_place.c, graph_execute.c): the stages get const graphs, and the
 * conductors hand each its own part to write. Not installed.
 */
#ifndef RG_GRAPH_BLOCK_H
#define RG_GRAPH_BLOCK_H

#include "base/device.h"
#include "compile/results.h"
#include "execute/results.h"
#include "model.h"
#include "place/results.h"

typedef struct graph_block {
    rg_graph graph;                   /* first: freeing the graph frees the block */
    rg__compiled compiled;
    rg__placement placement;
    rg__execution exec;
    rg__retiring retiring;            /* graph.retiring points here */
} graph_block;

static inline rg__compiled *rg__results_of(rg_graph *g) { return &((graph_block *)(void *)g)->compiled; }
static inline rg__placement *rg__placement_of(rg_graph *g) { return &((graph_block *)(void *)g)->placement; }
static inline rg__execution *rg__block_execution(rg_graph *g) { return &((graph_block *)(void *)g)->exec; }

/* How rg__placement_free lets go of a placement: everything to the
 * device's retirement list (device.c), the kept objects too; its objects
 * kept for the next placement (place/reuse.h) where the graph may keep
 * them; or stashed whole for the same declaration (rg_graph_reset). A
 * stashed placement stays so but for RELEASE. */
typedef enum rg__free_mode { RG__FREE_RELEASE, RG__FREE_KEEP, RG__FREE_STASH } rg__free_mode;
void rg__placement_free(rg_graph *g, const char *what, rg__free_mode mode);
/* A stashed placement that will not be taken back (another placement is
 * made): its arrays and execute state go, under the kept timeline's point. */
void rg__placement_drop_stash(rg_graph *g, const char *what);
/* After a memory plan: the barriers with its alias scopes, and the state. */
rg_result rg__placed(rg_graph *g, bool on_device);
/* rg_place's stages on the graph's device, taking kept objects. */
rg_result rg__place_stages(rg_graph *g);

#endif
