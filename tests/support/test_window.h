/* GLFW windows for the window tests, glued to the engine the way an
 * application does it: the engine links no window library and takes the
 * window system's instance extensions and a surface callback
 * (eng_context_desc), and a framebuffer-size callback (eng_swapchain_desc),
 * from its caller. demos/common/demo_glfw.c is the demos' copy of the glue.
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

/* The window's instance extensions and surface callback, into desc. */
void test_window_context_desc(struct GLFWwindow *window, eng_context_desc *desc);
/* The window's framebuffer-size callback, into desc. */
void test_window_swapchain_desc(struct GLFWwindow *window, eng_swapchain_desc *desc);

#endif
