/* postfx: a scene into an HDR target, then a chain of fullscreen passes
 * (edges, bloom, tilt-shift blur, grade, chromatic aberration, vignette,
 * FXAA) into the swapchain image, all declared as one render graph. Each
 * pass's target lives only from its pass to the next, so the graph aliases
 * the chain's targets into about two targets' worth of pooled memory; the
 * demo prints how many it declared against what the pools hold. Keys 1..9
 * toggle the passes, and the graph is declared, compiled and placed again
 * while the demo runs (postfx.h has the map of the files). --trails adds
 * motion trails, kept from frame to frame in a history texture. */
#include "postfx.h"

#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>

/* --toggle-test: the passes at 1/4, 1/2 and 3/4 of a --frames run (the last
 * step restores the initial set, which the screenshot then shows): none at
 * all (the copy pass alone), every other pass, the initial set. */
enum { TOGGLE_STEPS = 3 };

typedef struct toggle_test {
    bool on;
    uint32_t initial;
    uint32_t done;                    /* steps taken */
} toggle_test;

typedef struct demo {
    postfx fx;
    toggle_test toggles;
} demo;

static void cleanup(void *user)
{
    postfx *fx = &((demo *)user)->fx;
    postfx_pipelines_destroy(fx);
    postfx_scene_destroy(&fx->scene);
    demo_descriptors_destroy(&fx->descriptors);
}

static void print_passes(const char *what, uint32_t mask)
{
    char names[128];
    postfx_passes_string(mask, names, sizeof names);
    printf("postfx: %s%s%s\n", what, mask ? ": " : ": none (the scene is copied)", mask ? names : "");
    fflush(stdout);
}

/* Keys 1..9 toggle the pass of that number, 0 all of them on or off; the
 * graph is declared again before the next frame. */
static void on_key(demo_app *app, int key, void *user)
{
    postfx *fx = &((demo *)user)->fx;
    if (key == GLFW_KEY_T) {
        fx->trails = !fx->trails;
        printf("postfx: trails %s\n", fx->trails ? "on" : "off");
        fflush(stdout);
        demo_app_rebuild_graph(app);
        return;
    }
    if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9)
        fx->wanted ^= 1u << (key - GLFW_KEY_1);
    else if (key == GLFW_KEY_0)
        fx->wanted = fx->wanted == POSTFX_ALL ? 0 : POSTFX_ALL;
    else
        return;
    print_passes("passes", fx->wanted);
    fx->toggle_pending = true;
    demo_app_rebuild_graph(app);
}

static void declare(demo_app *app, rg_graph *g, const demo_target *target, void *user)
{
    (void)app;
    postfx *fx = &((demo *)user)->fx;
    fx->declarations++;
    if (fx->toggle_pending)
        fx->toggle_rebuilds++;
    fx->toggle_pending = false;
    fx->extent = target->extent;
    fx->target_count = 0;
    rg_texture scene = postfx_declare_scene(fx, g, target);
    if (fx->trails)
        scene = postfx_declare_trails(fx, g, target, scene);
    postfx_declare_chain(fx, g, target, scene);
    fx->memory_line_due = true;
}

static void toggle_step(demo_app *app, demo *d, uint64_t index)
{
    toggle_test *t = &d->toggles;
    const uint64_t n = app->opts.frames;
    if (!t->on || t->done == TOGGLE_STEPS || index < n * (t->done + 1) / 4)
        return;
    const uint32_t masks[TOGGLE_STEPS] = { 0, POSTFX_ALL & 0x155u, t->initial };
    d->fx.wanted = masks[t->done++];
    char what[64];
    snprintf(what, sizeof what, "toggle test at frame %llu: passes", (unsigned long long)index);
    print_passes(what, d->fx.wanted);
    d->fx.toggle_pending = true;
    demo_app_rebuild_graph(app);
}

static void update(demo_app *app, const eng_frame *frame, uint64_t index, void *user)
{
    demo *d = user;
    d->fx.index = index;
    demo_descriptors_begin_frame(app, &d->fx.descriptors, frame->slot);
    /* After this frame's graph was built: the change applies to the next. */
    toggle_step(app, d, index);
}

int main(int argc, char **argv)
{
    demo_flag flags[] = {
        { .name = "--passes", .arg = "LIST",
          .help = "initial passes, comma-separated: edges, bloom (bloomh, bloomv), blur (blurh, blurv), grade, "
                  "chroma, vignette, fxaa, all or none (default: all)" },
        { .name = "--toggle-test", .help = "toggle passes at 1/4, 1/2 and 3/4 of a --frames run (5 or more)" },
        { .name = "--texture", .arg = "PATH",
          .help = "image for the cube (default: assets/bricks.png next to postfx)" },
        { .name = "--trails", .help = "motion trails of the cube, drifting outwards and fading, kept across frames "
                                      "in a render graph history texture (key T toggles)" },
    };
    demo_app_desc desc = {
        .name = "postfx",
        .summary = "a neon scene through a chain of fullscreen passes (keys 1..9 toggle them, 0 all, T motion "
                   "trails); the render graph aliases the chain's targets and recompiles when the passes change",
        .default_samples = 1,
        .clear_color = { 0.0f, 0.0f, 0.0f, 1.0f },
        DEMO_APP_FLAGS(flags),
    };
    /* This demo's flag values are checked before any window opens, so a bad
     * one exits 2 like any other bad flag. */
    demo_options preview = { .width = 1280, .height = 720, .samples = desc.default_samples };
    switch (demo_parse_options(argc, argv, desc.summary, &preview, flags, desc.extra_flag_count)) {
    case DEMO_PARSE_HELP: return 0;
    case DEMO_PARSE_ERROR: return 2;
    case DEMO_PARSE_RUN: break;
    }
    uint32_t initial = POSTFX_ALL;
    char err[256];
    if (flags[0].value && !postfx_parse_passes(flags[0].value, &initial, err, sizeof err)) {
        fprintf(stderr, "%s: --passes: %s\n", argv[0], err);
        return 2;
    }
    if (flags[1].value && preview.frames < 5) {
        fprintf(stderr, "%s: --toggle-test needs --frames 5 or more (it toggles at 1/4, 1/2 and 3/4, and the "
                "graph is rebuilt the frame after)\n", argv[0]);
        return 2;
    }

    demo_app app;
    demo_app_init(&app, &desc, argc, argv);
    static demo d; /* outlives demo_app_run_graph: the counts are read after it */
    d.fx.app = &app;
    d.fx.wanted = initial;
    d.fx.trails = flags[3].value != NULL;
    d.toggles = (toggle_test){ .on = flags[1].value != NULL, .initial = initial };
    demo_app_on_cleanup(&app, cleanup, &d);
    demo_app_on_key(&app, on_key, &d);

    char path[4096];
    const char *texture = demo_app_asset(&app, flags[2].value, argv[0], "bricks.png", path, sizeof path);
    demo_descriptors_create(&app, POSTFX_PASS_COUNT + 2, &d.fx.descriptors); /* the chain, trails */
    postfx_scene_create(&d.fx, texture);
    postfx_pipelines_create(&d.fx, eng_swapchain_format(app.swapchain));
    print_passes("passes (keys 1..9 toggle, 0 all)", initial);

    int status = demo_app_run_graph(&app, declare, update, &d);
    printf("postfx: graph declared %u times, rebuilt %u times for a change of passes\n", d.fx.declarations,
           d.fx.toggle_rebuilds);
    if (d.toggles.on && (d.toggles.done != TOGGLE_STEPS || d.fx.toggle_rebuilds != TOGGLE_STEPS)) {
        fprintf(stderr, "postfx: toggle test: %u toggles, %u rebuilds; want %d of each\n", d.toggles.done,
                d.fx.toggle_rebuilds, TOGGLE_STEPS);
        status = 1;
    }
    return status;
}
