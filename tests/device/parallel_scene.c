/* The scenes the parallel recording tests record (parallel_support.h). */
#include "parallel_support.h"

#include "device_fixture.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* ------------------------------------------------------------ the scene */

static bool record_user(const rg_record_context *rc, void *user)
{
    const user_cmd *u = user;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    parallel_log_printf(cmd, "call %s\n", u->name);
    if (u->fail) {
        (void)rg_record_view(rc, u->undeclared); /* refused, in the chunk's message */
        return false;
    }
    if (u->pipeline) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(u->pipeline));
        solid_draw(cmd, u->pipeline, u->rect, u->color, u->depth);
    }
    return true;
}

user_cmd *parallel_add_user(rg_graph *g, scene *s, const char *name, uint32_t cost, rg_queue queue,
                          const rg_access *accesses, uint32_t access_count, rg_command_kind kind,
                          const eng_pipeline *pipeline)
{
    cr_assert_lt(s->user_count, MAX_USERS);
    user_cmd *u = &s->users[s->user_count++];
    snprintf(u->name, sizeof u->name, "%s", name);
    u->pipeline = pipeline;
    uint32_t i = s->user_count;
    u->rect[0] = -1.0f + 0.11f * (float)(i % 13);
    u->rect[1] = -1.0f + 0.17f * (float)(i % 7);
    u->rect[2] = u->rect[0] + 0.5f + 0.05f * (float)(i % 5);
    u->rect[3] = u->rect[1] + 0.6f;
    u->color[0] = (float)((i * 37) % 256) / 255.0f;
    u->color[1] = (float)((i * 91) % 256) / 255.0f;
    u->color[2] = (float)((i * 53) % 256) / 255.0f;
    u->color[3] = 1.0f;
    u->depth = 0.2f + 0.2f * (float)(i % 3); /* ties: the order of the draws decides what is seen */
    rg_cmd_user(g, &(rg_user_desc){ .name = u->name, .kind = kind, .queue = queue,
                                    .accesses = accesses, .access_count = access_count, .record = record_user,
                                    .user = u, .cost = cost });
    s->cost += cost ? cost : 1;
    return u;
}

void parallel_scene_open(scene *s)
{
    memset(s, 0, sizeof *s);
    cr_assert_eq(solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT,
                                       VK_SAMPLE_COUNT_1_BIT, NULL, &s->with_depth),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT,
                                       NULL, &s->color_only),
                 ENG_SUCCESS, "%s", eng_last_error());
    s->readback_size = 2 * PIXELS_BYTES;
    s->readback = test_host_buffer(s->readback_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
}

void parallel_scene_close(scene *s)
{
    eng_pipeline_destroy(s->with_depth);
    eng_pipeline_destroy(s->color_only);
    eng_buffer_destroy(s->readback);
}

rg_texture parallel_color_texture(rg_graph *g, const char *name)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W,
                                                    .height = H });
}

void parallel_begin_scene(rg_graph *g, const char *name, rg_texture color, const float clear[4], rg_texture depth,
                          VkAttachmentStoreOp depth_store)
{
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name, .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                      .clear = { .color.float32 = { clear[0], clear[1], clear[2], clear[3] } } } },
        .depth = { .texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = depth_store,
                   .clear = { .depthStencil = { 1.0f, 0 } } } });
}

rg_texture parallel_depth_texture(rg_graph *g)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = W,
                                                    .height = H });
}

rg_graph *parallel_graph(rg_graph_desc d)
{
    d.no_culling = true;
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&d, &g), RG_SUCCESS);
    return g;
}

rg_graph *parallel_declare_single(rg_device *dev, const rg_allocator *allocator, scene *s, const char *failing,
                                bool history)
{
    rg_graph *g = parallel_graph(
        (rg_graph_desc){ .name = "parallel", .device = dev, .merge = RG_MERGE_OFF, .allocator = allocator });
    rg_texture color = parallel_color_texture(g, "color"), post = parallel_color_texture(g, "post");
    rg_texture depth = parallel_depth_texture(g);
    rg_buffer scratch = rg_buffer_create(g, &(rg_buffer_desc){ .name = "scratch", .size = 4096 });
    rg_buffer out = test_import_buffer(g, "readback", s->readback, true);
    char name[32];

    rg_access write_scratch = { .buffer = scratch, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    parallel_add_user(g, s, "setup", 2, RG_QUEUE_GRAPHICS, &write_scratch, 1, RG_COMMAND_OUTSIDE, NULL);
    if (history) {
        rg_texture previous;
        s->history = rg_texture_create_history(g, &(rg_texture_desc){ .name = "history", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                        .width = W, .height = H },
                                               &previous);
        rg_cmd_clear_texture(g, s->history, NULL, &(VkClearValue){ .color.float32 = { 0, 1, 0, 1 } });
        rg_access read_previous = { .texture = previous, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true };
        parallel_add_user(g, s, "read history", 1, RG_QUEUE_GRAPHICS, &read_previous, 1, RG_COMMAND_OUTSIDE, NULL);
        s->cost += 1; /* the clear */
    }

    parallel_begin_scene(g, "opaque", color, (const float[4]){ 0.1f, 0.1f, 0.1f, 1 }, depth,
                         VK_ATTACHMENT_STORE_OP_STORE);
    for (uint32_t i = 0; i < 12; i++) {
        snprintf(name, sizeof name, "opaque %u", i);
        user_cmd *u = parallel_add_user(g, s, name, 1 + i % 4, RG_QUEUE_GRAPHICS, NULL, 0, RG_COMMAND_DRAW, s->with_depth);
        if (failing && strcmp(failing, name) == 0) {
            u->fail = true;
            u->undeclared = post;
        }
    }
    rg_end_rendering(g);

    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "overlay", .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .depth = { .texture = depth, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_STORE } });
    for (uint32_t i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "overlay %u", i);
        parallel_add_user(g, s, name, 3, RG_QUEUE_GRAPHICS, NULL, 0, RG_COMMAND_DRAW, s->with_depth);
    }
    rg_end_rendering(g);

    rg_cmd_blit(g, color, 0, post, 0, VK_FILTER_NEAREST);
    s->cost += 1;
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "ui", .color_count = 1,
        .colors = { { .texture = post, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    for (uint32_t i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "ui %u", i);
        parallel_add_user(g, s, name, 2, RG_QUEUE_GRAPHICS, NULL, 0, RG_COMMAND_DRAW, s->color_only);
    }
    rg_end_rendering(g);

    rg_access read_scratch = { .buffer = scratch, .usage = RG_USAGE_STORAGE_READ_COMPUTE };
    parallel_add_user(g, s, "finish", 1, RG_QUEUE_GRAPHICS, &read_scratch, 1, RG_COMMAND_OUTSIDE, NULL);
    rg_cmd_copy_texture_to_buffer(g, color, 0, 0, 1, out, 0);
    rg_cmd_copy_texture_to_buffer(g, post, 0, 0, 1, out, PIXELS_BYTES);
    s->cost += 2;
    test_compile(g);
    return g;
}

void parallel_end(rg_workers *workers, rg_graph *g, scene *s)
{
    rg_workers_destroy(workers);
    rg_graph_destroy(g);
    parallel_scene_close(s);
    free(s);
}
