/* Sanitizer builds only (linked in by CMake when VKG_SANITIZE is on), into
 * the test programs and the demos alike.
 *
 * The loader dlcloses the driver and the layers when the last instance is
 * destroyed, so LeakSanitizer's report at exit could not name the module
 * that allocated their own leftovers ("<unknown module>") and lsan.supp could
 * not match them. Before main, one instance with the validation layer loads
 * everything, and every loaded module is pinned (RTLD_NODELETE) so that it
 * stays mapped until the process ends. */
#define _GNU_SOURCE
#include <vulkan/vulkan.h>

#include "sanitizer_pin.h"

__attribute__((constructor)) static void pin_vulkan_modules(void)
{
    VkInstance instance = pin_instance(vkCreateInstance);
    if (!instance)
        return;
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, NULL); /* loads the drivers */
    dl_iterate_phdr(pin_module, NULL);
    vkDestroyInstance(instance, NULL);
}
