/* Images with their own memory, attachments (TRANSIENT by default), uploads
 * and readbacks. */
#include "internal.h"

#include <string.h>

/* Records an image layout transition with synchronization2 (setup work:
 * uploads, read-backs, swapchain images). */
void eng__image_barrier(const eng__vk *vk, VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                        VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access,
                        VkImageLayout old_layout, VkImageLayout new_layout)
{
    VkImageMemoryBarrier2 b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
        .oldLayout = old_layout,
        .newLayout = new_layout,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = { aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS },
    };
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .imageMemoryBarrierCount = 1,
        .pImageMemoryBarriers = &b,
    };
    vk->CmdPipelineBarrier2(cmd, &dep);
}

void eng__copy_to_host_barrier(const eng__vk *vk, VkCommandBuffer cmd, VkBuffer buffer)
{
    VkBufferMemoryBarrier2 bb = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT, .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT, .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = buffer, .size = VK_WHOLE_SIZE,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .bufferMemoryBarrierCount = 1,
                             .pBufferMemoryBarriers = &bb };
    vk->CmdPipelineBarrier2(cmd, &dep);
}

struct eng_image {
    eng_context *ctx;
    VkDeviceMemory memory;
    eng_image_info info;
    char name[64];
};

static bool is_single_sample_count(VkSampleCountFlagBits s)
{
    return s != 0 && (s & (s - 1)) == 0 && s <= VK_SAMPLE_COUNT_64_BIT;
}

static const VkImageUsageFlags attachment_usages = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                                   VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                                                   VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;

/* Checks the description against the device's limits for this format, so a
 * bad request is a message naming the image, not a validation error. */
static eng_result check_desc(eng_context *ctx, const eng_image_desc *d, const char *name,
                             VkSampleCountFlagBits samples, uint32_t mips, uint32_t layers)
{
    if (d->format == VK_FORMAT_UNDEFINED)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "image '%s': format is VK_FORMAT_UNDEFINED", name);
    if (d->width == 0 || d->height == 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "image '%s': zero extent %ux%u", name, d->width, d->height);
    if (d->usage == 0)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "image '%s': no usage flags", name);
    if ((d->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) && (d->usage & ~attachment_usages))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "image '%s': TRANSIENT_ATTACHMENT usage combined with non-attachment usage %s "
                         "(a transient image's contents never leave the pass)",
                         name, ENG__IMAGE_USAGES(d->usage & ~attachment_usages));
    if (!is_single_sample_count(samples))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "image '%s': sample count %u is not a power of two <= 64",
                         name, (unsigned)samples);
    if (samples > 1 && mips > 1)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "image '%s': multisampled images have one mip level", name);

    VkImageFormatProperties fp;
    VkResult vr = eng__vk_of(ctx)->GetPhysicalDeviceImageFormatProperties(
        eng_context_physical_device(ctx), d->format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, d->usage, 0, &fp);
    if (vr == VK_ERROR_FORMAT_NOT_SUPPORTED)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "image '%s': format %s with usage %s is not supported by the device",
                         name, rg_format_name(d->format), ENG__IMAGE_USAGES(d->usage));
    if (vr != VK_SUCCESS)
        return eng__vk_fail(vr, "vkGetPhysicalDeviceImageFormatProperties");
    if (d->width > fp.maxExtent.width || d->height > fp.maxExtent.height)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "image '%s': extent %ux%u exceeds the device's %ux%u", name,
                         d->width, d->height, fp.maxExtent.width, fp.maxExtent.height);
    if (mips > fp.maxMipLevels || layers > fp.maxArrayLayers)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "image '%s': %u mips / %u layers exceed the device's %u / %u", name,
                         mips, layers, fp.maxMipLevels, fp.maxArrayLayers);
    if (!(fp.sampleCounts & samples))
        return eng__fail(ENG_ERROR_UNSUPPORTED,
                         "image '%s': %ux MSAA is not supported for format %s with usage %s (sample counts %s)",
                         name, (unsigned)samples, rg_format_name(d->format), ENG__IMAGE_USAGES(d->usage),
                         ENG__SAMPLE_COUNTS(fp.sampleCounts));
    return ENG_SUCCESS;
}

eng_result eng_image_create(eng_context *ctx, const eng_image_desc *desc, eng_image **out)
{
    ENG__CHECK_CREATE("eng_image_create", ctx, desc, out);
    VkSampleCountFlagBits samples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_1_BIT;
    uint32_t mips = desc->mip_levels ? desc->mip_levels : 1;
    uint32_t layers = desc->array_layers ? desc->array_layers : 1;
    char name[64];
    eng__copy_name(name, sizeof name, desc->name, "unnamed");
    eng_result res = check_desc(ctx, desc, name, samples, mips, layers);
    if (res != ENG_SUCCESS)
        return res;

    eng_image *img = eng__new_object(ctx, sizeof *img, "image", name);
    if (!img)
        return ENG_ERROR_OUT_OF_MEMORY;
    img->ctx = ctx;
    memcpy(img->name, name, sizeof name);
    eng_image_info *info = &img->info;
    info->name = img->name;
    info->format = desc->format;
    info->extent = (VkExtent2D){ desc->width, desc->height };
    info->mip_levels = mips;
    info->array_layers = layers;
    info->samples = samples;
    info->usage = desc->usage;
    info->aspect = eng__format_aspect(desc->format);

    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = desc->format,
        .extent = { desc->width, desc->height, 1 },
        .mipLevels = mips,
        .arrayLayers = layers,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = desc->usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    ENG_VK_TRY(res, vk->CreateImage(dev, &ci, vk->allocator, &info->image), done);
    eng__set_name(ctx, VK_OBJECT_TYPE_IMAGE, (uint64_t)info->image, name);

    VkMemoryRequirements req;
    vk->GetImageMemoryRequirements(dev, info->image, &req);
    char what[96];
    snprintf(what, sizeof what, "image '%s'", name);
    bool transient = (desc->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) != 0;
    res = eng__allocate(ctx, what, &req, desc->memory, transient, &img->memory, &info->memory_type);
    if (res != ENG_SUCCESS)
        goto done;
    info->memory_flags = eng_context_memory_properties(ctx)->memoryTypes[info->memory_type].propertyFlags;
    info->memory_size = req.size;
    ENG_VK_TRY(res, vk->BindImageMemory(dev, info->image, img->memory, 0), done);

    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = info->image,
        .viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = desc->format,
        .subresourceRange = { info->aspect, 0, mips, 0, layers },
    };
    ENG_VK_TRY(res, vk->CreateImageView(dev, &vci, vk->allocator, &info->view), done);
    info->committed = req.size;
    if (info->memory_flags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
        vk->GetDeviceMemoryCommitment(dev, img->memory, &info->committed);
done:
    return ENG__HAND_OUT(res, out, img, eng_image_destroy);
}

void eng_image_destroy(eng_image *img)
{
    if (!img)
        return;
    VkDevice dev = eng_context_device(img->ctx);
    const eng__vk *vk = eng__vk_of(img->ctx);
    if (img->info.view)
        vk->DestroyImageView(dev, img->info.view, vk->allocator);
    if (img->info.image)
        vk->DestroyImage(dev, img->info.image, vk->allocator);
    if (img->memory)
        vk->FreeMemory(dev, img->memory, vk->allocator);
    eng__free(img->ctx, img);
}

const eng_image_info *eng_image_get_info(const eng_image *img)
{
    return img ? &img->info : NULL;
}

bool eng_image_is_lazy(const eng_image *img)
{
    return img && (img->info.memory_flags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT);
}

eng_result eng_attachment_create(eng_context *ctx, const eng_attachment_desc *desc, eng_image **out)
{
    ENG__CHECK_CREATE("eng_attachment_create", ctx, desc, out);
    char name[64];
    eng__copy_name(name, sizeof name, desc->name, "attachment");
    if (!desc->persistent && desc->extra_usage)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "attachment '%s': extra usage %s needs persistent contents; a transient attachment "
                         "is only ever cleared, drawn to and resolved",
                         name, ENG__IMAGE_USAGES(desc->extra_usage));
    bool depth = rg_format_has_depth(desc->format) || rg_format_has_stencil(desc->format);
    VkImageUsageFlags usage = depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    usage |= desc->persistent ? desc->extra_usage : VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    eng_image_desc id = {
        .name = name,
        .format = desc->format,
        .width = desc->width,
        .height = desc->height,
        .samples = desc->samples,
        .usage = usage,
    };
    return eng_image_create(ctx, &id, out);
}

typedef struct copy_job {
    const eng__vk *vk;
    VkImage image;
    VkBuffer buffer;
    VkImageAspectFlags aspect;
    VkExtent2D extent;
    VkImageLayout layout; /* read: current layout; upload: final layout */
} copy_job;

static void record_upload(VkCommandBuffer cmd, void *user)
{
    const copy_job *j = user;
    const eng__vk *vk = j->vk;
    eng__image_barrier(j->vk, cmd, j->image, j->aspect, VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy region = {
        .imageSubresource = { j->aspect, 0, 0, 1 },
        .imageExtent = { j->extent.width, j->extent.height, 1 },
    };
    vk->CmdCopyBufferToImage(cmd, j->buffer, j->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    /* Later submissions use the image without a barrier of their own, so
     * this one makes the copy visible to every later stage. */
    eng__image_barrier(j->vk, cmd, j->image, j->aspect, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, j->layout);
}

static void record_read(VkCommandBuffer cmd, void *user)
{
    const copy_job *j = user;
    const eng__vk *vk = j->vk;
    /* The writes come from earlier submissions; ALL_COMMANDS as the source
     * scope covers them through submission order. */
    eng__image_barrier(j->vk, cmd, j->image, j->aspect, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                       VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                       j->layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy region = {
        .imageSubresource = { j->aspect, 0, 0, 1 },
        .imageExtent = { j->extent.width, j->extent.height, 1 },
    };
    vk->CmdCopyImageToBuffer(cmd, j->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, j->buffer, 1, &region);
    eng__image_barrier(j->vk, cmd, j->image, j->aspect, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, j->layout);
    eng__copy_to_host_barrier(vk, cmd, j->buffer);
}

/* Copies size bytes between the host and the image through a host-visible
 * staging buffer, in one submission: from the host (upload; the image ends
 * in layout) or to it (read back; the image is in layout and stays). */
static eng_result staged_copy(eng_context *ctx, const eng_image_info *info, const void *from, void *to, size_t size,
                              VkImageLayout layout)
{
    bool upload = from != NULL;
    eng_buffer *staging = NULL;
    eng_buffer_desc bd = {
        .name = upload ? "upload staging" : "readback staging",
        .size = size,
        .usage = upload ? VK_BUFFER_USAGE_TRANSFER_SRC_BIT : VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    };
    eng_result res = eng_buffer_create(ctx, &bd, &staging);
    if (res != ENG_SUCCESS)
        return res;
    if (upload)
        memcpy(eng_buffer_mapped(staging), from, size);
    copy_job job = { eng__vk_of(ctx), info->image, eng_buffer_handle(staging), info->aspect, info->extent, layout };
    res = eng_context_submit_once(ctx, upload ? record_upload : record_read, &job);
    if (res == ENG_SUCCESS && !upload)
        memcpy(to, eng_buffer_mapped(staging), size);
    eng_buffer_destroy(staging);
    return res;
}

/* What an upload and a read (call) both need: size, the image's bytes
 * ("image 'name' <holds> N bytes, <given> size" when not), and the usage
 * the copy takes on a single-sample image. */
static eng_result check_staged(const eng_image *img, const char *call, const char *holds, const char *given,
                               size_t size, VkImageUsageFlags usage)
{
    const eng_image_info *info = &img->info;
    size_t expect = (size_t)info->extent.width * info->extent.height * rg_format_texel_size(info->format);
    if (expect == 0 || size != expect)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: image '%s' %s %llu bytes, %s %llu", call, img->name, holds,
                         (unsigned long long)expect, given, (unsigned long long)size);
    if (!(info->usage & usage) || info->samples != VK_SAMPLE_COUNT_1_BIT)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: image '%s' needs %s usage and one sample", call, img->name,
                         usage == VK_IMAGE_USAGE_TRANSFER_DST_BIT ? "TRANSFER_DST" : "TRANSFER_SRC");
    return ENG_SUCCESS;
}

eng_result eng_image_upload(eng_context *ctx, eng_image *img, const void *texels, size_t size,
                            VkImageLayout final_layout)
{
    if (!ctx || !img || !texels)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_image_upload: NULL argument");
    eng_result res = check_staged(img, "eng_image_upload", "takes", "got", size, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    if (res != ENG_SUCCESS)
        return res;
    if (final_layout == VK_IMAGE_LAYOUT_UNDEFINED || final_layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_image_upload: image '%s': final layout %d is not a target",
                         img->name, (int)final_layout);
    return staged_copy(ctx, &img->info, texels, NULL, size, final_layout);
}

eng_result eng_image_read(eng_context *ctx, eng_image *img, VkImageLayout layout, void *out, size_t size)
{
    if (!ctx || !img || !out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_image_read: NULL argument");
    eng_result res = check_staged(img, "eng_image_read", "holds", "buffer is", size, VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    if (res != ENG_SUCCESS)
        return res;
    if (layout == VK_IMAGE_LAYOUT_UNDEFINED)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_image_read: image '%s' in UNDEFINED layout has no contents",
                         img->name);
    return staged_copy(ctx, &img->info, NULL, out, size, layout);
}
