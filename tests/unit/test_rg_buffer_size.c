/* Buffers sized from a texture (rg_buffer_desc.size_of, per_texel,
 * per_row), device-free: the size from an import and from a relative
 * texture, a re-declaration at another size, the desc as declared, and
 * the refusals (code and a message naming the buffer). */
#include "rg_unit.h"

#include <stdio.h>

static rg_texture target(rg_graph *g, uint32_t width, uint32_t height)
{
    return rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                                           .width = width, .height = height});
}

static rg_buffer sized(rg_graph *g, const char *name, rg_texture of, VkDeviceSize per_texel, VkDeviceSize per_row)
{
    return rg_buffer_create(g, &(rg_buffer_desc){.name = name, .size_of = of, .per_texel = per_texel,
                                                 .per_row = per_row});
}

static void compile_ok(rg_graph *g) { cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g)); }

static VkDeviceSize size_of(const rg_graph *g, rg_buffer b)
{
    rg_resource_info info;
    cr_assert_eq(rg_buffer_get_info(g, b, &info), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return info.size;
}

Test(rg_buffer_size, height_times_width_per_texel_plus_per_row)
{
    rg_graph *g = test_graph();
    rg_texture sw = target(g, 1279, 719);
    rg_buffer readback = sized(g, "readback", sw, 4, 0);
    rg_buffer rows = sized(g, "row records", sw, 0, 256);
    rg_buffer padded = sized(g, "padded readback", sw, 4, 60);
    rg_texture half = rg_texture_create(g, &(rg_texture_desc){.name = "half", .format = VK_FORMAT_R8_UNORM,
                                                              .size_of = sw, .scale = 0.5f,
                                                              .rounding = RG_ROUND_UP});
    rg_buffer list = sized(g, "per-pixel list", half, 12, 0);
    cr_assert_eq(rg_graph_error(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    test_outside(g, "fill", BUF(readback, RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(rows, RG_USAGE_STORAGE_WRITE_COMPUTE),
                 BUF(padded, RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(list, RG_USAGE_STORAGE_WRITE_COMPUTE));
    compile_ok(g);
    cr_expect_eq(size_of(g, readback), 1279ull * 719 * 4);
    cr_expect_eq(size_of(g, rows), 719ull * 256);
    cr_expect_eq(size_of(g, padded), 719ull * (1279 * 4 + 60));
    cr_expect_eq(size_of(g, list), 640ull * 360 * 12, "the relative texture's extent, rounded up");
    /* The desc as declared: sized from the texture, no size of its own. */
    rg_declared d;
    cr_assert_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 5, &d), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(d.resource.buffer.size, 0);
    cr_expect_eq(d.resource.buffer.size_of.id, half.id);
    cr_expect_eq(d.resource.buffer.per_texel, 12);
    rg_graph_destroy(g);
}

/* Declared again at another size, it follows; the same frame at the first
 * size gives the first size back. */
Test(rg_buffer_size, follows_the_texture_declared_again)
{
    rg_graph *g = test_graph();
    const uint32_t sizes[3][2] = {{1280, 720}, {1920, 1080}, {1280, 720}};
    for (int i = 0; i < 3; i++) {
        rg_graph_reset(g);
        rg_buffer readback = sized(g, "readback", target(g, sizes[i][0], sizes[i][1]), 4, 0);
        test_outside(g, "fill", BUF(readback, RG_USAGE_STORAGE_WRITE_COMPUTE));
        compile_ok(g);
        cr_expect_eq(size_of(g, readback), (VkDeviceSize)sizes[i][0] * sizes[i][1] * 4, "%ux%u", sizes[i][0],
                     sizes[i][1]);
    }
    rg_graph_destroy(g);
}

static void refused(rg_buffer_desc desc, rg_result code, const char *needle)
{
    rg_graph *g = test_graph();
    if (desc.size_of.id == 1) /* a live texture of this graph */
        desc.size_of = target(g, 1280, 720);
    desc.name = "readback";
    cr_expect_eq(rg_buffer_create(g, &desc).id, 0);
    test_expect_refused_naming(g, code, needle, "rg_buffer_create 'readback'");
}

Test(rg_buffer_size, refusals_name_the_buffer)
{
    refused((rg_buffer_desc){.size_of = {1}, .size = 64, .per_texel = 4}, RG_ERROR_INVALID_ARGUMENT,
            "the size must be 0");
    refused((rg_buffer_desc){.size_of = {1}}, RG_ERROR_INVALID_ARGUMENT, "per_texel or per_row");
    refused((rg_buffer_desc){.size_of = {0x7777}, .per_texel = 4}, RG_ERROR_INVALID_HANDLE, "size_of handle");
    /* A buffer's handle is no texture. */
    rg_graph *g = test_graph();
    rg_buffer other = test_buf(g, "other");
    cr_expect_eq(sized(g, "readback", (rg_texture){other.id}, 4, 0).id, 0);
    test_expect_refused_naming(g, RG_ERROR_INVALID_HANDLE, "not a texture", "'readback'");
    /* Past what a VkDeviceSize holds, in either step. */
    g = test_graph();
    cr_expect_eq(sized(g, "readback", target(g, UINT32_MAX, UINT32_MAX), UINT64_MAX / 2, 0).id, 0);
    test_expect_refused_naming(g, RG_ERROR_INVALID_ARGUMENT, "over what a VkDeviceSize holds", "'readback'");
    g = test_graph();
    cr_expect_eq(sized(g, "readback", target(g, 1, 2), 1, UINT64_MAX).id, 0);
    test_expect_refused_naming(g, RG_ERROR_INVALID_ARGUMENT, "over what a VkDeviceSize holds", "'readback'");
}
