/* Writes the deferred demo's ground texture: square paving stones in grey
 * grout, each stone its own shade with a little grain, so the project ships
 * no binary asset. Run by the build: make_ground OUT.png */
#include <engine/engine.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* 4x4 stones per texture; the demo repeats it over the ground. */
enum { SIZE = 512, STONES = 4, GROUT = 8 };

/* A well-mixed 32-bit hash: variation without a random generator's state,
 * so every build writes the same bytes. */
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

/* Smooth value noise over a lattice of `cell` texels: broad blotches that
 * keep a stone from looking flat. Wraps at SIZE so the texture tiles. */
static float blotch(int x, int y, int cell)
{
    int n = SIZE / cell;
    int cx = x / cell, cy = y / cell;
    float fx = (float)(x % cell) / (float)cell, fy = (float)(y % cell) / (float)cell;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    float a = unit(hash((uint32_t)(cx % n), (uint32_t)(cy % n)));
    float b = unit(hash((uint32_t)((cx + 1) % n), (uint32_t)(cy % n)));
    float c = unit(hash((uint32_t)(cx % n), (uint32_t)((cy + 1) % n)));
    float d = unit(hash((uint32_t)((cx + 1) % n), (uint32_t)((cy + 1) % n)));
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
    float grain = unit(hash((uint32_t)x + 7u, (uint32_t)y + 3u)) - 0.5f;
    float rgb[3];
    if (edge < GROUT / 2) {
        float g = 0.22f + 0.05f * grain;
        rgb[0] = g, rgb[1] = g, rgb[2] = g * 1.05f;
    } else {
        uint32_t h = hash((uint32_t)sx + 31u, (uint32_t)sy + 17u);
        float shade = 0.55f + 0.25f * unit(h), warm = 0.05f * (unit(h >> 16) - 0.5f);
        float mottle = 0.85f + 0.3f * blotch(x, y, 32);
        /* Worn, darker rims: the stone's bevel in shadow. */
        float bevel = edge < GROUT ? 0.7f + 0.3f * (float)(edge - GROUT / 2) / (GROUT / 2) : 1.0f;
        float s = shade * mottle * bevel * (1.0f + 0.10f * grain);
        rgb[0] = (0.78f + warm) * s, rgb[1] = 0.74f * s, rgb[2] = (0.68f - warm) * s;
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
