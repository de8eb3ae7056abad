/* Transient attachments inferred at compile: the base case (cleared,
 * discarded, resolved, one span) and each condition flipped once; FORCE
 * and FORBID. No device. */
#include "rg_unit.h"

#define CLEAR VK_ATTACHMENT_LOAD_OP_CLEAR
#define LOAD VK_ATTACHMENT_LOAD_OP_LOAD
#define DISCARD VK_ATTACHMENT_STORE_OP_DONT_CARE
#define STORE VK_ATTACHMENT_STORE_OP_STORE

typedef struct frame {
    rg_graph *g;
    rg_texture msaa, depth, out;
    rg_command begin;
} frame;

/* A 4x MSAA color + depth span resolved into an imported image. */
static frame declare_frame(rg_graph *g, rg_transient mode, VkAttachmentLoadOp load, VkAttachmentStoreOp store,
                           VkImageUsageFlags extra)
{
    frame f = {.g = g};
    f.msaa = rg_texture_create(f.g, &(rg_texture_desc){.name = "msaa", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                        .width = 64, .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT,
                                                        .transient = mode, .extra_usage = extra});
    f.depth = rg_texture_create(f.g, &(rg_texture_desc){.name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = 64,
                                                         .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT});
    f.out = rg_texture_import(f.g, &(rg_texture_import_desc){.name = "out", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                              .width = 64, .height = 64,
                                                              .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    /* What a LOAD reads is written before the span. */
    if (load == LOAD)
        rg_cmd_clear_texture(f.g, f.msaa, NULL, &(VkClearValue){0});
    f.begin = rg_begin_rendering(
        f.g, &(rg_rendering_desc){
                 .name = "scene",
                 .colors = {{.texture = f.msaa, .load = load, .store = store, .resolve = f.out}},
                 .color_count = 1,
                 .depth = {.texture = f.depth, .load = CLEAR, .store = DISCARD},
             });
    test_draw(f.g, "draw");
    rg_end_rendering(f.g);
    return f;
}

static frame msaa_frame(rg_transient mode, VkAttachmentLoadOp load, VkAttachmentStoreOp store,
                        VkImageUsageFlags extra)
{
    return declare_frame(test_graph(), mode, load, store, extra);
}

static void compile_ok(rg_graph *g) { cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g)); }

/* The tests that flip one condition of msaa_frame and check the MSAA
 * attachment alone: compiled, transient or not as wanted. */
static void expect_msaa(rg_transient mode, VkAttachmentLoadOp load, VkAttachmentStoreOp store, VkImageUsageFlags extra,
                        bool transient)
{
    frame f = msaa_frame(mode, load, store, extra);
    compile_ok(f.g);
    cr_expect_eq(rg_texture_is_transient(f.g, f.msaa), transient, "msaa transient: wanted %d", transient);
    rg_graph_destroy(f.g);
}

/* The tests whose flipped condition makes FORCE a refusal naming needle. */
static void expect_force_refused(VkAttachmentLoadOp load, VkAttachmentStoreOp store, VkImageUsageFlags extra,
                                 const char *needle)
{
    frame f = msaa_frame(RG_TRANSIENT_FORCE, load, store, extra);
    test_expect_refused(f.g, RG_ERROR_TRANSIENT_CONTENTS, needle);
}

Test(rg_transient, cleared_discarded_resolved_attachments_are_transient)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    cr_expect_not(rg_texture_is_transient(f.g, f.msaa), "before compile nothing is decided");
    compile_ok(f.g);
    cr_expect(rg_texture_is_transient(f.g, f.msaa));
    cr_expect(rg_texture_is_transient(f.g, f.depth));
    cr_expect_not(rg_texture_is_transient(f.g, f.out), "imports never");
    rg_graph_destroy(f.g);
}

Test(rg_transient, load_op_load_is_not)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, LOAD, DISCARD, 0);
    compile_ok(f.g);
    cr_expect_not(rg_texture_is_transient(f.g, f.msaa));
    cr_expect(rg_texture_is_transient(f.g, f.depth), "the other attachment is unaffected");
    rg_graph_destroy(f.g);
}

Test(rg_transient, sampled_later_is_not)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    test_outside(f.g, "read depth", TEX(f.depth, RG_USAGE_SAMPLED_COMPUTE));
    compile_ok(f.g);
    cr_expect_not(rg_texture_is_transient(f.g, f.depth));
    cr_expect(rg_texture_is_transient(f.g, f.msaa));
    rg_graph_destroy(f.g);
}

Test(rg_transient, used_in_two_spans_is_not)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    rg_begin_rendering(f.g, &(rg_rendering_desc){.name = "second",
                                                 .colors = {{.texture = f.msaa, .load = CLEAR, .store = DISCARD}},
                                                 .color_count = 1});
    test_draw(f.g, "draw 2");
    rg_end_rendering(f.g);
    compile_ok(f.g);
    cr_expect_not(rg_texture_is_transient(f.g, f.msaa));
    rg_graph_destroy(f.g);
}

Test(rg_transient, resolve_target_is_not)
{
    rg_graph *g = test_graph();
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                               .width = 8, .height = 8,
                                                               .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture single = test_tex(g, "single", VK_FORMAT_R8G8B8A8_UNORM);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "pass",
                              .colors = {{.texture = msaa, .load = CLEAR, .store = DISCARD, .resolve = single}},
                              .color_count = 1});
    rg_end_rendering(g);
    compile_ok(g);
    cr_expect(rg_texture_is_transient(g, msaa));
    cr_expect_not(rg_texture_is_transient(g, single), "resolving into it writes contents");
    rg_graph_destroy(g);
}

Test(rg_transient, dont_care_load_is_transient)
{
    expect_msaa(RG_TRANSIENT_AUTO, VK_ATTACHMENT_LOAD_OP_DONT_CARE, DISCARD, 0, true);
}

Test(rg_transient, store_op_store_is_not)
{
    expect_msaa(RG_TRANSIENT_AUTO, CLEAR, STORE, 0, false);
}

Test(rg_transient, extra_usage_beyond_attachments_is_not)
{
    expect_msaa(RG_TRANSIENT_AUTO, CLEAR, DISCARD, VK_IMAGE_USAGE_SAMPLED_BIT, false);
}

Test(rg_transient, forbid_is_never)
{
    expect_msaa(RG_TRANSIENT_FORBID, CLEAR, DISCARD, 0, false);
}

Test(rg_transient, force_in_the_plain_case_is_transient)
{
    expect_msaa(RG_TRANSIENT_FORCE, CLEAR, DISCARD, 0, true);
}

Test(rg_transient, force_with_store_is_an_error)
{
    expect_force_refused(CLEAR, STORE, 0, "store");
}

Test(rg_transient, force_with_storage_usage_is_an_error)
{
    expect_force_refused(CLEAR, DISCARD, VK_IMAGE_USAGE_STORAGE_BIT, "'msaa'");
}

Test(rg_transient, force_with_load_names_texture_and_command)
{
    /* What the LOAD reads was written outside the span (a clear), which
     * is the command the message names. */
    frame f = msaa_frame(RG_TRANSIENT_FORCE, LOAD, DISCARD, 0);
    test_expect_error(f.g, RG_ERROR_TRANSIENT_CONTENTS, "'msaa'");
    cr_expect_not_null(strstr(rg_graph_error_message(f.g), "'clear_texture'"), "%s", rg_graph_error_message(f.g));
    rg_graph_destroy(f.g);
}

Test(rg_transient, force_then_copied_names_the_copy)
{
    frame f = msaa_frame(RG_TRANSIENT_FORCE, CLEAR, DISCARD, 0);
    VkClearValue zero = {0};
    rg_cmd_clear_texture(f.g, f.msaa, NULL, &zero);
    test_expect_refused(f.g, RG_ERROR_TRANSIENT_CONTENTS, "clear_texture");
}

Test(rg_transient, decided_again_when_the_declaration_grows)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    compile_ok(f.g);
    cr_expect(rg_texture_is_transient(f.g, f.depth));
    test_outside(f.g, "read depth", TEX(f.depth, RG_USAGE_SAMPLED_COMPUTE));
    compile_ok(f.g);
    cr_expect_not(rg_texture_is_transient(f.g, f.depth));
    rg_graph_destroy(f.g);
}

Test(rg_transient, same_after_reset_and_identical_declaration)
{
    frame f = msaa_frame(RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    compile_ok(f.g);
    rg_graph_reset(f.g);
    f = declare_frame(f.g, RG_TRANSIENT_AUTO, CLEAR, DISCARD, 0);
    compile_ok(f.g);
    cr_expect(rg_texture_is_transient(f.g, f.msaa), "the reused compile decides it again");
    cr_expect(rg_texture_is_transient(f.g, f.depth));
    rg_graph_destroy(f.g);
}
