/* The Vulkan functions the engine calls, loaded per context from the
 * application's vkGetInstanceProcAddr (eng_context_desc and
 * eng_existing_device .get_instance_proc_addr; the loader's by default):
 * the engine's code names no other vk* symbol, so a program whose own vk*
 * names are function-pointer variables (volk) links the static engine
 * without the two colliding (scripts/check_symbols.sh --engine). Not
 * installed. */
#ifndef ENGINE_VK_TABLE_H
#define ENGINE_VK_TABLE_H

#include <vulkan/vulkan.h>

/* Global functions: vkGetInstanceProcAddr(NULL, name). */
#define ENG__VK_GLOBAL_FUNCTIONS(X)                                                                               \
    X(CreateInstance)                                                                                             \
    X(EnumerateInstanceLayerProperties)                                                                           \
    X(EnumerateInstanceExtensionProperties)

/* Instance functions: vkGetInstanceProcAddr(instance, name). */
#define ENG__VK_INSTANCE_FUNCTIONS(X)                                                                             \
    X(DestroyInstance)                                                                                            \
    X(EnumeratePhysicalDevices)                                                                                   \
    X(EnumerateDeviceExtensionProperties)                                                                         \
    X(GetPhysicalDeviceProperties)                                                                                \
    X(GetPhysicalDeviceMemoryProperties)                                                                          \
    X(GetPhysicalDeviceMemoryProperties2)                                                                         \
    X(GetPhysicalDeviceFeatures)                                                                                  \
    X(GetPhysicalDeviceFeatures2)                                                                                 \
    X(GetPhysicalDeviceQueueFamilyProperties)                                                                     \
    X(GetPhysicalDeviceFormatProperties)                                                                          \
    X(GetPhysicalDeviceImageFormatProperties)                                                                     \
    X(CreateDevice)                                                                                               \
    X(GetDeviceProcAddr)

/* VK_KHR_surface (instance), where the context has a surface. */
#define ENG__VK_SURFACE_FUNCTIONS(X)                                                                              \
    X(DestroySurfaceKHR)                                                                                          \
    X(GetPhysicalDeviceSurfaceSupportKHR)                                                                         \
    X(GetPhysicalDeviceSurfaceCapabilitiesKHR)                                                                    \
    X(GetPhysicalDeviceSurfaceFormatsKHR)                                                                         \
    X(GetPhysicalDeviceSurfacePresentModesKHR)

/* VK_EXT_debug_utils (instance), where the instance has it enabled: the
 * messenger (a context that validates) and object names. */
#define ENG__VK_DEBUG_UTILS_FUNCTIONS(X)                                                                          \
    X(CreateDebugUtilsMessengerEXT)                                                                               \
    X(DestroyDebugUtilsMessengerEXT)                                                                              \
    X(SetDebugUtilsObjectNameEXT)

/* Device functions: vkGetDeviceProcAddr(device, name). */
#define ENG__VK_DEVICE_FUNCTIONS(X)                                                                               \
    X(DestroyDevice)                                                                                              \
    X(GetDeviceQueue)                                                                                             \
    X(DeviceWaitIdle)                                                                                             \
    X(AllocateMemory)                                                                                             \
    X(FreeMemory)                                                                                                 \
    X(MapMemory)                                                                                                  \
    X(FlushMappedMemoryRanges)                                                                                    \
    X(GetDeviceMemoryCommitment)                                                                                  \
    X(CreateBuffer)                                                                                               \
    X(DestroyBuffer)                                                                                              \
    X(GetBufferMemoryRequirements)                                                                                \
    X(BindBufferMemory)                                                                                           \
    X(CreateImage)                                                                                                \
    X(DestroyImage)                                                                                               \
    X(GetImageMemoryRequirements)                                                                                 \
    X(BindImageMemory)                                                                                            \
    X(CreateImageView)                                                                                            \
    X(DestroyImageView)                                                                                           \
    X(CreateSampler)                                                                                              \
    X(DestroySampler)                                                                                             \
    X(CreateShaderModule)                                                                                         \
    X(DestroyShaderModule)                                                                                        \
    X(CreatePipelineCache)                                                                                        \
    X(DestroyPipelineCache)                                                                                       \
    X(GetPipelineCacheData)                                                                                       \
    X(CreateDescriptorSetLayout)                                                                                  \
    X(DestroyDescriptorSetLayout)                                                                                 \
    X(CreatePipelineLayout)                                                                                       \
    X(DestroyPipelineLayout)                                                                                      \
    X(CreateGraphicsPipelines)                                                                                    \
    X(CreateComputePipelines)                                                                                     \
    X(DestroyPipeline)                                                                                            \
    X(CreateCommandPool)                                                                                          \
    X(DestroyCommandPool)                                                                                         \
    X(ResetCommandPool)                                                                                           \
    X(AllocateCommandBuffers)                                                                                     \
    X(FreeCommandBuffers)                                                                                         \
    X(BeginCommandBuffer)                                                                                         \
    X(EndCommandBuffer)                                                                                           \
    X(CreateFence)                                                                                                \
    X(DestroyFence)                                                                                               \
    X(ResetFences)                                                                                                \
    X(WaitForFences)                                                                                              \
    X(CreateSemaphore)                                                                                            \
    X(DestroySemaphore)                                                                                           \
    X(QueueSubmit2)                                                                                               \
    X(CmdPipelineBarrier2)                                                                                        \
    X(CmdCopyBuffer)                                                                                              \
    X(CmdCopyBufferToImage)                                                                                       \
    X(CmdCopyImageToBuffer)

/* VK_KHR_swapchain (device), where the context has a surface. */
#define ENG__VK_SWAPCHAIN_FUNCTIONS(X)                                                                            \
    X(CreateSwapchainKHR)                                                                                         \
    X(DestroySwapchainKHR)                                                                                        \
    X(GetSwapchainImagesKHR)                                                                                      \
    X(AcquireNextImageKHR)                                                                                        \
    X(QueuePresentKHR)

/* VK_KHR_push_descriptor (device), where enabled. */
#define ENG__VK_PUSH_DESCRIPTOR_FUNCTIONS(X) X(CmdPushDescriptorSetKHR)

/* A context's table: an extension's functions are NULL unless it is
 * enabled. allocator: the application's VkAllocationCallbacks (NULL: the
 * driver's), given to every vkCreate*, vkDestroy*, vkAllocateMemory and
 * vkFreeMemory the engine calls. */
typedef struct eng__vk {
    PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
#define ENG__VK_MEMBER(name) PFN_vk##name name;
    ENG__VK_GLOBAL_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_INSTANCE_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_SURFACE_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_DEBUG_UTILS_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_DEVICE_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_SWAPCHAIN_FUNCTIONS(ENG__VK_MEMBER)
    ENG__VK_PUSH_DESCRIPTOR_FUNCTIONS(ENG__VK_MEMBER)
#undef ENG__VK_MEMBER
    const VkAllocationCallbacks *allocator;
} eng__vk;

#endif
