/* The GLFW side of the engine's window-system inputs. The engine links no
 * window library (as sokol_glue.h keeps sokol_gfx.h free of sokol_app.h):
 * it takes the instance extensions the window system needs and a callback
 * that makes the surface (eng_context_desc), and for surfaces that leave
 * the size to the application, a callback for the framebuffer size
 * (eng_swapchain_desc). These fill them from a GLFW window.
 *
 *   eng_context_desc cd = { .app_name = "demo" };
 *   if (!demo_glfw_context_desc(window, &cd)) ...no Vulkan surface support...
 *   eng_swapchain_desc sd = { 0 };
 *   demo_glfw_swapchain_desc(window, &sd);
 *
 * The window must outlive the context and the swapchain; GLFW wants these
 * calls on the main thread. */
#ifndef DEMO_GLFW_H
#define DEMO_GLFW_H

#include <engine/engine.h>
#include <stdbool.h>

struct GLFWwindow;

/* Sets desc's instance extensions (glfwGetRequiredInstanceExtensions) and
 * surface callback (glfwCreateWindowSurface). False when GLFW finds no
 * Vulkan surface support on this system; desc is then unchanged. */
bool demo_glfw_context_desc(struct GLFWwindow *window, eng_context_desc *desc);

/* Sets desc's window_size callback (glfwGetFramebufferSize). */
void demo_glfw_swapchain_desc(struct GLFWwindow *window, eng_swapchain_desc *desc);

#endif
