/* The scene demo's frame, private to demos/scene: the renderer's state,
 * its programs and passes, shared by its files: scene_frame.c (create,
 * destroy, per-frame update), scene_declare.c (the declaration),
 * scene_pipelines.c (programs and pipelines) and scene_record.c (the
 * record callbacks). */
#ifndef SCENE_RENDERER_H
#define SCENE_RENDERER_H

#include "scene_frame.h"

#include <cglm/cglm.h>

static const uint32_t SHADOW_SIZE = 1024;

enum { MAX_OBJECTS = 32, MAX_PASSES = 32, MAX_PIPELINES = 64 };

/* ---------------------------------------------------------- the scene */

/* The vertex layout of scene_object.vert and scene_shadow.vert. */
typedef struct scene_vertex {
    float position[3];
    float normal[3];
} scene_vertex;

/* The push constants of scene_object.vert / scene_forward.frag. */
typedef struct object_push {
    float model[16];
    float color[4];                   /* rgb albedo (linear), a emission */
    float material[4];                /* x tiled floor, y specular power, z specular strength */
} object_push;

/* The push constants of scene_shadow.vert. */
typedef struct shadow_push {
    float model[16];
    uint32_t cascade;
    uint32_t unused[3];
} shadow_push;

/* The frame's uniform block (std140; the shaders' Frame). */
typedef struct frame_uniforms {
    float matrices[4][16];            /* camera view-projection, then the cascades' */
    float inv_view_proj[16];
    float camera_pos[4];
    float camera_forward[4];
    float sun_dir[4];                 /* towards the sun; w intensity */
    float sun_color[4];               /* w: 1 tints the cascades */
    float sky_zenith[4];
    float sky_horizon[4];
    float ground_color[4];
    float splits[4];                  /* cascade ends; w 1 / shadow map size */
    float cascade_texel[4];
} frame_uniforms;

_Static_assert(sizeof(frame_uniforms) == 464, "frame_uniforms must match the shaders' std140 block");

/* A box of the scene: centre, half extents, turn about y (radians). */
typedef struct box {
    float center[3], half[3], turn;
    float color[4], material[4];
} box;

/* ---------------------------------------------------------- scene_programs */

/* The frame's draws and dispatches by what they run. */
typedef enum program {
    PROGRAM_SHADOW,
    PROGRAM_PREPASS,
    PROGRAM_SKY,
    PROGRAM_FORWARD,
    PROGRAM_BRIGHT,
    PROGRAM_DOWN,
    PROGRAM_UP,
    PROGRAM_TONEMAP,
    PROGRAM_GRAPHICS_COUNT,
    PROGRAM_SSAO = PROGRAM_GRAPHICS_COUNT,
    PROGRAM_BLUR,
    PROGRAM_COUNT
} program;

/* Everything of a program but the attachments, which the compiled graph
 * gives (eng_pipeline_desc_set_rendering). Set 0 is pushed: its binding
 * types in shader order. */
typedef struct program_info {
    const char *name;
    const uint32_t *vert;             /* compute: the compute shader */
    size_t vert_size;
    const uint32_t *frag;             /* NULL: depth only, or compute */
    size_t frag_size;
    bool mesh, depth_test, depth_write;
    VkCompareOp compare;
    float bias_constant, bias_slope;
    eng_blend blend;
    uint32_t push_size;
    uint32_t binding_count;
    VkDescriptorType bindings[3];
} program_info;

/* A built graphics pipeline and the rendering state (key) it was built
 * for. */
typedef struct pipeline_entry {
    program program;
    uint64_t key;
    eng_pipeline *pipeline;
} pipeline_entry;

/* One draw or dispatch of the frame: what its record callback binds. */
typedef struct pass {
    scene_renderer *r;
    program program;
    rg_command cmd;
    uint32_t cascade;                 /* PROGRAM_SHADOW */
    rg_texture src[2];                /* a fullscreen pass's sources */
    float push[4];
    /* The pipeline for the rendering state of key (graphics). */
    uint64_t key;
    const eng_pipeline *pipeline;
} pass;

struct scene_renderer {
    eng_context *ctx;
    eng_pipeline_cache *cache;
    VkSampleCountFlagBits samples;
    uint32_t ssao_samples;
    bool show_cascades;
    eng_buffer *vertices, *indices;
    uint32_t index_count;
    eng_buffer *uniforms[SCENE_SLOTS]; /* frame_uniforms each, host-visible */
    VkSampler linear, nearest, shadow;
    eng_pipeline *compute[PROGRAM_COUNT - PROGRAM_GRAPHICS_COUNT];
    pipeline_entry pipelines[MAX_PIPELINES];
    uint32_t pipeline_count;
    /* Per declaration: */
    rg_graph *graph;
    rg_buffer uniform_import;
    VkExtent2D extent;
    scene_frame_textures tex;
    pass passes[MAX_PASSES];
    uint32_t pass_count;
    /* Per frame: */
    box boxes[MAX_OBJECTS];
    uint32_t box_count;
    float proj[4];                    /* SSAO's view of the projection */
};

/* scene_pipelines.c: every program; a pass's pipeline for the rendering
 * state the graph reported (false, with the error, where it cannot be
 * built); binds a pass's pipeline and pushes its set 0. */
extern const program_info scene_programs[PROGRAM_COUNT];
bool scene_pass_prepare(pass *p);
bool scene_pass_bind(const rg_record_context *rc, pass *p, const eng_pipeline *pipeline, const eng_binding *b,
                     uint32_t count);

/* scene_record.c: the record callbacks (user: the pass). */
bool scene_draw_shadow(const rg_record_context *rc, void *user);
bool scene_draw_objects(const rg_record_context *rc, void *user);
bool scene_draw_fullscreen(const rg_record_context *rc, void *user);
bool scene_dispatch(const rg_record_context *rc, void *user);

#endif
