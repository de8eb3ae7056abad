/* The shared part of the texture generators (texture_tool.h). */
#include "texture_tool.h"

#include <engine_files/engine_files.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

uint32_t texture_hash(uint32_t x, uint32_t y)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return h;
}

float texture_unit(uint32_t h) { return (float)(h & 0xffffu) / 65535.0f; }

uint8_t texture_byte(float v) { return (uint8_t)lroundf(fminf(fmaxf(v, 0.0f), 1.0f) * 255.0f); }

int texture_tool_main(int argc, char **argv, int size, void (*texel)(int x, int y, uint8_t out[4]))
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    uint8_t *rgba = malloc((size_t)size * (size_t)size * 4);
    if (!rgba) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            texel(x, y, &rgba[((size_t)y * (size_t)size + (size_t)x) * 4]);
    eng_result r = eng_write_png(argv[1], (uint32_t)size, (uint32_t)size, rgba);
    free(rgba);
    if (r != ENG_SUCCESS) {
        fprintf(stderr, "%s: %s: %s\n", argv[0], eng_result_string(r), eng_last_error());
        return 1;
    }
    return 0;
}
