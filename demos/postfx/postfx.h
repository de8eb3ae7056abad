/* postfx: a scene rendered into an offscreen HDR target, then a chain of
 * fullscreen passes, each sampling the previous pass's target and writing
 * the next; the last writes the swapchain image. The whole frame is a render
 * graph, declared again (and so compiled and placed again) whenever the set
 * of passes changes: keys 1..9, --passes, --toggle-test. With --trails (key
 * T), a motion-trails pass between the scene and the chain keeps a fading
 * trail of the cube in a render graph history texture.
 *
 *   scene.c   the scene pass: sky, sun and neon grid, a brick cube with
 *             glowing mortar (RGBA16F, values above 1.0)
 *   passes.c  the pass table, --passes parsing, the chain's pipelines and
 *             its declaration, the trails pass
 *   main.c    flags, keys, the toggle test, the memory line */
#ifndef POSTFX_H
#define POSTFX_H

#include "demo_descriptors.h"
#include "demo_graph.h"
#include "demo_mesh.h"
#include "demo_texture_binding.h"

#include <stddef.h>

/* HDR between passes, so the bloom can find what is brighter than white
 * and the grade can map it down. */
#define POSTFX_FORMAT VK_FORMAT_R16G16B16A16_SFLOAT

enum {
    POSTFX_PASS_COUNT = 9,            /* keys 1..9 */
    POSTFX_COPY = POSTFX_PASS_COUNT,  /* the pass used when every other is off */
    POSTFX_ALL = (1u << POSTFX_PASS_COUNT) - 1,
};

typedef struct postfx_pass_info {
    const char *name;                 /* in --passes and messages */
    const char *target;               /* the name of the target it writes */
    const uint32_t *spirv;
    size_t spirv_size;
    float step_x, step_y;             /* direction of separable passes, in texels */
    float strength;
} postfx_pass_info;

/* In chain order; the last entry (POSTFX_COPY) is the copy. */
extern const postfx_pass_info postfx_passes[POSTFX_PASS_COUNT + 1];

typedef struct postfx postfx;

/* The motion-trails pass: the scene and last frame's trail in, the
 * composite and this frame's trail out. */
typedef struct postfx_trails {
    postfx *fx;
    rg_texture scene, previous;
} postfx_trails;

/* How much of a trail is left after one frame. */
#define POSTFX_TRAIL_DECAY 0.9f

/* One fullscreen pass of the declared chain: its record callback's data. */
typedef struct postfx_link {
    postfx *fx;
    uint32_t pass;                    /* index into postfx_passes */
    rg_texture source, target;
    bool to_swapchain;                /* the last link: writes the backbuffer */
} postfx_link;

typedef struct postfx_scene {
    demo_textured_cube cube;
    eng_pipeline *sky;
    eng_pipeline *cube_pipeline;
} postfx_scene;

struct postfx {
    demo_app *app;
    postfx_scene scene;
    demo_descriptors descriptors;
    VkDescriptorSetLayout source_layout;             /* one sampled texture */
    eng_pipeline *pipelines[POSTFX_PASS_COUNT + 1][2]; /* [pass][0: RGBA16F target, 1: swapchain] */
    VkDescriptorSetLayout trails_layout;             /* the scene and the trail */
    eng_pipeline *trails_pipeline;                   /* two RGBA16F targets */
    bool trails;                      /* the trails pass in the next declaration */
    postfx_trails trails_pass;

    uint32_t wanted;                  /* passes for the next declaration (bit i = key i + 1) */
    postfx_link links[POSTFX_PASS_COUNT];
    uint32_t link_count;
    uint32_t target_count;            /* single-sample targets created by the current graph */
    bool msaa_target;                 /* and a multisampled scene target (--samples) */
    VkExtent2D extent;
    uint64_t index;                   /* frame being recorded */

    uint32_t declarations;            /* graph declared (start, resizes, toggles) */
    uint32_t toggle_rebuilds;         /* of which for a change of passes */
    bool toggle_pending;              /* a key or the toggle test changed `wanted` */
    bool memory_line_due;             /* print it once the new graph is placed */
};

/* passes.c */
/* "blur,edges,fxaa" into a mask: names of postfx_passes, plus "bloom" and
 * "blur" for both directions, "all" and "none". false with a message in
 * err for an unknown name. */
bool postfx_parse_passes(const char *list, uint32_t *mask, char *err, size_t err_size);
/* The names of the passes in mask, comma-separated ("none" for 0). */
void postfx_passes_string(uint32_t mask, char *out, size_t size);
/* A pipeline drawing a fullscreen triangle (shaders/fullscreen.vert) with
 * the fragment shader given, push_size bytes of push constants in the
 * fragment stage; the caller adds its color formats and set layouts. */
eng_pipeline_desc postfx_fullscreen_desc(const demo_app *app, const char *name, const uint32_t *fragment_spirv,
                                         size_t fragment_size, uint32_t push_size);
void postfx_pipelines_create(postfx *fx, VkFormat swapchain_format);
void postfx_pipelines_destroy(postfx *fx);
/* Declares the chain of fx->wanted from scene to target->backbuffer. */
void postfx_declare_chain(postfx *fx, rg_graph *g, const demo_target *target, rg_texture scene);
/* Declares the trails pass after the scene; returns the composite the
 * chain starts from. */
rg_texture postfx_declare_trails(postfx *fx, rg_graph *g, const demo_target *target, rg_texture scene);

/* scene.c */
void postfx_scene_create(postfx *fx, const char *texture_path);
void postfx_scene_destroy(postfx_scene *s);
/* Declares the scene pass; returns the single-sample scene target. */
rg_texture postfx_declare_scene(postfx *fx, rg_graph *g, const demo_target *target);


#endif
