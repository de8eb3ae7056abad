/* The rg_execute tests' device objects (rg_execute_support.h). */
#include "rg_execute_support.h"

#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

const float exec_full[4] = { -1, -1, 1, 1 };

const float exec_left_half[4] = { -1, -1, 0, 1 };

/* ----------------------------------------------------------- test helpers */

gpu exec_gpu_open(void)
{
    gpu g = { test_ctx, eng_context_device(test_ctx), VK_NULL_HANDLE };
    VkDescriptorPoolSize sizes[] = { { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8 }, { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                                                8 } };
    VkDescriptorPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 8,
                                      .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(g.dev, &ci, NULL, &g.pool), VK_SUCCESS);
    return g;
}

void exec_gpu_close(gpu *g)
{
    vkDestroyDescriptorPool(g->dev, g->pool, NULL);
}

void exec_record_graph(VkCommandBuffer cmd, void *user)
{
    exec_job *j = user;
    for (int i = 0; i < j->times && j->result == RG_SUCCESS; i++)
        j->result = test_execute(j->graph, cmd);
}

void exec_run_graph(gpu *g, rg_graph *graph, int times)
{
    exec_job j = { graph, times, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(g->ctx, exec_record_graph, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.result, RG_SUCCESS, "rg_execute: %s", rg_graph_error_message(graph));
}

void exec_expect_pixel(const uint8_t *px, uint32_t x, uint32_t y, const uint8_t want[4])
{
    const uint8_t *p = px + (y * W + x) * 4;
    cr_expect(memcmp(p, want, 4) == 0, "pixel (%u,%u) = %u,%u,%u,%u, want %u,%u,%u,%u", x, y, p[0], p[1], p[2], p[3],
              want[0], want[1], want[2], want[3]);
}

rg_graph *exec_new_graph(gpu *g)
{
    rg_graph *graph = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "test", .device = eng_context_graph_device(g->ctx), .no_culling = true }, &graph), RG_SUCCESS);
    return graph;
}

void exec_compile_ok(rg_graph *graph)
{
    rg_result r = rg_compile(graph);
    cr_assert_eq(r, RG_SUCCESS, "rg_compile: %s: %s", rg_result_string(r), rg_graph_error_message(graph));
}

/* --------------------------------------- MSAA resolved into an imported image */

bool exec_draw_solid(const rg_record_context *rc, void *user)
{
    solid_job *j = user;
    vkCmdBindPipeline(rg_record_cmd(rc), VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    solid_draw(rg_record_cmd(rc), j->pipeline, j->rect, j->color, 0.0f);
    return true;
}
