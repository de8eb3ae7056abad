/* Names of Vulkan values for messages, reports and the DOT: formats and
 * layouts as their enumerant without the VK_FORMAT_ / VK_IMAGE_LAYOUT_
 * prefix ("R8G8B8A8_UNORM", "PRESENT_SRC"), flag sets as their bits'
 * names joined by '|' ("FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT"). It calls
 * nothing else of the library, so every stage may call it.
 *
 * Source: the Vulkan specification's enumerants (vulkan_core.h): every
 * core format and layout through Vulkan 1.4, the core flag bits of
 * synchronization2 and the usages, and the extension ones a render graph
 * meets (swapchain, local read, video, ray tracing, mesh shading).
 * Also the debug-utils names of the objects graphs create (step 5).
 */
#include "base/device.h"
#include "base/names.h"
#include "base/thread.h"

#include <stdarg.h>
#include <string.h>

/* Step 1: text for a value no table knows, "VkFormat(1234)". Each thread
 * has its own four buffers, used in turn, so one message may hold a few
 * such names and other threads never see them change. */
#define UNKNOWN_SLOTS 4
static RG__THREAD_LOCAL char unknown_text[UNKNOWN_SLOTS][40];
static RG__THREAD_LOCAL unsigned unknown_next;

static const char *unknown_name(const char *type, long long value)
{
    char *text = unknown_text[unknown_next++ % UNKNOWN_SLOTS];
    snprintf(text, sizeof unknown_text[0], "%s(%lld)", type, value);
    return text;
}

/* Step 2: formats. Vulkan 1.0's are contiguous (1..184) and indexed; the
 * later core ones come in a few blocks of extension numbers, searched. */
#define F(x) [VK_FORMAT_##x] = #x
static const char *const core_formats[VK_FORMAT_ASTC_12x12_SRGB_BLOCK + 1] = {
    [VK_FORMAT_UNDEFINED] = "UNDEFINED",
    F(R4G4_UNORM_PACK8), F(R4G4B4A4_UNORM_PACK16), F(B4G4R4A4_UNORM_PACK16),
    F(R5G6B5_UNORM_PACK16), F(B5G6R5_UNORM_PACK16), F(R5G5B5A1_UNORM_PACK16),
    F(B5G5R5A1_UNORM_PACK16), F(A1R5G5B5_UNORM_PACK16), F(R8_UNORM), F(R8_SNORM), F(R8_USCALED),
    F(R8_SSCALED), F(R8_UINT), F(R8_SINT), F(R8_SRGB), F(R8G8_UNORM), F(R8G8_SNORM),
    F(R8G8_USCALED), F(R8G8_SSCALED), F(R8G8_UINT), F(R8G8_SINT), F(R8G8_SRGB), F(R8G8B8_UNORM),
    F(R8G8B8_SNORM), F(R8G8B8_USCALED), F(R8G8B8_SSCALED), F(R8G8B8_UINT), F(R8G8B8_SINT),
    F(R8G8B8_SRGB), F(B8G8R8_UNORM), F(B8G8R8_SNORM), F(B8G8R8_USCALED), F(B8G8R8_SSCALED),
    F(B8G8R8_UINT), F(B8G8R8_SINT), F(B8G8R8_SRGB), F(R8G8B8A8_UNORM), F(R8G8B8A8_SNORM),
    F(R8G8B8A8_USCALED), F(R8G8B8A8_SSCALED), F(R8G8B8A8_UINT), F(R8G8B8A8_SINT), F(R8G8B8A8_SRGB),
    F(B8G8R8A8_UNORM), F(B8G8R8A8_SNORM), F(B8G8R8A8_USCALED), F(B8G8R8A8_SSCALED),
    F(B8G8R8A8_UINT), F(B8G8R8A8_SINT), F(B8G8R8A8_SRGB), F(A8B8G8R8_UNORM_PACK32),
    F(A8B8G8R8_SNORM_PACK32), F(A8B8G8R8_USCALED_PACK32), F(A8B8G8R8_SSCALED_PACK32),
    F(A8B8G8R8_UINT_PACK32), F(A8B8G8R8_SINT_PACK32), F(A8B8G8R8_SRGB_PACK32),
    F(A2R10G10B10_UNORM_PACK32), F(A2R10G10B10_SNORM_PACK32), F(A2R10G10B10_USCALED_PACK32),
    F(A2R10G10B10_SSCALED_PACK32), F(A2R10G10B10_UINT_PACK32), F(A2R10G10B10_SINT_PACK32),
    F(A2B10G10R10_UNORM_PACK32), F(A2B10G10R10_SNORM_PACK32), F(A2B10G10R10_USCALED_PACK32),
    F(A2B10G10R10_SSCALED_PACK32), F(A2B10G10R10_UINT_PACK32), F(A2B10G10R10_SINT_PACK32),
    F(R16_UNORM), F(R16_SNORM), F(R16_USCALED), F(R16_SSCALED), F(R16_UINT), F(R16_SINT),
    F(R16_SFLOAT), F(R16G16_UNORM), F(R16G16_SNORM), F(R16G16_USCALED), F(R16G16_SSCALED),
    F(R16G16_UINT), F(R16G16_SINT), F(R16G16_SFLOAT), F(R16G16B16_UNORM), F(R16G16B16_SNORM),
    F(R16G16B16_USCALED), F(R16G16B16_SSCALED), F(R16G16B16_UINT), F(R16G16B16_SINT),
    F(R16G16B16_SFLOAT), F(R16G16B16A16_UNORM), F(R16G16B16A16_SNORM), F(R16G16B16A16_USCALED),
    F(R16G16B16A16_SSCALED), F(R16G16B16A16_UINT), F(R16G16B16A16_SINT), F(R16G16B16A16_SFLOAT),
    F(R32_UINT), F(R32_SINT), F(R32_SFLOAT), F(R32G32_UINT), F(R32G32_SINT), F(R32G32_SFLOAT),
    F(R32G32B32_UINT), F(R32G32B32_SINT), F(R32G32B32_SFLOAT), F(R32G32B32A32_UINT),
    F(R32G32B32A32_SINT), F(R32G32B32A32_SFLOAT), F(R64_UINT), F(R64_SINT), F(R64_SFLOAT),
    F(R64G64_UINT), F(R64G64_SINT), F(R64G64_SFLOAT), F(R64G64B64_UINT), F(R64G64B64_SINT),
    F(R64G64B64_SFLOAT), F(R64G64B64A64_UINT), F(R64G64B64A64_SINT), F(R64G64B64A64_SFLOAT),
    F(B10G11R11_UFLOAT_PACK32), F(E5B9G9R9_UFLOAT_PACK32), F(D16_UNORM), F(X8_D24_UNORM_PACK32),
    F(D32_SFLOAT), F(S8_UINT), F(D16_UNORM_S8_UINT), F(D24_UNORM_S8_UINT), F(D32_SFLOAT_S8_UINT),
    F(BC1_RGB_UNORM_BLOCK), F(BC1_RGB_SRGB_BLOCK), F(BC1_RGBA_UNORM_BLOCK), F(BC1_RGBA_SRGB_BLOCK),
    F(BC2_UNORM_BLOCK), F(BC2_SRGB_BLOCK), F(BC3_UNORM_BLOCK), F(BC3_SRGB_BLOCK),
    F(BC4_UNORM_BLOCK), F(BC4_SNORM_BLOCK), F(BC5_UNORM_BLOCK), F(BC5_SNORM_BLOCK),
    F(BC6H_UFLOAT_BLOCK), F(BC6H_SFLOAT_BLOCK), F(BC7_UNORM_BLOCK), F(BC7_SRGB_BLOCK),
    F(ETC2_R8G8B8_UNORM_BLOCK), F(ETC2_R8G8B8_SRGB_BLOCK), F(ETC2_R8G8B8A1_UNORM_BLOCK),
    F(ETC2_R8G8B8A1_SRGB_BLOCK), F(ETC2_R8G8B8A8_UNORM_BLOCK), F(ETC2_R8G8B8A8_SRGB_BLOCK),
    F(EAC_R11_UNORM_BLOCK), F(EAC_R11_SNORM_BLOCK), F(EAC_R11G11_UNORM_BLOCK),
    F(EAC_R11G11_SNORM_BLOCK), F(ASTC_4x4_UNORM_BLOCK), F(ASTC_4x4_SRGB_BLOCK),
    F(ASTC_5x4_UNORM_BLOCK), F(ASTC_5x4_SRGB_BLOCK), F(ASTC_5x5_UNORM_BLOCK),
    F(ASTC_5x5_SRGB_BLOCK), F(ASTC_6x5_UNORM_BLOCK), F(ASTC_6x5_SRGB_BLOCK),
    F(ASTC_6x6_UNORM_BLOCK), F(ASTC_6x6_SRGB_BLOCK), F(ASTC_8x5_UNORM_BLOCK),
    F(ASTC_8x5_SRGB_BLOCK), F(ASTC_8x6_UNORM_BLOCK), F(ASTC_8x6_SRGB_BLOCK),
    F(ASTC_8x8_UNORM_BLOCK), F(ASTC_8x8_SRGB_BLOCK), F(ASTC_10x5_UNORM_BLOCK),
    F(ASTC_10x5_SRGB_BLOCK), F(ASTC_10x6_UNORM_BLOCK), F(ASTC_10x6_SRGB_BLOCK),
    F(ASTC_10x8_UNORM_BLOCK), F(ASTC_10x8_SRGB_BLOCK), F(ASTC_10x10_UNORM_BLOCK),
    F(ASTC_10x10_SRGB_BLOCK), F(ASTC_12x10_UNORM_BLOCK), F(ASTC_12x10_SRGB_BLOCK),
    F(ASTC_12x12_UNORM_BLOCK), F(ASTC_12x12_SRGB_BLOCK),};
#undef F

typedef struct value_name {
    long long value;
    const char *name;
} value_name;

#define X(x) { VK_FORMAT_##x, #x }
static const value_name later_formats[] = {
    X(ASTC_4x4_SFLOAT_BLOCK), X(ASTC_5x4_SFLOAT_BLOCK), X(ASTC_5x5_SFLOAT_BLOCK),
    X(ASTC_6x5_SFLOAT_BLOCK), X(ASTC_6x6_SFLOAT_BLOCK), X(ASTC_8x5_SFLOAT_BLOCK),
    X(ASTC_8x6_SFLOAT_BLOCK), X(ASTC_8x8_SFLOAT_BLOCK), X(ASTC_10x5_SFLOAT_BLOCK),
    X(ASTC_10x6_SFLOAT_BLOCK), X(ASTC_10x8_SFLOAT_BLOCK), X(ASTC_10x10_SFLOAT_BLOCK),
    X(ASTC_12x10_SFLOAT_BLOCK), X(ASTC_12x12_SFLOAT_BLOCK), X(G8B8G8R8_422_UNORM),
    X(B8G8R8G8_422_UNORM), X(G8_B8_R8_3PLANE_420_UNORM), X(G8_B8R8_2PLANE_420_UNORM),
    X(G8_B8_R8_3PLANE_422_UNORM), X(G8_B8R8_2PLANE_422_UNORM), X(G8_B8_R8_3PLANE_444_UNORM),
    X(R10X6_UNORM_PACK16), X(R10X6G10X6_UNORM_2PACK16), X(R10X6G10X6B10X6A10X6_UNORM_4PACK16),
    X(G10X6B10X6G10X6R10X6_422_UNORM_4PACK16), X(B10X6G10X6R10X6G10X6_422_UNORM_4PACK16),
    X(G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16), X(G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16),
    X(G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16), X(G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16),
    X(G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16), X(R12X4_UNORM_PACK16),
    X(R12X4G12X4_UNORM_2PACK16), X(R12X4G12X4B12X4A12X4_UNORM_4PACK16),
    X(G12X4B12X4G12X4R12X4_422_UNORM_4PACK16), X(B12X4G12X4R12X4G12X4_422_UNORM_4PACK16),
    X(G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16), X(G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16),
    X(G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16), X(G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16),
    X(G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16), X(G16B16G16R16_422_UNORM),
    X(B16G16R16G16_422_UNORM), X(G16_B16_R16_3PLANE_420_UNORM), X(G16_B16R16_2PLANE_420_UNORM),
    X(G16_B16_R16_3PLANE_422_UNORM), X(G16_B16R16_2PLANE_422_UNORM),
    X(G16_B16_R16_3PLANE_444_UNORM), X(G8_B8R8_2PLANE_444_UNORM),
    X(G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16), X(G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16),
    X(G16_B16R16_2PLANE_444_UNORM), X(A4R4G4B4_UNORM_PACK16), X(A4B4G4R4_UNORM_PACK16),    /* Vulkan 1.4 (VK_KHR_maintenance5), newer than some supported headers. */
    { 1000470000, "A1B5G5R5_UNORM_PACK16" }, { 1000470001, "A8_UNORM" },
};
#undef X

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *search(const value_name *rows, size_t count, long long value)
{
    for (size_t i = 0; i < count; i++)
        if (rows[i].value == value)
            return rows[i].name;
    return NULL;
}

const char *rg_format_name(VkFormat format)
{
    const char *name = NULL;
    if ((uint32_t)format < COUNT(core_formats))
        name = core_formats[format];
    else
        name = search(later_formats, COUNT(later_formats), format);
    return name ? name : unknown_name("VkFormat", format);
}

/* Step 3: layouts; the suffix of an extension promoted to core is dropped
 * (PRESENT_SRC_KHR is "PRESENT_SRC"). */
static const value_name layouts[] = {
    { 0, "UNDEFINED" },
    { 1, "GENERAL" },
    { 2, "COLOR_ATTACHMENT_OPTIMAL" },
    { 3, "DEPTH_STENCIL_ATTACHMENT_OPTIMAL" },
    { 4, "DEPTH_STENCIL_READ_ONLY_OPTIMAL" },
    { 5, "SHADER_READ_ONLY_OPTIMAL" },
    { 6, "TRANSFER_SRC_OPTIMAL" },
    { 7, "TRANSFER_DST_OPTIMAL" },
    { 8, "PREINITIALIZED" },
    { 1000117000, "DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL" },
    { 1000117001, "DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL" },
    { 1000241000, "DEPTH_ATTACHMENT_OPTIMAL" },
    { 1000241001, "DEPTH_READ_ONLY_OPTIMAL" },
    { 1000241002, "STENCIL_ATTACHMENT_OPTIMAL" },
    { 1000241003, "STENCIL_READ_ONLY_OPTIMAL" },
    { 1000314000, "READ_ONLY_OPTIMAL" },
    { 1000314001, "ATTACHMENT_OPTIMAL" },
    { 1000232000, "RENDERING_LOCAL_READ" },
    { 1000001002, "PRESENT_SRC" },
    { 1000111000, "SHARED_PRESENT" },
    { 1000024000, "VIDEO_DECODE_DST" },
    { 1000024001, "VIDEO_DECODE_SRC" },
    { 1000024002, "VIDEO_DECODE_DPB" },
    { 1000299000, "VIDEO_ENCODE_DST" },
    { 1000299001, "VIDEO_ENCODE_SRC" },
    { 1000299002, "VIDEO_ENCODE_DPB" },
    { 1000164003, "FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL" },
    { 1000218000, "FRAGMENT_DENSITY_MAP_OPTIMAL" },
    { 1000339000, "ATTACHMENT_FEEDBACK_LOOP_OPTIMAL" },
};

const char *rg_layout_name(VkImageLayout layout)
{
    const char *name = search(layouts, COUNT(layouts), layout);
    return name ? name : unknown_name("VkImageLayout", layout);
}

/* Step 4: flag sets. Known bits by name in the table's order, then the
 * bits no row names as one hex number; snprintf's contract: the whole
 * text's length is returned, what fits is written, always terminated. */
typedef struct bit_name {
    uint64_t bit;
    const char *name;
} bit_name;

static void append(char *buf, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len + 1 < size) {
        size_t room = size - 1 - *len;
        memcpy(buf + *len, text, n < room ? n : room);
        buf[*len + (n < room ? n : room)] = '\0';
    }
    *len += n;
}

static size_t print_bits(uint64_t flags, const bit_name *rows, size_t count, char *buf, size_t size)
{
    size_t len = 0;
    if (buf && size)
        buf[0] = '\0';
    else
        size = 0;
    if (!flags) {
        append(buf, size, &len, "NONE");
        return len;
    }
    uint64_t rest = flags;
    for (size_t i = 0; i < count; i++) {
        if ((flags & rows[i].bit) != rows[i].bit || !(rest & rows[i].bit))
            continue;
        if (len)
            append(buf, size, &len, "|");
        append(buf, size, &len, rows[i].name);
        rest &= ~rows[i].bit;
    }
    if (rest) {
        char hex[24];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)rest);
        if (len)
            append(buf, size, &len, "|");
        append(buf, size, &len, hex);
    }
    return len;
}

static const bit_name stages[] = {
    { 0x1ull, "TOP_OF_PIPE" },
    { 0x2ull, "DRAW_INDIRECT" },
    { 0x4ull, "VERTEX_INPUT" },
    { 0x8ull, "VERTEX_SHADER" },
    { 0x10ull, "TESSELLATION_CONTROL_SHADER" },
    { 0x20ull, "TESSELLATION_EVALUATION_SHADER" },
    { 0x40ull, "GEOMETRY_SHADER" },
    { 0x80ull, "FRAGMENT_SHADER" },
    { 0x100ull, "EARLY_FRAGMENT_TESTS" },
    { 0x200ull, "LATE_FRAGMENT_TESTS" },
    { 0x400ull, "COLOR_ATTACHMENT_OUTPUT" },
    { 0x800ull, "COMPUTE_SHADER" },
    { 0x1000ull, "ALL_TRANSFER" },
    { 0x2000ull, "BOTTOM_OF_PIPE" },
    { 0x4000ull, "HOST" },
    { 0x8000ull, "ALL_GRAPHICS" },
    { 0x10000ull, "ALL_COMMANDS" },
    { 0x100000000ull, "COPY" },
    { 0x200000000ull, "RESOLVE" },
    { 0x400000000ull, "BLIT" },
    { 0x800000000ull, "CLEAR" },
    { 0x1000000000ull, "INDEX_INPUT" },
    { 0x2000000000ull, "VERTEX_ATTRIBUTE_INPUT" },
    { 0x4000000000ull, "PRE_RASTERIZATION_SHADERS" },
    { 0x20000ull, "COMMAND_PREPROCESS" },
    { 0x40000ull, "CONDITIONAL_RENDERING" },
    { 0x80000ull, "TASK_SHADER" },
    { 0x100000ull, "MESH_SHADER" },
    { 0x200000ull, "RAY_TRACING_SHADER" },
    { 0x400000ull, "FRAGMENT_SHADING_RATE_ATTACHMENT" },
    { 0x800000ull, "FRAGMENT_DENSITY_PROCESS" },
    { 0x1000000ull, "TRANSFORM_FEEDBACK" },
    { 0x2000000ull, "ACCELERATION_STRUCTURE_BUILD" },
    { 0x4000000ull, "VIDEO_DECODE" },
    { 0x8000000ull, "VIDEO_ENCODE" },
    { 0x10000000ull, "ACCELERATION_STRUCTURE_COPY" },
    { 0x40000000ull, "MICROMAP_BUILD" },
};

size_t rg_stage_names(VkPipelineStageFlags2 stages_mask, char *buf, size_t size)
{
    return print_bits(stages_mask, stages, COUNT(stages), buf, size);
}

static const bit_name accesses[] = {
    { 0x1ull, "INDIRECT_COMMAND_READ" },
    { 0x2ull, "INDEX_READ" },
    { 0x4ull, "VERTEX_ATTRIBUTE_READ" },
    { 0x8ull, "UNIFORM_READ" },
    { 0x10ull, "INPUT_ATTACHMENT_READ" },
    { 0x20ull, "SHADER_READ" },
    { 0x40ull, "SHADER_WRITE" },
    { 0x80ull, "COLOR_ATTACHMENT_READ" },
    { 0x100ull, "COLOR_ATTACHMENT_WRITE" },
    { 0x200ull, "DEPTH_STENCIL_ATTACHMENT_READ" },
    { 0x400ull, "DEPTH_STENCIL_ATTACHMENT_WRITE" },
    { 0x800ull, "TRANSFER_READ" },
    { 0x1000ull, "TRANSFER_WRITE" },
    { 0x2000ull, "HOST_READ" },
    { 0x4000ull, "HOST_WRITE" },
    { 0x8000ull, "MEMORY_READ" },
    { 0x10000ull, "MEMORY_WRITE" },
    { 0x100000000ull, "SHADER_SAMPLED_READ" },
    { 0x200000000ull, "SHADER_STORAGE_READ" },
    { 0x400000000ull, "SHADER_STORAGE_WRITE" },
    { 0x80000ull, "COLOR_ATTACHMENT_READ_NONCOHERENT" },
    { 0x100000ull, "CONDITIONAL_RENDERING_READ" },
    { 0x200000ull, "ACCELERATION_STRUCTURE_READ" },
    { 0x400000ull, "ACCELERATION_STRUCTURE_WRITE" },
    { 0x800000ull, "FRAGMENT_SHADING_RATE_ATTACHMENT_READ" },
    { 0x1000000ull, "FRAGMENT_DENSITY_MAP_READ" },
    { 0x2000000ull, "TRANSFORM_FEEDBACK_WRITE" },
    { 0x4000000ull, "TRANSFORM_FEEDBACK_COUNTER_READ" },
    { 0x8000000ull, "TRANSFORM_FEEDBACK_COUNTER_WRITE" },
    { 0x20000ull, "COMMAND_PREPROCESS_READ" },
    { 0x40000ull, "COMMAND_PREPROCESS_WRITE" },
    { 0x800000000ull, "VIDEO_DECODE_READ" },
    { 0x1000000000ull, "VIDEO_DECODE_WRITE" },
    { 0x2000000000ull, "VIDEO_ENCODE_READ" },
    { 0x4000000000ull, "VIDEO_ENCODE_WRITE" },
};

size_t rg_access_names(VkAccessFlags2 access, char *buf, size_t size)
{
    return print_bits(access, accesses, COUNT(accesses), buf, size);
}

static const bit_name image_usages[] = {
    { 0x1ull, "TRANSFER_SRC" },
    { 0x2ull, "TRANSFER_DST" },
    { 0x4ull, "SAMPLED" },
    { 0x8ull, "STORAGE" },
    { 0x10ull, "COLOR_ATTACHMENT" },
    { 0x20ull, "DEPTH_STENCIL_ATTACHMENT" },
    { 0x40ull, "TRANSIENT_ATTACHMENT" },
    { 0x80ull, "INPUT_ATTACHMENT" },
    { 0x100ull, "FRAGMENT_SHADING_RATE_ATTACHMENT" },
    { 0x200ull, "FRAGMENT_DENSITY_MAP" },
    { 0x400ull, "VIDEO_DECODE_DST" },
    { 0x800ull, "VIDEO_DECODE_SRC" },
    { 0x1000ull, "VIDEO_DECODE_DPB" },
    { 0x2000ull, "VIDEO_ENCODE_DST" },
    { 0x4000ull, "VIDEO_ENCODE_SRC" },
    { 0x8000ull, "VIDEO_ENCODE_DPB" },
    { 0x80000ull, "ATTACHMENT_FEEDBACK_LOOP" },
    { 0x400000ull, "HOST_TRANSFER" },
};

size_t rg_image_usage_names(VkImageUsageFlags usage, char *buf, size_t size)
{
    return print_bits(usage, image_usages, COUNT(image_usages), buf, size);
}

static const bit_name buffer_usages[] = {
    { 0x1ull, "TRANSFER_SRC" },
    { 0x2ull, "TRANSFER_DST" },
    { 0x4ull, "UNIFORM_TEXEL_BUFFER" },
    { 0x8ull, "STORAGE_TEXEL_BUFFER" },
    { 0x10ull, "UNIFORM_BUFFER" },
    { 0x20ull, "STORAGE_BUFFER" },
    { 0x40ull, "INDEX_BUFFER" },
    { 0x80ull, "VERTEX_BUFFER" },
    { 0x100ull, "INDIRECT_BUFFER" },
    { 0x20000ull, "SHADER_DEVICE_ADDRESS" },
    { 0x200ull, "CONDITIONAL_RENDERING" },
    { 0x400ull, "SHADER_BINDING_TABLE" },
    { 0x800ull, "TRANSFORM_FEEDBACK_BUFFER" },
    { 0x1000ull, "TRANSFORM_FEEDBACK_COUNTER_BUFFER" },
    { 0x80000ull, "ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY" },
    { 0x100000ull, "ACCELERATION_STRUCTURE_STORAGE" },
    { 0x200000ull, "SAMPLER_DESCRIPTOR_BUFFER" },
    { 0x400000ull, "RESOURCE_DESCRIPTOR_BUFFER" },
};

size_t rg_buffer_usage_names(VkBufferUsageFlags usage, char *buf, size_t size)
{
    return print_bits(usage, buffer_usages, COUNT(buffer_usages), buf, size);
}

/* Step 5: the name of an object a graph created, where the application
 * enabled VK_EXT_debug_utils (rg_device_desc.debug_utils); a failure
 * changes nothing of what runs, so it is not reported. */
void rg__name_object(const rg_device *dev, VkObjectType type, uint64_t handle, const char *fmt, ...)
{
    if (!dev || !dev->vk.SetDebugUtilsObjectNameEXT || !handle)
        return;
    char name[RG__NAME_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    dev->vk.SetDebugUtilsObjectNameEXT(dev->device, &info);
}

/* A view of part of a texture: "ao raw (mip 1)", "shadow (mip 0, layer 2)",
 * "bloom (mips 0-3, layers 0-5)". */
void rg__name_view(const rg_device *dev, VkImageView view, const char *texture, uint32_t mip, uint32_t mip_count,
                   uint32_t base_layer, uint32_t layer_count)
{
    char mips[32], layers[40] = "";
    if (mip_count == 1)
        snprintf(mips, sizeof mips, "mip %u", mip);
    else
        snprintf(mips, sizeof mips, "mips %u-%u", mip, mip + mip_count - 1);
    if (layer_count == 1 && base_layer)
        snprintf(layers, sizeof layers, ", layer %u", base_layer);
    else if (layer_count > 1)
        snprintf(layers, sizeof layers, ", layers %u-%u", base_layer, base_layer + layer_count - 1);
    rg__name_object(dev, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)view, "%s (%s%s)", texture, mips, layers);
}
