/* Memory-aware ordering (compile_schedule.c), device-free: the default
 * order's peak of live bytes is never above the batch order's on random
 * DAGs, never below the true optimum (found by exhaustive search on small
 * DAGs), and strictly lower where independent chains can be interleaved. */
#include "order_corpus.h"
#include "rg_unit.h"

static uint64_t peak_of(const order_dag *d, rg_order order)
{
    rg_command cmds[ORDER_MAX_COMMANDS];
    rg_graph *g = order_dag_graph(d, order, cmds);
    cr_assert_not_null(g);
    uint64_t p = order_peak(g, d);
    cr_assert_gt(p, 0, "placement failed: %s", rg_graph_error_message(g));
    rg_graph_destroy(g);
    return p;
}

Test(rg_order, never_worse_than_the_batch_order)
{
    uint64_t seed = 1;
    uint32_t better = 0;
    for (int i = 0; i < 300; i++) {
        order_dag d;
        order_dag_random(&seed, 4 + (uint32_t)i % 57, &d);
        uint64_t mem = peak_of(&d, RG_ORDER_MEMORY), batch = peak_of(&d, RG_ORDER_BATCHES);
        cr_assert_leq(mem, batch, "DAG %d: memory order peak %llu above the batch order's %llu", i,
                      (unsigned long long)mem, (unsigned long long)batch);
        better += mem < batch;
    }
    cr_log_info("memory order strictly lower on %u of 300 random DAGs", better);
    cr_expect_gt(better, 0);
}

Test(rg_order, between_the_optimum_and_the_batch_order)
{
    uint64_t seed = 7;
    double worst = 1.0, sum = 0.0;
    const int graphs = 150;
    for (int i = 0; i < graphs; i++) {
        order_dag d;
        order_dag_random(&seed, 4 + (uint32_t)i % 9, &d);
        rg_command cmds[ORDER_MAX_COMMANDS];
        rg_graph *g = order_dag_graph(&d, RG_ORDER_MEMORY, cmds);
        cr_assert_not_null(g);
        uint64_t mem = order_peak(g, &d), best = order_optimum(g, cmds, &d);
        rg_graph_destroy(g);
        uint64_t batch = peak_of(&d, RG_ORDER_BATCHES), decl = peak_of(&d, RG_ORDER_DECLARATION);
        cr_assert_leq(best, mem, "DAG %d: the search found %llu above the memory order's %llu", i,
                      (unsigned long long)best, (unsigned long long)mem);
        cr_assert_leq(best, batch);
        cr_assert_leq(best, decl);
        double ratio = best ? (double)mem / (double)best : 1.0;
        worst = ratio > worst ? ratio : worst;
        sum += ratio;
    }
    cr_log_info("memory order / optimum over %d DAGs of 4..12 commands: mean %.3f, worst %.3f", graphs,
                sum / graphs, worst);
}

/* Two independent chains, each a big producer and its consumer: the batch
 * order runs both producers first (both buffers live together); the
 * memory order finishes one chain before starting the other. */
Test(rg_order, interleaves_independent_chains)
{
    order_dag d = {.commands = 4, .buffers = 2, .size = {64u << 20, 64u << 20}};
    d.access_count[0] = d.access_count[1] = d.access_count[2] = d.access_count[3] = 1;
    d.buffer[0][0] = 0, d.write[0][0] = true;
    d.buffer[1][0] = 1, d.write[1][0] = true;
    d.buffer[2][0] = 0;
    d.buffer[3][0] = 1;
    cr_expect_eq(peak_of(&d, RG_ORDER_BATCHES), 128u << 20);
    cr_expect_eq(peak_of(&d, RG_ORDER_DECLARATION), 128u << 20);
    cr_expect_eq(peak_of(&d, RG_ORDER_MEMORY), 64u << 20);
}

Test(rg_order, bad_order_refused)
{
    rg_graph *g = NULL;
    cr_expect_eq(rg_graph_create(&(rg_graph_desc){.order = (rg_order)7}, &g), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(g);
}
