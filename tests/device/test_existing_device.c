/* The engine over a device the application made (eng_existing_device):
 * the test makes its own instance (validation with synchronization
 * validation, VK_EXT_debug_utils and a messenger of its own) and device,
 * and checks that the graph's names reach its messenger and that the
 * engine's and the graph's memory goes through its allocators. And a
 * binding of a buffer the graph does not own (eng_binding.vk_buffer), on
 * the fixture's context. */
#include "../raw/raw_instance.h"
#include "counting_allocator.h"
#include "counting_vk_allocator.h"
#include "device_fixture.h"
#include "solid.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t ubo_color_frag[] =
#include "ubo_color.frag.inc"
    ;

#define VK_OK(call) cr_assert_eq((call), VK_SUCCESS, "%s", #call)

/* What the test's messenger saw: warnings and errors, the first one's
 * text (counts, raw_instance.h), and whether one named the graph's texture. */
typedef struct app_messages {
    raw_messages counts; /* first: note_hdr finds the struct from it */
    bool named_hdr;
} app_messages;

/* The application's instance and device, and the chain it created the
 * device with. */
typedef struct app_device {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    raw_device_features features;
    app_messages messages;
} app_device;

/* Each warning or error: whether it names the graph's texture "hdr", in
 * its text or as an object's name. */
static void note_hdr(raw_messages *counts, const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    app_messages *m = (app_messages *)counts;
    if (data && data->pMessage && strstr(data->pMessage, "[hdr]"))
        m->named_hdr = true;
    for (uint32_t i = 0; data && i < data->objectCount; i++)
        if (data->pObjects[i].pObjectName && strcmp(data->pObjects[i].pObjectName, "hdr") == 0)
            m->named_hdr = true;
}

/* Instance with validation, debug utils and the test's messenger; the
 * first Vulkan 1.3 device with a graphics queue; a device with
 * dynamicRendering, synchronization2, maintenance4 and timelineSemaphore. */
static void app_device_create(app_device *a)
{
    *a = (app_device){ 0 };
    if (!raw_has_layer(RAW_VALIDATION_LAYER))
        require_or_skip(RAW_VALIDATION_LAYER);
    a->messages.counts.seen = note_hdr;
    raw_instance_info info;
    raw_instance_info_init(&info, "existing device", VK_API_VERSION_1_3, &a->messages.counts);
    VK_OK(vkCreateInstance(&info.create, NULL, &a->instance));
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(a->instance, "vkCreateDebugUtilsMessengerEXT");
    cr_assert(create_messenger);
    VK_OK(create_messenger(a->instance, &info.messenger, NULL, &a->messenger));

    VkResult vr = raw_pick_device(a->instance, &a->physical, &a->family);
    cr_assert(vr == VK_SUCCESS || vr == VK_INCOMPLETE);
    if (!a->physical)
        require_or_skip("a Vulkan 1.3 device with a graphics queue");
    VK_OK(raw_create_device(a->physical, a->family, &a->features, &a->device));
    vkGetDeviceQueue(a->device, a->family, 0, &a->queue);
}

static void app_device_destroy(app_device *a)
{
    if (a->device)
        vkDestroyDevice(a->device, NULL);
    if (a->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            a->instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy(a->instance, a->messenger, NULL);
    }
    if (a->instance)
        vkDestroyInstance(a->instance, NULL);
}

static eng_existing_device existing_of(const app_device *a)
{
    eng_existing_device e = {
        .instance = a->instance,
        .physical_device = a->physical,
        .device = a->device,
        .enabled_features = &a->features.f2,
        .timeline_semaphore = true,
        .debug_utils = true,
    };
    e.queues[ENG_QUEUE_GRAPHICS] = a->queue;
    e.families[ENG_QUEUE_GRAPHICS] = a->family;
    return e;
}

/* A user command that writes the graph's texture twice, as it declared
 * once: the second clear has no barrier after the first (a write after
 * write hazard, which synchronization validation reports naming the
 * image). */
typedef struct misuse {
    rg_texture hdr;
} misuse;

static bool record_two_writes(const rg_record_context *rc, void *user)
{
    const misuse *m = user;
    VkClearColorValue black = { .float32 = { 0, 0, 0, 1 } };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    VkImage image = rg_record_image(rc, m->hdr);
    for (int i = 0; i < 2; i++)
        vkCmdClearColorImage(rg_record_cmd(rc), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &range);
    return true;
}

/* A graph with texture "hdr", written by a copy into an imported readback
 * buffer (so that nothing is culled); record: hdr's writer. */
static rg_graph *hdr_graph(eng_context *ctx, eng_buffer *readback, rg_record_fn record, misuse *m)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "app frame", .device = eng_context_graph_device(ctx) },
                                 &g),
                 RG_SUCCESS);
    m->hdr = rg_texture_create(g, &(rg_texture_desc){ .name = "hdr", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 8,
                                                      .height = 8 });
    rg_buffer rb = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
                                                                 .buffer = eng_buffer_handle(readback),
                                                                 .size = 8 * 8 * 4,
                                                                 .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                 .final_access = VK_ACCESS_2_HOST_READ_BIT });
    if (record) {
        rg_access write = { .texture = m->hdr, .usage = RG_USAGE_TRANSFER_DST };
        rg_cmd_user(g, &(rg_user_desc){ .name = "misuse", .accesses = &write, .access_count = 1, .record = record,
                                         .user = m });
    } else {
        rg_cmd_clear_texture(g, m->hdr, NULL, &(VkClearValue){ .color.float32 = { 0.25f, 0.5f, 0.75f, 1.0f } });
    }
    rg_cmd_copy_texture_to_buffer(g, m->hdr, 0, 0, 1, rb, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

static eng_buffer *readback_buffer(eng_context *ctx)
{
    eng_buffer *b = NULL;
    eng_buffer_desc bd = { .name = "readback", .size = 8 * 8 * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    cr_assert_eq(eng_buffer_create(ctx, &bd, &b), ENG_SUCCESS, "%s", eng_last_error());
    return b;
}

/* The frame with the mistake (hdr cleared twice without a barrier between)
 * run on a context over a's device as e describes: a's messenger sees no
 * message before it and an error for it. */
static void run_mistake(app_device *a, const eng_existing_device *e)
{
    eng_context *ctx = test_context_create(&(eng_context_desc){ .existing = e });
    eng_buffer *readback = readback_buffer(ctx);
    misuse m = { 0 };
    rg_graph *g = hdr_graph(ctx, readback, record_two_writes, &m);
    const raw_messages *counts = &a->messages.counts;
    cr_assert_eq(counts->errors + counts->warnings, 0, "before the mistake: %s", counts->first);
    cr_expect_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_gt(counts->errors, 0, "the second clear without a barrier was not reported");
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_context_destroy(ctx);
}

TestSuite(existing_device);

/* With debug_utils the graph names its images after its textures, so the
 * application's own validation messenger names the graph resource a
 * mistake is about. */
Test(existing_device, validation_messages_name_graph_resources)
{
    app_device a;
    app_device_create(&a);
    eng_existing_device e = existing_of(&a);
    run_mistake(&a, &e);
    cr_expect(a.messages.named_hdr, "no message names the graph's texture 'hdr'; first: %s", a.messages.counts.first);

    /* Without debug_utils, the same mistake is reported about an unnamed
     * image: the name came through the engine. */
    a.messages = (app_messages){ .counts.seen = note_hdr };
    e.debug_utils = false;
    run_mistake(&a, &e);
    cr_expect_not(a.messages.named_hdr, "without debug_utils the image has a name: %s", a.messages.counts.first);
    app_device_destroy(&a);
}

/* Every host allocation of the engine and the graph goes through the
 * application's rg_allocator, every Vulkan object they create through its
 * VkAllocationCallbacks, and all of it is freed with the context. */
Test(existing_device, allocations_go_through_the_application_allocators)
{
    app_device a;
    app_device_create(&a);
    counting host = { 0 };
    rg_allocator host_allocator = counting_allocator(&host);
    vk_counts vkc = { 0 };
    VkAllocationCallbacks vk_allocator = vk_counting_callbacks(&vkc);
    eng_existing_device e = existing_of(&a);
    e.allocator = &host_allocator;
    e.vk_allocator = &vk_allocator;
    eng_context *ctx = test_context_create(&(eng_context_desc){ .existing = &e });
    cr_expect_gt(host.calls, 0, "the context was not allocated through the host allocator");
    cr_expect_gt(vkc.allocations, 0, "the context's command pool did not go through the callbacks");
    eng_buffer *readback = readback_buffer(ctx);
    /* The graph alone: declared and compiled (host memory), placed (its
     * image and memory). */
    uint32_t host_before = host.calls;
    misuse m = { 0 };
    rg_graph *g = hdr_graph(ctx, readback, NULL, &m);
    cr_expect_gt(host.calls, host_before, "the graph's host memory did not go through the allocator");
    uint32_t vk_before = vkc.allocations;
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_gt(vkc.allocations, vk_before, "the graph's image and memory did not go through the callbacks");
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    /* 0.25, 0.5, 0.75, 1 in UNORM8: 0.5 is 127.5, which a device may round
     * either way (lavapipe 128, NVIDIA 127). */
    const uint8_t *px = eng_buffer_mapped(readback);
    cr_expect(px[0] == 64 && (px[1] == 127 || px[1] == 128) && px[2] == 191 && px[3] == 255,
              "texel 0 is %u %u %u %u", px[0], px[1], px[2], px[3]);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_context_destroy(ctx);
    cr_expect_eq(host.live, 0, "%u host blocks of %u allocations left", host.live, host.calls);
    cr_expect_eq(vkc.live, 0, "%u Vulkan blocks of %u allocations left", vkc.live, vkc.allocations);
    cr_expect_eq(a.messages.counts.errors + a.messages.counts.warnings, 0, "first: %s", a.messages.counts.first);
    app_device_destroy(&a);
}

/* A draw reading a uniform buffer the graph does not know
 * (eng_binding.vk_buffer): pushed as given; uploaded before the frame, it
 * needs no barrier from the graph. A binding naming both a graph resource
 * and a buffer of the application's, or neither, is refused by index. */
typedef struct raw_frame {
    eng_pipeline *pipeline;
    VkBuffer ubo;
    rg_buffer readback;
    eng_result both, neither;
    char both_message[512], neither_message[512];
} raw_frame;

static bool record_raw_draw(const rg_record_context *rc, void *user)
{
    raw_frame *f = user;
    VkDescriptorBufferInfo ubo = { f->ubo, 0, VK_WHOLE_SIZE };
    f->both = eng_push_bindings(rc, f->pipeline, &(eng_binding){ .buffer = f->readback, .vk_buffer = ubo }, 1);
    snprintf(f->both_message, sizeof f->both_message, "%s", eng_last_error());
    f->neither = eng_push_bindings(rc, f->pipeline, &(eng_binding){ 0 }, 1);
    snprintf(f->neither_message, sizeof f->neither_message, "%s", eng_last_error());
    if (eng_push_bindings(rc, f->pipeline, &(eng_binding){ .vk_buffer = ubo }, 1) != ENG_SUCCESS)
        return false;
    solid_draw_full(rg_record_cmd(rc), f->pipeline);
    return true;
}

TestSuite(raw_bindings, .init = device_setup, .fini = device_teardown);

DEVICE_TEST(raw_bindings, a_draw_reads_a_uniform_buffer_the_graph_does_not_own)
{
    cr_assert(eng_context_has_push_descriptors(test_ctx), "lavapipe and the H200 offer VK_KHR_push_descriptor");
    raw_frame f = { 0 };
    VkDescriptorType ubo_type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    eng_pipeline_desc pd = solid_fragment_desc("ubo color", ubo_color_frag, sizeof ubo_color_frag,
                                               VK_FORMAT_R8G8B8A8_UNORM);
    pd.push_descriptors = &ubo_type;
    pd.push_descriptor_count = 1;
    eng_result r = eng_pipeline_create(test_ctx, &pd, &f.pipeline);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    eng_buffer *ubo = NULL;
    cr_assert_eq(eng_buffer_create_with_data(test_ctx, "color ubo", VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, color,
                                             sizeof color, &ubo),
                 ENG_SUCCESS, "%s", eng_last_error());
    f.ubo = eng_buffer_handle(ubo);
    eng_buffer *readback = readback_buffer(test_ctx);
    memset(eng_buffer_mapped(readback), 0, 8 * 8 * 4);

    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "raw", .device = eng_context_graph_device(test_ctx) }, &g),
                 RG_SUCCESS);
    rg_texture out = rg_texture_create(g, &(rg_texture_desc){ .name = "out", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                              .width = 8, .height = 8 });
    f.readback = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
                                                               .buffer = eng_buffer_handle(readback),
                                                               .size = 8 * 8 * 4,
                                                               .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                               .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "draw", .color_count = 1,
                                                .colors = { { .texture = out, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "ubo draw", .kind = RG_COMMAND_DRAW, .record = record_raw_draw,
                                     .user = &f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, out, 0, 0, 1, f.readback, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(test_ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));

    cr_expect_eq(f.both, ENG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(f.both_message, "binding 0") && strstr(f.both_message, "more than one"), "%s", f.both_message);
    cr_expect_eq(f.neither, ENG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(f.neither_message, "binding 0") && strstr(f.neither_message, "vk_buffer"), "%s",
              f.neither_message);
    const uint8_t *px = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 8 * 8; i++)
        bad += px[4 * i] != 64 || (px[4 * i + 1] != 127 && px[4 * i + 1] != 128) || px[4 * i + 2] != 191 ||
               px[4 * i + 3] != 255; /* 127.5 rounds either way, as above */
    cr_expect_eq(bad, 0, "%u of 64 pixels differ; (0,0) = %u %u %u %u", bad, px[0], px[1], px[2], px[3]);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_buffer_destroy(ubo);
    eng_pipeline_destroy(f.pipeline);
}
