/* Writes the msaa demo's texture: a procedural brick wall, so the project
 * ships no binary asset. Run by the build: make_bricks OUT.png */
#include "texture_tool.h"

#include <math.h>

enum { SIZE = 512, ROWS = 8, BRICKS_PER_ROW = 4, MORTAR = 6 };


static void texel(int x, int y, uint8_t out[4])
{
    const int brick_h = SIZE / ROWS, brick_w = SIZE / BRICKS_PER_ROW;
    /* Shifted by half a brick down and a quarter across, so that the
     * texture's borders (the cube's edges) run through bricks, never along
     * a mortar joint: the silhouette then blends brick with background,
     * which is what the msaa test measures. */
    y = (y + brick_h / 2) % SIZE;
    x = (x + brick_w / 4) % SIZE;
    int row = y / brick_h;
    int shifted = x + (row % 2) * brick_w / 2; /* running bond: every other row by half a brick */
    int col = (shifted / brick_w) % BRICKS_PER_ROW;
    int bx = shifted % brick_w, by = y % brick_h;
    /* Distance to the nearest mortar line, in texels. */
    int edge = bx < by ? bx : by;
    if (brick_w - 1 - bx < edge) edge = brick_w - 1 - bx;
    if (brick_h - 1 - by < edge) edge = brick_h - 1 - by;
    float grain = texture_unit(texture_hash((uint32_t)x, (uint32_t)y)) - 0.5f;
    float rgb[3];
    if (edge < MORTAR / 2) {
        float g = 0.70f + 0.08f * grain;
        rgb[0] = g, rgb[1] = g * 0.97f, rgb[2] = g * 0.90f;
    } else {
        uint32_t h = texture_hash((uint32_t)col + 101u, (uint32_t)row + 7u);
        float shade = 0.80f + 0.25f * texture_unit(h), warm = 0.06f * texture_unit(h >> 16);
        /* Darker near the mortar: the brick's rounded edge in shadow. */
        float bevel = edge < MORTAR ? 0.75f + 0.25f * (float)(edge - MORTAR / 2) / (MORTAR / 2) : 1.0f;
        float s = shade * bevel * (1.0f + 0.12f * grain);
        rgb[0] = (0.70f + warm) * s, rgb[1] = (0.30f + warm) * s, rgb[2] = 0.20f * s;
    }
    for (int c = 0; c < 3; c++)
        out[c] = texture_byte(rgb[c]);
    out[3] = 255;
}

int main(int argc, char **argv)
{
    return texture_tool_main(argc, argv, SIZE, texel);
}
