/* Swapchain and frames in flight: one fence, acquire semaphore and set of
 * command pools (frame_commands.c: one per queue family the frames use)
 * per slot, one render-finished semaphore per image (a present may still
 * hold the one of the previous use of that image, never of another image).
 * What draws the images (a render graph, usually) is the application's;
 * the swapchain hands each one over and takes it back for presentation
 * (eng_swapchain_finish_image). Whoever submits the frame's work (the
 * application, eng_swapchain_present, eng_swapchain_present_graph) waits
 * and signals the slot's semaphores and fence that eng_frame exposes.
 *
 * An offscreen swapchain (desc.offscreen) has no surface: it owns one image
 * per slot (offscreen.c), so the slot's fence, waited at acquire, is also
 * the end of the image's previous use; it submits with that fence alone and
 * presents nothing. Everything else (frames, capture) is shared. */
#include "swapchain.h"

#include <stdlib.h>
#include <string.h>

static VkSurfaceFormatKHR choose_format(const VkSurfaceFormatKHR *formats, uint32_t n)
{
    for (uint32_t w = 0; w < ENG__DISPLAY_FORMAT_COUNT; w++)
        for (uint32_t i = 0; i < n; i++)
            if (formats[i].format == eng__display_formats[w] &&
                formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
                return formats[i];
    return formats[0];
}

static VkPresentModeKHR choose_present_mode(const VkPresentModeKHR *modes, uint32_t n, bool vsync)
{
    if (vsync)
        return VK_PRESENT_MODE_FIFO_KHR; /* always offered */
    for (uint32_t i = 0; i < n; i++)
        if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR)
            return modes[i];
    for (uint32_t i = 0; i < n; i++)
        if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR)
            return modes[i];
    return VK_PRESENT_MODE_FIFO_KHR;
}

static void destroy_targets(eng_swapchain *sc)
{
    if (sc->desc.offscreen) { /* each image owns its view */
        eng__offscreen_images_destroy(sc->offscreen, sc->image_count);
        sc->image_count = 0;
        return;
    }
    VkDevice dev = eng_context_device(sc->ctx);
    const eng__vk *vk = eng__vk_of(sc->ctx);
    for (uint32_t i = 0; i < sc->image_count; i++) {
        if (sc->views[i])
            vk->DestroyImageView(dev, sc->views[i], vk->allocator);
        if (sc->render_done[i])
            vk->DestroySemaphore(dev, sc->render_done[i], vk->allocator);
        sc->views[i] = VK_NULL_HANDLE;
        sc->render_done[i] = VK_NULL_HANDLE;
    }
    sc->image_count = 0;
}

/* The size to use: the surface's when it dictates one, else what the caller
 * asked for or the window's size callback says, clamped to the surface's
 * limits. */
static VkExtent2D pick_extent(eng_swapchain *sc, const VkSurfaceCapabilitiesKHR *caps)
{
    if (caps->currentExtent.width != UINT32_MAX)
        return caps->currentExtent;
    VkExtent2D e = { sc->wanted_width, sc->wanted_height };
    if ((e.width == 0 || e.height == 0) && sc->desc.window_size) {
        e.width = e.height = 0;
        sc->desc.window_size(sc->desc.window_size_user, &e.width, &e.height);
    }
    if (e.width == 0 || e.height == 0)
        return (VkExtent2D){ 0, 0 }; /* no area: not clamped up to the minimum */
    if (e.width < caps->minImageExtent.width) e.width = caps->minImageExtent.width;
    if (e.height < caps->minImageExtent.height) e.height = caps->minImageExtent.height;
    if (e.width > caps->maxImageExtent.width) e.width = caps->maxImageExtent.width;
    if (e.height > caps->maxImageExtent.height) e.height = caps->maxImageExtent.height;
    return e;
}

/* (Re)creates the swapchain and everything sized by it. ENG_NOT_READY when
 * the surface has no area (minimized); the swapchain stays dirty. */
static eng_result build(eng_swapchain *sc)
{
    eng_context *ctx = sc->ctx;
    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    VkPhysicalDevice pd = eng_context_physical_device(ctx);
    VkSurfaceKHR surface = eng_context_surface(ctx);
    VkSurfaceCapabilitiesKHR caps;
    ENG_VK_CHECK(vk->GetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surface, &caps));
    VkExtent2D extent = pick_extent(sc, &caps);
    sc->unsized = caps.currentExtent.width == UINT32_MAX && !sc->desc.window_size &&
                  (sc->wanted_width == 0 || sc->wanted_height == 0);
    if (extent.width == 0 || extent.height == 0 || caps.maxImageExtent.width == 0) {
        sc->dirty = true;
        return ENG_NOT_READY;
    }
    if (sc->swapchain) /* images of the old swapchain may still be in use */
        ENG_VK_CHECK(vk->DeviceWaitIdle(dev));
    destroy_targets(sc);

    uint32_t n = 0;
    ENG_VK_CHECK(vk->GetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, NULL));
    VkSurfaceFormatKHR formats[64];
    if (n == 0)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "swapchain: the surface offers no formats");
    if (n > 64) n = 64;
    VkResult vr = vk->GetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, formats);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE)
        return eng__vk_fail(vr, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    sc->format = choose_format(formats, n);
    VkPresentModeKHR modes[16];
    n = 16;
    vr = vk->GetPhysicalDeviceSurfacePresentModesKHR(pd, surface, &n, modes);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE)
        return eng__vk_fail(vr, "vkGetPhysicalDeviceSurfacePresentModesKHR");
    sc->present_mode = choose_present_mode(modes, n, sc->desc.vsync);

    /* TRANSFER_SRC lets eng_swapchain_capture_next copy the image out;
     * TRANSFER_DST lets a frame blit into it. */
    sc->usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                (caps.supportedUsageFlags & (VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    VkSwapchainKHR old = sc->swapchain;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = surface,
        .minImageCount = count,
        .imageFormat = sc->format.format,
        .imageColorSpace = sc->format.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = sc->usage,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                              ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              : (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha),
        .presentMode = sc->present_mode,
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    vr = vk->CreateSwapchainKHR(dev, &ci, vk->allocator, &sc->swapchain);
    if (old)
        vk->DestroySwapchainKHR(dev, old, vk->allocator);
    if (vr != VK_SUCCESS) {
        sc->swapchain = VK_NULL_HANDLE;
        return eng__vk_fail(vr, "vkCreateSwapchainKHR");
    }
    sc->extent = extent;
    n = 0;
    ENG_VK_CHECK(vk->GetSwapchainImagesKHR(dev, sc->swapchain, &n, NULL));
    if (n > MAX_IMAGES)
        return eng__fail(ENG_ERROR_UNSUPPORTED, "swapchain: %u images, at most %d supported", n, MAX_IMAGES);
    ENG_VK_CHECK(vk->GetSwapchainImagesKHR(dev, sc->swapchain, &n, sc->images));
    for (uint32_t i = 0; i < n; i++) {
        sc->image_count = i + 1; /* so destroy_targets cleans what exists */
        VkImageViewCreateInfo vci = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = sc->images[i],
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = sc->format.format,
            .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
        };
        ENG_VK_CHECK(vk->CreateImageView(dev, &vci, vk->allocator, &sc->views[i]));
        VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
        ENG_VK_CHECK(vk->CreateSemaphore(dev, &sci, vk->allocator, &sc->render_done[i]));
    }
    sc->dirty = false;
    return ENG_SUCCESS;
}

/* (Re)creates the offscreen images at the wanted size. ENG_NOT_READY when
 * that size has no area (eng_swapchain_resize to 0); it stays dirty. */
static eng_result build_offscreen(eng_swapchain *sc)
{
    VkExtent2D extent = { sc->wanted_width, sc->wanted_height };
    if (extent.width == 0 || extent.height == 0) {
        sc->dirty = true;
        return ENG_NOT_READY;
    }
    const eng__vk *vk = eng__vk_of(sc->ctx);
    if (sc->image_count) /* frames in flight may still draw into the old images */
        ENG_VK_CHECK(vk->DeviceWaitIdle(eng_context_device(sc->ctx)));
    destroy_targets(sc);
    eng_result res = eng__offscreen_images_create(sc->ctx, sc->format.format, extent, sc->slots, sc->offscreen);
    if (res != ENG_SUCCESS)
        return res;
    sc->image_count = sc->slots;
    for (uint32_t i = 0; i < sc->image_count; i++) {
        const eng_image_info *info = eng_image_get_info(sc->offscreen[i]);
        sc->images[i] = info->image;
        sc->views[i] = info->view;
    }
    sc->extent = extent;
    sc->dirty = false;
    return ENG_SUCCESS;
}

eng_result eng_swapchain_create(eng_context *ctx, const eng_swapchain_desc *desc, eng_swapchain **out)
{
    ENG__CHECK_CREATE("eng_swapchain_create", ctx, desc, out);
    if (!eng_context_surface(ctx) && !desc->offscreen)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_create: the context is headless (no window); "
                                                     "eng_swapchain_desc.offscreen renders without one");
    if (desc->offscreen && (desc->width == 0 || desc->height == 0))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "eng_swapchain_create: an offscreen swapchain needs width and height (got %ux%u)",
                         desc->width, desc->height);
    if (desc->frames_in_flight > MAX_SLOTS)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_create: %u frames in flight (max %d)",
                         desc->frames_in_flight, MAX_SLOTS);

    eng_swapchain *sc = eng__new_object(ctx, sizeof *sc, "swapchain", NULL);
    if (!sc)
        return ENG_ERROR_OUT_OF_MEMORY;
    sc->ctx = ctx;
    sc->desc = *desc;
    sc->slots = desc->frames_in_flight ? desc->frames_in_flight : 2;
    sc->wanted_width = desc->width;
    sc->wanted_height = desc->height;
    VkDevice dev = eng_context_device(ctx);
    const eng__vk *vk = eng__vk_of(ctx);
    eng_result res = ENG_SUCCESS;
    for (uint32_t i = 0; i < sc->slots; i++) {
        /* frame.cmd's pool and command buffer, made now: acquire allocates
         * nothing. */
        res = eng__frame_commands_reserve(ctx, &sc->commands[i], eng_context_queue_family(ctx));
        if (res != ENG_SUCCESS)
            goto done;
        VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .flags = VK_FENCE_CREATE_SIGNALED_BIT };
        ENG_VK_TRY(res, vk->CreateFence(dev, &fci, vk->allocator, &sc->fences[i]), done);
        VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
        if (!desc->offscreen) /* nothing to acquire offscreen */
            ENG_VK_TRY(res, vk->CreateSemaphore(dev, &sci, vk->allocator, &sc->acquired[i]), done);
    }
    if (desc->offscreen) {
        sc->format.colorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
        sc->usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                    VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        res = eng__offscreen_format(ctx, &sc->format.format);
        if (res == ENG_SUCCESS)
            res = build_offscreen(sc);
    } else {
        res = build(sc);
    }
    if (res == ENG_NOT_READY)
        res = eng__fail(ENG_ERROR_INVALID_ARGUMENT, "swapchain: %s",
                        sc->unsized ? "the surface leaves the size to the application: give "
                                      "eng_swapchain_desc width/height or window_size"
                                    : "the window has no area (zero extent)");
done:
    return ENG__HAND_OUT(res, out, sc, eng_swapchain_destroy);
}

void eng_swapchain_destroy(eng_swapchain *sc)
{
    if (!sc)
        return;
    VkDevice dev = eng_context_device(sc->ctx);
    const eng__vk *vk = eng__vk_of(sc->ctx);
    vk->DeviceWaitIdle(dev);
    destroy_targets(sc);
    eng_buffer_destroy(sc->capture);
    if (sc->swapchain)
        vk->DestroySwapchainKHR(dev, sc->swapchain, vk->allocator);
    for (uint32_t i = 0; i < sc->slots; i++) {
        if (sc->acquired[i]) vk->DestroySemaphore(dev, sc->acquired[i], vk->allocator);
        if (sc->fences[i]) vk->DestroyFence(dev, sc->fences[i], vk->allocator);
        eng__frame_commands_destroy(sc->ctx, &sc->commands[i]);
        eng__chunk_commands_destroy(sc->ctx, &sc->chunks[i]);
    }
    eng__free(sc->ctx, sc);
}

void eng_swapchain_resize(eng_swapchain *sc, uint32_t width, uint32_t height)
{
    if (!sc)
        return;
    sc->wanted_width = width;
    sc->wanted_height = height;
    sc->dirty = true;
}

/* The next image of the surface's swapchain, recreated first when dirty;
 * the slot's acquire semaphore is signaled when it is free. */
static eng_result acquire_image(eng_swapchain *sc, uint32_t slot, uint32_t *image_index)
{
    VkDevice dev = eng_context_device(sc->ctx);
    const eng__vk *vk = eng__vk_of(sc->ctx);
    for (int attempt = 0;; attempt++) {
        if (sc->dirty) {
            eng_result res = build(sc);
            if (res != ENG_SUCCESS)
                return res; /* ENG_NOT_READY while minimized */
            sc->recreate_count++;
        }
        VkResult vr = vk->AcquireNextImageKHR(dev, sc->swapchain, UINT64_MAX, sc->acquired[slot], VK_NULL_HANDLE,
                                            image_index);
        if (vr == VK_SUCCESS)
            return ENG_SUCCESS;
        if (vr == VK_SUBOPTIMAL_KHR) {
            /* The semaphore is signaled: draw this frame, recreate after it. */
            sc->dirty = true;
            return ENG_SUCCESS;
        }
        if (vr == VK_ERROR_OUT_OF_DATE_KHR && attempt < 3) {
            sc->dirty = true;
            continue;
        }
        return eng__vk_fail(vr, "vkAcquireNextImageKHR");
    }
}

/* The slot's own offscreen image, free since the slot's fence was waited;
 * recreated first after eng_swapchain_resize. */
static eng_result next_offscreen_image(eng_swapchain *sc, uint32_t slot, uint32_t *image_index)
{
    if (sc->dirty) {
        eng_result res = build_offscreen(sc);
        if (res != ENG_SUCCESS)
            return res; /* ENG_NOT_READY at a size of no area */
        sc->recreate_count++;
    }
    *image_index = slot;
    return ENG_SUCCESS;
}

eng_result eng_swapchain_acquire(eng_swapchain *sc, eng_frame *frame)
{
    if (!sc || !frame)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_acquire: NULL swapchain or frame");
    memset(frame, 0, sizeof *frame);
    VkDevice dev = eng_context_device(sc->ctx);
    const eng__vk *vk = eng__vk_of(sc->ctx);
    uint32_t slot = (uint32_t)(sc->frame_number % sc->slots);
    ENG_VK_CHECK(vk->WaitForFences(dev, 1, &sc->fences[slot], VK_TRUE, UINT64_MAX));
    uint32_t image_index = 0;
    eng_result res = sc->desc.offscreen ? next_offscreen_image(sc, slot, &image_index)
                                        : acquire_image(sc, slot, &image_index);
    if (res != ENG_SUCCESS)
        return res;
    /* Reset only once an image is ours: an early return above must leave the
     * fence signaled or the next acquire would wait forever. */
    ENG_VK_CHECK(vk->ResetFences(dev, 1, &sc->fences[slot]));
    /* The fence covers every submission of the slot's last frame: its
     * command buffers, on every queue, are done. */
    res = eng__frame_commands_reset(sc->ctx, &sc->commands[slot]);
    if (res == ENG_SUCCESS)
        res = eng__chunk_commands_reset(sc->ctx, &sc->chunks[slot]);
    if (res == ENG_SUCCESS)
        res = eng__frame_commands_begin(sc->ctx, &sc->commands[slot], eng_context_queue_family(sc->ctx), &frame->cmd);
    if (res != ENG_SUCCESS)
        return res;
    frame->number = sc->frame_number;
    frame->slot = slot;
    frame->image_index = image_index;
    frame->image = sc->images[image_index];
    frame->view = sc->views[image_index];
    frame->format = sc->format.format;
    frame->usage = sc->usage;
    frame->extent = sc->extent;
    frame->acquire_semaphore = sc->acquired[slot]; /* VK_NULL_HANDLE offscreen */
    frame->present_semaphore = sc->desc.offscreen ? VK_NULL_HANDLE : sc->render_done[image_index];
    frame->fence = sc->fences[slot];
    return ENG_SUCCESS;
}

/* A frame acquired and not yet presented: the present clears frame->cmd
 * and moves frame_number on, so a copy of an earlier frame is refused too. */
static bool frame_open(const eng_swapchain *sc, const eng_frame *frame)
{
    return frame->cmd && frame->number == sc->frame_number && frame->slot < sc->slots;
}

/* The family of the frame's command buffers for kind (where the context
 * has no queue of that kind, its work runs on the graphics queue), once
 * the call's arguments are checked. */
static eng_result frame_family(const eng_swapchain *sc, const eng_frame *frame, eng_queue_kind kind,
                               VkCommandBuffer *out, const char *call, uint32_t *family)
{
    if (out)
        *out = VK_NULL_HANDLE;
    if (!sc || !frame || !out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    if ((unsigned)kind >= ENG_QUEUE_KIND_COUNT)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: queue kind %d", call, (int)kind);
    if (!frame_open(sc, frame))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "%s: the frame is not acquired (or already presented)", call);
    *family = eng_context_queue_family_of(sc->ctx, kind);
    if (*family == UINT32_MAX)
        *family = eng_context_queue_family(sc->ctx);
    return ENG_SUCCESS;
}

eng_result eng_frame_command_buffer(eng_swapchain *sc, const eng_frame *frame, eng_queue_kind kind,
                                    VkCommandBuffer *out)
{
    uint32_t family = 0;
    eng_result res = frame_family(sc, frame, kind, out, "eng_frame_command_buffer", &family);
    return res == ENG_SUCCESS ? eng__frame_commands_begin(sc->ctx, &sc->commands[frame->slot], family, out) : res;
}

eng_result eng_frame_chunk_command_buffer(eng_swapchain *sc, const eng_frame *frame, eng_queue_kind kind,
                                          uint32_t chunk, VkCommandBuffer *out)
{
    uint32_t family = 0;
    eng_result res = frame_family(sc, frame, kind, out, "eng_frame_chunk_command_buffer", &family);
    if (res == ENG_SUCCESS && chunk >= ENG_MAX_FRAME_CHUNKS)
        res = eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_frame_chunk_command_buffer: chunk %u (at most %d)", chunk,
                        ENG_MAX_FRAME_CHUNKS - 1);
    return res == ENG_SUCCESS ? eng__chunk_commands_begin(sc->ctx, &sc->chunks[frame->slot], chunk, family, out)
                              : res;
}

void eng_swapchain_finish_image(eng_swapchain *sc, const eng_frame *frame, VkImageLayout layout,
                                VkPipelineStageFlags2 stage, VkAccessFlags2 access)
{
    VkCommandBuffer cmd = frame->cmd;
    VkImageLayout before_present = layout;
    VkPipelineStageFlags2 src_stage = stage;
    VkAccessFlags2 src_access = access;
    sc->capture_recorded = false;
    if (sc->capture_requested && sc->capture && (sc->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)) {
        eng__image_barrier(eng__vk_of(sc->ctx), cmd, frame->image, VK_IMAGE_ASPECT_COLOR_BIT, src_stage, src_access,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, before_present,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy region = {
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { frame->extent.width, frame->extent.height, 1 },
        };
        eng__vk_of(sc->ctx)->CmdCopyImageToBuffer(cmd, frame->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                                  eng_buffer_handle(sc->capture), 1, &region);
        eng__copy_to_host_barrier(eng__vk_of(sc->ctx), cmd, eng_buffer_handle(sc->capture));
        before_present = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        src_stage = VK_PIPELINE_STAGE_2_COPY_BIT;
        src_access = 0; /* a read: only the execution dependency matters */
        sc->capture_requested = false;
        sc->capture_recorded = true;
        sc->capture_slot = frame->slot;
        sc->capture_extent = frame->extent;
    }
    if (sc->desc.offscreen) {
        /* Left ready to be copied out, as a presented image is ready to be
         * shown; the next use of the image (at its slot's next frame) starts
         * at COLOR_ATTACHMENT_OUTPUT, the stage an acquire semaphore would
         * release, so the destination stage chains to it. */
        eng__image_barrier(eng__vk_of(sc->ctx), cmd, frame->image, VK_IMAGE_ASPECT_COLOR_BIT, src_stage, src_access,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, before_present,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        return;
    }
    /* Presentation waits on the render-finished semaphore, which covers all
     * prior work; no destination stage is needed here. */
    eng__image_barrier(eng__vk_of(sc->ctx), cmd, frame->image, VK_IMAGE_ASPECT_COLOR_BIT, src_stage, src_access,
                       VK_PIPELINE_STAGE_2_NONE, 0, before_present, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
}

eng_result eng_swapchain_present(eng_swapchain *sc, eng_frame *frame)
{
    if (!sc || !frame || !frame_open(sc, frame))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_present: no frame acquired");
    const eng__vk *vk = eng__vk_of(sc->ctx);
    ENG_VK_CHECK(vk->EndCommandBuffer(frame->cmd));
    VkSemaphoreSubmitInfo wait = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = sc->acquired[frame->slot],
        .stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
    };
    VkSemaphoreSubmitInfo signal = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = sc->render_done[frame->image_index],
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
    VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = frame->cmd };
    /* Offscreen: no acquire to wait for, no present to signal. */
    const uint32_t semaphores = sc->desc.offscreen ? 0 : 1;
    VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = semaphores,
        .pWaitSemaphoreInfos = &wait,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &cbi,
        .signalSemaphoreInfoCount = semaphores,
        .pSignalSemaphoreInfos = &signal,
    };
    ENG_VK_CHECK(vk->QueueSubmit2(eng_context_queue(sc->ctx), 1, &si, sc->fences[frame->slot]));
    return eng_swapchain_present_submitted(sc, frame);
}

eng_result eng_swapchain_present_submitted(eng_swapchain *sc, eng_frame *frame)
{
    if (!sc || !frame || !frame_open(sc, frame))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_present_submitted: no frame acquired");
    if (sc->desc.offscreen) {
        sc->frame_number++;
        frame->cmd = VK_NULL_HANDLE;
        return ENG_SUCCESS;
    }
    VkPresentInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sc->render_done[frame->image_index],
        .swapchainCount = 1,
        .pSwapchains = &sc->swapchain,
        .pImageIndices = &frame->image_index,
    };
    VkResult vr = eng__vk_of(sc->ctx)->QueuePresentKHR(eng_context_queue(sc->ctx), &pi);
    sc->frame_number++;
    frame->cmd = VK_NULL_HANDLE;
    if (vr == VK_ERROR_OUT_OF_DATE_KHR || vr == VK_SUBOPTIMAL_KHR) {
        sc->dirty = true; /* recreated at the next acquire */
        return ENG_SUCCESS;
    }
    if (vr != VK_SUCCESS)
        return eng__vk_fail(vr, "vkQueuePresentKHR");
    return ENG_SUCCESS;
}

VkExtent2D eng_swapchain_extent(const eng_swapchain *sc) { return sc ? sc->extent : (VkExtent2D){ 0, 0 }; }
VkFormat eng_swapchain_format(const eng_swapchain *sc) { return sc ? sc->format.format : VK_FORMAT_UNDEFINED; }
uint32_t eng_swapchain_recreate_count(const eng_swapchain *sc) { return sc ? sc->recreate_count : 0; }

eng_context *eng__swapchain_context(const eng_swapchain *sc) { return sc->ctx; }
