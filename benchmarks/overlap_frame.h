/* A frame where async compute has something to overlap, for gpu_frame
 * --frame overlap: a terrain seen from above, in three parts.
 *
 *   shadow cascades  4 spans, one per layer of a D32 array texture, each a
 *                    depth-only indexed draw of a terrain grid whose
 *                    vertices the vertex shader generates (no vertex
 *                    buffer), shadow_layers instances deep, each nearer
 *                    the light: bound by the rasterizer and depth writes
 *                    (graphics queue only: spans)
 *   ambient occl.    a dispatch over an R32F storage image of the output's
 *                    size, a loop of ao_iterations terrain samples per
 *                    pixel: bound by the ALUs; it reads nothing the shadow
 *                    passes write, and is declared .queue = RG_QUEUE_COMPUTE
 *   composite        a dispatch that samples both into an imported RGBA8
 *                    image (graphics only: it writes the import)
 *
 * On a device with a compute-only queue family the graph runs the AO pass
 * on that queue, beside the shadow passes; on one with a single family
 * (lavapipe) everything stays on the graphics queue in one batch.
 *
 * Workflow: overlap_frame_create (pipelines, output image), then per graph
 * overlap_frame_declare into it with an overlap_decl the caller keeps
 * while the graph executes; each frame overlap_frame_begin before recording
 * (it recycles the descriptor sets, so the GPU must be done with the frame
 * before). */
#ifndef BENCH_OVERLAP_FRAME_H
#define BENCH_OVERLAP_FRAME_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#define OVERLAP_CASCADES 4

typedef struct overlap_frame overlap_frame;

typedef struct overlap_frame_desc {
    eng_context *ctx;                 /* required */
    VkExtent2D extent;                /* the output's and the AO image's size; required */
    uint32_t shadow_size;             /* side of each cascade's depth map; 0 = 2048 */
    uint32_t shadow_triangles;        /* of the terrain, rounded to a square grid of quads;
                                         0 = 8192 (a 64^2 grid) */
    uint32_t shadow_layers;           /* times each cascade draws the terrain, each
                                         layer nearer the light (depth overdraw); 0 = 1 */
    uint32_t ao_iterations;           /* terrain samples per pixel of the AO pass;
                                         0 = none (AO is 1) */
} overlap_frame_desc;

/* What the frame was made with, defaults resolved. */
typedef struct overlap_frame_info {
    VkExtent2D extent;
    uint32_t shadow_size;
    uint32_t grid;                    /* quads per side of the terrain grid */
    uint64_t shadow_triangles;        /* of the terrain: 2 * grid^2 */
    uint32_t shadow_layers;
    uint32_t ao_iterations;
    eng_image *output;                /* RGBA8 UNORM, STORAGE | TRANSFER_SRC */
} overlap_frame_info;

/* One graph's declaration of the frame: its textures, and what its record
 * callbacks are given. Kept by the caller (not moved) while the graph
 * executes. */
typedef struct overlap_decl overlap_decl;
typedef struct overlap_cascade {
    overlap_decl *decl;
    uint32_t index;
} overlap_cascade;
struct overlap_decl {
    overlap_frame *frame;
    rg_texture shadow;                /* D32, OVERLAP_CASCADES layers */
    rg_texture ao;                    /* R32F, the output's size */
    rg_texture output;                /* the import of overlap_frame_info.output */
    rg_command ao_pass;
    overlap_cascade cascades[OVERLAP_CASCADES];
};

/* On failure eng_last_error() says why and *out is NULL. */
eng_result overlap_frame_create(const overlap_frame_desc *desc, overlap_frame **out);
void overlap_frame_destroy(overlap_frame *f);
overlap_frame_info overlap_frame_get_info(const overlap_frame *f);

/* Declares the frame into g (the output imported from UNDEFINED and left
 * in TRANSFER_SRC_OPTIMAL, ready for a copy). */
void overlap_frame_declare(overlap_frame *f, rg_graph *g, overlap_decl *d);

/* Before recording a frame: recycles the previous frame's descriptor sets,
 * so the GPU must have finished every frame recorded before. */
eng_result overlap_frame_begin(overlap_frame *f);

#endif
