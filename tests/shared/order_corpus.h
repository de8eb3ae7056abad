/* Frames for measuring how much memory an order needs (order_memory.c and
 * tests/unit/test_rg_order.c): random DAGs of compute commands over
 * buffers, declared into device-free graphs; the peak of an order as the
 * graph's own lower bound (rg_memory_totals.lower_bound: the most pooled
 * bytes live at one point) after an offline placement with the buffers'
 * exact sizes; and for small DAGs the least peak any valid order has,
 * found by dynamic programming over the sets of commands already run.
 */
#ifndef ORDER_CORPUS_H
#define ORDER_CORPUS_H

#include <rendergraph/rendergraph.h>

#include <stdbool.h>
#include <stdint.h>

#define ORDER_MAX_COMMANDS 64
#define ORDER_MAX_ACCESSES 4
#define ORDER_EXACT_MAX 20            /* commands the exhaustive search takes */

typedef struct order_dag {
    uint32_t commands, buffers;
    uint64_t size[ORDER_MAX_COMMANDS];            /* per buffer */
    uint32_t access_count[ORDER_MAX_COMMANDS];
    uint32_t buffer[ORDER_MAX_COMMANDS][ORDER_MAX_ACCESSES];
    bool write[ORDER_MAX_COMMANDS][ORDER_MAX_ACCESSES];
} order_dag;

/* A random DAG of `commands` commands (at most ORDER_MAX_COMMANDS): each
 * reads up to three buffers written before and writes one new buffer of
 * 1 to 64 MiB (some write none). *seed advances. */
void order_dag_random(uint64_t *seed, uint32_t commands, order_dag *out);

/* Declares d into a new device-free graph ordered by `order`, culling off,
 * and compiles it; NULL on failure. cmds receives the command handles. */
rg_graph *order_dag_graph(const order_dag *d, rg_order order, rg_command *cmds);

/* Places compiled g offline on one device-local memory type (a 1 TiB
 * heap): resource i of the first `count` takes sizes[i] bytes, any other
 * `alignment` bytes, each aligned to `alignment`. */
rg_result order_place(rg_graph *g, const uint64_t *sizes, uint32_t count, VkDeviceSize alignment);

/* The peak of g's order (order_place with d's sizes); 0 on failure. */
uint64_t order_peak(rg_graph *g, const order_dag *d);

/* The least peak over every order rg_happens_before allows in g (d at most
 * ORDER_EXACT_MAX commands); 0 on failure. */
uint64_t order_optimum(const rg_graph *g, const rg_command *cmds, const order_dag *d);

#endif
