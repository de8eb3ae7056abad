/* eng_pick_queues against the queue families of real devices, no device:
 * which queue serves async compute and copies under each policy. */
#include <criterion/criterion.h>
#include <engine/engine.h>

#define G VK_QUEUE_GRAPHICS_BIT
#define C VK_QUEUE_COMPUTE_BIT
#define T VK_QUEUE_TRANSFER_BIT
#define S VK_QUEUE_SPARSE_BINDING_BIT
#define NONE UINT32_MAX

static VkQueueFamilyProperties fam(VkQueueFlags flags, uint32_t queues)
{
    return (VkQueueFamilyProperties){ .queueFlags = flags, .queueCount = queues, .timestampValidBits = 64,
                                      .minImageTransferGranularity = { 1, 1, 1 } };
}

/* Picks and checks each kind's family and index (NONE: no queue). */
static void expect_pick(const VkQueueFamilyProperties *f, uint32_t n, uint32_t graphics, eng_queue_policy policy,
                        const uint32_t want_family[3], const uint32_t want_index[3], const char *what)
{
    static const char *const kinds[3] = { "graphics", "compute", "transfer" };
    eng_queue_choice got;
    eng_pick_queues(f, n, graphics, policy, &got);
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(got.family[k], want_family[k], "%s, %s: family %d, want %d", what, kinds[k], (int)got.family[k],
                     (int)want_family[k]);
        if (want_family[k] != NONE)
            cr_expect_eq(got.index[k], want_index[k], "%s, %s: queue %u, want %u", what, kinds[k], got.index[k],
                         want_index[k]);
    }
    /* No two kinds share a queue, and each index exists in its family. */
    for (int a = 0; a < 3; a++) {
        if (got.family[a] == NONE)
            continue;
        cr_expect_lt(got.index[a], f[got.family[a]].queueCount, "%s, %s: queue %u of %u", what, kinds[a],
                     got.index[a], f[got.family[a]].queueCount);
        for (int b = a + 1; b < 3; b++)
            cr_expect(got.family[b] != got.family[a] || got.index[b] != got.index[a], "%s: %s and %s share a queue",
                      what, kinds[a], kinds[b]);
    }
}

/* The H200 as tests/device/test_queues.c logs it (driver 580): a
 * graphics family of 16 queues, transfer-only families of 2 and 7 (one
 * with video decode), a compute-only family of 8, an optical-flow one. */
Test(queue_pick, h200_dedicated_families)
{
    const VkQueueFamilyProperties f[] = { fam(G | C | T | S, 16), fam(T | S, 2), fam(C | T | S, 8),
                                          fam(T | S | 0x20, 7), fam(T | S | 0x100, 1) };
    expect_pick(f, 5, 0, ENG_QUEUES_DEFAULT, (uint32_t[]){ 0, 2, 3 }, (uint32_t[]){ 0, 0, 0 }, "default");
    expect_pick(f, 5, 0, ENG_QUEUES_SINGLE, (uint32_t[]){ 0, NONE, NONE }, (uint32_t[]){ 0, 0, 0 }, "single");
    /* The graphics family's spares instead: queues 1 and 2 of family 0. */
    expect_pick(f, 5, 0, ENG_QUEUES_GRAPHICS_FAMILY, (uint32_t[]){ 0, 0, 0 }, (uint32_t[]){ 0, 1, 2 },
                "graphics family");
}

/* lavapipe: one family of one queue. Nothing beside graphics. */
Test(queue_pick, one_queue)
{
    const VkQueueFamilyProperties f[] = { fam(G | C | T, 1) };
    const uint32_t want[3] = { 0, NONE, NONE };
    expect_pick(f, 1, 0, ENG_QUEUES_DEFAULT, want, (uint32_t[]){ 0, 0, 0 }, "default");
    expect_pick(f, 1, 0, ENG_QUEUES_GRAPHICS_FAMILY, want, (uint32_t[]){ 0, 0, 0 }, "graphics family");
}

/* MoltenVK (MVKPhysicalDevice::getQueueFamilies): four families of one
 * queue each, one Metal command queue apiece, all general-purpose by
 * default; with specializedQueueFamilies graphics, compute and transfer
 * ones beside the general family. */
Test(queue_pick, moltenvk_families_of_one_queue)
{
    const VkQueueFamilyProperties general[] = { fam(G | C | T, 1), fam(G | C | T, 1), fam(G | C | T, 1),
                                                fam(G | C | T, 1) };
    expect_pick(general, 4, 0, ENG_QUEUES_DEFAULT, (uint32_t[]){ 0, 1, 2 }, (uint32_t[]){ 0, 0, 0 }, "general");
    /* No spare queue in family 0. */
    expect_pick(general, 4, 0, ENG_QUEUES_GRAPHICS_FAMILY, (uint32_t[]){ 0, NONE, NONE }, (uint32_t[]){ 0, 0, 0 },
                "general, graphics family");
    const VkQueueFamilyProperties special[] = { fam(G | C | T, 1), fam(G | T, 1), fam(C | T, 1), fam(T, 1) };
    expect_pick(special, 4, 0, ENG_QUEUES_DEFAULT, (uint32_t[]){ 0, 2, 3 }, (uint32_t[]){ 0, 0, 0 }, "specialized");
}

/* One family of several queues: by default nothing beside graphics (its
 * queues share the hardware by time slices); under the graphics-family
 * policy async compute and copies take its spares, and with two queues
 * copies have none. */
Test(queue_pick, one_family_of_several_queues)
{
    const VkQueueFamilyProperties two[] = { fam(G | C | T, 2) };
    expect_pick(two, 1, 0, ENG_QUEUES_DEFAULT, (uint32_t[]){ 0, NONE, NONE }, (uint32_t[]){ 0, 0, 0 }, "default");
    expect_pick(two, 1, 0, ENG_QUEUES_GRAPHICS_FAMILY, (uint32_t[]){ 0, 0, NONE }, (uint32_t[]){ 0, 1, 0 },
                "two queues");
    const VkQueueFamilyProperties three[] = { fam(G | C | T, 3) };
    expect_pick(three, 1, 0, ENG_QUEUES_GRAPHICS_FAMILY, (uint32_t[]){ 0, 0, 0 }, (uint32_t[]){ 0, 1, 2 },
                "three queues");
}

/* A graphics family of one queue and a compute-only family of four (no
 * transfer-only one): compute there, copies nowhere (the compute family is
 * taken). A family of zero queues is never taken. */
Test(queue_pick, compute_family_only)
{
    const VkQueueFamilyProperties f[] = { fam(G | C | T | S, 1), fam(C | T | S, 4), fam(T, 0) };
    expect_pick(f, 3, 0, ENG_QUEUES_DEFAULT, (uint32_t[]){ 0, 1, NONE }, (uint32_t[]){ 0, 0, 0 }, "default");
}

/* Preference: dedicated over shared, then the most queues, then the first;
 * the graphics family is the one the context picked, not family 0. */
Test(queue_pick, preference_order)
{
    const VkQueueFamilyProperties f[] = { fam(T, 1), fam(G | C | T, 4), fam(C, 2), fam(C | T, 2), fam(T, 3),
                                          fam(G | C | T, 8) };
    expect_pick(f, 6, 1, ENG_QUEUES_DEFAULT, (uint32_t[]){ 1, 2, 4 }, (uint32_t[]){ 0, 0, 0 }, "dedicated");
    const VkQueueFamilyProperties shared[] = { fam(G | C | T, 1), fam(G | C | T, 2), fam(G | C | T, 5),
                                               fam(G | C | T, 5) };
    expect_pick(shared, 4, 1, ENG_QUEUES_DEFAULT, (uint32_t[]){ 1, 2, 3 }, (uint32_t[]){ 0, 0, 0 }, "shared");
}

/* Bad input: nothing, graphics included, and no crash. */
Test(queue_pick, bad_input)
{
    const VkQueueFamilyProperties f[] = { fam(G | C | T, 2), fam(C, 0) };
    const uint32_t none[3] = { NONE, NONE, NONE };
    expect_pick(NULL, 2, 0, ENG_QUEUES_DEFAULT, none, (uint32_t[]){ 0, 0, 0 }, "no families");
    expect_pick(f, 0, 0, ENG_QUEUES_DEFAULT, none, (uint32_t[]){ 0, 0, 0 }, "count 0");
    expect_pick(f, 2, 2, ENG_QUEUES_DEFAULT, none, (uint32_t[]){ 0, 0, 0 }, "graphics out of range");
    expect_pick(f, 2, 1, ENG_QUEUES_DEFAULT, none, (uint32_t[]){ 0, 0, 0 }, "graphics family of no queues");
    eng_pick_queues(f, 2, 0, ENG_QUEUES_DEFAULT, NULL);
}
