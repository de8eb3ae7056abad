/* rendergraph_frame's refusals (rendergraph_frame.h, rgf_load_text): a
 * table of malformed frame files, each the small valid frame this file
 * declares and saves, broken by one string edit (or a text of its own),
 * with the result expected and what the message must name: the file, the
 * JSON path and what was expected. Then every prefix of the valid text
 * (a file cut short), a missing file, and the saving side's refusals.
 * Suite rgf_trust: a file is checked, never trusted (docs/frame-files.md,
 * "What a file is trusted with"): the small frame placed, its memory
 * requirements edited, and what no device or writer could have written,
 * each refused by a test of its own. */
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

/* ---- rgf_trust ---- */

/* One device-local type; each texture asks for its texels' bytes (the
 * least a device can), each buffer for its size. */
static const VkPhysicalDeviceMemoryProperties trust_memory = {
    .memoryTypeCount = 1,
    .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}},
    .memoryHeapCount = 1,
    .memoryHeaps = {{1ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}},
};

static bool texel_requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                               VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name;
    rg_resource_info info;
    cr_assert_eq(rg_resource_get(user, index, &info), RG_SUCCESS);
    *size = is_texture ? (VkDeviceSize)info.width * info.height * rg_format_get_info(info.format).block_size
                       : info.size;
    *alignment = 256;
    *type_bits = 1;
    *dedicated = false;
    return true;
}

/* small_graph placed, saved with its memory: requirement k is resource k's
 * for the first five (color, half, data, accum and its previous half);
 * the import (5) has none. */
static char *placed_text(void)
{
    rg_graph *g = small_graph();
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_place_offline(g, &trust_memory, texel_requirements, g), RG_SUCCESS, "%s",
                 rg_graph_error_message(g));
    char *text = NULL;
    rgf_error error;
    cr_assert_eq(rgf_save_text(g, &(rgf_save_desc){.memory = &trust_memory}, &text, &error), RG_SUCCESS, "%s",
                 error.message);
    rg_graph_destroy(g);
    return text;
}

/* text with the first `from` after `anchor` replaced by `to` (free it). */
static char *edited_after(const char *text, const char *anchor, const char *from, const char *to)
{
    const char *at = strstr(text, anchor);
    cr_assert_not_null(at, "the saved frame has no \"%s\"", anchor);
    char *tail = edited(at, from, to);
    size_t head = (size_t)(at - text);
    char *out = malloc(head + strlen(tail) + 1);
    cr_assert_not_null(out);
    memcpy(out, text, head);
    strcpy(out + head, tail);
    free(tail);
    return out;
}

/* The text (placed or not) edited after anchor, refused with needles. */
static void refused_edit(bool placed, const char *anchor, const char *from, const char *to,
                         const char *const needles[3])
{
    char *text = placed ? placed_text() : small_text();
    char *bad = edited_after(text, anchor, from, to);
    expect_refused(bad, strlen(bad), INVALID, needles, to);
    free(bad);
    rgf_free(text);
}

/* Loaded and placed as rgtool does (AUTO); the frame for its info. */
static rgf_frame *placed_frame(const char *text)
{
    rgf_frame *frame = NULL;
    rgf_error error;
    cr_assert_eq(rgf_load_text(text, strlen(text), "edited", &(rgf_load_desc){.log = rgf_quiet}, &frame, &error),
                 RG_SUCCESS, "%s", error.message);
    rgf_memory used;
    cr_assert_eq(rgf_frame_place(frame, RGF_MEMORY_AUTO, &used, &error), RG_SUCCESS, "%s", error.message);
    cr_expect_eq(used, RGF_MEMORY_SAVED);
    return frame;
}

static VkDeviceSize memory_of(const rgf_frame *frame, uint32_t index)
{
    rg_resource_info info;
    cr_assert_eq(rg_resource_get(rgf_frame_graph(frame), index, &info), RG_SUCCESS);
    return info.memory_size;
}

/* The saved requirements are the placement's when nothing was edited. */
Test(rgf_trust, an_unedited_file_places_from_its_saved_requirements)
{
    char *text = placed_text();
    rgf_frame *frame = placed_frame(text);
    cr_expect_eq(memory_of(frame, 3), 64 * 64 * 8, "accum: %llu", (unsigned long long)memory_of(frame, 3));
    cr_expect_str_eq(rgf_frame_get_info(frame).memory_notes, "");
    rgf_frame_destroy(frame);
    rgf_free(text);
}

/* The what-if edit of the issue: a format changed (RGBA16F to RGBA32F), the
 * memory section kept. The saved requirement was measured for RGBA16F:
 * accum is modelled (its texels rounded up to 64 KiB), and noted. */
Test(rgf_trust, a_format_edit_keeping_the_memory_section_is_modelled_and_noted)
{
    char *text = placed_text();
    char *what_if = edited_after(text, "\"name\":\t\"accum\"", "R16G16B16A16_SFLOAT", "R32G32B32A32_SFLOAT");
    rgf_frame *frame = placed_frame(what_if);
    cr_expect_eq(memory_of(frame, 3), 65536, "accum: %llu", (unsigned long long)memory_of(frame, 3));
    cr_expect_eq(memory_of(frame, 0), 64 * 64 * 4, "color keeps its saved requirement");
    const char *notes = rgf_frame_get_info(frame).memory_notes;
    cr_expect(strstr(notes, "saved requirement for 'accum' does not match its declaration (format): modelled\n"),
              "%s", notes);
    cr_expect(!strstr(notes, "'color'"), "%s", notes);
    rgf_frame_destroy(frame);
    free(what_if);
    rgf_free(text);
}

/* A requirement whose "for" is gone (as in files saved before the field)
 * cannot be compared: modelled, and noted. */
Test(rgf_trust, a_requirement_that_does_not_say_what_for_is_modelled)
{
    char *text = placed_text();
    char *from = strstr(strstr(text, "\"requirements\""), ",\n\t\t\t\t\"for\"");
    cr_assert_not_null(from);
    memmove(from, strchr(from, '}') + 1, strlen(strchr(from, '}') + 1) + 1);
    rgf_frame *frame = placed_frame(text);
    cr_expect_eq(memory_of(frame, 0), 65536, "color: %llu", (unsigned long long)memory_of(frame, 0));
    cr_expect(strstr(rgf_frame_get_info(frame).memory_notes,
                     "saved requirement for 'color' does not say what it was measured for: modelled"),
              "%s", rgf_frame_get_info(frame).memory_notes);
    rgf_frame_destroy(frame);
    rgf_free(text);
}

/* 1 byte for a 64x64 texture: no device asks for less than the texels,
 * or than a buffer's size. */
Test(rgf_trust, a_requirement_smaller_than_what_it_holds_is_refused)
{
    refused_edit(true, "\"requirements\"", "\"size\":\t16384", "\"size\":\t1",
                 (const char *const[3]){"$.memory.requirements[0].size", "expected at least the 16384 bytes", "got 1"});
    refused_edit(true, "\"resource\":\t2", "\"size\":\t256", "\"size\":\t255",
                 (const char *const[3]){"$.memory.requirements[2].size", "expected at least the 256 bytes"});
}

/* An import's memory is not the graph's. */
Test(rgf_trust, a_requirement_for_an_import_is_refused)
{
    refused_edit(true, "\"requirements\"", "\"resource\":\t0", "\"resource\":\t5",
                 (const char *const[3]){"$.memory.requirements[0].resource", "resource 5 is imported"});
}

Test(rgf_trust, a_requirement_of_zero_bytes_is_refused)
{
    refused_edit(true, "\"requirements\"", "\"size\":\t16384", "\"size\":\t0",
                 (const char *const[3]){"$.memory.requirements[0].size", "expected at least 1, got 0"});
}

/* cJSON keeps both copies and the reader would read the first. */
Test(rgf_trust, a_key_given_twice_is_refused)
{
    refused_edit(false, "\"resources\"", "\"name\":\t\"color\",", "\"name\":\t\"color\",\n\"name\":\t\"colour\",",
                 (const char *const[3]){"$.resources[0].name", "a key given twice"});
}

Test(rgf_trust, a_frame_size_of_zero_is_refused)
{
    refused_edit(false, "{", "\"size\":\t[32, 32]", "\"size\":\t[32, 0]",
                 (const char *const[3]){"$.size", "expected at least 1, got 0"});
}

Test(rgf_trust, a_texture_of_zero_width_or_height_is_refused)
{
    refused_edit(false, "\"resources\"", "\"width\":\t64", "\"width\":\t0",
                 (const char *const[3]){"$.resources[0].width", "expected at least 1, got 0"});
    refused_edit(false, "\"resources\"", "\"height\":\t64", "\"height\":\t0",
                 (const char *const[3]){"$.resources[0].height", "expected at least 1, got 0"});
    refused_edit(false, "\"texture_import\"", "\"width\":\t32", "\"width\":\t0",
                 (const char *const[3]){"$.resources[5].width", "expected at least 1, got 0"});
}

Test(rgf_trust, a_buffer_of_zero_bytes_is_refused)
{
    refused_edit(false, "\"resources\"", "\"size\":\t256", "\"size\":\t0",
                 (const char *const[3]){"$.resources[2].size", "expected at least 1, got 0"});
}

/* "frame-name:LINE:COLUMN:" of the byte `offset` past the first `needle`. */
static void position_of(const char *text, const char *needle, size_t offset, char *out, size_t size)
{
    const char *at = strstr(text, needle);
    cr_assert_not_null(at);
    unsigned line = 1, column = 1;
    for (const char *c = text; c < at + offset; c++) {
        line += *c == '\n';
        column = *c == '\n' ? 1 : column + 1;
    }
    snprintf(out, size, "frame-name:%u:%u:", line, column);
}

/* The text's own faults, with its line and column. */
Test(rgf_trust, anything_after_the_object_is_refused)
{
    char *text = small_text(), *bad = edited(text, "\n}", "\n}\n{}"), where[48];
    position_of(bad, "\n}\n{}", 3, where, sizeof where);
    expect_refused(bad, strlen(bad), INVALID, (const char *const[3]){where, "more after"}, "a second object");
    free(bad);
    rgf_free(text);
}

/* Between tokens, where cJSON would skip it as whitespace. */
Test(rgf_trust, a_nul_byte_is_refused)
{
    char *text = small_text();
    char where[48];
    position_of(text, "\"name\":\t\"color\"", 7, where, sizeof where);
    char *nul = strstr(text, "\"name\":\t\"color\"") + 7;
    *nul = '\0';
    expect_refused(text, strlen(nul + 1) + (size_t)(nul + 1 - text), INVALID,
                   (const char *const[3]){where, ": a NUL byte"}, "a NUL byte");
    rgf_free(text);
}

/* Raw, as JSON never writes them (cJSON would take them as they come). */
Test(rgf_trust, a_control_character_in_a_string_is_refused)
{
    static const char *const names[] = {"\"co\tlor\"", "\"co\x01lor\"", "\"co\x1flor\""};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *text = small_text(), *bad = edited(text, "\"color\"", names[i]), where[48];
        position_of(text, "\"color\"", 3, where, sizeof where);
        expect_refused(bad, strlen(bad), INVALID, (const char *const[3]){where, ": a control character in a string"},
                       names[i]);
        free(bad);
        rgf_free(text);
    }
}

/* cJSON would end the name at it: "co\u0000lor" would load as "co". */
Test(rgf_trust, an_escaped_nul_in_a_string_is_refused)
{
    char *text = small_text(), *bad = edited(text, "\"color\"", "\"co\\u0000lor\""), where[48];
    position_of(text, "\"color\"", 3, where, sizeof where);
    expect_refused(bad, strlen(bad), INVALID, (const char *const[3]){where, ": a NUL in a string"}, "\\u0000");
    free(bad);
    rgf_free(text);
}

/* Escaped, as rgf_save writes them, control characters stay: a name
 * with a line break and a tab loads as it was declared. */
Test(rgf_trust, an_escaped_control_character_round_trips)
{
    rg_graph *g = test_graph();
    test_outside(g, "fill", TEX(test_color(g, "line\nbreak\tand \x01"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    char *text = NULL;
    rgf_error error;
    cr_assert_eq(rgf_save_text(g, NULL, &text, &error), RG_SUCCESS, "%s", error.message);
    cr_expect(strstr(text, "\"line\\nbreak\\tand \\u0001\""), "%s", text);
    rgf_frame *frame = NULL;
    cr_assert_eq(rgf_load_text(text, strlen(text), "escapes", NULL, &frame, &error), RG_SUCCESS, "%s",
                 error.message);
    rg_declared d;
    cr_assert_eq(rg_declared_get(rgf_frame_graph(frame), RG_DECLARED_RESOURCE, 0, &d), RG_SUCCESS);
    cr_expect_str_eq(d.resource.texture.name, "line\nbreak\tand \x01");
    rgf_frame_destroy(frame);
    rgf_free(text);
    rg_graph_destroy(g);
}

/* A frame of buffers alone has no size: none is written, and it loads. */
Test(rgf_trust, a_frame_without_textures_saves_no_size_and_loads)
{
    rg_graph *g = test_graph();
    test_outside(g, "fill", BUF(test_buf(g, "data"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    char *text = NULL;
    rgf_error error;
    cr_assert_eq(rgf_save_text(g, NULL, &text, &error), RG_SUCCESS, "%s", error.message);
    cr_expect(!strstr(text, "\"size\":\t["), "%s", text);
    rgf_frame *frame = NULL;
    cr_expect_eq(rgf_load_text(text, strlen(text), "buffers", NULL, &frame, &error), RG_SUCCESS, "%s", error.message);
    rgf_frame_destroy(frame);
    rgf_free(text);
    rg_graph_destroy(g);
}
