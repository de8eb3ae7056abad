#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* The tile traffic estimate (report_traffic.c), device-free: Khronos
 * Vulkan-Samples' "render_passes" figure reproduced exactly, a G-buffer
 * frame unmerged and merged (the G-buffer's stores and its reads back
 * vanish), which reads count as sampled, the errors, and the traffic and
 * merge notes in the memory report and the DOT dump. */
#include "device_tables.h"
#include "rg_unit.h"

#include <engine/engine.h> /* VK_KHR_dynamic_rendering_local_read on older headers */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_files.h"

/* A rendering instance's (or with RG_INDEX_NONE the frame's) tile traffic. */
static rg_result traffic_get(const rg_graph *g, uint32_t instance, rg_tile_traffic *out)
{
    rg_tile_view v;
    rg_result r = rg_tile_view_get(g, instance, out ? &v : NULL);
    if (out)
        *out = r == RG_SUCCESS ? v.traffic : (rg_tile_traffic){0};
    return r;
}

static const rg_device_caps tile_caps = {.local_read = true, .driver = VK_DRIVER_ID_ARM_PROPRIETARY};

static rg_graph *graph_with(rg_merge merge)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "traffic", .caps = &tile_caps, .merge = merge,
                                                  .no_culling = true}, &g),
                 RG_SUCCESS);
    return g;
}

static rg_tile_traffic traffic(const rg_graph *g, uint32_t instance)
{
    rg_tile_traffic t;
    rg_result r = traffic_get(g, instance, &t);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(g));
    cr_expect_eq(t.total, t.loads + t.stores + t.resolves + t.sampled);
    return t;
}

/* ------------------------------------------------------- render_passes */

/* Vulkan-Samples "render_passes" (Arm): one 2220x1080 RGBA8 swapchain
 * attachment; with load LOAD the frame reads it back from DRAM, 2220 x 1080
 * x 4 = 9,590,400 bytes, at 60 fps 575.4 MB/s, which the sample's text
 * estimates as "about 575 MB/s" (measured: about 600); CLEAR reads
 * nothing. */
static rg_graph *render_passes(VkAttachmentLoadOp load)
{
    rg_graph *g = graph_with(RG_MERGE_AUTO);
    rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){
                                               .name = "swapchain", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                               .width = 2220, .height = 1080,
                                               .initial_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                               .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                               .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "scene",
                              .colors = {{.texture = back, .load = load, .store = VK_ATTACHMENT_STORE_OP_STORE}},
                              .color_count = 1,
                          });
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

Test(rg_traffic, render_passes_sample_load_op_load_costs_a_frame_read)
{
    rg_graph *g = render_passes(VK_ATTACHMENT_LOAD_OP_LOAD);
    cr_assert_eq(rg_instance_count(g), 1);
    rg_tile_traffic t = traffic(g, 0);
    cr_expect_eq(t.loads, 9590400u, "loads %llu", (unsigned long long)t.loads);
    cr_expect_eq(t.loads, 2220u * 1080u * 4u);
    cr_expect_eq(t.stores, 9590400u);
    cr_expect_eq(t.resolves, 0);
    cr_expect_eq(t.sampled, 0);
    cr_expect_eq(t.total, 19180800u);
    /* Per second at 60 fps: 575,424,000 bytes = 575.4 MB/s = 548.8 MiB/s. */
    uint64_t per_second = t.loads * 60u;
    cr_expect_eq(per_second, 575424000u);
    cr_expect_eq((per_second + 50000u) / 100000u, 5754u, "575.4 MB/s");
    cr_expect_eq((uint64_t)((double)per_second / 1048576.0 * 10.0 + 0.5), 5488u, "548.8 MiB/s");
    rg_tile_traffic frame = traffic(g, RG_INDEX_NONE);
    cr_expect_eq(memcmp(&frame, &t, sizeof t), 0, "one instance, nothing outside: the frame is the instance");
    cr_log_info("render_passes, load LOAD: loads %llu bytes per frame, %.1f MB/s at 60 fps",
                (unsigned long long)t.loads, per_second / 1e6);
    rg_graph_destroy(g);
}

Test(rg_traffic, render_passes_sample_load_op_clear_loads_nothing)
{
    rg_graph *g = render_passes(VK_ATTACHMENT_LOAD_OP_CLEAR);
    rg_tile_traffic t = traffic(g, 0);
    cr_expect_eq(t.loads, 0);
    cr_expect_eq(t.stores, 9590400u);
    cr_expect_eq(t.total, 9590400u);
    rg_graph_destroy(g);
    g = render_passes(VK_ATTACHMENT_LOAD_OP_DONT_CARE);
    cr_expect_eq(traffic(g, 0).loads, 0);
    rg_graph_destroy(g);
}

/* ------------------------------------------------------------ G-buffer */

#define W 1920u
#define H 1080u
#define PX ((uint64_t)W * H)

typedef struct gframe {
    rg_texture albedo, normal, material, depth, hdr, out;
    rg_command gbuffer, lighting, post;
} gframe;

/* G-buffer (3 x RGBA8 + D32, cleared and stored), lighting (reads the
 * three pixel-locally, writes RGBA16F hdr), post (samples hdr into an
 * imported output). */
static gframe gbuffer_frame(rg_graph *g)
{
    gframe f;
    rg_texture_desc d = {.format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H};
    d.name = "albedo";
    f.albedo = rg_texture_create(g, &d);
    d.name = "normal";
    f.normal = rg_texture_create(g, &d);
    d.name = "material";
    f.material = rg_texture_create(g, &d);
    f.depth = rg_texture_create(g, &(rg_texture_desc){.name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = W,
                                                      .height = H});
    f.hdr = rg_texture_create(g, &(rg_texture_desc){.name = "hdr", .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                    .width = W, .height = H});
    f.out = rg_texture_import(g, &(rg_texture_import_desc){.name = "output", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                           .width = W, .height = H,
                                                           .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    const VkAttachmentLoadOp clear = VK_ATTACHMENT_LOAD_OP_CLEAR;
    const VkAttachmentStoreOp store = VK_ATTACHMENT_STORE_OP_STORE;
    f.gbuffer = rg_begin_rendering(g, &(rg_rendering_desc){
                                          .name = "gbuffer",
                                          .colors = {{.texture = f.albedo, .load = clear, .store = store},
                                                     {.texture = f.normal, .load = clear, .store = store},
                                                     {.texture = f.material, .load = clear, .store = store}},
                                          .color_count = 3,
                                          .depth = {.texture = f.depth, .load = clear, .store = store},
                                      });
    test_draw(g, "draw scene", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    f.lighting = rg_begin_rendering(g, &(rg_rendering_desc){
                                           .name = "lighting",
                                           .colors = {{.texture = f.hdr, .load = clear, .store = store}},
                                           .color_count = 1,
                                       });
    test_draw(g, "light", TEX(f.albedo, RG_USAGE_PIXEL_LOCAL_READ), TEX(f.normal, RG_USAGE_PIXEL_LOCAL_READ),
              TEX(f.material, RG_USAGE_PIXEL_LOCAL_READ));
    rg_end_rendering(g);
    f.post = rg_begin_rendering(g, &(rg_rendering_desc){
                                       .name = "post",
                                       .colors = {{.texture = f.out, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                   .store = store}},
                                       .color_count = 1,
                                   });
    test_draw(g, "tonemap", TEX(f.hdr, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return f;
}

/* Unmerged: 48 bytes per pixel. The G-buffer stores 3 x 4 + 4 (depth),
 * lighting samples the 3 x 4 back and stores hdr's 8, post samples those 8
 * and stores the output's 4. */
#define GBUFFER_UNMERGED (48u * PX)   /* 99,532,800 bytes, 94.92 MiB */
/* Merged: the G-buffer and depth never leave the tile (discarded, read as
 * input attachments): hdr's 8 stored, 8 sampled, the output's 4. */
#define GBUFFER_MERGED (20u * PX)     /* 41,472,000 bytes, 39.55 MiB */

Test(rg_traffic, gbuffer_unmerged_stores_and_samples_the_gbuffer)
{
    rg_graph *g = graph_with(RG_MERGE_OFF);
    gbuffer_frame(g);
    cr_assert_eq(rg_instance_count(g), 3);
    rg_tile_traffic gb = traffic(g, 0), light = traffic(g, 1), post = traffic(g, 2), frame = traffic(g, RG_INDEX_NONE);
    cr_expect_eq(gb.loads, 0);
    cr_expect_eq(gb.stores, 3 * 4 * PX + 4 * PX, "three RGBA8 targets and D32 depth stored");
    cr_expect_eq(gb.sampled, 0);
    cr_expect_eq(light.sampled, 3 * 4 * PX, "the G-buffer read back");
    cr_expect_eq(light.stores, 8 * PX);
    cr_expect_eq(post.sampled, 8 * PX);
    cr_expect_eq(post.stores, 4 * PX);
    cr_expect_eq(frame.loads, 0);
    cr_expect_eq(frame.resolves, 0);
    cr_expect_eq(frame.stores, 28 * PX);
    cr_expect_eq(frame.sampled, 20 * PX);
    cr_expect_eq(frame.total, GBUFFER_UNMERGED);
    cr_expect_eq(frame.total, 99532800u);
    cr_log_info("G-buffer frame 1920x1080, unmerged: %llu bytes (%.2f MiB) per frame",
                (unsigned long long)frame.total, frame.total / 1048576.0);
    rg_graph_destroy(g);
}

Test(rg_traffic, gbuffer_merged_keeps_the_gbuffer_on_chip)
{
    rg_graph *g = graph_with(RG_MERGE_ON);
    gbuffer_frame(g);
    rg_merge_info m;
    cr_assert_eq(rg_merge_count(g), 1);
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    cr_assert(m.merged, "%s", m.reason);
    cr_assert_eq(rg_instance_count(g), 2);
    rg_tile_traffic inst = traffic(g, 0), post = traffic(g, 1), frame = traffic(g, RG_INDEX_NONE);
    cr_expect_eq(inst.loads, 0);
    cr_expect_eq(inst.stores, 8 * PX, "only hdr leaves the tile");
    cr_expect_eq(inst.sampled, 0, "input-attachment reads stay on chip");
    cr_expect_eq(post.sampled, 8 * PX);
    cr_expect_eq(post.stores, 4 * PX);
    cr_expect_eq(frame.total, GBUFFER_MERGED);
    cr_expect_eq(frame.total, 41472000u);
    cr_log_info("G-buffer frame 1920x1080, merged: %llu bytes (%.2f MiB) per frame; unmerged %llu (%.2f MiB)",
                (unsigned long long)frame.total, frame.total / 1048576.0, (unsigned long long)GBUFFER_UNMERGED,
                GBUFFER_UNMERGED / 1048576.0);
    /* AUTO on the Arm driver merges too, with the same figure. */
    rg_graph *a = graph_with(RG_MERGE_AUTO);
    gbuffer_frame(a);
    cr_expect_eq(traffic(a, RG_INDEX_NONE).total, GBUFFER_MERGED);
    rg_graph_destroy(a);
    rg_graph_destroy(g);
}

/* -------------------------------------------------------- sampled reads */

Test(rg_traffic, sampled_counts_reads_of_what_the_frame_wrote)
{
    rg_graph *g = graph_with(RG_MERGE_AUTO);
    rg_texture history = rg_texture_import(g, &(rg_texture_import_desc){
                                                  .name = "history", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                  .width = 64, .height = 64,
                                                  .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                                  .initial_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                                  .initial_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT});
    rg_texture color = test_color(g, "color");
    rg_texture accum = test_tex(g, "accum", VK_FORMAT_R32_SFLOAT);
    rg_texture chain = rg_texture_create(g, &(rg_texture_desc){.name = "chain", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                               .width = 64, .height = 64, .mip_levels = 3});
    /* Last frame's contents: an input, not this frame's traffic. */
    test_outside(g, "reproject", TEX(history, RG_USAGE_SAMPLED_COMPUTE), TEX(accum, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "scene",
                              .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                              .color_count = 1,
                          });
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    /* Outside spans: 64 x 64 x 4 sampled, and the read half of a
     * read-write access of what reproject wrote. */
    test_outside(g, "blur", TEX(color, RG_USAGE_SAMPLED_COMPUTE),
                 TEX(accum, RG_USAGE_STORAGE_READ_WRITE_COMPUTE));
    /* Mip 0 cleared, then each blit reads the mip before. */
    rg_cmd_clear_texture(g, chain, &(rg_range){0}, &(VkClearValue){0});
    rg_cmd_blit(g, chain, 0, chain, 1, VK_FILTER_LINEAR);
    rg_cmd_blit(g, chain, 1, chain, 2, VK_FILTER_LINEAR);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_instance_count(g), 1);
    rg_tile_traffic scene = traffic(g, 0), frame = traffic(g, RG_INDEX_NONE);
    cr_expect_eq(scene.stores, 64 * 64 * 4);
    cr_expect_eq(scene.sampled, 0);
    const uint64_t outside = 64 * 64 * 4 /* color */ + 64 * 64 * 4 /* accum */ + 64 * 64 * 4 /* chain mip 0 */ +
                             32 * 32 * 4 /* chain mip 1 */;
    cr_expect_eq(frame.sampled, outside, "sampled %llu", (unsigned long long)frame.sampled);
    cr_expect_eq(frame.total, 64 * 64 * 4 + outside);
    rg_graph_destroy(g);
}

Test(rg_traffic, resolves_and_multisampled_attachments)
{
    rg_graph *g = graph_with(RG_MERGE_AUTO);
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                              .width = 64, .height = 32,
                                                              .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture resolved = rg_texture_create(g, &(rg_texture_desc){.name = "resolved",
                                                                  .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                                  .height = 32});
    rg_cmd_clear_texture(g, msaa, NULL, &(VkClearValue){0}); /* what the LOAD reads */
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "scene",
                              .colors = {{.texture = msaa, .load = VK_ATTACHMENT_LOAD_OP_LOAD,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = resolved}},
                              .color_count = 1,
                          });
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    test_outside(g, "read", TEX(resolved, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_tile_traffic t = traffic(g, 0);
    cr_expect_eq(t.loads, 64 * 32 * 4 * 4, "four samples loaded");
    cr_expect_eq(t.stores, 0, "DONT_CARE");
    cr_expect_eq(t.resolves, 64 * 32 * 4, "one sample written");
    cr_expect_eq(traffic(g, RG_INDEX_NONE).sampled, 64 * 32 * 4, "the resolve target read back");
    rg_graph_destroy(g);
}

/* ---------------------------------------------------------------- errors */

Test(rg_traffic, errors_before_compile_and_for_a_bad_instance)
{
    rg_graph *g = graph_with(RG_MERGE_OFF);
    rg_tile_traffic t = {.total = 7};
    cr_expect_eq(rg_instance_count(g), 0);
    cr_expect_eq(traffic_get(g, RG_INDEX_NONE, &t), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(t.total, 0, "zeroed on failure");
    cr_expect_not_null(strstr(rg_graph_error_message(g), "not compiled"), "%s", rg_graph_error_message(g));
    cr_expect_eq(traffic_get(g, 0, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(traffic_get(NULL, 0, &t), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_instance_count(NULL), 0);
    gbuffer_frame(g);
    cr_expect_eq(rg_instance_count(g), 3);
    cr_expect_eq(traffic_get(g, 3, &t), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "instance 3"), "%s", rg_graph_error_message(g));
    cr_expect_eq(traffic_get(g, 2, &t), RG_SUCCESS);
    /* A failed declaration: not compiled. */
    rg_graph_reset(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "nothing"});
    cr_expect_neq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(traffic_get(g, RG_INDEX_NONE, &t), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(rg_instance_count(g), 0);
    rg_graph_destroy(g);
}

/* ------------------------------------------------------- report and DOT */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char *text = calloc(1, 1 << 16);
    cr_assert_not_null(text);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    cr_assert_gt(n, 0);
    return text;
}

/* A desktop table (device_tables.c): no LAZY type, so transient and other
 * images see the same types. */
static const VkPhysicalDeviceMemoryProperties *h200(void)
{
    for (size_t i = 0; i < device_table_count; i++)
        if (strcmp(device_tables[i].name, "NVIDIA H200") == 0)
            return &device_tables[i].props;
    cr_assert_fail("no H200 table");
    return NULL;
}

static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)index;
    *size = 16u << 20;
    *alignment = 65536;
    *dedicated = false;
    *type_bits = is_texture ? table_image_bits(h200(), false) : table_buffer_bits(h200());
    return true;
}

Test(rg_traffic, memory_report_and_dot_show_instances_and_merge_notes)
{
    char dir[] = "/tmp/rg_trafficXXXXXX";
    cr_assert_not_null(test_mkdtemp(dir));
    char txt[64], json[64], dot[64];
    snprintf(txt, sizeof txt, "%s/r.txt", dir);
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(dot, sizeof dot, "%s/g.dot", dir);
    for (int merged = 0; merged < 2; merged++) {
        rg_graph *g = graph_with(merged ? RG_MERGE_ON : RG_MERGE_OFF);
        gbuffer_frame(g);
        cr_assert_eq(rg_place_offline(g, h200(), requirements, NULL), RG_SUCCESS, "%s",
                     rg_graph_error_message(g));
        FILE *f = fopen(txt, "w");
        cr_assert_not_null(f);
        cr_expect_eq(rg_memory_report_print(g, f), RG_SUCCESS);
        fclose(f);
        cr_expect_eq(rg_memory_report_json(g, json), RG_SUCCESS);
        cr_expect_eq(rg_write_dot(g, dot), RG_SUCCESS);
        char *t = slurp(txt), *j = slurp(json), *d = slurp(dot);
        cr_expect_not_null(strstr(t, "memory of graph 'traffic'"), "%s", t);
        cr_expect_not_null(strstr(t, "tile profile desktop: what each rendering instance costs its GPU"), "%s", t);
        cr_expect_not_null(strstr(j, "\"tile_traffic\""), "%s", j);
        cr_expect_not_null(strstr(j, "\"lower_bound\""), "%s", j);
        if (merged) {
            cr_expect_not_null(strstr(t, "instance 0 'gbuffer + lighting' (merged): 1920x1080x1, 1 sample, colour 20 B "
                                         "+ depth 4 B per pixel per sample: no tile memory; traffic loads 0.00, "
                                         "stores 15.82"), "%s", t);
            cr_expect_not_null(strstr(t, "total 41472000 bytes (39.55 MiB, 2.49 GB/s at 60 fps)"), "%s", t);
            cr_expect_not_null(strstr(t, "merge 'gbuffer' -> 'lighting': merged\n"), "%s", t);
            cr_expect_not_null(strstr(j, "{\"spans\": \"gbuffer + lighting\", \"merged\": true, \"width\": 1920, "
                                         "\"height\": 1080"), "%s", j);
            cr_expect_not_null(strstr(j, "\"bins\": 0, \"spilled\": 0, \"loads\": 0"), "%s", j);
            cr_expect_not_null(strstr(j, "\"attachments\": [{\"resource\": \"albedo\", \"memory\": \"transient, "
                                         "pooled (no lazily allocated type)\"}"), "%s", j);
            cr_expect_not_null(strstr(j, "\"total\": 41472000}"), "%s", j);
            cr_expect_not_null(strstr(j, "\"merged\": true, \"reason\": \"\"}"), "%s", j);
            cr_expect_not_null(strstr(d, "label=\"instance: gbuffer + lighting (merged)\""), "%s", d);
            cr_expect_null(strstr(d, "not merged"), "%s", d);
        } else {
            cr_expect_not_null(strstr(t, "instance 1 'lighting': 1920x1080x1, 1 sample, colour 8 B + depth 0 B per "
                                         "pixel per sample: no tile memory; traffic loads 0.00, stores 15.82, "
                                         "resolves 0.00, sampled 23.73"), "%s", t);
            cr_expect_not_null(strstr(t, "total 99532800 bytes (94.92 MiB, 5.97 GB/s at 60 fps)"), "%s", t);
            cr_expect_not_null(strstr(t, "merge 'gbuffer' -> 'lighting': not merged: merging is off"), "%s", t);
            cr_expect_not_null(strstr(j, "\"reason\": \"merging is off (rg_graph_desc.merge)\""), "%s", j);
            cr_expect_null(strstr(d, "instance:"), "%s", d);
            cr_expect_not_null(strstr(d, "[style=dashed, constraint=false, label=\"not merged: merging is off "
                                         "(rg_graph_desc.merge)\"];"), "%s", d);
        }
        free(t);
        free(j);
        free(d);
        rg_graph_destroy(g);
    }
    remove(txt);
    remove(json);
    remove(dot);
    rmdir(dir);
}
