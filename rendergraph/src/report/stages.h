/* What the report layer's files share: the checks every query and report
 * makes first (queries.c), the tile traffic estimate (report_traffic.c),
 * which the memory report includes, and the reports' file handling
 * (report_memory.c). Not installed.
 */
#ifndef RG_REPORT_STAGES_H
#define RG_REPORT_STAGES_H

#include "model.h"

#include <stdio.h>

/* Whether a query may read g's compile results: g given, alive (a
 * destroyed one's call `what` is refused and logged: rg__graph_live) and
 * compiled. */
bool rg__query_compiled(const rg_graph *g, const char *what);
/* What every query and report that returns an rg_result checks first: g
 * given (else RG_ERROR_INVALID_ARGUMENT, no message), alive (else
 * RG_ERROR_INVALID_HANDLE) and its argument arg, called `name`, given
 * (else RG_ERROR_INVALID_ARGUMENT with the message "what: name is NULL"). */
rg_result rg__query_begin(const rg_graph *g, const char *what, const void *arg, const char *name);
/* rg__query_begin for an out argument of size bytes, zeroed once given
 * (padding too), then the graph compiled (else RG_ERROR_NOT_COMPILED). */
rg_result rg__query_start(const rg_graph *g, const char *what, void *out, size_t size);

/* The tile traffic (report_traffic.c) of a compiled graph: per rendering
 * instance (per: instance_count entries), of the commands outside spans
 * (their reads only) and of the frame. RG_ERROR_OUT_OF_MEMORY sets no
 * message. */
rg_result rg__tile_traffic(const rg_graph *g, rg_tile_traffic *per, rg_tile_traffic *outside, rg_tile_traffic *total);
/* The tile view (tile_view.c) of every instance (instance_count entries),
 * the traffic outside spans and the frame's, spills included. */
rg_result rg__tile_views(const rg_graph *g, rg_tile_view *views, rg_tile_traffic *outside, rg_tile_traffic *total);

/* A report's file at path, opened for writing and closed, checked for
 * errors; a failure is RG_ERROR_IO with the message naming `what`. */
rg_result rg__report_open(const rg_graph *g, const char *what, const char *path, FILE **f);
rg_result rg__report_close(const rg_graph *g, const char *what, const char *path, FILE *f);

#endif
