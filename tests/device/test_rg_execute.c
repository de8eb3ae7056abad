/* The render graph on a device: graphs that render, read back exact pixels,
 * and keep the validation layer (synchronization validation included)
 * silent. Every barrier in these frames is the graph's. The suite's other file: test_rg_execute_imports.c;
 * their helpers: rg_execute_support.c. */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "rg_execute_support.h"
#include "rg_support.h"
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

static const float top_half[4] = { -1, -1, 1, 0 };

/* A pipeline drawing solid.vert's rectangle with another fragment shader. */
static eng_pipeline *fragment_pipeline(gpu *g, const uint32_t *frag, size_t size, VkDescriptorSetLayout l,
                                       VkSampleCountFlagBits samples)
{
    eng_pipeline_desc d = solid_fragment_desc("rg test", frag, size, FMT);
    d.samples = samples;
    d.set_layouts = &l;
    d.set_layout_count = l ? 1 : 0;
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

/* A span `name` writing all of target (its old contents discarded, the new
 * stored) with one draw `draw` that reads *read, recorded by record(user). */
static void declare_reading_span(rg_graph *graph, const char *name, rg_texture target, const char *draw,
                                 const rg_access *read, rg_record_fn record, void *user)
{
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = name, .color_count = 1,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = draw, .kind = RG_COMMAND_DRAW, .accesses = read, .access_count = 1,
                                         .record = record, .user = user });
    rg_end_rendering(graph);
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
        test_write_image(d->g->dev, d->set, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, view,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
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
    gpu g = exec_gpu_open();
    VkDescriptorSetLayout layout = test_set_layout(g.dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    eng_pipeline *pipe = fragment_pipeline(&g, sample_frag, sizeof sample_frag, layout, VK_SAMPLE_COUNT_1_BIT);
    eng_buffer *host = readback_buffer(&g, W * H * 4);
    rg_graph *graph = exec_new_graph(&g);

    rg_texture_desc td = { .format = FMT, .width = W, .height = H };
    rg_texture a = test_texture_named(graph, td, "a");
    rg_texture b = test_texture_named(graph, td, "b");
    rg_texture c = test_texture_named(graph, td, "c");
    rg_buffer out = import_readback(graph, host);

    /* a = red; b = blue, with a sampled into its left half; c = copy of b. */
    rg_cmd_clear_texture(graph, a, NULL, &(VkClearValue){ .color = { .float32 = { 1, 0, 0, 1 } } });
    sample_draw d1 = { &g, pipe, test_alloc_set(g.dev, g.pool, layout), a, exec_left_half, VK_NULL_HANDLE };
    sample_draw d2 = { &g, pipe, test_alloc_set(g.dev, g.pool, layout), b, exec_full, VK_NULL_HANDLE };
    rg_access read_a = { .texture = a, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_access read_b = { .texture = b, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "pass 1", .color_count = 1,
        .colors = { { .texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color = { .float32 = { 0, 0, 1, 1 } } } } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "sample a", .kind = RG_COMMAND_DRAW, .accesses = &read_a,
                                         .access_count = 1, .record = draw_sampled, .user = &d1 });
    rg_end_rendering(graph);
    declare_reading_span(graph, "pass 2", c, "sample b", &read_b, draw_sampled, &d2);
    rg_cmd_copy_texture_to_buffer(graph, c, 0, 0, 1, out, 0);
    exec_compile_ok(graph);

    /* Three frames in one command buffer, then one more submission. */
    exec_run_graph(&g, graph, 3);
    exec_run_graph(&g, graph, 1);
    const uint8_t *px = eng_buffer_mapped(host);
    static const uint8_t red[4] = { 255, 0, 0, 255 }, blue[4] = { 0, 0, 255, 255 };
    for (uint32_t y = 0; y < H; y += 3)
        for (uint32_t x = 0; x < W; x++)
            exec_expect_pixel(px, x, y, x < W / 2 ? red : blue);

    rg_graph_destroy(graph);
    eng_buffer_destroy(host);
    eng_pipeline_destroy(pipe);
    vkDestroyDescriptorSetLayout(g.dev, layout, NULL);
    exec_gpu_close(&g);
}

DEVICE_TEST(rg_execute, msaa_resolve_into_import)
{
    gpu g = exec_gpu_open();
    eng_pipeline *pipe = NULL;
    cr_assert_eq(solid_pipeline_create(g.ctx, FMT, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_4_BIT, NULL, &pipe),
                 ENG_SUCCESS, "%s", eng_last_error());
    eng_image *target = NULL;
    eng_image_desc id = { .name = "resolve target", .format = FMT, .width = W, .height = H,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    cr_assert_eq(eng_image_create(g.ctx, &id, &target), ENG_SUCCESS, "%s", eng_last_error());
    const eng_image_info *ti = eng_image_get_info(target);

    rg_graph *graph = exec_new_graph(&g);
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
    rg_cmd_user(graph, &(rg_user_desc){ .name = "green top", .kind = RG_COMMAND_DRAW, .record = exec_draw_solid,
                                         .user = &job });
    rg_end_rendering(graph);
    exec_compile_ok(graph);
    exec_run_graph(&g, graph, 2);

    uint8_t px[W * H * 4];
    cr_assert_eq(eng_image_read(g.ctx, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, px, sizeof px), ENG_SUCCESS,
                 "%s", eng_last_error());
    static const uint8_t want_green[4] = { 0, 255, 0, 255 }, black[4] = { 0, 0, 0, 255 };
    for (uint32_t y = 0; y < H; y += 5)
        for (uint32_t x = 0; x < W; x += 3)
            exec_expect_pixel(px, x, y, y < H / 2 ? want_green : black);

    rg_graph_destroy(graph);
    eng_image_destroy(target);
    eng_pipeline_destroy(pipe);
    exec_gpu_close(&g);
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
    test_write_storage(g->dev, set, 0, buffer);
}

static bool dispatch_fill(const rg_record_context *rc, void *user)
{
    compute_job *j = user;
    bind_buffer(j->g, j->set, rg_record_buffer(rc, j->buffer), &j->written);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    test_bind_with_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->pipeline, j->layout, j->set);
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
    solid_draw(cmd, d->pipeline, exec_full, none, 0.0f);
    return true;
}

DEVICE_TEST(rg_execute, compute_write_fragment_read)
{
    gpu g = exec_gpu_open();
    VkDescriptorSetLayout comp_l = test_set_layout(g.dev, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    VkDescriptorSetLayout frag_l = test_set_layout(g.dev, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                      .codeSize = sizeof fill_comp, .pCode = fill_comp };
    VkShaderModule module;
    cr_assert_eq(vkCreateShaderModule(g.dev, &smci, NULL, &module), VK_SUCCESS);
    VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 16 };
    VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                        .pSetLayouts = &comp_l, .pushConstantRangeCount = 1,
                                        .pPushConstantRanges = &push };
    compute_job cj = { .g = &g, .set = test_alloc_set(g.dev, g.pool, comp_l), .color = { 0.0f, 1.0f, 1.0f, 1.0f } };
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

    rg_graph *graph = exec_new_graph(&g);
    rg_buffer color = rg_buffer_create(graph, &(rg_buffer_desc){ .name = "color", .size = 16 });
    rg_texture target = rg_texture_create(graph, &(rg_texture_desc){ .name = "target", .format = FMT, .width = W,
                                                                     .height = H });
    rg_buffer out = import_readback(graph, host);
    cj.buffer = color;
    ssbo_draw sd = { &g, pipe, test_alloc_set(g.dev, g.pool, frag_l), color, VK_NULL_HANDLE };
    rg_access write = { .buffer = color, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_access read = { .buffer = color, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    rg_cmd_user(graph, &(rg_user_desc){ .name = "fill", .accesses = &write, .access_count = 1,
                                         .record = dispatch_fill, .user = &cj });
    declare_reading_span(graph, "show", target, "read color", &read, draw_from_ssbo, &sd);
    rg_cmd_copy_texture_to_buffer(graph, target, 0, 0, 1, out, 0);
    exec_compile_ok(graph);
    exec_run_graph(&g, graph, 3);

    const uint8_t *px = eng_buffer_mapped(host);
    static const uint8_t cyan[4] = { 0, 255, 255, 255 };
    for (uint32_t y = 0; y < H; y += 7)
        for (uint32_t x = 0; x < W; x += 5)
            exec_expect_pixel(px, x, y, cyan);

    rg_graph_destroy(graph);
    eng_buffer_destroy(host);
    eng_pipeline_destroy(pipe);
    vkDestroyPipeline(g.dev, cj.pipeline, NULL);
    vkDestroyPipelineLayout(g.dev, cj.layout, NULL);
    vkDestroyDescriptorSetLayout(g.dev, comp_l, NULL);
    vkDestroyDescriptorSetLayout(g.dev, frag_l, NULL);
    exec_gpu_close(&g);
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
    gpu g = exec_gpu_open();
    rg_graph *graph = exec_new_graph(&g);
    rg_texture t = rg_texture_create(graph, &(rg_texture_desc){ .name = "t", .format = FMT, .width = W, .height = H });
    rg_begin_rendering(graph, &(rg_rendering_desc){
        .name = "pass", .color_count = 1,
        .colors = { { .texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(graph, &(rg_user_desc){ .name = "broken draw", .kind = RG_COMMAND_DRAW, .record = fail_record });
    rg_end_rendering(graph);
    exec_compile_ok(graph);
    /* The command buffer must still end cleanly: no open rendering instance. */
    cr_expect_eq(test_execute_once(graph), RG_ERROR_CALLBACK);
    cr_expect(strstr(rg_graph_error_message(graph), "broken draw"), "message: %s", rg_graph_error_message(graph));
    /* The frame failed, the graph did not: it can execute again. */
    cr_expect_eq(rg_graph_error(graph), RG_SUCCESS);
    rg_graph_destroy(graph);

    /* Not compiled, and device-free graphs, are errors too. */
    graph = exec_new_graph(&g);
    cr_expect_eq(rg_execute(graph, (VkCommandBuffer)(uintptr_t)1), RG_ERROR_NOT_COMPILED);
    rg_graph_destroy(graph);
    rg_graph *free_graph = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "no device" }, &free_graph), RG_SUCCESS);
    cr_expect_eq(rg_compile(free_graph), RG_SUCCESS);
    cr_expect_eq(rg_execute(free_graph, (VkCommandBuffer)(uintptr_t)1), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(free_graph);
    exec_gpu_close(&g);
}
