/* Device-free graphs on several queues (rg_queues_unit.h). */
#include "rg_queues_unit.h"

#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>

const rg_device_caps queues_both_queues = {.compute_queue = true, .transfer_queue = true};

rg_graph *queues_queue_graph_ex(const rg_device_caps *caps, bool single_queue, rg_order order)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "queues", .no_culling = true, .caps = caps,
                                                  .single_queue = single_queue, .order = order},
                                 &g),
                 RG_SUCCESS);
    return g;
}

rg_graph *queues_queue_graph(const rg_device_caps *caps, bool single_queue)
{
    return queues_queue_graph_ex(caps, single_queue, RG_ORDER_MEMORY);
}

rg_command test_queued(rg_graph *g, const char *name, rg_queue q, const rg_access *a, uint32_t n)
{
    return rg_cmd_user(g, &(rg_user_desc){.name = name, .kind = RG_COMMAND_OUTSIDE, .accesses = a,
                                          .access_count = n, .record = test_noop, .queue = q});
}

rg_command_info queues_cmd_info(const rg_graph *g, rg_command c)
{
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, c, &info), RG_SUCCESS);
    return info;
}

rg_queue queues_queue_of(const rg_graph *g, rg_command c) { return queues_cmd_info(g, c).queue; }

void queues_expect_on(const rg_graph *g, const rg_command *c, uint32_t n, rg_queue q)
{
    for (uint32_t i = 0; i < n; i++) {
        rg_command_info info = queues_cmd_info(g, c[i]);
        cr_expect_eq(info.queue, q, "'%s' runs on %s, want %s", info.name, rg_queue_name(info.queue),
                     rg_queue_name(q));
    }
}

rg_batch_info queues_batch_at(const rg_graph *g, uint32_t i)
{
    rg_batch_info b;
    cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS, "batch %u of %u", i, rg_batch_count(g));
    return b;
}

const char *queues_batches_text(const rg_graph *g)
{
    static char text[8192];
    size_t len = 0;
#define PUT(...) len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, __VA_ARGS__)
    text[0] = '\0';
    for (uint32_t i = 0; i < rg_batch_count(g) && len < sizeof text; i++) {
        rg_batch_info b;
        if (rg_batch_get(g, i, &b) != RG_SUCCESS)
            break;
        PUT("\n  batch %u: %s %u..%u signal %llu waits", i, rg_queue_name(b.queue), b.first, b.last,
            (unsigned long long)b.signal);
        for (uint32_t k = 0; k < b.wait_count && k < RG_QUEUE_COUNT; k++)
            PUT(" %s:%d@0x%llx", rg_queue_name(b.waits[k].queue), (int)b.waits[k].batch,
                (unsigned long long)b.waits[k].stage);
    }
    const rg_command *order;
    uint32_t m = rg_execution_order(g, &order);
    for (uint32_t p = 0; p < m && len < sizeof text; p++) {
        rg_command_info info;
        if (rg_command_get_info(g, order[p], &info) == RG_SUCCESS)
            PUT("\n  %u '%s' %s batch %d", p, info.name, rg_queue_name(info.queue), (int)info.batch);
    }
#undef PUT
    return text;
}

/* --------------------------------------------------------------- stages */

/* The stages a queue of that kind supports (Vulkan's table of supported
 * pipeline stages; NONE is 0): a compute-only family dispatches (indirect
 * ones too) and transfers, a transfer-only family transfers; graphics has
 * all. */
static VkPipelineStageFlags2 queue_stages(rg_queue q)
{
    VkPipelineStageFlags2 any = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |
                                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT |
                                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT |
                                VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                                VK_PIPELINE_STAGE_2_BLIT_BIT;
    if (q == RG_QUEUE_COMPUTE)
        return any | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT;
    if (q == RG_QUEUE_TRANSFER)
        return any;
    return ~(VkPipelineStageFlags2)0;
}

void queues_check_barrier_stages(const rg_graph *g, const char *what)
{
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        if (b->before.id == 0)
            continue;
        rg_command_info info = queues_cmd_info(g, b->before);
        VkPipelineStageFlags2 ok = queue_stages(info.queue);
        cr_assert((b->src_stage & ~ok) == 0 && (b->dst_stage & ~ok) == 0,
                  "%s: barrier %u before '%s' on the %s queue: stages 0x%llx -> 0x%llx, that queue lacks 0x%llx", what,
                  i, info.name, rg_queue_name(info.queue), (unsigned long long)b->src_stage,
                  (unsigned long long)b->dst_stage, (unsigned long long)((b->src_stage | b->dst_stage) & ~ok));
    }
}

/* -------------------------------------------------------------- batches */

static void order_merge(batch_order *o, uint32_t i, uint32_t j)
{
    bool *row = &o->before[(size_t)i * o->n];
    row[j] = true;
    for (uint32_t t = 0; t < o->n; t++)
        row[t] = row[t] || o->before[(size_t)j * o->n + t];
}

static batch_order batch_order_of(const rg_graph *g, bool all_stages)
{
    batch_order o = {.n = rg_batch_count(g)};
    o.b = calloc(o.n + 1, sizeof *o.b);
    o.before = calloc((size_t)o.n * o.n + 1, sizeof *o.before);
    cr_assert(o.b && o.before);
    for (uint32_t i = 0; i < o.n; i++)
        o.b[i] = queues_batch_at(g, i);
    for (uint32_t i = 0; i < o.n; i++) {
        for (uint32_t j = 0; j < i; j++)
            if (o.b[j].queue == o.b[i].queue)
                order_merge(&o, i, j);
        for (uint32_t k = 0; k < o.b[i].wait_count && k < RG_QUEUE_COUNT; k++)
            if (o.b[i].waits[k].batch < i &&
                (!all_stages || (o.b[i].waits[k].stage & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)))
                order_merge(&o, i, o.b[i].waits[k].batch);
    }
    return o;
}

static bool batch_reaches(const batch_order *o, uint32_t from, uint32_t to)
{
    return from < o->n && to < o->n && o->before[(size_t)to * o->n + from];
}

static void batch_order_free(batch_order *o)
{
    free(o->b);
    free(o->before);
}

void queues_check_batches(const rg_graph *g, const char *what)
{
    const rg_command *order;
    uint32_t m = rg_execution_order(g, &order);
    batch_order o = batch_order_of(g, false), full = batch_order_of(g, true);
    cr_assert_geq(o.n, 1, "%s: no batch", what);
    uint64_t signals[RG_QUEUE_COUNT] = {0};
    uint32_t end[RG_QUEUE_COUNT], first[RG_QUEUE_COUNT], last[RG_QUEUE_COUNT];
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++)
        end[q] = first[q] = last[q] = RG_INDEX_NONE;
    for (uint32_t i = 0; i < o.n; i++) {
        const rg_batch_info *b = &o.b[i];
        cr_assert_lt((uint32_t)b->queue, RG_QUEUE_COUNT, "%s: batch %u", what, i);
        uint64_t want = ++signals[b->queue];
        cr_assert_eq(b->signal, want, "%s: batch %u signals %llu, its queue's batch %llu", what, i,
                     (unsigned long long)b->signal, (unsigned long long)want);
        if (first[b->queue] == RG_INDEX_NONE)
            first[b->queue] = i;
        last[b->queue] = i;
        if (b->first <= b->last) {
            cr_assert_lt(b->last, m, "%s: batch %u ends at %u of %u", what, i, b->last, m);
            cr_assert(end[b->queue] == RG_INDEX_NONE || b->first > end[b->queue],
                      "%s: batch %u starts at %u, its queue's batch before ends at %u", what, i, b->first,
                      end[b->queue]);
            end[b->queue] = b->last;
        } else {
            /* Command-less: the frame's end, or its opening graphics batch
             * (history clears before another queue's reads). */
            cr_assert(i == o.n - 1 || (i == 0 && b->queue == RG_QUEUE_GRAPHICS && b->wait_count == 0),
                      "%s: batch %u has no commands and is neither the first nor the last", what, i);
        }
        cr_assert_leq(b->wait_count, RG_QUEUE_COUNT, "%s: batch %u", what, i);
        for (uint32_t k = 0; k < b->wait_count; k++) {
            const rg_batch_wait *w = &b->waits[k];
            cr_assert_lt((uint32_t)w->queue, RG_QUEUE_COUNT, "%s: batch %u wait %u", what, i, k);
            cr_assert_neq(w->stage, 0, "%s: batch %u waits at no stage", what, i);
            cr_assert((w->stage & ~queue_stages(b->queue)) == 0,
                      "%s: batch %u on the %s queue waits at stages 0x%llx it lacks", what, i,
                      rg_queue_name(b->queue), (unsigned long long)w->stage);
            if (w->batch == RG_INDEX_NONE)
                continue;
            cr_assert_lt(w->batch, i, "%s: batch %u waits for batch %u, not an earlier one", what, i, w->batch);
            cr_assert_eq(o.b[w->batch].queue, w->queue, "%s: batch %u waits the %s queue at batch %u of the %s queue",
                         what, i, rg_queue_name(w->queue), w->batch, rg_queue_name(o.b[w->batch].queue));
        }
    }
    /* Each other queue's first batch waits for the graphics queue's last of
     * the frame before at every stage (a wait on a later graphics value
     * covers that value too). */
    for (uint32_t q = RG_QUEUE_GRAPHICS + 1; q < RG_QUEUE_COUNT; q++) {
        if (first[q] == RG_INDEX_NONE)
            continue;
        const rg_batch_info *b = &o.b[first[q]];
        bool frame_before = false;
        for (uint32_t k = 0; k < b->wait_count; k++)
            frame_before = frame_before || (b->waits[k].queue == RG_QUEUE_GRAPHICS &&
                                            (b->waits[k].stage & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT));
        cr_assert(frame_before, "%s: the %s queue's first batch (%u) does not wait for the frame before on graphics "
                  "at ALL_COMMANDS", what, rg_queue_name((rg_queue)q), first[q]);
    }
    const rg_batch_info *final = &o.b[o.n - 1];
    cr_assert_eq(final->queue, RG_QUEUE_GRAPHICS, "%s: the last batch is on the %s queue", what,
                 rg_queue_name(final->queue));
    /* ... and after every other queue's last batch at every stage, so the
     * frame's fence and the next frame's graphics work cover it. */
    for (uint32_t q = RG_QUEUE_GRAPHICS + 1; q < RG_QUEUE_COUNT; q++)
        cr_assert(last[q] == RG_INDEX_NONE || batch_reaches(&full, last[q], o.n - 1),
                  "%s: the last batch (%u) does not wait for the %s queue's last (%u) at ALL_COMMANDS:%s", what,
                  o.n - 1, rg_queue_name((rg_queue)q), last[q], queues_batches_text(g));
    for (uint32_t p = 0; p < m; p++) {
        rg_command_info info = queues_cmd_info(g, order[p]);
        cr_assert_not(info.culled, "%s: '%s' culled yet in the order", what, info.name);
        cr_assert_lt(info.batch, o.n, "%s: '%s' at %u has batch %u of %u", what, info.name, p, info.batch, o.n);
        const rg_batch_info *b = &o.b[info.batch];
        cr_assert_eq(b->queue, info.queue, "%s: '%s' runs on the %s queue, its batch %u on the %s queue", what,
                     info.name, rg_queue_name(info.queue), info.batch, rg_queue_name(b->queue));
        cr_assert(b->first <= p && p <= b->last, "%s: '%s' at %u, its batch %u covers %u..%u", what, info.name, p,
                  info.batch, b->first, b->last);
    }
    if (o.n == 1) {
        cr_assert_eq(o.b[0].first, 0, "%s", what);
        cr_assert_eq(o.b[0].last, m - 1, "%s", what);
        cr_assert_eq(o.b[0].wait_count, 0, "%s: one batch waits for nothing", what);
    }
    batch_order_free(&o);
    batch_order_free(&full);
}

void queues_check_closure(const rg_graph *g, const char *what)
{
    const rg_command *order;
    uint32_t m = rg_execution_order(g, &order);
    batch_order o = batch_order_of(g, false);
    rg_command_info *info = calloc(m + 1, sizeof *info);
    cr_assert_not_null(info);
    for (uint32_t p = 0; p < m; p++)
        info[p] = queues_cmd_info(g, order[p]);
    for (uint32_t i = 0; i < m; i++)
        for (uint32_t j = 0; j < m; j++) {
            if (i == j || !rg_happens_before(g, order[i], order[j]))
                continue;
            if (info[i].queue == info[j].queue)
                cr_assert_leq(info[i].batch, info[j].batch, "%s: '%s' before '%s' on one queue, batches %u > %u",
                              what, info[i].name, info[j].name, info[i].batch, info[j].batch);
            else
                cr_assert(batch_reaches(&o, info[i].batch, info[j].batch),
                          "%s: '%s' (%s, batch %u) happens-before '%s' (%s, batch %u), but no wait orders the "
                          "batches", what, info[i].name, rg_queue_name(info[i].queue), info[i].batch, info[j].name,
                          rg_queue_name(info[j].queue), info[j].batch);
        }
    free(info);
    batch_order_free(&o);
}
