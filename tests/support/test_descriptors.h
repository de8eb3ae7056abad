/* Descriptor sets made by hand for the tests' own pipelines (a record
 * callback binds them): layouts of one descriptor type, pools, sets and
 * their writes, each asserted to succeed. */
#ifndef TEST_DESCRIPTORS_H
#define TEST_DESCRIPTORS_H

#include <stdint.h>
#include <vulkan/vulkan.h>

/* Bindings 0 to count - 1, one descriptor of type each, seen by stages. */
VkDescriptorSetLayout test_set_layout(VkDevice dev, VkDescriptorType type, uint32_t count, VkShaderStageFlags stages);
/* A pool of `descriptors` descriptors of type for up to `sets` sets. */
VkDescriptorPool test_descriptor_pool(VkDevice dev, VkDescriptorType type, uint32_t descriptors, uint32_t sets);
VkDescriptorSet test_alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout);
/* binding of set: view, in layout, as a descriptor of type. */
void test_write_image(VkDevice dev, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view,
                      VkImageLayout layout);
/* binding of set: the whole of buffer, as a storage buffer. */
void test_write_storage(VkDevice dev, VkDescriptorSet set, uint32_t binding, VkBuffer buffer);
/* pipeline bound at point, set bound as set 0 of layout. */
void test_bind_with_set(VkCommandBuffer cmd, VkPipelineBindPoint point, VkPipeline pipeline, VkPipelineLayout layout,
                        VkDescriptorSet set);

#endif
