/* VK_LAYER_VKGRAPH_tile_memory: makes any device look like a tile GPU for
 * memory, so the LAZILY_ALLOCATED path runs on lavapipe and desktop drivers.
 *
 *   - a DEVICE_LOCAL | LAZILY_ALLOCATED memory type after the real ones, on
 *     the heap of the first real DEVICE_LOCAL type (MoltenVK's layout);
 *   - its bit in memoryTypeBits only for images with TRANSIENT_ATTACHMENT
 *     usage (the spec allows lazy memory for nothing else);
 *   - allocations of it backed by that first real DEVICE_LOCAL type, and
 *     vkGetDeviceMemoryCommitment = 0 for them;
 *   - the memoryless rules: at vkCmdBeginRendering a lazy attachment is never
 *     loaded or stored, and a lazy image is never copied, blitted or cleared
 *     outside rendering; reported as errors to the application's
 *     debug-utils messengers (descriptor use is not checked yet);
 *   - fault injection: VKGRAPH_TILE_FAIL_ALLOC=N fails the Nth
 *     vkAllocateMemory after the latest vkCreateDevice.
 *
 * It emulates accounting and rules, not tile hardware speed. Enable it below
 * the validation layer (listed after it in ppEnabledLayerNames) so that
 * validation sees the emulated type. Real type indices pass through
 * unchanged: only the added index is translated. */
#include "map.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define LAYER_NAME "VK_LAYER_VKGRAPH_tile_memory"
#define RULE_ID "VKGRAPH-tile-memoryless"

#if defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

/* Dispatchable handles start with the loader's dispatch table pointer;
 * physical devices and command buffers share it with their instance and
 * device, so it keys the per-instance and per-device data. */
static void *key_of(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

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
    instance_data *instance;
    uint32_t lazy_index; /* the added type: the real type count */
    uint32_t real_index; /* the real type that backs it; UINT32_MAX: none added */
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
    pthread_mutex_t lock; /* guards the maps */
    tile_map images;      /* VkImage -> usage | IMAGE_LAZY when bound to lazy memory */
    tile_map views;       /* VkImageView -> VkImage */
    tile_map lazy_memory; /* VkDeviceMemory -> 1 */
    struct device_data *next;
} device_data;

#define IMAGE_LAZY (1ull << 63)

static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static instance_data *instances;
static device_data *devices;
/* Fault injection: fail the fail_at-th allocation since the latest
 * vkCreateDevice (0 = never). */
static unsigned long alloc_count, fail_at;

static instance_data *find_instance(void *key)
{
    pthread_mutex_lock(&global_lock);
    instance_data *d = instances;
    while (d && d->key != key)
        d = d->next;
    pthread_mutex_unlock(&global_lock);
    return d;
}

static device_data *find_device(void *key)
{
    pthread_mutex_lock(&global_lock);
    device_data *d = devices;
    while (d && d->key != key)
        d = d->next;
    pthread_mutex_unlock(&global_lock);
    return d;
}

/* ------------------------------------------------------------- instance */

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateInstance(const VkInstanceCreateInfo *ci,
                                                          const VkAllocationCallbacks *alloc, VkInstance *out)
{
    VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerInstanceCreateInfo *)link->pNext;
    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer finds its own link */
    PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    instance_data *d = calloc(1, sizeof *d);
    if (!d || !create) {
        free(d);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult vr = create(ci, alloc, out);
    if (vr != VK_SUCCESS) {
        free(d);
        return vr;
    }
    d->key = key_of(*out);
    d->instance = *out;
    d->gipa = gipa;
#define GET(field, type, name) d->field = (type)gipa(*out, name)
    GET(destroy_instance, PFN_vkDestroyInstance, "vkDestroyInstance");
    GET(get_memory_properties, PFN_vkGetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties");
    GET(get_memory_properties2, PFN_vkGetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2");
    if (!d->get_memory_properties2)
        GET(get_memory_properties2, PFN_vkGetPhysicalDeviceMemoryProperties2,
            "vkGetPhysicalDeviceMemoryProperties2KHR");
    GET(create_device, PFN_vkCreateDevice, "vkCreateDevice");
    GET(create_messenger, PFN_vkCreateDebugUtilsMessengerEXT, "vkCreateDebugUtilsMessengerEXT");
    GET(destroy_messenger, PFN_vkDestroyDebugUtilsMessengerEXT, "vkDestroyDebugUtilsMessengerEXT");
#undef GET
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_lock(&global_lock);
    d->next = instances;
    instances = d;
    pthread_mutex_unlock(&global_lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    void *key = key_of(instance);
    pthread_mutex_lock(&global_lock);
    instance_data *d = NULL;
    for (instance_data **p = &instances; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            d = *p;
            *p = d->next;
            break;
        }
    }
    pthread_mutex_unlock(&global_lock);
    if (!d)
        return;
    d->destroy_instance(instance, alloc);
    while (d->messengers) {
        messenger *m = d->messengers;
        d->messengers = m->next;
        free(m);
    }
    pthread_mutex_destroy(&d->lock);
    free(d);
}

/* The real type that backs the lazy one: the first DEVICE_LOCAL type. */
static uint32_t backing_type(const VkPhysicalDeviceMemoryProperties *p)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if (p->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
            return i;
    return UINT32_MAX;
}

/* Appends the lazy type unless the device has one already, has no
 * device-local type or no room left. */
static void add_lazy_type(VkPhysicalDeviceMemoryProperties *p)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if (p->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
            return;
    uint32_t real = backing_type(p);
    if (real == UINT32_MAX || p->memoryTypeCount >= VK_MAX_MEMORY_TYPES)
        return;
    p->memoryTypes[p->memoryTypeCount++] = (VkMemoryType){
        .propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
        .heapIndex = p->memoryTypes[real].heapIndex,
    };
}

static VKAPI_ATTR void VKAPI_CALL tile_GetPhysicalDeviceMemoryProperties(VkPhysicalDevice pd,
                                                                        VkPhysicalDeviceMemoryProperties *p)
{
    find_instance(key_of(pd))->get_memory_properties(pd, p);
    add_lazy_type(p);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice pd,
                                                                         VkPhysicalDeviceMemoryProperties2 *p)
{
    /* The pNext chain (memory budget) is the driver's to fill, untouched. */
    find_instance(key_of(pd))->get_memory_properties2(pd, p);
    add_lazy_type(&p->memoryProperties);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                                       const VkDebugUtilsMessengerCreateInfoEXT *ci,
                                                                       const VkAllocationCallbacks *alloc,
                                                                       VkDebugUtilsMessengerEXT *out)
{
    instance_data *d = find_instance(key_of(instance));
    VkResult vr = d->create_messenger ? d->create_messenger(instance, ci, alloc, out) : VK_ERROR_EXTENSION_NOT_PRESENT;
    if (vr != VK_SUCCESS)
        return vr;
    messenger *m = calloc(1, sizeof *m);
    if (!m)
        return VK_SUCCESS; /* the layer's own reports are lost, not the application's messenger */
    m->handle = *out;
    m->info = *ci;
    m->info.pNext = NULL;
    pthread_mutex_lock(&d->lock);
    m->next = d->messengers;
    d->messengers = m;
    pthread_mutex_unlock(&d->lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyDebugUtilsMessengerEXT(VkInstance instance,
                                                                    VkDebugUtilsMessengerEXT handle,
                                                                    const VkAllocationCallbacks *alloc)
{
    instance_data *d = find_instance(key_of(instance));
    pthread_mutex_lock(&d->lock);
    for (messenger **p = &d->messengers; *p; p = &(*p)->next) {
        if ((*p)->handle == handle) {
            messenger *dead = *p;
            *p = dead->next;
            free(dead);
            break;
        }
    }
    pthread_mutex_unlock(&d->lock);
    if (d->destroy_messenger)
        d->destroy_messenger(instance, handle, alloc);
}

/* Sends an error to every messenger that listens for validation errors. */
static void report_error(instance_data *inst, const char *text)
{
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = RULE_ID,
        .pMessage = text,
    };
    pthread_mutex_lock(&inst->lock);
    for (messenger *m = inst->messengers; m; m = m->next) {
        if ((m->info.messageSeverity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) &&
            (m->info.messageType & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT))
            m->info.pfnUserCallback(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data, m->info.pUserData);
    }
    pthread_mutex_unlock(&inst->lock);
}

/* --------------------------------------------------------------- device */

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                                        const VkAllocationCallbacks *alloc, VkDevice *out)
{
    instance_data *inst = find_instance(key_of(pd));
    VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)ci->pNext;
    while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO))
        link = (VkLayerDeviceCreateInfo *)link->pNext;
    if (!link || !inst)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(inst->instance, "vkCreateDevice");
    device_data *d = calloc(1, sizeof *d);
    if (!d || !create) {
        free(d);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult vr = create(pd, ci, alloc, out);
    if (vr != VK_SUCCESS) {
        free(d);
        return vr;
    }
    VkPhysicalDeviceMemoryProperties mp;
    inst->get_memory_properties(pd, &mp);
    bool has_lazy = false;
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        has_lazy |= (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) != 0;
    d->lazy_index = mp.memoryTypeCount;
    d->real_index = has_lazy || mp.memoryTypeCount >= VK_MAX_MEMORY_TYPES ? UINT32_MAX : backing_type(&mp);
    d->key = key_of(*out);
    d->device = *out;
    d->instance = inst;
    d->gdpa = gdpa;
#define GET(field, type, name) d->field = (type)gdpa(*out, name)
    GET(destroy_device, PFN_vkDestroyDevice, "vkDestroyDevice");
    GET(create_image, PFN_vkCreateImage, "vkCreateImage");
    GET(destroy_image, PFN_vkDestroyImage, "vkDestroyImage");
    GET(create_view, PFN_vkCreateImageView, "vkCreateImageView");
    GET(destroy_view, PFN_vkDestroyImageView, "vkDestroyImageView");
    GET(image_reqs, PFN_vkGetImageMemoryRequirements, "vkGetImageMemoryRequirements");
    GET(image_reqs2, PFN_vkGetImageMemoryRequirements2, "vkGetImageMemoryRequirements2");
    GET(device_image_reqs, PFN_vkGetDeviceImageMemoryRequirements, "vkGetDeviceImageMemoryRequirements");
    GET(allocate, PFN_vkAllocateMemory, "vkAllocateMemory");
    GET(free_memory, PFN_vkFreeMemory, "vkFreeMemory");
    GET(commitment, PFN_vkGetDeviceMemoryCommitment, "vkGetDeviceMemoryCommitment");
    GET(bind_image, PFN_vkBindImageMemory, "vkBindImageMemory");
    GET(bind_image2, PFN_vkBindImageMemory2, "vkBindImageMemory2");
    GET(begin_rendering, PFN_vkCmdBeginRendering, "vkCmdBeginRendering");
    if (!d->begin_rendering)
        GET(begin_rendering, PFN_vkCmdBeginRendering, "vkCmdBeginRenderingKHR");
    /* Vulkan 1.1-1.2 devices offer these through their extensions only. */
    if (!d->image_reqs2)
        GET(image_reqs2, PFN_vkGetImageMemoryRequirements2, "vkGetImageMemoryRequirements2KHR");
    if (!d->device_image_reqs)
        GET(device_image_reqs, PFN_vkGetDeviceImageMemoryRequirements, "vkGetDeviceImageMemoryRequirementsKHR");
    if (!d->bind_image2)
        GET(bind_image2, PFN_vkBindImageMemory2, "vkBindImageMemory2KHR");
    GET(copy_image, PFN_vkCmdCopyImage, "vkCmdCopyImage");
    GET(copy_image2, PFN_vkCmdCopyImage2, "vkCmdCopyImage2");
    if (!d->copy_image2)
        GET(copy_image2, PFN_vkCmdCopyImage2, "vkCmdCopyImage2KHR");
    GET(copy_image_to_buffer, PFN_vkCmdCopyImageToBuffer, "vkCmdCopyImageToBuffer");
    GET(copy_image_to_buffer2, PFN_vkCmdCopyImageToBuffer2, "vkCmdCopyImageToBuffer2");
    if (!d->copy_image_to_buffer2)
        GET(copy_image_to_buffer2, PFN_vkCmdCopyImageToBuffer2, "vkCmdCopyImageToBuffer2KHR");
    GET(copy_buffer_to_image, PFN_vkCmdCopyBufferToImage, "vkCmdCopyBufferToImage");
    GET(copy_buffer_to_image2, PFN_vkCmdCopyBufferToImage2, "vkCmdCopyBufferToImage2");
    if (!d->copy_buffer_to_image2)
        GET(copy_buffer_to_image2, PFN_vkCmdCopyBufferToImage2, "vkCmdCopyBufferToImage2KHR");
    GET(blit_image, PFN_vkCmdBlitImage, "vkCmdBlitImage");
    GET(blit_image2, PFN_vkCmdBlitImage2, "vkCmdBlitImage2");
    if (!d->blit_image2)
        GET(blit_image2, PFN_vkCmdBlitImage2, "vkCmdBlitImage2KHR");
    GET(clear_color, PFN_vkCmdClearColorImage, "vkCmdClearColorImage");
    GET(clear_depth, PFN_vkCmdClearDepthStencilImage, "vkCmdClearDepthStencilImage");
#undef GET
    pthread_mutex_init(&d->lock, NULL);

    /* Read here, not once per process, so a test can set it before making
     * its context; the count restarts with each device. */
    const char *fail = getenv("VKGRAPH_TILE_FAIL_ALLOC");
    pthread_mutex_lock(&global_lock);
    fail_at = fail ? strtoul(fail, NULL, 10) : 0;
    alloc_count = 0;
    d->next = devices;
    devices = d;
    pthread_mutex_unlock(&global_lock);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    void *key = key_of(device);
    pthread_mutex_lock(&global_lock);
    device_data *d = NULL;
    for (device_data **p = &devices; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            d = *p;
            *p = d->next;
            break;
        }
    }
    pthread_mutex_unlock(&global_lock);
    if (!d)
        return;
    d->destroy_device(device, alloc);
    tile_map_clear(&d->images);
    tile_map_clear(&d->views);
    tile_map_clear(&d->lazy_memory);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImage(VkDevice device, const VkImageCreateInfo *ci,
                                                       const VkAllocationCallbacks *alloc, VkImage *out)
{
    device_data *d = find_device(key_of(device));
    VkResult vr = d->create_image(device, ci, alloc, out);
    if (vr == VK_SUCCESS) {
        pthread_mutex_lock(&d->lock);
        bool ok = tile_map_put(&d->images, (uint64_t)*out, ci->usage);
        pthread_mutex_unlock(&d->lock);
        if (!ok) {
            d->destroy_image(device, *out, alloc);
            *out = VK_NULL_HANDLE;
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    return vr;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks *alloc)
{
    device_data *d = find_device(key_of(device));
    pthread_mutex_lock(&d->lock);
    tile_map_remove(&d->images, (uint64_t)image);
    pthread_mutex_unlock(&d->lock);
    d->destroy_image(device, image, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImageView(VkDevice device, const VkImageViewCreateInfo *ci,
                                                           const VkAllocationCallbacks *alloc, VkImageView *out)
{
    device_data *d = find_device(key_of(device));
    VkResult vr = d->create_view(device, ci, alloc, out);
    if (vr == VK_SUCCESS) {
        pthread_mutex_lock(&d->lock);
        bool ok = tile_map_put(&d->views, (uint64_t)*out, (uint64_t)ci->image);
        pthread_mutex_unlock(&d->lock);
        if (!ok) {
            d->destroy_view(device, *out, alloc);
            *out = VK_NULL_HANDLE;
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    return vr;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyImageView(VkDevice device, VkImageView view,
                                                       const VkAllocationCallbacks *alloc)
{
    device_data *d = find_device(key_of(device));
    pthread_mutex_lock(&d->lock);
    tile_map_remove(&d->views, (uint64_t)view);
    pthread_mutex_unlock(&d->lock);
    d->destroy_view(device, view, alloc);
}

/* Offers the lazy type where the real backing type is offered, for
 * transient attachments only. */
static void offer_lazy(const device_data *d, VkImageUsageFlags usage, VkMemoryRequirements *req)
{
    if (d->real_index == UINT32_MAX || !(usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT))
        return;
    if (req->memoryTypeBits & (1u << d->real_index))
        req->memoryTypeBits |= 1u << d->lazy_index;
}

static VkImageUsageFlags image_usage(device_data *d, VkImage image)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    tile_map_get(&d->images, (uint64_t)image, &v);
    pthread_mutex_unlock(&d->lock);
    return (VkImageUsageFlags)(v & ~IMAGE_LAZY);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements(VkDevice device, VkImage image,
                                                                 VkMemoryRequirements *req)
{
    device_data *d = find_device(key_of(device));
    d->image_reqs(device, image, req);
    offer_lazy(d, image_usage(d, image), req);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements2(VkDevice device,
                                                                  const VkImageMemoryRequirementsInfo2 *info,
                                                                  VkMemoryRequirements2 *req)
{
    device_data *d = find_device(key_of(device));
    d->image_reqs2(device, info, req);
    offer_lazy(d, image_usage(d, info->image), &req->memoryRequirements);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetDeviceImageMemoryRequirements(VkDevice device,
                                                                       const VkDeviceImageMemoryRequirements *info,
                                                                       VkMemoryRequirements2 *req)
{
    device_data *d = find_device(key_of(device));
    d->device_image_reqs(device, info, req);
    offer_lazy(d, info->pCreateInfo->usage, &req->memoryRequirements);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *ai,
                                                          const VkAllocationCallbacks *alloc, VkDeviceMemory *out)
{
    device_data *d = find_device(key_of(device));
    pthread_mutex_lock(&global_lock);
    bool fail = fail_at && ++alloc_count == fail_at;
    pthread_mutex_unlock(&global_lock);
    if (fail)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    bool lazy = d->real_index != UINT32_MAX && ai->memoryTypeIndex == d->lazy_index;
    if (!lazy)
        return d->allocate(device, ai, alloc, out);
    VkMemoryAllocateInfo real = *ai;
    real.memoryTypeIndex = d->real_index;
    VkResult vr = d->allocate(device, &real, alloc, out);
    if (vr != VK_SUCCESS)
        return vr;
    pthread_mutex_lock(&d->lock);
    bool ok = tile_map_put(&d->lazy_memory, (uint64_t)*out, 1);
    pthread_mutex_unlock(&d->lock);
    if (!ok) {
        d->free_memory(device, *out, alloc);
        *out = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

static bool memory_is_lazy(device_data *d, VkDeviceMemory memory)
{
    pthread_mutex_lock(&d->lock);
    bool lazy = tile_map_get(&d->lazy_memory, (uint64_t)memory, NULL);
    pthread_mutex_unlock(&d->lock);
    return lazy;
}

static VKAPI_ATTR void VKAPI_CALL tile_FreeMemory(VkDevice device, VkDeviceMemory memory,
                                                 const VkAllocationCallbacks *alloc)
{
    device_data *d = find_device(key_of(device));
    pthread_mutex_lock(&d->lock);
    tile_map_remove(&d->lazy_memory, (uint64_t)memory);
    pthread_mutex_unlock(&d->lock);
    d->free_memory(device, memory, alloc);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
                                                                VkDeviceSize *committed)
{
    device_data *d = find_device(key_of(device));
    if (memory_is_lazy(d, memory)) {
        *committed = 0; /* memoryless: a tile GPU never backs it */
        return;
    }
    d->commitment(device, memory, committed);
}

static void note_binding(device_data *d, VkImage image, VkDeviceMemory memory)
{
    if (!memory_is_lazy(d, memory))
        return;
    pthread_mutex_lock(&d->lock);
    uint64_t v;
    if (tile_map_get(&d->images, (uint64_t)image, &v))
        tile_map_put(&d->images, (uint64_t)image, v | IMAGE_LAZY); /* existing key: cannot fail */
    pthread_mutex_unlock(&d->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                           VkDeviceSize offset)
{
    device_data *d = find_device(key_of(device));
    VkResult vr = d->bind_image(device, image, memory, offset);
    if (vr == VK_SUCCESS)
        note_binding(d, image, memory);
    return vr;
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory2(VkDevice device, uint32_t count,
                                                            const VkBindImageMemoryInfo *infos)
{
    device_data *d = find_device(key_of(device));
    VkResult vr = d->bind_image2(device, count, infos);
    if (vr == VK_SUCCESS)
        for (uint32_t i = 0; i < count; i++)
            note_binding(d, infos[i].image, infos[i].memory);
    return vr;
}

/* The memoryless rule: a lazy attachment's contents exist only on the tile,
 * so it can be neither loaded nor stored. */
static void check_attachment(device_data *d, const VkRenderingAttachmentInfo *a, const char *what, uint32_t index)
{
    if (!a || !a->imageView)
        return;
    uint64_t image = 0, v = 0;
    pthread_mutex_lock(&d->lock);
    bool lazy = tile_map_get(&d->views, (uint64_t)a->imageView, &image) &&
                tile_map_get(&d->images, image, &v) && (v & IMAGE_LAZY);
    pthread_mutex_unlock(&d->lock);
    if (!lazy)
        return;
    const char *op = a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD     ? "loadOp LOAD"
                     : a->storeOp == VK_ATTACHMENT_STORE_OP_STORE ? "storeOp STORE"
                                                                  : NULL;
    if (!op)
        return;
    char text[512];
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] vkCmdBeginRendering: %s attachment %u (VkImage 0x%llx) is bound to LAZILY_ALLOCATED "
             "(memoryless) memory but uses %s; a lazy attachment's contents exist only in tile memory, so it "
             "must be cleared or DONT_CARE and never stored (" LAYER_NAME ")",
             what, index, (unsigned long long)image, op);
    report_error(d->instance, text);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdBeginRendering(VkCommandBuffer cmd, const VkRenderingInfo *info)
{
    device_data *d = find_device(key_of(cmd));
    for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
        check_attachment(d, &info->pColorAttachments[i], "color", i);
    check_attachment(d, info->pDepthAttachment, "depth", 0);
    check_attachment(d, info->pStencilAttachment, "stencil", 0);
    d->begin_rendering(cmd, info);
}

/* A lazy image has no memory outside a render pass: copies, blits and
 * clears outside rendering have nothing to read or write. */
static void check_transfer(device_data *d, VkImage image, const char *command)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    bool lazy = image && tile_map_get(&d->images, (uint64_t)image, &v) && (v & IMAGE_LAZY);
    pthread_mutex_unlock(&d->lock);
    if (!lazy)
        return;
    char text[512];
    snprintf(text, sizeof text,
             "[ " RULE_ID " ] %s: VkImage 0x%llx is bound to LAZILY_ALLOCATED (memoryless) memory, which exists "
             "only in tile memory during a render pass: it cannot be copied, blitted or cleared outside one "
             "(" LAYER_NAME ")",
             command, (unsigned long long)(uint64_t)image);
    report_error(d->instance, text);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout,
                                                    VkImage dst, VkImageLayout dst_layout, uint32_t count,
                                                    const VkImageCopy *regions)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, src, "vkCmdCopyImage (source)");
    check_transfer(d, dst, "vkCmdCopyImage (destination)");
    d->copy_image(cmd, src, src_layout, dst, dst_layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImage2(VkCommandBuffer cmd, const VkCopyImageInfo2 *info)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, info->srcImage, "vkCmdCopyImage2 (source)");
    check_transfer(d, info->dstImage, "vkCmdCopyImage2 (destination)");
    d->copy_image2(cmd, info);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer(VkCommandBuffer cmd, VkImage src, VkImageLayout layout,
                                                            VkBuffer dst, uint32_t count,
                                                            const VkBufferImageCopy *regions)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, src, "vkCmdCopyImageToBuffer");
    d->copy_image_to_buffer(cmd, src, layout, dst, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyImageToBuffer2(VkCommandBuffer cmd, const VkCopyImageToBufferInfo2 *info)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, info->srcImage, "vkCmdCopyImageToBuffer2");
    d->copy_image_to_buffer2(cmd, info);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage(VkCommandBuffer cmd, VkBuffer src, VkImage dst,
                                                            VkImageLayout layout, uint32_t count,
                                                            const VkBufferImageCopy *regions)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, dst, "vkCmdCopyBufferToImage");
    d->copy_buffer_to_image(cmd, src, dst, layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdCopyBufferToImage2(VkCommandBuffer cmd, const VkCopyBufferToImageInfo2 *info)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, info->dstImage, "vkCmdCopyBufferToImage2");
    d->copy_buffer_to_image2(cmd, info);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout,
                                                    VkImage dst, VkImageLayout dst_layout, uint32_t count,
                                                    const VkImageBlit *regions, VkFilter filter)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, src, "vkCmdBlitImage (source)");
    check_transfer(d, dst, "vkCmdBlitImage (destination)");
    d->blit_image(cmd, src, src_layout, dst, dst_layout, count, regions, filter);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdBlitImage2(VkCommandBuffer cmd, const VkBlitImageInfo2 *info)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, info->srcImage, "vkCmdBlitImage2 (source)");
    check_transfer(d, info->dstImage, "vkCmdBlitImage2 (destination)");
    d->blit_image2(cmd, info);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdClearColorImage(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                                          const VkClearColorValue *color, uint32_t count,
                                                          const VkImageSubresourceRange *ranges)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, image, "vkCmdClearColorImage");
    d->clear_color(cmd, image, layout, color, count, ranges);
}

static VKAPI_ATTR void VKAPI_CALL tile_CmdClearDepthStencilImage(VkCommandBuffer cmd, VkImage image,
                                                                 VkImageLayout layout,
                                                                 const VkClearDepthStencilValue *value,
                                                                 uint32_t count, const VkImageSubresourceRange *ranges)
{
    device_data *d = find_device(key_of(cmd));
    check_transfer(d, image, "vkCmdClearDepthStencilImage");
    d->clear_depth(cmd, image, layout, value, count, ranges);
}

/* ------------------------------------------------------------ dispatch */

typedef struct intercept {
    const char *name;
    PFN_vkVoidFunction fn;
} intercept;

#define FN(name, impl) { name, (PFN_vkVoidFunction)impl }
static const intercept device_fns[] = {
    FN("vkDestroyDevice", tile_DestroyDevice),
    FN("vkCreateImage", tile_CreateImage),
    FN("vkDestroyImage", tile_DestroyImage),
    FN("vkCreateImageView", tile_CreateImageView),
    FN("vkDestroyImageView", tile_DestroyImageView),
    FN("vkGetImageMemoryRequirements", tile_GetImageMemoryRequirements),
    FN("vkGetImageMemoryRequirements2", tile_GetImageMemoryRequirements2),
    FN("vkGetImageMemoryRequirements2KHR", tile_GetImageMemoryRequirements2),
    FN("vkGetDeviceImageMemoryRequirements", tile_GetDeviceImageMemoryRequirements),
    FN("vkGetDeviceImageMemoryRequirementsKHR", tile_GetDeviceImageMemoryRequirements),
    FN("vkAllocateMemory", tile_AllocateMemory),
    FN("vkFreeMemory", tile_FreeMemory),
    FN("vkGetDeviceMemoryCommitment", tile_GetDeviceMemoryCommitment),
    FN("vkBindImageMemory", tile_BindImageMemory),
    FN("vkBindImageMemory2", tile_BindImageMemory2),
    FN("vkBindImageMemory2KHR", tile_BindImageMemory2),
    FN("vkCmdBeginRendering", tile_CmdBeginRendering),
    FN("vkCmdBeginRenderingKHR", tile_CmdBeginRendering),
    FN("vkCmdCopyImage", tile_CmdCopyImage),
    FN("vkCmdCopyImage2", tile_CmdCopyImage2),
    FN("vkCmdCopyImage2KHR", tile_CmdCopyImage2),
    FN("vkCmdCopyImageToBuffer", tile_CmdCopyImageToBuffer),
    FN("vkCmdCopyImageToBuffer2", tile_CmdCopyImageToBuffer2),
    FN("vkCmdCopyImageToBuffer2KHR", tile_CmdCopyImageToBuffer2),
    FN("vkCmdCopyBufferToImage", tile_CmdCopyBufferToImage),
    FN("vkCmdCopyBufferToImage2", tile_CmdCopyBufferToImage2),
    FN("vkCmdCopyBufferToImage2KHR", tile_CmdCopyBufferToImage2),
    FN("vkCmdBlitImage", tile_CmdBlitImage),
    FN("vkCmdBlitImage2", tile_CmdBlitImage2),
    FN("vkCmdBlitImage2KHR", tile_CmdBlitImage2),
    FN("vkCmdClearColorImage", tile_CmdClearColorImage),
    FN("vkCmdClearDepthStencilImage", tile_CmdClearDepthStencilImage),
};
static const intercept instance_fns[] = {
    FN("vkCreateInstance", tile_CreateInstance),
    FN("vkDestroyInstance", tile_DestroyInstance),
    FN("vkCreateDevice", tile_CreateDevice),
    FN("vkGetPhysicalDeviceMemoryProperties", tile_GetPhysicalDeviceMemoryProperties),
    FN("vkGetPhysicalDeviceMemoryProperties2", tile_GetPhysicalDeviceMemoryProperties2),
    FN("vkGetPhysicalDeviceMemoryProperties2KHR", tile_GetPhysicalDeviceMemoryProperties2),
    FN("vkCreateDebugUtilsMessengerEXT", tile_CreateDebugUtilsMessengerEXT),
    FN("vkDestroyDebugUtilsMessengerEXT", tile_DestroyDebugUtilsMessengerEXT),
};
#undef FN

static PFN_vkVoidFunction lookup(const intercept *table, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL tile_GetDeviceProcAddr(VkDevice device, const char *name)
{
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)tile_GetDeviceProcAddr;
    device_data *d = device ? find_device(key_of(device)) : NULL;
    if (!d)
        return NULL;
    PFN_vkVoidFunction fn = lookup(device_fns, COUNT(device_fns), name);
    /* Only where the next layer has the function: the application must see
     * NULL for what the device does not offer. */
    PFN_vkVoidFunction next = d->gdpa(device, name);
    return fn && next ? fn : next;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL tile_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (strcmp(name, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)tile_GetInstanceProcAddr;
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)tile_GetDeviceProcAddr;
    if (strcmp(name, "vkCreateInstance") == 0)
        return (PFN_vkVoidFunction)tile_CreateInstance;
    instance_data *d = instance ? find_instance(key_of(instance)) : NULL;
    if (!d)
        return NULL;
    PFN_vkVoidFunction next = d->gipa(instance, name);
    PFN_vkVoidFunction fn = lookup(instance_fns, COUNT(instance_fns), name);
    if (!fn)
        fn = lookup(device_fns, COUNT(device_fns), name);
    return fn && next ? fn : next;
}

EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v)
{
    if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT || v->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    v->loaderLayerInterfaceVersion = 2;
    v->pfnGetInstanceProcAddr = tile_GetInstanceProcAddr;
    v->pfnGetDeviceProcAddr = tile_GetDeviceProcAddr;
    v->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    return tile_GetInstanceProcAddr(instance, name);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name)
{
    return tile_GetDeviceProcAddr(device, name);
}
