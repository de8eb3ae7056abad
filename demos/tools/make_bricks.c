/* Writes the msaa demo's texture: a procedural brick wall, so the project
 * ships no binary asset. Run by the build: make_bricks OUT.png */
#include <engine/engine.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { SIZE = 512, ROWS = 8, BRICKS_PER_ROW = 4, MORTAR = 6 };

/* A well-mixed 32-bit hash: per-brick and per-texel variation without a
 * random generator's state, so every build writes the same bytes. */
static uint32_t hash(uint32_t x, uint32_t y)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return h;
}

static float unit(uint32_t h) { return (float)(h & 0xffffu) / 65535.0f; }

static uint8_t to_byte(float v) { return (uint8_t)lroundf(fminf(fmaxf(v, 0.0f), 1.0f) * 255.0f); }

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
    float grain = unit(hash((uint32_t)x, (uint32_t)y)) - 0.5f;
    float rgb[3];
    if (edge < MORTAR / 2) {
        float g = 0.70f + 0.08f * grain;
        rgb[0] = g, rgb[1] = g * 0.97f, rgb[2] = g * 0.90f;
    } else {
        uint32_t h = hash((uint32_t)col + 101u, (uint32_t)row + 7u);
        float shade = 0.80f + 0.25f * unit(h), warm = 0.06f * unit(h >> 16);
        /* Darker near the mortar: the brick's rounded edge in shadow. */
        float bevel = edge < MORTAR ? 0.75f + 0.25f * (float)(edge - MORTAR / 2) / (MORTAR / 2) : 1.0f;
        float s = shade * bevel * (1.0f + 0.12f * grain);
        rgb[0] = (0.70f + warm) * s, rgb[1] = (0.30f + warm) * s, rgb[2] = 0.20f * s;
    }
    for (int c = 0; c < 3; c++)
        out[c] = to_byte(rgb[c]);
    out[3] = 255;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    uint8_t *rgba = malloc((size_t)SIZE * SIZE * 4);
    if (!rgba) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++)
            texel(x, y, &rgba[((size_t)y * SIZE + (size_t)x) * 4]);
    eng_result r = eng_write_png(argv[1], SIZE, SIZE, rgba);
    free(rgba);
    if (r != ENG_SUCCESS) {
        fprintf(stderr, "%s: %s: %s\n", argv[0], eng_result_string(r), eng_last_error());
        return 1;
    }
    return 0;
}
