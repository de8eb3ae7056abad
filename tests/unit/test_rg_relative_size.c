/* Relative texture sizes (rg_texture_desc.size_of, scale, rounding),
 * device-free: each rounding on odd extents, a chain of halvings clamped at
 * 1x1, scale 0 = 1, a relative history pair, the declaration errors (code,
 * and a message naming the texture), render areas that follow the derived
 * extent, and a re-declaration with the import at a new size. */
#include "model.h"
#include "rg_unit.h"

#include <math.h>
#include <stdio.h>

/* A rendering instance's (or with RG_INDEX_NONE the frame's) tile traffic. */
static rg_result traffic_get(const rg_graph *g, uint32_t instance, rg_tile_traffic *out)
{
    rg_tile_view v;
    rg_result r = rg_tile_view_get(g, instance, out ? &v : NULL);
    if (out)
        *out = r == RG_SUCCESS ? v.traffic : (rg_tile_traffic){0};
    return r;
}

#define RGBA VK_FORMAT_R8G8B8A8_UNORM

static rg_texture target(rg_graph *g, uint32_t width, uint32_t height)
{
    return rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                                           .width = width, .height = height});
}

static rg_texture relative(rg_graph *g, const char *name, rg_texture of, float scale, rg_rounding rounding)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = RGBA, .size_of = of, .scale = scale,
                                                   .rounding = rounding});
}

/* Through both public queries (rg_texture_extent, rg_resource_info) and
 * the declaration record, which compile, placement and the reports all
 * take it from. */
static void expect_extent(const rg_graph *g, rg_texture t, uint32_t width, uint32_t height)
{
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, t, &info), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg__resource *r = &g->decl.resources[(t.id & RG__INDEX_MASK) - 1];
    cr_expect(r->width == width && r->height == height, "'%s' is %ux%u, wanted %ux%u", info.name, r->width,
              r->height, width, height);
    cr_expect(info.width == width && info.height == height, "'%s': info says %ux%u, wanted %ux%u", info.name,
              info.width, info.height, width, height);
    VkExtent2D e = rg_texture_extent(g, t);
    cr_expect(e.width == width && e.height == height, "'%s': rg_texture_extent says %ux%u, wanted %ux%u", info.name,
              e.width, e.height, width, height);
}

static void compile_ok(rg_graph *g)
{
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
}

Test(rg_relative_size, half_of_an_odd_import_in_each_rounding)
{
    rg_graph *g = test_graph();
    rg_texture back = target(g, 1279, 719);
    rg_texture down = relative(g, "down", back, 0.5f, RG_ROUND_DOWN);
    rg_texture up = relative(g, "up", back, 0.5f, RG_ROUND_UP);
    rg_texture nearest = relative(g, "nearest", back, 0.5f, RG_ROUND_NEAREST);
    /* A third: 426.33 x 239.67, where nearest differs from both. */
    rg_texture third_down = relative(g, "third down", back, 1.0f / 3.0f, RG_ROUND_DOWN);
    rg_texture third_up = relative(g, "third up", back, 1.0f / 3.0f, RG_ROUND_UP);
    rg_texture third_nearest = relative(g, "third nearest", back, 1.0f / 3.0f, RG_ROUND_NEAREST);
    compile_ok(g);
    expect_extent(g, back, 1279, 719);
    expect_extent(g, down, 639, 359);
    expect_extent(g, up, 640, 360);
    expect_extent(g, nearest, 640, 360);
    expect_extent(g, third_down, 426, 239);
    expect_extent(g, third_up, 427, 240);
    expect_extent(g, third_nearest, 426, 240);
    rg_graph_destroy(g);
}

/* Each level half the one before; an axis that reaches 0 stays 1. */
Test(rg_relative_size, chain_of_halvings_clamps_at_one)
{
    static const uint32_t down[5][2] = {{12, 2}, {6, 1}, {3, 1}, {1, 1}, {1, 1}};
    static const uint32_t up[5][2] = {{12, 3}, {6, 2}, {3, 1}, {2, 1}, {1, 1}};
    static const char *names[2][5] = {{"down 1", "down 2", "down 3", "down 4", "down 5"},
                                      {"up 1", "up 2", "up 3", "up 4", "up 5"}};
    rg_graph *g = test_graph();
    rg_texture back = target(g, 24, 5);
    rg_texture chain[2][5];
    for (int k = 0; k < 2; k++) {
        rg_texture from = back;
        for (int i = 0; i < 5; i++)
            from = chain[k][i] = relative(g, names[k][i], from, 0.5f, k ? RG_ROUND_UP : RG_ROUND_DOWN);
    }
    compile_ok(g);
    for (int i = 0; i < 5; i++) {
        expect_extent(g, chain[0][i], down[i][0], down[i][1]);
        expect_extent(g, chain[1][i], up[i][0], up[i][1]);
    }
    rg_graph_destroy(g);
}

Test(rg_relative_size, scale_zero_is_one_and_unused_without_size_of)
{
    rg_graph *g = test_graph();
    rg_texture back = target(g, 1279, 719);
    rg_texture same = relative(g, "same", back, 0.0f, RG_ROUND_DOWN);
    rg_texture twice = relative(g, "twice", back, 2.0f, RG_ROUND_DOWN);
    /* Without size_of, scale and rounding are ignored. */
    rg_texture absolute = rg_texture_create(g, &(rg_texture_desc){.name = "absolute", .format = RGBA, .width = 100,
                                                                  .height = 50, .scale = 0.5f,
                                                                  .rounding = RG_ROUND_UP});
    compile_ok(g);
    expect_extent(g, same, 1279, 719);
    expect_extent(g, twice, 2558, 1438);
    expect_extent(g, absolute, 100, 50);
    rg_graph_destroy(g);
}

Test(rg_relative_size, history_pair_is_relative)
{
    rg_graph *g = test_graph();
    rg_texture back = target(g, 1279, 719);
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "taa", .format = RGBA, .size_of = back, .scale = 0.5f,
                              .rounding = RG_ROUND_UP},
        &previous);
    cr_assert_neq(current.id, 0, "%s", rg_graph_error_message(g));
    rg_texture quarter = relative(g, "quarter", previous, 0.5f, RG_ROUND_DOWN);
    compile_ok(g);
    expect_extent(g, current, 640, 360);
    expect_extent(g, previous, 640, 360);
    expect_extent(g, quarter, 320, 180);
    rg_graph_destroy(g);
}

/* The render area of a span on a relative texture, with no area given, is
 * its derived extent: the tile traffic estimate stores it whole. */
Test(rg_relative_size, render_area_follows)
{
    rg_graph *g = test_graph();
    rg_texture back = target(g, 1279, 719);
    rg_texture half = relative(g, "half", back, 0.5f, RG_ROUND_DOWN);
    rg_command begin = test_begin(g, "pass", half);
    test_draw(g, "draw");
    rg_end_rendering(g);
    compile_ok(g);
    rg_command_rendering rendering;
    cr_assert_eq(rg_command_get_rendering(g, begin, &rendering), RG_SUCCESS);
    rg_tile_traffic traffic;
    cr_assert_eq(traffic_get(g, rendering.instance, &traffic), RG_SUCCESS);
    cr_expect_eq(traffic.stores, 639ull * 359 * 4);
    rg_graph_destroy(g);
}

/* One declaration error per graph: the texture's handle is 0, the code is
 * kept, and the message names the texture. */
static void expect_refused(rg_graph *g, rg_texture t, rg_result code, const char *name)
{
    cr_expect_eq(t.id, 0);
    test_expect_refused(g, code, name);
}

/* why: the start of the message after the texture's name, which says the
 * rule it broke. */
static void refuse_desc(rg_texture_desc desc, rg_result code, const char *why)
{
    rg_graph *g = test_graph();
    desc.name = "bloom";
    desc.format = RGBA;
    desc.size_of = target(g, 1279, 719);
    char needle[128];
    snprintf(needle, sizeof needle, "rg_texture_create 'bloom': %s", why);
    expect_refused(g, rg_texture_create(g, &desc), code, needle);
}

Test(rg_relative_size, refuses_width_or_height_with_size_of)
{
    refuse_desc((rg_texture_desc){.width = 640}, RG_ERROR_INVALID_ARGUMENT, "width and height");
    refuse_desc((rg_texture_desc){.height = 360}, RG_ERROR_INVALID_ARGUMENT, "width and height");
    refuse_desc((rg_texture_desc){.width = 640, .height = 360, .scale = 0.5f}, RG_ERROR_INVALID_ARGUMENT,
                "width and height");
}

Test(rg_relative_size, refuses_bad_scale_or_rounding)
{
    refuse_desc((rg_texture_desc){.scale = -0.5f}, RG_ERROR_INVALID_ARGUMENT, "scale");
    refuse_desc((rg_texture_desc){.scale = NAN}, RG_ERROR_INVALID_ARGUMENT, "scale");
    refuse_desc((rg_texture_desc){.scale = INFINITY}, RG_ERROR_INVALID_ARGUMENT, "scale");
    refuse_desc((rg_texture_desc){.scale = 0.5f, .rounding = (rg_rounding)3}, RG_ERROR_INVALID_ARGUMENT, "rounding");
    refuse_desc((rg_texture_desc){.scale = 1e30f}, RG_ERROR_INVALID_ARGUMENT, "size_of 'swapchain'");
}

/* 2^31 - 1 doubled fits a uint32; 2^31 doubled does not, nor does
 * UINT32_MAX scaled up by a float's step above 1. */
Test(rg_relative_size, refuses_an_extent_over_uint32)
{
    rg_graph *g = test_graph();
    rg_texture fits = relative(g, "fits", target(g, 2147483647u, 1), 2.0f, RG_ROUND_DOWN);
    cr_expect_neq(fits.id, 0, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);

    g = test_graph();
    expect_refused(g, relative(g, "huge", target(g, 2147483648u, 1), 2.0f, RG_ROUND_DOWN),
                   RG_ERROR_INVALID_ARGUMENT, "'huge'");
    g = test_graph();
    expect_refused(g, relative(g, "ceiling", target(g, 1, UINT32_MAX), 1.0000001f, RG_ROUND_UP),
                   RG_ERROR_INVALID_ARGUMENT, "'ceiling'");
}

Test(rg_relative_size, refuses_size_of_not_of_this_graph)
{
    /* Stale: made before a reset. */
    rg_graph *g = test_graph();
    rg_texture old = target(g, 64, 64);
    rg_graph_reset(g);
    expect_refused(g, relative(g, "stale", old, 0.5f, RG_ROUND_DOWN), RG_ERROR_INVALID_HANDLE, "'stale'");

    /* Foreign: another graph's texture. */
    rg_graph *other = test_graph();
    rg_texture theirs = target(other, 64, 64);
    g = test_graph();
    expect_refused(g, relative(g, "foreign", theirs, 0.5f, RG_ROUND_DOWN), RG_ERROR_INVALID_HANDLE, "'foreign'");
    rg_graph_destroy(other);

    /* A buffer's handle. */
    g = test_graph();
    rg_buffer buf = test_buf(g, "buf");
    expect_refused(g, relative(g, "buffer", (rg_texture){buf.id}, 0.5f, RG_ROUND_DOWN), RG_ERROR_INVALID_HANDLE,
                   "'buffer'");

    /* The history variant checks the same. */
    g = test_graph();
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "taa", .format = RGBA, .size_of = old, .scale = 0.5f}, &previous);
    cr_expect_eq(previous.id, 0);
    expect_refused(g, current, RG_ERROR_INVALID_HANDLE, "rg_texture_create_history 'taa'");
    g = test_graph();
    current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "taa", .format = RGBA, .size_of = target(g, 64, 64), .width = 32}, &previous);
    expect_refused(g, current, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history 'taa'");
}

/* A bloom chain declared relative to the target, drawn into level by
 * level; what a resize re-declares. */
typedef struct bloom {
    rg_texture back, level[3];
    rg_command begin[3];
} bloom;

static bloom declare_bloom(rg_graph *g, uint32_t width, uint32_t height)
{
    static const char *names[3] = {"bloom 1", "bloom 2", "bloom 3"};
    bloom b;
    b.back = target(g, width, height);
    rg_texture from = b.back;
    for (int i = 0; i < 3; i++) {
        from = b.level[i] = relative(g, names[i], from, 0.5f, RG_ROUND_DOWN);
        b.begin[i] = test_begin(g, names[i], from);
        test_draw(g, "draw");
        rg_end_rendering(g);
    }
    return b;
}

static void expect_stores(const rg_graph *g, rg_command begin, uint32_t width, uint32_t height)
{
    rg_command_rendering rendering;
    rg_tile_traffic traffic;
    cr_assert_eq(rg_command_get_rendering(g, begin, &rendering), RG_SUCCESS);
    cr_assert_eq(traffic_get(g, rendering.instance, &traffic), RG_SUCCESS);
    cr_expect_eq(traffic.stores, (uint64_t)width * height * 4, "stores %llu, wanted %ux%u x 4",
                 (unsigned long long)traffic.stores, width, height);
}

Test(rg_relative_size, redeclared_at_a_new_size_follows)
{
    rg_graph *g = test_graph();
    bloom b = declare_bloom(g, 1280, 720);
    compile_ok(g);
    expect_extent(g, b.level[2], 160, 90);
    expect_stores(g, b.begin[0], 640, 360);

    rg_graph_reset(g);
    b = declare_bloom(g, 1919, 1081);
    compile_ok(g);
    expect_extent(g, b.level[0], 959, 540);
    expect_extent(g, b.level[1], 479, 270);
    expect_extent(g, b.level[2], 239, 135);
    expect_stores(g, b.begin[0], 959, 540);
    expect_stores(g, b.begin[2], 239, 135);

    /* Back to the first size: the compile reflects it again. */
    rg_graph_reset(g);
    b = declare_bloom(g, 1280, 720);
    compile_ok(g);
    expect_extent(g, b.level[1], 320, 180);
    expect_stores(g, b.begin[1], 320, 180);
    rg_graph_destroy(g);
}

/* rg_texture_extent answers right after the declaration, before compile
 * (a declaration sizes a dispatch by it), and 0x0 for a bad handle;
 * rg_resource_info carries the rest of the shape. */
Test(rg_relative_size, extent_query_before_compile_and_the_shape_in_info)
{
    rg_graph *g = test_graph();
    rg_texture back = target(g, 1279, 719);
    rg_texture half = relative(g, "half", back, 0.5f, RG_ROUND_UP);
    VkExtent2D e = rg_texture_extent(g, half);
    cr_expect(e.width == 640 && e.height == 360, "%ux%u", e.width, e.height);
    e = rg_texture_extent(g, (rg_texture){0});
    cr_expect(e.width == 0 && e.height == 0);
    e = rg_texture_extent(NULL, half);
    cr_expect(e.width == 0 && e.height == 0);
    rg_texture arr = rg_texture_create(g, &(rg_texture_desc){.name = "array", .format = VK_FORMAT_D32_SFLOAT,
                                                             .width = 64, .height = 32, .mip_levels = 2,
                                                             .array_layers = 3});
    rg_buffer buf = rg_buffer_create(g, &(rg_buffer_desc){.name = "buf", .size = 4096});
    compile_ok(g);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, arr, &info), RG_SUCCESS);
    cr_expect_eq(info.format, VK_FORMAT_D32_SFLOAT);
    cr_expect(info.width == 64 && info.height == 32 && info.mip_levels == 2 && info.array_layers == 3);
    cr_expect_eq(info.samples, VK_SAMPLE_COUNT_1_BIT);
    cr_expect_eq(info.size, 0);
    cr_assert_eq(rg_buffer_get_info(g, buf, &info), RG_SUCCESS);
    cr_expect_eq(info.size, 4096);
    cr_expect_eq(info.width, 0);
    rg_graph_destroy(g);
}
