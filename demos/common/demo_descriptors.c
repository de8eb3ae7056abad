/* Per-frame descriptor pools (demo_descriptors.h). */
#include "demo_descriptors.h"
#include "demo_sampler.h"

void demo_descriptors_create(demo_app *app, uint32_t sets_per_frame, demo_descriptors *d)
{
    *d = (demo_descriptors){ .lock = DEMO_LOCK_INIT };
    d->device = eng_context_device(app->ctx); /* from here destroy has something to do */
    VkSamplerCreateInfo si =
        demo_sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_LOD_CLAMP_NONE);
    DEMO_VK_CHECK(app, vkCreateSampler(d->device, &si, NULL, &d->sampler));
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sets_per_frame * 8 };
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = sets_per_frame,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    for (uint32_t i = 0; i < DEMO_DESCRIPTOR_SLOTS; i++)
        DEMO_VK_CHECK(app, vkCreateDescriptorPool(d->device, &pi, NULL, &d->pools[i]));
}

void demo_descriptors_destroy(demo_descriptors *d)
{
    if (!d->device)
        return;
    for (uint32_t i = 0; i < DEMO_DESCRIPTOR_SLOTS; i++)
        vkDestroyDescriptorPool(d->device, d->pools[i], NULL);
    vkDestroySampler(d->device, d->sampler, NULL);
    *d = (demo_descriptors){ 0 };
}

void demo_descriptors_begin_frame(demo_app *app, demo_descriptors *d, uint32_t slot)
{
    if (slot >= DEMO_DESCRIPTOR_SLOTS)
        demo_app_fail(app, "frame slot %u: more frames in flight than DEMO_DESCRIPTOR_SLOTS", slot);
    d->current = d->pools[slot];
    DEMO_VK_CHECK(app, vkResetDescriptorPool(d->device, d->current, 0));
}

VkDescriptorSetLayout demo_descriptors_layout(demo_app *app, uint32_t count)
{
    VkDescriptorSetLayoutBinding b[8];
    if (count > 8)
        demo_app_fail(app, "demo_descriptors_layout: %u textures, at most 8", count);
    for (uint32_t i = 0; i < count; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                               VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = count,
        .pBindings = b,
    };
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    DEMO_VK_CHECK(app, vkCreateDescriptorSetLayout(eng_context_device(app->ctx), &li, NULL, &layout));
    return layout;
}

VkDescriptorSet demo_descriptors_textures(demo_descriptors *d, VkDescriptorSetLayout layout,
                                          const VkImageView *views, uint32_t count)
{
    if (!d->current || count > 8)
        return VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = d->current,
        .descriptorSetCount = 1,
        .pSetLayouts = &layout,
    };
    VkDescriptorSet set = VK_NULL_HANDLE;
    /* The pool is the frame's, shared by every callback; the set written
     * below is this caller's alone. */
    demo_lock_take(&d->lock);
    VkResult vr = vkAllocateDescriptorSets(d->device, &ai, &set);
    demo_lock_give(&d->lock);
    if (vr != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkDescriptorImageInfo info[8];
    VkWriteDescriptorSet w[8];
    for (uint32_t i = 0; i < count; i++) {
        info[i] = (VkDescriptorImageInfo){ d->sampler, views[i], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &info[i],
        };
    }
    vkUpdateDescriptorSets(d->device, count, w, 0, NULL);
    return set;
}
