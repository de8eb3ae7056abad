/* The frame around a demo: flags, a GLFW window (glued to the engine by
 * demo_glfw.h), the engine context and swapchain, the frame loop (resize,
 * minimize, --frames, --screenshot, --resize-test) and the exit path
 * (validation summary, exit status). Under --headless there is no window
 * and no GLFW at all: the swapchain is offscreen and the loop the same.
 *
 *   demo_app app;
 *   demo_app_init(&app, &desc, argc, argv);      exits on bad flags or failure
 *   struct scene s = {0};
 *   demo_app_on_cleanup(&app, scene_destroy, &s);
 *   DEMO_CHECK(&app, eng_...(app.ctx, ...));      create the scene
 *   return demo_app_run_graph(&app, declare, update, &s);  (demo_graph.h)
 *
 * On any failure DEMO_CHECK prints "<call>: <result>: <message>", runs the
 * cleanup callback, destroys the swapchain, context and window, and exits 1:
 * the asserting style the project allows in demos only. */
#ifndef DEMO_APP_H
#define DEMO_APP_H

#include "demo_options.h"

#include <engine/engine.h>

typedef struct demo_app_desc {
    const char *name;                     /* window title, message prefix */
    const char *summary;                  /* one line for --help */
    uint32_t default_samples;             /* --samples, for the graph to use */
    float clear_color[4];                 /* linear; the swapchain is sRGB */
    demo_flag *extra_flags;               /* demo-specific flags, filled in by init */
    uint32_t extra_flag_count;
} demo_app_desc;

/* demo_app_desc's extra flags from an array: .extra_flags and its count. */
#define DEMO_APP_FLAGS(array) .extra_flags = (array), .extra_flag_count = (uint32_t)(sizeof(array) / sizeof((array)[0]))

typedef struct demo_graph_state demo_graph_state;
struct rg_graph;

typedef struct demo_app {
    demo_app_desc desc;
    demo_options opts;
    struct GLFWwindow *window;            /* NULL under --headless */
    eng_context *ctx;
    eng_swapchain *swapchain;
    /* Saved to <executable dir>/assets/pipelines.<demo>.cache at exit and
     * reused at the next start: pass it as eng_pipeline_desc.cache. */
    eng_pipeline_cache *pipeline_cache;
    void (*cleanup)(void *user);
    void *cleanup_user;
    void (*on_key)(struct demo_app *app, int key, void *user);
    void *key_user;
    char status[96];                      /* appended to the window title */
    struct demo_graph_state *graph;       /* render-graph demos (demo_graph.h) */
    /* Frees graph, before the scene's cleanup (set by demo_graph.c, so the
     * app's loop does not call back into it). */
    void (*graph_destroy)(struct demo_app *app);
    void (*placed_hook)(struct demo_app *app, struct rg_graph *g, void *user);
    /* Frames recorded in chunks (demo_graph.h, demo_app_present_graph):
     * from --threads and --chunks, or demo_app_record_threads. */
    uint32_t record_threads;              /* rg_workers threads; 0 = the calling thread */
    uint32_t record_chunks;               /* max_chunks; 0 = two per thread (one chunk without threads) */
    struct rg_workers *workers;           /* made at the first frame recorded on threads */
} demo_app;

void demo_app_init(demo_app *app, const demo_app_desc *desc, int argc, char **argv);
void demo_app_on_cleanup(demo_app *app, void (*cleanup)(void *user), void *user);
/* Whether frames are recorded in chunks (--chunks, --threads or
 * demo_app_record_threads), and the max_chunks they are recorded with:
 * --chunks, else two per thread; 0 when not in chunks. */
bool demo_app_records_chunks(const demo_app *app);
uint32_t demo_app_max_chunks(const demo_app *app);
/* Called on each key press (GLFW_KEY_*); Escape always closes the window. */
void demo_app_on_key(demo_app *app, void (*on_key)(demo_app *app, int key, void *user), void *user);

/* Records a whole frame into frame->cmd, leaving the swapchain image ready
 * for present (eng_swapchain_finish_image). index counts drawn frames from
 * 0: animation follows it, not the clock, so the same flags always give the
 * same picture. */
typedef void (*demo_record_fn)(demo_app *app, eng_frame *frame, uint64_t index, void *user);
/* The frame loop: record, then eng_swapchain_present; returns the process
 * exit status. */
int demo_app_run_frames(demo_app *app, demo_record_fn record, void *user);
/* The same loop for a function that also submits and presents the frame it
 * records (demo_app_run_graph's, through eng_swapchain_present_graph). */
int demo_app_run_frames_presented(demo_app *app, demo_record_fn record_and_present, void *user);

/* Prints "<name>: <message>", destroys everything and exits 1. */
_Noreturn void demo_app_fail(demo_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A pipeline desc of the app: name, the vertex and fragment shaders, the
 * app's pipeline cache; the caller adds the rest. */
eng_pipeline_desc demo_app_pipeline_desc(const demo_app *app, const char *name, const uint32_t *vertex_spirv,
                                         size_t vertex_size, const uint32_t *fragment_spirv, size_t fragment_size);

/* A file a flag names: given when the flag was set, else the path of
 * assets/<name> next to the executable, written to path (fails the app
 * when it does not fit). */
const char *demo_app_asset(demo_app *app, const char *given, const char *argv0, const char *name, char *path,
                           size_t size);

#define DEMO_CHECK(app, call)                                                        \
    do {                                                                             \
        eng_result demo_r_ = (call);                                                 \
        if (demo_r_ != ENG_SUCCESS)                                                  \
            demo_app_fail((app), "%s: %s: %s", #call, eng_result_string(demo_r_),   \
                          eng_last_error());                                         \
    } while (0)

/* For the few raw Vulkan calls the demos make (descriptors, sampler). */
#define DEMO_VK_CHECK(app, call)                                                     \
    do {                                                                             \
        VkResult demo_vr_ = (call);                                                  \
        if (demo_vr_ != VK_SUCCESS)                                                  \
            demo_app_fail((app), "%s: VkResult %d", #call, (int)demo_vr_);           \
    } while (0)

#endif
