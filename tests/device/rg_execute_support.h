/* Helpers of the rg_execute tests (test_rg_execute*.c): descriptor sets,
 * pipelines and readbacks on the fixture's device, a graph run and waited
 * for, pixels compared. */
#ifndef TEST_RG_EXECUTE_SUPPORT_H
#define TEST_RG_EXECUTE_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define W 32

#define H 32

#define FMT VK_FORMAT_R8G8B8A8_UNORM

extern const float exec_full[4];

extern const float exec_left_half[4];

typedef struct gpu {
    eng_context *ctx;
    VkDevice dev;
    VkDescriptorPool pool;
} gpu;

gpu exec_gpu_open(void);

void exec_gpu_close(gpu *g);

typedef struct exec_job {
    rg_graph *graph;
    int times;
    rg_result result;
} exec_job;

void exec_record_graph(VkCommandBuffer cmd, void *user);

/* Executes the graph `times` times in one command buffer (so each frame's
 * first uses must wait for the previous frame's last ones), then waits. */
void exec_run_graph(gpu *g, rg_graph *graph, int times);

void exec_expect_pixel(const uint8_t *px, uint32_t x, uint32_t y, const uint8_t want[4]);

rg_graph *exec_new_graph(gpu *g);

void exec_compile_ok(rg_graph *graph);

typedef struct solid_job {
    eng_pipeline *pipeline;
    const float *rect;
    const float *color;
} solid_job;

bool exec_draw_solid(const rg_record_context *rc, void *user);

#endif
