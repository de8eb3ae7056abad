/* The memory_budget benchmark's frame (benchmarks/memory_budget.c), which
 * the tile-memory layer's tests declare too (tests/device/test_tile_*.c):
 * sets of a 4x multisampled colour and depth, cleared and discarded, the
 * colour resolved into one imported image. On a tile GPU the sets' memory
 * is lazily allocated; elsewhere the graph aliases it. */
#ifndef MSAA_SETS_H
#define MSAA_SETS_H

#include <rendergraph/rendergraph.h>

#include <stdbool.h>
#include <stdint.h>

/* One span "set" of a w x h 4x RGBA8 colour "color" and D32 depth "depth",
 * both cleared (the colour to clear) and discarded, the colour resolved
 * into resolved, around one draw that records nothing; returns the
 * colour. */
rg_texture msaa_set(rg_graph *g, uint32_t w, uint32_t h, rg_texture resolved, VkClearColorValue clear);

#endif
