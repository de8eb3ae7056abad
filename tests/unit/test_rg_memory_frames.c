/* The done-when frames, device-free with recorded requirements
 * (sizes = width * height * bytes per pixel * samples, rounded up to 64 KiB):
 * the deferred frame packs within 10% of the lower bound; 4 sets of 4x MSAA
 * color + depth take one set's worth where there is no lazy memory and no
 * pooled bytes where there is. The figures are printed. Also: pooled never
 * below the lower bound and never an unordered overlap, on random graphs. */
#include "rg_mem_unit.h"

#include <stdio.h>

#define W 1920
#define H 1080
#define RGBA8 VK_FORMAT_R8G8B8A8_UNORM
#define RGBA16F VK_FORMAT_R16G16B16A16_SFLOAT
#define D32 VK_FORMAT_D32_SFLOAT
#define CLEAR VK_ATTACHMENT_LOAD_OP_CLEAR
#define DONT_LOAD VK_ATTACHMENT_LOAD_OP_DONT_CARE
#define STORE VK_ATTACHMENT_STORE_OP_STORE
#define DISCARD VK_ATTACHMENT_STORE_OP_DONT_CARE
#define SAMPLED RG_USAGE_SAMPLED_FRAGMENT

static void print_totals(const char *what, const char *table, rg_memory_totals t)
{
    printf("%s on %s: pooled %.2f MiB, unaliased %.2f MiB, lower bound %.2f MiB, lazy %.2f MiB, dedicated %.2f MiB, "
           "%u pools\n",
           what, table, t.pooled / 1048576.0, t.unaliased / 1048576.0, t.lower_bound / 1048576.0, t.lazy / 1048576.0,
           t.dedicated / 1048576.0, t.pools);
}

/* One full-screen pass: draws into `target`, sampling the given inputs. */
static void pass(test_mem_env *env, const char *name, rg_texture target, const rg_texture *inputs, uint32_t n)
{
    rg_begin_rendering(env->g, &(rg_rendering_desc){
                                   .name = name,
                                   .colors = {{.texture = target, .load = DONT_LOAD, .store = STORE}},
                                   .color_count = 1});
    rg_access acc[8];
    for (uint32_t i = 0; i < n; i++)
        acc[i] = TEX(inputs[i], SAMPLED);
    test_cmd(env->g, name, RG_COMMAND_DRAW, acc, n);
    rg_end_rendering(env->g);
}

/* G-buffer (albedo, normal, material, depth as MRT) -> lighting into HDR ->
 * bloom: 4 downsamples then 3 upsamples -> tonemap into the back buffer. */
static void deferred_frame(test_mem_env *env)
{
    rg_texture albedo = test_mem_tex(env, "albedo", RGBA8, 4, W, H);
    rg_texture normal = test_mem_tex(env, "normal", RGBA16F, 8, W, H);
    rg_texture material = test_mem_tex(env, "material", RGBA8, 4, W, H);
    rg_texture depth = test_mem_tex(env, "depth", D32, 4, W, H);
    rg_texture hdr = test_mem_tex(env, "hdr", RGBA16F, 8, W, H);
    rg_texture down[4], up[3];
    static const char *down_names[4] = {"bloom_down0", "bloom_down1", "bloom_down2", "bloom_down3"};
    static const char *up_names[3] = {"bloom_up0", "bloom_up1", "bloom_up2"};
    for (uint32_t i = 0; i < 4; i++)
        down[i] = test_mem_tex(env, down_names[i], RGBA16F, 8, W >> (i + 1), H >> (i + 1));
    for (uint32_t i = 0; i < 3; i++)
        up[i] = test_mem_tex(env, up_names[i], RGBA16F, 8, W >> (i + 1), H >> (i + 1));
    rg_texture back = test_mem_import(env, "backbuffer", RGBA8, W, H);

    rg_begin_rendering(env->g, &(rg_rendering_desc){
                                   .name = "gbuffer",
                                   .colors = {{.texture = albedo, .load = CLEAR, .store = STORE},
                                              {.texture = normal, .load = CLEAR, .store = STORE},
                                              {.texture = material, .load = CLEAR, .store = STORE}},
                                   .color_count = 3,
                                   .depth = {.texture = depth, .load = CLEAR, .store = STORE}});
    test_draw(env->g, "scene");
    rg_end_rendering(env->g);
    pass(env, "lighting", hdr, (rg_texture[]){albedo, normal, material, depth}, 4);
    pass(env, "down0", down[0], &hdr, 1);
    for (uint32_t i = 1; i < 4; i++)
        pass(env, down_names[i], down[i], &down[i - 1], 1);
    pass(env, "up2", up[2], (rg_texture[]){down[3], down[2]}, 2);
    pass(env, "up1", up[1], (rg_texture[]){up[2], down[1]}, 2);
    pass(env, "up0", up[0], (rg_texture[]){up[1], down[0]}, 2);
    pass(env, "tonemap", back, (rg_texture[]){hdr, up[0]}, 2);
}

Test(rg_memory_frames, deferred_frame_is_within_ten_percent_of_the_lower_bound)
{
    static const char *tables[] = {"NVIDIA H200", "lavapipe", "Apple silicon, MoltenVK >= 1.2.9"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        test_mem_env env;
        test_mem_init(&env, tables[i]);
        deferred_frame(&env);
        test_mem_place(&env);
        rg_memory_totals t = rg_memory_get_totals(env.g);
        print_totals("deferred frame", tables[i], t);
        if (i == 0)
            rg_memory_report_print(env.g, stdout);
        cr_expect_geq(t.pooled, t.lower_bound);
        cr_expect_leq(t.pooled * 10, t.lower_bound * 11, "%s: pooled %llu vs lower bound %llu", tables[i],
                      (unsigned long long)t.pooled, (unsigned long long)t.lower_bound);
        cr_expect_lt(t.pooled, t.unaliased, "aliasing saves something");
        cr_expect_eq(t.lazy, 0, "nothing here is transient: every target is sampled later");
        rg_graph_destroy(env.g);
    }
}

/* Four sets, one after another (each resolves into the same imported
 * image, which orders them): 4x MSAA RGBA8 + 4x D32, cleared, discarded. */
static void msaa_sets(test_mem_env *env, VkDeviceSize *set_bytes)
{
    rg_texture out = test_mem_import(env, "resolved", RGBA8, W, H);
    *set_bytes = 0;
    for (int s = 0; s < 4; s++) {
        char cn[16], dn[16], pn[16];
        snprintf(cn, sizeof cn, "color%d", s);
        snprintf(dn, sizeof dn, "depth%d", s);
        snprintf(pn, sizeof pn, "set%d", s);
        rg_texture color = test_mem_tex_ex(env, cn, RGBA8, 4, W, H, VK_SAMPLE_COUNT_4_BIT, RG_TRANSIENT_AUTO);
        rg_texture depth = test_mem_tex_ex(env, dn, D32, 4, W, H, VK_SAMPLE_COUNT_4_BIT, RG_TRANSIENT_AUTO);
        if (s == 0)
            *set_bytes = env->e[env->n - 1].size + env->e[env->n - 2].size;
        rg_begin_rendering(env->g, &(rg_rendering_desc){
                                       .name = pn,
                                       .colors = {{.texture = color, .load = CLEAR, .store = DISCARD,
                                                   .resolve = out}},
                                       .color_count = 1,
                                       .depth = {.texture = depth, .load = CLEAR, .store = DISCARD}});
        test_draw(env->g, pn);
        rg_end_rendering(env->g);
    }
}

Test(rg_memory_frames, msaa_sets_take_one_set_without_lazy_memory_and_nothing_with_it)
{
    static const char *tables[] = {"NVIDIA H200", "lavapipe", "Apple silicon, MoltenVK >= 1.2.9"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        test_mem_env env;
        test_mem_init(&env, tables[i]);
        VkDeviceSize set;
        msaa_sets(&env, &set);
        test_mem_place(&env);
        rg_memory_totals t = rg_memory_get_totals(env.g);
        print_totals("4 MSAA sets", tables[i], t);
        for (uint32_t k = 1; k < env.n; k++)
            cr_expect(rg_texture_is_transient(env.g, env.e[k].tex), "%s: resource %u", tables[i], k);
        if (env.table->has_lazy) {
            cr_expect_eq(t.pooled, 0);
            cr_expect_eq(t.lazy, 4 * set);
            for (uint32_t k = 1; k < env.n; k++)
                cr_expect_eq(test_mem_tex_at(&env, env.e[k].tex).kind, RG_MEMORY_LAZY);
        } else {
            cr_expect_eq(t.pooled, set, "%s: %llu, one set is %llu", tables[i], (unsigned long long)t.pooled,
                         (unsigned long long)set);
            cr_expect_eq(t.unaliased, 4 * set);
            cr_expect_eq(t.lazy, 0);
        }
        rg_graph_destroy(env.g);
    }
}

/* ------------------------------------------------------- property test */

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

enum { NRES = 12, NCMD = 24 };

/* Random compute commands over random buffers and textures; each command
 * reads or writes a few of them. For every pair of resources placed on
 * overlapping bytes, every command of one must happen-before every command
 * of the other. */
/* Under rg_graph_desc.alias_proven_only (odd seeds) two resources share
 * bytes only when the declared dependencies order them; by default (even
 * seeds) when they are apart in the execution order (the alias barrier
 * orders them). */
Test(rg_memory_frames, random_graphs_never_overlap_unordered_and_never_beat_the_lower_bound)
{
    for (uint64_t seed = 1; seed <= 200; seed++) {
        uint64_t s = seed;
        test_mem_env env;
        test_mem_init(&env, seed % 2 ? "NVIDIA H200" : "lavapipe");
        bool proven = seed % 2;
        rg_graph_destroy(env.g);
        cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "frames", .no_culling = true,
                                                      .alias_proven_only = proven},
                                     &env.g),
                     RG_SUCCESS);
        bool is_tex[NRES];
        for (int r = 0; r < NRES; r++) {
            is_tex[r] = rnd(&s) % 2;
            VkDeviceSize size = (VkDeviceSize)(1 + rnd(&s) % 8) * KiB64;
            if (is_tex[r])
                test_mem_tex(&env, "t", RGBA8, 4, 128, 128);
            else
                test_mem_buf(&env, "b", size);
            env.e[r].size = size;
            env.e[r].align = (VkDeviceSize)KiB64 >> (rnd(&s) % 4);
        }
        rg_command cmds[NCMD];
        bool uses[NCMD][NRES];
        memset(uses, 0, sizeof uses);
        for (int c = 0; c < NCMD; c++) {
            rg_access acc[3];
            uint32_t n = 0;
            for (int k = 0; k < 3; k++) {
                int r = (int)(rnd(&s) % NRES);
                if (uses[c][r])
                    continue;
                uses[c][r] = true;
                rg_usage u = rnd(&s) % 2 ? RG_USAGE_STORAGE_WRITE_COMPUTE : RG_USAGE_STORAGE_READ_COMPUTE;
                acc[n++] = is_tex[r] ? TEX_UNDEF(env.e[r].tex, u) : BUF_UNDEF(env.e[r].buf, u); /* any data */
            }
            cmds[c] = test_cmd(env.g, "c", RG_COMMAND_OUTSIDE, acc, n);
        }
        test_mem_place(&env);
        rg_memory_totals t = rg_memory_get_totals(env.g);
        cr_assert_geq(t.pooled, t.lower_bound, "seed %llu", (unsigned long long)seed);
        cr_assert_leq(t.pooled, t.unaliased + 4 * KiB64 * NRES, "seed %llu", (unsigned long long)seed);
        for (int a = 0; a < NRES; a++)
            for (int b = 0; b < NRES; b++) {
                if (a == b)
                    continue;
                test_mem_where wa = env.e[a].is_texture ? test_mem_tex_at(&env, env.e[a].tex)
                                                        : test_mem_buf_at(&env, env.e[a].buf);
                test_mem_where wb = env.e[b].is_texture ? test_mem_tex_at(&env, env.e[b].tex)
                                                        : test_mem_buf_at(&env, env.e[b].buf);
                if (!test_mem_overlap(wa, wb))
                    continue;
                bool a_first = true, b_first = true;
                for (int x = 0; x < NCMD; x++)
                    for (int y = 0; y < NCMD; y++) {
                        bool xy = proven ? rg_happens_before(env.g, cmds[x], cmds[y])
                                         : test_pos(env.g, cmds[x]) < test_pos(env.g, cmds[y]);
                        if (uses[x][a] && uses[y][b] && !xy)
                            a_first = false;
                        if (uses[x][b] && uses[y][a] && !xy)
                            b_first = false;
                    }
                cr_assert(a_first || b_first, "seed %llu: resources %d and %d overlap unordered",
                          (unsigned long long)seed, a, b);
            }
        rg_graph_destroy(env.g);
    }
}
