/* Attachments and images on the device: transient ones land in
 * LAZILY_ALLOCATED memory exactly when the device offers such a type for
 * them, everything else never does. The expectation is computed from the
 * device's own memory properties and the memoryTypeBits of an equivalent
 * image, not from the engine. */
#include "device_fixture.h"
#include "test_image_info.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(attachments, .init = device_setup, .fini = device_teardown);

#define LAZY VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT
#define DL VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
#define PROT VK_MEMORY_PROPERTY_PROTECTED_BIT

typedef struct expectation {
    uint32_t type;
    bool lazy;
    bool lazy_offered;
} expectation;

/* memoryTypeBits of a raw image made like the engine's, and the type the
 * rules pick from them: the first DEVICE_LOCAL|LAZY type for a transient
 * image when offered, else the first DEVICE_LOCAL non-lazy, non-protected. */
static expectation expect_for(VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage)
{
    VkDevice dev = eng_context_device(test_ctx);
    VkImageCreateInfo ci = test_image_info(format, 64, 64, samples, usage);
    VkImage image;
    cr_assert_eq(vkCreateImage(dev, &ci, NULL, &image), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image, &req);
    vkDestroyImage(dev, image, NULL);

    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    bool transient = usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    expectation e = { .type = UINT32_MAX };
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        if ((req.memoryTypeBits & (1u << i)) && (f & (DL | LAZY)) == (DL | LAZY) && !(f & PROT))
            e.lazy_offered = true;
    }
    if (transient && e.lazy_offered) {
        for (uint32_t i = 0; i < mp->memoryTypeCount && e.type == UINT32_MAX; i++) {
            VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
            if ((req.memoryTypeBits & (1u << i)) && (f & (DL | LAZY)) == (DL | LAZY) && !(f & PROT))
                e.type = i;
        }
        e.lazy = true;
        return e;
    }
    for (uint32_t i = 0; i < mp->memoryTypeCount && e.type == UINT32_MAX; i++) {
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        if ((req.memoryTypeBits & (1u << i)) && (f & DL) && !(f & (LAZY | PROT)))
            e.type = i;
    }
    cr_assert_neq(e.type, UINT32_MAX, "the device has no device-local type for VkFormat %d", (int)format);
    return e;
}

static bool is_lavapipe(void)
{
    return strstr(eng_context_properties(test_ctx)->deviceName, "llvmpipe") != NULL;
}

static void check_image(const eng_image *img, const char *name, VkFormat format, VkSampleCountFlagBits samples,
                        VkImageUsageFlags usage)
{
    const eng_image_info *info = eng_image_get_info(img);
    cr_assert_not_null(info);
    cr_expect_str_eq(info->name, name);
    cr_expect_neq(info->image, VK_NULL_HANDLE);
    cr_expect_neq(info->view, VK_NULL_HANDLE);
    cr_expect_eq(info->format, format);
    cr_expect_eq(info->extent.width, 64);
    cr_expect_eq(info->extent.height, 64);
    cr_expect_eq(info->mip_levels, 1);
    cr_expect_eq(info->array_layers, 1);
    cr_expect_eq(info->samples, samples);
    cr_expect_eq(info->usage, usage, "%s: usage 0x%x, want 0x%x", name, info->usage, usage);
    cr_expect_eq(info->aspect, rg_format_has_depth(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT);
    cr_expect_gt(info->memory_size, 0);
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    cr_assert_lt(info->memory_type, mp->memoryTypeCount);
    cr_expect_eq(info->memory_flags, mp->memoryTypes[info->memory_type].propertyFlags,
                 "%s: memory_flags are the chosen type's flags", name);
    cr_expect(info->memory_flags & DL, "%s", name);
    cr_expect_eq(eng_image_is_lazy(img), (info->memory_flags & LAZY) != 0);
    if (info->memory_flags & LAZY)
        cr_expect_leq(info->committed, info->memory_size, "%s", name);
    else
        cr_expect_eq(info->committed, info->memory_size, "%s: committed = size for ordinary memory", name);

    expectation e = expect_for(format, samples, usage);
    cr_expect_eq(info->memory_type, e.type, "%s: memory type %u, want %u", name, info->memory_type, e.type);
    cr_expect_eq(eng_image_is_lazy(img), e.lazy, "%s: lazy %d, want %d (offered: %d)", name, eng_image_is_lazy(img),
                 e.lazy, e.lazy_offered);
    if (is_lavapipe())
        cr_expect(info->memory_type == 0 && !(info->memory_flags & LAZY), "lavapipe has one type, no LAZY");
}

/* check_image on an image that must not be lazy, then destroyed. */
static void check_never_lazy(eng_image *img, const char *name, VkFormat format, VkSampleCountFlagBits samples,
                             VkImageUsageFlags usage)
{
    check_image(img, name, format, samples, usage);
    cr_expect_not(eng_image_is_lazy(img), "%s", name);
    eng_image_destroy(img);
}

static void check_transient(VkFormat format, const char *name)
{
    eng_attachment_desc ad = {
        .name = name, .format = format, .width = 64, .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT,
    };
    eng_image *img = NULL;
    eng_result r = eng_attachment_create(test_ctx, &ad, &img);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    VkImageUsageFlags attach = rg_format_has_depth(format) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                            : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    check_image(img, name, format, VK_SAMPLE_COUNT_4_BIT, attach | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
    eng_image_destroy(img);
}

DEVICE_TEST(attachments, transient_color_4x)
{
    check_transient(VK_FORMAT_R8G8B8A8_UNORM, "msaa color rgba");
    check_transient(VK_FORMAT_B8G8R8A8_UNORM, "msaa color bgra");
}

DEVICE_TEST(attachments, transient_depth_4x)
{
    check_transient(VK_FORMAT_D32_SFLOAT, "msaa depth");
}

DEVICE_TEST(attachments, transient_single_sample)
{
    eng_attachment_desc ad = { .name = "depth 1x", .format = VK_FORMAT_D32_SFLOAT, .width = 64, .height = 64 };
    eng_image *img = NULL;
    cr_assert_eq(eng_attachment_create(test_ctx, &ad, &img), ENG_SUCCESS, "%s", eng_last_error());
    check_image(img, "depth 1x", VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
    eng_image_destroy(img);
}

DEVICE_TEST(attachments, persistent_never_lazy)
{
    eng_attachment_desc ad = {
        .name = "persistent color", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64,
        .samples = VK_SAMPLE_COUNT_4_BIT, .persistent = true,
    };
    eng_image *img = NULL;
    cr_assert_eq(eng_attachment_create(test_ctx, &ad, &img), ENG_SUCCESS, "%s", eng_last_error());
    check_never_lazy(img, "persistent color", VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_4_BIT,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);

    eng_attachment_desc sd = {
        .name = "shadow map", .format = VK_FORMAT_D32_SFLOAT, .width = 64, .height = 64, .persistent = true,
        .extra_usage = VK_IMAGE_USAGE_SAMPLED_BIT,
    };
    cr_assert_eq(eng_attachment_create(test_ctx, &sd, &img), ENG_SUCCESS, "%s", eng_last_error());
    check_never_lazy(img, "shadow map", VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT,
                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
}

DEVICE_TEST(attachments, sampled_image_never_lazy)
{
    eng_image_desc d = {
        .name = "texture", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
    eng_image *img = NULL;
    cr_assert_eq(eng_image_create(test_ctx, &d, &img), ENG_SUCCESS, "%s", eng_last_error());
    check_never_lazy(img, "texture", VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                     VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
}

DEVICE_TEST(attachments, image_defaults_and_mips)
{
    eng_image_desc d = {
        .name = "mipped", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 32, .mip_levels = 4,
        .array_layers = 2, .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
    };
    eng_image *img = NULL;
    cr_assert_eq(eng_image_create(test_ctx, &d, &img), ENG_SUCCESS, "%s", eng_last_error());
    const eng_image_info *info = eng_image_get_info(img);
    cr_expect_eq(info->mip_levels, 4);
    cr_expect_eq(info->array_layers, 2);
    cr_expect_eq(info->samples, VK_SAMPLE_COUNT_1_BIT, "0 samples = 1");
    cr_expect_eq(info->extent.width, 64);
    cr_expect_eq(info->extent.height, 32);
    cr_expect_gt(info->memory_size, 64 * 32 * 4, "room for the mips and layers");
    eng_image_destroy(img);
    /* An unnamed image still has a name for messages. */
    d.name = NULL;
    d.mip_levels = 0;
    d.array_layers = 0;
    cr_assert_eq(eng_image_create(test_ctx, &d, &img), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_neq(eng_image_get_info(img)->name[0], '\0');
    cr_expect_eq(eng_image_get_info(img)->mip_levels, 1, "0 mips = 1");
    cr_expect_eq(eng_image_get_info(img)->array_layers, 1, "0 layers = 1");
    eng_image_destroy(img);
}
