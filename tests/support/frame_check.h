/* The frame-file round trip as a check (tests/README.md, "Saved frames
 * equal declared ones"): a graph saved with rgf_save_text and loaded back
 * with rgf_load_text must compile to the same result, order, barriers,
 * merges and batches, place to the same memory, and save to the same
 * text. frame_wrap.c runs these checks after every rg_compile and
 * rg_place_offline of a test program when VKG_TEST_FRAMES=1; the fuzz
 * corpus's round trip (tests/fuzz/frame_roundtrip.c) calls them directly.
 */
#ifndef TEST_FRAME_CHECK_H
#define TEST_FRAME_CHECK_H

#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stddef.h>

/* True while this thread runs a check: the compiles and placements the
 * check makes itself must not be checked again (frame_wrap.c). */
bool frame_check_active(void);

/* graph, compiled with result `compiled` (rg_compile's return): saved,
 * loaded (the saved capabilities), compiled and compared. True when they
 * agree or the declaration is empty (nothing to save); false with why
 * (n bytes) naming the graph, what differs and both values. A result
 * the declaration does not decide (out of memory, busy, a refused call
 * that kept nothing) is not checked. */
bool frame_check_graph(rg_graph *graph, rg_result compiled, char *why, size_t n);

/* graph, placed by rg_place_offline over props: saved with its memory,
 * loaded, placed from the saved memory (RGF_MEMORY_SAVED) and its totals
 * and every resource's memory kind, size, offset and pool compared, and
 * the barriers placement planned (aliasing's included). */
bool frame_check_placement(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props, char *why, size_t n);

#endif /* TEST_FRAME_CHECK_H */
