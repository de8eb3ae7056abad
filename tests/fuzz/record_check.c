/* The recording oracle (record_check.h): frames of one placement, recorded
 * one after the other as the GPU would run them: the first whole (it
 * clears history), with history textures two more whole (history halves
 * trade images every frame, so a frame in chunks is compared with the
 * whole frame of its parity), for one batch one by rg_execute_batches,
 * then one per max_chunks asked, and one with its chunks recorded last to
 * first. */
#include "record_check.h"
#include "fuzz_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 4096 /* a call as messages print it */

/* One recorded frame: its command buffers (a batch's, or a chunk's each)
 * and, per command buffer, the chunk it holds. */
typedef struct frame {
    uint32_t count;
    VkCommandBuffer *cmds;
    rg_chunk_info *chunks;
    char what[160]; /* "frame 5 (max_chunks 3, chunks recorded in order)" */
} frame;

struct rc_first {
    frame f;
};

typedef struct checker {
    rg_graph *g;
    null_device *nd;
    const rc_options *o;
    const rc_import *imports;
    uint32_t import_count;
    uint32_t batches;
    const rg_command *order;
    uint32_t order_count;
    uint32_t frames;         /* recorded so far */
    VkImageLayout **layouts; /* per image index: 3 aspects x mips x layers, lazily */
    uint32_t layout_cap;
    rc_stats *stats;
} checker;

static void *xcalloc(size_t n, size_t size)
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
    f->cmds = xcalloc(count, sizeof *f->cmds);
    f->chunks = xcalloc(count, sizeof *f->chunks);
    for (uint32_t i = 0; i < count; i++)
        f->cmds[i] = null_cmd_create(ck->nd);
    snprintf(f->what, sizeof f->what, "frame %u (%s)", ck->frames, how);
}

static const char *line_of(const nd_call *c, VkRenderingFlags mask, char *buf)
{
    return null_call_line(c, mask, buf, LINE);
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

/* -------------------------------------------------- the layout oracle */

static uint32_t plane_of(VkImageAspectFlags bit)
{
    return bit == VK_IMAGE_ASPECT_COLOR_BIT ? 0 : bit == VK_IMAGE_ASPECT_DEPTH_BIT ? 1 : 2;
}

static VkImageLayout *layouts_of(checker *ck, const nd_image_info *info)
{
    if (info->index >= ck->layout_cap) {
        uint32_t cap = null_device_image_count(ck->nd) + 16;
        VkImageLayout **l = realloc(ck->layouts, cap * sizeof *l);
        CHECK(l != NULL, "out of memory");
        memset(l + ck->layout_cap, 0, (cap - ck->layout_cap) * sizeof *l);
        ck->layouts = l;
        ck->layout_cap = cap;
    }
    if (!ck->layouts[info->index]) /* a new image: UNDEFINED (0) everywhere */
        ck->layouts[info->index] = xcalloc((size_t)3 * info->mips * info->layers, sizeof **ck->layouts);
    return ck->layouts[info->index];
}

static VkImageLayout *slot(VkImageLayout *l, const nd_image_info *info, uint32_t plane, uint32_t mip, uint32_t layer)
{
    return &l[((size_t)plane * info->mips + mip) * info->layers + layer];
}

/* Where a message says a call is. */
typedef struct where {
    const checker *ck;
    const frame *f;
    uint32_t cmd, call;
    const nd_call *c;
} where;

#define AT(w) \
    (w)->ck->o->context, (w)->f->what, (w)->f->chunks[(w)->cmd].batch, (w)->cmd, (w)->call, line_of((w)->c, ~0u, buf)
#define AT_FMT "%s: %s, batch %u, command buffer %u, call %u '%s'"

/* One use or transition of a call, against the tracked layouts. */
static void oracle_use(checker *ck, const where *w, const nd_image_use *u, bool inside)
{
    char buf[LINE];
    CHECK(u->image != VK_NULL_HANDLE,
          AT_FMT ": names %s 0x%llx, which the device does not hold (destroyed, never "
                 "made or of another kind)",
          AT(w), u->transition ? "image" : "an image or view", (unsigned long long)u->named);
    nd_image_info info;
    CHECK(null_device_image(ck->nd, u->image, &info), AT_FMT ": a dead image", AT(w));
    VkImageSubresourceRange r = u->range;
    if (r.levelCount == VK_REMAINING_MIP_LEVELS && r.baseMipLevel <= info.mips)
        r.levelCount = info.mips - r.baseMipLevel;
    if (r.layerCount == VK_REMAINING_ARRAY_LAYERS && r.baseArrayLayer <= info.layers)
        r.layerCount = info.layers - r.baseArrayLayer;
    CHECK(r.aspectMask != 0 && !(r.aspectMask & ~info.aspects) && r.levelCount >= 1 && r.baseMipLevel < info.mips &&
              r.levelCount <= info.mips - r.baseMipLevel && r.layerCount >= 1 && r.baseArrayLayer < info.layers &&
              r.layerCount <= info.layers - r.baseArrayLayer,
          AT_FMT ": aspects %x mips %u+%u layers %u+%u outside image%u (aspects %x, %u mips, %u layers)", AT(w),
          r.aspectMask, r.baseMipLevel, r.levelCount, r.baseArrayLayer, r.layerCount, info.index, info.aspects,
          info.mips, info.layers);
    if (u->transition && inside)
        CHECK(u->old_layout == u->layout, AT_FMT ": changes image%u's layout %d -> %d inside a rendering instance",
              AT(w), info.index, (int)u->old_layout, (int)u->layout);
    VkImageLayout *l = layouts_of(ck, &info);
    for (VkImageAspectFlags a = r.aspectMask; a; a &= a - 1) {
        uint32_t plane = plane_of(a & -a);
        for (uint32_t m = r.baseMipLevel; m < r.baseMipLevel + r.levelCount; m++)
            for (uint32_t y = r.baseArrayLayer; y < r.baseArrayLayer + r.layerCount; y++) {
                VkImageLayout *s = slot(l, &info, plane, m, y);
                if (u->transition) {
                    CHECK(u->old_layout == VK_IMAGE_LAYOUT_UNDEFINED || u->old_layout == *s,
                          AT_FMT ": transitions image%u (aspect %x, mip %u, layer %u) from layout %d, but it is in %d",
                          AT(w), info.index, a & -a, m, y, (int)u->old_layout, (int)*s);
                    *s = u->layout;
                } else {
                    CHECK(u->layout == *s,
                          AT_FMT ": uses image%u (aspect %x, mip %u, layer %u) in layout %d, but "
                                 "it is in %d",
                          AT(w), info.index, a & -a, m, y, (int)u->layout, (int)*s);
                }
            }
    }
}

/* Sets (frame start) or checks (frame end) every subresource of each
 * import's image. */
static void imports_at(checker *ck, const frame *f, bool start)
{
    for (uint32_t i = 0; i < ck->import_count; i++) {
        const rc_import *im = &ck->imports[i];
        VkImage image = rg_texture_image(ck->g, im->texture);
        nd_image_info info;
        if (!null_device_image(ck->nd, image, &info))
            continue;
        VkImageLayout *l = layouts_of(ck, &info), want = start ? im->initial : im->final;
        if (!start && want == VK_IMAGE_LAYOUT_UNDEFINED)
            continue; /* left as the last use leaves it */
        for (uint32_t p = 0; p < 3; p++) {
            if (!(info.aspects & (p == 0   ? VK_IMAGE_ASPECT_COLOR_BIT
                                  : p == 1 ? VK_IMAGE_ASPECT_DEPTH_BIT
                                           : VK_IMAGE_ASPECT_STENCIL_BIT)))
                continue;
            for (uint32_t m = 0; m < info.mips; m++)
                for (uint32_t y = 0; y < info.layers; y++) {
                    VkImageLayout *s = slot(l, &info, p, m, y);
                    if (start)
                        *s = want;
                    else
                        CHECK(*s == want,
                              "%s: %s: import %u (image%u) ends the frame in layout %d at aspect plane "
                              "%u mip %u layer %u, not its final layout %d",
                              ck->o->context, f->what, i, info.index, (int)*s, p, m, y, (int)want);
                }
        }
    }
}

/* The frame's command buffers in order, through the tracked layouts. */
static void oracle_frame(checker *ck, const frame *f)
{
    imports_at(ck, f, true);
    bool inside = false;
    for (uint32_t i = 0; i < f->count; i++) {
        uint32_t n;
        const nd_call *calls = null_cmd_calls(f->cmds[i], &n);
        const nd_image_use *uses = null_cmd_uses(f->cmds[i]);
        for (uint32_t k = 0; k < n; k++) {
            const nd_call *c = &calls[k];
            where w = {ck, f, i, k, c};
            if (c->kind == ND_BEGIN)
                inside = true;
            for (uint32_t u = 0; u < c->use_count; u++)
                oracle_use(ck, &w, &uses[c->first_use + u], inside);
            if (c->kind == ND_END)
                inside = false;
        }
    }
    imports_at(ck, f, false);
}

/* ------------------------------------------------------------ the cuts */

/* A chunk that resumes inside a span (not between merged spans, where
 * the next span's begin sets the state) sets the span's state again. */
static bool resumes_in_span(const checker *ck, const rg_chunk_info *c)
{
    if (!c->resumes || c->first >= ck->order_count)
        return false;
    rg_command_info info;
    CHECK(rg_command_get_info(ck->g, ck->order[c->first], &info) == RG_SUCCESS, "command at %u", c->first);
    return info.type != RG_COMMAND_TYPE_BEGIN_RENDERING;
}

typedef struct kept {
    const nd_call **at;
    uint32_t count, cap;
} kept;

static void keep(kept *k, const nd_call *c)
{
    if (k->count == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 64;
        k->at = realloc(k->at, k->cap * sizeof *k->at);
        CHECK(k->at != NULL, "out of memory");
    }
    k->at[k->count++] = c;
}

/* Chunk i (the j-th of its batch's m) without what its cuts add, onto out;
 * checks what they add. label: the batch's label (its first chunk's first
 * call), NULL without labels. suspended: the begin the chunk before
 * suspended, then the one this chunk suspends. */
static void strip_cuts(checker *ck, const frame *f, uint32_t i, bool first, bool last, const nd_call *label,
                       const nd_call **suspended, kept *out)
{
    const rg_chunk_info *c = &f->chunks[i];
    uint32_t n;
    const nd_call *calls = null_cmd_calls(f->cmds[i], &n);
    uint32_t s = 0, e = n;
    char buf[LINE], buf2[LINE];
    const char *ctx = ck->o->context;
#define CUT_CHECK(cond, ...)                                                                                       \
    CHECK(cond, "%s: %s, batch %u, chunk %u (positions %u+%u): %s", ctx, f->what, c->batch, i, c->first, c->count, \
          (snprintf(buf2, sizeof buf2, __VA_ARGS__), buf2))
    if (!first && label) {
        CUT_CHECK(s < e && calls[s].kind == ND_LABEL_BEGIN && strcmp(calls[s].text, label->text) == 0,
                  "does not open its batch's label again first (it opens with '%s')",
                  s < e ? line_of(&calls[s], ~0u, buf) : "nothing");
        s++;
    }
    if (c->resumes) {
        bool in_span = resumes_in_span(ck, c);
        if (in_span && label) {
            CUT_CHECK(s < e && calls[s].kind == ND_LABEL_BEGIN, "resumes inside a span without opening its label");
            s++;
        }
        CUT_CHECK(s < e && calls[s].kind == ND_BEGIN && (calls[s].flags & VK_RENDERING_RESUMING_BIT),
                  "resumes an instance with '%s', not a begin with VK_RENDERING_RESUMING_BIT",
                  s < e ? line_of(&calls[s], ~0u, buf) : "nothing");
        CUT_CHECK(*suspended && strcmp(calls[s].text, (*suspended)->text) == 0,
                  "resumes another instance than the chunk before suspended: '%s', suspended '%s'",
                  line_of(&calls[s], ~0u, buf), *suspended ? (*suspended)->text : "none");
        VkRect2D area = calls[s].area;
        s++;
        ck->stats->resumed++;
        if (in_span) {
            ck->stats->resumed_in_span++;
            if (s < e && calls[s].kind == ND_LOCATIONS) {
                CUT_CHECK(s + 1 < e && calls[s + 1].kind == ND_INPUTS, "sets locations without input indices");
                s += 2;
                ck->stats->resumed_local_read++;
            }
            CUT_CHECK(s + 1 < e && calls[s].kind == ND_VIEWPORT && calls[s + 1].kind == ND_SCISSOR,
                      "resumes inside a span without setting the viewport and scissor (then '%s')",
                      s < e ? line_of(&calls[s], ~0u, buf) : "nothing");
            const VkViewport *v = &calls[s].viewport;
            CUT_CHECK(v->x == (float)area.offset.x && v->y == (float)area.offset.y &&
                          v->width == (float)area.extent.width && v->height == (float)area.extent.height &&
                          memcmp(&calls[s + 1].area, &area, sizeof area) == 0,
                      "resumes at area %d,%d %ux%u but sets '%s' and '%s'", area.offset.x, area.offset.y,
                      area.extent.width, area.extent.height, calls[s].text, calls[s + 1].text);
            s += 2;
        }
    }
    if (c->suspends) {
        const nd_call *begin = NULL;
        for (uint32_t k = 0; k < n; k++)
            if (calls[k].kind == ND_BEGIN)
                begin = &calls[k];
        /* Resumed and suspended again (an instance over three chunks or more). */
        ck->stats->suspended_twice += c->resumes && *suspended && begin && begin->flags & VK_RENDERING_RESUMING_BIT;
        *suspended = begin;
    } else {
        *suspended = NULL;
    }
    if (!last) {
        const rg_chunk_info *next = &f->chunks[i + 1];
        uint32_t labels = label ? 1u + resumes_in_span(ck, next) : 0;
        for (uint32_t k = 0; k < labels; k++) {
            CUT_CHECK(e > s && calls[e - 1].kind == ND_LABEL_END,
                      "does not close its %u labels at its end (ends "
                      "with '%s')",
                      labels, e > s ? line_of(&calls[e - 1], ~0u, buf) : "nothing");
            e--;
        }
        if (c->suspends) {
            CUT_CHECK(e > s && calls[e - 1].kind == ND_END, "suspends without ending rendering last (then '%s')",
                      e > s ? line_of(&calls[e - 1], ~0u, buf) : "nothing");
            e--;
        }
    }
#undef CUT_CHECK
    for (uint32_t k = s; k < e; k++)
        keep(out, &calls[k]);
}

static bool same_call(const nd_call *a, const nd_call *b)
{
    VkRenderingFlags mask = ~(VkRenderingFlags)VK_RENDERING_SUSPENDING_BIT;
    return a->kind == b->kind && (a->kind != ND_BEGIN || (a->flags & mask) == (b->flags & mask)) &&
           strcmp(a->text, b->text) == 0;
}

/* The nearest label or callback note before call k of a list: which
 * command of the graph the call belongs to. */
static const char *near(const nd_call *const *at, uint32_t k, char *buf)
{
    for (uint32_t i = k + 1; i-- > 0;)
        if (at[i]->kind == ND_NOTE || (at[i]->kind == ND_LABEL_BEGIN))
            return line_of(at[i], ~0u, buf);
    return "the batch's start";
}

/* Each batch of f, cut and stripped, equals the whole frame's batch. */
static void compare(checker *ck, const frame *whole, const frame *f)
{
    kept want = {0}, got = {0};
    for (uint32_t b = 0; b < ck->batches; b++) {
        want.count = got.count = 0;
        uint32_t n;
        const nd_call *calls = null_cmd_calls(whole->cmds[b], &n);
        for (uint32_t k = 0; k < n; k++)
            keep(&want, &calls[k]);
        const nd_call *label = NULL, *suspended = NULL;
        uint32_t chunks = 0;
        for (uint32_t i = 0; i < f->count; i++) {
            if (f->chunks[i].batch != b)
                continue;
            bool first = chunks++ == 0, last = i + 1 == f->count || f->chunks[i + 1].batch != b;
            if (first && ck->o->labelled) {
                const nd_call *c0 = null_cmd_calls(f->cmds[i], &n);
                CHECK(n > 0 && c0[0].kind == ND_LABEL_BEGIN, "%s: %s: batch %u's first chunk opens no label",
                      ck->o->context, f->what, b);
                label = &c0[0];
            }
            strip_cuts(ck, f, i, first, last, label, &suspended, &got);
        }
        CHECK(chunks > 0, "%s: %s: batch %u has no chunk", ck->o->context, f->what, b);
        uint32_t k = 0;
        while (k < want.count && k < got.count && same_call(want.at[k], got.at[k]))
            k++;
        char w[LINE], g[LINE], at[LINE];
        CHECK(k == want.count && k == got.count,
              "%s: %s: batch %u, %u chunks concatenated without their cuts differ from %s at call %u (of %u whole, "
              "%u chunked), after %s:\n  whole:   %s\n  chunked: %s",
              ck->o->context, f->what, b, chunks, whole->what, k, want.count, got.count,
              k ? near(want.at, k - 1, at) : "the batch's start",
              k < want.count ? line_of(want.at[k], ~0u, w) : "(nothing more)",
              k < got.count ? line_of(got.at[k], ~(VkRenderingFlags)VK_RENDERING_SUSPENDING_BIT, g) : "(nothing more)");
    }
    free(want.at);
    free(got.at);
}

/* Every call of every command buffer of f, to stdout. */
static void dump_frame(const frame *f)
{
    char buf[LINE];
    printf("== %s: %u command buffers\n", f->what, f->count);
    for (uint32_t i = 0; i < f->count; i++) {
        const rg_chunk_info *c = &f->chunks[i];
        uint32_t n;
        const nd_call *calls = null_cmd_calls(f->cmds[i], &n);
        printf("-- command buffer %u: batch %u, positions %u+%u, resumes %d, suspends %d\n", i, c->batch, c->first,
               c->count, c->resumes, c->suspends);
        for (uint32_t k = 0; k < n; k++)
            printf("%s\n", line_of(&calls[k], ~0u, buf));
    }
    fflush(stdout);
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
    oracle_frame(ck, f);
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
    oracle_frame(ck, f);
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
        compare(&ck, &o->first->f, &f);
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
        compare(&ck, r, &f);
        frame_free(&f);
    }
    for (uint32_t k = 0; k <= o->max_chunk_count; k++) {
        bool reverse = k == o->max_chunk_count;
        /* The frame about to be recorded has the parity of ck.frames. */
        const frame *r = ref[ck.frames % 2];
        record_chunks(&ck, &f, reverse ? o->reverse : o->max_chunks[k], reverse);
        if (o->dump && reverse) {
            dump_frame(r);
            dump_frame(&f);
        }
        compare(&ck, r, &f);
        frame_free(&f);
    }
    if (o->keep_first) {
        rc_first *keep = xcalloc(1, sizeof *keep);
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
