/* Tile profiles (rendergraph.h, rg_tile_profile): what each family of
 * tile GPUs holds per pixel, and which family a device is by its IDs.
 * docs/tiles.md gives the source of every value; a value no vendor
 * publishes is 0 here, never guessed.
 */
#include "base/base.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* Each family's driver, and whether merging is on by default there
 * (rg_merge_by_default: a unit test holds the two together). Arm's and
 * Qualcomm's drivers offer VK_EXT_multisampled_render_to_single_sampled;
 * MoltenVK's list of extensions (its runtime user guide) does not. */
#define APPLE .driver = VK_DRIVER_ID_MOLTENVK, .merges = false, .lazy_memory = true
#define MALI .driver = VK_DRIVER_ID_ARM_PROPRIETARY, .merges = true, .lazy_memory = true, .msaa_fold = true
#define ADRENO .driver = VK_DRIVER_ID_QUALCOMM_PROPRIETARY, .merges = true, .lazy_memory = true, .msaa_fold = true

/* A Mali model: its colour and depth tile buffers per core and its largest
 * tile. Half of each buffer holds a tile (the other half pipelines the
 * next), so the merge gate is the colour a 16x16 tile holds in that half. */
#define MALI_ROW(model_name, model_key, color_kib, depth_kib, tile)                                             \
    {.name = model_name, .key = model_key, .color_bytes = (color_kib) * 1024 / 2 / 256,                       \
     .tile_width = tile, .tile_height = tile, .tile_memory = (color_kib) * KIB, .depth_memory = (depth_kib) * KIB, \
     MALI}

static const rg_tile_info profiles[RG_TILE_PROFILE_COUNT] = {
    [RG_TILE_AUTO] = {.name = "auto", .key = "auto"},
    [RG_TILE_DESKTOP] = {.name = "desktop", .key = "desktop"},
    /* Metal feature set tables: colour render-target storage per pixel per
     * sample, refused beyond it. Apple7 (A14, M1): 32 KiB of colour per
     * tile, tiles of 32x32, 32x16 or 16x16, beyond it render targets spill
     * to memory (Asahi's agx_tilebuffer.c); earlier families' tile
     * budgets are not published. */
    [RG_TILE_APPLE2] = {.name = "Apple2-3", .key = "apple2", .color_bytes = 32, .hard = true, APPLE},
    [RG_TILE_APPLE4] = {.name = "Apple4-6", .key = "apple4", .color_bytes = 64, .hard = true, APPLE},
    [RG_TILE_APPLE7] = {.name = "Apple7+", .key = "apple7", .color_bytes = 128, .hard = true, .tile_width = 32,
                        .tile_height = 32, .tile_memory = 32 * KIB, APPLE},
    /* Mali: Mesa's panfrost model table (colour, depth KiB per core; the
     * largest tile by architecture: 16x16 before v10, 32x32 on v10-v11,
     * 64x64 from v12). The family names answer as their smallest model. */
    [RG_TILE_MALI_G71] = MALI_ROW("Mali-G71", "mali-g71", 4, 4, 16),
    [RG_TILE_MALI_G72] = MALI_ROW("Mali-G72", "mali-g72", 8, 4, 16),
    [RG_TILE_MALI_G76] = MALI_ROW("Mali-G76/G52/G51/G31", "mali-g76", 16, 8, 16),
    [RG_TILE_MALI_G57] = MALI_ROW("Mali-G57/G68/G77/G78", "mali-g57", 16, 8, 16),
    [RG_TILE_MALI_G310] = MALI_ROW("Mali-G310/G510", "mali-g310", 16, 16, 32),
    [RG_TILE_MALI_G610] = MALI_ROW("Mali-G610/G710/G615/G715", "mali-g610", 32, 32, 32),
    [RG_TILE_MALI_G720] = MALI_ROW("Mali-G720/G725", "mali-g720", 64, 64, 64),
    [RG_TILE_MALI_BIFROST] = MALI_ROW("Mali Bifrost (as Mali-G72)", "mali-bifrost", 8, 4, 16),
    [RG_TILE_MALI_VALHALL] = MALI_ROW("Mali Valhall (as Mali-G57)", "mali-valhall", 16, 8, 16),
    /* Adreno: the frame is binned to fit GMEM, so no per-pixel limit; GMEM
     * from the Linux msm driver's catalog (a6xx_catalog.c): A630/A640 for
     * 6xx, A730 for 7xx, and the 8xx models. */
    [RG_TILE_ADRENO6] = {.name = "Adreno 6xx", .key = "adreno6", .tile_memory = 1 * MIB, ADRENO},
    [RG_TILE_ADRENO7] = {.name = "Adreno 7xx", .key = "adreno7", .tile_memory = 2 * MIB, ADRENO},
    [RG_TILE_ADRENO_A810] = {.name = "Adreno 810", .key = "adreno-a810", .tile_memory = 576 * KIB, ADRENO},
    [RG_TILE_ADRENO_A840] = {.name = "Adreno 840", .key = "adreno-a840", .tile_memory = 18 * MIB, ADRENO},
    [RG_TILE_ADRENO_X2_85] = {.name = "Adreno X2-85", .key = "adreno-x2-85", .tile_memory = 21 * MIB, ADRENO},
};

/* The family names and the model each answers as. */
static const char *alias_of(rg_tile_profile p)
{
    return p == RG_TILE_MALI_BIFROST ? "mali-g72" : p == RG_TILE_MALI_VALHALL ? "mali-g57" : NULL;
}

rg_tile_info rg_tile_profile_info(rg_tile_profile profile)
{
    if ((unsigned)profile >= RG_TILE_PROFILE_COUNT)
        return (rg_tile_info){.name = "unknown", .key = "unknown"};
    rg_tile_info t = profiles[profile];
    t.alias_of = alias_of(profile);
    return t;
}

enum { VENDOR_APPLE = 0x106B, VENDOR_ARM = 0x13B5, VENDOR_QUALCOMM = 0x5143 };

/* MoltenVK on Apple silicon reports the highest Apple GPU family in the
 * deviceID's low byte (MVKPhysicalDevice::getHighestGPUCapability). */
static rg_tile_profile apple(uint32_t device_id, VkDriverId driver)
{
    uint32_t family = device_id & 0xFF;
    if (driver != VK_DRIVER_ID_MOLTENVK || family == 0)
        return RG_TILE_DESKTOP; /* an AMD or Intel GPU in a Mac */
    return family >= 7 ? RG_TILE_APPLE7 : family >= 4 ? RG_TILE_APPLE4 : RG_TILE_APPLE2;
}

/* Arm's driver reports the GPU_ID register, the product ID in its high
 * half (0x9091: a Mali-G57); the product's top nibble is the architecture
 * and masked with 0xf00f it names the model as Mesa's panfrost table does
 * (0x6000 G71, 0x6001 G72; 0xa004 G310, 0xa003 G510). Models without a
 * row take the row of their architecture's: v7 G76, v9 G57, v10-v11 G610,
 * v12 and later G720. */
static rg_tile_profile mali(uint32_t device_id)
{
    uint32_t product = device_id > 0xFFFF ? device_id >> 16 : device_id;
    uint32_t arch = product >> 12, model = product & 0xf00f;
    switch (arch) {
    case 6: return model == 0x6000 ? RG_TILE_MALI_G71 : RG_TILE_MALI_G72;
    case 7: return RG_TILE_MALI_G76;
    case 9: return RG_TILE_MALI_G57;
    case 10: return model == 0xa004 || model == 0xa003 ? RG_TILE_MALI_G310 : RG_TILE_MALI_G610;
    case 11: return RG_TILE_MALI_G610;
    default: return arch >= 12 ? RG_TILE_MALI_G720 : RG_TILE_DESKTOP;
    }
}

/* Qualcomm's drivers report the chip ID (0x06030001: Adreno 630; the 7xx
 * generation 2 and 3 chips start 0x43, the 8xx 0x44: 0x44050a01 A840,
 * 0x44070001 X2-85, 0x44010000 A810 as the msm catalog and device tree
 * bindings name them; another 8xx chip answers as the A810, the smallest). */
static rg_tile_profile adreno(uint32_t device_id)
{
    uint32_t major = device_id >> 24;
    if (major == 6)
        return RG_TILE_ADRENO6;
    if (major == 7 || major == 0x43)
        return RG_TILE_ADRENO7;
    if (major == 0x44 && (device_id & 0xffff0000) == 0x44050000)
        return RG_TILE_ADRENO_A840;
    if (major == 0x44 && (device_id & 0xffff0000) == 0x44070000)
        return RG_TILE_ADRENO_X2_85;
    return major == 0x44 ? RG_TILE_ADRENO_A810 : RG_TILE_DESKTOP;
}

rg_tile_profile rg_tile_profile_detect(uint32_t vendor_id, uint32_t device_id, VkDriverId driver)
{
    switch (vendor_id) {
    case VENDOR_APPLE: return apple(device_id, driver);
    case VENDOR_ARM: return mali(device_id);
    case VENDOR_QUALCOMM: return adreno(device_id);
    default: return RG_TILE_DESKTOP;
    }
}

/* GMEM of Adreno chips by chip ID (Linux drivers/gpu/drm/msm/adreno/
 * a6xx_catalog.c). */
static const struct {
    uint32_t chip;
    uint64_t gmem;
} gmem_of[] = {
    {0x06010000, 128 * KIB + 4 * KIB}, /* A610 */
    {0x06010800, 512 * KIB},           /* A615, A618 */
    {0x06010900, 512 * KIB},           /* A619 */
    {0x06030001, 1 * MIB},             /* A630 */
    {0x06030002, 1 * MIB},             /* A630 */
    {0x06030500, 512 * KIB},           /* A7c3 */
    {0x06040001, 1 * MIB},             /* A640 */
    {0x06050002, 1 * MIB + 128 * KIB}, /* A650 */
    {0x06060001, 1 * MIB + 512 * KIB}, /* A660 */
    {0x06080001, 2 * MIB},             /* A680 */
    {0x06090000, 4 * MIB},             /* A690 */
    {0x07000200, 128 * KIB},           /* A702 */
    {0x07030001, 2 * MIB},             /* A730 */
    {0x43050a01, 3 * MIB},             /* A740 */
    {0x43051401, 3 * MIB},             /* A750 */
};

uint64_t rg__tile_memory_of(uint32_t vendor_id, uint32_t device_id)
{
    for (size_t i = 0; vendor_id == VENDOR_QUALCOMM && i < sizeof gmem_of / sizeof gmem_of[0]; i++)
        if (gmem_of[i].chip == device_id)
            return gmem_of[i].gmem;
    return 0;
}

rg_tile_info rg__tile_of(const rg_device_caps *caps)
{
    rg_tile_info t = rg_tile_profile_info(caps->tile_profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : caps->tile_profile);
    if (caps->tile_memory)
        t.tile_memory = caps->tile_memory;
    return t;
}
