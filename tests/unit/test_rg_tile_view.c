/* The tile view (rg_tile_view_get, docs/tiles.md "What each GPU does"):
 * one rendering instance per case, each profile's rule worked out by hand
 * in the case's comment, and the report and the text naming it. */
#include "rg_unit.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

#define RGBA8 VK_FORMAT_R8G8B8A8_UNORM
#define RGBA16F VK_FORMAT_R16G16B16A16_SFLOAT
#define RGBA32F VK_FORMAT_R32G32B32A32_SFLOAT

typedef struct view_case {
    const char *why;                  /* the arithmetic */
    rg_tile_profile profile;
    uint64_t tile_memory;             /* rg_device_caps.tile_memory; 0: the profile's */
    uint32_t width, height;
    VkFormat colors[5];               /* VK_FORMAT_UNDEFINED ends the list */
    bool depth;                       /* a D32_SFLOAT attachment */
    VkSampleCountFlagBits samples;
    uint32_t tile_width, tile_height, bins, spilled;
    uint64_t spills;
} view_case;

static const view_case cases[] = {
    {"8 B x 4 samples = 32 B; half of 4 KiB is 2048 B: 16x16 8192, 16x8 4096, 8x8 2048 fits",
     RG_TILE_MALI_G71, 0, 1920, 1080, {RGBA16F}, false, VK_SAMPLE_COUNT_4_BIT, 8, 8, 0, 0, 0},
    {"32 B; half of 16 KiB is 8192 B = 32 B x 16x16", RG_TILE_MALI_G57, 0, 1920, 1080, {RGBA16F}, false,
     VK_SAMPLE_COUNT_4_BIT, 16, 16, 0, 0, 0},
    {"32 B; half of 32 KiB is 16384: 32x32 32768, 32x16 16384 fits", RG_TILE_MALI_G610, 0, 1920, 1080, {RGBA16F},
     false, VK_SAMPLE_COUNT_4_BIT, 32, 16, 0, 0, 0},
    {"32 B; half of 64 KiB is 32768: 64x64 131072, 64x32 65536, 32x32 32768 fits", RG_TILE_MALI_G720, 0, 1920, 1080,
     {RGBA16F}, false, VK_SAMPLE_COUNT_4_BIT, 32, 32, 0, 0, 0},
    {"colour 4 B x 4 = 16 B fits half of 8 KiB at 16x16 (4096); depth 4 B x 4 = 16 B against half of 4 KiB: "
     "16x16 4096 over 2048, 16x8 2048 fits", RG_TILE_MALI_G72, 0, 1920, 1080, {RGBA8}, true, VK_SAMPLE_COUNT_4_BIT,
     16, 8, 0, 0, 0},
    {"32 B; G76: half of 16 KiB, 8192 B = 32 B x 16x16", RG_TILE_MALI_G76, 0, 1920, 1080, {RGBA16F}, false,
     VK_SAMPLE_COUNT_4_BIT, 16, 16, 0, 0, 0},
    {"32 B; G310 (v10, 32x32 tiles) with 16 KiB: half 8192: 32x32 32768, 32x16 16384, 16x16 8192 fits",
     RG_TILE_MALI_G310, 0, 1920, 1080, {RGBA16F}, false, VK_SAMPLE_COUNT_4_BIT, 16, 16, 0, 0, 0},
    {"mali-bifrost answers as the G72: 16 B x 16x16 = 4096, half of 8 KiB", RG_TILE_MALI_BIFROST, 0, 1920, 1080,
     {RGBA16F, RGBA16F}, false, VK_SAMPLE_COUNT_1_BIT, 16, 16, 0, 0, 0},
    {"Apple4 publishes no tile budget: Metal's 64 B per sample alone", RG_TILE_APPLE4, 0, 1920, 1080,
     {RGBA32F, RGBA32F, RGBA32F, RGBA32F}, false, VK_SAMPLE_COUNT_1_BIT, 0, 0, 0, 0, 0},
    {"(20 + 4) x 1920 x 1080 = 49766400 over 1 MiB: 47.5, 48 bins", RG_TILE_ADRENO6, 0, 1920, 1080,
     {RGBA8, RGBA8, RGBA8, RGBA16F}, true, VK_SAMPLE_COUNT_1_BIT, 0, 0, 48, 0, 0},
    {"64 B per sample within Metal's 128; 32 KiB per tile: 32x32 65536, 32x16 32768 fits", RG_TILE_APPLE7, 0, 1920,
     1080, {RGBA32F, RGBA32F, RGBA32F, RGBA32F}, false, VK_SAMPLE_COUNT_1_BIT, 32, 16, 0, 0, 0},
    {"48 B x 4 = 192 B; at 16x16 49152 over 32768: the last (16 B x 4) spills, 128 B x 256 = 32768 fits; spills "
     "256 x 256 x 4 x 16 = 4194304", RG_TILE_APPLE7, 0, 256, 256, {RGBA32F, RGBA32F, RGBA32F}, false,
     VK_SAMPLE_COUNT_4_BIT, 16, 16, 0, 1, 4194304},
    {"Apple2 publishes no tile budget: Metal's 32 B per sample alone", RG_TILE_APPLE2, 0, 1920, 1080,
     {RGBA32F, RGBA32F}, false, VK_SAMPLE_COUNT_1_BIT, 0, 0, 0, 0, 0},
    {"20 B x 1920 x 1080 = 41472000 over 18 MiB (18874368): 2.2, 3 bins", RG_TILE_ADRENO_A840, 0, 1920, 1080,
     {RGBA8, RGBA8, RGBA8, RGBA16F}, false, VK_SAMPLE_COUNT_1_BIT, 0, 0, 3, 0, 0},
    {"41472000 over A740's 3 MiB (3145728): 13.2, 14 bins", RG_TILE_ADRENO7, 3u << 20, 1920, 1080,
     {RGBA8, RGBA8, RGBA8, RGBA16F}, false, VK_SAMPLE_COUNT_1_BIT, 0, 0, 14, 0, 0},
    {"41472000 over 21 MiB (22020096): 1.9, 2 bins", RG_TILE_ADRENO_X2_85, 0, 1920, 1080,
     {RGBA8, RGBA8, RGBA8, RGBA16F}, false, VK_SAMPLE_COUNT_1_BIT, 0, 0, 2, 0, 0},
    {"(4 + 4 depth) x 4 samples x 1920 x 1080 = 66355200 over 576 KiB (589824): 112.5, 113 bins",
     RG_TILE_ADRENO_A810, 0, 1920, 1080, {RGBA8}, true, VK_SAMPLE_COUNT_4_BIT, 0, 0, 113, 0, 0},
    {"desktop: no tile memory", RG_TILE_DESKTOP, 0, 1920, 1080, {RGBA8}, true, VK_SAMPLE_COUNT_4_BIT, 0, 0, 0, 0, 0},
};

/* One span of the case's attachments, cleared and stored (a copy reads
 * the first colour after it, so nothing is culled). */
static rg_graph *view_graph(const view_case *c)
{
    rg_device_caps caps = {.tile_profile = c->profile, .tile_memory = c->tile_memory};
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "view", .caps = &caps, .no_culling = true}, &g),
                 RG_SUCCESS);
    rg_rendering_desc d = {.name = "pass"};
    for (uint32_t i = 0; i < 5 && c->colors[i] != VK_FORMAT_UNDEFINED; i++) {
        char name[16];
        snprintf(name, sizeof name, "color%u", i);
        rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = name, .format = c->colors[i],
                                                              .width = c->width, .height = c->height,
                                                              .samples = c->samples});
        d.colors[d.color_count++] = (rg_attachment){.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    }
    if (c->depth)
        d.depth = (rg_attachment){.texture = rg_texture_create(g, &(rg_texture_desc){.name = "depth",
                                                                                  .format = VK_FORMAT_D32_SFLOAT,
                                                                                  .width = c->width,
                                                                                  .height = c->height,
                                                                                  .samples = c->samples}),
                                  .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    rg_begin_rendering(g, &d);
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

Test(rg_tile_view, each_profile_does_what_its_rule_says_worked_by_hand)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const view_case *c = &cases[i];
        const char *name = rg_tile_profile_info(c->profile).key;
        rg_graph *g = view_graph(c);
        rg_tile_view v;
        cr_assert_eq(rg_instance_count(g), 1);
        cr_assert_eq(rg_tile_view_get(g, 0, &v), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_eq(v.width, c->width, "%s", name);
        cr_expect_eq(v.samples, (uint32_t)c->samples, "%s", name);
        cr_expect_eq(v.depth_bytes, c->depth ? 4u : 0u, "%s", name);
        cr_expect_eq(v.tile_width, c->tile_width, "%s (%s): tile width %u", name, c->why, v.tile_width);
        cr_expect_eq(v.tile_height, c->tile_height, "%s (%s): tile height %u", name, c->why, v.tile_height);
        cr_expect_eq(v.bins, c->bins, "%s (%s): %u bins", name, c->why, v.bins);
        cr_expect_eq(v.spilled, c->spilled, "%s (%s): %u spilled", name, c->why, v.spilled);
        cr_expect_eq(v.traffic.spills, c->spills, "%s (%s): %llu spilled bytes", name, c->why,
                     (unsigned long long)v.traffic.spills);
        uint32_t colors = 0;
        while (colors < 5 && c->colors[colors] != VK_FORMAT_UNDEFINED)
            colors++;
        cr_expect_eq(v.attachment_count, colors + (c->depth ? 1u : 0u), "%s", name);
        rg_tile_view frame;
        cr_assert_eq(rg_tile_view_get(g, RG_INDEX_NONE, &frame), RG_SUCCESS);
        cr_expect_eq(frame.traffic.total, v.traffic.total, "%s: one instance is the frame", name);
        cr_expect_eq(frame.traffic.spills, c->spills, "%s", name);
        rg_graph_destroy(g);
    }
}

/* The line rg_tile_view_text gives, and the memory report's, per rule. */
Test(rg_tile_view, the_text_says_what_the_gpu_does)
{
    char line[512];
    rg_tile_view mali = {.width = 64, .height = 64, .layers = 1, .samples = 4, .color_bytes = 8, .tile_width = 8,
                         .tile_height = 8};
    rg_tile_view_text(&mali, RG_TILE_MALI_G71, line, sizeof line);
    cr_expect(strstr(line, "64x64x1, 4 samples, colour 8 B + depth 0 B per pixel per sample: tile 8x8 (shrunk)"),
              "%s", line);
    rg_tile_view adreno = {.width = 64, .height = 64, .layers = 1, .samples = 1, .bins = 3};
    rg_tile_view_text(&adreno, RG_TILE_ADRENO_A840, line, sizeof line);
    cr_expect(strstr(line, ": 3 bins of 18432 KiB of GMEM;"), "%s", line);
    rg_tile_view apple = {.samples = 4, .tile_width = 16, .tile_height = 16, .spilled = 1,
                          .traffic = {.spills = 4194304, .total = 4194304}};
    rg_tile_view_text(&apple, RG_TILE_APPLE7, line, sizeof line);
    cr_expect(strstr(line, "tile 16x16, 1 colour attachment spilled to memory; "), "%s", line);
    cr_expect(strstr(line, "spills 4.00, total 4.00 MiB"), "%s", line);
    cr_expect_eq(rg_tile_view_text(NULL, RG_TILE_APPLE7, line, sizeof line), 0u);
    cr_expect_eq(rg_tile_view_text(&apple, RG_TILE_APPLE7, NULL, 0), strlen(line), "the length without a buffer");
}
