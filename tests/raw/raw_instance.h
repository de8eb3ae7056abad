/* What the test programs that make their own Vulkan instance (and device)
 * without the engine share: raw_device.c here, and
 * device/test_existing_device.c and consumer/consumer_volk.c. The
 * validation layer's presence; the instance's create infos, with the
 * validation layer, synchronization validation and a messenger that
 * counts warnings and errors; the first Vulkan 1.3 device with a graphics
 * and compute family, and a device on it. Header-only, so that each
 * program's vk* names (the loader's functions, or volk's pointers) are the
 * ones called (a program on volk includes volk.h first). */
#ifndef RAW_INSTANCE_H
#define RAW_INSTANCE_H

#include "raw_vulkan.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RAW_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

/* Whether the instance layer `name` is installed. */
static inline bool raw_has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkLayerProperties *layers = calloc(n, sizeof *layers);
    bool found = false;
    if (layers && vkEnumerateInstanceLayerProperties(&n, layers) >= VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

/* What a messenger of raw_instance_info saw: warnings and errors, and the
 * first one's text. With print set, each is written on stderr as
 * "<print>[vulkan warning] <text>" (or error); seen, where set, is given
 * each one as well. */
typedef struct raw_messages {
    uint32_t warnings, errors;
    char first[1024];
    const char *print;
    void (*seen)(struct raw_messages *m, const VkDebugUtilsMessengerCallbackDataEXT *data);
} raw_messages;

/* The messenger's callback: user is the raw_messages. */
static VKAPI_ATTR VkBool32 VKAPI_CALL raw_count_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    raw_messages *m = user;
    const char *label;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        m->errors++;
        label = "error";
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        m->warnings++;
        label = "warning";
    } else {
        return VK_FALSE; /* not asked for */
    }
    const char *text = data && data->pMessage ? data->pMessage : "(no message)";
    if (!m->first[0])
        snprintf(m->first, sizeof m->first, "%s", text);
    if (m->print)
        fprintf(stderr, "%s[vulkan %s] %s\n", m->print, label, text);
    if (m->seen)
        m->seen(m, data);
    return VK_FALSE;
}

/* An instance's create infos (create): the validation layer with
 * synchronization validation, VK_EXT_debug_utils (extensions has room for
 * one more), and a messenger (messenger: warnings and errors of every
 * type, counted into a raw_messages) chained into them too, so that
 * vkCreateInstance's own messages are counted. create points into the
 * struct, which must stay where it is. */
typedef struct raw_instance_info {
    VkDebugUtilsMessengerCreateInfoEXT messenger;
    VkValidationFeatureEnableEXT sync_validation;
    VkValidationFeaturesEXT features;
    VkApplicationInfo app;
    const char *layer;
    const char *extensions[2];
    VkInstanceCreateInfo create;
} raw_instance_info;

static inline void raw_instance_info_init(raw_instance_info *t, const char *app_name, uint32_t api_version,
                                           raw_messages *messages)
{
    memset(t, 0, sizeof *t);
    t->messenger.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    t->messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    t->messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    t->messenger.pfnUserCallback = raw_count_message;
    t->messenger.pUserData = messages;
    t->sync_validation = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    t->features = (VkValidationFeaturesEXT){ .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                             .pNext = &t->messenger, .enabledValidationFeatureCount = 1,
                                             .pEnabledValidationFeatures = &t->sync_validation };
    t->app = (VkApplicationInfo){ .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = app_name,
                                  .apiVersion = api_version };
    t->layer = RAW_VALIDATION_LAYER;
    t->extensions[0] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    t->create = (VkInstanceCreateInfo){ .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = &t->features,
                                        .pApplicationInfo = &t->app, .enabledLayerCount = 1,
                                        .ppEnabledLayerNames = &t->layer, .enabledExtensionCount = 1,
                                        .ppEnabledExtensionNames = t->extensions };
}

/* The first Vulkan 1.3 physical device of instance (of the first 8) with
 * a queue family of graphics and compute (*family), or VK_NULL_HANDLE in
 * *out; returns what vkEnumeratePhysicalDevices returned. */
static inline VkResult raw_pick_device(VkInstance instance, VkPhysicalDevice *out, uint32_t *family)
{
    VkPhysicalDevice pds[8];
    uint32_t n = 8;
    *out = VK_NULL_HANDLE;
    *family = UINT32_MAX;
    VkResult vr = vkEnumeratePhysicalDevices(instance, &n, pds);
    for (uint32_t i = 0; (vr == VK_SUCCESS || vr == VK_INCOMPLETE) && i < n && !*out; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (p.apiVersion < VK_API_VERSION_1_3)
            continue;
        VkQueueFamilyProperties fams[16];
        uint32_t fc = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &fc, fams);
        const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        for (uint32_t f = 0; f < fc && *family == UINT32_MAX; f++)
            if ((fams[f].queueFlags & both) == both)
                *family = f;
        if (*family != UINT32_MAX)
            *out = pds[i];
    }
    return vr;
}

/* The features a device of these programs enables, chained from f2 (which
 * points into the struct: it must stay where it is): Vulkan 1.2's
 * timelineSemaphore, 1.3's dynamicRendering, synchronization2 and
 * maintenance4. */
typedef struct raw_device_features {
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    VkPhysicalDeviceFeatures2 f2;
} raw_device_features;

/* A device on physical with *features (filled here) and one queue of
 * family. */
static inline VkResult raw_create_device(VkPhysicalDevice physical, uint32_t family, raw_device_features *features,
                                          VkDevice *out)
{
    raw_device_features *f = features;
    f->f12 = (VkPhysicalDeviceVulkan12Features){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                 .timelineSemaphore = VK_TRUE };
    f->f13 = (VkPhysicalDeviceVulkan13Features){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                 .pNext = &f->f12, .dynamicRendering = VK_TRUE,
                                                 .synchronization2 = VK_TRUE, .maintenance4 = VK_TRUE };
    f->f2 = (VkPhysicalDeviceFeatures2){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f->f13 };
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                    .queueCount = 1, .pQueuePriorities = &priority };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f->f2,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
    return vkCreateDevice(physical, &dci, NULL, out);
}

#endif
