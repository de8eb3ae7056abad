/* The application's Vulkan device (rg_device): every function the library
 * calls, loaded through the application's vkGetInstanceProcAddr (so the
 * loader, volk or the application's own dispatch serve it alike), the
 * properties placement and compile read, and the queues graphs run on.
 * Calls no other file of the library. */
#include "graph_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static rg_result device_fail(const rg_device_desc *desc, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static rg_result device_fail(const rg_device_desc *desc, rg_result r, const char *fmt, ...)
{
    if (desc && desc->log) {
        char message[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, sizeof message, fmt, ap);
        va_end(ap);
        desc->log(desc->log_user, RG_LOG_ERROR, "device", message);
    }
    return r;
}

/* The instance's functions, then the device's through the
 * vkGetDeviceProcAddr the instance gave; the name of the first one missing
 * (NULL: none). */
static const char *load(rg_device *d, PFN_vkGetInstanceProcAddr gipa, bool local_read)
{
#define RG__LOAD_INSTANCE(name)                                                                                   \
    if (!(d->vk.name = (PFN_vk##name)gipa(d->instance, "vk" #name)))                                              \
        return "vk" #name;
    RG__VK_INSTANCE_FUNCTIONS(RG__LOAD_INSTANCE)
#undef RG__LOAD_INSTANCE
#define RG__LOAD_DEVICE(name)                                                                                     \
    if (!(d->vk.name = (PFN_vk##name)d->vk.GetDeviceProcAddr(d->device, "vk" #name)))                             \
        return "vk" #name;
    RG__VK_DEVICE_FUNCTIONS(RG__LOAD_DEVICE)
#undef RG__LOAD_DEVICE
    if (local_read) {
        d->vk.CmdSetRenderingAttachmentLocationsKHR = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)
            d->vk.GetDeviceProcAddr(d->device, "vkCmdSetRenderingAttachmentLocationsKHR");
        d->vk.CmdSetRenderingInputAttachmentIndicesKHR = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)
            d->vk.GetDeviceProcAddr(d->device, "vkCmdSetRenderingInputAttachmentIndicesKHR");
        if (!d->vk.CmdSetRenderingAttachmentLocationsKHR)
            return "vkCmdSetRenderingAttachmentLocationsKHR (local_read is set)";
        if (!d->vk.CmdSetRenderingInputAttachmentIndicesKHR)
            return "vkCmdSetRenderingInputAttachmentIndicesKHR (local_read is set)";
    }
    return NULL;
}

/* What compile needs of the device: limits, the driver (for the merge
 * policy), local read as enabled, with the attachments it covers where a
 * 1.4 property says so (Mesa 25 lavapipe offers the extension yet reports
 * both properties VK_FALSE, so nothing beyond them is assumed), and the
 * queues besides graphics. */
static void read_caps(rg_device *d, uint32_t api_version, bool local_read)
{
    d->vk.GetPhysicalDeviceProperties(d->physical, &d->properties);
    d->vk.GetPhysicalDeviceMemoryProperties(d->physical, &d->memory);
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    /* A newer version's core properties may be asked for only where both
     * the device and the instance reach it. */
    uint32_t version = d->properties.apiVersion < api_version ? d->properties.apiVersion : api_version;
#ifdef VK_VERSION_1_4
    VkPhysicalDeviceVulkan14Properties p14 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_PROPERTIES};
    bool have_p14 = version >= VK_API_VERSION_1_4;
    if (have_p14)
        driver.pNext = &p14;
#else
    (void)version;
#endif
    d->vk.GetPhysicalDeviceProperties2(d->physical, &p2);
    const VkPhysicalDeviceLimits *lim = &d->properties.limits;
    d->caps = (rg_device_caps){
        .local_read = local_read,
        .max_color_attachments = lim->maxColorAttachments,
        .max_input_attachments = lim->maxPerStageDescriptorInputAttachments,
        .driver = driver.driverID,
        .compute_queue = d->queues[RG_QUEUE_COMPUTE].queue != VK_NULL_HANDLE,
        .transfer_queue = d->queues[RG_QUEUE_TRANSFER].queue != VK_NULL_HANDLE,
    };
#ifdef VK_VERSION_1_4
    if (local_read && have_p14) {
        d->caps.local_read_depth_stencil = p14.dynamicRenderingLocalReadDepthStencilAttachments;
        d->caps.local_read_multisampled = p14.dynamicRenderingLocalReadMultisampledAttachments;
    }
#endif
}

rg_result rg_device_create(const rg_device_desc *desc, rg_device **out)
{
    if (!out)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: out is NULL");
    *out = NULL;
    if (!desc)
        return RG_ERROR_INVALID_ARGUMENT;
    const char *missing = !desc->instance                                    ? "instance"
                          : !desc->physical_device                           ? "physical_device"
                          : !desc->device                                    ? "device"
                          : !desc->get_instance_proc_addr                    ? "get_instance_proc_addr"
                          : !desc->queues[RG_QUEUE_GRAPHICS].queue           ? "queues[RG_QUEUE_GRAPHICS].queue"
                                                                             : NULL;
    if (missing)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: %s is required", missing);
    uint32_t api_version = desc->api_version ? desc->api_version : VK_API_VERSION_1_3;
    if (api_version < VK_API_VERSION_1_3)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: api_version %u.%u is below 1.3 "
                           "(the graph records with dynamic rendering and synchronization2)",
                           VK_API_VERSION_MAJOR(api_version), VK_API_VERSION_MINOR(api_version));
    rg_allocator alloc;
    if (!rg__allocator_resolve(desc->allocator, NULL, &alloc))
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: allocator given without all three "
                           "functions (alloc, realloc, free)");
    rg_device *d = alloc.alloc(alloc.user, sizeof *d);
    if (!d)
        return device_fail(desc, RG_ERROR_OUT_OF_MEMORY, "rg_device_create: out of host memory");
    memset(d, 0, sizeof *d);
    d->alloc = alloc;
    d->vk_alloc = desc->vk_allocator;
    d->instance = desc->instance;
    d->physical = desc->physical_device;
    d->device = desc->device;
    d->log = desc->log;
    d->log_user = desc->log_user;
    d->queues[RG_QUEUE_GRAPHICS] = desc->queues[RG_QUEUE_GRAPHICS];
    /* Work on another queue waits for timeline semaphores. */
    if (desc->timeline_semaphore)
        for (uint32_t q = RG_QUEUE_COMPUTE; q < RG_QUEUE_COUNT; q++)
            d->queues[q] = desc->queues[q];
    missing = load(d, desc->get_instance_proc_addr, desc->local_read);
    if (missing) {
        rg_device_destroy(d);
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: %s not found through "
                           "get_instance_proc_addr", missing);
    }
    read_caps(d, api_version, desc->local_read);
    uint32_t offered = d->properties.apiVersion;
    if (offered < VK_API_VERSION_1_3) {
        rg_device_destroy(d);
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: the device offers Vulkan %u.%u, "
                           "below 1.3", VK_API_VERSION_MAJOR(offered), VK_API_VERSION_MINOR(offered));
    }
    *out = d;
    return RG_SUCCESS;
}

void rg_device_destroy(rg_device *device)
{
    if (device)
        device->alloc.free(device->alloc.user, device);
}

rg_device_caps rg_device_get_caps(const rg_device *device)
{
    return device ? device->caps : (rg_device_caps){0};
}

VkDevice rg_device_handle(const rg_device *device) { return device ? device->device : VK_NULL_HANDLE; }
