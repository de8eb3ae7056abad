/* The engine and the render graph under VK_LAYER_VKGRAPH_tile_memory (the
 * tile-memory emulation layer, tests/layers/tile_memory), below the
 * validation layer: the lazy type is offered to transient attachments only,
 * chosen, never committed, renders exact pixels; the graph puts its
 * transient MSAA sets in lazy memory instead of pools; the memoryless rule
 * and allocation-fault injection work. CTest runs this program with
 * VKG_TEST_LAYER naming the layer and VK_ADD_LAYER_PATH finding it. */
#include "device_fixture.h"
#include "test_rendering.h"
#include "test_barrier.h"
#include "test_chunks.h"
#include "solid.h"
#include "msaa_sets.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(tile_layer, .init = device_setup, .fini = device_teardown);
/* Contexts of its own: the fault must be set before vkCreateDevice. */
TestSuite(tile_faults);

#define LAZY VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT
#define DL VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
#define W 64
#define H 64

/* The layer's type: the last one, DEVICE_LOCAL | LAZILY_ALLOCATED. */
static uint32_t lazy_type(const eng_context *ctx)
{
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(ctx);
    cr_assert_gt(mp->memoryTypeCount, 1);
    uint32_t last = mp->memoryTypeCount - 1;
    cr_assert_eq(mp->memoryTypes[last].propertyFlags, DL | LAZY,
                 "the last memory type is not the layer's lazy type: is %s loaded (VKG_TEST_LAYER)?", TILE_LAYER);
    return last;
}

DEVICE_TEST(tile_layer, memory_properties_show_the_lazy_type)
{
    uint32_t lazy = lazy_type(test_ctx);
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    uint32_t first_dl = UINT32_MAX;
    for (uint32_t i = 0; i < lazy && first_dl == UINT32_MAX; i++) {
        cr_expect_not(mp->memoryTypes[i].propertyFlags & LAZY, "real type %u is not lazy", i);
        if (mp->memoryTypes[i].propertyFlags & DL)
            first_dl = i;
    }
    cr_assert_neq(first_dl, UINT32_MAX);
    cr_expect_eq(mp->memoryTypes[lazy].heapIndex, mp->memoryTypes[first_dl].heapIndex, "on the device-local heap");

    /* ...2 reports the same and leaves the pNext chain as it was. */
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT };
    VkPhysicalDeviceMemoryProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
                                             .pNext = eng_context_has_memory_budget(test_ctx) ? &budget : NULL };
    const void *next = p2.pNext;
    vkGetPhysicalDeviceMemoryProperties2(eng_context_physical_device(test_ctx), &p2);
    cr_expect_eq(p2.pNext, next);
    cr_expect_eq(p2.memoryProperties.memoryTypeCount, mp->memoryTypeCount);
    cr_expect_eq(p2.memoryProperties.memoryTypes[lazy].propertyFlags, DL | LAZY);
}

/* memoryTypeBits: the lazy bit for transient images only, never buffers. */
DEVICE_TEST(tile_layer, lazy_bit_offered_to_transient_images_only)
{
    uint32_t lazy = lazy_type(test_ctx);
    VkDevice dev = eng_context_device(test_ctx);
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { W, H, 1 }, .mipLevels = 1, .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_4_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
    };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    VkDeviceImageMemoryRequirements dir = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                            .pCreateInfo = &ci };
    vkGetDeviceImageMemoryRequirements(dev, &dir, &req);
    cr_expect(req.memoryRequirements.memoryTypeBits & (1u << lazy), "transient: offered");

    VkImage image;
    cr_assert_eq(vkCreateImage(dev, &ci, NULL, &image), VK_SUCCESS);
    VkMemoryRequirements r1;
    vkGetImageMemoryRequirements(dev, image, &r1);
    cr_expect(r1.memoryTypeBits & (1u << lazy), "transient image: offered");
    VkImageMemoryRequirementsInfo2 ii = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
                                          .image = image };
    vkGetImageMemoryRequirements2(dev, &ii, &req);
    cr_expect(req.memoryRequirements.memoryTypeBits & (1u << lazy), "transient image (...2): offered");
    vkDestroyImage(dev, image, NULL);

    ci.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    vkGetDeviceImageMemoryRequirements(dev, &dir, &req);
    cr_expect_not(req.memoryRequirements.memoryTypeBits & (1u << lazy), "persistent: not offered");
    cr_assert_eq(vkCreateImage(dev, &ci, NULL, &image), VK_SUCCESS);
    vkGetImageMemoryRequirements(dev, image, &r1);
    cr_expect_not(r1.memoryTypeBits & (1u << lazy), "persistent image: not offered");
    vkDestroyImage(dev, image, NULL);

    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
    VkDeviceBufferMemoryRequirements dbr = { .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
                                             .pCreateInfo = &bci };
    vkGetDeviceBufferMemoryRequirements(dev, &dbr, &req);
    cr_expect_not(req.memoryRequirements.memoryTypeBits & (1u << lazy), "buffer: never offered");
}

static eng_image *attachment_on(eng_context *ctx, VkFormat format, bool persistent, const char *name)
{
    eng_attachment_desc ad = { .name = name, .format = format, .width = W, .height = H,
                               .samples = VK_SAMPLE_COUNT_4_BIT, .persistent = persistent };
    eng_image *img = NULL;
    eng_result r = eng_attachment_create(ctx, &ad, &img);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s: %s", name, eng_result_string(r), eng_last_error());
    return img;
}

static eng_image *attachment(VkFormat format, bool persistent, const char *name)
{
    return attachment_on(test_ctx, format, persistent, name);
}

DEVICE_TEST(tile_layer, transient_attachments_get_lazy_memory)
{
    uint32_t lazy = lazy_type(test_ctx);
    eng_image *color = attachment(VK_FORMAT_R8G8B8A8_UNORM, false, "msaa color");
    eng_image *depth = attachment(VK_FORMAT_D32_SFLOAT, false, "msaa depth");
    eng_image *kept = attachment(VK_FORMAT_R8G8B8A8_UNORM, true, "persistent color");
    const eng_image *lazy_ones[] = { color, depth };
    for (int i = 0; i < 2; i++) {
        const eng_image_info *info = eng_image_get_info(lazy_ones[i]);
        cr_expect(eng_image_is_lazy(lazy_ones[i]), "%s", info->name);
        cr_expect_eq(info->memory_type, lazy, "%s", info->name);
        cr_expect_eq(info->memory_flags, DL | LAZY, "%s", info->name);
        cr_expect_gt(info->memory_size, 0);
        cr_expect_eq(info->committed, 0, "%s: lazy memory is never committed", info->name);
    }
    const eng_image_info *ki = eng_image_get_info(kept);
    cr_expect_not(eng_image_is_lazy(kept));
    cr_expect_neq(ki->memory_type, lazy);
    cr_expect_eq(ki->committed, ki->memory_size);

    eng_buffer *buf = NULL;
    eng_buffer_desc bd = { .name = "storage", .size = 65536, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &buf), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_neq(eng_buffer_memory_type(buf), lazy, "buffers never get lazy memory");
    eng_buffer_destroy(buf);
    eng_image_destroy(kept);
    eng_image_destroy(depth);
    eng_image_destroy(color);
}

/* ------------------------------------------------------------- rendering */

typedef struct frame_job {
    const eng_image_info *color, *depth, *resolve;
    const eng_pipeline *pipeline;
    VkAttachmentLoadOp color_load;
    VkAttachmentStoreOp color_store;
} frame_job;

/* Red at depth 0.5, green behind it (fails LESS), a blue rectangle in
 * front on pixel boundaries [16,40) x [8,48); resolved. */
static void record_frame(VkCommandBuffer cmd, void *user)
{
    const frame_job *j = user;
    const VkPipelineStageFlags2 cs = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkPipelineStageFlags2 ds =
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    VkImageMemoryBarrier2 b[3] = {
        /* A LOAD reads the attachment: the transition must be visible to
         * COLOR_ATTACHMENT_READ too (synchronization validation 1.4 checks
         * it), else its hazard report would come before the layer's. */
        test_image_from_undefined(j->color, VK_PIPELINE_STAGE_2_NONE, 0, cs,
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        test_image_from_undefined(j->depth, VK_PIPELINE_STAGE_2_NONE, 0, ds,
                                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        { 0 },
    };
    if (j->resolve)
        b[2] =
            test_image_from_undefined(j->resolve, VK_PIPELINE_STAGE_2_NONE, 0, cs,
                                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    test_image_barriers(cmd, j->resolve ? 3 : 2, b);
    VkRenderingAttachmentInfo color = test_color_attachment(j->color, j->resolve, j->color_load, j->color_store,
                                                            (VkClearColorValue){ { 0, 0, 0, 1 } });
    VkRenderingAttachmentInfo depth = test_depth_cleared(j->depth);
    test_begin_rendering(cmd, W, H, &color, 1, &depth);
    if (j->pipeline) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
        test_whole_viewport(cmd, W, H);
        solid_draw(cmd, j->pipeline, (const float[4]){ -1, -1, 1, 1 }, (const float[4]){ 1, 0, 0, 1 }, 0.5f);
        solid_draw(cmd, j->pipeline, (const float[4]){ -1, -1, 1, 1 }, (const float[4]){ 0, 1, 0, 1 }, 0.7f);
        const float blue_rect[4] = { -1.0f + 2.0f * 16 / W, -1.0f + 2.0f * 8 / H, -1.0f + 2.0f * 40 / W,
                                     -1.0f + 2.0f * 48 / H };
        solid_draw(cmd, j->pipeline, blue_rect, (const float[4]){ 0, 0, 1, 1 }, 0.3f);
    }
    vkCmdEndRendering(cmd);
}

DEVICE_TEST(tile_layer, msaa_render_through_lazy_attachments_is_exact)
{
    eng_context *ctx = test_ctx;
    lazy_type(ctx);
    eng_image *color = attachment(VK_FORMAT_R8G8B8A8_UNORM, false, "msaa color");
    eng_image *depth = attachment(VK_FORMAT_D32_SFLOAT, false, "msaa depth");
    cr_assert(eng_image_is_lazy(color) && eng_image_is_lazy(depth));
    eng_image *resolve = NULL;
    eng_image_desc rd = { .name = "resolved", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    cr_assert_eq(eng_image_create(ctx, &rd, &resolve), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline *pipe = NULL;
    eng_result r = solid_pipeline_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_4_BIT,
                                         NULL, &pipe);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());

    frame_job job = { eng_image_get_info(color), eng_image_get_info(depth), eng_image_get_info(resolve), pipe,
                      VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE };
    cr_assert_eq(eng_context_submit_once(ctx, record_frame, &job), ENG_SUCCESS, "%s", eng_last_error());
    static uint8_t px[W * H * 4];
    memset(px, 0xAB, sizeof px);
    cr_assert_eq(eng_image_read(ctx, resolve, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    int bad = 0;
    char first[128] = "";
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            bool in = x >= 16 && x < 40 && y >= 8 && y < 48;
            const uint8_t want[4] = { in ? 0 : 255, 0, in ? 255 : 0, 255 };
            const uint8_t *got = px + (y * W + x) * 4;
            if (memcmp(got, want, 4) != 0 && !bad++)
                snprintf(first, sizeof first, "(%d,%d) = %u,%u,%u,%u", x, y, got[0], got[1], got[2], got[3]);
        }
    }
    cr_expect_eq(bad, 0, "%d pixels differ; first %s", bad, first);
    expect_no_validation_messages(ctx);
    cr_expect_eq(eng_image_get_info(color)->committed, 0);
    eng_pipeline_destroy(pipe);
    eng_image_destroy(resolve);
    eng_image_destroy(depth);
    eng_image_destroy(color);
}

/* ---------------------------------------------------------- render graph */

/* The memory_budget benchmark's frame: 4 sets of 4x MSAA RGBA8 + 4x D32,
 * cleared and discarded, resolved into one imported image. */
static rg_graph *build_sets(eng_context *ctx, const eng_image_info *ti, rg_texture colors[4])
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "tile sets", .device = eng_context_graph_device(ctx) }, &g), RG_SUCCESS);
    rg_texture resolved = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "resolved", .image = ti->image, .view = ti->view, .format = ti->format, .width = W, .height = H });
    for (int s = 0; s < 4; s++)
        colors[s] = msaa_set(g, W, H, resolved, (VkClearColorValue){ { 0 } });
    return g;
}

static eng_image *resolve_target(eng_context *ctx)
{
    eng_image *target = NULL;
    eng_image_desc td = { .name = "resolve target", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT };
    cr_assert_eq(eng_image_create(ctx, &td, &target), ENG_SUCCESS, "%s", eng_last_error());
    return target;
}

DEVICE_TEST(tile_layer, render_graph_places_transient_sets_in_lazy_memory)
{
    eng_context *ctx = test_ctx;
    lazy_type(ctx);
    eng_image *target = resolve_target(ctx);
    rg_texture colors[4];
    rg_graph *g = build_sets(ctx, eng_image_get_info(target), colors);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    for (int frame = 0; frame < 2; frame++)
        cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "frame %d: %s", frame, rg_graph_error_message(g));
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect_eq(t.pooled, 0, "nothing pooled: %llu bytes", (unsigned long long)t.pooled);
    cr_expect_eq(t.pools, 0);
    cr_expect_gt(t.lazy, 0);
    for (int s = 0; s < 4; s++) {
        cr_expect(rg_texture_is_transient(g, colors[s]), "set %d", s);
        cr_expect_eq(rg_texture_memory(g, colors[s], NULL, NULL), RG_MEMORY_LAZY, "set %d", s);
    }
    expect_no_validation_messages(ctx);
    rg_graph_destroy(g);
    eng_image_destroy(target);
}

/* ------------------------------------------------------- memoryless rule */

static int rule_errors(VkAttachmentLoadOp load, VkAttachmentStoreOp store, char *first, size_t size)
{
    eng_context *ctx = tile_context(true);
    eng_image *color = attachment_on(ctx, VK_FORMAT_R8G8B8A8_UNORM, false, "lazy color");
    eng_image *depth = attachment_on(ctx, VK_FORMAT_D32_SFLOAT, false, "lazy depth");
    cr_assert(eng_image_is_lazy(color));
    frame_job job = { eng_image_get_info(color), eng_image_get_info(depth), NULL, NULL, load, store };
    cr_assert_eq(eng_context_submit_once(ctx, record_frame, &job), ENG_SUCCESS, "%s", eng_last_error());
    eng_message_counts m = eng_context_messages(ctx);
    snprintf(first, size, "%s", eng_context_first_message(ctx));
    eng_image_destroy(depth);
    eng_image_destroy(color);
    eng_context_destroy(ctx);
    return (int)m.error;
}

/* The frame with load and store on its lazy attachment breaks the
 * memoryless rule: reported, the first report naming the rule and op. */
static void expect_rule_reported(VkAttachmentLoadOp load, VkAttachmentStoreOp store, const char *op)
{
    char first[1024];
    cr_expect_gt(rule_errors(load, store, first, sizeof first), 0, "%s on a lazy attachment was not reported", op);
    cr_expect_neq(strstr(first, "VKGRAPH-tile-memoryless"), NULL, "first message: %s", first);
    cr_expect_neq(strstr(first, op), NULL, "first message: %s", first);
}

DEVICE_TEST(tile_layer, lazy_attachment_stored_is_reported)
{
    expect_rule_reported(VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, "storeOp STORE");
    /* The same frame with CLEAR / DONT_CARE is silent. */
    char first[1024];
    cr_expect_eq(rule_errors(VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, first, sizeof first), 0,
                 "first: %s", first);
}

DEVICE_TEST(tile_layer, lazy_attachment_loaded_is_reported)
{
    expect_rule_reported(VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_DONT_CARE, "loadOp LOAD");
}

typedef struct clear_job {
    const eng_image_info *color;
    const eng_image_info *kept;
} clear_job;

static void record_clears(VkCommandBuffer cmd, void *user)
{
    const clear_job *j = user;
    VkImageMemoryBarrier2 b[2] = {
        test_image_from_undefined(j->color, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL),
        test_image_from_undefined(j->kept, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL),
    };
    test_image_barriers(cmd, 2, b);
    VkClearColorValue black = { { 0, 0, 0, 1 } };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, j->color->image, VK_IMAGE_LAYOUT_GENERAL, &black, 1, &range); /* reported */
    vkCmdClearColorImage(cmd, j->kept->image, VK_IMAGE_LAYOUT_GENERAL, &black, 1, &range);  /* not lazy: silent */
}

DEVICE_TEST(tile_layer, lazy_image_cleared_outside_rendering_is_reported)
{
    eng_context *ctx = tile_context(true);
    /* A transient image has no TRANSFER usage, so validation objects too:
     * the layer's own reports are counted apart. */
    tile_rule_counter *counter = tile_rule_counter_begin(ctx);
    eng_attachment_desc cd = { .name = "lazy color", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H };
    eng_image_desc kd = { .name = "kept", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT };
    eng_image *color = NULL, *kept = NULL;
    cr_assert_eq(eng_attachment_create(ctx, &cd, &color), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_image_create(ctx, &kd, &kept), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(eng_image_is_lazy(color));
    clear_job job = { eng_image_get_info(color), eng_image_get_info(kept) };
    cr_assert_eq(eng_context_submit_once(ctx, record_clears, &job), ENG_SUCCESS, "%s", eng_last_error());
    char first[1024];
    int reports = tile_rule_counter_end(counter, first, sizeof first);
    cr_expect_eq(reports, 1, "one vkCmdClearColorImage on lazy memory, %d reports", reports);
    cr_expect_neq(strstr(first, "vkCmdClearColorImage"), NULL, "first: %s", first);
    eng_image_destroy(kept);
    eng_image_destroy(color);
    eng_context_destroy(ctx);
}

/* ------------------------------------------------------- fault injection */

Test(tile_faults, failed_allocation_is_a_clean_error_and_the_next_succeeds)
{
    eng_context *ctx = tile_faulty_context("VKGRAPH_TILE_FAIL_ALLOC", 1);
    eng_image_desc d = { .name = "first", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                         .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    eng_image *img = NULL;
    eng_result r = eng_image_create(ctx, &d, &img);
    cr_expect_eq(r, ENG_ERROR_OUT_OF_MEMORY, "got %s", eng_result_string(r));
    cr_expect_null(img, "nothing half-made is handed out");
    cr_expect_neq(strstr(eng_last_error(), "vkAllocateMemory"), NULL, "message: %s", eng_last_error());

    d.name = "second";
    r = eng_image_create(ctx, &d, &img);
    cr_expect_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    eng_image_destroy(img);

    /* Validation reports any VkImage the failed call left behind here. */
    destroy_context_expect_clean(ctx, "the tile-layer context");
}

/* Each allocation of the graph's placement fails in turn (allocation 1 is
 * the resolve target). A lazy one falls back to device-local memory and
 * the frame runs (docs/tiles.md); any other is a clean error and the next
 * frame places and runs; nothing is leaked or misused (validation silent
 * at vkDestroyDevice). */
Test(tile_faults, graph_placement_fails_cleanly_at_each_allocation)
{
    unsigned fallbacks = 0, failed = 0;
    for (unsigned n = 2; n < 40; n++) {
        eng_context *ctx = tile_faulty_context("VKGRAPH_TILE_FAIL_ALLOC", n);
        eng_image *target = resolve_target(ctx);
        rg_texture colors[4];
        rg_graph *g = build_sets(ctx, eng_image_get_info(target), colors);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        rg_result result = test_execute_once_on(ctx, g);
        bool fell_back = result == RG_SUCCESS && rg_memory_get_totals(g).lazy_fallback > 0;
        bool hit = result != RG_SUCCESS || fell_back;
        fallbacks += fell_back;
        if (result != RG_SUCCESS) {
            failed++;
            cr_expect_eq(result, RG_ERROR_OUT_OF_MEMORY, "allocation %u: %s", n, rg_graph_error_message(g));
            cr_expect_neq(rg_graph_error_message(g)[0], '\0');
            result = test_execute_once_on(ctx, g);
            cr_expect_eq(result, RG_SUCCESS, "allocation %u, retried: %s", n, rg_graph_error_message(g));
        }
        rg_graph_destroy(g);
        eng_image_destroy(target);
        char first[1024];
        eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
        cr_expect_eq(m.warning + m.error, 0, "allocation %u: first: %s", n, first);
        if (!hit)
            break; /* past the last allocation */
    }
    cr_expect_eq(fallbacks, 8, "4 sets of color + depth: each lazy allocation falls back, %u did", fallbacks);
    cr_expect_eq(failed, 0, "no allocation the graph cannot do without: %u failed", failed);
}
