/* Shared helpers of the device-free render graph tests (tests/unit/test_rg_*.c). */
#ifndef RG_UNIT_H
#define RG_UNIT_H

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

#define TEX(t, u) ((rg_access){.texture = (t), .usage = (u), .whole = true})
#define BUF(b, u) ((rg_access){.buffer = (b), .usage = (u)})
/* Reads of contents nothing in the frame wrote, on purpose: graphs that
 * test order and barriers, whose commands' data does not matter
 * (rg_access.undefined_ok). */
#define TEX_UNDEF(t, u) ((rg_access){.texture = (t), .usage = (u), .whole = true, .undefined_ok = true})
#define BUF_UNDEF(b, u) ((rg_access){.buffer = (b), .usage = (u), .undefined_ok = true})
#define ACC(...) \
    ((const rg_access[]){__VA_ARGS__}), (uint32_t)(sizeof((const rg_access[]){__VA_ARGS__}) / sizeof(rg_access))

static inline bool test_noop(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* Culling off: these graphs test compile mechanics on commands whose
 * results mostly reach no import (test_rg_cull.c tests culling). */
static inline rg_graph *test_graph(void)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "test", .no_culling = true}, &g), RG_SUCCESS);
    cr_assert_not_null(g);
    return g;
}

static inline rg_texture test_tex(rg_graph *g, const char *name, VkFormat format)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = format, .width = 64, .height = 64});
}

static inline rg_texture test_color(rg_graph *g, const char *name)
{
    return test_tex(g, name, VK_FORMAT_R8G8B8A8_UNORM);
}

/* A 64x64 history texture of format: the current half returned, the
 * previous one in *previous. */
static inline rg_texture test_history(rg_graph *g, const char *name, VkFormat format, rg_texture *previous)
{
    return rg_texture_create_history(g, &(rg_texture_desc){.name = name, .format = format, .width = 64, .height = 64},
                                     previous);
}

static inline rg_buffer test_buf(rg_graph *g, const char *name)
{
    return rg_buffer_create(g, &(rg_buffer_desc){.name = name, .size = 256});
}

static inline rg_command test_cmd(rg_graph *g, const char *name, rg_command_kind kind, const rg_access *a,
                                 uint32_t n)
{
    return rg_cmd_user(g, &(rg_user_desc){.name = name, .kind = kind, .accesses = a, .access_count = n,
                                          .record = test_noop});
}

#define test_draw(g, name, ...) test_cmd(g, name, RG_COMMAND_DRAW, ACC(__VA_ARGS__))
#define test_outside(g, name, ...) test_cmd(g, name, RG_COMMAND_OUTSIDE, ACC(__VA_ARGS__))

/* A span rendering into one color texture, cleared. */
static inline rg_command test_begin(rg_graph *g, const char *name, rg_texture color)
{
    return rg_begin_rendering(g, &(rg_rendering_desc){
                                     .name = name,
                                     .colors = {{.texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                     .color_count = 1,
                                 });
}

/* A span "pass" on a new color texture "c" holding two draws, first a then
 * b, of one access each: the graphs of the tests of hazards in a span. */
static inline void test_two_draws(rg_graph *g, const char *a_name, rg_access a, const char *b_name, rg_access b)
{
    test_begin(g, "pass", test_color(g, "c"));
    test_draw(g, a_name, a);
    test_draw(g, b_name, b);
    rg_end_rendering(g);
}

/* Position of a command in the execution order, UINT32_MAX if absent. */
static inline uint32_t test_pos(const rg_graph *g, rg_command c)
{
    const rg_command *order;
    uint32_t n = rg_execution_order(g, &order);
    for (uint32_t i = 0; i < n; i++)
        if (order[i].id == c.id)
            return i;
    return UINT32_MAX;
}

/* The barriers on one texture, in order; returns how many. */
static inline uint32_t test_tex_barriers(const rg_graph *g, rg_texture t, const rg_barrier_info **out, uint32_t max)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        if (b->texture.id == t.id && k < max)
            out[k++] = b;
    }
    return k;
}

/* A barrier's fields in pairs: its layout transition, its source scope,
 * its destination scope. Macros, so that a failure names the test's line. */
#define test_expect_layouts(b, old_layout_, new_layout_)                   \
    do {                                                                   \
        cr_expect_eq((b)->old_layout, (old_layout_), "old layout");        \
        cr_expect_eq((b)->new_layout, (new_layout_), "new layout");        \
    } while (0)
#define test_expect_src(b, stage, access)                                  \
    do {                                                                   \
        cr_expect_eq((b)->src_stage, (stage), "source stage");             \
        cr_expect_eq((b)->src_access, (access), "source access");          \
    } while (0)
#define test_expect_dst(b, stage, access)                                  \
    do {                                                                   \
        cr_expect_eq((b)->dst_stage, (stage), "destination stage");        \
        cr_expect_eq((b)->dst_access, (access), "destination access");     \
    } while (0)

static inline void test_expect_error(rg_graph *g, rg_result code, const char *needle)
{
    rg_result r = rg_compile(g);
    cr_expect_eq(r, code, "compile: %s (%s), wanted %s", rg_result_string(r), rg_graph_error_message(g),
                 rg_result_string(code));
    cr_expect_eq(rg_graph_error(g), code);
    if (needle)
        cr_expect_not_null(strstr(rg_graph_error_message(g), needle), "message '%s' lacks '%s'",
                           rg_graph_error_message(g), needle);
}

/* g compiles, then is destroyed: the end of a test of what is allowed. */
static inline void test_expect_compiles(rg_graph *g)
{
    rg_result r = rg_compile(g);
    cr_expect_eq(r, RG_SUCCESS, "compile: %s (%s)", rg_result_string(r), rg_graph_error_message(g));
    rg_graph_destroy(g);
}

/* test_expect_error, then g destroyed: the end of a test of a refusal. */
static inline void test_expect_refused(rg_graph *g, rg_result code, const char *needle)
{
    test_expect_error(g, code, needle);
    rg_graph_destroy(g);
}

/* The same, the message also naming each of the NULL-ended `also` (the
 * commands or resources). */
static inline void test_expect_refused_names(rg_graph *g, rg_result code, const char *needle, const char *const *also)
{
    test_expect_error(g, code, needle);
    for (; *also; also++)
        cr_expect_not_null(strstr(rg_graph_error_message(g), *also), "message '%s' lacks '%s'",
                           rg_graph_error_message(g), *also);
    rg_graph_destroy(g);
}

/* test_expect_refused_names with the strings after needle. */
#define test_expect_refused_naming(g, code, needle, ...) \
    test_expect_refused_names((g), (code), (needle), (const char *const[]){__VA_ARGS__, NULL})

#endif
