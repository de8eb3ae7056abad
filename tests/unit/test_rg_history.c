/* History textures (rg_texture_create_history), device-free: the
 * declaration's refusals, culling that keeps the writer of current, usage,
 * never transient, both halves dedicated and never aliased under offline
 * placement, and the barriers that hand frame N-1's writes to frame N's
 * reads (the frame's end, the first reads, the first write). */
#include "rg_mem_unit.h"

#define FS VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
#define SRO VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
#define CA VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
#define HDR VK_FORMAT_R16G16B16A16_SFLOAT

static rg_graph *culling_graph(void)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "history"}, &g), RG_SUCCESS);
    return g;
}

static rg_texture history(rg_graph *g, const char *name, rg_texture *previous)
{
    return test_history(g, name, HDR, previous);
}

/* An imported buffer that holds one 64x64 HDR texture. */
static rg_buffer hdr_readback(rg_graph *g)
{
    return rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 8});
}

static rg_texture swapchain(rg_graph *g)
{
    return rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain", .format = VK_FORMAT_B8G8R8A8_SRGB,
                                                           .width = 64, .height = 64,
                                                           .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
}

/* Temporal antialiasing: a span writes current from the scene and
 * previous; the present pass samples current. */
typedef struct taa {
    rg_texture scene, current, previous, out;
    rg_command resolve_span, resolve, present;
} taa;

static taa declare_taa(rg_graph *g)
{
    taa t;
    t.scene = test_tex(g, "scene", HDR);
    t.current = history(g, "taa", &t.previous);
    t.out = swapchain(g);
    test_begin(g, "scene", t.scene);
    test_draw(g, "draw scene");
    rg_end_rendering(g);
    t.resolve_span = rg_begin_rendering(g, &(rg_rendering_desc){
                                               .name = "taa",
                                               .colors = {{.texture = t.current,
                                                           .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE}},
                                               .color_count = 1});
    t.resolve = test_draw(g, "resolve", TEX(t.scene, RG_USAGE_SAMPLED_FRAGMENT),
                          TEX(t.previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    t.present = test_begin(g, "present", t.out);
    test_draw(g, "tonemap", TEX(t.current, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    return t;
}

/* ------------------------------------------------------------ declaration */

Test(rg_history, handles_and_names)
{
    rg_graph *g = test_graph();
    rg_texture previous = {0};
    rg_texture current = history(g, "taa", &previous);
    cr_assert_neq(current.id, 0);
    cr_assert_neq(previous.id, 0);
    cr_assert_neq(current.id, previous.id);
    test_outside(g, "write", TEX(current, RG_USAGE_TRANSFER_DST));
    test_outside(g, "read", TEX(previous, RG_USAGE_TRANSFER_SRC));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, current, &info), RG_SUCCESS);
    cr_expect_str_eq(info.name, "taa");
    cr_expect_not(info.imported);
    cr_assert_eq(rg_texture_get_info(g, previous, &info), RG_SUCCESS);
    cr_expect_str_eq(info.name, "taa (previous)");
    /* No placement on a device: no frame has run. */
    cr_expect_not(rg_texture_history_valid(g, previous));
    cr_expect_not(rg_texture_history_valid(g, current));
    rg_graph_destroy(g);
}

/* Every kind of write to previous is refused, naming both halves. */
static void expect_write_refused(void (*declare)(rg_graph *g, rg_texture current, rg_texture previous),
                                 const char *command)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture current = history(g, "trails", &previous);
    declare(g, current, previous);
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "writes texture 'trails (previous)'");
    cr_expect_not_null(strstr(rg_graph_error_message(g), command), "message '%s' lacks '%s'",
                       rg_graph_error_message(g), command);
    cr_expect_not_null(strstr(rg_graph_error_message(g), "history texture 'trails'"));
    rg_graph_destroy(g);
}

static void as_attachment(rg_graph *g, rg_texture current, rg_texture previous)
{
    (void)current;
    test_begin(g, "render into previous", previous);
    test_draw(g, "draw");
    rg_end_rendering(g);
}

static void as_clear(rg_graph *g, rg_texture current, rg_texture previous)
{
    (void)current;
    rg_cmd_clear_texture(g, previous, NULL, &(VkClearValue){0});
}

static void as_blit_destination(rg_graph *g, rg_texture current, rg_texture previous)
{
    rg_cmd_blit(g, current, 0, previous, 0, VK_FILTER_NEAREST);
}

static void as_storage(rg_graph *g, rg_texture current, rg_texture previous)
{
    (void)current;
    test_outside(g, "storage write", TEX(previous, RG_USAGE_STORAGE_READ_WRITE_COMPUTE));
}

static void as_resolve(rg_graph *g, rg_texture current, rg_texture previous)
{
    (void)current;
    rg_texture msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa", .format = HDR, .width = 64,
                                                              .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT});
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "resolve into previous",
                              .colors = {{.texture = msaa, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = previous}},
                              .color_count = 1});
    test_draw(g, "draw");
    rg_end_rendering(g);
}

Test(rg_history, writing_previous_is_refused)
{
    expect_write_refused(as_attachment, "render into previous");
    expect_write_refused(as_clear, "clear");
    expect_write_refused(as_blit_destination, "blit");
    expect_write_refused(as_storage, "storage write");
    expect_write_refused(as_resolve, "resolve into previous");
}

Test(rg_history, forced_transient_is_refused)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "feedback", .format = HDR, .width = 64, .height = 64,
                              .transient = RG_TRANSIENT_FORCE},
        &previous);
    cr_expect_eq(current.id, 0);
    cr_expect_eq(previous.id, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "'feedback': transient mode 1 refused");
}

Test(rg_history, bad_arguments_are_refused)
{
    rg_graph *g = test_graph();
    cr_expect_eq(rg_texture_create_history(g, &(rg_texture_desc){.name = "x", .format = HDR, .width = 8,
                                                                  .height = 8},
                                           NULL).id, 0);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history 'x': NULL previous");

    g = test_graph();
    rg_texture previous;
    rg_texture_create_history(g, &(rg_texture_desc){.name = "bc", .format = VK_FORMAT_BC1_RGB_UNORM_BLOCK,
                                                    .width = 64, .height = 64},
                              &previous);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "'bc': compressed format");

    g = test_graph();
    rg_texture_create_history(g, &(rg_texture_desc){.name = "empty", .format = HDR}, &previous);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history 'empty': format undefined or zero");
}

/* ---------------------------------------------------------------- compile */

/* Nothing reads current in the frame: its writer is kept all the same (the
 * next frame reads it), and so is what that writer reads. A pass that only
 * reads previous into a texture nobody reads is culled. */
Test(rg_history, culling_keeps_the_writer_of_current)
{
    rg_graph *g = culling_graph();
    rg_texture scene = test_tex(g, "scene", HDR);
    rg_texture unused = test_tex(g, "debug", HDR);
    rg_texture previous;
    rg_texture current = history(g, "accumulation", &previous);
    rg_command s = test_begin(g, "scene", scene);
    test_draw(g, "draw scene");
    rg_end_rendering(g);
    rg_command acc = test_begin(g, "accumulate", current);
    test_draw(g, "blend", TEX(scene, RG_USAGE_SAMPLED_FRAGMENT), TEX(previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_command debug = test_begin(g, "debug", unused);
    test_draw(g, "show", TEX(previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_neq(test_pos(g, acc), UINT32_MAX, "the writer of current is kept");
    cr_expect_neq(test_pos(g, s), UINT32_MAX, "and what it reads");
    cr_expect_eq(test_pos(g, debug), UINT32_MAX, "a reader of previous alone is culled");
    rg_graph_destroy(g);
}

/* Both halves get the union of their usages (they trade images) plus
 * TRANSFER_DST (the first frame's clear), and are never transient, even
 * as an attachment cleared and discarded in one span. */
Test(rg_history, usage_union_and_never_transient)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture current = history(g, "h", &previous);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "write",
                              .colors = {{.texture = current, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}},
                              .color_count = 1});
    test_draw(g, "draw", TEX(previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const VkImageUsageFlags want = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    rg_resource_info ci, pi;
    cr_assert_eq(rg_texture_get_info(g, current, &ci), RG_SUCCESS);
    cr_assert_eq(rg_texture_get_info(g, previous, &pi), RG_SUCCESS);
    cr_expect_eq(ci.image_usage, want, "current usage 0x%x", ci.image_usage);
    cr_expect_eq(pi.image_usage, want, "previous usage 0x%x", pi.image_usage);
    cr_expect_not(rg_texture_is_transient(g, current));
    cr_expect_not(rg_texture_is_transient(g, previous));
    rg_graph_destroy(g);
}

/* ---------------------------------------------------------------- barriers */

static const rg_barrier_info *only_barrier(const rg_graph *g, rg_texture t, uint32_t *count)
{
    const rg_barrier_info *b[8];
    *count = test_tex_barriers(g, t, b, 8);
    return *count ? b[0] : NULL;
}

/* The TAA frame: current is written as an attachment, then sampled in the
 * layout previous is read in, so the frame's end needs no transition and
 * previous's first read no barrier. Current's first write (the image
 * previous read in the frame before) discards it after those reads. */
Test(rg_history, barriers_when_current_ends_in_the_read_layout)
{
    rg_graph *g = test_graph();
    taa t = declare_taa(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t n;
    cr_expect_null(only_barrier(g, t.previous, &n), "previous needs no barrier (%u)", n);
    const rg_barrier_info *b[4];
    n = test_tex_barriers(g, t.current, b, 4);
    cr_assert_eq(n, 2, "current: write, then sampled");
    cr_expect_eq(b[0]->before.id, t.resolve_span.id);
    test_expect_layouts(b[0], VK_IMAGE_LAYOUT_UNDEFINED, CA);
    cr_expect(b[0]->src_stage & FS, "the first write waits for the frame before's reads of previous (0x%llx)",
              (unsigned long long)b[0]->src_stage);
    cr_expect_eq(b[1]->before.id, t.present.id);
    test_expect_layouts(b[1], CA, SRO);
    rg_graph_destroy(g);
}

/* Current copied out after its write: the frame ends with the transition
 * from TRANSFER_SRC to where previous is first read (sampled, by the
 * fragment and the compute shader), visible to both reads; previous's
 * reads then need nothing. */
Test(rg_history, barriers_when_current_ends_elsewhere)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture current = history(g, "h", &previous);
    rg_buffer readback = hdr_readback(g);
    rg_texture sink = test_tex(g, "sink", HDR);
    rg_command c = test_outside(g, "fill", TEX(current, RG_USAGE_STORAGE_WRITE_COMPUTE),
                                TEX(previous, RG_USAGE_SAMPLED_COMPUTE));
    test_begin(g, "show", sink);
    test_draw(g, "draw", TEX(previous, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, readback, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t n;
    cr_expect_null(only_barrier(g, previous, &n), "previous needs no barrier (%u)", n);
    const rg_barrier_info *b[4];
    n = test_tex_barriers(g, current, b, 4);
    cr_assert_eq(n, 3, "current: storage write, copy, frame end");
    cr_expect_eq(b[0]->before.id, c.id);
    cr_expect_eq(b[0]->old_layout, VK_IMAGE_LAYOUT_UNDEFINED);
    cr_expect(b[0]->src_stage & FS);
    cr_expect(b[0]->src_stage & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    const rg_barrier_info *end = b[2];
    cr_expect_eq(end->before.id, 0, "at the frame's end");
    test_expect_layouts(end, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, SRO);
    cr_expect(end->src_stage & VK_PIPELINE_STAGE_2_TRANSFER_BIT);
    test_expect_dst(end, FS | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    rg_graph_destroy(g);
}

/* previous read in two layouts: the frame ends in the first one, and the
 * second read transitions after the first read. */
Test(rg_history, previous_read_in_two_layouts)
{
    rg_graph *g = test_graph();
    rg_buffer readback = hdr_readback(g);
    rg_texture previous;
    rg_texture current = history(g, "h", &previous);
    test_outside(g, "write", TEX(current, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "sample", TEX(previous, RG_USAGE_SAMPLED_COMPUTE));
    rg_command copy = rg_cmd_copy_texture_to_buffer(g, previous, 0, 0, 1, readback, 0);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    uint32_t n = test_tex_barriers(g, previous, b, 4);
    cr_assert_eq(n, 1);
    cr_expect_eq(b[0]->before.id, copy.id);
    test_expect_layouts(b[0], SRO, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    n = test_tex_barriers(g, current, b, 4);
    cr_assert_eq(n, 2);
    cr_expect_eq(b[1]->before.id, 0);
    test_expect_layouts(b[1], VK_IMAGE_LAYOUT_GENERAL, SRO);
    cr_expect_eq(b[1]->dst_stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    rg_graph_destroy(g);
}

/* Only what previous reads is handed over: a texture of two mips whose
 * previous half is read at mip 1 ends the frame with mip 1 transitioned,
 * mip 0 left as written; the next write waits at mip 1 only. */
Test(rg_history, only_the_subresources_read_are_handed_over)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture current = rg_texture_create_history(
        g, &(rg_texture_desc){.name = "mips", .format = HDR, .width = 64, .height = 64, .mip_levels = 2}, &previous);
    test_outside(g, "write", TEX(current, RG_USAGE_TRANSFER_DST));
    test_outside(g, "read mip 1", ((rg_access){.texture = previous, .usage = RG_USAGE_SAMPLED_COMPUTE,
                                               .range = {.base_mip = 1, .mip_count = 1}}));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_barrier_info *b[4];
    uint32_t n = test_tex_barriers(g, current, b, 4);
    cr_assert_eq(n, 3, "the write (mip 1 waits for last frame's read), then mip 1 at the frame's end");
    cr_expect_eq(b[0]->range.base_mip, 0);
    cr_expect_eq(b[0]->src_stage, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                 "nothing read mip 0 of that image: its write two frames before is what the write waits for");
    cr_expect_eq(b[0]->src_access, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    cr_expect_eq(b[1]->range.base_mip, 1);
    cr_expect_eq(b[1]->src_stage, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    const rg_barrier_info *end = b[2];
    cr_expect_eq(end->before.id, 0);
    cr_expect_eq(end->range.base_mip, 1);
    cr_expect_eq(end->range.mip_count, 1);
    test_expect_layouts(end, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, SRO);
    cr_expect_eq(test_tex_barriers(g, previous, b, 4), 0);
    rg_graph_destroy(g);
}

/* Previous read by nothing (the first frame skips the read, or a frame
 * reads it conditionally): the image current writes was last written as
 * current two frames before, and nothing in between waited for that. The
 * first write (a layout transition, itself a write) waits for it. */
Test(rg_history, unread_previous_the_first_write_waits_for_the_write_before)
{
    for (int copy = 0; copy < 2; copy++) {
        rg_graph *g = test_graph();
        rg_texture previous;
        rg_texture current = test_history(g, "h", VK_FORMAT_R32_UINT, &previous);
        rg_command span = test_begin(g, "write current", current);
        test_draw(g, "draw");
        rg_end_rendering(g);
        if (copy) {
            rg_buffer out = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 64 * 64 * 4});
            rg_cmd_copy_texture_to_buffer(g, current, 0, 0, 1, out, 0);
        }
        cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
        const rg_barrier_info *b[4];
        uint32_t n = test_tex_barriers(g, current, b, 4);
        cr_assert_eq(n, copy ? 2u : 1u, "the write%s", copy ? ", the copy" : "");
        cr_expect_eq(b[0]->before.id, span.id);
        test_expect_layouts(b[0], VK_IMAGE_LAYOUT_UNDEFINED, CA);
        if (copy) {
            /* The frame ended with the copy's transition to TRANSFER_SRC
             * (a write at the transfer stage, after the attachment write). */
            cr_expect_eq(b[0]->src_stage, VK_PIPELINE_STAGE_2_TRANSFER_BIT, "0x%llx",
                         (unsigned long long)b[0]->src_stage);
        } else {
            cr_expect_eq(b[0]->src_stage, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, "0x%llx",
                         (unsigned long long)b[0]->src_stage);
            cr_expect_eq(b[0]->src_access, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, "0x%llx",
                         (unsigned long long)b[0]->src_access);
        }
        cr_expect_eq(test_tex_barriers(g, previous, b, 4), 0, "nothing touches previous");
        rg_graph_destroy(g);
    }
}

/* An identical declaration after a reset reuses the compiled arrays: the
 * barriers come out the same. */
Test(rg_history, identical_redeclaration_keeps_the_barriers)
{
    rg_graph *g = test_graph();
    declare_taa(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    uint32_t n = rg_barrier_count(g);
    rg_barrier_info first[32];
    cr_assert_leq(n, 32);
    for (uint32_t i = 0; i < n; i++)
        first[i] = *rg_barrier_get(g, i);
    rg_graph_reset(g);
    declare_taa(g);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(rg_barrier_count(g), n);
    for (uint32_t i = 0; i < n; i++) {
        const rg_barrier_info *b = rg_barrier_get(g, i);
        test_expect_layouts(b, first[i].old_layout, first[i].new_layout);
        cr_expect_eq(b->src_stage, first[i].src_stage);
        cr_expect_eq(b->dst_stage, first[i].dst_stage);
    }
    rg_graph_destroy(g);
}

/* ---------------------------------------------------------------- memory */

/* Recorded requirements: one entry per declared resource (a history
 * texture declares two). */
static rg_texture mem_history(test_mem_env *env, const char *name, uint32_t w, uint32_t h, rg_texture *previous)
{
    for (int k = 0; k < 2; k++) {
        test_mem_entry *e = test_mem_push(env, test_mem_round((VkDeviceSize)w * h * 8));
        e->is_texture = true;
    }
    rg_texture current = rg_texture_create_history(
        env->g, &(rg_texture_desc){.name = name, .format = HDR, .width = w, .height = h}, previous);
    env->e[env->n - 2].tex = current;
    env->e[env->n - 1].tex = *previous;
    return current;
}

/* Both halves get an allocation of their own and share no bytes, while
 * the frame's created textures around them pool (and alias) as ever. A
 * pair one of whose halves the frame uses is created whole. */
Test(rg_history, dedicated_never_aliased)
{
    test_mem_env env;
    test_mem_init(&env, "NVIDIA H200");
    rg_graph *g = env.g;
    rg_texture a = test_mem_tex(&env, "a", HDR, 8, 256, 256);
    rg_texture previous;
    rg_texture current = mem_history(&env, "taa", 256, 256, &previous);
    rg_texture b = test_mem_tex(&env, "b", HDR, 8, 256, 256);
    rg_texture only_read;
    mem_history(&env, "read only", 256, 256, &only_read);
    rg_texture unused_previous;
    rg_texture unused = mem_history(&env, "unused", 256, 256, &unused_previous);
    (void)unused;
    test_begin(g, "a", a);
    test_draw(g, "draw a");
    rg_end_rendering(g);
    test_begin(g, "taa", current);
    test_draw(g, "resolve", TEX(a, RG_USAGE_SAMPLED_FRAGMENT), TEX(previous, RG_USAGE_SAMPLED_FRAGMENT),
              TEX(only_read, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    test_begin(g, "b", b);
    test_draw(g, "draw b", TEX(current, RG_USAGE_SAMPLED_FRAGMENT));
    rg_end_rendering(g);
    test_outside(g, "use b", TEX(b, RG_USAGE_SAMPLED_COMPUTE));
    test_mem_place(&env);
    const VkDeviceSize size = test_mem_round(256 * 256 * 8);
    for (uint32_t i = 0; i < env.n; i++) {
        uint32_t pool = 0;
        rg_memory_kind k = rg_texture_memory(g, env.e[i].tex, NULL, &pool);
        rg_resource_info info;
        cr_assert_eq(rg_texture_get_info(g, env.e[i].tex, &info), RG_SUCCESS);
        if (strcmp(info.name, "a") == 0 || strcmp(info.name, "b") == 0) {
            cr_expect_eq(k, RG_MEMORY_POOLED, "'%s'", info.name);
        } else if (strncmp(info.name, "unused", 6) == 0) {
            cr_expect_eq(k, RG_MEMORY_NOT_CREATED, "'%s': neither half is used", info.name);
        } else {
            cr_expect_eq(k, RG_MEMORY_DEDICATED, "'%s': kind %d", info.name, (int)k);
            cr_expect_eq(pool, RG_INDEX_NONE);
        }
    }
    rg_memory_totals t = rg_memory_get_totals(g);
    cr_expect_eq(t.dedicated, 4 * size, "two pairs, both halves of each (the write-only pair's too)");
    cr_expect_eq(t.pooled, size, "a and b alias as ever");
    cr_expect_not(rg_texture_history_valid(g, previous), "offline placement records no frame");
    rg_graph_destroy(g);
}
