/* Memory-aware ordering (compile_schedule.c, compile_exact_order.c),
 * device-free: the default order's peak of live bytes is never above the
 * batch order's on random DAGs, never below the true optimum (found by
 * exhaustive search on small DAGs) and equal to it up to 20 nodes, strictly
 * lower where independent chains can be interleaved, on a tie the order
 * with fewer batches, and past the exact search's reach no better by any
 * single move. */
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

/* A random DAG of `commands` commands (into d) declared with the memory
 * order into a graph, asserted made; cmds gets its commands. */
static rg_graph *memory_order_graph(uint64_t *seed, uint32_t commands, order_dag *d, rg_command *cmds)
{
    order_dag_random(seed, commands, d);
    rg_graph *g = order_dag_graph(d, RG_ORDER_MEMORY, cmds);
    cr_assert_not_null(g);
    return g;
}

/* The same DAG's peak in the memory order (*mem) and the optimum
 * order_optimum finds for it (returned). */
static uint64_t memory_order_and_optimum(uint64_t *seed, uint32_t commands, order_dag *d, uint64_t *mem)
{
    rg_command cmds[ORDER_MAX_COMMANDS];
    rg_graph *g = memory_order_graph(seed, commands, d, cmds);
    *mem = order_peak(g, d);
    uint64_t best = order_optimum(g, cmds, d);
    rg_graph_destroy(g);
    return best;
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
        uint64_t mem, best = memory_order_and_optimum(&seed, 4 + (uint32_t)i % 9, &d, &mem);
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

/* Frames of up to 20 nodes are ordered exactly (compile_exact_order.c):
 * on random DAGs of 4 to 20 commands the memory order's peak is the
 * optimum order_optimum finds by its own search (every subset in an
 * array, live bytes recounted per step: no code shared). */
Test(rg_order, exact_up_to_twenty_nodes)
{
    uint64_t seed = 11;
    for (int i = 0; i < 64; i++) {
        order_dag d;
        uint64_t mem, best = memory_order_and_optimum(&seed, 4 + (uint32_t)i % 17, &d, &mem);
        cr_assert_neq(best, 0, "DAG %d: the independent search failed", i);
        cr_assert_eq(mem, best, "DAG %d (%u commands): memory order peak %llu, optimum %llu", i, d.commands,
                     (unsigned long long)mem, (unsigned long long)best);
    }
}

/* Twenty independent producer/consumer pairs would be 3^20 sets: past the
 * exact search's budget, the heuristics order it, still no worse than the
 * batch order and finishing each pair before starting the next. */
Test(rg_order, many_independent_chains_fall_back)
{
    order_dag d = {.commands = 20, .buffers = 10};
    for (uint32_t k = 0; k < 10; k++) {
        d.size[k] = 16u << 20;
        d.access_count[2 * k] = d.access_count[2 * k + 1] = 1;
        d.buffer[2 * k][0] = k, d.write[2 * k][0] = true;
        d.buffer[2 * k + 1][0] = k;
    }
    uint64_t mem = peak_of(&d, RG_ORDER_MEMORY), batch = peak_of(&d, RG_ORDER_BATCHES);
    cr_expect_leq(mem, batch);
    cr_expect_eq(mem, 16u << 20, "each pair finished before the next: one buffer live at a time");
}

static bool noop_record(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

/* Equal peaks, fewer queue changes (where a batch may have to end):
 * compute 'c' reads what compute 'a' and graphics 'b' wrote, so 'a' then
 * 'b' and 'b' then 'a' leave the same bytes live at 'c'; the order runs
 * 'b' first and the two compute commands side by side. */
static rg_graph *ties_graph(rg_order order)
{
    rg_device_caps caps = {.compute_queue = true};
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "ties", .caps = &caps, .order = order}, &g), RG_SUCCESS);
    rg_buffer a = rg_buffer_create(g, &(rg_buffer_desc){.name = "a", .size = 1024});
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){.name = "b", .size = 1024});
    rg_buffer c = rg_buffer_create(g, &(rg_buffer_desc){.name = "c", .size = 1024});
    rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "out", .size = 1024});
    const rg_usage W = RG_USAGE_STORAGE_WRITE_COMPUTE, R = RG_USAGE_STORAGE_READ_COMPUTE;
    rg_cmd_user(g, &(rg_user_desc){.name = "compute a", .record = noop_record, .queue = RG_QUEUE_COMPUTE,
                                   .access_count = 1, .accesses = &(rg_access){.buffer = a, .usage = W}});
    rg_cmd_user(g, &(rg_user_desc){.name = "graphics b", .record = noop_record, .access_count = 1,
                                   .accesses = &(rg_access){.buffer = b, .usage = W}});
    rg_cmd_user(g, &(rg_user_desc){.name = "compute c", .record = noop_record, .queue = RG_QUEUE_COMPUTE,
                                   .access_count = 3,
                                   .accesses = (rg_access[]){{.buffer = a, .usage = R}, {.buffer = b, .usage = R},
                                                             {.buffer = c, .usage = W}}});
    rg_cmd_user(g, &(rg_user_desc){.name = "gather", .record = noop_record, .access_count = 2,
                                   .accesses = (rg_access[]){{.buffer = c, .usage = R}, {.buffer = out, .usage = W}}});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

Test(rg_order, ties_go_to_fewer_queue_changes)
{
    rg_graph *g = ties_graph(RG_ORDER_MEMORY);
    const rg_command *order;
    cr_assert_eq(rg_execution_order(g, &order), 4);
    static const char *const want[] = {"graphics b", "compute a", "compute c", "gather"};
    for (uint32_t i = 0; i < 4; i++) {
        rg_command_info info;
        cr_assert_eq(rg_command_get_info(g, order[i], &info), RG_SUCCESS);
        cr_expect_str_eq(info.name, want[i], "position %u", i);
    }
    rg_graph_destroy(g);
}

/* The live bytes' peak of the commands of d in the order perm (positions
 * of d's commands), counted here from d: a buffer lives from its first
 * use to its last. */
static uint64_t order_peak_of(const order_dag *d, const uint32_t *perm)
{
    uint32_t first[ORDER_MAX_COMMANDS], last[ORDER_MAX_COMMANDS];
    for (uint32_t b = 0; b < d->buffers; b++)
        first[b] = UINT32_MAX, last[b] = 0;
    for (uint32_t p = 0; p < d->commands; p++)
        for (uint32_t k = 0; k < d->access_count[perm[p]]; k++) {
            uint32_t b = d->buffer[perm[p]][k];
            first[b] = p < first[b] ? p : first[b];
            last[b] = p > last[b] ? p : last[b];
        }
    uint64_t most = 0;
    for (uint32_t p = 0; p < d->commands; p++) {
        uint64_t live = 0;
        for (uint32_t b = 0; b < d->buffers; b++)
            live += first[b] <= p && p <= last[b] ? d->size[b] : 0;
        most = live > most ? live : most;
    }
    return most;
}

/* Past the exact search's reach (33 to 48 nodes), the order is the local
 * search's: no single command moved to another place its dependencies
 * allow lowers the peak (checked here against the DAG, move by move). */
Test(rg_order, past_the_exact_reach_no_single_move_lowers_the_peak)
{
    uint64_t seed = 23;
    for (int i = 0; i < 24; i++) {
        order_dag d;
        rg_command cmds[ORDER_MAX_COMMANDS];
        rg_graph *g = memory_order_graph(&seed, 33 + (uint32_t)i % 16, &d, cmds);
        const rg_command *order = NULL;
        uint32_t n = rg_execution_order(g, &order);
        cr_assert_eq(n, d.commands);
        uint32_t perm[ORDER_MAX_COMMANDS];
        for (uint32_t p = 0; p < n; p++)
            for (uint32_t c = 0; c < n; c++)
                if (order[p].id == cmds[c].id)
                    perm[p] = c;
        uint64_t now = order_peak_of(&d, perm);
        for (uint32_t from = 0; from < n; from++)
            for (uint32_t to = 0; to < n; to++) {
                if (to == from)
                    continue;
                /* The moved order, if the dependencies allow it. */
                uint32_t moved[ORDER_MAX_COMMANDS], v = perm[from], m = 0;
                bool valid = true;
                for (uint32_t p = 0; p < n; p++) {
                    if (p == from)
                        continue;
                    if (m == to)
                        moved[m++] = v;
                    moved[m++] = perm[p];
                }
                if (m == to)
                    moved[m++] = v;
                for (uint32_t p = 0; p < n && valid; p++)
                    for (uint32_t q = p + 1; q < n && valid; q++)
                        valid = !rg_happens_before(g, cmds[moved[q]], cmds[moved[p]]);
                if (!valid)
                    continue;
                uint64_t peak = order_peak_of(&d, moved);
                cr_assert_geq(peak, now, "DAG %d (%u commands): moving position %u to %u lowers the peak from %llu "
                              "to %llu", i, n, from, to, (unsigned long long)now, (unsigned long long)peak);
            }
        rg_graph_destroy(g);
    }
}
