/* A graph's life: declared, compiled, placed (offline here), failed; what
 * each query answers in each state; which errors stay (declaration and
 * compile) and which only set the message (everything else); command
 * handles refused when stale or foreign. No device. */
#include "rg_mem_unit.h"

static rg_command declare_pass(rg_graph *g, rg_texture *color)
{
    *color = test_color(g, "color");
    rg_command begin = test_begin(g, "pass", *color);
    test_draw(g, "draw");
    rg_end_rendering(g);
    test_outside(g, "read", TEX(*color, RG_USAGE_SAMPLED_COMPUTE));
    return begin;
}

Test(rg_lifecycle, queries_follow_the_state)
{
    rg_graph *g = test_graph();
    rg_texture color;
    rg_command begin = declare_pass(g, &color);
    rg_command_info info;
    cr_expect_eq(rg_command_get_info(g, begin, &info), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(rg_barrier_count(g), 0);
    cr_expect_eq(rg_span_count(g), 0);
    cr_expect_eq(rg_place(g), RG_ERROR_NOT_COMPILED);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "not compiled"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "refusing to place is not the declaration's error");

    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_command_get_info(g, begin, &info), RG_SUCCESS);
    cr_expect_eq(info.type, RG_COMMAND_TYPE_BEGIN_RENDERING);
    cr_expect_eq(info.index, 0);
    cr_expect_eq(info.span, 0);
    cr_expect_str_eq(info.name, "pass");
    cr_expect_eq(rg_span_count(g), 1);
    cr_expect_gt(rg_barrier_count(g), 0);
    rg_span_rendering r;
    cr_expect_eq(rg_span_get_rendering(g, 0, &r), RG_ERROR_NOT_PLACED, "no device placement");
    /* A device-free graph is not placed on a device. */
    cr_expect_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "without a device"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_texture_image(g, color), VK_NULL_HANDLE);

    /* Declaring more takes the graph back to declared: nothing compiled is
     * offered until it compiles again. */
    test_outside(g, "late", BUF(test_buf(g, "late"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_expect_eq(rg_command_get_info(g, begin, &info), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(rg_barrier_count(g), 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(rg_execution_order(g, NULL), 5);
    rg_graph_destroy(g);
}

Test(rg_lifecycle, stale_and_foreign_command_handles_are_refused)
{
    rg_graph *g = test_graph(), *other = test_graph();
    rg_texture color, other_color;
    rg_command begin = declare_pass(g, &color);
    rg_command foreign = declare_pass(other, &other_color);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_assert_eq(rg_compile(other), RG_SUCCESS);
    rg_command_info info;
    cr_expect_eq(rg_command_get_info(g, foreign, &info), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(rg_command_get_info(g, (rg_command){0}, &info), RG_ERROR_INVALID_HANDLE);
    cr_expect_not(rg_happens_before(g, foreign, begin));
    rg_graph_reset(g);
    rg_command fresh = declare_pass(g, &color);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_neq(fresh.id, begin.id, "a new declaration's handles carry a new tag");
    cr_expect_eq(rg_command_get_info(g, begin, &info), RG_ERROR_INVALID_HANDLE, "stale after the reset");
    cr_expect_eq(rg_command_get_info(g, fresh, &info), RG_SUCCESS);
    rg_graph_destroy(g);
    rg_graph_destroy(other);
}

Test(rg_lifecycle, declaration_errors_stay_until_reset)
{
    rg_graph *g = test_graph();
    test_draw(g, "no span"); /* RG_ERROR_DRAW_OUTSIDE_SPAN */
    test_color(g, "ignored");
    cr_expect_eq(rg_compile(g), RG_ERROR_DRAW_OUTSIDE_SPAN);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_DRAW_OUTSIDE_SPAN);
    cr_expect_eq(rg_compile(g), RG_ERROR_DRAW_OUTSIDE_SPAN, "still failed");
    /* Another call's refusal does not replace the kept message. */
    cr_expect_eq(rg_place(g), RG_ERROR_NOT_COMPILED);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "no span"), "%s", rg_graph_error_message(g));
    rg_graph_reset(g);
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS);
    rg_texture color;
    declare_pass(g, &color);
    test_expect_compiles(g);
}

/* Placement (offline here) replans the barriers with its aliasing; a
 * compile of an unchanged declaration keeps them, a reset and identical
 * re-declaration gives compile's list again. */
Test(rg_lifecycle, barriers_before_and_after_placement)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_texture a = test_mem_tex(&env, "a", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_texture b = test_mem_tex(&env, "b", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_buffer link = test_mem_buf(&env, "link", KiB64); /* orders b's uses after a's */
    test_outside(env.g, "write a", TEX(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(env.g, "read a", TEX(a, RG_USAGE_SAMPLED_COMPUTE), BUF(link, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(env.g, "write b", TEX(b, RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(link, RG_USAGE_STORAGE_READ_COMPUTE));
    test_outside(env.g, "read b", TEX(b, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS);
    const rg_barrier_info *first_b = NULL;
    for (uint32_t i = 0; i < rg_barrier_count(env.g); i++)
        if (rg_barrier_get(env.g, i)->texture.id == b.id && !first_b)
            first_b = rg_barrier_get(env.g, i);
    cr_assert_not_null(first_b);
    VkAccessFlags2 compiled_src = first_b->src_access;
    test_mem_place(&env);
    cr_assert(test_mem_overlap(test_mem_tex_at(&env, a), test_mem_tex_at(&env, b)), "a and b share bytes");
    first_b = NULL;
    for (uint32_t i = 0; i < rg_barrier_count(env.g); i++)
        if (rg_barrier_get(env.g, i)->texture.id == b.id && !first_b)
            first_b = rg_barrier_get(env.g, i);
    cr_assert_not_null(first_b);
    cr_expect(first_b->src_access & VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
              "after placement b's first use waits for a's last read (src 0x%llx, at compile 0x%llx)",
              (unsigned long long)first_b->src_access, (unsigned long long)compiled_src);
    cr_expect_not(compiled_src & VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, "compile's list knows no aliasing");
    rg_graph_destroy(env.g);
}

/* Declared alike after a reset, the barriers compile cached are the same,
 * their handles the new declaration's: the texture and command handles
 * rg_barrier_get names are the ones the declaration calls returned again,
 * and the stale ones are refused. */
Test(rg_lifecycle, barriers_of_a_declaration_alike_carry_its_handles)
{
    rg_graph *g = test_graph();
    rg_texture color;
    declare_pass(g, &color);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t count = rg_barrier_count(g);
    cr_assert_gt(count, 0);
    rg_texture old = color;
    cr_assert_eq(rg_graph_reset(g), RG_SUCCESS);
    declare_pass(g, &color);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_barrier_count(g), count);
    cr_expect_neq(color.id, old.id, "a reset gives new handles");
    uint32_t naming = 0;
    for (uint32_t i = 0; i < count; i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        cr_assert_not_null(b);
        naming += b->texture.id == color.id;
        cr_expect_neq(b->texture.id, old.id, "barrier %u names the stale handle", i);
        rg_command_info info;
        if (b->before.id)
            cr_expect_eq(rg_command_get_info(g, b->before, &info), RG_SUCCESS, "barrier %u: %s", i,
                         rg_graph_error_message(g));
    }
    cr_expect_gt(naming, 0, "no barrier names the texture");
    rg_graph_destroy(g);
}
