/* Tile profiles (rendergraph.h, rg_tile_profile): what each family of
 * tile GPUs holds per pixel, and which family a device is by its IDs.
 * docs/tiles.md gives the source of every value; a value no vendor
 * publishes is 0 here, never guessed.
 */
#include "base/base.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* Each family's driver, and whether merging is on by default there
 * (rg_merge_by_default: a unit test holds the two together). */
#define APPLE .driver = VK_DRIVER_ID_MOLTENVK, .merges = false
#define MALI .driver = VK_DRIVER_ID_ARM_PROPRIETARY, .merges = true
#define ADRENO .driver = VK_DRIVER_ID_QUALCOMM_PROPRIETARY, .merges = true

static const rg_tile_info profiles[RG_TILE_PROFILE_COUNT] = {
    [RG_TILE_AUTO] = {.name = "auto", .key = "auto"},
    [RG_TILE_DESKTOP] = {.name = "desktop", .key = "desktop"},
    /* Metal feature set tables: colour render-target storage per pixel per
     * sample; Metal refuses a pass beyond it. Memoryless render targets
     * from Apple2 on. */
    [RG_TILE_APPLE2] = {.name = "Apple2-3", .key = "apple2",
                        .color_bytes = 32, .per_sample = true, .hard = true, .lazy_memory = true, APPLE},
    [RG_TILE_APPLE4] = {.name = "Apple4-6", .key = "apple4",
                        .color_bytes = 64, .per_sample = true, .hard = true, .lazy_memory = true, APPLE},
    [RG_TILE_APPLE7] = {.name = "Apple7+", .key = "apple7",
                        .color_bytes = 128, .per_sample = true, .hard = true, .lazy_memory = true, APPLE},
    /* Arm's Mali best practices: 16x16 tiles; colour up to 128 bits per
     * pixel (256 from Mali-G72) keeps the full tile, beyond it the driver
     * shrinks the tile. Lazily allocated memory is backed on demand. */
    [RG_TILE_MALI_G71] = {.name = "Mali-G71", .key = "mali-g71",
                          .color_bytes = 16, .tile_width = 16, .tile_height = 16, .lazy_memory = true, MALI},
    [RG_TILE_MALI_BIFROST] = {.name = "Mali-G72+ (Bifrost)", .key = "mali-bifrost",
                              .color_bytes = 32, .tile_width = 16, .tile_height = 16, .lazy_memory = true, MALI},
    [RG_TILE_MALI_VALHALL] = {.name = "Mali Valhall+", .key = "mali-valhall",
                              .color_bytes = 32, .tile_width = 16, .tile_height = 16, .lazy_memory = true, MALI},
    /* Adreno: the frame is binned to fit GMEM, so no per-pixel limit;
     * typical GMEM from the Linux msm driver's catalog (A630/A640, A730). */
    [RG_TILE_ADRENO6] = {.name = "Adreno 6xx", .key = "adreno6", .tile_memory = 1 * MIB, .lazy_memory = true, ADRENO},
    [RG_TILE_ADRENO7] = {.name = "Adreno 7xx", .key = "adreno7", .tile_memory = 2 * MIB, .lazy_memory = true, ADRENO},
};

rg_tile_info rg_tile_profile_info(rg_tile_profile profile)
{
    if ((unsigned)profile >= RG_TILE_PROFILE_COUNT)
        return (rg_tile_info){.name = "unknown", .key = "unknown"};
    return profiles[profile];
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
 * (6 and 7 Bifrost, 9 and later Valhall and after), and masked with 0xf00f
 * it names the model as the Linux panfrost driver's table does (0x6000:
 * G71, 0x6001: G72). */
static rg_tile_profile mali(uint32_t device_id)
{
    uint32_t product = device_id > 0xFFFF ? device_id >> 16 : device_id;
    uint32_t arch = product >> 12;
    if ((product & 0xf00f) == 0x6000)
        return RG_TILE_MALI_G71;
    if (arch == 6 || arch == 7)
        return RG_TILE_MALI_BIFROST;
    return arch >= 9 ? RG_TILE_MALI_VALHALL : RG_TILE_DESKTOP;
}

/* Qualcomm's drivers report the chip ID (0x06030001: Adreno 630; the 7xx
 * generation 2 and 3 chips start 0x43). */
static rg_tile_profile adreno(uint32_t device_id)
{
    uint32_t major = device_id >> 24;
    if (major == 6)
        return RG_TILE_ADRENO6;
    if (major == 7 || major == 0x43)
        return RG_TILE_ADRENO7;
    return RG_TILE_DESKTOP;
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
