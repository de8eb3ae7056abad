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

/* Declares the frame into g (its output imported, as the demo imports the
 * swapchain image, but left in COLOR_ATTACHMENT_OPTIMAL). */
void bench_deferred_declare(bench_deferred *d, rg_graph *g);

#endif
