/* Span merging (compile_merge.c), device-free: a G-buffer span and a
 * lighting span that reads it pixel-locally merge into one rendering
 * instance where the device caps and the policy allow, and every rule that
 * keeps them apart is flipped once, with the reason it gives; placed
 * offline (rg_mem_unit.h), a merged instance keeps its attachments apart
 * from everything its spans use. */
#include "rg_mem_unit.h"

#include <engine/engine.h> /* VK_KHR_dynamic_rendering_local_read on older headers */
#include "base/rules.h"     /* the merge rules' ids and words (header only) */

#include <stdio.h>

static const rg_device_caps tile_caps = {.local_read = true, .driver = VK_DRIVER_ID_ARM_PROPRIETARY};

static rg_graph *merge_graph(const rg_device_caps *caps, rg_merge merge)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "merge", .caps = caps, .merge = merge,
                                                  .no_culling = true}, &g),
                 RG_SUCCESS);
    return g;
}

/* What the tests vary in the lighting span. */
typedef struct frame_opts {
    uint32_t light_width;             /* of hdr; 0 = 64 */
    VkSampleCountFlagBits gbuffer_samples, hdr_samples;
    bool light_depth;                 /* lighting attaches the G-buffer's depth, loaded */
    bool light_other_depth;           /* lighting attaches another depth */
    bool sampled_read;                /* lighting samples albedo instead of a pixel-local read */
    bool gbuffer_resolves;            /* the G-buffer span resolves albedo */
    bool read_depth;                  /* lighting reads the depth pixel-locally */
    bool between;                     /* a compute pass between the spans that lighting needs */
    bool between_free;                /* one that lighting does not need */
    uint32_t extra_colors;            /* more G-buffer targets */
} frame_opts;

typedef struct frame {
    rg_texture albedo, normal, depth, hdr, out, extra[4], resolved;
    rg_command gbuffer, draw, light, light_draw, post, between;
} frame;

static rg_texture tex(rg_graph *g, const char *name, VkFormat f, uint32_t w, VkSampleCountFlagBits s)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = f, .width = w, .height = 64,
                                                  .samples = s ? s : VK_SAMPLE_COUNT_1_BIT});
}

static frame declare(rg_graph *g, const frame_opts *o)
{
    frame f = {0};
    VkSampleCountFlagBits gs = o->gbuffer_samples ? o->gbuffer_samples : VK_SAMPLE_COUNT_1_BIT;
    f.albedo = tex(g, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 64, gs);
    f.normal = tex(g, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, 64, gs);
    f.depth = tex(g, "depth", VK_FORMAT_D32_SFLOAT, 64, gs);
    f.hdr = tex(g, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, o->light_width ? o->light_width : 64,
                o->hdr_samples ? o->hdr_samples : gs);
    f.out = rg_texture_import(g, &(rg_texture_import_desc){.name = "out", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                           .width = 64, .height = 64,
                                                           .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL});
    rg_rendering_desc gb = {
        .name = "gbuffer",
        .colors = {{.texture = f.albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                   {.texture = f.normal, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
        .color_count = 2,
        .depth = {.texture = f.depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE},
    };
    for (uint32_t i = 0; i < o->extra_colors; i++) {
        char name[16];
        snprintf(name, sizeof name, "extra%u", i);
        f.extra[i] = tex(g, name, VK_FORMAT_R8G8B8A8_UNORM, 64, gs);
        gb.colors[gb.color_count++] = (rg_attachment){.texture = f.extra[i], .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    }
    if (o->gbuffer_resolves) {
        f.resolved = tex(g, "resolved", VK_FORMAT_R8G8B8A8_UNORM, 64, VK_SAMPLE_COUNT_1_BIT);
        gb.colors[0].resolve = f.resolved;
    }
    f.gbuffer = rg_begin_rendering(g, &gb);
    f.draw = test_draw(g, "draw scene", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    if (o->between || o->between_free) {
        rg_buffer b = test_buf(g, "lights");
        f.between = o->between ? test_outside(g, "cull lights", BUF(b, RG_USAGE_STORAGE_WRITE_COMPUTE))
                               : test_outside(g, "unrelated", BUF(test_buf(g, "other"),
                                                                   RG_USAGE_STORAGE_WRITE_COMPUTE));
        (void)b;
    }
    rg_rendering_desc ld = {
        .name = "lighting",
        .colors = {{.texture = f.hdr, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}},
        .color_count = 1,
    };
    if (o->light_depth)
        ld.depth = (rg_attachment){.texture = f.depth, .load = VK_ATTACHMENT_LOAD_OP_LOAD,
                                   .store = VK_ATTACHMENT_STORE_OP_DONT_CARE};
    if (o->light_other_depth)
        ld.depth = (rg_attachment){.texture = tex(g, "other depth", VK_FORMAT_D32_SFLOAT, 64, gs),
                                   .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    f.light = rg_begin_rendering(g, &ld);
    rg_access reads[4];
    uint32_t n = 0;
    reads[n++] = TEX(f.albedo, o->sampled_read ? RG_USAGE_SAMPLED_FRAGMENT : RG_USAGE_PIXEL_LOCAL_READ);
    reads[n++] = TEX(f.normal, RG_USAGE_PIXEL_LOCAL_READ);
    if (o->read_depth)
        reads[n++] = TEX(f.depth, RG_USAGE_PIXEL_LOCAL_READ);
    f.light_draw = test_cmd(g, "light", RG_COMMAND_DRAW, reads, n);
    rg_end_rendering(g);
    f.post = test_begin(g, "post", f.out);
    test_draw(g, "tonemap", TEX(f.hdr, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    return f;
}

/* The one merge note of the frame (G-buffer, lighting). */
static rg_merge_info the_note(rg_graph *g)
{
    cr_assert_eq(rg_merge_count(g), 1, "notes: %u", rg_merge_count(g));
    rg_merge_info m;
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    return m;
}

static rg_merge_info compile_with(const rg_device_caps *caps, rg_merge merge, const frame_opts *o)
{
    rg_graph *g = merge_graph(caps, merge);
    frame f = declare(g, o);
    (void)f;
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = the_note(g);
    static char reason[200];
    snprintf(reason, sizeof reason, "%s", m.reason);
    m.reason = reason;
    rg_graph_destroy(g);
    return m;
}

static void expect_refused(const rg_device_caps *caps, const frame_opts *o, const char *why)
{
    rg_merge_info m = compile_with(caps, RG_MERGE_ON, o);
    cr_expect_not(m.merged, "expected no merge (%s)", why);
    cr_expect(strstr(m.reason, why) != NULL, "reason '%s' lacks '%s'", m.reason, why);
}

Test(rg_merge, gbuffer_and_lighting_merge_on_a_tile_gpu)
{
    rg_graph *g = merge_graph(&tile_caps, RG_MERGE_AUTO);
    frame f = declare(g, &(frame_opts){0});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = the_note(g);
    cr_expect(m.merged, "%s", m.reason);
    cr_expect_eq(m.first.id, f.gbuffer.id);
    cr_expect_eq(m.second.id, f.light.id);

    /* The lighting draw's state: the instance's 3 colors (albedo, normal,
     * hdr) and depth; it writes hdr at location 0 and reads albedo and
     * normal as input attachments 0 and 1. */
    rg_command_rendering r;
    cr_assert_eq(rg_command_get_rendering(g, f.light_draw, &r), RG_SUCCESS);
    cr_expect(r.merged);
    cr_expect_eq(r.color_count, 3);
    cr_expect_eq(r.color_formats[0], VK_FORMAT_R8G8B8A8_UNORM);
    cr_expect_eq(r.color_formats[2], VK_FORMAT_R16G16B16A16_SFLOAT);
    cr_expect_eq(r.depth_format, VK_FORMAT_D32_SFLOAT);
    cr_expect_eq(r.color_locations[0], VK_ATTACHMENT_UNUSED);
    cr_expect_eq(r.color_locations[1], VK_ATTACHMENT_UNUSED);
    cr_expect_eq(r.color_locations[2], 0);
    cr_expect_eq(r.color_input_indices[0], 0);
    cr_expect_eq(r.color_input_indices[1], 1);
    cr_expect_eq(r.color_input_indices[2], VK_ATTACHMENT_UNUSED);
    cr_expect_eq(r.depth_input_index, VK_ATTACHMENT_UNUSED);
    /* The G-buffer span's draws: same instance, locations 0 and 1. */
    rg_command_rendering gr;
    cr_assert_eq(rg_command_get_rendering(g, f.gbuffer, &gr), RG_SUCCESS);
    cr_expect_eq(gr.instance, r.instance);
    cr_expect_eq(gr.color_locations[0], 0);
    cr_expect_eq(gr.color_locations[1], 1);
    cr_expect_eq(gr.color_locations[2], VK_ATTACHMENT_UNUSED);
    cr_expect_neq(gr.key, r.key);

    rg_local_read_info lr;
    cr_assert_eq(rg_command_get_local_read(g, f.light_draw, f.normal, &lr), RG_SUCCESS);
    cr_expect(lr.input_attachment);
    cr_expect_eq(lr.input_index, 1);
    cr_expect_eq(lr.layout, VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR);
    cr_expect_eq(rg_command_get_local_read(g, f.light_draw, f.hdr, &lr), RG_ERROR_INVALID_ARGUMENT);

    /* The G-buffer lives and dies in the instance: transient, with
     * input-attachment usage and no sampled usage; hdr is stored for the
     * post span. */
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, f.albedo, &info), RG_SUCCESS);
    cr_expect(info.transient);
    cr_expect(info.image_usage & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
    cr_expect_not(info.image_usage & VK_IMAGE_USAGE_SAMPLED_BIT);
    cr_expect(rg_texture_is_transient(g, f.normal));
    cr_expect(rg_texture_is_transient(g, f.depth));
    cr_expect_not(rg_texture_is_transient(g, f.hdr));

    /* Between the spans: by-region barriers on albedo and normal, in
     * RENDERING_LOCAL_READ, from the attachment writes to the input reads,
     * recorded right before lighting's begin. */
    uint32_t by_region = 0;
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        if (!b->by_region)
            continue;
        by_region++;
        cr_expect_eq(b->before.id, f.light.id);
        test_expect_layouts(b, VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR, VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR);
        cr_expect_eq(b->src_stage, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
        test_expect_dst(b, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT);
        cr_expect(b->texture.id == f.albedo.id || b->texture.id == f.normal.id);
    }
    cr_expect_eq(by_region, 2);
    /* hdr's first transition happens before the instance begins. */
    const rg_barrier_info *hb[4];
    cr_assert_geq(test_tex_barriers(g, f.hdr, hb, 4), 1);
    cr_expect_eq(hb[0]->before.id, f.gbuffer.id);
    cr_expect(hb[0]->hoisted);
    cr_expect_not(hb[0]->by_region);
    rg_graph_destroy(g);
}

Test(rg_merge, unmerged_reads_are_sampled_and_keys_differ)
{
    rg_device_caps desktop = {.local_read = true, .driver = VK_DRIVER_ID_NVIDIA_PROPRIETARY};
    rg_graph *g = merge_graph(&desktop, RG_MERGE_AUTO);
    frame f = declare(g, &(frame_opts){0});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = the_note(g);
    cr_expect_not(m.merged);
    cr_expect(strstr(m.reason, "off by default") != NULL, "%s", m.reason);
    rg_local_read_info lr;
    cr_assert_eq(rg_command_get_local_read(g, f.light_draw, f.albedo, &lr), RG_SUCCESS);
    cr_expect_not(lr.input_attachment);
    cr_expect_eq(lr.input_index, VK_ATTACHMENT_UNUSED);
    cr_expect_eq(lr.layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, f.albedo, &info), RG_SUCCESS);
    cr_expect_not(info.transient);
    cr_expect(info.image_usage & VK_IMAGE_USAGE_SAMPLED_BIT);
    cr_expect_not(info.image_usage & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
    rg_command_rendering unmerged;
    cr_assert_eq(rg_command_get_rendering(g, f.light_draw, &unmerged), RG_SUCCESS);
    cr_expect_not(unmerged.merged);
    cr_expect_eq(unmerged.color_count, 1);
    cr_expect_eq(unmerged.color_locations[0], 0);
    for (uint32_t i = 0; i < rg_barrier_count(g); i++)
        cr_expect_not(rg_barrier_get(g, i)->by_region);

    /* The same declaration merged: another key for the same command. */
    rg_graph *h = merge_graph(&desktop, RG_MERGE_ON);
    frame fh = declare(h, &(frame_opts){0});
    cr_assert_eq(rg_compile(h), RG_SUCCESS, "%s", rg_graph_error_message(h));
    rg_command_rendering merged;
    cr_assert_eq(rg_command_get_rendering(h, fh.light_draw, &merged), RG_SUCCESS);
    cr_expect(merged.merged);
    cr_expect_neq(merged.key, unmerged.key);
    rg_graph_destroy(h);
    rg_graph_destroy(g);
}

/* The rules' words by id, as the graph's reasons say them. */
#define RULE_TEXT(id, text) [RG__RULE_##id] = text,
static const char *const rule_text[] = {RG__RULES(RULE_TEXT)};
#undef RULE_TEXT

Test(rg_merge, never_without_local_read_or_when_forced_off)
{
    rg_merge_info m = compile_with(&(rg_device_caps){.driver = VK_DRIVER_ID_ARM_PROPRIETARY}, RG_MERGE_ON,
                                   &(frame_opts){0});
    cr_expect_not(m.merged);
    cr_expect(strstr(m.reason, rule_text[RG__RULE_MERGE_NEEDS_LOCAL_READ]) != NULL, "%s", m.reason);
    m = compile_with(&tile_caps, RG_MERGE_OFF, &(frame_opts){0});
    cr_expect_not(m.merged);
    cr_expect(strstr(m.reason, rule_text[RG__RULE_MERGE_FORCED_OFF]) != NULL, "%s", m.reason);
    /* A device-free graph without caps never merges. */
    m = compile_with(NULL, RG_MERGE_ON, &(frame_opts){0});
    cr_expect_not(m.merged);
}

Test(rg_merge, each_rule_flipped)
{
    expect_refused(&tile_caps, &(frame_opts){.light_width = 128}, rule_text[RG__RULE_MERGE_SAME_AREA]);
    expect_refused(&tile_caps, &(frame_opts){.hdr_samples = VK_SAMPLE_COUNT_4_BIT},
                   rule_text[RG__RULE_MERGE_SAME_SAMPLES]);
    expect_refused(&tile_caps, &(frame_opts){.gbuffer_samples = VK_SAMPLE_COUNT_4_BIT},
                   "dynamicRenderingLocalReadMultisampledAttachments");
    rg_device_caps ms = tile_caps;
    ms.local_read_multisampled = true;
    cr_expect(compile_with(&ms, RG_MERGE_ON, &(frame_opts){.gbuffer_samples = VK_SAMPLE_COUNT_4_BIT}).merged);
    expect_refused(&tile_caps, &(frame_opts){.light_other_depth = true}, "depth/stencil attachment other");
    cr_expect(compile_with(&tile_caps, RG_MERGE_ON, &(frame_opts){.light_depth = true}).merged);
    expect_refused(&tile_caps, &(frame_opts){.sampled_read = true}, "other than pixel-locally");
    expect_refused(&tile_caps, &(frame_opts){.read_depth = true}, "dynamicRenderingLocalReadDepthStencilAttachments");
    rg_device_caps ds = tile_caps;
    ds.local_read_depth_stencil = true;
    cr_expect(compile_with(&ds, RG_MERGE_ON, &(frame_opts){.read_depth = true}).merged);
    rg_device_caps four = tile_caps;
    four.max_color_attachments = 4;
    expect_refused(&four, &(frame_opts){.extra_colors = 2}, "color attachments (at most 4)");
    cr_expect(compile_with(&four, RG_MERGE_ON, &(frame_opts){.extra_colors = 1}).merged);
    rg_device_caps one_input = tile_caps;
    one_input.max_input_attachments = 1;
    expect_refused(&one_input, &(frame_opts){0}, "input attachments (at most 1)");
    ms.local_read_multisampled = true;
    expect_refused(&ms, &(frame_opts){.gbuffer_samples = VK_SAMPLE_COUNT_4_BIT, .gbuffer_resolves = true},
                   "resolves");
}

/* A command lighting does not need moves out from between the spans; one
 * it needs and that needs the G-buffer would have to stay. */
Test(rg_merge, order_makes_candidates_adjacent)
{
    rg_graph *g = merge_graph(&tile_caps, RG_MERGE_ON);
    frame f = declare(g, &(frame_opts){.between_free = true});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(the_note(g).merged, "%s", the_note(g).reason);
    cr_expect_eq(test_pos(g, f.light), test_pos(g, f.gbuffer) + 3, "gbuffer begin, draw, end, lighting");
    cr_expect_gt(test_pos(g, f.between), test_pos(g, f.light));
    rg_graph_destroy(g);

    /* Lighting needs a pass that needs the G-buffer: it stays between. */
    g = merge_graph(&tile_caps, RG_MERGE_ON);
    rg_texture a = tex(g, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 64, 0);
    rg_texture hdr = tex(g, "hdr", VK_FORMAT_R8G8B8A8_UNORM, 64, 0);
    rg_buffer stats = test_buf(g, "stats");
    test_begin(g, "gbuffer", a);
    test_draw(g, "scene", BUF_UNDEF(test_buf(g, "vb"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    test_outside(g, "measure", TEX(a, RG_USAGE_SAMPLED_COMPUTE), BUF(stats, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command light = test_begin(g, "lighting", hdr);
    test_draw(g, "light", TEX(a, RG_USAGE_PIXEL_LOCAL_READ), BUF(stats, RG_USAGE_UNIFORM_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = the_note(g);
    cr_expect_not(m.merged);
    cr_expect(strstr(m.reason, "'measure' must run between them") != NULL, "%s", m.reason);
    cr_expect_eq(m.second.id, light.id);
    rg_graph_destroy(g);
}

/* MoltenVK, forced on: an attachment used on both sides of a local-read
 * barrier is not made transient (AUTO), and FORCE is refused. */
Test(rg_merge, moltenvk_keeps_attachments_across_barriers_in_memory)
{
    rg_device_caps mvk = {.local_read = true, .driver = VK_DRIVER_ID_MOLTENVK};
    cr_expect_not(rg_merge_by_default(VK_DRIVER_ID_MOLTENVK));
    rg_graph *g = merge_graph(&mvk, RG_MERGE_ON);
    frame f = declare(g, &(frame_opts){0});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(the_note(g).merged);
    cr_expect_not(rg_texture_is_transient(g, f.albedo));
    cr_expect_not(rg_texture_is_transient(g, f.normal));
    cr_expect(rg_texture_is_transient(g, f.depth), "depth is used before the barrier only");
    rg_graph_destroy(g);

    g = merge_graph(&mvk, RG_MERGE_ON);
    rg_texture a = rg_texture_create(g, &(rg_texture_desc){.name = "albedo", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 64, .height = 64,
                                                          .transient = RG_TRANSIENT_FORCE});
    rg_texture hdr = tex(g, "hdr", VK_FORMAT_R8G8B8A8_UNORM, 64, 0);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "gbuffer",
                                              .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}},
                                              .color_count = 1});
    test_draw(g, "scene", BUF_UNDEF(test_buf(g, "vb"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    test_begin(g, "lighting", hdr);
    test_draw(g, "light", TEX(a, RG_USAGE_PIXEL_LOCAL_READ));
    rg_end_rendering(g);
    cr_expect_eq(rg_compile(g), RG_ERROR_TRANSIENT_CONTENTS);
    cr_expect(strstr(rg_graph_error_message(g), "MoltenVK") != NULL, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

Test(rg_merge, policy_per_driver)
{
    const VkDriverId on[] = {VK_DRIVER_ID_ARM_PROPRIETARY, VK_DRIVER_ID_QUALCOMM_PROPRIETARY,
                             VK_DRIVER_ID_IMAGINATION_PROPRIETARY, VK_DRIVER_ID_MESA_TURNIP, VK_DRIVER_ID_MESA_PANVK};
    const VkDriverId off[] = {VK_DRIVER_ID_NVIDIA_PROPRIETARY, VK_DRIVER_ID_AMD_PROPRIETARY,
                              VK_DRIVER_ID_AMD_OPEN_SOURCE, VK_DRIVER_ID_MESA_RADV,
                              VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS, VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA,
                              VK_DRIVER_ID_MESA_LLVMPIPE, VK_DRIVER_ID_MOLTENVK, VK_DRIVER_ID_MESA_NVK,
                              (VkDriverId)0};
    for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
        cr_expect(rg_merge_by_default(on[i]), "driver %d", (int)on[i]);
        rg_device_caps caps = {.local_read = true, .driver = on[i]};
        cr_expect(compile_with(&caps, RG_MERGE_AUTO, &(frame_opts){0}).merged, "driver %d", (int)on[i]);
    }
    for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
        cr_expect_not(rg_merge_by_default(off[i]), "driver %d", (int)off[i]);
        rg_device_caps caps = {.local_read = true, .driver = off[i]};
        cr_expect_not(compile_with(&caps, RG_MERGE_AUTO, &(frame_opts){0}).merged, "driver %d", (int)off[i]);
    }
}

/* A pixel-local read outside a draw, or of a buffer, is refused. */
Test(rg_merge, pixel_local_read_needs_a_draw_and_a_texture)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    test_outside(g, "compute", TEX(t, RG_USAGE_PIXEL_LOCAL_READ));
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "pixel-local") != NULL, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* Two spans with the same attachments' formats: one key, two instances
 * (a pipeline serves both). */
Test(rg_merge, equal_states_share_a_key)
{
    rg_graph *g = merge_graph(&tile_caps, RG_MERGE_AUTO);
    rg_texture a = test_color(g, "a"), b = test_color(g, "b");
    test_begin(g, "one", a);
    rg_command da = test_draw(g, "draw a", BUF_UNDEF(test_buf(g, "vb"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    test_begin(g, "two", b);
    rg_command db = test_draw(g, "draw b", TEX(a, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_command_rendering ra, rb;
    cr_assert_eq(rg_command_get_rendering(g, da, &ra), RG_SUCCESS);
    cr_assert_eq(rg_command_get_rendering(g, db, &rb), RG_SUCCESS);
    cr_expect_neq(ra.instance, rb.instance);
    cr_expect_eq(ra.key, rb.key);
    rg_graph_destroy(g);
}

/* A merged instance binds, loads and stores every attachment of its spans
 * from its first begin to its last end (a DONT_CARE store at its end is a
 * write), so each attachment lives that whole stretch, whichever span
 * names it: "gbuffer only" (the G-buffer span's alone) and "hdr" (the
 * lighting span's alone) live together, and so does each with the storage
 * images the two spans' draws write, whose own uses lie inside the
 * instance. Placed over a
 * desktop table (no lazy type: the transient attachments are pooled), none
 * of them may share bytes with an attachment. */
Test(rg_merge, a_merged_instance_keeps_every_attachment_from_its_begin_to_its_end)
{
    test_mem_env env;
    test_mem_init_desc(&env, "NVIDIA H200", &(rg_graph_desc){.name = "merged lifetimes", .caps = &tile_caps,
                                                             .merge = RG_MERGE_ON, .no_culling = true});
    rg_texture albedo = test_mem_tex(&env, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture only = test_mem_tex(&env, "gbuffer only", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture hdr = test_mem_tex(&env, "hdr", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture early = test_mem_tex(&env, "early storage", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture late = test_mem_tex(&env, "late storage", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_command gb = rg_begin_rendering(env.g, &(rg_rendering_desc){
                                                  .name = "gbuffer",
                                                  .colors = {{.texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                                                             {.texture = only, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}},
                                                  .color_count = 2});
    test_draw(env.g, "scene", TEX(early, RG_USAGE_STORAGE_WRITE_FRAGMENT));
    rg_end_rendering(env.g);
    rg_command light = test_begin(env.g, "lighting", hdr);
    test_draw(env.g, "light", TEX(albedo, RG_USAGE_PIXEL_LOCAL_READ), TEX(late, RG_USAGE_STORAGE_WRITE_FRAGMENT));
    rg_command end = rg_end_rendering(env.g);
    test_mem_place(&env);
    rg_merge_info m = the_note(env.g);
    cr_assert(m.merged, "%s", m.reason);

    /* The lifetimes the memory plan reads: the instance's begin to its end. */
    uint32_t begin = test_pos(env.g, gb), last = test_pos(env.g, end);
    cr_assert_eq(last, test_pos(env.g, light) + 2);
    rg_texture atts[] = {albedo, only, hdr};
    for (uint32_t i = 0; i < 3; i++) {
        rg_resource_info ri;
        cr_assert_eq(rg_texture_get_info(env.g, atts[i], &ri), RG_SUCCESS);
        cr_expect_eq(ri.first_use, begin, "'%s' from %u, the instance begins at %u", ri.name, ri.first_use, begin);
        cr_expect_eq(ri.last_use, last, "'%s' to %u, the instance ends at %u", ri.name, ri.last_use, last);
    }
    /* No two of them share bytes. */
    rg_texture all[] = {albedo, only, hdr, early, late};
    for (uint32_t i = 0; i < 5; i++) {
        cr_expect_eq(test_mem_tex_at(&env, all[i]).kind, RG_MEMORY_POOLED);
        for (uint32_t j = i + 1; j < 5; j++) {
            if (i >= 3 && j >= 3)
                continue; /* the two storage images are apart in the order */
            test_mem_where a = test_mem_tex_at(&env, all[i]), b = test_mem_tex_at(&env, all[j]);
            cr_expect_not(test_mem_overlap(a, b), "texture %u at %llu shares bytes with texture %u at %llu", i,
                          (unsigned long long)a.offset, j, (unsigned long long)b.offset);
        }
    }
    rg_graph_destroy(env.g);
}

/* A resolve target of a merged instance is bound from the instance's
 * begin: it must not share bytes with a storage image the first span's
 * draw writes (its alias barrier would be hoisted before that draw). */
Test(rg_merge, a_merged_instances_resolve_target_lives_from_its_begin)
{
    test_mem_env env;
    rg_device_caps ms = tile_caps;
    ms.local_read_multisampled = true;
    test_mem_init_desc(&env, "NVIDIA H200", &(rg_graph_desc){.name = "merged lifetimes", .caps = &ms,
                                                             .merge = RG_MERGE_ON, .no_culling = true});
    rg_texture albedo = test_mem_tex_ex(&env, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64, VK_SAMPLE_COUNT_4_BIT, RG_TRANSIENT_AUTO);
    rg_texture hdr = test_mem_tex_ex(&env, "hdr", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64, VK_SAMPLE_COUNT_4_BIT, RG_TRANSIENT_AUTO);
    rg_texture res = test_mem_tex(&env, "resolved", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture early = test_mem_tex(&env, "early storage", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_begin_rendering(env.g, &(rg_rendering_desc){
                                                  .name = "gbuffer",
                                                  .colors = {{.texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                                  .color_count = 1});
    test_draw(env.g, "scene", TEX(early, RG_USAGE_STORAGE_WRITE_FRAGMENT));
    rg_end_rendering(env.g);
    rg_begin_rendering(env.g, &(rg_rendering_desc){
                                                  .name = "light",
                                                  .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .resolve = res}},
                                                  .color_count = 1});
    test_draw(env.g, "light", TEX(albedo, RG_USAGE_PIXEL_LOCAL_READ));
    rg_end_rendering(env.g);
    test_outside(env.g, "use", TEX(res, RG_USAGE_SAMPLED_COMPUTE));
    test_mem_place(&env);
    rg_merge_info m = the_note(env.g);
    cr_assert(m.merged, "%s", m.reason);
    test_mem_where a = test_mem_tex_at(&env, res), b = test_mem_tex_at(&env, early);
    cr_expect_not(test_mem_overlap(a, b), "resolve at %llu shares with storage at %llu", (unsigned long long)a.offset, (unsigned long long)b.offset);
    rg_graph_destroy(env.g);
}
