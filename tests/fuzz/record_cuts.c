/* The recording oracle's comparison of a frame recorded in chunks with
 * the frame recorded whole: the calls the cuts add taken out, the rest
 * must match line for line. */
#include "record_check_private.h"

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
void rc_compare(checker *ck, const frame *whole, const frame *f)
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
void rc_dump_frame(const frame *f)
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

