/* The application's Vulkan device (rg_device): every function the library
 * calls, loaded through the application's vkGetInstanceProcAddr (so the
 * loader, volk or the application's own dispatch serve it alike), the
 * properties placement and compile read, the queues graphs run on, and
 * the objects of graphs' freed placements that frames in flight may still
 * use (retirement, rendergraph.h "Placement and the GPU"). Calls no other
 * file of the library. */
#include "base/device.h"
#include "model.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

/* A message about the device: to its log, or the default one. */
static void device_log(rg_log_fn log, void *user, rg_log_level level, const char *message)
{
    if (log)
        log(user, level, "device", message);
    else
        rg__log_default(NULL, level, "device", message);
}

void rg__device_log(const rg_device *d, rg_log_level level, const char *message)
{
    device_log(d->log, d->log_user, level, message);
}

static rg_result device_fail(const rg_device_desc *desc, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static rg_result device_fail(const rg_device_desc *desc, rg_result r, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    device_log(desc ? desc->log : NULL, desc ? desc->log_user : NULL, RG_LOG_ERROR, message);
    return r;
}

/* The instance's functions, then the device's through the
 * vkGetDeviceProcAddr the instance gave; the name of the first one missing
 * (NULL: none). */
static const char *load(rg_device *d, PFN_vkGetInstanceProcAddr gipa, bool local_read, bool debug_utils)
{
#define RG__LOAD_INSTANCE(name)                                                                                   \
    if (!(d->vk.name = (PFN_vk##name)gipa(d->instance, "vk" #name)))                                              \
        return "vk" #name;
    RG__VK_INSTANCE_FUNCTIONS(RG__LOAD_INSTANCE)
#undef RG__LOAD_INSTANCE
#define RG__LOAD_DEVICE(name)                                                                                     \
    if (!(d->vk.name = (PFN_vk##name)d->vk.GetDeviceProcAddr(d->device, "vk" #name)))                             \
        return "vk" #name;
    RG__VK_DEVICE_FUNCTIONS(RG__LOAD_DEVICE)
#undef RG__LOAD_DEVICE
    if (local_read) {
        d->vk.CmdSetRenderingAttachmentLocationsKHR = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)
            d->vk.GetDeviceProcAddr(d->device, "vkCmdSetRenderingAttachmentLocationsKHR");
        d->vk.CmdSetRenderingInputAttachmentIndicesKHR = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)
            d->vk.GetDeviceProcAddr(d->device, "vkCmdSetRenderingInputAttachmentIndicesKHR");
        if (!d->vk.CmdSetRenderingAttachmentLocationsKHR)
            return "vkCmdSetRenderingAttachmentLocationsKHR (local_read is set)";
        if (!d->vk.CmdSetRenderingInputAttachmentIndicesKHR)
            return "vkCmdSetRenderingInputAttachmentIndicesKHR (local_read is set)";
    }
    /* An instance extension's commands: through the instance. */
#define RG__LOAD_DEBUG_UTILS(name)                                                                                \
    if (debug_utils && !(d->vk.name = (PFN_vk##name)gipa(d->instance, "vk" #name)))                               \
        return "vk" #name " (debug_utils is set)";
    RG__VK_DEBUG_UTILS_FUNCTIONS(RG__LOAD_DEBUG_UTILS)
#undef RG__LOAD_DEBUG_UTILS
    return NULL;
}

/* What compile needs of the device: limits, the driver (for the merge
 * policy), local read as enabled, with the attachments it covers where a
 * 1.4 property says so (Mesa 25 lavapipe offers the extension yet reports
 * both properties VK_FALSE, so nothing beyond them is assumed), and the
 * queues besides graphics, the tile profile (tile_profile given, else
 * detected from the IDs). */
static void read_caps(rg_device *d, uint32_t api_version, bool local_read, rg_tile_profile tile_profile)
{
    d->vk.GetPhysicalDeviceProperties(d->physical, &d->properties);
    d->vk.GetPhysicalDeviceMemoryProperties(d->physical, &d->memory);
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    /* A newer version's core properties may be asked for only where both
     * the device and the instance reach it. */
    uint32_t version = d->properties.apiVersion < api_version ? d->properties.apiVersion : api_version;
#ifdef VK_VERSION_1_4
    VkPhysicalDeviceVulkan14Properties p14 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_PROPERTIES};
    bool have_p14 = version >= VK_API_VERSION_1_4;
    if (have_p14)
        driver.pNext = &p14;
#else
    (void)version;
#endif
    d->vk.GetPhysicalDeviceProperties2(d->physical, &p2);
    /* Timestamps per queue (GPU timings): a family with no valid bits is
     * not timed. */
    VkQueueFamilyProperties families[32];
    uint32_t family_count = 32;
    d->vk.GetPhysicalDeviceQueueFamilyProperties(d->physical, &family_count, families);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        if (d->queues[q].queue && d->queues[q].family < family_count)
            d->timestamp_bits[q] = families[d->queues[q].family].timestampValidBits;
    const VkPhysicalDeviceLimits *lim = &d->properties.limits;
    d->caps = (rg_device_caps){
        .local_read = local_read,
        .max_color_attachments = lim->maxColorAttachments,
        .max_input_attachments = lim->maxPerStageDescriptorInputAttachments,
        .driver = driver.driverID,
        .compute_queue = d->queues[RG_QUEUE_COMPUTE].queue != VK_NULL_HANDLE,
        .transfer_queue = d->queues[RG_QUEUE_TRANSFER].queue != VK_NULL_HANDLE,
        .tile_profile = tile_profile ? tile_profile
                                     : rg_tile_profile_detect(d->properties.vendorID, d->properties.deviceID,
                                                              driver.driverID),
        .tile_memory = rg__tile_memory_of(d->properties.vendorID, d->properties.deviceID),
    };
#ifdef VK_VERSION_1_4
    if (local_read && have_p14) {
        d->caps.local_read_depth_stencil = p14.dynamicRenderingLocalReadDepthStencilAttachments;
        d->caps.local_read_multisampled = p14.dynamicRenderingLocalReadMultisampledAttachments;
    }
#endif
}

/* ------------------------------------------------------------- features */

/* What the application says it enabled (rg_device_desc.enabled_features):
 * the features the graph records with, read from the chain whichever
 * structs carry them (the Vulkan 1.2 and 1.3 structs, the extensions'
 * own, a VkPhysicalDeviceFeatures2 heading them). */
typedef struct enabled {
    bool dynamic_rendering, synchronization2, timeline_semaphore, local_read, msaa_to_single_sampled;
} enabled;

static enabled enabled_in(const void *chain)
{
    enabled e = {0};
    for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
        switch ((int)s->sType) { /* int: some types postdate older headers */
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
            const VkPhysicalDeviceVulkan13Features *f = (const void *)s;
            e.dynamic_rendering |= f->dynamicRendering == VK_TRUE;
            e.synchronization2 |= f->synchronization2 == VK_TRUE;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
            e.timeline_semaphore |= ((const VkPhysicalDeviceVulkan12Features *)(const void *)s)->timelineSemaphore;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
            e.dynamic_rendering |=
                ((const VkPhysicalDeviceDynamicRenderingFeatures *)(const void *)s)->dynamicRendering;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
            e.synchronization2 |=
                ((const VkPhysicalDeviceSynchronization2Features *)(const void *)s)->synchronization2;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
            e.timeline_semaphore |=
                ((const VkPhysicalDeviceTimelineSemaphoreFeatures *)(const void *)s)->timelineSemaphore;
            break;
#ifdef VK_VERSION_1_4
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES:
            e.local_read |=
                ((const VkPhysicalDeviceVulkan14Features *)(const void *)s)->dynamicRenderingLocalRead;
            break;
#endif
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT:
            e.msaa_to_single_sampled |= ((const VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT *)(
                                             const void *)s)->multisampledRenderToSingleSampled;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR:
            e.local_read |= ((const VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR *)(const void *)s)
                                ->dynamicRenderingLocalRead;
            break;
        default:
            break;
        }
    }
    return e;
}

/* The first feature the graph needs that the chain lacks, by its Vulkan
 * name (NULL: none). */
static const char *missing_feature(const rg_device_desc *desc)
{
    enabled e = enabled_in(desc->enabled_features);
    return !e.dynamic_rendering                              ? "dynamicRendering"
           : !e.synchronization2                             ? "synchronization2"
           : desc->timeline_semaphore && !e.timeline_semaphore ? "timelineSemaphore (timeline_semaphore is set)"
           : desc->local_read && !e.local_read ? "dynamicRenderingLocalRead (local_read is set)"
                                               : NULL;
}

/* What the device can check cheaply against the description: the
 * physical device is one of the instance's, and each queue's family is
 * one of its families (graphics with the graphics bit). The reason, or
 * NULL. */
static const char *mismatch(rg_device *d, char *why, size_t size)
{
    VkPhysicalDevice gpus[16];
    uint32_t count = 16;
    VkResult vr = d->vk.EnumeratePhysicalDevices(d->instance, &count, gpus);
    bool found = false;
    for (uint32_t i = 0; (vr == VK_SUCCESS || vr == VK_INCOMPLETE) && i < count; i++)
        found |= gpus[i] == d->physical;
    if ((vr == VK_SUCCESS || vr == VK_INCOMPLETE) && !found) {
        snprintf(why, size, "physical_device is not one of the instance's %u physical devices (a device from "
                 "another instance?)", count);
        return why;
    }
    VkQueueFamilyProperties families[32];
    uint32_t family_count = 32;
    d->vk.GetPhysicalDeviceQueueFamilyProperties(d->physical, &family_count, families);
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        if (!d->queues[q].queue)
            continue;
        if (d->queues[q].family >= family_count) {
            snprintf(why, size, "queues[%s].family %u: the physical device has %u queue families",
                     rg_queue_name((rg_queue)q), d->queues[q].family, family_count);
            return why;
        }
        if (q == RG_QUEUE_GRAPHICS && !(families[d->queues[q].family].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
            snprintf(why, size, "queues[graphics].family %u has no graphics", d->queues[q].family);
            return why;
        }
    }
    return NULL;
}

rg_result rg_device_create(const rg_device_desc *desc, rg_device **out)
{
    if (!out)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: out is NULL");
    *out = NULL;
    if (!desc)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: desc is NULL");
    const char *missing = !desc->instance                                    ? "instance"
                          : !desc->physical_device                           ? "physical_device"
                          : !desc->device                                    ? "device"
                          : !desc->get_instance_proc_addr                    ? "get_instance_proc_addr"
                          : !desc->queues[RG_QUEUE_GRAPHICS].queue           ? "queues[RG_QUEUE_GRAPHICS].queue"
                                                                             : NULL;
    if (!missing && !desc->enabled_features)
        missing = "enabled_features (the feature chain given to vkCreateDevice)";
    if (missing)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: %s is required", missing);
    if ((missing = missing_feature(desc)))
        return device_fail(desc, RG_ERROR_UNSUPPORTED, "rg_device_create: the device was created without %s, "
                           "which the graph records with (enabled_features names what vkCreateDevice enabled)",
                           missing);
    uint32_t api_version = desc->api_version ? desc->api_version : VK_API_VERSION_1_3;
    if (api_version < VK_API_VERSION_1_3)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: api_version %u.%u is below 1.3 "
                           "(the graph records with dynamic rendering and synchronization2)",
                           VK_API_VERSION_MAJOR(api_version), VK_API_VERSION_MINOR(api_version));
    if ((unsigned)desc->tile_profile >= RG_TILE_PROFILE_COUNT)
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: tile_profile %d is not an "
                           "rg_tile_profile", (int)desc->tile_profile);
    rg_allocator alloc;
    if (!rg__allocator_resolve(desc->allocator, NULL, &alloc))
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: allocator given without all three "
                           "functions (alloc, realloc, free)");
    rg_device *d = alloc.alloc(alloc.user, sizeof *d);
    if (!d)
        return device_fail(desc, RG_ERROR_OUT_OF_MEMORY, "rg_device_create: out of host memory");
    /* Zero but for what desc gives; the atomics and the lock are set up
     * after. */
    *d = (rg_device){.instance = desc->instance, .physical = desc->physical_device, .device = desc->device,
                     .queues[RG_QUEUE_GRAPHICS] = desc->queues[RG_QUEUE_GRAPHICS], .log = desc->log,
                     .log_user = desc->log_user, .alloc = alloc, .vk_alloc = desc->vk_allocator};
    atomic_init(&d->retired, NULL);
    if (!rg__mutex_init(&d->graphs_lock) || !rg__mutex_init(&d->retire_lock)) {
        alloc.free(alloc.user, d);
        return device_fail(desc, RG_ERROR_OUT_OF_MEMORY, "rg_device_create: out of system resources (a mutex)");
    }
    atomic_init(&d->magic, RG__DEVICE_LIVE);
    /* Work on another queue waits for timeline semaphores. */
    if (desc->timeline_semaphore)
        for (uint32_t q = RG_QUEUE_COMPUTE; q < RG_QUEUE_COUNT; q++)
            d->queues[q] = desc->queues[q];
    missing = load(d, desc->get_instance_proc_addr, desc->local_read, desc->debug_utils);
    if (missing) {
        rg__device_free(d);
        return device_fail(desc, RG_ERROR_UNSUPPORTED, "rg_device_create: %s not found through "
                           "get_instance_proc_addr", missing);
    }
    char why[256];
    if (mismatch(d, why, sizeof why)) {
        rg__device_free(d);
        return device_fail(desc, RG_ERROR_INVALID_ARGUMENT, "rg_device_create: %s", why);
    }
    read_caps(d, api_version, desc->local_read, desc->tile_profile);
    d->caps.msaa_to_single_sampled = enabled_in(desc->enabled_features).msaa_to_single_sampled;
    uint32_t offered = d->properties.apiVersion;
    if (offered < VK_API_VERSION_1_3) {
        rg__device_free(d);
        return device_fail(desc, RG_ERROR_UNSUPPORTED, "rg_device_create: the device offers Vulkan %u.%u, "
                           "below 1.3", VK_API_VERSION_MAJOR(offered), VK_API_VERSION_MINOR(offered));
    }
    *out = d;
    return RG_SUCCESS;
}

/* ------------------------------------------------------------ retirement */


static void destroy_object(rg_device *d, const rg_pool_memory *pools, const rg__retired *o)
{
    VkDevice dev = d->device;
    const VkAllocationCallbacks *a = d->vk_alloc;
    switch (o->kind) {
    case RG__RETIRED_VIEW: d->vk.DestroyImageView(dev, o->u.view, a); break;
    case RG__RETIRED_IMAGE: d->vk.DestroyImage(dev, o->u.image, a); break;
    case RG__RETIRED_BUFFER: d->vk.DestroyBuffer(dev, o->u.buffer, a); break;
    case RG__RETIRED_MEMORY: d->vk.FreeMemory(dev, o->u.memory, a); break;
    case RG__RETIRED_APP_POOL: pools->free(pools->user, o->u.memory, o->offset); break;
    case RG__RETIRED_QUERY_POOL: d->vk.DestroyQueryPool(dev, o->u.query_pool, a); break;
    case RG__RETIRED_EVENT: d->vk.DestroyEvent(dev, o->u.event, a); break;
    case RG__RETIRED_SEMAPHORE: d->vk.DestroySemaphore(dev, o->u.semaphore, a); break;
    case RG__RETIRED_KINDS: break;
    }
}

/* Kind by kind, so views go before their images, images and buffers
 * before their memory, and the group's own semaphores last. */
static void release_group(rg_device *d, rg__retired_group *grp)
{
    for (uint32_t k = 0; k < RG__RETIRED_KINDS; k++)
        for (uint32_t i = 0; i < grp->count; i++)
            if (grp->objects[i].kind == (rg__retired_kind)k)
                destroy_object(d, &grp->pool_memory, &grp->objects[i]);
    d->alloc.free(d->alloc.user, grp->objects);
    d->alloc.free(d->alloc.user, grp);
}

/* Whether everything the group waits for has signalled: asked, never
 * waited for. A lost device signals everything (its objects may be
 * destroyed). */
static bool signalled(const rg_device *d, const rg__retired_group *grp)
{
    if (grp->held)
        return false;
    for (uint32_t i = 0; i <= RG_QUEUE_COUNT; i++) {
        if (!grp->semaphores[i])
            continue;
        uint64_t value = 0;
        if (d->vk.GetSemaphoreCounterValue(d->device, grp->semaphores[i], &value) == VK_SUCCESS &&
            value < grp->values[i])
            return false;
    }
    return !grp->fence || d->vk.GetFenceStatus(d->device, grp->fence) != VK_NOT_READY;
}

static void push(rg_device *d, rg__retired_group *first, rg__retired_group *last)
{
    rg__retired_group *head = atomic_load(&d->retired);
    do
        last->next = head;
    while (!atomic_compare_exchange_weak(&d->retired, &head, first));
}

/* Whether a group still waiting names semaphore s in its point. */
static bool named_by_waiting(const rg__retired_group *list, VkSemaphore s)
{
    for (const rg__retired_group *grp = list; grp; grp = grp->next)
        for (uint32_t i = 0; !grp->done && i <= RG_QUEUE_COUNT; i++)
            if (grp->semaphores[i] == s)
                return true;
    return false;
}

/* A signalled group whose semaphores a waiting group's point still names
 * (a timeline kept across placements, place/reuse.h) waits with it. */
static bool may_release(const rg__retired_group *list, const rg__retired_group *grp)
{
    for (uint32_t i = 0; i < grp->count; i++)
        if (grp->objects[i].kind == RG__RETIRED_SEMAPHORE && named_by_waiting(list, grp->objects[i].u.semaphore))
            return false;
    return true;
}

uint32_t rg__device_collect(rg_device *d)
{
    rg__mutex_lock(&d->retire_lock);
    /* Taken whole; a group pushed meanwhile waits for the next collect. */
    rg__retired_group *list = atomic_exchange(&d->retired, NULL), *kept = NULL, *kept_last = NULL;
    uint32_t held = 0;
    for (rg__retired_group *grp = list; grp; grp = grp->next)
        grp->done = signalled(d, grp);
    for (bool changed = true; changed;) { /* until no group that waits makes another wait */
        changed = false;
        for (rg__retired_group *grp = list; grp; grp = grp->next)
            if (grp->done && !may_release(list, grp))
                grp->done = false, changed = true;
    }
    while (list) {
        rg__retired_group *grp = list;
        list = grp->next;
        if (grp->done) {
            release_group(d, grp);
            continue;
        }
        held += grp->count;
        grp->next = kept;
        kept = grp;
        if (!kept_last)
            kept_last = grp;
    }
    if (kept)
        push(d, kept, kept_last);
    rg__mutex_unlock(&d->retire_lock);
    return held;
}

uint32_t rg_device_collect(rg_device *device)
{
    return rg__device_live(device, "rg_device_collect") ? rg__device_collect(device) : 0;
}

void rg__retire_begin(rg_graph *g, const rg__retire_point *timelines)
{
    rg__retired_group *point = &g->retiring->point;
    g->retiring->group = NULL;
    g->retiring->open = false;
    rg_device *d = g->dev;
    /* A placement that never reached the device (offline, or undone by a
     * failure) has nothing the GPU could be using. */
    if (!d || !timelines->on_device)
        return;
    *point = (rg__retired_group){.fence = g->retire_fence, .pool_memory = g->pool_memory};
    bool any = g->retire_fence != VK_NULL_HANDLE;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        if (timelines->semaphores[q] && timelines->values[q]) {
            point->semaphores[q] = timelines->semaphores[q];
            point->values[q] = timelines->values[q];
            any = true;
        }
    if (g->retire_timeline) {
        point->semaphores[RG_QUEUE_COUNT] = g->retire_timeline;
        point->values[RG_QUEUE_COUNT] = g->retire_value;
        any = true;
    }
    point->held = g->unretired > 0;
    g->retiring->open = any || point->held;
}

/* The open point's group, made on its first object (a freed placement
 * that retires nothing allocates nothing); NULL when none is open or out
 * of host memory. */
static rg__retired_group *open_group(const rg_graph *g)
{
    rg__retiring *r = g->retiring;
    rg_device *d = g->dev;
    if (!r->open || r->group)
        return r->group;
    r->group = d->alloc.alloc(d->alloc.user, sizeof *r->group);
    if (!r->group) {
        r->open = false;
        device_log(d->log, d->log_user, RG_LOG_ERROR, "retiring a placement: out of host memory; its objects "
                   "are destroyed at once, which frames in flight may still use");
        return NULL;
    }
    *r->group = r->point;
    return r->group;
}

void rg__retire(const rg_graph *g, rg__retired object)
{
    rg__retired_group *grp = open_group(g);
    rg_device *d = g->dev;
    if (grp && grp->count == grp->cap) {
        uint32_t cap = grp->cap ? grp->cap * 2 : 16;
        rg__retired *objects = d->alloc.realloc(d->alloc.user, grp->objects, cap * sizeof *objects);
        if (objects) {
            grp->objects = objects;
            grp->cap = cap;
        }
    }
    if (grp && grp->count < grp->cap)
        grp->objects[grp->count++] = object;
    else if (d)
        destroy_object(d, &g->pool_memory, &object);
}

/* The first time a graph's placement is held for want of a retire point,
 * the log says so (a WARNING: the default log prints it). */
static void warn_held(rg_graph *g, uint32_t objects, const char *what)
{
    if (g->retire_warned)
        return;
    g->retire_warned = true;
    rg__log(g, RG_LOG_WARNING, "%s: graph '%s' recorded %u frame%s (rg_execute) that nothing it knows of signals "
            "after (neither rg_submit nor rg_graph_set_retire_point): the %u Vulkan objects of its freed placement "
            "are kept until rg_device_destroy, since the GPU may still use them. After each submission of the "
            "graph's command buffers call rg_graph_set_retire_point with what it signals (or with no handles once "
            "the GPU is idle)", what, g->name, g->unretired, g->unretired == 1 ? "" : "s", objects);
}

void rg__retire_end(rg_graph *g, const char *what)
{
    rg__retired_group *grp = g->retiring->group;
    g->retiring->group = NULL;
    g->retiring->open = false;
    if (!g->dev)
        return;
    if (grp && grp->count) {
        bool held = grp->held;
        uint32_t count = grp->count;
        if (g->keep_retired) {
            grp->next = g->kept;
            g->kept = grp;
        } else {
            push(g->dev, grp, grp);
        }
        if (held)
            warn_held(g, count, what);
    } else if (grp) {
        release_group(g->dev, grp);
    }
    g->unretired = 0; /* the frames' objects are in the group */
    rg__device_collect(g->dev);
}

void rg__retire_release(rg_graph *g)
{
    rg__retired_group *first = g->kept, *last = first;
    if (!first)
        return;
    while (last->next)
        last = last->next;
    g->kept = NULL;
    push(g->dev, first, last);
}

/* The application waited for the device: whatever is held goes. */
void rg__device_free(rg_device *d)
{
    rg__retired_group *list = atomic_exchange(&d->retired, NULL);
    while (list) {
        rg__retired_group *next = list->next;
        release_group(d, list);
        list = next;
    }
    rg__mutex_destroy(&d->graphs_lock);
    rg__mutex_destroy(&d->retire_lock);
    atomic_store_explicit(&d->magic, RG__DEAD, memory_order_release);
    rg__quarantine(d, &d->alloc);
}

bool rg__device_live(const rg_device *d, const char *what)
{
    return d && rg__word_live(&d->magic, RG__DEVICE_LIVE, what, "device");
}

rg_device_caps rg_device_get_caps(const rg_device *device)
{
    return rg__device_live(device, "rg_device_get_caps") ? device->caps : (rg_device_caps){0};
}

VkDevice rg_device_handle(const rg_device *device)
{
    return rg__device_live(device, "rg_device_handle") ? device->device : VK_NULL_HANDLE;
}
