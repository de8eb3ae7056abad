/* VK_LAYER_VKGRAPH_tile_memory's shared state: per-instance and per-device
 * data with the next layer's functions, and the entry points each part of
 * the layer provides (layer.c: loader interface, instance, device and
 * messengers; memory.c: the lazy type, allocations, budget and faults;
 * rules.c and templates.c: the memoryless rules; lost.c: device and
 * surface loss). */
#ifndef TILE_LAYER_H
#define TILE_LAYER_H

#include "map.h"

#include <pthread.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define LAYER_NAME "VK_LAYER_VKGRAPH_tile_memory"
#define RULE_ID "VKGRAPH-tile-memoryless"

typedef struct messenger {
    VkDebugUtilsMessengerEXT handle;
    VkDebugUtilsMessengerCreateInfoEXT info;
    struct messenger *next;
} messenger;

typedef struct instance_data {
    void *key;
    VkInstance instance;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkDestroyInstance destroy_instance;
    PFN_vkGetPhysicalDeviceMemoryProperties get_memory_properties;
    PFN_vkGetPhysicalDeviceMemoryProperties2 get_memory_properties2;
    PFN_vkGetPhysicalDeviceProperties get_properties;
    PFN_vkEnumerateDeviceExtensionProperties enumerate_device_extensions;
    PFN_vkCreateDevice create_device;
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    pthread_mutex_t lock; /* guards messengers */
    messenger *messengers;
    struct instance_data *next;
} instance_data;

typedef struct device_data {
    void *key;
    VkDevice device;
    VkPhysicalDevice physical;
    instance_data *instance;
    uint32_t lazy_index; /* the added type: the real type count */
    uint32_t real_index; /* the real type that backs it; UINT32_MAX: none added */
    uint32_t lazy_heap;
    VkPhysicalDeviceMemoryProperties real_props;
    /* VK_EXT_memory_budget enabled by the application but not offered by
     * the driver: the layer answers budget queries from its own tracking. */
    bool emulated_budget;
    /* Fault injection (VKGRAPH_TILE_FAIL_BYTES): live bytes of real
     * (non-lazy) memory above which an allocation fails; 0 = no limit. */
    VkDeviceSize fail_bytes;
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkCreateImage create_image;
    PFN_vkDestroyImage destroy_image;
    PFN_vkCreateImageView create_view;
    PFN_vkDestroyImageView destroy_view;
    PFN_vkGetImageMemoryRequirements image_reqs;
    PFN_vkGetImageMemoryRequirements2 image_reqs2;
    PFN_vkGetDeviceImageMemoryRequirements device_image_reqs;
    PFN_vkAllocateMemory allocate;
    PFN_vkFreeMemory free_memory;
    PFN_vkGetDeviceMemoryCommitment commitment;
    PFN_vkBindImageMemory bind_image;
    PFN_vkBindImageMemory2 bind_image2;
    PFN_vkCmdBeginRendering begin_rendering;
    PFN_vkCmdCopyImage copy_image;
    PFN_vkCmdCopyImage2 copy_image2;
    PFN_vkCmdCopyImageToBuffer copy_image_to_buffer;
    PFN_vkCmdCopyImageToBuffer2 copy_image_to_buffer2;
    PFN_vkCmdCopyBufferToImage copy_buffer_to_image;
    PFN_vkCmdCopyBufferToImage2 copy_buffer_to_image2;
    PFN_vkCmdBlitImage blit_image;
    PFN_vkCmdBlitImage2 blit_image2;
    PFN_vkCmdClearColorImage clear_color;
    PFN_vkCmdClearDepthStencilImage clear_depth;
    PFN_vkUpdateDescriptorSets update_descriptor_sets;
    PFN_vkCmdPushDescriptorSetKHR push_descriptor_set;
    PFN_vkCreateDescriptorUpdateTemplate create_template;
    PFN_vkDestroyDescriptorUpdateTemplate destroy_template;
    PFN_vkUpdateDescriptorSetWithTemplate update_with_template;
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_with_template;
    PFN_vkQueueSubmit queue_submit;
    PFN_vkQueueSubmit2 queue_submit2;
    PFN_vkAcquireNextImageKHR acquire_next_image;
    PFN_vkQueuePresentKHR queue_present;
    pthread_mutex_t lock; /* guards the maps and the counters below */
    tile_map images;      /* VkImage -> usage | IMAGE_LAZY when bound to lazy memory */
    tile_map views;       /* VkImageView -> VkImage */
    tile_map memory;      /* VkDeviceMemory -> memory_value() */
    tile_map templates;   /* VkDescriptorUpdateTemplate -> its image entries (templates.c) */
    VkDeviceSize heap_used[VK_MAX_MEMORY_HEAPS]; /* live real (non-lazy) bytes */
    VkDeviceSize lazy_used[VK_MAX_MEMORY_HEAPS]; /* live lazy bytes */
    struct device_data *next;
} device_data;

#define IMAGE_LAZY (1ull << 63)

/* layer.c */
instance_data *tile_find_instance(void *key);
device_data *tile_find_device(void *key);
/* Dispatchable handles start with the loader's dispatch table pointer;
 * physical devices and command buffers share it with their instance and
 * device, so it keys the per-instance and per-device data. */
static inline void *tile_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}
/* Sends an error to every messenger that listens for validation errors. */
void tile_report_error(instance_data *inst, const char *text);
/* Calls fn for every device made from physical (under the global lock). */
void tile_for_each_device(VkPhysicalDevice physical, void (*fn)(device_data *d, void *user), void *user);

/* memory.c */
void tile_memory_device_created(device_data *d, const VkPhysicalDeviceMemoryProperties *real);
void tile_add_lazy_type(VkPhysicalDeviceMemoryProperties *p);
void tile_fill_budget(instance_data *inst, VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties2 *p);
bool tile_image_is_lazy(device_data *d, uint64_t image);
/* Fault injection settings, read at each vkCreateDevice. */
void tile_faults_reset(device_data *d);

VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImage(VkDevice, const VkImageCreateInfo *, const VkAllocationCallbacks *,
                                                VkImage *);
VKAPI_ATTR void VKAPI_CALL tile_DestroyImage(VkDevice, VkImage, const VkAllocationCallbacks *);
VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImageView(VkDevice, const VkImageViewCreateInfo *,
                                                    const VkAllocationCallbacks *, VkImageView *);
VKAPI_ATTR void VKAPI_CALL tile_DestroyImageView(VkDevice, VkImageView, const VkAllocationCallbacks *);
VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements(VkDevice, VkImage, VkMemoryRequirements *);
VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2 *,
                                                           VkMemoryRequirements2 *);
VKAPI_ATTR void VKAPI_CALL tile_GetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements *,
                                                                VkMemoryRequirements2 *);
VKAPI_ATTR VkResult VKAPI_CALL tile_AllocateMemory(VkDevice, const VkMemoryAllocateInfo *,
                                                   const VkAllocationCallbacks *, VkDeviceMemory *);
VKAPI_ATTR void VKAPI_CALL tile_FreeMemory(VkDevice, VkDeviceMemory, const VkAllocationCallbacks *);
VKAPI_ATTR void VKAPI_CALL tile_GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory, VkDeviceSize *);
VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory(VkDevice, VkImage, VkDeviceMemory, VkDeviceSize);
VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory2(VkDevice, uint32_t, const VkBindImageMemoryInfo *);

/* lost.c: device and surface loss injection, read at each vkCreateDevice */
void tile_lost_reset(void);
VKAPI_ATTR VkResult VKAPI_CALL tile_QueueSubmit(VkQueue, uint32_t, const VkSubmitInfo *, VkFence);
VKAPI_ATTR VkResult VKAPI_CALL tile_QueueSubmit2(VkQueue, uint32_t, const VkSubmitInfo2 *, VkFence);
VKAPI_ATTR VkResult VKAPI_CALL tile_AcquireNextImageKHR(VkDevice, VkSwapchainKHR, uint64_t, VkSemaphore, VkFence,
                                                        uint32_t *);
VKAPI_ATTR VkResult VKAPI_CALL tile_QueuePresentKHR(VkQueue, const VkPresentInfoKHR *);

/* templates.c */
void tile_templates_clear(device_data *d);
VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDescriptorUpdateTemplate(VkDevice,
                                                                   const VkDescriptorUpdateTemplateCreateInfo *,
                                                                   const VkAllocationCallbacks *,
                                                                   VkDescriptorUpdateTemplate *);
VKAPI_ATTR void VKAPI_CALL tile_DestroyDescriptorUpdateTemplate(VkDevice, VkDescriptorUpdateTemplate,
                                                                const VkAllocationCallbacks *);
VKAPI_ATTR void VKAPI_CALL tile_UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet, VkDescriptorUpdateTemplate,
                                                                const void *);
VKAPI_ATTR void VKAPI_CALL tile_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer, VkDescriptorUpdateTemplate,
                                                                    VkPipelineLayout, uint32_t, const void *);

/* rules.c */
bool tile_descriptor_needs_memory(VkDescriptorType type);
/* Reports a lazy image behind view used through a descriptor of `type`. */
void tile_check_descriptor(device_data *d, const char *command, uint32_t index, uint32_t binding, uint32_t element,
                           VkDescriptorType type, VkImageView view);
VKAPI_ATTR void VKAPI_CALL tile_CmdBeginRendering(VkCommandBuffer, const VkRenderingInfo *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage(VkCommandBuffer, VkImage, VkImageLayout, VkImage, VkImageLayout,
                                             uint32_t, const VkImageCopy *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage2(VkCommandBuffer, const VkCopyImageInfo2 *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer(VkCommandBuffer, VkImage, VkImageLayout, VkBuffer, uint32_t,
                                                     const VkBufferImageCopy *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer2(VkCommandBuffer, const VkCopyImageToBufferInfo2 *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage(VkCommandBuffer, VkBuffer, VkImage, VkImageLayout, uint32_t,
                                                     const VkBufferImageCopy *);
VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage2(VkCommandBuffer, const VkCopyBufferToImageInfo2 *);
VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage(VkCommandBuffer, VkImage, VkImageLayout, VkImage, VkImageLayout,
                                             uint32_t, const VkImageBlit *, VkFilter);
VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage2(VkCommandBuffer, const VkBlitImageInfo2 *);
VKAPI_ATTR void VKAPI_CALL tile_CmdClearColorImage(VkCommandBuffer, VkImage, VkImageLayout,
                                                   const VkClearColorValue *, uint32_t,
                                                   const VkImageSubresourceRange *);
VKAPI_ATTR void VKAPI_CALL tile_CmdClearDepthStencilImage(VkCommandBuffer, VkImage, VkImageLayout,
                                                          const VkClearDepthStencilValue *, uint32_t,
                                                          const VkImageSubresourceRange *);
VKAPI_ATTR void VKAPI_CALL tile_UpdateDescriptorSets(VkDevice, uint32_t, const VkWriteDescriptorSet *, uint32_t,
                                                     const VkCopyDescriptorSet *);
VKAPI_ATTR void VKAPI_CALL tile_CmdPushDescriptorSetKHR(VkCommandBuffer, VkPipelineBindPoint, VkPipelineLayout,
                                                        uint32_t, uint32_t, const VkWriteDescriptorSet *);

#endif
