/* The fixture's device with spies in its function table (rg_spy.h). */
#include "rg_spy.h"

#include "device_fixture.h"

#include <criterion/criterion.h>
#include <string.h>

static const test_spies *current;

/* The spy named name in list, or NULL; *found says whether it is named. */
static PFN_vkVoidFunction find(const test_spy *list, uint32_t count, const char *name, bool *found)
{
    for (uint32_t i = 0; i < count; i++)
        if (strcmp(name, list[i].name) == 0) {
            *found = true;
            return list[i].fn;
        }
    *found = false;
    return NULL;
}

static PFN_vkVoidFunction VKAPI_CALL spy_device_proc(VkDevice dev, const char *name)
{
    PFN_vkVoidFunction real = vkGetDeviceProcAddr(dev, name);
    bool found = false;
    PFN_vkVoidFunction spy = current ? find(current->device, current->device_count, name, &found) : NULL;
    return found && real ? spy : real;
}

static PFN_vkVoidFunction VKAPI_CALL spy_instance_proc(VkInstance instance, const char *name)
{
    if (strcmp(name, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)spy_device_proc;
    PFN_vkVoidFunction real = vkGetInstanceProcAddr(instance, name);
    bool found = false;
    PFN_vkVoidFunction spy = current ? find(current->instance, current->instance_count, name, &found) : NULL;
    return found && real ? spy : real;
}

eng_queue_kind test_engine_kind(rg_queue q)
{
    return q == RG_QUEUE_COMPUTE ? ENG_QUEUE_COMPUTE : q == RG_QUEUE_TRANSFER ? ENG_QUEUE_TRANSFER : ENG_QUEUE_GRAPHICS;
}

uint32_t test_family_of(rg_queue q)
{
    uint32_t f = eng_context_queue_family_of(test_ctx, test_engine_kind(q));
    return f == UINT32_MAX ? eng_context_queue_family(test_ctx) : f;
}

void test_queue_pools(VkDevice dev, VkCommandPool pools[RG_QUEUE_COUNT])
{
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .queueFamilyIndex = test_family_of((rg_queue)q) };
        cr_assert_eq(vkCreateCommandPool(dev, &pi, NULL, &pools[q]), VK_SUCCESS);
    }
}

void test_queue_pools_destroy(VkDevice dev, VkCommandPool pools[RG_QUEUE_COUNT])
{
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        vkDestroyCommandPool(dev, pools[q], NULL);
}

bool test_has_compute_queue(void)
{
    return eng_context_queue_of(test_ctx, ENG_QUEUE_COMPUTE) != VK_NULL_HANDLE;
}

rg_result test_device_try(rg_device_desc d, rg_log_fn log, void *log_user, rg_device_caps *caps)
{
    d.log = log;
    d.log_user = log_user;
    rg_device *dev = NULL;
    rg_result r = rg_device_create(&d, &dev);
    if (caps)
        *caps = rg_device_get_caps(dev);
    rg_device_destroy(dev);
    return r;
}

rg_device_desc test_spy_desc(const test_spies *spies, bool all_queues)
{
    current = spies;
    rg_device_desc d = {
        .instance = eng_context_instance(test_ctx),
        .physical_device = eng_context_physical_device(test_ctx),
        .enabled_features = test_enabled_features(test_ctx),
        .device = eng_context_device(test_ctx),
        .get_instance_proc_addr = spy_instance_proc,
    };
    for (uint32_t q = 0; all_queues && q < RG_QUEUE_COUNT; q++) {
        VkQueue queue = eng_context_queue_of(test_ctx, test_engine_kind((rg_queue)q));
        if (queue)
            d.queues[q] = (rg_device_queue){ queue, test_family_of((rg_queue)q) };
    }
    d.queues[RG_QUEUE_GRAPHICS] = (rg_device_queue){ eng_context_queue(test_ctx), eng_context_queue_family(test_ctx) };
    return d;
}

rg_device *test_spy_device(const rg_device_desc *d)
{
    rg_device *dev = NULL;
    rg_result r = rg_device_create(d, &dev);
    cr_assert_eq(r, RG_SUCCESS, "rg_device_create: %s", rg_result_string(r));
    return dev;
}

PFN_vkVoidFunction test_real_device_proc(const char *name)
{
    PFN_vkVoidFunction f = vkGetDeviceProcAddr(eng_context_device(test_ctx), name);
    cr_assert_not_null(f, "no %s", name);
    return f;
}

PFN_vkVoidFunction test_real_instance_proc(const char *name)
{
    PFN_vkVoidFunction f = vkGetInstanceProcAddr(eng_context_instance(test_ctx), name);
    cr_assert_not_null(f, "no %s", name);
    return f;
}

/* ------------------------------------------------------ object spies */

static test_object_fn *object_fn;

#define OBJECT_SPIES(Type, create_name, destroy_name, CreateInfo)                                                    \
    static VKAPI_ATTR VkResult VKAPI_CALL spy_create_##Type(VkDevice d, const CreateInfo *ci,                         \
                                                             const VkAllocationCallbacks *a, Type *out)               \
    {                                                                                                                \
        VkResult r = ((PFN_##create_name)test_real_device_proc(#create_name))(d, ci, a, out);                        \
        object_fn(r == VK_SUCCESS, a);                                                                               \
        return r;                                                                                                    \
    }                                                                                                                \
    static VKAPI_ATTR void VKAPI_CALL spy_destroy_##Type(VkDevice d, Type o, const VkAllocationCallbacks *a)          \
    {                                                                                                                \
        ((PFN_##destroy_name)test_real_device_proc(#destroy_name))(d, o, a);                                         \
        object_fn(-(o != VK_NULL_HANDLE), a);                                                                        \
    }

OBJECT_SPIES(VkImage, vkCreateImage, vkDestroyImage, VkImageCreateInfo)
OBJECT_SPIES(VkBuffer, vkCreateBuffer, vkDestroyBuffer, VkBufferCreateInfo)
OBJECT_SPIES(VkImageView, vkCreateImageView, vkDestroyImageView, VkImageViewCreateInfo)
OBJECT_SPIES(VkDeviceMemory, vkAllocateMemory, vkFreeMemory, VkMemoryAllocateInfo)
OBJECT_SPIES(VkSemaphore, vkCreateSemaphore, vkDestroySemaphore, VkSemaphoreCreateInfo)

const test_spies *test_object_spies(test_object_fn *fn)
{
    static const test_spy spies[] = {
        { "vkCreateImage", (PFN_vkVoidFunction)spy_create_VkImage },
        { "vkDestroyImage", (PFN_vkVoidFunction)spy_destroy_VkImage },
        { "vkCreateBuffer", (PFN_vkVoidFunction)spy_create_VkBuffer },
        { "vkDestroyBuffer", (PFN_vkVoidFunction)spy_destroy_VkBuffer },
        { "vkCreateImageView", (PFN_vkVoidFunction)spy_create_VkImageView },
        { "vkDestroyImageView", (PFN_vkVoidFunction)spy_destroy_VkImageView },
        { "vkAllocateMemory", (PFN_vkVoidFunction)spy_create_VkDeviceMemory },
        { "vkFreeMemory", (PFN_vkVoidFunction)spy_destroy_VkDeviceMemory },
        { "vkCreateSemaphore", (PFN_vkVoidFunction)spy_create_VkSemaphore },
        { "vkDestroySemaphore", (PFN_vkVoidFunction)spy_destroy_VkSemaphore },
    };
    static const test_spies all = { .device = spies, .device_count = sizeof spies / sizeof spies[0] };
    object_fn = fn;
    return &all;
}
