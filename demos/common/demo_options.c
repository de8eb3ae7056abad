/* Flag parsing. Strict on purpose: a typo in a CTest command line must fail
 * loudly (exit 2) rather than run a different test than the one meant. */
#include "demo_options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_STR_(x) #x
#define DEMO_STR(x) DEMO_STR_(x)

static void usage(FILE *f, const char *prog, const char *summary, const demo_options *defaults,
                  const demo_flag *extra, uint32_t extra_count)
{
    fprintf(f,
            "%s: %s\n"
            "usage: %s [flags]\n"
            "  --frames N          render N frames, then exit (default: until the window closes;\n"
            "                      with --headless, %d)\n"
            "  --screenshot FILE   write the last frame to FILE as PNG\n"
            "  --width W           window width (default %" PRIu32 ")\n"
            "  --height H          window height (default %" PRIu32 ")\n"
            "  --samples S         MSAA samples per pixel: 1, 2, 4, 8, 16, 32 or 64 (default %" PRIu32 ")\n"
            "  --validation        enable the validation layer with synchronization validation;\n"
            "                      exit non-zero if it reports any warning or error\n"
            "  --resize-test       resize the window during a --frames run\n"
            "  --resize-storm      give the window a new size every frame of a --frames run\n"
            "  --report            print the render graph's memory report (each time it is placed) and,\n"
            "                      a few frames later, its passes' GPU times, heaviest first\n"
            "  --dot FILE          write the render graph as Graphviz DOT\n"
            "  --timeline FILE     write the render graph's memory timeline as SVG\n"
            "  --save-frame FILE   write the render graph's frame as a frame file (rgtool plans it)\n"
            "  --merge MODE        render-graph span merging (VK_KHR_dynamic_rendering_local_read):\n"
            "                      auto (the driver's default: on for tile GPUs), on (wherever the\n"
            "                      device has local read) or off (default %s)\n"
            "  --queues POLICY     where passes eligible for async compute run: eligible (on the\n"
            "                      compute queue where there is one), single (all on graphics) or\n"
            "                      measured (timed both ways, the faster kept and printed;\n"
            "                      default %s)\n"
            "  --threads N         record each frame on N threads (1 to %d: rg_workers, two chunks\n"
            "                      per thread unless --chunks says; the same picture)\n"
            "  --chunks N          record each frame in at most N chunks (1 to %d: command buffers\n"
            "                      of their own, spans suspended and resumed across them; on the\n"
            "                      calling thread unless --threads says; the same picture)\n"
            "  --headless          no window and no display: render into offscreen images of the\n"
            "                      same size and format, the same frames and screenshot; keys are\n"
            "                      not read, and --resize-test and --resize-storm resize the images\n",
            prog, summary, prog, DEMO_HEADLESS_FRAMES, defaults->width, defaults->height, defaults->samples,
            demo_merge_name(defaults->merge), demo_queues_name(defaults->queues), DEMO_MAX_THREADS, DEMO_MAX_CHUNKS);
    for (uint32_t i = 0; i < extra_count; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", extra[i].name, extra[i].arg ? " " : "",
                 extra[i].arg ? extra[i].arg : "");
        fprintf(f, "  %-19s %s\n", left, extra[i].help);
    }
    fprintf(f, "  --help              show this text\n");
}

/* The --merge and --queues words, indexed by demo_merge and demo_queues
 * (3 values each). */
static const char *const merge_words[3] = { [DEMO_MERGE_AUTO] = "auto", [DEMO_MERGE_ON] = "on",
                                            [DEMO_MERGE_OFF] = "off" };
static const char *const queues_words[3] = { [DEMO_QUEUES_ELIGIBLE] = "eligible", [DEMO_QUEUES_SINGLE] = "single",
                                             [DEMO_QUEUES_MEASURED] = "measured" };

const char *demo_merge_name(demo_merge merge)
{
    return merge_words[(unsigned)merge < 3 ? merge : DEMO_MERGE_AUTO];
}

const char *demo_queues_name(demo_queues queues)
{
    return queues_words[(unsigned)queues < 3 ? queues : DEMO_QUEUES_ELIGIBLE];
}

/* One of the 3 words (the --merge or --queues ones): its index; anything
 * else is a bad flag. */
static bool parse_word(const char *s, const char *const words[3], int *out)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, words[i]) == 0) {
            *out = i;
            return true;
        }
    return false;
}

/* A whole decimal number in [min, max]; anything else is a bad flag. */
static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* The option a flag without a value turns on; NULL for any other flag. */
static bool *switch_of(demo_options *opts, const char *flag)
{
    if (strcmp(flag, "--validation") == 0)
        return &opts->validation;
    if (strcmp(flag, "--resize-test") == 0)
        return &opts->resize_test;
    if (strcmp(flag, "--resize-storm") == 0)
        return &opts->resize_storm;
    if (strcmp(flag, "--headless") == 0)
        return &opts->headless;
    return strcmp(flag, "--report") == 0 ? &opts->report : NULL;
}

demo_parse_result demo_parse_options(int argc, char **argv, const char *summary, demo_options *opts,
                                     demo_flag *extra, uint32_t extra_count)
{
    const char *prog = argc > 0 ? argv[0] : "demo";
    const demo_options defaults = *opts;
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        bool ok = true, takes_value = true, *on;
        const char *want = "a value";
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            usage(stdout, prog, summary, &defaults, extra, extra_count);
            return DEMO_PARSE_HELP;
        } else if (strcmp(flag, "--frames") == 0) {
            ok = parse_u64(value, 1, UINT32_MAX, &n);
            opts->frames = n;
            want = "a number of frames, 1 or more";
        } else if (strcmp(flag, "--screenshot") == 0) {
            ok = value && *value;
            opts->screenshot = value;
            want = "a file name";
        } else if (strcmp(flag, "--width") == 0 || strcmp(flag, "--height") == 0) {
            ok = parse_u64(value, 16, 16384, &n);
            *(flag[2] == 'w' ? &opts->width : &opts->height) = (uint32_t)n;
            want = "a size from 16 to 16384";
        } else if (strcmp(flag, "--samples") == 0) {
            /* Only the shape is checked here; whether the device offers the
             * count is the swapchain's question (exit 1, not 2). */
            ok = parse_u64(value, 1, 64, &n) && (n & (n - 1)) == 0;
            opts->samples = (uint32_t)n;
            want = "a power of two from 1 to 64";
        } else if ((on = switch_of(opts, flag)) != NULL) {
            *on = true;
            takes_value = false;
        } else if (strcmp(flag, "--merge") == 0 || strcmp(flag, "--queues") == 0) {
            bool merge = flag[2] == 'm';
            int word = 0;
            ok = parse_word(value, merge ? merge_words : queues_words, &word);
            if (merge)
                opts->merge = (demo_merge)word;
            else
                opts->queues = (demo_queues)word;
            want = merge ? "auto, on or off" : "eligible, single or measured";
        } else if (strcmp(flag, "--threads") == 0) {
            ok = parse_u64(value, 1, DEMO_MAX_THREADS, &n);
            opts->threads = (uint32_t)n;
            want = "a number from 1 to " DEMO_STR(DEMO_MAX_THREADS);
        } else if (strcmp(flag, "--chunks") == 0) {
            ok = parse_u64(value, 1, DEMO_MAX_CHUNKS, &n);
            opts->chunks = (uint32_t)n;
            want = "a number from 1 to " DEMO_STR(DEMO_MAX_CHUNKS);
        } else if (strcmp(flag, "--dot") == 0 || strcmp(flag, "--timeline") == 0 ||
                   strcmp(flag, "--save-frame") == 0) {
            ok = value && *value;
            *(flag[2] == 'd' ? &opts->dot : flag[2] == 't' ? &opts->timeline : &opts->save_frame) = value;
            want = "a file name";
        } else {
            demo_flag *match = NULL;
            for (uint32_t e = 0; e < extra_count && !match; e++)
                if (strcmp(flag, extra[e].name) == 0)
                    match = &extra[e];
            if (!match) {
                fprintf(stderr, "%s: unknown flag '%s'\n", prog, flag);
                usage(stderr, prog, summary, &defaults, extra, extra_count);
                return DEMO_PARSE_ERROR;
            }
            takes_value = match->arg != NULL;
            ok = !takes_value || (value && *value);
            match->value = takes_value ? value : "";
            want = match->arg;
        }
        if (!ok) {
            fprintf(stderr, "%s: %s needs %s, got %s%s%s\n", prog, flag, want, value ? "'" : "",
                    value ? value : "nothing", value ? "'" : "");
            usage(stderr, prog, summary, &defaults, extra, extra_count);
            return DEMO_PARSE_ERROR;
        }
        if (takes_value)
            i++;
    }
    if (opts->headless && opts->frames == 0) /* no window to close */
        opts->frames = DEMO_HEADLESS_FRAMES;
    if (opts->resize_test && opts->frames < 4) {
        fprintf(stderr, "%s: --resize-test needs --frames 4 or more (it resizes at 1/4, 1/2 and 3/4)\n", prog);
        return DEMO_PARSE_ERROR;
    }
    if (opts->resize_storm && (opts->frames < 2 || opts->resize_test)) {
        fprintf(stderr, "%s: --resize-storm needs --frames 2 or more, and not --resize-test\n", prog);
        return DEMO_PARSE_ERROR;
    }
    return DEMO_PARSE_RUN;
}
