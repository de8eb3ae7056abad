/* The context's queues: the compute-only (async compute) and transfer-only
 * families it picks, compared with what the device reports; the fallback
 * to the graphics queue where the device has one family (lavapipe) or the
 * context asks for single_queue; work submitted and waited on each queue it
 * has; and timeline semaphores, which the context enables. Nothing skips: a
 * device without the extra families checks the fallback instead. */
#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

TestSuite(queues, .init = device_setup, .fini = device_teardown);

static const char *const kind_names[ENG_QUEUE_KIND_COUNT] = { "graphics", "compute", "transfer" };

/* Whether family flags make a family of kind: compute without graphics, or
 * transfer without graphics or compute. */
static bool family_is(VkQueueFlags f, eng_queue_kind kind)
{
    if (kind == ENG_QUEUE_COMPUTE)
        return (f & VK_QUEUE_COMPUTE_BIT) && !(f & VK_QUEUE_GRAPHICS_BIT);
    if (kind == ENG_QUEUE_TRANSFER)
        return (f & VK_QUEUE_TRANSFER_BIT) && !(f & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT));
    return f & VK_QUEUE_GRAPHICS_BIT;
}

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

/* Each extra kind is present exactly where the device has a family of it,
 * is one of those with the most queues, and has a queue; graphics is
 * eng_context_queue(). */
DEVICE_TEST(queues, families_match_device)
{
    eng_context *ctx = test_ctx;
    uint32_t n = 0;
    VkQueueFamilyProperties *f = device_families(ctx, &n);
    cr_log_info("%s: %u queue families", eng_context_properties(ctx)->deviceName, n);
    for (uint32_t i = 0; i < n; i++)
        cr_log_info("  family %u: flags 0x%x, %u queues", i, (unsigned)f[i].queueFlags, f[i].queueCount);

    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue(ctx));
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue_family(ctx));
    for (eng_queue_kind k = ENG_QUEUE_COMPUTE; k < ENG_QUEUE_KIND_COUNT; k++) {
        uint32_t most = 0;
        for (uint32_t i = 0; i < n; i++)
            if (family_is(f[i].queueFlags, k) && f[i].queueCount > most)
                most = f[i].queueCount;
        VkQueue q = eng_context_queue_of(ctx, k);
        uint32_t fam = eng_context_queue_family_of(ctx, k);
        cr_log_info("%s queue: family %d", kind_names[k], fam == UINT32_MAX ? -1 : (int)fam);
        if (most == 0) {
            cr_expect_eq(q, VK_NULL_HANDLE, "%s: a queue without such a family", kind_names[k]);
            cr_expect_eq(fam, UINT32_MAX, "%s: family %u without such a family", kind_names[k], fam);
            continue;
        }
        cr_expect_neq(q, VK_NULL_HANDLE, "%s: no queue though the device has the family", kind_names[k]);
        cr_assert_lt(fam, n, "%s: family %u", kind_names[k], fam);
        cr_expect(family_is(f[fam].queueFlags, k), "%s: family %u has flags 0x%x", kind_names[k], fam,
                  (unsigned)f[fam].queueFlags);
        cr_expect_eq(f[fam].queueCount, most, "%s: family %u has %u queues, another %u", kind_names[k], fam,
                     f[fam].queueCount, most);
        cr_expect_neq(q, eng_context_queue(ctx));
    }
    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_KIND_COUNT), VK_NULL_HANDLE);
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_KIND_COUNT), UINT32_MAX);
    free(f);
}

/* eng_context_desc.single_queue: the graphics queue only, on any device. */
DEVICE_TEST(queues, single_queue_has_no_extra_queues)
{
    eng_context_desc desc = { .app_name = "tests-single-queue", .validation = true, .single_queue = true };
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&desc, &ctx);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_neq(eng_context_queue(ctx), VK_NULL_HANDLE);
    cr_expect_eq(eng_context_queue_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue(ctx));
    cr_expect_eq(eng_context_queue_family_of(ctx, ENG_QUEUE_GRAPHICS), eng_context_queue_family(ctx));
    for (eng_queue_kind k = ENG_QUEUE_COMPUTE; k < ENG_QUEUE_KIND_COUNT; k++) {
        cr_expect_eq(eng_context_queue_of(ctx, k), VK_NULL_HANDLE, "%s", kind_names[k]);
        cr_expect_eq(eng_context_queue_family_of(ctx, k), UINT32_MAX, "%s", kind_names[k]);
    }
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.warning + m.error, 0, "%u validation warnings, %u errors; first: %s", m.warning, m.error, first);
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
DEVICE_TEST(queues, fill_on_each_queue)
{
    eng_context *ctx = test_ctx;
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
        VkMemoryBarrier2 mb = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
            .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
        };
        VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                                 .pMemoryBarriers = &mb };
        vkCmdPipelineBarrier2(cmd, &dep);
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
