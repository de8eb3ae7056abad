#include "window_graph.h"

#include "solid.h"

#include <stdio.h>
#include <string.h>

static void hear(void *user, rg_log_level level, const char *object, const char *message)
{
    window_graph *wg = user;
    if (level == RG_LOG_WARNING && strstr(message, "ran out for transient attachment"))
        wg->lazy_fallbacks++;
    else if (level != RG_LOG_INFO)
        fprintf(stderr, "rendergraph: %s: %s: %s\n", level == RG_LOG_ERROR ? "error" : "warning", object, message);
}

rg_result window_graph_create(eng_context *ctx, window_graph *wg)
{
    *wg = (window_graph){ .ctx = ctx };
    return rg_graph_create(&(rg_graph_desc){ .name = "window test", .device = eng_context_graph_device(ctx),
                                             .log = hear, .log_user = wg },
                           &wg->graph);
}

void window_graph_destroy(window_graph *wg)
{
    /* The graph's memory goes at once: no frame may still use it. A lost
     * device fails the wait, and then nothing runs any more either. */
    if (wg->graph)
        eng_context_wait_idle(wg->ctx);
    rg_graph_destroy(wg->graph);
    wg->graph = NULL;
}

static bool draw(const rg_record_context *rc, void *user)
{
    static const float left_half[4] = { -1.0f, -1.0f, 0.0f, 1.0f };
    const window_plan *plan = user;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(plan->pipeline));
    solid_draw(cmd, plan->pipeline, left_half, plan->rect_color, 0.5f);
    return true;
}

static rg_result declare(window_graph *wg, const eng_frame *f)
{
    const window_plan *plan = &wg->plan;
    rg_graph *g = wg->graph;
    rg_graph_reset(g);
    /* The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT; the image
     * is handed back as a color attachment (eng_swapchain_finish_image). */
    wg->backbuffer = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "swapchain",
        .image = f->image,
        .view = f->view,
        .format = f->format,
        .width = f->extent.width,
        .height = f->extent.height,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    });
    rg_texture_desc td = { .width = f->extent.width, .height = f->extent.height, .samples = plan->samples };
    rg_rendering_desc rd = { .name = "frame", .color_count = 1 };
    rg_attachment *color = &rd.colors[0];
    *color = (rg_attachment){ .texture = wg->backbuffer, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                              .store = VK_ATTACHMENT_STORE_OP_STORE };
    memcpy(color->clear.color.float32, plan->clear, sizeof color->clear.color.float32);
    if (plan->samples > VK_SAMPLE_COUNT_1_BIT) {
        td.name = "msaa color";
        td.format = f->format;
        color->texture = rg_texture_create(g, &td);
        color->store = VK_ATTACHMENT_STORE_OP_DONT_CARE; /* only the resolve is kept */
        color->resolve = wg->backbuffer;
    }
    if (plan->depth_format != VK_FORMAT_UNDEFINED) {
        td.name = "depth";
        td.format = plan->depth_format;
        rd.depth = (rg_attachment){ .texture = rg_texture_create(g, &td), .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                    .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .clear.depthStencil = { 1.0f, 0 } };
    }
    rg_begin_rendering(g, &rd);
    if (plan->pipeline)
        rg_cmd_user(g, &(rg_user_desc){ .name = "rectangle", .kind = RG_COMMAND_DRAW, .record = draw,
                                        .user = &wg->plan });
    rg_end_rendering(g);
    wg->extent = f->extent;
    wg->declarations++;
    return rg_compile(g);
}

rg_result window_graph_record(window_graph *wg, eng_swapchain *sc, const eng_frame *f, const window_plan *plan)
{
    if (memcmp(&wg->plan, plan, sizeof *plan) != 0 || wg->extent.width != f->extent.width ||
        wg->extent.height != f->extent.height) {
        /* Frames in flight may still use the memory the new compile frees. */
        if (eng_context_wait_idle(wg->ctx) != ENG_SUCCESS)
            return RG_ERROR_VULKAN;
        wg->plan = *plan;
        rg_result r = declare(wg, f);
        if (r != RG_SUCCESS)
            return r;
    }
    rg_result r = rg_texture_set_image(wg->graph, wg->backbuffer, &(rg_import_image){
        .image = f->image, .view = f->view, .format = f->format, .width = f->extent.width,
        .height = f->extent.height, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT });
    if (r == RG_SUCCESS)
        r = rg_execute(wg->graph, f->cmd);
    if (r == RG_SUCCESS)
        eng_swapchain_finish_image(sc, f, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    return r;
}
