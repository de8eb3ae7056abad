/* The fuzz harness's compile: the compiled order, hazards, barriers,
 * queues and merged spans checked against the declaration, the queries,
 * and the state a standalone run dumps. */
#include "fuzz_graph.h"

uint32_t fz_position(const rg_command *order, uint32_t n, rg_command c)
{
    for (uint32_t i = 0; i < n; i++)
        if (order[i].id == c.id)
            return i;
    return UINT32_MAX;
}

/* The header's ordering promises: a span runs as one block, its commands
 * in record order with nothing else between them; a command with no
 * accesses runs between the commands recorded right before and after it. */
static void check_order(const fz *f, const rg_command *order, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < f->cmd_count; i++) {
        const cmd_info *a = &f->cmds[i], *b = &f->cmds[i + 1];
        uint32_t pa = fz_position(order, n, a->h), pb = fz_position(order, n, b->h);
        bool ca = pa == UINT32_MAX, cb = pb == UINT32_MAX; /* culled */
        CHECK(!(a->bare && ca) && !(b->bare && cb), "a command without accesses was culled");
        if (a->span && a->span == b->span) {
            CHECK(ca == cb, "commands %u and %u of one span: one culled, one kept", a->h.id, b->h.id);
            CHECK(ca || pb == pa + 1, "commands %u and %u of one span run at %u and %u", a->h.id, b->h.id, pa, pb);
        }
        if ((a->bare || b->bare) && !ca && !cb)
            CHECK(pa < pb, "command %u (recorded before %u, one of them without accesses) runs after it", a->h.id,
                  b->h.id);
    }
}

/* Hazards: two commands of different nodes (a span is one node) that
 * touch one buffer, or one texture of a single mip and layer (every accepted
 * range of it overlaps every other: one aspect of depth+stencil is both),
 * one of them writing it, run in record order. Over the first 64 commands,
 * to keep compiles quick. */
static void check_hazards(const fz *f)
{
    uint32_t m = f->cmd_count < 64 ? f->cmd_count : 64;
    for (uint32_t r = 0; r < f->res_count; r++) {
        const shadow *s = &f->res[r];
        if (s->is_texture && (s->mips != 1 || s->layers != 1))
            continue;
        uint32_t at[64];
        bool wr[64];
        uint32_t k = 0;
        for (uint32_t i = 0; i < m; i++) {
            bool uses = false, writes = false;
            for (uint32_t x = 0; x < f->cmds[i].touch_count; x++)
                if (f->cmds[i].touch[x] == r) {
                    uses = true;
                    writes = writes || f->cmds[i].write[x];
                }
            if (uses) {
                at[k] = i;
                wr[k++] = writes;
            }
        }
        for (uint32_t a = 0; a < k; a++)
            for (uint32_t b = a + 1; b < k; b++) {
                const cmd_info *x = &f->cmds[at[a]], *y = &f->cmds[at[b]];
                if (!(wr[a] || wr[b]) || (x->span && x->span == y->span))
                    continue;
                CHECK(rg_happens_before(f->g, x->h, y->h),
                      "%s %u (format %d) is %s by command %u and %s by command %u, which are not ordered",
                      s->is_texture ? "texture" : "buffer", r, (int)s->format, wr[a] ? "written" : "read", x->h.id,
                      wr[b] ? "written" : "read", y->h.id);
            }
    }
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const rg_command *)a)->id, y = ((const rg_command *)b)->id;
    return (x > y) - (x < y);
}

/* The order's entries are distinct handles, none of them 0. */
static void check_distinct(const rg_command *order, uint32_t n)
{
    rg_command *s = malloc(((size_t)n + 1) * sizeof *s);
    if (!s)
        return;
    memcpy(s, order, (size_t)n * sizeof *s);
    qsort(s, n, sizeof *s, by_id);
    for (uint32_t i = 0; i < n; i++)
        CHECK(s[i].id != 0 && (i == 0 || s[i].id != s[i - 1].id), "order entry 0x%x twice or 0", s[i].id);
    free(s);
}

/* Every barrier (after compile, and after placement with what aliasing
 * adds) names a current resource of the right kind and a range inside it
 * with aspects of its format only (both on depth+stencil), and is recorded
 * outside spans. */
void check_barriers(const fz *f, const rg_command *order, uint32_t n)
{
    uint32_t bc = rg_barrier_count(f->g);
    for (uint32_t i = 0; i < bc; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        CHECK(b != NULL, "barrier %u", i);
        CHECK(b->before.id == 0 || fz_position(order, n, b->before) != UINT32_MAX, "barrier %u before %u", i,
              b->before.id);
        /* Nothing is recorded inside a span: its barriers go before its begin. */
        for (uint32_t c = 0; b->before.id && c < f->cmd_count; c++)
            if (f->cmds[c].h.id == b->before.id)
                CHECK(!f->cmds[c].span || f->cmds[c].begin, "barrier %u recorded inside a span, before %u", i,
                      b->before.id);
        CHECK(!(b->texture.id && b->buffer.id), "barrier %u on a texture and a buffer", i);
        uint32_t id = b->texture.id ? b->texture.id : b->buffer.id, k = 0;
        if (id == 0)
            continue;
        while (k < f->res_count && f->res[k].id != id)
            k++;
        /* Barriers name current handles of the right kind, ranges inside. */
        if (f->res_count == MAX_RES && k == f->res_count)
            continue;
        CHECK(k < f->res_count && f->res[k].is_texture == (b->texture.id != 0), "barrier %u on handle 0x%x",
              i, id);
        if (b->texture.id) {
            const shadow *t = &f->res[k];
            CHECK(b->range.mip_count >= 1 && b->range.base_mip < t->mips &&
                      b->range.mip_count <= t->mips - b->range.base_mip && b->range.layer_count >= 1 &&
                      b->range.base_layer < t->layers && b->range.layer_count <= t->layers - b->range.base_layer &&
                      b->range.aspect != 0,
                  "barrier %u range (0x%x, %u+%u, %u+%u) outside its texture (%u mips, %u layers)", i,
                  b->range.aspect, b->range.base_mip, b->range.mip_count, b->range.base_layer,
                  b->range.layer_count, t->mips, t->layers);
            /* Aspects of the format only; depth and stencil share one
             * layout, so a barrier on either names both. */
            VkImageAspectFlags fa = rg_format_get_info(t->format).aspects;
            CHECK(!(b->range.aspect & ~fa), "barrier %u names aspects 0x%x of a texture of format %d (0x%x)", i,
                  b->range.aspect, (int)t->format, fa);
            CHECK(fa != (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT) || b->range.aspect == fa,
                  "barrier %u on depth+stencil texture %u (format %d) names aspects 0x%x, not both", i, k,
                  (int)t->format, b->range.aspect);
            /* A history texture's current half starts each frame in an
             * image the frame before's previous half held and the frame
             * before that's current half used: its first transition (from
             * UNDEFINED) must wait for something, whether or not previous
             * read it in between. */
            CHECK(!t->pair || t->previous || b->old_layout != VK_IMAGE_LAYOUT_UNDEFINED || b->src_stage != 0,
                  "barrier %u: the first transition of history texture %u's current half waits for nothing", i,
                  k);
        }
    }
    CHECK(rg_barrier_get(f->g, bc) == NULL, "barrier past the end");
}

/* The stages a compute-only and a transfer-only queue have (Vulkan's
 * table of supported pipeline stages). */
static VkPipelineStageFlags2 queue_stages(rg_queue q)
{
    VkPipelineStageFlags2 common = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |
                                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT |
                                   VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    if (q == RG_QUEUE_COMPUTE)
        return common | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
               VK_PIPELINE_STAGE_2_CLEAR_BIT;
    return q == RG_QUEUE_TRANSFER ? common : ~(VkPipelineStageFlags2)0;
}

rg_command_info info_of(const fz *f, rg_command c)
{
    rg_command_info ci;
    CHECK(rg_command_get_info(f->g, c, &ci) == RG_SUCCESS, "command %u has no info", c.id);
    return ci;
}

/* Per batch, the batches that end before it starts (bit rows of words
 * each): its queue's earlier batches and, through each semaphore wait, the
 * batch waited for and everything before that. Waits name earlier
 * batches, so one pass in order fills them. */
static uint64_t *batch_preds(const fz *f, uint32_t bc, uint32_t words)
{
    uint64_t *pre = calloc((size_t)bc * words, sizeof *pre);
    if (!pre)
        return NULL;
    uint32_t last_of[RG_QUEUE_COUNT] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (uint32_t b = 0; b < bc; b++) {
        rg_batch_info x;
        rg_batch_get(f->g, b, &x);
        uint64_t *row = &pre[(size_t)b * words];
        uint32_t from[RG_QUEUE_COUNT + 1], k = 0;
        if (last_of[x.queue] != UINT32_MAX)
            from[k++] = last_of[x.queue];
        for (uint32_t w = 0; w < x.wait_count; w++)
            if (x.waits[w].batch != RG_INDEX_NONE && x.waits[w].batch < b)
                from[k++] = x.waits[w].batch;
        for (uint32_t i = 0; i < k; i++) {
            row[from[i] / 64] |= 1ull << (from[i] % 64);
            for (uint32_t wd = 0; wd < words; wd++)
                row[wd] |= pre[(size_t)from[i] * words + wd];
        }
        last_of[x.queue] = b;
    }
    return pre;
}

/* Batches and queues after compile (see the list at the top of fuzz_graph.c). */
void check_queues(const fz *f, const rg_command *order, uint32_t n)
{
    uint32_t bc = rg_batch_count(f->g);
    CHECK(bc >= 1, "a compiled graph without batches");
    bool multi = false;
    for (uint32_t b = 0; b < bc; b++) {
        rg_batch_info x;
        CHECK(rg_batch_get(f->g, b, &x) == RG_SUCCESS, "batch %u", b);
        CHECK((unsigned)x.queue < RG_QUEUE_COUNT && x.wait_count <= RG_QUEUE_COUNT, "batch %u queue %d", b,
              (int)x.queue);
        multi = multi || x.queue != RG_QUEUE_GRAPHICS;
        CHECK(x.queue == RG_QUEUE_GRAPHICS || !f->single_queue, "single-queue graph with a %s batch",
              rg_queue_name(x.queue));
        CHECK(x.queue != RG_QUEUE_COMPUTE || f->caps.compute_queue, "a compute batch without a compute queue");
        CHECK(x.queue != RG_QUEUE_TRANSFER || f->caps.transfer_queue, "a transfer batch without a transfer queue");
        for (uint32_t w = 0; w < x.wait_count; w++)
            CHECK(x.waits[w].queue != x.queue && (x.waits[w].batch == RG_INDEX_NONE || x.waits[w].batch < b) &&
                      x.waits[w].stage != 0 && !(x.waits[w].stage & ~queue_stages(x.queue)),
                  "batch %u waits %s batch %u at 0x%llx", b, rg_queue_name(x.waits[w].queue), x.waits[w].batch,
                  (unsigned long long)x.waits[w].stage);
    }
    rg_batch_info last;
    rg_batch_get(f->g, bc - 1, &last);
    CHECK(last.queue == RG_QUEUE_GRAPHICS, "the last batch is on the %s queue", rg_queue_name(last.queue));
    if (multi)
        CHECK(last.first == RG_INDEX_NONE && last.wait_count >= 1, "a multi-queue frame ends with commands");
    for (uint32_t p = 0; p < n; p++) {
        rg_command_info ci = info_of(f, order[p]);
        rg_batch_info x;
        CHECK(rg_batch_get(f->g, ci.batch, &x) == RG_SUCCESS && x.queue == ci.queue && x.first <= p && p <= x.last,
              "command %u at %u in batch %u", order[p].id, p, ci.batch);
    }
    uint32_t words = (bc + 63) / 64;
    uint64_t *pre = batch_preds(f, bc, words);
    uint32_t m = n < 64 ? n : 64;
    for (uint32_t i = 0; i < m && pre; i++)
        for (uint32_t j = 0; j < m; j++) {
            if (!rg_happens_before(f->g, order[i], order[j]))
                continue;
            rg_command_info a = info_of(f, order[i]), b = info_of(f, order[j]);
            CHECK(a.queue == b.queue || (pre[(size_t)b.batch * words + a.batch / 64] >> (a.batch % 64) & 1),
                  "%u (%s batch %u) happens before %u (%s batch %u) without a semaphore chain", order[i].id,
                  rg_queue_name(a.queue), a.batch, order[j].id, rg_queue_name(b.queue), b.batch);
        }
    free(pre);
    uint32_t bars = rg_barrier_count(f->g);
    for (uint32_t i = 0; i < bars; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        if (!b->before.id)
            continue;
        rg_queue q = info_of(f, b->before).queue;
        CHECK(!((b->src_stage | b->dst_stage) & ~queue_stages(q)), "barrier %u on the %s queue: stages 0x%llx -> "
              "0x%llx", i, rg_queue_name(q), (unsigned long long)b->src_stage, (unsigned long long)b->dst_stage);
    }
}

#define FRAMEBUFFER_STAGES                                                                                          \
    (VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |                        \
     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)

/* Merging: merged pairs follow an end of rendering, only where the device
 * and the mode allow; barriers between merged spans are framebuffer-local;
 * the reported rendering states are well formed. */
static void check_merges(const fz *f, const rg_command *order, uint32_t n)
{
    bool can = f->caps.local_read && f->merge != RG_MERGE_OFF &&
               (f->merge == RG_MERGE_ON || rg_merge_by_default(f->caps.driver));
    uint32_t mc = rg_merge_count(f->g);
    for (uint32_t i = 0; i < mc; i++) {
        rg_merge_info m;
        CHECK(rg_merge_get(f->g, i, &m) == RG_SUCCESS, "merge note %u", i);
        CHECK(m.reason != NULL && m.merged == (m.reason[0] == '\0'), "merge note %u: reason", i);
        if (!m.merged)
            continue;
        CHECK(can, "spans merged without local read or with merging off (mode %d)", (int)f->merge);
        uint32_t p = fz_position(order, n, m.second);
        rg_command_info before;
        CHECK(p != UINT32_MAX && p > 0 && rg_command_get_info(f->g, order[p - 1], &before) == RG_SUCCESS &&
                  before.type == RG_COMMAND_TYPE_END_RENDERING,
              "merged span %u does not follow an end of rendering", m.second.id);
    }
    CHECK(rg_merge_get(f->g, mc, &(rg_merge_info){0}) != RG_SUCCESS, "merge note past the end");
    for (uint32_t i = 0; i < rg_barrier_count(f->g); i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        if (!b->by_region)
            continue;
        CHECK(can, "a by-region barrier without merging");
        CHECK(!((b->src_stage | b->dst_stage) & ~(VkPipelineStageFlags2)FRAMEBUFFER_STAGES),
              "by-region barrier %u with stages 0x%llx -> 0x%llx", i, (unsigned long long)b->src_stage,
              (unsigned long long)b->dst_stage);
        /* Recorded as one memory barrier: no layout may change there (an
         * attachment continued across merged spans keeps its own layout). */
        CHECK(b->old_layout == b->new_layout, "by-region barrier %u changes layout %d -> %d", i, (int)b->old_layout,
              (int)b->new_layout);
    }
    for (uint32_t i = 0; i < n; i++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[i], &st) != RG_SUCCESS)
            continue;
        CHECK(st.color_count <= RG_MAX_COLOR_ATTACHMENTS, "%u colors", st.color_count);
        CHECK(!st.merged || can, "a merged state without merging");
        /* The tile profile (docs/tiles.md): a merged instance keeps its
         * colour within the budget; on a hard limit every span does. */
        rg_tile_info tile = rg_tile_profile_info(f->caps.tile_profile ? f->caps.tile_profile : RG_TILE_DESKTOP);
        uint32_t bytes = 0;
        for (uint32_t a = 0; a < st.color_count; a++)
            bytes += rg_format_get_info(st.color_formats[a]).block_size;
        uint32_t need = tile.hard ? bytes : bytes * (uint32_t)st.samples;
        CHECK(!tile.color_bytes || (!st.merged && !tile.hard) || need <= tile.color_bytes,
              "instance of %u B of colour per pixel over %s's %u B", need, tile.name, tile.color_bytes);
        for (uint32_t a = 0; a < st.color_count; a++)
            for (uint32_t b = a + 1; b < st.color_count; b++) {
                CHECK(st.color_locations[a] == VK_ATTACHMENT_UNUSED ||
                          st.color_locations[a] != st.color_locations[b],
                      "location %u twice", st.color_locations[a]);
                CHECK(st.color_input_indices[a] == VK_ATTACHMENT_UNUSED ||
                          st.color_input_indices[a] != st.color_input_indices[b],
                      "input index %u twice", st.color_input_indices[a]);
            }
    }
}

static void queries(fz *f, bool compiled)
{
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order);
    if (compiled) {
        /* The order holds every command once (the harness saw them all
         * unless it ran out of room). */
        CHECK(order != NULL || n == 0, "order NULL");
        uint32_t culled = 0;
        for (uint32_t i = 0; i < f->cmd_count; i++) {
            rg_command_info info;
            CHECK(rg_command_get_info(f->g, f->cmds[i].h, &info) == RG_SUCCESS, "info of command %u",
                  f->cmds[i].h.id);
            culled += info.culled;
            CHECK(!info.culled || !f->no_culling, "command %u culled with culling off", f->cmds[i].h.id);
            CHECK((fz_position(order, n, f->cmds[i].h) != UINT32_MAX) == !info.culled,
                  "command %u: culled %d, in the order %d", f->cmds[i].h.id, info.culled,
                  fz_position(order, n, f->cmds[i].h) != UINT32_MAX);
            /* A write to an import is observable. */
            for (uint32_t x = 0; x < f->cmds[i].touch_count && info.culled; x++)
                CHECK(!f->cmds[i].write[x] || !f->res[f->cmds[i].touch[x]].imported,
                      "command %u writes import %u and was culled", f->cmds[i].h.id, f->cmds[i].touch[x]);
        }
        if (f->cmd_count < MAX_CMDS)
            CHECK(n == f->cmd_count - culled, "order of %u commands, %u declared, %u culled", n, f->cmd_count,
                  culled);
        check_distinct(order, n);
        check_order(f, order, n);
        uint32_t m = f->cmd_count < 48 ? f->cmd_count : 48;
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 0; j < m; j++) {
                rg_command a = f->cmds[i].h, b = f->cmds[j].h;
                if (!rg_happens_before(f->g, a, b))
                    continue;
                CHECK(!rg_happens_before(f->g, b, a), "%u and %u happen before each other", a.id, b.id);
                uint32_t pa = fz_position(order, n, a), pb = fz_position(order, n, b);
                CHECK(pa == UINT32_MAX || pb == UINT32_MAX || pa < pb, "%u happens before %u but runs after",
                      a.id, b.id);
            }
        check_barriers(f, order, n);
        check_merges(f, order, n);
        check_queues(f, order, n);
        check_hazards(f);
    } else {
        CHECK(n == 0 && order == NULL, "an uncompiled graph has an order");
        CHECK(rg_barrier_count(f->g) == 0, "an uncompiled graph has barriers");
    }
    /* Odd command handles. */
    rg_command odd[] = {{0}, {UINT32_MAX}, {f->cmd_count + 1}, {1}};
    for (uint32_t i = 0; i < COUNT(odd); i++)
        for (uint32_t j = 0; j < COUNT(odd); j++)
            (void)rg_happens_before(f->g, odd[i], odd[j]);
    (void)rg_barrier_get(f->g, UINT32_MAX);
    rg_result dot = rg_write_dot(f->g, "/dev/null");
    if (compiled)
        CHECK(dot == RG_SUCCESS, "rg_write_dot to /dev/null: %s", rg_result_string(dot));
    else
        CHECK(dot != RG_SUCCESS, "rg_write_dot of an uncompiled graph");
    if (dot != RG_SUCCESS)
        expect_message(f, "rg_write_dot");
    for (uint32_t i = 0; i < f->res_count; i++)
        if (f->res[i].is_texture) {
            bool t = rg_texture_is_transient(f->g, (rg_texture){f->res[i].id});
            CHECK(!t || (compiled && !f->res[i].imported), "transient import or uncompiled");
        }
    for (uint32_t i = 0; i < f->stale_count; i++)
        CHECK(!rg_texture_is_transient(f->g, (rg_texture){f->stale[i]}), "stale handle transient");
    for (uint32_t i = 0; i < f->foreign_count; i++)
        CHECK(!rg_texture_is_transient(f->g, (rg_texture){f->foreign[i]}), "foreign handle transient");
}

/* Standalone runs: say what compile and placement made of each input
 * (FUZZ_VERBOSE); print it whole (FUZZ_DUMP: the order, every barrier,
 * the DOT and after placement the memory report's JSON, to stdout), so two
 * builds of the library can be compared on a corpus. */
int fz_verbose, fz_dump;

void dump_state(fz *f, const char *what)
{
    if (!fz_dump)
        return;
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order);
    printf("== %s: %u commands, %u batches\norder:", what, n, rg_batch_count(f->g));
    for (uint32_t i = 0; i < n; i++)
        printf(" %u", order[i].id);
    printf("\n");
    for (uint32_t i = 0, bc = rg_barrier_count(f->g); i < bc; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        printf("barrier %u: before %u hoisted %d region %d t %u b %u range %x %u+%u %u+%u "
               "stage %llx->%llx access %llx->%llx layout %d->%d\n",
               i, b->before.id, b->hoisted, b->by_region, b->texture.id, b->buffer.id, b->range.aspect,
               b->range.base_mip, b->range.mip_count, b->range.base_layer, b->range.layer_count,
               (unsigned long long)b->src_stage, (unsigned long long)b->dst_stage,
               (unsigned long long)b->src_access, (unsigned long long)b->dst_access, (int)b->old_layout,
               (int)b->new_layout);
    }
    fflush(stdout);
    (void)rg_write_dot(f->g, "/dev/stdout");
    (void)rg_memory_report_json(f->g, "/dev/stdout");
    fflush(stdout);
}


void op_compile(fz *f)
{
    rg_result res = rg_compile(f->g);
    if (fz_verbose)
        fprintf(stderr, "  compile: %s %s (%u commands, %u barriers, %u batches)\n", rg_result_string(res),
                rg_graph_error_message(f->g), f->cmd_count, rg_barrier_count(f->g), rg_batch_count(f->g));
    if (res != RG_SUCCESS) {
        CHECK(res == rg_graph_error(f->g), "compile returned %s but keeps %s", rg_result_string(res),
              rg_result_string(rg_graph_error(f->g)));
        expect_message(f, "rg_compile");
        f->compiled = f->placed = false;
    } else {
        f->compiled = true;
        dump_state(f, "compile");
    }
    queries(f, res == RG_SUCCESS);
    if (res == RG_SUCCESS)
        fz_record(f);
}

