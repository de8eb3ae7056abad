/* The context's state and the steps of making one, shared by the files
 * that make it (context_instance.c: the instance, validation messenger and
 * surface; context_device.c: device choice, features, the logical device
 * and queues) and context.c (the graph device, an application's device,
 * the getters). Not installed. */
#ifndef ENGINE_CONTEXT_H
#define ENGINE_CONTEXT_H

#include "internal.h"

/* The Vulkan version the instance asks for (VkApplicationInfo::apiVersion):
 * a device's newer core functionality is usable only up to this version. */
#define ENG__API_VERSION VK_API_VERSION_1_3

struct eng_context {
    eng__vk vk;                       /* every Vulkan call goes through it */
    void *loader;                     /* the loader the engine opened (vk_loader.c), or NULL */
    /* The application's allocators (copies): host memory (zeroed: malloc)
     * and Vulkan's (vk.allocator points at vk_allocator when given). */
    rg_allocator host;
    VkAllocationCallbacks vk_allocator;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkSurfaceKHR surface;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    /* Per eng_queue_kind, graphics included; UINT32_MAX / VK_NULL_HANDLE
     * for a kind the context has no queue of. */
    uint32_t families[ENG_QUEUE_KIND_COUNT];
    uint32_t queue_index[ENG_QUEUE_KIND_COUNT];   /* in its family */
    VkQueue queues[ENG_QUEUE_KIND_COUNT];
    VkCommandPool once_pool;
    bool memory_budget;
    VkDriverId driver;
    eng_local_read local_read;
    bool msaa_fold;                   /* VK_EXT_multisampled_render_to_single_sampled enabled */
    rg_device *graph_device;          /* the device as render graphs use it */
    bool timeline;                    /* timelineSemaphore enabled */
    bool debug_utils;                 /* VK_EXT_debug_utils enabled on the instance */
    bool borrowed;                    /* the application's instance and device
                                         (eng_context_desc.existing) */
    /* The enabled layer that offers VK_EXT_memory_budget (an emulation,
     * e.g. the tile-memory layer on lavapipe); "" = the driver. */
    char memory_budget_layer[VK_MAX_EXTENSION_NAME_SIZE];
    char layers[8][VK_MAX_EXTENSION_NAME_SIZE]; /* extra layers enabled */
    uint32_t layer_count;
    bool validation;
    bool quiet;
    rg_log_fn log;                    /* eng_context_desc.log */
    void *log_user;
    eng_message_counts messages;
    char first_message[1024];
    /* rg_device_create's reason, logged while the graph device is made
     * (and only then: later, graphs log from any thread). */
    char graph_error[512];
    bool making_graph_device;
    eng__sampler_cache samplers;      /* eng_sampler_get's (sampler.c) */
};

/* The features eng__create_device enables: the engine's own structs, and the
 * chain given to vkCreateDevice (the application's, eng_context_desc.features,
 * with the engine's structs of other types linked at its end until
 * eng__unlink_features). It lives in eng_context_create's frame because the
 * render graph's device reads the chain too (rg_device_desc.enabled_features). */
typedef struct eng__device_features {
    VkPhysicalDeviceFeatures2 own;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR lr;
    VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT fold;
    VkPhysicalDeviceFeatures2 *chain;
    VkBaseOutStructure *tail;         /* the application's last struct, or NULL */
} eng__device_features;

/* context_instance.c */
eng_result eng__create_instance(eng_context *ctx, const eng_context_desc *desc);
eng_result eng__create_surface(eng_context *ctx, const eng_context_desc *desc);
bool eng__has_device_extension(const eng_context *ctx, VkPhysicalDevice pd, const char *name);
bool eng__has_device_extension_of(const eng_context *ctx, VkPhysicalDevice pd, const char *layer, const char *name);

/* context_device.c */
eng_result eng__find_extra_families(eng_context *ctx, const eng_context_desc *desc);
eng_result eng__pick_device(eng_context *ctx, const eng_context_desc *desc);
void eng__query_device(eng_context *ctx, const eng_context_desc *desc);
void eng__take_graph_caps(eng_context *ctx);
void eng__unlink_features(eng__device_features *df);
eng_result eng__create_device(eng_context *ctx, const eng_context_desc *desc, eng__device_features *df);

/* The command pool of eng_context_submit_once, on the graphics family
 * (context_device.c). */
eng_result eng__create_once_pool(eng_context *ctx);

#endif
