/* Swapchain tests with a real window (run through scripts/with-display.sh:
 * under Xvfb with lavapipe where there is no display), validation on.
 * Frames are captured and compared exactly with the clear color and a drawn
 * rectangle, converted to 8-bit sRGB when the swapchain format is sRGB. */
#include "device_fixture.h"
#include "solid.h"

#include <GLFW/glfw3.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static GLFWwindow *window;

static void window_setup(void)
{
    char why[512];
    const char *desc = NULL;
    if (!glfwInit()) {
        glfwGetError(&desc);
        snprintf(why, sizeof why, "a display for GLFW (glfwInit: %s)", desc ? desc : "?");
        require_or_skip(why);
    }
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        require_or_skip("Vulkan presentation support in GLFW");
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window = glfwCreateWindow(320, 240, "vkgraph window test", NULL, NULL);
    if (!window) {
        glfwGetError(&desc);
        glfwTerminate();
        snprintf(why, sizeof why, "a GLFW window (%s)", desc ? desc : "?");
        require_or_skip(why);
    }
    eng_context_desc cd = { .app_name = "window-tests", .validation = true, .window = window };
    eng_result r = eng_context_create(&cd, &test_ctx);
    if (r != ENG_SUCCESS) {
        glfwDestroyWindow(window);
        window = NULL;
        glfwTerminate();
        snprintf(why, sizeof why, "a Vulkan device that presents to the window with validation (%s: %s)",
                 eng_result_string(r), eng_last_error());
        require_or_skip(why);
    }
}

static void window_teardown(void)
{
    device_teardown(); /* counts validation messages, leaks included */
    if (window)
        glfwDestroyWindow(window);
    window = NULL;
    glfwTerminate();
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

typedef struct frame_plan {
    float clear[4];
    const eng_pipeline *pipeline; /* NULL = clear only */
    float rect_color[4];          /* drawn over the left half */
} frame_plan;

/* Draws n frames; captures the last one when px is not NULL. */
static void run_frames(eng_swapchain *sc, int n, const frame_plan *plan, uint8_t **px, uint32_t *w, uint32_t *h)
{
    static const float left_half[4] = { -1.0f, -1.0f, 0.0f, 1.0f };
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
        eng_swapchain_begin_rendering(sc, &f, plan->clear, 1.0f);
        if (plan->pipeline) {
            vkCmdBindPipeline(f.cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(plan->pipeline));
            solid_draw(f.cmd, plan->pipeline, left_half, plan->rect_color, 0.5f);
        }
        if (px && i == n - 1)
            cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        eng_swapchain_end_rendering(sc, &f);
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

/* ------------------------------------------------------------------ tests */

DEVICE_TEST(swapchain, msaa_depth_frames_capture_and_resize)
{
    eng_context *ctx = test_ctx;
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(ctx)->limits;
    VkSampleCountFlagBits samples = (lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts &
                                     VK_SAMPLE_COUNT_4_BIT)
                                        ? VK_SAMPLE_COUNT_4_BIT
                                        : VK_SAMPLE_COUNT_1_BIT;
    eng_swapchain_desc sd = { .depth_format = VK_FORMAT_D32_SFLOAT, .samples = samples };
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(ctx, &sd, &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    expect_known_format(sc);
    bool srgb = is_srgb(eng_swapchain_format(sc));
    VkExtent2D e = eng_swapchain_extent(sc);
    cr_expect(e.width == 320 && e.height == 240, "extent %ux%u", e.width, e.height);
    uint32_t recreated = eng_swapchain_recreate_count(sc);

    /* The transient attachments: TRANSIENT usage, sized like the frame. */
    const eng_image *depth = eng_swapchain_depth(sc);
    cr_assert_not_null(depth);
    cr_expect(eng_image_get_info(depth)->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
    cr_expect_eq(eng_image_get_info(depth)->format, VK_FORMAT_D32_SFLOAT);
    cr_expect_eq(eng_image_get_info(depth)->samples, samples);
    const eng_image *msaa = eng_swapchain_msaa_color(sc);
    if (samples > VK_SAMPLE_COUNT_1_BIT) {
        cr_assert_not_null(msaa);
        cr_expect(eng_image_get_info(msaa)->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
        cr_expect_eq(eng_image_get_info(msaa)->samples, samples);
        cr_expect_eq(eng_image_get_info(msaa)->format, eng_swapchain_format(sc));
        cr_expect_eq(eng_image_get_info(msaa)->extent.width, e.width);
    } else {
        cr_expect_null(msaa);
    }

    eng_pipeline *pipe = NULL;
    r = solid_pipeline_create(ctx, eng_swapchain_format(sc), VK_FORMAT_D32_SFLOAT, samples, NULL, &pipe);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());

    frame_plan plan = { .clear = { 0.05f, 0.15f, 0.8f, 1.0f }, .pipeline = pipe,
                        .rect_color = { 0.8f, 0.25f, 0.05f, 1.0f } };
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    run_frames(sc, 5, &plan, &px, &w, &h);
    cr_expect(w == 320 && h == 240, "capture %ux%u", w, h);
    expect_rgb(px, w, h, plan.rect_color, plan.clear, w / 2, srgb, "before resize");
    free(px);
    expect_no_validation_messages(ctx);

    /* Resize the window, tell the swapchain, draw on. */
    glfwSetWindowSize(window, 400, 300);
    wait_for_size(400, 300);
    eng_swapchain_resize(sc, 400, 300);
    plan = (frame_plan){ .clear = { 0.8f, 0.25f, 0.05f, 1.0f }, .pipeline = pipe,
                         .rect_color = { 0.05f, 0.8f, 0.15f, 1.0f } };
    run_frames(sc, 5, &plan, &px, &w, &h);
    e = eng_swapchain_extent(sc);
    cr_expect(e.width == 400 && e.height == 300, "extent after resize %ux%u", e.width, e.height);
    cr_expect_gt(eng_swapchain_recreate_count(sc), recreated, "the swapchain was not recreated");
    cr_expect(w == 400 && h == 300, "capture after resize %ux%u", w, h);
    expect_rgb(px, w, h, plan.rect_color, plan.clear, w / 2, srgb, "after resize");
    free(px);
    /* The attachments followed the new size. */
    cr_expect_eq(eng_image_get_info(eng_swapchain_depth(sc))->extent.width, 400);
    if (samples > VK_SAMPLE_COUNT_1_BIT)
        cr_expect_eq(eng_image_get_info(eng_swapchain_msaa_color(sc))->extent.height, 300);

    eng_pipeline_destroy(pipe);
    eng_swapchain_destroy(sc);
    expect_no_validation_messages(ctx);
}

DEVICE_TEST(swapchain, single_sample_no_depth)
{
    eng_context *ctx = test_ctx;
    eng_swapchain_desc sd = { .samples = VK_SAMPLE_COUNT_1_BIT, .vsync = true, .frames_in_flight = 3 };
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(ctx, &sd, &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    expect_known_format(sc);
    cr_expect_null(eng_swapchain_msaa_color(sc));
    cr_expect_null(eng_swapchain_depth(sc));
    frame_plan plan = { .clear = { 0.25f, 0.05f, 0.15f, 1.0f } };
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    run_frames(sc, 7, &plan, &px, &w, &h);
    cr_expect(w == 320 && h == 240, "capture %ux%u", w, h);
    expect_rgb(px, w, h, plan.clear, plan.clear, 0, is_srgb(eng_swapchain_format(sc)), "clear only");
    free(px);
    cr_expect_eq(eng_swapchain_recreate_count(sc), 0, "nothing changed, nothing recreated");

    /* A capture read without a request is an error, not stale pixels. */
    eng_swapchain_destroy(sc);
    sc = NULL;
    cr_assert_eq(eng_swapchain_create(ctx, &sd, &sc), ENG_SUCCESS, "%s", eng_last_error());
    uint8_t *none = (uint8_t *)(uintptr_t)1;
    cr_expect_eq(eng_swapchain_read_capture(sc, &none, &w, &h), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(none);
    eng_swapchain_destroy(sc);
}

DEVICE_TEST(swapchain, bad_desc)
{
    eng_swapchain *sc = (eng_swapchain *)(uintptr_t)1;
    eng_swapchain_desc sd = { .frames_in_flight = 99 };
    cr_expect_eq(eng_swapchain_create(test_ctx, &sd, &sc), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(sc);
    sd = (eng_swapchain_desc){ .depth_format = VK_FORMAT_R8G8B8A8_UNORM };
    sc = (eng_swapchain *)(uintptr_t)1;
    cr_expect_eq(eng_swapchain_create(test_ctx, &sd, &sc), ENG_ERROR_INVALID_ARGUMENT, "%s", eng_last_error());
    cr_expect_null(sc);
    /* A sample count the device lacks (lavapipe: 2). */
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(test_ctx)->limits;
    uint32_t s = VK_SAMPLE_COUNT_2_BIT;
    while (s <= VK_SAMPLE_COUNT_64_BIT && (lim->framebufferColorSampleCounts & s))
        s <<= 1;
    if (s <= VK_SAMPLE_COUNT_64_BIT) {
        sd = (eng_swapchain_desc){ .samples = (VkSampleCountFlagBits)s };
        sc = (eng_swapchain *)(uintptr_t)1;
        cr_expect_eq(eng_swapchain_create(test_ctx, &sd, &sc), ENG_ERROR_UNSUPPORTED, "%ux: %s", s, eng_last_error());
        cr_expect_null(sc);
    }
}
