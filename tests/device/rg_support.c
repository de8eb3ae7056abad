/* Helpers of the render graph's device tests (rg_support.h). */
#include "rg_support.h"
#include "test_chunks.h"

#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

typedef struct exec_job {
    rg_graph *graph;
    int times;
    rg_result result;
} exec_job;

static void record_graph(VkCommandBuffer cmd, void *user)
{
    exec_job *j = user;
    for (int i = 0; i < j->times && j->result == RG_SUCCESS; i++)
        j->result = test_execute(j->graph, cmd);
}

rg_graph *test_device_graph(const char *name)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = name, .device = eng_context_graph_device(test_ctx), .no_culling = true }, &g), RG_SUCCESS);
    return g;
}

rg_texture test_texture_named(rg_graph *g, rg_texture_desc d, const char *name)
{
    d.name = name;
    return rg_texture_create(g, &d);
}

void test_compile(rg_graph *g)
{
    rg_result r = rg_compile(g);
    cr_assert_eq(r, RG_SUCCESS, "rg_compile: %s: %s", rg_result_string(r), rg_graph_error_message(g));
}

void test_run(rg_graph *g, int times)
{
    exec_job j = { g, times, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(test_ctx, record_graph, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.result, RG_SUCCESS, "rg_execute: %s", rg_graph_error_message(g));
    /* eng_context_submit_once waited for the frames: nothing of the graph
     * is in flight ("Placement and the GPU"). */
    cr_assert_eq(rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
}

rg_result test_execute_once(rg_graph *g)
{
    return test_execute_once_on(test_ctx, g);
}

VkSemaphore test_timeline(VkDevice dev)
{
    VkSemaphoreTypeCreateInfo ti = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                     .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti };
    VkSemaphore s;
    cr_assert_eq(vkCreateSemaphore(dev, &sci, NULL, &s), VK_SUCCESS);
    return s;
}

eng_buffer *test_host_buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void *data)
{
    eng_buffer_desc d = { .name = "host", .size = size, .usage = usage,
                          .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    eng_buffer *b = NULL;
    cr_assert_eq(eng_buffer_create(test_ctx, &d, &b), ENG_SUCCESS, "%s", eng_last_error());
    if (data)
        memcpy(eng_buffer_mapped(b), data, size);
    else
        memset(eng_buffer_mapped(b), 0, size);
    return b;
}

rg_buffer test_import_buffer(rg_graph *g, const char *name, eng_buffer *b, bool readback)
{
    rg_buffer_import_desc d = { .name = name, .buffer = eng_buffer_handle(b), .size = eng_buffer_size(b),
                                .initial_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                .initial_access = VK_ACCESS_2_HOST_WRITE_BIT };
    if (readback) {
        d.final_stage = VK_PIPELINE_STAGE_2_HOST_BIT;
        d.final_access = VK_ACCESS_2_HOST_READ_BIT;
    }
    return rg_buffer_import(g, &d);
}

void test_declare_cleared_copy(rg_graph *g, uint32_t w, uint32_t h, const float clear_rgba[4], eng_buffer *readback)
{
    VkDeviceSize bytes = (VkDeviceSize)w * h * 4;
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = w, .height = h });
    rg_buffer staging = rg_buffer_create(g, &(rg_buffer_desc){ .name = "staging", .size = bytes });
    rg_buffer out = test_import_buffer(g, "readback", readback, true);
    rg_attachment clear = { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR };
    memcpy(clear.clear.color.float32, clear_rgba, sizeof clear.clear.color.float32);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear", .color_count = 1, .colors = { clear } });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, staging, 0);
    rg_cmd_copy_buffer(g, staging, 0, out, 0, bytes);
}

bool test_record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* Mesa's version from the driver info ("Mesa 25.0.7 (LLVM ...)"); lavapipe's
 * driverVersion is 1. */
static unsigned mesa_major(void)
{
    VkPhysicalDeviceDriverProperties d = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
    VkPhysicalDeviceProperties2 p = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &d };
    vkGetPhysicalDeviceProperties2(eng_context_physical_device(test_ctx), &p);
    unsigned major = 0;
    const char *m = strstr(d.driverInfo, "Mesa ");
    return m && sscanf(m, "Mesa %u", &major) == 1 ? major : 0;
}

unsigned test_lavapipe_mesa(void)
{
    return strstr(eng_context_properties(test_ctx)->deviceName, "llvmpipe") ? mesa_major() : 0;
}

void test_skip_if_resolve_ignores_base_layer(bool depth)
{
    unsigned mesa = test_lavapipe_mesa();
    if (!mesa)
        return;
    if (depth || mesa < 25)
        cr_skip_test("lavapipe (Mesa %u) resolves %s into the first layer and mip of any resolve view", mesa,
                     depth ? "depth" : "color");
}
