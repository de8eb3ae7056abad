/* Span merging on a device: a G-buffer-like span writes two textures, the
 * next span reads both pixel-locally. Merged (one rendering instance,
 * input attachments, a by-region barrier: VK_KHR_dynamic_rendering_local_read)
 * and unmerged (two instances, sampled reads) frames must give the same
 * exact pixels with the validation layer, synchronization validation
 * included, silent. Pipelines are built from the state the graph reports
 * per command (rg_command_get_rendering), as an application would. Where the
 * device has no local read (Debian 12's lavapipe), RG_MERGE_ON must not
 * merge and the frames are the same. A third frame checks where a merged
 * instance's attachments live: never in the bytes of another one of its
 * attachments, whichever span names each. */
#include "device_fixture.h"
#include "rg_support.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_merge_device, .init = device_setup, .fini = device_teardown);

static const uint32_t two_outputs_frag[] =
#include "local_read_test.frag.inc"
    ;
static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t read_sampled_frag[] =
#include "merge_read.frag.inc"
    ;
static const uint32_t read_local_frag[] =
#include "merge_read_local.frag.inc"
    ;

#define W 32
#define H 32
#define FMT VK_FORMAT_R8G8B8A8_UNORM

/* A draw whose pipeline follows the graph's reported state. */
typedef struct job {
    rg_graph *graph;
    rg_command cmd;
    bool reader;                      /* the pixel-local reader, else the two-output writer */
    bool right_half;                  /* the reader draws the right half only (scissor) */
    rg_texture a, b;
    eng_pipeline *pipeline;
    uint64_t key;
    VkDescriptorSetLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;              /* written again when the views change (a new placement) */
    VkImageView views[2];
    uint32_t pipelines_built;
    bool merged;                      /* as last recorded */
} job;

static void job_free(job *j)
{
    VkDevice dev = eng_context_device(test_ctx);
    eng_pipeline_destroy(j->pipeline);
    if (j->layout)
        vkDestroyDescriptorSetLayout(dev, j->layout, NULL);
    if (j->pool)
        vkDestroyDescriptorPool(dev, j->pool, NULL);
    j->pipeline = NULL;
    j->layout = VK_NULL_HANDLE;
    j->pool = VK_NULL_HANDLE;
}

/* The pipeline (and for the reader its descriptor set layout) for the
 * command's current rendering state. */
static bool job_pipeline(job *j, const rg_command_rendering *st)
{
    if (j->pipeline && j->key == st->key)
        return true;
    job_free(j);
    VkDevice dev = eng_context_device(test_ctx);
    rg_local_read_info lr = {0};
    if (j->reader) {
        if (rg_command_get_local_read(j->graph, j->cmd, j->a, &lr) != RG_SUCCESS)
            return false;
        VkDescriptorType type = lr.input_attachment ? VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                                                    : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        VkDescriptorSetLayoutBinding b[2] = {{0, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
                                             {1, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
        VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                              .bindingCount = 2, .pBindings = b};
        if (vkCreateDescriptorSetLayout(dev, &ci, NULL, &j->layout) != VK_SUCCESS)
            return false;
        VkDescriptorPoolSize size = {type, 8};
        VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 4,
                                          .poolSizeCount = 1, .pPoolSizes = &size};
        if (vkCreateDescriptorPool(dev, &pci, NULL, &j->pool) != VK_SUCCESS)
            return false;
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = j->pool, .descriptorSetCount = 1,
                                          .pSetLayouts = &j->layout};
        if (vkAllocateDescriptorSets(dev, &ai, &j->set) != VK_SUCCESS)
            return false;
        j->views[0] = j->views[1] = VK_NULL_HANDLE;
    }
    eng_pipeline_desc d = {
        .name = j->reader ? "merge test reader" : "merge test writer",
        .vertex_spirv = j->reader ? fullscreen_vert : solid_vert_spv,
        .vertex_size = j->reader ? sizeof fullscreen_vert : solid_vert_size,
        .fragment_spirv = j->reader ? (lr.input_attachment ? read_local_frag : read_sampled_frag)
                                    : two_outputs_frag,
        .fragment_size = j->reader ? (lr.input_attachment ? sizeof read_local_frag : sizeof read_sampled_frag)
                                   : sizeof two_outputs_frag,
        .triangle_strip = !j->reader,
        .set_layouts = j->reader ? &j->layout : NULL,
        .set_layout_count = j->reader ? 1 : 0,
        .push_constant_size = j->reader ? 0 : sizeof(solid_push),
    };
    /* The attachments, samples and local-read mapping as the graph
     * reports them, merged or not. */
    eng_pipeline_desc_set_rendering(&d, st);
    if (eng_pipeline_create(test_ctx, &d, &j->pipeline) != ENG_SUCCESS)
        return false;
    j->key = st->key;
    j->pipelines_built++;
    return true;
}

static bool record_job(const rg_record_context *rc, void *user)
{
    job *j = user;
    rg_command_rendering st;
    if (rg_command_get_rendering(j->graph, j->cmd, &st) != RG_SUCCESS || !job_pipeline(j, &st))
        return false;
    j->merged = st.merged;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(j->pipeline));
    if (!j->reader) {
        static const float left_half[4] = {-1, -1, 0, 1}, color[4] = {0.2f, 0.4f, 0.6f, 1.0f};
        solid_draw(cmd, j->pipeline, left_half, color, 0.0f);
        return true;
    }
    VkDevice dev = eng_context_device(test_ctx);
    VkDescriptorSet set = j->set;
    rg_texture tex[2] = {j->a, j->b};
    VkDescriptorImageInfo info[2];
    VkWriteDescriptorSet w[2];
    for (int i = 0; i < 2; i++) {
        rg_local_read_info lr;
        if (rg_command_get_local_read(j->graph, j->cmd, tex[i], &lr) != RG_SUCCESS)
            return false;
        /* The shaders' input_attachment_index: a first, b second. */
        if (lr.input_attachment && lr.input_index != (uint32_t)i)
            return false;
        info[i] = (VkDescriptorImageInfo){VK_NULL_HANDLE, rg_record_view(rc, tex[i]), lr.layout};
        /* The descriptor query gives the same, merged (an input attachment
         * in RENDERING_LOCAL_READ) or not (sampled). */
        VkDescriptorImageInfo from_graph;
        cr_expect_eq(rg_record_image_info(rc, tex[i], &from_graph), RG_SUCCESS, "%s",
                     rg_graph_error_message(j->graph));
        cr_expect_eq(from_graph.imageLayout, lr.layout, "texture %d: layout %d, local read says %d", i,
                     (int)from_graph.imageLayout, (int)lr.layout);
        cr_expect_eq(from_graph.imageView, info[i].imageView);
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                      .descriptorType = lr.input_attachment ? VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                                                                            : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                      .pImageInfo = &info[i]};
    }
    /* Between submissions only: test_run waits for each. */
    if (info[0].imageView != j->views[0] || info[1].imageView != j->views[1])
        vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
    j->views[0] = info[0].imageView;
    j->views[1] = info[1].imageView;
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(j->pipeline), 0, 1, &set, 0,
                            NULL);
    if (j->right_half)
        vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){{W / 2, 0}, {W / 2, H}});
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

typedef struct frame_result {
    uint8_t pixels[W * H * 4];
    bool merged;
    uint32_t by_region;
    bool a_transient;
} frame_result;

/* host (a host-visible buffer of W x H texels) imported into g as name,
 * read by the host after the frame. */
static rg_buffer import_readback(rg_graph *g, const char *name, eng_buffer *host)
{
    return rg_buffer_import(g, &(rg_buffer_import_desc){.name = name, .buffer = eng_buffer_handle(host),
                                                        .size = W * H * 4, .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                        .final_access = VK_ACCESS_2_HOST_READ_BIT});
}

static eng_buffer *readback_buffer(void)
{
    return test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
}

/* variant: inputs the plain frame does not have: lighting renders into
 * layer 1 of an imported two-layer image, the G-buffer span has a
 * depth+stencil attachment, and the declaration is extended after it was
 * executed (a second readback), compiled, placed and executed again. */
static void run_frame(rg_merge merge, bool variant, frame_result *out)
{
    eng_buffer *host = readback_buffer();
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "merge", .device = eng_context_graph_device(test_ctx), .merge = merge}, &g),
                 RG_SUCCESS);
    rg_buffer readback = import_readback(g, "readback", host);
    rg_texture_desc td = {.format = FMT, .width = W, .height = H};
    rg_texture a = test_texture_named(g, td, "a");
    rg_texture b = test_texture_named(g, td, "b");
    td.name = "c";
    rg_texture c = {0};
    eng_image *img = NULL;
    uint32_t layer = variant ? 1 : 0;
    if (variant) {
        eng_image_desc id = {.name = "output", .format = FMT, .width = W, .height = H, .array_layers = 2,
                             .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
        cr_assert_eq(eng_image_create(test_ctx, &id, &img), ENG_SUCCESS, "%s", eng_last_error());
        const eng_image_info *ii = eng_image_get_info(img);
        c = rg_texture_import(g, &(rg_texture_import_desc){.name = "output", .image = ii->image, .view = ii->view,
                                                           .format = FMT, .width = W, .height = H,
                                                           .array_layers = 2});
    } else {
        c = rg_texture_create(g, &td);
    }
    rg_texture ds = rg_texture_create(g, &(rg_texture_desc){.name = "depth stencil",
                                                           .format = VK_FORMAT_D32_SFLOAT_S8_UINT,
                                                           .width = W, .height = H});
    job writer = {.graph = g, .a = a, .b = b}, reader = {.graph = g, .reader = true, .a = a, .b = b};
    rg_command gb = rg_begin_rendering(
        g, &(rg_rendering_desc){
               .name = "gbuffer", .color_count = 2,
               .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                           .clear = {.color = {.float32 = {1, 0, 0, 1}}}},
                          {.texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                           .clear = {.color = {.float32 = {0, 0, 1, 1}}}}},
               .depth = {.texture = variant ? ds : (rg_texture){0}, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                         .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}});
    writer.cmd = rg_cmd_user(g, &(rg_user_desc){.name = "scene", .kind = RG_COMMAND_DRAW, .record = record_job,
                                               .user = &writer});
    rg_end_rendering(g);
    rg_command light = rg_begin_rendering(
        g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                .colors = {{.texture = c, .base_layer = layer,
                                            .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}}});
    rg_access reads[2] = {{.texture = a, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true},
                          {.texture = b, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true}};
    reader.cmd = rg_cmd_user(g, &(rg_user_desc){.name = "light", .kind = RG_COMMAND_DRAW, .accesses = reads,
                                               .access_count = 2, .record = record_job, .user = &reader});
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, c, 0, layer, 1, readback, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_merge_count(g), 1);
    rg_merge_info m;
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    cr_expect_eq(m.first.id, gb.id);
    cr_expect_eq(m.second.id, light.id);
    out->merged = m.merged;
    out->a_transient = rg_texture_is_transient(g, a);
    out->by_region = 0;
    for (uint32_t i = 0; i < rg_barrier_count(g); i++)
        out->by_region += rg_barrier_get(g, i)->by_region;

    /* Two submissions of two frames each: the second frame of each runs
     * after one that used every resource. */
    for (int round = 0; round < 2; round++)
        test_run(g, 2);
    cr_expect_eq(writer.merged, out->merged);
    cr_expect_eq(reader.pipelines_built, 1, "one pipeline per reported state");
    memcpy(out->pixels, eng_buffer_mapped(host), sizeof out->pixels);
    eng_buffer *second = NULL;
    if (variant) {
        /* Extended after execute: the same frame with a second readback. */
        second = readback_buffer();
        rg_buffer again = import_readback(g, "readback 2", second);
        rg_cmd_copy_texture_to_buffer(g, c, 0, layer, 1, again, 0);
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
        cr_expect_eq(m.merged, out->merged, "the extension changes no merge");
        test_run(g, 1);
        cr_expect(memcmp(eng_buffer_mapped(second), out->pixels, sizeof out->pixels) == 0,
                  "the extended frame renders the same");
        cr_expect_eq(reader.pipelines_built, 1, "same state, same pipeline");
    }
    rg_graph_destroy(g);
    eng_buffer_destroy(second);
    eng_image_destroy(img);
    job_free(&writer);
    job_free(&reader);
    eng_buffer_destroy(host);
}

/* The frame's pixels, unmerged: left half a = (0.2, 0.4, 0.6, 1) and b
 * its complement (0.8, 0.6, 0.4, 1), right half the clear colors, the
 * reader taking r, g of a and b, a of b; merged: the same bytes. */
static void expect_halves(const frame_result *off, const frame_result *on)
{
    static const uint8_t left[4] = {51, 102, 102, 255}, right[4] = {255, 0, 255, 255};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *want = x < W / 2 ? left : right, *px = &off->pixels[(y * W + x) * 4];
            cr_assert(memcmp(px, want, 4) == 0, "unmerged (%u,%u) = %u %u %u %u", x, y, px[0], px[1], px[2], px[3]);
        }
    cr_expect(memcmp(off->pixels, on->pixels, sizeof off->pixels) == 0, "merged and unmerged pixels differ");
}

DEVICE_TEST(rg_merge_device, merged_and_unmerged_frames_are_identical)
{
    static frame_result off, on;
    run_frame(RG_MERGE_OFF, false, &off);
    run_frame(RG_MERGE_ON, false, &on);
    bool local_read = eng_context_local_read(test_ctx).supported;
    cr_expect_not(off.merged);
    cr_expect_eq(on.merged, local_read, "RG_MERGE_ON merges exactly where the device has local read");
    cr_expect_eq(on.by_region, local_read ? 2u : 0u, "one by-region barrier per G-buffer texture");
    cr_expect_eq(on.a_transient, local_read, "a lives and dies in the merged instance");
    cr_expect_not(off.a_transient);
    expect_halves(&off, &on);
}

/* The same frame with an import at layer 1, a depth+stencil attachment in
 * the merged instance and a declaration extended after execute. */
DEVICE_TEST(rg_merge_device, import_layer_depth_stencil_and_extension)
{
    static frame_result off, on;
    run_frame(RG_MERGE_OFF, true, &off);
    run_frame(RG_MERGE_ON, true, &on);
    cr_expect_eq(on.merged, eng_context_local_read(test_ctx).supported);
    expect_halves(&off, &on);
}

/* A merged instance binds every attachment of its spans from its first
 * begin to its last end: "e", which only the G-buffer span names (written
 * by its draw, discarded), and "c", which only the lighting span names
 * (cleared to green, the right half drawn), are both bound throughout and
 * must not share bytes; if they did, the draw into e would show in c's
 * left half. Unmerged (Debian 12's lavapipe, or merging off), the two are
 * apart in the order and do share bytes, c's clear waiting for e's writes
 * (the alias barrier): the pixels are the same. */
static void run_lifetime_frame(rg_merge merge, frame_result *out, bool *shared)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "merged lifetimes",
                                                  .device = eng_context_graph_device(test_ctx), .merge = merge},
                                 &g),
                 RG_SUCCESS);
    eng_buffer *host = readback_buffer();
    rg_buffer readback = import_readback(g, "readback", host);
    rg_texture_desc td = {.format = FMT, .width = W, .height = H};
    rg_texture a = test_texture_named(g, td, "a");
    rg_texture b = test_texture_named(g, td, "b");
    rg_texture e = test_texture_named(g, td, "e");
    rg_texture c = test_texture_named(g, td, "c");
    job writer = {.graph = g, .a = a, .b = b};
    job reader = {.graph = g, .reader = true, .right_half = true, .a = a, .b = b};
    /* The writer's outputs: location 0 into a, location 1 into e; b keeps
     * its clear. */
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "gbuffer", .color_count = 3,
                              .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .clear = {.color = {.float32 = {1, 0, 0, 1}}}},
                                         {.texture = e, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE},
                                         {.texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .clear = {.color = {.float32 = {0, 0, 1, 1}}}}}});
    writer.cmd = rg_cmd_user(g, &(rg_user_desc){.name = "scene", .kind = RG_COMMAND_DRAW, .record = record_job,
                                               .user = &writer});
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                              .colors = {{.texture = c, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                          .clear = {.color = {.float32 = {0, 1, 0, 1}}}}}});
    rg_access reads[2] = {{.texture = a, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true},
                          {.texture = b, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true}};
    reader.cmd = rg_cmd_user(g, &(rg_user_desc){.name = "light", .kind = RG_COMMAND_DRAW, .accesses = reads,
                                               .access_count = 2, .record = record_job, .user = &reader});
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, c, 0, 0, 1, readback, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m;
    cr_assert_eq(rg_merge_count(g), 1);
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    out->merged = m.merged;
    test_run(g, 2);
    memcpy(out->pixels, eng_buffer_mapped(host), sizeof out->pixels);
    rg_resource_info ei, ci;
    cr_assert_eq(rg_texture_get_info(g, e, &ei), RG_SUCCESS);
    cr_assert_eq(rg_texture_get_info(g, c, &ci), RG_SUCCESS);
    cr_expect_eq(ei.memory, RG_MEMORY_POOLED);
    cr_expect_eq(ci.memory, RG_MEMORY_POOLED);
    *shared = ei.memory == RG_MEMORY_POOLED && ci.memory == RG_MEMORY_POOLED && ei.pool == ci.pool &&
              ei.memory_offset < ci.memory_offset + ci.memory_size &&
              ci.memory_offset < ei.memory_offset + ei.memory_size;
    rg_graph_destroy(g);
    job_free(&writer);
    job_free(&reader);
    eng_buffer_destroy(host);
}

DEVICE_TEST(rg_merge_device, merged_attachments_live_through_the_whole_instance)
{
    static frame_result off, on;
    bool off_shared, on_shared;
    run_lifetime_frame(RG_MERGE_OFF, &off, &off_shared);
    run_lifetime_frame(RG_MERGE_ON, &on, &on_shared);
    bool local_read = eng_context_local_read(test_ctx).supported;
    cr_expect_not(off.merged);
    cr_expect_eq(on.merged, local_read, "RG_MERGE_ON merges exactly where the device has local read");
    cr_expect(off_shared, "unmerged, e and c are apart in the order and share bytes");
    cr_expect_not(on.merged && on_shared, "merged, e and c are bound together and share bytes");
    /* Left half: c's clear (green); right half: the reader's r, g of a's
     * clear and b, a of b's clear. */
    static const uint8_t left[4] = {0, 255, 0, 255}, right[4] = {255, 0, 255, 255};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *want = x < W / 2 ? left : right;
            const uint8_t *p0 = &off.pixels[(y * W + x) * 4], *p1 = &on.pixels[(y * W + x) * 4];
            cr_assert(memcmp(p0, want, 4) == 0, "unmerged (%u,%u) = %u %u %u %u", x, y, p0[0], p0[1], p0[2], p0[3]);
            cr_assert(memcmp(p1, want, 4) == 0, "merged %d (%u,%u) = %u %u %u %u", on.merged, x, y, p1[0], p1[1],
                      p1[2], p1[3]);
        }
}
