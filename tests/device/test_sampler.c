/* The context's samplers (eng_sampler_get): equal descs share one VkSampler,
 * the cache grows past any fixed size and dies with the context (a leaked
 * sampler is a validation message at vkDestroyDevice, which fails the test),
 * filtering and addressing sample exact values through a real draw, and
 * invalid or feature-less descs are refused with a message naming the
 * field. */
#include "device_fixture.h"
#include "test_barrier.h"
#include "test_rendering.h"
#include "test_descriptors.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

TestSuite(sampler, .init = device_setup, .fini = device_teardown);

static const uint32_t sampler_frag[] =
#include "sampler_test.frag.inc"
    ;

static VkSampler get(eng_context *ctx, const eng_sampler_desc *d)
{
    VkSampler s = VK_NULL_HANDLE;
    cr_assert_eq(eng_sampler_get(ctx, d, &s), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_neq(s, VK_NULL_HANDLE);
    return s;
}

/* Expects code and a message containing needle, and *out cleared. */
static void expect_refused(eng_context *ctx, const eng_sampler_desc *d, eng_result code, const char *needle,
                           int line)
{
    VkSampler s = (VkSampler)(uintptr_t)0x1;
    eng_result r = eng_sampler_get(ctx, d, &s);
    cr_expect_eq(r, code, "line %d: got %s, want %s (%s)", line, eng_result_string(r), eng_result_string(code),
                 eng_last_error());
    cr_expect_eq(s, VK_NULL_HANDLE, "line %d: out not cleared", line);
    cr_expect_neq(strstr(eng_last_error(), needle), NULL, "line %d: '%s' lacks '%s'", line, eng_last_error(),
                  needle);
}
/* The desc last: its compound literal's commas are not in parentheses. */
#define EXPECT_REFUSED(ctx, code, needle, ...) expect_refused((ctx), (__VA_ARGS__), (code), (needle), __LINE__)

DEVICE_TEST(sampler, equal_descs_share_one_sampler)
{
    VkSampler zero = get(test_ctx, &(eng_sampler_desc){ 0 });
    /* The defaults spelled out, and fields Vulkan ignores set to anything:
     * border without CLAMP_TO_BORDER, compare_op without compare,
     * anisotropy at or below 1, max_lod past VK_LOD_CLAMP_NONE. */
    eng_sampler_desc explicit = {
        .filter = VK_FILTER_NEAREST,
        .mipmap = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .address = VK_SAMPLER_ADDRESS_MODE_REPEAT,
        .border = VK_BORDER_COLOR_INT_OPAQUE_WHITE,
        .anisotropy = 1.0f,
        .compare = false,
        .compare_op = VK_COMPARE_OP_GREATER,
        .max_lod = VK_LOD_CLAMP_NONE,
    };
    cr_expect_eq(get(test_ctx, &explicit), zero);
    cr_expect_eq(get(test_ctx, &(eng_sampler_desc){ .anisotropy = 0.5f, .max_lod = 5000.0f }), zero);

    VkSampler linear = get(test_ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR });
    cr_expect_neq(linear, zero);
    cr_expect_eq(get(test_ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR }), linear);
    /* Border counts with CLAMP_TO_BORDER; compare_op with compare. */
    VkSampler black = get(test_ctx, &(eng_sampler_desc){ .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER });
    VkSampler white = get(test_ctx, &(eng_sampler_desc){ .address = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                                         .border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE });
    cr_expect(black != white && black != zero && white != zero);
    VkSampler less = get(test_ctx, &(eng_sampler_desc){ .compare = true, .compare_op = VK_COMPARE_OP_LESS });
    VkSampler greater = get(test_ctx, &(eng_sampler_desc){ .compare = true, .compare_op = VK_COMPARE_OP_GREATER });
    cr_expect(less != greater && less != zero && greater != zero);
    VkSampler lod2 = get(test_ctx, &(eng_sampler_desc){ .max_lod = 2.0f });
    cr_expect(lod2 != zero);
}

/* 48 distinct descs: the cache grows well past its first allocation, and
 * every entry keeps its sampler across the growth. The fixture destroys the
 * context afterwards and fails on any sampler left alive. */
DEVICE_TEST(sampler, many_descs_grow_the_cache)
{
    enum { N = 48 };
    static const VkSamplerAddressMode modes[4] = {
        VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER
    };
    eng_sampler_desc d[N];
    VkSampler s[N];
    for (int i = 0; i < N; i++) {
        d[i] = (eng_sampler_desc){
            .filter = (i & 1) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
            .mipmap = (i & 2) ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST,
            .address = modes[(i >> 2) & 3],
            .max_lod = (float)(1 + i / 16),
        };
        s[i] = get(test_ctx, &d[i]);
        for (int k = 0; k < i; k++)
            cr_assert_neq(s[k], s[i], "descs %d and %d share a sampler", k, i);
    }
    for (int i = 0; i < N; i++)
        cr_expect_eq(get(test_ctx, &d[i]), s[i], "desc %d got another sampler the second time", i);
}

/* ------------------------------------------------------------ sampling */

#define CASES 14
#define FMT VK_FORMAT_R8G8B8A8_UNORM

/* One pixel of the CASES x 1 target: the texture sampled at (u, 0.5) with
 * desc; want is the RGB value (R = G = B) and the alpha expected, +-1. */
typedef struct sample_case {
    const char *what;
    eng_sampler_desc desc;
    float u;
    int rgb, alpha;
} sample_case;

typedef struct sample_job {
    const eng_image_info *target;
    const eng_pipeline *pipeline;
    const sample_case *cases;
    const VkDescriptorSet *sets;
} sample_job;

static void record_samples(VkCommandBuffer cmd, void *user)
{
    const sample_job *j = user;
    VkImageMemoryBarrier2 b = test_image_from_undefined(
        j->target, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    test_image_barriers(cmd, 1, &b);
    /* Cleared to a value no case expects: an undrawn pixel shows. */
    VkRenderingAttachmentInfo color = test_color_attachment(j->target, NULL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                            VK_ATTACHMENT_STORE_OP_STORE,
                                                            (VkClearColorValue){ { 0.2f, 0.4f, 0.6f, 0.8f } });
    test_begin_rendering(cmd, CASES, 1, &color, 1, NULL);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    vkCmdSetViewport(cmd, 0, 1, &(VkViewport){ 0, 0, CASES, 1, 0, 1 });
    vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){ { 0, 0 }, { CASES, 1 } });
    for (int i = 0; i < CASES; i++) {
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(j->pipeline), 0, 1,
                                &j->sets[i], 0, NULL);
        /* Pixel i's column, in NDC. */
        const float rect[4] = { -1.0f + 2.0f * (float)i / CASES, -1.0f, -1.0f + 2.0f * (float)(i + 1) / CASES, 1.0f };
        const float uv[4] = { j->cases[i].u, 0.5f, 0.0f, 0.0f };
        solid_draw(cmd, j->pipeline, rect, uv, 0.0f);
    }
    vkCmdEndRendering(cmd);
}

/* A 2x1 texture, black then white, texel centres at u = 0.25 and 0.75:
 * NEAREST picks one texel, LINEAR mixes the two by distance, and the
 * address mode decides which texel (or the border) lies past u = 1 and
 * before u = 0. */
DEVICE_TEST(sampler, filters_and_addresses_sample_exactly)
{
    eng_context *ctx = test_ctx;
    VkDevice dev = eng_context_device(ctx);
    const VkSamplerAddressMode repeat = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    const VkSamplerAddressMode mirrored = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    const VkSamplerAddressMode edge = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    const VkSamplerAddressMode border = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    const sample_case cases[CASES] = {
        { "default (nearest) at the black texel", { 0 }, 0.25f, 0, 255 },
        { "nearest at the white texel", { .filter = VK_FILTER_NEAREST }, 0.75f, 255, 255 },
        { "nearest just left of the middle", { 0 }, 0.49f, 0, 255 },
        { "linear at the black texel's centre", { .filter = VK_FILTER_LINEAR }, 0.25f, 0, 255 },
        { "linear halfway", { .filter = VK_FILTER_LINEAR }, 0.5f, 128, 255 },
        { "linear a quarter of the way", { .filter = VK_FILTER_LINEAR }, 0.375f, 64, 255 },
        { "nearest repeat at 1.25 wraps to black", { .address = repeat }, 1.25f, 0, 255 },
        { "nearest clamp-to-edge at 1.25 stays white", { .address = edge }, 1.25f, 255, 255 },
        { "nearest repeat at -0.25 wraps to white", { .address = repeat }, -0.25f, 255, 255 },
        { "nearest mirrored at -0.25 mirrors to black", { .address = mirrored }, -0.25f, 0, 255 },
        { "linear repeat at 1.0 mixes white and wrapped black", { .filter = VK_FILTER_LINEAR, .address = repeat },
          1.0f, 128, 255 },
        { "linear clamp-to-edge at 1.0 is white", { .filter = VK_FILTER_LINEAR, .address = edge }, 1.0f, 255, 255 },
        { "nearest border at 1.25: default transparent black", { .address = border }, 1.25f, 0, 0 },
        { "nearest border at 1.25: opaque white",
          { .address = border, .border = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE }, 1.25f, 255, 255 },
    };

    eng_image *texture = NULL, *target = NULL;
    eng_image_desc txd = { .name = "black-white", .format = FMT, .width = 2, .height = 1,
                           .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT };
    cr_assert_eq(eng_image_create(ctx, &txd, &texture), ENG_SUCCESS, "%s", eng_last_error());
    static const uint8_t texels[8] = { 0, 0, 0, 255, 255, 255, 255, 255 };
    cr_assert_eq(eng_image_upload(ctx, texture, texels, sizeof texels, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image_desc td = { .name = "samples", .format = FMT, .width = CASES, .height = 1,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    cr_assert_eq(eng_image_create(ctx, &td, &target), ENG_SUCCESS, "%s", eng_last_error());

    VkDescriptorSetLayout layout =
        test_set_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPool pool = test_descriptor_pool(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, CASES, CASES);
    VkDescriptorSetLayout layouts[CASES];
    for (int i = 0; i < CASES; i++)
        layouts[i] = layout;
    VkDescriptorSet sets[CASES];
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool, .descriptorSetCount = CASES, .pSetLayouts = layouts };
    cr_assert_eq(vkAllocateDescriptorSets(dev, &ai, sets), VK_SUCCESS);
    for (int i = 0; i < CASES; i++) {
        VkDescriptorImageInfo ii = { get(ctx, &cases[i].desc), eng_image_get_info(texture)->view,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
        VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[i],
                                   .descriptorCount = 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, .pImageInfo = &ii };
        vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    }

    eng_pipeline *pipeline = NULL;
    eng_pipeline_desc pd = solid_fragment_desc("sampler test", sampler_frag, sizeof sampler_frag, FMT);
    pd.set_layouts = &layout;
    pd.set_layout_count = 1;
    cr_assert_eq(eng_pipeline_create(ctx, &pd, &pipeline), ENG_SUCCESS, "%s", eng_last_error());

    sample_job j = { eng_image_get_info(target), pipeline, cases, sets };
    cr_assert_eq(eng_context_submit_once(ctx, record_samples, &j), ENG_SUCCESS, "%s", eng_last_error());
    uint8_t px[CASES * 4];
    cr_assert_eq(eng_image_read(ctx, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    for (int i = 0; i < CASES; i++) {
        const uint8_t *p = px + i * 4;
        bool ok = true;
        for (int c = 0; c < 4; c++)
            ok = ok && abs((int)p[c] - (c < 3 ? cases[i].rgb : cases[i].alpha)) <= 1;
        cr_expect(ok, "%s (u = %g): %u,%u,%u,%u, want %d,%d,%d,%d (+-1)", cases[i].what, (double)cases[i].u, p[0],
                  p[1], p[2], p[3], cases[i].rgb, cases[i].rgb, cases[i].rgb, cases[i].alpha);
    }

    eng_pipeline_destroy(pipeline);
    vkDestroyDescriptorPool(dev, pool, NULL);
    vkDestroyDescriptorSetLayout(dev, layout, NULL);
    eng_image_destroy(target);
    eng_image_destroy(texture);
}

/* ------------------------------------------------------------ refusals */

DEVICE_TEST(sampler, refuses_invalid_descs)
{
    VkSampler s = (VkSampler)(uintptr_t)0x1;
    cr_expect_eq(eng_sampler_get(NULL, &(eng_sampler_desc){ 0 }, &s), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(s, VK_NULL_HANDLE);
    s = (VkSampler)(uintptr_t)0x1;
    cr_expect_eq(eng_sampler_get(test_ctx, NULL, &s), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(s, VK_NULL_HANDLE);
    cr_expect_eq(eng_sampler_get(test_ctx, &(eng_sampler_desc){ 0 }, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_neq(strstr(eng_last_error(), "eng_sampler_get"), NULL, "%s", eng_last_error());

    const eng_result bad = ENG_ERROR_INVALID_ARGUMENT;
    EXPECT_REFUSED(test_ctx, bad, "filter", &(eng_sampler_desc){ .filter = VK_FILTER_CUBIC_EXT });
    EXPECT_REFUSED(test_ctx, bad, "filter", &(eng_sampler_desc){ .filter = (VkFilter)2 });
    EXPECT_REFUSED(test_ctx, bad, "mipmap", &(eng_sampler_desc){ .mipmap = (VkSamplerMipmapMode)2 });
    EXPECT_REFUSED(test_ctx, bad, "address",
                   &(eng_sampler_desc){ .address = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE });
    EXPECT_REFUSED(test_ctx, bad, "address", &(eng_sampler_desc){ .address = (VkSamplerAddressMode)99 });
    EXPECT_REFUSED(test_ctx, bad, "border", &(eng_sampler_desc){ .border = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT });
    EXPECT_REFUSED(test_ctx, bad, "border", &(eng_sampler_desc){ .border = (VkBorderColor)6 });
    EXPECT_REFUSED(test_ctx, bad, "compare_op", &(eng_sampler_desc){ .compare = true, .compare_op = (VkCompareOp)8 });
    EXPECT_REFUSED(test_ctx, bad, "anisotropy", &(eng_sampler_desc){ .anisotropy = -2.0f });
    EXPECT_REFUSED(test_ctx, bad, "anisotropy", &(eng_sampler_desc){ .anisotropy = NAN });
    EXPECT_REFUSED(test_ctx, bad, "max_lod", &(eng_sampler_desc){ .max_lod = -1.0f });
    EXPECT_REFUSED(test_ctx, bad, "max_lod", &(eng_sampler_desc){ .max_lod = NAN });
    /* Without compare, compare_op is ignored, invalid or not. */
    cr_expect_eq(get(test_ctx, &(eng_sampler_desc){ .compare_op = (VkCompareOp)8 }),
                 get(test_ctx, &(eng_sampler_desc){ 0 }));
}

/* The fixture's context enables no samplerAnisotropy. */
DEVICE_TEST(sampler, anisotropy_needs_the_feature)
{
    EXPECT_REFUSED(test_ctx, ENG_ERROR_MISSING_FEATURE, "samplerAnisotropy",
                   &(eng_sampler_desc){ .anisotropy = 16.0f });
    EXPECT_REFUSED(test_ctx, ENG_ERROR_MISSING_FEATURE, "samplerAnisotropy",
                   &(eng_sampler_desc){ .anisotropy = 1.5f });
}

/* A context created with samplerAnisotropy gets anisotropic samplers,
 * clamped to the device's limit. */
DEVICE_TEST(sampler, anisotropy_with_the_feature)
{
    VkPhysicalDeviceFeatures offered;
    vkGetPhysicalDeviceFeatures(eng_context_physical_device(test_ctx), &offered);
    if (!offered.samplerAnisotropy)
        cr_skip_test("the device offers no samplerAnisotropy");
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .features.samplerAnisotropy = VK_TRUE };
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&(eng_context_desc){ .app_name = "anisotropy", .validation = true,
                                                           .get_instance_proc_addr = vkGetInstanceProcAddr,
                                                           .features = &f2 },
                                      &ctx);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    float limit = eng_context_properties(ctx)->limits.maxSamplerAnisotropy;
    cr_assert_geq(limit, 16.0f);
    VkSampler a16 = get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR, .anisotropy = 16.0f });
    VkSampler a4 = get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR, .anisotropy = 4.0f });
    VkSampler off = get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR });
    cr_expect(a16 != a4 && a16 != off && a4 != off);
    /* Past the limit: the limit's sampler. */
    VkSampler at_limit = get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR, .anisotropy = limit });
    cr_expect_eq(get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR, .anisotropy = limit * 4.0f }), at_limit);
    cr_expect_eq(get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR, .anisotropy = INFINITY }), at_limit);
    char first[1024];
    eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
    cr_expect_eq(m.warning + m.error, 0, "%u warnings, %u errors (leaked samplers?); first: %s", m.warning, m.error,
                 first);
}

/* A context over an existing device cannot know samplerAnisotropy is
 * enabled: it refuses anisotropy and says why; its other samplers are
 * destroyed with it while the owner's device lives on (the fixture's leak
 * check at that device's destruction would catch one left behind). */
DEVICE_TEST(sampler, existing_device_context)
{
    eng_existing_device e = test_existing_of(test_ctx);
    eng_context *ctx = test_context_create(&(eng_context_desc){ .existing = &e });
    EXPECT_REFUSED(ctx, ENG_ERROR_MISSING_FEATURE, "existing device", &(eng_sampler_desc){ .anisotropy = 8.0f });
    cr_expect_neq(strstr(eng_last_error(), "samplerAnisotropy"), NULL, "%s", eng_last_error());
    VkSampler mine = get(ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR });
    /* The two contexts' caches are their own. */
    cr_expect_neq(get(test_ctx, &(eng_sampler_desc){ .filter = VK_FILTER_LINEAR }), mine);
    eng_context_destroy(ctx);
}
