/* The deferred demo's frame as a render graph, with no window: the demo
 * declares it against the swapchain image, a benchmark can declare the same
 * frame against an offscreen texture.
 *
 *   G-buffer span   albedo (RGBA8 sRGB), normal + emissive (RGBA16F),
 *                   material (RGBA8: roughness, metal), view depth (R32F),
 *                   and a D32 depth buffer that is cleared and discarded in
 *                   the span (transient by inference: lazy on tile GPUs).
 *                   With samples > 1 all of them are multisampled.
 *   lighting span   fullscreen; reads the G-buffer at its own pixel
 *                   (RG_USAGE_PIXEL_LOCAL_READ; per sample and averaged
 *                   when multisampled), adds up the point lights into an
 *                   HDR RGBA16F target. Where the graph merges it into the
 *                   G-buffer span's rendering instance
 *                   (VK_KHR_dynamic_rendering_local_read; rg_graph_desc.merge)
 *                   the G-buffer is read through input attachments and,
 *                   used nowhere else, needs no memory on a tile GPU;
 *                   otherwise it is sampled (texelFetch).
 *   bloom chain     a bright pass into 1/2 size, downsamples to 1/4, 1/8 ...
 *                   then upsamples that add each level back.
 *   tonemap span    HDR (read at its own pixel) + bloom, ACES, into the
 *                   output texture. The bloom chain reads HDR in between,
 *                   so tonemap never merges into lighting's instance.
 *
 * The G-buffer dies after lighting; the bloom targets are created after it
 * and the graph's aliasing places them in its memory (when the G-buffer has
 * memory at all).
 *
 * Pipelines follow the graph: each draw's record callback asks the compiled
 * graph for its rendering state (rg_command_get_rendering: the instance's
 * formats, and when merged the attachment locations and input indices) and
 * binds the renderer's pipeline for that state, built the first time the
 * state is seen and kept until the renderer is destroyed. A merged lighting
 * span takes the LOCAL_READ variants of deferred_light*.frag and an
 * INPUT_ATTACHMENT descriptor set.
 *
 *   deferred_scene scene;  deferred_scene_create(ctx, "ground.png", 0, &scene);
 *   deferred_renderer *r;  deferred_renderer_create(&(deferred_renderer_desc){ .scene = &scene, ... }, &r);
 *   on (re)declaration:    deferred_frame_declare(r, g, output, extent, &textures);
 *                          rg_compile(g);
 *   each frame:            deferred_scene_animate(&scene, index);
 *                          deferred_renderer_begin_frame(r, slot);   (slot's previous
 *                                                                     use finished)
 *                          rg_execute(g, cmd);
 *   after placement:       deferred_frame_bloom_aliasing(r, g, &textures, &aliasing);
 *                          deferred_frame_placement(r, g, &textures, &placement);
 */
#ifndef DEFERRED_FRAME_H
#define DEFERRED_FRAME_H

#include "deferred_scene.h"

#include <rendergraph/rendergraph.h>

#define DEFERRED_MAX_BLOOM 6          /* levels: 1/2 .. 1/64 */
#define DEFERRED_SLOTS 8              /* frames in flight at most */

typedef struct deferred_renderer deferred_renderer;

typedef struct deferred_renderer_desc {
    eng_context *ctx;
    eng_pipeline_cache *cache;        /* optional */
    /* Drawn by the frame's G-buffer pass as last animated; its ground
     * texture is bound once. Must outlive the renderer. */
    const deferred_scene *scene;
    VkFormat output_format;           /* of the output texture; sRGB encodes the tonemapped color */
    VkSampleCountFlagBits samples;    /* of the G-buffer; 0 = 1 */
    /* The frame's passes are recorded without their draws (each callback
     * returns at once): benchmarks measure the graph's own cost this way. */
    bool skip_draws;
} deferred_renderer_desc;

/* The textures of one declaration (handles of that graph declaration). */
typedef struct deferred_frame_textures {
    rg_texture albedo, normal, material, depth;   /* sampled by lighting */
    rg_texture zbuffer;                           /* the depth test's, transient */
    rg_texture hdr;
    rg_texture bloom_down[DEFERRED_MAX_BLOOM];    /* [0] is the bright pass */
    rg_texture bloom_up[DEFERRED_MAX_BLOOM - 1];  /* [i]: bloom_down[i] + upsampled [i + 1] */
    VkExtent2D bloom_extent[DEFERRED_MAX_BLOOM];  /* of level i, down and up */
    uint32_t bloom_levels;
} deferred_frame_textures;

/* Pipelines, samplers, descriptor pools and the lights' uniform buffer
 * (DEFERRED_SLOTS regions). The pipelines made here are those of spans that
 * are not merged; a merged state's are made by the first execute that
 * records it (a failure there prints why on stderr and fails the execute
 * with RG_ERROR_CALLBACK). A sample count the device cannot render fails
 * here with ENG_ERROR_UNSUPPORTED and eng_last_error() naming it (one it
 * cannot sample fails when the graph creates the G-buffer, at the first
 * execute). Failing raw Vulkan calls give ENG_ERROR_VULKAN. */
eng_result deferred_renderer_create(const deferred_renderer_desc *desc, deferred_renderer **out);
void deferred_renderer_destroy(deferred_renderer *r);
VkSampleCountFlagBits deferred_renderer_samples(const deferred_renderer *r);

/* Declares the whole frame into g: the G-buffer span first, the tonemap span
 * last with `output` (an imported texture of extent and output_format, one
 * sample) as its color attachment, stored. The record callbacks draw the
 * scene as last animated; r must outlive the graph's executions. textures
 * may be NULL. Errors are g's sticky errors (rg_compile). */
void deferred_frame_declare(deferred_renderer *r, rg_graph *g, rg_texture output, VkExtent2D extent,
                            deferred_frame_textures *textures);

/* Before each execute: the frame-in-flight slot (< DEFERRED_SLOTS) whose
 * previous submission has finished. Resets that slot's descriptor pool and
 * writes the lights (in view space) into its uniform region. */
eng_result deferred_renderer_begin_frame(deferred_renderer *r, uint32_t slot);

/* Before an execute whose record callbacks run on several threads at once
 * (rendergraph.h, "Parallel recording": rg_workers), after
 * deferred_renderer_begin_frame: gives every pass of the declaration of g
 * the pipeline of the rendering state the compiled graph reports for it,
 * building those not built yet (a merged state's), which the callbacks
 * would otherwise build while recording. The callbacks then share only
 * the frame's descriptor pool, which they take under the renderer's lock.
 * ENG_ERROR_INVALID_ARGUMENT, with eng_last_error() naming the pass, when
 * one gets no pipeline (its reason printed on stderr). */
eng_result deferred_frame_prepare(deferred_renderer *r, const rg_graph *g);

/* Where the bloom chain's memory came from, after the graph is placed. */
typedef struct deferred_aliasing {
    bool placed;                      /* false: not placed yet, the rest is 0 */
    uint32_t bloom_targets;           /* created bloom textures */
    uint32_t sharing;                 /* of them, overlapping G-buffer memory */
    VkDeviceSize bloom_bytes;         /* the bloom targets' sizes, summed */
    VkDeviceSize shared_bytes;        /* of that, bytes that are also G-buffer bytes */
} deferred_aliasing;

/* Compares the bloom targets' pool ranges with the G-buffer's (sizes from
 * vkGetDeviceImageMemoryRequirements with the usage the graph gave them). */
void deferred_frame_bloom_aliasing(const deferred_renderer *r, const rg_graph *g,
                                   const deferred_frame_textures *textures, deferred_aliasing *out);

/* What merging did to the G-buffer, after the graph is placed. */
typedef struct deferred_placement {
    bool placed;                      /* false: not placed yet, the rest is 0 */
    bool gbuffer_merged;              /* lighting shares the G-buffer span's rendering instance */
    /* Bytes of the four G-buffer textures that lie in the graph's pools: 0
     * when they are lazily allocated or need no memory at all. */
    VkDeviceSize gbuffer_pooled;
    rg_memory_totals totals;
    /* The frame's tile traffic estimate (rg_tile_view_get), when
     * traffic_known. */
    bool traffic_known;
    rg_tile_traffic traffic;
} deferred_placement;

void deferred_frame_placement(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *textures,
                              deferred_placement *out);

#endif
