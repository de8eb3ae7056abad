#define _GNU_SOURCE /* RTLD_NEXT */
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

eng_context *test_ctx;

int device_required(void)
{
    const char *v = getenv("ENG_REQUIRE_DEVICE");
    return v && v[0] && strcmp(v, "0") != 0;
}

void require_or_skip(const char *what)
{
    if (device_required())
        cr_assert_fail("%s is required (ENG_REQUIRE_DEVICE is set) but missing", what);
    cr_skip_test("%s is missing", what);
}

void device_setup(void)
{
    eng_context_desc desc = { .app_name = "tests", .validation = true,
                              .get_instance_proc_addr = vkGetInstanceProcAddr /* below: counts leaks */ };
    /* A test program registered to run under an extra layer (the
     * tile-memory emulation) names it here, below validation. */
    const char *layer = getenv("VKG_TEST_LAYER");
    if (layer && layer[0]) {
        desc.extra_layers = &layer;
        desc.extra_layer_count = 1;
    }
    eng_result r = eng_context_create(&desc, &test_ctx);
    if (r == ENG_SUCCESS)
        return;
    if (device_required())
        cr_assert_fail("a Vulkan device with validation is required (ENG_REQUIRE_DEVICE) but: %s: %s",
                       eng_result_string(r), eng_last_error());
    cr_skip_test("no Vulkan device with validation: %s: %s", eng_result_string(r), eng_last_error());
}

void expect_no_validation_messages(const eng_context *ctx)
{
    eng_message_counts m = eng_context_messages(ctx);
    cr_expect_eq(m.warning + m.error, 0, "%u validation warnings, %u errors; first: %s", m.warning, m.error,
                 eng_context_first_message(ctx));
}

/* The layer reports objects still alive when the device is destroyed, and
 * the engine's messenger counts them, but the counts die with the context in
 * the same eng_context_destroy call. The engine loads every Vulkan function
 * through the vkGetInstanceProcAddr its context is given (without one it
 * opens the loader itself): so the test programs define
 * vkGetInstanceProcAddr themselves and give it to every context whose
 * teardown destroy_context_counted watches. It forwards to the loader's,
 * except that the device's vkDestroyDevice (reached through
 * vkGetDeviceProcAddr) is counted_destroy_device, which calls the loader's
 * and then reads the counts of the context being destroyed, while it is
 * still alive. */
static const eng_context *watched;
static bool watched_seen;
static eng_message_counts watched_counts;
static char watched_first[1024];

/* The loader's function of that name: the next definition after ours, or,
 * in a program that names no other loader function (the linker then drops
 * the loader as not needed), the loader's library opened here. */
static PFN_vkVoidFunction loader_function(const char *name)
{
    PFN_vkVoidFunction f = (PFN_vkVoidFunction)dlsym(RTLD_NEXT, name);
    if (!f) {
        void *loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (loader)
            f = (PFN_vkVoidFunction)dlsym(loader, name);
    }
    if (!f) {
        fprintf(stderr, "device_fixture: the loader's %s not found: %s\n", name, dlerror());
        abort();
    }
    return f;
}

static VKAPI_ATTR void VKAPI_CALL counted_destroy_device(VkDevice device, const VkAllocationCallbacks *allocator)
{
    static PFN_vkDestroyDevice real;
    if (!real)
        real = (PFN_vkDestroyDevice)loader_function("vkDestroyDevice");
    real(device, allocator);
    if (watched && eng_context_device(watched) == device) {
        watched_seen = true;
        watched_counts = eng_context_messages(watched);
        snprintf(watched_first, sizeof watched_first, "%s", eng_context_first_message(watched));
    }
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL counted_get_device_proc_addr(VkDevice device, const char *name)
{
    static PFN_vkGetDeviceProcAddr real;
    if (!real)
        real = (PFN_vkGetDeviceProcAddr)loader_function("vkGetDeviceProcAddr");
    if (name && strcmp(name, "vkDestroyDevice") == 0)
        return (PFN_vkVoidFunction)counted_destroy_device;
    return real(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    static PFN_vkGetInstanceProcAddr real;
    if (!real)
        real = (PFN_vkGetInstanceProcAddr)loader_function("vkGetInstanceProcAddr");
    if (name && strcmp(name, "vkGetDeviceProcAddr") == 0 && instance)
        return (PFN_vkVoidFunction)counted_get_device_proc_addr;
    if (name && strcmp(name, "vkDestroyDevice") == 0 && instance)
        return (PFN_vkVoidFunction)counted_destroy_device;
    return real(instance, name);
}

static void (*on_release)(eng_context *ctx);

void device_on_release(void (*fn)(eng_context *ctx))
{
    on_release = fn;
}

const void *test_enabled_features(const eng_context *ctx)
{
    static VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read;
    static VkPhysicalDeviceVulkan12Features v12;
    static VkPhysicalDeviceVulkan13Features v13;
    local_read = (VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
        .dynamicRenderingLocalRead = VK_TRUE};
    v12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .timelineSemaphore = VK_TRUE};
    v13 = (VkPhysicalDeviceVulkan13Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = &v12, .dynamicRendering = VK_TRUE, .synchronization2 = VK_TRUE,
                                             .maintenance4 = VK_TRUE};
    v12.pNext = ctx && eng_context_local_read(ctx).supported ? &local_read : NULL;
    return &v13;
}

eng_message_counts destroy_context_counted(eng_context *ctx, char *first_message, size_t size)
{
    eng_message_counts m = { 0 };
    if (!ctx)
        return m;
    if (on_release)
        on_release(ctx);
    watched = ctx;
    watched_seen = false;
    eng_context_destroy(ctx);
    watched = NULL;
    cr_assert(watched_seen, "vkDestroyDevice was not intercepted: leak reports would go uncounted");
    if (first_message && size)
        snprintf(first_message, size, "%s", watched_first);
    return watched_counts;
}

void destroy_context_expect_clean(eng_context *ctx, const char *what)
{
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.warning + m.error, 0, "%s: %u validation warnings, %u errors; first: %s", what, m.warning,
                 m.error, first);
}

static eng_message_counts release_context(char *first, size_t size)
{
    eng_context *ctx = test_ctx;
    test_ctx = NULL;
    return destroy_context_counted(ctx, first, size);
}

void device_finish(void)
{
    if (!test_ctx)
        return;
    char first[1024];
    eng_message_counts m = release_context(first, sizeof first);
    cr_expect_eq(m.warning + m.error, 0,
                 "%u validation warnings, %u errors (during the test or while destroying the device: "
                 "leaked objects); first: %s",
                 m.warning, m.error, first);
}

void device_teardown(void)
{
    if (!test_ctx)
        return;
    char first[1024];
    eng_message_counts m = release_context(first, sizeof first);
    if (m.warning + m.error) {
        fprintf(stderr, "device_teardown: %u validation warnings, %u errors; first: %s\n", m.warning, m.error,
                first);
        fflush(stderr);
        exit(1); /* Criterion does not count assertions here; a failing exit it does */
    }
}

const char *test_temp_path(char *buf, size_t size, const char *name)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    snprintf(buf, size, "%s/vkg-test-%ld-%s", dir, (long)getpid(), name);
    return buf;
}

eng_context *test_context_create(const eng_context_desc *desc)
{
    eng_context *ctx = NULL;
    eng_context_desc d = *desc;
    if (!d.existing && !d.get_instance_proc_addr)
        d.get_instance_proc_addr = vkGetInstanceProcAddr; /* destroy_context_counted's */
    eng_result r = eng_context_create(&d, &ctx);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    return ctx;
}

eng_existing_device test_existing_of(const eng_context *ctx)
{
    eng_existing_device e = {
        .instance = eng_context_instance(ctx),
        .physical_device = eng_context_physical_device(ctx),
        .device = eng_context_device(ctx),
        .enabled_features = test_enabled_features(ctx),
        .timeline_semaphore = true,
    };
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++) {
        e.queues[k] = eng_context_queue_of(ctx, (eng_queue_kind)k);
        e.families[k] = eng_context_queue_family_of(ctx, (eng_queue_kind)k);
    }
    return e;
}
