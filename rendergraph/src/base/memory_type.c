/* Memory-type choice: a pure function over the device's memory properties,
 * so it is tested on the tables of real devices without any device. */
#include "base/rules.h"
#include "rendergraph/rendergraph.h"

static bool type_matches(VkMemoryPropertyFlags have, VkMemoryPropertyFlags want, bool allow_lazy)
{
    if ((have & want) != want)
        return false;
    /* The spec allows LAZILY_ALLOCATED memory only for images with
     * TRANSIENT_ATTACHMENT usage; drivers usually hide it from other
     * resources' memoryTypeBits, but a table that offers it must not lure a
     * persistent image or a buffer into memory that may never be committed. */
    if (RG__RULE(PERSISTENT_NEVER_LAZY, !allow_lazy && (have & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)))
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

bool rg_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props, uint32_t type_bits,
                           VkMemoryPropertyFlags required, bool transient, uint32_t *out_index)
{
    if (!props || !out_index)
        return false;
    if (required == 0)
        required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    /* A transient attachment that is cleared and discarded every pass never
     * needs backing memory on a tile GPU: take the lazy type when offered. */
    if (RG__RULE(LAZY_WHEN_OFFERED, transient) &&
        first_type(props, type_bits, required | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, true, out_index))
        return true;
    /* The fallback never picks a lazy type, even for transient images: with
     * no type that has both the wanted flags and LAZY, a lazy one would have
     * to lack a wanted flag. */
    return first_type(props, type_bits, required, false, out_index);
}
