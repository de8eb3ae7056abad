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

/* VK_KHR_dynamic_rendering_local_read where the Vulkan headers predate it
 * (Debian 12's 1.3.239): its types as vulkan_core.h 1.4.309 defines them,
 * its enum values as constants of their enum types. The layer uses the KHR
 * names only, which every header that has the extension defines. */
#ifndef VK_KHR_dynamic_rendering_local_read
#define VK_KHR_dynamic_rendering_local_read 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_SPEC_VERSION 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME "VK_KHR_dynamic_rendering_local_read"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES ((VkStructureType)1000232000)
#define VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO ((VkStructureType)1000232001)
#define VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO ((VkStructureType)1000232002)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR \
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES
#define VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO
#define VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR \
    VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO
#define VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ ((VkImageLayout)1000232000)
#define VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ

typedef struct VkPhysicalDeviceDynamicRenderingLocalReadFeatures {
    VkStructureType sType;
    void *pNext;
    VkBool32 dynamicRenderingLocalRead;
} VkPhysicalDeviceDynamicRenderingLocalReadFeatures;

typedef struct VkRenderingAttachmentLocationInfo {
    VkStructureType sType;
    const void *pNext;
    uint32_t colorAttachmentCount;
    const uint32_t *pColorAttachmentLocations;
} VkRenderingAttachmentLocationInfo;

typedef struct VkRenderingInputAttachmentIndexInfo {
    VkStructureType sType;
    const void *pNext;
    uint32_t colorAttachmentCount;
    const uint32_t *pColorAttachmentInputIndices;
    const uint32_t *pDepthInputAttachmentIndex;
    const uint32_t *pStencilInputAttachmentIndex;
} VkRenderingInputAttachmentIndexInfo;

typedef VkPhysicalDeviceDynamicRenderingLocalReadFeatures VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR;
typedef VkRenderingAttachmentLocationInfo VkRenderingAttachmentLocationInfoKHR;
typedef VkRenderingInputAttachmentIndexInfo VkRenderingInputAttachmentIndexInfoKHR;
typedef void(VKAPI_PTR *PFN_vkCmdSetRenderingAttachmentLocationsKHR)(
    VkCommandBuffer commandBuffer, const VkRenderingAttachmentLocationInfo *pLocationInfo);
typedef void(VKAPI_PTR *PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)(
    VkCommandBuffer commandBuffer, const VkRenderingInputAttachmentIndexInfo *pInputAttachmentIndexInfo);
#endif

#define LAYER_NAME "VK_LAYER_VKGRAPH_tile_memory"
#define RULE_ID "VKGRAPH-tile-memoryless"

typedef struct messenger {
    VkDebugUtilsMessengerEXT handle;
    VkDebugUtilsMessengerCreateInfoEXT info;
    struct messenger *next;
} messenger;

/* What an instance's and a device's data start with: the dispatch key
 * (tile_key) and the next in the layer's list of them (layer.c). */
typedef struct tile_node {
    void *key;
    struct tile_node *next;
} tile_node;

typedef struct instance_data {
    tile_node node;
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
} instance_data;

typedef struct device_data {
    tile_node node;
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
    /* VKGRAPH_TILE_FAIL_LAZY: the lazy allocation of this number and every
     * later one fail (0: none), as memoryless memory runs out; the count so far. */
    unsigned long fail_lazy_from, lazy_allocs;
    /* VKGRAPH_TILE_MOLTENVK=1: the local-read rule (rules.c) is checked and
     * the commands it follows are intercepted; otherwise they pass by. */
    bool moltenvk;
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
    /* MoltenVK mode only (rules.c): the commands the local-read rule
     * follows. Where a core name and its KHR alias both exist, the core
     * function, else the KHR one (a device below the version that made it
     * core), as for the ones above. */
    PFN_vkSetDebugUtilsObjectNameEXT set_object_name;
    PFN_vkBeginCommandBuffer begin_command_buffer;
    PFN_vkCmdEndRendering end_rendering;
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
    PFN_vkCmdPipelineBarrier pipeline_barrier;
    PFN_vkCmdPipelineBarrier2 pipeline_barrier2;
    PFN_vkCmdDraw draw;
    PFN_vkCmdDrawIndexed draw_indexed;
    PFN_vkCmdDrawIndirect draw_indirect;
    PFN_vkCmdDrawIndexedIndirect draw_indexed_indirect;
    PFN_vkCmdDrawIndirectCount draw_indirect_count;
    PFN_vkCmdDrawIndexedIndirectCount draw_indexed_indirect_count;
    PFN_vkCmdExecuteCommands execute_commands;
    pthread_mutex_t lock; /* guards the maps and the counters below */
    tile_map images;      /* VkImage -> usage | samples << IMAGE_SAMPLES_SHIFT | IMAGE_LAZY when lazy */
    tile_map views;       /* VkImageView -> VkImage */
    tile_map view_formats; /* VkImageView -> its VkFormat (profile.c) */
    tile_map memory;      /* VkDeviceMemory -> memory_value() */
    tile_map templates;   /* VkDescriptorUpdateTemplate -> its image entries (templates.c) */
    tile_map names;       /* MoltenVK mode: VkImage -> its debug-utils name (malloc'd) */
    tile_map passes;      /* MoltenVK mode: VkCommandBuffer -> its rendering instance's state (rules.c) */
    VkDeviceSize heap_used[VK_MAX_MEMORY_HEAPS]; /* live real (non-lazy) bytes */
    VkDeviceSize lazy_used[VK_MAX_MEMORY_HEAPS]; /* live lazy bytes */
    /* profile.c: VKGRAPH_TILE_PROFILE's row (-1: none), where
     * VKGRAPH_TILE_REPORT writes, and what the passes moved so far. */
    int profile;
    char report_path[512];
    struct {
        uint64_t passes, loads, stores, resolves, lazy_attachments, lazy_peak;
    } traffic;
    /* profile.c: a line per rendering instance per profile, for the report. */
    char *lines;
    size_t lines_len, lines_cap;
} device_data;

#define IMAGE_LAZY (1ull << 63)
#define IMAGE_SAMPLES_SHIFT 40

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
/* Sends an error to every messenger that listens for validation errors;
 * tile_report any message of id at severity. */
void tile_report_error(instance_data *inst, const char *text);
void tile_report(instance_data *inst, const char *id, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 const char *text);

/* profile.c: the tile profile read at vkCreateDevice, checked and counted
 * at every vkCmdBeginRendering, its totals written at vkDestroyDevice. */
void tile_profile_reset(device_data *d);
void tile_profile_begin(device_data *d, const VkRenderingInfo *info);
void tile_profile_finish(device_data *d);
/* Calls fn for every device made from physical (under the global lock). */
void tile_for_each_device(VkPhysicalDevice physical, void (*fn)(device_data *d, void *user), void *user);
/* Adds a made device to the list; takes one out by its key (NULL: none). */
void tile_device_add(device_data *d);
device_data *tile_device_take(void *key);

/* device.c */
VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDevice(VkPhysicalDevice, const VkDeviceCreateInfo *,
                                                 const VkAllocationCallbacks *, VkDevice *);
VKAPI_ATTR void VKAPI_CALL tile_DestroyDevice(VkDevice, const VkAllocationCallbacks *);
VKAPI_ATTR VkResult VKAPI_CALL tile_EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char *, uint32_t *,
                                                                     VkExtensionProperties *);

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

/* rules.c, MoltenVK mode: the local-read rule. tile_moltenvk_reset reads
 * VKGRAPH_TILE_MOLTENVK at each vkCreateDevice; tile_moltenvk_clear frees
 * what the mode kept (image names, rendering instances being recorded);
 * tile_forget_name drops a destroyed image's name. */
void tile_moltenvk_reset(device_data *d);
void tile_moltenvk_clear(device_data *d);
void tile_forget_name(device_data *d, VkImage image);
VKAPI_ATTR VkResult VKAPI_CALL tile_SetDebugUtilsObjectNameEXT(VkDevice, const VkDebugUtilsObjectNameInfoEXT *);
VKAPI_ATTR VkResult VKAPI_CALL tile_BeginCommandBuffer(VkCommandBuffer, const VkCommandBufferBeginInfo *);
VKAPI_ATTR void VKAPI_CALL tile_CmdEndRendering(VkCommandBuffer);
VKAPI_ATTR void VKAPI_CALL tile_CmdSetRenderingAttachmentLocationsKHR(VkCommandBuffer,
                                                                      const VkRenderingAttachmentLocationInfoKHR *);
VKAPI_ATTR void VKAPI_CALL
tile_CmdSetRenderingInputAttachmentIndicesKHR(VkCommandBuffer, const VkRenderingInputAttachmentIndexInfoKHR *);
VKAPI_ATTR void VKAPI_CALL tile_CmdPipelineBarrier(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags,
                                                   VkDependencyFlags, uint32_t, const VkMemoryBarrier *, uint32_t,
                                                   const VkBufferMemoryBarrier *, uint32_t,
                                                   const VkImageMemoryBarrier *);
VKAPI_ATTR void VKAPI_CALL tile_CmdPipelineBarrier2(VkCommandBuffer, const VkDependencyInfo *);
VKAPI_ATTR void VKAPI_CALL tile_CmdDraw(VkCommandBuffer, uint32_t, uint32_t, uint32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexed(VkCommandBuffer, uint32_t, uint32_t, uint32_t, int32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndirect(VkCommandBuffer, VkBuffer, VkDeviceSize, uint32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexedIndirect(VkCommandBuffer, VkBuffer, VkDeviceSize, uint32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndirectCount(VkCommandBuffer, VkBuffer, VkDeviceSize, VkBuffer, VkDeviceSize,
                                                     uint32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdDrawIndexedIndirectCount(VkCommandBuffer, VkBuffer, VkDeviceSize, VkBuffer,
                                                            VkDeviceSize, uint32_t, uint32_t);
VKAPI_ATTR void VKAPI_CALL tile_CmdExecuteCommands(VkCommandBuffer, uint32_t, const VkCommandBuffer *);

#endif
