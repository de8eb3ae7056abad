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
#include <dlfcn.h>
#include <link.h>
#include <vulkan/vulkan.h>

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
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, NULL); /* loads the drivers */
    dl_iterate_phdr(pin_module, NULL);
    vkDestroyInstance(instance, NULL);
}
