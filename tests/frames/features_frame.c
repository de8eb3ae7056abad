/* features_frame [FILE]: writes tests/frames/features.json, a frame with
 * what the demos' frames lack: a culled span, an async compute command, a
 * copy kept off the transfer queue (it touches an import), a merge taken
 * and one refused, a relative size rounded up, a buffer sized from a
 * texture (a per-pixel list that follows the frame's size; CTest
 * frame_features checks that the committed file is what this writes). */
#include <rendergraph_frame/rendergraph_frame.h>
#include <stdio.h>
static bool rec(const rg_record_context *rc, void *u)
{
    (void)rc, (void)u;
    return true;
}
int main(int argc, char **argv)
{
    rg_device_caps caps = {.local_read = true, .compute_queue = true, .transfer_queue = true, .driver = VK_DRIVER_ID_ARM_PROPRIETARY, .tile_profile = RG_TILE_MALI_VALHALL};
    rg_graph *g;
    rg_graph_create(&(rg_graph_desc){.name = "features", .caps = &caps}, &g);
    uint32_t w = 1280, h = 720;
    rg_texture sw = rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB, .width = w, .height = h, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    rg_buffer lights = rg_buffer_create(g, &(rg_buffer_desc){.name = "lights", .size = 65536});
    rg_buffer staging = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "staging", .size = 65536, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT});
    rg_texture albedo = rg_texture_create(g, &(rg_texture_desc){.name = "albedo", .format = VK_FORMAT_R8G8B8A8_UNORM, .size_of = sw});
    rg_texture normal = rg_texture_create(g, &(rg_texture_desc){.name = "normal", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .size_of = sw});
    rg_texture depth = rg_texture_create(g, &(rg_texture_desc){.name = "depth", .format = VK_FORMAT_D32_SFLOAT, .size_of = sw});
    rg_texture hdr = rg_texture_create(g, &(rg_texture_desc){.name = "hdr", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .size_of = sw});
    rg_texture ao = rg_texture_create(g, &(rg_texture_desc){.name = "ao", .format = VK_FORMAT_R8_UNORM, .size_of = sw, .scale = 0.5f, .rounding = RG_ROUND_UP});
    rg_texture debug = rg_texture_create(g, &(rg_texture_desc){.name = "debug", .format = VK_FORMAT_R8G8B8A8_UNORM, .size_of = sw});
    rg_buffer samples = rg_buffer_create(g, &(rg_buffer_desc){.name = "ao samples", .size_of = ao, .per_texel = 8});
    rg_command up = rg_cmd_copy_buffer(g, staging, 0, lights, 0, 65536);
    rg_command_allow_queue(g, up, RG_QUEUE_TRANSFER);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "gbuffer", .color_count = 2, .colors = {{.texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}, {.texture = normal, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}}, .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .clear = {.depthStencil = {1, 0}}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "scene", .kind = RG_COMMAND_DRAW, .record = rec, .cost = 40});
    rg_end_rendering(g);
    rg_cmd_user(g, &(rg_user_desc){.name = "ssao", .record = rec, .queue = RG_QUEUE_COMPUTE, .access_count = 3, .accesses = (rg_access[]){{.texture = depth, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true}, {.texture = ao, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true}, {.buffer = samples, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE}}});
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1, .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "lights", .kind = RG_COMMAND_DRAW, .record = rec, .access_count = 5, .accesses = (rg_access[]){{.texture = albedo, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true}, {.texture = normal, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true}, {.buffer = lights, .usage = RG_USAGE_UNIFORM_FRAGMENT}, {.texture = ao, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true}, {.buffer = samples, .usage = RG_USAGE_STORAGE_READ_FRAGMENT}}});
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "debug overlay", .color_count = 1, .colors = {{.texture = debug, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "draw debug", .kind = RG_COMMAND_DRAW, .record = rec, .access_count = 1, .accesses = (rg_access[]){{.texture = hdr, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true}}});
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "tonemap", .color_count = 1, .colors = {{.texture = sw, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "tonemap", .kind = RG_COMMAND_DRAW, .record = rec, .access_count = 1, .accesses = (rg_access[]){{.texture = hdr, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true}}});
    rg_end_rendering(g);
    rgf_error e;
    rg_result r = rgf_save(g, &(rgf_save_desc){.width = w, .height = h}, argc > 1 ? argv[1] : "features.json", &e);
    if (r != RG_SUCCESS)
        fprintf(stderr, "features_frame: %s\n", e.message);
    rg_graph_destroy(g);
    return r == RG_SUCCESS ? 0 : 1;
}
