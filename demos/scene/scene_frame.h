/* The scene demo's frame as a render graph, with no window: the demo
 * declares it against the swapchain image, a benchmark can declare the same
 * frame against an offscreen texture.
 *
 *   depth prepass    the scene's depth, 4x MSAA (D32), stored for the
 *                    forward pass and resolved (sample 0) into a 1x depth
 *                    texture for SSAO.
 *   SSAO             compute: the resolved depth to an R8 occlusion image;
 *   AO blur          compute: a depth-aware 4x4 blur of it. Both may run on
 *                    the async compute queue (rg_user_desc.queue): nothing
 *                    of the shadow passes depends on them, so the graph can
 *                    overlap them with the cascades.
 *   shadow cascades  a directional light, 3 cascades, one span per layer of
 *                    a 3-layer 1024x1024 D32 array; depth bias from the
 *                    pipeline.
 *   forward          4x MSAA RGBA16F, the prepass's depth loaded read-only
 *                    (LESS_OR_EQUAL, no write); the sky, then the scene lit
 *                    through the cascades (comparison sampler, PCF) and the
 *                    blurred AO; resolved into a 1x HDR texture.
 *   bloom            a bright pass into half size, 4 downsamples each half
 *                    the one before, then 4 upsamples back, each added to
 *                    the level above by an additive blend.
 *   tonemap          HDR + bloom, ACES, into the target.
 *
 * Every screen-sized texture is sized from the target (rg_texture_desc
 * size_of) and each bloom level from the one above (scale 0.5): a resize
 * changes the target's extent and nothing else. Descriptors come from the
 * graph (push descriptors, eng_push_bindings), and each draw's pipeline is
 * built for the rendering state the compiled graph reports for it
 * (rg_command_get_rendering), the first time a state is seen, and kept
 * until the renderer is destroyed.
 *
 *   scene_renderer *r;   scene_renderer_create(&(scene_renderer_desc){ .ctx = ctx }, &r);
 *   on (re)declaration:  scene_frame_declare(r, g, target, async_compute);
 *                        rg_compile(g);
 *                        scene_frame_prepare(r, g);     (optional: pipelines now
 *                                                        rather than at the first execute;
 *                                                        required before recording on
 *                                                        several threads, where the draws
 *                                                        must not make pipelines)
 *   each frame:          scene_frame_update(r, g, slot, index);  (slot's previous use finished)
 *                        rg_execute(g, cmd)  or  rg_execute_batches + rg_submit
 */
#ifndef SCENE_FRAME_H
#define SCENE_FRAME_H

#include <engine/engine.h>

#define SCENE_SLOTS 8                 /* frames in flight at most */
#define SCENE_CASCADES 3
#define SCENE_BLOOM_LEVELS 5          /* 1/2 .. 1/32 */

typedef struct scene_renderer scene_renderer;

typedef struct scene_renderer_desc {
    eng_context *ctx;                 /* required; must offer push descriptors */
    eng_pipeline_cache *cache;        /* optional */
    /* Of the prepass and forward targets: 0 = 4. Depth is resolved for
     * SSAO when more than 1. */
    VkSampleCountFlagBits samples;
    /* Tints what each shadow cascade covers (red, green, blue). */
    bool show_cascades;
    /* Depth samples per pixel of SSAO: 0 = 16. More makes the part of the
     * frame that async compute can overlap larger (gpu_frame
     * --ssao-samples); the picture changes little. */
    uint32_t ssao_samples;
} scene_renderer_desc;

/* The textures of one declaration (handles of that graph declaration). */
typedef struct scene_frame_textures {
    rg_texture depth;                 /* MSAA, prepass and forward */
    rg_texture depth_resolved;        /* 1x, SSAO's (depth itself at one sample) */
    rg_texture ao_raw, ao;            /* R8: SSAO, and blurred */
    rg_texture shadow;                /* D32, SCENE_CASCADES layers */
    rg_texture color;                 /* MSAA HDR, resolved into hdr */
    rg_texture hdr;
    rg_texture bloom[SCENE_BLOOM_LEVELS];
    rg_command ssao, blur;            /* the compute commands (rg_command_get_info: queue) */
} scene_frame_textures;

/* The scene's meshes, samplers, per-slot uniform buffers and compute
 * pipelines. ENG_ERROR_UNSUPPORTED where the context has no push
 * descriptors. */
eng_result scene_renderer_create(const scene_renderer_desc *desc, scene_renderer **out);
void scene_renderer_destroy(scene_renderer *r);

/* Declares the whole frame into g, the tonemap span last with target (a
 * texture of g, one sample; its extent sizes the frame) as its color attachment,
 * stored. async_compute: SSAO and its blur may run on the compute queue
 * (where the device and graph have one). The record callbacks draw the
 * scene as last updated; r must outlive the graph's executions, and serves
 * the graph of its latest declaration only (one graph per renderer).
 * textures may be NULL. Errors are g's sticky errors (rg_compile). */
void scene_frame_declare(scene_renderer *r, rg_graph *g, rg_texture target, bool async_compute,
                         scene_frame_textures *textures);

/* After rg_compile: builds every draw's pipeline for the rendering state
 * the graph reports (the record callbacks otherwise build them at the first
 * execute). */
eng_result scene_frame_prepare(scene_renderer *r, rg_graph *g);

/* Before each execute of g: animates the scene to frame `index` (the same
 * index always gives the same picture) and writes the frame's uniforms
 * into the buffer of `slot` (< SCENE_SLOTS, its previous use finished),
 * which g's uniform import then points to. */
eng_result scene_frame_update(scene_renderer *r, rg_graph *g, uint32_t slot, uint64_t index);

#endif
