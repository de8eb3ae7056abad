/* Lazy memory running out (docs/tiles.md, docs/memory.md): a transient
 * attachment whose LAZILY_ALLOCATED allocation fails (the tile layer's
 * VKGRAPH_TILE_FAIL_LAZY, as Apple's memoryless memory does past a limit
 * nobody publishes) is placed in device-local memory instead. A WARNING
 * names it, rg_texture_memory says LAZY_FALLBACK, the totals move its
 * bytes out of lazy, and the frame renders the same picture, with no
 * validation message. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "test_log.h"
#include "msaa_sets.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdlib.h>
#include <string.h>

#define W 32
#define H 32
#define SETS 2

/* SETS sets of 4x MSAA colour + depth, cleared (each its own colour) and
 * discarded, resolved into target, which ends the frame ready to copy. */
static rg_graph *declare(eng_context *ctx, const eng_image_info *target, test_heard *heard, rg_texture *colors)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "fallback", .device = eng_context_graph_device(ctx),
                                                  .log = test_hear, .log_user = heard},
                                 &g),
                 RG_SUCCESS);
    rg_texture resolved = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "resolved", .image = target->image, .view = target->view, .format = target->format,
        .width = W, .height = H, .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_TRANSFER_BIT, .final_access = VK_ACCESS_2_TRANSFER_READ_BIT});
    for (int s = 0; s < SETS; s++) {
        float v = s == SETS - 1 ? 0.5f : 0.0f; /* the last set's resolve is what stays */
        colors[s] = msaa_set(g, W, H, resolved, (VkClearColorValue){ { 0.25f, v, 0.75f, 1.0f } });
    }
    return g;
}

/* Renders the frame on a context whose lazy allocations all fail (or
 * none), checks what the graph says of its memory, and returns the
 * picture's first pixel. */
static uint32_t render(bool lazy_runs_out)
{
    eng_context *ctx = lazy_runs_out ? tile_faulty_context("VKGRAPH_TILE_FAIL_LAZY", 1) : tile_context(true);
    eng_image *target = NULL;
    eng_image_desc td = {.name = "target", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                         .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT};
    cr_assert_eq(eng_image_create(ctx, &td, &target), ENG_SUCCESS, "%s", eng_last_error());
    test_heard heard = TEST_HEARD_INIT;
    rg_texture colors[SETS];
    rg_graph *g = declare(ctx, eng_image_get_info(target), &heard, colors);
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(test_execute_once_on(ctx, g), RG_SUCCESS, "a frame that can be drawn is drawn: %s",
                 rg_graph_error_message(g));

    rg_memory_totals t = rg_memory_get_totals(g);
    for (int s = 0; s < SETS; s++)
        cr_expect_eq(rg_texture_memory(g, colors[s], NULL, NULL),
                     lazy_runs_out ? RG_MEMORY_LAZY_FALLBACK : RG_MEMORY_LAZY, "set %d", s);
    if (lazy_runs_out) {
        cr_expect_eq(t.lazy, 0, "nothing is lazy: %llu", (unsigned long long)t.lazy);
        cr_expect_gt(t.lazy_fallback, 0);
        cr_expect_eq(heard.warnings, 2 * SETS, "a WARNING per attachment (colour, depth): %d", heard.warnings);
        cr_expect(strstr(heard.first_warning, "lazily allocated memory (type ") &&
                      strstr(heard.first_warning, "ran out for transient attachment 'color'"),
                  "%s", heard.first_warning);
    } else {
        cr_expect_gt(t.lazy, 0);
        cr_expect_eq(t.lazy_fallback, 0);
        cr_expect_eq(heard.warnings, 0, "%s", heard.first_warning);
    }
    cr_expect_eq(heard.errors, 0, "%s", heard.first_error);

    uint32_t *pixels = malloc((size_t)W * H * 4);
    cr_assert_not_null(pixels);
    cr_assert_eq(eng_image_read(ctx, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels, (size_t)W * H * 4),
                 ENG_SUCCESS, "%s", eng_last_error());
    for (int i = 1; i < W * H; i++)
        cr_expect_eq(pixels[i], pixels[0], "pixel %d: %08x, pixel 0: %08x", i, pixels[i], pixels[0]);
    uint32_t first = pixels[0];
    free(pixels);
    rg_graph_destroy(g);
    eng_image_destroy(target);
    destroy_context_expect_clean(ctx, "the tile-layer context");
    return first;
}

Test(tile_fallback, lazy_memory_running_out_places_in_device_local_memory_and_renders_the_same)
{
    uint32_t lazy = render(false), fallback = render(true);
    cr_expect_eq(fallback, lazy, "the same picture: %08x against %08x", fallback, lazy);
    /* 0.25, 0.5, 0.75, 1.0 in UNORM bytes, little-endian RGBA; 0.5 is
     * 127.5, which a device may round either way (lavapipe 128, NVIDIA 127). */
    cr_expect(lazy == 0xffbf8040u || lazy == 0xffbf7f40u, "the last set's clear colour: %08x", lazy);
}
