/* The valid seeds of fuzz_frame's corpus (tests/fuzz/frame_corpus/seed_*):
 * a few frames declared here and saved with rgf_save, each showing the
 * reader a part of the format: a deferred frame with MRT, depth and
 * merged spans on a tile profile; transfers on several queues with an
 * import; a history pair; a frame placed over a device's memory table, so
 * the file holds its memory section. fuzz_frame_standalone --write-seeds
 * DIR writes them (the broken seeds beside them are hand-made). */
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>

#include "device_tables.h"

int ff_write_seeds(const char *dir);

static bool fs_noop(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

static rg_command fs_user(rg_graph *g, const char *name, rg_command_kind kind, const rg_access *a, uint32_t n)
{
    return rg_cmd_user(
        g, &(rg_user_desc){.name = name, .kind = kind, .accesses = a, .access_count = n, .record = fs_noop});
}
#define FS_TEX(t, u) ((rg_access){.texture = (t), .usage = (u), .whole = true})
#define FS_BUF(b, u) ((rg_access){.buffer = (b), .usage = (u)})
#define FS_ACC(...) \
    ((const rg_access[]){__VA_ARGS__}), (uint32_t)(sizeof((const rg_access[]){__VA_ARGS__}) / sizeof(rg_access))

static rg_texture fs_tex(rg_graph *g, const char *name, VkFormat format, uint32_t w, uint32_t h)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = w, .height = h});
}

static rg_texture fs_backbuffer(rg_graph *g, uint32_t w, uint32_t h)
{
    return rg_texture_import(
        g, &(rg_texture_import_desc){.name = "backbuffer",
                                     .format = VK_FORMAT_B8G8R8A8_SRGB,
                                     .width = w,
                                     .height = h,
                                     .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                     .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT});
}

/* G-buffer, lighting reading it pixel-locally (merged on a tile profile),
 * tonemap into the backbuffer. */
static void fs_deferred(rg_graph *g)
{
    rg_texture albedo = fs_tex(g, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 320, 180);
    rg_texture normal = fs_tex(g, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, 320, 180);
    rg_texture depth = fs_tex(g, "depth", VK_FORMAT_D32_SFLOAT, 320, 180);
    rg_texture hdr = fs_tex(g, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 320, 180);
    rg_texture back = fs_backbuffer(g, 320, 180);
    rg_begin_rendering(
        g, &(rg_rendering_desc){
               .name = "gbuffer",
               .colors = {{.texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                          {.texture = normal, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
               .color_count = 2,
               .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .clear = {.depthStencil = {1.0f, 0}}}});
    fs_user(g, "meshes", RG_COMMAND_DRAW, NULL, 0);
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting",
                                               .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}},
                                               .color_count = 1});
    fs_user(g, "sun", RG_COMMAND_DRAW,
            FS_ACC(FS_TEX(albedo, RG_USAGE_PIXEL_LOCAL_READ), FS_TEX(normal, RG_USAGE_PIXEL_LOCAL_READ)));
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "tonemap", .colors = {{.texture = back}}, .color_count = 1});
    fs_user(g, "tonemap", RG_COMMAND_DRAW, FS_ACC(FS_TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT)));
    rg_end_rendering(g);
}

/* Copies, a clear and a blit, some allowed on the compute and transfer
 * queues, into an imported buffer. */
static void fs_transfers(rg_graph *g)
{
    rg_buffer staging = rg_buffer_create(g, &(rg_buffer_desc){.name = "staging", .size = 64 * 64 * 4});
    rg_texture image = fs_tex(g, "image", VK_FORMAT_R8G8B8A8_UNORM, 64, 64);
    rg_texture small = fs_tex(g, "small", VK_FORMAT_R8G8B8A8_UNORM, 32, 32);
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 32 * 32 * 4});
    fs_user(g, "fill", RG_COMMAND_OUTSIDE, FS_ACC(FS_BUF(staging, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    rg_command up = rg_cmd_copy_buffer_to_texture(g, staging, 0, image, 0, 0, 1);
    rg_command_allow_queue(g, up, RG_QUEUE_TRANSFER);
    rg_cmd_clear_texture(g, small, NULL, &(VkClearValue){.color = {.float32 = {0.25f, 0.5f, 0.75f, 1}}});
    rg_cmd_blit(g, image, 0, small, 0, VK_FILTER_LINEAR);
    rg_command down = rg_cmd_copy_texture_to_buffer(g, small, 0, 0, 1, readback, 0);
    rg_command_allow_queue(g, down, RG_QUEUE_COMPUTE);
}

/* A history texture, read as last frame's and written as this one's. */
static void fs_history(rg_graph *g)
{
    rg_texture prev,
        accum = rg_texture_create_history(
            g,
            &(rg_texture_desc){.name = "accum", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .width = 128, .height = 128},
            &prev);
    rg_texture back = fs_backbuffer(g, 128, 128);
    fs_user(g, "accumulate", RG_COMMAND_OUTSIDE,
            FS_ACC(FS_TEX(prev, RG_USAGE_SAMPLED_COMPUTE), FS_TEX(accum, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    rg_cmd_blit(g, accum, 0, back, 0, VK_FILTER_NEAREST);
}

static bool fs_requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                            VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)index;
    *size = is_texture ? 320 * 180 * 8 : 4096;
    *alignment = is_texture ? 65536 : 256;
    *type_bits = ~0u;
    *dedicated = false;
    return true;
}

static int fs_save(const char *dir, const char *name, void (*declare)(rg_graph *), const rg_device_caps *caps,
                   bool placed)
{
    rg_graph *g = NULL;
    if (rg_graph_create(&(rg_graph_desc){.name = name, .caps = caps}, &g) != RG_SUCCESS)
        return 1;
    declare(g);
    const VkPhysicalDeviceMemoryProperties *props = &device_tables[0].props;
    rg_result r = rg_compile(g);
    if (r == RG_SUCCESS && placed)
        r = rg_place_offline(g, props, fs_requirements, NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/seed_%s.json", dir, name);
    rgf_error error;
    if (r == RG_SUCCESS)
        r = rgf_save(g, &(rgf_save_desc){.memory = placed ? props : NULL}, path, &error);
    if (r != RG_SUCCESS)
        fprintf(stderr, "%s: %s: %s\n", path, rg_result_string(r), rg_graph_error_message(g));
    rg_graph_destroy(g);
    return r != RG_SUCCESS;
}

int ff_write_seeds(const char *dir)
{
    rg_device_caps tile = {.local_read = true,
                           .max_color_attachments = 4,
                           .max_input_attachments = 4,
                           .driver = VK_DRIVER_ID_ARM_PROPRIETARY,
                           .tile_profile = rgf_tile_profile_from_key("mali-bifrost")};
    rg_device_caps queues = {.compute_queue = true, .transfer_queue = true};
    return fs_save(dir, "deferred", fs_deferred, &tile, false) |
           fs_save(dir, "transfers", fs_transfers, &queues, false) | fs_save(dir, "history", fs_history, NULL, false) |
           fs_save(dir, "deferred_placed", fs_deferred, NULL, true);
}
