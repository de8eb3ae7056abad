/* The tile traffic estimate (report_traffic.c), which the memory report
 * includes. Not installed.
 */
#ifndef RG_REPORT_TRAFFIC_H
#define RG_REPORT_TRAFFIC_H

#include "model.h"

/* The tile traffic (report_traffic.c) of a compiled graph: per rendering
 * instance (per: instance_count entries), of the commands outside spans
 * (their reads only) and of the frame. RG_ERROR_OUT_OF_MEMORY sets no
 * message. */
rg_result rg__tile_traffic(const rg_graph *g, rg_tile_traffic *per, rg_tile_traffic *outside, rg_tile_traffic *total);

#endif
