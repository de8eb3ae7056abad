/* Multi-queue compile, device-free (see "Queues" in rendergraph.h): which
 * commands move to the compute and transfer queues and which stay on the
 * graphics queue (and are noted), the declaration errors of queue
 * eligibility, the batches and their semaphore waits against the
 * happens-before closure, the stages of barriers recorded on the other
 * queues, and that placement never lets resources of queues nothing orders
 * share bytes (random frames placed offline over one memory type). */
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>

#define SWC RG_USAGE_STORAGE_WRITE_COMPUTE
#define SRC RG_USAGE_STORAGE_READ_COMPUTE
#define SMC RG_USAGE_SAMPLED_COMPUTE
#define SMF RG_USAGE_SAMPLED_FRAGMENT

/* Static: a graph may keep the pointer it was created with. */
static const rg_device_caps both_queues = {.compute_queue = true, .transfer_queue = true};
static const rg_device_caps no_queues = {.compute_queue = false};

static rg_graph *queue_graph_ex(const rg_device_caps *caps, bool single_queue, rg_order order)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "queues", .no_culling = true, .caps = caps,
                                                  .single_queue = single_queue, .order = order},
                                 &g),
                 RG_SUCCESS);
    return g;
}

static rg_graph *queue_graph(const rg_device_caps *caps, bool single_queue)
{
    return queue_graph_ex(caps, single_queue, RG_ORDER_MEMORY);
}

/* A command outside spans, eligible for queue q. */
static rg_command test_queued(rg_graph *g, const char *name, rg_queue q, const rg_access *a, uint32_t n)
{
    return rg_cmd_user(g, &(rg_user_desc){.name = name, .kind = RG_COMMAND_OUTSIDE, .accesses = a,
                                          .access_count = n, .record = test_noop, .queue = q});
}

#define test_async(g, name, ...) test_queued(g, name, RG_QUEUE_COMPUTE, ACC(__VA_ARGS__))

static rg_command_info cmd_info(const rg_graph *g, rg_command c)
{
    rg_command_info info;
    cr_assert_eq(rg_command_get_info(g, c, &info), RG_SUCCESS);
    return info;
}

static rg_queue queue_of(const rg_graph *g, rg_command c) { return cmd_info(g, c).queue; }
static uint32_t batch_of(const rg_graph *g, rg_command c) { return cmd_info(g, c).batch; }

static rg_batch_info batch_at(const rg_graph *g, uint32_t i)
{
    rg_batch_info b;
    cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS, "batch %u of %u", i, rg_batch_count(g));
    return b;
}

/* The batches and the order as text, for failure messages: per batch its
 * queue, positions and waits (queue:batch@stage), then each position's
 * command with its queue and batch. */
static const char *batches_text(const rg_graph *g)
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

/* Batch b's wait on queue q within the frame (a batch index, not the frame
 * before), or NULL. */
static const rg_batch_wait *wait_on(const rg_batch_info *b, rg_queue q)
{
    for (uint32_t i = 0; i < b->wait_count && i < RG_QUEUE_COUNT; i++)
        if (b->waits[i].queue == q && b->waits[i].batch != RG_INDEX_NONE)
            return &b->waits[i];
    return NULL;
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

/* Whether a semaphore wait at `wait` orders work at every stage of
 * `stages`: the meta stages expanded to what they stand for; TOP_OF_PIPE
 * (and NONE) as a barrier's source waits for nothing. */
static bool stage_covers(VkPipelineStageFlags2 wait, VkPipelineStageFlags2 stages)
{
    if (wait & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        return true;
    if (wait & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT)
        wait |= VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT |
                VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    if (wait & VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT)
        wait |= VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT;
    if (wait & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
        wait |= VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT |
                VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT;
    if (wait & VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT)
        wait |= VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT |
                VK_PIPELINE_STAGE_2_BLIT_BIT;
    stages &= ~VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT;
    return (stages & ~wait) == 0;
}

/* Every barrier recorded before a command on the compute or transfer queue
 * names only stages that queue has (barriers are per queue: what another
 * queue did arrives through a semaphore wait). Barriers after the last
 * command are recorded in the last batch, on graphics. */
static void check_barrier_stages(const rg_graph *g, const char *what)
{
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        if (b->before.id == 0)
            continue;
        rg_command_info info = cmd_info(g, b->before);
        VkPipelineStageFlags2 ok = queue_stages(info.queue);
        cr_assert((b->src_stage & ~ok) == 0 && (b->dst_stage & ~ok) == 0,
                  "%s: barrier %u before '%s' on the %s queue: stages 0x%llx -> 0x%llx, that queue lacks 0x%llx", what,
                  i, info.name, rg_queue_name(info.queue), (unsigned long long)b->src_stage,
                  (unsigned long long)b->dst_stage, (unsigned long long)((b->src_stage | b->dst_stage) & ~ok));
    }
}

/* -------------------------------------------------------------- batches */

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
        o.b[i] = batch_at(g, i);
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

/* What every compiled graph's batches must satisfy (see rg_batch_info and
 * "Queues"): numbered in submission order, each wait on an earlier batch of
 * the queue it names at stages the waiting queue has, signals counting per
 * queue, a queue's batches in execution order, every command in the batch
 * of its queue that covers its position, each other queue's first batch
 * waiting for the frame before at every stage, and the last batch on
 * graphics after every other queue's work. */
static void check_batches(const rg_graph *g, const char *what)
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
                  o.n - 1, rg_queue_name((rg_queue)q), last[q], batches_text(g));
    for (uint32_t p = 0; p < m; p++) {
        rg_command_info info = cmd_info(g, order[p]);
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

/* For every a happens-before b on different queues, b's batch starts after
 * a's ends (waits, transitively); on one queue, b is in a's batch or a
 * later one. */
static void check_closure(const rg_graph *g, const char *what)
{
    const rg_command *order;
    uint32_t m = rg_execution_order(g, &order);
    batch_order o = batch_order_of(g, false);
    rg_command_info *info = calloc(m + 1, sizeof *info);
    cr_assert_not_null(info);
    for (uint32_t p = 0; p < m; p++)
        info[p] = cmd_info(g, order[p]);
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

/* ------------------------------------------------------------ assignment */

Test(rg_queues, queue_names)
{
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_GRAPHICS), "graphics");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_COMPUTE), "compute");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_TRANSFER), "transfer");
    cr_expect_str_eq(rg_queue_name(RG_QUEUE_COUNT), "?");
}

/* With both queues: a dispatch marked for compute (compute-shader,
 * indirect and transfer accesses) runs there, copies and color clears
 * allowed onto compute run there, copies and a transfer-only user command
 * allowed onto transfer run there; nothing is noted. */
Test(rg_queues, eligible_commands_move_to_their_queues)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_texture lit = test_color(g, "lit"), mask = test_color(g, "mask");
    rg_buffer args = test_buf(g, "args"), params = test_buf(g, "params"), counts = test_buf(g, "counts");
    rg_buffer staging = test_buf(g, "staging"), vertices = test_buf(g, "vertices");
    rg_buffer pixels = rg_buffer_create(g, &(rg_buffer_desc){.name = "pixels", .size = 64 * 64 * 4});
    /* The copies' sources, written first (as an upload would). */
    test_queued(g, "fill", RG_QUEUE_TRANSFER, ACC(BUF(staging, RG_USAGE_TRANSFER_DST)));
    test_queued(g, "fill pixels", RG_QUEUE_TRANSFER, ACC(BUF(pixels, RG_USAGE_TRANSFER_DST)));
    rg_command scene = test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command blur = test_async(g, "blur", TEX(lit, SMC), TEX(mask, SWC));
    rg_command cull = test_async(g, "cull", BUF_UNDEF(args, RG_USAGE_INDIRECT_BUFFER),
                                 BUF_UNDEF(params, RG_USAGE_UNIFORM_COMPUTE), BUF(counts, RG_USAGE_TRANSFER_DST));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, vertices, 0, 128);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    rg_command copy_c = rg_cmd_copy_buffer(g, vertices, 0, staging, 128, 64);
    rg_command_allow_queue(g, copy_c, RG_QUEUE_COMPUTE);
    rg_command clear = rg_cmd_clear_texture(g, test_color(g, "cleared"), NULL,
                                            &(VkClearValue){.color = {.float32 = {0, 0, 0, 0}}});
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    rg_command upload = test_queued(g, "upload", RG_QUEUE_TRANSFER,
                                    ACC(BUF_UNDEF(test_buf(g, "src"), RG_USAGE_TRANSFER_SRC),
                                        BUF(test_buf(g, "dst"), RG_USAGE_TRANSFER_DST)));
    rg_command to_tex = rg_cmd_copy_buffer_to_texture(g, pixels, 0, test_color(g, "uploaded"), 0, 0, 1);
    rg_command_allow_queue(g, to_tex, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queue_of(g, scene), RG_QUEUE_GRAPHICS);
    cr_expect_eq(queue_of(g, blur), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, cull), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, copy), RG_QUEUE_TRANSFER);
    cr_expect_eq(queue_of(g, copy_c), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, clear), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, upload), RG_QUEUE_TRANSFER);
    cr_expect_eq(queue_of(g, to_tex), RG_QUEUE_TRANSFER);
    cr_expect_eq(rg_queue_note_count(g), 0, "nothing stayed behind");
    cr_expect_gt(rg_batch_count(g), 1);
    check_batches(g, "eligible");
    check_closure(g, "eligible");
    check_barrier_stages(g, "eligible");
    rg_graph_destroy(g);
}

/* The eligible commands of one frame: a compute dispatch, a transfer copy,
 * a compute dispatch that touches an import. */
static void declare_eligible(rg_graph *g, rg_command c[4])
{
    rg_texture lit = test_color(g, "lit"), blurred = test_color(g, "blurred");
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 256});
    rg_buffer a = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "a", .size = 256}), b = test_buf(g, "b");
    c[0] = test_begin(g, "scene", lit);
    rg_end_rendering(g);
    c[1] = test_async(g, "blur", TEX(lit, SMC), TEX(blurred, SWC));
    c[2] = rg_cmd_copy_buffer(g, a, 0, b, 0, 64);
    rg_command_allow_queue(g, c[2], RG_QUEUE_TRANSFER);
    c[3] = test_async(g, "reduce", TEX(blurred, SMC), BUF(readback, SWC));
}

/* Without the device's queue, with single_queue, or without a device,
 * everything runs on graphics in one batch and nothing is noted. */
Test(rg_queues, one_queue_without_the_queue_or_with_single_queue)
{
    struct {
        const char *what;
        const rg_device_caps *caps;
        bool single;
    } cases[] = {
        {"caps without queues", &no_queues, false},
        {"single_queue", &both_queues, true},
        {"no device", NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rg_graph *g = queue_graph(cases[i].caps, cases[i].single);
        rg_command c[4];
        declare_eligible(g, c);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", cases[i].what, rg_graph_error_message(g));
        for (int k = 0; k < 4; k++)
            cr_expect_eq(queue_of(g, c[k]), RG_QUEUE_GRAPHICS, "%s: command %d on %s", cases[i].what, k,
                         rg_queue_name(queue_of(g, c[k])));
        cr_expect_eq(rg_queue_note_count(g), 0, "%s: notes only where the queue exists", cases[i].what);
        cr_expect_eq(rg_batch_count(g), 1, "%s", cases[i].what);
        check_batches(g, cases[i].what);
        rg_graph_destroy(g);
    }
}

/* A device with a compute queue but no transfer queue: a copy allowed only
 * onto transfer does not run on a transfer queue. */
Test(rg_queues, transfer_eligible_copy_without_a_transfer_queue)
{
    static const rg_device_caps compute_only = {.compute_queue = true};
    rg_graph *g = queue_graph(&compute_only, false);
    rg_command c[4];
    declare_eligible(g, c);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_neq(queue_of(g, c[2]), RG_QUEUE_TRANSFER);
    cr_expect_eq(queue_of(g, c[1]), RG_QUEUE_COMPUTE);
    check_batches(g, "compute only");
    rg_graph_destroy(g);
}

static const rg_queue_note *find_note(const rg_graph *g, rg_command c, rg_queue_note *out)
{
    for (uint32_t i = 0; i < rg_queue_note_count(g); i++) {
        cr_assert_eq(rg_queue_note_get(g, i, out), RG_SUCCESS);
        if (out->command.id == c.id)
            return out;
    }
    return NULL;
}

static void expect_note(const rg_graph *g, rg_command c, rg_queue eligible, const char *resource)
{
    rg_queue_note note;
    const char *name = cmd_info(g, c).name;
    cr_expect_eq(queue_of(g, c), RG_QUEUE_GRAPHICS, "'%s' stays on graphics", name);
    if (!find_note(g, c, &note)) {
        cr_expect_fail("no queue note for '%s'", name);
        return;
    }
    cr_expect_eq(note.eligible, eligible, "'%s' noted as eligible for %s", name, rg_queue_name(note.eligible));
    cr_expect(note.reason && strstr(note.reason, resource), "'%s': reason '%s' does not name '%s'", name,
              note.reason ? note.reason : "(null)", resource);
}

/* An eligible command touching an import (texture or buffer) stays on
 * graphics (its state before and after the frame lives there), and a note
 * names the resource; an eligible command next to it moves, and so do the
 * commands reading and writing a history texture. */
Test(rg_queues, imports_stay_on_graphics_with_a_note)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_texture lit = test_color(g, "lit"), resolved = test_color(g, "resolved"), blurred = test_color(g, "blurred");
    rg_texture env_map = rg_texture_import(g, &(rg_texture_import_desc){
                                                  .name = "env map", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                  .height = 64,
                                                  .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                                  .final_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 256});
    rg_buffer staging = test_buf(g, "staging");
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "taa_accum", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .width = 64, .height = 64},
        &previous);
    test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command blur = test_async(g, "blur", TEX(lit, SMC), TEX(blurred, SWC));
    rg_command sky = test_async(g, "sky", TEX(env_map, SMC), TEX(lit, SWC));
    rg_command resolve = test_async(g, "resolve", TEX(previous, SMC), TEX(resolved, SWC));
    rg_command accumulate = test_async(g, "accumulate", TEX(resolved, SMC), TEX(current, SWC));
    rg_command reduce = test_async(g, "reduce", TEX(blurred, SMC), BUF(staging, SWC));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, readback, 0, 256);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queue_of(g, blur), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, reduce), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, resolve), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, accumulate), RG_QUEUE_COMPUTE);
    expect_note(g, sky, RG_QUEUE_COMPUTE, "env map");
    expect_note(g, copy, RG_QUEUE_TRANSFER, "readback");
    cr_expect_eq(rg_queue_note_count(g), 2);
    rg_queue_note note;
    cr_expect_neq(rg_queue_note_get(g, rg_queue_note_count(g), &note), RG_SUCCESS, "past the last note");
    check_batches(g, "notes");
    check_closure(g, "notes");
    check_barrier_stages(g, "notes");
    rg_graph_destroy(g);
}

/* A history texture on the compute queue: the frame opens with a graphics
 * batch of no commands (the first frame's history clears), which the
 * compute queue's first batch waits for at every stage instead of the
 * frame before's last graphics batch. Without a read of previous on
 * another queue there is no such batch. */
Test(rg_queues, history_on_compute_opens_the_frame)
{
    for (int read = 0; read < 2; read++) {
        rg_graph *g = queue_graph(&both_queues, false);
        rg_texture lit = test_color(g, "lit"), out = test_color(g, "out");
        rg_texture previous;
        rg_texture current = rg_texture_create_history(
            g, &(rg_texture_desc){.name = "accum", .format = VK_FORMAT_R16G16B16A16_SFLOAT, .width = 64, .height = 64},
            &previous);
        test_begin(g, "scene", lit);
        rg_end_rendering(g);
        test_queued(g, "tonemap", RG_QUEUE_GRAPHICS, ACC(TEX(lit, SMC), TEX(out, SWC)));
        /* Nothing of this frame's graphics work needed: the wait is the
         * frame's first one. */
        rg_command temporal = read ? test_async(g, "temporal", TEX(previous, SMC), TEX(current, SWC))
                                   : test_async(g, "temporal", TEX(current, SWC));
        test_queued(g, "show", RG_QUEUE_GRAPHICS, ACC(TEX(current, SMC), TEX(out, RG_USAGE_STORAGE_READ_COMPUTE)));
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_eq(queue_of(g, temporal), RG_QUEUE_COMPUTE);
        cr_expect_eq(rg_queue_note_count(g), 0);
        rg_batch_info first, async;
        cr_assert_eq(rg_batch_get(g, 0, &first), RG_SUCCESS);
        cr_assert_eq(rg_batch_get(g, cmd_info(g, temporal).batch, &async), RG_SUCCESS);
        const rg_batch_wait *gw = NULL;
        for (uint32_t k = 0; k < async.wait_count; k++)
            if (async.waits[k].queue == RG_QUEUE_GRAPHICS)
                gw = &async.waits[k];
        cr_assert_not_null(gw, "read %d: the compute batch does not wait for graphics", read);
        if (read) {
            cr_expect(first.queue == RG_QUEUE_GRAPHICS && first.first == RG_INDEX_NONE && first.wait_count == 0,
                      "the frame does not open with a command-less graphics batch:%s", batches_text(g));
            cr_expect_eq(gw->batch, 0, "the compute batch waits for graphics batch %u", gw->batch);
            cr_expect(gw->stage & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        } else {
            cr_expect_neq(first.first, RG_INDEX_NONE, "an opening batch without a read of previous:%s",
                          batches_text(g));
        }
        check_batches(g, read ? "history read on compute" : "history written on compute");
        check_closure(g, "history on compute");
        check_barrier_stages(g, "history on compute");
        rg_graph_destroy(g);
    }
}

/* rg_command_allow_queue(..., RG_QUEUE_GRAPHICS) makes a command
 * graphics-only again. */
Test(rg_queues, allow_graphics_makes_a_command_graphics_only_again)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_buffer a = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "a", .size = 256});
    rg_command copy = rg_cmd_copy_buffer(g, a, 0, test_buf(g, "b"), 0, 64);
    rg_command_allow_queue(g, copy, RG_QUEUE_COMPUTE);
    rg_command_allow_queue(g, copy, RG_QUEUE_GRAPHICS);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queue_of(g, copy), RG_QUEUE_GRAPHICS);
    cr_expect_eq(rg_queue_note_count(g), 0);
    cr_expect_eq(rg_batch_count(g), 1);
    rg_graph_destroy(g);
}

/* --------------------------------------------------------------- errors */

/* A user command marked for queue q with one access of usage u: a
 * declaration error naming the command and the resource. */
static void expect_usage_refused(rg_queue q, rg_usage u, bool texture)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_access a = texture ? TEX(test_color(g, "albedo"), u) : BUF(test_buf(g, "albedo"), u);
    rg_access ok = BUF(test_buf(g, "fine"), q == RG_QUEUE_TRANSFER ? RG_USAGE_TRANSFER_DST : SWC);
    test_queued(g, "shade", q, ACC(ok, a));
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "shade");
    cr_expect(strstr(rg_graph_error_message(g), "albedo") != NULL, "%s on %s: '%s' does not name the resource",
              rg_usage_get_info(u)->name, rg_queue_name(q), rg_graph_error_message(g));
    rg_graph_destroy(g);
}

Test(rg_queues, compute_queue_with_a_graphics_usage_is_an_error)
{
    expect_usage_refused(RG_QUEUE_COMPUTE, SMF, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_STORAGE_WRITE_FRAGMENT, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_COLOR_ATTACHMENT, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_VERTEX_BUFFER, false);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_UNIFORM_VERTEX, false);
}

Test(rg_queues, transfer_queue_with_a_shader_usage_is_an_error)
{
    expect_usage_refused(RG_QUEUE_TRANSFER, SMC, true);
    expect_usage_refused(RG_QUEUE_TRANSFER, SWC, false);
    expect_usage_refused(RG_QUEUE_TRANSFER, RG_USAGE_INDIRECT_BUFFER, false);
}

Test(rg_queues, draw_with_a_queue_is_an_error)
{
    rg_graph *g = queue_graph(&both_queues, false);
    test_begin(g, "pass", test_color(g, "color"));
    rg_cmd_user(g, &(rg_user_desc){.name = "queued draw", .kind = RG_COMMAND_DRAW, .record = test_noop,
                                   .queue = RG_QUEUE_COMPUTE});
    rg_end_rendering(g);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "queued draw");
    rg_graph_destroy(g);
}

Test(rg_queues, allow_queue_on_a_blit_is_an_error)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_command blit = rg_cmd_blit(g, test_color(g, "src"), 0, test_color(g, "dst"), 0, VK_FILTER_LINEAR);
    rg_command_allow_queue(g, blit, RG_QUEUE_COMPUTE);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "blit");
    rg_graph_destroy(g);
}

Test(rg_queues, allow_queue_on_a_depth_clear_is_an_error)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_command clear = rg_cmd_clear_texture(g, test_tex(g, "depth", VK_FORMAT_D32_SFLOAT), NULL,
                                            &(VkClearValue){.depthStencil = {1.0f, 0}});
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "clear_texture");
    rg_graph_destroy(g);
}

/* Buffer/texture copies of a depth texture need a graphics queue; on the
 * transfer queue a copy needs a buffer offset that is a multiple of 4
 * (compute takes any). */
Test(rg_queues, queue_rules_of_texture_copies)
{
    for (rg_queue q = RG_QUEUE_COMPUTE; q <= RG_QUEUE_TRANSFER; q++) {
        rg_graph *g = queue_graph(&both_queues, false);
        rg_buffer out = rg_buffer_create(g, &(rg_buffer_desc){.name = "out", .size = 1u << 20});
        rg_command copy = rg_cmd_copy_texture_to_buffer(g, test_tex(g, "depth", VK_FORMAT_D32_SFLOAT), 0, 0, 1, out, 0);
        rg_command_allow_queue(g, copy, q);
        test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "copy_texture_to_buffer");
        cr_expect(strstr(rg_graph_error_message(g), "depth/stencil") != NULL, "%s", rg_graph_error_message(g));
        rg_graph_destroy(g);
    }
    for (rg_queue q = RG_QUEUE_COMPUTE; q <= RG_QUEUE_TRANSFER; q++) {
        rg_graph *g = queue_graph(&both_queues, false);
        rg_buffer in = rg_buffer_create(g, &(rg_buffer_desc){.name = "in", .size = 1u << 20});
        test_queued(g, "fill", q, ACC(BUF(in, RG_USAGE_TRANSFER_DST)));
        rg_command copy = rg_cmd_copy_buffer_to_texture(g, in, 2, test_tex(g, "mask", VK_FORMAT_R8_UNORM), 0, 0, 1);
        rg_command_allow_queue(g, copy, q);
        if (q == RG_QUEUE_TRANSFER) {
            test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "copy_buffer_to_texture");
            cr_expect(strstr(rg_graph_error_message(g), "multiples of 4") != NULL, "%s", rg_graph_error_message(g));
        } else {
            cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
            cr_expect_eq(queue_of(g, copy), RG_QUEUE_COMPUTE);
        }
        rg_graph_destroy(g);
    }
}

Test(rg_queues, transfer_queue_for_a_clear_is_an_error)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_command clear = rg_cmd_clear_texture(g, test_color(g, "color"), NULL,
                                            &(VkClearValue){.color = {.float32 = {0, 0, 0, 0}}});
    rg_command_allow_queue(g, clear, RG_QUEUE_TRANSFER);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "clear_texture");
    rg_graph_destroy(g);
}

Test(rg_queues, allow_queue_on_a_span_is_an_error)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_command begin = test_begin(g, "pass", test_color(g, "color"));
    rg_end_rendering(g);
    rg_command_allow_queue(g, begin, RG_QUEUE_COMPUTE);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "pass");
    rg_graph_destroy(g);
}

/* -------------------------------------------------------------- batches */

/* scene (graphics span) renders lit; blur (compute) samples lit and
 * writes blurred; ui (graphics span) renders hud, independent of both;
 * the consumer samples blurred: a span compose (fragment shader) or a
 * graphics-queue dispatch tonemap (compute shader). */
typedef struct chain {
    rg_command scene, blur, ui, consumer, consumer_draw;
    rg_texture lit, blurred;
} chain;

static void declare_chain(rg_graph *g, chain *c, bool span_consumer)
{
    c->lit = test_color(g, "lit");
    c->blurred = test_color(g, "blurred");
    rg_texture hud = test_color(g, "hud"), out = test_color(g, "out");
    c->scene = test_begin(g, "scene", c->lit);
    rg_end_rendering(g);
    c->blur = test_async(g, "blur", TEX(c->lit, SMC), TEX(c->blurred, SWC));
    c->ui = test_begin(g, "ui", hud);
    rg_end_rendering(g);
    if (span_consumer) {
        c->consumer = test_begin(g, "compose", out);
        c->consumer_draw = test_draw(g, "composite", TEX(c->blurred, SMF));
        rg_end_rendering(g);
    } else {
        c->consumer = c->consumer_draw = test_outside(g, "tonemap", TEX(c->blurred, SMC), TEX(out, SWC));
    }
}

/* The batches of a chain: scene's on graphics, blur's on compute waiting
 * for it, the consumer's on graphics waiting for blur at the stage the
 * consumer reads in and starting at the consumer (the cut is there), so
 * graphics work placed before the consumer is not held back with it. */
static void check_chain(rg_order order, bool span_consumer, VkPipelineStageFlags2 read_stage)
{
    char what[96];
    snprintf(what, sizeof what, "chain, %s order, %s consumer", order == RG_ORDER_MEMORY ? "memory" : "declaration",
             span_consumer ? "span" : "dispatch");
    rg_graph *g = queue_graph_ex(&both_queues, false, order);
    chain c;
    declare_chain(g, &c, span_consumer);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", what, rg_graph_error_message(g));
    check_batches(g, what);
    check_closure(g, what);
    check_barrier_stages(g, what);
    cr_expect_eq(queue_of(g, c.scene), RG_QUEUE_GRAPHICS, "%s", what);
    cr_assert_eq(queue_of(g, c.blur), RG_QUEUE_COMPUTE, "%s", what);
    cr_expect_eq(queue_of(g, c.ui), RG_QUEUE_GRAPHICS, "%s", what);
    cr_expect_eq(queue_of(g, c.consumer), RG_QUEUE_GRAPHICS, "%s", what);
    uint32_t bs = batch_of(g, c.scene), bb = batch_of(g, c.blur), bc = batch_of(g, c.consumer);
    cr_expect(bs < bb && bb < bc, "%s: batches scene %u, blur %u, consumer %u:%s", what, bs, bb, bc,
              batches_text(g));
    cr_expect_eq(batch_of(g, c.consumer_draw), bc, "%s", what);
    rg_batch_info blur = batch_at(g, bb), consumer = batch_at(g, bc);
    /* blur waits for scene, at least where it samples lit. */
    const rg_batch_wait *w = wait_on(&blur, RG_QUEUE_GRAPHICS);
    cr_assert_not_null(w, "%s: the compute batch does not wait for graphics:%s", what, batches_text(g));
    cr_expect(w->batch >= bs && w->batch < bb, "%s: blur waits graphics batch %u, scene is in %u", what, w->batch,
              bs);
    cr_expect(stage_covers(w->stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT), "%s: compute waits at 0x%llx", what,
              (unsigned long long)w->stage);
    /* The consumer waits for blur where it reads blurred. */
    w = wait_on(&consumer, RG_QUEUE_COMPUTE);
    cr_assert_not_null(w, "%s: the consumer's batch does not wait for compute:%s", what, batches_text(g));
    cr_expect_geq(w->batch, bb, "%s", what);
    cr_expect(stage_covers(w->stage, read_stage), "%s: the consumer waits at 0x%llx, reads at 0x%llx", what,
              (unsigned long long)w->stage, (unsigned long long)read_stage);
    /* What the consumer's barriers on blurred wait for came from compute:
     * the semaphore wait's stages include their source stages. */
    for (uint32_t i = 0; i < rg_barrier_count(g); i++) {
        const rg_barrier_info *bi = rg_barrier_get(g, i);
        if (bi->texture.id != c.blurred.id || bi->before.id == 0 || queue_of(g, bi->before) != RG_QUEUE_GRAPHICS)
            continue;
        cr_expect(stage_covers(w->stage, bi->src_stage), "%s: barrier %u on blurred before '%s' from 0x%llx, the "
                  "wait is at 0x%llx", what, i, cmd_info(g, bi->before).name, (unsigned long long)bi->src_stage,
                  (unsigned long long)w->stage);
    }
    /* The cut is at the consumer. */
    uint32_t consumer_pos = test_pos(g, c.consumer);
    cr_expect_eq(consumer.first, consumer_pos, "%s: the consumer's batch starts at %u, the consumer is at %u", what,
                 consumer.first, consumer_pos);
    if (test_pos(g, c.ui) < consumer_pos)
        cr_expect_lt(batch_of(g, c.ui), bc, "%s: ui, before the consumer, is held back with it", what);
    if (order == RG_ORDER_DECLARATION)
        cr_expect_lt(test_pos(g, c.ui), consumer_pos, "%s: declaration order", what);
    rg_graph_destroy(g);
}

Test(rg_queues, chain_to_a_span_waits_at_the_fragment_shader)
{
    check_chain(RG_ORDER_MEMORY, true, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    check_chain(RG_ORDER_DECLARATION, true, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
}

Test(rg_queues, chain_to_a_graphics_dispatch_waits_at_the_compute_shader)
{
    check_chain(RG_ORDER_MEMORY, false, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    check_chain(RG_ORDER_DECLARATION, false, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
}

/* single_queue, and a graph without a device: one graphics batch over the
 * whole order, waiting for nothing, every command in it. */
Test(rg_queues, single_queue_graph_is_one_batch)
{
    for (int nodev = 0; nodev < 2; nodev++) {
        rg_graph *g = queue_graph(nodev ? NULL : &both_queues, !nodev);
        chain c;
        declare_chain(g, &c, true);
        cr_expect_eq(rg_batch_count(g), 0, "0 before compile");
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_assert_eq(rg_batch_count(g), 1);
        rg_batch_info b = batch_at(g, 0);
        const rg_command *order;
        uint32_t m = rg_execution_order(g, &order);
        cr_expect_eq(b.queue, RG_QUEUE_GRAPHICS);
        cr_expect_eq(b.first, 0);
        cr_expect_eq(b.last, m - 1);
        cr_expect_eq(b.wait_count, 0);
        cr_expect_eq(b.signal, 1);
        for (uint32_t p = 0; p < m; p++) {
            cr_expect_eq(queue_of(g, order[p]), RG_QUEUE_GRAPHICS);
            cr_expect_eq(batch_of(g, order[p]), 0);
        }
        cr_expect_neq(rg_batch_get(g, 1, &b), RG_SUCCESS, "past the last batch");
        check_batches(g, nodev ? "no device" : "single_queue");
        rg_graph_destroy(g);
    }
}

/* A compute dispatch that needs nothing of the frame runs first: its batch
 * waits only for the frame before's last graphics batch, at every stage;
 * the draw reading its buffer as vertices waits for it at vertex input. */
Test(rg_queues, first_compute_batch_waits_for_the_frame_before)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_buffer vertices = test_buf(g, "vertices");
    rg_command gen = test_async(g, "generate", BUF(vertices, SWC));
    test_begin(g, "draw pass", test_color(g, "color"));
    rg_command draw = test_draw(g, "draw", BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    check_batches(g, "generate");
    check_closure(g, "generate");
    cr_assert_eq(queue_of(g, gen), RG_QUEUE_COMPUTE);
    rg_batch_info b = batch_at(g, batch_of(g, gen));
    cr_expect_eq(b.wait_count, 1, "nothing of the frame precedes it");
    cr_expect_eq(b.waits[0].queue, RG_QUEUE_GRAPHICS);
    cr_expect_eq(b.waits[0].batch, RG_INDEX_NONE, "the frame before");
    cr_expect_eq(b.waits[0].stage, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    rg_batch_info d = batch_at(g, batch_of(g, draw));
    const rg_batch_wait *w = wait_on(&d, RG_QUEUE_COMPUTE);
    cr_assert_not_null(w, "the draw's batch does not wait for compute");
    cr_expect_eq(w->batch, batch_of(g, gen));
    VkPipelineStageFlags2 vertex = rg_usage_get_info(RG_USAGE_VERTEX_BUFFER)->stage;
    cr_expect(stage_covers(w->stage, vertex), "waits at 0x%llx, reads at 0x%llx", (unsigned long long)w->stage,
              (unsigned long long)vertex);
    rg_graph_destroy(g);
}

/* Compute work last in the frame: the frame still ends on graphics, with
 * a batch that waits for it. */
Test(rg_queues, last_batch_is_graphics_and_waits_for_the_other_queues)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_texture lit = test_color(g, "lit");
    test_begin(g, "scene", lit);
    rg_end_rendering(g);
    rg_command hist = test_async(g, "histogram", TEX(lit, SMC), BUF(test_buf(g, "bins"), SWC));
    rg_buffer a = test_buf(g, "a");
    test_queued(g, "fill", RG_QUEUE_TRANSFER, ACC(BUF(a, RG_USAGE_TRANSFER_DST)));
    rg_command copy = rg_cmd_copy_buffer(g, a, 0, test_buf(g, "b"), 0, 64);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    check_batches(g, "last");
    check_closure(g, "last");
    cr_assert_eq(queue_of(g, hist), RG_QUEUE_COMPUTE);
    cr_assert_eq(queue_of(g, copy), RG_QUEUE_TRANSFER);
    uint32_t n = rg_batch_count(g);
    rg_batch_info last = batch_at(g, n - 1);
    cr_expect_eq(last.queue, RG_QUEUE_GRAPHICS);
    const rg_batch_wait *wc = wait_on(&last, RG_QUEUE_COMPUTE), *wt = wait_on(&last, RG_QUEUE_TRANSFER);
    cr_assert_not_null(wc, "the last batch does not wait for compute");
    cr_assert_not_null(wt, "the last batch does not wait for transfer");
    cr_expect_geq(wc->batch, batch_of(g, hist));
    cr_expect_geq(wt->batch, batch_of(g, copy));
    rg_graph_destroy(g);
}

/* A copy on the transfer queue between two graphics dispatches: graphics,
 * transfer, graphics, each wait at the stage of the access that needs it. */
Test(rg_queues, transfer_copy_between_graphics_dispatches)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_buffer staging = test_buf(g, "staging"), vertices = test_buf(g, "vertices");
    rg_command produce = test_outside(g, "produce", BUF(staging, SWC));
    rg_command copy = rg_cmd_copy_buffer(g, staging, 0, vertices, 0, 256);
    rg_command_allow_queue(g, copy, RG_QUEUE_TRANSFER);
    rg_command consume = test_outside(g, "consume", BUF(vertices, SRC));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    check_batches(g, "transfer");
    check_closure(g, "transfer");
    check_barrier_stages(g, "transfer");
    cr_assert_eq(queue_of(g, copy), RG_QUEUE_TRANSFER);
    uint32_t bp = batch_of(g, produce), bt = batch_of(g, copy), bc = batch_of(g, consume);
    cr_expect(bp < bt && bt < bc, "batches produce %u, copy %u, consume %u:%s", bp, bt, bc, batches_text(g));
    rg_batch_info t = batch_at(g, bt), c = batch_at(g, bc);
    const rg_batch_wait *w = wait_on(&t, RG_QUEUE_GRAPHICS);
    cr_assert_not_null(w, "the copy does not wait for produce");
    cr_expect(w->batch >= bp && w->batch < bt, "the copy waits graphics batch %u, produce is in %u", w->batch, bp);
    VkPipelineStageFlags2 xfer = rg_usage_get_info(RG_USAGE_TRANSFER_SRC)->stage;
    cr_expect(stage_covers(w->stage, xfer), "copy waits at 0x%llx", (unsigned long long)w->stage);
    w = wait_on(&c, RG_QUEUE_TRANSFER);
    cr_assert_not_null(w, "consume does not wait for the copy");
    cr_expect_geq(w->batch, bt);
    cr_expect(stage_covers(w->stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT), "consume waits at 0x%llx",
              (unsigned long long)w->stage);
    rg_graph_destroy(g);
}

/* Hazards from graphics stages into compute (a texture sampled by a draw
 * then written by compute: write-after-read with a layout change; a vertex
 * buffer rewritten; an attachment then sampled by compute): the compute
 * queue's barriers name only its stages. */
Test(rg_queues, barriers_on_the_compute_queue_name_only_its_stages)
{
    rg_graph *g = queue_graph(&both_queues, false);
    rg_texture lit = test_color(g, "lit"), noise = test_color(g, "noise"), out = test_color(g, "out");
    rg_buffer vertices = test_buf(g, "vertices");
    test_begin(g, "scene", lit);
    test_draw(g, "draw", TEX_UNDEF(noise, SMF), BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    rg_command regen = test_async(g, "regenerate", TEX(noise, SWC), BUF(vertices, SWC), TEX(lit, SMC));
    rg_command post = test_async(g, "post", TEX(lit, SMC), TEX(noise, SMC), TEX(out, SWC));
    test_begin(g, "again", lit);
    test_draw(g, "draw again", TEX(noise, SMF), TEX(out, SMF), BUF_UNDEF(vertices, RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(queue_of(g, regen), RG_QUEUE_COMPUTE);
    cr_expect_eq(queue_of(g, post), RG_QUEUE_COMPUTE);
    check_barrier_stages(g, "graphics to compute");
    check_batches(g, "graphics to compute");
    check_closure(g, "graphics to compute");
    rg_graph_destroy(g);
}

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
    f->env.g = queue_graph(&both_queues, single_queue);
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
        mask |= 1u << queue_of(f->env.g, f->use[r][i]);
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
        check_batches(g, what);
        check_closure(g, what);
        check_barrier_stages(g, what);
        multi += rg_batch_count(g) > 1;
        const rg_command *order;
        uint32_t m = rg_execution_order(g, &order);
        for (uint32_t p = 0; p < m; p++)
            on[queue_of(g, order[p])]++;
        rg_graph_destroy(g);

        snprintf(what, sizeof what, "seed %llu, single_queue", (unsigned long long)seed);
        rand_frame_declare(&f, seed, true);
        g = f.env.g;
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s: %s", what, rg_graph_error_message(g));
        cr_assert_eq(rg_batch_count(g), 1, "%s", what);
        check_batches(g, what);
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
        check_barrier_stages(f.env.g, what);
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
