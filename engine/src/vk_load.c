/* Loads a context's Vulkan function table (vk_table.h) in its three steps:
 * global functions before the instance exists, instance functions once it
 * does, device functions once the device does. Each returns the name of
 * the first function the loader does not give, or NULL when all are there. */
#include "vk_load.h"

#include <stddef.h>

const char *eng__vk_load_global(eng__vk *vk, PFN_vkGetInstanceProcAddr gipa)
{
    vk->GetInstanceProcAddr = gipa;
#define ENG__VK_LOAD(name)                                                                                        \
    if (!(vk->name = (PFN_vk##name)gipa(NULL, "vk" #name)))                                                       \
        return "vk" #name;
    ENG__VK_GLOBAL_FUNCTIONS(ENG__VK_LOAD)
#undef ENG__VK_LOAD
    return NULL;
}

const char *eng__vk_load_instance(eng__vk *vk, VkInstance instance, bool surface, bool debug_utils)
{
#define ENG__VK_LOAD(name)                                                                                        \
    if (!(vk->name = (PFN_vk##name)vk->GetInstanceProcAddr(instance, "vk" #name)))                                \
        return "vk" #name;
    ENG__VK_INSTANCE_FUNCTIONS(ENG__VK_LOAD)
    if (surface) {
        ENG__VK_SURFACE_FUNCTIONS(ENG__VK_LOAD)
    }
    if (debug_utils) {
        ENG__VK_DEBUG_UTILS_FUNCTIONS(ENG__VK_LOAD)
    }
#undef ENG__VK_LOAD
    return NULL;
}

const char *eng__vk_load_device(eng__vk *vk, VkDevice device, bool swapchain, bool push_descriptor)
{
#define ENG__VK_LOAD(name)                                                                                        \
    if (!(vk->name = (PFN_vk##name)vk->GetDeviceProcAddr(device, "vk" #name)))                                    \
        return "vk" #name;
    ENG__VK_DEVICE_FUNCTIONS(ENG__VK_LOAD)
    if (swapchain) {
        ENG__VK_SWAPCHAIN_FUNCTIONS(ENG__VK_LOAD)
    }
    if (push_descriptor) {
        ENG__VK_PUSH_DESCRIPTOR_FUNCTIONS(ENG__VK_LOAD)
    }
#undef ENG__VK_LOAD
    return NULL;
}
