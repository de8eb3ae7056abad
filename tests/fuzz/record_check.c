/* The recording oracle (record_check.h): frames of one placement, recorded
 * one after the other as the GPU would run them: the first whole (it
 * clears history), with history textures two more whole (history halves
 * trade images every frame, so a frame in chunks is compared with the
 * whole frame of its parity), for one batch one by rg_execute_batches,
 * then one per max_chunks asked, and one with its chunks recorded last to
 * first. */
#include "record_check_private.h"

struct rc_first {
    frame f;
};

void *rc_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    CHECK(p != NULL, "out of memory");
    return p;
}

static void frame_free(frame *f)
{
    for (uint32_t i = 0; i < f->count; i++)
        null_cmd_destroy(f->cmds[i]);
    free(f->cmds);
    free(f->chunks);
    memset(f, 0, sizeof *f);
}

void rc_first_free(rc_first *first)
{
    if (first)
        frame_free(&first->f);
    free(first);
}

/* Room for count command buffers; how: how the frame is recorded. */
static void frame_alloc(checker *ck, frame *f, uint32_t count, const char *how)
{
    f->count = count;
    f->cmds = rc_xcalloc(count, sizeof *f->cmds);
    f->chunks = rc_xcalloc(count, sizeof *f->chunks);
    for (uint32_t i = 0; i < count; i++)
        f->cmds[i] = null_cmd_create(ck->nd);
    snprintf(f->what, sizeof f->what, "frame %u (%s)", ck->frames, how);
}

/* -------------------------------------------------------- the plan */

/* The plan lists each batch's command buffers in chunk order, and
 * rg_submit submits exactly those. */
static void check_plan(checker *ck, const frame *f, const rg_submit_plan *plan)
{
    CHECK(plan->count == ck->batches, "%s: %s: the plan has %u submissions for %u batches", ck->o->context, f->what,
          plan->count, ck->batches);
    uint32_t listed = 0;
    for (uint32_t b = 0; b < plan->count; b++) {
        const rg_submission *s = &plan->submissions[b];
        CHECK(s->cmd_count >= 1 && s->cmd == s->cmds[0], "%s: %s: batch %u's submission has %u command buffers",
              ck->o->context, f->what, b, s->cmd_count);
        for (uint32_t k = 0; k < s->cmd_count; k++, listed++) {
            CHECK(listed < f->count && s->cmds[k] == f->cmds[listed] && f->chunks[listed].batch == b,
                  "%s: %s: batch %u lists command buffer %u of its %u out of chunk order", ck->o->context, f->what, b,
                  k, s->cmd_count);
        }
    }
    CHECK(listed == f->count, "%s: %s: the plan lists %u of the frame's %u command buffers", ck->o->context, f->what,
          listed, f->count);
    uint32_t n = 0;
    null_device_take_submitted(ck->nd, &n);
    rg_result r = rg_submit(ck->g, plan, NULL);
    CHECK(r == RG_SUCCESS, "%s: %s: rg_submit: %s", ck->o->context, f->what, rg_graph_error_message(ck->g));
    const VkCommandBuffer *sent = null_device_take_submitted(ck->nd, &n);
    CHECK(n == f->count, "%s: %s: rg_submit submitted %u command buffers of %u", ck->o->context, f->what, n, f->count);
    for (uint32_t i = 0; i < n; i++)
        CHECK(sent[i] == f->cmds[i], "%s: %s: rg_submit submitted command buffer %u out of order", ck->o->context,
              f->what, i);
}

/* ------------------------------------------------------ the structure */

/* Every command buffer begins and ends its instances and labels in pairs;
 * returns through *suspends / *resumes whether its last begin carries
 * SUSPENDING and its first RESUMING, and checks no other begin does. */
static void check_pairs(checker *ck, const frame *f, uint32_t i, bool *resumes, bool *suspends)
{
    uint32_t n;
    const nd_call *calls = null_cmd_calls(f->cmds[i], &n);
    char buf[LINE];
    bool open = false;
    int32_t labels = 0, first_begin = -1, last_begin = -1;
    for (uint32_t k = 0; k < n; k++) {
        const nd_call *c = &calls[k];
        if (c->kind == ND_BEGIN) {
            CHECK(!open, "%s: %s: command buffer %u, call %u '%s' begins rendering inside an instance", ck->o->context,
                  f->what, i, k, line_of(c, ~0u, buf));
            open = true;
            if (first_begin < 0)
                first_begin = (int32_t)k;
            last_begin = (int32_t)k;
        } else if (c->kind == ND_END) {
            CHECK(open, "%s: %s: command buffer %u, call %u ends rendering outside an instance", ck->o->context,
                  f->what, i, k);
            open = false;
        } else if (c->kind == ND_LOCATIONS || c->kind == ND_INPUTS) {
            CHECK(open, "%s: %s: command buffer %u, call %u '%s' sets local-read state outside a rendering instance",
                  ck->o->context, f->what, i, k, line_of(c, ~0u, buf));
        } else if (c->kind == ND_LABEL_BEGIN) {
            labels++;
        } else if (c->kind == ND_LABEL_END) {
            CHECK(labels > 0, "%s: %s: command buffer %u, call %u closes a label none opened", ck->o->context, f->what,
                  i, k);
            labels--;
        }
    }
    CHECK(!open, "%s: %s: command buffer %u (chunk of batch %u) ends inside a rendering instance", ck->o->context,
          f->what, i, f->chunks[i].batch);
    CHECK(labels == 0, "%s: %s: command buffer %u ends with %d labels open", ck->o->context, f->what, i, labels);
    *resumes = first_begin >= 0 && (calls[first_begin].flags & VK_RENDERING_RESUMING_BIT);
    *suspends = last_begin >= 0 && (calls[last_begin].flags & VK_RENDERING_SUSPENDING_BIT);
    for (uint32_t k = 0; k < n; k++) {
        if (calls[k].kind != ND_BEGIN)
            continue;
        CHECK((int32_t)k == last_begin || !(calls[k].flags & VK_RENDERING_SUSPENDING_BIT),
              "%s: %s: command buffer %u, call %u '%s' suspends an instance before the buffer's last begin",
              ck->o->context, f->what, i, k, line_of(&calls[k], ~0u, buf));
        CHECK((int32_t)k == first_begin || !(calls[k].flags & VK_RENDERING_RESUMING_BIT),
              "%s: %s: command buffer %u, call %u '%s' resumes an instance after the buffer's first begin",
              ck->o->context, f->what, i, k, line_of(&calls[k], ~0u, buf));
    }
}

/* Per command buffer of the frame: pairs, and the flags agree with what
 * rg_chunk_get said and with the neighbouring chunks of the batch. */
static void check_structure(checker *ck, const frame *f, bool whole)
{
    for (uint32_t i = 0; i < f->count; i++) {
        const rg_chunk_info *c = &f->chunks[i];
        bool resumes, suspends;
        check_pairs(ck, f, i, &resumes, &suspends);
        bool first = i == 0 || f->chunks[i - 1].batch != c->batch;
        bool last = i + 1 == f->count || f->chunks[i + 1].batch != c->batch;
        CHECK(i == 0 || f->chunks[i - 1].batch <= c->batch, "%s: %s: chunk %u of batch %u follows one of batch %u",
              ck->o->context, f->what, i, c->batch, f->chunks[i - 1].batch);
        CHECK(!whole || (!resumes && !suspends), "%s: %s: batch %u recorded whole suspends or resumes an instance",
              ck->o->context, f->what, c->batch);
        CHECK(resumes == c->resumes && suspends == c->suspends,
              "%s: %s: chunk %u (batch %u): rg_chunk_get says resumes %d suspends %d, its begins' flags say %d %d",
              ck->o->context, f->what, i, c->batch, c->resumes, c->suspends, resumes, suspends);
        CHECK(!first || !resumes, "%s: %s: chunk %u, the first of batch %u, resumes an instance", ck->o->context,
              f->what, i, c->batch);
        CHECK(!last || !suspends, "%s: %s: chunk %u, the last of batch %u, suspends an instance", ck->o->context,
              f->what, i, c->batch);
        if (!last)
            CHECK(suspends == f->chunks[i + 1].resumes, "%s: %s: chunk %u suspends %d, the next chunk resumes %d",
                  ck->o->context, f->what, i, suspends, f->chunks[i + 1].resumes);
        ck->stats->chunks++;
    }
}

/* ------------------------------------------------------------ the frames */

/* rg_execute (batches false, one batch) or rg_execute_batches. */
static void record_whole(checker *ck, frame *f, bool batches)
{
    bool execute = !batches && ck->batches == 1;
    frame_alloc(ck, f, ck->batches, execute ? "rg_execute" : "rg_execute_batches");
    for (uint32_t b = 0; b < ck->batches; b++)
        f->chunks[b] = (rg_chunk_info){.batch = b};
    rg_submit_plan plan;
    rg_result r = execute ? rg_execute(ck->g, f->cmds[0]) : rg_execute_batches(ck->g, f->cmds, &plan);
    CHECK(r == RG_SUCCESS, "%s: %s: %s", ck->o->context, f->what, rg_graph_error_message(ck->g));
    ck->frames++;
    check_structure(ck, f, true);
    rc_oracle_frame(ck, f);
    if (!execute)
        check_plan(ck, f, &plan);
}

/* rg_execute_begin, every chunk (in order or last to first), rg_execute_end. */
static void record_chunks(checker *ck, frame *f, uint32_t max_chunks, bool reverse)
{
    uint32_t n = 0;
    rg_result r = rg_execute_begin(ck->g, &(rg_execute_desc){.max_chunks = max_chunks}, &n);
    char how[64];
    snprintf(how, sizeof how, "max_chunks %u, chunks recorded %s", max_chunks, reverse ? "last to first" : "in order");
    frame_alloc(ck, f, n, how);
    CHECK(r == RG_SUCCESS && n >= ck->batches, "%s: %s: rg_execute_begin: %u chunks for %u batches: %s", ck->o->context,
          f->what, n, ck->batches, rg_graph_error_message(ck->g));
    uint32_t positions = 0;
    for (uint32_t i = 0; i < n; i++) {
        CHECK(rg_chunk_get(ck->g, i, &f->chunks[i]) == RG_SUCCESS, "%s: %s: rg_chunk_get %u: %s", ck->o->context,
              f->what, i, rg_graph_error_message(ck->g));
        positions += f->chunks[i].count;
    }
    CHECK(positions == ck->order_count, "%s: %s: the chunks hold %u positions of %u", ck->o->context, f->what,
          positions, ck->order_count);
    if (max_chunks > 0 && ck->batches == 1)
        CHECK(n <= max_chunks, "%s: %s: %u chunks", ck->o->context, f->what, n);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = reverse ? n - 1 - k : k;
        r = rg_execute_chunk(ck->g, i, f->cmds[i]);
        CHECK(r == RG_SUCCESS, "%s: %s: rg_execute_chunk %u: %s", ck->o->context, f->what, i,
              rg_graph_error_message(ck->g));
    }
    rg_submit_plan plan;
    r = rg_execute_end(ck->g, f->cmds, &plan);
    CHECK(r == RG_SUCCESS, "%s: %s: rg_execute_end: %s", ck->o->context, f->what, rg_graph_error_message(ck->g));
    ck->frames++;
    check_structure(ck, f, false);
    rc_oracle_frame(ck, f);
    check_plan(ck, f, &plan);
}

/* Every import gets an object of the device: images with a whole view. */
static void bind_imports(checker *ck)
{
    for (uint32_t i = 0, n = rg_resource_count(ck->g); i < n; i++) {
        rg_resource_info info;
        CHECK(rg_resource_get(ck->g, i, &info) == RG_SUCCESS, "rg_resource_get %u", i);
        if (!info.imported)
            continue;
        rg_result r;
        if (info.texture.id) {
            VkImageView view;
            VkImage image = null_device_app_image(ck->nd, info.format, info.mip_levels, info.array_layers, &view);
            /* The null device's images allow every use. */
            r = rg_texture_set_image(ck->g, info.texture, &(rg_import_image){
                .image = image, .view = view, .format = info.format, .width = info.width, .height = info.height,
                .mip_levels = info.mip_levels, .array_layers = info.array_layers, .samples = info.samples,
                .usage = ~(VkImageUsageFlags)0});
        } else {
            r = rg_buffer_set_buffer(ck->g, info.buffer, &(rg_import_buffer){
                .buffer = null_device_app_buffer(ck->nd), .size = info.size, .usage = ~(VkBufferUsageFlags)0});
        }
        CHECK(r == RG_SUCCESS, "%s: binding import %u: %s", ck->o->context, i, rg_graph_error_message(ck->g));
    }
}

/* Whether g has a history texture: its frames alternate between two
 * states (the halves trade images), and its first frame clears. */
static bool has_history(const rg_graph *g)
{
    for (uint32_t i = 0, n = rg_resource_count(g); i < n; i++) {
        rg_resource_info info;
        if (rg_resource_get(g, i, &info) == RG_SUCCESS && info.kind == RG_RESOURCE_HISTORY_CURRENT)
            return true;
    }
    return false;
}

bool record_has_history(const rg_graph *g) { return has_history(g); }

void record_check(rg_graph *g, null_device *nd, const rc_import *imports, uint32_t import_count, const rc_options *o,
                  rc_stats *stats)
{
    checker ck = {.g = g, .nd = nd, .o = o, .imports = imports, .import_count = import_count, .stats = stats};
    ck.batches = rg_batch_count(g);
    ck.order_count = rg_execution_order(g, &ck.order);
    bind_imports(&ck);
    /* first: frame 0, recorded whole; whole[p]: the reference of frames of
     * parity p (with history, frames 2 and 1; else frame 0 for all). */
    frame first = {0}, whole[2] = {{0}}, f = {0};
    const frame *ref[2] = {&first, &first};
    if (o->first) {
        /* The first frame in chunks, against the first frame recorded whole. */
        record_chunks(&ck, &f, o->first_max_chunks, false);
        rc_compare(&ck, &o->first->f, &f);
        frame_free(&f);
        goto done;
    }
    record_whole(&ck, &first, false);
    if (has_history(g)) {
        record_whole(&ck, &whole[1], false);
        record_whole(&ck, &whole[0], false);
        ref[0] = &whole[0];
        ref[1] = &whole[1];
    }
    if (ck.batches == 1) {
        /* rg_execute_batches records what rg_execute does. */
        const frame *r = ref[ck.frames % 2];
        record_whole(&ck, &f, true);
        rc_compare(&ck, r, &f);
        frame_free(&f);
    }
    for (uint32_t k = 0; k <= o->max_chunk_count; k++) {
        bool reverse = k == o->max_chunk_count;
        /* The frame about to be recorded has the parity of ck.frames. */
        const frame *r = ref[ck.frames % 2];
        record_chunks(&ck, &f, reverse ? o->reverse : o->max_chunks[k], reverse);
        if (o->dump && reverse) {
            rc_dump_frame(r);
            rc_dump_frame(&f);
        }
        rc_compare(&ck, r, &f);
        frame_free(&f);
    }
    if (o->keep_first) {
        rc_first *keep = rc_xcalloc(1, sizeof *keep);
        keep->f = first;
        snprintf(keep->f.what, sizeof keep->f.what, "frame 0 (%s) of this declaration placed before",
                 ck.batches == 1 ? "rg_execute" : "rg_execute_batches");
        *o->keep_first = keep;
        memset(&first, 0, sizeof first);
    }
done:
    stats->frames += ck.frames;
    frame_free(&first);
    frame_free(&whole[0]);
    frame_free(&whole[1]);
    for (uint32_t i = 0; i < ck.layout_cap; i++)
        free(ck.layouts[i]);
    free(ck.layouts);
}
