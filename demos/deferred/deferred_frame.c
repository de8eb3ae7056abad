/* The deferred demo's frame as a render graph (deferred_frame.h). */
#include "deferred_frame.h"

#include <cglm/clipspace/persp_rh_zo.h>

#include <math.h>
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

/* One fullscreen pass: what its record callback binds. */
typedef struct fullscreen_pass {
    deferred_renderer *r;
    const eng_pipeline *pipeline;
    VkDescriptorSetLayout layout;
    rg_texture src[4];
    uint32_t src_count;
    VkSampler sampler;
    VkExtent2D extent;
    float push[4];
    bool lights;                      /* binds the lights' uniforms as set 1 */
} fullscreen_pass;

struct deferred_renderer {
    eng_context *ctx;
    VkDevice device;
    VkFormat output_format;
    VkSampleCountFlagBits samples;
    VkSampler linear, nearest, repeat;
    VkDescriptorSetLayout tex1, tex2, gbuffer_layout, lights_layout;
    VkDescriptorPool static_pool, pools[DEFERRED_SLOTS];
    VkDescriptorSet ground_set, lights_set;
    eng_buffer *lights;               /* DEFERRED_SLOTS regions of light_block, host-visible */
    VkDeviceSize lights_stride;
    eng_pipeline *gbuffer, *light, *bright, *down, *up, *tonemap;
    const deferred_scene *scene;
    bool skip_draws;
    /* Per declaration: */
    VkExtent2D extent;
    fullscreen_pass passes[MAX_PASSES];
    uint32_t pass_count;
    /* Per frame: */
    uint32_t slot;
    mat4 view, projection;
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

static eng_result fullscreen_pipeline(deferred_renderer *r, eng_pipeline_cache *cache, const char *name,
                                      const uint32_t *frag, size_t frag_size, VkFormat format,
                                      const VkDescriptorSetLayout *layouts, uint32_t layout_count, bool push,
                                      eng_pipeline **out)
{
    eng_pipeline_desc pd = {
        .name = name,
        .vertex_spirv = fullscreen_vert,
        .vertex_size = sizeof fullscreen_vert,
        .fragment_spirv = frag,
        .fragment_size = frag_size,
        .color_formats = { format },
        .color_count = 1,
        .set_layouts = layouts,
        .set_layout_count = layout_count,
        .push_constant_size = push ? 16 : 0,
        .push_constant_stages = VK_SHADER_STAGE_FRAGMENT_BIT,
        .cache = cache,
    };
    return eng_pipeline_create(r->ctx, &pd, out);
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
    r->scene = desc->scene;
    r->skip_draws = desc->skip_draws;
    r->output_format = desc->output_format;
    r->samples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_1_BIT;
    VkDevice dev = r->device;

    TRY_VK(make_sampler(dev, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, &r->linear));
    TRY_VK(make_sampler(dev, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, &r->nearest));
    TRY_VK(make_sampler(dev, VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, &r->repeat));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, &r->tex1));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, &r->tex2));
    TRY_VK(make_layout(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4, &r->gbuffer_layout));
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
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, TEXTURES_PER_FRAME };
    VkDescriptorPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = SETS_PER_FRAME,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    for (uint32_t i = 0; i < DEFERRED_SLOTS; i++)
        TRY_VK(vkCreateDescriptorPool(dev, &pi, NULL, &r->pools[i]));

    eng_pipeline_desc gd = {
        .name = "deferred G-buffer",
        .vertex_spirv = gbuffer_vert,
        .vertex_size = sizeof gbuffer_vert,
        .fragment_spirv = gbuffer_frag,
        .fragment_size = sizeof gbuffer_frag,
        .bindings = &deferred_vertex_binding,
        .binding_count = 1,
        .attributes = deferred_vertex_attributes,
        .attribute_count = 3,
        .color_formats = { ALBEDO_FORMAT, NORMAL_FORMAT, MATERIAL_FORMAT, DEPTH_FORMAT },
        .color_count = 4,
        .depth_format = ZBUFFER_FORMAT,
        .samples = r->samples,
        .cull_mode = VK_CULL_MODE_BACK_BIT,
        .depth_test = true,
        .depth_write = true,
        .set_layouts = &r->tex1,
        .set_layout_count = 1,
        .push_constant_size = sizeof(gbuffer_push),
        .cache = desc->cache,
    };
    TRY(eng_pipeline_create(desc->ctx, &gd, &r->gbuffer));
    VkDescriptorSetLayout light_layouts[2] = { r->gbuffer_layout, r->lights_layout };
    if (r->samples > 1)
        TRY(fullscreen_pipeline(r, desc->cache, "deferred lighting (per sample)", light_ms_frag, sizeof light_ms_frag,
                                HDR_FORMAT, light_layouts, 2, false, &r->light));
    else
        TRY(fullscreen_pipeline(r, desc->cache, "deferred lighting", light_frag, sizeof light_frag, HDR_FORMAT,
                                light_layouts, 2, false, &r->light));
    TRY(fullscreen_pipeline(r, desc->cache, "bloom bright pass", bright_frag, sizeof bright_frag, HDR_FORMAT, &r->tex1,
                            1, true, &r->bright));
    TRY(fullscreen_pipeline(r, desc->cache, "bloom downsample", down_frag, sizeof down_frag, HDR_FORMAT, &r->tex1, 1,
                            true, &r->down));
    TRY(fullscreen_pipeline(r, desc->cache, "bloom upsample", up_frag, sizeof up_frag, HDR_FORMAT, &r->tex2, 2, true,
                            &r->up));
    TRY(fullscreen_pipeline(r, desc->cache, "tonemap", tonemap_frag, sizeof tonemap_frag, desc->output_format,
                            &r->tex2, 2, true, &r->tonemap));
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
    eng_pipeline_destroy(r->tonemap);
    eng_pipeline_destroy(r->up);
    eng_pipeline_destroy(r->down);
    eng_pipeline_destroy(r->bright);
    eng_pipeline_destroy(r->light);
    eng_pipeline_destroy(r->gbuffer);
    for (uint32_t i = 0; i < DEFERRED_SLOTS; i++)
        vkDestroyDescriptorPool(r->device, r->pools[i], NULL);
    vkDestroyDescriptorPool(r->device, r->static_pool, NULL);
    eng_buffer_destroy(r->lights);
    vkDestroyDescriptorSetLayout(r->device, r->lights_layout, NULL);
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

static bool draw_gbuffer(const rg_record_context *rc, void *user)
{
    deferred_renderer *r = user;
    if (r->skip_draws)
        return true;
    const deferred_scene *s = r->scene;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(r->gbuffer);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(r->gbuffer));
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
 * placed again. */
static bool draw_fullscreen(const rg_record_context *rc, void *user)
{
    fullscreen_pass *p = user;
    deferred_renderer *r = p->r;
    if (r->skip_draws)
        return true;
    VkDescriptorSet set;
    if (alloc_set(r->device, r->pools[r->slot], p->layout, &set) != VK_SUCCESS)
        return false;
    VkDescriptorImageInfo info[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < p->src_count; i++) {
        info[i] = (VkDescriptorImageInfo){ p->sampler, rg_record_view(rc, p->src[i]),
                                           VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &info[i],
        };
    }
    vkUpdateDescriptorSets(r->device, p->src_count, w, 0, NULL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(p->pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    if (p->lights) {
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

/* One span of one fullscreen draw into `target`, its sources read as
 * sampled textures (declared, so the graph orders and transitions them). */
static void fullscreen_span(deferred_renderer *r, rg_graph *g, const char *name, rg_texture target,
                            const eng_pipeline *pipeline, VkDescriptorSetLayout layout, const rg_texture *src,
                            uint32_t src_count, VkSampler sampler, VkExtent2D extent, const float push[4])
{
    if (r->pass_count == MAX_PASSES)
        return; /* cannot happen: MAX_PASSES counts the longest chain */
    fullscreen_pass *p = &r->passes[r->pass_count++];
    *p = (fullscreen_pass){ .r = r, .pipeline = pipeline, .layout = layout, .src_count = src_count,
                            .sampler = sampler, .extent = extent, .lights = push == NULL };
    rg_access reads[4];
    for (uint32_t i = 0; i < src_count; i++) {
        p->src[i] = src[i];
        reads[i] = (rg_access){ .texture = src[i], .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    }
    if (push)
        memcpy(p->push, push, sizeof p->push);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 1,
    });
    rg_cmd_user(g, &(rg_user_desc){ .name = name, .kind = RG_COMMAND_DRAW, .accesses = reads,
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
    rg_begin_rendering(g, &gb);
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw scene", .kind = RG_COMMAND_DRAW, .record = draw_gbuffer, .user = r });
    rg_end_rendering(g);

    /* Lighting: the G-buffer's last use. */
    t->hdr = texture(g, "hdr", HDR_FORMAT, extent, VK_SAMPLE_COUNT_1_BIT);
    fullscreen_span(r, g, "lighting", t->hdr, r->light, r->gbuffer_layout, gtex, 4, r->nearest, extent, NULL);

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
        fullscreen_span(r, g, i ? bloom_down_names[i] : "bloom bright pass", t->bloom_down[i], i ? r->down : r->bright,
                        r->tex1, &src, 1, r->linear, level[i], push);
    }
    rg_texture bloom = t->bloom_down[n - 1];
    for (uint32_t i = n - 1; i-- > 0;) {
        t->bloom_up[i] = texture(g, bloom_up_names[i], HDR_FORMAT, level[i], VK_SAMPLE_COUNT_1_BIT);
        rg_texture src[2] = { bloom, t->bloom_down[i] };
        float push[4] = { 1.0f / (float)level[i + 1].width, 1.0f / (float)level[i + 1].height, 1.0f, 0.0f };
        fullscreen_span(r, g, bloom_up_names[i], t->bloom_up[i], r->up, r->tex2, src, 2, r->linear, level[i], push);
        bloom = t->bloom_up[i];
    }

    /* Tonemap into the output, the frame's last span. */
    rg_texture src[2] = { t->hdr, bloom };
    float push[4] = { 1.0f, 0.12f, 0.0f, 0.0f };
    fullscreen_span(r, g, "tonemap", output, r->tonemap, r->tex2, src, 2, r->linear, extent, push);
}

/* ------------------------------------------------------------- aliasing */

/* The size the graph's image of this texture takes (placement asks the
 * device the same way, with the same usage and alias flag). */
static VkDeviceSize image_size(VkDevice dev, VkFormat format, VkExtent2D e, VkSampleCountFlagBits samples,
                               VkImageUsageFlags usage)
{
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
        .usage = usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkDeviceImageMemoryRequirements q = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, .pCreateInfo = &ci };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    vkGetDeviceImageMemoryRequirements(dev, &q, &req);
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

void deferred_frame_bloom_aliasing(const deferred_renderer *r, const rg_graph *g, const deferred_frame_textures *t,
                                   deferred_aliasing *out)
{
    *out = (deferred_aliasing){ 0 };
    if (rg_texture_memory(g, t->hdr, NULL, NULL) == RG_MEMORY_NOT_CREATED)
        return; /* no placement yet */
    out->placed = true;
    const VkImageUsageFlags color = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkExtent2D e = r->extent;
    range gbuf[4] = {
        range_of(g, t->albedo, image_size(r->device, ALBEDO_FORMAT, e, r->samples, color)),
        range_of(g, t->normal, image_size(r->device, NORMAL_FORMAT, e, r->samples, color)),
        range_of(g, t->material, image_size(r->device, MATERIAL_FORMAT, e, r->samples, color)),
        range_of(g, t->depth, image_size(r->device, DEPTH_FORMAT, e, r->samples, color)),
    };
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
        VkDeviceSize size = image_size(r->device, HDR_FORMAT, extents[i], VK_SAMPLE_COUNT_1_BIT, color);
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
