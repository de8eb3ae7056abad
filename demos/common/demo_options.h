/* Command-line flags shared by the demos. */
#ifndef DEMO_OPTIONS_H
#define DEMO_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* A flag only one demo has. arg names its value ("PATH"); NULL makes it a
 * switch. The parser sets value to the argument, or to "" for a switch that
 * was given; it stays NULL when the flag is absent. */
typedef struct demo_flag {
    const char *name;
    const char *arg;
    const char *help;
    const char *value;
} demo_flag;

/* --headless without --frames renders this many frames. */
#define DEMO_HEADLESS_FRAMES 60

/* --merge: whether a render-graph demo's graph merges spans into one
 * rendering instance (rg_graph_desc.merge; VK_KHR_dynamic_rendering_local_read).
 * AUTO follows the driver's default (on for tile GPUs); ON merges wherever
 * the device has local read. */
typedef enum demo_merge {
    DEMO_MERGE_AUTO = 0,
    DEMO_MERGE_ON,
    DEMO_MERGE_OFF,
} demo_merge;

/* "auto", "on" or "off". */
const char *demo_merge_name(demo_merge merge);

/* --queues: where a render-graph demo's commands eligible for the compute
 * queue run (rg_graph_desc.queue_policy): there where the context has it,
 * all on graphics, or where the graph timed the frame faster (timings on). */
typedef enum demo_queues {
    DEMO_QUEUES_ELIGIBLE = 0,
    DEMO_QUEUES_SINGLE,
    DEMO_QUEUES_MEASURED,
} demo_queues;

/* "eligible", "single" or "measured". */
const char *demo_queues_name(demo_queues queues);

typedef struct demo_options {
    uint64_t frames;          /* 0 = until the window closes */
    /* No window, no surface, no display: frames go into the offscreen
     * swapchain's images (eng_swapchain_desc.offscreen). */
    bool headless;
    const char *screenshot;   /* NULL = none */
    uint32_t width, height;
    uint32_t samples;
    bool validation;
    bool resize_test;
    bool resize_storm;        /* a new window size every frame */
    /* Render-graph demos: the memory report, the DOT graph and the memory
     * timeline, written each time the graph is placed (NULL/false = not). */
    bool report;
    const char *dot;
    const char *timeline;
    /* Render-graph demos: the graph's frame file (rendergraph_frame,
     * docs/frame-files.md), written each time the graph is placed. */
    const char *save_frame;
    demo_merge merge;         /* render-graph demos: span merging */
    demo_queues queues;       /* render-graph demos: the queue policy */
    /* Render-graph demos: each frame recorded in chunks through
     * eng_swapchain_present_graph_parallel ("Parallel recording" in
     * rendergraph.h). --threads: on that many rg_workers threads;
     * --chunks: at most that many chunks (default two per thread), on the
     * calling thread without --threads. 0: not given; both 0: the frame is
     * recorded as one chunk, as before. */
    uint32_t threads;
    uint32_t chunks;
} demo_options;

/* The most --threads and --chunks take (rg_execute_desc.max_chunks is at
 * most 256 per batch). */
#define DEMO_MAX_THREADS 64
#define DEMO_MAX_CHUNKS 256

typedef enum demo_parse_result {
    DEMO_PARSE_RUN,
    DEMO_PARSE_HELP,          /* usage printed to stdout: exit 0 */
    DEMO_PARSE_ERROR,         /* message and usage printed to stderr: exit 2 */
} demo_parse_result;

/* Parses argv into opts, which holds the defaults on entry. */
demo_parse_result demo_parse_options(int argc, char **argv, const char *summary, demo_options *opts,
                                     demo_flag *extra, uint32_t extra_count);

#endif
