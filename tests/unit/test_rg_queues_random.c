/* Multi-queue compile, device-free, over random frames: batches follow the
 * closure, and placement never lets resources of queues nothing orders
 * share bytes (placed offline over one memory type). Suite rg_queues
 * (test_rg_queues.c). */
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include "rg_queues_unit.h"

/* --------------------------------------------------------- random frames */

enum { RTEX = 6, RBUF = 4, RRES = RTEX + RBUF, RMAX_USES = 96 };

/* A random frame and, per resource (textures first, then buffers), the
 * commands that access it. */
typedef struct rand_frame {
    test_mem_env env;
    rg_texture tex[RTEX];
    rg_buffer buf[RBUF];
    rg_command use[RRES][RMAX_USES];
    uint32_t use_count[RRES];
    uint32_t commands;
} rand_frame;

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void rand_use(rand_frame *f, int r, rg_command c)
{
    cr_assert_lt(f->use_count[r], RMAX_USES);
    f->use[r][f->use_count[r]++] = c;
}

/* count distinct resources out of RRES, none equal to `except` (-1: any). */
static int rand_pick(uint64_t *s, int *out, int count, int except)
{
    int n = 0;
    for (int tries = 0; tries < 32 && n < count; tries++) {
        int r = (int)(rnd(s) % RRES), dup = r == except;
        for (int k = 0; k < n; k++)
            dup = dup || out[k] == r;
        if (!dup)
            out[n++] = r;
    }
    return n;
}

/* A frame of 4..23 steps over created textures and buffers: graphics spans
 * (a color attachment; draws sampling textures, reading buffers as
 * uniforms or vertices), graphics dispatches and compute-eligible ones
 * (storage reads and writes, samples, indirect and uniform reads), and
 * buffer copies allowed onto transfer or compute. Declared into f->env
 * with requirements: one memory type, sizes from the extents. */
static void rand_frame_declare(rand_frame *f, uint64_t seed, bool single_queue)
{
    uint64_t s = seed;
    memset(f, 0, sizeof *f);
    test_mem_init(&f->env, "lavapipe"); /* one memory type */
    rg_graph_destroy(f->env.g);
    f->env.g = queues_queue_graph(&queues_both_queues, single_queue);
    rg_graph *g = f->env.g;
    for (int i = 0; i < RTEX; i++) {
        uint32_t w = 64u << (rnd(&s) % 3), h = 64u << (rnd(&s) % 3);
        f->tex[i] = test_mem_tex(&f->env, "t", VK_FORMAT_R8G8B8A8_UNORM, 4, w, h);
    }
    for (int i = 0; i < RBUF; i++)
        f->buf[i] = test_mem_buf(&f->env, "b", KiB64 * (1 + rnd(&s) % 3));
    /* The draws' and dispatches' reads take whatever is there
     * (undefined_ok); a built-in copy cannot say so, so it copies only a
     * buffer something wrote, else a user command copies with the flag. */
    bool written[RBUF] = {0};
    int steps = 4 + (int)(rnd(&s) % 20);
    for (int step = 0; step < steps; step++) {
        uint32_t kind = rnd(&s) % 7;
        if (kind < 2) {
            int color = (int)(rnd(&s) % RTEX);
            rg_command begin = test_begin(g, "span", f->tex[color]);
            rand_use(f, color, begin);
            int r[3], n = rand_pick(&s, r, 1 + (int)(rnd(&s) % 3), color);
            rg_access a[3];
            for (int k = 0; k < n; k++)
                a[k] = r[k] < RTEX ? TEX_UNDEF(f->tex[r[k]], SMF)
                                   : BUF_UNDEF(f->buf[r[k] - RTEX], rnd(&s) % 2 ? RG_USAGE_UNIFORM_FRAGMENT
                                                                                : RG_USAGE_VERTEX_BUFFER);
            rg_command draw = test_cmd(g, "draw", RG_COMMAND_DRAW, a, (uint32_t)n);
            for (int k = 0; k < n; k++)
                rand_use(f, r[k], draw);
            rg_end_rendering(g);
            f->commands += 3;
        } else if (kind < 6) {
            int r[3], n = rand_pick(&s, r, 1 + (int)(rnd(&s) % 3), -1);
            rg_access a[3];
            for (int k = 0; k < n; k++) {
                uint32_t u = rnd(&s) % 4;
                if (r[k] < RTEX) {
                    a[k] = TEX_UNDEF(f->tex[r[k]], u < 2 ? SWC : SMC);
                } else {
                    a[k] = BUF_UNDEF(f->buf[r[k] - RTEX], u == 0   ? SWC
                                                          : u == 1 ? RG_USAGE_STORAGE_READ_WRITE_COMPUTE
                                                          : u == 2 ? RG_USAGE_INDIRECT_BUFFER
                                                                   : RG_USAGE_UNIFORM_COMPUTE);
                    written[r[k] - RTEX] = written[r[k] - RTEX] || u < 2;
                }
            }
            /* 2 of 4 dispatch kinds are compute-eligible. */
            rg_command c = test_queued(g, kind < 4 ? "dispatch" : "async", kind < 4 ? RG_QUEUE_GRAPHICS
                                                                                    : RG_QUEUE_COMPUTE,
                                       a, (uint32_t)n);
            for (int k = 0; k < n; k++)
                rand_use(f, r[k], c);
            f->commands++;
        } else {
            int src = (int)(rnd(&s) % RBUF), dst = (src + 1 + (int)(rnd(&s) % (RBUF - 1))) % RBUF;
            rg_queue q = rnd(&s) % 2 ? RG_QUEUE_TRANSFER : RG_QUEUE_COMPUTE;
            rg_command c = written[src] ? rg_cmd_copy_buffer(g, f->buf[src], 0, f->buf[dst], 0, 256)
                                        : test_queued(g, "copy", q,
                                                      ACC(BUF_UNDEF(f->buf[src], RG_USAGE_TRANSFER_SRC),
                                                          BUF(f->buf[dst], RG_USAGE_TRANSFER_DST)));
            if (written[src])
                rg_command_allow_queue(g, c, q);
            written[dst] = true;
            rand_use(f, RTEX + src, c);
            rand_use(f, RTEX + dst, c);
            f->commands++;
        }
    }
}

static test_mem_where rand_where(const rand_frame *f, int r)
{
    return r < RTEX ? test_mem_tex_at(&f->env, f->tex[r]) : test_mem_buf_at(&f->env, f->buf[r - RTEX]);
}

/* Every use of resource a happens-before every use of resource b. */
static bool all_before(const rand_frame *f, int a, int b)
{
    for (uint32_t i = 0; i < f->use_count[a]; i++)
        for (uint32_t j = 0; j < f->use_count[b]; j++)
            if (!rg_happens_before(f->env.g, f->use[a][i], f->use[b][j]))
                return false;
    return true;
}

static uint32_t rand_queues(const rand_frame *f, int r)
{
    uint32_t mask = 0;
    for (uint32_t i = 0; i < f->use_count[r]; i++)
        mask |= 1u << queues_queue_of(f->env.g, f->use[r][i]);
    return mask;
}

/* Random frames on both queues: the batches' invariants, every cross-queue
 * happens-before covered by waits, the barriers' stages per queue; the same
 * frames under single_queue are one batch. */
Test(rg_queues, random_frames_batches_follow_the_closure)
{
    static rand_frame f;
    uint32_t multi = 0, on[RG_QUEUE_COUNT] = {0};
    for (uint64_t seed = 1; seed <= 300; seed++) {
        char what[64];
        snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
        rand_frame_declare(&f, seed, false);
        rg_graph *g = f.env.g;
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", what, rg_graph_error_message(g));
        queues_check_batches(g, what);
        queues_check_closure(g, what);
        queues_check_barrier_stages(g, what);
        multi += rg_batch_count(g) > 1;
        const rg_command *order;
        uint32_t m = rg_execution_order(g, &order);
        for (uint32_t p = 0; p < m; p++)
            on[queues_queue_of(g, order[p])]++;
        rg_graph_destroy(g);

        snprintf(what, sizeof what, "seed %llu, single_queue", (unsigned long long)seed);
        rand_frame_declare(&f, seed, true);
        g = f.env.g;
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", what, rg_graph_error_message(g));
        cr_assert_eq(rg_batch_count(g), 1, "%s", what);
        queues_check_batches(g, what);
        rg_graph_destroy(g);
    }
    cr_log_info("300 random frames: %u on several queues; commands on graphics %u, compute %u, transfer %u", multi,
                on[RG_QUEUE_GRAPHICS], on[RG_QUEUE_COMPUTE], on[RG_QUEUE_TRANSFER]);
    cr_expect_gt(multi, 150);
    cr_expect_gt(on[RG_QUEUE_COMPUTE], 0);
    cr_expect_gt(on[RG_QUEUE_TRANSFER], 0);
}

/* Random frames placed offline: two pooled resources that share bytes and
 * are used on different queues are ordered use by use (every use of one
 * happens-before every use of the other); the barriers placement adds for
 * aliasing still name only their queue's stages. */
Test(rg_queues, random_frames_never_alias_across_unordered_queues)
{
    static rand_frame f;
    uint32_t shared_across = 0, shared = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        char what[64];
        snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
        rand_frame_declare(&f, seed, false);
        test_mem_place(&f.env);
        queues_check_barrier_stages(f.env.g, what);
        for (int a = 0; a < RRES; a++)
            for (int b = a + 1; b < RRES; b++) {
                if (!test_mem_overlap(rand_where(&f, a), rand_where(&f, b)))
                    continue;
                shared++;
                uint32_t queues = rand_queues(&f, a) | rand_queues(&f, b);
                if ((queues & (queues - 1)) == 0)
                    continue; /* one queue: an alias barrier orders them */
                shared_across++;
                cr_assert(all_before(&f, a, b) || all_before(&f, b, a),
                          "%s: %s %d and %s %d share bytes, are used on queues 0x%x and 0x%x, and nothing orders "
                          "every use of one before every use of the other", what, a < RTEX ? "texture" : "buffer",
                          a < RTEX ? a : a - RTEX, b < RTEX ? "texture" : "buffer", b < RTEX ? b : b - RTEX,
                          rand_queues(&f, a), rand_queues(&f, b));
            }
        rg_graph_destroy(f.env.g);
    }
    cr_log_info("300 random frames: %u pairs share bytes, %u of them across queues", shared, shared_across);
    cr_expect_gt(shared, 0);
}
