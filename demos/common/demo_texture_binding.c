#include "demo_texture_binding.h"
#include "demo_sampler.h"

void demo_texture_binding_create(demo_app *app, const eng_image *texture, demo_texture_binding *b)
{
    VkDevice dev = eng_context_device(app->ctx);
    b->device = dev;
    /* Linear filtering and repeat: the texture has one mip level, so the
     * demos keep it large on screen, where magnification looks smooth. */
    VkSamplerCreateInfo sci = demo_sampler_info(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0.0f);
    DEMO_VK_CHECK(app, vkCreateSampler(dev, &sci, NULL, &b->sampler));
    VkDescriptorSetLayoutBinding lb = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    VkDescriptorSetLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &lb,
    };
    DEMO_VK_CHECK(app, vkCreateDescriptorSetLayout(dev, &lci, NULL, &b->layout));
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1 };
    VkDescriptorPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    DEMO_VK_CHECK(app, vkCreateDescriptorPool(dev, &pci, NULL, &b->pool));
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = b->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &b->layout,
    };
    DEMO_VK_CHECK(app, vkAllocateDescriptorSets(dev, &ai, &b->set));
    VkDescriptorImageInfo ii = {
        .sampler = b->sampler,
        .imageView = eng_image_get_info(texture)->view,
        .imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
    };
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = b->set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = &ii,
    };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
}

void demo_texture_binding_destroy(demo_texture_binding *b)
{
    if (b->device) {
        /* The pool frees its set. */
        vkDestroyDescriptorPool(b->device, b->pool, NULL);
        vkDestroyDescriptorSetLayout(b->device, b->layout, NULL);
        vkDestroySampler(b->device, b->sampler, NULL);
    }
    *b = (demo_texture_binding){ 0 };
}

void demo_texture_binding_bind(VkCommandBuffer cmd, const demo_texture_binding *b, VkPipelineLayout layout)
{
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &b->set, 0, NULL);
}
