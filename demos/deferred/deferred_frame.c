/* The deferred demo's frame as a render graph (deferred_frame.h): the
 * renderer made and destroyed, and each frame begun (deferred_renderer.h
 * names the other files). */
#include "deferred_renderer.h"
#include "demo_sampler.h"

#include <cglm/clipspace/persp_rh_zo.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    VkSamplerCreateInfo si = demo_sampler_info(filter, mode, 0.0f);
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

VkResult deferred_alloc_set(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet *out)
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
        vr = deferred_alloc_set(r->device, r->static_pool, r->tex1, &r->ground_set);
    if (vr == VK_SUCCESS)
        vr = deferred_alloc_set(r->device, r->static_pool, r->lights_layout, &r->lights_set);
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
    TRY(deferred_standalone_pipeline(r, PROGRAM_GBUFFER, gbuffer, 4, ZBUFFER_FORMAT, r->samples));
    for (program p = PROGRAM_LIGHT; p <= PROGRAM_UP; p++)
        TRY(deferred_standalone_pipeline(r, p, &HDR_FORMAT, 1, VK_FORMAT_UNDEFINED, VK_SAMPLE_COUNT_1_BIT));
    TRY(deferred_standalone_pipeline(r, PROGRAM_TONEMAP, &desc->output_format, 1, VK_FORMAT_UNDEFINED,
                                     VK_SAMPLE_COUNT_1_BIT));
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

