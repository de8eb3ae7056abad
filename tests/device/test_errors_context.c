/* Bad input to the context: a headless swapchain, contexts that cannot be
 * made, window-system inputs, extensions and features, a context over an
 * existing device; each call returns the right code and names what is
 * wrong (test_errors.c says how). Suite errors (test_errors.c declares
 * it). */
#include "device_fixture.h"
#include "errors_support.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <engine_files/engine_files.h>
#include <stdlib.h>
#include <string.h>

DEVICE_TEST(errors, headless_swapchain)
{
    eng_swapchain *sc = POISON(eng_swapchain);
    eng_swapchain_desc sd = { .vsync = true };
    EXPECT_FAIL(eng_swapchain_create(test_ctx, &sd, &sc), ENG_ERROR_INVALID_ARGUMENT, sc, "headless");
}

DEVICE_TEST(errors, context_create)
{
    eng_context *ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(NULL, &ctx), ENG_ERROR_INVALID_ARGUMENT, ctx, NULL);
    eng_context_desc desc = { .app_name = "tests", .device = "no-such-gpu" };
    cr_expect_eq(eng_context_create(&desc, NULL), ENG_ERROR_INVALID_ARGUMENT);
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_NO_DEVICE, ctx, "no-such-gpu");
    /* The message lists the devices there are. */
    const char *name = eng_context_properties(test_ctx)->deviceName;
    cr_expect_neq(strstr(eng_last_error(), name), NULL, "'%s' does not list '%s'", eng_last_error(), name);
    /* With validation on, the failed creation cleans up after itself: the
     * instance is destroyed without complaint (leaks show in the sanitizer
     * build). */
    desc.validation = true;
    desc.quiet = true;
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_NO_DEVICE, ctx, "no-such-gpu");
    /* An index past the end. */
    desc.device = "99";
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_NO_DEVICE, ctx, "'99'");
}

/* The window system's inputs (eng_context_desc): the surface callback gets
 * the new instance and surface_user; its failure is ENG_ERROR_WINDOW naming
 * it, with nothing handed out or leaked. An instance extension the system
 * lacks is named; a counted list must be there. */
typedef struct surface_call {
    int calls;
    VkInstance instance;
} surface_call;

static VkResult failing_surface(VkInstance instance, void *user, VkSurfaceKHR *out)
{
    surface_call *c = user;
    c->calls++;
    c->instance = instance;
    (void)out;
    return VK_ERROR_INITIALIZATION_FAILED;
}

DEVICE_TEST(errors, window_system_inputs)
{
    surface_call call = { 0 };
    eng_context_desc desc = { .app_name = "tests", .create_surface = failing_surface, .surface_user = &call };
    eng_context *ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_WINDOW, ctx, "create_surface");
    cr_expect_neq(strstr(eng_last_error(), "VK_ERROR_INITIALIZATION_FAILED"), NULL, "%s", eng_last_error());
    cr_expect_eq(call.calls, 1);
    cr_expect_neq(call.instance, VK_NULL_HANDLE);

    const char *missing[] = { VK_KHR_SURFACE_EXTENSION_NAME, "VK_KHR_no_such_surface" };
    desc = (eng_context_desc){ .app_name = "tests", .instance_extensions = missing, .instance_extension_count = 2 };
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_UNSUPPORTED, ctx, "VK_KHR_no_such_surface");
    cr_expect_eq(strstr(eng_last_error(), VK_KHR_SURFACE_EXTENSION_NAME), NULL, "names only the missing one: %s",
                 eng_last_error());

    desc = (eng_context_desc){ .app_name = "tests", .instance_extension_count = 1 };
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&desc, &ctx), ENG_ERROR_INVALID_ARGUMENT, ctx, "instance_extensions");
}

/* The application's device extensions and features chain: enabled with the
 * engine's own (the engine's members set in the chain's struct of a type
 * it uses, its other structs linked for the call and unlinked after); a
 * device extension the device lacks is named. */
DEVICE_TEST(errors, context_extensions_and_features)
{
    VkPhysicalDevice pd = eng_context_physical_device(test_ctx);
    VkPhysicalDeviceVulkan12Features offered12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceFeatures2 offered = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &offered12 };
    vkGetPhysicalDeviceFeatures2(pd, &offered);
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .scalarBlockLayout = offered12.scalarBlockLayout };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    features.features.independentBlend = offered.features.independentBlend;
    features.features.samplerAnisotropy = offered.features.samplerAnisotropy;
    const char *push = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props);
    bool has_push = false;
    for (uint32_t i = 0; i < n; i++)
        has_push = has_push || strcmp(props[i].extensionName, push) == 0;
    free(props);
    eng_context_desc desc = { .app_name = "tests-features", .validation = true, .features = &features,
                              .get_instance_proc_addr = vkGetInstanceProcAddr,
                              .device_extensions = &push, .device_extension_count = has_push };
    eng_context *ctx = test_context_create(&desc);
    cr_expect_eq(f12.timelineSemaphore, VK_TRUE, "the engine's member is set in the application's struct");
    cr_expect_null(f12.pNext, "the engine's structs are unlinked after the call");
    if (has_push)
        cr_expect_not_null(vkGetDeviceProcAddr(eng_context_device(ctx), "vkCmdPushDescriptorSetKHR"),
                           "%s was not enabled", push);
    /* The render graph runs on it. */
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "features", .device = eng_context_graph_device(ctx) }, &g),
                 RG_SUCCESS);
    rg_graph_destroy(g);
    destroy_context_expect_clean(ctx, "the context");

    const char *missing = "VK_EXT_no_such_extension";
    eng_context_desc bad = { .app_name = "tests-features", .device_extensions = &missing,
                             .device_extension_count = 1 };
    ctx = POISON(eng_context);
    EXPECT_FAIL(eng_context_create(&bad, &ctx), ENG_ERROR_UNSUPPORTED, ctx, "VK_EXT_no_such_extension");
}

/* A context over the application's own device (here the fixture's): the
 * engine's objects and a graph on it run, and destroying it leaves the
 * device to its owner, which goes on using it. */
static void record_nothing_at_all(VkCommandBuffer cmd, void *user)
{
    (void)cmd;
    (void)user;
}

DEVICE_TEST(errors, context_over_an_existing_device)
{
    eng_existing_device e = test_existing_of(test_ctx);
    e.local_read = eng_context_local_read(test_ctx).supported;
    eng_context *ctx = POISON(eng_context);
    eng_existing_device none = { 0 };
    EXPECT_FAIL(eng_context_create(&(eng_context_desc){ .existing = &none }, &ctx), ENG_ERROR_INVALID_ARGUMENT, ctx,
                "eng_existing_device");
    /* The feature chain is required: the graph's device checks it. */
    eng_existing_device no_features = e;
    no_features.enabled_features = NULL;
    EXPECT_FAIL(eng_context_create(&(eng_context_desc){ .existing = &no_features }, &ctx), ENG_ERROR_INVALID_ARGUMENT,
                ctx, "enabled_features");
    eng_result r = eng_context_create(&(eng_context_desc){ .existing = &e }, &ctx);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_eq(eng_context_device(ctx), e.device);
    cr_expect_str_eq(eng_context_properties(ctx)->deviceName, eng_context_properties(test_ctx)->deviceName);
    /* Push descriptors only where the application says it enabled them:
     * a push-descriptor pipeline is then refused by name. */
    cr_expect_not(eng_context_has_push_descriptors(ctx));
    VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    eng_pipeline *p = POISON(eng_pipeline);
    static const uint32_t no_code[1] = { 0 };
    EXPECT_FAIL(eng_compute_pipeline_create(ctx, &(eng_compute_pipeline_desc){ .name = "pushed", .spirv = no_code,
                                                                              .size = sizeof no_code,
                                                                              .push_descriptors = &storage,
                                                                              .push_descriptor_count = 1 },
                                            &p),
                ENG_ERROR_UNSUPPORTED, p, "VK_KHR_push_descriptor");
    eng_existing_device with_push = e;
    with_push.push_descriptor = eng_context_has_push_descriptors(test_ctx);
    eng_context *pushing = NULL;
    cr_assert_eq(eng_context_create(&(eng_context_desc){ .existing = &with_push }, &pushing), ENG_SUCCESS, "%s",
                 eng_last_error());
    cr_expect_eq(eng_context_has_push_descriptors(pushing), eng_context_has_push_descriptors(test_ctx));
    eng_context_destroy(pushing);

    enum { W = 16, H = 16 };
    eng_buffer *readback = NULL;
    eng_buffer_desc bd = { .name = "readback", .size = W * H * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    cr_assert_eq(eng_buffer_create(ctx, &bd, &readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "wrapped", .device = eng_context_graph_device(ctx) }, &g),
                 RG_SUCCESS);
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "t", .format = VK_FORMAT_R32_UINT, .width = W,
                                                            .height = H });
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
                                                                  .buffer = eng_buffer_handle(readback),
                                                                  .size = W * H * 4,
                                                                  .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                  .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .color_count = 1,
                                                .colors = { { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE,
                                                              .clear.color.uint32 = { 0xe215 } } } });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, out, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const uint32_t *v = eng_buffer_mapped(readback);
    cr_expect(v[0] == 0xe215 && v[W * H - 1] == 0xe215, "read back 0x%x .. 0x%x", v[0], v[W * H - 1]);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_context_destroy(ctx);
    /* The owner's device lives on. */
    cr_expect_eq(eng_context_submit_once(test_ctx, record_nothing_at_all, NULL), ENG_SUCCESS, "%s",
                 eng_last_error());
}
