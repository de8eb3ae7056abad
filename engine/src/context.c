/* Context: instance, validation messenger, the application's surface,
 * device choice, logical device, queues (graphics, and async compute and
 * transfer where the device has them), and a command pool for one-off setup
 * submissions. */
#include "context.h"
#include "vk_load.h"

#include <stdlib.h>
#include <string.h>

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

/* ENG_TILE_PROFILE (a tile profile's key, as `rgtool --help` lists them
 * and the tile-memory layer's VKGRAPH_TILE_PROFILE takes) makes graphs
 * merge for that tile profile; unset: the graph detects it from the device. */
static rg_tile_profile tile_profile_from_env(void)
{
    const char *env = getenv("ENG_TILE_PROFILE");
    if (!env || !*env)
        return RG_TILE_AUTO;
    for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT; p++)
        if (strcmp(env, rg_tile_profile_info((rg_tile_profile)p).key) == 0)
            return (rg_tile_profile)p;
    return RG_TILE_PROFILE_COUNT; /* refused by the caller */
}

/* The device as render graphs see it: its handles, the loader's entry
 * point, the queues the context made and what create_device enabled
 * (timeline semaphores always, local read where offered), the tile
 * profile ENG_TILE_PROFILE names. */
static eng_result create_graph_device(eng_context *ctx, const void *enabled_features)
{
    rg_tile_profile tile = tile_profile_from_env();
    if (tile == RG_TILE_PROFILE_COUNT)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_context_create: ENG_TILE_PROFILE='%.64s': want a tile "
                         "profile's key (desktop, apple7, mali-g610, adreno-a840, ...: rgtool --help lists them)",
                         getenv("ENG_TILE_PROFILE"));
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
        .tile_profile = tile,
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
    eng__take_graph_caps(ctx);
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
    eng_context_desc probe = { .no_local_read = !e->local_read, .no_msaa_fold = true };
    eng__query_device(ctx, &probe);
    return eng__create_once_pool(ctx);
}

/* The context's own instance, device and graph device. */
static eng_result create_owned(eng_context *ctx, const eng_context_desc *desc)
{
    ctx->timeline = true; /* create_device enables it */
    eng_result res = eng__create_instance(ctx, desc);
    if (res == ENG_SUCCESS && desc->create_surface)
        res = eng__create_surface(ctx, desc);
    if (res == ENG_SUCCESS)
        res = eng__pick_device(ctx, desc);
    if (res == ENG_SUCCESS)
        res = eng__find_extra_families(ctx, desc);
    if (res != ENG_SUCCESS)
        return res;
    eng__query_device(ctx, desc);
    eng__device_features df = { 0 };
    res = eng__create_device(ctx, desc, &df);
    if (res == ENG_SUCCESS)
        res = create_graph_device(ctx, df.chain);
    eng__unlink_features(&df);
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
    /* The engine names no Vulkan symbol: without the application's entry
     * point it opens the loader itself. */
    if (!gipa && !(gipa = eng__vk_loader_open(&ctx->loader))) {
        eng_result r = eng__fail(ENG_ERROR_NO_DEVICE, "eng_context_create: no Vulkan loader could be opened (tried "
                                 "%s): install one, or pass get_instance_proc_addr", eng__vk_loader_names());
        eng_context_destroy(ctx);
        return r;
    }
    const char *missing = eng__vk_load_global(&ctx->vk, gipa);
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
    /* First the wait: rg_device_destroy destroys what frames may use (a
     * graph's placement held for them, or one still made on it). NULL:
     * creation failed before the device's functions. */
    if (ctx->device && vk->DeviceWaitIdle)
        vk->DeviceWaitIdle(ctx->device);
    rg_device_destroy(ctx->graph_device);
    if (ctx->device) {
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
    eng__vk_loader_close(ctx->loader);
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
    VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi};
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
