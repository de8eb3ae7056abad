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
