/* The context's device (context.h): the physical device picked, its queue
 * families, what it offers, the features enabled (the engine's and the
 * application's chain) and the logical device with its queues. */
#include "context.h"
#include "vk_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
eng_result eng__find_extra_families(eng_context *ctx, const eng_context_desc *desc)
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

eng_result eng__pick_device(eng_context *ctx, const eng_context_desc *desc)
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
void eng__query_device(eng_context *ctx, const eng_context_desc *desc)
{
    const eng__vk *vk = &ctx->vk;
    const VkPhysicalDeviceLimits *lim = &ctx->properties.limits;
    ctx->local_read = (eng_local_read){
        .max_color_attachments = lim->maxColorAttachments,
        .max_input_attachments = lim->maxPerStageDescriptorInputAttachments,
    };
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR lr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
    };
    VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT fold = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT, .pNext = &lr,
    };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fold };
    vk->GetPhysicalDeviceFeatures2(ctx->physical, &f2);
    ctx->local_read.supported =
        !desc->no_local_read && lr.dynamicRenderingLocalRead &&
        eng__has_device_extension(ctx, ctx->physical, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME);
    const char *no_fold = getenv("ENG_NO_MSAA_FOLD");
    ctx->msaa_fold =
        !desc->no_msaa_fold && !(no_fold && strcmp(no_fold, "1") == 0) && fold.multisampledRenderToSingleSampled &&
        eng__has_device_extension(ctx, ctx->physical, VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME);
}

/* The driver and what local read covers, as the render graph's device read
 * them (rg_device_create: multisampled and depth/stencil attachments only
 * where a 1.4 property says so). */
void eng__take_graph_caps(eng_context *ctx)
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


/* Leaves the application's chain as it gave it. */
void eng__unlink_features(eng__device_features *df)
{
    if (df->tail)
        df->tail->pNext = NULL;
    df->tail = NULL;
}

eng_result eng__create_device(eng_context *ctx, const eng_context_desc *desc, eng__device_features *df)
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
    if (eng__has_device_extension(ctx, ctx->physical, "VK_KHR_portability_subset"))
        exts[ext_count++] = "VK_KHR_portability_subset";
    if (eng__has_device_extension(ctx, ctx->physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) {
        exts[ext_count++] = VK_EXT_MEMORY_BUDGET_EXTENSION_NAME;
        ctx->memory_budget = true;
        for (uint32_t i = 0; i < ctx->layer_count && !ctx->memory_budget_layer[0]; i++)
            if (eng__has_device_extension_of(ctx, ctx->physical, ctx->layers[i], VK_EXT_MEMORY_BUDGET_EXTENSION_NAME))
                snprintf(ctx->memory_budget_layer, sizeof ctx->memory_budget_layer, "%s", ctx->layers[i]);
    }
    /* One descriptor set per draw without pools (eng_push_bindings);
     * offered nearly everywhere, core in 1.4. */
    bool push = eng__has_device_extension(ctx, ctx->physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
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
    df->fold = (VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT,
        .multisampledRenderToSingleSampled = VK_TRUE,
    };
    VkBaseOutStructure *last = (VkBaseOutStructure *)f12;
    if (ctx->local_read.supported) {
        exts[ext_count++] = VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME;
        last = last->pNext = (VkBaseOutStructure *)lr;
    }
    if (ctx->msaa_fold) {
        exts[ext_count++] = VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME;
        last->pNext = (VkBaseOutStructure *)&df->fold;
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
        VkBaseOutStructure *mine[4] = { (VkBaseOutStructure *)f12, (VkBaseOutStructure *)f13,
                                        ctx->local_read.supported ? (VkBaseOutStructure *)lr : NULL,
                                        ctx->msaa_fold ? (VkBaseOutStructure *)&df->fold : NULL };
        f12->pNext = lr->pNext = NULL; /* linked below, each where the application has none */
        VkBaseOutStructure *extra = NULL;
        for (int i = 3; i >= 0; i--) {
            if (!mine[i])
                continue;
            VkBaseOutStructure *theirs = chain_find(f2->pNext, mine[i]->sType);
            if (theirs) {
                if (mine[i] == (VkBaseOutStructure *)f12)
                    ((VkPhysicalDeviceVulkan12Features *)theirs)->timelineSemaphore = VK_TRUE;
                else if (mine[i] == (VkBaseOutStructure *)f13) {
                    VkPhysicalDeviceVulkan13Features *t = (VkPhysicalDeviceVulkan13Features *)theirs;
                    t->dynamicRendering = t->synchronization2 = t->maintenance4 = VK_TRUE;
                } else if (mine[i] == (VkBaseOutStructure *)lr) {
                    ((VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR *)theirs)->dynamicRenderingLocalRead =
                        VK_TRUE;
                } else {
                    ((VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT *)theirs)
                        ->multisampledRenderToSingleSampled = VK_TRUE;
                }
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
        if (!eng__has_device_extension(ctx, ctx->physical, name))
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
    return eng__create_once_pool(ctx);
}

eng_result eng__create_once_pool(eng_context *ctx)
{
    const eng__vk *vk = &ctx->vk;
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    ENG_VK_CHECK(vk->CreateCommandPool(ctx->device, &pci, vk->allocator, &ctx->once_pool));
    return ENG_SUCCESS;
}
