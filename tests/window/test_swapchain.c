/* Swapchain tests with a real window (run through scripts/with-display.sh:
 * under Xvfb with lavapipe where there is no display), validation on.
 * Frames are rendered through a render graph, as the demos render theirs
 * (window_graph.h), captured, and compared exactly with the clear color and
 * a drawn rectangle, converted to 8-bit sRGB when the swapchain format is
 * sRGB. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "device_fixture.h"
#include "solid.h"
#include "demo_glfw.h"
#include "test_window.h"
#include "window_graph.h"

#define GLFW_INCLUDE_NONE /* vulkan.h comes from engine.h */
#include <GLFW/glfw3.h>
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static GLFWwindow *window;

static void window_setup(void)
{
    window = test_window_open(320, 240, "vkgraph window test");
    eng_context_desc cd = { .app_name = "window-tests", .validation = true,
                            .get_instance_proc_addr = vkGetInstanceProcAddr };
    cr_assert(demo_glfw_context_desc(window, &cd), "GLFW finds no Vulkan surface support");
    eng_result r = eng_context_create(&cd, &test_ctx);
    if (r != ENG_SUCCESS) {
        test_window_close(window);
        window = NULL;
        char why[512];
        snprintf(why, sizeof why, "a Vulkan device that presents to the window with validation (%s: %s)",
                 eng_result_string(r), eng_last_error());
        require_or_skip(why);
    }
}

static void window_teardown(void)
{
    device_teardown(); /* counts validation messages, leaks included */
    test_window_close(window);
    window = NULL;
}

TestSuite(swapchain, .init = window_setup, .fini = window_teardown);

/* ------------------------------------------------------------ expectations */

static bool is_srgb(VkFormat f)
{
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_R8G8B8A8_SRGB;
}

/* What a float color channel becomes in an 8-bit swapchain image. */
static uint8_t to_8bit(float c, bool srgb)
{
    double v = c;
    if (srgb)
        v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
    double scaled = v * 255.0;
    /* The colors below are chosen away from rounding ties, so that any
     * conforming conversion gives this exact byte. */
    double frac = scaled - floor(scaled);
    cr_assert(fabs(frac - 0.5) > 0.15, "test color %f lands on a rounding tie (%f)", (double)c, scaled);
    return (uint8_t)lround(scaled);
}

static void expect_rgb(const uint8_t *px, uint32_t w, uint32_t h, const float inside[3], const float outside[3],
                       uint32_t split_x, bool srgb, const char *what)
{
    uint8_t in[3], out[3];
    for (int i = 0; i < 3; i++) {
        in[i] = to_8bit(inside[i], srgb);
        out[i] = to_8bit(outside[i], srgb);
    }
    uint32_t bad = 0;
    char first[160] = "";
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            const uint8_t *want = x < split_x ? in : out;
            if (p[0] != want[0] || p[1] != want[1] || p[2] != want[2] || p[3] != 255) {
                if (!bad++)
                    snprintf(first, sizeof first, "(%u,%u) = %u,%u,%u,%u, want %u,%u,%u,255", x, y, p[0], p[1], p[2],
                             p[3], want[0], want[1], want[2]);
            }
        }
    cr_expect_eq(bad, 0, "%s: %u of %u pixels differ; first %s", what, bad, w * h, first);
}

/* ----------------------------------------------------------------- frames */

/* Draws n frames through wg; captures the last one when px is not NULL. */
static void run_frames(eng_swapchain *sc, window_graph *wg, int n, const window_plan *plan, uint8_t **px,
                       uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < n; i++) {
        glfwPollEvents();
        eng_frame f;
        eng_result r = eng_swapchain_acquire(sc, &f);
        cr_assert_eq(r, ENG_SUCCESS, "frame %d: acquire: %s: %s", i, eng_result_string(r), eng_last_error());
        VkExtent2D e = eng_swapchain_extent(sc);
        cr_assert(f.cmd != VK_NULL_HANDLE && f.image != VK_NULL_HANDLE && f.view != VK_NULL_HANDLE);
        cr_assert(f.extent.width == e.width && f.extent.height == e.height, "frame extent %ux%u, swapchain %ux%u",
                  f.extent.width, f.extent.height, e.width, e.height);
        cr_assert_eq(f.format, eng_swapchain_format(sc));
        if (px && i == n - 1)
            cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        rg_result rr = window_graph_record(wg, sc, &f, plan);
        cr_assert_eq(rr, RG_SUCCESS, "frame %d: %s: %s", i, rg_result_string(rr), rg_graph_error_message(wg->graph));
        r = eng_swapchain_present(sc, &f);
        cr_assert_eq(r, ENG_SUCCESS, "frame %d: present: %s: %s", i, eng_result_string(r), eng_last_error());
    }
    if (px) {
        eng_result r = eng_swapchain_read_capture(sc, px, w, h);
        cr_assert_eq(r, ENG_SUCCESS, "read capture: %s", eng_last_error());
        cr_assert_not_null(*px);
    }
}

static void expect_known_format(const eng_swapchain *sc)
{
    VkFormat f = eng_swapchain_format(sc);
    cr_assert(f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM ||
                  f == VK_FORMAT_R8G8B8A8_UNORM,
              "swapchain format VkFormat %d is not an 8-bit RGBA/BGRA format the capture understands", (int)f);
}

/* Waits (up to 2 s) for the window system to apply a size. */
static void wait_for_size(int want_w, int want_h)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int w = 0, h = 0;
    for (;;) {
        glfwPollEvents();
        glfwGetFramebufferSize(window, &w, &h);
        if (w == want_w && h == want_h)
            return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 2)
            break;
        struct timespec nap = { 0, 10 * 1000 * 1000 };
        nanosleep(&nap, NULL);
    }
    cr_assert_fail("the window is %dx%d, not the %dx%d asked for", w, h, want_w, want_h);
}

/* A surface that leaves the size to the application (Wayland's, where
 * currentExtent is 0xFFFFFFFF) on any display: this program's definition
 * of the loader's function reports that when asked to. The engine loads
 * it through the loader's vkGetInstanceProcAddr, which hands out the
 * address of the loader's exported name: this definition takes it over.
 * Validation and the driver see the real capabilities. */
static bool leave_size_to_application;

VKAPI_ATTR VkResult VKAPI_CALL vkGetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice pd, VkSurfaceKHR surface,
                                                                          VkSurfaceCapabilitiesKHR *caps)
{
    static PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR real;
    if (!real)
        real = (PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR)dlsym(RTLD_NEXT,
                                                                     "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!real)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult vr = real(pd, surface, caps);
    if (vr == VK_SUCCESS && leave_size_to_application)
        caps->currentExtent = (VkExtent2D){ UINT32_MAX, UINT32_MAX };
    return vr;
}

/* ------------------------------------------------------------------ tests */

DEVICE_TEST(swapchain, msaa_depth_frames_capture_and_resize)
{
    eng_context *ctx = test_ctx;
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(ctx)->limits;
    VkSampleCountFlagBits samples = (lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts &
                                     VK_SAMPLE_COUNT_4_BIT)
                                        ? VK_SAMPLE_COUNT_4_BIT
                                        : VK_SAMPLE_COUNT_1_BIT;
    eng_swapchain_desc sd = { 0 };
    demo_glfw_swapchain_desc(window, &sd);
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(ctx, &sd, &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    expect_known_format(sc);
    bool srgb = is_srgb(eng_swapchain_format(sc));
    VkExtent2D e = eng_swapchain_extent(sc);
    cr_expect(e.width == 320 && e.height == 240, "extent %ux%u", e.width, e.height);
    uint32_t recreated = eng_swapchain_recreate_count(sc);

    eng_pipeline *pipe = NULL;
    r = solid_pipeline_create(ctx, eng_swapchain_format(sc), VK_FORMAT_D32_SFLOAT, samples, NULL, &pipe);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    window_graph wg;
    cr_assert_eq(window_graph_create(ctx, &wg), RG_SUCCESS);

    /* MSAA color resolved into the swapchain image, depth tested. */
    window_plan plan = { .clear = { 0.05f, 0.15f, 0.8f, 1.0f }, .samples = samples,
                         .depth_format = VK_FORMAT_D32_SFLOAT, .pipeline = pipe,
                         .rect_color = { 0.8f, 0.25f, 0.05f, 1.0f } };
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    run_frames(sc, &wg, 5, &plan, &px, &w, &h);
    cr_expect(w == 320 && h == 240, "capture %ux%u", w, h);
    expect_rgb(px, w, h, plan.rect_color, plan.clear, w / 2, srgb, "before resize");
    free(px);
    expect_no_validation_messages(ctx);

    /* Resize the window, tell the swapchain, draw on: the swapchain is
     * recreated at the next acquire and the frame declared for its size. */
    glfwSetWindowSize(window, 400, 300);
    wait_for_size(400, 300);
    eng_swapchain_resize(sc, 400, 300);
    plan = (window_plan){ .clear = { 0.8f, 0.25f, 0.05f, 1.0f }, .samples = samples,
                          .depth_format = VK_FORMAT_D32_SFLOAT, .pipeline = pipe,
                          .rect_color = { 0.05f, 0.8f, 0.15f, 1.0f } };
    run_frames(sc, &wg, 5, &plan, &px, &w, &h);
    e = eng_swapchain_extent(sc);
    cr_expect(e.width == 400 && e.height == 300, "extent after resize %ux%u", e.width, e.height);
    cr_expect_gt(eng_swapchain_recreate_count(sc), recreated, "the swapchain was not recreated");
    cr_expect(w == 400 && h == 300, "capture after resize %ux%u", w, h);
    expect_rgb(px, w, h, plan.rect_color, plan.clear, w / 2, srgb, "after resize");
    free(px);
    cr_expect_eq(wg.declarations, 2, "declared for each plan and size: %u", wg.declarations);

    window_graph_destroy(&wg);
    eng_pipeline_destroy(pipe);
    eng_swapchain_destroy(sc);
    expect_no_validation_messages(ctx);
}

DEVICE_TEST(swapchain, single_sample_clear_three_frames_in_flight)
{
    eng_context *ctx = test_ctx;
    eng_swapchain_desc sd = { .vsync = true, .frames_in_flight = 3 };
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(ctx, &sd, &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    expect_known_format(sc);
    window_graph wg;
    cr_assert_eq(window_graph_create(ctx, &wg), RG_SUCCESS);
    window_plan plan = { .clear = { 0.25f, 0.05f, 0.15f, 1.0f } };
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    run_frames(sc, &wg, 7, &plan, &px, &w, &h);
    cr_expect(w == 320 && h == 240, "capture %ux%u", w, h);
    expect_rgb(px, w, h, plan.clear, plan.clear, 0, is_srgb(eng_swapchain_format(sc)), "clear only");
    free(px);
    cr_expect_eq(eng_swapchain_recreate_count(sc), 0, "nothing changed, nothing recreated");
    window_graph_destroy(&wg);

    /* A capture read without a request is an error, not stale pixels. */
    eng_swapchain_destroy(sc);
    sc = NULL;
    cr_assert_eq(eng_swapchain_create(ctx, &sd, &sc), ENG_SUCCESS, "%s", eng_last_error());
    uint8_t *none = (uint8_t *)(uintptr_t)1;
    cr_expect_eq(eng_swapchain_read_capture(sc, &none, &w, &h), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(none);
    eng_swapchain_destroy(sc);
}

typedef struct size_calls {
    uint32_t calls;
    uint32_t width, height;           /* what the callback answers */
} size_calls;

static void window_size(void *user, uint32_t *width, uint32_t *height)
{
    size_calls *s = user;
    s->calls++;
    *width = s->width;
    *height = s->height;
}

/* Where the surface leaves the size to the application, the swapchain takes
 * it from eng_swapchain_desc, eng_swapchain_resize or the window_size
 * callback, clamped to the surface's limits (here the X11 window's size,
 * which is both the minimum and the maximum); without any, creation fails
 * naming what is missing, and a size of 0 (minimized) is ENG_NOT_READY. */
DEVICE_TEST(swapchain, size_left_to_the_application)
{
    eng_context *ctx = test_ctx;
    leave_size_to_application = true;
    eng_swapchain *sc = (eng_swapchain *)(uintptr_t)1;
    eng_swapchain_desc sd = { 0 };
    eng_result r = eng_swapchain_create(ctx, &sd, &sc);
    cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT, "%s", eng_result_string(r));
    cr_expect_null(sc);
    cr_expect_neq(strstr(eng_last_error(), "window_size"), NULL, "message: %s", eng_last_error());

    size_calls calls = { .width = 320, .height = 240 };
    sd = (eng_swapchain_desc){ .window_size = window_size, .window_size_user = &calls };
    r = eng_swapchain_create(ctx, &sd, &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_eq(calls.calls, 1, "asked once at creation: %u", calls.calls);
    VkExtent2D e = eng_swapchain_extent(sc);
    cr_expect(e.width == 320 && e.height == 240, "extent %ux%u", e.width, e.height);
    window_graph wg;
    cr_assert_eq(window_graph_create(ctx, &wg), RG_SUCCESS);
    window_plan plan = { .clear = { 0.25f, 0.05f, 0.15f, 1.0f } };
    run_frames(sc, &wg, 2, &plan, NULL, NULL, NULL);

    /* A resize with no size (minimized): the callback says 0x0. */
    calls.width = calls.height = 0;
    eng_swapchain_resize(sc, 0, 0);
    eng_frame f;
    cr_expect_eq(eng_swapchain_acquire(sc, &f), ENG_NOT_READY, "%s", eng_last_error());
    cr_expect_eq(calls.calls, 2, "asked again at the recreation: %u", calls.calls);
    /* Restored; a size asked for beyond the surface's limits is clamped. */
    calls.width = 320, calls.height = 240;
    run_frames(sc, &wg, 2, &plan, NULL, NULL, NULL);
    cr_expect_eq(calls.calls, 3, "%u", calls.calls);
    eng_swapchain_resize(sc, 4000, 3000);
    run_frames(sc, &wg, 1, &plan, NULL, NULL, NULL);
    cr_expect_eq(calls.calls, 3, "a given size needs no callback: %u", calls.calls);
    e = eng_swapchain_extent(sc);
    cr_expect(e.width == 320 && e.height == 240, "extent %ux%u, clamped", e.width, e.height);
    window_graph_destroy(&wg);
    eng_swapchain_destroy(sc);
    leave_size_to_application = false;
}

DEVICE_TEST(swapchain, bad_desc)
{
    eng_swapchain *sc = (eng_swapchain *)(uintptr_t)1;
    eng_swapchain_desc sd = { .frames_in_flight = 99 };
    cr_expect_eq(eng_swapchain_create(test_ctx, &sd, &sc), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(sc);
    cr_expect_neq(strstr(eng_last_error(), "frames in flight"), NULL, "message: %s", eng_last_error());
}
