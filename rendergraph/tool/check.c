/* rgtool check EXPECTED.txt [--update]: a regression gate on frames'
 * figures. Each line of the file names a frame (relative to the file),
 * the options to plan it with, and the figures it should have:
 *
 *   # comment
 *   deferred.json pooled=25804800 barriers=35 merged=0 lazy=0
 *   deferred.json --profile mali-bifrost pooled=... merged=1 lazy=...
 *
 * A figure that moved is reported with its line, both values and the
 * difference, and the exit status is 1; --update rewrites the values in
 * place (comments, order and options kept) after an intended change.
 */
#include "rgtool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 2048
#define MAX_WORDS 32

/* A plan's figures by name. */
static bool figure(const rgt_plan *p, const char *name, uint64_t *out)
{
    const rg_memory_totals *t = &p->totals;
    struct { const char *name; uint64_t value; } figures[] = {
        {"pooled", t->pooled}, {"unaliased", t->unaliased}, {"lower_bound", t->lower_bound}, {"lazy", t->lazy},
        {"dedicated", t->dedicated}, {"pools", t->pools}, {"barriers", p->barrier_count},
        {"merged", p->merges_taken}, {"culled", p->culled_count}, {"batches", p->batch_count},
        {"commands", p->order_count},
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        if (strcmp(figures[i].name, name) == 0)
            return (*out = figures[i].value), true;
    return false;
}

/* The frame's path: relative to the expected file's folder. */
static void frame_path(const char *expected, const char *frame, char *out, size_t size)
{
    const char *slash = strrchr(expected, '/');
    if (frame[0] == '/' || !slash)
        snprintf(out, size, "%s", frame);
    else
        snprintf(out, size, "%.*s/%s", (int)(slash - expected), expected, frame);
}

/* One line: plan its frame with its options, compare (or update) its
 * figures; the line rewritten into `updated`. 0 same, 1 moved, 2 trouble. */
static int check_line(const char *expected, uint32_t number, char *line, bool update, FILE *updated)
{
    char *words[MAX_WORDS];
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w && n < MAX_WORDS; w = strtok(NULL, " \t\r\n"))
        words[n++] = w;
    rgt_options o = {0};
    int i = 1;
    for (; i < n && words[i][0] == '-'; i += 2) {
        const char *v = i + 1 < n ? words[i + 1] : "";
        if (strcmp(words[i], "--profile") == 0)
            o.profile = v;
        else if (strcmp(words[i], "--size") == 0 && sscanf(v, "%ux%u", &o.width, &o.height) == 2)
            ;
        else if (strcmp(words[i], "--merge") == 0 && rgt_merge_from_name(v, &o.merge))
            o.merge_given = true;
        else {
            fprintf(stderr, "%s:%u: unknown option '%s' (--profile, --size, --merge)\n", expected, number, words[i]);
            return RGT_EXIT_TROUBLE;
        }
    }
    char path[1024], where[1024 + 16];
    frame_path(expected, words[0], path, sizeof path);
    snprintf(where, sizeof where, "%s:%u", expected, number);
    o.where = where;
    rgt_frame frame;
    if (!rgt_load(path, &o, &frame))
        return RGT_EXIT_TROUBLE;
    rgt_plan plan;
    if (!rgt_plan_gather(path, &frame, &plan)) {
        rgt_frame_free(&frame);
        return RGT_EXIT_TROUBLE;
    }
    int status = RGT_EXIT_OK;
    for (int k = 0; k < i; k++)
        fprintf(updated, "%s%s", k ? " " : "", words[k]);
    for (int k = i; k < n; k++) {
        char *eq = strchr(words[k], '=');
        uint64_t want, got;
        if (eq)
            *eq = '\0';
        if (!eq || !figure(&plan, words[k], &got) || sscanf(eq + 1, "%" SCNu64, &want) != 1) {
            fprintf(stderr, "%s:%u: '%s' is not figure=value of a known figure\n", expected, number, words[k]);
            status = RGT_EXIT_TROUBLE;
            break;
        }
        fprintf(updated, " %s=%" PRIu64, words[k], update ? got : want);
        if (got == want)
            continue;
        double delta = ((double)got - (double)want) / (1024.0 * 1024.0);
        printf("%s:%u: %s%s%s: %s %" PRIu64 " -> %" PRIu64, expected, number, words[0], o.profile ? " --profile " : "",
               o.profile ? o.profile : "", words[k], want, got);
        if (want > 4096 || got > 4096)
            printf(" (%+.2f MiB)", delta);
        printf("%s\n", update ? ": updated" : ": update the expected value if this is intended (rgtool check --update)");
        if (!update)
            status = RGT_EXIT_DIFFERENT;
    }
    fputc('\n', updated);
    rgt_plan_free(&plan);
    rgt_frame_free(&frame);
    return status;
}

int rgt_check(const char *expected, bool update)
{
    FILE *in = fopen(expected, "r");
    if (!in) {
        fprintf(stderr, "rgtool: %s: cannot open it\n", expected);
        return RGT_EXIT_TROUBLE;
    }
    /* The file as it should be, kept aside until every line passed (a
     * temporary file: standard C, on Windows too). */
    FILE *updated = tmpfile();
    char line[MAX_LINE];
    int status = updated ? RGT_EXIT_OK : RGT_EXIT_TROUBLE;
    uint32_t number = 0, frames = 0;
    while (updated && status != RGT_EXIT_TROUBLE && fgets(line, sizeof line, in)) {
        number++;
        const char *p = line + strspn(line, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0') {
            fputs(line, updated);
            continue;
        }
        int s = check_line(expected, number, line, update, updated);
        status = s > status ? s : status;
        frames++;
    }
    fclose(in);
    if (status == RGT_EXIT_OK && update) {
        FILE *out = fopen(expected, "w");
        bool written = out && fflush(updated) == 0 && fseek(updated, 0, SEEK_SET) == 0;
        int c;
        while (written && (c = fgetc(updated)) != EOF)
            written = fputc(c, out) != EOF;
        written = written && !ferror(updated);
        if (out && fclose(out) != 0)
            written = false;
        if (!written) {
            fprintf(stderr, "rgtool: %s: cannot write it\n", expected);
            status = RGT_EXIT_TROUBLE;
        }
    }
    if (updated)
        fclose(updated);
    if (status == RGT_EXIT_OK)
        printf("%s: %u frame%s as expected%s\n", expected, frames, frames == 1 ? "" : "s", update ? " (updated)" : "");
    return status;
}
