/* A Vulkan instance and device made with raw Vulkan calls, for the raw
 * device tests (tests/raw): no engine, nothing of tests/support. The
 * instance has the Khronos validation layer with synchronization
 * validation and a VK_EXT_debug_utils messenger that counts warnings and
 * errors (messages during vkCreateInstance included); the device is Vulkan
 * 1.3 with dynamicRendering and synchronization2 (and timelineSemaphore
 * where offered), one queue of the first family with graphics and compute.
 *
 *   test_raw_device d;
 *   char why[512];
 *   if (!test_raw_device_open(&d, why, sizeof why))
 *       test_raw_require_or_skip(why);
 *   ... (d.messages.warnings + d.messages.errors: the messages so far)
 *   test_raw_device_destroy_device(&d);   // the layer reports leaks here
 *   ... check the counts once more
 *   test_raw_device_destroy_instance(&d);
 *
 * The physical device: the one ENG_DEVICE names (an index in
 * vkEnumeratePhysicalDevices' order, or a case-insensitive part of its
 * name), as in the rest of the suite, else the first that has what the
 * device needs. Built with TEST_RAW_VOLK every call goes through volk
 * (volkInitialize, volkLoadInstance, volkLoadDevice); otherwise through
 * the loader's exported functions. */
#ifndef TEST_RAW_DEVICE_H
#define TEST_RAW_DEVICE_H

#include "raw_vulkan.h"
#include "raw_instance.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEST_RAW_API_VERSION VK_API_VERSION_1_3

typedef struct test_raw_device {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkDevice device;
    uint32_t family;                  /* graphics and compute */
    VkQueue queue;
    bool timeline_semaphore;          /* enabled (offered by the device) */
    /* The feature chain vkCreateDevice was given (f12 heads it), for
     * rg_device_desc.enabled_features. */
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    /* What the messenger saw: warnings and errors, and the first one's text
     * (each also printed on stderr). */
    raw_messages messages;
} test_raw_device;

/* Makes the instance and the device into *d (which must stay where it is:
 * the messenger points to it). On failure writes why (what is missing) and
 * returns false, having destroyed what it made. */
bool test_raw_device_open(test_raw_device *d, char *why, size_t size);
/* vkDestroyDevice; the messenger keeps counting (leaked objects). */
void test_raw_device_destroy_device(test_raw_device *d);
/* The messenger and the instance. */
void test_raw_device_destroy_instance(test_raw_device *d);
/* The entry point the program loads Vulkan through: the loader's
 * vkGetInstanceProcAddr, or volk's pointer to it. */
PFN_vkGetInstanceProcAddr test_raw_get_instance_proc_addr(void);

/* The raw tests' draw pipeline on layout: vert and frag drawing a
 * triangle strip without vertex input, no culling, viewport and scissor
 * dynamic, into rendering's attachments (colour writes of write_mask, no
 * blending, no depth test) at `samples`. */
VkResult test_raw_strip_pipeline(VkDevice dev, VkPipelineLayout layout, VkShaderModule vert, VkShaderModule frag,
                                 const VkPipelineRenderingCreateInfo *rendering, VkSampleCountFlagBits samples,
                                 VkColorComponentFlags write_mask, VkPipeline *out);

/* Fails the test (ENG_REQUIRE_DEVICE set and not "0": CI) or skips it,
 * saying why. */
void test_raw_require_or_skip(const char *why);

#endif
