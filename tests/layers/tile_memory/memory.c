/* The tile-memory layer's memory side: the added DEVICE_LOCAL |
 * LAZILY_ALLOCATED type, offered to transient attachments only and backed by
 * the first real device-local type; commitment 0 for lazy allocations;
 * VK_EXT_memory_budget heap usage without them (from the layer's own
 * tracking where the driver lacks the extension); allocation faults. */
#include "layer.h"

#include <stdlib.h>
#include <string.h>

/* Fault injection: fail the fail_at-th allocation since the latest
 * vkCreateDevice (0 = never); process-wide, as tests set it per context. */
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long alloc_count, fail_at;

void tile_faults_reset(device_data *d)
{
    /* Read here, not once per process, so a test can set them before
     * making its context; the count restarts with each device. */
    const char *n = getenv("VKGRAPH_TILE_FAIL_ALLOC");
    const char *bytes = getenv("VKGRAPH_TILE_FAIL_BYTES");
    const char *lazy = getenv("VKGRAPH_TILE_FAIL_LAZY");
    pthread_mutex_lock(&fault_lock);
    fail_at = n ? strtoul(n, NULL, 10) : 0;
    alloc_count = 0;
    pthread_mutex_unlock(&fault_lock);
    d->fail_bytes = bytes ? strtoull(bytes, NULL, 10) : 0;
    d->fail_lazy_from = lazy ? strtoul(lazy, NULL, 10) : 0;
    d->lazy_allocs = 0;
}

/* The real type that backs the lazy one: the first DEVICE_LOCAL type. */
static uint32_t backing_type(const VkPhysicalDeviceMemoryProperties *p)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if (p->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
            return i;
    return UINT32_MAX;
}

static bool has_lazy(const VkPhysicalDeviceMemoryProperties *p)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if (p->memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
            return true;
    return false;
}

/* Appends the lazy type unless the device has one already, has no
 * device-local type or no room left. */
void tile_add_lazy_type(VkPhysicalDeviceMemoryProperties *p)
{
    uint32_t real = backing_type(p);
    if (has_lazy(p) || real == UINT32_MAX || p->memoryTypeCount >= VK_MAX_MEMORY_TYPES)
        return;
    p->memoryTypes[p->memoryTypeCount++] = (VkMemoryType){
        .propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
        .heapIndex = p->memoryTypes[real].heapIndex,
    };
}

void tile_memory_device_created(device_data *d, const VkPhysicalDeviceMemoryProperties *real)
{
    d->real_props = *real;
    d->lazy_index = real->memoryTypeCount;
    d->real_index = has_lazy(real) || real->memoryTypeCount >= VK_MAX_MEMORY_TYPES ? UINT32_MAX : backing_type(real);
    d->lazy_heap = d->real_index == UINT32_MAX ? 0 : real->memoryTypes[d->real_index].heapIndex;
}

/* ---------------------------------------------------------------- budget */

typedef struct usage_sum {
    VkDeviceSize used[VK_MAX_MEMORY_HEAPS];
    VkDeviceSize lazy[VK_MAX_MEMORY_HEAPS];
    bool emulated;
} usage_sum;

static void add_usage(device_data *d, void *user)
{
    usage_sum *s = user;
    pthread_mutex_lock(&d->lock);
    for (uint32_t h = 0; h < VK_MAX_MEMORY_HEAPS; h++) {
        s->used[h] += d->heap_used[h];
        s->lazy[h] += d->lazy_used[h];
    }
    s->emulated |= d->emulated_budget;
    pthread_mutex_unlock(&d->lock);
}

/* Lazy allocations occupy no memory on a tile GPU, so they are left out of
 * heap usage. A GPU driver with VK_EXT_memory_budget counts their real
 * backing: it is subtracted from its figures (NVIDIA). Otherwise the usage
 * is the layer's own count of live allocations (every vkAllocateMemory
 * passes through the layer): where the driver lacks the extension (Mesa
 * 22 lavapipe), with the heap's size as the budget, and on a CPU device,
 * whose figure is not an allocation count: Mesa 25 lavapipe reports the
 * process's resident memory, which grows only as pages are touched and
 * does not shrink when memory is freed. The budget stays the driver's
 * there. An emulation, documented as one. */
void tile_fill_budget(instance_data *inst, VkPhysicalDevice pd, VkPhysicalDeviceMemoryProperties2 *p)
{
    VkPhysicalDeviceMemoryBudgetPropertiesEXT *b = NULL;
    for (VkBaseOutStructure *s = p->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT)
            b = (VkPhysicalDeviceMemoryBudgetPropertiesEXT *)s;
    if (!b)
        return;
    usage_sum sum = { 0 };
    tile_for_each_device(pd, add_usage, &sum);
    bool native = false;
    uint32_t n = 0;
    if (inst->enumerate_device_extensions) {
        VkExtensionProperties props[256];
        n = 256;
        if (inst->enumerate_device_extensions(pd, NULL, &n, props) < 0)
            n = 0;
        for (uint32_t i = 0; i < n; i++)
            native |= strcmp(props[i].extensionName, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME) == 0;
        sum.emulated |= !native;
    }
    VkPhysicalDeviceProperties dp = { 0 };
    if (inst->get_properties)
        inst->get_properties(pd, &dp);
    bool counted = sum.emulated || dp.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const VkPhysicalDeviceMemoryProperties *mp = &p->memoryProperties;
    for (uint32_t h = 0; h < VK_MAX_MEMORY_HEAPS; h++) {
        if (h >= mp->memoryHeapCount) {
            b->heapUsage[h] = b->heapBudget[h] = 0; /* as the spec requires */
        } else if (counted) {
            b->heapUsage[h] = sum.used[h];
            if (!native)
                b->heapBudget[h] = mp->memoryHeaps[h].size;
        } else {
            b->heapUsage[h] = b->heapUsage[h] > sum.lazy[h] ? b->heapUsage[h] - sum.lazy[h] : 0;
        }
    }
}

/* ---------------------------------------------------------------- images */

VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImage(VkDevice device, const VkImageCreateInfo *ci,
                                                const VkAllocationCallbacks *alloc, VkImage *out)
{
    device_data *d = tile_find_device(tile_key(device));
    VkResult vr = d->create_image(device, ci, alloc, out);
    if (vr == VK_SUCCESS) {
        pthread_mutex_lock(&d->lock);
        bool ok = tile_map_put(&d->images, (uint64_t)*out,
                               ci->usage | (uint64_t)ci->samples << IMAGE_SAMPLES_SHIFT);
        pthread_mutex_unlock(&d->lock);
        if (!ok) {
            d->destroy_image(device, *out, alloc);
            *out = VK_NULL_HANDLE;
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    return vr;
}

VKAPI_ATTR void VKAPI_CALL tile_DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks *alloc)
{
    device_data *d = tile_find_device(tile_key(device));
    pthread_mutex_lock(&d->lock);
    tile_map_remove(&d->images, (uint64_t)image);
    pthread_mutex_unlock(&d->lock);
    if (d->moltenvk)
        tile_forget_name(d, image);
    d->destroy_image(device, image, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_CreateImageView(VkDevice device, const VkImageViewCreateInfo *ci,
                                                    const VkAllocationCallbacks *alloc, VkImageView *out)
{
    device_data *d = tile_find_device(tile_key(device));
    VkResult vr = d->create_view(device, ci, alloc, out);
    if (vr == VK_SUCCESS) {
        pthread_mutex_lock(&d->lock);
        bool ok = tile_map_put(&d->views, (uint64_t)*out, (uint64_t)ci->image);
        if (ok && !tile_map_put(&d->view_formats, (uint64_t)*out, (uint64_t)ci->format)) {
            tile_map_remove(&d->views, (uint64_t)*out);
            ok = false;
        }
        pthread_mutex_unlock(&d->lock);
        if (!ok) {
            d->destroy_view(device, *out, alloc);
            *out = VK_NULL_HANDLE;
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    return vr;
}

VKAPI_ATTR void VKAPI_CALL tile_DestroyImageView(VkDevice device, VkImageView view, const VkAllocationCallbacks *alloc)
{
    device_data *d = tile_find_device(tile_key(device));
    pthread_mutex_lock(&d->lock);
    tile_map_remove(&d->views, (uint64_t)view);
    tile_map_remove(&d->view_formats, (uint64_t)view);
    pthread_mutex_unlock(&d->lock);
    d->destroy_view(device, view, alloc);
}

/* Offers the lazy type where the real backing type is offered, for
 * transient attachments only. */
static void offer_lazy(const device_data *d, VkImageUsageFlags usage, VkMemoryRequirements *req)
{
    if (d->real_index == UINT32_MAX || !(usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT))
        return;
    if (req->memoryTypeBits & (1u << d->real_index))
        req->memoryTypeBits |= 1u << d->lazy_index;
}

static VkImageUsageFlags image_usage(device_data *d, VkImage image)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    tile_map_get(&d->images, (uint64_t)image, &v);
    pthread_mutex_unlock(&d->lock);
    return (VkImageUsageFlags)(v & 0xffffffffu);
}

bool tile_image_is_lazy(device_data *d, uint64_t image)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    bool lazy = image && tile_map_get(&d->images, image, &v) && (v & IMAGE_LAZY);
    pthread_mutex_unlock(&d->lock);
    return lazy;
}

VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements(VkDevice device, VkImage image, VkMemoryRequirements *req)
{
    device_data *d = tile_find_device(tile_key(device));
    d->image_reqs(device, image, req);
    offer_lazy(d, image_usage(d, image), req);
}

VKAPI_ATTR void VKAPI_CALL tile_GetImageMemoryRequirements2(VkDevice device, const VkImageMemoryRequirementsInfo2 *info,
                                                           VkMemoryRequirements2 *req)
{
    device_data *d = tile_find_device(tile_key(device));
    d->image_reqs2(device, info, req);
    offer_lazy(d, image_usage(d, info->image), &req->memoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL tile_GetDeviceImageMemoryRequirements(VkDevice device,
                                                                const VkDeviceImageMemoryRequirements *info,
                                                                VkMemoryRequirements2 *req)
{
    device_data *d = tile_find_device(tile_key(device));
    d->device_image_reqs(device, info, req);
    offer_lazy(d, info->pCreateInfo->usage, &req->memoryRequirements);
}

/* ------------------------------------------------------------ allocations */

/* What the memory map keeps per allocation: size, heap and laziness. */
static uint64_t memory_value(VkDeviceSize size, uint32_t heap, bool lazy)
{
    return (uint64_t)size << 8 | (uint64_t)heap << 1 | (lazy ? 1u : 0u);
}

static bool fault_now(device_data *d, VkDeviceSize size, bool lazy)
{
    pthread_mutex_lock(&fault_lock);
    bool fail = fail_at && ++alloc_count == fail_at;
    pthread_mutex_unlock(&fault_lock);
    if (lazy && d->fail_lazy_from) {
        pthread_mutex_lock(&d->lock);
        fail = fail || ++d->lazy_allocs >= d->fail_lazy_from;
        pthread_mutex_unlock(&d->lock);
    }
    if (fail || !d->fail_bytes || lazy)
        return fail; /* a memoryless allocation takes no memory from the budget */
    VkDeviceSize live = 0;
    pthread_mutex_lock(&d->lock);
    for (uint32_t h = 0; h < VK_MAX_MEMORY_HEAPS; h++)
        live += d->heap_used[h];
    pthread_mutex_unlock(&d->lock);
    return live + size > d->fail_bytes;
}

VKAPI_ATTR VkResult VKAPI_CALL tile_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *ai,
                                                   const VkAllocationCallbacks *alloc, VkDeviceMemory *out)
{
    device_data *d = tile_find_device(tile_key(device));
    bool lazy = d->real_index != UINT32_MAX && ai->memoryTypeIndex == d->lazy_index;
    if (fault_now(d, ai->allocationSize, lazy))
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    VkMemoryAllocateInfo real = *ai;
    if (lazy)
        real.memoryTypeIndex = d->real_index;
    VkResult vr = d->allocate(device, &real, alloc, out);
    if (vr != VK_SUCCESS)
        return vr;
    uint32_t heap = real.memoryTypeIndex < d->real_props.memoryTypeCount
                        ? d->real_props.memoryTypes[real.memoryTypeIndex].heapIndex
                        : 0;
    pthread_mutex_lock(&d->lock);
    bool ok = tile_map_put(&d->memory, (uint64_t)*out, memory_value(ai->allocationSize, heap, lazy));
    if (ok)
        *(lazy ? &d->lazy_used[heap] : &d->heap_used[heap]) += ai->allocationSize;
    if (ok && lazy) { /* the most lazy bytes live at once (profile.c's report) */
        uint64_t live = 0;
        for (uint32_t h = 0; h < VK_MAX_MEMORY_HEAPS; h++)
            live += d->lazy_used[h];
        if (live > d->traffic.lazy_peak)
            d->traffic.lazy_peak = live;
    }
    pthread_mutex_unlock(&d->lock);
    if (!ok) {
        d->free_memory(device, *out, alloc);
        *out = VK_NULL_HANDLE;
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    return VK_SUCCESS;
}

static bool memory_is_lazy(device_data *d, VkDeviceMemory memory)
{
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    bool lazy = tile_map_get(&d->memory, (uint64_t)memory, &v) && (v & 1u);
    pthread_mutex_unlock(&d->lock);
    return lazy;
}

VKAPI_ATTR void VKAPI_CALL tile_FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks *alloc)
{
    device_data *d = tile_find_device(tile_key(device));
    uint64_t v = 0;
    pthread_mutex_lock(&d->lock);
    if (memory && tile_map_get(&d->memory, (uint64_t)memory, &v)) {
        uint32_t heap = (uint32_t)(v >> 1) & 0x7f;
        *((v & 1u) ? &d->lazy_used[heap] : &d->heap_used[heap]) -= v >> 8;
        tile_map_remove(&d->memory, (uint64_t)memory);
    }
    pthread_mutex_unlock(&d->lock);
    d->free_memory(device, memory, alloc);
}

VKAPI_ATTR void VKAPI_CALL tile_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
                                                         VkDeviceSize *committed)
{
    device_data *d = tile_find_device(tile_key(device));
    if (memory_is_lazy(d, memory)) {
        *committed = 0; /* memoryless: a tile GPU never backs it */
        return;
    }
    d->commitment(device, memory, committed);
}

static void note_binding(device_data *d, VkImage image, VkDeviceMemory memory)
{
    if (!memory_is_lazy(d, memory))
        return;
    pthread_mutex_lock(&d->lock);
    uint64_t v;
    if (tile_map_get(&d->images, (uint64_t)image, &v))
        tile_map_put(&d->images, (uint64_t)image, v | IMAGE_LAZY); /* existing key: cannot fail */
    pthread_mutex_unlock(&d->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                    VkDeviceSize offset)
{
    device_data *d = tile_find_device(tile_key(device));
    VkResult vr = d->bind_image(device, image, memory, offset);
    if (vr == VK_SUCCESS)
        note_binding(d, image, memory);
    return vr;
}

VKAPI_ATTR VkResult VKAPI_CALL tile_BindImageMemory2(VkDevice device, uint32_t count, const VkBindImageMemoryInfo *infos)
{
    device_data *d = tile_find_device(tile_key(device));
    VkResult vr = d->bind_image2(device, count, infos);
    if (vr == VK_SUCCESS)
        for (uint32_t i = 0; i < count; i++)
            note_binding(d, infos[i].image, infos[i].memory);
    return vr;
}
