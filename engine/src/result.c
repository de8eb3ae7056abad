/* Result strings, the thread-local last-error message and VkResult mapping. */
#include "internal.h"

#include <stdarg.h>
#include <string.h>

static ENG__THREAD_LOCAL char last_error[1024];

const char *eng_result_string(eng_result result)
{
    switch (result) {
    case ENG_SUCCESS: return "success";
    case ENG_NOT_READY: return "not ready";
    case ENG_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case ENG_ERROR_UNSUPPORTED: return "unsupported";
    case ENG_ERROR_NO_DEVICE: return "no device";
    case ENG_ERROR_MISSING_FEATURE: return "missing feature";
    case ENG_ERROR_LAYER_MISSING: return "layer missing";
    case ENG_ERROR_NO_MEMORY_TYPE: return "no memory type";
    case ENG_ERROR_OUT_OF_MEMORY: return "out of memory";
    case ENG_ERROR_DEVICE_LOST: return "device lost";
    case ENG_ERROR_SURFACE_LOST: return "surface lost";
    case ENG_ERROR_WINDOW: return "window error";
    case ENG_ERROR_IO: return "i/o error";
    case ENG_ERROR_VULKAN: return "vulkan error";
    case ENG_RESULT_COUNT: break;
    }
    return "unknown result";
}

const char *eng_last_error(void)
{
    return last_error;
}

/* Also the engine's own eng__fail (internal.h). */
eng_result eng_set_error(eng_result result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return result;
}

const char *eng_vk_result_string(VkResult vr) { return rg_vk_result_string(vr); }

eng_result eng__vk_fail(VkResult vr, const char *what)
{
    eng_result r;
    switch (vr) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_TOO_MANY_OBJECTS: r = ENG_ERROR_OUT_OF_MEMORY; break;
    case VK_ERROR_DEVICE_LOST: r = ENG_ERROR_DEVICE_LOST; break;
    case VK_ERROR_SURFACE_LOST_KHR: r = ENG_ERROR_SURFACE_LOST; break;
    case VK_ERROR_LAYER_NOT_PRESENT: r = ENG_ERROR_LAYER_MISSING; break;
    case VK_ERROR_FEATURE_NOT_PRESENT: r = ENG_ERROR_MISSING_FEATURE; break;
    case VK_ERROR_FORMAT_NOT_SUPPORTED: r = ENG_ERROR_UNSUPPORTED; break;
    default: r = ENG_ERROR_VULKAN; break;
    }
    /* A call through the context's table reads "vk->CreateImage(...)":
     * messages name it as Vulkan does, "vkCreateImage(...)". */
    const char *prefix = "";
    if (strncmp(what, "vk->", 4) == 0) {
        prefix = "vk";
        what += 4;
    }
    if (vr == VK_ERROR_INCOMPATIBLE_DRIVER)
        return eng__fail(ENG_ERROR_NO_DEVICE, "%s%s: %s (no Vulkan driver)", prefix, what, eng_vk_result_string(vr));
    return eng__fail(r, "%s%s: %s", prefix, what, eng_vk_result_string(vr));
}

void eng__copy_name(char *dst, size_t size, const char *name, const char *fallback)
{
    snprintf(dst, size, "%s", name && name[0] ? name : fallback);
}
