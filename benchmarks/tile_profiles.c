/* tile_profiles: what each tile profile (docs/tiles.md) makes of three
 * frames, device-free. Every figure is computed by the graph from the
 * profiles' published budgets and an offline placement: no tile GPU is
 * measured (none was available), and the tile traffic is the graph's own
 * estimate (rg_tile_view_get).
 *
 * Frames, at --size (default 1920x1080):
 *   deferred   G-buffer (albedo RGBA8, normal RGBA16F, material RGBA8,
 *              depth D32), lighting reading it pixel-locally into hdr
 *              RGBA16F: 24 B of colour per pixel merged
 *   fat        the same with normal, material and emissive in RGBA16F and
 *              motion in RG16F: 44 B merged
 *   msaa4      forward pass into 4x MSAA RGBA16F + D32, a second pass
 *              reading it pixel-locally into another 4x RGBA16F target,
 *              resolved: 16 B per sample, 64 B per pixel
 * Per profile and frame: merges taken and refused (the first reason),
 * lazily allocated and pooled MiB (the placement of a device with a lazy
 * type on tile profiles, without one on desktop), the estimated tile
 * traffic per frame, and the most colour bytes per pixel per sample any
 * rendering instance keeps in the tile.
 *
 *   tile_profiles [--size WxH] [--save-frames DIR] [--frame FILE ...]
 *
 * --frame FILE (repeatable) prints instead, for a frame file (the demos'
 * committed frames: tests/frames/deferred.json, scene.json) at --size under
 * every profile, merged (RG_MERGE_ON) and not: merges taken, lazy and
 * pooled MiB (rgf_frame_place's model memory), the tile view's traffic
 * per frame and GB/s at 60 fps, spills, the smallest tile any instance
 * gets (Mali, Apple7) and the bins (Adreno: the most of one instance, and
 * their sum over the frame).
 *
 * --save-frames writes each frame as a frame file, DIR/NAME.json (as
 * declared for the desktop), for rgtool (docs/frame-files.md).
 */
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A rendering instance's (or with RG_INDEX_NONE the frame's) tile traffic. */
static rg_result traffic_get(const rg_graph *g, uint32_t instance, rg_tile_traffic *out)
{
    rg_tile_view v;
    rg_result r = rg_tile_view_get(g, instance, out ? &v : NULL);
    if (out)
        *out = r == RG_SUCCESS ? v.traffic : (rg_tile_traffic){0};
    return r;
}

static uint32_t width = 1920, height = 1080;

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

static rg_texture target(rg_graph *g, const char *name, VkFormat format, VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = width, .height = height,
                                                  .samples = samples});
}

static void draw(rg_graph *g, const char *name, const rg_access *a, uint32_t n)
{
    rg_cmd_user(g, &(rg_user_desc){.name = name, .kind = RG_COMMAND_DRAW, .accesses = a, .access_count = n,
                                   .record = record_nothing});
}

static rg_access local_read(rg_texture t)
{
    return (rg_access){.texture = t, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true};
}

/* The swapchain image, and a pass that tonemaps hdr into it. */
static void present(rg_graph *g, rg_texture hdr)
{
    rg_texture out = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB, .width = width, .height = height,
        .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "tonemap", .color_count = 1,
                                               .colors = {{.texture = out, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    draw(g, "tonemap", &(rg_access){.texture = hdr, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true}, 1);
    rg_end_rendering(g);
}

static void declare_gbuffer(rg_graph *g, const VkFormat *formats, uint32_t count)
{
    static const char *names[] = {"albedo", "normal", "material", "motion", "emissive"};
    rg_rendering_desc gb = {.name = "gbuffer"};
    rg_access reads[5];
    for (uint32_t i = 0; i < count; i++) {
        rg_texture t = target(g, names[i], formats[i], VK_SAMPLE_COUNT_1_BIT);
        gb.colors[gb.color_count++] = (rg_attachment){.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
        reads[i] = local_read(t);
    }
    gb.depth = (rg_attachment){.texture = target(g, "depth", VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT),
                               .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE};
    rg_begin_rendering(g, &gb);
    draw(g, "scene", NULL, 0);
    rg_end_rendering(g);
    rg_texture hdr = target(g, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_1_BIT);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                               .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    draw(g, "lights", reads, count);
    rg_end_rendering(g);
    present(g, hdr);
}

static void declare_deferred(rg_graph *g)
{
    static const VkFormat f[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM};
    declare_gbuffer(g, f, 3);
}

static void declare_fat(rg_graph *g)
{
    static const VkFormat f[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT,
                                 VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R16G16_SFLOAT,
                                 VK_FORMAT_R16G16B16A16_SFLOAT};
    declare_gbuffer(g, f, 5);
}

static void declare_msaa4(rg_graph *g)
{
    rg_texture color = target(g, "color", VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_4_BIT);
    rg_texture depth = target(g, "depth", VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_4_BIT);
    rg_texture lit = target(g, "lit", VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_4_BIT);
    rg_texture hdr = target(g, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, VK_SAMPLE_COUNT_1_BIT);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "forward", .color_count = 1,
        .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
        .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}});
    draw(g, "opaque", NULL, 0);
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "decals", .color_count = 1,
        .colors = {{.texture = lit, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .resolve = hdr}}});
    rg_access read = local_read(color);
    draw(g, "decals", &read, 1);
    rg_end_rendering(g);
    present(g, hdr);
}

/* A device with one device-local type and, on a tile profile, a lazily
 * allocated one that transient attachments may use. */
static const VkPhysicalDeviceMemoryProperties tile_memory = {
    .memoryTypeCount = 2,
    .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
                    {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, 0}},
    .memoryHeapCount = 1,
    .memoryHeaps = {{8ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}},
};

typedef struct placing {
    rg_graph *g;
    bool lazy_type;
} placing;

/* Texel bytes times pixels, rounded to 64 KiB; transient attachments may
 * take the lazy type where there is one. */
static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name;
    const placing *p = user;
    rg_resource_info info;
    if (rg_resource_get(p->g, index, &info) != RG_SUCCESS)
        return false;
    VkDeviceSize bytes = is_texture ? (VkDeviceSize)info.width * info.height * info.samples *
                                          rg_format_get_info(info.format).block_size
                                    : info.size;
    *size = (bytes + 65535) / 65536 * 65536;
    *alignment = 65536;
    *type_bits = 1u | (p->lazy_type && info.transient ? 2u : 0u);
    *dedicated = false;
    return true;
}

typedef struct figures {
    uint32_t merged, refused;
    char reason[256];
    double lazy_mib, pooled_mib, traffic_mib;
    uint32_t most_color;
} figures;

/* The most colour bytes per pixel per sample one rendering instance
 * keeps (a span's rendering describes its whole instance). */
static uint32_t most_color(rg_graph *g)
{
    const rg_command *order;
    uint32_t count = rg_execution_order(g, &order), most = 0;
    for (uint32_t i = 0; i < count; i++) {
        rg_command_info info;
        rg_command_rendering cr;
        if (rg_command_get_info(g, order[i], &info) != RG_SUCCESS || info.type != RG_COMMAND_TYPE_BEGIN_RENDERING ||
            rg_command_get_rendering(g, order[i], &cr) != RG_SUCCESS)
            continue;
        uint32_t sum = 0;
        for (uint32_t c = 0; c < cr.color_count; c++)
            sum += rg_format_get_info(cr.color_formats[c]).block_size;
        if (sum > most)
            most = sum;
    }
    return most;
}

/* NULL: frames are not saved. */
static const char *save_dir;

static void save_frame(const rg_graph *g, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.json", save_dir, name);
    rgf_error error;
    if (rgf_save(g, &(rgf_save_desc){.width = width, .height = height}, path, &error) != RG_SUCCESS)
        fprintf(stderr, "tile_profiles: %s\n", error.message);
}

static figures measure(rg_tile_profile profile, void (*declare)(rg_graph *), const char *name)
{
    figures f = {0};
    rg_device_caps caps = {.local_read = true, .local_read_multisampled = true, .tile_profile = profile,
                           .driver = rg_tile_profile_info(profile).driver}; /* MoltenVK's rules on Apple */
    rg_graph *g = NULL;
    if (rg_graph_create(&(rg_graph_desc){.name = "tiles", .caps = &caps, .merge = RG_MERGE_ON}, &g) != RG_SUCCESS)
        return f;
    declare(g);
    if (save_dir && profile == RG_TILE_DESKTOP)
        save_frame(g, name);
    if (rg_compile(g) != RG_SUCCESS) {
        snprintf(f.reason, sizeof f.reason, "compile: %s", rg_graph_error_message(g));
        rg_graph_destroy(g);
        return f;
    }
    for (uint32_t i = 0; i < rg_merge_count(g); i++) {
        rg_merge_info m;
        if (rg_merge_get(g, i, &m) != RG_SUCCESS)
            continue;
        if (m.merged)
            f.merged++;
        else if (f.refused++ == 0)
            snprintf(f.reason, sizeof f.reason, "%s", m.reason);
    }
    placing p = {g, profile != RG_TILE_DESKTOP};
    VkPhysicalDeviceMemoryProperties props = tile_memory;
    if (!p.lazy_type)
        props.memoryTypeCount = 1;
    if (rg_place_offline(g, &props, requirements, &p) == RG_SUCCESS) {
        rg_memory_totals t = rg_memory_get_totals(g);
        f.lazy_mib = (double)t.lazy / (1 << 20);
        f.pooled_mib = (double)t.pooled / (1 << 20);
    }
    rg_tile_traffic traffic;
    if (traffic_get(g, RG_INDEX_NONE, &traffic) == RG_SUCCESS)
        f.traffic_mib = (double)traffic.total / (1 << 20);
    f.most_color = most_color(g);
    rg_graph_destroy(g);
    return f;
}

/* One frame file's row under profile p with merging m. */
static void frame_row(const char *path, rg_tile_profile p, rg_merge m)
{
    rgf_frame *frame = NULL;
    rgf_error error;
    const char *key = rg_tile_profile_info(p).key;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (rgf_load(path, &(rgf_load_desc){.profile = p, .merge = &m, .width = width, .height = height}, &frame,
                 &error) != RG_SUCCESS ||
        rgf_frame_place(frame, RGF_MEMORY_MODEL, NULL, &error) != RG_SUCCESS) {
        printf("%-14s %-14s %-5s %s\n", key, name, m == RG_MERGE_ON ? "on" : "off", error.message);
        rgf_frame_destroy(frame);
        return;
    }
    rg_graph *g = rgf_frame_graph(frame);
    uint32_t merged = 0, tile_w = 0, tile_h = 0, most_bins = 0, bins = 0;
    for (uint32_t i = 0; i < rg_merge_count(g); i++) {
        rg_merge_info mi;
        merged += rg_merge_get(g, i, &mi) == RG_SUCCESS && mi.merged;
    }
    for (uint32_t i = 0; i < rg_instance_count(g); i++) {
        rg_tile_view v;
        if (rg_tile_view_get(g, i, &v) != RG_SUCCESS)
            continue;
        if (v.tile_width && (!tile_w || v.tile_width * v.tile_height < tile_w * tile_h)) {
            tile_w = v.tile_width;
            tile_h = v.tile_height;
        }
        most_bins = v.bins > most_bins ? v.bins : most_bins;
        bins += v.bins;
    }
    rg_tile_view frame_view;
    rg_tile_view_get(g, RG_INDEX_NONE, &frame_view);
    rg_memory_totals t = rg_memory_get_totals(g);
    char tile[16] = "-";
    if (tile_w)
        snprintf(tile, sizeof tile, "%ux%u", tile_w, tile_h);
    printf("%-14s %-14s %-5s %6u %9.2f %10.2f %11.2f %7.2f %10.2f %8s %5u %5u\n", key, name,
           m == RG_MERGE_ON ? "on" : "off", merged, (double)t.lazy / (1 << 20), (double)t.pooled / (1 << 20),
           (double)frame_view.traffic.total / (1 << 20), (double)frame_view.traffic.total * 60 / 1e9,
           (double)frame_view.traffic.spills / (1 << 20), tile, most_bins, bins);
    rgf_frame_destroy(frame);
}

static int frame_rows(char **paths, int count)
{
    printf("frame files at %ux%u under every profile, device-free (docs/tiles.md's rules; no tile GPU measured)\n",
           width, height);
    printf("%-14s %-14s %-5s %6s %9s %10s %11s %7s %10s %8s %5s %5s\n", "profile", "frame", "merge", "merged",
           "lazy MiB", "pooled MiB", "traffic MiB", "GB/s60", "spills MiB", "min tile", "bins", "sum");
    for (int k = 0; k < count; k++)
        for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT; p++)
            for (int m = 0; m < 2; m++)
                frame_row(paths[k], (rg_tile_profile)p, m ? RG_MERGE_OFF : RG_MERGE_ON);
    return 0;
}

int main(int argc, char **argv)
{
    char *frame_files[8];
    int frame_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &width, &height) == 2) {
            i++;
            continue;
        }
        if (strcmp(argv[i], "--save-frames") == 0 && i + 1 < argc) {
            save_dir = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc && frame_count < 8) {
            frame_files[frame_count++] = argv[++i];
            continue;
        }
        fprintf(stderr, "usage: tile_profiles [--size WxH] [--save-frames DIR] [--frame FILE ...]\n");
        return 2;
    }
    if (frame_count)
        return frame_rows(frame_files, frame_count);
    static const struct {
        const char *name;
        void (*declare)(rg_graph *);
    } frames[] = {{"deferred", declare_deferred}, {"fat", declare_fat}, {"msaa4", declare_msaa4}};
    printf("tile profiles at %ux%u, device-free (computed from docs/tiles.md's budgets; no tile GPU measured)\n",
           width, height);
    printf("%-20s %-9s %6s %7s %9s %10s %11s %7s  %s\n", "profile", "frame", "merged", "refused", "lazy MiB",
           "pooled MiB", "traffic MiB", "B/px/s", "first refusal");
    for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT; p++)
        for (size_t k = 0; k < sizeof frames / sizeof frames[0]; k++) {
            figures f = measure((rg_tile_profile)p, frames[k].declare, frames[k].name);
            printf("%-20s %-9s %6u %7u %9.2f %10.2f %11.2f %7u  %s\n", rg_tile_profile_info((rg_tile_profile)p).key,
                   frames[k].name, f.merged, f.refused, f.lazy_mib, f.pooled_mib, f.traffic_mib, f.most_color,
                   f.reason[0] ? f.reason : "-");
        }
    return 0;
}
