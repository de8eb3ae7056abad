/* Loss injection, for reliability tests: VKGRAPH_TILE_LOSE_DEVICE=N makes
 * the Nth queue submission after the latest vkCreateDevice (vkQueueSubmit,
 * vkQueueSubmit2) and every one after it return VK_ERROR_DEVICE_LOST, as a
 * lost device does; VKGRAPH_TILE_LOSE_SURFACE=N does the same with
 * VK_ERROR_SURFACE_LOST_KHR for vkAcquireNextImageKHR and
 * vkQueuePresentKHR. The failed call does not reach the driver. Only the
 * results are emulated: fences of failed submissions are never signaled (a
 * real lost device makes waits return VK_ERROR_DEVICE_LOST instead), so an
 * application is expected to stop using the device, as it must. */
#include "layer.h"

#include <stdlib.h>

static pthread_mutex_t lost_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long submits, lose_device_at, surface_calls, lose_surface_at;

void tile_lost_reset(void)
{
    const char *device = getenv("VKGRAPH_TILE_LOSE_DEVICE");
    const char *surface = getenv("VKGRAPH_TILE_LOSE_SURFACE");
    pthread_mutex_lock(&lost_lock);
    lose_device_at = device ? strtoul(device, NULL, 10) : 0;
    lose_surface_at = surface ? strtoul(surface, NULL, 10) : 0;
    submits = surface_calls = 0;
    pthread_mutex_unlock(&lost_lock);
}

/* Counts the call; true once the count has reached at (0 = never). */
static bool lost_now(unsigned long *count, unsigned long at)
{
    pthread_mutex_lock(&lost_lock);
    bool lost = at && ++*count >= at;
    pthread_mutex_unlock(&lost_lock);
    return lost;
}

VKAPI_ATTR VkResult VKAPI_CALL tile_QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits_,
                                                VkFence fence)
{
    device_data *d = tile_find_device(tile_key(queue));
    if (lost_now(&submits, lose_device_at))
        return VK_ERROR_DEVICE_LOST;
    return d->queue_submit(queue, count, submits_, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits_,
                                                 VkFence fence)
{
    device_data *d = tile_find_device(tile_key(queue));
    if (lost_now(&submits, lose_device_at))
        return VK_ERROR_DEVICE_LOST;
    return d->queue_submit2(queue, count, submits_, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout,
                                                        VkSemaphore semaphore, VkFence fence, uint32_t *index)
{
    device_data *d = tile_find_device(tile_key(device));
    if (lost_now(&surface_calls, lose_surface_at))
        return VK_ERROR_SURFACE_LOST_KHR;
    return d->acquire_next_image(device, swapchain, timeout, semaphore, fence, index);
}

VKAPI_ATTR VkResult VKAPI_CALL tile_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info)
{
    device_data *d = tile_find_device(tile_key(queue));
    if (lost_now(&surface_calls, lose_surface_at))
        return VK_ERROR_SURFACE_LOST_KHR;
    return d->queue_present(queue, info);
}
