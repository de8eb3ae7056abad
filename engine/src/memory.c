/* Device memory: allocation through the engine's memory-type choice, and the
 * VK_EXT_memory_budget query. */
#include "internal.h"

#include <string.h>

eng_result eng__allocate(eng_context *ctx, const char *what, const VkMemoryRequirements *req,
                         VkMemoryPropertyFlags required, bool transient,
                         VkDeviceMemory *out_memory, uint32_t *out_type)
{
    uint32_t type = 0;
    eng_result res = eng_choose_memory_type(eng_context_memory_properties(ctx), req->memoryTypeBits,
                                            required, transient, &type);
    if (res != ENG_SUCCESS) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", eng_last_error());
        return eng__fail(res, "%s: %s", what, msg);
    }
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req->size,
        .memoryTypeIndex = type,
    };
    const eng__vk *vk = eng__vk_of(ctx);
    VkResult vr = vk->AllocateMemory(eng_context_device(ctx), &ai, vk->allocator, out_memory);
    if (vr != VK_SUCCESS) {
        char call[256];
        snprintf(call, sizeof call, "%s: vkAllocateMemory(%llu bytes, type %u)", what,
                 (unsigned long long)req->size, type);
        return eng__vk_fail(vr, call);
    }
    *out_type = type;
    return ENG_SUCCESS;
}

eng_result eng_memory_budget_query(const eng_context *ctx, eng_memory_budget *out)
{
    if (!ctx || !out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_memory_budget_query: NULL argument");
    memset(out, 0, sizeof *out);
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(ctx);
    out->heap_count = mp->memoryHeapCount;
    for (uint32_t i = 0; i < mp->memoryHeapCount; i++)
        out->heap_size[i] = mp->memoryHeaps[i].size;
    if (!eng_context_has_memory_budget(ctx))
        return ENG_SUCCESS; /* available stays false: unknown, not zero */
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT,
    };
    VkPhysicalDeviceMemoryProperties2 mp2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
        .pNext = &budget,
    };
    eng__vk_of(ctx)->GetPhysicalDeviceMemoryProperties2(eng_context_physical_device(ctx), &mp2);
    out->available = true;
    for (uint32_t i = 0; i < out->heap_count; i++) {
        out->usage[i] = budget.heapUsage[i];
        out->budget[i] = budget.heapBudget[i];
    }
    return ENG_SUCCESS;
}
