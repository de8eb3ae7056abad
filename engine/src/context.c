/* Context: instance, validation messenger, the application's surface,
 * device choice, logical device, queues (graphics, and async compute and
 * transfer where the device has them), and a command pool for one-off setup
 * submissions. */
#include "internal.h"
#include "vk_load.h"

#include <stdlib.h>
#include <string.h>

/* The Vulkan version the instance asks for (VkApplicationInfo::apiVersion):
 * a device's newer core functionality is usable only up to this version. */
#define ENG__API_VERSION VK_API_VERSION_1_3

struct eng_context {
    eng__vk vk;                       /* every Vulkan call goes through it */
    /* The application's allocators (copies): host memory (zeroed: malloc)
     * and Vulkan's (vk.allocator points at vk_allocator when given). */
    rg_allocator host;
    VkAllocationCallbacks vk_allocator;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkSurfaceKHR surface;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    /* Per eng_queue_kind, graphics included; UINT32_MAX / VK_NULL_HANDLE
     * for a kind the context has no queue of. */
    uint32_t families[ENG_QUEUE_KIND_COUNT];
    uint32_t queue_index[ENG_QUEUE_KIND_COUNT];   /* in its family */
    VkQueue queues[ENG_QUEUE_KIND_COUNT];
    VkCommandPool once_pool;
    bool memory_budget;
    VkDriverId driver;
    eng_local_read local_read;
    rg_device *graph_device;          /* the device as render graphs use it */
    bool timeline;                    /* timelineSemaphore enabled */
    bool debug_utils;                 /* VK_EXT_debug_utils enabled on the instance */
    bool borrowed;                    /* the application's instance and device
                                         (eng_context_desc.existing) */
    /* The enabled layer that offers VK_EXT_memory_budget (an emulation,
     * e.g. the tile-memory layer on lavapipe); "" = the driver. */
    char memory_budget_layer[VK_MAX_EXTENSION_NAME_SIZE];
    char layers[8][VK_MAX_EXTENSION_NAME_SIZE]; /* extra layers enabled */
    uint32_t layer_count;
    bool validation;
    bool quiet;
    rg_log_fn log;                    /* eng_context_desc.log */
    void *log_user;
    eng_message_counts messages;
    char first_message[1024];
    /* rg_device_create's reason, logged while the graph device is made
     * (and only then: later, graphs log from any thread). */
    char graph_error[512];
    bool making_graph_device;
    eng__sampler_cache samplers;      /* eng_sampler_get's (sampler.c) */
};

/* A message the validation layer gives for valid use, counted as info and
 * not printed. Its vkQueueSubmit2 check of suspended rendering instances
 * looks at a command buffer's suspension before its resumption
 * (vkQueueSubmit's looks in the right order), so a command buffer that
 * resumes an instance and suspends one, followed by one that resumes,
 * reads as "resumes ... but there is no suspended render pass instance"
 * (layers 1.3.239 and 1.4.309 both): a frame recorded in chunks that cut
 * one instance three ways is submitted so (rendergraph.h, "Parallel
 * recording"; tests/device/test_frame_parallel.c). */
static bool layer_false_positive(const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    const char *id = data ? data->pMessageIdName : NULL;
    return id && (strcmp(id, "VUID-VkSubmitInfo2-commandBuffer-06192") == 0 ||
                  strcmp(id, "VUID-VkSubmitInfo2KHR-commandBuffer-06192") == 0);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    (void)types;
    eng_context *ctx = user;
    const char *text = data && data->pMessage ? data->pMessage : "(no message)";
    const char *label = "info";
    if (layer_false_positive(data)) {
        ctx->messages.info++;
        return VK_FALSE;
    }
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        ctx->messages.error++;
        label = "error";
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        ctx->messages.warning++;
        label = "warning";
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) {
        ctx->messages.info++;
    } else {
        ctx->messages.verbose++;
    }
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
        if (!ctx->first_message[0])
            snprintf(ctx->first_message, sizeof ctx->first_message, "%s", text);
        if (ctx->log) {
            /* The object it is about: the first one the message names. */
            const char *object = "validation";
            if (data && data->objectCount && data->pObjects[0].pObjectName)
                object = data->pObjects[0].pObjectName;
            ctx->log(ctx->log_user,
                     severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? RG_LOG_ERROR : RG_LOG_WARNING,
                     object, text);
        } else if (!ctx->quiet) {
            fprintf(stderr, "[vulkan %s] %s\n", label, text);
        }
    }
    return VK_FALSE;
}

static bool has_layer(const eng_context *ctx, const char *name)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    if (vk->EnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkLayerProperties *layers = eng__calloc(ctx, n, sizeof *layers);
    if (!layers)
        return false;
    bool found = false;
    if (vk->EnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(layers[i].layerName, name) == 0;
    eng__free(ctx, layers);
    return found;
}

static bool has_instance_extension(const eng_context *ctx, const char *name)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    if (vk->EnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *ext = eng__calloc(ctx, n, sizeof *ext);
    if (!ext)
        return false;
    bool found = false;
    if (vk->EnumerateInstanceExtensionProperties(NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(ext[i].extensionName, name) == 0;
    eng__free(ctx, ext);
    return found;
}

/* layer: NULL = the device with every enabled layer; a name = that layer's own. */
static bool has_device_extension_of(const eng_context *ctx, VkPhysicalDevice pd, const char *layer,
                                    const char *name)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    if (vk->EnumerateDeviceExtensionProperties(pd, layer, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *ext = eng__calloc(ctx, n, sizeof *ext);
    if (!ext)
        return false;
    bool found = false;
    if (vk->EnumerateDeviceExtensionProperties(pd, layer, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(ext[i].extensionName, name) == 0;
    eng__free(ctx, ext);
    return found;
}

static bool has_device_extension(const eng_context *ctx, VkPhysicalDevice pd, const char *name)
{
    return has_device_extension_of(ctx, pd, NULL, name);
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(eng_context *ctx)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = ctx,
    };
}

/* Adds name to the instance's extensions unless the application's list
 * already has it. */
static void add_extension(const char **exts, uint32_t *count, const char *name)
{
    for (uint32_t i = 0; i < *count; i++)
        if (strcmp(exts[i], name) == 0)
            return;
    exts[(*count)++] = name;
}

/* vkCreateInstance failed with EXTENSION_NOT_PRESENT: names the missing
 * ones (the window system's, usually: no surface support on this system). */
static eng_result missing_extensions(const eng_context *ctx, const char *const *exts, uint32_t count)
{
    char names[512] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < count; i++)
        if (!has_instance_extension(ctx, exts[i]) && len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", exts[i]);
    if (!names[0]) /* offered by none the loader lists: a layer's, perhaps */
        return eng__vk_fail(VK_ERROR_EXTENSION_NOT_PRESENT, "vkCreateInstance");
    return eng__fail(ENG_ERROR_UNSUPPORTED, "vkCreateInstance: instance extensions not available: %s", names);
}

static eng_result create_instance(eng_context *ctx, const eng_context_desc *desc)
{
    eng__vk *vk = &ctx->vk;
    /* The window system's (at most 24) and the engine's own (at most 2). */
    const char *exts[32];
    uint32_t ext_count = 0;
    if (desc->instance_extension_count > 24 || (desc->instance_extension_count && !desc->instance_extensions))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "instance_extensions: at most 24, and not NULL when counted (%u given)",
                         desc->instance_extension_count);
    for (uint32_t i = 0; i < desc->instance_extension_count; i++) {
        if (!desc->instance_extensions[i])
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "instance_extensions[%u] is NULL", i);
        add_extension(exts, &ext_count, desc->instance_extensions[i]);
    }
    VkInstanceCreateFlags flags = 0;
    /* MoltenVK only shows up to loaders that enumerate portability drivers. */
    if (has_instance_extension(ctx, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        add_extension(exts, &ext_count, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    if (desc->extra_layer_count > 8 || (desc->extra_layer_count && !desc->extra_layers))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "extra_layers: at most 8, and not NULL when counted");
    const char *layers[1 + 8];
    uint32_t layer_count = 0;
    VkDebugUtilsMessengerCreateInfoEXT dbg = messenger_info(ctx);
    VkValidationFeatureEnableEXT enables[] = { VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT };
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &dbg,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    const void *next = NULL;
    if (desc->validation) {
        if (!has_layer(ctx, "VK_LAYER_KHRONOS_validation"))
            return eng__fail(ENG_ERROR_LAYER_MISSING,
                             "validation requested but VK_LAYER_KHRONOS_validation is not installed "
                             "(Debian: apt-get install vulkan-validationlayers)");
        if (!has_instance_extension(ctx, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            return eng__fail(ENG_ERROR_LAYER_MISSING, "validation requested but %s is not available",
                             VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        layers[layer_count++] = "VK_LAYER_KHRONOS_validation";
        add_extension(exts, &ext_count, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        next = &features; /* messages during vkCreateInstance are counted too */
    }
    /* After validation: later-listed layers sit closer to the driver.
     * ENG_LAYERS (names separated by ':' or ',') adds more after the
     * desc's, so any program can run under a test layer such as
     * VK_LAYER_VKGRAPH_tile_memory below validation. */
    const char *extra[8 + 8];
    uint32_t extra_count = 0;
    for (uint32_t i = 0; i < desc->extra_layer_count; i++)
        extra[extra_count++] = desc->extra_layers[i];
    char env_layers[512];
    const char *env = getenv("ENG_LAYERS");
    if (env && *env) {
        if (strlen(env) >= sizeof env_layers)
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "ENG_LAYERS: longer than %llu characters",
                             (unsigned long long)(sizeof env_layers - 1));
        strcpy(env_layers, env);
        for (char *name = env_layers; *name;) {
            size_t len = strcspn(name, ":,");
            char *next = name[len] ? name + len + 1 : name + len;
            name[len] = '\0';
            if (len) {
                if (extra_count == 8)
                    return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "extra_layers and ENG_LAYERS: at most 8 layers in all");
                extra[extra_count++] = name;
            }
            name = next;
        }
    }
    for (uint32_t i = 0; i < extra_count; i++) {
        if (!extra[i] || !has_layer(ctx, extra[i]))
            return eng__fail(ENG_ERROR_LAYER_MISSING, "layer %s is not installed (for a build-tree layer: "
                             "VK_ADD_LAYER_PATH=<build>/tests/layers)",
                             extra[i] ? extra[i] : "(null)");
        layers[layer_count++] = extra[i];
        snprintf(ctx->layers[ctx->layer_count++], sizeof ctx->layers[0], "%s", extra[i]);
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = desc->app_name ? desc->app_name : "engine",
        .pEngineName = "engine",
        .apiVersion = ENG__API_VERSION,
    };
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = next,
        .flags = flags,
        .pApplicationInfo = &app,
        .enabledLayerCount = layer_count,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VkResult vr = vk->CreateInstance(&ci, vk->allocator, &ctx->instance);
    if (vr == VK_ERROR_EXTENSION_NOT_PRESENT)
        return missing_extensions(ctx, exts, ext_count);
    if (vr != VK_SUCCESS)
        return eng__vk_fail(vr, "vkCreateInstance");
    /* Enabled by validation or by the application: the render graph then
     * names its objects and labels what it records. */
    bool surface = false;
    for (uint32_t i = 0; i < ext_count; i++) {
        if (strcmp(exts[i], VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0)
            ctx->debug_utils = true;
        if (strcmp(exts[i], VK_KHR_SURFACE_EXTENSION_NAME) == 0)
            surface = true;
    }
    const char *missing = eng__vk_load_instance(vk, ctx->instance, surface, ctx->debug_utils);
    if (missing)
        return eng__fail(ENG_ERROR_VULKAN, "eng_context_create: the instance does not give %s", missing);
    if (desc->validation)
        ENG_VK_CHECK(vk->CreateDebugUtilsMessengerEXT(ctx->instance, &dbg, vk->allocator, &ctx->messenger));
    return ENG_SUCCESS;
}

/* The application's surface, made by its window system; the context owns it. */
static eng_result create_surface(eng_context *ctx, const eng_context_desc *desc)
{
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkResult vr = desc->create_surface(ctx->instance, desc->surface_user, &surface);
    if (vr != VK_SUCCESS)
        return eng__fail(ENG_ERROR_WINDOW, "create_surface: %s", eng_vk_result_string(vr));
    if (!surface)
        return eng__fail(ENG_ERROR_WINDOW, "create_surface: VK_SUCCESS but no surface");
    if (!ctx->vk.DestroySurfaceKHR) /* the context could not destroy it */
        return eng__fail(ENG_ERROR_WINDOW, "create_surface: a surface, but instance_extensions lacks %s",
                         VK_KHR_SURFACE_EXTENSION_NAME);
    ctx->surface = surface;
    return ENG_SUCCESS;
}

/* The first queue family with graphics (and present, when windowed). */
static bool find_queue_family(eng_context *ctx, VkPhysicalDevice pd, uint32_t *out)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    vk->GetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *families = eng__calloc(ctx, n ? n : 1, sizeof *families);
    if (!families)
        return false;
    vk->GetPhysicalDeviceQueueFamilyProperties(pd, &n, families);
    bool found = false;
    for (uint32_t i = 0; i < n && !found; i++) {
        if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            continue;
        if (ctx->surface) {
            VkBool32 present = VK_FALSE;
            if (vk->GetPhysicalDeviceSurfaceSupportKHR(pd, i, ctx->surface, &present) != VK_SUCCESS || !present)
                continue;
        }
        *out = i;
        found = true;
    }
    eng__free(ctx, families);
    return found;
}

/* The queues of each kind (eng_pick_queues), into ctx->families and
 * ctx->queue_index beside the graphics one. */
static eng_result find_extra_families(eng_context *ctx, const eng_context_desc *desc)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    vk->GetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, NULL);
    VkQueueFamilyProperties *families = eng__calloc(ctx, n ? n : 1, sizeof *families);
    if (!families)
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "eng_context_create: out of host memory");
    vk->GetPhysicalDeviceQueueFamilyProperties(ctx->physical, &n, families);
    eng_queue_policy policy = desc->single_queue             ? ENG_QUEUES_SINGLE
                              : desc->graphics_family_queues ? ENG_QUEUES_GRAPHICS_FAMILY
                                                             : ENG_QUEUES_DEFAULT;
    const char *env = getenv("ENG_QUEUES");
    if (policy == ENG_QUEUES_DEFAULT && env && *env) {
        if (!strcmp(env, "single"))
            policy = ENG_QUEUES_SINGLE;
        else if (!strcmp(env, "graphics-family"))
            policy = ENG_QUEUES_GRAPHICS_FAMILY;
        else if (strcmp(env, "default") != 0) {
            eng__free(ctx, families);
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                             "eng_context_create: ENG_QUEUES='%.64s': want default, single or graphics-family", env);
        }
    }
    eng_queue_choice choice;
    eng_pick_queues(families, n, ctx->queue_family, policy, &choice);
    eng__free(ctx, families);
    if (choice.family[ENG_QUEUE_GRAPHICS] != ctx->queue_family)
        return eng__fail(ENG_ERROR_NO_DEVICE, "eng_context_create: queue family %u has no queue", ctx->queue_family);
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++) {
        ctx->families[k] = choice.family[k];
        ctx->queue_index[k] = choice.index[k];
    }
    return ENG_SUCCESS;
}

static eng_result pick_device(eng_context *ctx, const eng_context_desc *desc)
{
    const eng__vk *vk = &ctx->vk;
    uint32_t n = 0;
    ENG_VK_CHECK(vk->EnumeratePhysicalDevices(ctx->instance, &n, NULL));
    VkPhysicalDevice *pds = eng__calloc(ctx, n ? n : 1, sizeof *pds);
    eng_device_candidate *cands = eng__calloc(ctx, n ? n : 1, sizeof *cands);
    uint32_t *families = eng__calloc(ctx, n ? n : 1, sizeof *families);
    eng_result res = ENG_SUCCESS;
    if (!pds || !cands || !families) {
        res = eng__fail(ENG_ERROR_OUT_OF_MEMORY, "eng_context_create: out of host memory");
        goto done;
    }
    ENG_VK_TRY(res, vk->EnumeratePhysicalDevices(ctx->instance, &n, pds), done);
    for (uint32_t i = 0; i < n; i++) {
        vk->GetPhysicalDeviceProperties(pds[i], &cands[i].properties);
        /* Vulkan13Features may only be chained on a 1.3 device. */
        if (cands[i].properties.apiVersion >= VK_API_VERSION_1_3) {
            VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
            VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13 };
            vk->GetPhysicalDeviceFeatures2(pds[i], &f2);
            cands[i].dynamic_rendering = f13.dynamicRendering;
            cands[i].synchronization2 = f13.synchronization2;
        }
        cands[i].graphics_queue = find_queue_family(ctx, pds[i], &families[i]);
    }
    const char *selector = desc->device ? desc->device : getenv("ENG_DEVICE");
    uint32_t pick = 0;
    res = eng_pick_physical_device(cands, n, selector, &pick);
    if (res != ENG_SUCCESS)
        goto done;
    ctx->physical = pds[pick];
    ctx->properties = cands[pick].properties;
    ctx->queue_family = families[pick];
    vk->GetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
done:
    eng__free(ctx, pds);
    eng__free(ctx, cands);
    eng__free(ctx, families);
    return res;
}

/* Whether the device offers dynamic rendering local read, before the
 * device is made: ctx->local_read.supported says whether create_device is
 * to enable it. What it covers, and the driver's identity, come from the
 * render graph's device afterwards (take_graph_caps). */
static void query_device(eng_context *ctx, const eng_context_desc *desc)
{
    const eng__vk *vk = &ctx->vk;
    const VkPhysicalDeviceLimits *lim = &ctx->properties.limits;
    ctx->local_read = (eng_local_read){
        .max_color_attachments = lim->maxColorAttachments,
        .max_input_attachments = lim->maxPerStageDescriptorInputAttachments,
    };
    if (desc->no_local_read ||
        !has_device_extension(ctx, ctx->physical, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME))
        return;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR lr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
    };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &lr };
    vk->GetPhysicalDeviceFeatures2(ctx->physical, &f2);
    ctx->local_read.supported = lr.dynamicRenderingLocalRead;
}

/* The driver and what local read covers, as the render graph's device read
 * them (rg_device_create: multisampled and depth/stencil attachments only
 * where a 1.4 property says so). */
static void take_graph_caps(eng_context *ctx)
{
    rg_device_caps caps = rg_device_get_caps(ctx->graph_device);
    ctx->driver = caps.driver;
    ctx->local_read.depth_stencil = caps.local_read_depth_stencil;
    ctx->local_read.multisampled = caps.local_read_multisampled;
}

/* The struct of type t in a pNext chain, or NULL. */
static VkBaseOutStructure *chain_find(void *chain, VkStructureType t)
{
    for (VkBaseOutStructure *s = chain; s; s = s->pNext)
        if (s->sType == t)
            return s;
    return NULL;
}

/* The application's core features (eng_context_desc.features) against the
 * device's: the first one asked for and not offered, by its place in
 * VkPhysicalDeviceFeatures, or -1. */
static int missing_core_feature(const eng__vk *vk, VkPhysicalDevice pd, const VkPhysicalDeviceFeatures *want)
{
    VkPhysicalDeviceFeatures have;
    vk->GetPhysicalDeviceFeatures(pd, &have);
    const VkBool32 *w = (const VkBool32 *)want, *h = (const VkBool32 *)&have;
    for (size_t i = 0; i < sizeof have / sizeof(VkBool32); i++)
        if (w[i] && !h[i])
            return (int)i;
    return -1;
}

/* The features create_device enables: the engine's own structs, and the
 * chain given to vkCreateDevice (the application's, eng_context_desc.features,
 * with the engine's structs of other types linked at its end until
 * unlink_features). It lives in eng_context_create's frame because the
 * render graph's device reads the chain too (rg_device_desc.enabled_features). */
typedef struct device_features {
    VkPhysicalDeviceFeatures2 own;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR lr;
    VkPhysicalDeviceFeatures2 *chain;
    VkBaseOutStructure *tail;         /* the application's last struct, or NULL */
} device_features;

/* Leaves the application's chain as it gave it. */
static void unlink_features(device_features *df)
{
    if (df->tail)
        df->tail->pNext = NULL;
    df->tail = NULL;
}

static eng_result create_device(eng_context *ctx, const eng_context_desc *desc, device_features *df)
{
    eng__vk *vk = &ctx->vk;
    const char *exts[8 + 32];
    uint32_t ext_count = 0;
    if (desc->device_extension_count > 32)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: %u device extensions (32 at most)",
                         desc->device_extension_count);
    if (ctx->surface)
        exts[ext_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    /* Required by the spec wherever it is offered (MoltenVK). */
    if (has_device_extension(ctx, ctx->physical, "VK_KHR_portability_subset"))
        exts[ext_count++] = "VK_KHR_portability_subset";
    if (has_device_extension(ctx, ctx->physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) {
        exts[ext_count++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
        ctx->memory_budget = true;
        for (uint32_t i = 0; i < ctx->layer_count && !ctx->memory_budget_layer[0]; i++)
            if (has_device_extension_of(ctx, ctx->physical, ctx->layers[i], VK_EXT_MEMORY_BUDGET_EXTENSION_NAME))
                snprintf(ctx->memory_budget_layer, sizeof ctx->memory_budget_layer, "%s", ctx->layers[i]);
    }
    /* One descriptor set per draw without pools (eng_push_bindings);
     * offered nearly everywhere, core in 1.4. */
    bool push = has_device_extension(ctx, ctx->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    if (push)
        exts[ext_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    /* Per distinct family, as many queues as the kinds take from it (a
     * family's spare queues serve kinds it shares with graphics). */
    static const float priorities[ENG_QUEUE_KIND_COUNT] = { 1.0f, 1.0f, 1.0f };
    VkDeviceQueueCreateInfo qcis[ENG_QUEUE_KIND_COUNT];
    uint32_t qci_count = 0;
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++) {
        if (ctx->families[k] == UINT32_MAX)
            continue;
        uint32_t c = 0;
        while (c < qci_count && qcis[c].queueFamilyIndex != ctx->families[k])
            c++;
        if (c == qci_count)
            qcis[qci_count++] = (VkDeviceQueueCreateInfo){
                .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                .queueFamilyIndex = ctx->families[k],
                .pQueuePriorities = priorities,
            };
        if (qcis[c].queueCount < ctx->queue_index[k] + 1)
            qcis[c].queueCount = ctx->queue_index[k] + 1;
    }
    /* Core since 1.2 and required there (the picked device is 1.3): the
     * graph orders work across queues with timeline semaphores. */
    VkPhysicalDeviceVulkan12Features *f12 = &df->f12;
    VkPhysicalDeviceVulkan13Features *f13 = &df->f13;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR *lr = &df->lr;
    *f12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .timelineSemaphore = VK_TRUE,
    };
    *f13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = f12,
        .dynamicRendering = VK_TRUE,
        .synchronization2 = VK_TRUE,
        /* Mandatory in 1.3; glslc targeting vulkan1.3 emits LocalSizeId,
         * which needs it on. */
        .maintenance4 = VK_TRUE,
    };
    *lr = (VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
        .dynamicRenderingLocalRead = VK_TRUE,
    };
    if (ctx->local_read.supported) {
        exts[ext_count++] = VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME;
        f12->pNext = lr;
    }
    df->own = (VkPhysicalDeviceFeatures2){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = f13 };
    VkPhysicalDeviceFeatures2 *f2 = &df->own;
    VkBaseOutStructure *tail = NULL;
    if (desc->features) {
        /* The application's chain, with the engine's members set in its
         * structs of the engine's types, the engine's other structs
         * linked at its end. */
        int missing = missing_core_feature(&ctx->vk, ctx->physical, &desc->features->features);
        if (missing >= 0)
            return eng__fail(ENG_ERROR_MISSING_FEATURE, "eng_context_create: the device lacks core feature %d "
                             "(by its place in VkPhysicalDeviceFeatures) of eng_context_desc.features", missing);
        f2 = desc->features;
        VkBaseOutStructure *mine[3] = { (VkBaseOutStructure *)f12, (VkBaseOutStructure *)f13,
                                        ctx->local_read.supported ? (VkBaseOutStructure *)lr : NULL };
        VkBaseOutStructure *extra = NULL;
        for (int i = 2; i >= 0; i--) {
            if (!mine[i])
                continue;
            VkBaseOutStructure *theirs = chain_find(f2->pNext, mine[i]->sType);
            if (theirs) {
                if (mine[i] == (VkBaseOutStructure *)f12)
                    ((VkPhysicalDeviceVulkan12Features *)theirs)->timelineSemaphore = VK_TRUE;
                else if (mine[i] == (VkBaseOutStructure *)f13) {
                    VkPhysicalDeviceVulkan13Features *t = (VkPhysicalDeviceVulkan13Features *)theirs;
                    t->dynamicRendering = t->synchronization2 = t->maintenance4 = VK_TRUE;
                } else
                    ((VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR *)theirs)->dynamicRenderingLocalRead =
                        VK_TRUE;
            } else {
                mine[i]->pNext = extra;
                extra = mine[i];
            }
        }
        tail = (VkBaseOutStructure *)f2;
        while (tail->pNext)
            tail = tail->pNext;
        tail->pNext = extra;
    }
    df->chain = f2;
    df->tail = tail;
    for (uint32_t i = 0; i < desc->device_extension_count; i++) {
        const char *name = desc->device_extensions[i];
        bool have = false;
        for (uint32_t k = 0; k < ext_count && !have; k++)
            have = strcmp(exts[k], name) == 0;
        if (have)
            continue;
        if (!has_device_extension(ctx, ctx->physical, name))
            return eng__fail(ENG_ERROR_UNSUPPORTED, "eng_context_create: device extension %s is not offered by %s",
                             name, ctx->properties.deviceName);
        exts[ext_count++] = name;
    }
    VkDeviceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = f2,
        .queueCreateInfoCount = qci_count,
        .pQueueCreateInfos = qcis,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VkResult vr = vk->CreateDevice(ctx->physical, &ci, vk->allocator, &ctx->device);
    if (vr != VK_SUCCESS)
        return eng__vk_fail(vr, "vkCreateDevice");
    ctx->samplers.anisotropy = desc->features && desc->features->features.samplerAnisotropy;
    const char *missing = eng__vk_load_device(vk, ctx->device, ctx->surface != VK_NULL_HANDLE, push);
    if (missing)
        return eng__fail(ENG_ERROR_VULKAN, "eng_context_create: the device does not give %s", missing);
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++)
        if (ctx->families[k] != UINT32_MAX)
            vk->GetDeviceQueue(ctx->device, ctx->families[k], ctx->queue_index[k], &ctx->queues[k]);
    ctx->queue = ctx->queues[ENG_QUEUE_GRAPHICS];
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    ENG_VK_CHECK(vk->CreateCommandPool(ctx->device, &pci, vk->allocator, &ctx->once_pool));
    return ENG_SUCCESS;
}

/* The render graph's messages about the device and its graphs, to the
 * context's log (their errors also come back as result codes). Without
 * one the graph's own default log prints them (rg_log_fn), each distinct
 * line once per placement. */
static void graph_log(void *user, rg_log_level level, const char *object, const char *message)
{
    eng_context *ctx = user;
    if (level == RG_LOG_ERROR && ctx->making_graph_device)
        snprintf(ctx->graph_error, sizeof ctx->graph_error, "%s", message ? message : "");
    if (ctx->log)
        ctx->log(ctx->log_user, level, object, message);
}

/* The device as render graphs see it: its handles, the loader's entry
 * point, the queues the context made and what create_device enabled
 * (timeline semaphores always, local read where offered). */
static eng_result create_graph_device(eng_context *ctx, const void *enabled_features)
{
    rg_device_desc d = {
        .instance = ctx->instance,
        .physical_device = ctx->physical,
        .device = ctx->device,
        .get_instance_proc_addr = ctx->vk.GetInstanceProcAddr,
        .api_version = ENG__API_VERSION,
        .enabled_features = enabled_features,
        .timeline_semaphore = ctx->timeline,
        .local_read = ctx->local_read.supported,
        .debug_utils = ctx->debug_utils,
        .log = ctx->log ? graph_log : NULL,
        .log_user = ctx,
        .allocator = ctx->host.alloc ? &ctx->host : NULL,
        .vk_allocator = ctx->vk.allocator,
    };
    static const eng_queue_kind kinds[RG_QUEUE_COUNT] = {
        [RG_QUEUE_GRAPHICS] = ENG_QUEUE_GRAPHICS,
        [RG_QUEUE_COMPUTE] = ENG_QUEUE_COMPUTE,
        [RG_QUEUE_TRANSFER] = ENG_QUEUE_TRANSFER,
    };
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        d.queues[q] = (rg_device_queue){ctx->queues[kinds[q]], ctx->families[kinds[q]]};
    ctx->making_graph_device = true;
    rg_result r = rg_device_create(&d, &ctx->graph_device);
    if (r != RG_SUCCESS && !d.log) {
        /* The reason went to stderr; asked again through graph_log, it
         * is kept for eng_last_error as well. */
        rg_device *again = NULL;
        d.log = graph_log;
        rg_device_create(&d, &again);
        rg_device_destroy(again);
    }
    ctx->making_graph_device = false;
    if (r != RG_SUCCESS)
        return eng__fail(r == RG_ERROR_OUT_OF_MEMORY ? ENG_ERROR_OUT_OF_MEMORY
                         : r == RG_ERROR_UNSUPPORTED  ? ENG_ERROR_MISSING_FEATURE
                                                      : ENG_ERROR_VULKAN,
                         "eng_context_create: the render graph's device: %s%s%s", rg_result_string(r),
                         ctx->graph_error[0] ? ": " : "", ctx->graph_error);
    take_graph_caps(ctx);
    return ENG_SUCCESS;
}

/* A context over the application's instance and device: their
 * properties read, the queues and enabled features taken as given. */
static eng_result adopt_device(eng_context *ctx, const eng_context_desc *desc)
{
    const eng_existing_device *e = desc->existing;
    eng__vk *vk = &ctx->vk;
    if (!e->instance || !e->physical_device || !e->device || !e->queues[ENG_QUEUE_GRAPHICS])
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: eng_existing_device needs the instance, "
                         "physical device, device and graphics queue");
    if (!e->enabled_features)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: eng_existing_device.enabled_features is "
                         "NULL (the pNext chain the application gave vkCreateDevice is required)");
    ctx->borrowed = true;
    ctx->instance = e->instance;
    ctx->physical = e->physical_device;
    ctx->device = e->device;
    ctx->debug_utils = e->debug_utils;
    const char *missing = eng__vk_load_instance(vk, ctx->instance, false, ctx->debug_utils);
    if (!missing)
        missing = eng__vk_load_device(vk, ctx->device, false, e->push_descriptor);
    if (missing)
        return eng__fail(ENG_ERROR_VULKAN, "eng_context_create: get_instance_proc_addr does not give %s", missing);
    vk->GetPhysicalDeviceProperties(ctx->physical, &ctx->properties);
    if (ctx->properties.apiVersion < VK_API_VERSION_1_3)
        return eng__fail(ENG_ERROR_MISSING_FEATURE, "eng_context_create: %s offers Vulkan %u.%u, below 1.3",
                         ctx->properties.deviceName, VK_API_VERSION_MAJOR(ctx->properties.apiVersion),
                         VK_API_VERSION_MINOR(ctx->properties.apiVersion));
    vk->GetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
    /* The compute and transfer queues need timeline semaphores between
     * them and graphics. */
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++) {
        bool take = e->queues[k] && (k == ENG_QUEUE_GRAPHICS || e->timeline_semaphore);
        ctx->queues[k] = take ? e->queues[k] : VK_NULL_HANDLE;
        ctx->families[k] = take ? e->families[k] : UINT32_MAX;
    }
    ctx->queue = ctx->queues[ENG_QUEUE_GRAPHICS];
    ctx->queue_family = ctx->families[ENG_QUEUE_GRAPHICS];
    ctx->timeline = e->timeline_semaphore;
    ctx->memory_budget = e->memory_budget;
    eng_context_desc probe = { .no_local_read = !e->local_read };
    query_device(ctx, &probe);
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    ENG_VK_CHECK(vk->CreateCommandPool(ctx->device, &pci, vk->allocator, &ctx->once_pool));
    return ENG_SUCCESS;
}

/* The context's own instance, device and graph device. */
static eng_result create_owned(eng_context *ctx, const eng_context_desc *desc)
{
    ctx->timeline = true; /* create_device enables it */
    eng_result res = create_instance(ctx, desc);
    if (res == ENG_SUCCESS && desc->create_surface)
        res = create_surface(ctx, desc);
    if (res == ENG_SUCCESS)
        res = pick_device(ctx, desc);
    if (res == ENG_SUCCESS)
        res = find_extra_families(ctx, desc);
    if (res != ENG_SUCCESS)
        return res;
    query_device(ctx, desc);
    device_features df = { 0 };
    res = create_device(ctx, desc, &df);
    if (res == ENG_SUCCESS)
        res = create_graph_device(ctx, df.chain);
    unlink_features(&df);
    return res;
}

eng_result eng_context_create(const eng_context_desc *desc, eng_context **out)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: NULL desc or out");
    const eng_existing_device *e = desc->existing;
    const rg_allocator *host = e ? e->allocator : desc->allocator;
    const VkAllocationCallbacks *vk_allocator = e ? e->vk_allocator : desc->vk_allocator;
    PFN_vkGetInstanceProcAddr gipa = e ? e->get_instance_proc_addr : desc->get_instance_proc_addr;
    if (host && (!host->alloc || !host->realloc || !host->free))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: allocator: alloc, realloc and free are "
                         "all required");
    eng_context *ctx = eng__host_calloc(host, 1, sizeof *ctx);
    if (!ctx)
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "eng_context_create: out of host memory");
    if (host)
        ctx->host = *host;
    if (vk_allocator) {
        ctx->vk_allocator = *vk_allocator;
        ctx->vk.allocator = &ctx->vk_allocator;
    }
    ctx->validation = desc->validation;
    ctx->quiet = desc->quiet;
    ctx->log = desc->log;
    ctx->log_user = desc->log_user;
    /* The loader's entry point is the only Vulkan symbol the engine names. */
    const char *missing = eng__vk_load_global(&ctx->vk, gipa ? gipa : vkGetInstanceProcAddr);
    eng_result res = ENG_SUCCESS;
    if (missing)
        res = eng__fail(ENG_ERROR_VULKAN, "eng_context_create: get_instance_proc_addr does not give %s", missing);
    else if (e) {
        res = adopt_device(ctx, desc);
        if (res == ENG_SUCCESS)
            res = create_graph_device(ctx, e->enabled_features);
    } else {
        res = create_owned(ctx, desc);
    }
    if (res != ENG_SUCCESS) {
        /* Keep the message: teardown must not overwrite it. */
        eng_context_destroy(ctx);
        return res;
    }
    *out = ctx;
    return ENG_SUCCESS;
}

void eng_context_destroy(eng_context *ctx)
{
    if (!ctx)
        return;
    const eng__vk *vk = &ctx->vk;
    rg_device_destroy(ctx->graph_device);
    if (ctx->device) {
        if (vk->DeviceWaitIdle) /* NULL: creation failed before the device's functions */
            vk->DeviceWaitIdle(ctx->device);
        eng__sampler_cache_destroy(&ctx->samplers, vk, ctx->device, &ctx->host);
        if (ctx->once_pool)
            vk->DestroyCommandPool(ctx->device, ctx->once_pool, vk->allocator);
        if (!ctx->borrowed && vk->DestroyDevice)
            vk->DestroyDevice(ctx->device, vk->allocator);
    }
    if (!ctx->borrowed) {
        /* The application's window system made the surface, without the
         * engine's allocation callbacks. */
        if (ctx->surface)
            vk->DestroySurfaceKHR(ctx->instance, ctx->surface, NULL);
        if (ctx->messenger)
            vk->DestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, vk->allocator);
        if (ctx->instance && vk->DestroyInstance)
            vk->DestroyInstance(ctx->instance, vk->allocator);
    }
    rg_allocator host = ctx->host;
    eng__host_free(&host, ctx);
}

VkInstance eng_context_instance(const eng_context *ctx) { return ctx->instance; }
VkPhysicalDevice eng_context_physical_device(const eng_context *ctx) { return ctx->physical; }
VkDevice eng_context_device(const eng_context *ctx) { return ctx->device; }
rg_device *eng_context_graph_device(const eng_context *ctx) { return ctx->graph_device; }
VkQueue eng_context_queue(const eng_context *ctx) { return ctx->queue; }
uint32_t eng_context_queue_family(const eng_context *ctx) { return ctx->queue_family; }
VkQueue eng_context_queue_of(const eng_context *ctx, eng_queue_kind kind)
{
    return (unsigned)kind < ENG_QUEUE_KIND_COUNT ? ctx->queues[kind] : VK_NULL_HANDLE;
}
uint32_t eng_context_queue_family_of(const eng_context *ctx, eng_queue_kind kind)
{
    return (unsigned)kind < ENG_QUEUE_KIND_COUNT ? ctx->families[kind] : UINT32_MAX;
}
VkSurfaceKHR eng_context_surface(const eng_context *ctx) { return ctx->surface; }
const VkPhysicalDeviceProperties *eng_context_properties(const eng_context *ctx) { return &ctx->properties; }
const VkPhysicalDeviceMemoryProperties *eng_context_memory_properties(const eng_context *ctx) { return &ctx->memory; }
bool eng_context_has_memory_budget(const eng_context *ctx) { return ctx->memory_budget; }
VkDriverId eng_context_driver(const eng_context *ctx) { return ctx->driver; }
eng_local_read eng_context_local_read(const eng_context *ctx) { return ctx->local_read; }
const char *eng_context_memory_budget_layer(const eng_context *ctx)
{
    return ctx->memory_budget && ctx->memory_budget_layer[0] ? ctx->memory_budget_layer : NULL;
}
eng_message_counts eng_context_messages(const eng_context *ctx) { return ctx->messages; }
const char *eng_context_first_message(const eng_context *ctx) { return ctx->first_message; }
eng__sampler_cache *eng__context_samplers(eng_context *ctx) { return &ctx->samplers; }
const eng__vk *eng__vk_of(const eng_context *ctx) { return &ctx->vk; }
const rg_allocator *eng__host_of(const eng_context *ctx) { return &ctx->host; }

eng_result eng_context_submit_once(eng_context *ctx, eng_record_fn record, void *user)
{
    if (!ctx || !record)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_submit_once: NULL context or record function");
    const eng__vk *vk = &ctx->vk;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    eng_result res = ENG_SUCCESS;
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->once_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    ENG_VK_TRY(res, vk->AllocateCommandBuffers(ctx->device, &ai, &cmd), done);
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    ENG_VK_TRY(res, vk->CreateFence(ctx->device, &fci, vk->allocator, &fence), done);
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    ENG_VK_TRY(res, vk->BeginCommandBuffer(cmd, &bi), done);
    record(cmd, user);
    ENG_VK_TRY(res, vk->EndCommandBuffer(cmd), done);
    VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi };
    ENG_VK_TRY(res, vk->QueueSubmit2(ctx->queue, 1, &si, fence), done);
    ENG_VK_TRY(res, vk->WaitForFences(ctx->device, 1, &fence, VK_TRUE, UINT64_MAX), done);
done:
    if (fence)
        vk->DestroyFence(ctx->device, fence, vk->allocator);
    if (cmd)
        vk->FreeCommandBuffers(ctx->device, ctx->once_pool, 1, &cmd);
    return res;
}

eng_result eng_context_wait_idle(eng_context *ctx)
{
    if (!ctx)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_wait_idle: NULL context");
    const eng__vk *vk = &ctx->vk;
    ENG_VK_CHECK(vk->DeviceWaitIdle(ctx->device));
    return ENG_SUCCESS;
}

void eng__set_name(eng_context *ctx, VkObjectType type, uint64_t handle, const char *name)
{
    if (!ctx->vk.SetDebugUtilsObjectNameEXT || !name || !name[0])
        return;
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    ctx->vk.SetDebugUtilsObjectNameEXT(ctx->device, &info);
}

bool eng_context_has_push_descriptors(const eng_context *ctx) { return ctx && ctx->vk.CmdPushDescriptorSetKHR; }
