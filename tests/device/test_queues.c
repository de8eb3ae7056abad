/* The context's queues: the families and queues it takes for async
 * compute and copies, compared with eng_pick_queues over what the device
 * reports, under each policy; the fallback to the graphics queue where the
 * device has one queue (lavapipe) or the context asks for single_queue;
 * work submitted and waited on each queue it has; and timeline semaphores,
 * which the context enables. Nothing skips: a device without extra queues
 * checks the fallback instead. */
#include "device_fixture.h"
#include "test_barrier.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(queues, .init = device_setup, .fini = device_teardown);

static const char *const kind_names[ENG_QUEUE_KIND_COUNT] = { "graphics", "compute", "transfer" };

/* The device's queue families, asked here rather than through the engine;
 * the caller frees them. */
static VkQueueFamilyProperties *device_families(eng_context *ctx, uint32_t *count)
{
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, count, NULL);
    VkQueueFamilyProperties *f = calloc(*count ? *count : 1, sizeof *f);
    cr_assert_not_null(f);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, count, f);
    return f;
}

/* The context takes the queues eng_pick_queues picks from the device's
 * families under the policy ENG_QUEUES names (the default unset): each
 * kind's family, a queue distinct from the others'; graphics is
 * eng_context_queue(). */
DEVICE_TEST(queues, families_match_device)
{
    eng_context *ctx = test_ctx;
    uint32_t n = 0;
    VkQueueFamilyProperties *f = device_families(ctx, &n);
    cr_log_info("%s: %u queue families", eng_context_properties(ctx)->deviceName, n);
    for (uint32_t i = 0; i < n; i++)
        cr_log_info("  family %u: flags 0x%x, %u queues", i, (unsigned)f[i].queueFlags, f[i].queueCount);
    const char *env = getenv("ENG_QUEUES");
    eng_queue_policy policy = !env                             ? ENG_QUEUES_DEFAULT
                              : !strcmp(env, "single")          ? ENG_QUEUES_SINGLE
                              : !strcmp(env, "graphics-family") ? ENG_QUEUES_GRAPHICS_FAMILY
                                                                : ENG_QUEUES_DEFAULT;
    eng_queue_choice want;
    eng_pick_queues(f, n, eng_context_queue_family(ctx), policy, &want);

    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue(ctx));
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue_family(ctx));
    for (eng_queue_kind k = ENG_QUEUE_GRAPHICS; k < ENG_QUEUE_KIND_COUNT; k++) {
        VkQueue q = eng_context_queue_of(ctx, k);
        uint32_t fam = eng_context_queue_family_of(ctx, k);
        cr_log_info("%s queue: family %d, queue %u", kind_names[k], fam == UINT32_MAX ? -1 : (int)fam, want.index[k]);
        cr_expect_eq(fam, want.family[k], "%s: family %d, eng_pick_queues says %d", kind_names[k], (int)fam,
                     (int)want.family[k]);
        cr_expect_eq(q == VK_NULL_HANDLE, fam == UINT32_MAX, "%s: queue %p in family %d", kind_names[k], (void *)q,
                     (int)fam);
        for (eng_queue_kind o = ENG_QUEUE_GRAPHICS; o < k; o++)
            cr_expect(q == VK_NULL_HANDLE || q != eng_context_queue_of(ctx, o), "%s and %s share a queue",
                      kind_names[k], kind_names[o]);
    }
    /* Where the device has a compute-only family and the default policy
     * holds, async compute runs there. */
    bool compute_only = false;
    for (uint32_t i = 0; i < n; i++)
        compute_only = compute_only || ((f[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
                                        !(f[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && f[i].queueCount);
    uint32_t cf = eng_context_queue_family_of(ctx, ENG_QUEUE_COMPUTE);
    if (compute_only && policy == ENG_QUEUES_DEFAULT)
        cr_expect(cf < n && !(f[cf].queueFlags & VK_QUEUE_GRAPHICS_BIT), "compute queue in family %d", (int)cf);
    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_KIND_COUNT), VK_NULL_HANDLE);
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_KIND_COUNT), UINT32_MAX);
    free(f);
}

/* eng_context_desc.single_queue: the graphics queue only, on any device. */
DEVICE_TEST(queues, single_queue_has_no_extra_queues)
{
    eng_context_desc desc = { .app_name = "tests-single-queue", .validation = true, .single_queue = true };
    eng_context *ctx = test_context_create(&desc);
    cr_expect_neq(eng_context_queue(ctx), VK_NULL_HANDLE);
    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue(ctx));
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue_family(ctx));
    for (eng_queue_kind k = ENG_QUEUE_COMPUTE; k < ENG_QUEUE_KIND_COUNT; k++) {
        cr_expect_eq(eng_context_queue_of(ctx, k), VK_NULL_HANDLE, "%s", kind_names[k]);
        cr_expect_eq(eng_context_queue_family_of(ctx, k), UINT32_MAX, "%s", kind_names[k]);
    }
    destroy_context_expect_clean(ctx, "the queues context");
}

/* The queue work of a kind runs on: its own, else the graphics queue. */
static void queue_for(eng_context *ctx, eng_queue_kind kind, VkQueue *queue, uint32_t *family)
{
    *queue = eng_context_queue_of(ctx, kind);
    *family = eng_context_queue_family_of(ctx, kind);
    if (*queue == VK_NULL_HANDLE) {
        *queue = eng_context_queue(ctx);
        *family = eng_context_queue_family(ctx);
    }
}

/* A vkCmdFillBuffer into a host-visible buffer on the queue of each kind
 * (the graphics one where the context has none of that kind), waited with
 * a fence and read back. */
/* A fill of a host-visible buffer on each queue ctx has (graphics where it
 * has none of a kind), waited on by a fence and read back exact. */
static void fill_each_queue(eng_context *ctx)
{
    VkDevice dev = eng_context_device(ctx);
    enum { WORDS = 64 };
    for (eng_queue_kind k = ENG_QUEUE_GRAPHICS; k < ENG_QUEUE_KIND_COUNT; k++) {
        VkQueue queue;
        uint32_t family;
        queue_for(ctx, k, &queue, &family);
        eng_buffer_desc bd = {
            .name = kind_names[k],
            .size = WORDS * sizeof(uint32_t),
            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        };
        eng_buffer *buf = NULL;
        eng_result r = eng_buffer_create(ctx, &bd, &buf);
        cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
        uint32_t *words = eng_buffer_mapped(buf);
        cr_assert_not_null(words);
        for (uint32_t i = 0; i < WORDS; i++)
            words[i] = 0;

        VkCommandPoolCreateInfo pci = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
            .queueFamilyIndex = family,
        };
        VkCommandPool pool;
        cr_assert_eq(vkCreateCommandPool(dev, &pci, NULL, &pool), VK_SUCCESS);
        VkCommandBufferAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        VkCommandBuffer cmd;
        cr_assert_eq(vkAllocateCommandBuffers(dev, &ai, &cmd), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
        };
        cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
        uint32_t value = 0xC0DE0000u + (uint32_t)k;
        vkCmdFillBuffer(cmd, eng_buffer_handle(buf), 0, VK_WHOLE_SIZE, value);
        /* The fill made available to the host's read after the fence. */
        test_memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, 0);
        cr_assert_eq(vkEndCommandBuffer(cmd), VK_SUCCESS);

        VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VkFence fence;
        cr_assert_eq(vkCreateFence(dev, &fci, NULL, &fence), VK_SUCCESS);
        VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
        VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                             .pCommandBufferInfos = &cbi };
        cr_expect_eq(vkQueueSubmit2(queue, 1, &si, fence), VK_SUCCESS, "%s", kind_names[k]);
        cr_expect_eq(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS, "%s", kind_names[k]);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < WORDS; i++)
            wrong += words[i] != value;
        cr_expect_eq(wrong, 0, "%s queue (family %u): %u words not 0x%x, first 0x%x", kind_names[k], family, wrong,
                     value, words[0]);
        vkDestroyFence(dev, fence, NULL);
        vkDestroyCommandPool(dev, pool, NULL);
        eng_buffer_destroy(buf);
    }
}

DEVICE_TEST(queues, fill_on_each_queue)
{
    fill_each_queue(test_ctx);
}

/* eng_context_desc.graphics_family_queues: async compute and copies on the
 * graphics family's spare queues (none where it has one queue, as on
 * lavapipe), as eng_pick_queues says, each working. */
DEVICE_TEST(queues, graphics_family_queues)
{
    eng_context_desc desc = { .app_name = "tests-graphics-family", .validation = true,
                              .graphics_family_queues = true };
    eng_context *ctx = test_context_create(&desc);
    uint32_t n = 0;
    VkQueueFamilyProperties *f = device_families(ctx, &n);
    uint32_t gf = eng_context_queue_family(ctx);
    eng_queue_choice want;
    eng_pick_queues(f, n, gf, ENG_QUEUES_GRAPHICS_FAMILY, &want);
    for (eng_queue_kind k = ENG_QUEUE_COMPUTE; k < ENG_QUEUE_KIND_COUNT; k++) {
        uint32_t fam = eng_context_queue_family_of(ctx, k);
        bool spare = f[gf].queueCount > (uint32_t)k;
        cr_log_info("%s queue: family %d (graphics family %u of %u queues)", kind_names[k],
                    fam == UINT32_MAX ? -1 : (int)fam, gf, f[gf].queueCount);
        cr_expect_eq(fam, want.family[k]);
        cr_expect_eq(fam, spare ? gf : UINT32_MAX, "%s: family %d", kind_names[k], (int)fam);
        cr_expect_eq(eng_context_queue_of(ctx, k) != VK_NULL_HANDLE, spare);
        cr_expect_neq(eng_context_queue_of(ctx, k), eng_context_queue(ctx));
    }
    fill_each_queue(ctx);
    free(f);
    destroy_context_expect_clean(ctx, "the queues context");
}

/* Timeline semaphores are on: one is created, signalled from the host and
 * read back, then signalled by an empty submission on the compute queue
 * (the graphics one where there is none) and waited on from the host. The
 * fixture's validation would report a timeline semaphore made without the
 * feature. */
DEVICE_TEST(queues, timeline_semaphore)
{
    eng_context *ctx = test_ctx;
    VkDevice dev = eng_context_device(ctx);
    VkSemaphoreTypeCreateInfo ti = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = 1,
    };
    VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti };
    VkSemaphore sem;
    cr_assert_eq(vkCreateSemaphore(dev, &sci, NULL, &sem), VK_SUCCESS);
    uint64_t value = 0;
    cr_expect_eq(vkGetSemaphoreCounterValue(dev, sem, &value), VK_SUCCESS);
    cr_expect_eq(value, 1);
    VkSemaphoreSignalInfo sig = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = sem, .value = 5 };
    cr_expect_eq(vkSignalSemaphore(dev, &sig), VK_SUCCESS);
    cr_expect_eq(vkGetSemaphoreCounterValue(dev, sem, &value), VK_SUCCESS);
    cr_expect_eq(value, 5);

    VkQueue queue;
    uint32_t family;
    queue_for(ctx, ENG_QUEUE_COMPUTE, &queue, &family);
    VkSemaphoreSubmitInfo ssi = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = sem,
        .value = 9,
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .signalSemaphoreInfoCount = 1,
                         .pSignalSemaphoreInfos = &ssi };
    cr_expect_eq(vkQueueSubmit2(queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS, "family %u", family);
    VkSemaphoreWaitInfo wi = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .semaphoreCount = 1,
        .pSemaphores = &sem,
        .pValues = &ssi.value,
    };
    cr_expect_eq(vkWaitSemaphores(dev, &wi, UINT64_MAX), VK_SUCCESS);
    cr_expect_eq(vkGetSemaphoreCounterValue(dev, sem, &value), VK_SUCCESS);
    cr_expect_eq(value, 9);
    vkDestroySemaphore(dev, sem, NULL);
}
