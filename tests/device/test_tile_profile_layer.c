/* The tile layer held to a profile (VKGRAPH_TILE_PROFILE; docs/tiles.md,
 * docs/tile-memory-layer.md): on Apple a rendering instance over the
 * colour budget is an error, as Metal would give, and one within it is
 * silent; on Mali one over it is told its smaller tile, on Adreno every
 * instance its bins; VKGRAPH_TILE_REPORT writes the passes' traffic. The
 * graph here compiles for the real device (desktop caps), so what it
 * declares reaches the layer as declared. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "device_fixture.h"
#include "test_chunks.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 16
#define H 16

/* What the layer said of the budget: counts and the first message. */
typedef struct heard_budget {
    int errors, infos;
    char first[512];
} heard_budget;

#define BUDGET_ID "VKGRAPH-tile-budget"

static heard_budget heard_of(tile_rule_counter *c)
{
    heard_budget h = {0};
    tile_message_counts n = tile_message_counter_end(c, h.first, sizeof h.first);
    h.errors = n.errors;
    h.infos = n.infos;
    return h;
}

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

/* A new W x H colour target of `format`, named prefix and its index, added
 * to span as a cleared attachment. */
static rg_texture add_cleared_target(rg_graph *g, rg_rendering_desc *span, const char *prefix, VkFormat format)
{
    char name[32];
    snprintf(name, sizeof name, "%s%u", prefix, span->color_count);
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = W, .height = H});
    span->colors[span->color_count++] = (rg_attachment){.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    return t;
}

/* One span of `count` colour targets of `format`, cleared and stored (the
 * last read by a copy so it is kept), recorded once on ctx under a
 * counter; returns what the layer said of the budget. */
static heard_budget render_span(eng_context *ctx, VkFormat format, uint32_t count)
{
    tile_rule_counter *counter = tile_message_counter_begin(
        ctx, BUDGET_ID, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "budget", .device = eng_context_graph_device(ctx)}, &g),
                 RG_SUCCESS);
    rg_rendering_desc span = {.name = "targets"};
    for (uint32_t i = 0; i < count; i++)
        add_cleared_target(g, &span, "target", format);
    rg_begin_rendering(g, &span);
    rg_cmd_user(g, &(rg_user_desc){.name = "draw", .kind = RG_COMMAND_DRAW, .record = record_nothing});
    rg_end_rendering(g);
    /* The frame's results must reach something, or the span is culled. */
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 4096});
    (void)out;
    rg_cmd_user(g, &(rg_user_desc){.name = "keep", .side_effects = true, .record = record_nothing,
                                   .accesses = &(rg_access){.texture = span.colors[0].texture,
                                                            .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true},
                                   .access_count = 1, .kind = RG_COMMAND_OUTSIDE});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
    return heard_of(counter);
}

/* A context with the layer under profile (and a report file when path). */
static eng_context *profile_context(const char *profile, const char *report)
{
    if (report)
        setenv("VKGRAPH_TILE_REPORT", report, 1);
    eng_context *ctx = tile_context_with("VKGRAPH_TILE_PROFILE", profile, true);
    unsetenv("VKGRAPH_TILE_REPORT");
    return ctx;
}

Test(tile_profile_layer, apple_refuses_an_instance_over_its_budget_as_metal_would)
{
    eng_context *ctx = profile_context("apple2", NULL);
    /* 3 x RGBA32F = 48 B per pixel per sample, over Apple2's 32 B. */
    heard_budget over = render_span(ctx, VK_FORMAT_R32G32B32A32_SFLOAT, 3);
    cr_expect_eq(over.errors, 1, "one oversized instance: %d errors (%s)", over.errors, over.first);
    cr_expect(strstr(over.first, "need 48 B per pixel per sample; profile apple2 holds 32 B: Metal refuses"), "%s",
              over.first);
    /* 4 x RGBA16F = 32 B: within. */
    heard_budget within = render_span(ctx, VK_FORMAT_R16G16B16A16_SFLOAT, 4);
    cr_expect_eq(within.errors + within.infos, 0, "%s", within.first);
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.error, 1, "the layer's one error and nothing else: %s", first);
    cr_expect_eq(m.warning, 0, "%s", first);
}

Test(tile_profile_layer, mali_tells_the_smaller_tile_and_adreno_the_bins)
{
    eng_context *ctx = profile_context("mali-bifrost", NULL);
    heard_budget over = render_span(ctx, VK_FORMAT_R32G32B32A32_SFLOAT, 3);
    cr_expect_eq(over.errors, 0, "%s", over.first);
    cr_expect_eq(over.infos, 1, "%s", over.first);
    /* 48 B x 256 = 12288 over half of the G72's 8 KiB: 16x8 6144, 8x8 3072 fits. */
    cr_expect(strstr(over.first, "colour of 48 B per pixel (1 samples): profile mali-bifrost's 16x16 tile shrinks to "
                                 "8x8"), "%s", over.first);
    destroy_context_expect_clean(ctx, "mali-bifrost");

    ctx = profile_context("adreno6", NULL);
    heard_budget bins = render_span(ctx, VK_FORMAT_R8G8B8A8_UNORM, 2);
    cr_expect_eq(bins.infos, 1, "%s", bins.first);
    cr_expect(strstr(bins.first, "2048 bytes of attachments (8 B per pixel x 1 samples): 1 bin of profile adreno6's "
                                 "1024 KiB of GMEM"), "%s", bins.first);
    destroy_context_expect_clean(ctx, "adreno6");
}

Test(tile_profile_layer, the_report_file_holds_the_passes_traffic)
{
    char path[512];
    snprintf(path, sizeof path, "%s/vkgraph-tile-report-%d.txt", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    eng_context *ctx = profile_context("apple7", path);
    render_span(ctx, VK_FORMAT_R8G8B8A8_UNORM, 2);
    destroy_context_expect_clean(ctx, "apple7");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    char text[512] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    remove(path);
    cr_expect(strstr(text, "profile apple7\n"), "%s", text);
    /* Both targets stored as declared (STORE, the default): 2 x 16 x 16 x 4 B. */
    cr_expect(strstr(text, "passes 1\nloads 0\nstores 2048\nresolves 0\n"), "%s", text);
    cr_expect(strstr(text, "\nlazy_peak "), "%s", text);
}

/* A G-buffer of `count` colour targets of `format` and a lighting span
 * reading them pixel-locally into a target of lit_format, on a context whose
 * graphs know the profile (ENG_TILE_PROFILE) and whose layer holds it.
 * Where the device has local read the graph merges the pair within the
 * budget and keeps it apart over it; either way the layer never reports
 * an instance the graph made. Returns whether the pair merged. */
static bool merge_under(const char *profile, VkFormat format, uint32_t count, VkFormat lit_format)
{
    setenv("ENG_TILE_PROFILE", profile, 1);
    eng_context *ctx = profile_context(profile, NULL);
    unsetenv("ENG_TILE_PROFILE");
    tile_rule_counter *counter = tile_message_counter_begin(ctx, BUDGET_ID, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "merge under profile", .merge = RG_MERGE_ON,
                                                  .device = eng_context_graph_device(ctx)}, &g),
                 RG_SUCCESS);
    cr_expect_eq(rg_device_get_caps(eng_context_graph_device(ctx)).tile_profile != RG_TILE_DESKTOP,
                 strcmp(profile, "desktop") != 0, "the graphs know %s", profile);
    rg_rendering_desc gb = {.name = "gbuffer"};
    rg_access reads[4];
    for (uint32_t i = 0; i < count; i++)
        reads[i] = (rg_access){.texture = add_cleared_target(g, &gb, "gbuffer", format),
                               .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true};
    rg_begin_rendering(g, &gb);
    rg_cmd_user(g, &(rg_user_desc){.name = "scene", .kind = RG_COMMAND_DRAW, .record = record_nothing});
    rg_end_rendering(g);
    rg_texture lit = rg_texture_create(g, &(rg_texture_desc){.name = "lit", .format = lit_format, .width = W,
                                                             .height = H});
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                               .colors = {{.texture = lit, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "light", .kind = RG_COMMAND_DRAW, .record = record_nothing,
                                   .accesses = reads, .access_count = count});
    rg_end_rendering(g);
    rg_cmd_user(g, &(rg_user_desc){.name = "keep", .side_effects = true, .record = record_nothing,
                                   .accesses = &(rg_access){.texture = lit, .usage = RG_USAGE_SAMPLED_COMPUTE,
                                                            .whole = true},
                                   .access_count = 1, .kind = RG_COMMAND_OUTSIDE});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = {0};
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    bool merged = m.merged;
    rg_graph_destroy(g);
    heard_budget h = heard_of(counter);
    cr_expect_eq(h.errors, 0, "%s: the layer on what the graph made: %s", profile, h.first);
    destroy_context_expect_clean(ctx, profile);
    return merged;
}

Test(tile_profile_layer, the_layer_never_reports_what_the_graph_merges)
{
    /* 3 x RGBA16F + RGBA8 = 28 B merged: within every budget here;
     * 3 x RGBA16F + RGBA32F = 40 B: over Apple2-3's and Bifrost's 32 B,
     * each span alone within them. */
    static const char *profiles[] = {"apple2", "apple4", "apple7", "mali-bifrost", "desktop"};
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        bool fits = merge_under(profiles[i], VK_FORMAT_R16G16B16A16_SFLOAT, 3, VK_FORMAT_R8G8B8A8_UNORM);
        bool over = merge_under(profiles[i], VK_FORMAT_R16G16B16A16_SFLOAT, 3, VK_FORMAT_R32G32B32A32_SFLOAT);
        if (strcmp(profiles[i], "apple2") == 0 || strcmp(profiles[i], "mali-bifrost") == 0)
            cr_expect_not(over, "%s: 40 B is over the budget, never merged", profiles[i]);
        else
            cr_expect_eq(over, fits, "%s: 40 B merges wherever 28 B does", profiles[i]);
    }
}
