/* Helpers of the device-free multi-queue tests (unit/test_rg_queues*.c):
 * graphs on both extra queues or none, commands eligible for a queue, a
 * command's queue and batch, the batches' waits checked against the
 * happens-before closure. */
#ifndef TEST_RG_QUEUES_UNIT_H
#define TEST_RG_QUEUES_UNIT_H

#include "rg_unit.h"

#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

#define SWC RG_USAGE_STORAGE_WRITE_COMPUTE

#define SMC RG_USAGE_SAMPLED_COMPUTE

#define SMF RG_USAGE_SAMPLED_FRAGMENT

/* Lives as long as the program: a graph may keep the pointer it was created with. */
extern const rg_device_caps queues_both_queues;

rg_graph *queues_queue_graph_ex(const rg_device_caps *caps, bool single_queue, rg_order order);

rg_graph *queues_queue_graph(const rg_device_caps *caps, bool single_queue);

/* A command outside spans, eligible for queue q. */
rg_command test_queued(rg_graph *g, const char *name, rg_queue q, const rg_access *a, uint32_t n);

#define test_async(g, name, ...) test_queued(g, name, RG_QUEUE_COMPUTE, ACC(__VA_ARGS__))

rg_command_info queues_cmd_info(const rg_graph *g, rg_command c);

rg_queue queues_queue_of(const rg_graph *g, rg_command c);
/* Each of the n commands c runs on q. */
void queues_expect_on(const rg_graph *g, const rg_command *c, uint32_t n, rg_queue q);

rg_batch_info queues_batch_at(const rg_graph *g, uint32_t i);

/* The batches and the order as text, for failure messages: per batch its
 * queue, positions and waits (queue:batch@stage), then each position's
 * command with its queue and batch. */
const char *queues_batches_text(const rg_graph *g);

/* Every barrier recorded before a command on the compute or transfer queue
 * names only stages that queue has (barriers are per queue: what another
 * queue did arrives through a semaphore wait). Barriers after the last
 * command are recorded in the last batch, on graphics. */
void queues_check_barrier_stages(const rg_graph *g, const char *what);

/* Which batches end before which start: before[i * n + j] when batch j
 * ends before batch i starts, through same-queue submission order and the
 * semaphore waits of i and of the earlier batches of i's queue (a wait
 * holds back everything later on its queue; a timeline value covers every
 * earlier batch of the queue that signals it), transitively. With
 * all_stages, only waits at ALL_COMMANDS count: what orders every later
 * command of the waiting queue, at any stage (the next frame's too). */
typedef struct batch_order {
    uint32_t n;
    rg_batch_info *b;
    bool *before;
} batch_order;

/* What every compiled graph's batches must satisfy (see rg_batch_info and
 * "Queues"): numbered in submission order, each wait on an earlier batch of
 * the queue it names at stages the waiting queue has, signals counting per
 * queue, a queue's batches in execution order, every command in the batch
 * of its queue that covers its position, each other queue's first batch
 * waiting for the frame before at every stage, and the last batch on
 * graphics after every other queue's work. */
void queues_check_batches(const rg_graph *g, const char *what);

/* For every a happens-before b on different queues, b's batch starts after
 * a's ends (waits, transitively); on one queue, b is in a's batch or a
 * later one. */
void queues_check_closure(const rg_graph *g, const char *what);

#endif
