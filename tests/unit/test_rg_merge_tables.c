/* The deferred demo's frame at 1920x1080 (deferred_frame.c's shape:
 * G-buffer, lighting reading it pixel-locally, a bloom pass, a tonemap
 * reading the lit image pixel-locally) placed offline over the memory
 * tables of real tile GPUs: with the drivers' default policy the G-buffer
 * merges into the lighting span and lives in lazily allocated memory (no
 * pooled bytes), and the tile traffic loses its store and reload. */
#include "rg_mem_unit.h"

#include <engine/engine.h>

/* A rendering instance's (or with RG_INDEX_NONE the frame's) tile traffic. */
static rg_result traffic_get(const rg_graph *g, uint32_t instance, rg_tile_traffic *out)
{
    rg_tile_view v;
    rg_result r = rg_tile_view_get(g, instance, out ? &v : NULL);
    if (out)
        *out = r == RG_SUCCESS ? v.traffic : (rg_tile_traffic){0};
    return r;
}

typedef struct deferred {
    rg_texture gbuffer[5];            /* albedo, normal, material, view depth, depth buffer */
    rg_texture hdr, bloom, out;
} deferred;

static const VkDeviceSize gbuffer_bpp[5] = {4, 8, 4, 4, 4};

static void declare(test_mem_env *env, deferred *d)
{
    const uint32_t w = 1920, h = 1080;
    static const char *names[5] = {"albedo", "normal", "material", "view depth", "depth buffer"};
    static const VkFormat formats[5] = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
                                        VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT, VK_FORMAT_D32_SFLOAT};
    for (int i = 0; i < 5; i++)
        d->gbuffer[i] = test_mem_tex(env, names[i], formats[i], (uint32_t)gbuffer_bpp[i], w, h);
    d->hdr = test_mem_tex(env, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 8, w, h);
    d->bloom = test_mem_tex(env, "bloom", VK_FORMAT_R16G16B16A16_SFLOAT, 8, w / 2, h / 2);
    d->out = test_mem_import(env, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, w, h);
    rg_graph *g = env->g;
    rg_rendering_desc gb = {.name = "gbuffer", .color_count = 4,
                            .depth = {.texture = d->gbuffer[4], .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                      .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}};
    for (int i = 0; i < 4; i++)
        gb.colors[i] = (rg_attachment){.texture = d->gbuffer[i], .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
    rg_begin_rendering(g, &gb);
    test_draw(g, "draw scene", BUF_UNDEF(test_mem_buf(env, "vertices", 1 << 20), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    const VkAttachmentLoadOp any = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                              .colors = {{.texture = d->hdr, .load = any}}});
    test_draw(g, "light", TEX(d->gbuffer[0], RG_USAGE_PIXEL_LOCAL_READ), TEX(d->gbuffer[1], RG_USAGE_PIXEL_LOCAL_READ),
              TEX(d->gbuffer[2], RG_USAGE_PIXEL_LOCAL_READ), TEX(d->gbuffer[3], RG_USAGE_PIXEL_LOCAL_READ));
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "bloom", .color_count = 1,
                                              .colors = {{.texture = d->bloom, .load = any}}});
    test_draw(g, "bright pass", TEX(d->hdr, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "tonemap", .color_count = 1,
                                              .colors = {{.texture = d->out, .load = any}}});
    test_draw(g, "tonemap", TEX(d->hdr, RG_USAGE_PIXEL_LOCAL_READ), TEX(d->bloom, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
}

typedef struct outcome {
    bool merged;
    uint32_t lazy_gbuffer;            /* of the 5 */
    VkDeviceSize gbuffer_pooled;      /* bytes of the G-buffer placed in pools */
    VkDeviceSize pooled, lazy;
    uint64_t traffic;
} outcome;

static outcome run(const char *table, VkDriverId driver, rg_merge merge)
{
    test_mem_env env;
    rg_device_caps caps = {.local_read = true, .driver = driver};
    test_mem_init_desc(&env, table, &(rg_graph_desc){.name = table, .merge = merge, .caps = &caps});
    deferred d;
    declare(&env, &d);
    test_mem_place(&env);
    outcome o = {0};
    rg_merge_info m;
    cr_assert_eq(rg_merge_count(env.g), 2, "gbuffer/lighting and lighting/tonemap");
    cr_assert_eq(rg_merge_get(env.g, 0, &m), RG_SUCCESS);
    o.merged = m.merged;
    rg_merge_info t;
    cr_assert_eq(rg_merge_get(env.g, 1, &t), RG_SUCCESS);
    cr_expect_not(t.merged, "the bloom pass needs hdr between lighting and tonemap");
    for (int i = 0; i < 5; i++) {
        test_mem_where w = test_mem_tex_at(&env, d.gbuffer[i]);
        o.lazy_gbuffer += w.kind == RG_MEMORY_LAZY;
        if (w.kind == RG_MEMORY_POOLED)
            o.gbuffer_pooled += w.size;
    }
    rg_memory_totals tot = rg_memory_get_totals(env.g);
    o.pooled = tot.pooled;
    o.lazy = tot.lazy;
    rg_tile_traffic tr;
    cr_assert_eq(traffic_get(env.g, RG_INDEX_NONE, &tr), RG_SUCCESS);
    o.traffic = tr.total;
    rg_graph_destroy(env.g);
    return o;
}

static void expect_on_chip(const char *table, VkDriverId driver)
{
    outcome on = run(table, driver, RG_MERGE_AUTO), off = run(table, driver, RG_MERGE_OFF);
    cr_expect(on.merged, "%s: the driver's default merges", table);
    cr_expect_eq(on.lazy_gbuffer, 5, "%s: %u of 5 G-buffer textures lazy", table, on.lazy_gbuffer);
    cr_expect_eq(on.gbuffer_pooled, 0, "%s: %llu G-buffer bytes pooled", table,
                 (unsigned long long)on.gbuffer_pooled);
    cr_expect_not(off.merged);
    cr_expect_eq(off.lazy_gbuffer, 1, "unmerged, only the depth buffer is transient");
    cr_expect_gt(off.gbuffer_pooled, 0);
    cr_expect_lt(on.pooled, off.pooled);
    /* The G-buffer's store and reload (4 + 8 + 4 + 4 bytes a pixel, each
     * way) are what merging saves. */
    cr_expect_eq(off.traffic - on.traffic, 2ull * 1920 * 1080 * 20, "%s: traffic %llu vs %llu", table,
                 (unsigned long long)off.traffic, (unsigned long long)on.traffic);
    cr_log_info("%s: merged: pooled %.2f MiB, lazy %.2f MiB, G-buffer pooled %llu bytes, traffic %.2f MiB/frame; "
                "unmerged: pooled %.2f MiB, lazy %.2f MiB, G-buffer pooled %.2f MiB, traffic %.2f MiB/frame",
                table, on.pooled / 1048576.0, on.lazy / 1048576.0, (unsigned long long)on.gbuffer_pooled,
                on.traffic / 1048576.0, off.pooled / 1048576.0, off.lazy / 1048576.0,
                off.gbuffer_pooled / 1048576.0, off.traffic / 1048576.0);
}

Test(rg_merge_tables, mali_keeps_the_gbuffer_on_chip)
{
    expect_on_chip("Mali, ARM proprietary ([1], [2] uncertain)", VK_DRIVER_ID_ARM_PROPRIETARY);
}

Test(rg_merge_tables, adreno_keeps_the_gbuffer_on_chip)
{
    expect_on_chip("Adreno 740 (partial: lazy 0x11 known, rest assumed)", VK_DRIVER_ID_QUALCOMM_PROPRIETARY);
}

/* MoltenVK: off by default; forced on, the G-buffer read across the
 * local-read barrier keeps real memory (MoltenVK would discard it). */
Test(rg_merge_tables, moltenvk_forced_on_keeps_the_gbuffer_in_memory)
{
    const char *apple = "Apple silicon, MoltenVK >= 1.2.9";
    outcome def = run(apple, VK_DRIVER_ID_MOLTENVK, RG_MERGE_AUTO);
    cr_expect_not(def.merged);
    outcome on = run(apple, VK_DRIVER_ID_MOLTENVK, RG_MERGE_ON);
    cr_expect(on.merged);
    cr_expect_eq(on.lazy_gbuffer, 1, "only the depth buffer, used before the barrier alone, is memoryless");
    cr_expect_gt(on.gbuffer_pooled, 0);
}
