/* The raw device tests' instance and device (raw_device.h): what the
 * engine's context does for the other device tests, written out with
 * Vulkan calls alone so that the render graph is seen on a device the
 * engine never touched. */
#include "raw_device.h"
#include "raw_instance.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALIDATION_LAYER RAW_VALIDATION_LAYER

static void say(char *why, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* Offered by the loader, a driver or the validation layer. */
static bool has_instance_extension(const char *name)
{
    const char *sources[] = { NULL, VALIDATION_LAYER };
    bool found = false;
    for (uint32_t s = 0; s < 2 && !found; s++) {
        uint32_t n = 0;
        if (vkEnumerateInstanceExtensionProperties(sources[s], &n, NULL) != VK_SUCCESS || n == 0)
            continue;
        VkExtensionProperties *exts = calloc(n, sizeof *exts);
        if (exts && vkEnumerateInstanceExtensionProperties(sources[s], &n, exts) >= VK_SUCCESS)
            for (uint32_t i = 0; i < n && !found; i++)
                found = strcmp(exts[i].extensionName, name) == 0;
        free(exts);
    }
    return found;
}

static bool create_instance(test_raw_device *d, char *why, size_t size)
{
    if (!raw_has_layer(VALIDATION_LAYER)) {
        say(why, size, "the validation layer %s is not installed (Debian: vulkan-validationlayers)",
            VALIDATION_LAYER);
        return false;
    }
    if (!has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
        say(why, size, "%s is not offered", VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        return false;
    }
    /* The messenger is chained into the instance's create info:
     * vkCreateInstance's own messages are counted too. */
    d->messages.print = "";
    raw_instance_info instance;
    raw_instance_info *info = &instance;
    raw_instance_info_init(info, "raw device test", TEST_RAW_API_VERSION, &d->messages);
    /* MoltenVK shows only to loaders that enumerate portability drivers. */
    if (has_instance_extension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        info->extensions[info->create.enabledExtensionCount++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
        info->create.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    VkResult r = vkCreateInstance(&info->create, NULL, &d->instance);
    if (r != VK_SUCCESS) {
        d->instance = VK_NULL_HANDLE;
        say(why, size, "vkCreateInstance (Vulkan 1.3, %s, synchronization validation): %s", VALIDATION_LAYER,
            rg_vk_result_string(r));
        return false;
    }
#ifdef TEST_RAW_VOLK
    volkLoadInstance(d->instance);
#endif
    /* Extension functions: through the instance, as the loader exports
     * none. */
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d->instance, "vkCreateDebugUtilsMessengerEXT");
    d->destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(d->instance, "vkDestroyDebugUtilsMessengerEXT");
    if (!create || !d->destroy_messenger) {
        say(why, size, "vkCreateDebugUtilsMessengerEXT or vkDestroyDebugUtilsMessengerEXT not found");
        return false;
    }
    r = create(d->instance, &info->messenger, NULL, &d->messenger);
    if (r != VK_SUCCESS) {
        d->messenger = VK_NULL_HANDLE;
        say(why, size, "vkCreateDebugUtilsMessengerEXT: %s", rg_vk_result_string(r));
        return false;
    }
    return true;
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

/* The first family with graphics and compute, or UINT32_MAX. */
static uint32_t find_family(VkPhysicalDevice pd)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *families = calloc(n ? n : 1, sizeof *families);
    uint32_t found = UINT32_MAX;
    if (families) {
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families);
        const VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        for (uint32_t i = 0; i < n && found == UINT32_MAX; i++)
            if (families[i].queueCount > 0 && (families[i].queueFlags & want) == want)
                found = i;
    }
    free(families);
    return found;
}

/* What the device lacks for the graph ("" when nothing), and whether it
 * offers timelineSemaphore. Vulkan13Features may be chained only on a 1.3
 * device, so the version is checked first. */
static void describe_missing(VkPhysicalDevice pd, const VkPhysicalDeviceProperties *p, char *missing, size_t size,
                             bool *timeline)
{
    missing[0] = '\0';
    *timeline = false;
    if (p->apiVersion < VK_API_VERSION_1_3) {
        snprintf(missing, size, "Vulkan 1.3 (has %u.%u)", VK_API_VERSION_MAJOR(p->apiVersion),
                 VK_API_VERSION_MINOR(p->apiVersion));
        return;
    }
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = &f13 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    *timeline = f12.timelineSemaphore;
    const char *lacks[3];
    uint32_t count = 0;
    if (!f13.dynamicRendering)
        lacks[count++] = "dynamicRendering";
    if (!f13.synchronization2)
        lacks[count++] = "synchronization2";
    if (find_family(pd) == UINT32_MAX)
        lacks[count++] = "a queue family with graphics and compute";
    size_t used = 0;
    for (uint32_t i = 0; i < count && used < size; i++) {
        int k = snprintf(missing + used, size - used, "%s%s", i ? ", " : "", lacks[i]);
        used += k > 0 ? (size_t)k : 0;
    }
}

static bool pick_physical_device(test_raw_device *d, char *why, size_t size)
{
    uint32_t n = 0;
    VkResult r = vkEnumeratePhysicalDevices(d->instance, &n, NULL);
    if (r != VK_SUCCESS || n == 0) {
        say(why, size, "no Vulkan physical device (%s; Debian: mesa-vulkan-drivers)",
            r == VK_SUCCESS ? "none listed" : rg_vk_result_string(r));
        return false;
    }
    VkPhysicalDevice *pds = calloc(n, sizeof *pds);
    if (!pds || vkEnumeratePhysicalDevices(d->instance, &n, pds) < VK_SUCCESS) {
        free(pds);
        say(why, size, "vkEnumeratePhysicalDevices failed");
        return false;
    }
    const char *selector = getenv("ENG_DEVICE");
    if (selector && !selector[0])
        selector = NULL;
    bool by_index = selector && all_digits(selector);
    /* What each candidate lacks, for the message when none will do. */
    char lacks[768] = "";
    size_t used = 0;
    bool matched = false, picked = false;
    for (uint32_t i = 0; i < n && !picked; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (selector && (by_index ? i != (uint32_t)strtoul(selector, NULL, 10) : !contains_ci(p.deviceName, selector)))
            continue;
        matched = true;
        char missing[256];
        bool timeline;
        describe_missing(pds[i], &p, missing, sizeof missing, &timeline);
        if (!missing[0]) {
            d->physical = pds[i];
            d->properties = p;
            d->family = find_family(pds[i]);
            d->timeline_semaphore = timeline;
            picked = true;
        } else if (used < sizeof lacks) {
            int k = snprintf(lacks + used, sizeof lacks - used, "%s%u '%s' lacks %s", used ? "; " : "", i,
                             p.deviceName, missing);
            used += k > 0 ? (size_t)k : 0;
        }
        if (selector) /* the device it names, or none */
            break;
    }
    free(pds);
    if (picked)
        return true;
    if (!matched)
        say(why, size, "no Vulkan device matches ENG_DEVICE='%s' (%u devices)", selector, n);
    else if (selector)
        say(why, size, "the device ENG_DEVICE='%s' names will not do: %s", selector, lacks);
    else
        say(why, size, "no Vulkan device has what the graph needs: %s", lacks);
    return false;
}

static bool create_device(test_raw_device *d, char *why, size_t size)
{
    d->f13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE,
        .synchronization2 = VK_TRUE,
    };
    d->f12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &d->f13,
        .timelineSemaphore = d->timeline_semaphore,
    };
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = d->family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &d->f12,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
    };
    VkResult r = vkCreateDevice(d->physical, &ci, NULL, &d->device);
    if (r != VK_SUCCESS) {
        d->device = VK_NULL_HANDLE;
        say(why, size, "vkCreateDevice on '%s': %s", d->properties.deviceName, rg_vk_result_string(r));
        return false;
    }
#ifdef TEST_RAW_VOLK
    volkLoadDevice(d->device);
#endif
    vkGetDeviceQueue(d->device, d->family, 0, &d->queue);
    return true;
}

bool test_raw_device_open(test_raw_device *d, char *why, size_t size)
{
    memset(d, 0, sizeof *d);
#ifdef TEST_RAW_VOLK
    VkResult r = volkInitialize();
    if (r != VK_SUCCESS) {
        say(why, size, "volkInitialize: no Vulkan loader (%s)", rg_vk_result_string(r));
        return false;
    }
#endif
    if (create_instance(d, why, size) && pick_physical_device(d, why, size) && create_device(d, why, size))
        return true;
    test_raw_device_destroy_device(d);
    test_raw_device_destroy_instance(d);
    return false;
}

void test_raw_device_destroy_device(test_raw_device *d)
{
    if (d->device)
        vkDestroyDevice(d->device, NULL);
    d->device = VK_NULL_HANDLE;
    d->queue = VK_NULL_HANDLE;
}

void test_raw_device_destroy_instance(test_raw_device *d)
{
    if (d->messenger)
        d->destroy_messenger(d->instance, d->messenger, NULL);
    if (d->instance)
        vkDestroyInstance(d->instance, NULL);
    d->messenger = VK_NULL_HANDLE;
    d->instance = VK_NULL_HANDLE;
}

VkResult test_raw_strip_pipeline(VkDevice dev, VkPipelineLayout layout, VkShaderModule vert, VkShaderModule frag,
                                 const VkPipelineRenderingCreateInfo *rendering, VkSampleCountFlagBits samples,
                                 VkColorComponentFlags write_mask, VkPipeline *out)
{
    VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = vert, .pName = "main" },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = frag, .pName = "main" },
    };
    VkPipelineVertexInputStateCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO };
    VkPipelineInputAssemblyStateCreateInfo ia = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                  .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP };
    VkPipelineViewportStateCreateInfo vp = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                             .viewportCount = 1, .scissorCount = 1 };
    /* Culling none (0), counter-clockwise front faces (0). */
    VkPipelineRasterizationStateCreateInfo rs = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                  .polygonMode = VK_POLYGON_MODE_FILL, .lineWidth = 1.0f };
    VkPipelineMultisampleStateCreateInfo ms = { .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                .rasterizationSamples = samples };
    VkPipelineDepthStencilStateCreateInfo ds = { .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO };
    VkPipelineColorBlendAttachmentState att = { .blendEnable = VK_FALSE, .colorWriteMask = write_mask };
    VkPipelineColorBlendStateCreateInfo cb = { .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                               .attachmentCount = 1, .pAttachments = &att };
    VkDynamicState dyn[2] = { VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR };
    VkPipelineDynamicStateCreateInfo dy = { .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                            .dynamicStateCount = 2, .pDynamicStates = dyn };
    VkGraphicsPipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = rendering,
                                        .stageCount = 2, .pStages = stages, .pVertexInputState = &vi,
                                        .pInputAssemblyState = &ia, .pViewportState = &vp, .pRasterizationState = &rs,
                                        .pMultisampleState = &ms, .pDepthStencilState = &ds, .pColorBlendState = &cb,
                                        .pDynamicState = &dy, .layout = layout };
    return vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, out);
}

PFN_vkGetInstanceProcAddr test_raw_get_instance_proc_addr(void)
{
    return vkGetInstanceProcAddr;
}

void test_raw_require_or_skip(const char *why)
{
    const char *v = getenv("ENG_REQUIRE_DEVICE");
    if (v && v[0] && strcmp(v, "0") != 0)
        cr_assert_fail("a Vulkan device with validation is required (ENG_REQUIRE_DEVICE is set) but: %s", why);
    cr_skip_test("no Vulkan device with validation: %s", why);
}
