/* Placement stage "memory" (needs the device): each created, used
 * resource's real memory requirements (vkGetDevice*MemoryRequirements,
 * dedicated ones included) for the planner, then, as it planned, one
 * allocation per pool and one per lazy or dedicated resource, the images
 * and buffers bound at their offsets, and a whole view of each texture
 * that is read or rendered through one.
 *
 * Pooled images are created without VK_IMAGE_CREATE_ALIAS_BIT. That flag
 * makes two images of identical create info bound at one offset share
 * their contents and layout; the graph never reads one occupant's data
 * through the next (every new occupant starts from UNDEFINED behind its
 * alias barrier), and its barriers track each image's layout alone. With
 * the flag, the validation layer merges such images' layout states, and a
 * frame recorded in several command buffers then reads as a layout
 * mismatch (an occupant's transition from UNDEFINED in one command buffer
 * against the previous occupant's expected layout in another).
 */
#include "compile/stages.h"
#include "base/device.h"
#include "base/names.h"
#include "place/stages.h"

#include <stdlib.h>
#include <string.h>

/* A created resource commands of several queue families use is shared
 * CONCURRENT across them (rendergraph.h, "Queues"); families holds them. */
static uint32_t sharing(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t mask = g->compiled->queues.resource_queues ? g->compiled->queues.resource_queues[r - g->decl.resources] : 0;
    if (g->concurrent_sharing)
        mask = (1u << RG_QUEUE_GRAPHICS) | (g->caps.compute_queue ? 1u << RG_QUEUE_COMPUTE : 0) |
               (g->caps.transfer_queue ? 1u << RG_QUEUE_TRANSFER : 0);
    return rg__queue_families(g, mask, families);
}

static VkImageCreateInfo image_info(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t count = sharing(g, r, families);
    uint32_t ri = (uint32_t)(r - g->decl.resources);
    return (VkImageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        /* A folded span renders multisampled into it (compile_fold.c). */
        .flags = g->compiled->fold.target[ri] ? VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT : 0,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = r->format,
        .extent = { r->width, r->height, 1 },
        .mipLevels = r->mip_levels,
        .arrayLayers = r->array_layers,
        .samples = g->compiled->fold.target[ri] ? VK_SAMPLE_COUNT_1_BIT : r->samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = rg__image_usage(g, ri),
        .sharingMode = count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = count > 1 ? count : 0,
        .pQueueFamilyIndices = count > 1 ? families : NULL,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
}

static VkBufferCreateInfo buffer_info(const rg_graph *g, const rg__resource *r, uint32_t *families)
{
    uint32_t count = sharing(g, r, families);
    return (VkBufferCreateInfo){
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = r->size,
        .usage = r->buffer_usage,
        .sharingMode = count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = count > 1 ? count : 0,
        .pQueueFamilyIndices = count > 1 ? families : NULL,
    };
}


/* Asks the device without creating anything (Vulkan 1.3). */
static void requirements_of(const rg_graph *g, VkDevice dev, const rg__resource *r, rg__mem_requirements *out)
{
    uint32_t families[RG_QUEUE_COUNT];
    VkMemoryDedicatedRequirements ded = { .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &ded };
    if (r->is_texture) {
        VkImageCreateInfo ci = image_info(g, r, families);
        VkDeviceImageMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                              .pCreateInfo = &ci };
        g->dev->vk.GetDeviceImageMemoryRequirements(dev, &q, &req);
    } else {
        VkBufferCreateInfo ci = buffer_info(g, r, families);
        VkDeviceBufferMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
                                               .pCreateInfo = &ci };
        g->dev->vk.GetDeviceBufferMemoryRequirements(dev, &q, &req);
    }
    out->size = req.memoryRequirements.size;
    out->alignment = req.memoryRequirements.alignment;
    out->type_bits = req.memoryRequirements.memoryTypeBits;
    /* Only a requirement keeps a resource out of the pools. NVIDIA prefers
     * dedicated memory for every MSAA attachment; honouring that hint
     * (measured on an H200: 4 sets of 1080p 4x color + depth stayed at
     * 255 MiB instead of one set's 64 MiB) would give up exactly the saving
     * the graph exists for. */
    out->dedicated = ded.requiresDedicatedAllocation;
}

void rg__place_requirements(const rg_graph *g, rg__mem_requirements *reqs)
{
    VkDevice dev = g->dev->device;
    for (uint32_t i = 0; i < g->decl.resource_count; i++)
        if (rg__creates(g, i))
            requirements_of(g, dev, &g->decl.resources[i], &reqs[i]);
}

void rg__place_memory_free(const rg_graph *g, rg__placed_objects *objects)
{
    VkDevice dev = g->dev ? g->dev->device : VK_NULL_HANDLE;
    for (uint32_t i = 0; objects->of && i < g->decl.resource_count; i++) {
        const rg__object *o = &objects->of[i];
        if (dev && o->view)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = o->view});
        if (dev && o->image)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_IMAGE, .u.image = o->image});
        if (dev && o->buffer)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_BUFFER, .u.buffer = o->buffer});
    }
    for (uint32_t i = 0; i < objects->memory_count && dev; i++)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_MEMORY, .u.memory = objects->memory[i]});
    for (uint32_t i = 0; i < objects->app_pool_count; i++)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_APP_POOL, .u.memory = objects->app_pools[i],
                                    .offset = objects->app_offsets[i]});
    RG__FREE_ALL(g, objects->of, objects->memory, objects->app_pools, objects->app_offsets);
    *objects = (rg__placed_objects){0};
}

/* The objects as they are made (the placement's arrays are const). */
typedef struct objects_draft {
    rg__object *of;
    VkDeviceMemory *memory;
    uint32_t memory_count;
    VkDeviceMemory *app_pools;
    VkDeviceSize *app_offsets;
    uint32_t app_pool_count;
} objects_draft;

static VkResult try_allocate(const rg_graph *g, objects_draft *d, VkDeviceSize size, uint32_t type,
                             const rg__object *dedicated_to, VkDeviceMemory *out)
{
    VkMemoryDedicatedAllocateInfo ded = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
        .image = dedicated_to ? dedicated_to->image : VK_NULL_HANDLE,
        .buffer = dedicated_to ? dedicated_to->buffer : VK_NULL_HANDLE,
    };
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = dedicated_to ? &ded : NULL,
        .allocationSize = size,
        .memoryTypeIndex = type,
    };
    VkResult vr = g->dev->vk.AllocateMemory(g->dev->device, &ai, g->dev->vk_alloc, out);
    if (vr == VK_SUCCESS)
        d->memory[d->memory_count++] = *out;
    return vr;
}

static rg_result allocate(const rg_graph *g, objects_draft *d, VkDeviceSize size, uint32_t type,
                          const rg__object *dedicated_to, VkDeviceMemory *out, const char *what)
{
    VkResult vr = try_allocate(g, d, size, type, dedicated_to, out);
    if (vr == VK_ERROR_OUT_OF_DEVICE_MEMORY || vr == VK_ERROR_OUT_OF_HOST_MEMORY)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: %s: %llu bytes of memory type %u: out of memory", what,
                        (unsigned long long)size, type);
    if (vr != VK_SUCCESS)
        return rg__report(g, RG_ERROR_VULKAN, "placement: %s: vkAllocateMemory: %s", what, rg_vk_result_string(vr));
    return RG_SUCCESS;
}

/* A lazy attachment's own allocation from its lazy type. When that runs
 * out (Apple's memoryless limit is undocumented and varies with the GPU,
 * the target size and free memory) it gets one of the first device-local
 * type its image accepts that is not lazily allocated, and the log says
 * so: the frame renders the same, with the memory an ordinary attachment
 * takes. Any other failure is the allocation's error. */
static rg_result allocate_lazy(const rg_graph *g, objects_draft *d, const rg__resource *r, rg__object *o,
                               const rg__mem_placement *m, VkDeviceMemory *out, const char *name)
{
    VkResult vr = try_allocate(g, d, m->size, m->memory_type, NULL, out);
    if (vr == VK_SUCCESS)
        return RG_SUCCESS;
    if (vr != VK_ERROR_OUT_OF_DEVICE_MEMORY && vr != VK_ERROR_OUT_OF_HOST_MEMORY)
        return rg__report(g, RG_ERROR_VULKAN, "placement: %s: vkAllocateMemory: %s", name, rg_vk_result_string(vr));
    rg__mem_requirements req;
    requirements_of(g, g->dev->device, r, &req);
    const VkPhysicalDeviceMemoryProperties *p = &g->dev->memory;
    uint32_t type = RG__NONE;
    for (uint32_t t = 0; t < p->memoryTypeCount && type == RG__NONE; t++) {
        VkMemoryPropertyFlags f = p->memoryTypes[t].propertyFlags;
        if ((req.type_bits & (1u << t)) && (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
            !(f & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT))
            type = t;
    }
    char what[RG__NAME_MAX + 64];
    snprintf(what, sizeof what, "'%s' (its lazy allocation ran out)", r->name);
    if (type == RG__NONE)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: %s: %llu bytes of lazily allocated memory type %u "
                          "ran out and the image accepts no other device-local type", what,
                          (unsigned long long)m->size, m->memory_type);
    rg_result res = allocate(g, d, req.size, type, NULL, out, what);
    if (res != RG_SUCCESS)
        return res;
    o->fallback_type = type;
    rg__log(g, RG_LOG_WARNING, "placement: lazily allocated memory (type %u) ran out for transient attachment '%s': "
            "it takes %llu bytes of device-local memory type %u instead (the frame renders the same; the memory "
            "report says LAZY_FALLBACK)", m->memory_type, r->name, (unsigned long long)req.size, type);
    return RG_SUCCESS;
}

/* Pool p from the application (rg_pool_memory), aligned for every
 * resource placed in it. */
static rg_result pool_from_application(const rg_graph *g, objects_draft *d, uint32_t p, VkDeviceMemory *memory,
                                       VkDeviceSize *offset)
{
    const rg__mem_plan *plan = &g->placement->plan;
    VkDeviceSize alignment = 1;
    for (uint32_t i = 0; i < g->decl.resource_count; i++)
        if (plan->items[i].kind == RG_MEMORY_POOLED && plan->items[i].pool == p &&
            plan->items[i].alignment > alignment)
            alignment = plan->items[i].alignment;
    *memory = VK_NULL_HANDLE;
    *offset = 0;
    VkResult vr = g->pool_memory.alloc(g->pool_memory.user, plan->pools[p].memory_type, plan->pools[p].size,
                                       alignment, memory, offset);
    if (vr != VK_SUCCESS || !*memory || *offset % alignment)
        return rg__report(g, vr == VK_ERROR_OUT_OF_DEVICE_MEMORY || vr == VK_ERROR_OUT_OF_HOST_MEMORY
                                 ? RG_ERROR_OUT_OF_MEMORY
                                 : vr == VK_SUCCESS ? RG_ERROR_CALLBACK : RG_ERROR_VULKAN,
                          "placement: pool %u (%llu bytes of memory type %u, alignment %llu): the application's "
                          "pool memory gave %s", p, (unsigned long long)plan->pools[p].size,
                          plan->pools[p].memory_type, (unsigned long long)alignment,
                          vr != VK_SUCCESS ? rg_vk_result_string(vr)
                          : !*memory      ? "no memory"
                                          : "an offset that is not a multiple of the alignment");
    d->app_pools[d->app_pool_count] = *memory;
    d->app_offsets[d->app_pool_count++] = *offset;
    return RG_SUCCESS;
}

static rg_result create_object(const rg_graph *g, const rg__resource *r, rg__object *o)
{
    VkDevice dev = g->dev->device;
    VkResult vr;
    uint32_t families[RG_QUEUE_COUNT];
    if (r->is_texture) {
        VkImageCreateInfo ci = image_info(g, r, families);
        vr = g->dev->vk.CreateImage(dev, &ci, g->dev->vk_alloc, &o->image);
    } else {
        VkBufferCreateInfo ci = buffer_info(g, r, families);
        vr = g->dev->vk.CreateBuffer(dev, &ci, g->dev->vk_alloc, &o->buffer);
    }
    if (vr != VK_SUCCESS)
        return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                        "placement: creating %s '%s': %s", r->is_texture ? "texture" : "buffer", r->name,
                        rg_vk_result_string(vr));
    if (r->is_texture)
        rg__name_object(g->dev, VK_OBJECT_TYPE_IMAGE, (uint64_t)o->image, "%s", r->name);
    else
        rg__name_object(g->dev, VK_OBJECT_TYPE_BUFFER, (uint64_t)o->buffer, "%s", r->name);
    return RG_SUCCESS;
}

static rg_result bind(const rg_graph *g, uint32_t ri, rg__object *o, VkDeviceMemory memory, VkDeviceSize offset)
{
    const rg__resource *r = &g->decl.resources[ri];
    VkImageUsageFlags usage = rg__image_usage(g, ri);
    VkDevice dev = g->dev->device;
    VkResult vr;
    if (r->is_texture) {
        VkBindImageMemoryInfo bi = { .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, .image = o->image,
                                     .memory = memory, .memoryOffset = offset };
        vr = g->dev->vk.BindImageMemory2(dev, 1, &bi);
    } else {
        VkBindBufferMemoryInfo bi = { .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, .buffer = o->buffer,
                                      .memory = memory, .memoryOffset = offset };
        vr = g->dev->vk.BindBufferMemory2(dev, 1, &bi);
    }
    if (vr != VK_SUCCESS)
        return rg__report(g, RG_ERROR_VULKAN, "placement: binding '%s' at offset %llu: %s", r->name,
                        (unsigned long long)offset, rg_vk_result_string(vr));
    /* A view needs a usage that reads or renders through one; a texture
     * that is only copied has none. */
    const VkImageUsageFlags viewable = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                       VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                       VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    if (!r->is_texture || !(usage & viewable))
        return RG_SUCCESS;
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = o->image,
        .viewType = r->array_layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = r->format,
        .subresourceRange = { r->aspects, 0, r->mip_levels, 0, r->array_layers },
    };
    /* A depth/stencil view for sampling may name one aspect only. */
    if ((r->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) && (usage & VK_IMAGE_USAGE_SAMPLED_BIT))
        vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    vr = g->dev->vk.CreateImageView(dev, &vci, g->dev->vk_alloc, &o->view);
    if (vr != VK_SUCCESS)
        return rg__report(g, RG_ERROR_VULKAN, "placement: view of '%s': %s", r->name, rg_vk_result_string(vr));
    rg__name_object(g->dev, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)o->view, "%s", r->name);
    return RG_SUCCESS;
}

static rg_result place_all(const rg_graph *g, objects_draft *d)
{
    const rg__mem_plan *plan = &g->placement->plan;
    d->memory = rg__calloc(g, (size_t)plan->pool_count + g->decl.resource_count + 1, sizeof *d->memory);
    rg__object *objects = d->of = rg__calloc(g, (size_t)g->decl.resource_count + 1, sizeof *objects);
    if (!d->memory || !objects)
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    for (uint32_t i = 0; i < g->decl.resource_count; i++)
        objects[i].fallback_type = RG__NONE;
    rg_result res = RG_SUCCESS;
    VkDeviceMemory *pools = rg__calloc(g, (size_t)plan->pool_count + 1, sizeof *pools);
    VkDeviceSize *bases = rg__calloc(g, (size_t)plan->pool_count + 1, sizeof *bases);
    if (g->pool_memory.alloc && pools && bases) {
        d->app_pools = rg__calloc(g, (size_t)plan->pool_count + 1, sizeof *d->app_pools);
        d->app_offsets = rg__calloc(g, (size_t)plan->pool_count + 1, sizeof *d->app_offsets);
    }
    if (!pools || !bases || (g->pool_memory.alloc && (!d->app_pools || !d->app_offsets))) {
        rg__free(g, pools);
        rg__free(g, bases);
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    }
    for (uint32_t p = 0; p < plan->pool_count && res == RG_SUCCESS; p++) {
        char what[32];
        snprintf(what, sizeof what, "pool %u", p);
        res = g->pool_memory.alloc ? pool_from_application(g, d, p, &pools[p], &bases[p])
                                   : allocate(g, d, plan->pools[p].size, plan->pools[p].memory_type, NULL, &pools[p],
                                              what);
        uint32_t members = 0;
        for (uint32_t i = 0; i < g->decl.resource_count; i++)
            members += plan->items[i].kind == RG_MEMORY_POOLED && plan->items[i].pool == p;
        if (res == RG_SUCCESS && !g->pool_memory.alloc) /* the application names its own memory */
            rg__name_object(g->dev, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)pools[p], "pool %u (%u resource%s)", p,
                            members, members == 1 ? "" : "s");
    }
    for (uint32_t i = 0; i < g->decl.resource_count && res == RG_SUCCESS; i++) {
        const rg__resource *r = &g->decl.resources[i];
        rg__object *o = &objects[i];
        const rg__mem_placement *m = &plan->items[i];
        if (!rg__creates(g, i) || m->kind == RG_MEMORY_NOT_CREATED || m->kind == RG_MEMORY_IMPORTED)
            continue;
        bool pooled = m->kind == RG_MEMORY_POOLED;
        o->pooled = pooled;
        res = create_object(g, r, o);
        VkDeviceMemory own = VK_NULL_HANDLE;
        if (res == RG_SUCCESS && !pooled) {
            char what[RG__NAME_MAX + 16];
            snprintf(what, sizeof what, "'%s'", r->name);
            res = m->kind == RG_MEMORY_LAZY
                      ? allocate_lazy(g, d, r, o, m, &own, what)
                      : allocate(g, d, m->size, m->memory_type, m->kind == RG_MEMORY_DEDICATED ? o : NULL, &own, what);
            if (res == RG_SUCCESS)
                rg__name_object(g->dev, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)own, "%s", r->name);
        }
        if (res == RG_SUCCESS)
            res = bind(g, i, o, pooled ? pools[m->pool] : own, pooled ? bases[m->pool] + m->offset : 0);
    }
    rg__free(g, pools);
    rg__free(g, bases);
    return res;
}

rg_result rg__place_memory(const rg_graph *g, rg__placed_objects *out)
{
    objects_draft d = {0};
    rg_result res = place_all(g, &d);
    *out = (rg__placed_objects){d.of, d.memory, d.memory_count, d.app_pools, d.app_offsets, d.app_pool_count};
    return res;
}
