/* Device-free regressions for the bugs an independent acceptance suite
 * found: refusals at declaration that name the command and the
 * texture, barriers on depth+stencil formats, the write a read-only depth
 * attachment's store op makes, the totals under no_aliasing, and the place
 * a command without accesses keeps. The device halves are in
 * tests/device/test_rg_acceptance.c. */
#include "rg_mem_unit.h"

#define DS (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)

static rg_texture tex16(rg_graph *g, const char *name, VkFormat f)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = f, .width = 16, .height = 16});
}

/* Imported: the copies' sources hold the application's bytes. */
static rg_buffer buf(rg_graph *g, VkDeviceSize size)
{
    return rg_buffer_import(g, &(rg_buffer_import_desc){.name = "bytes", .size = size});
}

/* ----------------------------------- 3: copies of depth+stencil formats */

Test(rg_acceptance, depth_stencil_texture_to_buffer_copy_refused)
{
    rg_graph *g = test_graph();
    rg_texture d = tex16(g, "depth stencil", VK_FORMAT_D32_SFLOAT_S8_UINT);
    rg_cmd_copy_texture_to_buffer(g, d, 0, 0, 1, buf(g, 16 * 16 * 8), 0);
    test_expect_refused_naming(g, RG_ERROR_INVALID_ARGUMENT, "copy_texture_to_buffer", "depth stencil");
}

Test(rg_acceptance, buffer_to_depth_stencil_texture_copy_refused)
{
    rg_graph *g = test_graph();
    rg_texture d = tex16(g, "d24s8", VK_FORMAT_D24_UNORM_S8_UINT);
    rg_cmd_copy_buffer_to_texture(g, buf(g, 16 * 16 * 8), 0, d, 0, 0, 1);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "copy_buffer_to_texture");
}

Test(rg_acceptance, single_aspect_depth_copies_still_allowed)
{
    rg_graph *g = test_graph();
    rg_texture d = tex16(g, "d32", VK_FORMAT_D32_SFLOAT);
    rg_texture s = tex16(g, "s8", VK_FORMAT_S8_UINT);
    rg_cmd_copy_buffer_to_texture(g, buf(g, 16 * 16 * 4), 0, d, 0, 0, 1);
    rg_cmd_copy_buffer_to_texture(g, buf(g, 16 * 16), 0, s, 0, 0, 1);
    rg_cmd_copy_texture_to_buffer(g, d, 0, 0, 1, buf(g, 16 * 16 * 4), 0);
    rg_cmd_copy_texture_to_buffer(g, s, 0, 0, 1, buf(g, 16 * 16), 0);
    test_expect_compiles(g);
}

/* ------------------------------ 6: copy bounds for every format's texels */

/* Each format's 16x16 mip 0 into a buffer one byte short of it is refused;
 * into one of exactly its size it is accepted. */
static void expect_copy_size(VkFormat f, VkDeviceSize bytes)
{
    rg_graph *g = test_graph();
    rg_texture t = tex16(g, "texels", f);
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, buf(g, bytes - 1), 0);
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "texels");
    g = test_graph();
    t = tex16(g, "texels", f);
    rg_cmd_copy_buffer_to_texture(g, buf(g, bytes), 0, t, 0, 0, 1);
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, buf(g, bytes), 0);
    cr_expect_eq(rg_compile(g), RG_SUCCESS, "format %d, %llu bytes: %s", (int)f, (unsigned long long)bytes,
                 rg_graph_error_message(g));
    rg_graph_destroy(g);
}

Test(rg_acceptance, copy_sizes_of_integer_formats)
{
    expect_copy_size(VK_FORMAT_R8G8B8A8_UINT, 16 * 16 * 4);
    expect_copy_size(VK_FORMAT_R16G16B16A16_UINT, 16 * 16 * 8);
    expect_copy_size(VK_FORMAT_R32G32B32A32_UINT, 16 * 16 * 16);
    expect_copy_size(VK_FORMAT_R32_SINT, 16 * 16 * 4);
    expect_copy_size(VK_FORMAT_R64G64B64A64_SFLOAT, 16 * 16 * 32);
    expect_copy_size(VK_FORMAT_R8G8B8_SRGB, 16 * 16 * 3);
}

Test(rg_acceptance, copy_sizes_of_block_compressed_formats)
{
    expect_copy_size(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 4 * 4 * 8);
    expect_copy_size(VK_FORMAT_BC7_SRGB_BLOCK, 4 * 4 * 16);
    expect_copy_size(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 4 * 4 * 8);
    /* 16x16 in 12x12 blocks: 2x2 blocks of 16 bytes. */
    expect_copy_size(VK_FORMAT_ASTC_12x12_UNORM_BLOCK, 2 * 2 * 16);
    expect_copy_size(VK_FORMAT_ASTC_5x4_SFLOAT_BLOCK, 4 * 4 * 16);
}

/* A mip of a block-compressed texture smaller than a block is one block. */
Test(rg_acceptance, copy_size_of_a_mip_below_one_block)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "bc1", .format = VK_FORMAT_BC1_RGB_UNORM_BLOCK,
                                                          .width = 16, .height = 16, .mip_levels = 5});
    rg_cmd_copy_buffer_to_texture(g, buf(g, 8), 0, t, 4, 0, 1);
    rg_cmd_copy_texture_to_buffer(g, t, 4, 0, 1, buf(g, 8), 0);
    test_expect_compiles(g);
}

/* Formats the graph cannot size (multi-planar) are refused when the
 * texture is declared, naming it. */
Test(rg_acceptance, multi_planar_format_refused)
{
    rg_graph *g = test_graph();
    tex16(g, "video", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "video");
}

/* ------------------------------------------------ 7: resolve modes */

static void resolve_span(rg_graph *g, VkFormat f, VkResolveModeFlagBits mode)
{
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){.name = "ms", .format = f, .width = 16, .height = 16,
                                                           .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture one = tex16(g, "resolved", f);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "resolve span", .color_count = 1,
                              .colors = {{.texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = one,
                                          .resolve_mode = mode}}});
    rg_end_rendering(g);
}

Test(rg_acceptance, average_resolve_of_integer_color_refused)
{
    rg_graph *g = test_graph();
    resolve_span(g, VK_FORMAT_R32_UINT, VK_RESOLVE_MODE_AVERAGE_BIT);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "resolve span");
}

Test(rg_acceptance, sample_zero_resolve_of_float_color_refused)
{
    /* VUID-VkRenderingAttachmentInfo-imageView-06129: AVERAGE only. */
    rg_graph *g = test_graph();
    resolve_span(g, VK_FORMAT_R8G8B8A8_UNORM, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "resolve span");
}

Test(rg_acceptance, default_resolve_modes_accepted)
{
    rg_graph *g = test_graph();
    resolve_span(g, VK_FORMAT_R32_UINT, 0);
    resolve_span(g, VK_FORMAT_R16G16B16A16_SINT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
    resolve_span(g, VK_FORMAT_R16G16B16A16_SFLOAT, 0);
    test_expect_compiles(g);
}

/* ----------------------------------------------------------- 8: blits */

Test(rg_acceptance, linear_blit_of_depth_refused)
{
    rg_graph *g = test_graph();
    rg_texture d = rg_texture_create(g, &(rg_texture_desc){.name = "depth pyramid", .format = VK_FORMAT_D32_SFLOAT,
                                                          .width = 16, .height = 16, .mip_levels = 2});
    rg_cmd_blit(g, d, 0, d, 1, VK_FILTER_LINEAR);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "depth pyramid");
    g = test_graph();
    d = rg_texture_create(g, &(rg_texture_desc){.name = "depth pyramid", .format = VK_FORMAT_D32_SFLOAT,
                                                .width = 16, .height = 16, .mip_levels = 2});
    rg_cmd_copy_buffer_to_texture(g, buf(g, 16 * 16 * 4), 0, d, 0, 0, 1);
    rg_cmd_blit(g, d, 0, d, 1, VK_FILTER_NEAREST);
    test_expect_compiles(g);
}

Test(rg_acceptance, blits_between_unlike_formats_refused)
{
    static const struct { VkFormat a, b; VkFilter f; } bad[] = {
        {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FILTER_NEAREST},     /* depth formats must match */
        {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_SINT, VK_FILTER_NEAREST}, /* uint <-> sint */
        {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_NEAREST}, /* integer <-> float */
        {VK_FORMAT_R32_UINT, VK_FORMAT_R32_UINT, VK_FILTER_LINEAR},           /* integers do not filter */
        {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, VK_FILTER_NEAREST},  /* color <-> depth */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rg_graph *g = test_graph();
        rg_cmd_blit(g, tex16(g, "blit src", bad[i].a), 0, tex16(g, "blit dst", bad[i].b), 0, bad[i].f);
        test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "blit src");
    }
}

Test(rg_acceptance, clear_of_compressed_texture_refused)
{
    rg_graph *g = test_graph();
    rg_cmd_clear_texture(g, tex16(g, "bc7 albedo", VK_FORMAT_BC7_UNORM_BLOCK), NULL, &(VkClearValue){0});
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "bc7 albedo");
}

/* ---------------------------------- 4: depth+stencil barriers, both aspects */

Test(rg_acceptance, depth_stencil_barriers_name_both_aspects)
{
    rg_graph *g = test_graph();
    rg_texture d = tex16(g, "ds", VK_FORMAT_D32_SFLOAT_S8_UINT);
    rg_texture c = tex16(g, "c", VK_FORMAT_R8G8B8A8_UNORM);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "depth", .depth = {.texture = d,
                                                                          .load = VK_ATTACHMENT_LOAD_OP_CLEAR}});
    rg_end_rendering(g);
    rg_access depth_only = {.texture = d, .usage = RG_USAGE_SAMPLED_FRAGMENT,
                            .range = {.aspect = VK_IMAGE_ASPECT_DEPTH_BIT}};
    rg_access stencil_only = {.texture = d, .usage = RG_USAGE_SAMPLED_COMPUTE,
                              .range = {.aspect = VK_IMAGE_ASPECT_STENCIL_BIT}};
    test_begin(g, "sample", c);
    test_cmd(g, "sample depth", RG_COMMAND_DRAW, &depth_only, 1);
    rg_end_rendering(g);
    test_cmd(g, "stencil", RG_COMMAND_OUTSIDE, &stencil_only, 1);
    rg_cmd_clear_texture(g, d, &(rg_range){.aspect = VK_IMAGE_ASPECT_STENCIL_BIT},
                         &(VkClearValue){.depthStencil = {0.0f, 0}});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[16];
    uint32_t n = test_tex_barriers(g, d, b, 16);
    cr_expect_geq(n, 3);
    for (uint32_t i = 0; i < n; i++)
        cr_expect_eq(b[i]->range.aspect, DS, "barrier %u names aspects 0x%x", i, b[i]->range.aspect);
    rg_graph_destroy(g);
}

/* ------------------------------ 5: a read-only depth attachment's store */

static void read_only_spans(rg_graph *g, VkAttachmentStoreOp store, rg_command *second, rg_command *third)
{
    rg_texture d = tex16(g, "depth", VK_FORMAT_D32_SFLOAT);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "write",
                                               .depth = {.texture = d, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}});
    rg_end_rendering(g);
    rg_rendering_desc ro = {.name = "read", .depth_read_only = true,
                            .depth = {.texture = d, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = store}};
    *second = rg_begin_rendering(g, &ro);
    rg_end_rendering(g);
    *third = rg_begin_rendering(g, &ro);
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
}

Test(rg_acceptance, read_only_depth_with_store_writes)
{
    rg_graph *g = test_graph();
    rg_command second, third;
    read_only_spans(g, VK_ATTACHMENT_STORE_OP_STORE, &second, &third);
    cr_expect(rg_happens_before(g, second, third), "the second span's store must finish before the third");
    bool waited = false;
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        if (b->before.id == third.id)
            waited |= (b->src_access & VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT) != 0;
    }
    cr_expect(waited, "a barrier before the third span waits for DEPTH_STENCIL_ATTACHMENT_WRITE");
    /* The next frame's first use waits for the last store too: the depth's
     * first barrier (frame start) has the write in its source. */
    const rg_barrier_info *first = NULL;
    for (uint32_t i = 0; i < rg_barrier_count(g) && !first; i++)
        if (rg_barrier_get(g, i)->texture.id)
            first = rg_barrier_get(g, i);
    cr_assert_not_null(first);
    cr_expect(first->src_access & VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, "src access 0x%llx",
              (unsigned long long)first->src_access);
    rg_graph_destroy(g);
}

Test(rg_acceptance, read_only_depth_with_store_none_is_a_read)
{
    rg_graph *g = test_graph();
    rg_command second, third;
    read_only_spans(g, VK_ATTACHMENT_STORE_OP_NONE, &second, &third);
    for (uint32_t i = 0; i < rg_barrier_count(g); i++)
        cr_expect_neq(rg_barrier_get(g, i)->before.id, third.id, "a read after a read in one layout needs none");
    rg_graph_destroy(g);
}

/* ------------------------------------- 10: totals under no_aliasing */

/* Sizes that are not multiples of the alignment leave padding between
 * ranges: with no_aliasing the pooled bytes must still equal the unaliased
 * figure, and both count the padding (as the H200's 1 KiB alignment
 * showed: 195,072 pooled against 193,536). */
static rg_memory_totals padded_totals(bool no_aliasing)
{
    test_mem_env env;
    test_mem_init_desc(&env, "NVIDIA H200",
                       &(rg_graph_desc){.name = "padding", .no_aliasing = no_aliasing, .no_culling = true});
    rg_buffer b[5];
    VkDeviceSize sizes[5] = {1000, 3000, 1500, 700, 4100};
    for (int i = 0; i < 5; i++) {
        test_mem_entry *e = test_mem_push(&env, sizes[i]);
        e->align = 1024;
        e->buf = b[i] = rg_buffer_create(env.g, &(rg_buffer_desc){.name = "b", .size = sizes[i]});
        test_outside(env.g, "write", BUF(b[i], RG_USAGE_STORAGE_WRITE_COMPUTE));
        test_outside(env.g, "read", BUF(b[i], RG_USAGE_STORAGE_READ_COMPUTE));
    }
    test_mem_place(&env);
    rg_memory_totals t = rg_memory_get_totals(env.g);
    rg_graph_destroy(env.g);
    return t;
}

Test(rg_acceptance, no_aliasing_pooled_equals_unaliased_with_padding)
{
    rg_memory_totals t = padded_totals(true);
    cr_expect_eq(t.pooled, t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
                 (unsigned long long)t.unaliased);
    cr_expect_gt(t.unaliased, 1000 + 3000 + 1500 + 700 + 4100, "padding is counted");
    cr_expect_eq(t.padding, t.unaliased - (1000 + 3000 + 1500 + 700 + 4100));
    rg_memory_totals a = padded_totals(false);
    cr_expect_eq(a.unaliased, t.unaliased, "the unaliased figure does not depend on the switch");
    cr_expect_leq(a.pooled, t.pooled);
    cr_expect_leq(a.lower_bound, a.pooled);
}

/* --------------------------------- a command with no declared accesses */

/* A timestamp or a debug label has no accesses: it keeps its place in
 * record order relative to the commands recorded next to it. */
Test(rg_acceptance, command_without_accesses_keeps_record_order)
{
    rg_graph *g = test_graph();
    rg_buffer x = test_buf(g, "x"), y = test_buf(g, "y");
    rg_command a = test_outside(g, "a", BUF(x, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command stamp = test_cmd(g, "timestamp", RG_COMMAND_OUTSIDE, NULL, 0);
    rg_command b = test_outside(g, "b", BUF(y, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(rg_happens_before(g, a, stamp));
    cr_expect(rg_happens_before(g, stamp, b));
    cr_expect_lt(test_pos(g, a), test_pos(g, stamp));
    cr_expect_lt(test_pos(g, stamp), test_pos(g, b));
    rg_graph_destroy(g);
}
