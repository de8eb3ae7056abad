/* Graphics pipelines' fixed-function state on a device: blend modes,
 * depth bias and stencil, each drawn and read back. Suite pipeline
 * (test_pipeline.c declares it). */
#include "device_fixture.h"
#include "pipeline_support.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- blend, depth bias, stencil */

#define PW 8

#define PH 8

#define DS_FORMAT VK_FORMAT_D32_SFLOAT_S8_UINT

static const float left_rect[4] = { -1, -1, 0, 1 };

/* One draw of the frame: a solid rectangle with a pipeline, and the
 * dynamic state it needs. */
typedef struct state_draw {
    eng_pipeline *pipeline;
    const float *rect;
    float color[4];
    float depth;
    uint32_t stencil_reference;       /* set when the pipeline tests stencil */
    bool set_bias;                    /* vkCmdSetDepthBias(bias, 0, 0) first */
    float bias;
} state_draw;

typedef struct state_frame {
    state_draw draws[4];
    uint32_t count;
    bool stencil;
} state_frame;

static bool record_state_draws(const rg_record_context *rc, void *user)
{
    const state_frame *f = user;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    for (uint32_t i = 0; i < f->count; i++) {
        const state_draw *d = &f->draws[i];
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(d->pipeline));
        if (f->stencil)
            vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, d->stencil_reference);
        if (d->set_bias)
            vkCmdSetDepthBias(cmd, d->bias, 0.0f, 0.0f);
        solid_draw(cmd, d->pipeline, d->rect, d->color, d->depth);
    }
    return true;
}

/* Clears an RGBA8 target to 0.2 (and depth 1, stencil 0 where with_depth),
 * runs the draws in one span, reads the color back into out (PW*PH
 * texels). */
static void run_state_frame(state_frame *f, bool with_depth, uint32_t *out)
{
    eng_buffer *readback = NULL;
    rg_buffer out_buf;
    rg_graph *g = pipeline_readback_graph("state", PW * PH * 4, &readback, &out_buf);
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = PW, .height = PH });
    rg_rendering_desc rd = { .name = "draws", .color_count = 1,
                             .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           .store = VK_ATTACHMENT_STORE_OP_STORE,
                                           .clear.color.float32 = { 0.2f, 0.2f, 0.2f, 0.2f } } } };
    if (with_depth)
        rd.depth = (rg_attachment){ .texture = rg_texture_create(g, &(rg_texture_desc){ .name = "depth",
                                                                                       .format = DS_FORMAT,
                                                                                       .width = PW, .height = PH }),
                                    .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                    .clear.depthStencil = { 1.0f, 0 } };
    rg_begin_rendering(g, &rd);
    rg_cmd_user(g, &(rg_user_desc){ .name = "draws", .kind = RG_COMMAND_DRAW, .record = record_state_draws,
                                     .user = f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, out_buf, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(test_ctx, g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    memcpy(out, eng_buffer_mapped(readback), PW * PH * 4);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
}

static eng_pipeline *state_pipeline(eng_pipeline_desc d)
{
    d.name = d.name ? d.name : "state";
    d.vertex_spirv = solid_vert_spv;
    d.vertex_size = solid_vert_size;
    d.fragment_spirv = solid_frag_spv;
    d.fragment_size = solid_frag_size;
    d.color_count = 1;
    d.color_formats[0] = VK_FORMAT_R8G8B8A8_UNORM;
    d.triangle_strip = true;
    d.push_constant_size = sizeof(solid_push);
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(test_ctx, &d, &p);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    return p;
}

/* Channel c (0..3) of texel i, 0..255. */
static int channel(const uint32_t *texels, uint32_t i, int c) { return (int)((texels[i] >> (8 * c)) & 0xff); }

/* Each blend mode over a target cleared to 0.2 with src 0.4 (alpha 0.4),
 * in UNORM8 within one step of the exact value. */
DEVICE_TEST(pipeline, blend_modes)
{
    static const struct {
        eng_blend blend;
        float rgb, a;                 /* expected, 0..1 */
    } cases[] = {
        { ENG_BLEND_OPAQUE, 0.4f, 0.4f },
        { ENG_BLEND_ALPHA, 0.4f * 0.4f + 0.2f * 0.6f, 0.4f + 0.2f * 0.6f },
        { ENG_BLEND_PREMULTIPLIED, 0.4f + 0.2f * 0.6f, 0.4f + 0.2f * 0.6f },
        { ENG_BLEND_ADDITIVE, 0.6f, 0.6f },
        { ENG_BLEND_MULTIPLY, 0.08f, 0.08f },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        eng_pipeline *p = state_pipeline((eng_pipeline_desc){ .name = "blend", .blend = { cases[k].blend } });
        state_frame f = { .count = 1,
                          .draws = { { .pipeline = p, .rect = pipeline_full_rect, .color = { 0.4f, 0.4f, 0.4f, 0.4f } } } };
        uint32_t texels[PW * PH];
        run_state_frame(&f, false, texels);
        int want_rgb = (int)(cases[k].rgb * 255.0f + 0.5f), want_a = (int)(cases[k].a * 255.0f + 0.5f);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < PW * PH; i++)
            for (int c = 0; c < 4; c++) {
                int want = c < 3 ? want_rgb : want_a;
                bad += abs(channel(texels, i, c) - want) > 1;
            }
        cr_expect_eq(bad, 0, "blend %d: texel 0 is %d,%d,%d,%d, want %d,%d,%d,%d (±1)", (int)cases[k].blend,
                     channel(texels, 0, 0), channel(texels, 0, 1), channel(texels, 0, 2), channel(texels, 0, 3),
                     want_rgb, want_rgb, want_rgb, want_a);
        eng_pipeline_destroy(p);
    }
    /* A bad value and a format that cannot blend are refused. */
    eng_pipeline *p = POISON(eng_pipeline);
    eng_pipeline_desc bad = { .name = "bad blend", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                              .fragment_spirv = solid_frag_spv, .fragment_size = solid_frag_size, .color_count = 1,
                              .color_formats = { VK_FORMAT_R8G8B8A8_UNORM }, .blend = { (eng_blend)99 } };
    cr_expect_eq(eng_pipeline_create(test_ctx, &bad, &p), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    bad.blend[0] = ENG_BLEND_ADDITIVE;
    bad.color_formats[0] = VK_FORMAT_R32_UINT;
    p = POISON(eng_pipeline);
    cr_expect_eq(eng_pipeline_create(test_ctx, &bad, &p), ENG_ERROR_UNSUPPORTED, "%s", eng_last_error());
    cr_expect_null(p);
}

/* A rectangle at depth 0.5 in red, then one at the same depth in green
 * with depth test LESS: it passes only with a bias toward the viewer,
 * static or dynamic. */
DEVICE_TEST(pipeline, depth_bias)
{
    eng_pipeline_desc base = { .depth_format = DS_FORMAT, .depth_test = true, .depth_write = true,
                               .depth_compare = VK_COMPARE_OP_LESS };
    eng_pipeline *first = state_pipeline(base);
    eng_pipeline_desc biased = base;
    biased.depth_bias_constant = -100.0f;
    eng_pipeline *with_bias = state_pipeline(biased);
    eng_pipeline_desc dynamic = base;
    dynamic.dynamic_depth_bias = true;
    eng_pipeline *dynamic_bias = state_pipeline(dynamic);
    static const uint32_t red = 0xff0000ffu, green = 0xff00ff00u;
    struct {
        eng_pipeline *second;
        bool set_bias;
        float bias;
        uint32_t want;
    } cases[] = {
        { first, false, 0.0f, red },            /* no bias: equal depth fails LESS */
        { with_bias, false, 0.0f, green },
        { dynamic_bias, true, -100.0f, green },
        { dynamic_bias, true, 0.0f, red },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        state_frame f = { .count = 2,
                          .draws = { { .pipeline = first, .rect = pipeline_full_rect, .color = { 1, 0, 0, 1 }, .depth = 0.5f },
                                     { cases[k].second, pipeline_full_rect, { 0, 1, 0, 1 }, 0.5f, 0, cases[k].set_bias,
                                       cases[k].bias } } };
        uint32_t texels[PW * PH];
        run_state_frame(&f, true, texels);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < PW * PH; i++)
            bad += texels[i] != cases[k].want;
        cr_expect_eq(bad, 0, "case %zu: texel 0 is 0x%08x, want 0x%08x", k, texels[0], cases[k].want);
    }
    eng_pipeline_destroy(first);
    eng_pipeline_destroy(with_bias);
    eng_pipeline_destroy(dynamic_bias);
}

/* The left half writes stencil 1 (REPLACE), then a full-target draw that
 * passes only where stencil EQUALs 1: white on the left, the clear on the
 * right. */
DEVICE_TEST(pipeline, stencil)
{
    VkStencilOpState write = { .failOp = VK_STENCIL_OP_KEEP, .passOp = VK_STENCIL_OP_REPLACE,
                               .depthFailOp = VK_STENCIL_OP_KEEP, .compareOp = VK_COMPARE_OP_ALWAYS,
                               .compareMask = 0xff, .writeMask = 0xff };
    VkStencilOpState test = { .failOp = VK_STENCIL_OP_KEEP, .passOp = VK_STENCIL_OP_KEEP,
                              .depthFailOp = VK_STENCIL_OP_KEEP, .compareOp = VK_COMPARE_OP_EQUAL,
                              .compareMask = 0xff };
    eng_pipeline *mark = state_pipeline((eng_pipeline_desc){ .name = "mark", .depth_format = DS_FORMAT,
                                                             .stencil_test = true, .stencil_front = write,
                                                             .stencil_back = write });
    eng_pipeline *masked = state_pipeline((eng_pipeline_desc){ .name = "masked", .depth_format = DS_FORMAT,
                                                               .stencil_test = true, .stencil_front = test,
                                                               .stencil_back = test });
    state_frame f = { .count = 2, .stencil = true,
                      .draws = { { .pipeline = mark, .rect = left_rect, .color = { 0, 0, 1, 1 },
                                   .stencil_reference = 1 },
                                 { .pipeline = masked, .rect = pipeline_full_rect, .color = { 1, 1, 1, 1 },
                                   .stencil_reference = 1 } } };
    uint32_t texels[PW * PH];
    run_state_frame(&f, true, texels);
    uint32_t bad = 0;
    for (uint32_t y = 0; y < PH; y++)
        for (uint32_t x = 0; x < PW; x++)
            bad += texels[y * PW + x] != (x < PW / 2 ? 0xffffffffu : 0x33333333u);
    cr_expect_eq(bad, 0, "texels 0 and %u: 0x%08x 0x%08x", PW - 1, texels[0], texels[PW - 1]);
    /* Stencil without a stencil aspect is refused. */
    eng_pipeline *p = POISON(eng_pipeline);
    eng_pipeline_desc bad_desc = { .name = "no stencil", .vertex_spirv = solid_vert_spv,
                                   .vertex_size = solid_vert_size, .depth_format = VK_FORMAT_D32_SFLOAT,
                                   .stencil_test = true };
    cr_expect_eq(eng_pipeline_create(test_ctx, &bad_desc, &p), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    eng_pipeline_destroy(mark);
    eng_pipeline_destroy(masked);
}
