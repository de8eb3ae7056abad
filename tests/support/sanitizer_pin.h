/* What tests/support/sanitizer_pins.c and tests/raw/volk_sanitizer_pins.c
 * share: an instance that loads the loader's layer and drivers, and the
 * pinning of every module loaded (RTLD_NODELETE), so that each stays mapped
 * until the process ends. The includer includes its Vulkan header first
 * (the loader's or volk's) and defines _GNU_SOURCE. */
#ifndef TEST_SANITIZER_PIN_H
#define TEST_SANITIZER_PIN_H

#include <dlfcn.h>
#include <link.h>

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

/* An instance with the validation layer, or without where the layer is
 * missing; VK_NULL_HANDLE where none could be made. create: the loader's
 * vkCreateInstance or volk's pointer. */
static VkInstance pin_instance(PFN_vkCreateInstance create)
{
    const char *layer = "VK_LAYER_KHRONOS_validation";
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledLayerCount = 1, .ppEnabledLayerNames = &layer };
    VkInstance instance = VK_NULL_HANDLE;
    if (create(&ci, NULL, &instance) != VK_SUCCESS) {
        ci.enabledLayerCount = 0;
        if (create(&ci, NULL, &instance) != VK_SUCCESS)
            return VK_NULL_HANDLE;
    }
    return instance;
}

#endif
