/* Sanitizer builds only, in device_volk and tests/consumer's consumer_volk
 * instead of tests/support/sanitizer_pins.c: the same pinning (see there: the loader,
 * the layer and the driver stay mapped until exit, so LeakSanitizer can
 * name their leftovers and tests/lsan.supp suppress them), through volk.
 * That file calls the loader's exported functions, which a program built
 * on volk cannot: volk's function pointers carry the same names. */
#define _GNU_SOURCE
#include <volk.h>

#include "../support/sanitizer_pin.h"

__attribute__((constructor)) static void pin_vulkan_modules(void)
{
    if (volkInitialize() != VK_SUCCESS)
        return;
    VkInstance instance = pin_instance(vkCreateInstance);
    if (!instance)
        return;
    /* Through the instance, leaving volk's pointers to the test. */
    PFN_vkEnumeratePhysicalDevices enumerate =
        (PFN_vkEnumeratePhysicalDevices)vkGetInstanceProcAddr(instance, "vkEnumeratePhysicalDevices");
    PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)vkGetInstanceProcAddr(instance, "vkDestroyInstance");
    uint32_t n = 0;
    if (enumerate)
        enumerate(instance, &n, NULL); /* loads the drivers */
    dl_iterate_phdr(pin_module, NULL);
    if (destroy)
        destroy(instance, NULL);
}
