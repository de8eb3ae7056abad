/* A program of another project that calls Vulkan through volk and links
 * the static engine: volk's vk* names are function-pointer variables, so
 * an engine that named the loader's vk* functions would call into those
 * variables (the first engine call crashed). The program makes its own
 * instance (validation with synchronization validation, and a messenger
 * that counts) and device through volk, makes an engine context over them
 * (eng_existing_device, with volk's vkGetInstanceProcAddr), renders one
 * frame with a render graph (a cleared pass with a draw in it, copied to a
 * readback buffer) and checks its pixels and that validation said nothing.
 * With --loader the context is given no vkGetInstanceProcAddr (NULL, the
 * documented default): the engine opens the Vulkan loader itself, and a
 * static engine that named the loader's vkGetInstanceProcAddr would jump
 * into volk's variable of that name.
 * Exit 0 when all is well, or when there is no Vulkan device or validation
 * layer and ENG_REQUIRE_DEVICE is not set (skipped). */
#include <volk.h> /* first: it defines VK_NO_PROTOTYPES before vulkan.h */

#include "../raw/raw_instance.h"

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 32
#define H 32
static const VkRect2D mark = { { 8, 4 }, { 16, 8 } };
/* Cleared as each byte / 255: 0.5 itself lies halfway between 127 and
 * 128, which drivers round either way (an NVIDIA H100 gives 127). */
static const uint8_t clear_rgba[4] = { 64, 128, 191, 255 };
static const uint8_t mark_rgba[4] = { 255, 0, 0, 255 };

/* No device or no layer: a failure where ENG_REQUIRE_DEVICE says one is
 * required, else the program is skipped. */
static int missing(const char *what)
{
    const char *req = getenv("ENG_REQUIRE_DEVICE");
    bool required = req && req[0] && strcmp(req, "0") != 0;
    fprintf(stderr, "consumer_volk: %s: %s\n", required ? "FAILED" : "skipped", what);
    return required ? 1 : 0;
}

/* The draw of the cleared pass: a rectangle set to mark_rgba (no pipeline:
 * vkCmdClearAttachments, a volk pointer, inside the graph's rendering). */
static bool record_mark(const rg_record_context *rc, void *user)
{
    (void)user;
    VkClearAttachment clear = { .aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .colorAttachment = 0,
                                .clearValue.color.float32 = { 1.0f, 0.0f, 0.0f, 1.0f } };
    VkClearRect rect = { .rect = mark, .baseArrayLayer = 0, .layerCount = 1 };
    vkCmdClearAttachments(rg_record_cmd(rc), 1, &clear, 1, &rect);
    return true;
}

typedef struct frame_job {
    rg_graph *graph;
    rg_result result;
} frame_job;

static void record_frame(VkCommandBuffer cmd, void *user)
{
    frame_job *j = user;
    j->result = rg_execute(j->graph, cmd);
}

/* The frame on the engine context: returns the number of wrong pixels, or
 * -1 when a call failed (its message printed). */
static long render(eng_context *ctx)
{
    long bad = -1;
    eng_buffer *readback = NULL;
    rg_graph *graph = NULL;
    eng_buffer_desc bd = { .name = "readback", .size = W * H * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    if (eng_buffer_create(ctx, &bd, &readback) != ENG_SUCCESS) {
        fprintf(stderr, "consumer_volk: eng_buffer_create: %s\n", eng_last_error());
        return -1;
    }
    memset(eng_buffer_mapped(readback), 0, W * H * 4);
    if (rg_graph_create(&(rg_graph_desc){ .name = "volk frame", .device = eng_context_graph_device(ctx) }, &graph) !=
        RG_SUCCESS) {
        fprintf(stderr, "consumer_volk: rg_graph_create failed\n");
        goto done;
    }
    rg_texture color = rg_texture_create(graph, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                    .width = W, .height = H });
    rg_buffer out = rg_buffer_import(graph, &(rg_buffer_import_desc){ .name = "readback",
                                                                      .buffer = eng_buffer_handle(readback),
                                                                      .size = W * H * 4,
                                                                      .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                      .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_begin_rendering(graph, &(rg_rendering_desc){
                                  .name = "clear", .color_count = 1,
                                  .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                .store = VK_ATTACHMENT_STORE_OP_STORE,
                                                .clear.color.float32 = { 64 / 255.0f, 128 / 255.0f, 191 / 255.0f, 1.0f } } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "mark", .kind = RG_COMMAND_DRAW, .record = record_mark });
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, out, 0);
    rg_result r = rg_compile(graph);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "consumer_volk: rg_compile: %s\n", rg_graph_error_message(graph));
        goto done;
    }
    frame_job job = { graph, RG_SUCCESS };
    if (eng_context_submit_once(ctx, record_frame, &job) != ENG_SUCCESS || job.result != RG_SUCCESS) {
        fprintf(stderr, "consumer_volk: the frame: %s / %s\n", eng_last_error(), rg_graph_error_message(graph));
        goto done;
    }
    const uint8_t *px = eng_buffer_mapped(readback);
    bad = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            bool in = x >= (uint32_t)mark.offset.x && x < mark.offset.x + mark.extent.width &&
                      y >= (uint32_t)mark.offset.y && y < mark.offset.y + mark.extent.height;
            const uint8_t *want = in ? mark_rgba : clear_rgba, *got = px + 4 * (y * W + x);
            if (memcmp(got, want, 4) != 0 && bad++ < 4)
                fprintf(stderr, "consumer_volk: pixel (%u,%u) is %u %u %u %u, want %u %u %u %u\n", x, y, got[0],
                        got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
done:
    if (graph) /* eng_context_submit_once waited for the frame */
        rg_graph_set_retire_point(graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    rg_graph_destroy(graph);
    eng_buffer_destroy(readback);
    return bad;
}

int main(int argc, char **argv)
{
    bool own_loader = argc > 1 && strcmp(argv[1], "--loader") == 0;
    if (volkInitialize() != VK_SUCCESS)
        return missing("no Vulkan loader (volkInitialize)");
    if (!raw_has_layer(RAW_VALIDATION_LAYER))
        return missing("VK_LAYER_KHRONOS_validation is not installed");
    raw_messages m = { .print = "consumer_volk: " };
    raw_instance_info info;
    raw_instance_info_init(&info, "consumer_volk", VK_API_VERSION_1_3, &m);
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&info.create, NULL, &instance) != VK_SUCCESS)
        return missing("vkCreateInstance with validation and debug utils failed");
    volkLoadInstance(instance);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    if (vkCreateDebugUtilsMessengerEXT(instance, &info.messenger, NULL, &messenger) != VK_SUCCESS) {
        vkDestroyInstance(instance, NULL);
        return missing("vkCreateDebugUtilsMessengerEXT failed");
    }

    /* The first Vulkan 1.3 device with a graphics and compute family. */
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    uint32_t family = UINT32_MAX;
    raw_pick_device(instance, &physical, &family);
    if (physical) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(physical, &p);
        printf("consumer_volk: %s\n", p.deviceName);
    }
    int status = 1;
    bool rendered = false;
    VkDevice device = VK_NULL_HANDLE;
    eng_context *ctx = NULL;
    if (!physical) {
        status = missing("no Vulkan 1.3 device with a graphics queue");
        goto done;
    }
    raw_device_features features;
    if (raw_create_device(physical, family, &features, &device) != VK_SUCCESS) {
        fprintf(stderr, "consumer_volk: vkCreateDevice failed\n");
        goto done;
    }
    volkLoadDevice(device);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);

    eng_existing_device e = {
        .instance = instance,
        .physical_device = physical,
        .device = device,
        .get_instance_proc_addr = own_loader ? NULL : vkGetInstanceProcAddr, /* volk's, or the engine's own */
        .enabled_features = &features.f2,
        .timeline_semaphore = true,
        .debug_utils = true,
    };
    e.queues[ENG_QUEUE_GRAPHICS] = queue;
    e.families[ENG_QUEUE_GRAPHICS] = family;
    if (eng_context_create(&(eng_context_desc){ .existing = &e }, &ctx) != ENG_SUCCESS) {
        fprintf(stderr, "consumer_volk: eng_context_create: %s\n", eng_last_error());
        goto done;
    }
    long bad = render(ctx);
    rendered = bad == 0;
    if (bad == 0)
        status = 0;
    else if (bad > 0)
        fprintf(stderr, "consumer_volk: %ld of %d pixels differ\n", bad, W * H);
done:
    eng_context_destroy(ctx);
    if (device)
        vkDestroyDevice(device, NULL); /* the layer reports leaked objects here */
    vkDestroyDebugUtilsMessengerEXT(instance, messenger, NULL);
    vkDestroyInstance(instance, NULL);
    if (m.warnings + m.errors) {
        fprintf(stderr, "consumer_volk: %u validation warnings, %u errors\n", m.warnings, m.errors);
        status = 1;
    }
    if (status == 0 && rendered)
        printf("consumer_volk: ok (a frame of the static engine on volk's device, %s, validation silent)\n",
               own_loader ? "the engine's own loader" : "volk's vkGetInstanceProcAddr");
    return status;
}
