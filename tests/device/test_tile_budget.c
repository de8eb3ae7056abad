/* VK_EXT_memory_budget under the tile-memory layer: lazy (memoryless)
 * attachments are left out of heap usage, real allocations are in it. On a
 * driver without the extension (lavapipe) the layer provides it from its own
 * tracking; on one with it (NVIDIA) the layer subtracts the lazy
 * allocations; either way the engine names the layer the figures come from. Also the
 * descriptor rule: a lazy image bound to a sampled descriptor is reported. */
#include "device_fixture.h"
#include "test_image_info.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

TestSuite(tile_budget, .init = device_setup, .fini = device_teardown);

#define LAZY VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT

static uint32_t lazy_heap(const eng_context *ctx)
{
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(ctx);
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
        if (mp->memoryTypes[i].propertyFlags & LAZY)
            return mp->memoryTypes[i].heapIndex;
    cr_assert_fail("no lazy memory type: is %s loaded (VKG_TEST_LAYER)?", TILE_LAYER);
    return 0;
}

static VkDeviceSize heap_usage(const eng_context *ctx, uint32_t heap)
{
    eng_memory_budget b;
    cr_assert_eq(eng_memory_budget_query(ctx, &b), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(b.available, "VK_EXT_memory_budget: the layer offers it where the driver does not");
    cr_assert_lt(heap, b.heap_count);
    cr_expect_leq(b.usage[heap], b.budget[heap] ? b.budget[heap] : b.usage[heap]);
    return b.usage[heap];
}

DEVICE_TEST(tile_budget, lazy_attachments_are_left_out_of_heap_usage)
{
    eng_context *ctx = test_ctx;
    cr_assert(eng_context_has_memory_budget(ctx));
    /* The layer answers (its own tracking on lavapipe; the driver's figures
     * less the lazy allocations on NVIDIA), so the figures are exact. */
    cr_expect_str_eq(eng_context_memory_budget_layer(ctx) ? eng_context_memory_budget_layer(ctx) : "(none)",
                     TILE_LAYER);
    uint32_t heap = lazy_heap(ctx);
    VkDeviceSize before = heap_usage(ctx, heap);
    eng_image *lazy[4] = { 0 };
    VkDeviceSize lazy_bytes = 0;
    for (int i = 0; i < 4; i++) {
        eng_attachment_desc ad = { .name = "lazy", .format = i % 2 ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_R8G8B8A8_UNORM,
                                   .width = 512, .height = 512, .samples = VK_SAMPLE_COUNT_4_BIT };
        cr_assert_eq(eng_attachment_create(ctx, &ad, &lazy[i]), ENG_SUCCESS, "%s", eng_last_error());
        cr_assert(eng_image_is_lazy(lazy[i]));
        lazy_bytes += eng_image_get_info(lazy[i])->memory_size;
    }
    VkDeviceSize with_lazy = heap_usage(ctx, heap);
    cr_expect_eq(with_lazy, before, "lazy attachments (%llu bytes) counted in heap usage",
                 (unsigned long long)lazy_bytes);

    eng_attachment_desc pd = { .name = "persistent", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 512, .height = 512,
                               .samples = VK_SAMPLE_COUNT_4_BIT, .persistent = true };
    eng_image *kept = NULL;
    cr_assert_eq(eng_attachment_create(ctx, &pd, &kept), ENG_SUCCESS, "%s", eng_last_error());
    VkDeviceSize size = eng_image_get_info(kept)->memory_size;
    VkDeviceSize with_kept = heap_usage(ctx, heap);
    cr_expect_eq(with_kept - with_lazy, size, "a real allocation of %llu bytes", (unsigned long long)size);
    eng_image_destroy(kept);
    cr_expect_eq(heap_usage(ctx, heap), with_lazy, "freed memory leaves heap usage");
    for (int i = 0; i < 4; i++)
        eng_image_destroy(lazy[i]);
}

/* ------------------------------------------------------- descriptor rule */

typedef struct raw_image {
    VkDevice device;
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
} raw_image;

/* An image the engine would refuse to make (TRANSIENT with SAMPLED:
 * validation objects too), bound to the type given. */
static raw_image make_raw(eng_context *ctx, VkImageUsageFlags usage, VkMemoryPropertyFlags want)
{
    raw_image r = { .device = eng_context_device(ctx) };
    VkImageCreateInfo ci = test_image_info(VK_FORMAT_R8G8B8A8_UNORM, 32, 32, VK_SAMPLE_COUNT_1_BIT, usage);
    cr_assert_eq(vkCreateImage(r.device, &ci, NULL, &r.image), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(r.device, r.image, &req);
    uint32_t type = UINT32_MAX;
    cr_assert_eq(eng_choose_memory_type(eng_context_memory_properties(ctx), req.memoryTypeBits, want,
                                        (usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) != 0, &type),
                 ENG_SUCCESS, "%s", eng_last_error());
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = type };
    cr_assert_eq(vkAllocateMemory(r.device, &ai, NULL, &r.memory), VK_SUCCESS);
    cr_assert_eq(vkBindImageMemory(r.device, r.image, r.memory, 0), VK_SUCCESS);
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = r.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = ci.format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    cr_assert_eq(vkCreateImageView(r.device, &vi, NULL, &r.view), VK_SUCCESS);
    return r;
}

static void destroy_raw(raw_image *r)
{
    vkDestroyImageView(r->device, r->view, NULL);
    vkDestroyImage(r->device, r->image, NULL);
    vkFreeMemory(r->device, r->memory, NULL);
}

Test(tile_budget, lazy_image_in_a_sampled_descriptor_is_reported)
{
    eng_context *ctx = tile_context(true);
    tile_rule_counter *counter = tile_rule_counter_begin(ctx);
    VkDevice dev = eng_context_device(ctx);
    raw_image lazy = make_raw(ctx,
                              VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                  VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                              VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    raw_image kept = make_raw(ctx, VK_IMAGE_USAGE_SAMPLED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);

    VkDescriptorSetLayoutBinding b[3] = {
        { 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
    };
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 3, .pBindings = b };
    VkDescriptorSetLayout layout;
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &li, NULL, &layout), VK_SUCCESS);
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2 },
                                      { VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1 } };
    VkDescriptorPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                      .poolSizeCount = 2, .pPoolSizes = sizes };
    VkDescriptorPool pool;
    cr_assert_eq(vkCreateDescriptorPool(dev, &pi, NULL, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    VkDescriptorSet set;
    cr_assert_eq(vkAllocateDescriptorSets(dev, &ai, &set), VK_SUCCESS);
    VkDescriptorImageInfo lazy_read = { VK_NULL_HANDLE, lazy.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkDescriptorImageInfo lazy_tile = { VK_NULL_HANDLE, lazy.view, VK_IMAGE_LAYOUT_GENERAL };
    VkDescriptorImageInfo kept_read = { VK_NULL_HANDLE, kept.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkWriteDescriptorSet w[3] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &lazy_read },  /* reported */
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, .pImageInfo = &lazy_tile }, /* a tile read */
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, .pImageInfo = &kept_read },   /* not lazy */
    };
    vkUpdateDescriptorSets(dev, 3, w, 0, NULL);

    char first[1024];
    int reports = tile_rule_counter_end(counter, first, sizeof first);
    cr_expect_eq(reports, 1, "one sampled descriptor of a lazy image, %d reports; first: %s", reports, first);
    cr_expect_neq(strstr(first, "vkUpdateDescriptorSets"), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "binding 0"), NULL, "first: %s", first);

    /* The same three writes through an update template: the layer finds
     * the views in the raw data by the template's offsets and strides. */
    typedef struct image_infos {
        VkDescriptorImageInfo lazy_read, lazy_tile, kept_read;
    } image_infos;
    image_infos data = { lazy_read, lazy_tile, kept_read };
    VkDescriptorUpdateTemplateEntry entries[3] = {
        { 0, 0, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, offsetof(image_infos, lazy_read), 0 },
        { 1, 0, 1, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, offsetof(image_infos, lazy_tile), 0 },
        { 2, 0, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, offsetof(image_infos, kept_read), 0 },
    };
    VkDescriptorUpdateTemplateCreateInfo ti = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 3,
        .pDescriptorUpdateEntries = entries,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = layout,
    };
    VkDescriptorUpdateTemplate tmpl;
    cr_assert_eq(vkCreateDescriptorUpdateTemplate(dev, &ti, NULL, &tmpl), VK_SUCCESS);
    counter = tile_rule_counter_begin(ctx);
    vkUpdateDescriptorSetWithTemplate(dev, set, tmpl, &data);
    reports = tile_rule_counter_end(counter, first, sizeof first);
    cr_expect_eq(reports, 1, "one templated sampled descriptor of a lazy image, %d reports; first: %s", reports,
                 first);
    cr_expect_neq(strstr(first, "vkUpdateDescriptorSetWithTemplate"), NULL, "first: %s", first);
    vkDestroyDescriptorUpdateTemplate(dev, tmpl, NULL);
    vkDestroyDescriptorPool(dev, pool, NULL);
    vkDestroyDescriptorSetLayout(dev, layout, NULL);
    destroy_raw(&lazy);
    destroy_raw(&kept);
    eng_context_destroy(ctx);
}
