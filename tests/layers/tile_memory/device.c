/* VK_LAYER_VKGRAPH_tile_memory's devices: vkCreateDevice (the next
 * layer's functions, the memory types, VK_EXT_memory_budget kept from the
 * driver where the layer emulates it), vkDestroyDevice, and the device
 * extensions with the emulated budget added. */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- VK_EXT_memory_budget */

static bool driver_has_budget(instance_data *inst, VkPhysicalDevice pd)
{
    uint32_t n = 0;
    if (!inst->enumerate_device_extensions || inst->enumerate_device_extensions(pd, NULL, &n, NULL) != VK_SUCCESS)
        return false;
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    if (!props)
        return false;
    bool found = false;
    if (inst->enumerate_device_extensions(pd, NULL, &n, props) >= 0)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(props[i].extensionName, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME) == 0;
    free(props);
    return found;
}

static bool wants_emulated_budget(instance_data *inst, VkPhysicalDevice pd, const VkDeviceCreateInfo *ci)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (strcmp(ci->ppEnabledExtensionNames[i], VK_EXT_MEMORY_BUDGET_EXTENSION_NAME) == 0)
            return !driver_has_budget(inst, pd);
    return false;
}

static const VkExtensionProperties budget_extension = { VK_EXT_MEMORY_BUDGET_EXTENSION_NAME,
                                                        VK_EXT_MEMORY_BUDGET_SPEC_VERSION };

/* The device's extensions plus VK_EXT_memory_budget where the driver lacks
 * it (answered from the layer's tracking); the layer's own list when asked
 * by name (the manifest says the same, for the loader). */
VKAPI_ATTR VkResult VKAPI_CALL tile_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer,
                                                                     uint32_t *count, VkExtensionProperties *props)
{
    if (layer && strcmp(layer, LAYER_NAME) == 0) {
        if (!props) {
            *count = 1;
            return VK_SUCCESS;
        }
        if (*count < 1)
            return VK_INCOMPLETE;
        props[0] = budget_extension;
        *count = 1;
        return VK_SUCCESS;
    }
    instance_data *inst = tile_find_instance(tile_key(pd));
    if (layer || driver_has_budget(inst, pd))
        return inst->enumerate_device_extensions(pd, layer, count, props);
    uint32_t n = 0;
    VkResult vr = inst->enumerate_device_extensions(pd, NULL, &n, NULL);
    if (vr != VK_SUCCESS)
        return vr;
    if (!props) {
        *count = n + 1;
        return VK_SUCCESS;
    }
    uint32_t room = *count;
    uint32_t driver = room < n ? room : n;
    vr = inst->enumerate_device_extensions(pd, NULL, &driver, props);
    if (vr < 0)
        return vr;
    if (driver < n || room < n + 1) {
        *count = driver;
        return VK_INCOMPLETE;
    }
    props[n] = budget_extension;
    *count = n + 1;
    return VK_SUCCESS;
}

/* --------------------------------------------------------------- device */

VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *ci,
                                                 const VkAllocationCallbacks *alloc, VkDevice *out)
{
    instance_data *inst = tile_find_instance(tile_key(pd));
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
    /* VK_EXT_memory_budget offered by the layer, not the driver: the driver
     * must not see it enabled. */
    bool emulated = wants_emulated_budget(inst, pd, ci);
    const char *names[256];
    VkDeviceCreateInfo real = *ci;
    if (emulated) {
        if (ci->enabledExtensionCount > 256) {
            free(d);
            return VK_ERROR_INITIALIZATION_FAILED;
        }
        real.enabledExtensionCount = 0;
        for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
            if (strcmp(ci->ppEnabledExtensionNames[i], VK_EXT_MEMORY_BUDGET_EXTENSION_NAME) != 0)
                names[real.enabledExtensionCount++] = ci->ppEnabledExtensionNames[i];
        real.ppEnabledExtensionNames = names;
    }
    VkResult vr = create(pd, &real, alloc, out);
    if (vr != VK_SUCCESS) {
        free(d);
        return vr;
    }
    VkPhysicalDeviceMemoryProperties mp;
    inst->get_memory_properties(pd, &mp);
    tile_memory_device_created(d, &mp);
    d->emulated_budget = emulated;
    d->physical = pd;
    d->node.key = tile_key(*out);
    d->device = *out;
    d->instance = inst;
    d->gdpa = gdpa;
#define GET(field, type, name) d->field = (type)gdpa(*out, name)
/* The core name, else (Vulkan 1.1-1.2 devices, or where an extension
 * brought it) the extension's. */
#define GET_KHR(field, type, name)                                                                                 \
    do {                                                                                                           \
        GET(field, type, name);                                                                                    \
        if (!d->field)                                                                                             \
            GET(field, type, name "KHR");                                                                          \
    } while (0)
    GET(destroy_device, PFN_vkDestroyDevice, "vkDestroyDevice");
    GET(create_image, PFN_vkCreateImage, "vkCreateImage");
    GET(destroy_image, PFN_vkDestroyImage, "vkDestroyImage");
    GET(create_view, PFN_vkCreateImageView, "vkCreateImageView");
    GET(destroy_view, PFN_vkDestroyImageView, "vkDestroyImageView");
    GET(image_reqs, PFN_vkGetImageMemoryRequirements, "vkGetImageMemoryRequirements");
    GET_KHR(image_reqs2, PFN_vkGetImageMemoryRequirements2, "vkGetImageMemoryRequirements2");
    GET_KHR(device_image_reqs, PFN_vkGetDeviceImageMemoryRequirements, "vkGetDeviceImageMemoryRequirements");
    GET(allocate, PFN_vkAllocateMemory, "vkAllocateMemory");
    GET(free_memory, PFN_vkFreeMemory, "vkFreeMemory");
    GET(commitment, PFN_vkGetDeviceMemoryCommitment, "vkGetDeviceMemoryCommitment");
    GET(bind_image, PFN_vkBindImageMemory, "vkBindImageMemory");
    GET_KHR(bind_image2, PFN_vkBindImageMemory2, "vkBindImageMemory2");
    GET_KHR(begin_rendering, PFN_vkCmdBeginRendering, "vkCmdBeginRendering");
    GET(copy_image, PFN_vkCmdCopyImage, "vkCmdCopyImage");
    GET_KHR(copy_image2, PFN_vkCmdCopyImage2, "vkCmdCopyImage2");
    GET(copy_image_to_buffer, PFN_vkCmdCopyImageToBuffer, "vkCmdCopyImageToBuffer");
    GET_KHR(copy_image_to_buffer2, PFN_vkCmdCopyImageToBuffer2, "vkCmdCopyImageToBuffer2");
    GET(copy_buffer_to_image, PFN_vkCmdCopyBufferToImage, "vkCmdCopyBufferToImage");
    GET_KHR(copy_buffer_to_image2, PFN_vkCmdCopyBufferToImage2, "vkCmdCopyBufferToImage2");
    GET(blit_image, PFN_vkCmdBlitImage, "vkCmdBlitImage");
    GET_KHR(blit_image2, PFN_vkCmdBlitImage2, "vkCmdBlitImage2");
    GET(clear_color, PFN_vkCmdClearColorImage, "vkCmdClearColorImage");
    GET(clear_depth, PFN_vkCmdClearDepthStencilImage, "vkCmdClearDepthStencilImage");
    GET(update_descriptor_sets, PFN_vkUpdateDescriptorSets, "vkUpdateDescriptorSets");
    GET(push_descriptor_set, PFN_vkCmdPushDescriptorSetKHR, "vkCmdPushDescriptorSetKHR");
    GET_KHR(create_template, PFN_vkCreateDescriptorUpdateTemplate, "vkCreateDescriptorUpdateTemplate");
    GET_KHR(destroy_template, PFN_vkDestroyDescriptorUpdateTemplate, "vkDestroyDescriptorUpdateTemplate");
    GET_KHR(update_with_template, PFN_vkUpdateDescriptorSetWithTemplate, "vkUpdateDescriptorSetWithTemplate");
    GET(push_with_template, PFN_vkCmdPushDescriptorSetWithTemplateKHR, "vkCmdPushDescriptorSetWithTemplateKHR");
    GET(queue_submit, PFN_vkQueueSubmit, "vkQueueSubmit");
    GET_KHR(queue_submit2, PFN_vkQueueSubmit2, "vkQueueSubmit2");
    GET(acquire_next_image, PFN_vkAcquireNextImageKHR, "vkAcquireNextImageKHR");
    GET(queue_present, PFN_vkQueuePresentKHR, "vkQueuePresentKHR");
    GET(set_object_name, PFN_vkSetDebugUtilsObjectNameEXT, "vkSetDebugUtilsObjectNameEXT");
    GET(begin_command_buffer, PFN_vkBeginCommandBuffer, "vkBeginCommandBuffer");
    GET_KHR(end_rendering, PFN_vkCmdEndRendering, "vkCmdEndRendering");
    GET_KHR(set_locations, PFN_vkCmdSetRenderingAttachmentLocationsKHR, "vkCmdSetRenderingAttachmentLocations");
    GET_KHR(set_input_indices, PFN_vkCmdSetRenderingInputAttachmentIndicesKHR, "vkCmdSetRenderingInputAttachmentIndices");
    GET(pipeline_barrier, PFN_vkCmdPipelineBarrier, "vkCmdPipelineBarrier");
    GET_KHR(pipeline_barrier2, PFN_vkCmdPipelineBarrier2, "vkCmdPipelineBarrier2");
    GET(draw, PFN_vkCmdDraw, "vkCmdDraw");
    GET(draw_indexed, PFN_vkCmdDrawIndexed, "vkCmdDrawIndexed");
    GET(draw_indirect, PFN_vkCmdDrawIndirect, "vkCmdDrawIndirect");
    GET(draw_indexed_indirect, PFN_vkCmdDrawIndexedIndirect, "vkCmdDrawIndexedIndirect");
    GET_KHR(draw_indirect_count, PFN_vkCmdDrawIndirectCount, "vkCmdDrawIndirectCount");
    GET_KHR(draw_indexed_indirect_count, PFN_vkCmdDrawIndexedIndirectCount, "vkCmdDrawIndexedIndirectCount");
    GET(execute_commands, PFN_vkCmdExecuteCommands, "vkCmdExecuteCommands");
#undef GET_KHR
#undef GET
    pthread_mutex_init(&d->lock, NULL);
    tile_faults_reset(d);
    tile_profile_reset(d);
    tile_lost_reset();
    tile_moltenvk_reset(d);
    tile_device_add(d);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tile_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    device_data *d = tile_device_take(tile_key(device));
    if (!d)
        return;
    d->destroy_device(device, alloc);
    tile_profile_finish(d);
    tile_map_clear(&d->images);
    tile_map_clear(&d->views);
    tile_map_clear(&d->view_formats);
    tile_map_clear(&d->memory);
    tile_templates_clear(d);
    tile_moltenvk_clear(d);
    pthread_mutex_destroy(&d->lock);
    free(d);
}
