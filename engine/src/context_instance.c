/* The context's instance (context.h): layers and extensions checked and
 * enabled, the validation messenger that counts and prints messages, the
 * application's surface, and device extension queries. */
#include "context.h"
#include "vk_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
bool eng__has_device_extension_of(const eng_context *ctx, VkPhysicalDevice pd, const char *layer,
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

bool eng__has_device_extension(const eng_context *ctx, VkPhysicalDevice pd, const char *name)
{
    return eng__has_device_extension_of(ctx, pd, NULL, name);
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

eng_result eng__create_instance(eng_context *ctx, const eng_context_desc *desc)
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
                    return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                                     "extra_layers and ENG_LAYERS: at most 8 layers in all");
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
eng_result eng__create_surface(eng_context *ctx, const eng_context_desc *desc)
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
