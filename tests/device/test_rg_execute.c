/* The render graph on a device: graphs that render, read back exact pixels,
 * and keep the validation layer (synchronization validation included)
 * silent. Every barrier in these frames is the graph's. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rg_execute, .init = device_setup, .fini = device_teardown);

static const uint32_t sample_frag[] =
#include "sample.frag.inc"
    ;
static const uint32_t ssbo_frag[] =
#include "ssbo_color.frag.inc"
    ;
static const uint32_t fill_comp[] =
#include "fill.comp.inc"
    ;

#define W 32
#define H 32
#define FMT VK_FORMAT_R8G8B8A8_UNORM

static const float full[4] = { -1, -1, 1, 1 };
static const float left_half[4] = { -1, -1, 0, 1 };
static const float top_half[4] = { -1, -1, 1, 0 };

/* ----------------------------------------------------------- test helpers */

typedef struct gpu {
    eng_context *ctx;
    VkDevice dev;
    VkDescriptorPool pool;
} gpu;

static gpu gpu_open(void)
{
    gpu g = { test_ctx, eng_context_device(test_ctx), VK_NULL_HANDLE };
    VkDescriptorPoolSize sizes[] = { { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8 }, { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                                                8 } };
    VkDescriptorPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 8,
                                      .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(g.dev, &ci, NULL, &g.pool), VK_SUCCESS);
    return g;
}

static void gpu_close(gpu *g)
{
    vkDestroyDescriptorPool(g->dev, g->pool, NULL);
}

static VkDescriptorSetLayout set_layout(gpu *g, VkDescriptorType type, VkShaderStageFlags stages)
{
    VkDescriptorSetLayoutBinding b = { 0, type, 1, stages, NULL };
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 1, .pBindings = &b };
    VkDescriptorSetLayout l;
    cr_assert_eq(vkCreateDescriptorSetLayout(g->dev, &ci, NULL, &l), VK_SUCCESS);
    return l;
}

static VkDescriptorSet alloc_set(gpu *g, VkDescriptorSetLayout l)
{
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = g->pool, .descriptorSetCount = 1, .pSetLayouts = &l };
    VkDescriptorSet s;
    cr_assert_eq(vkAllocateDescriptorSets(g->dev, &ai, &s), VK_SUCCESS);
    return s;
}

/* A pipeline drawing solid.vert's rectangle with another fragment shader. */
static eng_pipeline *fragment_pipeline(gpu *g, const uint32_t *frag, size_t size, VkDescriptorSetLayout l,
                                       VkSampleCountFlagBits samples)
{
    eng_pipeline_desc d = {
        .name = "rg test",
        .vertex_spirv = solid_vert_spv,
        .vertex_size = solid_vert_size,
        .fragment_spirv = frag,
        .fragment_size = size,
        .color_formats = { FMT },
        .color_count = 1,
        .samples = samples,
        .triangle_strip = true,
        .set_layouts = &l,
        .set_layout_count = l ? 1 : 0,
        .push_constant_size = sizeof(solid_push),
    };
    eng_pipeline *p = NULL;
    eng_result r = eng_pipeline_create(g->ctx, &d, &p);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return p;
}

static eng_buffer *readback_buffer(gpu *g, VkDeviceSize size)
{
    eng_buffer_desc d = { .name = "readback", .size = size, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    eng_buffer *b = NULL;
    cr_assert_eq(eng_buffer_create(g->ctx, &d, &b), ENG_SUCCESS, "%s", eng_last_error());
    return b;
}

static rg_buffer import_readback(rg_graph *graph, eng_buffer *b)
{
    rg_buffer_import_desc d = { .name = "readback", .buffer = eng_buffer_handle(b), .size = eng_buffer_size(b),
                                .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                .final_access = VK_ACCESS_2_HOST_READ_BIT };
    return rg_buffer_import(graph, &d);
}

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

/* Executes the graph `times` times in one command buffer (so each frame's
 * first uses must wait for the previous frame's last ones), then waits. */
static void run_graph(gpu *g, rg_graph *graph, int times)
{
    exec_job j = { graph, times, RG_SUCCESS };
    cr_assert_eq(eng_context_submit_once(g->ctx, record_graph, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.result, RG_SUCCESS, "rg_execute: %s", rg_graph_error_message(graph));
}

static void expect_pixel(const uint8_t *px, uint32_t x, uint32_t y, const uint8_t want[4])
{
    const uint8_t *p = px + (y * W + x) * 4;
    cr_expect(memcmp(p, want, 4) == 0, "pixel (%u,%u) = %u,%u,%u,%u, want %u,%u,%u,%u", x, y, p[0], p[1], p[2], p[3],
              want[0], want[1], want[2], want[3]);
}

static rg_graph *new_graph(gpu *g)
{
    rg_graph *graph = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "test", .device = eng_context_graph_device(g->ctx), .no_culling = true }, &graph), RG_SUCCESS);
    return graph;
}

static void compile_ok(rg_graph *graph)
{
    rg_result r = rg_compile(graph);
    cr_assert_eq(r, RG_SUCCESS, "rg_compile: %s: %s", rg_result_string(r), rg_graph_error_message(graph));
}

/* ------------------------------------- clear -> pass -> second pass -> copy */

typedef struct sample_draw {
    gpu *g;
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_texture source;
    const float *rect;
    VkImageView written; /* what the set holds: updating a set that a recording
                            command buffer has bound would invalidate it */
} sample_draw;

static bool draw_sampled(const rg_record_context *rc, void *user)
{
    sample_draw *d = user;
    /* The view exists only once the graph has placed the texture. */
    VkImageView view = rg_record_view(rc, d->source);
    if (view != d->written) {
        VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
        VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = d->set,
                                   .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                   .pImageInfo = &ii };
        vkUpdateDescriptorSets(d->g->dev, 1, &w, 0, NULL);
        d->written = view;
    }
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(d->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(d->pipeline), 0, 1, &d->set, 0,
                            NULL);
    static const float none[4] = { 0, 0, 0, 0 };
    solid_draw(cmd, d->pipeline, d->rect, none, 0.0f);
    return true;
}

DEVICE_TEST(rg_execute, clear_pass_sample_copy)
{
    gpu g = gpu_open();
    VkDescriptorSetLayout layout = set_layout(&g, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_SHADER_STAGE_FRAGMENT_BIT);
    eng_pipeline *pipe = fragment_pipeline(&g, sample_frag, sizeof sample_frag, layout, VK_SAMPLE_COUNT_1_BIT);
    eng_buffer *host = readback_buffer(&g, W * H * 4);
    rg_graph *graph = new_graph(&g);

    rg_texture_desc td = { .format = FMT, .width = W, .height = H };
    td.name = "a";
    rg_texture a = rg_texture_create(graph, &td);
    td.name = "b";
    rg_texture b = rg_texture_create(graph, &td);
    td.name = "c";
    rg_texture c = rg_texture_create(graph, &td);
    rg_buffer out = import_readback(graph, host);

    /* a = red; b = blue, with a sampled into its left half; c = copy of b. */
    rg_cmd_clear_texture(graph, a, NULL, &(VkClearValue){ .color = { .float32 = { 1, 0, 0, 1 } } });
    sample_draw d1 = { &g, pipe, alloc_set(&g, layout), a, left_half, VK_NULL_HANDLE };
    sample_draw d2 = { &g, pipe, alloc_set(&g, layout), b, full, VK_NULL_HANDLE };
    rg_access read_a = { .texture = a, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_access read_b = { .texture = b, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "pass 1", .color_count = 1,
        .colors = { { .texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color = { .float32 = { 0, 0, 1, 1 } } } } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "sample a", .kind = RG_COMMAND_DRAW, .accesses = &read_a,
                                         .access_count = 1, .record = draw_sampled, .user = &d1 });
    rg_end_rendering(graph);
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "pass 2", .color_count = 1,
        .colors = { { .texture = c, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "sample b", .kind = RG_COMMAND_DRAW, .accesses = &read_b,
                                         .access_count = 1, .record = draw_sampled, .user = &d2 });
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, c, 0, 0, 1, out, 0);
    compile_ok(graph);

    /* Three frames in one command buffer, then one more submission. */
    run_graph(&g, graph, 3);
    run_graph(&g, graph, 1);
    const uint8_t *px = eng_buffer_mapped(host);
    static const uint8_t red[4] = { 255, 0, 0, 255 }, blue[4] = { 0, 0, 255, 255 };
    for (uint32_t y = 0; y < H; y += 3)
        for (uint32_t x = 0; x < W; x++)
            expect_pixel(px, x, y, x < W / 2 ? red : blue);

    rg_graph_destroy(graph);
    eng_buffer_destroy(host);
    eng_pipeline_destroy(pipe);
    vkDestroyDescriptorSetLayout(g.dev, layout, NULL);
    gpu_close(&g);
}

/* --------------------------------------- MSAA resolved into an imported image */

typedef struct solid_job {
    eng_pipeline *pipeline;
    const float *rect;
    const float *color;
} solid_job;

static bool draw_solid(const rg_record_context *rc, void *user)
{
    solid_job *j = user;
    vkCmdBindPipeline(rg_record_cmd(rc), VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    solid_draw(rg_record_cmd(rc), j->pipeline, j->rect, j->color, 0.0f);
    return true;
}

DEVICE_TEST(rg_execute, msaa_resolve_into_import)
{
    gpu g = gpu_open();
    eng_pipeline *pipe = NULL;
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_4_BIT, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *target = NULL;
    eng_image_desc id = { .name = "resolve target", .format = FMT, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    cr_assert_eq(eng_image_create(g.ctx, &id, &target), ENG_SUCCESS, "%s", eng_last_error());
    const eng_image_info *ti = eng_image_get_info(target);

    rg_graph *graph = new_graph(&g);
    rg_texture msaa = rg_texture_create(graph, &(rg_texture_desc){ .name = "msaa", .format = FMT, .width = W,
                                                                   .height = H, .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_texture resolved = rg_texture_import(graph, &(rg_texture_import_desc){
        .name = "resolved", .image = ti->image, .view = ti->view, .format = FMT, .width = W, .height = H,
        .initial_layout = VK_IMAGE_LAYOUT_UNDEFINED, .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT, .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    static const float green[4] = { 0, 1, 0, 1 };
    solid_job job = { pipe, top_half, green };
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "msaa pass", .color_count = 1,
        .colors = { { .texture = msaa, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                      .clear = { .color = { .float32 = { 0, 0, 0, 1 } } }, .resolve = resolved } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "green top", .kind = RG_COMMAND_DRAW, .record = draw_solid,
                                         .user = &job });
    rg_end_rendering(graph);
    compile_ok(graph);
    run_graph(&g, graph, 2);

    uint8_t px[W * H * 4];
    cr_assert_eq(eng_image_read(g.ctx, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    static const uint8_t want_green[4] = { 0, 255, 0, 255 }, black[4] = { 0, 0, 0, 255 };
    for (uint32_t y = 0; y < H; y += 5)
        for (uint32_t x = 0; x < W; x += 3)
            expect_pixel(px, x, y, y < H / 2 ? want_green : black);

    rg_graph_destroy(graph);
    eng_image_destroy(target);
    eng_pipeline_destroy(pipe);
    gpu_close(&g);
}

/* ------------------------------------------- compute write -> fragment read */

typedef struct compute_job {
    gpu *g;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSet set;
    rg_buffer buffer;
    float color[4];
    VkBuffer written;
} compute_job;

/* Writes the set once per buffer: see sample_draw.written. */
static void bind_buffer(gpu *g, VkDescriptorSet set, VkBuffer buffer, VkBuffer *written)
{
    if (buffer == *written)
        return;
    *written = buffer;
    VkDescriptorBufferInfo bi = { buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi };
    vkUpdateDescriptorSets(g->dev, 1, &w, 0, NULL);
}

static bool dispatch_fill(const rg_record_context *rc, void *user)
{
    compute_job *j = user;
    bind_buffer(j->g, j->set, rg_record_buffer(rc, j->buffer), &j->written);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->layout, 0, 1, &j->set, 0, NULL);
    vkCmdPushConstants(cmd, j->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, j->color);
    vkCmdDispatch(cmd, 1, 1, 1);
    return true;
}

typedef struct ssbo_draw {
    gpu *g;
    eng_pipeline *pipeline;
    VkDescriptorSet set;
    rg_buffer buffer;
    VkBuffer written;
} ssbo_draw;

static bool draw_from_ssbo(const rg_record_context *rc, void *user)
{
    ssbo_draw *d = user;
    bind_buffer(d->g, d->set, rg_record_buffer(rc, d->buffer), &d->written);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(d->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(d->pipeline), 0, 1, &d->set, 0,
                            NULL);
    static const float none[4] = { 0, 0, 0, 0 };
    solid_draw(cmd, d->pipeline, full, none, 0.0f);
    return true;
}

DEVICE_TEST(rg_execute, compute_write_fragment_read)
{
    gpu g = gpu_open();
    VkDescriptorSetLayout comp_l = set_layout(&g, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT);
    VkDescriptorSetLayout frag_l = set_layout(&g, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                      .codeSize = sizeof fill_comp, .pCode = fill_comp };
    VkShaderModule module;
    cr_assert_eq(vkCreateShaderModule(g.dev, &smci, NULL, &module), VK_SUCCESS);
    VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 16 };
    VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                        .pSetLayouts = &comp_l, .pushConstantRangeCount = 1,
                                        .pPushConstantRanges = &push };
    compute_job cj = { .g = &g, .set = alloc_set(&g, comp_l), .color = { 0.0f, 1.0f, 1.0f, 1.0f } };
    cr_assert_eq(vkCreatePipelineLayout(g.dev, &plci, NULL, &cj.layout), VK_SUCCESS);
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = cj.layout,
    };
    cr_assert_eq(vkCreateComputePipelines(g.dev, VK_NULL_HANDLE, 1, &cpci, NULL, &cj.pipeline), VK_SUCCESS);
    vkDestroyShaderModule(g.dev, module, NULL);
    eng_pipeline *pipe = fragment_pipeline(&g, ssbo_frag, sizeof ssbo_frag, frag_l, VK_SAMPLE_COUNT_1_BIT);
    eng_buffer *host = readback_buffer(&g, W * H * 4);

    rg_graph *graph = new_graph(&g);
    rg_buffer color = rg_buffer_create(graph, &(rg_buffer_desc){ .name = "color", .size = 16 });
    rg_texture target = rg_texture_create(graph, &(rg_texture_desc){ .name = "target", .format = FMT, .width = W,
                                                                     .height = H });
    rg_buffer out = import_readback(graph, host);
    cj.buffer = color;
    ssbo_draw sd = { &g, pipe, alloc_set(&g, frag_l), color, VK_NULL_HANDLE };
    rg_access write = { .buffer = color, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_access read = { .buffer = color, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    rg_cmd_user(graph, &(rg_user_desc){ .name = "fill", .accesses = &write, .access_count = 1,
                                         .record = dispatch_fill, .user = &cj });
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "show", .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "read color", .kind = RG_COMMAND_DRAW, .accesses = &read,
                                         .access_count = 1, .record = draw_from_ssbo, .user = &sd });
    rg_end_rendering(graph);
    rg_cmd_copy_texture_to_buffer(graph, target, 0, 0, 1, out, 0);
    compile_ok(graph);
    run_graph(&g, graph, 3);

    const uint8_t *px = eng_buffer_mapped(host);
    static const uint8_t cyan[4] = { 0, 255, 255, 255 };
    for (uint32_t y = 0; y < H; y += 7)
        for (uint32_t x = 0; x < W; x += 5)
            expect_pixel(px, x, y, cyan);

    rg_graph_destroy(graph);
    eng_buffer_destroy(host);
    eng_pipeline_destroy(pipe);
    vkDestroyPipeline(g.dev, cj.pipeline, NULL);
    vkDestroyPipelineLayout(g.dev, cj.layout, NULL);
    vkDestroyDescriptorSetLayout(g.dev, comp_l, NULL);
    vkDestroyDescriptorSetLayout(g.dev, frag_l, NULL);
    gpu_close(&g);
}

/* ---------------------------------------------------- errors while executing */

static bool fail_record(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return false;
}

DEVICE_TEST(rg_execute, callback_error_closes_the_pass)
{
    gpu g = gpu_open();
    rg_graph *graph = new_graph(&g);
    rg_texture t = rg_texture_create(graph, &(rg_texture_desc){ .name = "t", .format = FMT, .width = W, .height = H });
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "pass", .color_count = 1,
        .colors = { { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "broken draw", .kind = RG_COMMAND_DRAW, .record = fail_record });
    rg_end_rendering(graph);
    compile_ok(graph);
    exec_job j = { graph, 1, RG_SUCCESS };
    /* The command buffer must still end cleanly: no open rendering instance. */
    cr_assert_eq(eng_context_submit_once(g.ctx, record_graph, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(j.result, RG_ERROR_CALLBACK);
    cr_expect(strstr(rg_graph_error_message(graph), "broken draw"), "message: %s", rg_graph_error_message(graph));
    /* The frame failed, the graph did not: it can execute again. */
    cr_expect_eq(rg_graph_error(graph), RG_SUCCESS);
    rg_graph_destroy(graph);

    /* Not compiled, and device-free graphs, are errors too. */
    graph = new_graph(&g);
    cr_expect_eq(rg_execute(graph, (VkCommandBuffer)(uintptr_t)1), RG_ERROR_NOT_COMPILED);
    rg_graph_destroy(graph);
    rg_graph *free_graph = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "no device" }, &free_graph), RG_SUCCESS);
    cr_expect_eq(rg_compile(free_graph), RG_SUCCESS);
    cr_expect_eq(rg_execute(free_graph, (VkCommandBuffer)(uintptr_t)1), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(free_graph);
    gpu_close(&g);
}

/* ------------------------------------------- an import re-pointed per frame */

DEVICE_TEST(rg_execute, import_repointed_without_recompile)
{
    gpu g = gpu_open();
    eng_pipeline *pipe = NULL;
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *images[2] = { NULL, NULL };
    eng_image_desc id = { .name = "frame image", .format = FMT, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    for (int i = 0; i < 2; i++)
        cr_assert_eq(eng_image_create(g.ctx, &id, &images[i]), ENG_SUCCESS, "%s", eng_last_error());

    /* Like a swapchain image: contents not needed, left ready to copy. */
    rg_graph *graph = new_graph(&g);
    const eng_image_info *first = eng_image_get_info(images[0]);
    rg_texture target = rg_texture_import(graph, &(rg_texture_import_desc){
        .name = "frame", .image = first->image, .view = first->view, .format = FMT, .width = W, .height = H,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
        .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    float color[4] = { 1, 0, 0, 1 };
    solid_job job = { pipe, full, color };
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "frame", .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "fill", .kind = RG_COMMAND_DRAW, .record = draw_solid, .user = &job });
    rg_end_rendering(graph);
    compile_ok(graph);
    run_graph(&g, graph, 1);

    const eng_image_info *second = eng_image_get_info(images[1]);
    cr_assert_eq(rg_texture_set_image(graph, target, &(rg_import_image){
                     .image = second->image, .view = second->view, .format = second->format,
                     .width = second->extent.width, .height = second->extent.height, .usage = second->usage }),
                 RG_SUCCESS, "%s", rg_graph_error_message(graph));
    color[0] = 0;
    color[1] = 1;
    run_graph(&g, graph, 1);

    uint8_t px[W * H * 4];
    static const uint8_t want[2][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 } };
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(eng_image_read(g.ctx, images[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, sizeof px),
                     ENG_SUCCESS, "%s", eng_last_error());
        expect_pixel(px, 0, 0, want[i]);
        expect_pixel(px, W - 1, H - 1, want[i]);
    }
    rg_graph_destroy(graph);
    for (int i = 0; i < 2; i++)
        eng_image_destroy(images[i]);
    eng_pipeline_destroy(pipe);
    gpu_close(&g);
}

/* ------------------------- an image of another size than the import's */

/* The application's swapchain images at two sizes, rendered through an
 * import "backbuffer": cleared blue, the left half drawn red. */
typedef struct resize_frame {
    gpu *g;
    eng_pipeline *pipe;
    solid_job job;
    rg_graph *graph;
    rg_texture back;
} resize_frame;

static void declare_backbuffer(resize_frame *f, const eng_image_info *ii)
{
    static const float red[4] = { 1, 0, 0, 1 };
    f->job = (solid_job){ f->pipe, left_half, red };
    f->back = rg_texture_import(f->graph, &(rg_texture_import_desc){
        .name = "backbuffer", .format = FMT, .width = ii->extent.width, .height = ii->extent.height,
        .usage = ii->usage, .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT, .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    rg_begin_rendering(f->graph, &(rg_rendering_desc){
        .name = "frame", .color_count = 1,
        .colors = { { .texture = f->back, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color = { .float32 = { 0, 0, 1, 1 } } } } } });
    rg_cmd_user(f->graph, &(rg_user_desc){ .name = "left half", .kind = RG_COMMAND_DRAW, .record = draw_solid,
                                           .user = &f->job });
    rg_end_rendering(f->graph);
    compile_ok(f->graph);
    cr_assert_eq(rg_place(f->graph), RG_SUCCESS, "%s", rg_graph_error_message(f->graph));
}

static rg_result give_image(resize_frame *f, const eng_image_info *ii)
{
    return rg_texture_set_image(f->graph, f->back, &(rg_import_image){
        .image = ii->image, .view = ii->view, .format = ii->format, .width = ii->extent.width,
        .height = ii->extent.height, .usage = ii->usage });
}

/* One frame as an application records it: the image given, and the graph
 * executed only when the image was taken. */
typedef struct resize_job {
    resize_frame *f;
    const eng_image_info *image;
    rg_result given, executed;
    bool recorded;
} resize_job;

static void record_resize_frame(VkCommandBuffer cmd, void *user)
{
    resize_job *j = user;
    j->given = give_image(j->f, j->image);
    if (j->given != RG_SUCCESS)
        return;
    j->executed = test_execute(j->f->graph, cmd);
    j->recorded = true;
}

/* Every pixel: red on the left half, blue on the right. */
static void expect_left_red(gpu *g, eng_image *image)
{
    const eng_image_info *ii = eng_image_get_info(image);
    uint32_t w = ii->extent.width, h = ii->extent.height;
    size_t size = (size_t)w * h * 4;
    uint8_t *px = malloc(size);
    cr_assert_not_null(px);
    cr_assert_eq(eng_image_read(g->ctx, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, size), ENG_SUCCESS, "%s",
                 eng_last_error());
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            bool left = x < w / 2;
            bad += p[0] != (left ? 255 : 0) || p[1] != 0 || p[2] != (left ? 0 : 255) || p[3] != 255;
        }
    cr_expect_eq(bad, 0, "%ux%u: %u pixels differ", w, h, bad);
    free(px);
}

/* Issue 35: a window resized to 640x360 while the graph still declares its
 * import 960x540. The smaller image is refused at rg_texture_set_image,
 * naming both extents, so nothing of that frame is recorded (before the
 * check the driver wrote past the image, and the validation layer
 * reported the render area). Declared again at 640x360, the graph renders
 * the new image exactly; the validation layer stays silent throughout. */
DEVICE_TEST(rg_execute, an_import_given_a_smaller_image_is_refused_until_redeclared)
{
    gpu g = gpu_open();
    resize_frame f = { .g = &g };
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT, NULL, &f.pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *big = NULL, *small = NULL;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    cr_assert_eq(eng_image_create(g.ctx, &(eng_image_desc){ .name = "960x540", .format = FMT, .width = 960,
                                                            .height = 540, .usage = usage }, &big),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_image_create(g.ctx, &(eng_image_desc){ .name = "640x360", .format = FMT, .width = 640,
                                                            .height = 360, .usage = usage }, &small),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "frame", .device = eng_context_graph_device(g.ctx) },
                                 &f.graph),
                 RG_SUCCESS);
    declare_backbuffer(&f, eng_image_get_info(big));

    resize_job j = { &f, eng_image_get_info(big), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.given, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    cr_assert_eq(j.executed, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    expect_left_red(&g, big);

    /* The resize the graph was not told of. */
    j = (resize_job){ &f, eng_image_get_info(small), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(j.given, RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(f.graph),
                     "rg_texture_set_image: graph 'frame': import 'backbuffer' declared 960x540, given 640x360: "
                     "re-declare or use a relative size");
    cr_expect_not(j.recorded, "nothing of the frame is recorded");
    cr_expect_eq(rg_graph_error(f.graph), RG_SUCCESS, "not kept");
    cr_expect_eq(rg_texture_image(f.graph, f.back), eng_image_get_info(big)->image, "the import kept its image");
    expect_no_validation_messages(g.ctx);

    /* Declared again at the new size: the small image renders right. */
    rg_graph_reset(f.graph);
    declare_backbuffer(&f, eng_image_get_info(small));
    j = (resize_job){ &f, eng_image_get_info(small), RG_SUCCESS, RG_SUCCESS, false };
    cr_assert_eq(eng_context_submit_once(g.ctx, record_resize_frame, &j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(j.given, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    cr_assert_eq(j.executed, RG_SUCCESS, "%s", rg_graph_error_message(f.graph));
    expect_left_red(&g, small);

    rg_graph_destroy(f.graph);
    eng_image_destroy(big);
    eng_image_destroy(small);
    eng_pipeline_destroy(f.pipe);
    gpu_close(&g);
}
