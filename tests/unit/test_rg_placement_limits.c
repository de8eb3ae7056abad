/* Placement's refusals of memory requirements it cannot use, each saying
 * which one and naming the resource: a size of 0 (what a driver reports
 * for a resource it cannot make), more bytes than one resource may take,
 * an alignment that is not a power of two. */
#include "rg_mem_unit.h"

#include <string.h>

static bool keep(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* One buffer written by a kept command, its requirements as given. */
static rg_result place_one(test_mem_env *env, VkDeviceSize size, VkDeviceSize align)
{
    test_mem_init(env, "NVIDIA H200");
    rg_buffer b = test_mem_buf(env, "huge", 4096);
    env->e[0].size = size;
    env->e[0].align = align;
    rg_access w = {.buffer = b, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE};
    rg_cmd_user(env->g, &(rg_user_desc){.name = "fill", .accesses = &w, .access_count = 1, .record = keep,
                                        .side_effects = true});
    cr_assert_eq(rg_compile(env->g), RG_SUCCESS, "%s", rg_graph_error_message(env->g));
    return rg_place_offline(env->g, &env->table->props, test_mem_requirements, env);
}

/* place_one refused with code, its message holding needle. */
static void expect_place_refused(VkDeviceSize size, VkDeviceSize align, rg_result code, const char *needle)
{
    test_mem_env env;
    cr_expect_eq(place_one(&env, size, align), code);
    const char *m = rg_graph_error_message(env.g);
    cr_expect(strstr(m, needle), "%s", m);
    rg_graph_destroy(env.g);
}

Test(rg_placement_limits, a_size_of_zero_is_unsupported_by_name)
{
    expect_place_refused(0, 64, RG_ERROR_UNSUPPORTED, "buffer 'huge': the driver asks for 0 bytes");
}

Test(rg_placement_limits, more_than_a_resource_may_take)
{
    expect_place_refused((1ull << 40) + 65536, 64, RG_ERROR_UNSUPPORTED,
                         "buffer 'huge' needs 1099511693312 bytes, more than one resource may take");
}

Test(rg_placement_limits, an_alignment_not_a_power_of_two)
{
    expect_place_refused(65536, 48, RG_ERROR_INVALID_ARGUMENT, "buffer 'huge': alignment 48 is not a power of two");
    /* The same buffer with usable requirements places. */
    test_mem_env env;
    cr_expect_eq(place_one(&env, 65536, 64), RG_SUCCESS, "%s", rg_graph_error_message(env.g));
    rg_graph_destroy(env.g);
}

/* A placement that fails keeps no error: the graph stays compiled (the
 * header's "Errors"), its queries answer, and placing it again with
 * usable requirements succeeds without a new compile. */
Test(rg_placement_limits, a_failed_placement_never_leaves_the_graph_failed)
{
    test_mem_env env;
    const VkDeviceSize bad[][2] = {{0, 64}, {(1ull << 40) + 65536, 64}, {65536, 48}};
    for (uint32_t i = 0; i < 3; i++) {
        cr_expect_neq(place_one(&env, bad[i][0], bad[i][1]), RG_SUCCESS);
        cr_expect_eq(rg_graph_error(env.g), RG_SUCCESS, "case %u: %s", i, rg_graph_error_message(env.g));
        cr_expect_gt(rg_barrier_count(env.g) + rg_batch_count(env.g), 0, "case %u: the compile's results went", i);
        env.e[0].size = 65536;
        env.e[0].align = 64;
        cr_expect_eq(rg_place_offline(env.g, &env.table->props, test_mem_requirements, &env), RG_SUCCESS,
                     "case %u: %s", i, rg_graph_error_message(env.g));
        rg_graph_destroy(env.g);
    }
}
