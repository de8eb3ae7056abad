/* Pipeline cache files and SPIR-V loading. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(pipeline, .init = device_setup, .fini = device_teardown);

/* A handle a failing create must reset to NULL. */
#define POISON(type) ((type *)(uintptr_t)0x1)

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void make_pipeline(eng_pipeline_cache *cache)
{
    eng_pipeline *p = NULL;
    eng_result r = solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT,
                                         VK_SAMPLE_COUNT_4_BIT, cache, &p);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_assert_neq(eng_pipeline_handle(p), VK_NULL_HANDLE);
    cr_assert_neq(eng_pipeline_layout(p), VK_NULL_HANDLE);
    eng_pipeline_destroy(p);
}

DEVICE_TEST(pipeline, cache_round_trip)
{
    char path[512];
    test_temp_path(path, sizeof path, "pipeline.cache");
    remove(path);

    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0, "no file yet: a cold start, not an error");
    cr_expect_neq(eng_pipeline_cache_handle(cache), VK_NULL_HANDLE);
    make_pipeline(cache);
    cr_assert_eq(eng_pipeline_cache_save(cache), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline_cache_destroy(cache);

    static uint8_t blob[1 << 20];
    size_t size = read_file(path, blob, sizeof blob);
    cr_assert_geq(size, 16 + VK_UUID_SIZE, "the saved file has at least the cache header (%zu bytes)", size);
    char tmp[520];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *left = fopen(tmp, "rb");
    cr_expect_null(left, "the temporary file was renamed");
    if (left)
        fclose(left);

    cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), size, "loaded %zu of %zu bytes",
                 eng_pipeline_cache_loaded_bytes(cache), size);
    make_pipeline(cache); /* through the warm cache */
    eng_pipeline_cache_destroy(cache);

    /* A blob of another device or driver (its pipelineCacheUUID differs) is
     * ignored, not handed to the driver and not an error. */
    blob[16] ^= 0xFF;
    write_file(path, blob, size);
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_pipeline_cache_destroy(cache);
    remove(path);
}

DEVICE_TEST(pipeline, cache_garbage_file)
{
    char path[512];
    test_temp_path(path, sizeof path, "garbage.cache");
    uint8_t junk[256];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 37u + 11u);
    write_file(path, junk, sizeof junk);
    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_pipeline_cache_destroy(cache);

    write_file(path, junk, 3); /* shorter than a header */
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    eng_pipeline_cache_destroy(cache);

    write_file(path, junk, 0); /* empty */
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    eng_pipeline_cache_destroy(cache);
    remove(path);
}

DEVICE_TEST(pipeline, cache_without_path)
{
    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, NULL, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_result r = eng_pipeline_cache_save(cache);
    cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT, "%s", eng_result_string(r));
    cr_expect_neq(strstr(eng_last_error(), "path"), NULL, "'%s'", eng_last_error());
    eng_pipeline_cache_destroy(cache);
}

DEVICE_TEST(pipeline, cache_save_to_unwritable_path)
{
    eng_pipeline_cache *cache = NULL;
    const char *path = "/nonexistent-dir-vkg/cache.bin";
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    eng_result r = eng_pipeline_cache_save(cache);
    cr_expect_eq(r, ENG_ERROR_IO, "%s", eng_result_string(r));
    cr_expect_neq(strstr(eng_last_error(), "/nonexistent-dir-vkg/cache.bin"), NULL, "'%s'", eng_last_error());
    eng_pipeline_cache_destroy(cache);
}

DEVICE_TEST(pipeline, spirv_load)
{
    char path[512];
    test_temp_path(path, sizeof path, "solid.vert.spv");
    write_file(path, solid_vert_spv, solid_vert_size);
    uint32_t *words = NULL;
    size_t size = 0;
    eng_result r = eng_spirv_load(path, &words, &size);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(size, solid_vert_size);
    cr_assert_not_null(words);
    cr_expect_eq(memcmp(words, solid_vert_spv, size), 0);
    /* The loaded words make a working pipeline. */
    eng_pipeline_desc d = {
        .name = "loaded", .vertex_spirv = words, .vertex_size = size, .fragment_spirv = solid_frag_spv,
        .fragment_size = solid_frag_size, .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM },
        .triangle_strip = true, .push_constant_size = sizeof(solid_push),
    };
    eng_pipeline *p = NULL;
    cr_expect_eq(eng_pipeline_create(test_ctx, &d, &p), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline_destroy(p);
    free(words);
    remove(path);
}

static void expect_spirv_io_error(const char *path, const char *why)
{
    uint32_t *words = (uint32_t *)(uintptr_t)1;
    size_t size = 99;
    eng_result r = eng_spirv_load(path, &words, &size);
    cr_expect_eq(r, ENG_ERROR_IO, "%s: %s", why, eng_result_string(r));
    cr_expect_null(words, "%s: output pointer left set", why);
    cr_expect_eq(size, 0, "%s", why);
    cr_expect_neq(strstr(eng_last_error(), path), NULL, "%s: '%s' names the file", why, eng_last_error());
}

DEVICE_TEST(pipeline, spirv_load_errors)
{
    char path[512];
    test_temp_path(path, sizeof path, "bad.spv");
    write_file(path, solid_vert_spv, solid_vert_size - 2);
    expect_spirv_io_error(path, "size not a multiple of 4");
    cr_expect_neq(strstr(eng_last_error(), "multiple of 4"), NULL, "'%s'", eng_last_error());

    uint32_t bad_magic[8] = { 0x03022307u, 1, 2, 3, 4, 5, 6, 7 }; /* byte-swapped magic */
    write_file(path, bad_magic, sizeof bad_magic);
    expect_spirv_io_error(path, "wrong magic");
    cr_expect_neq(strstr(eng_last_error(), "magic"), NULL, "'%s'", eng_last_error());

    write_file(path, bad_magic, 0);
    expect_spirv_io_error(path, "empty file");
    remove(path);

    expect_spirv_io_error("/nonexistent-dir-vkg/missing.spv", "missing file");
}

/* ------------------------------------------------- blend, depth bias, stencil */

#define PW 8
#define PH 8
#define DS_FORMAT VK_FORMAT_D32_SFLOAT_S8_UINT

static const float full_rect[4] = { -1, -1, 1, 1 };
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

typedef struct state_job {
    rg_graph *graph;
    rg_result result;
} state_job;

static void record_state_job(VkCommandBuffer cmd, void *user)
{
    state_job *j = user;
    j->result = test_execute(j->graph, cmd);
}

/* Clears an RGBA8 target to 0.2 (and depth 1, stencil 0 where with_depth),
 * runs the draws in one span, reads the color back into out (PW*PH
 * texels). */
static void run_state_frame(state_frame *f, bool with_depth, uint32_t *out)
{
    eng_buffer *readback = NULL;
    eng_buffer_desc bd = { .name = "readback", .size = PW * PH * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "state", .device = eng_context_graph_device(test_ctx) },
                                 &g),
                 RG_SUCCESS);
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = PW, .height = PH });
    rg_buffer out_buf = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
                                                                      .buffer = eng_buffer_handle(readback),
                                                                      .size = PW * PH * 4,
                                                                      .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                      .final_access = VK_ACCESS_2_HOST_READ_BIT });
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
    state_job j = { g, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(test_ctx, record_state_job, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.result, RG_SUCCESS, "%s", rg_graph_error_message(g));
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
                          .draws = { { .pipeline = p, .rect = full_rect, .color = { 0.4f, 0.4f, 0.4f, 0.4f } } } };
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
                          .draws = { { .pipeline = first, .rect = full_rect, .color = { 1, 0, 0, 1 }, .depth = 0.5f },
                                     { cases[k].second, full_rect, { 0, 1, 0, 1 }, 0.5f, 0, cases[k].set_bias,
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
                                 { .pipeline = masked, .rect = full_rect, .color = { 1, 1, 1, 1 },
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

/* ------------------------------------------------------ compute pipelines */

static const uint32_t storage_pattern_comp[] =
#include "storage_pattern.comp.inc"
    ;
static const uint32_t history_step_frag[] =
#include "history_step.frag.inc"
    ;

#define CW 16
#define CH 8
#define CBASE 5000u

/* A dispatch writes base + x + 100y into a storage image; a draw samples
 * it (history_step.frag adds 1 + x + 100y) into an R32_UINT target that is
 * read back: every texel exact. */
typedef struct compute_frame {
    VkDevice dev;
    eng_pipeline *compute, *draw;
    VkDescriptorSetLayout storage_layout, sampled_layout;
    VkDescriptorPool pool;
    VkDescriptorSet storage_set, sampled_set;
    rg_texture pattern;
} compute_frame;

static VkDescriptorSet one_set(compute_frame *f, VkDescriptorSetLayout layout, VkDescriptorType type,
                               VkImageView view, VkImageLayout image_layout)
{
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = f->pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    VkDescriptorSet set;
    cr_assert_eq(vkAllocateDescriptorSets(f->dev, &ai, &set), VK_SUCCESS);
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, image_layout };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                               .descriptorType = type, .pImageInfo = &ii };
    vkUpdateDescriptorSets(f->dev, 1, &w, 0, NULL);
    return set;
}

static bool record_dispatch(const rg_record_context *rc, void *user)
{
    compute_frame *f = user;
    VkImageView view = rg_record_view(rc, f->pattern);
    if (!view)
        return false;
    if (!f->storage_set)
        f->storage_set = one_set(f, f->storage_layout, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, view,
                                 VK_IMAGE_LAYOUT_GENERAL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    cr_assert_eq(eng_pipeline_bind_point(f->compute), VK_PIPELINE_BIND_POINT_COMPUTE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, eng_pipeline_handle(f->compute));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, eng_pipeline_layout(f->compute), 0, 1,
                            &f->storage_set, 0, NULL);
    const uint32_t push[3] = { CBASE, CW, CH };
    vkCmdPushConstants(cmd, eng_pipeline_layout(f->compute), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cmd, (CW + 7) / 8, (CH + 7) / 8, 1);
    return true;
}

static bool record_read_pattern(const rg_record_context *rc, void *user)
{
    compute_frame *f = user;
    VkImageView view = rg_record_view(rc, f->pattern);
    if (!view)
        return false;
    if (!f->sampled_set)
        f->sampled_set = one_set(f, f->sampled_layout, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(f->draw));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(f->draw), 0, 1,
                            &f->sampled_set, 0, NULL);
    static const float none[4] = { 0, 0, 0, 0 };
    solid_draw(cmd, f->draw, full_rect, none, 0.0f);
    return true;
}

static VkDescriptorSetLayout image_layout_of(VkDevice dev, VkDescriptorType type, VkShaderStageFlags stage)
{
    VkDescriptorSetLayoutBinding b = { 0, type, 1, stage, NULL };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 1, .pBindings = &b };
    VkDescriptorSetLayout layout;
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &ci, NULL, &layout), VK_SUCCESS);
    return layout;
}

DEVICE_TEST(pipeline, compute_writes_a_storage_image_a_draw_reads)
{
    compute_frame f = { .dev = eng_context_device(test_ctx) };
    f.storage_layout = image_layout_of(f.dev, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_SHADER_STAGE_COMPUTE_BIT);
    f.sampled_layout = image_layout_of(f.dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 },
                                      { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1 } };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2,
                                       .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(f.dev, &pci, NULL, &f.pool), VK_SUCCESS);
    eng_result r = eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                   .name = "pattern", .spirv = storage_pattern_comp,
                                                   .size = sizeof storage_pattern_comp,
                                                   .set_layouts = &f.storage_layout, .set_layout_count = 1,
                                                   .push_constant_size = 12 },
                                               &f.compute);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    f.draw = NULL;
    r = eng_pipeline_create(test_ctx, &(eng_pipeline_desc){
                                .name = "read pattern", .vertex_spirv = solid_vert_spv, .vertex_size = solid_vert_size,
                                .fragment_spirv = history_step_frag, .fragment_size = sizeof history_step_frag,
                                .color_formats = { VK_FORMAT_R32_UINT }, .color_count = 1, .triangle_strip = true,
                                .set_layouts = &f.sampled_layout, .set_layout_count = 1,
                                .push_constant_size = sizeof(solid_push) },
                            &f.draw);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_eq(eng_pipeline_bind_point(f.draw), VK_PIPELINE_BIND_POINT_GRAPHICS);

    eng_buffer *readback = NULL;
    eng_buffer_desc bd = { .name = "readback", .size = CW * CH * 4, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "compute", .device = eng_context_graph_device(test_ctx) },
                                 &g),
                 RG_SUCCESS);
    f.pattern = rg_texture_create(g, &(rg_texture_desc){ .name = "pattern", .format = VK_FORMAT_R32_UINT,
                                                         .width = CW, .height = CH });
    rg_texture out = rg_texture_create(g, &(rg_texture_desc){ .name = "out", .format = VK_FORMAT_R32_UINT,
                                                              .width = CW, .height = CH });
    rg_buffer rb = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
                                                                 .buffer = eng_buffer_handle(readback),
                                                                 .size = CW * CH * 4,
                                                                 .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                                 .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_access write = { .texture = f.pattern, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "dispatch", .accesses = &write, .access_count = 1,
                                     .record = record_dispatch, .user = &f });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "read", .color_count = 1,
                                                .colors = { { .texture = out, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access read = { .texture = f.pattern, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .accesses = &read, .access_count = 1,
                                     .record = record_read_pattern, .user = &f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, out, 0, 0, 1, rb, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    state_job j = { g, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(test_ctx, record_state_job, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.result, RG_SUCCESS, "%s", rg_graph_error_message(g));
    const uint32_t *v = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t y = 0; y < CH; y++)
        for (uint32_t x = 0; x < CW; x++)
            bad += v[y * CW + x] != CBASE + 1 + 2 * (x + 100 * y);
    cr_expect_eq(bad, 0, "%u texels differ; (0,0) = %u, want %u", bad, v[0], CBASE + 1);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    /* Not SPIR-V, and a bad push constant size, are refused. */
    eng_pipeline *p = POISON(eng_pipeline);
    static const uint32_t junk[2] = { 1, 2 };
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){ .spirv = junk,
                                                                                     .size = sizeof junk },
                                             &p),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    p = POISON(eng_pipeline);
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                 .spirv = storage_pattern_comp, .size = sizeof storage_pattern_comp,
                                                 .push_constant_size = 6 },
                                             &p),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(p);
    eng_pipeline_destroy(f.compute);
    eng_pipeline_destroy(f.draw);
    vkDestroyDescriptorPool(f.dev, f.pool, NULL);
    vkDestroyDescriptorSetLayout(f.dev, f.storage_layout, NULL);
    vkDestroyDescriptorSetLayout(f.dev, f.sampled_layout, NULL);
}
