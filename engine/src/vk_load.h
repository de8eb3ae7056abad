/* Loading a context's Vulkan function table (vk_load.c). Not installed. */
#ifndef ENGINE_VK_LOAD_H
#define ENGINE_VK_LOAD_H

#include "vk_table.h"

#include <stdbool.h>

/* vkCreateInstance and the instance enumerations, through gipa(NULL, ...);
 * keeps gipa for the steps below. */
const char *eng__vk_load_global(eng__vk *vk, PFN_vkGetInstanceProcAddr gipa);
/* The instance's functions, VK_KHR_surface's where surface, and
 * VK_EXT_debug_utils's where debug_utils. */
const char *eng__vk_load_instance(eng__vk *vk, VkInstance instance, bool surface, bool debug_utils);
/* The device's functions (through vkGetDeviceProcAddr), VK_KHR_swapchain's
 * where swapchain, VK_KHR_push_descriptor's where push_descriptor. */
const char *eng__vk_load_device(eng__vk *vk, VkDevice device, bool swapchain, bool push_descriptor);

/* The Vulkan loader opened at run time (vk_loader.c), for a context given
 * no vkGetInstanceProcAddr: its vkGetInstanceProcAddr, NULL when no
 * loader opens; *library is what eng__vk_loader_close closes (NULL
 * allowed). eng__vk_loader_names lists the names tried, for a message. */
PFN_vkGetInstanceProcAddr eng__vk_loader_open(void **library);
const char *eng__vk_loader_names(void);
void eng__vk_loader_close(void *library);

#endif
