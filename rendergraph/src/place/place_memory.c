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
#include "place/reuse.h"
#include "place/stages.h"

#include <stdlib.h>
#include <string.h>

/* Asks the device without creating anything (Vulkan 1.3). */
static void requirements_of(const rg_graph *g, VkDevice dev, const rg__resource *r, rg__mem_requirements *out)
{
    uint32_t families[RG_QUEUE_COUNT];
    VkMemoryDedicatedRequirements ded = { .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &ded };
    if (r->is_texture) {
        VkImageCreateInfo ci = rg__image_info(g, r, families);
        VkDeviceImageMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                              .pCreateInfo = &ci };
        g->dev->vk.GetDeviceImageMemoryRequirements(dev, &q, &req);
    } else {
        VkBufferCreateInfo ci = rg__buffer_info(g, r, families);
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

/* A created resource's objects into the kept ones (k), or retired. Pooled
 * ones bound to the application's pools are not kept. */
static void free_object(const rg_graph *g, rg__reuse *k, uint32_t ri, const rg__object *o, rg_memory_kind kind)
{
    rg__kept_object kept = {.image = o->image, .buffer = o->buffer, .view = o->view, .memory = o->memory,
                            .offset = o->offset, .kind = kind, .fallback_type = o->fallback_type};
    if (k && !(o->pooled && g->pool_memory.alloc)) {
        kept.key = rg__object_key(g, ri);
        kept.name = rg__reuse_name_hash(g->decl.resources[ri].name);
        kept.resource = ri;
        if (rg__keep_object(g, k, &kept))
            return;
    }
    rg__retire_object(g, o->view, o->image, o->buffer);
}

void rg__place_memory_hand_over(const rg_graph *g, rg__placed_objects *objects, rg__reuse *k)
{
    if (objects->handed)
        return;
    for (uint32_t i = 0; objects->of && g->dev && i < objects->resource_count; i++) {
        const rg__object *o = &objects->of[i];
        if (o->image || o->buffer)
            free_object(g, k, i, o, g->placement->plan.items[i].kind);
    }
    for (uint32_t i = 0; i < objects->memory_count && g->dev; i++)
        if (!k || !rg__keep_memory(g, k, &objects->memory[i]))
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_MEMORY, .u.memory = objects->memory[i].memory});
    for (uint32_t i = 0; i < objects->app_pool_count; i++)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_APP_POOL, .u.memory = objects->app_pools[i],
                                    .offset = objects->app_offsets[i]});
    objects->handed = true;
}

void rg__place_memory_free(const rg_graph *g, rg__placed_objects *objects)
{
    rg__place_memory_hand_over(g, objects, NULL);
    RG__FREE_ALL(g, objects->of, objects->memory, objects->app_pools, objects->app_offsets);
    *objects = (rg__placed_objects){0};
}

/* The objects as they are made (the placement's arrays are const). */
typedef struct objects_draft {
    rg__object *of;
    rg__allocation *memory;
    uint32_t memory_count;
    VkDeviceMemory *app_pools;
    VkDeviceSize *app_offsets;
    uint32_t app_pool_count;
    rg__reuse *reuse;                 /* the kept objects to take from (NULL: none) */
    uint32_t reused, made, memory_reused, memory_made;
} objects_draft;

/* An allocation the placement holds (freed or kept with it). */
static void hold(objects_draft *d, VkDeviceMemory memory, uint32_t type, VkDeviceSize size, bool pool, bool optimal)
{
    d->memory[d->memory_count++] = (rg__allocation){memory, type, size, pool, optimal};
}

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
    if (vr == VK_SUCCESS) {
        hold(d, *out, type, size, false, false);
        d->memory_made++;
    }
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
        VkImageCreateInfo ci = rg__image_info(g, r, families);
        vr = g->dev->vk.CreateImage(dev, &ci, g->dev->vk_alloc, &o->image);
    } else {
        VkBufferCreateInfo ci = rg__buffer_info(g, r, families);
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
    o->memory = memory;
    o->offset = offset;
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

/* Pool p's memory: a kept one where it fits (place/reuse.h), the
 * application's (rg_pool_memory), or a new allocation. */
static rg_result pool_memory(const rg_graph *g, objects_draft *d, uint32_t p, VkDeviceMemory *memory,
                             VkDeviceSize *base)
{
    const rg__mem_pool *pool = &g->placement->plan.pools[p];
    if (g->pool_memory.alloc)
        return pool_from_application(g, d, p, memory, base);
    *base = 0;
    rg__allocation kept = rg__reuse_take_pool(d->reuse, pool->memory_type, pool->optimal, pool->size);
    if (kept.memory) { /* held at its own size, which may exceed the pool's */
        d->memory[d->memory_count++] = kept;
        *memory = kept.memory;
        d->memory_reused++;
        return RG_SUCCESS;
    }
    char what[32];
    snprintf(what, sizeof what, "pool %u", p);
    rg_result res = allocate(g, d, pool->size, pool->memory_type, NULL, memory, what);
    if (res != RG_SUCCESS)
        return res;
    d->memory[d->memory_count - 1].pool = true;
    d->memory[d->memory_count - 1].optimal = pool->optimal;
    uint32_t members = 0;
    for (uint32_t i = 0; i < g->decl.resource_count; i++)
        members += g->placement->plan.items[i].kind == RG_MEMORY_POOLED && g->placement->plan.items[i].pool == p;
    rg__name_object(g->dev, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)*memory, "pool %u (%u resource%s)", p, members,
                    members == 1 ? "" : "s");
    return RG_SUCCESS;
}

/* Resource ri's objects: kept ones that match where it goes, else made,
 * given memory of their own (lazy, dedicated) and bound. */
static rg_result place_one(const rg_graph *g, objects_draft *d, uint32_t ri, VkDeviceMemory pool,
                           VkDeviceSize offset)
{
    const rg__resource *r = &g->decl.resources[ri];
    rg__object *o = &d->of[ri];
    const rg__mem_placement *m = &g->placement->plan.items[ri];
    bool pooled = m->kind == RG_MEMORY_POOLED;
    o->pooled = pooled;
    const rg__kept_object *kept = rg__reuse_take_object(g, d->reuse, ri, m->kind, pool, offset);
    if (kept) {
        *o = (rg__object){kept->image, kept->view, kept->buffer, kept->memory, kept->offset, pooled,
                          kept->fallback_type};
        if (!pooled) /* its own memory came with it */
            hold(d, kept->memory, m->memory_type, m->size, false, false);
        d->reused++;
        return RG_SUCCESS;
    }
    rg_result res = create_object(g, r, o);
    d->made++;
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
    return res == RG_SUCCESS ? bind(g, ri, o, pooled ? pool : own, pooled ? offset : 0) : res;
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
        RG__FREE_ALL(g, pools, bases);
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "placement: out of host memory");
    }
    for (uint32_t p = 0; p < plan->pool_count && res == RG_SUCCESS; p++)
        res = pool_memory(g, d, p, &pools[p], &bases[p]);
    for (uint32_t i = 0; i < g->decl.resource_count && res == RG_SUCCESS; i++) {
        const rg__mem_placement *m = &plan->items[i];
        if (!rg__creates(g, i) || m->kind == RG_MEMORY_NOT_CREATED || m->kind == RG_MEMORY_IMPORTED)
            continue;
        bool pooled = m->kind == RG_MEMORY_POOLED;
        res = place_one(g, d, i, pooled ? pools[m->pool] : VK_NULL_HANDLE, pooled ? bases[m->pool] + m->offset : 0);
    }
    RG__FREE_ALL(g, pools, bases);
    return res;
}

rg_result rg__place_memory(const rg_graph *g, rg__placed_objects *out, rg__reuse *reuse)
{
    objects_draft d = {.reuse = reuse};
    rg_result res = place_all(g, &d);
    *out = (rg__placed_objects){d.of, g->decl.resource_count, d.memory, d.memory_count, d.reused, d.made,
                                d.memory_reused, d.memory_made, false, d.app_pools, d.app_offsets,
                                d.app_pool_count};
    return res;
}
