/* rendergraph_frame's refusals (rendergraph_frame.h, rgf_load_text): a
 * table of malformed frame files, each the small valid frame this file
 * declares and saves, broken by one string edit (or a text of its own),
 * with the result expected and what the message must name: the file, the
 * JSON path and what was expected. Then every prefix of the valid text
 * (a file cut short), a missing file, and the saving side's refusals. */
#include <criterion/criterion.h>
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdlib.h>
#include <string.h>

#include "rg_unit.h"

static void rgf_quiet(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object, (void)message;
}

/* A frame with one of each thing the reader checks: a texture, one sized
 * relative to it, a buffer, a history pair, an import with its states, a
 * user command outside spans, a span with a draw, a blit. */
static rg_graph *small_graph(void)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "small", .no_culling = true}, &g), RG_SUCCESS);
    rg_texture color = test_color(g, "color");
    rg_texture half = rg_texture_create(
        g, &(rg_texture_desc){.name = "half", .format = VK_FORMAT_R8G8B8A8_UNORM, .size_of = color, .scale = 0.5f});
    rg_buffer data = test_buf(g, "data");
    rg_texture prev,
        accum = rg_texture_create_history(
            g, &(rg_texture_desc){.name = "accum", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .width = 64, .height = 64},
            &prev);
    rg_texture target =
        rg_texture_import(g, &(rg_texture_import_desc){.name = "target",
                                                       .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                       .width = 32,
                                                       .height = 32,
                                                       .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                                       .initial_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                                       .initial_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                                                       .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                                       .final_stage = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                                       .final_access = VK_ACCESS_2_TRANSFER_READ_BIT});
    test_outside(g, "fill", BUF(data, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_begin(g, "pass", color);
    test_draw(g, "draw", BUF(data, RG_USAGE_STORAGE_READ_FRAGMENT), TEX(prev, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_cmd_blit(g, color, 0, half, 0, VK_FILTER_LINEAR);
    test_outside(g, "resolve", TEX(half, RG_USAGE_SAMPLED_COMPUTE), TEX(accum, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_cmd_blit(g, half, 0, target, 0, VK_FILTER_NEAREST);
    return g;
}

/* small_graph's frame text (rgf_free it). */
static char *small_text(void)
{
    rg_graph *g = small_graph();
    char *text = NULL;
    rgf_error error;
    cr_assert_eq(rgf_save_text(g, NULL, &text, &error), RG_SUCCESS, "%s", error.message);
    rg_graph_destroy(g);
    return text;
}

/* text with its first `from` replaced by `to` (free it). */
static char *edited(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    cr_assert_not_null(at, "the saved frame has no \"%s\":\n%s", from, text);
    size_t head = (size_t)(at - text), nf = strlen(from), nt = strlen(to), tail = strlen(at + nf);
    char *out = malloc(head + nt + tail + 1);
    cr_assert_not_null(out);
    memcpy(out, text, head);
    memcpy(out + head, to, nt);
    memcpy(out + head + nt, at + nf, tail + 1);
    return out;
}

/* Loads text as "frame-name"; expects result and a message naming the
 * file and holding each needle. */
static void expect_refused(const char *text, size_t size, rg_result result, const char *const needles[3],
                           const char *what)
{
    rgf_frame *frame = (rgf_frame *)&frame;
    rgf_error error = {{0}};
    rg_result r = rgf_load_text(text, size, "frame-name", &(rgf_load_desc){.log = rgf_quiet}, &frame, &error);
    cr_expect_eq(r, result, "%s: %s, expected %s (%s)", what, rg_result_string(r), rg_result_string(result),
                 error.message);
    cr_expect_null(frame, "%s: *out is not NULL on failure", what);
    if (frame)
        rgf_frame_destroy(frame);
    cr_expect(strncmp(error.message, "frame-name:", 11) == 0, "%s: the message does not open with the file: %s", what,
              error.message);
    for (int i = 0; i < 3 && needles[i]; i++)
        cr_expect(strstr(error.message, needles[i]) != NULL, "%s: the message lacks \"%s\": %s", what, needles[i],
                  error.message);
}

/* One malformed file: the edit of the small frame (from -> to), or with
 * from NULL the text `to`; the result and what the message must hold. */
typedef struct bad_case {
    const char *what, *from, *to;
    rg_result result;
    const char *needles[3];
} bad_case;

#define INVALID RG_ERROR_INVALID_ARGUMENT
static const bad_case bad_cases[] = {
    /* Missing required fields. */
    {"resource name", "\"name\":\t\"color\",", "", INVALID, {"$.resources[0].name", "missing", "expected a string"}},
    {"command type", "\"type\":\t\"blit\",", "", INVALID, {"$.commands[4].type", "missing", "expected a string"}},
    {"access usage",
     "\"buffer\":\t2,\n\t\t\t\t\t\"usage\":\t\"storage_write_compute\"",
     "\"buffer\":\t2",
     INVALID,
     {"$.commands[0].accesses[0].usage", "missing", "expected a string"}},
    {"buffer size",
     "\"name\":\t\"data\",\n\t\t\t\"size\":\t256",
     "\"name\":\t\"data\"",
     INVALID,
     {"$.resources[2].size", "missing", "expected an integer"}},
    /* Wrong types. */
    {"string for a number",
     "\"width\":\t64",
     "\"width\":\t\"64\"",
     INVALID,
     {"$.resources[0].width", "expected an integer", "got \"64\""}},
    {"number for a bool",
     "\"no_culling\":\ttrue",
     "\"no_culling\":\t1",
     INVALID,
     {"$.graph.no_culling", "expected true or false", "got 1"}},
    {"object for an array",
     "\"size\":\t[32, 32]",
     "\"size\":\t{\"w\": 64}",
     INVALID,
     {"$.size", "expected an array", "got an object"}},
    {"array for an object",
     NULL,
     "{\"rendergraph_frame\": 1, \"size\": [1, 1], \"graph\": [], \"caps\": {}, \"resources\": [], \"commands\": []}",
     INVALID,
     {"$.graph", "expected an object", "got an array"}},
    /* The version. */
    {"unknown version",
     "\"rendergraph_frame\":\t1",
     "\"rendergraph_frame\":\t2",
     INVALID,
     {"$.rendergraph_frame", "version 2 is unknown"}},
    /* Handles to nothing or the wrong kind. */
    {"resource past the count",
     "\"texture\":\t4,",
     "\"texture\":\t41,",
     INVALID,
     {"$.commands[2].accesses[1].texture", "resource 41 does not exist"}},
    {"a buffer for a texture",
     "\"src\":\t0",
     "\"src\":\t2",
     INVALID,
     {"$.commands[4].src", "is a buffer, expected a texture"}},
    {"size_of pointing forward",
     "\"size_of\":\t0",
     "\"size_of\":\t3",
     INVALID,
     {"$.resources[1].size_of", "does not exist yet"}},
    /* Unknown names. */
    {"unknown command kind",
     "\"kind\":\t\"outside\"",
     "\"kind\":\t\"sideways\"",
     INVALID,
     {"$.commands[0].kind", "expected a command kind", "got \"sideways\""}},
    {"unknown format",
     "\"R8G8B8A8_UNORM\"",
     "\"R8G8B8A8_UNROM\"",
     INVALID,
     {"$.resources[0].format", "expected a format name", "got \"R8G8B8A8_UNROM\""}},
    {"unknown usage",
     "\"usage\":\t\"sampled_fragment\"",
     "\"usage\":\t\"sampled\"",
     INVALID,
     {"$.commands[2].accesses[1].usage", "expected an rg_usage name", "got \"sampled\""}},
    {"unknown layout",
     "SHADER_READ_ONLY_OPTIMAL",
     "SHADER_READ_ONLY",
     INVALID,
     {"$.resources[5].initial.layout", "expected a layout name", "got \"SHADER_READ_ONLY\""}},
    {"unknown stage",
     "FRAGMENT_SHADER",
     "FRAGMENT_SHADDER",
     INVALID,
     {"$.resources[5].initial.stage", "expected pipeline stage names", "got \"FRAGMENT_SHADDER\""}},
    {"unknown filter",
     "\"filter\":\t\"linear\"",
     "\"filter\":\t\"bilinear\"",
     INVALID,
     {"$.commands[4].filter", "expected a filter", "got \"bilinear\""}},
    {"unknown field",
     "\"name\":\t\"color\",",
     "\"name\":\t\"color\",\n\"colour\":\t1,",
     INVALID,
     {"$.resources[0].colour", "unknown field"}},
    /* Not a frame. */
    {"an array", NULL, "[1, 2]", INVALID, {"$:", "expected a frame file's object"}},
    {"a number", NULL, "42", INVALID, {"$:", "expected a frame file's object"}},
    {"empty input", NULL, "", INVALID, {"ends before it is complete"}},
    {"an empty object", NULL, "{}", INVALID, {"$.rendergraph_frame", "missing"}},
    /* A history without its previous half. */
    {"history without history_previous",
     ", {\n\t\t\t\"kind\":\t\"history_previous\",\n\t\t\t\"name\":\t\"accum (previous)\"\n\t\t}",
     "",
     INVALID,
     {"$.resources[4]", "expected the history_previous"}},
    /* A declaration the graph refuses: a draw outside spans. */
    {"a draw outside a span",
     "\"kind\":\t\"outside\"",
     "\"kind\":\t\"draw\"",
     RG_ERROR_DRAW_OUTSIDE_SPAN,
     {"$.commands[0]", "refused", "a draw command outside a span"}},
};

Test(rgf_errors, every_malformed_file_is_refused_naming_where)
{
    char *text = small_text();
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        char *bad = edited(c->from ? text : "", c->from ? c->from : "", c->to);
        expect_refused(bad, strlen(bad), c->result, c->needles, c->what);
        free(bad);
    }
    rgf_free(text);
}

/* The unedited text loads, compiles and saves as it was: the table's
 * refusals are its edits'. */
Test(rgf_errors, the_small_frame_loads)
{
    char *text = small_text();
    rgf_frame *frame = NULL;
    rgf_error error;
    cr_assert_eq(rgf_load_text(text, strlen(text), "small", NULL, &frame, &error), RG_SUCCESS, "%s", error.message);
    cr_expect_eq(rg_compile(rgf_frame_graph(frame)), RG_SUCCESS, "%s", rg_graph_error_message(rgf_frame_graph(frame)));
    char *again = NULL;
    cr_assert_eq(rgf_save_text(rgf_frame_graph(frame), NULL, &again, &error), RG_SUCCESS, "%s", error.message);
    cr_expect_str_eq(again, text);
    rgf_free(again);
    rgf_frame_destroy(frame);
    rgf_free(text);
}

/* Every prefix of a valid file (given its own length, so no NUL ends it
 * early) is a file cut short: refused cleanly, naming the file. */
Test(rgf_errors, every_prefix_is_refused)
{
    char *text = small_text();
    size_t size = strlen(text);
    for (size_t n = 0; n < size; n++) {
        char *cut = malloc(n + 1);
        cr_assert_not_null(cut);
        memcpy(cut, text, n);
        cut[n] = '\0';
        char what[96];
        snprintf(what, sizeof what, "the first %zu of %zu bytes", n, size);
        expect_refused(cut, n, INVALID, (const char *const[3]){"ends before it is complete"}, what);
        free(cut);
    }
    rgf_free(text);
}

Test(rgf_errors, a_missing_file_is_an_io_error)
{
    rgf_frame *frame = NULL;
    rgf_error error;
    const char *path = "no-such-folder-rgf-errors/frame.json";
    cr_expect_eq(rgf_load(path, NULL, &frame, &error), RG_ERROR_IO);
    cr_expect_null(frame);
    cr_expect(strstr(error.message, path) != NULL, "the message does not name the file: %s", error.message);
}

/* A graph whose declaration failed lacks the failed call: not saved. */
Test(rgf_errors, a_failed_declaration_is_not_saved)
{
    rg_graph *g = test_graph();
    test_color(g, "color");
    test_draw(g, "stray", TEX(test_color(g, "other"), RG_USAGE_SAMPLED_FRAGMENT));
    char *text = (char *)&text;
    rgf_error error = {{0}};
    cr_expect_eq(rgf_save_text(g, NULL, &text, &error), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(error.message[0] != '\0', "no message");
    rg_graph_destroy(g);
}

/* A graph whose compile failed is saved; loaded, it fails the same way. */
Test(rgf_errors, a_failed_compile_is_saved_and_fails_again)
{
    rg_graph *g = test_graph();
    rg_texture never = test_color(g, "never written");
    test_outside(g, "reader", TEX(never, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_ERROR_READ_BEFORE_WRITE);
    char *text = NULL;
    rgf_error error;
    cr_assert_eq(rgf_save_text(g, NULL, &text, &error), RG_SUCCESS, "%s", error.message);
    rgf_frame *frame = NULL;
    cr_assert_eq(rgf_load_text(text, strlen(text), "failed", &(rgf_load_desc){.log = rgf_quiet}, &frame, &error),
                 RG_SUCCESS, "%s", error.message);
    cr_expect_eq(rg_compile(rgf_frame_graph(frame)), RG_ERROR_READ_BEFORE_WRITE);
    cr_expect(strstr(rg_graph_error_message(rgf_frame_graph(frame)), "never written") != NULL, "%s",
              rg_graph_error_message(rgf_frame_graph(frame)));
    rgf_frame_destroy(frame);
    rgf_free(text);
    rg_graph_destroy(g);
}
