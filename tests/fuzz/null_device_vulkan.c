/* The null device's device and instance entry points: memory, buffers,
 * images and views made as numbered handles, memory requirements from the
 * create info, submissions and queries that succeed at once, and a
 * physical device with a real device's memory-type table and every format
 * feature. */
#include "null_device_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VkResult VKAPI_CALL allocate_memory(VkDevice d, const VkMemoryAllocateInfo *ai, const VkAllocationCallbacks *a,
                                           VkDeviceMemory *out)
{
    (void)ai, (void)a;
    *out = HANDLE(VkDeviceMemory, nd_new_object(dev_of(d), OBJ_MEMORY));
    return VK_SUCCESS;
}

static void VKAPI_CALL free_memory(VkDevice d, VkDeviceMemory m, const VkAllocationCallbacks *a)
{
    (void)d, (void)m, (void)a;
}

static VkResult VKAPI_CALL create_buffer(VkDevice d, const VkBufferCreateInfo *ci, const VkAllocationCallbacks *a,
                                         VkBuffer *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkBuffer, nd_new_object(dev_of(d), OBJ_BUFFER));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_buffer(VkDevice d, VkBuffer b, const VkAllocationCallbacks *a)
{
    (void)d, (void)b, (void)a;
}

static VkResult VKAPI_CALL create_image(VkDevice d, const VkImageCreateInfo *ci, const VkAllocationCallbacks *a,
                                        VkImage *out)
{
    (void)a;
    *out = HANDLE(VkImage, nd_new_image(dev_of(d), ci->format, ci->mipLevels, ci->arrayLayers));
    return VK_SUCCESS;
}

/* A destroyed image or view stays in the tables, marked dead: a later call
 * naming it is logged as one the device does not hold. */
static void VKAPI_CALL destroy_image(VkDevice d, VkImage image, const VkAllocationCallbacks *a)
{
    (void)a;
    null_device *nd = dev_of(d);
    if (nd_image_of(nd, RAW(image)))
        nd->images[handle_index(RAW(image))].alive = false;
}

static VkResult VKAPI_CALL create_view(VkDevice d, const VkImageViewCreateInfo *ci, const VkAllocationCallbacks *a,
                                       VkImageView *out)
{
    (void)a;
    *out = HANDLE(VkImageView, nd_new_view(dev_of(d), ci->image, ci->subresourceRange));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_view(VkDevice d, VkImageView view, const VkAllocationCallbacks *a)
{
    (void)a;
    null_device *nd = dev_of(d);
    if (nd_view_of(nd, RAW(view)))
        nd->views[handle_index(RAW(view))].alive = false;
}

static VkResult VKAPI_CALL bind_buffers(VkDevice d, uint32_t n, const VkBindBufferMemoryInfo *b)
{
    (void)d, (void)n, (void)b;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL bind_images(VkDevice d, uint32_t n, const VkBindImageMemoryInfo *b)
{
    (void)d, (void)n, (void)b;
    return VK_SUCCESS;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return v > UINT64_MAX - a ? UINT64_MAX : (v + a - 1) / a * a; }

static uint32_t all_types(const null_device *nd)
{
    uint32_t n = nd->memory.memoryTypeCount;
    return n >= 32 ? UINT32_MAX : (1u << n) - 1u;
}

static void requirements(const null_device *nd, uint64_t size, uint64_t alignment, VkMemoryRequirements2 *out)
{
    out->memoryRequirements = (VkMemoryRequirements){align_up(size ? size : 1, alignment), alignment, all_types(nd)};
    for (VkBaseOutStructure *n = out->pNext; n; n = n->pNext)
        if (n->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
            VkMemoryDedicatedRequirements *ded = (VkMemoryDedicatedRequirements *)n;
            ded->prefersDedicatedAllocation = ded->requiresDedicatedAllocation = VK_FALSE;
        }
}

static void VKAPI_CALL buffer_requirements(VkDevice d, const VkDeviceBufferMemoryRequirements *q,
                                           VkMemoryRequirements2 *out)
{
    requirements(dev_of(d), q->pCreateInfo->size, 256, out);
}

/* Texel blocks of every mip, times layers and samples. */
static void VKAPI_CALL image_requirements(VkDevice d, const VkDeviceImageMemoryRequirements *q,
                                          VkMemoryRequirements2 *out)
{
    const VkImageCreateInfo *ci = q->pCreateInfo;
    rg_format_info fi = rg_format_get_info(ci->format);
    uint64_t block = fi.block_size ? fi.block_size : 16, bw = fi.block_width ? fi.block_width : 1,
             bh = fi.block_height ? fi.block_height : 1, size = 0;
    for (uint32_t m = 0; m < ci->mipLevels && m < 32; m++) {
        uint64_t w = ci->extent.width >> m ? ci->extent.width >> m : 1,
                 h = ci->extent.height >> m ? ci->extent.height >> m : 1;
        uint64_t bytes = sat_mul(sat_mul((w + bw - 1) / bw, (h + bh - 1) / bh), block);
        bytes = sat_mul(sat_mul(bytes, ci->arrayLayers ? ci->arrayLayers : 1), ci->samples ? ci->samples : 1);
        size = size > UINT64_MAX - bytes ? UINT64_MAX : size + bytes;
    }
    requirements(dev_of(d), size, 4096, out);
}

static VkResult VKAPI_CALL create_semaphore(VkDevice d, const VkSemaphoreCreateInfo *ci, const VkAllocationCallbacks *a,
                                            VkSemaphore *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkSemaphore, nd_new_object(dev_of(d), OBJ_SEMAPHORE));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_semaphore(VkDevice d, VkSemaphore s, const VkAllocationCallbacks *a)
{
    (void)d, (void)s, (void)a;
}

/* Remembers the command buffers, in order, for null_device_take_submitted. */
static VkResult VKAPI_CALL queue_submit(VkQueue queue, uint32_t n, const VkSubmitInfo2 *infos, VkFence fence)
{
    (void)fence;
    null_device *nd = ((nd_queue *)(void *)queue)->nd;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < infos[i].commandBufferInfoCount; k++) {
            nd->submitted = nd_grow(nd->submitted, &nd->submitted_cap, nd->submitted_count + 1, sizeof *nd->submitted);
            nd->submitted[nd->submitted_count++] = infos[i].pCommandBufferInfos[k].commandBuffer;
        }
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL create_query_pool(VkDevice d, const VkQueryPoolCreateInfo *ci,
                                             const VkAllocationCallbacks *a, VkQueryPool *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkQueryPool, nd_new_object(dev_of(d), OBJ_QUERY_POOL));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_query_pool(VkDevice d, VkQueryPool p, const VkAllocationCallbacks *a)
{
    (void)d, (void)p, (void)a;
}

/* Every query reads 0 and available. */
static VkResult VKAPI_CALL query_results(VkDevice d, VkQueryPool pool, uint32_t first, uint32_t count, size_t size,
                                         void *data, VkDeviceSize stride, VkQueryResultFlags flags)
{
    (void)d, (void)pool, (void)first;
    size_t word = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
    for (uint32_t i = 0; i < count; i++) {
        unsigned char *q = (unsigned char *)data + (size_t)i * stride;
        if ((size_t)i * stride + 2 * word > size)
            break;
        memset(q, 0, word);
        if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) {
            uint64_t one = 1;
            uint32_t one32 = 1;
            memcpy(q + word, word == 8 ? (const void *)&one : (const void *)&one32, word);
        }
    }
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL create_event(VkDevice d, const VkEventCreateInfo *ci, const VkAllocationCallbacks *a,
                                        VkEvent *out)
{
    (void)ci, (void)a;
    *out = HANDLE(VkEvent, nd_new_object(dev_of(d), OBJ_EVENT));
    return VK_SUCCESS;
}

static void VKAPI_CALL destroy_event(VkDevice d, VkEvent e, const VkAllocationCallbacks *a)
{
    (void)d, (void)e, (void)a;
}

/* The GPU is done at once: every event set, every semaphore signalled,
 * every fence too. */
static VkResult VKAPI_CALL event_status(VkDevice d, VkEvent e)
{
    (void)d, (void)e;
    return VK_EVENT_SET;
}

static VkResult VKAPI_CALL reset_event(VkDevice d, VkEvent e)
{
    (void)d, (void)e;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL semaphore_value(VkDevice d, VkSemaphore s, uint64_t *value)
{
    (void)d, (void)s;
    *value = UINT64_MAX;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL fence_status(VkDevice d, VkFence f)
{
    (void)d, (void)f;
    return VK_SUCCESS;
}

static VkResult VKAPI_CALL set_object_name(VkDevice d, const VkDebugUtilsObjectNameInfoEXT *info)
{
    (void)d, (void)info;
    return VK_SUCCESS;
}

/* Physical-device queries: Vulkan 1.3, limits a desktop GPU has. */
static void VKAPI_CALL physical_properties(VkPhysicalDevice pd, VkPhysicalDeviceProperties *p)
{
    (void)pd;
    memset(p, 0, sizeof *p);
    p->apiVersion = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
    p->driverVersion = 1;
    p->deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    snprintf(p->deviceName, sizeof p->deviceName, "null device (tests/fuzz)");
    VkPhysicalDeviceLimits *l = &p->limits;
    l->maxImageDimension2D = 16384;
    l->maxImageArrayLayers = 2048;
    l->maxColorAttachments = RG_MAX_COLOR_ATTACHMENTS;
    l->maxPerStageDescriptorInputAttachments = 8;
    l->maxFramebufferWidth = l->maxFramebufferHeight = 16384;
    l->maxFramebufferLayers = 2048;
    l->maxViewports = 16;
    l->maxViewportDimensions[0] = l->maxViewportDimensions[1] = 16384;
    l->timestampComputeAndGraphics = VK_TRUE;
    l->timestampPeriod = 1.0f;
    l->framebufferColorSampleCounts = l->framebufferDepthSampleCounts = l->framebufferStencilSampleCounts = 0x7F;
    l->nonCoherentAtomSize = 64;
    l->bufferImageGranularity = 1024;
}

static void VKAPI_CALL physical_properties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *p)
{
    physical_properties(pd, &p->properties);
    for (VkBaseOutStructure *n = p->pNext; n; n = n->pNext) {
        if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES) {
            VkPhysicalDeviceDriverProperties *d = (VkPhysicalDeviceDriverProperties *)n;
            d->driverID = VK_DRIVER_ID_MESA_LLVMPIPE;
            snprintf(d->driverName, sizeof d->driverName, "null");
        } else if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES) {
            VkPhysicalDeviceDepthStencilResolveProperties *r = (VkPhysicalDeviceDepthStencilResolveProperties *)n;
            r->supportedDepthResolveModes = r->supportedStencilResolveModes =
                VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT |
                VK_RESOLVE_MODE_MAX_BIT;
            r->independentResolveNone = r->independentResolve = VK_TRUE;
        } else if (n->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES) {
            ((VkPhysicalDeviceMaintenance4Properties *)n)->maxBufferSize = 1ull << 40;
        }
    }
}

static void VKAPI_CALL physical_memory(VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties *p)
{
    *p = ((null_device *)(void *)pd)->memory;
}

/* Every format can do everything (what the harness declares is placed). */
static void VKAPI_CALL format_properties(VkPhysicalDevice pd, VkFormat f, VkFormatProperties *p)
{
    (void)pd, (void)f;
    p->linearTilingFeatures = p->optimalTilingFeatures = UINT32_MAX;
    p->bufferFeatures = UINT32_MAX;
}

static VkResult VKAPI_CALL image_format_properties(VkPhysicalDevice pd, VkFormat f, VkImageType type,
                                                   VkImageTiling tiling, VkImageUsageFlags usage,
                                                   VkImageCreateFlags flags, VkImageFormatProperties *p)
{
    (void)pd, (void)type, (void)tiling, (void)usage, (void)flags;
    if (rg_format_get_info(f).block_size == 0)
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    *p = (VkImageFormatProperties){{16384, 16384, 1}, 15, 2048, 0x7F, 1ull << 40};
    return VK_SUCCESS;
}

static void VKAPI_CALL queue_families(VkPhysicalDevice pd, uint32_t *count, VkQueueFamilyProperties *p)
{
    (void)pd;
    static const VkQueueFlags flags[RG_QUEUE_COUNT] = {
        VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
        VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, VK_QUEUE_TRANSFER_BIT};
    if (!p) {
        *count = RG_QUEUE_COUNT;
        return;
    }
    if (*count > RG_QUEUE_COUNT)
        *count = RG_QUEUE_COUNT;
    for (uint32_t i = 0; i < *count; i++)
        p[i] = (VkQueueFamilyProperties){flags[i], 1, 64, {1, 1, 1}};
}

static const proc device_procs[] = {
    PROC("vkAllocateMemory", allocate_memory),
    PROC("vkFreeMemory", free_memory),
    PROC("vkCreateBuffer", create_buffer),
    PROC("vkDestroyBuffer", destroy_buffer),
    PROC("vkCreateImage", create_image),
    PROC("vkDestroyImage", destroy_image),
    PROC("vkCreateImageView", create_view),
    PROC("vkDestroyImageView", destroy_view),
    PROC("vkBindBufferMemory2", bind_buffers),
    PROC("vkBindImageMemory2", bind_images),
    PROC("vkGetDeviceBufferMemoryRequirements", buffer_requirements),
    PROC("vkGetDeviceImageMemoryRequirements", image_requirements),
    PROC("vkCreateSemaphore", create_semaphore),
    PROC("vkDestroySemaphore", destroy_semaphore),
    PROC("vkQueueSubmit2", queue_submit),
    PROC("vkCreateQueryPool", create_query_pool),
    PROC("vkDestroyQueryPool", destroy_query_pool),
    PROC("vkGetQueryPoolResults", query_results),
    PROC("vkCreateEvent", create_event),
    PROC("vkDestroyEvent", destroy_event),
    PROC("vkGetEventStatus", event_status),
    PROC("vkResetEvent", reset_event),
    PROC("vkGetSemaphoreCounterValue", semaphore_value),
    PROC("vkGetFenceStatus", fence_status),
};

PFN_vkVoidFunction nd_find_proc(const proc *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

static PFN_vkVoidFunction VKAPI_CALL device_proc(VkDevice d, const char *name)
{
    (void)d;
    PFN_vkVoidFunction fn = nd_find_proc(device_procs, sizeof device_procs / sizeof device_procs[0], name);
    return fn ? fn : nd_record_proc(name, false);
}

/* One physical device: the null device itself. */
static VKAPI_ATTR VkResult VKAPI_CALL enumerate_physical(VkInstance instance, uint32_t *count, VkPhysicalDevice *out)
{
    if (out && *count >= 1)
        out[0] = (VkPhysicalDevice)(void *)instance;
    else if (out)
        return VK_INCOMPLETE;
    *count = 1;
    return VK_SUCCESS;
}

static const proc instance_procs[] = {
    PROC("vkGetDeviceProcAddr", device_proc),
    PROC("vkEnumeratePhysicalDevices", enumerate_physical),
    PROC("vkGetPhysicalDeviceProperties", physical_properties),
    PROC("vkGetPhysicalDeviceProperties2", physical_properties2),
    PROC("vkGetPhysicalDeviceMemoryProperties", physical_memory),
    PROC("vkGetPhysicalDeviceFormatProperties", format_properties),
    PROC("vkGetPhysicalDeviceImageFormatProperties", image_format_properties),
    PROC("vkGetPhysicalDeviceQueueFamilyProperties", queue_families),
    PROC("vkSetDebugUtilsObjectNameEXT", set_object_name),
};

PFN_vkVoidFunction VKAPI_CALL nd_instance_proc(VkInstance instance, const char *name)
{
    (void)instance;
    PFN_vkVoidFunction fn = nd_find_proc(instance_procs, sizeof instance_procs / sizeof instance_procs[0], name);
    return fn ? fn : nd_record_proc(name, true);
}

