/* Demos declared as render graphs: the frame loop imports the acquired
 * swapchain image into the graph and runs the compiled graph with
 * eng_swapchain_present_graph: on every queue it uses (commands declared
 * with rg_user_desc.queue = RG_QUEUE_COMPUTE run on the compute queue where
 * the context has one: ENG_QUEUES), then presents; with --chunks or
 * --threads, eng_swapchain_present_graph_parallel records it in chunks
 * (demo_app_present_graph). The graph is declared
 * again, compiled and placed at the start, after a resize and when the
 * demo asks (demo_app_rebuild_graph, e.g. from a key); --report, --dot and
 * --timeline are written each time it is placed (--report turns the
 * graph's GPU timings on and prints its passes' times, heaviest first, a
 * few frames after each placement), and --merge sets the graph's span
 * merging.
 *
 *   demo_app_desc desc = { .name = "demo", ... };
 *   demo_app_init(&app, &desc, argc, argv);
 *   ...create pipelines and the scene...
 *   return demo_app_run_graph(&app, declare, update, &scene);
 *
 * declare() writes target->backbuffer as a color attachment or resolve
 * target (the swapchain image has no other usage but copies from it); the
 * import leaves it as a color attachment, whatever its last use. */
#ifndef DEMO_GRAPH_H
#define DEMO_GRAPH_H

#include "demo_app.h"

#include <rendergraph/rendergraph.h>

typedef struct demo_target {
    rg_texture backbuffer;            /* the acquired swapchain image, imported */
    VkFormat format;                  /* sRGB */
    VkExtent2D extent;
    VkSampleCountFlagBits samples;    /* --samples */
    /* Multisampled: resolve into a created texture blitted to the
     * backbuffer, which the graph can fold the span into (rendergraph.h
     * "Multisampling"); else resolve into the backbuffer. */
    bool resolve_texture;
} demo_target;

/* Declares the whole frame into g (freshly reset). Failures are the graph's
 * sticky errors: rg_compile reports them and the demo exits 1. */
typedef void (*demo_declare_fn)(demo_app *app, rg_graph *g, const demo_target *target, void *user);
/* Before each execute: per-frame state for the record callbacks (animation
 * follows index, not the clock). May be NULL. */
typedef void (*demo_update_fn)(demo_app *app, const eng_frame *frame, uint64_t index, void *user);

int demo_app_run_graph(demo_app *app, demo_declare_fn declare, demo_update_fn update, void *user);
/* Called once after each placement (the first execute after a declaration),
 * next to the frame loop's own memory line: a demo's own report. */
void demo_app_on_placed(demo_app *app, void (*on_placed)(demo_app *app, rg_graph *g, void *user));
/* Records each frame's graph on `threads` threads (rg_workers, the frame
 * cut into two chunks per thread unless --chunks says) through
 * eng_swapchain_present_graph_parallel; 0: on the calling thread.
 * demo_app_init sets it from --threads; call it before the first frame to
 * override.
 * The record callbacks must keep rendergraph.h's "Parallel recording"
 * contract whenever frames are recorded in chunks (--chunks alone too:
 * each chunk is a command buffer of its own, whose state no callback of
 * another chunk set). */
void demo_app_record_threads(demo_app *app, uint32_t threads);
/* Runs g as this frame, submits it and presents: through
 * eng_swapchain_present_graph_parallel (demo_app_max_chunks, on the
 * --threads rg_workers or the calling thread) when frames are recorded in
 * chunks, else eng_swapchain_present_graph. Exits through demo_app_fail
 * on failure. The frame loop of demo_app_run_graph uses it; a demo that
 * runs its graph itself (msaa) calls it from a demo_app_run_frames_presented
 * callback. */
void demo_app_present_graph(demo_app *app, eng_frame *frame, rg_graph *g, rg_texture backbuffer);
/* Declares, compiles and places the graph again before the next frame. */
void demo_app_rebuild_graph(demo_app *app);
/* The graph of the latest build (NULL before the first frame). */
rg_graph *demo_app_graph(const demo_app *app);
/* Frees the graph; the demo's teardown calls it through
 * demo_app.graph_destroy (accepts no graph). */
void demo_graph_destroy(demo_app *app);

/* The frame of a forward renderer: one span drawing into the backbuffer,
 * cleared to clear_rgba, through a depth attachment (depth_format) and, for
 * target->samples > 1, an MSAA color attachment resolved into it. Both are
 * cleared and discarded, so the graph makes them transient by inference. */
void demo_declare_forward(rg_graph *g, const demo_target *target, const float clear_rgba[4], VkFormat depth_format,
                          const char *name, rg_record_fn draw, void *user);
/* The same span with `count` draw commands in it, recorded in order: the
 * i-th calls draw with users[i] and is named names[i]. A frame recorded in
 * chunks may be cut between them (the span suspended and resumed), so
 * each must bind all the state it draws with. */
void demo_declare_forward_draws(rg_graph *g, const demo_target *target, const float clear_rgba[4],
                                VkFormat depth_format, const char *name, uint32_t count, const char *const *names,
                                rg_record_fn draw, void *const *users);

/* --merge as the graph's rg_graph_desc.merge (demo_app_run_graph passes it
 * when it creates the graph). */
rg_merge demo_graph_merge(demo_merge merge);

/* A whole-texture access. (Viewport and scissor: the graph sets them to
 * each span's render area.) */
rg_access demo_read(rg_texture texture, rg_usage usage);

/* The acquired swapchain image imported into g: contents not needed, first
 * written at COLOR_ATTACHMENT_OUTPUT (where the acquire semaphore is
 * waited), left as a color attachment, from where
 * eng_swapchain_present_graph finishes it (and re-points it at each
 * frame's image). */
rg_texture demo_import_swapchain(rg_graph *g, const eng_frame *frame);

/* After a placement at `extent`: prints the memory line, puts the
 * transient memory in the window title, and writes --report, --dot and
 * --timeline. */
void demo_graph_placed(demo_app *app, rg_graph *g, VkExtent2D extent);

/* Exits through demo_app_fail with the graph's message when call (an
 * rg_ call on graph) fails. */
#define DEMO_RG_CHECK(app, graph, call)                                                                   \
    do {                                                                                                  \
        rg_result demo_rr_ = (call);                                                                      \
        if (demo_rr_ != RG_SUCCESS)                                                                       \
            demo_app_fail((app), "%s: %s: %s", #call, rg_result_string(demo_rr_),                         \
                          rg_graph_error_message(graph));                                                \
    } while (0)

#endif
