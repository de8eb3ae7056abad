/* Descriptor sets made by hand (test_descriptors.h). */
#include "test_descriptors.h"

#include <criterion/criterion.h>
#include <pthread.h>

/* Record callbacks allocate sets, and a frame recorded in chunks
 * (VKG_TEST_CHUNKS=N:threads) runs them on several threads at once: a
 * descriptor pool must be externally synchronized, so allocations take
 * this lock (an application would keep a pool per thread). */
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;

VkDescriptorSetLayout test_set_layout(VkDevice dev, VkDescriptorType type, uint32_t count, VkShaderStageFlags stages)
{
    VkDescriptorSetLayoutBinding b[4];
    cr_assert_leq(count, 4);
    for (uint32_t i = 0; i < count; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ i, type, 1, stages, NULL };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = count, .pBindings = b };
    VkDescriptorSetLayout layout;
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &ci, NULL, &layout), VK_SUCCESS);
    return layout;
}

VkDescriptorPool test_descriptor_pool(VkDevice dev, VkDescriptorType type, uint32_t descriptors, uint32_t sets)
{
    VkDescriptorPoolSize size = { type, descriptors };
    VkDescriptorPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = sets,
                                      .poolSizeCount = 1, .pPoolSizes = &size };
    VkDescriptorPool pool;
    cr_assert_eq(vkCreateDescriptorPool(dev, &ci, NULL, &pool), VK_SUCCESS);
    return pool;
}

VkDescriptorSet test_alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout)
{
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    VkDescriptorSet set;
    pthread_mutex_lock(&alloc_lock);
    VkResult vr = vkAllocateDescriptorSets(dev, &ai, &set);
    pthread_mutex_unlock(&alloc_lock);
    cr_assert_eq(vr, VK_SUCCESS);
    return set;
}

void test_write_image(VkDevice dev, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view,
                      VkImageLayout layout)
{
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, layout };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
                               .descriptorCount = 1, .descriptorType = type, .pImageInfo = &ii };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
}

void test_write_storage(VkDevice dev, VkDescriptorSet set, uint32_t binding, VkBuffer buffer)
{
    VkDescriptorBufferInfo bi = { buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
                               .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               .pBufferInfo = &bi };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
}

void test_bind_with_set(VkCommandBuffer cmd, VkPipelineBindPoint point, VkPipeline pipeline, VkPipelineLayout layout,
                        VkDescriptorSet set)
{
    vkCmdBindPipeline(cmd, point, pipeline);
    vkCmdBindDescriptorSets(cmd, point, layout, 0, 1, &set, 0, NULL);
}
