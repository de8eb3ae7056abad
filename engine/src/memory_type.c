/* Memory-type choice: a pure function over the device's memory properties,
 * so it is tested on the tables of real devices without any device. */
#include "internal.h"

#include <string.h>

static bool type_matches(VkMemoryPropertyFlags have, VkMemoryPropertyFlags want, bool allow_lazy)
{
    if ((have & want) != want)
        return false;
    /* The spec allows LAZILY_ALLOCATED memory only for images with
     * TRANSIENT_ATTACHMENT usage; drivers usually hide it from other
     * resources' memoryTypeBits, but a table that offers it must not lure a
     * persistent image or a buffer into memory that may never be committed. */
    if (!allow_lazy && (have & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT))
        return false;
    /* Protected memory needs protected resources and queues. */
    if ((have & VK_MEMORY_PROPERTY_PROTECTED_BIT) && !(want & VK_MEMORY_PROPERTY_PROTECTED_BIT))
        return false;
    return true;
}

static bool first_type(const VkPhysicalDeviceMemoryProperties *props, uint32_t bits,
                       VkMemoryPropertyFlags want, bool allow_lazy, uint32_t *out)
{
    for (uint32_t i = 0; i < props->memoryTypeCount && i < 32; i++) {
        if (!(bits & (1u << i)))
            continue;
        if (type_matches(props->memoryTypes[i].propertyFlags, want, allow_lazy)) {
            *out = i;
            return true;
        }
    }
    return false;
}

eng_result eng_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props,
                                  uint32_t type_bits, VkMemoryPropertyFlags required,
                                  bool transient, uint32_t *out_index)
{
    if (!props || !out_index)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_choose_memory_type: NULL argument");
    if (required == 0)
        required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;

    /* A transient attachment that is cleared and discarded every pass never
     * needs backing memory on a tile GPU: take the lazy type when offered. */
    if (transient &&
        first_type(props, type_bits, required | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, true, out_index))
        return ENG_SUCCESS;
    /* The fallback never picks a lazy type, even for transient images: with
     * no type that has both the wanted flags and LAZY, a lazy one would have
     * to lack a wanted flag. */
    if (first_type(props, type_bits, required, false, out_index))
        return ENG_SUCCESS;

    char want[128];
    eng_memory_flags_string(required, want, sizeof want);
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
