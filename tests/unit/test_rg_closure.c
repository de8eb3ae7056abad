/* Happens-before, the closure against brute-force reachability on random
 * graphs, recompiling, the DOT dump and the cost of a large frame. No device. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "rg_unit.h"
#include "rg_unit_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

Test(rg_closure, happens_before_with_interior_endpoints)
{
    rg_graph *g = test_graph();
    rg_buffer data = test_buf(g, "data");
    rg_texture color = test_color(g, "color");
    rg_command produce = test_outside(g, "produce", BUF(data, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_command begin = test_begin(g, "pass", color);
    rg_command d1 = test_draw(g, "d1", BUF(data, RG_USAGE_UNIFORM_FRAGMENT));
    rg_command d2 = test_draw(g, "d2", BUF(data, RG_USAGE_UNIFORM_VERTEX));
    rg_command end = rg_end_rendering(g);
    rg_command consume = test_outside(g, "consume", TEX(color, RG_USAGE_SAMPLED_COMPUTE));
    rg_command unrelated = test_outside(g, "unrelated", BUF(test_buf(g, "x"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect(rg_happens_before(g, produce, d1));
    cr_expect(rg_happens_before(g, produce, d2));
    cr_expect(rg_happens_before(g, produce, begin), "the span is ordered as a whole");
    cr_expect(rg_happens_before(g, d2, consume), "through the span's attachment");
    cr_expect(rg_happens_before(g, produce, consume), "transitively");
    cr_expect_not(rg_happens_before(g, d1, d2), "one span: unordered both ways");
    cr_expect_not(rg_happens_before(g, d2, d1));
    cr_expect_not(rg_happens_before(g, begin, end));
    cr_expect_not(rg_happens_before(g, consume, produce));
    cr_expect_not(rg_happens_before(g, produce, unrelated));
    cr_expect_not(rg_happens_before(g, unrelated, consume));
    cr_expect_not(rg_happens_before(g, (rg_command){0}, consume));
    cr_expect_not(rg_happens_before(g, produce, (rg_command){999}));
    rg_graph_destroy(g);
}

/* ------------------------------------------------------- property test */

enum { MAX_CMDS = 64, NBUF = 4, NTEX = 2, MAX_ACC = NBUF + NTEX };

typedef struct model_access { int res; bool write; VkImageLayout layout; } model_access;
typedef struct model {
    int node[MAX_CMDS];               /* per command */
    rg_command handle[MAX_CMDS];
    bool interior[MAX_CMDS];          /* a draw or end: no barrier may be recorded before it */
    model_access acc[MAX_CMDS][MAX_ACC + 1];
    int acc_count[MAX_CMDS];
    int cmd_count, node_count;
} model;

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void model_add(model *m, int cmd, int res, bool write, VkImageLayout layout)
{
    m->acc[cmd][m->acc_count[cmd]++] = (model_access){res, write, layout};
}

/* A random frame: outside commands over buffers and textures, and spans
 * whose draws only read buffers, except one that writes a buffer nothing
 * else in the span touches (so no span has an interior hazard). */
static rg_graph *random_graph(uint64_t seed, model *m)
{
    uint64_t s = seed;
    rg_graph *g = test_graph();
    rg_buffer buf[NBUF];
    rg_texture tex[NTEX];
    for (int i = 0; i < NBUF; i++)
        buf[i] = test_buf(g, "b");
    for (int i = 0; i < NTEX; i++)
        tex[i] = test_color(g, "t");
    memset(m, 0, sizeof *m);
    bool written[NTEX] = {0}; /* a span loads only what something wrote */
    int steps = 5 + (int)(rnd(&s) % 20);
    for (int step = 0; step < steps && m->cmd_count + 6 < MAX_CMDS; step++) {
        int node = m->node_count++;
        if (rnd(&s) % 3 == 0) {
            int t = (int)(rnd(&s) % NTEX), wbuf = (int)(rnd(&s) % (NBUF + 1)) - 1; /* -1: none */
            bool load = rnd(&s) % 2 && written[t];
            written[t] = true;
            m->handle[m->cmd_count] = rg_begin_rendering(g, &(rg_rendering_desc){
                                      .colors = {{.texture = tex[t], .load = load ? VK_ATTACHMENT_LOAD_OP_LOAD
                                                                                  : VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                      .color_count = 1});
            m->node[m->cmd_count] = node;
            model_add(m, m->cmd_count++, NBUF + t, true, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            int draws = 1 + (int)(rnd(&s) % 3);
            for (int d = 0; d < draws; d++) {
                rg_access a[MAX_ACC];
                uint32_t n = 0;
                int c = m->cmd_count;
                if (d == 0 && wbuf >= 0) {
                    a[n++] = BUF(buf[wbuf], RG_USAGE_STORAGE_WRITE_FRAGMENT);
                    model_add(m, c, wbuf, true, VK_IMAGE_LAYOUT_UNDEFINED);
                }
                for (int b = 0; b < NBUF; b++)
                    if (b != wbuf && rnd(&s) % 3 == 0) {
                        a[n++] = BUF_UNDEF(buf[b], b % 2 ? RG_USAGE_UNIFORM_FRAGMENT : RG_USAGE_STORAGE_READ_VERTEX);
                        model_add(m, c, b, false, VK_IMAGE_LAYOUT_UNDEFINED);
                    }
                m->handle[c] = test_cmd(g, "draw", RG_COMMAND_DRAW, a, n);
                m->node[c] = node;
                m->interior[c] = true;
                m->cmd_count++;
            }
            m->handle[m->cmd_count] = rg_end_rendering(g);
            m->node[m->cmd_count] = node;
            m->interior[m->cmd_count++] = true;
        } else {
            rg_access a[MAX_ACC];
            uint32_t n = 0;
            int c = m->cmd_count;
            for (int r = 0; r < NBUF + NTEX; r++) {
                uint32_t k = rnd(&s) % 6;
                if (k >= 2)
                    continue;
                bool write = k == 1;
                if (r < NBUF) {
                    a[n++] = BUF_UNDEF(buf[r], write ? RG_USAGE_STORAGE_WRITE_COMPUTE : RG_USAGE_STORAGE_READ_COMPUTE);
                    model_add(m, c, r, write, VK_IMAGE_LAYOUT_UNDEFINED);
                } else {
                    a[n++] = TEX_UNDEF(tex[r - NBUF],
                                       write ? RG_USAGE_STORAGE_WRITE_COMPUTE : RG_USAGE_SAMPLED_COMPUTE);
                    written[r - NBUF] = written[r - NBUF] || write;
                    model_add(m, c, r, write,
                              write ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                }
            }
            m->handle[c] = test_cmd(g, "compute", RG_COMMAND_OUTSIDE, a, n);
            m->node[c] = node;
            m->cmd_count++;
        }
    }
    return g;
}

/* Reachability by brute force: node i conflicts with a later node j when
 * both touch a resource and one of them writes it, a layout change counting
 * as a write, and a node without accesses follows the node before it and
 * precedes the one after; then a depth-first walk from every node. */
static void model_reach(const model *m, bool reach[MAX_CMDS][MAX_CMDS])
{
    bool writes[MAX_CMDS][NBUF + NTEX] = {{0}}, touches[MAX_CMDS][NBUF + NTEX] = {{0}};
    VkImageLayout layout[NBUF + NTEX] = {0};
    for (int c = 0; c < m->cmd_count; c++)
        for (int k = 0; k < m->acc_count[c]; k++) {
            const model_access *a = &m->acc[c][k];
            touches[m->node[c]][a->res] = true;
            if (a->write || a->layout != layout[a->res])
                writes[m->node[c]][a->res] = true;
            layout[a->res] = a->layout;
        }
    bool edge[MAX_CMDS][MAX_CMDS] = {{0}};
    for (int i = 0; i < m->node_count; i++)
        for (int j = i + 1; j < m->node_count; j++)
            for (int r = 0; r < NBUF + NTEX; r++)
                if (touches[i][r] && touches[j][r] && (writes[i][r] || writes[j][r]))
                    edge[i][j] = true;
    /* A node that touches nothing keeps its place between its record-order
     * neighbours. */
    for (int i = 0; i < m->node_count; i++) {
        bool any = false;
        for (int r = 0; r < NBUF + NTEX; r++)
            any |= touches[i][r];
        if (!any && i > 0)
            edge[i - 1][i] = true;
        if (!any && i + 1 < m->node_count)
            edge[i][i + 1] = true;
    }
    memset(reach, 0, sizeof(bool) * MAX_CMDS * MAX_CMDS);
    for (int i = 0; i < m->node_count; i++) {
        int stack[MAX_CMDS], top = 0;
        bool seen[MAX_CMDS] = {0};
        stack[top++] = i;
        while (top) {
            int u = stack[--top];
            for (int v = 0; v < m->node_count; v++)
                if (edge[u][v] && !seen[v]) {
                    seen[v] = true;
                    reach[i][v] = true;
                    stack[top++] = v;
                }
        }
    }
}

Test(rg_closure, closure_equals_brute_force_reachability)
{
    static model m;
    static bool reach[MAX_CMDS][MAX_CMDS];
    for (uint64_t seed = 1; seed <= 400; seed++) {
        rg_graph *g = random_graph(seed, &m);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "seed %llu: %s", (unsigned long long)seed, rg_graph_error_message(g));
        model_reach(&m, reach);
        const rg_command *order;
        cr_assert_eq(rg_execution_order(g, &order), (uint32_t)m.cmd_count);
        uint32_t pos[MAX_CMDS];
        for (uint32_t p = 0; p < (uint32_t)m.cmd_count; p++) {
            rg_command_info info;
            cr_assert_eq(rg_command_get_info(g, order[p], &info), RG_SUCCESS);
            cr_assert_eq(order[p].id, m.handle[info.index].id);
            pos[info.index] = p;
        }
        for (int a = 0; a < m.cmd_count; a++)
            for (int b = 0; b < m.cmd_count; b++) {
                bool want = reach[m.node[a]][m.node[b]];
                bool got = rg_happens_before(g, m.handle[a], m.handle[b]);
                cr_assert_eq(got, want, "seed %llu: %d -> %d: got %d", (unsigned long long)seed, a, b, got);
                if (want)
                    cr_assert_lt(pos[a], pos[b], "seed %llu: order breaks %d -> %d", (unsigned long long)seed, a, b);
                if (m.node[a] == m.node[b])
                    cr_assert_lt(abs((int)pos[a] - (int)pos[b]), 8, "seed %llu: a span was split",
                                 (unsigned long long)seed);
            }
        /* Span interiors in record order, contiguous. */
        for (int c = 0; c < m.cmd_count; c++)
            if (m.interior[c])
                cr_assert_eq(pos[c], pos[c - 1] + 1, "seed %llu: command %d", (unsigned long long)seed, c);
        for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
            rg_command before = rg_barrier_get(g, i)->before;
            rg_command_info info = {0};
            if (before.id)
                cr_assert_eq(rg_command_get_info(g, before, &info), RG_SUCCESS);
            cr_assert(before.id == 0 || !m.interior[info.index], "seed %llu: barrier %u inside a span",
                      (unsigned long long)seed, i);
        }
        rg_graph_destroy(g);
    }
}

/* -------------------------------------------------------------- recompile */

static rg_graph *declare_frame(rg_graph *g)
{
    rg_texture color = test_color(g, "color"), lut = test_color(g, "lut");
    rg_buffer data = test_buf(g, "data");
    test_outside(g, "compute", TEX(lut, RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(data, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_begin(g, "pass", color);
    test_draw(g, "draw", TEX(lut, RG_USAGE_SAMPLED_FRAGMENT), BUF(data, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    test_outside(g, "post", TEX(color, RG_USAGE_SAMPLED_COMPUTE));
    return g;
}

static void expect_same_plan(const rg_graph *g, const rg_command *order, uint32_t n, const rg_barrier_info *bars,
                             uint32_t nb)
{
    const rg_command *o;
    cr_assert_eq(rg_execution_order(g, &o), n);
    for (uint32_t i = 0; i < n; i++) /* handles carry the graph's tag: compare the record index */
        cr_expect_eq(o[i].id & 0xfffff, order[i].id & 0xfffff, "order[%u] differs", i);
    cr_assert_eq(rg_barrier_count(g), nb);
    for (uint32_t i = 0; i < nb; i++) {
        rg_barrier_info b = *rg_barrier_get(g, i), want = bars[i];
        /* Handles carry the graph's tag: compare the resource index. */
        b.texture.id &= 0xfffff;
        b.buffer.id &= 0xfffff;
        b.before.id &= 0xfffff;
        want.texture.id &= 0xfffff;
        want.buffer.id &= 0xfffff;
        want.before.id &= 0xfffff;
        cr_expect_eq(memcmp(&b, &want, sizeof b), 0, "barrier %u differs", i);
    }
}

Test(rg_closure, compiling_again_gives_the_same_plan)
{
    rg_graph *g = declare_frame(test_graph());
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_command *o;
    uint32_t n = rg_execution_order(g, &o);
    rg_command order[16];
    rg_barrier_info bars[16];
    memcpy(order, o, n * sizeof *o);
    uint32_t nb = rg_barrier_count(g);
    cr_assert_leq(nb, 16);
    for (uint32_t i = 0; i < nb; i++)
        bars[i] = *rg_barrier_get(g, i);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    expect_same_plan(g, order, n, bars, nb);

    /* Reset and declare the same: reused, with handles of the new declaration. */
    rg_graph_reset(g);
    cr_expect_eq(rg_execution_order(g, NULL), 0, "not compiled after a reset");
    declare_frame(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    expect_same_plan(g, order, n, bars, nb);
    const rg_barrier_info *first = rg_barrier_get(g, 0);
    cr_expect_eq(first->texture.id & 0xfffff, 2, "lut");
    cr_expect_neq(first->texture.id, bars[0].texture.id, "the new tag");
    cr_expect_eq(test_pos(g, order[0]), UINT32_MAX, "a handle of the old declaration is not in the new order");
    const rg_command *fresh;
    rg_execution_order(g, &fresh);
    cr_expect_neq(fresh[0].id, order[0].id, "order handles carry the new tag");

    /* A different declaration compiles anew. */
    rg_graph_reset(g);
    declare_frame(g);
    test_outside(g, "extra", BUF(test_buf(g, "more"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(rg_execution_order(g, NULL), n + 1);
    rg_graph_destroy(g);
}

Test(rg_closure, declaring_more_needs_a_new_compile)
{
    rg_graph *g = declare_frame(test_graph());
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    uint32_t n = rg_execution_order(g, NULL);
    test_outside(g, "late", BUF(test_buf(g, "late"), RG_USAGE_STORAGE_WRITE_COMPUTE));
    cr_expect_eq(rg_execution_order(g, NULL), 0, "the old plan is not offered");
    cr_expect_eq(rg_barrier_count(g), 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    cr_expect_eq(rg_execution_order(g, NULL), n + 1);
    rg_graph_destroy(g);
}

/* ------------------------------------------------------------------ DOT */

/* Each hazard edge is named for the resources it orders; one ordering
 * many names three, then how many more. */
Test(rg_closure, dot_edges_name_what_they_order)
{
    rg_graph *g = test_graph();
    rg_texture lit = test_color(g, "lit");
    rg_buffer b[5];
    const char *names[5] = {"b0", "b1", "b2", "b3", "b4"};
    for (int i = 0; i < 5; i++)
        b[i] = test_buf(g, names[i]);
    test_outside(g, "light", TEX(lit, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "scatter", TEX(lit, RG_USAGE_SAMPLED_COMPUTE), BUF(b[0], RG_USAGE_STORAGE_WRITE_COMPUTE),
                 BUF(b[1], RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(b[2], RG_USAGE_STORAGE_WRITE_COMPUTE),
                 BUF(b[3], RG_USAGE_STORAGE_WRITE_COMPUTE), BUF(b[4], RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_cmd_user(g, &(rg_user_desc){.name = "gather", .kind = RG_COMMAND_OUTSIDE, .record = test_noop,
                                   .side_effects = true,
                                   .accesses = ACC(BUF(b[0], RG_USAGE_STORAGE_READ_COMPUTE),
                                                   BUF(b[1], RG_USAGE_STORAGE_READ_COMPUTE),
                                                   BUF(b[2], RG_USAGE_STORAGE_READ_COMPUTE),
                                                   BUF(b[3], RG_USAGE_STORAGE_READ_COMPUTE),
                                                   BUF(b[4], RG_USAGE_STORAGE_READ_COMPUTE))});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    char *text = test_dot_text(g);
    cr_expect_not_null(strstr(text, "  c0 -> c1 [label=\"lit\"];\n"), "%s", text);
    cr_expect_not_null(strstr(text, "  c1 -> c2 [label=\"b0, b1, b2 +2\"];\n"), "%s", text);
    free(text);
    rg_graph_destroy(g);
}

Test(rg_closure, dot_dump)
{
    rg_graph *g = declare_frame(test_graph());
    cr_expect_eq(rg_write_dot(g, "/dev/null"), RG_ERROR_NOT_COMPILED);
    cr_assert_eq(rg_compile(g), RG_SUCCESS);
    char *text = test_dot_text(g);
    cr_expect_not_null(strstr(text, "digraph"));
    cr_expect_not_null(strstr(text, "subgraph cluster_"), "the span is a cluster");
    cr_expect_not_null(strstr(text, "draw"));
    cr_expect_not_null(strstr(text, "->"), "edges");
    cr_expect_not_null(strstr(text, "(hoisted)"), "barriers");
    cr_expect_eq(rg_write_dot(g, "/nonexistent-dir/x.dot"), RG_ERROR_IO);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "/nonexistent-dir/x.dot"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "the graph stays usable");
    cr_expect_neq(rg_execution_order(g, NULL), 0);
    free(text);
    rg_graph_destroy(g);
}

/* ------------------------------------------------------------ large frame */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* N passes of k draws, each pass sampling what the previous one rendered:
 * 10,000 commands compile in well under a second (a quadratic path would
 * not). */
Test(rg_closure, ten_thousand_commands)
{
    rg_graph *g = test_graph();
    enum { PASSES = 1000, DRAWS = 8 };
    rg_texture t[2] = {test_color(g, "ping"), test_color(g, "pong")};
    rg_buffer vb = test_buf(g, "vertices");
    double t0 = now();
    rg_command first = {0}, last = {0};
    for (int p = 0; p < PASSES; p++) {
        rg_command begin = test_begin(g, "pass", t[p % 2]);
        first = p == 0 ? begin : first;
        for (int d = 0; d < DRAWS; d++)
            test_draw(g, "draw", BUF_UNDEF(vb, RG_USAGE_VERTEX_BUFFER),
                      TEX_UNDEF(t[(p + 1) % 2], RG_USAGE_SAMPLED_FRAGMENT));
        last = rg_end_rendering(g);
    }
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    double dt = now() - t0;
    cr_expect_eq(rg_execution_order(g, NULL), PASSES * (DRAWS + 2));
    cr_expect_lt(dt, 2.0, "declare + compile of 10,000 commands took %.3f s", dt);
    cr_expect(rg_happens_before(g, first, last));
    rg_graph_destroy(g);
}
