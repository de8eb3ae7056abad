/* rg_graph_desc.no_aliasing: placement keeps every pooled resource in a
 * range of its own (still pooled, never overlapping), so pooled bytes equal
 * the unaliased sum; without it, two textures whose lifetimes are ordered
 * share bytes. Device-free: recorded requirements over a real device
 * table (rg_place_offline). */
#include "rg_mem_unit.h"

#define SW RG_USAGE_STORAGE_WRITE_COMPUTE
#define SR RG_USAGE_SAMPLED_COMPUTE

/* a is written then read; only then is b written and read: a's every use
 * happens-before b's first, so aliasing may put them in the same bytes. */
/* Placed, a and b are where *wa and *wb say, both pooled. */
static void place_chain(test_mem_env *env, bool no_aliasing, test_mem_where *wa, test_mem_where *wb)
{
    test_mem_init_desc(env, "NVIDIA H200",
                       &(rg_graph_desc){.name = "no aliasing", .no_aliasing = no_aliasing, .no_culling = true});
    rg_texture a = test_mem_tex(env, "a", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_texture b = test_mem_tex(env, "b", VK_FORMAT_R8G8B8A8_UNORM, 4, 256, 256);
    rg_buffer out = test_mem_buf(env, "out", KiB64);
    test_outside(env->g, "write a", TEX(a, SW));
    test_outside(env->g, "read a", TEX(a, SR), BUF(out, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(env->g, "write b", TEX(b, SW), BUF(out, RG_USAGE_STORAGE_READ_COMPUTE));
    test_outside(env->g, "read b", TEX(b, SR));
    test_mem_place(env);
    *wa = test_mem_tex_at(env, a);
    *wb = test_mem_tex_at(env, b);
    cr_expect_eq(wa->kind, RG_MEMORY_POOLED);
    cr_expect_eq(wb->kind, RG_MEMORY_POOLED);
}

Test(rg_no_aliasing, default_aliases_ordered_textures)
{
    test_mem_env env;
    test_mem_where wa, wb;
    place_chain(&env, false, &wa, &wb);
    cr_expect(test_mem_overlap(wa, wb), "a at %llu, b at %llu", (unsigned long long)wa.offset,
              (unsigned long long)wb.offset);
    rg_memory_totals t = rg_memory_get_totals(env.g);
    cr_expect_lt(t.pooled, t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
                 (unsigned long long)t.unaliased);
    rg_graph_destroy(env.g);
}

Test(rg_no_aliasing, flag_gives_every_pooled_resource_its_own_range)
{
    test_mem_env env;
    test_mem_where wa, wb;
    place_chain(&env, true, &wa, &wb);
    /* Still pooled (one pool for both), just apart. */
    cr_expect_eq(wa.pool, wb.pool);
    cr_expect_not(test_mem_overlap(wa, wb), "a at %llu, b at %llu", (unsigned long long)wa.offset,
                  (unsigned long long)wb.offset);
    rg_memory_totals t = rg_memory_get_totals(env.g);
    cr_expect_eq(t.pooled, t.unaliased, "pooled %llu, unaliased %llu", (unsigned long long)t.pooled,
                 (unsigned long long)t.unaliased);
    cr_expect_eq(t.unaliased, 2 * test_mem_round(256u * 256u * 4u) + KiB64);
    /* The lower bound is a property of the frame, not of the switch. */
    cr_expect_lt(t.lower_bound, t.pooled);
    rg_graph_destroy(env.g);
}
