/* rg_graph_error_message, device-free: the pipeline calls and the
 * per-frame setters start with the message cleared (after a success it is
 * ""), every failing query, report and pipeline call sets a message that
 * starts with its own name, a query that succeeds leaves the message as it
 * was, and a kept declaration or compile error's message outlives every
 * later failure until rg_graph_reset. */
#include "rg_mem_unit.h"

#include <stdio.h>

/* A span into color, a pass outside reading it and writing buf, and an
 * unused import (for the setters). */
typedef struct fixture {
    rg_graph *g;
    rg_texture color, import;
    rg_buffer buf, buf_import;
    rg_command begin, draw, read;
    union {
        rg_command_info info;
        rg_command_rendering rendering;
        rg_local_read_info local;
        rg_merge_info merge;
        rg_resource_info resource;
        rg_span_rendering span;
        rg_batch_info batch;
        rg_queue_note note;
        rg_tile_view view;
    } out;
    rg_submit_plan plan;
    VkCommandBuffer cmds[4];
} fixture;

static void declare(fixture *f, bool compile)
{
    memset(f, 0, sizeof *f);
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "messages", .no_culling = true}, &f->g), RG_SUCCESS);
    rg_graph *g = f->g;
    f->color = test_color(g, "color");
    f->import = rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                                               .width = 64, .height = 64});
    f->buf = test_buf(g, "buf");
    f->buf_import = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "upload", .size = 256});
    f->begin = test_begin(g, "pass", f->color);
    f->draw = test_draw(g, "draw");
    rg_end_rendering(g);
    f->read = test_outside(g, "read", TEX(f->color, RG_USAGE_SAMPLED_COMPUTE),
                           BUF(f->buf, RG_USAGE_STORAGE_WRITE_COMPUTE));
    if (compile)
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_str_eq(rg_graph_error_message(g), "");
}

/* Whether the message starts with the call's name followed by ':'. */
static bool names_call(const rg_graph *g, const char *call)
{
    const char *m = rg_graph_error_message(g);
    size_t n = strlen(call);
    return strncmp(m, call, n) == 0 && m[n] == ':';
}

static bool refuse_requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                                VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index, (void)size, (void)alignment, (void)type_bits,
        (void)dedicated;
    return false;
}

static const VkPhysicalDeviceMemoryProperties *h200(void) { return &test_mem_table("NVIDIA H200")->props; }

/* ------------------------------------------------------------- the calls */

/* What the fixture's imports are given: their declared shapes. */
static const rg_import_image swapchain_image = {.format = VK_FORMAT_B8G8R8A8_SRGB, .width = 64, .height = 64,
                                                .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
static const rg_import_buffer upload_buffer = {.size = 256, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT};

#define CALL(id, expr)                                                                                               \
    static rg_result id(fixture *f) { return (expr); }

CALL(info_zero, rg_command_get_info(f->g, (rg_command){0}, &f->out.info))
CALL(info_null, rg_command_get_info(f->g, f->begin, NULL))
CALL(info_ok, rg_command_get_info(f->g, f->begin, &f->out.info))
CALL(rendering_zero, rg_command_get_rendering(f->g, (rg_command){0}, &f->out.rendering))
CALL(rendering_null, rg_command_get_rendering(f->g, f->draw, NULL))
CALL(rendering_ok, rg_command_get_rendering(f->g, f->draw, &f->out.rendering))
CALL(local_zero_command, rg_command_get_local_read(f->g, (rg_command){0}, f->color, &f->out.local))
CALL(local_zero_texture, rg_command_get_local_read(f->g, f->draw, (rg_texture){0}, &f->out.local))
CALL(local_null, rg_command_get_local_read(f->g, f->draw, f->color, NULL))
CALL(local_not_read, rg_command_get_local_read(f->g, f->draw, f->color, &f->out.local))
CALL(merge_past, rg_merge_get(f->g, UINT32_MAX, &f->out.merge))
CALL(merge_null, rg_merge_get(f->g, 0, NULL))
CALL(texture_zero, rg_texture_get_info(f->g, (rg_texture){0}, &f->out.resource))
CALL(texture_is_buffer, rg_texture_get_info(f->g, (rg_texture){f->buf.id}, &f->out.resource))
CALL(texture_ok, rg_texture_get_info(f->g, f->color, &f->out.resource))
CALL(buffer_zero, rg_buffer_get_info(f->g, (rg_buffer){0}, &f->out.resource))
CALL(buffer_null, rg_buffer_get_info(f->g, f->buf, NULL))
CALL(resource_past, rg_resource_get(f->g, UINT32_MAX, &f->out.resource))
CALL(resource_null, rg_resource_get(f->g, 0, NULL))
CALL(resource_ok, rg_resource_get(f->g, 0, &f->out.resource))
CALL(retire_point, rg_graph_set_retire_point(f->g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE))
CALL(span_unplaced, rg_span_get_rendering(f->g, 0, &f->out.span))
CALL(span_null, rg_span_get_rendering(f->g, 0, NULL))
CALL(batch_past, rg_batch_get(f->g, UINT32_MAX, &f->out.batch))
CALL(batch_null, rg_batch_get(f->g, 0, NULL))
CALL(batch_ok, rg_batch_get(f->g, 0, &f->out.batch))
CALL(note_past, rg_queue_note_get(f->g, UINT32_MAX, &f->out.note))
CALL(note_null, rg_queue_note_get(f->g, 0, NULL))
CALL(traffic_past, rg_tile_view_get(f->g, 1000, &f->out.view))
CALL(traffic_null, rg_tile_view_get(f->g, RG_INDEX_NONE, NULL))
CALL(traffic_ok, rg_tile_view_get(f->g, RG_INDEX_NONE, &f->out.view))
CALL(dot_null, rg_write_dot(f->g, NULL))
CALL(dot_devnull, rg_write_dot(f->g, "/dev/null"))
CALL(dot_unopenable, rg_write_dot(f->g, "/nonexistent/dir/g.dot"))
CALL(print_null, rg_memory_report_print(f->g, NULL))
CALL(print_unplaced, rg_memory_report_print(f->g, stdout))
CALL(json_null, rg_memory_report_json(f->g, NULL))
CALL(json_unplaced, rg_memory_report_json(f->g, "/dev/null"))
CALL(svg_null, rg_memory_timeline_svg(f->g, NULL))
CALL(svg_unplaced, rg_memory_timeline_svg(f->g, "/dev/null"))
CALL(set_image_zero, rg_texture_set_image(f->g, (rg_texture){0}, &swapchain_image))
CALL(set_image_created, rg_texture_set_image(f->g, f->color, &swapchain_image))
CALL(set_buffer_zero, rg_buffer_set_buffer(f->g, (rg_buffer){0}, &upload_buffer))
CALL(set_buffer_created, rg_buffer_set_buffer(f->g, f->buf, &upload_buffer))
CALL(execute_null, rg_execute(f->g, VK_NULL_HANDLE))
CALL(batches_null, rg_execute_batches(f->g, NULL, &f->plan))
CALL(batches_no_plan, rg_execute_batches(f->g, f->cmds, NULL))
CALL(batches, rg_execute_batches(f->g, f->cmds, &f->plan))
CALL(submit_null, rg_submit(f->g, NULL, NULL))
CALL(place_offline_null, rg_place_offline(f->g, NULL, refuse_requirements, NULL))
CALL(place_offline, rg_place_offline(f->g, h200(), refuse_requirements, NULL))

typedef struct message_case {
    const char *call;                 /* the message starts with "call:" */
    const char *needle;               /* and holds this */
    bool compiled;                    /* on the compiled graph, else the declared one */
    rg_result code;
    rg_result (*run)(fixture *f);
} message_case;

static const message_case cases[] = {
    /* A compiled graph: bad handles, NULL outputs, indices past the end,
     * a device-free graph's missing placement. */
    {"rg_command_get_info", "command handle 0x0 is not a command of graph 'messages'", true, RG_ERROR_INVALID_HANDLE,
     info_zero},
    {"rg_command_get_info", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, info_null},
    {"rg_command_get_rendering", "command handle 0x0", true, RG_ERROR_INVALID_HANDLE, rendering_zero},
    {"rg_command_get_rendering", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, rendering_null},
    {"rg_command_get_local_read", "command handle 0x0 is not a command of graph 'messages'", true,
     RG_ERROR_INVALID_HANDLE, local_zero_command},
    {"rg_command_get_local_read", "texture handle 0x0 is not a texture of graph 'messages'", true,
     RG_ERROR_INVALID_HANDLE, local_zero_texture},
    {"rg_command_get_local_read", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, local_null},
    {"rg_command_get_local_read", "'draw' does not read texture 'color'", true, RG_ERROR_INVALID_ARGUMENT,
     local_not_read},
    {"rg_merge_get", "index 4294967295 of graph 'messages', which has 0 merge notes", true,
     RG_ERROR_INVALID_ARGUMENT, merge_past},
    {"rg_merge_get", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, merge_null},
    {"rg_texture_get_info", "texture handle 0x0", true, RG_ERROR_INVALID_HANDLE, texture_zero},
    {"rg_texture_get_info", "is not a texture of graph 'messages'", true, RG_ERROR_INVALID_HANDLE,
     texture_is_buffer},
    {"rg_buffer_get_info", "buffer handle 0x0 is not a buffer of graph 'messages'", true, RG_ERROR_INVALID_HANDLE,
     buffer_zero},
    {"rg_buffer_get_info", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, buffer_null},
    {"rg_resource_get", "index 4294967295 of graph 'messages', which has 4 resources", true,
     RG_ERROR_INVALID_ARGUMENT, resource_past},
    {"rg_resource_get", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, resource_null},
    {"rg_graph_set_retire_point", "graph 'messages' was created without a device", true, RG_ERROR_INVALID_ARGUMENT,
     retire_point},
    {"rg_span_get_rendering", "graph 'messages' is not placed on the device", true, RG_ERROR_NOT_PLACED,
     span_unplaced},
    {"rg_span_get_rendering", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, span_null},
    {"rg_batch_get", "index 4294967295 of graph 'messages', which has 1 batches", true, RG_ERROR_INVALID_ARGUMENT,
     batch_past},
    {"rg_batch_get", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, batch_null},
    {"rg_queue_note_get", "index 4294967295 of graph 'messages'", true, RG_ERROR_INVALID_ARGUMENT, note_past},
    {"rg_queue_note_get", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, note_null},
    {"rg_tile_view_get", "instance 1000", true, RG_ERROR_INVALID_ARGUMENT, traffic_past},
    {"rg_tile_view_get", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, traffic_null},
    {"rg_write_dot", "path is NULL", true, RG_ERROR_INVALID_ARGUMENT, dot_null},
    {"rg_write_dot", "could not open '/nonexistent/dir/g.dot' for writing", true, RG_ERROR_IO, dot_unopenable},
    {"rg_memory_report_print", "out is NULL", true, RG_ERROR_INVALID_ARGUMENT, print_null},
    {"rg_memory_report_print", "graph 'messages' is not placed", true, RG_ERROR_NOT_PLACED, print_unplaced},
    {"rg_memory_report_json", "path is NULL", true, RG_ERROR_INVALID_ARGUMENT, json_null},
    {"rg_memory_report_json", "graph 'messages' is not placed", true, RG_ERROR_NOT_PLACED, json_unplaced},
    {"rg_memory_timeline_svg", "path is NULL", true, RG_ERROR_INVALID_ARGUMENT, svg_null},
    {"rg_memory_timeline_svg", "graph 'messages' is not placed", true, RG_ERROR_NOT_PLACED, svg_unplaced},
    {"rg_texture_set_image", "texture handle 0x0", true, RG_ERROR_INVALID_HANDLE, set_image_zero},
    {"rg_texture_set_image", "texture 'color' is not an import", true, RG_ERROR_INVALID_ARGUMENT,
     set_image_created},
    {"rg_buffer_set_buffer", "buffer handle 0x0", true, RG_ERROR_INVALID_HANDLE, set_buffer_zero},
    {"rg_buffer_set_buffer", "buffer 'buf' is not an import", true, RG_ERROR_INVALID_ARGUMENT, set_buffer_created},
    {"rg_execute", "cmd is VK_NULL_HANDLE", true, RG_ERROR_INVALID_ARGUMENT, execute_null},
    {"rg_execute_batches", "cmds is NULL", true, RG_ERROR_INVALID_ARGUMENT, batches_null},
    {"rg_execute_batches", "plan is NULL", true, RG_ERROR_INVALID_ARGUMENT, batches_no_plan},
    {"rg_execute_batches", "graph 'messages' was created without a device", true, RG_ERROR_INVALID_ARGUMENT,
     batches},
    {"rg_submit", "graph 'messages' was created without a device", true, RG_ERROR_INVALID_ARGUMENT, submit_null},
    {"rg_place_offline", "props is NULL", true, RG_ERROR_INVALID_ARGUMENT, place_offline_null},
    {"rg_place_offline", "no memory requirements for texture 'color'", true, RG_ERROR_CALLBACK, place_offline},
    /* A declared graph, not compiled. */
    {"rg_command_get_info", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, info_ok},
    {"rg_command_get_rendering", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, rendering_ok},
    {"rg_command_get_local_read", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED,
     local_zero_texture},
    {"rg_merge_get", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, merge_past},
    {"rg_texture_get_info", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, texture_ok},
    {"rg_buffer_get_info", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, buffer_zero},
    {"rg_resource_get", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, resource_ok},
    {"rg_span_get_rendering", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, span_unplaced},
    {"rg_batch_get", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, batch_ok},
    {"rg_queue_note_get", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, note_past},
    {"rg_tile_view_get", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, traffic_ok},
    {"rg_write_dot", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, dot_devnull},
    {"rg_execute_batches", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, batches},
    {"rg_place_offline", "graph 'messages' is not compiled", false, RG_ERROR_NOT_COMPILED, place_offline},
};

/* What rg_place says on either graph (not compiled, or no device): the
 * earlier message every case must replace. */
static void earlier_message(fixture *f)
{
    cr_assert_neq(rg_place(f->g), RG_SUCCESS);
    cr_assert(names_call(f->g, "rg_place"), "%s", rg_graph_error_message(f->g));
}

/* ------------------------------------------------------------------ tests */

/* Issue 23, part 3 (a): the refusal of rg_execute_batches before compile
 * is that call's only; the compile after it succeeds with "". */
Test(rg_messages, a_successful_compile_clears_an_earlier_calls_message)
{
    fixture f;
    declare(&f, false);
    cr_expect_eq(rg_execute_batches(f.g, f.cmds, &f.plan), RG_ERROR_NOT_COMPILED);
    cr_expect(names_call(f.g, "rg_execute_batches"), "%s", rg_graph_error_message(f.g));
    cr_expect_not_null(strstr(rg_graph_error_message(f.g), "graph 'messages' is not compiled"), "%s",
                       rg_graph_error_message(f.g));
    cr_expect_eq(rg_graph_error(f.g), RG_SUCCESS, "refusing to execute is not the declaration's error");
    cr_assert_eq(rg_compile(f.g), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    cr_expect_eq(rg_graph_error(f.g), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(f.g), "");

    /* rg_execute likewise, and a compile of an unchanged, compiled graph
     * (which returns at once) clears it too. */
    cr_expect_eq(rg_execute(f.g, VK_NULL_HANDLE), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(names_call(f.g, "rg_execute"), "%s", rg_graph_error_message(f.g));
    cr_assert_eq(rg_compile(f.g), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(f.g), "");
    rg_graph_destroy(f.g);
}

/* Issue 23, part 3 (b) and its kin: every failing call replaces an earlier
 * call's message with its own. */
Test(rg_messages, every_failing_call_names_itself)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const message_case *c = &cases[i];
        fixture f;
        declare(&f, c->compiled);
        earlier_message(&f);
        rg_result r = c->run(&f);
        const char *m = rg_graph_error_message(f.g);
        cr_expect_eq(r, c->code, "case %zu (%s): %s, wanted %s: %s", i, c->call, rg_result_string(r),
                     rg_result_string(c->code), m);
        cr_expect(names_call(f.g, c->call), "case %zu: the message does not start with '%s:': %s", i, c->call, m);
        cr_expect_not_null(strstr(m, c->needle), "case %zu (%s): '%s' lacks '%s'", i, c->call, m, c->needle);
        cr_expect_eq(rg_graph_error(f.g), RG_SUCCESS, "case %zu (%s): a refusal made sticky", i, c->call);
        rg_graph_destroy(f.g);
    }
}

/* The calls with a NULL graph return their code and touch no graph. */
Test(rg_messages, a_null_graph_is_an_invalid_argument)
{
    rg_command_info info;
    cr_expect_eq(rg_command_get_info(NULL, (rg_command){0}, &info), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_texture_get_info(NULL, (rg_texture){0}, &(rg_resource_info){0}), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_write_dot(NULL, "/dev/null"), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_memory_report_print(NULL, stdout), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_texture_set_image(NULL, (rg_texture){0}, &swapchain_image), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_buffer_set_buffer(NULL, (rg_buffer){0}, &upload_buffer), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_execute_batches(NULL, NULL, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_submit(NULL, NULL, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(NULL), "no graph");
}

/* Queries and reports that succeed are read-only: the earlier message
 * stays, byte for byte. */
Test(rg_messages, a_successful_query_leaves_the_message)
{
    fixture f;
    declare(&f, true);
    earlier_message(&f);
    char before[512];
    snprintf(before, sizeof before, "%s", rg_graph_error_message(f.g));
    rg_result (*const ok[])(fixture *) = {info_ok, rendering_ok, texture_ok, batch_ok, traffic_ok, dot_devnull};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_expect_eq(ok[i](&f), RG_SUCCESS, "query %zu: %s", i, rg_graph_error_message(f.g));
        cr_expect_str_eq(rg_graph_error_message(f.g), before, "query %zu", i);
    }
    rg_graph_destroy(f.g);
}

/* A kept declaration error's message outlives every later failure (and
 * the pipeline calls' clearing) until the reset. */
Test(rg_messages, a_kept_error_keeps_its_message)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const message_case *c = &cases[i];
        fixture f;
        declare(&f, c->compiled);
        test_draw(f.g, "stray draw"); /* RG_ERROR_DRAW_OUTSIDE_SPAN */
        cr_assert_eq(rg_compile(f.g), RG_ERROR_DRAW_OUTSIDE_SPAN);
        char kept[512];
        snprintf(kept, sizeof kept, "%s", rg_graph_error_message(f.g));
        cr_assert_not_null(strstr(kept, "stray draw"), "%s", kept);
        rg_result r = c->run(&f);
        cr_expect_neq(r, RG_SUCCESS, "case %zu (%s) succeeded on a failed graph", i, c->call);
        cr_expect_str_eq(rg_graph_error_message(f.g), kept, "case %zu (%s)", i, c->call);
        cr_expect_eq(rg_graph_error(f.g), RG_ERROR_DRAW_OUTSIDE_SPAN, "case %zu (%s)", i, c->call);
        cr_expect_eq(rg_compile(f.g), RG_ERROR_DRAW_OUTSIDE_SPAN);
        cr_expect_str_eq(rg_graph_error_message(f.g), kept);
        rg_graph_reset(f.g);
        cr_expect_str_eq(rg_graph_error_message(f.g), "");
        rg_graph_destroy(f.g);
    }
}

/* A compile error is kept the same way: an offline placement after it is
 * refused and the compile's message stays. */
Test(rg_messages, a_kept_compile_error_outlives_placement)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "forced", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                           .width = 64, .height = 64,
                                                           .transient = RG_TRANSIENT_FORCE});
    test_outside(g, "fill", TEX(t, RG_USAGE_STORAGE_WRITE_COMPUTE)); /* needs the contents: compile refuses */
    cr_assert_eq(rg_compile(g), RG_ERROR_TRANSIENT_CONTENTS, "%s", rg_graph_error_message(g));
    char kept[512];
    snprintf(kept, sizeof kept, "%s", rg_graph_error_message(g));
    cr_assert_not_null(strstr(kept, "'forced'"), "%s", kept);
    cr_expect_eq(rg_place_offline(g, h200(), refuse_requirements, NULL), RG_ERROR_NOT_COMPILED);
    cr_expect_str_eq(rg_graph_error_message(g), kept);
    cr_expect_eq(rg_command_get_info(g, (rg_command){0}, &(rg_command_info){0}), RG_ERROR_NOT_COMPILED);
    cr_expect_str_eq(rg_graph_error_message(g), kept);
    cr_expect_eq(rg_graph_error(g), RG_ERROR_TRANSIENT_CONTENTS);
    rg_graph_destroy(g);
}

/* An offline placement that succeeds after failing ones clears the
 * message. */
Test(rg_messages, a_successful_offline_placement_clears_the_message)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "a", KiB64);
    test_outside(env.g, "p0", BUF(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS, "%s", rg_graph_error_message(env.g));
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, refuse_requirements, NULL), RG_ERROR_CALLBACK);
    cr_expect(names_call(env.g, "rg_place_offline"), "%s", rg_graph_error_message(env.g));
    cr_expect_not_null(strstr(rg_graph_error_message(env.g), "'a'"), "%s", rg_graph_error_message(env.g));
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_SUCCESS, "%s",
                 rg_graph_error_message(env.g));
    cr_expect_str_eq(rg_graph_error_message(env.g), "");

    /* A report's failure, then placing again (over the placement it has). */
    cr_expect_eq(rg_memory_report_json(env.g, "/nonexistent/dir/m.json"), RG_ERROR_IO);
    cr_expect(names_call(env.g, "rg_memory_report_json"), "%s", rg_graph_error_message(env.g));
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(env.g), "");
    rg_graph_destroy(env.g);
}

/* The per-frame setters clear the message when they succeed. */
Test(rg_messages, a_successful_setter_clears_the_message)
{
    fixture f;
    declare(&f, true);
    earlier_message(&f);
    cr_expect_eq(rg_texture_set_image(f.g, f.import, &swapchain_image), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(f.g), "");
    earlier_message(&f);
    cr_expect_eq(rg_buffer_set_buffer(f.g, f.buf_import, &upload_buffer), RG_SUCCESS);
    cr_expect_str_eq(rg_graph_error_message(f.g), "");
    rg_graph_destroy(f.g);
}

/* ------------------------------------------------------------------ log */

typedef struct logged {
    uint32_t count[3];
    char last[3][512];
    char object[64];
} logged;

static void keep(void *user, rg_log_level level, const char *object, const char *message)
{
    logged *l = user;
    cr_assert_lt((unsigned)level, 3u);
    l->count[level]++;
    snprintf(l->last[level], sizeof l->last[level], "%s", message);
    snprintf(l->object, sizeof l->object, "%s", object);
}

/* A graph's log gets every failing call's message as an error, and after
 * a compile the notices: what is culled, what is therefore not created. */
Test(rg_messages, the_log_gets_errors_and_compile_notices)
{
    logged l = {0};
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "logged", .log = keep, .log_user = &l}, &g), RG_SUCCESS);
    rg_texture debug = test_color(g, "debug view");
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 4});
    rg_texture kept = test_color(g, "kept");
    test_begin(g, "debug", debug);
    test_draw(g, "visualize");
    rg_end_rendering(g);
    test_begin(g, "scene", kept);
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, kept, 0, 0, 1, out, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(l.count[RG_LOG_ERROR], 0);
    cr_expect_eq(l.count[RG_LOG_INFO], 2, "notices: %u, last: %s", l.count[RG_LOG_INFO], l.last[RG_LOG_INFO]);
    cr_expect_str_eq(l.last[RG_LOG_INFO], "texture 'debug view' is not created: only culled commands use it");
    cr_expect_str_eq(l.object, "graph 'logged'");
    rg_command_info info;
    cr_expect_eq(rg_command_get_info(g, (rg_command){0}, &info), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(l.count[RG_LOG_ERROR], 1);
    cr_expect_str_eq(l.last[RG_LOG_ERROR], rg_graph_error_message(g));
    rg_graph_destroy(g);
}
