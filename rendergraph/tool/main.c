/* rgtool: what a frame file's graph compiles and places to, without a
 * device (docs/frame-files.md). Argument parsing and dispatch; each
 * subcommand's work lives in its own file (rgtool.h). Exit statuses as
 * diff(1): 0 fine (or the same), 1 different (diff), 2 trouble. */
#include "rgtool.h"

#include <stdlib.h>
#include <string.h>

static const char synopsis[] = "usage: rgtool plan FRAME.json [--profile NAME] [--size WxH] [--merge M] [--json] [--verbose]\n"
                               "       rgtool diff A.json B.json [--profile NAME] [--size WxH] [--profile-b NAME]\n"
                               "                   [--size-b WxH] [--json]\n"
                               "       rgtool dot FRAME.json -o OUT.dot [--profile NAME] [--size WxH]\n"
                               "       rgtool timeline FRAME.json -o OUT.svg [--profile NAME] [--size WxH]\n"
                               "       rgtool check EXPECTED.txt [--update]\n"
                               "       rgtool --help | --version\n";

/* --help: the synopsis and what each option does. */
static void usage(FILE *out)
{
    fputs(synopsis, out);
    fprintf(out, "\n"
                 "Loads a frame file (rendergraph_frame), compiles and places it without a\n"
                 "device, and reports the plan: execution order with queues, batches and\n"
                 "rendering instances, culled commands and why, barriers, merges, memory.\n"
                 "\n"
                 "  --profile NAME  compile for a tile profile instead of the saved one (the\n"
                 "                  list below). The saved capabilities with that profile\n"
                 "                  (tile profiles: local read on); memory is the saved\n"
                 "                  device's when profile and size are the saved ones, else\n"
                 "                  modelled (the output says which). The plan's 'tiles'\n"
                 "                  section says what that GPU does with each rendering\n"
                 "                  instance (docs/tiles.md).\n"
                 "  --size WxH      the frame at another size (textures of the saved size).\n"
                 "  --merge M       the graph's span merging instead of the saved: auto, on, off.\n"
                 "  --profile-b NAME, --size-b WxH\n"
                 "                  diff: B's profile and size (default: A's), so that\n"
                 "                  rgtool diff F.json F.json --profile-b apple7 compares\n"
                 "                  one frame on two profiles.\n"
                 "  --json          one JSON object on stdout (plan, diff).\n"
                 "  --verbose, -v   every barrier: resource, layouts, stages, access.\n"
                 "  -o PATH         output file of dot and timeline.\n"
                 "\n"
                 "check reads lines 'FRAME [--profile NAME] [--size WxH] [--merge M]\n"
                 "figure=value ...' (FRAME relative to the file; figures: pooled, unaliased,\n"
                 "lower_bound, lazy, dedicated, pools, barriers, merged, culled, batches,\n"
                 "commands) and fails naming each figure that moved; --update writes the\n"
                 "new values instead.\n"
                 "\n"
                 "Exit status: 0 success (diff: identical plans), 1 diff: plans differ,\n"
                 "2 trouble (bad usage, a file that does not load or place).\n"
                 "\nProfiles (--profile):\n");
    for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT; p++) {
        rg_tile_info t = rg_tile_profile_info((rg_tile_profile)p);
        fprintf(out, "  %-14s %s%s%s\n", t.key, t.name, t.alias_of ? ", answers as " : "",
                t.alias_of ? t.alias_of : "");
    }
}

static bool parse_size(const char *text, uint32_t *w, uint32_t *h)
{
    char *end;
    unsigned long x = strtoul(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return false;
    const char *rest = end + 1;
    unsigned long y = strtoul(rest, &end, 10);
    if (end == rest || *end || x == 0 || y == 0 || x > UINT32_MAX || y > UINT32_MAX || text[0] == '-' || rest[0] == '-')
        return false;
    *w = (uint32_t)x;
    *h = (uint32_t)y;
    return true;
}

/* An option's value: "--name=value" or the next argument. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    if (!strncmp(argv[*i], name, len) && argv[*i][len] == '=')
        return argv[*i] + len + 1;
    if (strcmp(argv[*i], name))
        return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "rgtool: %s needs a value\n", name);
        return "";
    }
    return argv[++*i];
}

/* Splits argv after the subcommand into options and up to two files;
 * false (printed) on a mistake. */
static bool parse(int argc, char **argv, rgt_options *o, const char **files, int *file_count)
{
    *file_count = 0;
    for (int i = 2; i < argc; i++) {
        const char *v;
        if ((v = option_value(argc, argv, &i, "--profile"))) {
            o->profile = v;
            if (!v[0])
                return false;
        } else if ((v = option_value(argc, argv, &i, "--size"))) {
            if (!parse_size(v, &o->width, &o->height)) {
                fprintf(stderr, "rgtool: --size wants WIDTHxHEIGHT (1280x720), got '%s'\n", v);
                return false;
            }
        } else if ((v = option_value(argc, argv, &i, "--profile-b"))) {
            o->profile_b = v;
            if (!v[0])
                return false;
        } else if ((v = option_value(argc, argv, &i, "--size-b"))) {
            if (!parse_size(v, &o->width_b, &o->height_b)) {
                fprintf(stderr, "rgtool: --size-b wants WIDTHxHEIGHT (1280x720), got '%s'\n", v);
                return false;
            }
        } else if ((v = option_value(argc, argv, &i, "-o")) || (v = option_value(argc, argv, &i, "--output"))) {
            o->output = v;
            if (!v[0])
                return false;
        } else if ((v = option_value(argc, argv, &i, "--merge"))) {
            o->merge_given = true;
            if (!rgt_merge_from_name(v, &o->merge)) {
                fprintf(stderr, "rgtool: --merge wants auto, on or off, got '%s'\n", v);
                return false;
            }
        } else if (!strcmp(argv[i], "--update")) {
            o->update = true;
        } else if (!strcmp(argv[i], "--json")) {
            o->json = true;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            o->verbose = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "rgtool: unknown option '%s'\n", argv[i]);
            return false;
        } else if (*file_count < 2) {
            files[(*file_count)++] = argv[i];
        } else {
            fprintf(stderr, "rgtool: too many files ('%s')\n", argv[i]);
            return false;
        }
    }
    return true;
}

static int run_plan(const char *file, const rgt_options *o)
{
    rgt_frame frame;
    if (!rgt_load(file, o, &frame))
        return RGT_EXIT_TROUBLE;
    rgt_plan plan;
    int status = RGT_EXIT_TROUBLE;
    if (rgt_plan_gather(file, &frame, &plan)) {
        if (o->json)
            status = rgt_print_json(&plan, o->verbose, stdout) ? RGT_EXIT_OK : RGT_EXIT_TROUBLE;
        else {
            rgt_print_text(&plan, o->verbose, stdout);
            status = RGT_EXIT_OK;
        }
        rgt_plan_free(&plan);
    }
    rgt_frame_free(&frame);
    return status;
}

static int run_diff(const char *file_a, const char *file_b, const rgt_options *o)
{
    /* B as A unless --profile-b or --size-b say otherwise: one frame
     * against itself on another profile or size. */
    rgt_options ob = *o;
    if (o->profile_b)
        ob.profile = o->profile_b;
    if (o->width_b) {
        ob.width = o->width_b;
        ob.height = o->height_b;
    }
    rgt_frame fa, fb;
    if (!rgt_load(file_a, o, &fa))
        return RGT_EXIT_TROUBLE;
    if (!rgt_load(file_b, &ob, &fb)) {
        rgt_frame_free(&fa);
        return RGT_EXIT_TROUBLE;
    }
    rgt_plan pa, pb;
    int status = RGT_EXIT_TROUBLE;
    if (rgt_plan_gather(file_a, &fa, &pa)) {
        if (rgt_plan_gather(file_b, &fb, &pb)) {
            status = rgt_diff(&pa, &pb, o->json, stdout);
            rgt_plan_free(&pb);
        }
        rgt_plan_free(&pa);
    }
    rgt_frame_free(&fa);
    rgt_frame_free(&fb);
    return status;
}

static int run_export(const char *file, const rgt_options *o, int (*write)(const rgt_frame *, const char *))
{
    rgt_frame frame;
    if (!rgt_load(file, o, &frame))
        return RGT_EXIT_TROUBLE;
    int status = write(&frame, o->output);
    rgt_frame_free(&frame);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(synopsis, stderr);
        return RGT_EXIT_TROUBLE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return RGT_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("rgtool %s\n", rg_version_string());
        return RGT_EXIT_OK;
    }
    rgt_options o = {0};
    const char *files[2] = {NULL, NULL};
    int n = 0;
    bool plan = !strcmp(cmd, "plan"), diff = !strcmp(cmd, "diff"), dot = !strcmp(cmd, "dot"),
         timeline = !strcmp(cmd, "timeline"), check = !strcmp(cmd, "check");
    bool ok = plan || diff || dot || timeline || check;
    if (!ok)
        fprintf(stderr, "rgtool: unknown command '%s'\n", cmd);
    ok = ok && parse(argc, argv, &o, files, &n); /* parse says why not */
    if (ok && n != (diff ? 2 : 1)) {
        fprintf(stderr, "rgtool: %s takes %s\n", cmd, diff ? "two frame files" : "one frame file");
        ok = false;
    }
    if (ok && (dot || timeline) && !o.output) {
        fprintf(stderr, "rgtool: %s needs -o PATH\n", cmd);
        ok = false;
    }
    if (ok && o.update && !check) {
        fprintf(stderr, "rgtool: --update is check's\n");
        ok = false;
    }
    if (ok && check)
        return rgt_check(files[0], o.update);
    if (ok && plan)
        return run_plan(files[0], &o);
    if (ok && diff)
        return run_diff(files[0], files[1], &o);
    if (ok)
        return run_export(files[0], &o, dot ? rgt_write_dot : rgt_write_timeline);
    /* Bad usage: the synopsis only, so the mistake stays on screen. */
    fputs(synopsis, stderr);
    return RGT_EXIT_TROUBLE;
}
