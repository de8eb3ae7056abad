/* The engine's format table: every core format but the multi-planar ones is
 * known, with the texel block, numeric kind and aspects the specification
 * gives; copy sizes per aspect. No device. */
#include <criterion/criterion.h>
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

Test(format, every_core_single_plane_format_is_known)
{
    for (uint32_t f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; f++) {
        rg_format_info i = rg_format_get_info((VkFormat)f);
        cr_expect_gt(i.block_size, 0, "format %u unknown", f);
        cr_expect_neq(i.numeric, RG_FORMAT_UNKNOWN, "format %u", f);
        cr_expect_neq(i.aspects, 0, "format %u", f);
        cr_expect(i.block_width >= 1 && i.block_height >= 1, "format %u", f);
    }
    for (uint32_t f = VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK; f <= VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK; f++)
        cr_expect_eq(rg_format_get_info((VkFormat)f).block_size, 16, "ASTC HDR format %u", f);
    cr_expect_eq(rg_format_get_info(VK_FORMAT_A4R4G4B4_UNORM_PACK16).block_size, 2);
}

Test(format, unknown_formats_have_no_size)
{
    static const VkFormat unknown[] = { VK_FORMAT_UNDEFINED, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM,
                                        VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM, (VkFormat)0x7fffffff };
    for (size_t k = 0; k < sizeof unknown / sizeof unknown[0]; k++) {
        rg_format_info i = rg_format_get_info(unknown[k]);
        cr_expect_eq(i.block_size, 0, "format %d", (int)unknown[k]);
        cr_expect_eq(i.numeric, RG_FORMAT_UNKNOWN);
        cr_expect_eq(rg_format_copy_size(unknown[k], VK_IMAGE_ASPECT_COLOR_BIT), 0);
    }
}

Test(format, blocks_and_kinds)
{
    static const struct { VkFormat f; uint32_t bytes, w, h; rg_format_numeric n; } rows[] = {
        { VK_FORMAT_R8G8B8A8_UNORM, 4, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_R8G8B8A8_UINT, 4, 1, 1, RG_FORMAT_UINT },
        { VK_FORMAT_R8G8B8A8_SINT, 4, 1, 1, RG_FORMAT_SINT },
        { VK_FORMAT_R8G8B8_SRGB, 3, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_R16G16B16_SSCALED, 6, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_R16G16B16A16_UINT, 8, 1, 1, RG_FORMAT_UINT },
        { VK_FORMAT_R32G32B32_SFLOAT, 12, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_R32G32B32A32_SINT, 16, 1, 1, RG_FORMAT_SINT },
        { VK_FORMAT_R64G64B64A64_UINT, 32, 1, 1, RG_FORMAT_UINT },
        { VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 1, 1, RG_FORMAT_UINT },
        { VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_R4G4_UNORM_PACK8, 1, 1, 1, RG_FORMAT_FLOAT },
        { VK_FORMAT_D24_UNORM_S8_UINT, 4, 1, 1, RG_FORMAT_DEPTH_STENCIL },
        { VK_FORMAT_D32_SFLOAT_S8_UINT, 5, 1, 1, RG_FORMAT_DEPTH_STENCIL },
        { VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_BC4_SNORM_BLOCK, 8, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_BC6H_UFLOAT_BLOCK, 16, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, 8, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 16, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 16, 4, 4, RG_FORMAT_FLOAT },
        { VK_FORMAT_ASTC_10x6_SRGB_BLOCK, 16, 10, 6, RG_FORMAT_FLOAT },
        { VK_FORMAT_ASTC_12x10_SFLOAT_BLOCK, 16, 12, 10, RG_FORMAT_FLOAT },
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        rg_format_info i = rg_format_get_info(rows[k].f);
        cr_expect_eq(i.block_size, rows[k].bytes, "format %d", (int)rows[k].f);
        cr_expect_eq(i.block_width, rows[k].w, "format %d", (int)rows[k].f);
        cr_expect_eq(i.block_height, rows[k].h, "format %d", (int)rows[k].f);
        cr_expect_eq(i.numeric, rows[k].n, "format %d", (int)rows[k].f);
    }
}

Test(format, aspects_and_copy_sizes)
{
    const VkImageAspectFlags D = VK_IMAGE_ASPECT_DEPTH_BIT, S = VK_IMAGE_ASPECT_STENCIL_BIT,
                             C = VK_IMAGE_ASPECT_COLOR_BIT;
    cr_expect_eq(rg_format_get_info(VK_FORMAT_D16_UNORM).aspects, D);
    cr_expect_eq(rg_format_get_info(VK_FORMAT_S8_UINT).aspects, S);
    cr_expect_eq(rg_format_get_info(VK_FORMAT_D32_SFLOAT_S8_UINT).aspects, D | S);
    cr_expect_eq(rg_format_get_info(VK_FORMAT_R8_UNORM).aspects, C);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D16_UNORM, D), 2);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_X8_D24_UNORM_PACK32, D), 4);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D24_UNORM_S8_UINT, D), 4);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D24_UNORM_S8_UINT, S), 1);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D16_UNORM_S8_UINT, D), 2);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D32_SFLOAT_S8_UINT, D), 4);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D32_SFLOAT_S8_UINT, D | S), 0, "one aspect per copy");
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_D32_SFLOAT, S), 0, "an aspect it lacks");
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_R8G8B8A8_UNORM, D), 0);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_R16G16B16A16_SFLOAT, C), 8);
    cr_expect_eq(rg_format_copy_size(VK_FORMAT_BC7_UNORM_BLOCK, C), 16, "per block");
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_BC7_UNORM_BLOCK), 0, "no texel size for block formats");
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_R32G32B32_UINT), 12);
}
