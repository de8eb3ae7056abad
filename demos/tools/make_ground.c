/* Writes the deferred demo's ground texture: square paving stones in grey
 * grout, each stone its own shade with a little grain, so the project ships
 * no binary asset. Run by the build: make_ground OUT.png */
#include "texture_tool.h"

#include <math.h>

/* 4x4 stones per texture; the demo repeats it over the ground. */
enum { SIZE = 512, STONES = 4, GROUT = 8 };

/* Smooth value noise over a lattice of `cell` texels: broad blotches that
 * keep a stone from looking flat. Wraps at SIZE so the texture tiles. */
static float blotch(int x, int y, int cell)
{
    int n = SIZE / cell;
    int cx = x / cell, cy = y / cell;
    float fx = (float)(x % cell) / (float)cell, fy = (float)(y % cell) / (float)cell;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    float a = texture_unit(texture_hash((uint32_t)(cx % n), (uint32_t)(cy % n)));
    float b = texture_unit(texture_hash((uint32_t)((cx + 1) % n), (uint32_t)(cy % n)));
    float c = texture_unit(texture_hash((uint32_t)(cx % n), (uint32_t)((cy + 1) % n)));
    float d = texture_unit(texture_hash((uint32_t)((cx + 1) % n), (uint32_t)((cy + 1) % n)));
    return (a + (b - a) * fx) + ((c + (d - c) * fx) - (a + (b - a) * fx)) * fy;
}

static void texel(int x, int y, uint8_t out[4])
{
    const int stone = SIZE / STONES;
    int sx = x / stone, sy = y / stone, bx = x % stone, by = y % stone;
    /* Distance to the nearest joint, in texels. */
    int edge = bx < by ? bx : by;
    if (stone - 1 - bx < edge) edge = stone - 1 - bx;
    if (stone - 1 - by < edge) edge = stone - 1 - by;
    float grain = texture_unit(texture_hash((uint32_t)x + 7u, (uint32_t)y + 3u)) - 0.5f;
    float rgb[3];
    if (edge < GROUT / 2) {
        float g = 0.22f + 0.05f * grain;
        rgb[0] = g, rgb[1] = g, rgb[2] = g * 1.05f;
    } else {
        uint32_t h = texture_hash((uint32_t)sx + 31u, (uint32_t)sy + 17u);
        float shade = 0.55f + 0.25f * texture_unit(h), warm = 0.05f * (texture_unit(h >> 16) - 0.5f);
        float mottle = 0.85f + 0.3f * blotch(x, y, 32);
        /* Worn, darker rims: the stone's bevel in shadow. */
        float bevel = edge < GROUT ? 0.7f + 0.3f * (float)(edge - GROUT / 2) / (GROUT / 2) : 1.0f;
        float s = shade * mottle * bevel * (1.0f + 0.10f * grain);
        rgb[0] = (0.78f + warm) * s, rgb[1] = 0.74f * s, rgb[2] = (0.68f - warm) * s;
    }
    for (int c = 0; c < 3; c++)
        out[c] = texture_byte(rgb[c]);
    out[3] = 255;
}

int main(int argc, char **argv)
{
    return texture_tool_main(argc, argv, SIZE, texel);
}
