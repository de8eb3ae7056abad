/* Window, context, swapchain and the frame loop of a demo. Under --headless
 * there is no window: GLFW is never initialized, the context has no surface
 * and the swapchain is offscreen (eng_swapchain_desc.offscreen); the loop
 * is the same, without events, and resizes go to the swapchain directly. */
#include "demo_app.h"
#include "demo_asset.h"
#include "demo_glfw.h"

#include <engine_files/engine_files.h>
#define GLFW_INCLUDE_NONE /* vulkan.h comes from engine.h */
#include <GLFW/glfw3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    demo_app *app = glfwGetWindowUserPointer(window);
    if (action != GLFW_PRESS)
        return;
    if (key == GLFW_KEY_ESCAPE)
        glfwSetWindowShouldClose(window, GLFW_TRUE);
    else if (app->on_key)
        app->on_key(app, key, app->key_user);
}

static void on_framebuffer_size(GLFWwindow *window, int width, int height)
{
    demo_app *app = glfwGetWindowUserPointer(window);
    if (app->swapchain)
        eng_swapchain_resize(app->swapchain, (uint32_t)width, (uint32_t)height);
}

/* Destroys in reverse order of creation; everything accepts NULL. */
static void teardown(demo_app *app)
{
    if (app->ctx)
        eng_context_wait_idle(app->ctx); /* the scene may still be in use by the GPU */
    if (app->graph_destroy)
        app->graph_destroy(app); /* before the scene its commands record */
    rg_workers_destroy(app->workers);
    app->workers = NULL;
    if (app->cleanup)
        app->cleanup(app->cleanup_user);
    app->cleanup = NULL;
    eng_swapchain_destroy(app->swapchain);
    app->swapchain = NULL;
    if (app->pipeline_cache) {
        /* A cache that cannot be written only costs the next start time. */
        if (eng_pipeline_cache_save(app->pipeline_cache) != ENG_SUCCESS)
            fprintf(stderr, "%s: pipeline cache not saved: %s\n", app->desc.name, eng_last_error());
        eng_pipeline_cache_destroy(app->pipeline_cache);
        app->pipeline_cache = NULL;
    }
}

static void destroy_context_and_window(demo_app *app)
{
    eng_context_destroy(app->ctx);
    app->ctx = NULL;
    if (app->window)
        glfwDestroyWindow(app->window);
    app->window = NULL;
    if (!app->opts.headless)
        glfwTerminate();
}

void demo_app_fail(demo_app *app, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", app->desc.name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    teardown(app);
    destroy_context_and_window(app);
    exit(1);
}

eng_pipeline_desc demo_app_pipeline_desc(const demo_app *app, const char *name, const uint32_t *vertex_spirv,
                                         size_t vertex_size, const uint32_t *fragment_spirv, size_t fragment_size)
{
    return (eng_pipeline_desc){ .name = name, .vertex_spirv = vertex_spirv, .vertex_size = vertex_size,
                                .fragment_spirv = fragment_spirv, .fragment_size = fragment_size,
                                .cache = app->pipeline_cache };
}

const char *demo_app_asset(demo_app *app, const char *given, const char *argv0, const char *name, char *path,
                           size_t size)
{
    if (given)
        return given;
    if (!demo_asset_path(argv0, name, path, size))
        demo_app_fail(app, "the path of assets/%s is too long", name);
    return path;
}

/* The GLFW window, its callbacks, and the context's window-system inputs. */
static void open_window(demo_app *app, eng_context_desc *cd)
{
    if (!glfwInit()) {
        const char *why = NULL;
        glfwGetError(&why);
        demo_app_fail(app, "glfwInit: %s", why ? why : "unknown error");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API); /* Vulkan draws, not GL */
    app->window = glfwCreateWindow((int)app->opts.width, (int)app->opts.height, app->desc.name, NULL, NULL);
    if (!app->window) {
        const char *why = NULL;
        glfwGetError(&why);
        demo_app_fail(app, "glfwCreateWindow: %s", why ? why : "unknown error");
    }
    glfwSetWindowUserPointer(app->window, app);
    glfwSetFramebufferSizeCallback(app->window, on_framebuffer_size);
    glfwSetKeyCallback(app->window, on_key);
    if (!demo_glfw_context_desc(app->window, cd))
        demo_app_fail(app, "GLFW finds no Vulkan surface support on this system");
}

void demo_app_init(demo_app *app, const demo_app_desc *desc, int argc, char **argv)
{
    *app = (demo_app){ .desc = *desc };
    app->opts = (demo_options){ .width = 1280, .height = 720, .samples = desc->default_samples };
    switch (demo_parse_options(argc, argv, desc->summary, &app->opts, desc->extra_flags, desc->extra_flag_count)) {
    case DEMO_PARSE_HELP: exit(0);
    case DEMO_PARSE_ERROR: exit(2);
    case DEMO_PARSE_RUN: break;
    }
    eng_context_desc cd = { .app_name = desc->name, .validation = app->opts.validation };
    if (!app->opts.headless)
        open_window(app, &cd);
    DEMO_CHECK(app, eng_context_create(&cd, &app->ctx));
    eng_swapchain_desc sd = {
        /* A --frames run is a test or a measurement: no reason to wait for
         * vertical blank. Interactively, vsync keeps the CPU cool. */
        .vsync = app->opts.frames == 0,
    };
    if (app->opts.headless)
        sd = (eng_swapchain_desc){ .offscreen = true, .width = app->opts.width, .height = app->opts.height };
    else
        demo_glfw_swapchain_desc(app->window, &sd);
    DEMO_CHECK(app, eng_swapchain_create(app->ctx, &sd, &app->swapchain));
    char cache_name[128], cache_path[4096];
    snprintf(cache_name, sizeof cache_name, "pipelines.%s.cache", desc->name);
    if (!demo_asset_path(argv[0], cache_name, cache_path, sizeof cache_path))
        demo_app_fail(app, "the path of assets/%s is too long", cache_name);
    DEMO_CHECK(app, eng_pipeline_cache_create(app->ctx, cache_path, &app->pipeline_cache));
    printf("%s: pipeline cache %s: %zu bytes reused\n", desc->name, cache_path,
           eng_pipeline_cache_loaded_bytes(app->pipeline_cache));
    printf("%s: %s, %ux%u, %ux MSAA\n", desc->name, eng_context_properties(app->ctx)->deviceName,
           eng_swapchain_extent(app->swapchain).width, eng_swapchain_extent(app->swapchain).height,
           app->opts.samples);
    if (app->opts.headless)
        printf("%s: headless: %llu frames into offscreen images, no window\n", desc->name,
               (unsigned long long)app->opts.frames);
    app->record_threads = app->opts.threads;
    app->record_chunks = app->opts.chunks;
    /* A fixed format, for tests to match. */
    if (app->record_threads)
        printf("%s: frames recorded in at most %u chunks on %u rg_workers thread%s\n", desc->name,
               demo_app_max_chunks(app), app->record_threads, app->record_threads > 1 ? "s" : "");
    else if (app->record_chunks)
        printf("%s: frames recorded in at most %u chunks on the calling thread\n", desc->name,
               demo_app_max_chunks(app));
}

void demo_app_on_key(demo_app *app, void (*fn)(demo_app *app, int key, void *user), void *user)
{
    app->on_key = fn;
    app->key_user = user;
}

void demo_app_on_cleanup(demo_app *app, void (*cleanup)(void *user), void *user)
{
    app->cleanup = cleanup;
    app->cleanup_user = user;
}

/* A new window size; headless, the offscreen swapchain's new size (what the
 * window's framebuffer-size event would bring). */
static void set_size(demo_app *app, uint32_t width, uint32_t height)
{
    if (app->window)
        glfwSetWindowSize(app->window, (int)width, (int)height);
    else
        eng_swapchain_resize(app->swapchain, width, height);
}

/* --resize-test: shrink at 1/4 of the run, grow at 1/2, and return to the
 * requested size at 3/4, so the last frame (the screenshot) has it again. */
static void resize_step(demo_app *app, uint64_t index, uint32_t *done)
{
    const uint64_t n = app->opts.frames;
    const uint32_t w = app->opts.width, h = app->opts.height;
    const uint32_t sizes[3][2] = { { w / 2, h / 2 }, { w + w / 4, h + h / 4 }, { w, h } };
    if (*done < 3 && index >= n * (*done + 1) / 4) {
        set_size(app, sizes[*done][0], sizes[*done][1]);
        (*done)++;
    }
}

/* --resize-storm: a different size every frame, from a fixed sequence
 * (deterministic), between a quarter and one and a half of the requested
 * size; the last frame gets the requested size back for the screenshot. */
static void storm_step(demo_app *app, uint64_t index)
{
    const uint32_t w = app->opts.width, h = app->opts.height;
    if (index + 1 >= app->opts.frames) {
        set_size(app, w, h);
        return;
    }
    uint32_t x = (uint32_t)(index * 2654435761u + 12345u);
    uint32_t sw = w / 4 + (x >> 8) % (w + w / 4), sh = h / 4 + (x >> 20) % (h + h / 4);
    set_size(app, sw < 16 ? 16 : sw, sh < 16 ? 16 : sh);
}

/* The frame time in the window title (no window headless: nothing). */
static void show_frame_time(demo_app *app, double *since, uint32_t *frames)
{
    if (!app->window)
        return;
    double now = glfwGetTime();
    (*frames)++;
    if (now - *since < 0.5)
        return;
    char title[128];
    snprintf(title, sizeof title, "%s - %ux MSAA - %.2f ms/frame%s%s", app->desc.name, app->opts.samples,
             1000.0 * (now - *since) / *frames, app->status[0] ? " - " : "", app->status);
    glfwSetWindowTitle(app->window, title);
    *since = now;
    *frames = 0;
}

static void save_screenshot(demo_app *app)
{
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    DEMO_CHECK(app, eng_swapchain_read_capture(app->swapchain, &rgba, &w, &h));
    eng_result r = eng_write_png(app->opts.screenshot, w, h, rgba);
    free(rgba);
    DEMO_CHECK(app, r);
    printf("%s: screenshot %s (%ux%u)\n", app->desc.name, app->opts.screenshot, w, h);
}

/* The validation layer's verdict and the resize test's: 0 when clean. */
static int exit_status(demo_app *app, uint64_t frames, uint32_t recreated)
{
    int status = 0;
    if (app->opts.resize_test || app->opts.resize_storm) {
        printf("%s: resize test: swapchain recreated %u times\n", app->desc.name, recreated);
        if (recreated == 0) {
            fprintf(stderr, "%s: resize test: the window was resized but the swapchain never recreated\n",
                    app->desc.name);
            status = 1;
        }
    }
    if (app->opts.validation) {
        eng_message_counts m = eng_context_messages(app->ctx);
        printf("%s: validation: %u warnings, %u errors\n", app->desc.name, m.warning, m.error);
        if (m.warning + m.error) {
            fprintf(stderr, "%s: validation reported problems; first: %s\n", app->desc.name,
                    eng_context_first_message(app->ctx));
            status = 1;
        }
    }
    printf("%s: %llu frames\n", app->desc.name, (unsigned long long)frames);
    return status;
}

/* presents: record submits and presents the frame itself. */
static int run_frames(demo_app *app, demo_record_fn record, bool presents, void *user)
{
    const demo_options *o = &app->opts;
    uint64_t index = 0;
    uint32_t resizes = 0, timed_frames = 0;
    double since = app->window ? glfwGetTime() : 0.0;
    for (;;) {
        bool closing = false; /* headless: no window, no events; --frames ends the run */
        if (app->window) {
            glfwPollEvents();
            closing = glfwWindowShouldClose(app->window);
        }
        /* Closed by the user: stop, unless an interactive run still owes
         * its screenshot, which is then this last frame. */
        if (closing && (o->frames || !o->screenshot))
            break;
        if (o->resize_test)
            resize_step(app, index, &resizes);
        if (o->resize_storm)
            storm_step(app, index);
        bool last = o->frames ? index + 1 == o->frames : closing;

        eng_frame frame;
        eng_result r = eng_swapchain_acquire(app->swapchain, &frame);
        if (r == ENG_NOT_READY && app->window) { /* minimized: sleep until something happens */
            glfwWaitEvents();
            continue;
        }
        DEMO_CHECK(app, r);
        if (last && o->screenshot)
            DEMO_CHECK(app, eng_swapchain_capture_next(app->swapchain));
        record(app, &frame, index, user);
        if (!presents)
            DEMO_CHECK(app, eng_swapchain_present(app->swapchain, &frame));
        if (last && o->screenshot)
            save_screenshot(app);
        index++;
        show_frame_time(app, &since, &timed_frames);
        if (last)
            break;
    }
    uint32_t recreated = eng_swapchain_recreate_count(app->swapchain);
    teardown(app);
    /* Counted after the scene and swapchain are gone, so that messages from
     * their destruction count too. */
    int status = exit_status(app, index, recreated);
    destroy_context_and_window(app);
    return status;
}

int demo_app_run_frames(demo_app *app, demo_record_fn record, void *user)
{
    return run_frames(app, record, false, user);
}

int demo_app_run_frames_presented(demo_app *app, demo_record_fn record_and_present, void *user)
{
    return run_frames(app, record_and_present, true, user);
}

bool demo_app_records_chunks(const demo_app *app)
{
    return app->record_threads || app->record_chunks;
}

uint32_t demo_app_max_chunks(const demo_app *app)
{
    return app->record_chunks ? app->record_chunks : 2 * app->record_threads;
}
