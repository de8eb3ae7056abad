/* Bad input: every call returns the right code, names the object in
 * eng_last_error(), leaves its output pointer NULL and leaks nothing (the
 * fixture's teardown counts the layer's leak reports at vkDestroyDevice;
 * the sanitizer build checks host memory). The suite's other file:
 * test_errors_context.c; their helpers: errors_support.c. */
#include "device_fixture.h"
#include "errors_support.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <engine_files/engine_files.h>
#include <stdlib.h>
#include <string.h>

TestSuite(errors, .init = device_setup, .fini = device_teardown);

static VkSampleCountFlagBits unsupported_samples(VkFormat format, VkImageUsageFlags usage)
{
    VkImageFormatProperties fp;
    cr_assert_eq(vkGetPhysicalDeviceImageFormatProperties(eng_context_physical_device(test_ctx), format,
                                                          VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0, &fp),
                 VK_SUCCESS);
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(test_ctx)->limits;
    VkSampleCountFlags ok = fp.sampleCounts & lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts;
    for (uint32_t s = VK_SAMPLE_COUNT_2_BIT; s <= VK_SAMPLE_COUNT_64_BIT; s <<= 1)
        if (!(ok & s))
            return (VkSampleCountFlagBits)s;
    return 0;
}

DEVICE_TEST(errors, image_zero_extent)
{
    eng_image *img = POISON(eng_image);
    eng_image_desc d = { .name = "zero-img", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 0, .height = 16,
                         .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "zero-img");
    d.width = 16;
    d.height = 0;
    img = POISON(eng_image);
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "zero-img");
    eng_attachment_desc ad = { .name = "zero-att", .format = VK_FORMAT_D32_SFLOAT };
    img = POISON(eng_image);
    EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_INVALID_ARGUMENT, img, "zero-att");
}

DEVICE_TEST(errors, image_missing_fields)
{
    eng_image *img = POISON(eng_image);
    eng_image_desc d = { .name = "no-format", .width = 4, .height = 4, .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "no-format");
    d = (eng_image_desc){ .name = "no-usage", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 4, .height = 4 };
    img = POISON(eng_image);
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "no-usage");
    d = (eng_image_desc){ .name = "msaa-mips", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 4, .height = 4,
                          .samples = VK_SAMPLE_COUNT_4_BIT, .mip_levels = 2,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT };
    img = POISON(eng_image);
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "msaa-mips");
    d = (eng_image_desc){ .name = "huge", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 1u << 30, .height = 4,
                          .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    img = POISON(eng_image);
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_UNSUPPORTED, img, "huge");
}

DEVICE_TEST(errors, format_unsupported_for_usage)
{
    /* The first of these the device cannot render to; checked first with
     * the device itself, so the test never passes on a format that works. */
    static const VkFormat candidates[] = {
        VK_FORMAT_R64G64B64A64_SFLOAT, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
        VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_R8G8B8_SSCALED,
    };
    VkFormat format = VK_FORMAT_UNDEFINED;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && !format; i++) {
        VkImageFormatProperties fp;
        VkResult vr = vkGetPhysicalDeviceImageFormatProperties(
            eng_context_physical_device(test_ctx), candidates[i], VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, 0, &fp);
        if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
            format = candidates[i];
    }
    cr_assert_neq(format, VK_FORMAT_UNDEFINED, "every candidate format is renderable on this device");
    eng_image *img = POISON(eng_image);
    eng_attachment_desc ad = { .name = "unrenderable", .format = format, .width = 16, .height = 16 };
    EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_UNSUPPORTED, img, "unrenderable");
    /* And as a pipeline's color format. */
    eng_pipeline *p = POISON(eng_pipeline);
    EXPECT_FAIL(solid_pipeline_create(test_ctx, format, VK_FORMAT_UNDEFINED, 0, NULL, &p), ENG_ERROR_UNSUPPORTED, p,
                "solid");
}

DEVICE_TEST(errors, unsupported_sample_count)
{
    /* Every power of two up to 64 the device lacks for a 4x4 color
     * attachment (lavapipe: all but 1 and 4) is refused by attachments and
     * pipelines alike. */
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    VkImageFormatProperties fp;
    cr_assert_eq(vkGetPhysicalDeviceImageFormatProperties(eng_context_physical_device(test_ctx),
                                                          VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                          VK_IMAGE_TILING_OPTIMAL, usage, 0, &fp),
                 VK_SUCCESS);
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(test_ctx)->limits;
    VkSampleCountFlags ok = fp.sampleCounts & lim->framebufferColorSampleCounts;
    if (strstr(eng_context_properties(test_ctx)->deviceName, "llvmpipe"))
        cr_expect_eq(ok, VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT, "lavapipe supports 1 and 4");
    int tested = 0;
    eng_attachment_desc ad = { .name = "too-many-samples", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 16,
                               .height = 16 };
    for (uint32_t s = VK_SAMPLE_COUNT_2_BIT; s <= VK_SAMPLE_COUNT_64_BIT; s <<= 1) {
        if (fp.sampleCounts & s) /* the image is possible; the pipeline check is pipeline_8x_samples' */
            continue;
        tested++;
        ad.samples = (VkSampleCountFlagBits)s;
        eng_image *img = POISON(eng_image);
        EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_UNSUPPORTED, img, "too-many-samples");
        if (!(ok & s)) {
            eng_pipeline *p = POISON(eng_pipeline);
            EXPECT_FAIL(solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_UNDEFINED,
                                              (VkSampleCountFlagBits)s, NULL, &p),
                        ENG_ERROR_UNSUPPORTED, p, "solid");
        }
    }
    cr_assert_gt(tested, 0, "the device supports every sample count up to 64 for RGBA8 attachments");
    eng_image *img;
    eng_pipeline *p;
    /* Not a sample count at all. */
    ad.samples = (VkSampleCountFlagBits)3;
    img = POISON(eng_image);
    EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_INVALID_ARGUMENT, img, "too-many-samples");
    ad.samples = (VkSampleCountFlagBits)128;
    img = POISON(eng_image);
    EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_INVALID_ARGUMENT, img, "too-many-samples");
    p = POISON(eng_pipeline);
    EXPECT_FAIL(solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_UNDEFINED,
                                      (VkSampleCountFlagBits)3, NULL, &p),
                ENG_ERROR_INVALID_ARGUMENT, p, "solid");
}

DEVICE_TEST(errors, transient_misuse)
{
    eng_image *img = POISON(eng_image);
    eng_image_desc d = { .name = "transient-sampled", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 16, .height = 16,
                         .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
                                  VK_IMAGE_USAGE_SAMPLED_BIT };
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "transient-sampled");
    d.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
              VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    img = POISON(eng_image);
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_INVALID_ARGUMENT, img, "transient-sampled");

    eng_attachment_desc ad = { .name = "transient-extra", .format = VK_FORMAT_D32_SFLOAT, .width = 16, .height = 16,
                               .extra_usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    img = POISON(eng_image);
    EXPECT_FAIL(eng_attachment_create(test_ctx, &ad, &img), ENG_ERROR_INVALID_ARGUMENT, img, "transient-extra");
}

DEVICE_TEST(errors, buffers)
{
    eng_buffer *b = POISON(eng_buffer);
    eng_buffer_desc d = { .name = "empty-buf", .size = 0, .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT };
    EXPECT_FAIL(eng_buffer_create(test_ctx, &d, &b), ENG_ERROR_INVALID_ARGUMENT, b, "empty-buf");
    d = (eng_buffer_desc){ .name = "no-usage-buf", .size = 64 };
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create(test_ctx, &d, &b), ENG_ERROR_INVALID_ARGUMENT, b, "no-usage-buf");
    d = (eng_buffer_desc){ .name = "lazy-buf", .size = 64, .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                           .memory = VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT };
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create(test_ctx, &d, &b), ENG_ERROR_INVALID_ARGUMENT, b, "lazy-buf");
    /* Flags no type has: the memory-type choice fails, naming the buffer. */
    d = (eng_buffer_desc){ .name = "odd-memory-buf", .size = 64, .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                           .memory = VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD | VK_MEMORY_PROPERTY_PROTECTED_BIT };
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create(test_ctx, &d, &b), ENG_ERROR_NO_MEMORY_TYPE, b, "odd-memory-buf");
    uint8_t data[4] = { 0 };
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create_with_data(test_ctx, "empty-data", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, data, 0, &b),
                ENG_ERROR_INVALID_ARGUMENT, b, "empty-data");
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create_with_data(test_ctx, "null-data", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, NULL, 4, &b),
                ENG_ERROR_INVALID_ARGUMENT, b, NULL);
}

DEVICE_TEST(errors, image_memory_type_missing)
{
    eng_image *img = POISON(eng_image);
    eng_image_desc d = { .name = "odd-memory-img", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 4, .height = 4,
                         .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
                         .memory = VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD | VK_MEMORY_PROPERTY_PROTECTED_BIT };
    EXPECT_FAIL(eng_image_create(test_ctx, &d, &img), ENG_ERROR_NO_MEMORY_TYPE, img, "odd-memory-img");
}

DEVICE_TEST(errors, pipelines)
{
    eng_pipeline *p = POISON(eng_pipeline);
    eng_pipeline_desc d = { .name = "no-vs", .fragment_spirv = solid_frag_spv, .fragment_size = solid_frag_size,
                            .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM } };
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "no-vs");

    d = (eng_pipeline_desc){ .name = "bad-spirv", .vertex_spirv = solid_frag_spv, .vertex_size = 6,
                             .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM } };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "bad-spirv");
    static const uint32_t not_spirv[4] = { 0x12345678u, 0, 0, 0 };
    d.fragment_spirv = not_spirv; /* valid vertex shader, broken fragment one: the vertex module is freed */
    d.fragment_size = sizeof not_spirv;
    d.vertex_spirv = solid_vert_spv;
    d.vertex_size = solid_vert_size;
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "bad-spirv");

    d = (eng_pipeline_desc){ .name = "no-attachments", .vertex_spirv = solid_vert_spv,
                             .vertex_size = solid_vert_size };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "no-attachments");

    d = (eng_pipeline_desc){ .name = "depth-test-no-depth", .vertex_spirv = solid_vert_spv,
                             .vertex_size = solid_vert_size, .color_count = 1,
                             .color_formats = { VK_FORMAT_R8G8B8A8_UNORM }, .depth_test = true };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "depth-test-no-depth");

    d = (eng_pipeline_desc){ .name = "color-as-depth", .vertex_spirv = solid_vert_spv,
                             .vertex_size = solid_vert_size, .depth_format = VK_FORMAT_R8G8B8A8_UNORM };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "color-as-depth");

    d = (eng_pipeline_desc){ .name = "too-many-colors", .vertex_spirv = solid_vert_spv,
                             .vertex_size = solid_vert_size, .color_count = ENG_MAX_COLOR_ATTACHMENTS + 1 };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "too-many-colors");

    d = (eng_pipeline_desc){ .name = "odd-push", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                             .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM },
                             .push_constant_size = 6 };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "odd-push");

    d = (eng_pipeline_desc){ .name = "count-no-array", .vertex_spirv = solid_vert_spv,
                             .vertex_size = solid_vert_size, .color_count = 1,
                             .color_formats = { VK_FORMAT_R8G8B8A8_UNORM }, .attribute_count = 2 };
    p = POISON(eng_pipeline);
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_INVALID_ARGUMENT, p, "count-no-array");
}

DEVICE_TEST(errors, pipeline_8x_samples)
{
    /* The brief's case: 8x on a device that lacks it (lavapipe), else the
     * first count the device lacks. */
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(test_ctx)->limits;
    VkSampleCountFlagBits s = VK_SAMPLE_COUNT_8_BIT;
    if (lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts & s)
        s = unsupported_samples(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    cr_assert_neq(s, 0);
    eng_pipeline *p = POISON(eng_pipeline);
    eng_pipeline_desc d = { .name = "msaa-8x", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                            .fragment_spirv = solid_frag_spv, .fragment_size = solid_frag_size, .color_count = 1,
                            .color_formats = { VK_FORMAT_R8G8B8A8_UNORM }, .samples = s };
    EXPECT_FAIL(eng_pipeline_create(test_ctx, &d, &p), ENG_ERROR_UNSUPPORTED, p, "msaa-8x");
}

/* create(ctx, desc, &out) refused as INVALID_ARGUMENT for each argument
 * NULL in turn: the context and the desc (out, poisoned before, cleared),
 * and out itself. */
#define EXPECT_NULL_ARGUMENTS(create, ctx, desc, out)                                   \
    do {                                                                                \
        (out) = (void *)(uintptr_t)0x1;                                                 \
        EXPECT_FAIL(create(NULL, desc, &(out)), ENG_ERROR_INVALID_ARGUMENT, out, NULL); \
        (out) = (void *)(uintptr_t)0x1;                                                 \
        EXPECT_FAIL(create(ctx, NULL, &(out)), ENG_ERROR_INVALID_ARGUMENT, out, NULL);  \
        cr_expect_eq(create(ctx, desc, NULL), ENG_ERROR_INVALID_ARGUMENT);              \
    } while (0)

DEVICE_TEST(errors, null_arguments)
{
    eng_context *ctx = test_ctx;
    eng_image_desc id = { .name = "x", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 4, .height = 4,
                          .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    eng_attachment_desc ad = { .name = "x", .format = VK_FORMAT_D32_SFLOAT, .width = 4, .height = 4 };
    eng_buffer_desc bd = { .name = "x", .size = 4, .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT };
    eng_pipeline_desc pd = { .name = "x", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                             .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM } };
    eng_swapchain_desc sd = { 0 };
    uint8_t data[4] = { 0 };

    eng_image *img;
    EXPECT_NULL_ARGUMENTS(eng_image_create, ctx, &id, img);
    EXPECT_NULL_ARGUMENTS(eng_attachment_create, ctx, &ad, img);
    EXPECT_NULL_ARGUMENTS(eng_texture_load, ctx, "x.png", img);

    eng_buffer *b;
    EXPECT_NULL_ARGUMENTS(eng_buffer_create, ctx, &bd, b);
    b = POISON(eng_buffer);
    EXPECT_FAIL(eng_buffer_create_with_data(NULL, "x", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, data, 4, &b),
                ENG_ERROR_INVALID_ARGUMENT, b, NULL);
    cr_expect_eq(eng_buffer_create_with_data(ctx, "x", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, data, 4, NULL),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_buffer_upload(NULL, NULL, 0, data, 4), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_buffer_upload(ctx, NULL, 0, data, 4), ENG_ERROR_INVALID_ARGUMENT);

    eng_pipeline *p;
    EXPECT_NULL_ARGUMENTS(eng_pipeline_create, ctx, &pd, p);
    eng_pipeline_cache *pc = POISON(eng_pipeline_cache);
    EXPECT_FAIL(eng_pipeline_cache_create(NULL, NULL, &pc), ENG_ERROR_INVALID_ARGUMENT, pc, NULL);
    cr_expect_eq(eng_pipeline_cache_create(ctx, NULL, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_pipeline_cache_save(NULL), ENG_ERROR_INVALID_ARGUMENT);

    uint32_t *words = POISON(uint32_t);
    size_t size = 7;
    EXPECT_FAIL(eng_spirv_load(NULL, &words, &size), ENG_ERROR_INVALID_ARGUMENT, words, NULL);
    cr_expect_eq(eng_spirv_load("x.spv", NULL, &size), ENG_ERROR_INVALID_ARGUMENT);
    words = POISON(uint32_t);
    EXPECT_FAIL(eng_spirv_load("x.spv", &words, NULL), ENG_ERROR_INVALID_ARGUMENT, words, NULL);

    eng_swapchain *sc;
    EXPECT_NULL_ARGUMENTS(eng_swapchain_create, ctx, &sd, sc);
    eng_frame frame;
    cr_expect_eq(eng_swapchain_acquire(NULL, &frame), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_present(NULL, &frame), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_swapchain_capture_next(NULL), ENG_ERROR_INVALID_ARGUMENT);
    uint8_t *rgba = POISON(uint8_t);
    uint32_t w, h;
    EXPECT_FAIL(eng_swapchain_read_capture(NULL, &rgba, &w, &h), ENG_ERROR_INVALID_ARGUMENT, rgba, NULL);

    cr_expect_eq(eng_context_submit_once(NULL, NULL, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_context_submit_once(ctx, NULL, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_context_wait_idle(NULL), ENG_ERROR_INVALID_ARGUMENT);
    eng_memory_budget mb;
    cr_expect_eq(eng_memory_budget_query(NULL, &mb), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_memory_budget_query(ctx, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_image_upload(ctx, NULL, data, 4, VK_IMAGE_LAYOUT_GENERAL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_image_read(ctx, NULL, VK_IMAGE_LAYOUT_GENERAL, data, 4), ENG_ERROR_INVALID_ARGUMENT);

    /* Queries on NULL objects answer "nothing" rather than crash. */
    cr_expect_null(eng_image_get_info(NULL));
    cr_expect_not(eng_image_is_lazy(NULL));
    cr_expect_eq(eng_buffer_handle(NULL), VK_NULL_HANDLE);
    cr_expect_null(eng_buffer_mapped(NULL));
    cr_expect_eq(eng_buffer_size(NULL), 0);
    cr_expect_eq(eng_pipeline_handle(NULL), VK_NULL_HANDLE);
    cr_expect_eq(eng_pipeline_layout(NULL), VK_NULL_HANDLE);
    cr_expect_eq(eng_pipeline_cache_handle(NULL), VK_NULL_HANDLE);
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(NULL), 0);
    cr_expect_eq(eng_swapchain_extent(NULL).width, 0);
    cr_expect_eq(eng_swapchain_format(NULL), VK_FORMAT_UNDEFINED);
    cr_expect_eq(eng_swapchain_recreate_count(NULL), 0);
}

DEVICE_TEST(errors, destroy_accepts_null)
{
    eng_context_destroy(NULL);
    eng_image_destroy(NULL);
    eng_buffer_destroy(NULL);
    eng_pipeline_destroy(NULL);
    eng_pipeline_cache_destroy(NULL);
    eng_swapchain_destroy(NULL);
    eng_swapchain_resize(NULL, 1, 1);
    cr_expect(eng_context_device(test_ctx), "still alive");
}
