#define _POSIX_C_SOURCE 200809L
/* The default log (rendergraph.h, rg_log_fn): a graph without a log
 * function prints errors and warnings on stderr, each distinct line once
 * until its placement is freed; notices are not printed. */
#include "rg_unit.h"

#include <stdio.h>
#include <unistd.h>

/* stderr into a temporary file while a test runs; its lines counted. */
typedef struct captured {
    FILE *file;
    int saved;
} captured;

static captured capture_begin(void)
{
    captured c = {tmpfile(), -1};
    cr_assert_not_null(c.file);
    fflush(stderr);
    c.saved = dup(fileno(stderr));
    cr_assert_geq(c.saved, 0);
    cr_assert_geq(dup2(fileno(c.file), fileno(stderr)), 0);
    return c;
}

/* How many lines hold `needle`, and the text in out (size bytes). */
static uint32_t capture_end(captured *c, const char *needle, char *out, size_t size)
{
    fflush(stderr);
    cr_assert_geq(dup2(c->saved, fileno(stderr)), 0);
    close(c->saved);
    size_t n = 0;
    rewind(c->file);
    uint32_t lines = 0;
    char line[1024];
    out[0] = '\0';
    while (fgets(line, sizeof line, c->file)) {
        if (strstr(line, needle))
            lines++;
        size_t len = strlen(line);
        if (n + len < size) {
            memcpy(out + n, line, len + 1);
            n += len;
        }
    }
    fclose(c->file);
    return lines;
}

static rg_graph *unlogged(const char *name)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = name}, &g), RG_SUCCESS);
    return g;
}

static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index, (void)dedicated;
    *size = 65536;
    *alignment = 256;
    *type_bits = 1;
    return true;
}

/* A failure repeated every frame (here rg_execute's placement of a graph
 * without a device) prints once; a kept compile error prints once too. */
Test(rg_log, without_a_log_function_errors_go_to_stderr_once_per_placement)
{
    rg_graph *g = unlogged("quiet");
    rg_texture t = test_tex(g, "color", VK_FORMAT_R8G8B8A8_UNORM);
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "out", .size = 65536});
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, out, 0); /* reads what nothing wrote: a compile error */
    char text[4096];
    captured c = capture_begin();
    for (int frame = 0; frame < 3; frame++)
        cr_assert_eq(rg_compile(g), RG_ERROR_READ_BEFORE_WRITE);
    uint32_t lines = capture_end(&c, "texture 'color'", text, sizeof text);
    cr_expect_eq(lines, 1, "one line for a kept error:\n%s", text);
    cr_expect(strstr(text, "rendergraph: error: graph 'quiet': ") != NULL, "the line names its level and graph:\n%s",
              text);
    rg_graph_destroy(g);
    g = unlogged("every frame");
    t = test_tex(g, "color", VK_FORMAT_R8G8B8A8_UNORM);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "draw", .color_count = 1,
                                               .colors[0] = {.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}});
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    c = capture_begin();
    for (int frame = 0; frame < 3; frame++)
        cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    lines = capture_end(&c, "created without a device", text, sizeof text);
    cr_expect_eq(lines, 1, "one line for three failures:\n%s", text);
    rg_graph_destroy(g);
}

/* A span of g named span clearing and storing a new texture named texture,
 * which it returns. */
static rg_texture cleared_and_stored(rg_graph *g, const char *span, const char *texture)
{
    rg_texture t = test_tex(g, texture, VK_FORMAT_R8G8B8A8_UNORM);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = span, .color_count = 1,
                                               .colors[0] = {.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                             .store = VK_ATTACHMENT_STORE_OP_STORE}});
    rg_end_rendering(g);
    return t;
}

Test(rg_log, a_freed_placement_prints_the_same_failure_again)
{
    rg_graph *g = unlogged("again");
    rg_texture t = cleared_and_stored(g, "draw", "color");
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "out", .size = 65536});
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, out, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    VkPhysicalDeviceMemoryProperties props = {.memoryTypeCount = 1, .memoryHeapCount = 1,
                                              .memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
                                              .memoryHeaps[0] = {1u << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}};
    char text[4096];
    captured c = capture_begin();
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT); /* a device-free graph */
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(rg_place_offline(g, &props, requirements, NULL), RG_SUCCESS);
    cr_assert_eq(rg_place_offline(g, &props, requirements, NULL), RG_SUCCESS); /* frees the first plan */
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    uint32_t lines = capture_end(&c, "created without a device", text, sizeof text);
    cr_expect_eq(lines, 2, "once, then once more after the placement was freed:\n%s", text);
    rg_graph_destroy(g);
}

static void count(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)level, (void)object, (void)message;
    (*(uint32_t *)user)++;
}

Test(rg_log, notices_are_not_printed_and_a_log_function_gets_everything)
{
    rg_graph *g = unlogged("notices");
    cleared_and_stored(g, "culled", "unread");
    char text[4096];
    captured c = capture_begin();
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t lines = capture_end(&c, "", text, sizeof text);
    cr_expect_eq(lines, 0, "the culling notice is not printed:\n%s", text);
    rg_graph_destroy(g);
    uint32_t calls = 0;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "logged", .log = count, .log_user = &calls}, &g),
                 RG_SUCCESS);
    cleared_and_stored(g, "culled", "unread");
    c = capture_begin();
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(rg_place(g), RG_ERROR_INVALID_ARGUMENT);
    lines = capture_end(&c, "", text, sizeof text);
    cr_expect_eq(lines, 0, "a log function replaces stderr:\n%s", text);
    cr_expect_geq(calls, 4, "the notices and both failures reach it: %u calls", calls);
    rg_graph_destroy(g);
}
