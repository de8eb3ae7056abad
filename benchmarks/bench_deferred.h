/* The deferred demo's frame for the benchmarks: its scene, renderer and an
 * offscreen output texture. */
#ifndef BENCH_DEFERRED_H
#define BENCH_DEFERRED_H

#include "bench_frame.h"
#include "deferred_frame.h"

typedef struct bench_deferred {
    eng_context *ctx;
    deferred_scene scene;
    bool scene_made;
    deferred_renderer *renderer;
    eng_image *output;                /* RGBA8, COLOR_ATTACHMENT | TRANSFER_SRC */
    VkExtent2D extent;
} bench_deferred;

/* ground: a PNG, or NULL for a generated one (written to a temporary file,
 * loaded, removed). skip_draws: the passes record no draws
 * (deferred_renderer_desc.skip_draws). On failure eng_last_error() says
 * why; *d is left empty. */
eng_result bench_deferred_create(eng_context *ctx, const char *ground, VkExtent2D extent, bool skip_draws,
                                 bench_deferred *d);
void bench_deferred_destroy(bench_deferred *d);

/* Imports image (of extent) into g as a frame's output, as the demos import
 * the swapchain image, but left in COLOR_ATTACHMENT_OPTIMAL. */
rg_texture bench_output_import(rg_graph *g, const eng_image *image, VkExtent2D extent);

/* Declares the frame into g, its output imported by bench_output_import;
 * returns the output. textures: the frame's (NULL: not wanted). */
rg_texture bench_deferred_declare(bench_deferred *d, rg_graph *g, deferred_frame_textures *textures);

#endif
