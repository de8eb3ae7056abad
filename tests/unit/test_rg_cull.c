/* Pass culling (compile_cull.c), device-free: a command whose results
 * reach no import, no side effect and no command outside spans without
 * accesses is not recorded, a span goes whole, and a resource only culled
 * commands use is not created. */
#include "rg_mem_unit.h"
#include "rg_unit_output.h"
#include "base/rules.h" /* the cull rules' ids and words (header only) */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_files.h"

static rg_graph *cull_graph(bool no_culling)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "cull", .no_culling = no_culling}, &g), RG_SUCCESS);
    return g;
}

static rg_texture output(rg_graph *g)
{
    return rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                           .width = 64, .height = 64,
                                                           .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
}

static bool culled(rg_graph *g, rg_command c)
{
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, c, &info), RG_SUCCESS);
    cr_expect_eq(info.culled, test_pos(g, c) == UINT32_MAX, "a culled command is not in the order and back");
    return info.culled;
}

/* scene -> light -> swapchain is kept; a debug pass writing a texture
 * nobody reads is culled, span whole, and its texture is not created. */
/* The rules' words by id, as the cull reasons say them. */
#define RULE_TEXT(id, text) [RG__RULE_##id] = text,
static const char *const rule_text[] = {RG__RULES(RULE_TEXT)};
#undef RULE_TEXT

/* The reason "nothing observable reads 'name'". */
static void expect_unread(const char *reason, const char *name)
{
    char want[256];
    snprintf(want, sizeof want, "%s '%s'", rule_text[RG__RULE_CULL_UNREAD], name);
    cr_expect_str_eq(reason ? reason : "", want);
}

Test(rg_cull, dead_branch_is_culled)
{
    test_mem_env env;
    test_mem_init_graph(&env, "NVIDIA H200", cull_graph(false));
    rg_graph *g = env.g;
    rg_texture scene = test_mem_tex(&env, "scene", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture debug = test_mem_tex(&env, "debug view", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
    rg_texture out = test_mem_import(&env, "swapchain", VK_FORMAT_R8G8B8A8_UNORM, 64, 64);
    rg_command s = test_begin(g, "scene", scene);
    rg_command draw =
        test_draw(g, "draw", BUF_UNDEF(test_mem_buf(&env, "vertices", 4096), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    rg_command d = test_begin(g, "debug", debug);
    rg_command dd = test_draw(g, "visualize", TEX(scene, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_command l = test_begin(g, "light", out);
    test_draw(g, "tonemap", TEX(scene, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    test_mem_place(&env);
    cr_expect_not(culled(g, s));
    cr_expect_not(culled(g, draw));
    cr_expect_not(culled(g, l));
    cr_expect(culled(g, d));
    cr_expect(culled(g, dd), "a span is culled whole");
    /* Why, as data: the span's reason for each of its commands, none for
     * what runs (rgtool reads it; the log's notice says the same). */
    rg_command_info ci;
    cr_assert_eq(rg_command_get_info(g, dd, &ci), RG_SUCCESS);
    expect_unread(ci.cull_reason, "debug view");
    cr_assert_eq(rg_command_get_info(g, d, &ci), RG_SUCCESS);
    expect_unread(ci.cull_reason, "debug view");
    cr_assert_eq(rg_command_get_info(g, draw, &ci), RG_SUCCESS);
    cr_expect_null(ci.cull_reason);
    /* Pipeline-building code asks every draw's rendering state: a culled
     * one answers with its own code, so the caller skips it. */
    rg_command_rendering rendering;
    cr_expect_eq(rg_command_get_rendering(g, dd, &rendering), RG_ERROR_CULLED);
    cr_expect(strstr(rg_graph_error_message(g), "command 'visualize' was culled") != NULL, "%s",
              rg_graph_error_message(g));
    cr_expect_eq(rg_command_get_rendering(g, draw, &rendering), RG_SUCCESS);
    const rg_command *order;
    cr_expect_eq(rg_execution_order(g, &order), 6, "the debug span's 3 commands are gone");
    cr_expect_eq(rg_texture_memory(g, debug, NULL, NULL), RG_MEMORY_NOT_CREATED);
    cr_expect_neq(rg_texture_memory(g, scene, NULL, NULL), RG_MEMORY_NOT_CREATED);
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, debug, &info), RG_SUCCESS);
    cr_expect_eq(info.first_use, RG_INDEX_NONE);
    for (uint32_t i = 0; i < rg_barrier_count(g); i++)
        cr_expect_neq(rg_barrier_get(g, i)->texture.id, debug.id, "no barrier for what is not created");
    /* The report names both. */
    FILE *f = test_text_open();
    cr_assert_not_null(f);
    cr_assert_eq(rg_memory_report_print(g, f), RG_SUCCESS);
    char *text = test_text_close(f);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "culled (nothing observable reads their results): 'debug' (span)") != NULL, "%s", text);
    cr_expect(strstr(text, "not created, used by culled commands only: 'debug view'") != NULL, "%s", text);
    free(text);
    rg_graph_destroy(g);
}

/* A chain ends in a write to an import (a readback buffer): all of it is
 * kept. A command declared with side effects is kept though nothing reads
 * what it writes, and so is what it reads. */
Test(rg_cull, chain_to_an_import_and_side_effects_are_kept)
{
    rg_graph *g = cull_graph(false);
    rg_texture a = test_color(g, "a"), b = test_color(g, "b"), c = test_color(g, "c");
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 4});
    rg_buffer stats = test_buf(g, "stats");
    rg_command w = test_outside(g, "write a", TEX(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command x = test_outside(g, "a to b", TEX(a, RG_USAGE_SAMPLED_COMPUTE), TEX(b, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command copy = rg_cmd_copy_texture_to_buffer(g, b, 0, 0, 1, readback, 0);
    rg_command feed = test_outside(g, "write c", TEX(c, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command query = rg_cmd_user(g, &(rg_user_desc){.name = "occlusion query", .kind = RG_COMMAND_OUTSIDE,
                                                     .accesses = ACC(TEX(c, RG_USAGE_SAMPLED_COMPUTE),
                                                                     BUF(stats, RG_USAGE_STORAGE_WRITE_COMPUTE)),
                                                     .record = test_noop, .side_effects = true});
    rg_command dead = test_outside(g, "write stats again", BUF(stats, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command label = test_outside(g, "debug label");
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_not(culled(g, w));
    cr_expect_not(culled(g, x));
    cr_expect_not(culled(g, copy));
    cr_expect_not(culled(g, query));
    cr_expect_not(culled(g, feed), "the side-effect command reads it");
    cr_expect_not(culled(g, label), "a command without accesses");
    cr_expect(culled(g, dead));
    rg_graph_destroy(g);
}

/* A draw without accesses of its own (a fullscreen pass, geometry from
 * buffers the graph does not track) makes only its span's attachments:
 * the span is culled when nothing reads them, and its target is not
 * created, as the same span with a sampled input is. Declared with side
 * effects, the draw keeps it. */
Test(rg_cull, a_span_whose_draws_declare_no_accesses_is_culled)
{
    for (int variant = 0; variant < 3; variant++) {
        test_mem_env env;
        test_mem_init_graph(&env, "NVIDIA H200", cull_graph(false));
        rg_graph *g = env.g;
        rg_texture t1 = test_mem_tex(&env, "t1", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
        rg_texture t2 = test_mem_tex(&env, "t2", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
        rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 4});
        rg_command a = test_begin(g, "A", t1);
        rg_command a_draw = test_draw(g, "fullscreen A");
        rg_end_rendering(g);
        rg_cmd_copy_texture_to_buffer(g, t1, 0, 0, 1, readback, 0);
        rg_command b = test_begin(g, "B", t2);
        rg_command b_draw;
        if (variant == 0)
            b_draw = test_draw(g, "fullscreen B");
        else if (variant == 1)
            b_draw = test_draw(g, "sampling B", TEX(t1, RG_USAGE_SAMPLED_FRAGMENT));
        else
            b_draw = rg_cmd_user(g, &(rg_user_desc){.name = "query B", .kind = RG_COMMAND_DRAW, .record = test_noop,
                                                    .side_effects = true});
        rg_command b_end = rg_end_rendering(g);
        test_mem_place(&env);
        cr_expect_not(culled(g, a), "variant %d", variant);
        cr_expect_not(culled(g, a_draw), "variant %d", variant);
        bool kept = variant == 2;
        cr_expect_eq(culled(g, b), !kept, "variant %d", variant);
        cr_expect_eq(culled(g, b_draw), !kept, "variant %d", variant);
        cr_expect_eq(culled(g, b_end), !kept, "variant %d", variant);
        cr_expect_eq(rg_texture_memory(g, t2, NULL, NULL) == RG_MEMORY_NOT_CREATED, !kept, "variant %d", variant);
        rg_graph_destroy(g);
    }
}

/* Reading an import does not keep a command; a later writer of that import
 * does not keep the reader either (write-after-read is no dependency of
 * results). */
Test(rg_cull, reading_an_import_is_not_observable)
{
    rg_graph *g = cull_graph(false);
    rg_texture out = output(g), t = test_color(g, "t");
    rg_command reader = test_outside(g, "read output", TEX(out, RG_USAGE_SAMPLED_COMPUTE),
                                     TEX(t, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command writer = test_begin(g, "present pass", out);
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vb"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(culled(g, reader));
    cr_expect_not(culled(g, writer));
    rg_command_info ci;
    cr_assert_eq(rg_command_get_info(g, reader, &ci), RG_SUCCESS);
    expect_unread(ci.cull_reason, "t");
    /* A command that declares no write at all says so. */
    rg_command silent = test_outside(g, "reads only", TEX(out, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_command_get_info(g, silent, &ci), RG_SUCCESS);
    cr_expect(ci.culled);
    cr_expect_str_eq(ci.cull_reason ? ci.cull_reason : "", rule_text[RG__RULE_CULL_NO_WRITE]);
    rg_graph_destroy(g);
}

/* Culling off keeps everything, in the same order as on for what both
 * keep. */
Test(rg_cull, culling_off_keeps_everything)
{
    for (int off = 0; off < 2; off++) {
        rg_graph *g = cull_graph(off);
        rg_texture a = test_color(g, "a"), out = output(g);
        rg_command dead = test_outside(g, "dead", TEX(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
        rg_command live = test_begin(g, "live", out);
        rg_end_rendering(g);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        const rg_command *order;
        cr_expect_eq(rg_execution_order(g, &order), off ? 3u : 2u);
        cr_expect_eq(culled(g, dead), !off);
        cr_expect_not(culled(g, live));
        rg_graph_destroy(g);
    }
}

/* A frame whose declaration toggles a pass: declared, compiled, declared
 * again without it and with it, the culled set follows. */
Test(rg_cull, toggled_passes_recompile)
{
    rg_graph *g = cull_graph(false);
    for (int round = 0; round < 4; round++) {
        rg_graph_reset(g);
        rg_texture hdr = test_color(g, "hdr"), bloom = test_color(g, "bloom"), out = output(g);
        test_begin(g, "scene", hdr);
        rg_end_rendering(g);
        rg_command b = test_begin(g, "bloom", bloom);
        test_draw(g, "blur", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT));
        rg_end_rendering(g);
        bool use_bloom = round % 2 == 0;
        test_begin(g, "tonemap", out);
        if (use_bloom)
            test_draw(g, "tonemap", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT), TEX(bloom, RG_USAGE_SAMPLED_FRAGMENT));
        else
            test_draw(g, "tonemap", TEX(hdr, RG_USAGE_SAMPLED_FRAGMENT));
        rg_end_rendering(g);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_eq(culled(g, b), !use_bloom, "round %d", round);
    }
    rg_graph_destroy(g);
}

/* The DOT draws culled commands grey. */
Test(rg_cull, dot_greys_culled_commands)
{
    rg_graph *g = cull_graph(false);
    rg_texture a = test_color(g, "a");
    test_outside(g, "dead pass", TEX(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "label");
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    char *text = test_dot_text(g);
    cr_expect(strstr(text, "#1 dead pass (culled)\", color=gray, fontcolor=gray") != NULL, "%s", text);
    cr_expect(strstr(text, "#2 label\"") != NULL, "%s", text);
    free(text);
    rg_graph_destroy(g);
}
