/* GLFW windows for the window tests. They are glued to the engine the way
 * an application does it, with the demos' glue (demos/common/demo_glfw.h:
 * the window system's instance extensions and surface callback for
 * eng_context_desc, the framebuffer-size callback for eng_swapchain_desc).
 * Built into the window tests only (they link GLFW). */
#ifndef TEST_WINDOW_H
#define TEST_WINDOW_H

#include <engine/engine.h>

struct GLFWwindow;

/* glfwInit, GLFW's Vulkan presentation support and a resizable window
 * without a GL context. Skips the test (fails it under ENG_REQUIRE_DEVICE)
 * when any of them is missing. */
struct GLFWwindow *test_window_open(int width, int height, const char *title);
/* Destroys the window (NULL accepted) and terminates GLFW. */
void test_window_close(struct GLFWwindow *window);

#endif
