/* Physical-device choice: pure, so the "what is missing" messages and the
 * selector rules are tested without a device. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int type_rank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

/* Appends what the device lacks to buf; returns true if it lacks nothing. */
static bool describe_missing(const eng_device_candidate *c, char *buf, size_t size)
{
    uint32_t v = c->properties.apiVersion;
    size_t used = 0;
    buf[0] = '\0';
#define ADD(...)                                                           \
    do {                                                                   \
        int n_ = snprintf(buf + used, size - used, "%s", used ? ", " : ""); \
        if (n_ > 0 && (size_t)n_ < size - used) used += (size_t)n_;        \
        n_ = snprintf(buf + used, size - used, __VA_ARGS__);               \
        if (n_ > 0 && (size_t)n_ < size - used) used += (size_t)n_;        \
    } while (0)
    if (v < VK_API_VERSION_1_3)
        ADD("Vulkan 1.3 (has %u.%u)", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v));
    if (!c->dynamic_rendering)
        ADD("dynamicRendering");
    if (!c->synchronization2)
        ADD("synchronization2");
    if (!c->graphics_queue)
        ADD("a graphics queue that can present");
#undef ADD
    return used == 0;
}

static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

eng_result eng_pick_physical_device(const eng_device_candidate *candidates, uint32_t count,
                                    const char *selector, uint32_t *out_index)
{
    if (!out_index || (count && !candidates))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_pick_physical_device: NULL argument");
    if (count == 0)
        return eng__fail(ENG_ERROR_NO_DEVICE, "no Vulkan physical device found (is a Vulkan driver installed? "
                                              "on Debian: apt-get install mesa-vulkan-drivers)");
    char missing[256];
    if (selector && selector[0]) {
        bool by_index = all_digits(selector);
        uint32_t index = by_index ? (uint32_t)strtoul(selector, NULL, 10) : 0;
        for (uint32_t i = 0; i < count; i++) {
            const eng_device_candidate *c = &candidates[i];
            if (by_index ? i != index : !contains_ci(c->properties.deviceName, selector))
                continue;
            if (!describe_missing(c, missing, sizeof missing))
                return eng__fail(ENG_ERROR_MISSING_FEATURE, "device %u '%s' (selected by '%s') lacks: %s",
                                 i, c->properties.deviceName, selector, missing);
            *out_index = i;
            return ENG_SUCCESS;
        }
        char names[512] = "";
        size_t used = 0;
        for (uint32_t i = 0; i < count; i++) {
            int n = snprintf(names + used, sizeof names - used, "%s%u '%s'", i ? ", " : "", i,
                             candidates[i].properties.deviceName);
            if (n < 0 || (size_t)n >= sizeof names - used)
                break;
            used += (size_t)n;
        }
        return eng__fail(ENG_ERROR_NO_DEVICE, "no Vulkan device matches '%s' (devices: %s)", selector, names);
    }

    int best_rank = 99;
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++) {
        if (!describe_missing(&candidates[i], missing, sizeof missing))
            continue;
        int rank = type_rank(candidates[i].properties.deviceType);
        if (rank < best_rank) {
            best_rank = rank;
            best = i;
        }
    }
    if (best != UINT32_MAX) {
        *out_index = best;
        return ENG_SUCCESS;
    }
    char all[768] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < count; i++) {
        describe_missing(&candidates[i], missing, sizeof missing);
        int n = snprintf(all + used, sizeof all - used, "%s'%s' lacks %s", i ? "; " : "",
                         candidates[i].properties.deviceName, missing);
        if (n < 0 || (size_t)n >= sizeof all - used)
            break;
        used += (size_t)n;
    }
    return eng__fail(ENG_ERROR_MISSING_FEATURE, "no Vulkan device has what the engine needs: %s", all);
}
