/* Push descriptors from the render graph (engine.h, eng_push_bindings): a
 * pipeline's set 0 is a push-descriptor set layout of the types it was
 * made with, and each draw or dispatch pushes it from what its command
 * declared to the graph (rg_record_image_info, rg_record_buffer_info), so
 * the view, layout and range can never differ from the declaration's.
 * A binding may name a buffer or image view the graph does not own
 * instead (eng_binding.vk_buffer, .vk_image): pushed as given, with no
 * barrier from the graph. VK_KHR_push_descriptor needs no pools and no
 * per-frame lifetime: the descriptors are recorded into the command buffer. */
#include "internal.h"

#include <string.h>

static bool image_type(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
           t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

static bool buffer_type(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

eng_result eng__push_check(const eng_context *ctx, const char *name, const VkDescriptorType *types, uint32_t count)
{
    if (count == 0)
        return ENG_SUCCESS;
    if (!types || count > ENG_MAX_PUSH_DESCRIPTORS)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': %u push descriptors (1 to %u, with types)",
                         name, count, ENG_MAX_PUSH_DESCRIPTORS);
    if (!eng__vk_of(ctx)->CmdPushDescriptorSetKHR)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "pipeline '%s': push descriptors need VK_KHR_push_descriptor, "
                         "which the context did not enable on %s (bind descriptor sets of your own with "
                         "rg_record_image_info)", name, eng_context_properties(ctx)->deviceName);
    return ENG_SUCCESS;
}

eng_result eng__push_set_layout(eng_pipeline *p, const VkDescriptorType *types, uint32_t count)
{
    eng_result res = eng__push_check(p->ctx, p->name, types, count);
    if (res != ENG_SUCCESS || count == 0)
        return res;
    VkDescriptorSetLayoutBinding bindings[ENG_MAX_PUSH_DESCRIPTORS];
    for (uint32_t i = 0; i < count; i++) {
        VkDescriptorType t = types[i];
        if (!image_type(t) && !buffer_type(t) && t != VK_DESCRIPTOR_TYPE_SAMPLER)
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': push descriptor %u has type %d (sampler, "
                             "image, storage image, input attachment, uniform or storage buffer)", p->name, i, (int)t);
        VkShaderStageFlags stages = p->bind_point == VK_PIPELINE_BIND_POINT_COMPUTE
                                        ? VK_SHADER_STAGE_COMPUTE_BIT
                                        : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
        if (t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) {
            if (p->bind_point == VK_PIPELINE_BIND_POINT_COMPUTE)
                return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "pipeline '%s': push descriptor %u: a compute "
                                 "pipeline has no input attachments", p->name, i);
            stages = VK_SHADER_STAGE_FRAGMENT_BIT; /* the only stage that reads them */
        }
        bindings[i] = (VkDescriptorSetLayoutBinding){ .binding = i, .descriptorType = t, .descriptorCount = 1,
                                                      .stageFlags = stages };
        p->push_types[i] = t;
    }
    VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
        .bindingCount = count,
        .pBindings = bindings,
    };
    char what[128];
    snprintf(what, sizeof what, "pipeline '%s': vkCreateDescriptorSetLayout", p->name);
    const eng__vk *vk = eng__vk_of(p->ctx);
    VkResult vr = vk->CreateDescriptorSetLayout(eng_context_device(p->ctx), &ci, vk->allocator, &p->push_set);
    if (vr != VK_SUCCESS)
        return eng__vk_fail(vr, what);
    p->push_count = count;
    return ENG_SUCCESS;
}

/* Binding i's descriptor from the graph, or as the application gave it
 * (vk_buffer, vk_image); false after eng__fail. */
static bool fill(const rg_record_context *rc, const eng_pipeline *p, uint32_t i, const eng_binding *b,
                 VkDescriptorImageInfo *image, VkDescriptorBufferInfo *buffer)
{
    VkDescriptorType t = p->push_types[i];
    bool raw_buffer = b->vk_buffer.buffer != VK_NULL_HANDLE, raw_image = b->vk_image.imageView != VK_NULL_HANDLE;
    unsigned named = (b->texture.id != 0) + (b->buffer.id != 0) + raw_buffer + raw_image;
    const char *why = NULL;
    if (named > 1)
        why = "names more than one of texture, buffer, vk_buffer and vk_image (exactly one: a graph resource or "
              "an object of the application's)";
    else if (image_type(t) && !b->texture.id && !raw_image)
        why = "an image binding needs a texture or a vk_image (and no buffer)";
    else if (buffer_type(t) && !b->buffer.id && !raw_buffer)
        why = "a buffer binding needs a buffer or a vk_buffer (and no texture)";
    else if (t == VK_DESCRIPTOR_TYPE_SAMPLER && named)
        why = "a sampler binding takes a sampler only";
    else if ((t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || t == VK_DESCRIPTOR_TYPE_SAMPLER) && !b->sampler)
        why = "a combined image sampler or sampler binding needs a sampler";
    if (why) {
        eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: pipeline '%s' binding %u: %s", p->name, i, why);
        return false;
    }
    rg_graph *g = rg_record_graph(rc);
    if (raw_image) { /* the application's view, in the layout it says */
        *image = b->vk_image;
        image->sampler = t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ? b->sampler : VK_NULL_HANDLE;
    } else if (raw_buffer) {
        *buffer = b->vk_buffer;
    } else if (image_type(t)) {
        if (rg_record_image_info(rc, b->texture, image) != RG_SUCCESS) {
            eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: pipeline '%s' binding %u: %s", p->name, i,
                      rg_graph_error_message(g));
            return false;
        }
        /* A storage image is read and written in GENERAL: a texture
         * declared for sampling is in a read-only layout. */
        if (t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE && image->imageLayout != VK_IMAGE_LAYOUT_GENERAL) {
            eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: pipeline '%s' binding %u is a storage image, "
                      "but the command declared texture %u for sampling or reading (layout %d): declare an "
                      "RG_USAGE_STORAGE_* access", p->name, i, b->texture.id, (int)image->imageLayout);
            return false;
        }
        if (t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
            image->sampler = b->sampler;
    } else if (buffer_type(t)) {
        if (rg_record_buffer_info(rc, b->buffer, buffer) != RG_SUCCESS) {
            eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: pipeline '%s' binding %u: %s", p->name, i,
                      rg_graph_error_message(g));
            return false;
        }
    } else {
        *image = (VkDescriptorImageInfo){ .sampler = b->sampler };
    }
    return true;
}

eng_result eng_push_bindings(const rg_record_context *rc, const eng_pipeline *p, const eng_binding *bindings,
                             uint32_t count)
{
    if (!rc || !p || (count && !bindings))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: NULL %s",
                         !rc ? "record context" : !p ? "pipeline" : "bindings");
    if (!p->push_set || count != p->push_count)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_push_bindings: pipeline '%s' has %u push descriptors, %u "
                         "bindings given", p->name, p->push_count, count);
    VkDescriptorImageInfo images[ENG_MAX_PUSH_DESCRIPTORS];
    VkDescriptorBufferInfo buffers[ENG_MAX_PUSH_DESCRIPTORS];
    VkWriteDescriptorSet writes[ENG_MAX_PUSH_DESCRIPTORS];
    for (uint32_t i = 0; i < count; i++) {
        if (!fill(rc, p, i, &bindings[i], &images[i], &buffers[i]))
            return ENG_ERROR_INVALID_ARGUMENT;
        bool buffer = buffer_type(p->push_types[i]);
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = p->push_types[i],
            .pImageInfo = buffer ? NULL : &images[i],
            .pBufferInfo = buffer ? &buffers[i] : NULL,
        };
    }
    eng__vk_of(p->ctx)->CmdPushDescriptorSetKHR(rg_record_cmd(rc), p->bind_point, p->layout, 0, count, writes);
    return ENG_SUCCESS;
}
