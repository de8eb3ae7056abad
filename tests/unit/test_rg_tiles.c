/* Tile profiles (rendergraph.h, rg_tile_profile; docs/tiles.md),
 * device-free: for each profile with a per-pixel budget a G-buffer and
 * lighting pair that fits merges and one that does not stays apart with
 * the arithmetic in the reason; profiles without a budget merge both; a
 * span over Apple's hard limit is a compile error naming it; detection
 * picks the profile from IDs real drivers report. */
#include "rg_unit.h"
#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>

/* A G-buffer span of up to four colour targets and a lighting span that
 * reads them pixel-locally and writes hdr; then a pass samples hdr. */
typedef struct tile_frame {
    rg_tile_profile profile;
    VkFormat gbuffer[5];              /* VK_FORMAT_UNDEFINED ends the list */
    VkFormat hdr;
    VkSampleCountFlagBits samples;    /* 0: 1 */
} tile_frame;

static rg_texture target(rg_graph *g, const char *name, VkFormat format, VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = 64, .height = 64,
                                                  .samples = samples});
}

static rg_graph *tile_graph(const tile_frame *f)
{
    rg_device_caps caps = {.local_read = true, .local_read_multisampled = true, .tile_profile = f->profile};
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "tiles", .caps = &caps, .merge = RG_MERGE_ON,
                                                  .no_culling = true}, &g),
                 RG_SUCCESS);
    VkSampleCountFlagBits samples = f->samples ? f->samples : VK_SAMPLE_COUNT_1_BIT;
    rg_rendering_desc gb = {.name = "gbuffer"};
    rg_access reads[4];
    static const char *names[] = {"albedo", "normal", "material", "motion"};
    for (uint32_t i = 0; i < 4 && f->gbuffer[i] != VK_FORMAT_UNDEFINED; i++) {
        rg_texture t = target(g, names[i], f->gbuffer[i], samples);
        gb.colors[gb.color_count++] = (rg_attachment){.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR};
        reads[i] = TEX(t, RG_USAGE_PIXEL_LOCAL_READ);
    }
    rg_begin_rendering(g, &gb);
    test_draw(g, "draw scene", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    rg_texture hdr = target(g, "hdr", f->hdr, samples);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                               .colors = {{.texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    test_cmd(g, "light", RG_COMMAND_DRAW, reads, gb.color_count);
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "post", .color_count = 1,
                                               .colors = {{.texture = test_color(g, "ldr"),
                                                           .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    test_draw(g, "tonemap", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    return g;
}

/* The G-buffer and lighting pair's merge note after compile. */
static rg_merge_info pair_note(rg_graph *g)
{
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    for (uint32_t i = 0; i < rg_merge_count(g); i++) {
        rg_merge_info m;
        cr_assert_eq(rg_merge_get(g, i, &m), RG_SUCCESS);
        rg_command_info first;
        cr_assert_eq(rg_command_get_info(g, m.first, &first), RG_SUCCESS);
        if (strcmp(first.name, "gbuffer") == 0)
            return m;
    }
    cr_assert_fail("no merge note for the G-buffer");
    return (rg_merge_info){0};
}

#define F(...) {__VA_ARGS__, VK_FORMAT_UNDEFINED}
#define RGBA8 VK_FORMAT_R8G8B8A8_UNORM
#define RGBA16F VK_FORMAT_R16G16B16A16_SFLOAT
#define RGBA32F VK_FORMAT_R32G32B32A32_SFLOAT
#define RGBA64 VK_FORMAT_R64G64B64A64_UINT

/* Per profile with a budget: a pair that fits exactly at the budget, and
 * the smallest step over it, each span alone within it (so the hard
 * profiles refuse the merge, not the spans). */
typedef struct budget_case {
    rg_tile_profile profile;
    tile_frame fits, over;
    const char *reason;               /* the over case's reason, whole */
} budget_case;

static const budget_case budgets[] = {
    {RG_TILE_APPLE2, {.gbuffer = F(RGBA32F, RGBA8, RGBA8), .hdr = RGBA16F},
     {.gbuffer = F(RGBA32F, RGBA32F), .hdr = RGBA8},
     "the instance would need 36 B of colour per pixel per sample (3 attachments); Apple2-3 holds 32 B per sample, "
     "the driver refuses more"},
    {RG_TILE_APPLE4, {.gbuffer = F(RGBA64, RGBA16F), .hdr = RGBA16F},
     {.gbuffer = F(RGBA64, RGBA64), .hdr = RGBA8},
     "the instance would need 68 B of colour per pixel per sample (3 attachments); Apple4-6 holds 64 B per sample, "
     "the driver refuses more"},
    {RG_TILE_APPLE7, {.gbuffer = F(RGBA64, RGBA64, RGBA64), .hdr = RGBA64},
     {.gbuffer = F(RGBA64, RGBA64, RGBA64, RGBA64), .hdr = RGBA8},
     "the instance would need 132 B of colour per pixel per sample (5 attachments); Apple7+ holds 128 B per sample, "
     "the driver refuses more"},
    {RG_TILE_MALI_G71, {.gbuffer = F(RGBA8), .hdr = RGBA8},
     {.gbuffer = F(RGBA8, RGBA8), .hdr = RGBA8},
     "the instance would need 12 B of colour per pixel (12 B per sample x 1 sample, 3 attachments); Mali-G71 holds "
     "8 B per pixel in a 16x16 tile, beyond it the tile shrinks"},
    {RG_TILE_MALI_BIFROST, {.gbuffer = F(RGBA8), .hdr = RGBA8, .samples = VK_SAMPLE_COUNT_2_BIT},
     {.gbuffer = F(RGBA8, RGBA8), .hdr = RGBA8, .samples = VK_SAMPLE_COUNT_2_BIT},
     "the instance would need 24 B of colour per pixel (12 B per sample x 2 samples, 3 attachments); Mali Bifrost "
     "(as Mali-G72) holds 16 B per pixel in a 16x16 tile, beyond it the tile shrinks"},
    {RG_TILE_MALI_VALHALL, {.gbuffer = F(RGBA16F, RGBA16F, RGBA16F), .hdr = RGBA16F},
     {.gbuffer = F(RGBA16F, RGBA16F, RGBA16F), .hdr = RGBA32F},
     "the instance would need 40 B of colour per pixel (40 B per sample x 1 sample, 4 attachments); Mali Valhall "
     "(as Mali-G57) holds 32 B per pixel in a 16x16 tile, beyond it the tile shrinks"},
    /* Mali-G610: a 32 KiB colour buffer, half of it over 16x16 is 64 B. */
    {RG_TILE_MALI_G610, {.gbuffer = F(RGBA32F, RGBA32F, RGBA32F), .hdr = RGBA32F},
     {.gbuffer = F(RGBA32F, RGBA32F, RGBA32F, RGBA16F), .hdr = RGBA32F},
     "the instance would need 72 B of colour per pixel (72 B per sample x 1 sample, 5 attachments); "
     "Mali-G610/G710/G615/G715 holds 64 B per pixel in a 16x16 tile, beyond it the tile shrinks"},
    {RG_TILE_MALI_G720, {.gbuffer = F(RGBA64, RGBA64, RGBA64), .hdr = RGBA64},
     {.gbuffer = F(RGBA64, RGBA64, RGBA64, RGBA64), .hdr = RGBA8},
     "the instance would need 132 B of colour per pixel (132 B per sample x 1 sample, 5 attachments); "
     "Mali-G720/G725 holds 128 B per pixel in a 16x16 tile, beyond it the tile shrinks"},
};

Test(rg_tiles, a_gbuffer_within_the_budget_merges_and_one_over_it_is_refused_with_the_arithmetic)
{
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        const budget_case *c = &budgets[i];
        rg_tile_info t = rg_tile_profile_info(c->profile);
        tile_frame fits = c->fits, over = c->over;
        fits.profile = over.profile = c->profile;
        rg_graph *g = tile_graph(&fits);
        rg_merge_info m = pair_note(g);
        cr_expect(m.merged, "%s: the pair within %u B was not merged: %s", t.name, t.color_bytes, m.reason);
        rg_graph_destroy(g);
        g = tile_graph(&over);
        m = pair_note(g);
        cr_expect_not(m.merged, "%s: the pair over %u B was merged", t.name, t.color_bytes);
        cr_expect_str_eq(m.reason, c->reason, "%s", t.name);
        rg_graph_destroy(g);
    }
}

Test(rg_tiles, profiles_without_a_budget_merge_any_gbuffer)
{
    static const rg_tile_profile unbounded[] = {RG_TILE_AUTO, RG_TILE_DESKTOP, RG_TILE_ADRENO6, RG_TILE_ADRENO7};
    for (size_t i = 0; i < sizeof unbounded / sizeof unbounded[0]; i++) {
        tile_frame f = {.profile = unbounded[i], .gbuffer = F(RGBA64, RGBA64, RGBA64, RGBA64), .hdr = RGBA64,
                        .samples = VK_SAMPLE_COUNT_4_BIT};
        rg_graph *g = tile_graph(&f);
        rg_merge_info m = pair_note(g);
        cr_expect(m.merged, "%s: %s", rg_tile_profile_info(unbounded[i]).name, m.reason);
        rg_graph_destroy(g);
    }
}

Test(rg_tiles, a_span_over_a_hard_limit_is_a_compile_error_naming_it)
{
    tile_frame f = {.profile = RG_TILE_APPLE2, .gbuffer = F(RGBA32F, RGBA32F, RGBA8), .hdr = RGBA8};
    rg_graph *g = tile_graph(&f);
    cr_assert_eq(rg_compile(g), RG_ERROR_UNSUPPORTED);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "span 'gbuffer' (colour 'albedo', 'normal', 'material') needs 36 B of colour per pixel per "
                     "sample (3 attachments); Apple2-3 holds 32 B per sample, the driver refuses more: the device "
                     "cannot render it; use fewer or smaller colour attachments");
    rg_graph_destroy(g);
    /* Over Mali's budget a span still renders (in smaller tiles). */
    f.profile = RG_TILE_MALI_G71;
    g = tile_graph(&f);
    cr_expect_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

static bool any_size(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                     VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index;
    *size = 64 * 64 * 32;
    *alignment = 256;
    *type_bits = 1;
    *dedicated = false;
    return true;
}

/* The memory report of the pair under profile p (placed offline). */
static char *report_of_frame(const tile_frame *frame);

static char *report_of(rg_tile_profile p)
{
    return report_of_frame(&(tile_frame){.profile = p, .gbuffer = F(RGBA8, RGBA8), .hdr = RGBA16F});
}

static char *report_of_frame(const tile_frame *frame)
{
    tile_frame f = *frame;
    rg_graph *g = tile_graph(&f);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    VkPhysicalDeviceMemoryProperties props = {.memoryTypeCount = 1,
                                              .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}},
                                              .memoryHeapCount = 1,
                                              .memoryHeaps = {{1ull << 32, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}}};
    cr_assert_eq(rg_place_offline(g, &props, any_size, NULL), RG_SUCCESS, "%s", rg_graph_error_message(g));
    FILE *out = test_text_open();
    cr_assert_not_null(out);
    cr_assert_eq(rg_memory_report_print(g, out), RG_SUCCESS);
    rg_graph_destroy(g);
    return test_text_close(out);
}

Test(rg_tiles, the_memory_report_names_the_profile_and_what_each_instance_keeps_in_the_tile)
{
    char *text = report_of(RG_TILE_APPLE7);
    cr_expect(strstr(text, "tile profile Apple7+: what each rendering instance costs its GPU"), "%s", text);
    cr_expect(strstr(text, "'gbuffer + lighting' (merged): 64x64x1, 1 sample, colour 16 B + depth 0 B per pixel per "
                           "sample: tile 32x32 (full)"), "%s", text);
    cr_expect(strstr(text, "    albedo: transient, pooled (no lazily allocated type)\n"), "%s", text);
    cr_expect(strstr(text, "    hdr: pooled: 'tonemap' uses it other than as an attachment (usage SAMPLED)\n"),
              "%s", text);
    free(text);
    /* Mali shrinks the tile, never refuses: 24 B on Mali-G71 (half of
     * 4 KiB: 2048 B) keeps 8x8 (1536 B; 16x8 would take 3072). */
    text = report_of_frame(&(tile_frame){.profile = RG_TILE_MALI_G71, .gbuffer = F(RGBA16F, RGBA16F, RGBA16F),
                                         .hdr = RGBA8});
    cr_expect(strstr(text, "colour 24 B + depth 0 B per pixel per sample: tile 8x8 (shrunk)"), "%s", text);
    free(text);
    /* Adreno: bins of GMEM (64x64 pixels of 16 B in one 1 MiB bin). */
    text = report_of(RG_TILE_ADRENO6);
    cr_expect(strstr(text, "colour 16 B + depth 0 B per pixel per sample: 1 bin of 1024 KiB of GMEM"), "%s", text);
    free(text);
}

Test(rg_tiles, an_unknown_profile_is_refused_at_graph_creation)
{
    rg_device_caps caps = {.tile_profile = RG_TILE_PROFILE_COUNT};
    rg_graph *g = NULL;
    cr_expect_eq(rg_graph_create(&(rg_graph_desc){.name = "bad", .caps = &caps}, &g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(g);
    cr_expect_str_eq(rg_tile_profile_info(RG_TILE_PROFILE_COUNT).name, "unknown");
}

/* IDs as drivers report them, each with where it comes from. */
typedef struct seen_device {
    const char *what;
    uint32_t vendor, device;
    VkDriverId driver;
    rg_tile_profile profile;
} seen_device;

static const seen_device devices[] = {
    /* MoltenVK: deviceID = OS major << 24 | minor << 16 | Mac family << 8 |
     * Apple family (MVKPhysicalDevice::getHighestGPUCapability). */
    {"M1 (Apple7), macOS 14.0", 0x106B, 0x0E000207, VK_DRIVER_ID_MOLTENVK, RG_TILE_APPLE7},
    {"M3 (Apple9), macOS 15.1", 0x106B, 0x0F010209, VK_DRIVER_ID_MOLTENVK, RG_TILE_APPLE7},
    {"A12 (Apple5), iOS 17", 0x106B, 0x11000005, VK_DRIVER_ID_MOLTENVK, RG_TILE_APPLE4},
    {"A10 (Apple3), iOS 15", 0x106B, 0x0F000003, VK_DRIVER_ID_MOLTENVK, RG_TILE_APPLE2},
    /* A Radeon in an Intel Mac through MoltenVK: PCI IDs. */
    {"Radeon Pro 5500M, MoltenVK", 0x1002, 0x7340, VK_DRIVER_ID_MOLTENVK, RG_TILE_DESKTOP},
    /* Arm: the GPU_ID register; products as in Linux panfrost's table
     * (0x6000 G71, 0x6001 G72, 0x7002 G52 after masking with 0xf00f) and
     * MediaTek's Genio documentation (0x9091: Mali-G57). */
    {"Mali-G71", 0x13B5, 0x60000000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G71},
    {"Mali-G72", 0x13B5, 0x62210000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G72},
    {"Mali-G52", 0x13B5, 0x72120000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G76},
    {"Mali-G76", 0x13B5, 0x72110000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G76},
    {"Mali-G57", 0x13B5, 0x90910010, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G57},
    /* Mesa's pan_model.c: 0xa867 G610 (v10), 0xac74 G310. */
    {"Mali-G610", 0x13B5, 0xa8670000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G610},
    {"Mali-G310", 0x13B5, 0xac740000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G310},
    {"Mali-G720 (v12)", 0x13B5, 0xc8700000, VK_DRIVER_ID_ARM_PROPRIETARY, RG_TILE_MALI_G720},
    /* Qualcomm: the chip ID, as in the Linux msm driver's catalog. */
    {"Adreno 630", 0x5143, 0x06030001, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO6},
    {"Adreno 660", 0x5143, 0x06060001, VK_DRIVER_ID_MESA_TURNIP, RG_TILE_ADRENO6},
    {"Adreno 730", 0x5143, 0x07030001, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO7},
    {"Adreno 740", 0x5143, 0x43050A01, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO7},
    {"Adreno 840", 0x5143, 0x44050A31, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO_A840},
    {"Adreno X2-85", 0x5143, 0x44070041, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO_X2_85},
    {"Adreno 810", 0x5143, 0x44010000, VK_DRIVER_ID_QUALCOMM_PROPRIETARY, RG_TILE_ADRENO_A810},
    /* Desktop GPUs (PCI IDs) and the CPU device CI runs on. */
    {"NVIDIA H200", 0x10DE, 0x2335, VK_DRIVER_ID_NVIDIA_PROPRIETARY, RG_TILE_DESKTOP},
    {"Radeon RX 7900 XTX", 0x1002, 0x744C, VK_DRIVER_ID_AMD_PROPRIETARY, RG_TILE_DESKTOP},
    {"lavapipe", 0x10005, 0x0000, VK_DRIVER_ID_MESA_LLVMPIPE, RG_TILE_DESKTOP},
};

/* Each family's row names its driver, and what RG_MERGE_AUTO does there is
 * what rg_merge_by_default says of that driver; desktop has none. */
Test(rg_tiles, each_row_carries_its_driver_and_merge_default)
{
    for (int p = RG_TILE_AUTO; p < RG_TILE_PROFILE_COUNT; p++) {
        rg_tile_info t = rg_tile_profile_info((rg_tile_profile)p);
        bool tile = p != RG_TILE_AUTO && p != RG_TILE_DESKTOP;
        cr_expect_eq(t.driver != 0, tile, "%s: driver %d", t.name, (int)t.driver);
        cr_expect_eq(t.merges, tile && rg_merge_by_default(t.driver), "%s", t.name);
    }
    cr_expect_eq(rg_tile_profile_info(RG_TILE_APPLE7).driver, VK_DRIVER_ID_MOLTENVK);
    cr_expect_eq(rg_tile_profile_info(RG_TILE_MALI_VALHALL).driver, VK_DRIVER_ID_ARM_PROPRIETARY);
    cr_expect_eq(rg_tile_profile_info(RG_TILE_ADRENO7).driver, VK_DRIVER_ID_QUALCOMM_PROPRIETARY);
    cr_expect_not(rg_tile_profile_info(RG_TILE_APPLE7).merges, "MoltenVK restarts the Metal pass at local read");
}

Test(rg_tiles, detection_picks_the_profile_from_real_ids)
{
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        const seen_device *d = &devices[i];
        rg_tile_profile p = rg_tile_profile_detect(d->vendor, d->device, d->driver);
        cr_expect_eq(p, d->profile, "%s: %s, expected %s", d->what, rg_tile_profile_info(p).name,
                     rg_tile_profile_info(d->profile).name);
    }
}
