/* VK_KHR_dynamic_rendering_local_read under VK_LAYER_VKGRAPH_tile_memory,
 * below validation with synchronization validation. One rendering instance
 * of two RGBA8 color attachments and two sub-passes: the first draws red
 * into attachment 0 (location 0), a by-region barrier follows
 * (COLOR_ATTACHMENT_WRITE -> INPUT_ATTACHMENT_READ), the second reads
 * attachment 0 as input attachment 0 (RENDERING_LOCAL_READ layout, an
 * INPUT_ATTACHMENT descriptor) and writes it, red and blue swapped, into
 * attachment 1 (location 0). The extension, its feature and both mapping
 * commands pass through the layer (the context enables them through it and
 * the pixels come out right); a lazy attachment 0 breaks no memoryless rule;
 * with VKGRAPH_TILE_MOLTENVK=1 the layer reports it, since MoltenVK restarts
 * its render pass at that barrier and discards memoryless attachments, but
 * not a lazy attachment first used after the barrier or no longer bound.
 *
 * Where the device lacks the extension (Debian 12's Mesa 22 lavapipe) the
 * tests skip, saying so; a Vulkan 1.4 device must offer the feature, so
 * there a missing one fails under ENG_REQUIRE_DEVICE (CI). */
#include "device_fixture.h"
#include "test_rendering.h"
#include "test_barrier.h"
#include "solid.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

/* Contexts of their own: VKGRAPH_TILE_MOLTENVK is read at vkCreateDevice. */
TestSuite(tile_local_read);

static const uint32_t read_frag_spv[] =
#include "tile_local_read.frag.inc"
    ;

#define W 16
#define H 16
#define UNUSED VK_ATTACHMENT_UNUSED
#define MOLTENVK_TEXT "MoltenVK restarts the render pass at a local-read barrier and discards memoryless attachments"

static const float red[4] = { 1, 0, 0, 1 };
static const float yellow[4] = { 1, 1, 0, 1 };
static const float green[4] = { 0, 1, 0, 1 };

/* A context with the layer, in MoltenVK mode or not, whose device has local
 * read on; skips (or fails, see above) where the device has none. */
static eng_context *local_read_context(bool moltenvk)
{
    eng_context *ctx = moltenvk ? tile_context_with("VKGRAPH_TILE_MOLTENVK", "1", true) : tile_context(false);
    if (eng_context_local_read(ctx).supported)
        return ctx;
    uint32_t version = eng_context_properties(ctx)->apiVersion;
    char device[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    snprintf(device, sizeof device, "%s", eng_context_properties(ctx)->deviceName);
    eng_context_destroy(ctx);
    if (device_required() && version >= VK_MAKE_API_VERSION(0, 1, 4, 0))
        cr_assert_fail("'%s' (Vulkan 1.4, which requires dynamicRenderingLocalRead) has no "
                       VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME " under %s", device, TILE_LAYER);
    cr_skip_test("'%s' (Vulkan %u.%u) offers no " VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME, device,
                 VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
    return NULL;
}

/* A pipeline's mapping, set by the rendering instance before it draws. */
typedef struct mapping {
    uint32_t locations[2];
    uint32_t inputs[2];
} mapping;

static const mapping write_0 = { { 0, UNUSED }, { UNUSED, UNUSED } };   /* draws into attachment 0 */
static const mapping read_0_write_1 = { { UNUSED, 0 }, { 0, UNUSED } }; /* reads 0, draws into 1 */
static const mapping write_1 = { { UNUSED, 0 }, { UNUSED, UNUSED } };   /* draws into 1, 0 unbound */

typedef struct subpass {
    const mapping *map;
    const eng_pipeline *pipeline;
    const float *color; /* NULL: the sub-pass sets its mapping and draws nothing */
} subpass;

typedef struct frame {
    eng_context *ctx;
    eng_image *image[2];
    bool lazy[2];
    VkClearColorValue clear0;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set; /* input attachment 0: attachment 0 */
    eng_pipeline *write_0, *read_0_write_1, *write_1;
    subpass sub[2];
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
} frame;

static eng_pipeline *pipeline(frame *f, const char *name, const mapping *m, bool reads)
{
    eng_pipeline_desc d = {
        .name = name,
        .vertex_spirv = solid_vert_spv,
        .vertex_size = solid_vert_size,
        .fragment_spirv = reads ? read_frag_spv : solid_frag_spv,
        .fragment_size = reads ? sizeof read_frag_spv : solid_frag_size,
        .color_formats = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM },
        .color_count = 2,
        .triangle_strip = true,
        .push_constant_size = sizeof(solid_push),
        .local_read = true,
        .color_locations = { m->locations[0], m->locations[1] },
        .color_input_indices = { m->inputs[0], m->inputs[1] },
        .depth_input_index = UNUSED,
        .stencil_input_index = UNUSED,
        .set_layouts = reads ? &f->set_layout : NULL,
        .set_layout_count = reads ? 1 : 0,
    };
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(f->ctx, &d, &p);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s: %s", name, eng_result_string(r), eng_last_error());
    return p;
}

/* Attachment i lazy (TRANSIENT, on the layer's lazy type) or kept (read
 * back afterwards); attachment 0 is read as an input attachment. */
static void frame_create(frame *f, eng_context *ctx, bool lazy0, bool lazy1)
{
    *f = (frame){ .ctx = ctx, .lazy = { lazy0, lazy1 } };
    for (int i = 0; i < 2; i++) {
        eng_image_desc d = {
            .name = i == 0 ? (lazy0 ? "lazy gbuffer" : "kept gbuffer") : (lazy1 ? "lazy target" : "kept target"),
            .format = VK_FORMAT_R8G8B8A8_UNORM,
            .width = W,
            .height = H,
            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (i == 0 ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0) |
                     (f->lazy[i] ? VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT : VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
        };
        cr_assert_eq(eng_image_create(ctx, &d, &f->image[i]), ENG_SUCCESS, "%s", eng_last_error());
        cr_assert_eq(eng_image_is_lazy(f->image[i]), f->lazy[i], "%s: lazy memory is the layer's (%s)", d.name,
                     TILE_LAYER);
    }
    VkDevice dev = eng_context_device(ctx);
    VkDescriptorSetLayoutBinding binding = { 0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                             NULL };
    VkDescriptorSetLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &binding };
    cr_assert_eq(vkCreateDescriptorSetLayout(dev, &lci, NULL, &f->set_layout), VK_SUCCESS);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1 };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 1, .pPoolSizes = &size };
    cr_assert_eq(vkCreateDescriptorPool(dev, &pci, NULL, &f->pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = f->pool, .descriptorSetCount = 1,
                                       .pSetLayouts = &f->set_layout };
    cr_assert_eq(vkAllocateDescriptorSets(dev, &ai, &f->set), VK_SUCCESS);
    /* A lazy image through an INPUT_ATTACHMENT descriptor: a tile read,
     * which the memoryless rules allow. */
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, eng_image_get_info(f->image[0])->view,
                                 VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = f->set,
                               .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
                               .pImageInfo = &ii };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    f->write_0 = pipeline(f, "write 0", &write_0, false);
    f->read_0_write_1 = pipeline(f, "read 0, write 1", &read_0_write_1, true);
    f->write_1 = pipeline(f, "write 1", &write_1, false);
    f->set_locations = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)vkGetDeviceProcAddr(
        dev, "vkCmdSetRenderingAttachmentLocationsKHR");
    f->set_input_indices = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)vkGetDeviceProcAddr(
        dev, "vkCmdSetRenderingInputAttachmentIndicesKHR");
    cr_assert_not_null(f->set_locations, "vkCmdSetRenderingAttachmentLocationsKHR did not pass through the layer");
    cr_assert_not_null(f->set_input_indices, "vkCmdSetRenderingInputAttachmentIndicesKHR did not pass through");
}

static void frame_destroy(frame *f)
{
    VkDevice dev = eng_context_device(f->ctx);
    eng_pipeline_destroy(f->write_1);
    eng_pipeline_destroy(f->read_0_write_1);
    eng_pipeline_destroy(f->write_0);
    vkDestroyDescriptorPool(dev, f->pool, NULL);
    vkDestroyDescriptorSetLayout(dev, f->set_layout, NULL);
    eng_image_destroy(f->image[1]);
    eng_image_destroy(f->image[0]);
}

static void set_mapping(VkCommandBuffer cmd, const frame *f, const mapping *m)
{
    VkRenderingAttachmentLocationInfoKHR locations = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR,
        .colorAttachmentCount = 2,
        .pColorAttachmentLocations = m->locations,
    };
    const uint32_t unused = UNUSED;
    VkRenderingInputAttachmentIndexInfoKHR inputs = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR,
        .colorAttachmentCount = 2,
        .pColorAttachmentInputIndices = m->inputs,
        .pDepthInputAttachmentIndex = &unused,
        .pStencilInputAttachmentIndex = &unused,
    };
    f->set_locations(cmd, &locations);
    f->set_input_indices(cmd, &inputs);
}

static void record_frame(VkCommandBuffer cmd, void *user)
{
    const frame *f = user;
    const eng_image_info *img[2] = { eng_image_get_info(f->image[0]), eng_image_get_info(f->image[1]) };
    const VkPipelineStageFlags2 out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkAccessFlags2 rw = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    VkImageMemoryBarrier2 b[2] = {
        test_image_from_undefined(img[0], VK_PIPELINE_STAGE_2_NONE, 0, out | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                  rw | VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT, VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR),
        test_image_from_undefined(img[1], VK_PIPELINE_STAGE_2_NONE, 0, out, rw,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    };
    test_image_barriers(cmd, 2, b);

    /* Lazy: cleared (attachment 0) or DONT_CARE (attachment 1), never
     * stored, as the memoryless rules want; kept: cleared and stored. */
    VkRenderingAttachmentInfo color[2];
    for (int i = 0; i < 2; i++)
        color[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = img[i]->view,
            .imageLayout = i == 0 ? VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = i == 1 && f->lazy[1] ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = f->lazy[i] ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = { .color = i == 0 ? f->clear0 : (VkClearColorValue){ { 0, 0, 0, 0 } } },
        };
    test_begin_rendering(cmd, W, H, color, 2, NULL);
    VkViewport vp = { 0, 0, W, H, 0, 1 };
    VkRect2D all = { { 0, 0 }, { W, H } };
    const float full[4] = { -1.0f, -1.0f, 1.0f, 1.0f };
    for (int s = 0; s < 2; s++) {
        const subpass *sp = &f->sub[s];
        if (s == 1) {
            /* The local-read barrier: attachment writes before it, input
             * attachment reads of the same pixel after it. */
            test_memory_barrier(cmd, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT);
        }
        set_mapping(cmd, f, sp->map);
        if (!sp->color)
            continue;
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(sp->pipeline));
        if (sp->pipeline == f->read_0_write_1)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(sp->pipeline), 0, 1,
                                    &f->set, 0, NULL);
        vkCmdSetViewport(cmd, 0, 1, &vp);
        vkCmdSetScissor(cmd, 0, 1, &all);
        solid_draw(cmd, sp->pipeline, full, sp->color, 0.5f);
    }
    vkCmdEndRendering(cmd);
}

/* Records and runs the frame; returns the layer's memoryless reports and
 * the first one's text. */
static int run_frame(frame *f, char *first, size_t size)
{
    tile_rule_counter *counter = tile_rule_counter_begin(f->ctx);
    eng_result r = eng_context_submit_once(f->ctx, record_frame, f);
    int reports = tile_rule_counter_end(counter, first, size);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return reports;
}

static void expect_pixels(frame *f, int index, VkImageLayout layout, const uint8_t want[4])
{
    static uint8_t px[W * H * 4];
    memset(px, 0xAB, sizeof px);
    cr_assert_eq(eng_image_read(f->ctx, f->image[index], layout, px, sizeof px), ENG_SUCCESS, "%s",
                 eng_last_error());
    int bad = 0;
    for (int i = 0; i < W * H; i++)
        bad += memcmp(px + 4 * i, want, 4) != 0;
    cr_expect_eq(bad, 0, "attachment %d: %d of %d pixels differ; (0,0) = %u,%u,%u,%u, want %u,%u,%u,%u", index, bad,
                 W * H, px[0], px[1], px[2], px[3], want[0], want[1], want[2], want[3]);
}

/* Only the layer's own reports, if any: no validation message besides. */
static void expect_only_reports(eng_context *ctx, int reports)
{
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.warning, 0, "%u validation warnings; first: %s", m.warning, first);
    cr_expect_eq(m.error, (uint32_t)reports, "%u validation errors, %d of them the layer's; first: %s", m.error,
                 reports, first);
}

/* (a) The lazy attachment written, then read as an input attachment after
 * the barrier: legal for the memoryless rules (RENDERING_LOCAL_READ layout,
 * CLEAR / DONT_CARE, an INPUT_ATTACHMENT descriptor); the pixels show that
 * the mapping commands reached the driver. */
Test(tile_local_read, lazy_input_attachment_across_barrier_is_legal)
{
    frame f;
    frame_create(&f, local_read_context(false), true, false);
    f.sub[0] = (subpass){ &write_0, f.write_0, red };
    f.sub[1] = (subpass){ &read_0_write_1, f.read_0_write_1, red };
    char first[1024];
    int reports = run_frame(&f, first, sizeof first);
    cr_expect_eq(reports, 0, "first: %s", first);
    expect_pixels(&f, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, (const uint8_t[4]){ 0, 0, 255, 255 });
    eng_context *ctx = f.ctx;
    frame_destroy(&f);
    expect_only_reports(ctx, 0);
}

/* (b) The same frame in MoltenVK mode: exactly one report, at the draw that
 * reads it, naming the image. The commands still reach the driver. */
Test(tile_local_read, moltenvk_reports_lazy_contents_across_barrier)
{
    frame f;
    frame_create(&f, local_read_context(true), true, false);
    f.sub[0] = (subpass){ &write_0, f.write_0, red };
    f.sub[1] = (subpass){ &read_0_write_1, f.read_0_write_1, red };
    char first[1024];
    int reports = run_frame(&f, first, sizeof first);
    cr_expect_eq(reports, 1, "one lazy attachment read across one barrier, %d reports; first: %s", reports, first);
    cr_expect_neq(strstr(first, MOLTENVK_TEXT), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "\"lazy gbuffer\""), NULL, "the image by its debug name; first: %s", first);
    cr_expect_neq(strstr(first, "color attachment 0"), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "input attachment index 0"), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "vkCmdDraw:"), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "vkCmdPipelineBarrier2"), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "written by a draw"), NULL, "first: %s", first);
    expect_pixels(&f, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, (const uint8_t[4]){ 0, 0, 255, 255 });
    eng_context *ctx = f.ctx;
    frame_destroy(&f);
    expect_only_reports(ctx, reports);
}

/* A clear is contents too: cleared, nothing drawn, read after the barrier. */
Test(tile_local_read, moltenvk_reports_lazy_clear_across_barrier)
{
    frame f;
    frame_create(&f, local_read_context(true), true, false);
    f.clear0 = (VkClearColorValue){ { yellow[0], yellow[1], yellow[2], yellow[3] } };
    f.sub[0] = (subpass){ &write_0, f.write_0, NULL };
    f.sub[1] = (subpass){ &read_0_write_1, f.read_0_write_1, red };
    char first[1024];
    int reports = run_frame(&f, first, sizeof first);
    cr_expect_eq(reports, 1, "%d reports; first: %s", reports, first);
    cr_expect_neq(strstr(first, MOLTENVK_TEXT), NULL, "first: %s", first);
    cr_expect_neq(strstr(first, "cleared by its loadOp"), NULL, "first: %s", first);
    expect_pixels(&f, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, (const uint8_t[4]){ 0, 255, 255, 255 });
    eng_context *ctx = f.ctx;
    frame_destroy(&f);
    expect_only_reports(ctx, reports);
}

/* (c) MoltenVK mode, the lazy attachment first used after the barrier
 * (DONT_CARE, not mapped before it): nothing to lose, no report. The kept
 * attachment 0 shows the first sub-pass ran. */
Test(tile_local_read, moltenvk_allows_lazy_attachment_first_used_after_barrier)
{
    frame f;
    frame_create(&f, local_read_context(true), false, true);
    f.sub[0] = (subpass){ &write_0, f.write_0, red };
    f.sub[1] = (subpass){ &read_0_write_1, f.read_0_write_1, red };
    char first[1024];
    int reports = run_frame(&f, first, sizeof first);
    cr_expect_eq(reports, 0, "first: %s", first);
    expect_pixels(&f, 0, VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR, (const uint8_t[4]){ 255, 0, 0, 255 });
    eng_context *ctx = f.ctx;
    frame_destroy(&f);
    expect_only_reports(ctx, 0);
}

/* MoltenVK mode, the lazy attachment written before the barrier but neither
 * mapped to a location nor to an input index after it: its loss is never
 * seen, no report. */
Test(tile_local_read, moltenvk_allows_lazy_attachment_unbound_after_barrier)
{
    frame f;
    frame_create(&f, local_read_context(true), true, false);
    f.sub[0] = (subpass){ &write_0, f.write_0, red };
    f.sub[1] = (subpass){ &write_1, f.write_1, green };
    char first[1024];
    int reports = run_frame(&f, first, sizeof first);
    cr_expect_eq(reports, 0, "first: %s", first);
    expect_pixels(&f, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, (const uint8_t[4]){ 0, 255, 0, 255 });
    eng_context *ctx = f.ctx;
    frame_destroy(&f);
    expect_only_reports(ctx, 0);
}
