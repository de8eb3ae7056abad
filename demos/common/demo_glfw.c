/* GLFW glue for the engine's window-system inputs (demo_glfw.h). */
#include "demo_glfw.h"

#define GLFW_INCLUDE_NONE /* vulkan.h comes from engine.h */
#include <GLFW/glfw3.h>

static VkResult create_surface(VkInstance instance, void *window, VkSurfaceKHR *out)
{
    return glfwCreateWindowSurface(instance, window, NULL, out);
}

static void window_size(void *window, uint32_t *width, uint32_t *height)
{
    int w = 0, h = 0;
    glfwGetFramebufferSize(window, &w, &h);
    *width = w > 0 ? (uint32_t)w : 0;
    *height = h > 0 ? (uint32_t)h : 0;
}

bool demo_glfw_context_desc(GLFWwindow *window, eng_context_desc *desc)
{
    uint32_t count = 0;
    const char **extensions = glfwGetRequiredInstanceExtensions(&count);
    if (!extensions)
        return false;
    desc->instance_extensions = extensions;
    desc->instance_extension_count = count;
    desc->create_surface = create_surface;
    desc->surface_user = window;
    return true;
}

void demo_glfw_swapchain_desc(GLFWwindow *window, eng_swapchain_desc *desc)
{
    desc->window_size = window_size;
    desc->window_size_user = window;
}
