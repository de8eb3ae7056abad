/* Imports checked (rendergraph.h, "Frames"), device-free: what
 * rg_texture_set_image and rg_buffer_set_buffer are told of the object is
 * checked against the import's declaration (extent, format, samples, mips,
 * layers, buffer size; every required field), and its usage against what
 * the compiled graph's accesses need: at the setter once the graph is
 * compiled, at rg_compile for usage given before (by a setter or the
 * import's desc). A refusal is not kept, names the call, the graph, the
 * import and both values, and leaves the object the import had. A texture
 * sized from an import follows it when the import is declared again at
 * another extent. */
#include "rg_unit.h"

#include <stdio.h>

#define SRGB VK_FORMAT_B8G8R8A8_SRGB
#define ATTACHMENT VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
#define IMAGE(n) ((VkImage)(uintptr_t)(n))
#define BUFFER(n) ((VkBuffer)(uintptr_t)(n))

static rg_graph *frame_graph(void)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "frame", .no_culling = true}, &g), RG_SUCCESS);
    return g;
}

/* The swapchain image of a frame: an import rendered into (COLOR_ATTACHMENT
 * usage), declared at width x height with the desc's usage. */
static rg_texture backbuffer(rg_graph *g, uint32_t width, uint32_t height, VkImageUsageFlags usage)
{
    rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){
                                               .name = "backbuffer", .image = IMAGE(0x100), .format = SRGB,
                                               .width = width, .height = height, .usage = usage,
                                               .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    test_begin(g, "post", back);
    test_draw(g, "tonemap");
    rg_end_rendering(g);
    return back;
}

/* The image the 960x540 backbuffer is given in every case below but for
 * the one field a case changes. */
static rg_import_image right_image(void)
{
    return (rg_import_image){.image = IMAGE(0x200), .format = SRGB, .width = 960, .height = 540,
                             .usage = ATTACHMENT};
}

/* Refused with exactly that message, not kept, the import's image as it
 * was; then the right image is accepted and the message is "". */
static void expect_refused_image(rg_graph *g, rg_texture t, const rg_import_image *image, const char *message)
{
    VkImage before = rg_texture_image(g, t);
    cr_expect_eq(rg_texture_set_image(g, t, image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), message);
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "a setter's refusal is not kept");
    cr_expect_eq(rg_texture_image(g, t), before, "a refused image is not taken");
    rg_import_image right = right_image();
    cr_expect_eq(rg_texture_set_image(g, t, &right), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_str_eq(rg_graph_error_message(g), "");
}

/* Issue 35: a 640x360 image for an import declared 960x540 (a resize the
 * application did not re-declare) read and wrote past the image. */
Test(rg_imports, an_image_of_another_extent_is_refused_naming_both)
{
    rg_graph *g = frame_graph();
    rg_texture back = backbuffer(g, 960, 540, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_import_image small = right_image();
    small.width = 640;
    small.height = 360;
    expect_refused_image(g, back, &small,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 960x540, given 640x360: "
                         "re-declare or use a relative size");
    /* One axis is enough; and before compile the same. */
    rg_import_image wide = right_image();
    wide.height = 541;
    expect_refused_image(g, back, &wide,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 960x540, given 960x541: "
                         "re-declare or use a relative size");
    cr_expect_eq(rg_texture_image(g, back), IMAGE(0x200));
    rg_graph_reset(g);
    back = backbuffer(g, 960, 540, 0);
    expect_refused_image(g, back, &small,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 960x540, given 640x360: "
                         "re-declare or use a relative size");
    rg_graph_destroy(g);
}

Test(rg_imports, format_samples_mips_and_layers_are_refused_by_name)
{
    rg_graph *g = frame_graph();
    rg_texture back = backbuffer(g, 960, 540, 0);
    rg_texture msaa = rg_texture_import(g, &(rg_texture_import_desc){.name = "msaa", .format = SRGB, .width = 960,
                                                                      .height = 540, .samples = 4});
    rg_texture cube = rg_texture_import(g, &(rg_texture_import_desc){.name = "cube", .format = SRGB, .width = 960,
                                                                      .height = 540, .mip_levels = 3,
                                                                      .array_layers = 6});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));

    rg_import_image image = right_image();
    image.format = VK_FORMAT_R8G8B8A8_UNORM;
    expect_refused_image(g, back, &image,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared format B8G8R8A8_SRGB, "
                         "given R8G8B8A8_UNORM");
    image = right_image();
    image.samples = VK_SAMPLE_COUNT_4_BIT;
    expect_refused_image(g, back, &image,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 1 sample, given 4 "
                         "samples");
    image = right_image(); /* samples 0 = 1 */
    cr_expect_eq(rg_texture_set_image(g, msaa, &image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_texture_set_image: graph 'frame': import 'msaa' declared 4 samples, given 1 sample");
    image.samples = VK_SAMPLE_COUNT_4_BIT;
    cr_expect_eq(rg_texture_set_image(g, msaa, &image), RG_SUCCESS, "%s", rg_graph_error_message(g));

    image = right_image();
    image.mip_levels = 3;
    expect_refused_image(g, back, &image,
                         "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 1 mip level, given 3");
    image.array_layers = 6;
    cr_expect_eq(rg_texture_set_image(g, cube, &image), RG_SUCCESS, "%s", rg_graph_error_message(g));
    image.mip_levels = 0;
    cr_expect_eq(rg_texture_set_image(g, cube, &image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_texture_set_image: graph 'frame': import 'cube' declared 3 mip levels, given 1");
    image.mip_levels = 3;
    image.array_layers = 1;
    cr_expect_eq(rg_texture_set_image(g, cube, &image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_texture_set_image: graph 'frame': import 'cube' declared 6 array layers, given 1");
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS);
    rg_graph_destroy(g);
}

Test(rg_imports, missing_fields_are_refused_by_name)
{
    rg_graph *g = frame_graph();
    rg_texture back = backbuffer(g, 960, 540, 0);
    rg_buffer upload = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "upload", .size = 256});
    static const struct {
        const char *field;
        rg_import_image image;
    } images[] = {
        {"format is VK_FORMAT_UNDEFINED", {.width = 960, .height = 540, .usage = ATTACHMENT}},
        {"width is 0", {.format = SRGB, .height = 540, .usage = ATTACHMENT}},
        {"height is 0", {.format = SRGB, .width = 960, .usage = ATTACHMENT}},
        {"usage is 0", {.format = SRGB, .width = 960, .height = 540}},
    };
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++) {
        char want[256];
        snprintf(want, sizeof want, "rg_texture_set_image: graph 'frame': import 'backbuffer': rg_import_image.%s "
                 "(required: what the image was created with)", images[i].field);
        cr_expect_eq(rg_texture_set_image(g, back, &images[i].image), RG_ERROR_INVALID_ARGUMENT, "%s", want);
        cr_expect_str_eq(rg_graph_error_message(g), want);
    }
    cr_expect_eq(rg_texture_set_image(g, back, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_texture_set_image: graph 'frame': import 'backbuffer': image is NULL");

    cr_expect_eq(rg_buffer_set_buffer(g, upload, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_buffer_set_buffer: graph 'frame': import 'upload': buffer_desc "
                                                "is NULL");
    cr_expect_eq(rg_buffer_set_buffer(g, upload, &(rg_import_buffer){.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT}),
                 RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_buffer_set_buffer: graph 'frame': import 'upload': "
                                                "rg_import_buffer.size is 0 (required: what the buffer was created "
                                                "with)");
    cr_expect_eq(rg_buffer_set_buffer(g, upload, &(rg_import_buffer){.size = 256}), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_buffer_set_buffer: graph 'frame': import 'upload': "
                                                "rg_import_buffer.usage is 0 (required: what the buffer was created "
                                                "with)");
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS);
    rg_graph_destroy(g);
}

Test(rg_imports, a_buffer_smaller_than_declared_is_refused_a_larger_one_taken)
{
    rg_graph *g = frame_graph();
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .buffer = BUFFER(0x10),
                                                                       .size = 4096});
    test_outside(g, "copy", BUF(readback, RG_USAGE_TRANSFER_DST));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_import_buffer given = {.buffer = BUFFER(0x20), .size = 1024, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    cr_expect_eq(rg_buffer_set_buffer(g, readback, &given), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_buffer_set_buffer: graph 'frame': import 'readback' declared "
                                                "4096 bytes, given a buffer of 1024 bytes");
    cr_expect_eq(rg_buffer_handle(g, readback), BUFFER(0x10), "a refused buffer is not taken");
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS);
    given.size = 8192;
    cr_expect_eq(rg_buffer_set_buffer(g, readback, &given), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_buffer_handle(g, readback), BUFFER(0x20));
    rg_graph_destroy(g);
}

/* Compiled: the setter checks the usage itself, naming the missing bits
 * and what the accesses need (a color attachment, then sampled). */
Test(rg_imports, a_usage_shortfall_after_compile_is_refused_at_the_setter)
{
    rg_graph *g = frame_graph();
    rg_texture back = backbuffer(g, 960, 540, 0);
    test_outside(g, "histogram", TEX(back, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_import_image image = right_image();
    image.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage before = rg_texture_image(g, back);
    cr_expect_eq(rg_texture_set_image(g, back, &image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_texture_set_image: graph 'frame': import 'backbuffer' given usage TRANSFER_DST|SAMPLED, "
                     "which lacks COLOR_ATTACHMENT that the graph's accesses of it need (SAMPLED|COLOR_ATTACHMENT)");
    cr_expect_eq(rg_texture_image(g, back), before);
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "not kept");
    image.usage |= ATTACHMENT;
    cr_expect_eq(rg_texture_set_image(g, back, &image), RG_SUCCESS, "%s", rg_graph_error_message(g));

    /* A buffer the same: written as storage, given for transfers. */
    rg_graph_reset(g);
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "counts", .size = 64});
    test_outside(g, "count", BUF(out, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_import_buffer given = {.buffer = BUFFER(0x30), .size = 64, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    cr_expect_eq(rg_buffer_set_buffer(g, out, &given), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_buffer_set_buffer: graph 'frame': import 'counts' given usage TRANSFER_DST, which lacks "
                     "STORAGE_BUFFER that the graph's accesses of it need (STORAGE_BUFFER)");
    given.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    cr_expect_eq(rg_buffer_set_buffer(g, out, &given), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* Not compiled yet (or changed since): the setter takes the image, and
 * rg_compile checks its usage; that error is kept (a compile's). */
Test(rg_imports, a_usage_shortfall_given_before_compile_fails_the_compile)
{
    rg_graph *g = frame_graph();
    rg_texture back = backbuffer(g, 960, 540, 0);
    rg_import_image image = right_image();
    image.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
    cr_expect_eq(rg_texture_set_image(g, back, &image), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_INVALID_ARGUMENT, "kept");
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_compile: graph 'frame': import 'backbuffer' was given usage SAMPLED (rg_texture_set_image), "
                     "which lacks COLOR_ATTACHMENT that the graph's accesses of it need (COLOR_ATTACHMENT)");

    /* Compiled with the right usage, then a command added that samples the
     * backbuffer: the next compile finds the image it had lacks SAMPLED. */
    rg_graph_reset(g);
    back = backbuffer(g, 960, 540, 0);
    image.usage = ATTACHMENT;
    cr_expect_eq(rg_texture_set_image(g, back, &image), RG_SUCCESS);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    test_outside(g, "histogram", TEX(back, RG_USAGE_SAMPLED_COMPUTE));
    cr_expect_eq(rg_texture_set_image(g, back, &image), RG_SUCCESS, "changed since compile: checked by compile");
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "lacks SAMPLED that"), "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* rg_texture_import_desc.usage and rg_buffer_import_desc.usage: 0 is not
 * checked; given, rg_compile checks them, naming the field. */
Test(rg_imports, the_import_descs_usage_is_checked_at_compile)
{
    rg_graph *g = frame_graph();
    backbuffer(g, 960, 540, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_compile: graph 'frame': import 'backbuffer' was given usage TRANSFER_SRC "
                     "(rg_texture_import_desc.usage), which lacks COLOR_ATTACHMENT that the graph's accesses of it "
                     "need (COLOR_ATTACHMENT)");
    rg_graph_reset(g);
    backbuffer(g, 960, 540, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | ATTACHMENT);
    cr_expect_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_reset(g);
    backbuffer(g, 960, 540, 0);
    cr_expect_eq(rg_compile(g), RG_SUCCESS, "usage 0: not checked: %s", rg_graph_error_message(g));

    rg_graph_reset(g);
    rg_buffer up = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "upload", .size = 64,
                                                                 .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT});
    test_outside(g, "read", BUF(up, RG_USAGE_UNIFORM_COMPUTE));
    cr_expect_eq(rg_compile(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_compile: graph 'frame': import 'upload' was given usage TRANSFER_SRC "
                     "(rg_buffer_import_desc.usage), which lacks UNIFORM_BUFFER that the graph's accesses of it "
                     "need (UNIFORM_BUFFER)");
    rg_graph_destroy(g);
}

/* Issue 35, part 2: a texture sized from the import (size_of) follows it
 * when the graph is declared again at the new extent, and the import then
 * takes an image of that extent. */
Test(rg_imports, a_texture_sized_from_the_import_follows_its_redeclaration)
{
    rg_graph *g = frame_graph();
    static const uint32_t extents[2][2] = {{960, 540}, {640, 360}};
    for (int round = 0; round < 2; round++) {
        if (round)
            rg_graph_reset(g);
        uint32_t w = extents[round][0], h = extents[round][1];
        rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){.name = "backbuffer", .format = SRGB,
                                                                          .width = w, .height = h});
        rg_texture hdr = rg_texture_create(g, &(rg_texture_desc){.name = "hdr",
                                                                 .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                                 .size_of = back});
        rg_texture half = rg_texture_create(g, &(rg_texture_desc){.name = "bloom 1/2",
                                                                  .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                                                  .size_of = hdr, .scale = 0.5f});
        test_begin(g, "scene", hdr);
        test_draw(g, "draw");
        rg_end_rendering(g);
        test_begin(g, "bloom", half);
        test_draw(g, "downsample", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT));
        rg_end_rendering(g);
        test_begin(g, "post", back);
        test_draw(g, "tonemap", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT), TEX(half, RG_USAGE_SAMPLED_FRAGMENT));
        rg_end_rendering(g);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "round %d: %s", round, rg_graph_error_message(g));
        rg_resource_info info;
        cr_assert_eq(rg_texture_get_info(g, hdr, &info), RG_SUCCESS);
        cr_expect(info.width == w && info.height == h, "round %d: hdr is %ux%u, wanted %ux%u", round, info.width,
                  info.height, w, h);
        VkExtent2D e = rg_texture_extent(g, half);
        cr_expect(e.width == w / 2 && e.height == h / 2, "round %d: half is %ux%u", round, e.width, e.height);
        rg_import_image image = {.image = IMAGE(0x100 + round), .format = SRGB, .width = w, .height = h,
                                 .usage = ATTACHMENT};
        cr_expect_eq(rg_texture_set_image(g, back, &image), RG_SUCCESS, "round %d: %s", round,
                     rg_graph_error_message(g));
        image.width = extents[1 - round][0];
        image.height = extents[1 - round][1];
        cr_expect_eq(rg_texture_set_image(g, back, &image), RG_ERROR_INVALID_ARGUMENT, "round %d: the other size",
                     round);
    }
    rg_graph_destroy(g);
}
