/* A screenshot of the swapchain (eng_swapchain_capture_next,
 * eng_swapchain_read_capture): the next finished image is copied into a
 * host-visible buffer in the frame's own commands (swapchain.c's
 * eng_swapchain_finish_image records the copy), read once its slot's
 * fence has signalled, as RGBA. */
#include "swapchain.h"

#include <stdlib.h>

eng_result eng_swapchain_capture_next(eng_swapchain *sc)
{
    if (!sc)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_capture_next: NULL swapchain");
    if (!(sc->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT))
        return eng__fail(ENG_ERROR_UNSUPPORTED, "swapchain capture: the surface does not allow TRANSFER_SRC usage");
    VkDeviceSize need = (VkDeviceSize)sc->extent.width * sc->extent.height * 4;
    if (!sc->capture || eng_buffer_size(sc->capture) < need) {
        /* The old buffer may be the target of a frame still in flight. */
        if (sc->capture) {
            const eng__vk *vk = eng__vk_of(sc->ctx);
            ENG_VK_CHECK(vk->DeviceWaitIdle(eng_context_device(sc->ctx)));
        }
        eng_buffer_destroy(sc->capture);
        sc->capture = NULL;
        eng_buffer_desc bd = {
            .name = "swapchain capture",
            .size = need * 2, /* room for a resize before the frame is recorded */
            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        };
        eng_result res = eng_buffer_create(sc->ctx, &bd, &sc->capture);
        if (res != ENG_SUCCESS)
            return res;
    }
    sc->capture_requested = true;
    return ENG_SUCCESS;
}

eng_result eng_swapchain_read_capture(eng_swapchain *sc, uint8_t **rgba, uint32_t *width, uint32_t *height)
{
    if (rgba)
        *rgba = NULL;
    if (!sc || !rgba || !width || !height)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_swapchain_read_capture: NULL argument");
    if (!sc->capture_recorded)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT,
                         "eng_swapchain_read_capture: no capture was recorded (call eng_swapchain_capture_next "
                         "before eng_swapchain_finish_image)");
    VkDevice dev = eng_context_device(sc->ctx);
    const eng__vk *vk = eng__vk_of(sc->ctx);
    ENG_VK_CHECK(vk->WaitForFences(dev, 1, &sc->fences[sc->capture_slot], VK_TRUE, UINT64_MAX));
    VkExtent2D e = sc->capture_extent;
    /* A resize may have grown the frame past the buffer made at request. */
    if ((VkDeviceSize)e.width * e.height * 4 > eng_buffer_size(sc->capture))
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "swapchain capture: the frame grew past the capture buffer");
    size_t n = (size_t)e.width * e.height;
    uint8_t *out = malloc(n * 4);
    if (!out)
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "swapchain capture: out of host memory");
    const uint8_t *src = eng_buffer_mapped(sc->capture);
    bool bgra = sc->format.format == VK_FORMAT_B8G8R8A8_SRGB || sc->format.format == VK_FORMAT_B8G8R8A8_UNORM;
    for (size_t i = 0; i < n; i++) {
        out[i * 4 + 0] = src[i * 4 + (bgra ? 2 : 0)];
        out[i * 4 + 1] = src[i * 4 + 1];
        out[i * 4 + 2] = src[i * 4 + (bgra ? 0 : 2)];
        out[i * 4 + 3] = 255; /* the window is opaque */
    }
    *rgba = out;
    *width = e.width;
    *height = e.height;
    return ENG_SUCCESS;
}
