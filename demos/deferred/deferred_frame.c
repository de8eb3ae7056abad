/* The deferred demo's frame as a render graph (deferred_frame.h). */
#include "deferred_frame.h"
#include "demo_lock.h"

#include <cglm/clipspace/persp_rh_zo.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t gbuffer_vert[] =
#include "deferred_gbuffer.vert.inc"
    ;
static const uint32_t gbuffer_frag[] =
#include "deferred_gbuffer.frag.inc"
    ;
static const uint32_t light_frag[] =
#include "deferred_light.frag.inc"
    ;
static const uint32_t light_ms_frag[] =
#include "deferred_light_ms.frag.inc"
    ;
/* The lighting shaders' LOCAL_READ variants (input attachments), for a
 * lighting span merged into the G-buffer's rendering instance. */
static const uint32_t light_local_frag[] =
#include "deferred_light.local_read.frag.inc"
    ;
static const uint32_t light_ms_local_frag[] =
#include "deferred_light_ms.local_read.frag.inc"
    ;
static const uint32_t bright_frag[] =
#include "deferred_bright.frag.inc"
    ;
static const uint32_t down_frag[] =
#include "deferred_down.frag.inc"
    ;
static const uint32_t up_frag[] =
#include "deferred_up.frag.inc"
    ;
static const uint32_t tonemap_frag[] =
#include "deferred_tonemap.frag.inc"
    ;

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
 * come from the graph's compiled state (pass_prepare). */
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

VkSampleCountFlagBits deferred_renderer_samples(const deferred_renderer *r) { return r->samples; }

/* ------------------------------------------------------------ creation */

#define TRY(call)                                                                                                     \
    do {                                                                                                              \
        res = (call);                                                                                                 \
        if (res != ENG_SUCCESS)                                                                                       \
            goto fail;                                                                                                \
    } while (0)
#define TRY_VK(call)                                                                                                  \
    do {                                                                                                              \
        if ((call) != VK_SUCCESS) {                                                                                   \
            res = ENG_ERROR_VULKAN;                                                                                   \
            goto fail;                                                                                                \
        }                                                                                                             \
    } while (0)

static VkResult make_sampler(VkDevice dev, VkFilter filter, VkSamplerAddressMode mode, VkSampler *out)
{
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = mode,
        .addressModeV = mode,
        .addressModeW = mode,
        .maxLod = 0.0f,
    };
    return vkCreateSampler(dev, &si, NULL, out);
}

static VkResult make_layout(VkDevice dev, VkDescriptorType type, uint32_t count, VkDescriptorSetLayout *out)
{
    VkDescriptorSetLayoutBinding b[4];
    for (uint32_t i = 0; i < count; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ i, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = count,
        .pBindings = b,
    };
    return vkCreateDescriptorSetLayout(dev, &li, NULL, out);
}

static VkResult alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet *out)
{
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &layout,
    };
    return vkAllocateDescriptorSets(dev, &ai, out);
}

/* The two sets that never change: the ground texture, and the lights'
 * uniform buffer (one set; each frame picks its region by dynamic offset). */
static VkResult static_sets(deferred_renderer *r)
{
    VkDescriptorPoolSize sizes[2] = {
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1 },
    };
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 2,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    VkResult vr = vkCreateDescriptorPool(r->device, &pi, NULL, &r->static_pool);
    if (vr == VK_SUCCESS)
        vr = alloc_set(r->device, r->static_pool, r->tex1, &r->ground_set);
    if (vr == VK_SUCCESS)
        vr = alloc_set(r->device, r->static_pool, r->lights_layout, &r->lights_set);
    if (vr != VK_SUCCESS)
        return vr;
    VkDescriptorBufferInfo bi = { eng_buffer_handle(r->lights), 0, sizeof(light_block) };
    VkDescriptorImageInfo ii = { r->repeat, eng_image_get_info(r->scene->ground)->view,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkWriteDescriptorSet w[2] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = r->lights_set,
          .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
          .pBufferInfo = &bi },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = r->ground_set,
          .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
          .pImageInfo = &ii },
    };
    vkUpdateDescriptorSets(r->device, 2, w, 0, NULL);
    return VK_SUCCESS;
}

/* ------------------------------------------------------------ pipelines */

/* Whether the state reads any attachment through an input attachment. */
static bool reads_inputs(const rg_command_rendering *st)
{
    bool any = st->depth_input_index != VK_ATTACHMENT_UNUSED || st->stencil_input_index != VK_ATTACHMENT_UNUSED;
    for (uint32_t i = 0; i < st->color_count; i++)
        any = any || st->color_input_indices[i] != VK_ATTACHMENT_UNUSED;
    return any;
}

/* Two states a pipeline cannot tell apart (the fields the pipeline is built
 * from). */
static bool same_state(const rg_command_rendering *a, const rg_command_rendering *b)
{
    if (a->merged != b->merged || a->color_count != b->color_count || a->depth_format != b->depth_format ||
        a->stencil_format != b->stencil_format || a->samples != b->samples ||
        a->depth_input_index != b->depth_input_index || a->stencil_input_index != b->stencil_input_index)
        return false;
    for (uint32_t i = 0; i < a->color_count; i++)
        if (a->color_formats[i] != b->color_formats[i] || a->color_locations[i] != b->color_locations[i] ||
            a->color_input_indices[i] != b->color_input_indices[i])
            return false;
    return true;
}

/* The program's pipeline for one rendering state: its formats and sample
 * count, and where the state is merged, its locations and input indices
 * (eng_pipeline_desc.local_read takes every entry as given). A state that
 * reads input attachments takes the LOCAL_READ shader. */
static eng_result build_pipeline(deferred_renderer *r, program prog, const rg_command_rendering *st,
                                 eng_pipeline **out)
{
    const program_info *pi = &r->programs[prog];
    bool local = reads_inputs(st);
    if (local && !pi->local_frag)
        return eng_set_error(ENG_ERROR_UNSUPPORTED,
                             "%s: the graph reads its sources through input attachments, and the program has no "
                             "LOCAL_READ variant",
                             pi->name);
    VkDescriptorSetLayout layouts[2] = { local ? pi->local_layout : pi->layout, r->lights_layout };
    eng_pipeline_desc pd = {
        .name = pi->name,
        .vertex_spirv = fullscreen_vert,
        .vertex_size = sizeof fullscreen_vert,
        .fragment_spirv = local ? pi->local_frag : pi->frag,
        .fragment_size = local ? pi->local_frag_size : pi->frag_size,
        .color_count = st->color_count,
        .depth_format = st->depth_format != VK_FORMAT_UNDEFINED ? st->depth_format : st->stencil_format,
        .samples = st->samples,
        .local_read = st->merged,
        .depth_input_index = st->depth_input_index,
        .stencil_input_index = st->stencil_input_index,
        .set_layouts = layouts,
        .set_layout_count = pi->lights ? 2 : 1,
        .push_constant_size = pi->lights ? 0 : 16,
        .push_constant_stages = VK_SHADER_STAGE_FRAGMENT_BIT,
        .cache = r->cache,
    };
    memcpy(pd.color_formats, st->color_formats, sizeof pd.color_formats);
    memcpy(pd.color_locations, st->color_locations, sizeof pd.color_locations);
    memcpy(pd.color_input_indices, st->color_input_indices, sizeof pd.color_input_indices);
    if (prog == PROGRAM_GBUFFER) {
        pd.vertex_spirv = gbuffer_vert;
        pd.vertex_size = sizeof gbuffer_vert;
        pd.bindings = &deferred_vertex_binding;
        pd.binding_count = 1;
        pd.attributes = deferred_vertex_attributes;
        pd.attribute_count = 3;
        pd.cull_mode = VK_CULL_MODE_BACK_BIT;
        pd.depth_test = true;
        pd.depth_write = true;
        pd.push_constant_size = sizeof(gbuffer_push);
        pd.push_constant_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    }
    return eng_pipeline_create(r->ctx, &pd, out);
}

/* The program's pipeline for a state the graph reported: one already built
 * for an equal state, or a new one kept until the renderer is destroyed. */
static eng_result pipeline_for(deferred_renderer *r, program prog, const rg_command_rendering *reported,
                               const eng_pipeline **out)
{
    rg_command_rendering st = *reported;
    st.instance = 0;
    st.key = 0;
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        if (r->pipelines[i].program == prog && same_state(&r->pipelines[i].state, &st)) {
            *out = r->pipelines[i].pipeline;
            return ENG_SUCCESS;
        }
    if (r->pipeline_count == r->pipeline_capacity) {
        uint32_t cap = r->pipeline_capacity ? 2 * r->pipeline_capacity : 2 * PROGRAM_COUNT;
        pipeline_entry *grown = realloc(r->pipelines, cap * sizeof *grown);
        if (!grown)
            return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "%s: no memory for another pipeline",
                                 r->programs[prog].name);
        r->pipelines = grown;
        r->pipeline_capacity = cap;
    }
    eng_pipeline *p = NULL;
    eng_result res = build_pipeline(r, prog, &st, &p);
    if (res != ENG_SUCCESS)
        return res;
    r->pipelines[r->pipeline_count++] = (pipeline_entry){ .program = prog, .state = st, .pipeline = p };
    *out = p;
    return ENG_SUCCESS;
}

/* The pipeline for a span of its own (not merged): what the graph reports
 * for it, built now so that an unusable state fails at renderer creation
 * and the first frame finds it ready. */
static eng_result standalone_pipeline(deferred_renderer *r, program prog, const VkFormat *formats, uint32_t count,
                                      VkFormat depth, VkSampleCountFlagBits samples)
{
    rg_command_rendering st = { .color_count = count, .depth_format = depth, .samples = samples,
                                .depth_input_index = VK_ATTACHMENT_UNUSED,
                                .stencil_input_index = VK_ATTACHMENT_UNUSED };
    for (uint32_t i = 0; i < RG_MAX_COLOR_ATTACHMENTS; i++) {
        st.color_formats[i] = i < count ? formats[i] : VK_FORMAT_UNDEFINED;
        st.color_locations[i] = i < count ? i : VK_ATTACHMENT_UNUSED;
        st.color_input_indices[i] = VK_ATTACHMENT_UNUSED;
    }
    const eng_pipeline *p;
    return pipeline_for(r, prog, &st, &p);
}

eng_result deferred_renderer_create(const deferred_renderer_desc *desc, deferred_renderer **out)
{
    *out = NULL;
    if (!desc->ctx || !desc->scene || !desc->scene->ground)
        return ENG_ERROR_INVALID_ARGUMENT;
    deferred_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return ENG_ERROR_OUT_OF_MEMORY;
    eng_result res = ENG_SUCCESS;
    r->ctx = desc->ctx;
    r->device = eng_context_device(desc->ctx);
    r->cache = desc->cache;
    r->scene = desc->scene;
    r->skip_draws = desc->skip_draws;
    r->output_format = desc->output_format;
    r->samples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_1_BIT;
    VkDevice dev = r->device;
    r->sets_lock = (demo_lock)DEMO_LOCK_INIT;

    TRY_VK(make_sampler(dev, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, &r->linear));
    TRY_VK(make_sampler(dev, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, &r->nearest));
    TRY_VK(make_sampler(dev, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, &r->repeat));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, &r->tex1));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, &r->tex2));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4, &r->gbuffer_layout));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 4, &r->gbuffer_input_layout));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, &r->lights_layout));

    VkDeviceSize align = eng_context_properties(desc->ctx)->limits.minUniformBufferOffsetAlignment;
    if (align < 1)
        align = 1;
    r->lights_stride = (sizeof(light_block) + align - 1) / align * align;
    TRY(eng_buffer_create(desc->ctx,
                          &(eng_buffer_desc){ .name = "deferred lights",
                                              .size = r->lights_stride * DEFERRED_SLOTS,
                                              .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                              .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT },
                          &r->lights));
    TRY_VK(static_sets(r));
    VkDescriptorPoolSize sizes[2] = {
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, TEXTURES_PER_FRAME },
        { VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, INPUTS_PER_FRAME },
    };
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = SETS_PER_FRAME,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    for (uint32_t i = 0; i < DEFERRED_SLOTS; i++)
        TRY_VK(vkCreateDescriptorPool(dev, &pi, NULL, &r->pools[i]));

    bool ms = r->samples > 1;
    r->programs[PROGRAM_GBUFFER] = (program_info){ .name = "deferred G-buffer", .frag = gbuffer_frag,
                                                   .frag_size = sizeof gbuffer_frag, .layout = r->tex1 };
    r->programs[PROGRAM_LIGHT] = (program_info){
        .name = ms ? "deferred lighting (per sample)" : "deferred lighting",
        .frag = ms ? light_ms_frag : light_frag,
        .frag_size = ms ? sizeof light_ms_frag : sizeof light_frag,
        .local_frag = ms ? light_ms_local_frag : light_local_frag,
        .local_frag_size = ms ? sizeof light_ms_local_frag : sizeof light_local_frag,
        .layout = r->gbuffer_layout,
        .local_layout = r->gbuffer_input_layout,
        .lights = true,
    };
    r->programs[PROGRAM_BRIGHT] = (program_info){ .name = "bloom bright pass", .frag = bright_frag,
                                                  .frag_size = sizeof bright_frag, .layout = r->tex1 };
    r->programs[PROGRAM_DOWN] = (program_info){ .name = "bloom downsample", .frag = down_frag,
                                                .frag_size = sizeof down_frag, .layout = r->tex1 };
    r->programs[PROGRAM_UP] = (program_info){ .name = "bloom upsample", .frag = up_frag, .frag_size = sizeof up_frag,
                                              .layout = r->tex2 };
    r->programs[PROGRAM_TONEMAP] = (program_info){ .name = "tonemap", .frag = tonemap_frag,
                                                   .frag_size = sizeof tonemap_frag, .layout = r->tex2 };
    const VkFormat gbuffer[4] = { ALBEDO_FORMAT, NORMAL_FORMAT, MATERIAL_FORMAT, DEPTH_FORMAT };
    TRY(standalone_pipeline(r, PROGRAM_GBUFFER, gbuffer, 4, ZBUFFER_FORMAT, r->samples));
    for (program p = PROGRAM_LIGHT; p <= PROGRAM_UP; p++)
        TRY(standalone_pipeline(r, p, &HDR_FORMAT, 1, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT));
    TRY(standalone_pipeline(r, PROGRAM_TONEMAP, &desc->output_format, 1, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT));
    *out = r;
    return ENG_SUCCESS;
fail:
    deferred_renderer_destroy(r);
    return res;
}

void deferred_renderer_destroy(deferred_renderer *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        eng_pipeline_destroy(r->pipelines[i].pipeline);
    free(r->pipelines);
    for (uint32_t i = 0; i < DEFERRED_SLOTS; i++)
        vkDestroyDescriptorPool(r->device, r->pools[i], NULL);
    vkDestroyDescriptorPool(r->device, r->static_pool, NULL);
    eng_buffer_destroy(r->lights);
    vkDestroyDescriptorSetLayout(r->device, r->lights_layout, NULL);
    vkDestroyDescriptorSetLayout(r->device, r->gbuffer_input_layout, NULL);
    vkDestroyDescriptorSetLayout(r->device, r->gbuffer_layout, NULL);
    vkDestroyDescriptorSetLayout(r->device, r->tex2, NULL);
    vkDestroyDescriptorSetLayout(r->device, r->tex1, NULL);
    vkDestroySampler(r->device, r->repeat, NULL);
    vkDestroySampler(r->device, r->nearest, NULL);
    vkDestroySampler(r->device, r->linear, NULL);
    free(r);
}

/* ----------------------------------------------------------- per frame */

eng_result deferred_renderer_begin_frame(deferred_renderer *r, uint32_t slot)
{
    if (slot >= DEFERRED_SLOTS || r->extent.width == 0)
        return ENG_ERROR_INVALID_ARGUMENT; /* no declaration yet */
    r->slot = slot;
    if (vkResetDescriptorPool(r->device, r->pools[slot], 0) != VK_SUCCESS)
        return ENG_ERROR_VULKAN;
    const deferred_scene *s = r->scene;
    float aspect = (float)r->extent.width / (float)r->extent.height;
    float tan_up = tanf(glm_rad(s->fov_degrees) * 0.5f);
    glm_lookat((float *)s->eye, (float *)s->center, (vec3){ 0, 1, 0 }, r->view);
    glm_perspective_rh_zo(glm_rad(s->fov_degrees), aspect, 0.1f, 100.0f, r->projection);
    /* Vulkan's framebuffer y runs down: flipping y keeps up up and keeps
     * counter-clockwise faces front-facing. */
    r->projection[1][1] *= -1.0f;

    light_block *b = (light_block *)((char *)eng_buffer_mapped(r->lights) + r->lights_stride * slot);
    light_block block = {
        .info = { (float)s->light_count, (float)r->samples, tan_up * aspect, tan_up },
        .sky = { 0.012f, 0.016f, 0.030f, 1.0f },
    };
    vec3 up, moon;
    glm_mat4_mulv3(r->view, (vec3){ 0, 1, 0 }, 0.0f, up);
    glm_vec3_normalize_to((vec3){ -0.4f, 0.8f, 0.45f }, moon);
    glm_mat4_mulv3(r->view, moon, 0.0f, moon);
    memcpy(block.up, up, sizeof up);
    block.up[3] = 0.05f;
    memcpy(block.moon, moon, sizeof moon);
    block.moon[3] = 0.35f;
    for (uint32_t i = 0; i < s->light_count; i++) {
        vec3 p;
        glm_mat4_mulv3(r->view, (float *)s->lights[i].position, 1.0f, p);
        memcpy(block.pos[i], p, sizeof p);
        block.pos[i][3] = s->lights[i].range;
        memcpy(block.color[i], s->lights[i].color, sizeof(vec3));
    }
    /* Host-coherent: written before the submission that reads it, which
     * makes it visible; the slot's previous reader has finished. */
    memcpy(b, &block, sizeof block);
    return ENG_SUCCESS;
}

static void pack_params(const deferred_material *m, uint32_t params[4])
{
    uint32_t rgba = 0, rm = 0;
    for (int c = 0; c < 3; c++)
        rgba |= (uint32_t)lroundf(fminf(fmaxf(m->albedo[c], 0.0f), 1.0f) * 255.0f) << (8 * c);
    rm = (uint32_t)lroundf(fminf(fmaxf(m->roughness, 0.0f), 1.0f) * 255.0f) |
         (uint32_t)lroundf(fminf(fmaxf(m->metal, 0.0f), 1.0f) * 255.0f) << 8;
    params[0] = rgba | 0xff000000u;
    params[1] = rm;
    memcpy(&params[2], &m->emissive, 4);
    memcpy(&params[3], &m->uv_scale, 4);
}

/* Says why a pass cannot record (on stderr: a record callback can only
 * return false, and rg_execute then reports RG_ERROR_CALLBACK). */
static bool pass_fail(const pass *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool pass_fail(const pass *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "deferred frame: %s: ", p->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

/* The pipeline for the rendering state the graph reports for this draw, and
 * how each pixel-local source is read (an input attachment where the span
 * was merged, else a sampled texture). Looked up again only when the state's
 * key changes: a compile of another declaration (or merge decision) changes
 * it. */
static bool pass_prepare(pass *p)
{
    rg_command_rendering st;
    rg_result rr = rg_command_get_rendering(p->graph, p->cmd, &st);
    if (rr != RG_SUCCESS)
        return pass_fail(p, "rg_command_get_rendering: %s: %s", rg_result_string(rr),
                         rg_graph_error_message(p->graph));
    if (p->pipeline && p->key == st.key)
        return true;
    p->pipeline = NULL;
    bool inputs = false;
    for (uint32_t i = 0; i < p->src_count; i++) {
        p->input[i] = false;
        p->layout[i] = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (!(p->pixel_local & (1u << i)))
            continue;
        rg_local_read_info lr;
        rr = rg_command_get_local_read(p->graph, p->cmd, p->src[i], &lr);
        if (rr != RG_SUCCESS)
            return pass_fail(p, "rg_command_get_local_read: %s: %s", rg_result_string(rr),
                             rg_graph_error_message(p->graph));
        /* The LOCAL_READ shaders read binding i as input_attachment_index i:
         * the graph numbers a span's pixel-local reads in declaration order,
         * and the sources are declared in binding order. */
        if (lr.input_attachment && lr.input_index != i)
            return pass_fail(p, "the graph reads source %u through input attachment index %u, the shader through %u",
                             i, lr.input_index, i);
        p->input[i] = lr.input_attachment;
        p->layout[i] = lr.layout;
        inputs = inputs || lr.input_attachment;
    }
    if (inputs != reads_inputs(&st))
        return pass_fail(p, "the graph's local reads and its rendering state disagree on input attachments");
    eng_result er = pipeline_for(p->r, p->program, &st, &p->pipeline);
    if (er != ENG_SUCCESS)
        return pass_fail(p, "%s: %s", eng_result_string(er), eng_last_error());
    const program_info *pi = &p->r->programs[p->program];
    p->set_layout = inputs ? pi->local_layout : pi->layout;
    p->key = st.key;
    return true;
}

eng_result deferred_frame_prepare(deferred_renderer *r, const rg_graph *g)
{
    for (uint32_t i = 0; i < r->pass_count; i++) {
        pass *p = &r->passes[i];
        if (p->graph != g)
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT,
                                 "deferred_frame_prepare: not the graph of the last declaration");
        if (!r->skip_draws && !pass_prepare(p))
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "deferred_frame_prepare: %s: no pipeline", p->name);
    }
    return ENG_SUCCESS;
}

static bool draw_gbuffer(const rg_record_context *rc, void *user)
{
    pass *p = user;
    deferred_renderer *r = p->r;
    if (r->skip_draws)
        return true;
    if (!pass_prepare(p))
        return false;
    const deferred_scene *s = r->scene;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(p->pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &r->ground_set, 0, NULL);
    mat4 view_projection;
    glm_mat4_mul(r->projection, r->view, view_projection);
    const deferred_mesh *bound = NULL;
    for (uint32_t i = 0; i < s->object_count; i++) {
        const deferred_object *o = &s->objects[i];
        gbuffer_push push;
        mat4 mv;
        glm_mat4_mul(view_projection, (vec4 *)o->model, push.mvp);
        glm_mat4_mul(r->view, (vec4 *)o->model, mv);
        for (int row = 0; row < 3; row++)
            for (int col = 0; col < 4; col++)
                push.model_view[row][col] = mv[col][row];
        pack_params(&o->material, push.params);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                           &push);
        if (o->mesh != bound) {
            VkBuffer vb = eng_buffer_handle(o->mesh->vertices);
            VkDeviceSize offset = 0;
            vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
            vkCmdBindIndexBuffer(cmd, eng_buffer_handle(o->mesh->indices), 0, VK_INDEX_TYPE_UINT16);
            bound = o->mesh;
        }
        vkCmdDrawIndexed(cmd, o->mesh->index_count, 1, 0, 0, 0);
    }
    return true;
}

/* A fullscreen triangle reading the pass's sources through a set made now:
 * the views exist only once the graph is placed, and change when it is
 * placed again. A source read as an input attachment gets an
 * INPUT_ATTACHMENT descriptor in the layout the graph reports
 * (RENDERING_LOCAL_READ); the others a sampled one. */
static bool draw_fullscreen(const rg_record_context *rc, void *user)
{
    pass *p = user;
    deferred_renderer *r = p->r;
    if (r->skip_draws)
        return true;
    if (!pass_prepare(p))
        return false;
    VkDescriptorSet set;
    demo_lock_take(&r->sets_lock);
    VkResult vr = alloc_set(r->device, r->pools[r->slot], p->set_layout, &set);
    demo_lock_give(&r->sets_lock);
    if (vr != VK_SUCCESS)
        return pass_fail(p, "no descriptor set left in the frame's pool");
    VkDescriptorImageInfo info[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < p->src_count; i++) {
        info[i] = (VkDescriptorImageInfo){ p->input[i] ? VK_NULL_HANDLE : p->sampler, rg_record_view(rc, p->src[i]),
                                           p->layout[i] };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = p->input[i] ? VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                                          : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &info[i],
        };
    }
    vkUpdateDescriptorSets(r->device, p->src_count, w, 0, NULL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(p->pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    if (r->programs[p->program].lights) {
        uint32_t offset = (uint32_t)(r->lights_stride * r->slot);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 1, 1, &r->lights_set, 1, &offset);
    } else {
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof p->push, p->push);
    }
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

/* ---------------------------------------------------------- declaration */

static rg_texture texture(rg_graph *g, const char *name, VkFormat format, VkExtent2D e, VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){
        .name = name, .format = format, .width = e.width, .height = e.height, .samples = samples });
}

/* The next pass of this declaration. */
static pass *new_pass(deferred_renderer *r, rg_graph *g, const char *name, program prog)
{
    if (r->pass_count == MAX_PASSES)
        return NULL; /* cannot happen: MAX_PASSES counts the longest chain */
    pass *p = &r->passes[r->pass_count++];
    *p = (pass){ .r = r, .name = name, .program = prog, .graph = g };
    return p;
}

/* One span of one fullscreen draw into `target`, its sources declared so
 * the graph orders and transitions them: bit i of pixel_local reads src[i]
 * at the fragment's own pixel (RG_USAGE_PIXEL_LOCAL_READ: merged into the
 * producer's rendering instance where the graph can), the others are
 * sampled with filtering. */
static void fullscreen_span(deferred_renderer *r, rg_graph *g, const char *name, rg_texture target, program prog,
                            const rg_texture *src, uint32_t src_count, uint32_t pixel_local, VkSampler sampler,
                            const float push[4])
{
    pass *p = new_pass(r, g, name, prog);
    if (!p)
        return;
    p->src_count = src_count;
    p->pixel_local = pixel_local;
    p->sampler = sampler;
    rg_access reads[4];
    for (uint32_t i = 0; i < src_count; i++) {
        p->src[i] = src[i];
        reads[i] = (rg_access){ .texture = src[i], .whole = true,
                                .usage = (pixel_local & (1u << i)) ? RG_USAGE_PIXEL_LOCAL_READ
                                                                   : RG_USAGE_SAMPLED_FRAGMENT };
    }
    if (push)
        memcpy(p->push, push, sizeof p->push);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 1,
    });
    p->cmd = rg_cmd_user(g, &(rg_user_desc){ .name = name, .kind = RG_COMMAND_DRAW, .accesses = reads,
                                             .access_count = src_count, .record = draw_fullscreen, .user = p });
    rg_end_rendering(g);
}

static const char *const bloom_down_names[DEFERRED_MAX_BLOOM] = { "bloom 1/2", "bloom 1/4", "bloom 1/8",
                                                                  "bloom 1/16", "bloom 1/32", "bloom 1/64" };
static const char *const bloom_up_names[DEFERRED_MAX_BLOOM - 1] = { "bloom up 1/2", "bloom up 1/4", "bloom up 1/8",
                                                                    "bloom up 1/16", "bloom up 1/32" };

void deferred_frame_declare(deferred_renderer *r, rg_graph *g, rg_texture output, VkExtent2D extent,
                            deferred_frame_textures *textures)
{
    deferred_frame_textures t_local, *t = textures ? textures : &t_local;
    *t = (deferred_frame_textures){ 0 };
    r->extent = extent;
    r->pass_count = 0;
    VkSampleCountFlagBits ms = r->samples;

    /* G-buffer: cleared, written by the scene's draws, stored for lighting.
     * The depth test's buffer is cleared and discarded in this span alone,
     * so the graph makes it transient. */
    t->albedo = texture(g, "gbuffer albedo", ALBEDO_FORMAT, extent, ms);
    t->normal = texture(g, "gbuffer normal", NORMAL_FORMAT, extent, ms);
    t->material = texture(g, "gbuffer material", MATERIAL_FORMAT, extent, ms);
    t->depth = texture(g, "gbuffer depth", DEPTH_FORMAT, extent, ms);
    t->zbuffer = texture(g, "depth buffer", ZBUFFER_FORMAT, extent, ms);
    rg_rendering_desc gb = {
        .name = "gbuffer",
        .color_count = 4,
        .depth = { .texture = t->zbuffer, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                   .clear.depthStencil = { 1.0f, 0 } },
    };
    rg_texture gtex[4] = { t->albedo, t->normal, t->material, t->depth };
    for (int i = 0; i < 4; i++)
        gb.colors[i] = (rg_attachment){ .texture = gtex[i], .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        .store = VK_ATTACHMENT_STORE_OP_STORE }; /* cleared to 0: depth 0 = sky */
    pass *scene = new_pass(r, g, "draw scene", PROGRAM_GBUFFER);
    rg_begin_rendering(g, &gb);
    rg_command draw = rg_cmd_user(g, &(rg_user_desc){ .name = "draw scene", .kind = RG_COMMAND_DRAW,
                                                      .record = draw_gbuffer, .user = scene });
    if (scene)
        scene->cmd = draw;
    rg_end_rendering(g);

    /* Lighting: the G-buffer's last use, each texel read at its own pixel.
     * Where the graph merges this span into the G-buffer's rendering
     * instance the G-buffer is read through input attachments (indices 0..3
     * in this order, as deferred_light*.frag's LOCAL_READ variants expect)
     * and never leaves tile memory on a tile GPU. */
    t->hdr = texture(g, "hdr", HDR_FORMAT, extent, VK_SAMPLE_COUNT_1_BIT);
    fullscreen_span(r, g, "lighting", t->hdr, PROGRAM_LIGHT, gtex, 4, 0xfu, r->nearest, NULL);

    /* Bloom: halve while both sides stay at least 8 texels. */
    VkExtent2D level[DEFERRED_MAX_BLOOM];
    uint32_t n = 0;
    for (VkExtent2D e = { extent.width / 2, extent.height / 2 }; n < DEFERRED_MAX_BLOOM && e.width >= 8 && e.height >= 8;
         e.width /= 2, e.height /= 2)
        level[n++] = e;
    if (n == 0) /* a tiny window: one level of at least a texel */
        level[n++] = (VkExtent2D){ extent.width > 1 ? extent.width / 2 : 1, extent.height > 1 ? extent.height / 2 : 1 };
    t->bloom_levels = n;
    memcpy(t->bloom_extent, level, n * sizeof *level);
    for (uint32_t i = 0; i < n; i++) {
        t->bloom_down[i] = texture(g, bloom_down_names[i], HDR_FORMAT, level[i], VK_SAMPLE_COUNT_1_BIT);
        rg_texture src = i ? t->bloom_down[i - 1] : t->hdr;
        VkExtent2D se = i ? level[i - 1] : extent;
        float push[4] = { 1.0f / (float)se.width, 1.0f / (float)se.height, 1.0f, 0.5f };
        fullscreen_span(r, g, i ? bloom_down_names[i] : "bloom bright pass", t->bloom_down[i],
                        i ? PROGRAM_DOWN : PROGRAM_BRIGHT, &src, 1, 0, r->linear, push);
    }
    rg_texture bloom = t->bloom_down[n - 1];
    for (uint32_t i = n - 1; i-- > 0;) {
        t->bloom_up[i] = texture(g, bloom_up_names[i], HDR_FORMAT, level[i], VK_SAMPLE_COUNT_1_BIT);
        rg_texture src[2] = { bloom, t->bloom_down[i] };
        float push[4] = { 1.0f / (float)level[i + 1].width, 1.0f / (float)level[i + 1].height, 1.0f, 0.0f };
        fullscreen_span(r, g, bloom_up_names[i], t->bloom_up[i], PROGRAM_UP, src, 2, 0, r->linear, push);
        bloom = t->bloom_up[i];
    }

    /* Tonemap into the output, the frame's last span. It reads hdr at its
     * own pixel, but the bloom chain also reads hdr and must run between the
     * two, so the graph cannot merge tonemap into lighting's instance (its
     * merge notes say so). */
    rg_texture src[2] = { t->hdr, bloom };
    float push[4] = { 1.0f, 0.12f, 0.0f, 0.0f };
    fullscreen_span(r, g, "tonemap", output, PROGRAM_TONEMAP, src, 2, 0x1u, r->linear, push);
}

/* ------------------------------------------------------------- placement */

/* The size the graph's image of this texture takes when pooled: placement
 * asks the device the same way, with the usage compile derived for it (from
 * the accesses, merging and transience) and the alias flag. */
static VkDeviceSize image_size(const deferred_renderer *r, const rg_graph *g, rg_texture t, VkFormat format,
                               VkExtent2D e, VkSampleCountFlagBits samples)
{
    rg_resource_info info;
    if (rg_texture_get_info(g, t, &info) != RG_SUCCESS)
        return 0;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = VK_IMAGE_CREATE_ALIAS_BIT,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { e.width, e.height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = info.image_usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkDeviceImageMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                          .pCreateInfo = &ci };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    vkGetDeviceImageMemoryRequirements(r->device, &q, &req);
    return req.memoryRequirements.size;
}

typedef struct range {
    bool pooled;
    uint32_t pool;
    VkDeviceSize begin, end;
} range;

static range range_of(const rg_graph *g, rg_texture t, VkDeviceSize size)
{
    range rr = { 0 };
    VkDeviceSize offset = 0;
    rr.pooled = rg_texture_memory(g, t, &offset, &rr.pool) == RG_MEMORY_POOLED;
    rr.begin = offset;
    rr.end = offset + size;
    return rr;
}

/* The pool ranges of the four G-buffer textures. */
static void gbuffer_ranges(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                           range out[4], VkDeviceSize sizes[4])
{
    const rg_texture tex[4] = { t->albedo, t->normal, t->material, t->depth };
    const VkFormat formats[4] = { ALBEDO_FORMAT, NORMAL_FORMAT, MATERIAL_FORMAT, DEPTH_FORMAT };
    for (int k = 0; k < 4; k++) {
        sizes[k] = image_size(r, g, tex[k], formats[k], r->extent, r->samples);
        out[k] = range_of(g, tex[k], sizes[k]);
    }
}

void deferred_frame_bloom_aliasing(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                                   deferred_aliasing *out)
{
    *out = (deferred_aliasing){ 0 };
    if (rg_texture_memory(g, t->hdr, NULL, NULL) == RG_MEMORY_NOT_CREATED)
        return; /* no placement yet */
    out->placed = true;
    range gbuf[4];
    VkDeviceSize gbuf_sizes[4];
    gbuffer_ranges(r, g, t, gbuf, gbuf_sizes);
    rg_texture bloom[2 * DEFERRED_MAX_BLOOM];
    VkExtent2D extents[2 * DEFERRED_MAX_BLOOM];
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->bloom_levels; i++) {
        bloom[n] = t->bloom_down[i], extents[n++] = t->bloom_extent[i];
        if (i + 1 < t->bloom_levels)
            bloom[n] = t->bloom_up[i], extents[n++] = t->bloom_extent[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        if (rg_texture_memory(g, bloom[i], NULL, NULL) == RG_MEMORY_NOT_CREATED)
            continue;
        VkDeviceSize size = image_size(r, g, bloom[i], HDR_FORMAT, extents[i], VK_SAMPLE_COUNT_1_BIT);
        range b = range_of(g, bloom[i], size);
        out->bloom_targets++;
        out->bloom_bytes += size;
        VkDeviceSize shared = 0;
        for (int k = 0; k < 4; k++) {
            if (!b.pooled || !gbuf[k].pooled || b.pool != gbuf[k].pool)
                continue;
            VkDeviceSize lo = b.begin > gbuf[k].begin ? b.begin : gbuf[k].begin;
            VkDeviceSize hi = b.end < gbuf[k].end ? b.end : gbuf[k].end;
            if (hi > lo)
                shared += hi - lo; /* G-buffer textures are live together: never overlap each other */
        }
        out->sharing += shared > 0;
        out->shared_bytes += shared;
    }
}

void deferred_frame_placement(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                              deferred_placement *out)
{
    *out = (deferred_placement){ 0 };
    if (rg_texture_memory(g, t->hdr, NULL, NULL) == RG_MEMORY_NOT_CREATED)
        return; /* no placement yet */
    out->placed = true;
    /* passes[0] is the G-buffer draw, passes[1] lighting's (declaration order). */
    rg_command_rendering scene, light;
    out->gbuffer_merged = r->pass_count > 1 && rg_command_get_rendering(g, r->passes[0].cmd, &scene) == RG_SUCCESS &&
                          rg_command_get_rendering(g, r->passes[1].cmd, &light) == RG_SUCCESS &&
                          scene.instance == light.instance;
    range gbuf[4];
    VkDeviceSize sizes[4];
    gbuffer_ranges(r, g, t, gbuf, sizes);
    for (int k = 0; k < 4; k++)
        out->gbuffer_pooled += gbuf[k].pooled ? sizes[k] : 0;
    out->totals = rg_memory_get_totals(g);
    out->traffic_known = rg_tile_traffic_get(g, RG_INDEX_NONE, &out->traffic) == RG_SUCCESS;
}
