/* The overlap frame for gpu_frame --frame overlap (overlap_frame.h): shadow
 * cascades on the graphics queue beside an ambient-occlusion dispatch that
 * may run on the compute queue, then a composite dispatch on the graphics
 * queue that reads both. */
#include "overlap_frame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t shadow_vert[] =
#include "overlap_shadow.vert.inc"
    ;
static const uint32_t composite_comp[] =
#include "overlap_composite.comp.inc"
    ;
static const uint32_t ao_comp[] =
#include "overlap_ao.comp.inc"
    ;

static const VkFormat SHADOW_FORMAT = VK_FORMAT_D32_SFLOAT;
static const VkFormat AO_FORMAT = VK_FORMAT_R32_SFLOAT; /* storage support is mandatory */
static const VkFormat OUTPUT_FORMAT = VK_FORMAT_R8G8B8A8_UNORM;

/* The largest grid: 100 M indices (400 MB), 33.5 M triangles a cascade. */
#define MAX_GRID 4096u
/* Descriptor sets of one frame: the AO pass's and the composite's, with
 * room for a frame recorded again after a failure. */
#define SETS_PER_FRAME 8

/* The push constants of overlap_shadow.vert and overlap_composite.comp
 * (80 bytes each): the light's basis and the cascades. */
typedef struct shadow_push {
    float right[4], up[4], dir[4], cascade[4];
    uint32_t params[4];
} shadow_push;
typedef struct composite_push {
    float right[4], up[4], dir[4], sizes[4];
    uint32_t params[4];
} composite_push;
typedef struct ao_push {
    uint32_t params[4];
} ao_push;

struct overlap_frame {
    eng_context *ctx;
    VkDevice dev;
    overlap_frame_info info;
    eng_pipeline *shadow;
    eng_buffer *indices;              /* the terrain grid's triangles */
    VkDescriptorSetLayout ao_set_layout, composite_set_layout;
    VkPipelineLayout ao_layout, composite_layout;
    VkPipeline ao, composite;
    VkSampler sampler;
    VkDescriptorPool pool;
    /* The sun: light space axes, its direction of travel (w: half the depth
     * range), the cascades' half sizes. */
    float right[4], up[4], dir[4], sizes[4];
};

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] /= l;
}

/* An orthographic light basis: dir is the sun's direction of travel, right
 * and up span the shadow map's plane. The terrain lies within 1.46 of the
 * origin, so a depth half range of 1.5 holds it and the largest cascade
 * (half size 1.5) sees all of it; each smaller one halves that around the
 * origin, the middle of the picture. */
static void light_setup(overlap_frame *f)
{
    float d[3] = { 0.55f, -0.52f, 0.65f };
    normalize3(d);
    float r[3] = { -d[2], 0.0f, d[0] }; /* dir x (0,1,0) */
    normalize3(r);
    float u[3] = { r[1] * d[2] - r[2] * d[1], r[2] * d[0] - r[0] * d[2], r[0] * d[1] - r[1] * d[0] };
    for (int i = 0; i < 3; i++) {
        f->dir[i] = d[i];
        f->right[i] = r[i];
        f->up[i] = u[i];
    }
    f->dir[3] = 1.5f;
    for (int i = 0; i < OVERLAP_CASCADES; i++)
        f->sizes[i] = 1.5f / (float)(1u << (OVERLAP_CASCADES - 1 - i));
}

static eng_result vk_fail(VkResult vr, const char *what)
{
    return eng_set_error(ENG_ERROR_VULKAN, "overlap frame: %s: %s", what, eng_vk_result_string(vr));
}

/* Binding i of the compute stage holds one descriptor of types[i]. */
static eng_result make_set_layout(VkDevice dev, const VkDescriptorType *types, uint32_t count,
                                  VkDescriptorSetLayout *out)
{
    VkDescriptorSetLayoutBinding b[3];
    for (uint32_t i = 0; i < count; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ .binding = i, .descriptorType = types[i], .descriptorCount = 1,
                                               .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = count, .pBindings = b };
    VkResult vr = vkCreateDescriptorSetLayout(dev, &li, NULL, out);
    return vr == VK_SUCCESS ? ENG_SUCCESS : vk_fail(vr, "descriptor set layout");
}

/* A compute pipeline and its layout (the engine builds graphics ones only):
 * one set, push constants of push_size bytes. */
static eng_result make_compute_pipeline(overlap_frame *f, const char *name, const uint32_t *code, size_t code_size,
                                        VkDescriptorSetLayout set_layout, uint32_t push_size,
                                        VkPipelineLayout *layout, VkPipeline *out)
{
    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
    VkPipelineLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                      .pSetLayouts = &set_layout, .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range };
    VkResult vr = vkCreatePipelineLayout(f->dev, &li, NULL, layout);
    if (vr != VK_SUCCESS)
        return vk_fail(vr, name);
    VkShaderModuleCreateInfo mi = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = code_size,
                                    .pCode = code };
    VkShaderModule module;
    vr = vkCreateShaderModule(f->dev, &mi, NULL, &module);
    if (vr != VK_SUCCESS)
        return vk_fail(vr, name);
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = *layout,
    };
    vr = vkCreateComputePipelines(f->dev, VK_NULL_HANDLE, 1, &ci, NULL, out);
    vkDestroyShaderModule(f->dev, module, NULL);
    return vr == VK_SUCCESS ? ENG_SUCCESS : vk_fail(vr, name);
}

/* The grid's triangles, 6 indices a quad, quads row by row (neighbours
 * share vertices in the post-transform cache); vertex z * (grid + 1) + x
 * is the grid's point (x, z), as overlap_shadow.vert reads it. */
static eng_result make_indices(overlap_frame *f)
{
    uint32_t g = f->info.grid, row = g + 1;
    size_t count = (size_t)6 * g * g;
    uint32_t *idx = malloc(count * sizeof *idx);
    if (!idx)
        return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "overlap frame: no memory for %zu indices", count);
    uint32_t *p = idx;
    for (uint32_t z = 0; z < g; z++)
        for (uint32_t x = 0; x < g; x++) {
            uint32_t v00 = z * row + x, v10 = v00 + 1, v01 = v00 + row, v11 = v01 + 1;
            *p++ = v00, *p++ = v01, *p++ = v10;
            *p++ = v10, *p++ = v01, *p++ = v11;
        }
    eng_result r = eng_buffer_create_with_data(f->ctx, "overlap terrain indices", VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                               idx, count * sizeof *idx, &f->indices);
    free(idx);
    return r;
}

#define TRY(expr)                                                                                                     \
    do {                                                                                                              \
        eng_result try_res_ = (expr);                                                                                 \
        if (try_res_ != ENG_SUCCESS) {                                                                                \
            overlap_frame_destroy(f);                                                                                 \
            return try_res_;                                                                                          \
        }                                                                                                             \
    } while (0)

eng_result overlap_frame_create(const overlap_frame_desc *desc, overlap_frame **out)
{
    *out = NULL;
    if (!desc || !desc->ctx || !desc->extent.width || !desc->extent.height)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "overlap frame: a context and an extent are required");
    overlap_frame *f = calloc(1, sizeof *f);
    if (!f)
        return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "overlap frame: no memory");
    f->ctx = desc->ctx;
    f->dev = eng_context_device(desc->ctx);
    /* Defaults resolved once here; the grid is the square nearest the
     * asked-for triangle count (two triangles a quad). */
    uint64_t tris = desc->shadow_triangles ? desc->shadow_triangles : 8192u;
    uint32_t grid = (uint32_t)lround(sqrt((double)tris / 2.0));
    grid = grid < 1 ? 1 : grid > MAX_GRID ? MAX_GRID : grid;
    f->info = (overlap_frame_info){ .extent = desc->extent,
                                    .shadow_size = desc->shadow_size ? desc->shadow_size : 2048,
                                    .grid = grid,
                                    .shadow_triangles = 2ull * grid * grid,
                                    .shadow_layers = desc->shadow_layers ? desc->shadow_layers : 1,
                                    .ao_iterations = desc->ao_iterations };
    light_setup(f);

    TRY(eng_image_create(f->ctx,
                         &(eng_image_desc){ .name = "overlap output", .format = OUTPUT_FORMAT,
                                            .width = desc->extent.width, .height = desc->extent.height,
                                            .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT },
                         &f->info.output));
    TRY(make_indices(f));
    const VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    const VkDescriptorType composite_types[3] = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                  VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, storage };
    TRY(make_set_layout(f->dev, &storage, 1, &f->ao_set_layout));
    TRY(make_set_layout(f->dev, composite_types, 3, &f->composite_set_layout));
    TRY(make_compute_pipeline(f, "AO pipeline", ao_comp, sizeof ao_comp, f->ao_set_layout, sizeof(ao_push),
                              &f->ao_layout, &f->ao));
    TRY(make_compute_pipeline(f, "composite pipeline", composite_comp, sizeof composite_comp,
                              f->composite_set_layout, sizeof(composite_push), &f->composite_layout,
                              &f->composite));
    TRY(eng_pipeline_create(f->ctx,
                            &(eng_pipeline_desc){ .name = "overlap shadow", .vertex_spirv = shadow_vert,
                                                  .vertex_size = sizeof shadow_vert, .depth_format = SHADOW_FORMAT,
                                                  .depth_test = true, .depth_write = true,
                                                  .push_constant_size = sizeof(shadow_push),
                                                  .push_constant_stages = VK_SHADER_STAGE_VERTEX_BIT },
                            &f->shadow));
    /* Every read is a texelFetch: the sampler only completes the
     * descriptor. */
    VkSamplerCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                               .magFilter = VK_FILTER_NEAREST, .minFilter = VK_FILTER_NEAREST,
                               .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                               .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                               .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE };
    VkResult vr = vkCreateSampler(f->dev, &si, NULL, &f->sampler);
    if (vr != VK_SUCCESS)
        TRY(vk_fail(vr, "sampler"));
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2 * SETS_PER_FRAME },
                                      { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * SETS_PER_FRAME } };
    VkDescriptorPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = SETS_PER_FRAME, .poolSizeCount = 2, .pPoolSizes = sizes };
    vr = vkCreateDescriptorPool(f->dev, &pi, NULL, &f->pool);
    if (vr != VK_SUCCESS)
        TRY(vk_fail(vr, "descriptor pool"));
    *out = f;
    return ENG_SUCCESS;
}

void overlap_frame_destroy(overlap_frame *f)
{
    if (!f)
        return;
    vkDestroyDescriptorPool(f->dev, f->pool, NULL);
    vkDestroySampler(f->dev, f->sampler, NULL);
    eng_pipeline_destroy(f->shadow);
    vkDestroyPipeline(f->dev, f->composite, NULL);
    vkDestroyPipelineLayout(f->dev, f->composite_layout, NULL);
    vkDestroyPipeline(f->dev, f->ao, NULL);
    vkDestroyPipelineLayout(f->dev, f->ao_layout, NULL);
    vkDestroyDescriptorSetLayout(f->dev, f->composite_set_layout, NULL);
    vkDestroyDescriptorSetLayout(f->dev, f->ao_set_layout, NULL);
    eng_buffer_destroy(f->indices);
    eng_image_destroy(f->info.output);
    free(f);
}

overlap_frame_info overlap_frame_get_info(const overlap_frame *f)
{
    return f->info;
}

eng_result overlap_frame_begin(overlap_frame *f)
{
    VkResult vr = vkResetDescriptorPool(f->dev, f->pool, 0);
    return vr == VK_SUCCESS ? ENG_SUCCESS : vk_fail(vr, "descriptor pool reset");
}

/* --------------------------------------------------------------- record */

/* A set of `layout` from the frame's pool with image i of `views` at
 * binding i as a types[i] descriptor, in the layout the graph gives it for
 * the command's declared usage usages[i]. */
static bool make_set(overlap_frame *f, VkDescriptorSetLayout layout, const VkDescriptorType *types,
                     const VkImageView *views, const rg_usage *usages, uint32_t count, VkDescriptorSet *out)
{
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = f->pool, .descriptorSetCount = 1, .pSetLayouts = &layout };
    if (vkAllocateDescriptorSets(f->dev, &ai, out) != VK_SUCCESS)
        return false;
    VkDescriptorImageInfo info[3];
    VkWriteDescriptorSet w[3];
    for (uint32_t i = 0; i < count; i++) {
        info[i] = (VkDescriptorImageInfo){ f->sampler, views[i], rg_usage_get_info(usages[i])->layout };
        w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = *out,
                                       .dstBinding = i, .descriptorCount = 1, .descriptorType = types[i],
                                       .pImageInfo = &info[i] };
    }
    vkUpdateDescriptorSets(f->dev, count, w, 0, NULL);
    return true;
}

/* One cascade: the whole terrain grid, one indexed draw of shadow_layers
 * instances. Layers lie LAYER_STEP apart in depth (of the map's 0..1, a
 * third of a thousandth of a world unit), so each passes the depth test
 * over the one before. */
#define LAYER_STEP 1e-4f
static bool draw_shadow(const rg_record_context *rc, void *user)
{
    const overlap_cascade *c = user;
    const overlap_frame *f = c->decl->frame;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    shadow_push push = { .cascade = { f->sizes[c->index], LAYER_STEP },
                         .params = { f->info.grid, f->info.shadow_layers } };
    memcpy(push.right, f->right, sizeof push.right);
    memcpy(push.up, f->up, sizeof push.up);
    memcpy(push.dir, f->dir, sizeof push.dir);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(f->shadow));
    vkCmdPushConstants(cmd, eng_pipeline_layout(f->shadow), VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, &push);
    vkCmdBindIndexBuffer(cmd, eng_buffer_handle(f->indices), 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, 6u * f->info.grid * f->info.grid, f->info.shadow_layers, 0, 0, 0);
    return true;
}

/* The AO image, 8x8 pixels a workgroup. Recorded into whichever queue's
 * command buffer the graph chose (rg_record_cmd). */
static bool dispatch_ao(const rg_record_context *rc, void *user)
{
    overlap_decl *d = user;
    overlap_frame *f = d->frame;
    VkImageView view = rg_record_view(rc, d->ao);
    const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    const rg_usage usage = RG_USAGE_STORAGE_WRITE_COMPUTE;
    VkDescriptorSet set;
    if (!make_set(f, f->ao_set_layout, &type, &view, &usage, 1, &set))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkExtent2D e = f->info.extent;
    ao_push push = { .params = { f->info.ao_iterations, e.width, e.height } };
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->ao);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->ao_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, f->ao_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, (e.width + 7) / 8, (e.height + 7) / 8, 1);
    return true;
}

/* The composite, 8x8 pixels a workgroup, on the graphics queue. */
static bool dispatch_composite(const rg_record_context *rc, void *user)
{
    overlap_decl *d = user;
    overlap_frame *f = d->frame;
    VkImageView views[3] = { rg_record_view(rc, d->shadow), rg_record_view(rc, d->ao), rg_record_view(rc, d->output) };
    const VkDescriptorType types[3] = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE };
    const rg_usage usages[3] = { RG_USAGE_SAMPLED_COMPUTE, RG_USAGE_SAMPLED_COMPUTE, RG_USAGE_STORAGE_WRITE_COMPUTE };
    VkDescriptorSet set;
    if (!make_set(f, f->composite_set_layout, types, views, usages, 3, &set))
        return false;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkExtent2D e = f->info.extent;
    composite_push push = { .params = { e.width, e.height, f->info.grid } };
    memcpy(push.right, f->right, sizeof push.right);
    memcpy(push.up, f->up, sizeof push.up);
    memcpy(push.dir, f->dir, sizeof push.dir);
    memcpy(push.sizes, f->sizes, sizeof push.sizes);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->composite);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->composite_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, f->composite_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, (e.width + 7) / 8, (e.height + 7) / 8, 1);
    return true;
}

/* ---------------------------------------------------------- declaration */

void overlap_frame_declare(overlap_frame *f, rg_graph *g, overlap_decl *d)
{
    static const char *const cascade_names[OVERLAP_CASCADES] = { "shadow cascade 0", "shadow cascade 1",
                                                                 "shadow cascade 2", "shadow cascade 3" };
    memset(d, 0, sizeof *d);
    d->frame = f;
    const eng_image_info *oi = eng_image_get_info(f->info.output);
    VkExtent2D e = f->info.extent;
    d->output = rg_texture_import(
        g, &(rg_texture_import_desc){ .name = "output", .image = oi->image, .view = oi->view, .format = oi->format,
                                      .width = e.width, .height = e.height,
                                      .initial_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                      .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                      .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                                      .final_access = VK_ACCESS_2_TRANSFER_READ_BIT });
    d->shadow = rg_texture_create(g, &(rg_texture_desc){ .name = "shadow cascades", .format = SHADOW_FORMAT,
                                                         .width = f->info.shadow_size,
                                                         .height = f->info.shadow_size,
                                                         .array_layers = OVERLAP_CASCADES });
    d->ao = rg_texture_create(g, &(rg_texture_desc){ .name = "ambient occlusion", .format = AO_FORMAT,
                                                     .width = e.width, .height = e.height });

    /* Graphics: one span per cascade, each clearing and drawing its layer. */
    for (uint32_t i = 0; i < OVERLAP_CASCADES; i++) {
        d->cascades[i] = (overlap_cascade){ d, i };
        rg_begin_rendering(g, &(rg_rendering_desc){
                                  .name = cascade_names[i],
                                  .depth = { .texture = d->shadow, .base_layer = i, .layer_count = 1,
                                             .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                             .store = VK_ATTACHMENT_STORE_OP_STORE,
                                             .clear = { .depthStencil = { .depth = 1.0f } } } });
        rg_cmd_user(g, &(rg_user_desc){ .name = cascade_names[i], .kind = RG_COMMAND_DRAW, .record = draw_shadow,
                                        .user = &d->cascades[i] });
        rg_end_rendering(g);
    }

    /* Async compute where the device has the queue: it needs nothing the
     * shadow passes write, so only the composite waits for it. */
    d->ao_pass = rg_cmd_user(g, &(rg_user_desc){
                                    .name = "ambient occlusion",
                                    .kind = RG_COMMAND_OUTSIDE,
                                    .accesses = &(rg_access){ .texture = d->ao,
                                                              .usage = RG_USAGE_STORAGE_WRITE_COMPUTE,
                                                              .whole = true },
                                    .access_count = 1,
                                    .record = dispatch_ao,
                                    .user = d,
                                    .queue = RG_QUEUE_COMPUTE });

    /* Graphics only: it writes the import. A dispatch rather than a
     * fullscreen draw: on the H200 the graphics pipeline's shaders run on a
     * few SMs (the draw took about 3 ms at 1080p, after both halves),
     * compute on all of them. */
    rg_access accesses[3] = { { .texture = d->shadow, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true },
                              { .texture = d->ao, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true },
                              { .texture = d->output, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true } };
    rg_cmd_user(g, &(rg_user_desc){ .name = "composite", .kind = RG_COMMAND_OUTSIDE, .accesses = accesses,
                                    .access_count = 3, .record = dispatch_composite, .user = d });
}
