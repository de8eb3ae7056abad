/* Descriptors from the graph (rendergraph.h, rg_record_image_info; engine.h,
 * eng_push_bindings): a dispatch and a draw bind a mip of a texture through
 * push descriptors the graph fills, exact pixels; the layouts and views
 * the queries give per usage; and the refusals, each naming the command
 * and the resource. */
#include "device_fixture.h"
#include "test_descriptors.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "solid.h"
#include "test_shaders.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#define POISON(type) ((type *)(uintptr_t)0x1)

TestSuite(rg_descriptors, .init = device_setup, .fini = device_teardown);

#define W 16
#define H 8
#define BASE 7000u

typedef struct desc_frame {
    eng_pipeline *compute, *draw;
    rg_texture pattern, other;
    VkDescriptorImageInfo seen_storage, seen_sampled;
    /* What the draw binds instead of pattern (a mistake under test). */
    rg_texture draw_binds;
    bool draw_as_storage;
} desc_frame;

static bool record_dispatch(const rg_record_context *rc, void *user)
{
    desc_frame *f = user;
    cr_expect_eq(rg_record_image_info(rc, f->pattern, &f->seen_storage), RG_SUCCESS, "%s",
                 rg_graph_error_message(rg_record_graph(rc)));
    if (eng_push_bindings(rc, f->compute, &(eng_binding){ .texture = f->pattern }, 1) != ENG_SUCCESS)
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, eng_pipeline_handle(f->compute));
    const uint32_t push[3] = { BASE, W / 2, H / 2 };
    vkCmdPushConstants(cmd, eng_pipeline_layout(f->compute), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(cmd, 1, 1, 1);
    return true;
}

static bool record_draw(const rg_record_context *rc, void *user)
{
    desc_frame *f = user;
    rg_texture t = f->draw_binds.id ? f->draw_binds : f->pattern;
    if (t.id == f->pattern.id)
        cr_expect_eq(rg_record_image_info(rc, t, &f->seen_sampled), RG_SUCCESS);
    const eng_pipeline *p = f->draw_as_storage ? f->compute : f->draw;
    if (eng_push_bindings(rc, p, &(eng_binding){ .texture = t }, 1) != ENG_SUCCESS)
        return false;
    solid_draw_full(rg_record_cmd(rc), f->draw);
    return true;
}

static void make_pipelines(desc_frame *f)
{
    VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, sampled = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    eng_result r = eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                   .name = "pattern", .spirv = storage_pattern_comp,
                                                   .size = storage_pattern_comp_size, .push_descriptors = &storage,
                                                   .push_descriptor_count = 1, .push_constant_size = 12 },
                                               &f->compute);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    eng_pipeline_desc dd = solid_fragment_desc("read pattern", history_step_frag, history_step_frag_size,
                                               VK_FORMAT_R32_UINT);
    dd.push_descriptors = &sampled;
    dd.push_descriptor_count = 1;
    r = eng_pipeline_create(test_ctx, &dd, &f->draw);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
}

/* pattern has two mips; the dispatch writes mip 1 (a view the graph makes
 * of that mip alone), the draw reads it into a target of mip 1's size,
 * copied to readback. */
static rg_graph *declare(desc_frame *f, eng_buffer *readback, bool declare_other)
{
    rg_graph *g = test_device_graph("descriptors");
    f->pattern = rg_texture_create(g, &(rg_texture_desc){ .name = "pattern", .format = VK_FORMAT_R32_UINT,
                                                          .width = W, .height = H, .mip_levels = 2 });
    f->other = rg_texture_create(g, &(rg_texture_desc){ .name = "other", .format = VK_FORMAT_R32_UINT,
                                                        .width = W, .height = H, .extra_usage =
                                                            VK_IMAGE_USAGE_SAMPLED_BIT });
    rg_texture out = rg_texture_create(g, &(rg_texture_desc){ .name = "out", .format = VK_FORMAT_R32_UINT,
                                                              .width = W / 2, .height = H / 2 });
    rg_buffer rb = test_import_buffer(g, "readback", readback, true);
    rg_range mip1 = { .base_mip = 1 };
    rg_access write = { .texture = f->pattern, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .range = mip1 };
    rg_cmd_user(g, &(rg_user_desc){ .name = "dispatch", .accesses = &write, .access_count = 1,
                                     .record = record_dispatch, .user = f });
    if (declare_other)
        rg_cmd_clear_texture(g, f->other, NULL, &(VkClearValue){ .color.uint32 = { 1 } });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "read", .color_count = 1,
                                                .colors = { { .texture = out, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                              .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_access read = { .texture = f->pattern, .usage = RG_USAGE_SAMPLED_FRAGMENT, .range = mip1 };
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .accesses = &read, .access_count = 1,
                                     .record = record_draw, .user = f });
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, out, 0, 0, 1, rb, 0);
    test_compile(g);
    return g;
}

DEVICE_TEST(rg_descriptors, a_dispatch_and_a_draw_bind_a_mip_through_push_descriptors)
{
    cr_assert(eng_context_has_push_descriptors(test_ctx), "lavapipe and the H200 offer VK_KHR_push_descriptor");
    desc_frame f = {0};
    make_pipelines(&f);
    eng_buffer *readback = test_host_buffer((W / 2) * (H / 2) * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = declare(&f, readback, false);
    for (int frame = 0; frame < 2; frame++) {
        memset(eng_buffer_mapped(readback), 0, (W / 2) * (H / 2) * 4);
        cr_assert_eq(test_execute_once(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        const uint32_t *v = eng_buffer_mapped(readback);
        uint32_t bad = 0;
        for (uint32_t y = 0; y < H / 2; y++)
            for (uint32_t x = 0; x < W / 2; x++)
                bad += v[y * (W / 2) + x] != BASE + 1 + 2 * (x + 100 * y);
        cr_expect_eq(bad, 0, "frame %d: %u texels differ; (1,1) = %u, want %u", frame, bad, v[W / 2 + 1],
                     BASE + 1 + 2 * 101);
    }
    /* The storage write is in GENERAL, the sampled read in
     * SHADER_READ_ONLY_OPTIMAL, both through one view of mip 1 (not the
     * texture's view of both mips), and the same view every frame. */
    cr_expect_eq(f.seen_storage.imageLayout, VK_IMAGE_LAYOUT_GENERAL);
    cr_expect_eq(f.seen_sampled.imageLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    cr_expect_neq(f.seen_storage.imageView, VK_NULL_HANDLE);
    cr_expect_neq(f.seen_sampled.imageView, VK_NULL_HANDLE);
    cr_expect_eq(f.seen_storage.sampler, VK_NULL_HANDLE);
    VkImageView first = f.seen_sampled.imageView;
    cr_assert_eq(test_execute_once(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(f.seen_sampled.imageView, first);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_pipeline_destroy(f.compute);
    eng_pipeline_destroy(f.draw);
}

/* A draw that binds what its command did not declare, or binds a sampled
 * declaration as a storage image: the frame is refused with both the
 * engine's and the graph's messages naming the command and the texture. */
DEVICE_TEST(rg_descriptors, an_undeclared_or_mismatched_binding_fails_the_frame_by_name)
{
    desc_frame f = {0};
    make_pipelines(&f);
    eng_buffer *readback = test_host_buffer((W / 2) * (H / 2) * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = declare(&f, readback, true);
    f.draw_binds = f.other;
    cr_assert_eq(test_execute_once(g), RG_ERROR_CALLBACK);
    const char *m = rg_graph_error_message(g);
    cr_expect(strstr(m, "command 'draw' failed to record") && strstr(m, "did not declare texture 'other'"), "%s", m);
    /* The engine's message is the recording thread's (eng_last_error). */
    bool here = !test_chunks_threaded();
    cr_expect(!here || (strstr(eng_last_error(), "eng_push_bindings: pipeline 'read pattern' binding 0") &&
                        strstr(eng_last_error(), "'other'")),
              "%s", eng_last_error());
    f.draw_binds = (rg_texture){0};
    f.draw_as_storage = true;
    cr_assert_eq(test_execute_once(g), RG_ERROR_CALLBACK);
    cr_expect(!here || (strstr(eng_last_error(), "binding 0 is a storage image") &&
                        strstr(eng_last_error(), "RG_USAGE_STORAGE")),
              "%s", eng_last_error());
    /* A good frame after the refusals. */
    f.draw_as_storage = false;
    cr_expect_eq(test_execute_once(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    /* Wrong counts and kinds, and a pipeline without push descriptors. */
    const rg_record_context *rc = rg_record_context_for(g, VK_NULL_HANDLE, (rg_command){0});
    cr_expect_null(rc);
    rg_graph_destroy(g);
    eng_buffer_destroy(readback);
    eng_pipeline_destroy(f.compute);
    eng_pipeline_destroy(f.draw);
}

static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

/* The queries outside execute, through rg_record_context_for: layouts and
 * ranges per usage, the ambiguous double declaration and its _access
 * answer, a copy-only declaration, a context without a command, and
 * eng_push_bindings' own refusals. */
DEVICE_TEST(rg_descriptors, the_queries_per_usage_and_their_refusals)
{
    rg_graph *g = test_device_graph("queries");
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = 8, .height = 8, .mip_levels = 3 });
    rg_texture depth = rg_texture_create(g, &(rg_texture_desc){ .name = "depth", .format = VK_FORMAT_D32_SFLOAT,
                                                                .width = 8, .height = 8 });
    rg_texture target = rg_texture_create(g, &(rg_texture_desc){ .name = "target", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                 .width = 8, .height = 8 });
    rg_buffer ubo = rg_buffer_create(g, &(rg_buffer_desc){ .name = "ubo", .size = 256 });
    rg_buffer ssbo = rg_buffer_create(g, &(rg_buffer_desc){ .name = "ssbo", .size = 1024 });
    rg_cmd_clear_texture(g, color, &(rg_range){ .mip_count = 3 }, &(VkClearValue){0});
    /* The copy's source, written first (the callbacks record nothing). */
    rg_cmd_user(g, &(rg_user_desc){ .name = "upload ubo",
                                    .accesses = &(rg_access){ .buffer = ubo, .usage = RG_USAGE_TRANSFER_DST },
                                    .access_count = 1,
                                    .record = record_nothing });
    rg_cmd_copy_buffer(g, ubo, 0, ssbo, 0, 256);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "depth pass", .depth = { .texture = depth,
                                                                                  .load = VK_ATTACHMENT_LOAD_OP_CLEAR } });
    rg_end_rendering(g);
    rg_access both_mips[] = {
        { .texture = color, .usage = RG_USAGE_SAMPLED_COMPUTE, .range = { .base_mip = 0 } },
        { .texture = color, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .range = { .base_mip = 1 } },
        { .texture = depth, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true },
        { .buffer = ubo, .usage = RG_USAGE_UNIFORM_COMPUTE },
        { .buffer = ssbo, .usage = RG_USAGE_STORAGE_READ_WRITE_COMPUTE },
        /* target is cleared after this command: what it reads does not matter */
        { .texture = target, .usage = RG_USAGE_TRANSFER_SRC, .whole = true, .undefined_ok = true },
    };
    rg_command c = rg_cmd_user(g, &(rg_user_desc){ .name = "mixed", .accesses = both_mips, .access_count = 6,
                                                   .record = record_nothing, .side_effects = true });
    rg_cmd_clear_texture(g, target, NULL, &(VkClearValue){0});
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));

    /* No command: refused. */
    const rg_record_context *none = rg_record_context_get(g, VK_NULL_HANDLE);
    cr_assert_not_null(none);
    VkDescriptorImageInfo ii;
    cr_expect_eq(rg_record_image_info(none, depth, &ii), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "not recording a command"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_record_command(none).id, 0);

    const rg_record_context *rc = rg_record_context_for(g, VK_NULL_HANDLE, c);
    cr_assert_not_null(rc);
    cr_expect_eq(rg_record_command(rc).id, c.id);
    /* Two ranges of color: ambiguous by handle, answered by access. */
    cr_expect_eq(rg_record_image_info(rc, color, &ii), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "command 'mixed' declares texture 'color' twice"), "%s",
              rg_graph_error_message(g));
    cr_expect_eq(ii.imageView, VK_NULL_HANDLE, "zeroed on failure");
    VkDescriptorImageInfo mip0, mip1, mip1_again;
    cr_expect_eq(rg_record_access_image_info(rc, 0, &mip0), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_record_access_image_info(rc, 1, &mip1), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_record_access_image_info(rc, 1, &mip1_again), RG_SUCCESS);
    cr_expect_eq(mip0.imageLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    cr_expect_eq(mip1.imageLayout, VK_IMAGE_LAYOUT_GENERAL);
    cr_expect_neq(mip0.imageView, mip1.imageView);
    cr_expect_neq(mip0.imageView, rg_record_view(rc, color), "one mip, not the texture's three");
    cr_expect_eq(mip1.imageView, mip1_again.imageView, "made once");
    /* A whole depth texture: its own (depth-aspect) view. */
    cr_expect_eq(rg_record_image_info(rc, depth, &ii), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(ii.imageView, rg_record_view(rc, depth));
    cr_expect_eq(ii.imageLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    /* Buffers: the buffer, offset 0, its size. */
    VkDescriptorBufferInfo bi;
    cr_expect_eq(rg_record_buffer_info(rc, ubo, &bi), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_eq(bi.buffer, rg_record_buffer(rc, ubo));
    cr_expect_eq(bi.offset, 0);
    cr_expect_eq(bi.range, 256);
    cr_expect_eq(rg_record_access_buffer_info(rc, 4, &bi), RG_SUCCESS);
    cr_expect_eq(bi.range, 1024);
    /* A transfer-only declaration has no descriptor. */
    cr_expect_eq(rg_record_image_info(rc, target, &ii), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "declares no shader access to texture 'target'"), "%s",
              rg_graph_error_message(g));
    cr_expect_eq(rg_record_access_image_info(rc, 5, &ii), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_record_access_image_info(rc, 3, &ii), RG_ERROR_INVALID_ARGUMENT, "a buffer access");
    cr_expect_eq(rg_record_access_buffer_info(rc, 9, &bi), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "has 6 accesses, not 10"), "%s", rg_graph_error_message(g));
    /* A foreign or zero handle. */
    cr_expect_eq(rg_record_buffer_info(rc, (rg_buffer){0}, &bi), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(rg_graph_error_message(g), "not a buffer of this declaration"), "%s",
              rg_graph_error_message(g));

    /* eng_push_bindings' own refusals: count, kinds, a pipeline without
     * push descriptors. */
    desc_frame f = {0};
    make_pipelines(&f);
    cr_expect_eq(eng_push_bindings(rc, f.compute, (eng_binding[2]){0}, 2), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(eng_last_error(), "has 1 push descriptors, 2 bindings given"), "%s", eng_last_error());
    cr_expect_eq(eng_push_bindings(rc, f.compute, &(eng_binding){ .buffer = ubo }, 1), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(eng_last_error(), "an image binding needs a texture"), "%s", eng_last_error());
    VkDevice dev = eng_context_device(test_ctx);
    VkDescriptorSetLayout own = test_set_layout(dev, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT);
    eng_pipeline *plain = NULL;
    cr_assert_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                 .name = "plain", .spirv = storage_pattern_comp,
                                                 .size = storage_pattern_comp_size, .set_layouts = &own,
                                                 .set_layout_count = 1, .push_constant_size = 12 },
                                             &plain),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_push_bindings(rc, plain, NULL, 0), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(eng_last_error(), "pipeline 'plain' has 0 push descriptors"), "%s", eng_last_error());
    /* Types the helper cannot fill, and too many. */
    eng_pipeline *bad = POISON(eng_pipeline);
    VkDescriptorType texel = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                 .name = "texel", .spirv = storage_pattern_comp,
                                                 .size = storage_pattern_comp_size, .push_descriptors = &texel,
                                                 .push_descriptor_count = 1, .push_constant_size = 12 },
                                             &bad),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(bad);
    cr_expect(strstr(eng_last_error(), "pipeline 'texel': push descriptor 0 has type"), "%s", eng_last_error());
    VkDescriptorType many[ENG_MAX_PUSH_DESCRIPTORS + 1];
    for (int i = 0; i <= ENG_MAX_PUSH_DESCRIPTORS; i++)
        many[i] = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    bad = POISON(eng_pipeline);
    cr_expect_eq(eng_compute_pipeline_create(test_ctx, &(eng_compute_pipeline_desc){
                                                 .name = "many", .spirv = storage_pattern_comp,
                                                 .size = storage_pattern_comp_size, .push_descriptors = many,
                                                 .push_descriptor_count = ENG_MAX_PUSH_DESCRIPTORS + 1,
                                                 .push_constant_size = 12 },
                                             &bad),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(bad);
    eng_pipeline_destroy(plain);
    vkDestroyDescriptorSetLayout(dev, own, NULL);
    eng_pipeline_destroy(f.compute);
    eng_pipeline_destroy(f.draw);
    rg_graph_destroy(g);
}

/* An import read at mip 1 of a depth+stencil format: a view of that mip
 * and the depth aspect alone, made per image the import points to (a new
 * one after rg_texture_set_image, the first one again when it returns),
 * and after a redeclaration of the same graph the new access's view. */
DEVICE_TEST(rg_descriptors, an_import_mip_per_image_and_after_redeclaration)
{
    VkFormat ds = VK_FORMAT_D32_SFLOAT_S8_UINT;
    eng_image *img[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++)
        cr_assert_eq(eng_image_create(test_ctx, &(eng_image_desc){ .name = "ds", .format = ds, .width = 16,
                                                                   .height = 16, .mip_levels = 2,
                                                                   .usage = VK_IMAGE_USAGE_SAMPLED_BIT },
                                      &img[i]),
                     ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = test_device_graph("import descriptors");
    for (int round = 0; round < 2; round++) {
        if (round)
            rg_graph_reset(g);
        const eng_image_info *ii = eng_image_get_info(img[0]);
        rg_texture t = rg_texture_import(g, &(rg_texture_import_desc){
                                                .name = "shadow", .image = ii->image, .view = ii->view, .format = ds,
                                                .width = 16, .height = 16, .mip_levels = 2,
                                                .initial_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                                .initial_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                                .initial_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT });
        rg_access read = { .texture = t, .usage = RG_USAGE_SAMPLED_COMPUTE,
                           .range = { .aspect = VK_IMAGE_ASPECT_DEPTH_BIT, .base_mip = round } };
        rg_command c = rg_cmd_user(g, &(rg_user_desc){ .name = "read", .accesses = &read, .access_count = 1,
                                                       .record = record_nothing, .side_effects = true });
        test_compile(g);
        cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        const rg_record_context *rc = rg_record_context_for(g, VK_NULL_HANDLE, c);
        cr_assert_not_null(rc);
        VkDescriptorImageInfo a, b, a_again;
        cr_assert_eq(rg_record_image_info(rc, t, &a), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_neq(a.imageView, ii->view, "one mip and one aspect, not the import's own view");
        cr_expect_eq(a.imageLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        const eng_image_info *other = eng_image_get_info(img[1]);
        rg_import_image given = { .image = other->image, .view = other->view, .format = ds, .width = 16,
                                  .height = 16, .mip_levels = 2, .usage = other->usage };
        cr_assert_eq(rg_texture_set_image(g, t, &given), RG_SUCCESS, "%s", rg_graph_error_message(g));
        rc = rg_record_context_for(g, VK_NULL_HANDLE, c);
        cr_assert_eq(rg_record_image_info(rc, t, &b), RG_SUCCESS, "%s", rg_graph_error_message(g));
        cr_expect_neq(b.imageView, a.imageView, "a view of the new image");
        given.image = ii->image;
        given.view = ii->view;
        cr_assert_eq(rg_texture_set_image(g, t, &given), RG_SUCCESS, "%s", rg_graph_error_message(g));
        rc = rg_record_context_for(g, VK_NULL_HANDLE, c);
        cr_assert_eq(rg_record_image_info(rc, t, &a_again), RG_SUCCESS);
        cr_expect_eq(a_again.imageView, a.imageView, "kept per image");
    }
    rg_graph_destroy(g);
    eng_image_destroy(img[0]);
    eng_image_destroy(img[1]);
}
