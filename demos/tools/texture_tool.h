/* What the build-time texture generators share (make_bricks, make_ground):
 * a stateless hash for per-texel variation, so every build writes the same
 * bytes, and the main program: texture_tool_main(argc, argv, size, texel)
 * writes a size x size RGBA8 PNG whose texels come from texel(). */
#ifndef TEXTURE_TOOL_H
#define TEXTURE_TOOL_H

#include <stdint.h>

/* A well-mixed 32-bit hash of a lattice point. */
uint32_t texture_hash(uint32_t x, uint32_t y);
/* The hash's low 16 bits as a float in [0, 1]. */
float texture_unit(uint32_t h);
/* [0, 1] (clamped) to 0..255. */
uint8_t texture_byte(float v);

/* usage: PROGRAM OUT.png. Returns the process exit status. */
int texture_tool_main(int argc, char **argv, int size, void (*texel)(int x, int y, uint8_t out[4]));

#endif
