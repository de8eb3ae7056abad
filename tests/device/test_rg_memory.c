/* Aliasing on a device: resources whose lifetimes never overlap share
 * memory, the data each one holds is exact, and synchronization validation
 * sees no hazard within a frame or across frames. */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "rg_support.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_memory, .init = device_setup, .fini = device_teardown);

static const uint32_t sample_frag[] =
#include "sample.frag.inc"
    ;

#define W 32
#define H 32
#define FMT VK_FORMAT_R8G8B8A8_UNORM

/* Where a resource's memory is: its kind, and its pool and offset. */
typedef struct where {
    rg_memory_kind kind;
    uint32_t pool;
    VkDeviceSize offset;
} where;

static where buffer_where(const rg_graph *g, rg_buffer b)
{
    where w = { 0 };
    w.kind = rg_buffer_memory(g, b, &w.offset, &w.pool);
    return w;
}

static where texture_where(const rg_graph *g, rg_texture t)
{
    where w = { 0 };
    w.kind = rg_texture_memory(g, t, &w.offset, &w.pool);
    return w;
}

/* a and b pooled, at the same bytes. */
static void expect_same_memory(where a, where b)
{
    cr_expect_eq(a.kind, RG_MEMORY_POOLED);
    cr_expect_eq(b.kind, RG_MEMORY_POOLED);
    cr_expect(a.pool == b.pool && a.offset == b.offset, "not aliased: pool %u offset %llu vs pool %u offset %llu",
              a.pool, (unsigned long long)a.offset, b.pool, (unsigned long long)b.offset);
}

/* Sharing needs proof of order, not record order: the second chain starts
 * by reading what the first one's last command wrote into `io`. */
DEVICE_TEST(rg_memory, buffer_reuses_buffer_memory)
{
    enum { N = 4096 };
    static uint32_t first[N / 4], second[N / 4];
    for (uint32_t i = 0; i < N / 4; i++) {
        first[i] = 0x11110000u + i;
        second[i] = 0x22220000u + i * 3;
    }
    eng_buffer *up = test_host_buffer(N, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, first);
    eng_buffer *io = test_host_buffer(2 * N, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    memcpy((char *)eng_buffer_mapped(io) + N, second, N);
    eng_buffer *down = test_host_buffer(N, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);

    rg_graph *g = test_device_graph("memory");
    rg_buffer a = rg_buffer_create(g, &(rg_buffer_desc){ .name = "a", .size = N });
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){ .name = "b", .size = N });
    rg_buffer u = test_import_buffer(g, "up", up, false);
    rg_buffer x = test_import_buffer(g, "io", io, true), d = test_import_buffer(g, "down", down, true);
    rg_cmd_copy_buffer(g, u, 0, a, 0, N);
    rg_cmd_copy_buffer(g, a, 0, x, 0, N);
    rg_cmd_copy_buffer(g, x, N, b, 0, N); /* b takes a's memory over */
    rg_cmd_copy_buffer(g, b, 0, d, 0, N);
    test_compile(g);
    test_run(g, 3);

    expect_same_memory(buffer_where(g, a), buffer_where(g, b));
    cr_expect(memcmp(eng_buffer_mapped(io), first, N) == 0, "the first occupant's data");
    cr_expect(memcmp(eng_buffer_mapped(down), second, N) == 0, "the second occupant's data");
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect(t.pooled < t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
              (unsigned long long)t.unaliased);
    rg_graph_destroy(g);
    eng_buffer_destroy(up);
    eng_buffer_destroy(io);
    eng_buffer_destroy(down);
}

/* As above: the second image's first use (an upload) reads the buffer the
 * first image's last use (a readback) wrote. */
DEVICE_TEST(rg_memory, image_reuses_image_memory)
{
    enum { BYTES = W * H * 4 };
    static uint8_t green_px[BYTES];
    for (uint32_t i = 0; i < W * H; i++)
        memcpy(green_px + i * 4, (uint8_t[4]){ 0, 255, 0, 255 }, 4);
    eng_buffer *io = test_host_buffer(2 * BYTES, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      NULL);
    memcpy((char *)eng_buffer_mapped(io) + BYTES, green_px, BYTES);
    eng_buffer *down = test_host_buffer(BYTES, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("memory");
    rg_texture_desc td = { .format = FMT, .width = W, .height = H };
    rg_texture a = test_texture_named(g, td, "first");
    rg_texture b = test_texture_named(g, td, "second");
    rg_buffer x = test_import_buffer(g, "io", io, true), d = test_import_buffer(g, "down", down, true);
    rg_cmd_clear_texture(g, a, NULL, &(VkClearValue){ .color = { .float32 = { 1, 0, 0, 1 } } });
    rg_cmd_copy_texture_to_buffer(g, a, 0, 0, 1, x, 0);
    rg_cmd_copy_buffer_to_texture(g, x, BYTES, b, 0, 0, 1);
    rg_cmd_copy_texture_to_buffer(g, b, 0, 0, 1, d, 0);
    test_compile(g);
    test_run(g, 3);

    expect_same_memory(texture_where(g, a), texture_where(g, b));
    const uint8_t *p1 = eng_buffer_mapped(io), *p2 = eng_buffer_mapped(down);
    static const uint8_t red[4] = { 255, 0, 0, 255 }, green[4] = { 0, 255, 0, 255 };
    for (uint32_t i = 0; i < W * H; i += 37) {
        cr_expect(memcmp(p1 + i * 4, red, 4) == 0, "first occupant pixel %u", i);
        cr_expect(memcmp(p2 + i * 4, green, 4) == 0, "second occupant pixel %u", i);
    }
    rg_graph_destroy(g);
    eng_buffer_destroy(io);
    eng_buffer_destroy(down);
}

/* ------------------------------------------- a post-processing chain */

typedef struct post_draw {
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_texture source;
    VkImageView written;
} post_draw;

static bool draw_post(const rg_record_context *rc, void *user)
{
    post_draw *d = user;
    VkImageView view = rg_record_view(rc, d->source);
    if (view != d->written) {
        VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
        VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = d->set,
                                   .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                   .pImageInfo = &ii };
        vkUpdateDescriptorSets(eng_context_device(test_ctx), 1, &w, 0, NULL);
        d->written = view;
    }
    solid_draw_with_set(rg_record_cmd(rc), d->pipeline, d->set);
    return true;
}

DEVICE_TEST(rg_memory, post_chain_targets_alias)
{
    enum { STEPS = 5 };
    VkDevice dev = eng_context_device(test_ctx);
    VkDescriptorSetLayout layout = test_set_layout(dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPool pool = test_descriptor_pool(dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, STEPS, STEPS);
    eng_pipeline_desc pd = solid_fragment_desc("post", sample_frag, sizeof sample_frag, FMT);
    pd.set_layouts = &layout;
    pd.set_layout_count = 1;
    eng_pipeline *pipe = NULL;
    cr_assert_eq(eng_pipeline_create(test_ctx, &pd, &pipe), ENG_SUCCESS, "%s", eng_last_error());
    eng_buffer *down = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);

    /* clear -> t0; t0 -> t1 -> ... -> t5 by copying passes; t5 -> host. */
    rg_graph *g = test_device_graph("memory");
    rg_texture t[STEPS + 1];
    for (int i = 0; i <= STEPS; i++) {
        char name[16];
        snprintf(name, sizeof name, "post %d", i);
        t[i] = rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = FMT, .width = W, .height = H });
    }
    rg_cmd_clear_texture(g, t[0], NULL, &(VkClearValue){ .color = { .float32 = { 0, 0, 1, 1 } } });
    post_draw draws[STEPS];
    for (int i = 0; i < STEPS; i++) {
        VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                           .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
        draws[i] = (post_draw){ pipe, VK_NULL_HANDLE, t[i], VK_NULL_HANDLE };
        cr_assert_eq(vkAllocateDescriptorSets(dev, &ai, &draws[i].set), VK_SUCCESS);
        rg_access read = { .texture = t[i], .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = "post", .color_count = 1,
            .colors = { { .texture = t[i + 1], .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                          .store = VK_ATTACHMENT_STORE_OP_STORE } } });
        rg_cmd_user(g, &(rg_user_desc){ .name = "copy pass", .kind = RG_COMMAND_DRAW, .accesses = &read,
                                        .access_count = 1, .record = draw_post, .user = &draws[i] });
        rg_end_rendering(g);
    }
    rg_buffer out = test_import_buffer(g, "down", down, true);
    rg_cmd_copy_texture_to_buffer(g, t[STEPS], 0, 0, 1, out, 0);
    test_compile(g);
    test_run(g, 3);
    test_run(g, 1);

    const uint8_t *px = eng_buffer_mapped(down);
    static const uint8_t blue[4] = { 0, 0, 255, 255 };
    for (uint32_t i = 0; i < W * H; i += 29)
        cr_expect(memcmp(px + i * 4, blue, 4) == 0, "pixel %u: %u,%u,%u,%u", i, px[i * 4], px[i * 4 + 1],
                  px[i * 4 + 2], px[i * 4 + 3]);
    /* A ping-pong chain needs two targets' worth of memory, not six. */
    rg_memory_totals tot = rg_memory_get_totals(g);
    cr_expect(tot.pooled <= tot.unaliased / 2, "pooled %llu of %llu unaliased", (unsigned long long)tot.pooled,
              (unsigned long long)tot.unaliased);
    cr_expect(tot.pooled >= tot.lower_bound);
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
    eng_pipeline_destroy(pipe);
    vkDestroyDescriptorPool(dev, pool, NULL);
    vkDestroyDescriptorSetLayout(dev, layout, NULL);
}
