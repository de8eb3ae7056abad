/* Call logs compared once the cuts are taken out, and pixels compared
 * (parallel_support.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "parallel_support.h"

#include "device_fixture.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* ------------------------------------------------ comparing the texts */

static lines split(const char *text)
{
    lines l = { strdup(text), NULL, 0 };
    cr_assert_not_null(l.buf);
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    l.at = calloc(n + 1, sizeof *l.at);
    cr_assert_not_null(l.at);
    for (char *p = l.buf; *p;) {
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        l.at[l.count++] = p;
        p = nl + 1;
    }
    return l;
}

static void lines_free(lines *l)
{
    free(l->buf);
    free(l->at);
}

static void text_add(text *t, const char *line)
{
    size_t n = strlen(line);
    if (t->len + n + 2 > t->cap) {
        t->cap = (t->len + n + 2) * 2;
        t->s = realloc(t->s, t->cap);
        cr_assert_not_null(t->s);
    }
    memcpy(t->s + t->len, line, n);
    t->s[t->len + n] = '\n';
    t->len += n + 1;
    t->s[t->len] = '\0';
}

bool parallel_starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static unsigned begin_flags(const char *line)
{
    unsigned flags = 0;
    cr_assert_eq(sscanf(line, "begin flags %x", &flags), 1, "not a begin: %s", line);
    return flags;
}

/* The indented lines after line i (a begin's info), as one string. */
static void info_after(const lines *l, uint32_t i, text *out)
{
    out->len = 0;
    if (out->s)
        out->s[0] = '\0';
    for (uint32_t k = i + 1; k < l->count && parallel_starts(l->at[k], "  "); k++)
        text_add(out, l->at[k]);
}

static uint32_t skip_info(const lines *l, uint32_t i)
{
    for (i++; i < l->count && parallel_starts(l->at[i], "  "); i++) {
    }
    return i;
}

/* Chunk i's text without what its cuts add, appended to out, after
 * checking what they add:
 *   - a chunk after the first of its batch opens the batch's label again
 *     (the same text as the first chunk's first line);
 *   - a resuming chunk then opens the span's label (inside a span), begins
 *     rendering with VK_RENDERING_RESUMING_BIT and the info the
 *     suspending chunk began with (flags apart), then, inside a span, sets
 *     a merged span's local-read state and the span's render area as the
 *     viewport and scissor;
 *   - a chunk before the last of its batch ends with the instance's end
 *     where it suspends, then closes every label it has open (the batch's,
 *     and the span's inside a span); only then.
 * The last begin of a suspending chunk carries VK_RENDERING_SUSPENDING_BIT
 * and no other begin does; the bit is taken out of the text kept.
 * suspended: the info of the instance the chunk before suspended (in), then
 * of the one this chunk suspends (out). */
static void strip_cuts(const frame *f, uint32_t i, const char *batch_label, text *suspended, text *out,
                       cut_stats *st)
{
    const rg_chunk_info *c = &f->chunks[i];
    bool first = i == 0 || f->chunks[i - 1].batch != c->batch;
    bool last = i + 1 == f->count || f->chunks[i + 1].batch != c->batch;
    lines l = split(f->texts[i]);
    cr_assert_gt(l.count, 0, "chunk %u logged nothing", i);
    uint32_t s = 0, e = l.count;
    text info = { 0 };

    if (!first) {
        cr_assert_str_eq(l.at[0], batch_label, "chunk %u opens another batch label", i);
        s = 1;
    }
    if (c->resumes) {
        bool in_span = s < e && parallel_starts(l.at[s], "label ") && strcmp(l.at[s], "label end") != 0;
        s += in_span;
        cr_assert_lt(s, e, "chunk %u resumes nothing", i);
        unsigned flags = begin_flags(l.at[s]);
        cr_expect(flags & VK_RENDERING_RESUMING_BIT, "chunk %u resumes with flags %x: %s", i, flags, f->texts[i]);
        info_after(&l, s, &info);
        cr_expect_str_eq(info.s ? info.s : "", suspended->s ? suspended->s : "",
                         "chunk %u resumes another instance than chunk %u suspended", i, i - 1);
        char area[64] = "";
        int x = 0, y = 0;
        unsigned w = 0, h = 0;
        if (info.s && sscanf(info.s, "  area %d,%d %ux%u", &x, &y, &w, &h) == 4)
            snprintf(area, sizeof area, "%d,%d %ux%u", x, y, w, h);
        s = skip_info(&l, s);
        st->resumed++;
        if (in_span) {
            st->resumed_in_span++;
            if (s < e && parallel_starts(l.at[s], "locations ")) {
                st->resumed_local_read++;
                s++;
                cr_assert(s < e && parallel_starts(l.at[s], "inputs "), "chunk %u: locations without inputs", i);
                s = skip_info(&l, s);
            }
            cr_assert_lt(s + 1, e, "chunk %u: no viewport and scissor after resuming", i);
            int vx, vy, vw, vh;
            cr_expect_eq(sscanf(l.at[s], "viewport 0 %d,%d %dx%d", &vx, &vy, &vw, &vh), 4, "chunk %u: %s", i,
                         l.at[s]);
            cr_expect(vx == x && vy == y && (unsigned)vw == w && (unsigned)vh == h,
                      "chunk %u resumes at area %s, viewport %s", i, area, l.at[s]);
            char scissor[96];
            snprintf(scissor, sizeof scissor, "scissor 0 %s", area);
            cr_expect_str_eq(l.at[s + 1], scissor, "chunk %u resumes at area %s", i, area);
            s += 2;
        } else {
            st->resumed_between++;
        }
    }

    if (!last) {
        uint32_t close = e;
        if (c->suspends) {
            while (close > s && strcmp(l.at[close - 1], "end") != 0)
                close--;
            cr_assert_gt(close, s, "chunk %u suspends without an end: %s", i, f->texts[i]);
            close--;
        } else {
            close = e - 1;
        }
        uint32_t labels = e - close - (c->suspends ? 1 : 0);
        cr_expect(labels == 1 || (c->suspends && labels == 2), "chunk %u closes %u labels at its cut", i, labels);
        for (uint32_t k = close + (c->suspends ? 1 : 0); k < e; k++)
            cr_expect_str_eq(l.at[k], "label end", "chunk %u, at its cut: %s", i, l.at[k]);
        e = close;
    }

    /* The flags of the begins: SUSPENDING on the suspended instance's
     * begin only (the last of the chunk, or its resumption). */
    int32_t last_begin = -1, resumed_at = -1;
    for (uint32_t k = 0; k < l.count; k++)
        if (parallel_starts(l.at[k], "begin flags")) {
            if (resumed_at < 0 && c->resumes)
                resumed_at = (int32_t)k;
            last_begin = (int32_t)k;
        }
    for (uint32_t k = 0; k < l.count; k++) {
        if (!parallel_starts(l.at[k], "begin flags"))
            continue;
        unsigned flags = begin_flags(l.at[k]);
        bool want = c->suspends && (int32_t)k == last_begin;
        cr_expect_eq((flags & VK_RENDERING_SUSPENDING_BIT) != 0, want, "chunk %u (suspends %d), begin flags %x", i,
                     c->suspends, flags);
        if ((int32_t)k != resumed_at)
            cr_expect_eq(flags & VK_RENDERING_RESUMING_BIT, 0, "chunk %u: a begin resumes where it should not", i);
    }
    if (c->suspends) {
        cr_assert_geq(last_begin, 0, "chunk %u suspends an instance it never began", i);
        info_after(&l, (uint32_t)last_begin, suspended);
        st->suspended_twice += c->resumes && last_begin == resumed_at;
    }

    for (uint32_t k = s; k < e; k++) {
        if (parallel_starts(l.at[k], "begin flags")) {
            char line[64];
            snprintf(line, sizeof line, "begin flags %x", begin_flags(l.at[k]) & ~(unsigned)VK_RENDERING_SUSPENDING_BIT);
            text_add(out, line);
        } else {
            text_add(out, l.at[k]);
        }
    }
    free(info.s);
    lines_free(&l);
}

/* Batch b's chunks, concatenated without what the cuts add, equal whole's
 * text of batch b. */
static void expect_same_batches(const frame *whole, const frame *f, cut_stats *st)
{
    for (uint32_t b = 0; b < whole->count; b++) {
        text joined = { 0 }, suspended = { 0 };
        char label[256] = "";
        uint32_t chunks = 0;
        for (uint32_t i = 0; i < f->count; i++) {
            if (f->chunks[i].batch != b)
                continue;
            if (chunks++ == 0) {
                const char *nl = strchr(f->texts[i], '\n');
                size_t n = nl ? (size_t)(nl - f->texts[i]) : 0;
                cr_assert(n > 0 && n < sizeof label);
                memcpy(label, f->texts[i], n);
                cr_expect(parallel_starts(label, "label graph "), "batch %u's first chunk opens with %s", b, label);
            }
            strip_cuts(f, i, label, &suspended, &joined, st);
        }
        cr_expect_gt(chunks, 0, "batch %u has no chunk", b);
        cr_expect_str_eq(joined.s ? joined.s : "", whole->texts[b],
                         "batch %u, %u chunks (max_chunks %u, %s), concatenated without the cuts:\n%s\n"
                         "recorded whole:\n%s",
                         b, chunks, f->max_chunks, parallel_mode_names[f->mode], joined.s ? joined.s : "", whole->texts[b]);
        free(joined.s);
        free(suspended.s);
    }
}

void parallel_read_pixels(const scene *s, unsigned char *out)
{
    memcpy(out, eng_buffer_mapped(s->readback), s->readback_size);
}

void parallel_clear_readback(const scene *s)
{
    memset(eng_buffer_mapped(s->readback), 0, s->readback_size);
}

void parallel_expect_same_pixels(const unsigned char *want, const unsigned char *got, size_t size, const char *what)
{
    size_t first = size;
    size_t differ = 0;
    for (size_t i = 0; i < size; i++)
        if (want[i] != got[i]) {
            differ++;
            if (first == size)
                first = i;
        }
    cr_expect_eq(differ, 0, "%s: %zu of %zu bytes differ from rg_execute's frame, the first at %zu (%u, want %u)",
                 what, differ, size, first, first < size ? got[first] : 0, first < size ? want[first] : 0);
}

mode parallel_sweep_first = MODE_WORKERS;

void parallel_reference_open(parallel_reference *r, rg_graph *g, scene *s)
{
    r->want = calloc(2, s->readback_size); /* want, then got */
    r->whole = calloc(1, sizeof *r->whole);
    r->f = calloc(1, sizeof *r->f);
    cr_assert(r->want && r->whole && r->f);
    r->got = r->want + s->readback_size;
    parallel_clear_readback(s);
    rg_result res = parallel_record_frame(r->whole, g, MODE_WHOLE, 0, NULL, true);
    cr_assert_eq(res, RG_SUCCESS, "%s", rg_graph_error_message(g));
    parallel_submit_frame(r->whole);
    parallel_read_pixels(s, r->want);
}

void parallel_reference_close(parallel_reference *r)
{
    parallel_frame_free(r->whole);
    free(r->whole);
    free(r->f);
    free(r->want);
}

void parallel_sweep(rg_graph *g, scene *s, const uint32_t *maxes, uint32_t max_count, size_t pixel_bytes,
                  cut_stats *st)
{
    rg_workers *workers = NULL;
    cr_assert_eq(rg_workers_create(&(rg_workers_desc){ .thread_count = 4 }, &workers), RG_SUCCESS);
    parallel_reference ref;
    parallel_reference_open(&ref, g, s);
    frame *whole = ref.whole, *f = ref.f;
    for (uint32_t b = 0; b < whole->count; b++) {
        lines l = split(whole->texts[b]);
        for (uint32_t k = 0; k < l.count; k++)
            cr_expect(!parallel_starts(l.at[k], "begin flags") || begin_flags(l.at[k]) == 0,
                      "batch %u recorded whole: %s", b, l.at[k]);
        lines_free(&l);
    }

    for (uint32_t k = 0; k < max_count; k++) {
        for (mode m = parallel_sweep_first; m <= MODE_HAND; m++) {
            parallel_clear_readback(s);
            rg_result r = parallel_record_frame(f, g, m, maxes[k], workers, true);
            cr_assert_eq(r, RG_SUCCESS, "max_chunks %u, %s: rg_execute_end: %s", maxes[k], parallel_mode_names[m],
                         rg_graph_error_message(g));
            for (uint32_t i = 0; i < f->count && m != MODE_WORKERS; i++)
                cr_expect_eq(f->results[i], RG_SUCCESS, "chunk %u", i);
            cr_expect_eq(f->recorded, RG_SUCCESS);
            parallel_check_chunks(f, s->cost);
            expect_same_batches(whole, f, st);
            parallel_submit_frame(f);
            parallel_read_pixels(s, ref.got);
            char what[64];
            snprintf(what, sizeof what, "max_chunks %u, %s", maxes[k], parallel_mode_names[m]);
            parallel_expect_same_pixels(ref.want, ref.got, pixel_bytes, what);
            parallel_frame_free(f);
        }
    }
    parallel_reference_close(&ref);
    rg_workers_destroy(workers);
}

void parallel_expect_frame_renders(frame *f, rg_graph *g, scene *s, mode m, uint32_t max_chunks, rg_workers *workers,
                                   const unsigned char *want, unsigned char *got, const char *what)
{
    parallel_clear_readback(s);
    cr_assert_eq(parallel_record_frame(f, g, m, max_chunks, workers, false), RG_SUCCESS, "%s",
                 rg_graph_error_message(g));
    parallel_submit_frame(f);
    parallel_frame_free(f);
    parallel_read_pixels(s, got);
    parallel_expect_same_pixels(want, got, 2 * PIXELS_BYTES, what);
}
