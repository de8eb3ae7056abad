/* Placement stage "queues" (needs the device): one timeline semaphore per
 * queue the graph uses (rendergraph.h, "Queues"), counted from 0 (the
 * values the frames reach are execute's). A single-queue graph gets the
 * graphics one too: its plan signals it. One kept from the placement
 * before (place/reuse.h) is used as it is, its values going on.
 */
#include "base/device.h"
#include "base/names.h"
#include "place/stages.h"

#include <stdlib.h>

void rg__place_queues_free(const rg_graph *g, VkSemaphore *semaphores)
{
    VkDevice dev = g->dev ? g->dev->device : VK_NULL_HANDLE;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        if (dev && semaphores[q])
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_SEMAPHORE, .u.semaphore = semaphores[q]});
        semaphores[q] = VK_NULL_HANDLE;
    }
}

rg_result rg__place_queues(const rg_graph *g, VkSemaphore *semaphores)
{
    VkDevice dev = g->dev->device;
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        if (!(g->compiled->queues.queues_used & (1u << q)) || semaphores[q]) /* none, or a kept one */
            continue;
        if (!g->dev->queues[q].queue)
            return rg__report(g, RG_ERROR_UNSUPPORTED, "placement: the graph runs commands on the %s queue, "
                              "which the context does not have (rg_graph_desc.device claimed it)",
                              rg_queue_name((rg_queue)q));
        VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                          .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
        VkSemaphoreCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
        VkResult vr = g->dev->vk.CreateSemaphore(dev, &ci, g->dev->vk_alloc, &semaphores[q]);
        if (vr != VK_SUCCESS)
            return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                                     ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                              "placement: the %s queue's timeline semaphore: %s", rg_queue_name((rg_queue)q),
                              rg_vk_result_string(vr));
        rg__name_object(g->dev, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)semaphores[q],
                        "graph \"%s\" %s timeline", g->name, rg_queue_name((rg_queue)q));
    }
    return RG_SUCCESS;
}
