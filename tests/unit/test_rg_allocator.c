/* Host allocation callbacks (rg_allocator), device-free: every allocation
 * of a graph's declaration, compile, offline placement and reports goes
 * through them, and failing each one in turn (the Nth, for every N up to
 * the count of a whole run) gives RG_ERROR_OUT_OF_MEMORY with a message,
 * never a crash, and leaves nothing allocated once the graph is destroyed.
 * ASan (the sanitizer build) watches the same runs. */
#include "counting_allocator.h"
#include "test_files.h"
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>

/* A frame of every kind of declaration: MSAA scene resolved, a history
 * texture, a bloom blit, a compute pass, copies into an imported readback,
 * so that compile's stages and placement all run. */
static void declare(test_mem_env *env)
{
    rg_graph *g = env->g;
    rg_texture ms = test_mem_tex_ex(env, "msaa", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64, VK_SAMPLE_COUNT_4_BIT,
                                    RG_TRANSIENT_AUTO);
    rg_texture scene = test_mem_tex(env, "scene", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture half = test_mem_tex(env, "half", VK_FORMAT_R8G8B8A8_UNORM, 4, 32, 32);
    rg_buffer lights = test_mem_buf(env, "lights", 4096);
    test_mem_entry *h = test_mem_push(env, test_mem_round(64 * 64 * 4));
    h->is_texture = true;
    rg_texture previous;
    h->tex = test_history(g, "taa", VK_FORMAT_R8G8B8A8_UNORM, &previous);
    test_mem_entry *p = test_mem_push(env, test_mem_round(64 * 64 * 4));
    p->is_texture = true;
    p->tex = previous;
    rg_texture out = test_mem_import(env, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 64, 64);
    test_mem_push(env, 0);
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 4});
    test_outside(g, "light cull", BUF(lights, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "scene",
                              .colors = {{.texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = scene}},
                              .color_count = 1});
    test_draw(g, "draw", BUF(lights, RG_USAGE_UNIFORM_FRAGMENT));
    rg_end_rendering(g);
    rg_cmd_blit(g, scene, 0, half, 0, VK_FILTER_LINEAR);
    test_begin(g, "taa", h->tex);
    test_draw(g, "resolve", TEX(scene, RG_USAGE_SAMPLED_FRAGMENT), TEX(previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    test_begin(g, "present", out);
    test_draw(g, "tonemap", TEX(h->tex, RG_USAGE_SAMPLED_FRAGMENT), TEX(half, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, h->tex, 0, 0, 1, readback, 0);
}

/* Declares, compiles, places offline and writes the memory report; the
 * first failing result (RG_SUCCESS when all succeeded). */
static rg_result run(counting *c, rg_graph **out)
{
    test_mem_env env;
    memset(&env, 0, sizeof env);
    env.table = test_mem_table("NVIDIA H200");
    rg_allocator a = {count_alloc, count_realloc, count_free, c};
    rg_result r = rg_graph_create(&(rg_graph_desc){.name = "allocations", .allocator = &a}, &env.g);
    *out = env.g;
    if (r != RG_SUCCESS)
        return r;
    declare(&env);
    r = rg_compile(env.g);
    if (r == RG_SUCCESS)
        r = rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env);
    if (r == RG_SUCCESS) {
        FILE *f = test_text_open();
        cr_assert_not_null(f);
        r = rg_memory_report_print(env.g, f);
        free(test_text_close(f));
    }
    return r;
}

Test(rg_allocator, every_allocation_goes_through_the_callbacks)
{
    counting c = {0};
    rg_graph *g = NULL;
    rg_result r = run(&c, &g);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(g));
    cr_expect_gt(c.calls, 20, "only %u allocations seen", c.calls);
    cr_expect_gt(c.live, 0);
    rg_graph_destroy(g);
    cr_expect_eq(c.live, 0, "%u blocks left after rg_graph_destroy", c.live);
}

Test(rg_allocator, each_failing_allocation_is_a_clean_error)
{
    counting whole = {0};
    rg_graph *g = NULL;
    cr_assert_eq(run(&whole, &g), RG_SUCCESS);
    rg_graph_destroy(g);
    cr_log_info("failing each of %u allocations in turn", whole.calls);
    for (uint32_t n = 1; n <= whole.calls; n++) {
        counting c = {.fail_at = n};
        rg_result r = run(&c, &g);
        cr_expect_eq(c.failed, 1, "allocation %u of %u was not made", n, whole.calls);
        cr_expect_eq(r, RG_ERROR_OUT_OF_MEMORY, "allocation %u of %u failed: %s (%s)", n, whole.calls,
                     rg_result_string(r), g ? rg_graph_error_message(g) : "no graph");
        if (g)
            cr_expect_neq(rg_graph_error_message(g)[0], '\0', "allocation %u failed without a message", n);
        else
            cr_expect_eq(n, 1u, "only the graph's own allocation leaves no graph");
        rg_graph_destroy(g);
        cr_expect_eq(c.live, 0, "allocation %u failed: %u blocks leaked", n, c.live);
    }
}

/* An allocator without all three functions is refused. */
Test(rg_allocator, incomplete_allocator_is_refused)
{
    counting c = {0};
    rg_allocator a = {count_alloc, NULL, count_free, &c};
    rg_graph *g = NULL;
    cr_expect_eq(rg_graph_create(&(rg_graph_desc){.name = "x", .allocator = &a}, &g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(g);
    cr_expect_eq(c.calls, 0);
}

/* rg_workers' host memory goes through rg_workers_desc.allocator too:
 * every block back at rg_workers_destroy, each failing allocation a clean
 * RG_ERROR_OUT_OF_MEMORY, an incomplete allocator refused. Starting its
 * threads allocates nothing more. */
Test(rg_allocator, workers_allocate_through_the_callbacks)
{
    counting c = {0};
    rg_allocator a = counting_allocator(&c);
    rg_workers *w = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){.thread_count = 4, .allocator = &a}, &w), RG_SUCCESS);
    cr_expect_eq(c.live, 2, "the workers and their threads' array, got %u blocks", c.live);
    rg_workers_destroy(w);
    cr_expect_eq(c.live, 0, "%u blocks left after rg_workers_destroy", c.live);
    for (uint32_t n = 1; n <= 2; n++) {
        counting f = {.fail_at = n};
        rg_allocator fa = counting_allocator(&f);
        cr_expect_eq(rg_workers_create(&(rg_workers_desc){.thread_count = 4, .allocator = &fa}, &w),
                     RG_ERROR_OUT_OF_MEMORY);
        cr_expect_null(w);
        cr_expect_eq(f.live, 0, "allocation %u failed: %u blocks leaked", n, f.live);
    }
    rg_allocator half = {count_alloc, NULL, count_free, &c};
    cr_expect_eq(rg_workers_create(&(rg_workers_desc){.thread_count = 2, .allocator = &half}, &w),
                 RG_ERROR_INVALID_ARGUMENT);
}
