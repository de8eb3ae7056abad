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
 *     debug-utils messengers, as is a lazy image bound to a sampled,
 *     combined or storage descriptor (written directly, pushed or through an
 *     update template);
 *   - VK_EXT_memory_budget: lazy allocations are left out of heap usage;
 *     where the driver lacks the extension the layer offers it and answers
 *     from its own tracking of live allocations (an emulation);
 *   - fault injection: VKGRAPH_TILE_FAIL_ALLOC=N fails the Nth
 *     vkAllocateMemory after the latest vkCreateDevice, and
 *     VKGRAPH_TILE_FAIL_BYTES=B fails any allocation that would take the
 *     device's live real (non-lazy) memory above B bytes;
 *   - loss injection: VKGRAPH_TILE_LOSE_DEVICE=N and
 *     VKGRAPH_TILE_LOSE_SURFACE=N make submissions, or acquires and
 *     presents, fail from the Nth on as a lost device or surface would;
 *   - MoltenVK's local read: VKGRAPH_TILE_MOLTENVK=1 reports a lazy
 *     attachment whose contents are needed across a local-read barrier
 *     (vkCmdPipelineBarrier2 or vkCmdPipelineBarrier inside vkCmdBeginRendering
 *     .. vkCmdEndRendering): MoltenVK restarts the render pass there and
 *     discards memoryless attachments (rules.c says when contents count as
 *     needed). Only then does the layer intercept draws, barriers and the
 *     local-read commands; otherwise VK_KHR_dynamic_rendering_local_read, its
 *     feature struct and its commands pass through untouched, as does every
 *     extension and pNext chain the layer does not name above.
 *
 * It emulates accounting and rules, not tile hardware speed. Enable it below
 * the validation layer (listed after it in ppEnabledLayerNames) so that
 * validation sees the emulated type. Real type indices pass through
 * unchanged: only the added index is translated.
 *
 * This file: the loader interface, instances and messengers; device.c:
 * devices and the device extensions;
 * memory.c: memory types, allocations, budget, faults; rules.c: the
 * memoryless rules and MoltenVK's local-read rule (templates.c for update
 * templates); lost.c: device and surface loss. */
#include "layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static tile_node *instances;
static tile_node *devices;

/* The lists of instances and devices, under the global lock. */
static tile_node *list_find(tile_node *const *list, void *key)
{
    pthread_mutex_lock(&global_lock);
    tile_node *n = *list;
    while (n && n->key != key)
        n = n->next;
    pthread_mutex_unlock(&global_lock);
    return n;
}

static void list_add(tile_node **list, tile_node *n)
{
    pthread_mutex_lock(&global_lock);
    n->next = *list;
    *list = n;
    pthread_mutex_unlock(&global_lock);
}

static tile_node *list_take(tile_node **list, void *key)
{
    pthread_mutex_lock(&global_lock);
    tile_node *n = NULL;
    for (tile_node **p = list; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            n = *p;
            *p = n->next;
            break;
        }
    }
    pthread_mutex_unlock(&global_lock);
    return n;
}

instance_data *tile_find_instance(void *key) { return (instance_data *)list_find(&instances, key); }
device_data *tile_find_device(void *key) { return (device_data *)list_find(&devices, key); }
void tile_device_add(device_data *d) { list_add(&devices, &d->node); }
device_data *tile_device_take(void *key) { return (device_data *)list_take(&devices, key); }

void tile_for_each_device(VkPhysicalDevice physical, void (*fn)(device_data *d, void *user), void *user)
{
    pthread_mutex_lock(&global_lock);
    for (tile_node *n = devices; n; n = n->next)
        if (((device_data *)n)->physical == physical)
            fn((device_data *)n, user);
    pthread_mutex_unlock(&global_lock);
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
    d->node.key = tile_key(*out);
    d->instance = *out;
    d->gipa = gipa;
#define GET(field, type, name) d->field = (type)gipa(*out, name)
    GET(destroy_instance, PFN_vkDestroyInstance, "vkDestroyInstance");
    GET(get_memory_properties, PFN_vkGetPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties");
    GET(get_memory_properties2, PFN_vkGetPhysicalDeviceMemoryProperties2, "vkGetPhysicalDeviceMemoryProperties2");
    if (!d->get_memory_properties2)
        GET(get_memory_properties2, PFN_vkGetPhysicalDeviceMemoryProperties2,
            "vkGetPhysicalDeviceMemoryProperties2KHR");
    GET(get_properties, PFN_vkGetPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties");
    GET(create_device, PFN_vkCreateDevice, "vkCreateDevice");
    GET(enumerate_device_extensions, PFN_vkEnumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties");
    GET(create_messenger, PFN_vkCreateDebugUtilsMessengerEXT, "vkCreateDebugUtilsMessengerEXT");
    GET(destroy_messenger, PFN_vkDestroyDebugUtilsMessengerEXT, "vkDestroyDebugUtilsMessengerEXT");
#undef GET
    pthread_mutex_init(&d->lock, NULL);
    list_add(&instances, &d->node);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL tile_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    instance_data *d = (instance_data *)list_take(&instances, tile_key(instance));
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

static VKAPI_ATTR void VKAPI_CALL tile_GetPhysicalDeviceMemoryProperties(VkPhysicalDevice pd,
                                                                        VkPhysicalDeviceMemoryProperties *p)
{
    tile_find_instance(tile_key(pd))->get_memory_properties(pd, p);
    tile_add_lazy_type(p);
}

static VKAPI_ATTR void VKAPI_CALL tile_GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice pd,
                                                                         VkPhysicalDeviceMemoryProperties2 *p)
{
    instance_data *inst = tile_find_instance(tile_key(pd));
    inst->get_memory_properties2(pd, p);
    tile_fill_budget(inst, pd, p); /* before the lazy type: heap counts are the driver's */
    tile_add_lazy_type(&p->memoryProperties);
}

static VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                                       const VkDebugUtilsMessengerCreateInfoEXT *ci,
                                                                       const VkAllocationCallbacks *alloc,
                                                                       VkDebugUtilsMessengerEXT *out)
{
    instance_data *d = tile_find_instance(tile_key(instance));
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
    instance_data *d = tile_find_instance(tile_key(instance));
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

void tile_report(instance_data *inst, const char *id, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 const char *text)
{
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = id,
        .pMessage = text,
    };
    pthread_mutex_lock(&inst->lock);
    for (messenger *m = inst->messengers; m; m = m->next) {
        if ((m->info.messageSeverity & severity) &&
            (m->info.messageType & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT))
            m->info.pfnUserCallback(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data,
                                    m->info.pUserData);
    }
    pthread_mutex_unlock(&inst->lock);
}

void tile_report_error(instance_data *inst, const char *text)
{
    tile_report(inst, RULE_ID, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, text);
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
    FN("vkUpdateDescriptorSets", tile_UpdateDescriptorSets),
    FN("vkCmdPushDescriptorSetKHR", tile_CmdPushDescriptorSetKHR),
    FN("vkCreateDescriptorUpdateTemplate", tile_CreateDescriptorUpdateTemplate),
    FN("vkCreateDescriptorUpdateTemplateKHR", tile_CreateDescriptorUpdateTemplate),
    FN("vkDestroyDescriptorUpdateTemplate", tile_DestroyDescriptorUpdateTemplate),
    FN("vkDestroyDescriptorUpdateTemplateKHR", tile_DestroyDescriptorUpdateTemplate),
    FN("vkUpdateDescriptorSetWithTemplate", tile_UpdateDescriptorSetWithTemplate),
    FN("vkUpdateDescriptorSetWithTemplateKHR", tile_UpdateDescriptorSetWithTemplate),
    FN("vkCmdPushDescriptorSetWithTemplateKHR", tile_CmdPushDescriptorSetWithTemplateKHR),
    FN("vkQueueSubmit", tile_QueueSubmit),
    FN("vkQueueSubmit2", tile_QueueSubmit2),
    FN("vkQueueSubmit2KHR", tile_QueueSubmit2),
    FN("vkAcquireNextImageKHR", tile_AcquireNextImageKHR),
    FN("vkQueuePresentKHR", tile_QueuePresentKHR),
};
/* Handed out by vkGetDeviceProcAddr only to devices in MoltenVK mode
 * (VKGRAPH_TILE_MOLTENVK=1): other devices call the next layer's directly,
 * draws included. Through vkGetInstanceProcAddr they pass by unless the
 * device is in that mode. */
static const intercept moltenvk_fns[] = {
    FN("vkSetDebugUtilsObjectNameEXT", tile_SetDebugUtilsObjectNameEXT),
    FN("vkBeginCommandBuffer", tile_BeginCommandBuffer),
    FN("vkCmdEndRendering", tile_CmdEndRendering),
    FN("vkCmdEndRenderingKHR", tile_CmdEndRendering),
    FN("vkCmdSetRenderingAttachmentLocations", tile_CmdSetRenderingAttachmentLocationsKHR),
    FN("vkCmdSetRenderingAttachmentLocationsKHR", tile_CmdSetRenderingAttachmentLocationsKHR),
    FN("vkCmdSetRenderingInputAttachmentIndices", tile_CmdSetRenderingInputAttachmentIndicesKHR),
    FN("vkCmdSetRenderingInputAttachmentIndicesKHR", tile_CmdSetRenderingInputAttachmentIndicesKHR),
    FN("vkCmdPipelineBarrier", tile_CmdPipelineBarrier),
    FN("vkCmdPipelineBarrier2", tile_CmdPipelineBarrier2),
    FN("vkCmdPipelineBarrier2KHR", tile_CmdPipelineBarrier2),
    FN("vkCmdDraw", tile_CmdDraw),
    FN("vkCmdDrawIndexed", tile_CmdDrawIndexed),
    FN("vkCmdDrawIndirect", tile_CmdDrawIndirect),
    FN("vkCmdDrawIndexedIndirect", tile_CmdDrawIndexedIndirect),
    FN("vkCmdDrawIndirectCount", tile_CmdDrawIndirectCount),
    FN("vkCmdDrawIndirectCountKHR", tile_CmdDrawIndirectCount),
    FN("vkCmdDrawIndexedIndirectCount", tile_CmdDrawIndexedIndirectCount),
    FN("vkCmdDrawIndexedIndirectCountKHR", tile_CmdDrawIndexedIndirectCount),
    FN("vkCmdExecuteCommands", tile_CmdExecuteCommands),
};
static const intercept instance_fns[] = {
    FN("vkCreateInstance", tile_CreateInstance),
    FN("vkDestroyInstance", tile_DestroyInstance),
    FN("vkCreateDevice", tile_CreateDevice),
    FN("vkEnumerateDeviceExtensionProperties", tile_EnumerateDeviceExtensionProperties),
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
    device_data *d = device ? tile_find_device(tile_key(device)) : NULL;
    if (!d)
        return NULL;
    PFN_vkVoidFunction fn = lookup(device_fns, COUNT(device_fns), name);
    if (!fn && d->moltenvk)
        fn = lookup(moltenvk_fns, COUNT(moltenvk_fns), name);
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
    instance_data *d = instance ? tile_find_instance(tile_key(instance)) : NULL;
    if (!d)
        return NULL;
    PFN_vkVoidFunction next = d->gipa(instance, name);
    PFN_vkVoidFunction fn = lookup(instance_fns, COUNT(instance_fns), name);
    if (!fn)
        fn = lookup(device_fns, COUNT(device_fns), name);
    if (!fn)
        fn = lookup(moltenvk_fns, COUNT(moltenvk_fns), name);
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
