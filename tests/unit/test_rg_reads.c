/* Reads of nothing (rendergraph.h, "Reads"): a read of a created
 * subresource that no earlier command writes is RG_ERROR_READ_BEFORE_WRITE
 * naming the reader, the resource and the subresource; imports, history
 * previous, rg_access.undefined_ok and CLEAR/DONT_CARE loads are not. And
 * culling notices that say what nothing reads ("Culling"). */
#include "rg_unit.h"
#include "rg_unit_output.h"

#include <stdio.h>

#define SMC RG_USAGE_SAMPLED_COMPUTE
#define SWC RG_USAGE_STORAGE_WRITE_COMPUTE

/* A graph with culling on, as applications have it. */
static rg_graph *reads_graph(rg_log_fn log, void *user)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "reads", .log = log, .log_user = user}, &g), RG_SUCCESS);
    return g;
}

static rg_texture swapchain(rg_graph *g)
{
    return rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain",
                                                          .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                          .width = 64,
                                                          .height = 64,
                                                          .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
}

static rg_texture depth_tex(rg_graph *g) { return test_tex(g, "depth", VK_FORMAT_D32_SFLOAT); }

/* A depth prepass that clears and writes depth. */
static void prepass(rg_graph *g, rg_texture depth)
{
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "prepass",
                              .depth = {.texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                          });
    test_draw(g, "depth only");
    rg_end_rendering(g);
}

/* depth prepass -> ssao -> 'ao raw' -> ssao blur -> 'ao' -> composite into
 * the swapchain. forget: ssao declares its depth read but not its write. */
static rg_graph *ssao_frame(bool forget, rg_log_fn log, void *user)
{
    rg_graph *g = reads_graph(log, user);
    rg_texture depth = depth_tex(g), raw = test_color(g, "ao raw"), ao = test_color(g, "ao");
    rg_texture out = swapchain(g);
    prepass(g, depth);
    if (forget)
        test_outside(g, "ssao", TEX(depth, SMC));
    else
        test_outside(g, "ssao", TEX(depth, SMC), TEX(raw, SWC));
    test_outside(g, "ssao blur", TEX(raw, SMC), TEX(ao, SWC));
    test_begin(g, "composite", out);
    test_draw(g, "apply ao", TEX(ao, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    return g;
}

/* The SSAO pass that forgot its write: the blur reads 'ao raw', which
 * nothing wrote; the error names the reader, the texture and the
 * subresource. Declared with its write, the frame compiles. */
Test(rg_reads, ssao_that_forgot_its_write_fails_naming_the_reader)
{
    rg_graph *g = ssao_frame(true, NULL, NULL);
    test_expect_refused(g, RG_ERROR_READ_BEFORE_WRITE,
                        "command 'ssao blur' reads texture 'ao raw' (mip 0, layer 0), which no earlier command of "
                        "the frame writes");
    g = ssao_frame(false, NULL, NULL);
    test_expect_compiles(g);
}

/* A write to mip 0 does not make mip 1 written: the error names mip 1.
 * Reading the written mip is fine. */
Test(rg_reads, a_read_of_an_unwritten_mip_names_the_mip)
{
    for (uint32_t read_mip = 0; read_mip < 2; read_mip++) {
        rg_graph *g = test_graph();
        rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "pyramid",
                                                               .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                               .width = 64,
                                                               .height = 64,
                                                               .mip_levels = 2,
                                                               .array_layers = 2});
        test_outside(g, "write mip 0",
                     ((rg_access){.texture = t, .usage = SWC, .range = {.mip_count = 1, .layer_count = 2}}));
        test_outside(g, "read",
                     ((rg_access){.texture = t, .usage = SMC, .range = {.base_mip = read_mip, .base_layer = 1}}));
        if (read_mip == 0)
            cr_expect_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        else
            test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE, "command 'read' reads texture 'pyramid' (mip 1, layer 1)");
        rg_graph_destroy(g);
    }
}

/* Only an earlier command counts: a write after the read does not help;
 * a command that reads and writes one subresource reads what was there
 * before it. */
Test(rg_reads, only_earlier_writes_count)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "t");
    test_outside(g, "early reader", TEX(t, SMC));
    test_outside(g, "late writer", TEX(t, SWC));
    test_expect_refused(g, RG_ERROR_READ_BEFORE_WRITE, "command 'early reader' reads texture 't'");
    g = test_graph();
    rg_buffer b = test_buf(g, "counters");
    test_outside(g, "accumulate", BUF(b, RG_USAGE_STORAGE_READ_WRITE_COMPUTE));
    test_expect_refused(g, RG_ERROR_READ_BEFORE_WRITE,
                        "command 'accumulate' reads buffer 'counters', which no earlier command of the frame writes");
}

/* Built-in commands read too: a copy from a buffer nothing wrote. */
Test(rg_reads, a_copy_from_nothing_fails)
{
    rg_graph *g = test_graph();
    rg_cmd_copy_buffer(g, test_buf(g, "staging"), 0, test_buf(g, "dst"), 0, 64);
    test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE, "command 'copy_buffer' reads buffer 'staging'");
    cr_expect_null(strstr(rg_graph_error_message(g), "undefined_ok"),
                   "a built-in copy has no rg_access to mark: %s", rg_graph_error_message(g));
    cr_expect(strstr(rg_graph_error_message(g), "(write it first)") != NULL, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* A writer declared with a usage that only reads: the hint names the fix
 * (a usage that writes) before undefined_ok. */
Test(rg_reads, a_writer_declared_as_a_reader_is_named_in_the_hint)
{
    rg_graph *g = test_graph();
    rg_texture t = test_color(g, "ao");
    test_outside(g, "ssao", TEX(t, SMC)); /* meant RG_USAGE_STORAGE_WRITE_COMPUTE */
    test_outside(g, "blur", TEX(t, SMC));
    test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE,
                      "command 'ssao' reads texture 'ao' (mip 0, layer 0), which no earlier command of the frame "
                      "writes (write it first; if 'ssao' is what writes it, declare a usage that writes");
    rg_graph_destroy(g);
}

/* The LOAD of a created attachment nothing wrote (load 0 is LOAD) names
 * the span and the attachment; CLEAR and DONT_CARE write it; after an
 * earlier writer LOAD is fine. */
Test(rg_reads, load_of_a_never_written_attachment_fails_naming_span_and_texture)
{
    VkAttachmentLoadOp ops[] = {VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                VK_ATTACHMENT_LOAD_OP_DONT_CARE};
    for (int i = 0; i < 3; i++) {
        for (int written = 0; written < 2; written++) {
            rg_graph *g = test_graph();
            rg_texture hud = test_color(g, "hud");
            if (written) {
                test_begin(g, "first", hud);
                rg_end_rendering(g);
            }
            rg_begin_rendering(g, &(rg_rendering_desc){.name = "overlay",
                                                       .colors = {{.texture = hud, .load = ops[i]}},
                                                       .color_count = 1});
            rg_end_rendering(g);
            if (i == 0 && !written)
                test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE,
                                  "span 'overlay' loads attachment 'hud' (mip 0, layer 0), which no earlier command");
            else
                cr_expect_eq(rg_compile(g), RG_SUCCESS, "op %d, written %d: %s", i, written, rg_graph_error_message(g));
            rg_graph_destroy(g);
        }
    }
}

/* A resolve target is written by its span: reading it afterwards is fine. */
Test(rg_reads, a_resolve_target_is_written_by_its_span)
{
    rg_graph *g = test_graph();
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa",
                                                              .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                              .width = 64,
                                                              .height = 64,
                                                              .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_texture resolved = test_color(g, "resolved");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "scene",
                                               .colors = {{.texture = msaa,
                                                           .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                           .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                                           .resolve = resolved}},
                                               .color_count = 1});
    rg_end_rendering(g);
    test_outside(g, "read", TEX(resolved, SMC));
    test_expect_compiles(g);
}

/* A depth read-only span that loads the depth a prepass wrote compiles;
 * without the prepass its LOAD reads nothing (with or without a store). */
Test(rg_reads, depth_read_only_span_loading_a_prepass_depth)
{
    VkAttachmentStoreOp stores[] = {VK_ATTACHMENT_STORE_OP_NONE, VK_ATTACHMENT_STORE_OP_STORE};
    for (int s = 0; s < 2; s++) {
        for (int with_prepass = 0; with_prepass < 2; with_prepass++) {
            rg_graph *g = test_graph();
            rg_texture depth = depth_tex(g), color = test_color(g, "lit");
            if (with_prepass)
                prepass(g, depth);
            rg_begin_rendering(g,
                               &(rg_rendering_desc){.name = "forward",
                                                    .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                                    .color_count = 1,
                                                    .depth = {.texture = depth, .store = stores[s]},
                                                    .depth_read_only = true});
            test_draw(g, "shade");
            rg_end_rendering(g);
            if (with_prepass)
                cr_expect_eq(rg_compile(g), RG_SUCCESS, "store %d: %s", s, rg_graph_error_message(g));
            else
                test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE,
                                  "span 'forward' loads attachment 'depth' (depth, mip 0, layer 0)");
            rg_graph_destroy(g);
        }
    }
}

/* Imports hold what the application put there: reading one first is fine
 * (a texture and a buffer). */
Test(rg_reads, imports_are_not_reads_of_nothing)
{
    rg_graph *g = test_graph();
    rg_texture env =
        rg_texture_import(g, &(rg_texture_import_desc){.name = "environment",
                                                       .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                       .width = 64,
                                                       .height = 64,
                                                       .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    rg_buffer params = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "params", .size = 256});
    test_outside(g, "sky", TEX(env, SMC), BUF(params, RG_USAGE_UNIFORM_COMPUTE), TEX(test_color(g, "sky"), SWC));
    rg_cmd_copy_buffer(g, params, 0, test_buf(g, "copy"), 0, 64);
    test_expect_compiles(g);
}

/* A history texture's previous half holds the frame before's contents:
 * reading it first is fine. Its current half is the frame's own: reading
 * that before writing it is not. */
Test(rg_reads, history_previous_is_not_a_read_of_nothing)
{
    for (int read_current = 0; read_current < 2; read_current++) {
        rg_graph *g = test_graph();
        rg_texture previous;
        rg_texture current = test_history(g, "taa", VK_FORMAT_R8G8B8A8_UNORM, &previous);
        test_outside(g, "resolve taa", TEX(read_current ? current : previous, SMC),
                     TEX(read_current ? test_color(g, "scratch") : current, SWC));
        if (read_current)
            test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE, "command 'resolve taa' reads texture 'taa'");
        else
            cr_expect_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        rg_graph_destroy(g);
    }
}

/* rg_access.undefined_ok says the read of nothing is on purpose. */
Test(rg_reads, undefined_ok_allows_the_read)
{
    for (int flagged = 0; flagged < 2; flagged++) {
        rg_graph *g = test_graph();
        rg_texture t = test_color(g, "scratch");
        rg_buffer b = test_buf(g, "scratch buffer");
        test_outside(g, "overwrite", ((rg_access){.texture = t, .usage = SMC, .whole = true, .undefined_ok = flagged}),
                     ((rg_access){.buffer = b, .usage = RG_USAGE_UNIFORM_COMPUTE, .undefined_ok = flagged}),
                     TEX(test_color(g, "out"), SWC));
        if (flagged)
            cr_expect_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        else
            test_expect_error(g, RG_ERROR_READ_BEFORE_WRITE, "'scratch'");
        rg_graph_destroy(g);
    }
}

/* The check is of the declaration: a reader that culling drops still
 * fails, and so it does with culling off. */
Test(rg_reads, culled_readers_are_checked_too)
{
    for (int no_culling = 0; no_culling < 2; no_culling++) {
        rg_graph *g = NULL;
        cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "reads", .no_culling = no_culling}, &g), RG_SUCCESS);
        test_outside(g, "unused reader", TEX(test_color(g, "nothing"), SMC), TEX(test_color(g, "unread"), SWC));
        test_expect_refused(g, RG_ERROR_READ_BEFORE_WRITE, "command 'unused reader' reads texture 'nothing'");
    }
}

/* ----------------------------------------------------------- notices */

/* A culled command's notice names what it writes that nothing observable
 * reads; a span's names its attachments; a command that declares no write
 * says so. The "not created" notices stay. */
Test(rg_reads, culling_notices_name_what_nothing_reads)
{
    test_notices n = {0};
    rg_graph *g = reads_graph(test_keep_notice, &n);
    rg_texture depth = depth_tex(g), raw = test_color(g, "ao raw"), out = swapchain(g);
    rg_texture debug = test_color(g, "debug view"), ids = test_color(g, "debug ids");
    prepass(g, depth);
    test_outside(g, "ssao", TEX(depth, SMC), TEX(raw, SWC));
    test_outside(g, "probe", TEX(depth, SMC));
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "debug",
                                               .colors = {{.texture = debug, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                                                          {.texture = ids, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                               .color_count = 2});
    rg_end_rendering(g);
    test_begin(g, "present", out);
    test_draw(g, "sky");
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(test_noticed(&n, "command 'ssao' is culled: nothing observable reads 'ao raw'"), "%u: %s", n.count,
              n.text[0]);
    cr_expect(test_noticed(&n, "span 'debug' is culled: nothing observable reads 'debug view' or 'debug ids'"));
    cr_expect(test_noticed(&n, "span 'prepass' is culled: nothing observable reads 'depth'"));
    cr_expect(test_noticed(&n, "command 'probe' is culled: it declares no write (declare side_effects for effects the "
                          "graph cannot see)"));
    cr_expect(test_noticed(&n, "texture 'ao raw' is not created: only culled commands use it"));
    cr_expect_eq(n.count, 8, "4 culled, 4 not created");
    for (uint32_t i = 0; i < n.count; i++)
        cr_expect_null(strstr(n.text[i], "its results"), "%s", n.text[i]);
    rg_graph_destroy(g);
}
