/* The engine's memory-type choice: the render graph's rule
 * (rg_choose_memory_type) with the engine's error, and flags as text. */
#include "internal.h"

#include <string.h>

eng_result eng_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props,
                                  uint32_t type_bits, VkMemoryPropertyFlags required,
                                  bool transient, uint32_t *out_index)
{
    if (!props || !out_index)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_choose_memory_type: NULL argument");
    if (rg_choose_memory_type(props, type_bits, required, transient, out_index))
        return ENG_SUCCESS;
    char want[128];
    eng_memory_flags_string(required ? required : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, want, sizeof want);
    return eng__fail(ENG_ERROR_NO_MEMORY_TYPE,
                     "no memory type in memoryTypeBits 0x%x has flags %s (%u types on the device)",
                     type_bits, want, props->memoryTypeCount);
}

const char *eng_memory_flags_string(VkMemoryPropertyFlags flags, char *buf, size_t size)
{
    static const struct { VkMemoryPropertyFlags bit; const char *name; } names[] = {
        { VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "DEVICE_LOCAL" },
        { VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "HOST_VISIBLE" },
        { VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "HOST_COHERENT" },
        { VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "HOST_CACHED" },
        { VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "LAZILY_ALLOCATED" },
        { VK_MEMORY_PROPERTY_PROTECTED_BIT, "PROTECTED" },
        { VK_MEMORY_PROPERTY_DEVICE_COHERENT_BIT_AMD, "DEVICE_COHERENT_AMD" },
        { VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD, "DEVICE_UNCACHED_AMD" },
    };
    if (!buf || size == 0)
        return "";
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & names[i].bit))
            continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? "|" : "", names[i].name);
        if (n < 0 || (size_t)n >= size - used)
            return buf;
        used += (size_t)n;
    }
    if (used == 0)
        snprintf(buf, size, "none");
    return buf;
}
