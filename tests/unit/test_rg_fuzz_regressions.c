/* Regressions found by the render graph fuzzer (tests/fuzz/fuzz_graph.c,
 * scripts/fuzz.sh): one test per bug, each the smallest declaration that
 * showed it. No device. */
#include "device_tables.h"
#include "rg_unit.h"

static bool one_mib(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                    VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index;
    *size = 1u << 20;
    *alignment = 65536;
    *type_bits = ~0u;
    *dedicated = false;
    return true;
}

/* A declaration call that failed after a successful compile, appending
 * nothing, left the earlier compile's flag set: rg_compile returned the
 * error while rg_execution_order, the barriers, rg_write_dot and
 * rg_place_offline still served the older plan as if it were this
 * declaration's. */
Test(rg_fuzz_regressions, rejected_declaration_is_not_compiled)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    test_outside(g, "write", TEX(t, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_assert_eq(rg_execution_order(g, NULL), 1);
    /* Rejected before anything is appended. */
    cr_expect_eq(rg_texture_create(g, &(rg_texture_desc){.name = "bad", .format = VK_FORMAT_UNDEFINED}).id, 0);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "'bad'");
    const rg_command *order = (const rg_command *)1;
    cr_expect_eq(rg_execution_order(g, &order), 0);
    cr_expect_null(order);
    cr_expect_eq(rg_barrier_count(g), 0);
    cr_expect_eq(rg_write_dot(g, "/dev/null"), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(rg_place_offline(g, &device_tables[0].props, one_mib, NULL), RG_ERROR_NOT_COMPILED);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "'bad'"), "the kept error stays first: %s",
                       rg_graph_error_message(g));
    /* A reset and the same declaration compile again. */
    rg_graph_reset(g);
    t = test_color(g, "t");
    test_outside(g, "write", TEX(t, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_expect_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(rg_execution_order(g, NULL), 1);
    rg_graph_destroy(g);
}

/* rg_place_offline refused an uncompiled graph (or missing arguments) with
 * an error code and an empty message. */
Test(rg_fuzz_regressions, refused_placement_has_a_message)
{
    rg_graph *g = test_graph();
    rg_buffer b = test_buf(g, "b");
    test_outside(g, "fill", BUF(b, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_expect_eq(rg_place_offline(g, &device_tables[0].props, one_mib, NULL), RG_ERROR_NOT_COMPILED);
    cr_expect_neq(rg_graph_error_message(g)[0], '\0');
    cr_expect_not_null(strstr(rg_graph_error_message(g), "not compiled"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "a refused placement is not a declaration error");
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_place_offline(g, NULL, one_mib, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_neq(rg_graph_error_message(g)[0], '\0');
    cr_expect_eq(rg_place_offline(g, &device_tables[0].props, one_mib, NULL), RG_SUCCESS);
    rg_graph_destroy(g);
}

/* Eight resolved colors and a resolved depth are 18 attachment views; the
 * span builder held 17 and the depth resolve target was written past the
 * end of its stack array (AddressSanitizer: stack-buffer-overflow in
 * span_attach; the sanitizer build of this suite catches it, and without
 * sanitizers the overrun clobbered the builder's count and render area). */
Test(rg_fuzz_regressions, eight_resolved_colors_and_a_resolved_depth)
{
    rg_graph *g = test_graph();
    rg_rendering_desc d = {.name = "mrt", .color_count = 8};
    for (int i = 0; i < 8; i++) {
        d.colors[i].texture = rg_texture_create(g, &(rg_texture_desc){.name = "ms", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                     .width = 8, .height = 8, .samples = 4});
        d.colors[i].resolve = rg_texture_create(g, &(rg_texture_desc){.name = "rs", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                     .width = 8, .height = 8});
        d.colors[i].load = VK_ATTACHMENT_LOAD_OP_CLEAR;
        d.colors[i].store = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    }
    d.depth.texture = rg_texture_create(g, &(rg_texture_desc){.name = "depth ms", .format = VK_FORMAT_D32_SFLOAT,
                                                             .width = 8, .height = 8, .samples = 4});
    d.depth.resolve = rg_texture_create(g, &(rg_texture_desc){.name = "depth rs", .format = VK_FORMAT_D32_SFLOAT,
                                                             .width = 8, .height = 8});
    d.depth.load = VK_ATTACHMENT_LOAD_OP_CLEAR;
    cr_assert_neq(rg_begin_rendering(g, &d).id, 0, "%s", rg_graph_error_message(g));
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vb"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_execution_order(g, NULL), 3);
    rg_graph_destroy(g);
}

static bool near_2_64(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                      VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture;
    *size = index == 0 ? 1ull << 63 : (1ull << 63) + 4096;
    *alignment = 4096;
    *type_bits = ~0u;
    *dedicated = false;
    return true;
}

/* Recorded sizes near 2^64: two buffers live together were packed one after
 * the other, the pool's end wrapped, and one of them ended outside its pool
 * (the unaliased total wrapped too). Sizes above 1 TiB are refused, naming
 * the resource. */
Test(rg_fuzz_regressions, absurd_recorded_sizes_are_refused)
{
    rg_graph *g = test_graph();
    rg_buffer a = rg_buffer_create(g, &(rg_buffer_desc){.name = "a", .size = 16});
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){.name = "b", .size = 16});
    test_outside(g, "both", BUF(a, RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(b, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(rg_place_offline(g, &device_tables[0].props, near_2_64, NULL), RG_ERROR_UNSUPPORTED);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "'a'"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_buffer_memory(g, b, NULL, NULL), RG_MEMORY_NOT_CREATED);
    rg_graph_destroy(g);
}

/* The packed size of a buffer <-> texture copy was computed without
 * overflow checks: 2^31 x 2^31 texels of 16 bytes wrapped to 0 bytes, so a
 * copy of the whole mip into a 16-byte buffer was accepted. */
Test(rg_fuzz_regressions, huge_texture_copy_does_not_wrap)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "huge", .format = VK_FORMAT_R32G32B32A32_SFLOAT,
                                                          .width = 1u << 31, .height = 1u << 31});
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){.name = "tiny", .size = 16});
    cr_expect_eq(rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, b, 0).id, 0);
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "'huge'");

    /* Without a wrap, the plain bounds check answers. */
    g = test_graph();
    t = rg_texture_create(g, &(rg_texture_desc){.name = "big", .format = VK_FORMAT_R32G32B32A32_SFLOAT,
                                                .width = 1u << 16, .height = 1u << 16});
    b = rg_buffer_create(g, &(rg_buffer_desc){.name = "tiny", .size = 16});
    cr_expect_eq(rg_cmd_copy_buffer_to_texture(g, b, 0, t, 0, 0, 1).id, 0);
    test_expect_refused(g, RG_ERROR_BAD_RANGE, "'tiny'");
}

/* An rg_transient value outside the enum was accepted and taken as AUTO,
 * while an invalid rg_command_kind is refused. */
Test(rg_fuzz_regressions, invalid_transient_mode_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "odd", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 8, .height = 8, .transient = (rg_transient)7});
    cr_expect_eq(t.id, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "'odd'");
}

/* The ordering stage summed estimated sizes of absurd resources (a buffer
 * of 2^63 bytes, a texture of 2^31 x 2^31 texels with many layers) into a
 * signed overflow (found by the fuzzer under UBSan): estimates are capped,
 * and the order stays valid. */
Test(rg_fuzz_regressions, absurd_sizes_do_not_overflow_the_order_estimate)
{
    rg_graph *g = test_graph();
    rg_buffer huge = rg_buffer_create(g, &(rg_buffer_desc){.name = "huge", .size = 1ull << 63});
    rg_buffer other = rg_buffer_create(g, &(rg_buffer_desc){.name = "other", .size = UINT64_MAX});
    rg_texture big = rg_texture_create(g, &(rg_texture_desc){.name = "big", .format = VK_FORMAT_R32G32B32A32_SFLOAT,
                                                            .width = 1u << 31, .height = 1u << 31,
                                                            .array_layers = 2048});
    test_outside(g, "a", BUF(huge, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "b", BUF(other, RG_USAGE_STORAGE_WRITE_COMPUTE), TEX(big, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "c", BUF(huge, RG_USAGE_STORAGE_READ_COMPUTE), BUF(other, RG_USAGE_STORAGE_READ_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_command *order;
    cr_expect_eq(rg_execution_order(g, &order), 3);
    rg_graph_destroy(g);
}

/* A sample count past Vulkan's 64 but a power of two (2^30) was taken,
 * and a merged instance's colour bytes times it wrapped around 32 bits
 * under the tile budget (found by the fuzzer on a Mali profile): counts
 * above 64 are refused at declaration, naming the texture. */
Test(rg_fuzz_regressions, sample_counts_past_64_are_refused)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "wide samples", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 8, .height = 8,
                                                          .samples = (VkSampleCountFlagBits)(1u << 30)});
    cr_expect_eq(t.id, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "'wide samples'");
}
