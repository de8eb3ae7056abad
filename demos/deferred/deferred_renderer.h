/* The deferred demo's frame, private to demos/deferred: the renderer's
 * state, its programs and passes, shared by its files: deferred_frame.c
 * (create, destroy, begin a frame), deferred_declare.c (the declaration),
 * deferred_pipelines.c (pipelines per rendering state), deferred_record.c
 * (the record callbacks) and deferred_placement.c (the placement
 * reports). */
#ifndef DEFERRED_RENDERER_H
#define DEFERRED_RENDERER_H

#include "deferred_frame.h"
#include "demo_lock.h"
#include "demo_record_fail.h"

static const VkFormat ALBEDO_FORMAT = VK_FORMAT_R8G8B8A8_SRGB;
static const VkFormat NORMAL_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
static const VkFormat MATERIAL_FORMAT = VK_FORMAT_R8G8B8A8_UNORM;
static const VkFormat DEPTH_FORMAT = VK_FORMAT_R32_SFLOAT;
static const VkFormat ZBUFFER_FORMAT = VK_FORMAT_D32_SFLOAT;
static const VkFormat HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;

/* The lights' uniform block of deferred_light*.frag (std140). */
typedef struct light_block {
    float info[4];
    float up[4];
    float moon[4];
    float sky[4];
    float pos[DEFERRED_MAX_LIGHTS][4];
    float color[DEFERRED_MAX_LIGHTS][4];
} light_block;

/* The push constants of deferred_gbuffer.vert/.frag: 128 bytes. */
typedef struct gbuffer_push {
    mat4 mvp;
    float model_view[3][4];
    uint32_t params[4];
} gbuffer_push;

enum { MAX_PASSES = 2 + 2 * DEFERRED_MAX_BLOOM + 1, SETS_PER_FRAME = MAX_PASSES, TEXTURES_PER_FRAME = 4 * MAX_PASSES };
/* Input attachments per frame: the lighting pass's G-buffer reads. */
enum { INPUTS_PER_FRAME = 4 };

_Static_assert(RG_MAX_COLOR_ATTACHMENTS == ENG_MAX_COLOR_ATTACHMENTS, "rendering state arrays differ in size");

/* The frame's pipelines by what they draw. Each is built for every
 * rendering state the graph reports for its draws (pipeline_for): the
 * instance's attachments and, where spans merged, the attachment locations
 * and input-attachment indices. */
typedef enum program {
    PROGRAM_GBUFFER,
    PROGRAM_LIGHT,
    PROGRAM_BRIGHT,
    PROGRAM_DOWN,
    PROGRAM_UP,
    PROGRAM_TONEMAP,
    PROGRAM_COUNT
} program;

typedef struct program_info {
    const char *name;
    const uint32_t *frag;             /* reads its sources as sampled textures */
    size_t frag_size;
    /* The LOCAL_READ variant, reading the pixel-local sources through input
     * attachments; NULL where the program has none. */
    const uint32_t *local_frag;
    size_t local_frag_size;
    VkDescriptorSetLayout layout, local_layout; /* set 0 of each variant */
    bool lights;                      /* set 1 is the lights' uniforms, else a 16-byte push constant */
} program_info;

/* A built pipeline and the rendering state it was built for (instance and
 * key cleared: equal states in different instances share it). */
typedef struct pipeline_entry {
    program program;
    rg_command_rendering state;
    eng_pipeline *pipeline;
} pipeline_entry;

/* One draw of the frame: what its record callback binds. The graph and the
 * command are known at declaration; the pipeline and how each source is read
 * come from the graph's compiled state (deferred_pass_prepare). */
typedef struct pass {
    deferred_renderer *r;
    const char *name;
    program program;
    rg_graph *graph;
    rg_command cmd;
    rg_texture src[4];
    uint32_t src_count;
    uint32_t pixel_local;             /* bit i: src[i] is read with RG_USAGE_PIXEL_LOCAL_READ */
    VkSampler sampler;
    float push[4];
    /* For the rendering state of key (valid while pipeline is set): */
    uint64_t key;
    const eng_pipeline *pipeline;
    VkDescriptorSetLayout set_layout;
    bool input[4];                    /* src[i] is an input attachment */
    VkImageLayout layout[4];          /* of src[i] in its descriptor */
} pass;

struct deferred_renderer {
    eng_context *ctx;
    VkDevice device;
    eng_pipeline_cache *cache;
    VkFormat output_format;
    VkSampleCountFlagBits samples;
    VkSampler linear, nearest, repeat;
    VkDescriptorSetLayout tex1, tex2, gbuffer_layout, gbuffer_input_layout, lights_layout;
    VkDescriptorPool static_pool, pools[DEFERRED_SLOTS];
    VkDescriptorSet ground_set, lights_set;
    eng_buffer *lights;               /* DEFERRED_SLOTS regions of light_block, host-visible */
    VkDeviceSize lights_stride;
    program_info programs[PROGRAM_COUNT];
    pipeline_entry *pipelines;        /* every pipeline built, destroyed with the renderer */
    uint32_t pipeline_count, pipeline_capacity;
    const deferred_scene *scene;
    bool skip_draws;
    /* Per declaration: */
    VkExtent2D extent;
    pass passes[MAX_PASSES];
    uint32_t pass_count;
    /* Per frame: */
    uint32_t slot;
    mat4 view, projection;
    /* Held around allocations from the frame's descriptor pool: the record
     * callbacks of a frame recorded in chunks may run on several threads
     * at once (deferred_frame_prepare). */
    demo_lock sets_lock;
};

/* deferred_frame.c: a descriptor set from pool. */
VkResult deferred_alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet *out);

/* deferred_pipelines.c: the pipeline of a span of its own, built at
 * creation; a pass's pipeline and descriptors for the graph's compiled
 * state (false, with the error set by deferred_pass_fail, where not). */
eng_result deferred_standalone_pipeline(deferred_renderer *r, program prog, const VkFormat *formats, uint32_t count,
                                        VkFormat depth, VkSampleCountFlagBits samples);
#define deferred_pass_fail(p, ...) demo_record_fail("deferred frame", (p)->name, __VA_ARGS__)
bool deferred_pass_prepare(pass *p);

/* deferred_record.c: the record callbacks (user: the scene, or the pass). */
bool deferred_draw_gbuffer(const rg_record_context *rc, void *user);
bool deferred_draw_fullscreen(const rg_record_context *rc, void *user);

#endif
