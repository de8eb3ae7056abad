/* The name functions (rendergraph.h "names"): formats, layouts and flag
 * sets as text, unknown values included, and the snprintf contract of the
 * flag printers; and the graph's messages and DOT printing such values by
 * name. */
#include "rg_unit.h"
#include "rg_unit_output.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

Test(rg_names, formats_are_their_enumerants)
{
    cr_assert_str_eq(rg_format_name(VK_FORMAT_UNDEFINED), "UNDEFINED");
    cr_assert_str_eq(rg_format_name(VK_FORMAT_R8G8B8A8_UNORM), "R8G8B8A8_UNORM");
    cr_assert_str_eq(rg_format_name(VK_FORMAT_D32_SFLOAT_S8_UINT), "D32_SFLOAT_S8_UINT");
    cr_assert_str_eq(rg_format_name(VK_FORMAT_ASTC_12x12_SRGB_BLOCK), "ASTC_12x12_SRGB_BLOCK");
    /* Later core blocks: 1.1 YCbCr, 1.3 ASTC HDR and 4444, 1.4. */
    cr_assert_str_eq(rg_format_name(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM), "G8_B8R8_2PLANE_420_UNORM");
    cr_assert_str_eq(rg_format_name(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK), "ASTC_4x4_SFLOAT_BLOCK");
    cr_assert_str_eq(rg_format_name(VK_FORMAT_A4B4G4R4_UNORM_PACK16), "A4B4G4R4_UNORM_PACK16");
    cr_assert_str_eq(rg_format_name((VkFormat)1000470001), "A8_UNORM");
}

/* Every core format has a name: each one the format table knows (which
 * is every core format but the multi-planar ones) prints as itself, never
 * as a number. */
Test(rg_names, every_known_format_has_a_name)
{
    for (int f = 1; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; f++) {
        const char *name = rg_format_name((VkFormat)f);
        cr_assert(strncmp(name, "VkFormat(", 9) != 0, "format %d has no name", f);
        cr_assert(rg_format_get_info((VkFormat)f).block_size > 0, "format %d (%s) unknown", f, name);
    }
}

Test(rg_names, unknown_values_print_their_number)
{
    cr_assert_str_eq(rg_format_name((VkFormat)1234), "VkFormat(1234)");
    cr_assert_str_eq(rg_layout_name((VkImageLayout)99), "VkImageLayout(99)");
    /* Four in a row stay valid at once (one message may print several). */
    const char *a = rg_format_name((VkFormat)1001);
    const char *b = rg_format_name((VkFormat)1002);
    const char *c = rg_layout_name((VkImageLayout)1003);
    const char *d = rg_layout_name((VkImageLayout)1004);
    cr_assert_str_eq(a, "VkFormat(1001)");
    cr_assert_str_eq(b, "VkFormat(1002)");
    cr_assert_str_eq(c, "VkImageLayout(1003)");
    cr_assert_str_eq(d, "VkImageLayout(1004)");
}

static void *other_thread(void *arg)
{
    (void)arg;
    rg_format_name((VkFormat)7777);
    rg_format_name((VkFormat)7778);
    rg_format_name((VkFormat)7779);
    rg_format_name((VkFormat)7780);
    return NULL;
}

/* Another thread's unknown names never overwrite this thread's. */
Test(rg_names, unknown_names_belong_to_their_thread)
{
    const char *mine = rg_format_name((VkFormat)4242);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, other_thread, NULL), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_str_eq(mine, "VkFormat(4242)");
}

Test(rg_names, layouts)
{
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_UNDEFINED), "UNDEFINED");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), "COLOR_ATTACHMENT_OPTIMAL");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL), "SHADER_READ_ONLY_OPTIMAL");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL), "DEPTH_READ_ONLY_OPTIMAL");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL), "READ_ONLY_OPTIMAL");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL), "ATTACHMENT_OPTIMAL");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR), "RENDERING_LOCAL_READ");
    cr_assert_str_eq(rg_layout_name(VK_IMAGE_LAYOUT_PRESENT_SRC_KHR), "PRESENT_SRC");
}

Test(rg_names, flag_sets)
{
    char buf[256];
    size_t n = rg_flag_names(RG_FLAGS_STAGE, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, buf, sizeof buf);
    cr_assert_str_eq(buf, "FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT");
    cr_assert_eq(n, strlen(buf));
    rg_flag_names(RG_FLAGS_STAGE, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, buf, sizeof buf);
    cr_assert_str_eq(buf, "COMPUTE_SHADER|COPY");
    rg_flag_names(RG_FLAGS_STAGE, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "NONE");
    rg_flag_names(RG_FLAGS_STAGE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | (1ull << 60), buf, sizeof buf);
    cr_assert_str_eq(buf, "COMPUTE_SHADER|0x1000000000000000");

    rg_flag_names(RG_FLAGS_ACCESS, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, buf, sizeof buf);
    cr_assert_str_eq(buf, "COLOR_ATTACHMENT_WRITE|SHADER_SAMPLED_READ");
    rg_flag_names(RG_FLAGS_ACCESS, VK_ACCESS_2_NONE, buf, sizeof buf);
    cr_assert_str_eq(buf, "NONE");

    rg_flag_names(RG_FLAGS_IMAGE_USAGE, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
                             VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, buf, sizeof buf);
    cr_assert_str_eq(buf, "COLOR_ATTACHMENT|TRANSIENT_ATTACHMENT|INPUT_ATTACHMENT");
    rg_flag_names(RG_FLAGS_BUFFER_USAGE, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, buf, sizeof buf);
    cr_assert_str_eq(buf, "TRANSFER_DST|STORAGE_BUFFER");
    rg_flag_names(RG_FLAGS_BUFFER_USAGE, 0x80000000u, buf, sizeof buf);
    cr_assert_str_eq(buf, "0x80000000");
}

/* snprintf's contract: cut to fit, always terminated, the whole length
 * returned; NULL with size 0 measures. */
Test(rg_names, flag_printers_cut_and_measure)
{
    VkPipelineStageFlags2 s = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    size_t whole = strlen("FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT");
    cr_assert_eq(rg_flag_names(RG_FLAGS_STAGE, s, NULL, 0), whole);
    char small[10];
    memset(small, 'x', sizeof small);
    cr_assert_eq(rg_flag_names(RG_FLAGS_STAGE, s, small, sizeof small), whole);
    cr_assert_str_eq(small, "FRAGMENT_");
    char one[1] = {'x'};
    cr_assert_eq(rg_flag_names(RG_FLAGS_IMAGE_USAGE, VK_IMAGE_USAGE_SAMPLED_BIT, one, 1), strlen("SAMPLED"));
    cr_assert_eq(one[0], '\0');
}

/* ------------------------------------------------- names in the messages */

static void expect_message(rg_graph *g, const char *needle)
{
    cr_expect_neq(rg_compile(g), RG_SUCCESS);
    cr_expect_not_null(strstr(rg_graph_error_message(g), needle), "'%s' lacks '%s'", rg_graph_error_message(g),
                       needle);
}

Test(rg_names, messages_name_formats)
{
    rg_graph *g = test_graph();
    test_tex(g, "video", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
    expect_message(g, "format G8_B8R8_2PLANE_420_UNORM is not supported");
    rg_graph_destroy(g);
}

Test(rg_names, messages_name_layouts)
{
    rg_graph *g = test_graph();
    rg_texture lut = test_color(g, "lut");
    test_two_draws(g, "sampler_draw", TEX_UNDEF(lut, RG_USAGE_SAMPLED_FRAGMENT), "storage_draw",
                   TEX_UNDEF(lut, RG_USAGE_STORAGE_READ_FRAGMENT));
    expect_message(g, "in layouts SHADER_READ_ONLY_OPTIMAL and GENERAL");
    rg_graph_destroy(g);
}

Test(rg_names, messages_name_stages)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    rg_access a = TEX_UNDEF(t, RG_USAGE_SAMPLED_FRAGMENT);
    rg_cmd_user(g, &(rg_user_desc){.name = "fragment work", .kind = RG_COMMAND_OUTSIDE, .accesses = &a,
                                   .access_count = 1, .record = test_noop, .queue = RG_QUEUE_COMPUTE});
    expect_message(g, "at stages FRAGMENT_SHADER, which that queue does not have");
    rg_graph_destroy(g);
}

/* The DOT's barriers: layouts, stages and accesses by name. */
Test(rg_names, dot_names_barriers)
{
    rg_graph *g = test_graph();
    rg_texture c = test_color(g, "color");
    test_begin(g, "clear", c);
    test_draw(g, "clear draw");
    rg_end_rendering(g);
    test_outside(g, "sample", TEX(c, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    char *text = test_dot_text(g);
    cr_expect_not_null(strstr(text, "UNDEFINED->COLOR_ATTACHMENT_OPTIMAL"), "%s", text);
    cr_expect_not_null(strstr(text, "COLOR_ATTACHMENT_OPTIMAL->SHADER_READ_ONLY_OPTIMAL src "
                                    "COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE dst COMPUTE_SHADER/SHADER_SAMPLED_READ"),
                       "%s", text);
    free(text);
    rg_graph_destroy(g);
}
