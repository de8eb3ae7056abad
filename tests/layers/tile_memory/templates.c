/* The descriptor-use memoryless rule for descriptor update templates: the
 * layer keeps each template's image entries (type, binding, count, offset,
 * stride) so that vkUpdateDescriptorSetWithTemplate and
 * vkCmdPushDescriptorSetWithTemplateKHR can find the image views in the
 * application's raw data and check them like vkUpdateDescriptorSets'. */
#include "layer.h"

#include <stdlib.h>

typedef struct template_entries {
    uint32_t count;
    VkDescriptorUpdateTemplateEntry entries[]; /* image entries only */
} template_entries;

VKAPI_ATTR VkResult VKAPI_CALL tile_CreateDescriptorUpdateTemplate(VkDevice device,
                                                                   const VkDescriptorUpdateTemplateCreateInfo *ci,
                                                                   const VkAllocationCallbacks *alloc,
                                                                   VkDescriptorUpdateTemplate *out)
{
    device_data *d = tile_find_device(tile_key(device));
    VkResult vr = d->create_template(device, ci, alloc, out);
    if (vr != VK_SUCCESS)
        return vr;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ci->descriptorUpdateEntryCount; i++)
        n += tile_descriptor_needs_memory(ci->pDescriptorUpdateEntries[i].descriptorType);
    if (n == 0)
        return VK_SUCCESS; /* nothing to check: not kept */
    template_entries *t = malloc(sizeof *t + n * sizeof t->entries[0]);
    bool ok = t != NULL;
    if (ok) {
        t->count = 0;
        for (uint32_t i = 0; i < ci->descriptorUpdateEntryCount; i++)
            if (tile_descriptor_needs_memory(ci->pDescriptorUpdateEntries[i].descriptorType))
                t->entries[t->count++] = ci->pDescriptorUpdateEntries[i];
        pthread_mutex_lock(&d->lock);
        ok = tile_map_put(&d->templates, (uint64_t)*out, (uint64_t)(uintptr_t)t);
        pthread_mutex_unlock(&d->lock);
    }
    if (!ok) {
        free(t);
        d->destroy_template(device, *out, alloc);
        *out = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

/* Frees what the layer kept for every template still in the map (the
 * application destroys its device without destroying them first). */
void tile_templates_clear(device_data *d)
{
    for (uint32_t b = 0; b < TILE_MAP_BUCKETS; b++)
        for (tile_map_entry *e = d->templates.buckets[b]; e; e = e->next)
            free((void *)(uintptr_t)e->value);
    tile_map_clear(&d->templates);
}

VKAPI_ATTR void VKAPI_CALL tile_DestroyDescriptorUpdateTemplate(VkDevice device, VkDescriptorUpdateTemplate tmpl,
                                                                const VkAllocationCallbacks *alloc)
{
    device_data *d = tile_find_device(tile_key(device));
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    if (tmpl && tile_map_get(&d->templates, (uint64_t)tmpl, &v))
        tile_map_remove(&d->templates, (uint64_t)tmpl);
    pthread_mutex_unlock(&d->lock);
    free((void *)(uintptr_t)v);
    d->destroy_template(device, tmpl, alloc);
}

static void check_template(device_data *d, VkDescriptorUpdateTemplate tmpl, const void *data, const char *command)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    bool kept = tile_map_get(&d->templates, (uint64_t)tmpl, &v);
    pthread_mutex_unlock(&d->lock);
    if (!kept || !data)
        return;
    /* Templates are immutable and outlive their use: read without the lock. */
    const template_entries *t = (const template_entries *)(uintptr_t)v;
    for (uint32_t e = 0; e < t->count; e++) {
        const VkDescriptorUpdateTemplateEntry *en = &t->entries[e];
        for (uint32_t i = 0; i < en->descriptorCount; i++) {
            const VkDescriptorImageInfo *info =
                (const VkDescriptorImageInfo *)((const char *)data + en->offset + (size_t)i * en->stride);
            tile_check_descriptor(d, command, e, en->dstBinding, en->dstArrayElement + i, en->descriptorType,
                                  info->imageView);
        }
    }
}

VKAPI_ATTR void VKAPI_CALL tile_UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                                VkDescriptorUpdateTemplate tmpl, const void *data)
{
    device_data *d = tile_find_device(tile_key(device));
    check_template(d, tmpl, data, "vkUpdateDescriptorSetWithTemplate");
    d->update_with_template(device, set, tmpl, data);
}

VKAPI_ATTR void VKAPI_CALL tile_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cmd,
                                                                    VkDescriptorUpdateTemplate tmpl,
                                                                    VkPipelineLayout layout, uint32_t set,
                                                                    const void *data)
{
    device_data *d = tile_find_device(tile_key(cmd));
    check_template(d, tmpl, data, "vkCmdPushDescriptorSetWithTemplateKHR");
    d->push_with_template(cmd, tmpl, layout, set, data);
}
