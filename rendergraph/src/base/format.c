/* The format table: for every core VkFormat but the multi-planar ones, its
 * texel block (bytes, width, height), how its values read (float, unsigned
 * or signed integer, depth/stencil) and its aspects. Every format-dependent
 * computation of the render graph (and the engine above it) reads it: copy sizes,
 * resolve modes, blit filters, barrier aspects. A format not in it is
 * unknown (block size 0), and callers refuse it rather than guess.
 *
 * Source: the Vulkan specification, "Formats" (Compatible Formats table,
 * texel block sizes and extents) and "Depth/stencil formats".
 */
#include "rendergraph/rendergraph.h"

typedef struct format_row {
    uint8_t bytes;                    /* texel block size; 0 = not in the table */
    uint8_t width, height;            /* texel block extent */
    uint8_t numeric;                  /* rg_format_numeric */
} format_row;

#define FL RG_FORMAT_FLOAT
#define UI RG_FORMAT_UINT
#define SI RG_FORMAT_SINT
#define DS RG_FORMAT_DEPTH_STENCIL
/* One texel per block; blocks of w x h texels. */
#define T(b, n) { b, 1, 1, n }
#define B(b, w, h) { b, w, h, FL }

/* Indexed by VkFormat 1..184 (Vulkan 1.0's formats, contiguous). UNORM,
 * SNORM, USCALED, SSCALED, SFLOAT, UFLOAT and SRGB all read as float.
 * Depth/stencil rows give the size of a whole texel; a buffer copy moves
 * one aspect, sized by rg_format_copy_size. */
static const format_row core[VK_FORMAT_ASTC_12x12_SRGB_BLOCK + 1] = {
    [VK_FORMAT_R4G4_UNORM_PACK8] = T(1, FL),
    [VK_FORMAT_R4G4B4A4_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_B4G4R4A4_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_R5G6B5_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_B5G6R5_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_R5G5B5A1_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_B5G5R5A1_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_A1R5G5B5_UNORM_PACK16] = T(2, FL),
    [VK_FORMAT_R8_UNORM] = T(1, FL),
    [VK_FORMAT_R8_SNORM] = T(1, FL),
    [VK_FORMAT_R8_USCALED] = T(1, FL),
    [VK_FORMAT_R8_SSCALED] = T(1, FL),
    [VK_FORMAT_R8_UINT] = T(1, UI),
    [VK_FORMAT_R8_SINT] = T(1, SI),
    [VK_FORMAT_R8_SRGB] = T(1, FL),
    [VK_FORMAT_R8G8_UNORM] = T(2, FL),
    [VK_FORMAT_R8G8_SNORM] = T(2, FL),
    [VK_FORMAT_R8G8_USCALED] = T(2, FL),
    [VK_FORMAT_R8G8_SSCALED] = T(2, FL),
    [VK_FORMAT_R8G8_UINT] = T(2, UI),
    [VK_FORMAT_R8G8_SINT] = T(2, SI),
    [VK_FORMAT_R8G8_SRGB] = T(2, FL),
    [VK_FORMAT_R8G8B8_UNORM] = T(3, FL),
    [VK_FORMAT_R8G8B8_SNORM] = T(3, FL),
    [VK_FORMAT_R8G8B8_USCALED] = T(3, FL),
    [VK_FORMAT_R8G8B8_SSCALED] = T(3, FL),
    [VK_FORMAT_R8G8B8_UINT] = T(3, UI),
    [VK_FORMAT_R8G8B8_SINT] = T(3, SI),
    [VK_FORMAT_R8G8B8_SRGB] = T(3, FL),
    [VK_FORMAT_B8G8R8_UNORM] = T(3, FL),
    [VK_FORMAT_B8G8R8_SNORM] = T(3, FL),
    [VK_FORMAT_B8G8R8_USCALED] = T(3, FL),
    [VK_FORMAT_B8G8R8_SSCALED] = T(3, FL),
    [VK_FORMAT_B8G8R8_UINT] = T(3, UI),
    [VK_FORMAT_B8G8R8_SINT] = T(3, SI),
    [VK_FORMAT_B8G8R8_SRGB] = T(3, FL),
    [VK_FORMAT_R8G8B8A8_UNORM] = T(4, FL),
    [VK_FORMAT_R8G8B8A8_SNORM] = T(4, FL),
    [VK_FORMAT_R8G8B8A8_USCALED] = T(4, FL),
    [VK_FORMAT_R8G8B8A8_SSCALED] = T(4, FL),
    [VK_FORMAT_R8G8B8A8_UINT] = T(4, UI),
    [VK_FORMAT_R8G8B8A8_SINT] = T(4, SI),
    [VK_FORMAT_R8G8B8A8_SRGB] = T(4, FL),
    [VK_FORMAT_B8G8R8A8_UNORM] = T(4, FL),
    [VK_FORMAT_B8G8R8A8_SNORM] = T(4, FL),
    [VK_FORMAT_B8G8R8A8_USCALED] = T(4, FL),
    [VK_FORMAT_B8G8R8A8_SSCALED] = T(4, FL),
    [VK_FORMAT_B8G8R8A8_UINT] = T(4, UI),
    [VK_FORMAT_B8G8R8A8_SINT] = T(4, SI),
    [VK_FORMAT_B8G8R8A8_SRGB] = T(4, FL),
    [VK_FORMAT_A8B8G8R8_UNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A8B8G8R8_SNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A8B8G8R8_USCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A8B8G8R8_SSCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A8B8G8R8_UINT_PACK32] = T(4, UI),
    [VK_FORMAT_A8B8G8R8_SINT_PACK32] = T(4, SI),
    [VK_FORMAT_A8B8G8R8_SRGB_PACK32] = T(4, FL),
    [VK_FORMAT_A2R10G10B10_UNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A2R10G10B10_SNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A2R10G10B10_USCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A2R10G10B10_SSCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A2R10G10B10_UINT_PACK32] = T(4, UI),
    [VK_FORMAT_A2R10G10B10_SINT_PACK32] = T(4, SI),
    [VK_FORMAT_A2B10G10R10_UNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A2B10G10R10_SNORM_PACK32] = T(4, FL),
    [VK_FORMAT_A2B10G10R10_USCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A2B10G10R10_SSCALED_PACK32] = T(4, FL),
    [VK_FORMAT_A2B10G10R10_UINT_PACK32] = T(4, UI),
    [VK_FORMAT_A2B10G10R10_SINT_PACK32] = T(4, SI),
    [VK_FORMAT_R16_UNORM] = T(2, FL),
    [VK_FORMAT_R16_SNORM] = T(2, FL),
    [VK_FORMAT_R16_USCALED] = T(2, FL),
    [VK_FORMAT_R16_SSCALED] = T(2, FL),
    [VK_FORMAT_R16_UINT] = T(2, UI),
    [VK_FORMAT_R16_SINT] = T(2, SI),
    [VK_FORMAT_R16_SFLOAT] = T(2, FL),
    [VK_FORMAT_R16G16_UNORM] = T(4, FL),
    [VK_FORMAT_R16G16_SNORM] = T(4, FL),
    [VK_FORMAT_R16G16_USCALED] = T(4, FL),
    [VK_FORMAT_R16G16_SSCALED] = T(4, FL),
    [VK_FORMAT_R16G16_UINT] = T(4, UI),
    [VK_FORMAT_R16G16_SINT] = T(4, SI),
    [VK_FORMAT_R16G16_SFLOAT] = T(4, FL),
    [VK_FORMAT_R16G16B16_UNORM] = T(6, FL),
    [VK_FORMAT_R16G16B16_SNORM] = T(6, FL),
    [VK_FORMAT_R16G16B16_USCALED] = T(6, FL),
    [VK_FORMAT_R16G16B16_SSCALED] = T(6, FL),
    [VK_FORMAT_R16G16B16_UINT] = T(6, UI),
    [VK_FORMAT_R16G16B16_SINT] = T(6, SI),
    [VK_FORMAT_R16G16B16_SFLOAT] = T(6, FL),
    [VK_FORMAT_R16G16B16A16_UNORM] = T(8, FL),
    [VK_FORMAT_R16G16B16A16_SNORM] = T(8, FL),
    [VK_FORMAT_R16G16B16A16_USCALED] = T(8, FL),
    [VK_FORMAT_R16G16B16A16_SSCALED] = T(8, FL),
    [VK_FORMAT_R16G16B16A16_UINT] = T(8, UI),
    [VK_FORMAT_R16G16B16A16_SINT] = T(8, SI),
    [VK_FORMAT_R16G16B16A16_SFLOAT] = T(8, FL),
    [VK_FORMAT_R32_UINT] = T(4, UI),
    [VK_FORMAT_R32_SINT] = T(4, SI),
    [VK_FORMAT_R32_SFLOAT] = T(4, FL),
    [VK_FORMAT_R32G32_UINT] = T(8, UI),
    [VK_FORMAT_R32G32_SINT] = T(8, SI),
    [VK_FORMAT_R32G32_SFLOAT] = T(8, FL),
    [VK_FORMAT_R32G32B32_UINT] = T(12, UI),
    [VK_FORMAT_R32G32B32_SINT] = T(12, SI),
    [VK_FORMAT_R32G32B32_SFLOAT] = T(12, FL),
    [VK_FORMAT_R32G32B32A32_UINT] = T(16, UI),
    [VK_FORMAT_R32G32B32A32_SINT] = T(16, SI),
    [VK_FORMAT_R32G32B32A32_SFLOAT] = T(16, FL),
    [VK_FORMAT_R64_UINT] = T(8, UI),
    [VK_FORMAT_R64_SINT] = T(8, SI),
    [VK_FORMAT_R64_SFLOAT] = T(8, FL),
    [VK_FORMAT_R64G64_UINT] = T(16, UI),
    [VK_FORMAT_R64G64_SINT] = T(16, SI),
    [VK_FORMAT_R64G64_SFLOAT] = T(16, FL),
    [VK_FORMAT_R64G64B64_UINT] = T(24, UI),
    [VK_FORMAT_R64G64B64_SINT] = T(24, SI),
    [VK_FORMAT_R64G64B64_SFLOAT] = T(24, FL),
    [VK_FORMAT_R64G64B64A64_UINT] = T(32, UI),
    [VK_FORMAT_R64G64B64A64_SINT] = T(32, SI),
    [VK_FORMAT_R64G64B64A64_SFLOAT] = T(32, FL),
    [VK_FORMAT_B10G11R11_UFLOAT_PACK32] = T(4, FL),
    [VK_FORMAT_E5B9G9R9_UFLOAT_PACK32] = T(4, FL),
    [VK_FORMAT_D16_UNORM] = T(2, DS),
    [VK_FORMAT_X8_D24_UNORM_PACK32] = T(4, DS),
    [VK_FORMAT_D32_SFLOAT] = T(4, DS),
    [VK_FORMAT_S8_UINT] = T(1, DS),
    [VK_FORMAT_D16_UNORM_S8_UINT] = T(3, DS),
    [VK_FORMAT_D24_UNORM_S8_UINT] = T(4, DS),
    [VK_FORMAT_D32_SFLOAT_S8_UINT] = T(5, DS),
    [VK_FORMAT_BC1_RGB_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC1_RGB_SRGB_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC1_RGBA_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC1_RGBA_SRGB_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC2_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC2_SRGB_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC3_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC3_SRGB_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC4_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC4_SNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_BC5_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC5_SNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC6H_UFLOAT_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC6H_SFLOAT_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC7_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_BC7_SRGB_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_EAC_R11_UNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_EAC_R11_SNORM_BLOCK] = B(8, 4, 4),
    [VK_FORMAT_EAC_R11G11_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_EAC_R11G11_SNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_ASTC_4x4_UNORM_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_ASTC_4x4_SRGB_BLOCK] = B(16, 4, 4),
    [VK_FORMAT_ASTC_5x4_UNORM_BLOCK] = B(16, 5, 4),
    [VK_FORMAT_ASTC_5x4_SRGB_BLOCK] = B(16, 5, 4),
    [VK_FORMAT_ASTC_5x5_UNORM_BLOCK] = B(16, 5, 5),
    [VK_FORMAT_ASTC_5x5_SRGB_BLOCK] = B(16, 5, 5),
    [VK_FORMAT_ASTC_6x5_UNORM_BLOCK] = B(16, 6, 5),
    [VK_FORMAT_ASTC_6x5_SRGB_BLOCK] = B(16, 6, 5),
    [VK_FORMAT_ASTC_6x6_UNORM_BLOCK] = B(16, 6, 6),
    [VK_FORMAT_ASTC_6x6_SRGB_BLOCK] = B(16, 6, 6),
    [VK_FORMAT_ASTC_8x5_UNORM_BLOCK] = B(16, 8, 5),
    [VK_FORMAT_ASTC_8x5_SRGB_BLOCK] = B(16, 8, 5),
    [VK_FORMAT_ASTC_8x6_UNORM_BLOCK] = B(16, 8, 6),
    [VK_FORMAT_ASTC_8x6_SRGB_BLOCK] = B(16, 8, 6),
    [VK_FORMAT_ASTC_8x8_UNORM_BLOCK] = B(16, 8, 8),
    [VK_FORMAT_ASTC_8x8_SRGB_BLOCK] = B(16, 8, 8),
    [VK_FORMAT_ASTC_10x5_UNORM_BLOCK] = B(16, 10, 5),
    [VK_FORMAT_ASTC_10x5_SRGB_BLOCK] = B(16, 10, 5),
    [VK_FORMAT_ASTC_10x6_UNORM_BLOCK] = B(16, 10, 6),
    [VK_FORMAT_ASTC_10x6_SRGB_BLOCK] = B(16, 10, 6),
    [VK_FORMAT_ASTC_10x8_UNORM_BLOCK] = B(16, 10, 8),
    [VK_FORMAT_ASTC_10x8_SRGB_BLOCK] = B(16, 10, 8),
    [VK_FORMAT_ASTC_10x10_UNORM_BLOCK] = B(16, 10, 10),
    [VK_FORMAT_ASTC_10x10_SRGB_BLOCK] = B(16, 10, 10),
    [VK_FORMAT_ASTC_12x10_UNORM_BLOCK] = B(16, 12, 10),
    [VK_FORMAT_ASTC_12x10_SRGB_BLOCK] = B(16, 12, 10),
    [VK_FORMAT_ASTC_12x12_UNORM_BLOCK] = B(16, 12, 12),
    [VK_FORMAT_ASTC_12x12_SRGB_BLOCK] = B(16, 12, 12),
};

/* ASTC HDR (core in 1.3): 4x4 .. 12x12, in the order of the LDR ones. */
static const uint8_t astc_hdr_extent[14][2] = {
    {4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6}, {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10},
    {12, 12},
};

/* VK_KHR_maintenance5's formats (core in 1.4), by value: older headers
 * do not name them. */
#define FORMAT_A1B5G5R5_UNORM_PACK16 ((VkFormat)1000470000)
#define FORMAT_A8_UNORM ((VkFormat)1000470001)

static format_row row_of(VkFormat f)
{
    if ((uint32_t)f < sizeof core / sizeof core[0])
        return core[f];
    switch ((uint32_t)f) {
    case VK_FORMAT_A4R4G4B4_UNORM_PACK16:
    case VK_FORMAT_A4B4G4R4_UNORM_PACK16:
    case FORMAT_A1B5G5R5_UNORM_PACK16: return (format_row)T(2, FL);
    case FORMAT_A8_UNORM: return (format_row)T(1, FL);
    default: break;
    }
    uint32_t astc = (uint32_t)f - (uint32_t)VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK;
    if (astc < 14)
        return (format_row)B(16, astc_hdr_extent[astc][0], astc_hdr_extent[astc][1]);
    return (format_row){ 0, 0, 0, RG_FORMAT_UNKNOWN };
}

rg_format_info rg_format_get_info(VkFormat format)
{
    format_row r = row_of(format);
    rg_format_info info = { r.bytes, r.width, r.height, 0, (rg_format_numeric)r.numeric };
    if (r.bytes == 0)
        return info;
    switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT: info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT; break;
    case VK_FORMAT_S8_UINT: info.aspects = VK_IMAGE_ASPECT_STENCIL_BIT; break;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: info.aspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT; break;
    default: info.aspects = VK_IMAGE_ASPECT_COLOR_BIT; break;
    }
    return info;
}

/* Buffer-image copies of depth/stencil formats move one aspect, packed as
 * "Depth/stencil formats" in the specification's copy section says: D16 in
 * 2 bytes, D24 (either packing) and D32 in 4, stencil in 1. */
uint32_t rg_format_copy_size(VkFormat format, VkImageAspectFlags aspect)
{
    rg_format_info info = rg_format_get_info(format);
    if (info.block_size == 0 || (aspect & ~info.aspects) || aspect == 0)
        return 0;
    if (info.numeric != RG_FORMAT_DEPTH_STENCIL)
        return aspect == VK_IMAGE_ASPECT_COLOR_BIT ? info.block_size : 0;
    if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT)
        return 1;
    if (aspect != VK_IMAGE_ASPECT_DEPTH_BIT)
        return 0; /* both aspects at once: not one copy */
    return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT ? 2 : 4;
}

uint32_t rg_format_texel_size(VkFormat format)
{
    rg_format_info info = rg_format_get_info(format);
    return info.block_width == 1 && info.block_height == 1 ? info.block_size : 0;
}

bool rg_format_has_depth(VkFormat format)
{
    return (rg_format_get_info(format).aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0;
}

bool rg_format_has_stencil(VkFormat format)
{
    return (rg_format_get_info(format).aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0;
}
