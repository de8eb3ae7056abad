/* The fold decision (compile_fold.c, rendergraph.h "Multisampling"),
 * device-free: a 4x span resolved into a created texture folds where the
 * caps offer the feature, and each reason it does not is the note of its
 * multisampled attachment (rg_resource_info.fold). Placed offline, a
 * folded texture is RG_MEMORY_FOLDED and takes no pool bytes. */
#include "rg_unit.h"

#include <criterion/criterion.h>
#include <string.h>

#define MS VK_SAMPLE_COUNT_4_BIT

typedef struct fold_frame {
    bool caps;                        /* rg_device_caps.msaa_to_single_sampled */
    rg_fold fold;
    bool no_resolve, stored, import_ms, load, sampled_after, import_target, second_refuses;
} fold_frame;

typedef struct fold_graph {
    rg_graph *g;
    rg_texture ms, ms2, target;
} fold_graph;

static rg_texture ms_tex(rg_graph *g, const char *name)
{
    return rg_texture_create(g, &(rg_texture_desc){.name = name, .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64,
                                                  .height = 64, .samples = MS});
}

/* "scene": ms (and ms2 where second_refuses: resolved nowhere) resolved
 * into "color", which "copy" reads after. */
static fold_graph fold_graph_of(const fold_frame *f)
{
    rg_device_caps caps = {.msaa_to_single_sampled = f->caps};
    fold_graph fg = {0};
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "fold", .caps = &caps, .msaa_fold = f->fold,
                                                  .no_culling = true},
                                 &fg.g),
                 RG_SUCCESS);
    rg_graph *g = fg.g;
    fg.ms = f->import_ms ? rg_texture_import(g, &(rg_texture_import_desc){.name = "ms", .format =
                                                                              VK_FORMAT_R8G8B8A8_UNORM,
                                                                          .width = 64, .height = 64, .samples = MS})
                         : ms_tex(g, "ms");
    fg.target = f->import_target
                    ? rg_texture_import(g, &(rg_texture_import_desc){.name = "color", .format =
                                                                         VK_FORMAT_R8G8B8A8_UNORM,
                                                                     .width = 64, .height = 64})
                    : test_color(g, "color");
    if (f->load) {
        test_begin(g, "earlier", fg.ms);
        rg_end_rendering(g);
    }
    rg_rendering_desc d = {.name = "scene", .color_count = 1};
    d.colors[0] = (rg_attachment){.texture = fg.ms, .load = f->load ? VK_ATTACHMENT_LOAD_OP_LOAD
                                                                      : VK_ATTACHMENT_LOAD_OP_CLEAR,
                                  .store = f->stored ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                  .resolve = f->no_resolve ? (rg_texture){0} : fg.target};
    if (f->second_refuses) {
        fg.ms2 = ms_tex(g, "ms2");
        d.colors[d.color_count++] = (rg_attachment){.texture = fg.ms2, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                    .store = VK_ATTACHMENT_STORE_OP_STORE};
    }
    rg_begin_rendering(g, &d);
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    if (f->sampled_after)
        test_outside(g, "sample ms", TEX(fg.ms, RG_USAGE_SAMPLED_COMPUTE));
    if (!f->no_resolve)
        test_outside(g, "copy", TEX(fg.target, RG_USAGE_SAMPLED_COMPUTE));
    return fg;
}

static void note_of(rg_graph *g, rg_texture t, char *out, size_t size)
{
    rg_resource_info info;
    cr_assert_eq(rg_texture_get_info(g, t, &info), RG_SUCCESS);
    snprintf(out, size, "%s", info.fold ? info.fold : "(none)");
}

typedef struct reason_case {
    const char *what;
    fold_frame frame;
    const char *note;                 /* of "ms" */
} reason_case;

static const reason_case reasons[] = {
    {"folds", {.caps = true}, "folded: span 'scene' renders it into 'color', no multisampled image"},
    {"no feature", {0}, "not folded in span 'scene': the device has no multisampledRenderToSingleSampled"},
    {"off", {.caps = true, .fold = RG_FOLD_OFF}, "not folded in span 'scene': folding is off (rg_graph_desc.msaa_fold)"},
    {"no resolve, stored", {.caps = true, .no_resolve = true, .stored = true},
     "not folded in span 'scene': no resolve target, and stored"},
    {"no resolve, discarded", {.caps = true, .no_resolve = true},
     "folded in place: span 'scene' renders it multisampled into one sample, no multisampled image"},
    {"imported", {.caps = true, .import_ms = true}, "not folded in span 'scene': imported"},
    {"loaded", {.caps = true, .load = true}, "not folded in span 'scene': loaded (load op LOAD)"},
    {"sampled after", {.caps = true, .sampled_after = true},
     "not folded in span 'scene': 'sample ms' uses it besides its span's attachment"},
    {"imported target", {.caps = true, .import_target = true},
     "not folded in span 'scene': its resolve target 'color' is imported"},
    {"its neighbour refuses", {.caps = true, .second_refuses = true},
     "not folded in span 'scene': 'ms2' there is not (no resolve target, and stored)"},
};

Test(rg_fold, each_reason_is_the_attachments_note)
{
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        const reason_case *c = &reasons[i];
        fold_graph fg = fold_graph_of(&c->frame);
        cr_assert_eq(rg_compile(fg.g), RG_SUCCESS, "%s: %s", c->what, rg_graph_error_message(fg.g));
        char note[512];
        note_of(fg.g, fg.ms, note, sizeof note);
        cr_expect(strncmp(note, c->note, strlen(c->note)) == 0, "%s: the note is \"%s\", want \"%s\"", c->what, note,
                  c->note);
        rg_graph_destroy(fg.g);
    }
}

Test(rg_fold, on_without_the_feature_is_a_compile_error)
{
    fold_graph fg = fold_graph_of(&(fold_frame){.fold = RG_FOLD_ON});
    cr_expect_eq(rg_compile(fg.g), RG_ERROR_UNSUPPORTED);
    cr_expect(strstr(rg_graph_error_message(fg.g), "msaa_fold is RG_FOLD_ON but the device has no "
                                                   "multisampledRenderToSingleSampled"),
              "%s", rg_graph_error_message(fg.g));
    rg_graph_destroy(fg.g);
}

static bool any_size(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                     VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)user, (void)name, (void)is_texture, (void)index;
    *size = 64 * 64 * 4 * 4;
    *alignment = 256;
    *type_bits = 1;
    *dedicated = false;
    return true;
}

Test(rg_fold, a_folded_texture_is_not_placed)
{
    VkPhysicalDeviceMemoryProperties props = {.memoryTypeCount = 1,
                                              .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}},
                                              .memoryHeapCount = 1,
                                              .memoryHeaps = {{1ull << 32, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}}};
    VkDeviceSize pooled[2];
    for (int folds = 0; folds < 2; folds++) {
        fold_graph fg = fold_graph_of(&(fold_frame){.caps = folds == 1});
        cr_assert_eq(rg_compile(fg.g), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
        cr_assert_eq(rg_place_offline(fg.g, &props, any_size, NULL), RG_SUCCESS, "%s", rg_graph_error_message(fg.g));
        rg_resource_info info;
        cr_assert_eq(rg_texture_get_info(fg.g, fg.ms, &info), RG_SUCCESS);
        cr_expect_eq(info.memory == RG_MEMORY_FOLDED, folds == 1, "ms: memory kind %d", (int)info.memory);
        pooled[folds] = rg_memory_get_totals(fg.g).pooled;
        rg_tile_view v;
        cr_assert_eq(rg_tile_view_get(fg.g, 0, &v), RG_SUCCESS);
        /* Folded, the span stores its target at one sample and resolves
         * nothing; else the resolve writes it. */
        cr_expect_eq(v.samples, 4u);
        cr_expect_eq(v.traffic.stores, folds ? 64u * 64u * 4u : 0u);
        cr_expect_eq(v.traffic.resolves, folds ? 0u : 64u * 64u * 4u);
        rg_graph_destroy(fg.g);
    }
    cr_expect_lt(pooled[1], pooled[0], "folded %llu bytes, not folded %llu", (unsigned long long)pooled[1],
                 (unsigned long long)pooled[0]);
}

/* Two spans merged through local read (4x each) are one rendering
 * instance: not folded, and each multisampled attachment says so. */
Test(rg_fold, a_merged_instance_is_not_folded)
{
    rg_device_caps caps = {.msaa_to_single_sampled = true, .local_read = true, .local_read_multisampled = true};
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "merged", .caps = &caps, .merge = RG_MERGE_ON,
                                                  .no_culling = true},
                                 &g),
                 RG_SUCCESS);
    rg_texture a = ms_tex(g, "gbuffer ms"), b = ms_tex(g, "lit ms"), color = test_color(g, "color");
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "gbuffer", .color_count = 1,
                                               .colors = {{.texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                           .store = VK_ATTACHMENT_STORE_OP_DONT_CARE}}});
    test_draw(g, "draw", BUF_UNDEF(test_buf(g, "vertices"), RG_USAGE_VERTEX_BUFFER));
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "lighting", .color_count = 1,
                                               .colors = {{.texture = b, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                           .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                                           .resolve = color}}});
    test_draw(g, "light", TEX(a, RG_USAGE_PIXEL_LOCAL_READ));
    rg_end_rendering(g);
    test_outside(g, "copy", TEX(color, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m = {0};
    cr_assert_eq(rg_merge_count(g), 1u);
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    cr_assert(m.merged, "the pair did not merge: %s", m.reason);
    char note[512];
    note_of(g, b, note, sizeof note);
    cr_expect(strstr(note, "not folded in span 'lighting': its span is merged with another"), "%s", note);
    note_of(g, a, note, sizeof note);
    cr_expect(strstr(note, "not folded in span 'gbuffer': its span is merged with another"), "%s", note);
    rg_graph_destroy(g);
}
