#include "test_window.h"

#include "device_fixture.h"

#define GLFW_INCLUDE_NONE /* vulkan.h comes from engine.h */
#include <GLFW/glfw3.h>
#include <stdio.h>

GLFWwindow *test_window_open(int width, int height, const char *title)
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
    GLFWwindow *window = glfwCreateWindow(width, height, title, NULL, NULL);
    if (!window) {
        glfwGetError(&desc);
        glfwTerminate();
        snprintf(why, sizeof why, "a GLFW window (%s)", desc ? desc : "?");
        require_or_skip(why);
    }
    return window;
}

void test_window_close(GLFWwindow *window)
{
    if (window)
        glfwDestroyWindow(window);
    glfwTerminate();
}

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

void test_window_context_desc(GLFWwindow *window, eng_context_desc *desc)
{
    uint32_t count = 0;
    /* NULL (no surface support) only where glfwVulkanSupported said no. */
    desc->instance_extensions = glfwGetRequiredInstanceExtensions(&count);
    desc->instance_extension_count = count;
    desc->create_surface = create_surface;
    desc->surface_user = window;
}

void test_window_swapchain_desc(GLFWwindow *window, eng_swapchain_desc *desc)
{
    desc->window_size = window_size;
    desc->window_size_user = window;
}
