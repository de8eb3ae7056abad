/* Out of device memory at each allocation of a windowed frame's life, under
 * the tile-memory layer's fault injection (VKGRAPH_TILE_FAIL_ALLOC): frames
 * rendered through a render graph the way the demos render theirs
 * (window_graph.h: transient MSAA color and depth, placed at the first
 * execute), the swapchain recreated after a resize (inside
 * eng_swapchain_acquire) and the frame placed again for the new size, and
 * the screenshot buffer (eng_swapchain_capture_next). Each failure is a
 * clean error; the same call made again succeeds; frames render after it
 * and nothing leaks (validation reports leaked objects at vkDestroyDevice).
 * A lost surface or device is an error for the caller, never an assertion. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "device_fixture.h"
#include "demo_glfw.h"
#include "test_window.h"
#include "window_graph.h"

#define GLFW_INCLUDE_NONE /* vulkan.h comes from engine.h */
#include <GLFW/glfw3.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE_LAYER "VK_LAYER_VKGRAPH_tile_memory"

static GLFWwindow *window;

static void window_setup(void)
{
    window = test_window_open(160, 120, "vkgraph swapchain faults");
}

static void window_teardown(void)
{
    test_window_close(window);
    window = NULL;
}

TestSuite(swapchain_faults, .init = window_setup, .fini = window_teardown);

static eng_context *faulty_context(const char *variable, unsigned n)
{
    char v[16];
    snprintf(v, sizeof v, "%u", n);
    setenv(variable, v, 1); /* read by the layer at vkCreateDevice */
    const char *layers[] = { TILE_LAYER };
    eng_context_desc cd = { .app_name = "swapchain-faults", .validation = true,
                            .get_instance_proc_addr = vkGetInstanceProcAddr, .extra_layers = layers,
                            .extra_layer_count = 1 };
    cr_assert(demo_glfw_context_desc(window, &cd), "GLFW finds no Vulkan surface support");
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&cd, &ctx);
    unsetenv(variable);
    if (r != ENG_SUCCESS)
        require_or_skip("a presenting Vulkan device with validation and the tile-memory layer");
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return ctx;
}

typedef struct run {
    unsigned n;
    unsigned failures;  /* calls that failed (at most one: the fault fires once) */
} run;

/* A call that may meet the fault: a failure must be a clean out-of-memory
 * naming vkAllocateMemory, and the same call made again must succeed. */
#define MAY_FAIL(rn, what, call)                                                                              \
    do {                                                                                                      \
        eng_result r_ = (call);                                                                               \
        if (r_ != ENG_SUCCESS) {                                                                              \
            (rn)->failures++;                                                                                 \
            cr_expect_eq(r_, ENG_ERROR_OUT_OF_MEMORY, "allocation %u: %s: %s: %s", (rn)->n, what,            \
                         eng_result_string(r_), eng_last_error());                                            \
            cr_expect_neq(strstr(eng_last_error(), "vkAllocateMemory"), NULL, "allocation %u: %s: %s",       \
                          (rn)->n, what, eng_last_error());                                                   \
            r_ = (call);                                                                                      \
            cr_assert_eq(r_, ENG_SUCCESS, "allocation %u: %s again: %s", (rn)->n, what, eng_last_error());   \
        }                                                                                                     \
    } while (0)

/* The same for the graph's placement, inside window_graph_record. */
#define MAY_FAIL_RG(rn, wg, call)                                                                             \
    do {                                                                                                      \
        rg_result r_ = (call);                                                                                \
        if (r_ != RG_SUCCESS) {                                                                               \
            (rn)->failures++;                                                                                 \
            cr_expect_eq(r_, RG_ERROR_OUT_OF_MEMORY, "allocation %u: window_graph_record: %s: %s", (rn)->n,   \
                         rg_result_string(r_), rg_graph_error_message((wg)->graph));                          \
            cr_expect_neq(strstr(rg_graph_error_message((wg)->graph), "placement"), NULL,                     \
                          "allocation %u: %s", (rn)->n, rg_graph_error_message((wg)->graph));                 \
            r_ = (call);                                                                                      \
            cr_assert_eq(r_, RG_SUCCESS, "allocation %u: window_graph_record again: %s", (rn)->n,             \
                         rg_graph_error_message((wg)->graph));                                                \
        }                                                                                                     \
    } while (0)

/* 4x MSAA color resolved into the swapchain image and depth, both
 * transient: lazily allocated under the layer, one allocation each. */
static const window_plan plan = { .clear = { 0.2f, 0.4f, 0.6f, 1.0f }, .samples = VK_SAMPLE_COUNT_4_BIT,
                                  .depth_format = VK_FORMAT_D32_SFLOAT };

static void frame(run *rn, eng_swapchain *sc, window_graph *wg, bool capture)
{
    glfwPollEvents();
    eng_frame f;
    MAY_FAIL(rn, "eng_swapchain_acquire", eng_swapchain_acquire(sc, &f));
    if (capture)
        MAY_FAIL(rn, "eng_swapchain_capture_next", eng_swapchain_capture_next(sc));
    MAY_FAIL_RG(rn, wg, window_graph_record(wg, sc, &f, &plan));
    cr_assert_eq(eng_swapchain_present(sc, &f), ENG_SUCCESS, "%s", eng_last_error());
}

Test(swapchain_faults, each_allocation_fails_cleanly_and_the_call_succeeds_again)
{
    unsigned failed = 0, fallbacks = 0;
    for (unsigned n = 1; n < 32; n++) {
        eng_context *ctx = faulty_context("VKGRAPH_TILE_FAIL_ALLOC", n);
        run rn = { .n = n };
        glfwSetWindowSize(window, 160, 120);
        glfwPollEvents();
        eng_swapchain_desc sd = { 0 };
        demo_glfw_swapchain_desc(window, &sd);
        eng_swapchain *sc = NULL;
        MAY_FAIL(&rn, "eng_swapchain_create", eng_swapchain_create(ctx, &sd, &sc));
        window_graph wg;
        cr_assert_eq(window_graph_create(ctx, &wg), RG_SUCCESS);
        frame(&rn, sc, &wg, false);
        /* A new size: the next acquire recreates the swapchain, and the
         * frame is declared and placed again for it. */
        glfwSetWindowSize(window, 200, 150);
        glfwPollEvents();
        eng_swapchain_resize(sc, 200, 150);
        frame(&rn, sc, &wg, false);
        cr_expect_geq(eng_swapchain_recreate_count(sc), 1, "allocation %u: recreated", n);
        frame(&rn, sc, &wg, true);
        uint8_t *px = NULL;
        uint32_t w = 0, h = 0;
        cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &h), ENG_SUCCESS, "%s", eng_last_error());
        cr_expect(w > 0 && h > 0 && px && px[3] == 255, "allocation %u: a captured frame", n);
        free(px);
        window_graph_destroy(&wg);
        eng_swapchain_destroy(sc);
        char first[1024];
        eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
        cr_expect_eq(m.warning + m.error, 0, "allocation %u: first: %s", n, first);
        cr_expect_leq(rn.failures, 1, "allocation %u: one fault, %u failures", n, rn.failures);
        /* A lazy attachment's allocation failing is no failure: it falls
         * back to device-local memory (docs/tiles.md), and says so. */
        bool fell_back = wg.lazy_fallbacks > 0;
        cr_expect_leq(wg.lazy_fallbacks + rn.failures, 1, "allocation %u: one fault, %u fallbacks", n,
                      wg.lazy_fallbacks);
        failed += rn.failures;
        fallbacks += fell_back;
        if (!rn.failures && !fell_back)
            break; /* past the last allocation */
    }
    /* placement: color + depth (lazy, falling back); placed again after
     * the resize: color + depth; capture buffer */
    cr_expect_geq(fallbacks, 4, "%u lazy allocations fell back in turn", fallbacks);
    cr_expect_geq(failed, 1, "%u allocations failed in turn", failed);
}

/* VKGRAPH_TILE_LOSE_SURFACE=2: the first acquire works, its present meets a
 * lost surface; VKGRAPH_TILE_LOSE_DEVICE=1: the first frame's submission
 * meets a lost device. Both reach the caller as errors naming the call. */
Test(swapchain_faults, lost_surface_and_lost_device_are_errors)
{
    const char *variables[] = { "VKGRAPH_TILE_LOSE_SURFACE", "VKGRAPH_TILE_LOSE_DEVICE" };
    const unsigned at[] = { 2, 1 };
    const eng_result want[] = { ENG_ERROR_SURFACE_LOST, ENG_ERROR_DEVICE_LOST };
    const char *call[] = { "vkQueuePresentKHR", "vkQueueSubmit2" };
    for (int i = 0; i < 2; i++) {
        eng_context *ctx = faulty_context(variables[i], at[i]);
        eng_swapchain *sc = NULL;
        eng_swapchain_desc sd = { 0 };
        demo_glfw_swapchain_desc(window, &sd);
        cr_assert_eq(eng_swapchain_create(ctx, &sd, &sc), ENG_SUCCESS, "%s", eng_last_error());
        window_graph wg;
        cr_assert_eq(window_graph_create(ctx, &wg), RG_SUCCESS);
        glfwPollEvents();
        eng_frame f;
        cr_assert_eq(eng_swapchain_acquire(sc, &f), ENG_SUCCESS, "%s", eng_last_error());
        rg_result rr = window_graph_record(&wg, sc, &f, &plan);
        cr_assert_eq(rr, RG_SUCCESS, "%s", rg_graph_error_message(wg.graph));
        eng_result r = eng_swapchain_present(sc, &f);
        cr_expect_eq(r, want[i], "%s: got %s: %s", variables[i], eng_result_string(r), eng_last_error());
        cr_expect_neq(strstr(eng_last_error(), call[i]), NULL, "%s: message: %s", variables[i], eng_last_error());
        /* The application gives up on the surface or device: destroying
         * everything still works. */
        window_graph_destroy(&wg);
        eng_swapchain_destroy(sc);
        eng_context_destroy(ctx);
    }
}
