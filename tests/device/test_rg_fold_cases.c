/* Folded multisampling (rendergraph.h "Multisampling") beyond the plain
 * span of test_rg_fold.c: edges that only partly cover their pixels,
 * resolve targets at mip 1 and at layer 1, a depth/stencil target whose
 * stencil resolves too, an integer colour format, a later span sampling
 * the resolve target, and a multisampled attachment drawn in two spans,
 * merged or not. Each scene runs folded (AUTO) and classic (RG_FOLD_OFF)
 * in one test and compares what the targets hold. */
#include "device_fixture.h"
#include "rg_support.h"
#include "solid.h"
#include "test_descriptors.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rg_fold_cases, .init = device_setup, .fini = device_teardown);

static const uint32_t sample_frag[] =
#include "sample.frag.inc"
    ;

#define W 32
#define H 32
#define UNORM VK_FORMAT_R8G8B8A8_UNORM

/* One scene: what the multisampled span draws and where it resolves. */
typedef struct scene {
    rg_fold fold;
    VkFormat color, depth;         /* depth UNDEFINED: none */
    const float *rect;             /* NULL: nothing drawn (clear values only) */
    uint32_t mip, layer;           /* of the resolve targets, which get mip + 1 levels and layer + 1 layers */
    bool sampled_after;            /* a later span copies the colour target through a sampled read */
    bool two_spans;                /* the multisampled colour drawn in two spans, the second loading it */
    rg_merge merge;
    rg_graph **reuse;              /* non-NULL: the graph is kept there, reset and re-declared by the next scene */
} scene;

/* What a scene left. */
typedef struct outcome {
    uint8_t color[W * H * 4];
    float depth[W * H];
    uint8_t stencil[W * H];
    rg_memory_kind color_kind;
    char color_note[256];
} outcome;

typedef struct draw_job {
    eng_pipeline *pipeline;
    const float *rect;
    float green;
} draw_job;

static bool draw_rect(const rg_record_context *rc, void *user)
{
    const draw_job *j = user;
    const float color[4] = {0, j->green, 0, 1};
    vkCmdBindPipeline(rg_record_cmd(rc), VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    solid_draw(rg_record_cmd(rc), j->pipeline, j->rect, color, 0.5f);
    return true;
}

/* The later span: a texel-for-texel copy of `source` through a sampled read. */
typedef struct sample_job {
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_texture source;
    VkImageView written; /* a set bound in the recording command buffer is updated only once */
} sample_job;

static bool draw_sampled(const rg_record_context *rc, void *user)
{
    sample_job *j = user;
    VkImageView view = rg_record_view(rc, j->source);
    if (view != j->written)
        test_write_image(eng_context_device(test_ctx), j->set, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    j->written = view;
    test_bind_with_set(rg_record_cmd(rc), VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline),
                       eng_pipeline_layout(j->pipeline), j->set);
    solid_draw_full(rg_record_cmd(rc), j->pipeline);
    return true;
}

/* One multisampled span: colour (and depth) cleared, the rectangle drawn
 * with `green`, stored for a later span or resolved into the targets. */
static void ms_span(rg_graph *g, const scene *s, rg_texture ms, rg_texture msz, rg_texture color, rg_texture depth,
                    bool first, bool last, draw_job *job)
{
    rg_rendering_desc rd = {.name = first ? "scene" : "scene more", .color_count = 1};
    rd.colors[0] = (rg_attachment){.texture = ms, .load = first ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
                                   .store = last ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
                                   .resolve = last ? color : (rg_texture){0}, .resolve_mip = s->mip,
                                   .resolve_layer = s->layer, .clear = {.color = {.uint32 = {0, 0, 0, 1}}}};
    if (s->color == UNORM)
        rd.colors[0].clear.color = (VkClearColorValue){.float32 = {0, 0, 0, 1}};
    if (msz.id)
        rd.depth = (rg_attachment){.texture = msz, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = depth,
                                   .resolve_mip = s->mip, .resolve_layer = s->layer,
                                   .resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
                                   .clear = {.depthStencil = {.depth = 1.0f, .stencil = 7}}};
    rg_begin_rendering(g, &rd);
    rg_cmd_user(g, &(rg_user_desc){.name = "rect", .kind = RG_COMMAND_DRAW,
                                   .record = job->rect ? draw_rect : test_record_nothing, .user = job});
    rg_end_rendering(g);
}

static rg_texture target(rg_graph *g, const char *name, VkFormat format, const scene *s)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = W << s->mip,
                                                   .height = H << s->mip, .mip_levels = s->mip + 1,
                                                   .array_layers = s->layer + 1});
}

static outcome run_scene(const scene *s)
{
    static outcome out;
    memset(&out, 0, sizeof out);
    VkDevice dev = eng_context_device(test_ctx);
    eng_pipeline *pipe = NULL, *copy = NULL;
    if (s->rect)
        cr_assert_eq(solid_pipeline_create(test_ctx, s->color, s->depth, VK_SAMPLE_COUNT_4_BIT, NULL, &pipe),
                     ENG_SUCCESS, "%s", eng_last_error());
    VkDescriptorSetLayout layout = test_set_layout(dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPool pool = test_descriptor_pool(dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, 1);
    eng_pipeline_desc pd = solid_fragment_desc("sample", sample_frag, sizeof sample_frag, UNORM);
    pd.set_layouts = &layout;
    pd.set_layout_count = 1;
    cr_assert_eq(eng_pipeline_create(test_ctx, &pd, &copy), ENG_SUCCESS, "%s", eng_last_error());
    eng_buffer *colors = test_host_buffer(sizeof out.color, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *depths = test_host_buffer(sizeof out.depth, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *stencils = test_host_buffer(sizeof out.stencil, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);

    rg_graph *g = s->reuse ? *s->reuse : NULL;
    if (g)
        cr_assert_eq(rg_graph_reset(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    else
        cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "fold cases",
                                                      .device = eng_context_graph_device(test_ctx),
                                                      .msaa_fold = s->fold, .merge = s->merge},
                                     &g),
                     RG_SUCCESS);
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){.name = "msaa color", .format = s->color, .width = W,
                                                           .height = H, .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture color = target(g, "color", s->color, s), msz = {0}, depth = {0};
    if (s->depth) {
        msz = rg_texture_create(g, &(rg_texture_desc){.name = "msaa depth", .format = s->depth, .width = W,
                                                      .height = H, .samples = VK_SAMPLE_COUNT_4_BIT});
        depth = target(g, "depth", s->depth, s);
    }
    draw_job first = {pipe, s->rect, 1.0f}, second = {pipe, s->rect ? (const float[4]){0, 0, 1, 1} : NULL, 0.5f};
    ms_span(g, s, ms, s->two_spans ? (rg_texture){0} : msz, color, depth, true, !s->two_spans, &first);
    if (s->two_spans)
        ms_span(g, s, ms, msz, color, depth, false, true, &second);
    rg_texture shown = color;
    uint32_t mip = s->mip, layer = s->layer;
    sample_job sj = {copy, test_alloc_set(dev, pool, layout), color, VK_NULL_HANDLE};
    if (s->sampled_after) {
        shown = rg_texture_create(g, &(rg_texture_desc){.name = "copy", .format = UNORM, .width = W, .height = H});
        rg_access read = {.texture = color, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true};
        rg_begin_rendering(g, &(rg_rendering_desc){
                                  .name = "sample", .color_count = 1,
                                  .colors = {{.texture = shown, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
        rg_cmd_user(g, &(rg_user_desc){.name = "copy", .kind = RG_COMMAND_DRAW, .accesses = &read,
                                       .access_count = 1, .record = draw_sampled, .user = &sj});
        rg_end_rendering(g);
        mip = layer = 0;
    }
    rg_cmd_copy_texture_to_buffer(g, shown, mip, layer, 1, test_import_buffer(g, "colors", colors, true), 0);
    if (s->depth) {
        rg_cmd_copy_texture_aspect_to_buffer(g, depth, VK_IMAGE_ASPECT_DEPTH_BIT, s->mip, s->layer, 1,
                                             test_import_buffer(g, "depths", depths, true), 0);
        if (s->depth == VK_FORMAT_D32_SFLOAT_S8_UINT)
            rg_cmd_copy_texture_aspect_to_buffer(g, depth, VK_IMAGE_ASPECT_STENCIL_BIT, s->mip, s->layer, 1,
                                                 test_import_buffer(g, "stencils", stencils, true), 0);
    }
    test_compile(g);
    test_run(g, 2);
    memcpy(out.color, eng_buffer_mapped(colors), sizeof out.color);
    memcpy(out.depth, eng_buffer_mapped(depths), sizeof out.depth);
    memcpy(out.stencil, eng_buffer_mapped(stencils), sizeof out.stencil);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, ms, &info), RG_SUCCESS);
    out.color_kind = info.memory;
    snprintf(out.color_note, sizeof out.color_note, "%s", info.fold ? info.fold : "");
    if (s->reuse)
        *s->reuse = g;
    else
        rg_graph_destroy(g);
    eng_buffer_destroy(colors);
    eng_buffer_destroy(depths);
    eng_buffer_destroy(stencils);
    eng_pipeline_destroy(pipe);
    eng_pipeline_destroy(copy);
    vkDestroyDescriptorPool(dev, pool, NULL);
    vkDestroyDescriptorSetLayout(dev, layout, NULL);
    return out;
}

static void require_fold(VkFormat depth)
{
    if (!rg_device_get_caps(eng_context_graph_device(test_ctx)).msaa_to_single_sampled)
        cr_skip_test("the device has no multisampledRenderToSingleSampled");
    if (depth && !(eng_context_properties(test_ctx)->limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x depth attachments");
}

/* Folded and classic, compared: colour bytes within `tolerance` of each
 * other (the count that differ at all in *differ), depth and stencil equal. */
static uint32_t compare(const scene *s, const outcome *folded, const outcome *classic, int tolerance)
{
    uint32_t differ = 0;
    int worst = 0;
    for (uint32_t i = 0; i < W * H * 4; i++) {
        int d = abs((int)folded->color[i] - (int)classic->color[i]);
        differ += d != 0;
        worst = d > worst ? d : worst;
    }
    cr_expect_leq(worst, tolerance, "a colour byte differs by %d between the folded and the classic path", worst);
    uint32_t depth_differ = 0, stencil_differ = 0;
    for (uint32_t i = 0; s->depth && i < W * H; i++) {
        depth_differ += folded->depth[i] != classic->depth[i];
        stencil_differ += folded->stencil[i] != classic->stencil[i];
    }
    cr_expect_eq(depth_differ, 0, "%u depth values differ", depth_differ);
    cr_expect_eq(stencil_differ, 0, "%u stencil values differ", stencil_differ);
    return differ;
}

static void expect_folded(const outcome *folded, const outcome *classic)
{
    cr_expect_eq(folded->color_kind, RG_MEMORY_FOLDED, "%s", folded->color_note);
    cr_expect_neq(classic->color_kind, RG_MEMORY_FOLDED);
}

static const float aligned[4] = {-1, -1, 0, 1};

/* Edges at fractions of a pixel: the resolve averages partly covered
 * pixels. Tolerance: 1 of 255 per channel at an edge pixel (how a
 * driver rounds the implicit resolve against the resolve attachment's
 * average); lavapipe gives equal bytes. */
DEVICE_TEST(rg_fold_cases, edges_resolve_as_the_classic_path)
{
    require_fold(0);
    static const float rect[4] = {-0.83f, -0.71f, 0.37f, 0.58f};
    scene s = {.color = UNORM, .rect = rect};
    outcome folded = run_scene(&s);
    s.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&s);
    compare(&s, &folded, &classic, 1);
    expect_folded(&folded, &classic);
    uint32_t partial = 0;
    for (uint32_t i = 0; i < W * H; i++)
        partial += folded.color[i * 4 + 1] > 0 && folded.color[i * 4 + 1] < 255;
    cr_expect_gt(partial, 0, "no pixel is partly covered: the scene does not test edges");
}

/* Into mip 1 and layer 1 of the targets: the folded span renders into a
 * view of exactly that subresource. The classic path's resolve into
 * layer 1 is wrong on lavapipe (test_rg_resolve.c), so the pictures are
 * checked against what the rectangle covers. */
static void expect_rect(const outcome *o)
{
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *p = &o->color[(y * W + x) * 4];
            wrong += p[1] != (x < W / 2 ? 255 : 0) || p[0] != 0 || p[3] != 255;
        }
    cr_expect_eq(wrong, 0, "%u pixels are not what the rectangle covers", wrong);
}

DEVICE_TEST(rg_fold_cases, colour_into_mip_1)
{
    require_fold(0);
    /* Mesa 22's lavapipe and the classic path on Mesa 25 write mip 1;
     * Mesa 25's lavapipe leaves the folded target's mip 1 unwritten. */
    if (test_lavapipe_mesa() >= 25)
        cr_skip_test("lavapipe (Mesa %u) leaves a folded span's mip-1 target unwritten", test_lavapipe_mesa());
    scene s = {.color = UNORM, .rect = aligned, .mip = 1};
    outcome folded = run_scene(&s);
    expect_rect(&folded);
    cr_expect_eq(folded.color_kind, RG_MEMORY_FOLDED, "%s", folded.color_note);
    s.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&s);
    compare(&s, &folded, &classic, 0);
}

DEVICE_TEST(rg_fold_cases, depth_into_mip_1)
{
    require_fold(VK_FORMAT_D32_SFLOAT);
    test_skip_if_resolve_ignores_base_layer(true);
    scene s = {.color = UNORM, .depth = VK_FORMAT_D32_SFLOAT, .rect = aligned, .mip = 1};
    outcome folded = run_scene(&s);
    expect_rect(&folded);
    cr_expect(folded.depth[H / 2 * W + 2] == 0.5f && folded.depth[H / 2 * W + W - 2] == 1.0f,
              "depth at mip 1: %g inside, %g outside", folded.depth[H / 2 * W + 2], folded.depth[H / 2 * W + W - 2]);
}

DEVICE_TEST(rg_fold_cases, into_layer_1)
{
    require_fold(0);
    test_skip_if_resolve_ignores_base_layer(false);
    scene s = {.color = UNORM, .rect = aligned, .layer = 1};
    outcome folded = run_scene(&s);
    expect_rect(&folded);
    cr_expect_eq(folded.color_kind, RG_MEMORY_FOLDED, "%s", folded.color_note);
}

/* Depth and stencil resolve together (SAMPLE_ZERO for both aspects). */
DEVICE_TEST(rg_fold_cases, depth_and_stencil_resolve)
{
    VkFormat f = VK_FORMAT_D32_SFLOAT_S8_UINT;
    require_fold(f);
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(eng_context_physical_device(test_ctx), f, &fp);
    if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
        cr_skip_test("no D32_SFLOAT_S8_UINT attachments");
    scene s = {.color = UNORM, .depth = f, .rect = aligned};
    outcome folded = run_scene(&s);
    s.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&s);
    compare(&s, &folded, &classic, 0);
    expect_folded(&folded, &classic);
    cr_expect(folded.stencil[0] == 7 && folded.stencil[W * H - 1] == 7, "stencil %u, %u: want the cleared 7",
              folded.stencil[0], folded.stencil[W * H - 1]);
    cr_expect(folded.depth[H / 2 * W + 2] == 0.5f, "depth inside %g", folded.depth[H / 2 * W + 2]);
}

/* An integer colour format resolves sample zero (clear values only: the
 * solid shader writes floats). */
DEVICE_TEST(rg_fold_cases, integer_colour)
{
    require_fold(0);
    scene s = {.color = VK_FORMAT_R8G8B8A8_UINT};
    outcome folded = run_scene(&s);
    s.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&s);
    compare(&s, &folded, &classic, 0);
    expect_folded(&folded, &classic);
    cr_expect(folded.color[0] == 0 && folded.color[3] == 1, "cleared to 0,0,0,1: %u,%u,%u,%u", folded.color[0],
              folded.color[1], folded.color[2], folded.color[3]);
}

/* A later span samples the resolve target: the folded target's write
 * (the implicit resolve at the span's store) happens before that read. */
DEVICE_TEST(rg_fold_cases, a_later_span_samples_the_target)
{
    require_fold(VK_FORMAT_D32_SFLOAT);
    scene s = {.color = UNORM, .depth = VK_FORMAT_D32_SFLOAT, .rect = aligned, .sampled_after = true};
    outcome folded = run_scene(&s);
    expect_rect(&folded);
    s.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&s);
    compare(&s, &folded, &classic, 0);
    expect_folded(&folded, &classic);
}

/* Merging on: a span that resolves never merges (the resolve happens at
 * the end of a rendering instance), so the folded span stays folded; and a
 * multisampled attachment drawn in two spans, the second loading what the
 * first stored, does not fold (the load), merged or not. Each renders what
 * the classic path does. */
DEVICE_TEST(rg_fold_cases, with_merging_on)
{
    require_fold(0);
    scene one = {.color = UNORM, .rect = aligned, .merge = RG_MERGE_ON};
    outcome folded = run_scene(&one);
    one.fold = RG_FOLD_OFF;
    outcome classic = run_scene(&one);
    compare(&one, &folded, &classic, 0);
    expect_folded(&folded, &classic);
    for (int merge = 0; merge < 2; merge++) {
        scene s = {.color = UNORM, .rect = aligned, .two_spans = true, .merge = merge ? RG_MERGE_ON : RG_MERGE_OFF};
        outcome auto_ = run_scene(&s);
        s.fold = RG_FOLD_OFF;
        outcome off = run_scene(&s);
        compare(&s, &auto_, &off, 0);
        cr_expect_neq(auto_.color_kind, RG_MEMORY_FOLDED);
        cr_expect(strstr(auto_.color_note, "not folded in span 'scene more': loaded (load op LOAD)"),
                  "merge %d: %s", merge, auto_.color_note);
    }
}

/* Re-declared after executing: folded, then with the target's multisampled
 * source stored for a later span to load (classic), then folded again, in
 * one graph. Each declaration renders what a fresh graph renders. */
DEVICE_TEST(rg_fold_cases, redeclared_between_folded_and_classic)
{
    require_fold(0);
    rg_graph *kept = NULL;
    scene folded_scene = {.color = UNORM, .rect = aligned, .reuse = &kept};
    scene classic_scene = {.color = UNORM, .rect = aligned, .two_spans = true, .reuse = &kept};
    scene fresh = {.color = UNORM, .rect = aligned, .two_spans = true};
    outcome want_classic = run_scene(&fresh);
    fresh.two_spans = false;
    outcome want_folded = run_scene(&fresh);
    for (int round = 0; round < 2; round++) {
        outcome a = run_scene(&folded_scene);
        compare(&folded_scene, &a, &want_folded, 0);
        cr_expect_eq(a.color_kind, RG_MEMORY_FOLDED, "round %d: %s", round, a.color_note);
        outcome b = run_scene(&classic_scene);
        compare(&classic_scene, &b, &want_classic, 0);
        cr_expect_neq(b.color_kind, RG_MEMORY_FOLDED, "round %d: %s", round, b.color_note);
    }
    rg_graph_destroy(kept);
}
