/* The Vulkan declarations of the raw device tests (tests/raw): built with
 * TEST_RAW_VOLK (device_volk), every vk name is one of volk's function
 * pointers (volk.h defines VK_NO_PROTOTYPES before it includes vulkan.h);
 * without it (device_raw_vulkan), the loader's prototypes. Include this
 * before anything else that includes vulkan.h (rendergraph.h does), so
 * that volk's header comes first. */
#ifndef TEST_RAW_VULKAN_H
#define TEST_RAW_VULKAN_H

#ifdef TEST_RAW_VOLK
#include <volk.h>
#else
#include <vulkan/vulkan.h>
#endif

#endif
