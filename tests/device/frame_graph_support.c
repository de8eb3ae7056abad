/* The swapchain-frame graph and its frames (frame_graph_support.h). */
#include "frame_graph_support.h"

#include "device_fixture.h"
#include "test_descriptors.h"
#include "test_barrier.h"
#include "test_chunks.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <math.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* overlap_ao.comp with 0 samples stores 1.0 in every texel of the region
 * params.yz from the origin; sample.frag copies its texel (r, 0, 0, 1). */
static const uint32_t region_comp[] =
#include "overlap_ao.comp.inc"
    ;

static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;

static const uint32_t sample_frag[] =
#include "sample.frag.inc"
    ;

/* An 8-bit sRGB channel of a linear value; the values used are away from
 * rounding ties, so that any conforming conversion gives this byte. */
static uint8_t srgb8(float c)
{
    double v = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
    double scaled = v * 255.0;
    cr_assert(fabs(scaled - floor(scaled) - 0.5) > 0.15, "%f lands on a rounding tie", (double)c);
    return (uint8_t)lround(scaled);
}

/* ------------------------------------------------------------------ kit */

void fg_kit_open(kit *k, VkFormat format)
{
    *k = (kit){ .dev = eng_context_device(test_ctx), .format = format };
    k->storage_layout = test_set_layout(k->dev, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    k->sampled_layout = test_set_layout(k->dev, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT);
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 8 },
                                      { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 8 } };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 16,
                                       .poolSizeCount = 2, .pPoolSizes = sizes };
    cr_assert_eq(vkCreateDescriptorPool(k->dev, &pci, NULL, &k->pool), VK_SUCCESS);
    eng_result r = eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                   .name = "region", .spirv = region_comp,
                                                   .size = sizeof region_comp, .set_layouts = &k->storage_layout,
                                                   .set_layout_count = 1, .push_constant_size = 16 },
                                               &k->region);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    r = eng_pipeline_create(test_ctx, &(eng_pipeline_desc){
                                .name = "show", .vertex_spirv = fullscreen_vert, .vertex_size = sizeof fullscreen_vert,
                                .fragment_spirv = sample_frag, .fragment_size = sizeof sample_frag,
                                .color_formats = { format }, .color_count = 1,
                                .set_layouts = &k->sampled_layout, .set_layout_count = 1 },
                            &k->show);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
}

void fg_kit_close(kit *k)
{
    eng_pipeline_destroy(k->region);
    eng_pipeline_destroy(k->show);
    vkDestroyDescriptorPool(k->dev, k->pool, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->storage_layout, NULL);
    vkDestroyDescriptorSetLayout(k->dev, k->sampled_layout, NULL);
}

/* *set, one binding of `type` over the view the graph gives the pattern,
 * written at the first call (the view stays the same while the graph stays
 * placed); VK_NULL_HANDLE where the graph gives no view. Callbacks of a
 * frame recorded on several threads (test_chunks.h) allocate at once: the
 * pool is taken in turn. */
static VkDescriptorSet pattern_set(const rg_record_context *rc, frame_graph *fg, VkDescriptorSet *set,
                                   VkDescriptorSetLayout layout, VkDescriptorType type, VkImageLayout image_layout)
{
    static atomic_flag pool_busy = ATOMIC_FLAG_INIT;
    VkImageView view = rg_record_view(rc, fg->pattern);
    if (!view)
        return VK_NULL_HANDLE;
    if (*set)
        return *set;
    kit *k = fg->k;
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = k->pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    while (atomic_flag_test_and_set_explicit(&pool_busy, memory_order_acquire))
        ;
    VkResult vr = vkAllocateDescriptorSets(k->dev, &ai, set);
    atomic_flag_clear_explicit(&pool_busy, memory_order_release);
    cr_assert_eq(vr, VK_SUCCESS);
    test_write_image(k->dev, *set, 0, type, view, image_layout);
    return *set;
}

/* ---------------------------------------------------------------- graph */

static bool record_region(const rg_record_context *rc, void *user)
{
    frame_graph *fg = user;
    if (!pattern_set(rc, fg, &fg->storage_set, fg->k->storage_layout, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                     VK_IMAGE_LAYOUT_GENERAL))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(fg->k->region);
    test_bind_with_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, eng_pipeline_handle(fg->k->region), layout,
                       fg->storage_set);
    const uint32_t params[4] = { 0, fg->region_w, fg->region_h, 0 }; /* 0 samples: 1.0 */
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params, params);
    vkCmdDispatch(cmd, (fg->region_w + 7) / 8, (fg->region_h + 7) / 8, 1);
    return true;
}

static bool record_show(const rg_record_context *rc, void *user)
{
    frame_graph *fg = user;
    if (fg->fail_draw)
        return false;
    if (!pattern_set(rc, fg, &fg->sampled_set, fg->k->sampled_layout, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    test_bind_with_set(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(fg->k->show),
                       eng_pipeline_layout(fg->k->show), fg->sampled_set);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

void fg_graph_open(frame_graph *fg, kit *k, const graph_opts *o)
{
    *fg = (frame_graph){ .k = k };
    rg_graph_desc gd = { .name = o->single_queue ? "frame (one queue)" : "frame",
                         .device = eng_context_graph_device(test_ctx), .single_queue = o->single_queue };
    cr_assert_eq(rg_graph_create(&gd, &fg->graph), RG_SUCCESS);
    rg_graph *g = fg->graph;
    rg_texture_import_desc back = {
        .name = "swapchain", .format = k->format, .width = W, .height = H,
        .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
    };
    if (o->final == FINAL_COLOR_ATTACHMENT) {
        back.final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        back.final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        back.final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    } else if (o->final == FINAL_TRANSFER_SRC) {
        back.final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        back.final_stage = VK_PIPELINE_STAGE_2_COPY_BIT;
        back.final_access = VK_ACCESS_2_TRANSFER_READ_BIT;
    }
    fg->back = rg_texture_import(g, &back);
    fg->pattern = rg_texture_create(g, &(rg_texture_desc){ .name = "pattern", .format = VK_FORMAT_R32_SFLOAT,
                                                           .width = W, .height = H });
    rg_cmd_clear_texture(g, fg->pattern, NULL, &(VkClearValue){ .color.float32 = { CLEAR, 0, 0, 0 } });
    rg_access rw = { .texture = fg->pattern, .usage = RG_USAGE_STORAGE_READ_WRITE_COMPUTE, .whole = true };
    fg->dispatch = rg_cmd_user(g, &(rg_user_desc){ .name = "region", .accesses = &rw, .access_count = 1,
                                                    .record = record_region, .user = fg,
                                                    .queue = RG_QUEUE_COMPUTE });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "show", .color_count = 1,
                                                .colors = { { .texture = fg->back,
                                                              .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access read = { .texture = fg->pattern, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "show", .kind = RG_COMMAND_DRAW, .accesses = &read, .access_count = 1,
                                     .record = record_show, .user = fg });
    rg_end_rendering(g);

    /* The application's fill of `filled` in frame.cmd is the import's
     * previous use; the graph copies it into readback for the host. */
    eng_buffer_desc bd = { .size = 16, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
    bd.name = "filled";
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &fg->filled), ENG_SUCCESS, "%s", eng_last_error());
    bd.name = "readback";
    bd.memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, &fg->readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_buffer filled = rg_buffer_import(g, &(rg_buffer_import_desc){
                                               .name = "filled", .buffer = eng_buffer_handle(fg->filled), .size = 16,
                                               .initial_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                               .initial_access = VK_ACCESS_2_TRANSFER_WRITE_BIT });
    rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){
                                                 .name = "readback", .buffer = eng_buffer_handle(fg->readback),
                                                 .size = 16, .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                 .final_access = VK_ACCESS_2_HOST_READ_BIT });
    rg_cmd_copy_buffer(g, filled, 0, readback, 0, 16);
    rg_result r = rg_compile(g);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(g));
}

void fg_graph_close(frame_graph *fg)
{
    eng_context_wait_idle(test_ctx); /* the graph's memory and the buffers are in use until then */
    rg_graph_destroy(fg->graph);
    eng_buffer_destroy(fg->filled);
    eng_buffer_destroy(fg->readback);
}

/* ---------------------------------------------------------------- frames */

eng_swapchain *fg_offscreen(void)
{
    eng_swapchain *sc = NULL;
    eng_result r = eng_swapchain_create(test_ctx, &(eng_swapchain_desc){ .offscreen = true, .width = W, .height = H },
                                        &sc);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    return sc;
}

eng_swapchain *fg_open(kit *k, frame_graph *fg, const graph_opts *o)
{
    eng_swapchain *sc = fg_offscreen();
    fg_kit_open(k, eng_swapchain_format(sc));
    fg_graph_open(fg, k, o);
    return sc;
}

void fg_expect_capture(eng_swapchain *sc, uint32_t region_w, uint32_t region_h, const char *what)
{
    uint8_t *px = NULL;
    uint32_t w = 0, h = 0;
    cr_assert_eq(eng_swapchain_read_capture(sc, &px, &w, &h), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(w == W && h == H, "%ux%u", w, h);
    const uint8_t inside = srgb8(1.0f), outside = srgb8(CLEAR);
    uint32_t bad = 0;
    char first[128] = "";
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            uint8_t want = x < region_w && y < region_h ? inside : outside;
            if (p[0] != want || p[1] != 0 || p[2] != 0 || p[3] != 255) {
                if (!bad++)
                    snprintf(first, sizeof first, "(%u,%u) = %u,%u,%u,%u, want %u,0,0,255", x, y, p[0], p[1], p[2],
                             p[3], want);
            }
        }
    cr_expect_eq(bad, 0, "%s: %u of %u pixels differ; first %s", what, bad, w * h, first);
    free(px);
}

/* The application's own work in frame.cmd before the graph: `value` into
 * fg->filled, after the previous frame's copy of it (same queue). */
static void record_fill(const frame_graph *fg, VkCommandBuffer cmd, uint32_t value)
{
    test_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT, 0);
    vkCmdFillBuffer(cmd, eng_buffer_handle(fg->filled), 0, 16, value);
}

void fg_run_frames(eng_swapchain *sc, frame_graph *fg, uint32_t first, uint32_t count)
{
    for (uint32_t f = first; f < first + count; f++) {
        eng_frame frame;
        eng_result r = eng_swapchain_acquire(sc, &frame);
        cr_assert_eq(r, ENG_SUCCESS, "frame %u: %s", f, eng_last_error());
        fg->region_w = 3 + 2 * (f % 8);
        fg->region_h = 2 + f % 12;
        bool check = f % 3 == 2 || f == first + count - 1;
        if (check)
            cr_assert_eq(eng_swapchain_capture_next(sc), ENG_SUCCESS, "%s", eng_last_error());
        record_fill(fg, frame.cmd, 1000 + f);
        r = test_present_graph(sc, &frame, fg->graph, fg->back);
        cr_assert_eq(r, ENG_SUCCESS, "frame %u: %s: %s", f, eng_result_string(r), eng_last_error());
        cr_expect_eq(frame.cmd, VK_NULL_HANDLE, "frame %u: frame.cmd still set after the present", f);
        if (!check)
            continue;
        char what[32];
        snprintf(what, sizeof what, "frame %u", f);
        fg_expect_capture(sc, fg->region_w, fg->region_h, what); /* waits for the frame's fence */
        const uint32_t *copied = eng_buffer_mapped(fg->readback);
        cr_expect_eq(copied[0], 1000 + f, "frame %u: the graph copied %u: the fill in frame.cmd did not run first", f,
                     copied[0]);
    }
}
