/* The names of the values that the render graph, its frame files and
 * rgtool spell out: one X-macro list per enum, each row X(value, name, ...),
 * so that every name is written once. names.c makes the library's tables
 * from them (rg_format_name, rg_layout_name, rg_flag_names and the other
 * flag sets), frame_names.c the frame files' both ways, rgtool's names.c
 * what its text and JSON print. The names are a file format (frame files,
 * rgtool's output, scripts that read them): a name once written stays;
 * a new value adds a row. Where two outputs spell one value differently,
 * its row has a column for each.
 *
 * It includes the public header alone and defines macros alone, so the
 * frame library and rgtool, which are built on the public header, include
 * it too (their CMakeLists.txt add rendergraph/src to their include path
 * for this header; nothing else of src/ is theirs). Not installed.
 */
#ifndef RG_NAME_LISTS_H
#define RG_NAME_LISTS_H

#include "rendergraph/rendergraph.h"

/* ---- the render graph's enums ---- */

/* rg_command_type: frame files' "type", rgtool's. */
#define RG__COMMAND_TYPES(X)                                            \
    X(RG_COMMAND_TYPE_USER, "user")                                     \
    X(RG_COMMAND_TYPE_COPY_BUFFER, "copy_buffer")                       \
    X(RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE, "copy_buffer_to_texture") \
    X(RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER, "copy_texture_to_buffer") \
    X(RG_COMMAND_TYPE_CLEAR, "clear")                                   \
    X(RG_COMMAND_TYPE_BLIT, "blit")                                     \
    X(RG_COMMAND_TYPE_BEGIN_RENDERING, "begin_rendering")               \
    X(RG_COMMAND_TYPE_END_RENDERING, "end_rendering")
/* rg_resource_kind: rgtool's name, then a frame file's "kind" of a
 * texture and of a buffer (NULL: no buffer is one). */
#define RG__RESOURCE_KINDS(X)                                              \
    X(RG_RESOURCE_CREATED, "created", "texture", "buffer")                 \
    X(RG_RESOURCE_IMPORTED, "imported", "texture_import", "buffer_import") \
    X(RG_RESOURCE_HISTORY_CURRENT, "history_current", "history", NULL)     \
    X(RG_RESOURCE_HISTORY_PREVIOUS, "history_previous", "history_previous", NULL)
/* rg_memory_kind: rgtool's. */
#define RG__MEMORY_KINDS(X)                                                                             \
    X(RG_MEMORY_NOT_CREATED, "not_created") X(RG_MEMORY_IMPORTED, "imported") X(RG_MEMORY_LAZY, "lazy") \
    X(RG_MEMORY_DEDICATED, "dedicated") X(RG_MEMORY_POOLED, "pooled") X(RG_MEMORY_LAZY_FALLBACK, "lazy_fallback") \
    X(RG_MEMORY_FOLDED, "folded")
/* rg_merge: frame files' graph "merge", rgtool's --merge and output. */
#define RG__MERGES(X) X(RG_MERGE_AUTO, "auto") X(RG_MERGE_ON, "on") X(RG_MERGE_OFF, "off")
/* rg_fold: the frame files'. */
#define RG__FOLDS(X) X(RG_FOLD_AUTO, "auto") X(RG_FOLD_ON, "on") X(RG_FOLD_OFF, "off")
/* The rest: frame files' (rg_queue_name spells the queues alike). */
#define RG__ORDERS(X) X(RG_ORDER_MEMORY, "memory") X(RG_ORDER_BATCHES, "batches") X(RG_ORDER_DECLARATION, "declaration")
#define RG__QUEUE_POLICIES(X)                                                   \
    X(RG_QUEUE_POLICY_ELIGIBLE, "eligible") X(RG_QUEUE_POLICY_SINGLE, "single") \
    X(RG_QUEUE_POLICY_MEASURED, "measured")
#define RG__QUEUES(X) X(RG_QUEUE_GRAPHICS, "graphics") X(RG_QUEUE_COMPUTE, "compute") X(RG_QUEUE_TRANSFER, "transfer")
#define RG__COMMAND_KINDS(X) X(RG_COMMAND_OUTSIDE, "outside") X(RG_COMMAND_DRAW, "draw")
#define RG__TRANSIENTS(X) X(RG_TRANSIENT_AUTO, "auto") X(RG_TRANSIENT_FORCE, "force") X(RG_TRANSIENT_FORBID, "forbid")
#define RG__ROUNDINGS(X) X(RG_ROUND_DOWN, "down") X(RG_ROUND_UP, "up") X(RG_ROUND_NEAREST, "nearest")

/* ---- Vulkan's small enums, as frame files spell them ---- */

/* Attachment load and store ops; NONE by number (VK_ATTACHMENT_LOAD_OP_NONE_KHR,
 * VK_ATTACHMENT_STORE_OP_NONE), which older headers lack. */
#define RG__LOAD_OPS(X)                                                           \
    X(VK_ATTACHMENT_LOAD_OP_LOAD, "load") X(VK_ATTACHMENT_LOAD_OP_CLEAR, "clear") \
    X(VK_ATTACHMENT_LOAD_OP_DONT_CARE, "dont_care") X(1000400000, "none")
#define RG__STORE_OPS(X) \
    X(VK_ATTACHMENT_STORE_OP_STORE, "store") X(VK_ATTACHMENT_STORE_OP_DONT_CARE, "dont_care") X(1000301000, "none")
#define RG__RESOLVE_MODES(X)                                                          \
    X(VK_RESOLVE_MODE_NONE, "none") X(VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, "sample_zero") \
    X(VK_RESOLVE_MODE_AVERAGE_BIT, "average") X(VK_RESOLVE_MODE_MIN_BIT, "min") X(VK_RESOLVE_MODE_MAX_BIT, "max")
#define RG__FILTERS(X) X(VK_FILTER_NEAREST, "nearest") X(VK_FILTER_LINEAR, "linear")

/* ---- Vulkan's formats, layouts and flag bits (names.c) ---- */

/* Formats as their enumerant without VK_FORMAT_ (X(R8G8B8A8_UNORM)):
 * Vulkan 1.0's, contiguous from 0 to 184, then the later core ones, then
 * by number those newer than some supported headers (Vulkan 1.4,
 * VK_KHR_maintenance5). Source: vulkan_core.h. */
#define RG__FORMATS_1_0(X)                                                                                          \
    X(UNDEFINED) X(R4G4_UNORM_PACK8) X(R4G4B4A4_UNORM_PACK16) X(B4G4R4A4_UNORM_PACK16) X(R5G6B5_UNORM_PACK16)       \
    X(B5G6R5_UNORM_PACK16) X(R5G5B5A1_UNORM_PACK16) X(B5G5R5A1_UNORM_PACK16) X(A1R5G5B5_UNORM_PACK16) X(R8_UNORM)   \
    X(R8_SNORM) X(R8_USCALED) X(R8_SSCALED) X(R8_UINT) X(R8_SINT) X(R8_SRGB) X(R8G8_UNORM) X(R8G8_SNORM)            \
    X(R8G8_USCALED) X(R8G8_SSCALED) X(R8G8_UINT) X(R8G8_SINT) X(R8G8_SRGB) X(R8G8B8_UNORM) X(R8G8B8_SNORM)          \
    X(R8G8B8_USCALED) X(R8G8B8_SSCALED) X(R8G8B8_UINT) X(R8G8B8_SINT) X(R8G8B8_SRGB) X(B8G8R8_UNORM)                \
    X(B8G8R8_SNORM) X(B8G8R8_USCALED) X(B8G8R8_SSCALED) X(B8G8R8_UINT) X(B8G8R8_SINT) X(B8G8R8_SRGB)                \
    X(R8G8B8A8_UNORM) X(R8G8B8A8_SNORM) X(R8G8B8A8_USCALED) X(R8G8B8A8_SSCALED) X(R8G8B8A8_UINT) X(R8G8B8A8_SINT)   \
    X(R8G8B8A8_SRGB) X(B8G8R8A8_UNORM) X(B8G8R8A8_SNORM) X(B8G8R8A8_USCALED) X(B8G8R8A8_SSCALED) X(B8G8R8A8_UINT)   \
    X(B8G8R8A8_SINT) X(B8G8R8A8_SRGB) X(A8B8G8R8_UNORM_PACK32) X(A8B8G8R8_SNORM_PACK32) X(A8B8G8R8_USCALED_PACK32)  \
    X(A8B8G8R8_SSCALED_PACK32) X(A8B8G8R8_UINT_PACK32) X(A8B8G8R8_SINT_PACK32) X(A8B8G8R8_SRGB_PACK32)              \
    X(A2R10G10B10_UNORM_PACK32) X(A2R10G10B10_SNORM_PACK32) X(A2R10G10B10_USCALED_PACK32)                           \
    X(A2R10G10B10_SSCALED_PACK32) X(A2R10G10B10_UINT_PACK32) X(A2R10G10B10_SINT_PACK32) X(A2B10G10R10_UNORM_PACK32) \
    X(A2B10G10R10_SNORM_PACK32) X(A2B10G10R10_USCALED_PACK32) X(A2B10G10R10_SSCALED_PACK32)                         \
    X(A2B10G10R10_UINT_PACK32) X(A2B10G10R10_SINT_PACK32) X(R16_UNORM) X(R16_SNORM) X(R16_USCALED) X(R16_SSCALED)   \
    X(R16_UINT) X(R16_SINT) X(R16_SFLOAT) X(R16G16_UNORM) X(R16G16_SNORM) X(R16G16_USCALED) X(R16G16_SSCALED)       \
    X(R16G16_UINT) X(R16G16_SINT) X(R16G16_SFLOAT) X(R16G16B16_UNORM) X(R16G16B16_SNORM) X(R16G16B16_USCALED)       \
    X(R16G16B16_SSCALED) X(R16G16B16_UINT) X(R16G16B16_SINT) X(R16G16B16_SFLOAT) X(R16G16B16A16_UNORM)              \
    X(R16G16B16A16_SNORM) X(R16G16B16A16_USCALED) X(R16G16B16A16_SSCALED) X(R16G16B16A16_UINT) X(R16G16B16A16_SINT) \
    X(R16G16B16A16_SFLOAT) X(R32_UINT) X(R32_SINT) X(R32_SFLOAT) X(R32G32_UINT) X(R32G32_SINT) X(R32G32_SFLOAT)     \
    X(R32G32B32_UINT) X(R32G32B32_SINT) X(R32G32B32_SFLOAT) X(R32G32B32A32_UINT) X(R32G32B32A32_SINT)               \
    X(R32G32B32A32_SFLOAT) X(R64_UINT) X(R64_SINT) X(R64_SFLOAT) X(R64G64_UINT) X(R64G64_SINT) X(R64G64_SFLOAT)     \
    X(R64G64B64_UINT) X(R64G64B64_SINT) X(R64G64B64_SFLOAT) X(R64G64B64A64_UINT) X(R64G64B64A64_SINT)               \
    X(R64G64B64A64_SFLOAT) X(B10G11R11_UFLOAT_PACK32) X(E5B9G9R9_UFLOAT_PACK32) X(D16_UNORM) X(X8_D24_UNORM_PACK32) \
    X(D32_SFLOAT) X(S8_UINT) X(D16_UNORM_S8_UINT) X(D24_UNORM_S8_UINT) X(D32_SFLOAT_S8_UINT) X(BC1_RGB_UNORM_BLOCK) \
    X(BC1_RGB_SRGB_BLOCK) X(BC1_RGBA_UNORM_BLOCK) X(BC1_RGBA_SRGB_BLOCK) X(BC2_UNORM_BLOCK) X(BC2_SRGB_BLOCK)       \
    X(BC3_UNORM_BLOCK) X(BC3_SRGB_BLOCK) X(BC4_UNORM_BLOCK) X(BC4_SNORM_BLOCK) X(BC5_UNORM_BLOCK)                   \
    X(BC5_SNORM_BLOCK) X(BC6H_UFLOAT_BLOCK) X(BC6H_SFLOAT_BLOCK) X(BC7_UNORM_BLOCK) X(BC7_SRGB_BLOCK)               \
    X(ETC2_R8G8B8_UNORM_BLOCK) X(ETC2_R8G8B8_SRGB_BLOCK) X(ETC2_R8G8B8A1_UNORM_BLOCK) X(ETC2_R8G8B8A1_SRGB_BLOCK)   \
    X(ETC2_R8G8B8A8_UNORM_BLOCK) X(ETC2_R8G8B8A8_SRGB_BLOCK) X(EAC_R11_UNORM_BLOCK) X(EAC_R11_SNORM_BLOCK)          \
    X(EAC_R11G11_UNORM_BLOCK) X(EAC_R11G11_SNORM_BLOCK) X(ASTC_4x4_UNORM_BLOCK) X(ASTC_4x4_SRGB_BLOCK)              \
    X(ASTC_5x4_UNORM_BLOCK) X(ASTC_5x4_SRGB_BLOCK) X(ASTC_5x5_UNORM_BLOCK) X(ASTC_5x5_SRGB_BLOCK)                   \
    X(ASTC_6x5_UNORM_BLOCK) X(ASTC_6x5_SRGB_BLOCK) X(ASTC_6x6_UNORM_BLOCK) X(ASTC_6x6_SRGB_BLOCK)                   \
    X(ASTC_8x5_UNORM_BLOCK) X(ASTC_8x5_SRGB_BLOCK) X(ASTC_8x6_UNORM_BLOCK) X(ASTC_8x6_SRGB_BLOCK)                   \
    X(ASTC_8x8_UNORM_BLOCK) X(ASTC_8x8_SRGB_BLOCK) X(ASTC_10x5_UNORM_BLOCK) X(ASTC_10x5_SRGB_BLOCK)                 \
    X(ASTC_10x6_UNORM_BLOCK) X(ASTC_10x6_SRGB_BLOCK) X(ASTC_10x8_UNORM_BLOCK) X(ASTC_10x8_SRGB_BLOCK)               \
    X(ASTC_10x10_UNORM_BLOCK) X(ASTC_10x10_SRGB_BLOCK) X(ASTC_12x10_UNORM_BLOCK) X(ASTC_12x10_SRGB_BLOCK)           \
    X(ASTC_12x12_UNORM_BLOCK) X(ASTC_12x12_SRGB_BLOCK)
#define RG__FORMATS_LATER(X)                                                                                   \
    X(ASTC_4x4_SFLOAT_BLOCK) X(ASTC_5x4_SFLOAT_BLOCK) X(ASTC_5x5_SFLOAT_BLOCK) X(ASTC_6x5_SFLOAT_BLOCK)        \
    X(ASTC_6x6_SFLOAT_BLOCK) X(ASTC_8x5_SFLOAT_BLOCK) X(ASTC_8x6_SFLOAT_BLOCK) X(ASTC_8x8_SFLOAT_BLOCK)        \
    X(ASTC_10x5_SFLOAT_BLOCK) X(ASTC_10x6_SFLOAT_BLOCK) X(ASTC_10x8_SFLOAT_BLOCK) X(ASTC_10x10_SFLOAT_BLOCK)   \
    X(ASTC_12x10_SFLOAT_BLOCK) X(ASTC_12x12_SFLOAT_BLOCK) X(G8B8G8R8_422_UNORM) X(B8G8R8G8_422_UNORM)          \
    X(G8_B8_R8_3PLANE_420_UNORM) X(G8_B8R8_2PLANE_420_UNORM) X(G8_B8_R8_3PLANE_422_UNORM)                      \
    X(G8_B8R8_2PLANE_422_UNORM) X(G8_B8_R8_3PLANE_444_UNORM) X(R10X6_UNORM_PACK16) X(R10X6G10X6_UNORM_2PACK16) \
    X(R10X6G10X6B10X6A10X6_UNORM_4PACK16) X(G10X6B10X6G10X6R10X6_422_UNORM_4PACK16)                            \
    X(B10X6G10X6R10X6G10X6_422_UNORM_4PACK16) X(G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16)                    \
    X(G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16) X(G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16)                 \
    X(G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16) X(G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16)                 \
    X(R12X4_UNORM_PACK16) X(R12X4G12X4_UNORM_2PACK16) X(R12X4G12X4B12X4A12X4_UNORM_4PACK16)                    \
    X(G12X4B12X4G12X4R12X4_422_UNORM_4PACK16) X(B12X4G12X4R12X4G12X4_422_UNORM_4PACK16)                        \
    X(G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16) X(G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16)                 \
    X(G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16) X(G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16)                 \
    X(G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16) X(G16B16G16R16_422_UNORM) X(B16G16R16G16_422_UNORM)          \
    X(G16_B16_R16_3PLANE_420_UNORM) X(G16_B16R16_2PLANE_420_UNORM) X(G16_B16_R16_3PLANE_422_UNORM)             \
    X(G16_B16R16_2PLANE_422_UNORM) X(G16_B16_R16_3PLANE_444_UNORM) X(G8_B8R8_2PLANE_444_UNORM)                 \
    X(G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16) X(G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16)                  \
    X(G16_B16R16_2PLANE_444_UNORM) X(A4R4G4B4_UNORM_PACK16) X(A4B4G4R4_UNORM_PACK16)
#define RG__FORMATS_NEWER(X) X(1000470000, "A1B5G5R5_UNORM_PACK16") X(1000470001, "A8_UNORM")

/* Layouts by number; the suffix of an extension promoted to core is
 * dropped (PRESENT_SRC_KHR is "PRESENT_SRC"). */
#define RG__LAYOUTS(X)                                                                                          \
    X(0, "UNDEFINED") X(1, "GENERAL") X(2, "COLOR_ATTACHMENT_OPTIMAL") X(3, "DEPTH_STENCIL_ATTACHMENT_OPTIMAL") \
    X(4, "DEPTH_STENCIL_READ_ONLY_OPTIMAL") X(5, "SHADER_READ_ONLY_OPTIMAL") X(6, "TRANSFER_SRC_OPTIMAL")       \
    X(7, "TRANSFER_DST_OPTIMAL") X(8, "PREINITIALIZED")                                                         \
    X(1000117000, "DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL")                                                 \
    X(1000117001, "DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL") X(1000241000, "DEPTH_ATTACHMENT_OPTIMAL")       \
    X(1000241001, "DEPTH_READ_ONLY_OPTIMAL") X(1000241002, "STENCIL_ATTACHMENT_OPTIMAL")                        \
    X(1000241003, "STENCIL_READ_ONLY_OPTIMAL") X(1000314000, "READ_ONLY_OPTIMAL")                               \
    X(1000314001, "ATTACHMENT_OPTIMAL") X(1000232000, "RENDERING_LOCAL_READ") X(1000001002, "PRESENT_SRC")      \
    X(1000111000, "SHARED_PRESENT") X(1000024000, "VIDEO_DECODE_DST") X(1000024001, "VIDEO_DECODE_SRC")         \
    X(1000024002, "VIDEO_DECODE_DPB") X(1000299000, "VIDEO_ENCODE_DST") X(1000299001, "VIDEO_ENCODE_SRC")       \
    X(1000299002, "VIDEO_ENCODE_DPB") X(1000164003, "FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL")                 \
    X(1000218000, "FRAGMENT_DENSITY_MAP_OPTIMAL") X(1000339000, "ATTACHMENT_FEEDBACK_LOOP_OPTIMAL")

/* Flag bits by their enumerant without its prefix, _BIT and a vendor's
 * suffix, in the order a set prints them: the core bits of
 * synchronization2 and the usages, then the extension ones a render graph
 * meets (swapchain, local read, video, ray tracing, mesh shading). First
 * VkPipelineStageFlagBits2 (rg_flag_names, RG_FLAGS_STAGE): */
#define RG__STAGE_BITS(X)                                                                                          \
    X(0x1ull, "TOP_OF_PIPE") X(0x2ull, "DRAW_INDIRECT") X(0x4ull, "VERTEX_INPUT") X(0x8ull, "VERTEX_SHADER")       \
    X(0x10ull, "TESSELLATION_CONTROL_SHADER") X(0x20ull, "TESSELLATION_EVALUATION_SHADER")                         \
    X(0x40ull, "GEOMETRY_SHADER") X(0x80ull, "FRAGMENT_SHADER") X(0x100ull, "EARLY_FRAGMENT_TESTS")                \
    X(0x200ull, "LATE_FRAGMENT_TESTS") X(0x400ull, "COLOR_ATTACHMENT_OUTPUT") X(0x800ull, "COMPUTE_SHADER")        \
    X(0x1000ull, "ALL_TRANSFER") X(0x2000ull, "BOTTOM_OF_PIPE") X(0x4000ull, "HOST") X(0x8000ull, "ALL_GRAPHICS")  \
    X(0x10000ull, "ALL_COMMANDS") X(0x100000000ull, "COPY") X(0x200000000ull, "RESOLVE") X(0x400000000ull, "BLIT") \
    X(0x800000000ull, "CLEAR") X(0x1000000000ull, "INDEX_INPUT") X(0x2000000000ull, "VERTEX_ATTRIBUTE_INPUT")      \
    X(0x4000000000ull, "PRE_RASTERIZATION_SHADERS") X(0x20000ull, "COMMAND_PREPROCESS")                            \
    X(0x40000ull, "CONDITIONAL_RENDERING") X(0x80000ull, "TASK_SHADER") X(0x100000ull, "MESH_SHADER")              \
    X(0x200000ull, "RAY_TRACING_SHADER") X(0x400000ull, "FRAGMENT_SHADING_RATE_ATTACHMENT")                        \
    X(0x800000ull, "FRAGMENT_DENSITY_PROCESS") X(0x1000000ull, "TRANSFORM_FEEDBACK")                               \
    X(0x2000000ull, "ACCELERATION_STRUCTURE_BUILD") X(0x4000000ull, "VIDEO_DECODE")                                \
    X(0x8000000ull, "VIDEO_ENCODE") X(0x10000000ull, "ACCELERATION_STRUCTURE_COPY")                                \
    X(0x40000000ull, "MICROMAP_BUILD")
/* VkAccessFlagBits2 (rg_flag_names, RG_FLAGS_ACCESS): */
#define RG__ACCESS_BITS(X)                                                                                 \
    X(0x1ull, "INDIRECT_COMMAND_READ") X(0x2ull, "INDEX_READ") X(0x4ull, "VERTEX_ATTRIBUTE_READ")          \
    X(0x8ull, "UNIFORM_READ") X(0x10ull, "INPUT_ATTACHMENT_READ") X(0x20ull, "SHADER_READ")                \
    X(0x40ull, "SHADER_WRITE") X(0x80ull, "COLOR_ATTACHMENT_READ") X(0x100ull, "COLOR_ATTACHMENT_WRITE")   \
    X(0x200ull, "DEPTH_STENCIL_ATTACHMENT_READ") X(0x400ull, "DEPTH_STENCIL_ATTACHMENT_WRITE")             \
    X(0x800ull, "TRANSFER_READ") X(0x1000ull, "TRANSFER_WRITE") X(0x2000ull, "HOST_READ")                  \
    X(0x4000ull, "HOST_WRITE") X(0x8000ull, "MEMORY_READ") X(0x10000ull, "MEMORY_WRITE")                   \
    X(0x100000000ull, "SHADER_SAMPLED_READ") X(0x200000000ull, "SHADER_STORAGE_READ")                      \
    X(0x400000000ull, "SHADER_STORAGE_WRITE") X(0x80000ull, "COLOR_ATTACHMENT_READ_NONCOHERENT")           \
    X(0x100000ull, "CONDITIONAL_RENDERING_READ") X(0x200000ull, "ACCELERATION_STRUCTURE_READ")             \
    X(0x400000ull, "ACCELERATION_STRUCTURE_WRITE") X(0x800000ull, "FRAGMENT_SHADING_RATE_ATTACHMENT_READ") \
    X(0x1000000ull, "FRAGMENT_DENSITY_MAP_READ") X(0x2000000ull, "TRANSFORM_FEEDBACK_WRITE")               \
    X(0x4000000ull, "TRANSFORM_FEEDBACK_COUNTER_READ") X(0x8000000ull, "TRANSFORM_FEEDBACK_COUNTER_WRITE") \
    X(0x20000ull, "COMMAND_PREPROCESS_READ") X(0x40000ull, "COMMAND_PREPROCESS_WRITE")                     \
    X(0x800000000ull, "VIDEO_DECODE_READ") X(0x1000000000ull, "VIDEO_DECODE_WRITE")                        \
    X(0x2000000000ull, "VIDEO_ENCODE_READ") X(0x4000000000ull, "VIDEO_ENCODE_WRITE")
/* VkImageUsageFlagBits (rg_flag_names, RG_FLAGS_IMAGE_USAGE): */
#define RG__IMAGE_USAGE_BITS(X)                                                                              \
    X(0x1ull, "TRANSFER_SRC") X(0x2ull, "TRANSFER_DST") X(0x4ull, "SAMPLED") X(0x8ull, "STORAGE")            \
    X(0x10ull, "COLOR_ATTACHMENT") X(0x20ull, "DEPTH_STENCIL_ATTACHMENT") X(0x40ull, "TRANSIENT_ATTACHMENT") \
    X(0x80ull, "INPUT_ATTACHMENT") X(0x100ull, "FRAGMENT_SHADING_RATE_ATTACHMENT")                           \
    X(0x200ull, "FRAGMENT_DENSITY_MAP") X(0x400ull, "VIDEO_DECODE_DST") X(0x800ull, "VIDEO_DECODE_SRC")      \
    X(0x1000ull, "VIDEO_DECODE_DPB") X(0x2000ull, "VIDEO_ENCODE_DST") X(0x4000ull, "VIDEO_ENCODE_SRC")       \
    X(0x8000ull, "VIDEO_ENCODE_DPB") X(0x80000ull, "ATTACHMENT_FEEDBACK_LOOP") X(0x400000ull, "HOST_TRANSFER")
/* VkBufferUsageFlagBits (rg_flag_names, RG_FLAGS_BUFFER_USAGE): */
#define RG__BUFFER_USAGE_BITS(X)                                                                                   \
    X(0x1ull, "TRANSFER_SRC") X(0x2ull, "TRANSFER_DST") X(0x4ull, "UNIFORM_TEXEL_BUFFER")                          \
    X(0x8ull, "STORAGE_TEXEL_BUFFER") X(0x10ull, "UNIFORM_BUFFER") X(0x20ull, "STORAGE_BUFFER")                    \
    X(0x40ull, "INDEX_BUFFER") X(0x80ull, "VERTEX_BUFFER") X(0x100ull, "INDIRECT_BUFFER")                          \
    X(0x20000ull, "SHADER_DEVICE_ADDRESS") X(0x200ull, "CONDITIONAL_RENDERING")                                    \
    X(0x400ull, "SHADER_BINDING_TABLE") X(0x800ull, "TRANSFORM_FEEDBACK_BUFFER")                                   \
    X(0x1000ull, "TRANSFORM_FEEDBACK_COUNTER_BUFFER")                                                              \
    X(0x80000ull, "ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY") X(0x100000ull, "ACCELERATION_STRUCTURE_STORAGE") \
    X(0x200000ull, "SAMPLER_DESCRIPTOR_BUFFER") X(0x400000ull, "RESOURCE_DESCRIPTOR_BUFFER")
/* Aspects: frame files' alone (a copy's and a range's). */
#define RG__ASPECT_BITS(X) X(0x1ull, "COLOR") X(0x2ull, "DEPTH") X(0x4ull, "STENCIL")

#endif
