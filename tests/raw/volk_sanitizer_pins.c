/* Sanitizer builds only, in device_volk and tests/consumer's consumer_volk
 * instead of tests/support/sanitizer_pins.c: the same pinning (see there: the loader,
 * the layer and the driver stay mapped until exit, so LeakSanitizer can
 * name their leftovers and tests/lsan.supp suppress them), through volk.
 * That file calls the loader's exported functions, which a program built
 * on volk cannot: volk's function pointers carry the same names. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <volk.h>

static int pin_module(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    (void)user;
    if (info->dlpi_name && info->dlpi_name[0]) {
        void *h = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        if (h)
            dlclose(h); /* drops our reference; NODELETE keeps it mapped */
    }
    return 0;
}

__attribute__((constructor)) static void pin_vulkan_modules(void)
{
    if (volkInitialize() != VK_SUCCESS)
        return;
    const char *layer = "VK_LAYER_KHRONOS_validation";
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledLayerCount = 1, .ppEnabledLayerNames = &layer };
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&ci, NULL, &instance) != VK_SUCCESS) {
        ci.enabledLayerCount = 0;
        if (vkCreateInstance(&ci, NULL, &instance) != VK_SUCCESS)
            return;
    }
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
