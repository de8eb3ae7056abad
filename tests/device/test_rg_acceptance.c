/* Device regressions for the bugs an independent acceptance suite found:
 * each frame here failed before its fix, with wrong read-back
 * values, a validation message (synchronization validation 1.4.309 sees
 * the attachment hazards; 1.3.239 does not) or a sanitizer report. Values
 * are exact: attachments are cleared by their load ops, read back through
 * buffer copies the graph records, and compared texel by texel. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rg_acceptance, .init = device_setup, .fini = device_teardown);

#define W 16
#define H 16
#define RGBA8 VK_FORMAT_R8G8B8A8_UNORM

static VkClearValue rgba8(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    return (VkClearValue){ .color = { .float32 = { r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f } } };
}

static uint32_t packed(uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

/* How many of n 32-bit words differ from want. */
static uint32_t count_not(const void *p, uint32_t n, uint32_t want)
{
    const uint32_t *v = p;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += v[i] != want;
    return bad;
}

/* A span whose one color attachment is cleared and stored. */
static void clear_span(rg_graph *g, const char *name, rg_attachment a)
{
    a.load = VK_ATTACHMENT_LOAD_OP_CLEAR;
    if (!a.store)
        a.store = VK_ATTACHMENT_STORE_OP_STORE;
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = name, .colors = { a }, .color_count = 1 });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
}

static eng_image *device_image(VkFormat format, uint32_t mips, uint32_t layers, VkImageUsageFlags usage)
{
    eng_image *img = NULL;
    eng_image_desc d = { .name = "imported", .format = format, .width = W, .height = H, .mip_levels = mips,
                         .array_layers = layers, .usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT };
    cr_assert_eq(eng_image_create(test_ctx, &d, &img), ENG_SUCCESS, "%s", eng_last_error());
    return img;
}

static rg_texture import_image(rg_graph *g, eng_image *img)
{
    const eng_image_info *i = eng_image_get_info(img);
    return rg_texture_import(g, &(rg_texture_import_desc){
        .name = "imported", .image = i->image, .view = i->view, .format = i->format, .width = i->extent.width,
        .height = i->extent.height, .mip_levels = i->mip_levels, .array_layers = i->array_layers,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
        .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
}

static bool format_supports(VkFormat f, VkImageUsageFlags usage, VkSampleCountFlagBits samples)
{
    VkImageFormatProperties p;
    VkResult r = vkGetPhysicalDeviceImageFormatProperties(eng_context_physical_device(test_ctx), f,
                                                          VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage, 0, &p);
    return r == VK_SUCCESS && (p.sampleCounts & samples);
}

/* Two layers of W x H floats read back: layer 0 all 0.25, layer 1 all 0.75. */
static void expect_layers_025_075(const eng_buffer *down, const char *what0, const char *what1)
{
    const float *v = eng_buffer_mapped(down);
    uint32_t bad[2] = { 0, 0 };
    for (uint32_t l = 0; l < 2; l++)
        for (uint32_t i = 0; i < W * H; i++)
            bad[l] += v[l * W * H + i] != (l ? 0.75f : 0.25f);
    cr_expect_eq(bad[0], 0, "layer 0 (%s): %u texels wrong", what0, bad[0]);
    cr_expect_eq(bad[1], 0, "layer 1 (%s): %u texels wrong", what1, bad[1]);
}

/* ------------------------------------------------- 1: extending after execute */

/* Declare one span, execute; declare one more span, compile, execute again,
 * twenty times. The attachment views were kept in an array sized by the
 * span count at placement and freed by the span count of the moment: a
 * heap over-read (ASan) and vkDestroyImageView on garbage handles. */
DEVICE_TEST(rg_acceptance, declaration_extended_after_execute)
{
    enum { ROUNDS = 20 };
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4 * (ROUNDS + 1),
                                           VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("extended");
    rg_buffer out = test_import_buffer(g, "down", down, true);
    for (uint32_t round = 0; round <= ROUNDS; round++) {
        rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "target", .format = RGBA8, .width = W,
                                                                .height = H });
        clear_span(g, "span", (rg_attachment){ .texture = t, .clear = rgba8((uint8_t)round, 7, 0, 255) });
        rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, out, (VkDeviceSize)round * W * H * 4);
        test_compile(g);
        test_run(g, 1);
    }
    const uint8_t *bytes = eng_buffer_mapped(down);
    for (uint32_t round = 0; round <= ROUNDS; round++) {
        uint32_t bad = count_not(bytes + (size_t)round * W * H * 4, W * H, packed((uint8_t)round, 7, 0, 255));
        cr_expect_eq(bad, 0, "round %u: %u texels wrong", round, bad);
    }
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
}

/* ------------------------------- 2: attachments of imports at mip/layer > 0 */

/* The import is cleared whole to `base`, then one span renders `value`
 * into (mip, layer) only; every subresource is copied out and checked. */
static void render_into_import_subresource(uint32_t mips, uint32_t layers, uint32_t mip, uint32_t layer)
{
    eng_image *img = device_image(RGBA8, mips, layers, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkDeviceSize per_layer = (VkDeviceSize)W * H * 4; /* mip 0's size: room for any mip */
    eng_buffer *down = test_host_buffer(per_layer * mips * layers, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("import subresource");
    rg_texture t = import_image(g, img);
    rg_buffer out = test_import_buffer(g, "down", down, true);
    VkClearValue base = rgba8(1, 2, 3, 4);
    rg_cmd_clear_texture(g, t, NULL, &base);
    clear_span(g, "into one subresource",
               (rg_attachment){ .texture = t, .mip = mip, .base_layer = layer, .clear = rgba8(200, 100, 50, 255) });
    for (uint32_t m = 0; m < mips; m++)
        rg_cmd_copy_texture_to_buffer(g, t, m, 0, layers, out, per_layer * layers * m);
    test_compile(g);
    test_run(g, 2);
    const uint8_t *bytes = eng_buffer_mapped(down);
    for (uint32_t m = 0; m < mips; m++) {
        uint32_t w = W >> m, h = H >> m;
        for (uint32_t l = 0; l < layers; l++) {
            bool target = m == mip && l == layer;
            uint32_t want = target ? packed(200, 100, 50, 255) : packed(1, 2, 3, 4);
            uint32_t bad = count_not(bytes + per_layer * layers * m + (VkDeviceSize)w * h * 4 * l, w * h, want);
            cr_expect_eq(bad, 0, "mip %u layer %u (%s): %u of %u texels wrong", m, l,
                         target ? "rendered" : "cleared only", bad, w * h);
        }
    }
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
    eng_image_destroy(img);
}

DEVICE_TEST(rg_acceptance, import_attachment_at_layer_1)
{
    render_into_import_subresource(1, 2, 0, 1);
}

DEVICE_TEST(rg_acceptance, import_attachment_at_mip_1)
{
    render_into_import_subresource(5, 1, 1, 0);
}

DEVICE_TEST(rg_acceptance, import_attachment_at_mip_2_layer_2)
{
    render_into_import_subresource(3, 3, 2, 2);
}

/* The depth attachment takes the same path: layer 1 of an imported
 * two-layer D32 texture cleared to 0.75, layer 0 to 0.25 by a copy-free
 * clear command. */
DEVICE_TEST(rg_acceptance, import_depth_attachment_at_layer_1)
{
    VkFormat f = VK_FORMAT_D32_SFLOAT;
    eng_image *img = device_image(f, 1, 2, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4 * 2, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("import depth layer");
    rg_texture t = import_image(g, img);
    rg_buffer out = test_import_buffer(g, "down", down, true);
    rg_cmd_clear_texture(g, t, NULL, &(VkClearValue){ .depthStencil = { .depth = 0.25f } });
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "depth layer 1",
        .depth = { .texture = t, .base_layer = 1, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                   .store = VK_ATTACHMENT_STORE_OP_STORE, .clear = { .depthStencil = { .depth = 0.75f } } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 2, out, 0);
    test_compile(g);
    test_run(g, 2);
    expect_layers_025_075(down, "cleared to 0.25", "rendered 0.75");
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
    eng_image_destroy(img);
}

/* ------------------------------ 4: one aspect of a depth+stencil texture */

/* Written as the depth attachment, then sampled with aspect DEPTH (how
 * depth is sampled): without separateDepthStencilLayouts every barrier must
 * name both aspects (VUID-VkImageMemoryBarrier2-image-03320). */
DEVICE_TEST(rg_acceptance, depth_stencil_sampled_through_depth_aspect)
{
    VkFormat f = VK_FORMAT_D32_SFLOAT_S8_UINT;
    if (!format_supports(f, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                         VK_SAMPLE_COUNT_1_BIT))
        f = VK_FORMAT_D24_UNORM_S8_UINT;
    rg_graph *g = test_device_graph("depth aspect");
    rg_texture d = rg_texture_create(g, &(rg_texture_desc){ .name = "depth stencil", .format = f, .width = W,
                                                            .height = H });
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "depth", .depth = { .texture = d, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                    .store = VK_ATTACHMENT_STORE_OP_STORE } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    rg_access sample = { .texture = d, .usage = RG_USAGE_SAMPLED_COMPUTE,
                         .range = { .aspect = VK_IMAGE_ASPECT_DEPTH_BIT } };
    rg_cmd_user(g, &(rg_user_desc){ .name = "sample depth", .accesses = &sample, .access_count = 1,
                                    .record = test_record_nothing });
    test_compile(g);
    test_run(g, 3);
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        cr_expect_eq(b->range.aspect, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT,
                     "barrier %u names aspects 0x%x", i, b->range.aspect);
    }
    rg_graph_destroy(g);
}

/* --------------------------------- 5: read-only depth with the default store */

/* Depth written in span 1, attached read-only in spans 2 and 3 with the
 * default store op (STORE), which writes the attachment by the
 * specification: span 3 must wait for span 2's store. */
static void read_only_depth_frames(VkAttachmentStoreOp store)
{
    rg_graph *g = test_device_graph("read-only depth");
    rg_texture d = rg_texture_create(g, &(rg_texture_desc){ .name = "depth", .format = VK_FORMAT_D32_SFLOAT,
                                                            .width = W, .height = H });
    rg_texture c[3];
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_buffer out = test_import_buffer(g, "down", down, true);
    for (int i = 0; i < 3; i++) {
        c[i] = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = RGBA8, .width = W, .height = H });
        rg_rendering_desc rd = {
            .name = i == 0 ? "write depth" : "read depth", .color_count = 1,
            .colors = { { .texture = c[i], .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                          .clear = rgba8(9, 9, 9, 9) } },
            .depth = { .texture = d, .load = i == 0 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD,
                       .store = i == 0 ? VK_ATTACHMENT_STORE_OP_STORE : store },
            .depth_read_only = i > 0 };
        rg_begin_rendering(g, &rd);
        rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW,
                                        .record = test_record_nothing });
        rg_end_rendering(g);
    }
    rg_cmd_copy_texture_to_buffer(g, c[2], 0, 0, 1, out, 0);
    test_compile(g);
    test_run(g, 3);
    cr_expect_eq(count_not(eng_buffer_mapped(down), W * H, packed(9, 9, 9, 9)), 0);
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
}

DEVICE_TEST(rg_acceptance, read_only_depth_default_store)
{
    read_only_depth_frames(VK_ATTACHMENT_STORE_OP_STORE);
}

DEVICE_TEST(rg_acceptance, read_only_depth_store_none)
{
    read_only_depth_frames(VK_ATTACHMENT_STORE_OP_NONE);
}

/* ------------------------------------------ 6: copies of integer formats */

/* RGBA8_UINT, RGBA16_UINT and RGBA32_UINT textures copied into buffers of
 * exactly their size and read back: the graph must know their texel sizes
 * (it refused or under-checked them). */
DEVICE_TEST(rg_acceptance, integer_format_copies_round_trip)
{
    static const struct { VkFormat f; uint32_t bytes; } cases[] = {
        { VK_FORMAT_R8G8B8A8_UINT, 4 }, { VK_FORMAT_R16G16B16A16_UINT, 8 }, { VK_FORMAT_R32G32B32A32_UINT, 16 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        VkDeviceSize size = (VkDeviceSize)W * H * cases[k].bytes;
        uint8_t *src = malloc(size);
        for (VkDeviceSize i = 0; i < size; i++)
            src[i] = (uint8_t)(i * 7 + k);
        eng_buffer *up = test_host_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, src);
        eng_buffer *down = test_host_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
        rg_graph *g = test_device_graph("integer copy");
        rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "integer", .format = cases[k].f, .width = W,
                                                                .height = H });
        rg_cmd_copy_buffer_to_texture(g, test_import_buffer(g, "up", up, false), 0, t, 0, 0, 1);
        rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, test_import_buffer(g, "down", down, true), 0);
        test_compile(g);
        test_run(g, 1);
        cr_expect(memcmp(eng_buffer_mapped(down), src, size) == 0, "format %d: bytes differ", (int)cases[k].f);
        rg_graph_destroy(g);
        eng_buffer_destroy(up);
        eng_buffer_destroy(down);
        free(src);
    }
}

/* ------------------------------------ 7: integer MSAA resolve by default */

/* A 4x R32_UINT attachment resolved with resolve_mode 0 must get
 * SAMPLE_ZERO (AVERAGE is invalid for integer formats). */
DEVICE_TEST(rg_acceptance, integer_resolve_default_mode)
{
    VkFormat f = VK_FORMAT_R32_UINT;
    if (!format_supports(f, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x R32_UINT color attachments");
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("integer resolve");
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){ .name = "ids 4x", .format = f, .width = W, .height = H,
                                                             .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_texture single = rg_texture_create(g, &(rg_texture_desc){ .name = "ids", .format = f, .width = W,
                                                                 .height = H });
    clear_span(g, "ids", (rg_attachment){ .texture = ms, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                          .clear = { .color = { .uint32 = { 123456 } } }, .resolve = single });
    rg_cmd_copy_texture_to_buffer(g, single, 0, 0, 1, test_import_buffer(g, "down", down, true), 0);
    test_compile(g);
    test_run(g, 2);
    cr_expect_eq(count_not(eng_buffer_mapped(down), W * H, 123456), 0);
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
}

/* ------------------------------------ 9: imports with no Vulkan object */

/* An import no command uses and whose layout does not change needs no
 * object: its final barrier must not name VK_NULL_HANDLE. */
DEVICE_TEST(rg_acceptance, unused_imports_without_objects)
{
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("unused imports");
    rg_texture_import(g, &(rg_texture_import_desc){
        .name = "no image", .format = RGBA8, .width = W, .height = H,
        .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .initial_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
        .initial_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, .final_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, .final_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT });
    rg_buffer_import(g, &(rg_buffer_import_desc){
        .name = "no buffer", .size = 256, .initial_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .initial_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
        .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "t", .format = RGBA8, .width = W, .height = H });
    clear_span(g, "span", (rg_attachment){ .texture = t, .clear = rgba8(5, 6, 7, 8) });
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, test_import_buffer(g, "down", down, true), 0);
    test_compile(g);
    test_run(g, 2);
    cr_expect_eq(count_not(eng_buffer_mapped(down), W * H, packed(5, 6, 7, 8)), 0);
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
}

/* An unused import whose final layout differs from its initial one needs
 * its image for the transition: execute refuses, naming it, and records
 * nothing. */
DEVICE_TEST(rg_acceptance, unused_import_transition_needs_its_image)
{
    rg_graph *g = test_device_graph("unused import transition");
    rg_texture_import(g, &(rg_texture_import_desc){
        .name = "backbuffer", .format = RGBA8, .width = W, .height = H,
        .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR });
    test_compile(g);
    cr_expect_eq(test_execute_once(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "backbuffer") != NULL, "message: %s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* --------------------------------- 2: resolve targets of imports, layer 1 */

/* A 4x attachment cleared to `value` resolved into layer 1 of an imported
 * two-layer texture whose both layers were cleared to `base` first. */
static void resolve_into_import_layer_1(VkFormat format, bool depth)
{
    VkImageUsageFlags attach =
        depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (!format_supports(format, attach, VK_SAMPLE_COUNT_4_BIT))
        cr_skip_test("no 4x attachments of format %d", (int)format);
    test_skip_if_resolve_ignores_base_layer(depth);
    eng_image *img = device_image(format, 1, 2, attach);
    eng_buffer *down = test_host_buffer((VkDeviceSize)W * H * 4 * 2, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("resolve into import");
    rg_texture target = import_image(g, img);
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){ .name = "4x", .format = format, .width = W, .height = H,
                                                             .samples = VK_SAMPLE_COUNT_4_BIT });
    VkClearValue base = { .color = { .float32 = { 0.25f } } }, value = { .color = { .float32 = { 0.75f } } };
    if (depth) {
        base = (VkClearValue){ .depthStencil = { 0.25f, 0 } };
        value = (VkClearValue){ .depthStencil = { 0.75f, 0 } };
    }
    rg_cmd_clear_texture(g, target, NULL, &base);
    rg_attachment a = { .texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                        .clear = value, .resolve = target, .resolve_layer = 1 };
    rg_rendering_desc rd = { .name = "resolve into layer 1" };
    if (depth)
        rd.depth = a;
    else {
        rd.colors[0] = a;
        rd.color_count = 1;
    }
    rg_begin_rendering(g, &rd);
    rg_cmd_user(g, &(rg_user_desc){ .name = "nothing", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, target, 0, 0, 2, test_import_buffer(g, "down", down, true), 0);
    test_compile(g);
    test_run(g, 2);
    expect_layers_025_075(down, "cleared only", "resolved");
    rg_graph_destroy(g);
    eng_buffer_destroy(down);
    eng_image_destroy(img);
}

DEVICE_TEST(rg_acceptance, import_color_resolve_target_at_layer_1)
{
    resolve_into_import_layer_1(VK_FORMAT_R32_SFLOAT, false);
}

DEVICE_TEST(rg_acceptance, import_depth_resolve_target_at_layer_1)
{
    resolve_into_import_layer_1(VK_FORMAT_D32_SFLOAT, true);
}

/* ------------------------------ what the device offers, at placement */

/* Refused at the first execute (RG_ERROR_UNSUPPORTED: the device lacks
 * it) with the texture or command named, before anything is created or
 * recorded; the graph stays usable. */
static void expect_placement_refused(rg_graph *g, const char *needle)
{
    test_compile(g);
    cr_expect_eq(test_execute_once(g), RG_ERROR_UNSUPPORTED, "%s", rg_graph_error_message(g));
    cr_expect(strstr(rg_graph_error_message(g), needle) != NULL, "message: %s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "a frame's failure is not the declaration's");
}

DEVICE_TEST(rg_acceptance, compressed_color_attachment_refused_at_placement)
{
    rg_graph *g = test_device_graph("bc1 attachment");
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "bc1 target", .width = W, .height = H,
                                                            .format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK });
    clear_span(g, "render into bc1", (rg_attachment){ .texture = t });
    expect_placement_refused(g, "bc1 target");
    rg_graph_destroy(g);
}

DEVICE_TEST(rg_acceptance, blit_into_compressed_refused_at_placement)
{
    rg_graph *g = test_device_graph("bc1 blit");
    rg_texture src = rg_texture_create(g, &(rg_texture_desc){ .name = "src", .format = RGBA8, .width = W,
                                                              .height = H });
    rg_texture dst = rg_texture_create(g, &(rg_texture_desc){ .name = "bc1", .width = W, .height = H,
                                                              .format = VK_FORMAT_BC1_RGBA_UNORM_BLOCK });
    rg_cmd_clear_texture(g, src, NULL, &(VkClearValue){ 0 });
    rg_cmd_blit(g, src, 0, dst, 0, VK_FILTER_NEAREST);
    expect_placement_refused(g, "blit");
    rg_graph_destroy(g);
}

/* A sample count the device does not offer for the texture's format and
 * usage (lavapipe: 2) is refused by the texture's name. */
DEVICE_TEST(rg_acceptance, sample_count_the_device_lacks_refused_at_placement)
{
    VkImageFormatProperties p;
    cr_assert_eq(vkGetPhysicalDeviceImageFormatProperties(eng_context_physical_device(test_ctx), RGBA8,
                                                         VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &p),
                 VK_SUCCESS);
    VkSampleCountFlagBits lacking = 0;
    for (VkSampleCountFlagBits s = VK_SAMPLE_COUNT_2_BIT; s <= VK_SAMPLE_COUNT_64_BIT && !lacking; s <<= 1)
        if (!(p.sampleCounts & s))
            lacking = s;
    if (!lacking)
        cr_skip_test("the device offers every sample count for RGBA8 color attachments (0x%x)",
                     (unsigned)p.sampleCounts);
    rg_graph *g = test_device_graph("sample count");
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){ .name = "odd samples", .format = RGBA8, .width = W,
                                                            .height = H, .samples = lacking });
    clear_span(g, "render odd samples", (rg_attachment){ .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                         .store = VK_ATTACHMENT_STORE_OP_DONT_CARE });
    expect_placement_refused(g, "'odd samples'");
    rg_graph_destroy(g);
}
