/* Graphics pipelines for dynamic rendering and compute pipelines (SPIR-V
 * loading is spirv.c's, the pipeline cache pipeline_cache.c's). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ pipelines */

#define ENG__MAX_DYNAMIC 16

/* An attachment's blend: its own, else alpha_blend's ALPHA. */
static eng_blend blend_of(const eng_pipeline_desc *d, uint32_t i)
{
    return d->blend[i] != ENG_BLEND_OPAQUE ? d->blend[i] : d->alpha_blend ? ENG_BLEND_ALPHA : ENG_BLEND_OPAQUE;
}

/* The Vulkan blend state of an eng_blend. */
static VkPipelineColorBlendAttachmentState blend_state(eng_blend b)
{
    static const VkBlendFactor src[ENG_BLEND_COUNT] = {
        [ENG_BLEND_OPAQUE] = VK_BLEND_FACTOR_ONE,
        [ENG_BLEND_ALPHA] = VK_BLEND_FACTOR_SRC_ALPHA,
        [ENG_BLEND_PREMULTIPLIED] = VK_BLEND_FACTOR_ONE,
        [ENG_BLEND_ADDITIVE] = VK_BLEND_FACTOR_ONE,
        [ENG_BLEND_MULTIPLY] = VK_BLEND_FACTOR_DST_COLOR,
    };
    static const VkBlendFactor dst[ENG_BLEND_COUNT] = {
        [ENG_BLEND_OPAQUE] = VK_BLEND_FACTOR_ZERO,
        [ENG_BLEND_ALPHA] = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
        [ENG_BLEND_PREMULTIPLIED] = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
        [ENG_BLEND_ADDITIVE] = VK_BLEND_FACTOR_ONE,
        [ENG_BLEND_MULTIPLY] = VK_BLEND_FACTOR_ZERO,
    };
    return (VkPipelineColorBlendAttachmentState){
        .blendEnable = b != ENG_BLEND_OPAQUE,
        .srcColorBlendFactor = src[b],
        .dstColorBlendFactor = dst[b],
        .colorBlendOp = VK_BLEND_OP_ADD,
        /* Alpha: over composites alpha as src.a + dst.a * (1 - src.a). */
        .srcAlphaBlendFactor = b == ENG_BLEND_ALPHA ? VK_BLEND_FACTOR_ONE
                               : b == ENG_BLEND_MULTIPLY ? VK_BLEND_FACTOR_DST_ALPHA
                                                         : src[b],
        .dstAlphaBlendFactor = dst[b],
        .alphaBlendOp = VK_BLEND_OP_ADD,
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                          VK_COLOR_COMPONENT_A_BIT,
    };
}

/* A push-constant block the device takes: a multiple of 4 bytes, within
 * maxPushConstantsSize. */
static eng_result check_push_size(const eng_context *ctx, const char *name, uint32_t size)
{
    uint32_t max = eng_context_properties(ctx)->limits.maxPushConstantsSize;
    if (size > max || size % 4 != 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': push constant size %u (multiple of 4, max %u)",
                         name, size, max);
    return ENG_SUCCESS;
}

/* p's layout: the push-descriptor set (push_descriptors.c) as set 0 when
 * there is one, then the set layouts, and one push-constant range for
 * stages. */
static eng_result make_layout(eng_pipeline *p, const VkDescriptorType *push_types, uint32_t push_count,
                              const VkDescriptorSetLayout *sets, uint32_t set_count, uint32_t push_size,
                              VkShaderStageFlags stages)
{
    if (set_count > 31)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': %u set layouts (31 at most)", p->name,
                         set_count);
    eng_result res = eng__push_set_layout(p, push_types, push_count);
    if (res != ENG_SUCCESS)
        return res;
    VkDescriptorSetLayout all[32];
    uint32_t n = 0;
    if (p->push_set)
        all[n++] = p->push_set;
    for (uint32_t i = 0; i < set_count; i++)
        all[n++] = sets[i];
    VkPushConstantRange push = { .stageFlags = stages, .size = push_size };
    VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = n,
        .pSetLayouts = all,
        .pushConstantRangeCount = push_size ? 1 : 0,
        .pPushConstantRanges = &push,
    };
    const eng__vk *vk = eng__vk_of(p->ctx);
    ENG_VK_CHECK(vk->CreatePipelineLayout(eng_context_device(p->ctx), &lci, vk->allocator, &p->layout));
    return ENG_SUCCESS;
}

static eng_result make_module(eng_context *ctx, const char *name, const char *stage, const uint32_t *code,
                              size_t size, VkShaderModule *out)
{
    if (size == 0 || size % 4 != 0 || code[0] != 0x07230203u)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': %s shader is not SPIR-V (%llu bytes)", name,
                         stage, (unsigned long long)size);
    VkShaderModuleCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    const eng__vk *vk = eng__vk_of(ctx);
    ENG_VK_CHECK(vk->CreateShaderModule(eng_context_device(ctx), &ci, vk->allocator, out));
    return ENG_SUCCESS;
}

/* The local-read mapping: what the context can do, then the rules of
 * VkRenderingAttachmentLocationInfo and VkRenderingInputAttachmentIndexInfo
 * (locations distinct and below maxColorAttachments; input indices
 * distinct, a color's never the depth's or the stencil's). */
static eng_result check_local_read(eng_context *ctx, const eng_pipeline_desc *d, const char *name,
                                   VkSampleCountFlagBits samples)
{
    eng_local_read lr = eng_context_local_read(ctx);
    if (!lr.supported)
        return eng__fail(ENG_ERROR_UNSUPPORTED,
                         "pipeline '%s': local_read needs %s with its dynamicRenderingLocalRead feature, which the "
                         "context did not enable (not offered by the device, or eng_context_desc.no_local_read)",
                         name, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME);
    const uint32_t unused = VK_ATTACHMENT_UNUSED;
    bool has_depth = rg_format_has_depth(d->depth_format);
    bool has_stencil = rg_format_has_stencil(d->depth_format);
    if (d->depth_input_index != unused && !has_depth)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "pipeline '%s': depth_input_index %u without a depth attachment (VK_ATTACHMENT_UNUSED: "
                         "not read)", name, d->depth_input_index);
    if (d->stencil_input_index != unused && !has_stencil)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "pipeline '%s': stencil_input_index %u without a stencil attachment (VK_ATTACHMENT_UNUSED: "
                         "not read)", name, d->stencil_input_index);
    bool reads_color = false;
    for (uint32_t i = 0; i < d->color_count; i++) {
        uint32_t loc = d->color_locations[i], in = d->color_input_indices[i];
        if (loc != unused && loc >= lr.max_color_attachments)
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                             "pipeline '%s': color attachment %u: location %u (maxColorAttachments %u)", name, i,
                             loc, lr.max_color_attachments);
        if (in != unused && (in == d->depth_input_index || in == d->stencil_input_index))
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                             "pipeline '%s': color attachment %u: input index %u is also the depth or stencil one",
                             name, i, in);
        for (uint32_t j = 0; j < i; j++) {
            if (loc != unused && d->color_locations[j] == loc)
                return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                                 "pipeline '%s': color attachments %u and %u both at location %u", name, j, i, loc);
            if (in != unused && d->color_input_indices[j] == in)
                return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                                 "pipeline '%s': color attachments %u and %u both at input index %u", name, j, i, in);
        }
        reads_color = reads_color || in != unused;
    }
    bool reads_depth_stencil = d->depth_input_index != unused || d->stencil_input_index != unused;
    if (reads_depth_stencil && !lr.depth_stencil)
        return eng__fail(ENG_ERROR_UNSUPPORTED,
                         "pipeline '%s': reads depth/stencil as an input attachment, but the device's local read "
                         "does not cover depth/stencil attachments", name);
    if ((reads_color || reads_depth_stencil) && samples != VK_SAMPLE_COUNT_1_BIT && !lr.multisampled)
        return eng__fail(ENG_ERROR_UNSUPPORTED,
                         "pipeline '%s': reads %ux multisampled attachments, but the device's local read does not "
                         "cover multisampled attachments", name, (unsigned)samples);
    return ENG_SUCCESS;
}

static eng_result check_pipeline_desc(eng_context *ctx, const eng_pipeline_desc *d, const char *name,
                                      VkSampleCountFlagBits samples)
{
    if (!d->vertex_spirv)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': no vertex shader", name);
    if (d->color_count > ENG_MAX_COLOR_ATTACHMENTS)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': %u color attachments (max %d)", name,
                         d->color_count, ENG_MAX_COLOR_ATTACHMENTS);
    if (d->color_count == 0 && d->depth_format == VK_FORMAT_UNDEFINED)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': no color or depth attachment", name);
    if ((d->depth_test || d->depth_write) && d->depth_format == VK_FORMAT_UNDEFINED)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': depth test without a depth format", name);
    if (d->depth_format != VK_FORMAT_UNDEFINED && !rg_format_has_depth(d->depth_format) &&
        !rg_format_has_stencil(d->depth_format))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': VkFormat %d is not a depth format", name,
                         (int)d->depth_format);
    if ((d->binding_count && !d->bindings) || (d->attribute_count && !d->attributes) ||
        (d->set_layout_count && !d->set_layouts))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': a count without its array", name);
    const VkPhysicalDeviceLimits *lim = &eng_context_properties(ctx)->limits;
    if (samples == 0 || (samples & (samples - 1)) != 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': sample count %u is not a power of two", name,
                         (unsigned)samples);
    VkSampleCountFlags ok = VK_SAMPLE_COUNT_FLAG_BITS_MAX_ENUM;
    if (d->color_count)
        ok &= lim->framebufferColorSampleCounts;
    if (d->depth_format != VK_FORMAT_UNDEFINED)
        ok &= lim->framebufferDepthSampleCounts;
    if (!(ok & samples))
        return eng__fail(ENG_ERROR_UNSUPPORTED, "pipeline '%s': %ux MSAA is not supported by the device (sample "
                         "counts %s)", name, (unsigned)samples, ENG__SAMPLE_COUNTS(ok));
    for (uint32_t i = 0; i < d->color_count; i++) {
        VkFormatProperties fp;
        eng__vk_of(ctx)->GetPhysicalDeviceFormatProperties(eng_context_physical_device(ctx), d->color_formats[i], &fp);
        if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
            return eng__fail(ENG_ERROR_UNSUPPORTED,
                             "pipeline '%s': color attachment %u: VkFormat %d cannot be rendered to", name, i,
                             (int)d->color_formats[i]);
        if ((unsigned)d->blend[i] >= ENG_BLEND_COUNT)
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                             "pipeline '%s': color attachment %u: blend %d is not an "
                             "eng_blend",
                             name, i, (int)d->blend[i]);
        if (blend_of(d, i) != ENG_BLEND_OPAQUE &&
            !(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT))
            return eng__fail(ENG_ERROR_UNSUPPORTED, "pipeline '%s': color attachment %u: VkFormat %d cannot blend",
                             name, i, (int)d->color_formats[i]);
    }
    if (d->stencil_test && !rg_format_has_stencil(d->depth_format))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': stencil_test without a stencil aspect in "
                         "depth_format (VkFormat %d)", name, (int)d->depth_format);
    if (d->dynamic_state_count > ENG__MAX_DYNAMIC)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': %u dynamic states (%u at most)", name,
                         d->dynamic_state_count, ENG__MAX_DYNAMIC);
    if (d->dynamic_state_count && !d->dynamic_states)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': dynamic_state_count %u without dynamic_states",
                         name, d->dynamic_state_count);
    eng_result res = check_push_size(ctx, name, d->push_constant_size);
    if (res != ENG_SUCCESS)
        return res;
    return d->local_read ? check_local_read(ctx, d, name, samples) : ENG_SUCCESS;
}

/* The start of both creates, after the desc's own checks (res): the push
 * descriptors' check, then a zeroed pipeline object for bind_point. */
static eng_result new_pipeline(eng_context *ctx, const char *name, eng_result res, VkPipelineBindPoint bind_point,
                               const VkDescriptorType *push, uint32_t push_count, eng_pipeline **out)
{
    if (res == ENG_SUCCESS)
        res = eng__push_check(ctx, name, push, push_count);
    if (res != ENG_SUCCESS)
        return res;
    eng_pipeline *p = eng__new_object(ctx, sizeof *p, "pipeline", name);
    if (!p)
        return ENG_ERROR_OUT_OF_MEMORY;
    p->ctx = ctx;
    p->bind_point = bind_point;
    memcpy(p->name, name, sizeof p->name);
    *out = p;
    return ENG_SUCCESS;
}

/* The end of a pipeline's creation, graphics or compute: res, or vr of the
 * vkCreate*Pipelines call named by call, says whether it was made; made, it
 * is named and given out, else destroyed. Its shader modules (VK_NULL_HANDLE:
 * none) go either way. */
static eng_result finish_pipeline(eng_pipeline *p, eng_result res, VkResult vr, const char *call, VkShaderModule a,
                                  VkShaderModule b, eng_pipeline **out)
{
    VkDevice dev = eng_context_device(p->ctx);
    const eng__vk *vk = eng__vk_of(p->ctx);
    if (res == ENG_SUCCESS && vr != VK_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "pipeline '%s': %s", p->name, call);
        res = eng__vk_fail(vr, what);
    }
    if (res == ENG_SUCCESS)
        eng__set_name(p->ctx, VK_OBJECT_TYPE_PIPELINE, (uint64_t)p->pipeline, p->name);
    if (a)
        vk->DestroyShaderModule(dev, a, vk->allocator);
    if (b)
        vk->DestroyShaderModule(dev, b, vk->allocator);
    if (res != ENG_SUCCESS) {
        eng_pipeline_destroy(p);
        return res;
    }
    *out = p;
    return ENG_SUCCESS;
}

eng_result eng_pipeline_create(eng_context *ctx, const eng_pipeline_desc *d, eng_pipeline **out)
{
    ENG__CHECK_CREATE("eng_pipeline_create", ctx, d, out);
    char name[64];
    eng__copy_name(name, sizeof name, d->name, "unnamed");
    VkSampleCountFlagBits samples = d->samples ? d->samples : VK_SAMPLE_COUNT_1_BIT;
    eng_pipeline *p = NULL;
    eng_result res = new_pipeline(ctx, name, check_pipeline_desc(ctx, d, name, samples),
                                  VK_PIPELINE_BIND_POINT_GRAPHICS, d->push_descriptors, d->push_descriptor_count, &p);
    if (res != ENG_SUCCESS)
        return res;
    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    VkResult vr = VK_SUCCESS; /* the vkCreate*Pipelines call's, once made */
    res = make_module(ctx, name, "vertex", d->vertex_spirv, d->vertex_size, &vs);
    if (res == ENG_SUCCESS && d->fragment_spirv)
        res = make_module(ctx, name, "fragment", d->fragment_spirv, d->fragment_size, &fs);
    if (res != ENG_SUCCESS)
        goto fail;

    res = make_layout(p, d->push_descriptors, d->push_descriptor_count, d->set_layouts, d->set_layout_count,
                      d->push_constant_size,
                      d->push_constant_stages ? d->push_constant_stages
                                              : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);
    if (res != ENG_SUCCESS)
        goto fail;

    const char *entry = d->entry ? d->entry : "main";
    VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = vs, .pName = entry },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = fs, .pName = entry },
    };
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = d->binding_count,
        .pVertexBindingDescriptions = d->bindings,
        .vertexAttributeDescriptionCount = d->attribute_count,
        .pVertexAttributeDescriptions = d->attributes,
    };
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = d->triangle_strip ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = d->cull_mode,
        .frontFace = d->clockwise ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .depthBiasEnable = d->dynamic_depth_bias || d->depth_bias_constant != 0.0f || d->depth_bias_slope != 0.0f,
        .depthBiasConstantFactor = d->depth_bias_constant,
        .depthBiasClamp = d->depth_bias_clamp,
        .depthBiasSlopeFactor = d->depth_bias_slope,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = samples,
    };
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = d->depth_test,
        .depthWriteEnable = d->depth_write,
        .depthCompareOp = d->depth_compare ? d->depth_compare : VK_COMPARE_OP_LESS,
        .stencilTestEnable = d->stencil_test,
        .front = d->stencil_front,
        .back = d->stencil_back,
        .maxDepthBounds = 1.0f,
    };
    VkPipelineColorBlendAttachmentState blend[ENG_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < d->color_count; i++)
        blend[i] = blend_state(blend_of(d, i));
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = d->color_count,
        .pAttachments = blend,
    };
    VkDynamicState dyn_states[4 + ENG__MAX_DYNAMIC] = { VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR };
    uint32_t dyn_count = 2;
    if (d->dynamic_depth_bias)
        dyn_states[dyn_count++] = VK_DYNAMIC_STATE_DEPTH_BIAS;
    if (d->stencil_test)
        dyn_states[dyn_count++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
    for (uint32_t i = 0; i < d->dynamic_state_count; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < dyn_count && !seen; k++)
            seen = dyn_states[k] == d->dynamic_states[i];
        if (!seen)
            dyn_states[dyn_count++] = d->dynamic_states[i];
    }
    VkPipelineDynamicStateCreateInfo dyn = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = dyn_count,
        .pDynamicStates = dyn_states,
    };
    bool has_depth = rg_format_has_depth(d->depth_format);
    bool has_stencil = rg_format_has_stencil(d->depth_format);
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = d->color_count,
        .pColorAttachmentFormats = d->color_formats,
        .depthAttachmentFormat = has_depth ? d->depth_format : VK_FORMAT_UNDEFINED,
        .stencilAttachmentFormat = has_stencil ? d->depth_format : VK_FORMAT_UNDEFINED,
    };
    /* Depth and stencil indices always go as pointers: NULL would mean
     * "read without an InputAttachmentIndex", which local_read does not
     * offer (it is the default without local_read). */
    VkRenderingInputAttachmentIndexInfoKHR input_indices = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR,
        .colorAttachmentCount = d->color_count,
        .pColorAttachmentInputIndices = d->color_count ? d->color_input_indices : NULL,
        .pDepthInputAttachmentIndex = &d->depth_input_index,
        .pStencilInputAttachmentIndex = &d->stencil_input_index,
    };
    VkRenderingAttachmentLocationInfoKHR locations = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR,
        .pNext = &input_indices,
        .colorAttachmentCount = d->color_count,
        .pColorAttachmentLocations = d->color_count ? d->color_locations : NULL,
    };
    if (d->local_read)
        rendering.pNext = &locations;
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .stageCount = fs ? 2 : 1,
        .pStages = stages,
        .pVertexInputState = &vi,
        .pInputAssemblyState = &ia,
        .pViewportState = &vp,
        .pRasterizationState = &rs,
        .pMultisampleState = &ms,
        .pDepthStencilState = (has_depth || has_stencil) ? &ds : NULL,
        .pColorBlendState = &cb,
        .pDynamicState = &dyn,
        .layout = p->layout,
    };
    vr = vk->CreateGraphicsPipelines(dev, eng_pipeline_cache_handle(d->cache), 1, &ci, vk->allocator, &p->pipeline);
fail:
    return finish_pipeline(p, res, vr, "vkCreateGraphicsPipelines", vs, fs, out);
}

void eng_pipeline_desc_set_rendering(eng_pipeline_desc *d, const rg_command_rendering *st)
{
    if (!d || !st)
        return;
    d->color_count = st->color_count;
    d->depth_format = st->depth_format != VK_FORMAT_UNDEFINED ? st->depth_format : st->stencil_format;
    d->samples = st->samples;
    d->local_read = st->merged;
    for (uint32_t i = 0; i < ENG_MAX_COLOR_ATTACHMENTS; i++) {
        d->color_formats[i] = i < st->color_count ? st->color_formats[i] : VK_FORMAT_UNDEFINED;
        d->color_locations[i] = st->color_locations[i];
        d->color_input_indices[i] = st->color_input_indices[i];
    }
    d->depth_input_index = st->depth_input_index;
    d->stencil_input_index = st->stencil_input_index;
}

eng_result eng_compute_pipeline_create(eng_context *ctx, const eng_compute_pipeline_desc *d, eng_pipeline **out)
{
    ENG__CHECK_CREATE("eng_compute_pipeline_create", ctx, d, out);
    char name[64];
    eng__copy_name(name, sizeof name, d->name, "unnamed");
    eng_result res = check_push_size(ctx, name, d->push_constant_size);
    if (res == ENG_SUCCESS && d->set_layout_count && !d->set_layouts)
        res = eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': set_layout_count %u without set_layouts", name,
                        d->set_layout_count);
    eng_pipeline *p = NULL;
    res = new_pipeline(ctx, name, res, VK_PIPELINE_BIND_POINT_COMPUTE, d->push_descriptors, d->push_descriptor_count,
                       &p);
    if (res != ENG_SUCCESS)
        return res;
    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    VkShaderModule cs = VK_NULL_HANDLE;
    VkResult vr = VK_SUCCESS;
    res = make_module(ctx, name, "compute", d->spirv, d->size, &cs);
    if (res == ENG_SUCCESS)
        res = make_layout(p, d->push_descriptors, d->push_descriptor_count, d->set_layouts, d->set_layout_count,
                          d->push_constant_size, VK_SHADER_STAGE_COMPUTE_BIT);
    if (res != ENG_SUCCESS)
        goto fail;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = cs, .pName = d->entry ? d->entry : "main" },
        .layout = p->layout,
    };
    vr = vk->CreateComputePipelines(dev, eng_pipeline_cache_handle(d->cache), 1, &ci, vk->allocator, &p->pipeline);
fail:
    return finish_pipeline(p, res, vr, "vkCreateComputePipelines", cs, VK_NULL_HANDLE, out);
}

void eng_pipeline_destroy(eng_pipeline *p)
{
    if (!p)
        return;
    VkDevice dev = eng_context_device(p->ctx);
    const eng__vk *vk = eng__vk_of(p->ctx);
    if (p->pipeline)
        vk->DestroyPipeline(dev, p->pipeline, vk->allocator);
    if (p->layout)
        vk->DestroyPipelineLayout(dev, p->layout, vk->allocator);
    if (p->push_set)
        vk->DestroyDescriptorSetLayout(dev, p->push_set, vk->allocator);
    eng__free(p->ctx, p);
}

VkPipeline eng_pipeline_handle(const eng_pipeline *p) { return p ? p->pipeline : VK_NULL_HANDLE; }
VkPipelineLayout eng_pipeline_layout(const eng_pipeline *p) { return p ? p->layout : VK_NULL_HANDLE; }
VkPipelineBindPoint eng_pipeline_bind_point(const eng_pipeline *p)
{
    return p ? p->bind_point : VK_PIPELINE_BIND_POINT_GRAPHICS;
}
