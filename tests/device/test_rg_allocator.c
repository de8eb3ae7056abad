/* Allocation callbacks on a device: a graph on an rg_device made with a
 * host allocator (rg_allocator) and VkAllocationCallbacks. Every Vulkan
 * object the graph creates or destroys is given the callbacks (seen
 * through the device's function table: its vkGetDeviceProcAddr returns
 * checking wrappers here), executing a placed graph makes no host
 * allocation, and failing each host allocation of placement and the first
 * execute in turn gives a clean RG_ERROR_OUT_OF_MEMORY, leaks nothing and
 * leaves the validation layer silent. */
#include "counting_allocator.h"
#include "test_chunks.h"
#include "device_fixture.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rg_allocator, .init = device_setup, .fini = device_teardown);

/* --------------------------------------------------- Vulkan host memory */

static uint32_t vk_allocations;

static void *VKAPI_CALL vk_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    (void)user;
    (void)scope;
    vk_allocations++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void *VKAPI_CALL vk_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
    (void)user;
    (void)scope;
    if (!p)
        return vk_alloc(user, size, align, scope);
    if (!size) {
        free(p);
        return NULL;
    }
    /* realloc keeps malloc's alignment only; the layer and driver ask for
     * at most that here, which the assertion checks. */
    cr_assert_leq(align, _Alignof(max_align_t));
    return realloc(p, size);
}

static void VKAPI_CALL vk_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static const VkAllocationCallbacks callbacks = { NULL, vk_alloc, vk_realloc, vk_free, NULL, NULL };

/* What the graph passed: calls that create or destroy an object, and those
 * of them that gave the callbacks above. */
static uint32_t object_calls, with_callbacks;

static void seen(int live, const VkAllocationCallbacks *a)
{
    (void)live;
    object_calls++;
    with_callbacks += a == &callbacks;
}

/* The context's device with both allocators and the checking table. */
static rg_device *device_with(counting *c)
{
    static rg_allocator host;
    host = (rg_allocator){ count_alloc, count_realloc, count_free, c };
    rg_device_desc d = test_spy_desc(test_object_spies(seen), false);
    d.allocator = &host;
    d.vk_allocator = &callbacks;
    rg_device *dev = NULL;
    rg_result r = rg_device_create(&d, &dev);
    cr_assert(r == RG_SUCCESS || (c->fail_at && r == RG_ERROR_OUT_OF_MEMORY), "rg_device_create: %s",
              rg_result_string(r));
    return dev;
}

/* ---------------------------------------------------------------- frame */

#define W 32
#define H 32

/* Two spans (a clear, then a draw that reads it), a pooled buffer and a
 * copy into an imported readback. */
static rg_graph *declare(rg_device *dev, eng_buffer *readback)
{
    rg_graph *g = NULL;
    rg_result r = rg_graph_create(&(rg_graph_desc){ .name = "allocators", .device = dev }, &g);
    if (r != RG_SUCCESS)
        return NULL;
    rg_texture_desc td = { .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H };
    rg_texture first = test_texture_named(g, td, "first");
    rg_texture second = test_texture_named(g, td, "second");
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .color_count = 1,
                                                .colors = { { .texture = first, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "read", .color_count = 1,
                                                .colors = { { .texture = second, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access a = { .texture = first, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .accesses = &a, .access_count = 1,
                                     .record = test_record_nothing });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, second, 0, 0, 1, out, 0);
    return g;
}

/* rg_execute into a command buffer that is never submitted (a failed
 * execute leaves it half recorded). */
static rg_result execute_unsubmitted(rg_graph *g)
{
    VkDevice dev = eng_context_device(test_ctx);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = eng_context_queue_family(test_ctx) };
    VkCommandPool pool;
    cr_assert_eq(vkCreateCommandPool(dev, &pci, NULL, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    cr_assert_eq(vkAllocateCommandBuffers(dev, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    rg_result r = test_execute(g, cmd);
    vkEndCommandBuffer(cmd);
    vkDestroyCommandPool(dev, pool, NULL);
    return r;
}

DEVICE_TEST(rg_allocator, objects_get_the_callbacks_and_frames_allocate_nothing)
{
    eng_buffer *readback = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    counting c = { 0 };
    rg_device *dev = device_with(&c);
    object_calls = with_callbacks = vk_allocations = 0;
    rg_graph *g = declare(dev, readback);
    cr_assert_not_null(g);
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_gt(object_calls, 0, "placement created no object");
    if (test_chunks_max())
        test_run(g, 1); /* the first frame with as many chunks sizes them (rendergraph.h) */
    uint32_t placed = c.calls;
    test_run(g, 3);
    test_run(g, 1);
    cr_expect_eq(c.calls, placed, "four executed frames made %u host allocations", c.calls - placed);
    rg_graph_destroy(g);
    cr_expect_eq(with_callbacks, object_calls, "%u of %u object creations and destructions without the callbacks",
                 object_calls - with_callbacks, object_calls);
    cr_expect_gt(vk_allocations, 0, "the driver never used the callbacks");
    rg_device_destroy(dev);
    cr_expect_eq(c.live, 0, "%u host blocks left", c.live);
    eng_buffer_destroy(readback);
}

/* Placement and the first execute (which records the frame): each host
 * allocation in turn fails; the call reports it and everything is freed. */
DEVICE_TEST(rg_allocator, each_failing_allocation_of_placement_is_a_clean_error)
{
    eng_buffer *readback = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    counting whole = { 0 };
    rg_device *dev = device_with(&whole);
    rg_graph *g = declare(dev, readback);
    test_compile(g);
    uint32_t compiled = whole.calls;
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(execute_unsubmitted(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t total = whole.calls - compiled;
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    cr_expect_gt(total, 3, "placement made %u host allocations", total);
    cr_log_info("failing each of %u allocations of placement and the first execute in turn", total);
    for (uint32_t n = 1; n <= total; n++) {
        counting c = { 0 };
        dev = device_with(&c);
        g = declare(dev, readback);
        test_compile(g);
        c.fail_at = c.calls + n;
        rg_result r = rg_place(g);
        if (r == RG_SUCCESS)
            r = execute_unsubmitted(g);
        cr_expect_eq(c.failed, 1, "allocation %u of %u not made", n, total);
        cr_expect_eq(r, RG_ERROR_OUT_OF_MEMORY, "allocation %u of %u failed: %s (%s)", n, total,
                     rg_result_string(r), rg_graph_error_message(g));
        cr_expect_neq(rg_graph_error_message(g)[0], '\0', "allocation %u failed without a message", n);
        rg_graph_destroy(g);
        rg_device_destroy(dev);
        cr_expect_eq(c.live, 0, "allocation %u failed: %u host blocks leaked", n, c.live);
    }
    eng_buffer_destroy(readback);
}

/* --------------------------------------------------- pools' device memory */

/* One allocation of the application's, suballocated from a nonzero start
 * so that the offsets the graph binds at are visibly its. */
typedef struct app_block {
    VkDeviceMemory memory;
    VkBuffer guard;                   /* the application's own buffer at offset 0 */
    uint32_t type;
    VkDeviceSize size, used;
    uint32_t allocs, frees, vk_allocations;
} app_block;

static VkResult block_alloc(void *user, uint32_t memory_type, VkDeviceSize size, VkDeviceSize alignment,
                            VkDeviceMemory *memory, VkDeviceSize *offset)
{
    app_block *b = user;
    if (!b->memory) {
        VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = b->size,
                                    .memoryTypeIndex = memory_type };
        VkResult vr = vkAllocateMemory(eng_context_device(test_ctx), &ai, NULL, &b->memory);
        if (vr != VK_SUCCESS)
            return vr;
        b->type = memory_type;
        b->used = 12345;              /* the first pool starts past it, aligned */
        b->vk_allocations++;
        /* The application's own bytes before the pools: a buffer the graph
         * must not touch, where the memory type allows one. */
        VkDevice dev = eng_context_device(test_ctx);
        VkBufferCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
                                  .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
        cr_assert_eq(vkCreateBuffer(dev, &ci, NULL, &b->guard), VK_SUCCESS);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev, b->guard, &req);
        if (req.memoryTypeBits & (1u << memory_type))
            cr_assert_eq(vkBindBufferMemory(dev, b->guard, b->memory, 0), VK_SUCCESS);
        else {
            vkDestroyBuffer(dev, b->guard, NULL);
            b->guard = VK_NULL_HANDLE;
        }
    }
    cr_assert_eq(memory_type, b->type, "a second memory type (%u, the block's is %u)", memory_type, b->type);
    VkDeviceSize at = (b->used + alignment - 1) / alignment * alignment;
    if (at + size > b->size)
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    b->used = at + size;
    b->allocs++;
    *memory = b->memory;
    *offset = at;
    return VK_SUCCESS;
}

static void block_free(void *user, VkDeviceMemory memory, VkDeviceSize offset)
{
    app_block *b = user;
    (void)offset;
    cr_expect_eq(memory, b->memory);
    b->frees++;
}

typedef struct guard_job {
    VkBuffer guard, host;
    bool fill;
} guard_job;

static void guard_record(VkCommandBuffer cmd, void *user)
{
    const guard_job *j = user;
    if (j->fill) {
        vkCmdFillBuffer(cmd, j->guard, 0, 4096, 0x5a5a5a5au);
        return;
    }
    VkBufferCopy region = { 0, 0, 4096 };
    vkCmdCopyBuffer(cmd, j->guard, j->host, 1, &region);
}

/* Clears into two pooled textures, a copy through a pooled buffer into the
 * second, and that read back: exact integers, over three frames in one
 * command buffer, with every pool in the application's one allocation. */
DEVICE_TEST(rg_allocator, pools_in_the_applications_memory)
{
    enum { N = W * H };
    eng_buffer *readback = test_host_buffer(N * 4 * 2, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    app_block block = { .size = 16u << 20 };
    rg_pool_memory pm = { block_alloc, block_free, &block };
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "app pools", .device = eng_context_graph_device(test_ctx),
                                                   .pool_memory = &pm },
                                 &g),
                 RG_SUCCESS);
    rg_texture_desc td = { .format = VK_FORMAT_R32_UINT, .width = W, .height = H };
    rg_texture a = test_texture_named(g, td, "a");
    rg_texture b = test_texture_named(g, td, "b");
    rg_buffer through = rg_buffer_create(g, &(rg_buffer_desc){ .name = "through", .size = N * 4 });
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "a", .color_count = 1,
                                                .colors = { { .texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE,
                                                              .clear.color.uint32 = { 0xa11 } } } });
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "b", .color_count = 1,
                                                .colors = { { .texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE,
                                                              .clear.color.uint32 = { 0xb22 } } } });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, a, 0, 0, 1, through, 0);
    rg_cmd_copy_texture_to_buffer(g, b, 0, 0, 1, out, N * 4);
    rg_cmd_copy_buffer(g, through, 0, out, 0, N * 4);
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_texture_memory(g, a, NULL, NULL), RG_MEMORY_POOLED);
    cr_expect_eq(rg_buffer_memory(g, through, NULL, NULL), RG_MEMORY_POOLED);
    cr_expect_gt(block.allocs, 0, "no pool came from the application");
    cr_expect_eq(block.allocs, rg_memory_get_totals(g).pools, "%u pools, %u from the application",
                 rg_memory_get_totals(g).pools, block.allocs);
    eng_buffer *guard_back = test_host_buffer(4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    guard_job gj = { block.guard, eng_buffer_handle(guard_back), true };
    if (block.guard)
        cr_assert_eq(eng_context_submit_once(test_ctx, guard_record, &gj), ENG_SUCCESS, "%s", eng_last_error());
    else
        cr_log_info("the pools' memory type takes no buffer here: the bytes before the pools are not checked");
    test_run(g, 3);
    if (block.guard) {
        gj.fill = false;
        cr_assert_eq(eng_context_submit_once(test_ctx, guard_record, &gj), ENG_SUCCESS, "%s", eng_last_error());
        const uint32_t *gv = eng_buffer_mapped(guard_back);
        uint32_t touched = 0;
        for (uint32_t i = 0; i < 1024; i++)
            touched += gv[i] != 0x5a5a5a5au;
        cr_expect_eq(touched, 0, "the graph wrote %u words of the application's bytes before its pools", touched);
    }
    eng_buffer_destroy(guard_back);
    const uint32_t *v = eng_buffer_mapped(readback);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 2 * N; i++)
        bad += v[i] != (i < N ? 0xa11u : 0xb22u);
    cr_expect_eq(bad, 0, "%u words differ (first 0x%x, last 0x%x)", bad, v[0], v[2 * N - 1]);
    rg_graph_destroy(g);
    cr_expect_eq(block.frees, block.allocs, "%u pools given back of %u", block.frees, block.allocs);
    cr_expect_eq(block.vk_allocations, 1);
    vkDestroyBuffer(eng_context_device(test_ctx), block.guard, NULL);
    vkFreeMemory(eng_context_device(test_ctx), block.memory, NULL);
    eng_buffer_destroy(readback);
}
