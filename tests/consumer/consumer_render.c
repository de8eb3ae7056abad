/* A program of another project that renders: the engine's own context
 * (its own instance and device, headless, the Vulkan loader opened by the
 * engine), a frame of the render graph (a span clearing a texture, copied
 * into a host-visible buffer), its pixels checked. What docs/windows.md
 * cross-builds for Windows and CI runs under wine on lavapipe. Exit 0 when
 * every pixel is the clear colour; 77 when there is no Vulkan device. */
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>
#include <string.h>

#define W 32
#define H 16

typedef struct frame_job {
    rg_graph *graph;
    rg_result result;
} frame_job;

static void record_frame(VkCommandBuffer cmd, void *user)
{
    frame_job *j = user;
    j->result = rg_execute(j->graph, cmd);
}

int main(void)
{
    eng_context *ctx = NULL;
    if (eng_context_create(&(eng_context_desc){.app_name = "consumer_render"}, &ctx) != ENG_SUCCESS) {
        fprintf(stderr, "consumer_render: no Vulkan device: %s\n", eng_last_error());
        return 77;
    }
    printf("consumer_render: %s, rendergraph %s\n", eng_context_properties(ctx)->deviceName, rg_version_string());
    long bad = -1;
    eng_buffer *readback = NULL;
    rg_graph *graph = NULL;
    eng_buffer_desc bd = {.name = "readback", .size = W * H * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    if (eng_buffer_create(ctx, &bd, &readback) != ENG_SUCCESS ||
        rg_graph_create(&(rg_graph_desc){.name = "frame", .device = eng_context_graph_device(ctx)}, &graph) !=
            RG_SUCCESS) {
        fprintf(stderr, "consumer_render: %s\n", eng_last_error());
        goto done;
    }
    memset(eng_buffer_mapped(readback), 0, W * H * 4);
    rg_texture color = rg_texture_create(graph, &(rg_texture_desc){.name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                   .width = W, .height = H});
    rg_buffer out = rg_buffer_import(graph, &(rg_buffer_import_desc){.name = "readback",
                                                                     .buffer = eng_buffer_handle(readback),
                                                                     .size = W * H * 4,
                                                                     .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                     .final_access = VK_ACCESS_2_HOST_READ_BIT});
    rg_begin_rendering(graph, &(rg_rendering_desc){
                                  .name = "clear", .color_count = 1,
                                  .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                              .clear.color.float32 = {64 / 255.0f, 128 / 255.0f, 191 / 255.0f, 1}}}});
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, color, 0, 0, 1, out, 0);
    frame_job job = {graph, RG_SUCCESS};
    if (rg_compile(graph) != RG_SUCCESS || eng_context_submit_once(ctx, record_frame, &job) != ENG_SUCCESS ||
        job.result != RG_SUCCESS) {
        fprintf(stderr, "consumer_render: the frame: %s / %s\n", rg_graph_error_message(graph), eng_last_error());
        goto done;
    }
    rg_graph_set_retire_point(graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE); /* the frame was waited for */
    static const uint8_t want[4] = {64, 128, 191, 255};
    const uint8_t *px = eng_buffer_mapped(readback);
    bad = 0;
    for (uint32_t i = 0; i < W * H; i++)
        if (memcmp(px + 4 * i, want, 4) != 0 && bad++ < 4)
            fprintf(stderr, "consumer_render: pixel %u is %u %u %u %u\n", i, px[4 * i], px[4 * i + 1],
                    px[4 * i + 2], px[4 * i + 3]);
done:
    rg_graph_destroy(graph);
    eng_buffer_destroy(readback);
    eng_context_destroy(ctx);
    if (bad == 0)
        printf("consumer_render: ok (%dx%d pixels cleared and read back)\n", W, H);
    return bad == 0 ? 0 : 1;
}
