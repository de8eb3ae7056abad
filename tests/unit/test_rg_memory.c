#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* Memory placement with recorded requirements over real device memory
 * tables: who may share bytes (only proven order), pools by type and class,
 * lazy / dedicated / unused, alias scopes, the lower bound, determinism.
 * No device. The done-when frames are in test_rg_memory_frames.c. */
#include "place/results.h"
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_files.h"

#define COMP VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define SW RG_USAGE_STORAGE_WRITE_COMPUTE
#define SR RG_USAGE_STORAGE_READ_COMPUTE

Test(rg_memory, same_span_resources_never_share)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_texture a = test_mem_tex(&env, "a", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_texture b = test_mem_tex(&env, "b", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_begin_rendering(env.g, &(rg_rendering_desc){
                                  .name = "mrt",
                                  .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR},
                                             {.texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR}},
                                  .color_count = 2});
    test_draw(env.g, "draw");
    rg_end_rendering(env.g);
    test_outside(env.g, "use", TEX(a, RG_USAGE_SAMPLED_COMPUTE), TEX(b, RG_USAGE_SAMPLED_COMPUTE));
    test_mem_place(&env);
    test_mem_where wa = test_mem_tex_at(&env, a), wb = test_mem_tex_at(&env, b);
    cr_expect_eq(wa.kind, RG_MEMORY_POOLED);
    cr_expect_eq(wa.pool, wb.pool);
    cr_expect_not(test_mem_overlap(wa, wb));
    rg_graph_destroy(env.g);
}

/* Two chains of commands outside spans, placed: chain 1 uses a in
 * batches 0..1 (p0 first), chain 2 uses b in batches 2..3 (q2 first):
 * disjoint in the execution order, yet nothing orders them. */
typedef struct two_chains {
    rg_buffer a, b, d, x;
    rg_command p0, q2;
} two_chains;

static two_chains place_two_chains(test_mem_env *env)
{
    two_chains t;
    t.a = test_mem_buf(env, "a", KiB64);
    rg_buffer c = test_mem_buf(env, "c", KiB64);
    t.d = test_mem_buf(env, "d", KiB64);
    t.b = test_mem_buf(env, "b", KiB64);
    t.x = test_mem_buf(env, "x", KiB64);
    t.p0 = test_outside(env->g, "p0", BUF(t.a, SW));
    test_outside(env->g, "p1", BUF(t.a, SR), BUF(t.x, SW));
    test_outside(env->g, "q0", BUF(c, SW));
    test_outside(env->g, "q1", BUF(c, SR), BUF(t.d, SW));
    t.q2 = test_outside(env->g, "q2", BUF(t.d, SR), BUF(t.b, SW));
    test_outside(env->g, "q3", BUF(t.b, SR));
    test_mem_place(env);
    cr_assert_not(rg_happens_before(env->g, t.p0, t.q2));
    return t;
}

/* Under alias_proven_only; by default they would share, the alias
 * barrier ordering them (next test). */
Test(rg_memory, unordered_resources_in_distinct_batches_never_share)
{
    test_mem_env env;
    test_mem_init_desc(&env, "NVIDIA H200",
                       &(rg_graph_desc){.name = "proven", .no_culling = true, .alias_proven_only = true});
    two_chains t = place_two_chains(&env);
    rg_buffer a = t.a, b = t.b;
    rg_command p0 = t.p0, q2 = t.q2;
    test_mem_where wa = test_mem_buf_at(&env, a), wb = test_mem_buf_at(&env, b);
    cr_expect_not(test_mem_overlap(wa, wb), "a at %llu, b at %llu", (unsigned long long)wa.offset,
                  (unsigned long long)wb.offset);
    cr_expect_lt(test_pos(env.g, (rg_command){p0.id + 1}), test_pos(env.g, q2), "distinct positions indeed");
    rg_graph_destroy(env.g);
}

/* By default the same two chains share bytes: apart in the execution
 * order, and b's first use waits for a's last (the alias barrier). */
Test(rg_memory, resources_apart_in_the_order_share_behind_an_alias_barrier)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    two_chains t = place_two_chains(&env);
    rg_buffer a = t.a, b = t.b, d = t.d, x = t.x;
    rg_command p0 = t.p0, q2 = t.q2;
    test_mem_where wa = test_mem_buf_at(&env, a), wb = test_mem_buf_at(&env, b);
    uint32_t pa = test_pos(env.g, (rg_command){p0.id + 1}), pb = test_pos(env.g, q2);
    if (test_mem_overlap(wa, wb)) {
        /* b's first use waits for what a's uses did. */
        bool waits = false;
        for (uint32_t i = 0; i < rg_barrier_count(env.g); i++) {
            const rg_barrier_info *bi = rg_barrier_get(env.g, i);
            waits = waits || (bi->before.id == q2.id && (bi->src_stage & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) &&
                              (bi->src_access & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT));
        }
        cr_expect(waits, "no alias barrier before b's first use");
        cr_expect_lt(pa, pb);
    }
    cr_expect(test_mem_overlap(wa, wb) || test_mem_overlap(test_mem_buf_at(&env, a), test_mem_buf_at(&env, d)) ||
                  test_mem_overlap(test_mem_buf_at(&env, x), wb),
              "nothing shares bytes across the two chains");
    rg_graph_destroy(env.g);
}

Test(rg_memory, proven_ordered_resources_share_and_a_chain_meets_the_lower_bound)
{
    test_mem_env env;
    test_mem_init(&env, "lavapipe");
    rg_buffer a = test_mem_buf(&env, "a", KiB64), b = test_mem_buf(&env, "b", KiB64), c = test_mem_buf(&env, "c",
                                                                                                       KiB64);
    rg_buffer d = test_mem_buf(&env, "d", KiB64);
    test_outside(env.g, "p0", BUF(a, SW));
    test_outside(env.g, "p1", BUF(a, SR), BUF(b, SW));
    test_outside(env.g, "p2", BUF(b, SR), BUF(c, SW));
    test_outside(env.g, "p3", BUF(c, SR), BUF(d, SW));
    test_outside(env.g, "p4", BUF(d, SR));
    test_mem_place(&env);
    test_mem_where wa = test_mem_buf_at(&env, a), wb = test_mem_buf_at(&env, b);
    test_mem_where wc = test_mem_buf_at(&env, c), wd = test_mem_buf_at(&env, d);
    cr_expect(test_mem_overlap(wa, wc));
    cr_expect(test_mem_overlap(wb, wd));
    cr_expect_not(test_mem_overlap(wa, wb));
    cr_expect_not(test_mem_overlap(wc, wd));
    rg_memory_totals t = rg_memory_get_totals(env.g);
    cr_expect_eq(t.pooled, 2 * KiB64);
    cr_expect_eq(t.lower_bound, 2 * KiB64);
    cr_expect_eq(t.unaliased, 4 * KiB64);
    cr_expect_eq(t.pools, 1);
    rg_graph_destroy(env.g);
}

Test(rg_memory, buffers_and_optimal_images_never_share_a_pool)
{
    test_mem_env env;
    test_mem_init(&env, "lavapipe"); /* one memory type: only the class can split them */
    rg_buffer a = test_mem_buf(&env, "a", KiB64);
    rg_texture t = test_mem_tex(&env, "t", VK_FORMAT_R8G8B8A8_UNORM, 4, 128, 128);
    test_outside(env.g, "p0", BUF(a, SW));
    test_outside(env.g, "p1", BUF(a, SR), TEX(t, SW));
    test_outside(env.g, "p2", TEX(t, SR));
    test_mem_place(&env);
    test_mem_where wa = test_mem_buf_at(&env, a), wt = test_mem_tex_at(&env, t);
    cr_expect_eq(wa.kind, RG_MEMORY_POOLED);
    cr_expect_eq(wt.kind, RG_MEMORY_POOLED);
    cr_expect_neq(wa.pool, wt.pool);
    cr_expect_eq(rg_memory_get_totals(env.g).pools, 2);
    rg_graph_destroy(env.g);
}

Test(rg_memory, a_resource_whose_bits_exclude_the_pool_type_gets_another_pool)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "a", KiB64), b = test_mem_buf(&env, "b", KiB64), c = test_mem_buf(&env, "c",
                                                                                                       KiB64);
    env.e[1].bits = 1u << 4; /* b: only type 4, DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT */
    test_outside(env.g, "p0", BUF(a, SW));
    test_outside(env.g, "p1", BUF(a, SR), BUF(b, SW));
    test_outside(env.g, "p2", BUF(b, SR), BUF(c, SW));
    test_outside(env.g, "p3", BUF(c, SR));
    test_mem_place(&env);
    test_mem_where wa = test_mem_buf_at(&env, a), wb = test_mem_buf_at(&env, b), wc = test_mem_buf_at(&env, c);
    cr_expect_neq(wa.pool, wb.pool);
    cr_expect_eq(wa.pool, wc.pool);
    cr_expect(test_mem_overlap(wa, wc), "a and c are ordered through b");
    const rg__mem_plan *p = &env.g->placement->plan;
    cr_expect_eq(p->pools[wa.pool].memory_type, 1);
    cr_expect_eq(p->pools[wb.pool].memory_type, 4);
    rg_graph_destroy(env.g);
}

Test(rg_memory, dedicated_resources_stay_out_of_pools)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "a", KiB64), b = test_mem_buf(&env, "b", 2 * KiB64);
    env.e[1].dedicated = true;
    test_outside(env.g, "p0", BUF(a, SW));
    test_outside(env.g, "p1", BUF(a, SR), BUF(b, SW));
    test_outside(env.g, "p2", BUF(b, SR));
    test_mem_place(&env);
    cr_expect_eq(test_mem_buf_at(&env, b).kind, RG_MEMORY_DEDICATED);
    rg_memory_totals t = rg_memory_get_totals(env.g);
    cr_expect_eq(t.dedicated, 2 * KiB64);
    cr_expect_eq(t.pooled, KiB64);
    cr_expect_eq(t.unaliased, KiB64);
    rg_graph_destroy(env.g);
}

Test(rg_memory, unused_resources_are_not_created_nor_asked_for)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "a", KiB64);
    rg_texture unused = test_mem_tex_ex(&env, "unused", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64, VK_SAMPLE_COUNT_4_BIT,
                                   RG_TRANSIENT_FORCE);
    rg_texture back = test_mem_import(&env, "back", VK_FORMAT_R8G8B8A8_UNORM, 64, 64);
    test_outside(env.g, "p0", BUF(a, SW), TEX(back, RG_USAGE_TRANSFER_DST));
    test_mem_place(&env);
    cr_expect_eq(env.calls, 1, "only 'a' is asked for");
    cr_expect_eq(test_mem_tex_at(&env, unused).kind, RG_MEMORY_NOT_CREATED);
    cr_expect_eq(test_mem_tex_at(&env, back).kind, RG_MEMORY_IMPORTED);
    cr_expect_eq(test_mem_buf_at(&env, a).kind, RG_MEMORY_POOLED);
    rg_graph_destroy(env.g);
}

/* A cleared, discarded MSAA attachment: LAZY exactly where the table offers
 * a lazily allocated type; the resolve target it feeds never is. */
Test(rg_memory, lazy_exactly_on_devices_that_offer_it)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *dt = &device_tables[i];
        test_mem_env env;
        test_mem_init(&env, dt->name);
        rg_texture msaa = test_mem_tex_ex(&env, "msaa", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64, VK_SAMPLE_COUNT_4_BIT,
                                     RG_TRANSIENT_AUTO);
        rg_texture single = test_mem_tex(&env, "single", VK_FORMAT_R8G8B8A8_UNORM, 4, 64, 64);
        rg_begin_rendering(env.g, &(rg_rendering_desc){
                                      .name = "pass",
                                      .colors = {{.texture = msaa, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                  .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = single}},
                                      .color_count = 1});
        rg_end_rendering(env.g);
        test_outside(env.g, "read", TEX(single, RG_USAGE_SAMPLED_COMPUTE));
        test_mem_place(&env);
        cr_expect_eq(test_mem_tex_at(&env, msaa).kind, dt->has_lazy ? RG_MEMORY_LAZY : RG_MEMORY_POOLED, "%s",
                     dt->name);
        cr_expect_eq(test_mem_tex_at(&env, single).kind, RG_MEMORY_POOLED, "%s", dt->name);
        cr_expect_eq(rg_memory_get_totals(env.g).lazy, dt->has_lazy ? env.e[0].size : 0, "%s", dt->name);
        /* The timeline draws a lazy attachment in a lane of its own, dashed:
         * no memory committed. */
        char dir[] = "/tmp/rg_lazyXXXXXX", svg[64];
        cr_assert_not_null(test_mkdtemp(dir));
        snprintf(svg, sizeof svg, "%s/t.svg", dir);
        cr_assert_eq(rg_memory_timeline_svg(env.g, svg), RG_SUCCESS, "%s", rg_graph_error_message(env.g));
        char *text = test_text_close(fopen(svg, "r"));
        cr_assert_not_null(text);
        cr_expect_eq(strstr(text, "lazy: tile memory, no memory committed") != NULL, dt->has_lazy, "%s", dt->name);
        cr_expect_eq(strstr(text, "stroke-dasharray=\"4 2\"><title>msaa: lazy, ") != NULL, dt->has_lazy, "%s",
                     dt->name);
        cr_expect_not_null(strstr(text, "<title>single: offset "), "%s", dt->name);
        free(text);
        remove(svg);
        rmdir(dir);
        rg_graph_destroy(env.g);
    }
}

/* ------------------------------------------------------------ alias scopes */

Test(rg_memory, alias_scope_of_a_read_only_previous_occupant)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer r = test_mem_buf(&env, "r", KiB64), x = test_mem_buf(&env, "x", KiB64), w = test_mem_buf(&env, "w",
                                                                                                       KiB64);
    /* r is a read-only occupant on purpose: what it holds does not matter. */
    test_outside(env.g, "c1", BUF_UNDEF(r, RG_USAGE_UNIFORM_COMPUTE), BUF(x, SW));
    test_outside(env.g, "c2", BUF(x, SR), BUF(w, SW));
    test_outside(env.g, "c3", BUF(w, RG_USAGE_UNIFORM_COMPUTE));
    test_mem_place(&env);
    cr_assert(test_mem_overlap(test_mem_buf_at(&env, r), test_mem_buf_at(&env, w)));
    const rg__alias_scope *m = &env.g->placement->plan.alias[2];
    cr_expect_eq(m->stage, COMP);
    cr_expect_eq(m->access, VK_ACCESS_2_UNIFORM_READ_BIT, "0x%llx", (unsigned long long)m->access);
    /* Executed again, r follows w of the frame before. */
    cr_expect_eq(env.g->placement->plan.alias[0].access,
                 VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    rg_graph_destroy(env.g);
}

Test(rg_memory, alias_scope_is_the_union_of_several_previous_occupants)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer r1 = test_mem_buf(&env, "r1", KiB64), r2 = test_mem_buf(&env, "r2", KiB64), x = test_mem_buf(&env, "x",
                                                                                                           KiB64);
    rg_buffer w = test_mem_buf(&env, "w", 2 * KiB64);
    test_outside(env.g, "c1", BUF_UNDEF(r1, RG_USAGE_UNIFORM_COMPUTE), BUF_UNDEF(r2, RG_USAGE_INDIRECT_BUFFER),
                 BUF(x, SW));
    test_outside(env.g, "c2", BUF(x, SR), BUF(w, SW));
    test_outside(env.g, "c3", BUF(w, SR));
    test_mem_place(&env);
    test_mem_where ww = test_mem_buf_at(&env, w);
    cr_assert(test_mem_overlap(ww, test_mem_buf_at(&env, r1)));
    cr_assert(test_mem_overlap(ww, test_mem_buf_at(&env, r2)));
    const rg__alias_scope *m = &env.g->placement->plan.alias[3];
    cr_expect_eq(m->stage, COMP | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    cr_expect_eq(m->access, VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    rg_graph_destroy(env.g);
}

/* The alias barrier itself: a pooled texture whose bytes another texture
 * held earlier in the order starts from UNDEFINED in a barrier on it,
 * before its first use, that waits for that texture's last use (b, written
 * and read by copies, for a's compute read), not only for its own uses of
 * the frame before; and in the next frame the earlier one's first use
 * waits for the later one's last use (a for b's copies). */
Test(rg_memory, a_pooled_textures_first_barrier_waits_for_the_previous_occupant)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_texture a = test_mem_tex(&env, "a", VK_FORMAT_R8G8B8A8_UNORM, 4, 128, 128);
    rg_texture b = test_mem_tex(&env, "b", VK_FORMAT_R8G8B8A8_UNORM, 4, 128, 128);
    rg_buffer x = test_mem_buf(&env, "x", 128 * 128 * 4), y = test_mem_buf(&env, "y", 128 * 128 * 4);
    rg_command write = test_outside(env.g, "write a", TEX(a, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(env.g, "read a", TEX(a, RG_USAGE_SAMPLED_COMPUTE), BUF(x, SW));
    rg_command fill = rg_cmd_copy_buffer_to_texture(env.g, x, 0, b, 0, 0, 1);
    rg_cmd_copy_texture_to_buffer(env.g, b, 0, 0, 1, y, 0);
    test_outside(env.g, "read y", BUF(y, SR));
    test_mem_place(&env);
    cr_assert(test_mem_overlap(test_mem_tex_at(&env, a), test_mem_tex_at(&env, b)), "a and b share bytes");
    const rg_barrier_info *bb[4];
    cr_assert_geq(test_tex_barriers(env.g, b, bb, 4), 1);
    cr_expect_eq(bb[0]->before.id, fill.id);
    cr_expect_eq(bb[0]->old_layout, VK_IMAGE_LAYOUT_UNDEFINED);
    cr_expect(bb[0]->src_stage & COMP, "b's first barrier waits for 0x%llx, not a's compute read",
              (unsigned long long)bb[0]->src_stage);
    const rg_barrier_info *ab[4];
    cr_assert_geq(test_tex_barriers(env.g, a, ab, 4), 1);
    cr_expect_eq(ab[0]->before.id, write.id);
    cr_expect_eq(ab[0]->old_layout, VK_IMAGE_LAYOUT_UNDEFINED);
    cr_expect(ab[0]->src_stage & (VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT),
              "a's first barrier waits for 0x%llx, not b's copies", (unsigned long long)ab[0]->src_stage);
    rg_graph_destroy(env.g);
}

/* Resources one command uses are live together: they never share bytes,
 * and each starts at a multiple of its own alignment, also right after a
 * neighbour whose size is not one. */
Test(rg_memory, live_resources_apart_and_offsets_aligned_per_resource)
{
    static const VkDeviceSize sizes[4] = {5000, 4096, 3000, 1000}, aligns[4] = {256, 4096, 1024, 64};
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer b[4];
    rg_access acc[4];
    for (uint32_t i = 0; i < 4; i++) {
        b[i] = test_mem_buf(&env, "b", KiB64);
        env.e[i].size = sizes[i];
        env.e[i].align = aligns[i];
        acc[i] = BUF(b[i], SW);
    }
    test_cmd(env.g, "all at once", RG_COMMAND_OUTSIDE, acc, 4);
    test_mem_place(&env);
    for (uint32_t i = 0; i < 4; i++) {
        test_mem_where w = test_mem_buf_at(&env, b[i]);
        w.size = sizes[i];
        cr_expect_eq(w.kind, RG_MEMORY_POOLED);
        cr_expect_eq(w.offset % aligns[i], 0, "buffer %u at %llu, alignment %llu", i, (unsigned long long)w.offset,
                     (unsigned long long)aligns[i]);
        for (uint32_t j = 0; j < i; j++) {
            test_mem_where o = test_mem_buf_at(&env, b[j]);
            o.size = sizes[j];
            cr_expect_not(test_mem_overlap(w, o), "buffers %u and %u overlap", i, j);
        }
    }
    rg_graph_destroy(env.g);
}

/* ----------------------------------------------------- determinism, report */

Test(rg_memory, placing_twice_gives_the_same_result_and_the_report_writes)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "a", 3 * KiB64), b = test_mem_buf(&env, "b", KiB64), c = test_mem_buf(&env, "c",
                                                                                                           2 * KiB64);
    cr_expect_eq(rg_memory_report_print(env.g, stdout), RG_ERROR_NOT_PLACED);
    test_outside(env.g, "p0", BUF(a, SW), BUF(b, SW));
    test_outside(env.g, "p1", BUF(a, SR), BUF(c, SW));
    test_outside(env.g, "p2", BUF(b, SR), BUF(c, SR));
    test_mem_place(&env);
    test_mem_where first[3] = {test_mem_buf_at(&env, a), test_mem_buf_at(&env, b), test_mem_buf_at(&env, c)};
    rg_memory_totals t1 = rg_memory_get_totals(env.g);
    test_mem_place(&env);
    test_mem_where second[3] = {test_mem_buf_at(&env, a), test_mem_buf_at(&env, b), test_mem_buf_at(&env, c)};
    rg_memory_totals t2 = rg_memory_get_totals(env.g);
    cr_expect_eq(memcmp(first, second, sizeof first), 0);
    cr_expect_eq(memcmp(&t1, &t2, sizeof t1), 0);
    char dir[] = "/tmp/rg_memXXXXXX";
    cr_assert_not_null(test_mkdtemp(dir));
    char json[64], svg[64];
    snprintf(json, sizeof json, "%s/m.json", dir);
    snprintf(svg, sizeof svg, "%s/m.svg", dir);
    FILE *null = fopen("/dev/null", "w");
    cr_expect_eq(rg_memory_report_print(env.g, null), RG_SUCCESS);
    fclose(null);
    cr_expect_eq(rg_memory_report_json(env.g, json), RG_SUCCESS);
    cr_expect_eq(rg_memory_timeline_svg(env.g, svg), RG_SUCCESS);
    cr_expect_eq(rg_memory_report_json(env.g, "/nonexistent/dir/m.json"), RG_ERROR_IO);
    cr_expect_not_null(strstr(rg_graph_error_message(env.g), "/nonexistent/dir/m.json"));
    FILE *f = fopen(json, "r");
    char text[4096] = {0};
    cr_assert_not_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    cr_expect_gt(n, 0);
    cr_expect_not_null(strstr(text, "\"name\": \"a\""));
    cr_expect_not_null(strstr(text, "\"lower_bound\""));
    remove(json);
    remove(svg);
    rmdir(dir);
    /* A changed declaration makes the plan stale. */
    test_outside(env.g, "p3", BUF(a, SR));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS);
    cr_expect_eq(rg_buffer_memory(env.g, a, NULL, NULL), RG_MEMORY_NOT_CREATED);
    cr_expect_eq(rg_memory_timeline_svg(env.g, svg), RG_ERROR_NOT_PLACED);
    rg_graph_destroy(env.g);
}

static bool no_requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                            VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index, (void)size, (void)alignment, (void)type_bits,
        (void)dedicated;
    return false;
}

Test(rg_memory, failures_name_the_resource_and_leave_no_plan)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_buffer a = test_mem_buf(&env, "odd", KiB64);
    env.e[0].align = 3 * 1024;
    test_outside(env.g, "p0", BUF(a, SW));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS);
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_not_null(strstr(rg_graph_error_message(env.g), "'odd'"), "%s", rg_graph_error_message(env.g));
    cr_expect_eq(rg_buffer_memory(env.g, a, NULL, NULL), RG_MEMORY_NOT_CREATED);
    cr_expect_eq(rg_memory_get_totals(env.g).pools, 0);
    rg_graph_destroy(env.g);

    test_mem_init(&env, "NVIDIA H200");
    a = test_mem_buf(&env, "unasked", KiB64);
    test_outside(env.g, "p0", BUF(a, SW));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS);
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, no_requirements, NULL), RG_ERROR_CALLBACK);
    cr_expect_not_null(strstr(rg_graph_error_message(env.g), "'unasked'"));
    cr_expect_eq(rg_buffer_memory(env.g, a, NULL, NULL), RG_MEMORY_NOT_CREATED);
    rg_graph_destroy(env.g);

    test_mem_init(&env, "NVIDIA H200");
    a = test_mem_buf(&env, "host only", KiB64);
    env.e[0].bits = 1u << 2; /* HOST_VISIBLE | HOST_COHERENT, not DEVICE_LOCAL */
    test_outside(env.g, "p0", BUF(a, SW));
    cr_assert_eq(rg_compile(env.g), RG_SUCCESS);
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_ERROR_VULKAN);
    cr_expect_not_null(strstr(rg_graph_error_message(env.g), "'host only'"));
    cr_expect_eq(rg_place_offline(NULL, &env.table->props, test_mem_requirements, &env), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(env.g);
}

Test(rg_memory, placing_needs_a_compiled_graph)
{
    test_mem_env env;
    test_mem_init(&env, "lavapipe");
    rg_buffer a = test_mem_buf(&env, "a", KiB64);
    test_outside(env.g, "p0", BUF(a, SW));
    cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_ERROR_NOT_COMPILED);
    cr_expect_eq(rg_memory_report_json(env.g, "/tmp/never.json"), RG_ERROR_NOT_PLACED);
    rg_graph_destroy(env.g);
}
