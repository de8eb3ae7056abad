/* VK_KHR_dynamic_rendering_local_read: what the context reports and enables,
 * pipelines built with a remapped attachment mapping (and a draw through
 * it, read back), and their refusal where local read is off. No test skips
 * on a device without the extension: each checks that the context reports
 * it unsupported and refuses local_read pipelines instead. */
#include "device_fixture.h"
#include "test_rendering.h"
#include "test_barrier.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(local_read, .init = device_setup, .fini = device_teardown);

static const uint32_t local_read_frag_spv[] =
#include "local_read_test.frag.inc"
    ;

#define W 16
#define H 16
#define UNUSED VK_ATTACHMENT_UNUSED

/* Whether the device offers the extension with its feature, asked here
 * rather than through the engine. */
static bool device_offers_local_read(eng_context *ctx)
{
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    uint32_t n = 0;
    cr_assert_eq(vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL), VK_SUCCESS);
    VkExtensionProperties *ext = calloc(n ? n : 1, sizeof *ext);
    cr_assert_not_null(ext);
    cr_assert_eq(vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext), VK_SUCCESS);
    bool offered = false;
    for (uint32_t i = 0; i < n; i++)
        offered = offered || strcmp(ext[i].extensionName, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME) == 0;
    free(ext);
    if (!offered)
        return false;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR lr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
    };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &lr };
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    return lr.dynamicRenderingLocalRead;
}

/* Two RGBA8 color attachments: attachment 0 written by fragment output
 * location 1, attachment 1 by location 0 and readable as input attachment
 * 0; no depth. */
static eng_pipeline_desc remapped_desc(void)
{
    return (eng_pipeline_desc){
        .name = "remapped",
        .vertex_spirv = solid_vert_spv,
        .vertex_size = solid_vert_size,
        .fragment_spirv = local_read_frag_spv,
        .fragment_size = sizeof local_read_frag_spv,
        .color_formats = { VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM },
        .color_count = 2,
        .triangle_strip = true,
        .push_constant_size = sizeof(solid_push),
        .local_read = true,
        .color_locations = { 1, 0 },
        .color_input_indices = { UNUSED, 0 },
        .depth_input_index = UNUSED,
        .stencil_input_index = UNUSED,
    };
}

/* A local_read pipeline on a context without local read: refused, and the
 * message names the pipeline and the extension. */
static void expect_refused(eng_context *ctx, const eng_pipeline_desc *d)
{
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(ctx, d, &p);
    cr_expect_eq(r, ENG_ERROR_UNSUPPORTED, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_null(p);
    cr_expect_neq(strstr(eng_last_error(), d->name), NULL, "message: %s", eng_last_error());
    cr_expect_neq(strstr(eng_last_error(), VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME), NULL, "message: %s",
                  eng_last_error());
    eng_pipeline_destroy(p);
}

DEVICE_TEST(local_read, driver_id)
{
    const VkPhysicalDeviceProperties *props = eng_context_properties(test_ctx);
    VkDriverId driver = eng_context_driver(test_ctx);
    if (strstr(props->deviceName, "llvmpipe"))
        cr_expect_eq(driver, VK_DRIVER_ID_MESA_LLVMPIPE, "lavapipe ('%s') reports driver %d", props->deviceName,
                     (int)driver);
    else
        cr_expect_neq((int)driver, 0, "'%s' reports no driver ID", props->deviceName);
}

DEVICE_TEST(local_read, reports_what_the_device_offers)
{
    bool offered = device_offers_local_read(test_ctx);
    eng_local_read lr = eng_context_local_read(test_ctx);
    cr_expect_eq(lr.supported, offered, "supported %d, device offers extension and feature %d", lr.supported,
                 offered);
    /* Claimed only from Vulkan 1.4 properties, which a context on a
     * Vulkan 1.3 instance does not read. */
    cr_expect(!lr.depth_stencil && !lr.multisampled, "depth_stencil %d, multisampled %d", lr.depth_stencil,
              lr.multisampled);
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(test_ctx)->limits;
    cr_expect_eq(lr.max_color_attachments, lim->maxColorAttachments);
    cr_expect_eq(lr.max_input_attachments, lim->maxPerStageDescriptorInputAttachments);
    cr_expect_geq(lr.max_color_attachments, 2, "the tests here draw to 2 attachments");
}

typedef struct remap_job {
    const eng_image_info *a0, *a1;
    const eng_pipeline *pipeline;
    PFN_vkCmdSetRenderingAttachmentLocationsKHR set_locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR set_input_indices;
    const eng_pipeline_desc *desc;
} remap_job;

static void record_remapped(VkCommandBuffer cmd, void *user)
{
    const remap_job *j = user;
    const VkPipelineStageFlags2 out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkImageMemoryBarrier2 b[2] = {
        test_image_from_undefined(j->a0, VK_PIPELINE_STAGE_2_NONE, 0, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        test_image_from_undefined(j->a1, VK_PIPELINE_STAGE_2_NONE, 0, out, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
    };
    test_image_barriers(cmd, 2, b);
    VkRenderingAttachmentInfo color[2];
    const eng_image_info *img[2] = { j->a0, j->a1 };
    for (int i = 0; i < 2; i++)
        color[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = img[i]->view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = { .color = { { 0, 0, 0, 0 } } },
        };
    test_begin_rendering(cmd, W, H, color, 2, NULL);
    /* The rendering instance's mapping, the same as the pipeline's. */
    const eng_pipeline_desc *d = j->desc;
    VkRenderingAttachmentLocationInfoKHR locations = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR,
        .colorAttachmentCount = d->color_count,
        .pColorAttachmentLocations = d->color_locations,
    };
    VkRenderingInputAttachmentIndexInfoKHR inputs = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR,
        .colorAttachmentCount = d->color_count,
        .pColorAttachmentInputIndices = d->color_input_indices,
        .pDepthInputAttachmentIndex = &d->depth_input_index,
        .pStencilInputAttachmentIndex = &d->stencil_input_index,
    };
    j->set_locations(cmd, &locations);
    j->set_input_indices(cmd, &inputs);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    test_whole_viewport(cmd, W, H);
    const float full[4] = { -1.0f, -1.0f, 1.0f, 1.0f };
    const float red[4] = { 1, 0, 0, 1 };
    solid_draw(cmd, j->pipeline, full, red, 0.5f);
    vkCmdEndRendering(cmd);
}

static void expect_all(const uint8_t *px, const uint8_t want[4], const char *what)
{
    int bad = 0;
    for (int i = 0; i < W * H; i++)
        bad += memcmp(px + 4 * i, want, 4) != 0;
    cr_expect_eq(bad, 0, "%s: %d of %d pixels differ; (0,0) = %u,%u,%u,%u, want %u,%u,%u,%u", what, bad, W * H,
                 px[0], px[1], px[2], px[3], want[0], want[1], want[2], want[3]);
}

/* Attachment 0 at location 1, attachment 1 at location 0: a draw whose
 * output 0 is red and output 1 its complement (cyan) leaves cyan in
 * attachment 0 and red in attachment 1. */
DEVICE_TEST(local_read, remapped_pipeline_draws)
{
    eng_context *ctx = test_ctx;
    eng_pipeline_desc d = remapped_desc();
    if (!eng_context_local_read(ctx).supported) {
        cr_expect(!device_offers_local_read(ctx), "the device offers local read, the context did not enable it");
        expect_refused(ctx, &d);
        return;
    }
    eng_pipeline *pipe = NULL;
    eng_result r = eng_pipeline_create(ctx, &d, &pipe);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    expect_no_validation_messages(ctx);

    VkDevice dev = eng_context_device(ctx);
    remap_job job = {
        .pipeline = pipe,
        .desc = &d,
        .set_locations = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)vkGetDeviceProcAddr(
            dev, "vkCmdSetRenderingAttachmentLocationsKHR"),
        .set_input_indices = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)vkGetDeviceProcAddr(
            dev, "vkCmdSetRenderingInputAttachmentIndicesKHR"),
    };
    cr_assert_not_null(job.set_locations, "vkCmdSetRenderingAttachmentLocationsKHR not found");
    cr_assert_not_null(job.set_input_indices, "vkCmdSetRenderingInputAttachmentIndicesKHR not found");
    eng_image *a[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        eng_image_desc id = { .name = i ? "attachment 1" : "attachment 0", .format = VK_FORMAT_R8G8B8A8_UNORM,
                              .width = W, .height = H,
                              .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
        cr_assert_eq(eng_image_create(ctx, &id, &a[i]), ENG_SUCCESS, "%s", eng_last_error());
    }
    job.a0 = eng_image_get_info(a[0]);
    job.a1 = eng_image_get_info(a[1]);
    r = eng_context_submit_once(ctx, record_remapped, &job);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());

    static uint8_t px[W * H * 4];
    cr_assert_eq(eng_image_read(ctx, a[0], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    expect_all(px, (const uint8_t[4]){ 0, 255, 255, 255 }, "attachment 0 (location 1)");
    cr_assert_eq(eng_image_read(ctx, a[1], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    expect_all(px, (const uint8_t[4]){ 255, 0, 0, 255 }, "attachment 1 (location 0)");
    expect_no_validation_messages(ctx);
    eng_image_destroy(a[1]);
    eng_image_destroy(a[0]);
    eng_pipeline_destroy(pipe);
}

/* Mappings Vulkan forbids are refused before the driver sees them, with a
 * message naming the pipeline. */
DEVICE_TEST(local_read, invalid_mappings_refused)
{
    eng_context *ctx = test_ctx;
    if (!eng_context_local_read(ctx).supported) {
        eng_pipeline_desc d = remapped_desc();
        expect_refused(ctx, &d);
        return;
    }
    struct {
        const char *what;
        eng_pipeline_desc d;
    } cases[5];
    for (int i = 0; i < 5; i++)
        cases[i].d = remapped_desc();
    cases[0].what = "two attachments at one location";
    cases[0].d.color_locations[0] = 0;
    cases[1].what = "a location past maxColorAttachments";
    cases[1].d.color_locations[0] = eng_context_local_read(ctx).max_color_attachments;
    cases[2].what = "two attachments at one input index";
    cases[2].d.color_input_indices[0] = 0;
    cases[3].what = "a depth input index without a depth attachment";
    cases[3].d.depth_input_index = 1;
    cases[4].what = "a color input index equal to the depth one";
    cases[4].d.depth_format = VK_FORMAT_D32_SFLOAT;
    cases[4].d.depth_input_index = 0;
    for (int i = 0; i < 5; i++) {
        eng_pipeline *p = NULL;
        cases[i].d.name = cases[i].what;
        eng_result r = eng_pipeline_create(ctx, &cases[i].d, &p);
        cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT, "%s: %s: %s", cases[i].what, eng_result_string(r),
                     eng_last_error());
        cr_expect_null(p, "%s", cases[i].what);
        cr_expect_neq(strstr(eng_last_error(), cases[i].what), NULL, "message: %s", eng_last_error());
        eng_pipeline_destroy(p);
    }
}

/* Reading depth, or reading a multisampled attachment, as an input
 * attachment: built where local read covers it, else refused. */
DEVICE_TEST(local_read, depth_and_multisampled_reads)
{
    eng_context *ctx = test_ctx;
    eng_local_read lr = eng_context_local_read(ctx);
    if (!lr.supported) {
        eng_pipeline_desc d = remapped_desc();
        expect_refused(ctx, &d);
        return;
    }
    eng_pipeline_desc depth = remapped_desc();
    depth.name = "depth read at index 1";
    depth.depth_format = VK_FORMAT_D32_SFLOAT;
    depth.depth_input_index = 1;
    eng_pipeline_desc msaa = remapped_desc();
    msaa.name = "4x color read at index 0";
    msaa.samples = VK_SAMPLE_COUNT_4_BIT;
    const struct {
        const eng_pipeline_desc *d;
        bool covered;
        const char *needs;
    } cases[] = { { &depth, lr.depth_stencil, "depth/stencil" }, { &msaa, lr.multisampled, "multisampled" } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        eng_pipeline *p = NULL;
        eng_result r = eng_pipeline_create(ctx, cases[i].d, &p);
        if (cases[i].covered) {
            cr_expect_eq(r, ENG_SUCCESS, "%s: %s: %s", cases[i].d->name, eng_result_string(r), eng_last_error());
        } else {
            cr_expect_eq(r, ENG_ERROR_UNSUPPORTED, "%s: %s: %s", cases[i].d->name, eng_result_string(r),
                         eng_last_error());
            cr_expect_null(p);
            cr_expect_neq(strstr(eng_last_error(), cases[i].d->name), NULL, "message: %s", eng_last_error());
            cr_expect_neq(strstr(eng_last_error(), cases[i].needs), NULL, "message: %s", eng_last_error());
        }
        eng_pipeline_destroy(p);
    }
    /* Without any input index, a multisampled pipeline reads nothing and
     * only remaps locations: always built. */
    msaa.name = "4x locations only";
    msaa.color_input_indices[1] = UNUSED;
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(ctx, &msaa, &p);
    cr_expect_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    eng_pipeline_destroy(p);
}

/* eng_context_desc.no_local_read: the same device without local read, so
 * local_read pipelines are refused there and the others still build. */
DEVICE_TEST(local_read, no_local_read_context_refuses)
{
    eng_context_desc desc = { .app_name = "tests-no-local-read", .validation = true, .no_local_read = true };
    eng_context *ctx = test_context_create(&desc);
    eng_local_read lr = eng_context_local_read(ctx);
    cr_expect(!lr.supported && !lr.depth_stencil && !lr.multisampled);
    cr_expect_eq(lr.max_color_attachments, eng_context_properties(ctx)->limits.maxColorAttachments);
    cr_expect_eq(eng_context_driver(ctx), eng_context_driver(test_ctx));

    eng_pipeline_desc d = remapped_desc();
    expect_refused(ctx, &d);
    d.local_read = false; /* the default mapping: the arrays are ignored */
    d.name = "default mapping";
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(ctx, &d, &p);
    cr_expect_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    eng_pipeline_destroy(p);

    destroy_context_expect_clean(ctx, "the local-read context");
}
