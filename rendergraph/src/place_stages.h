/* The placement stages' functions (memory_plan.c, place_*.c), and what
 * placement decides per resource: whether it is created and its Vulkan
 * objects this frame. Not installed.
 */
#ifndef RG_PLACE_STAGES_H
#define RG_PLACE_STAGES_H

#include "graph.h"

/* Whether placement creates resource r: a created one that a recorded
 * command uses, or a half of a history pair either half of which is used
 * (the halves trade images every frame, so both exist or neither). */
static inline bool rg__creates(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (r->imported)
        return false;
    const rg__lifetime *l = g->compiled.lifetimes.of;
    return l[ri].first != RG__NONE || (rg__history(r) && l[r->history_pair].first != RG__NONE);
}

/* The resource whose placed objects resource ri uses this frame: its own,
 * or for a history half its pair's while execute has them swapped. */
static inline uint32_t rg__holder(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return rg__history(r) && g->placement.frames.history_swapped ? r->history_pair : ri;
}
/* Resource ri's Vulkan objects this frame: an import's, as the
 * application set them; a created one's, as placement made them (none
 * before placement). */
static inline VkImage rg__image(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->image : g->placement.objects ? g->placement.objects[rg__holder(g, ri)].image : VK_NULL_HANDLE;
}
static inline VkImageView rg__view(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->view : g->placement.objects ? g->placement.objects[rg__holder(g, ri)].view : VK_NULL_HANDLE;
}
static inline VkBuffer rg__buffer(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    return r->imported ? r->buffer : g->placement.objects ? g->placement.objects[ri].buffer : VK_NULL_HANDLE;
}
/* Whether resource ri shares a pool's memory (after placement). */
static inline bool rg__pooled(const rg_graph *g, uint32_t ri)
{
    return g->placement.objects && g->placement.objects[ri].pooled;
}

/* Plans placement from requirements (resource_count entries; imports' and
 * unused resources' are ignored) into g->placement.plan. Device-free. */
rg_result rg__memory_plan(rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg__mem_requirements *reqs);
rg_result rg__place_support(rg_graph *g);
/* Fills reqs (resource_count entries) from the device. */
void rg__place_requirements(rg_graph *g, rg__mem_requirements *reqs);
/* Creates the images and buffers, allocates and binds them as planned. */
rg_result rg__place_memory(rg_graph *g);
rg_result rg__place_views(rg_graph *g);
/* Imports' attachment views for this execute (their own, or made once per
 * image); called before anything is recorded. what: the execute call, for
 * the message. */
rg_result rg__place_bind_imports(rg_graph *g, const char *what);
/* Span s's vkCmdBeginRendering from the slots' current views. */
void rg__span_rendering(const rg_graph *g, uint32_t s, rg_span_rendering *out);
/* Each stage's results freed (device objects destroyed); graph.c frees
 * them in reverse order. */
void rg__memory_plan_free(rg_graph *g);
void rg__place_memory_free(rg_graph *g);
void rg__place_views_free(rg_graph *g);
/* The queues' timeline semaphores (a graph on several queues). */
rg_result rg__place_queues(rg_graph *g);
void rg__place_queues_free(rg_graph *g);
/* The queue families created resources are shared across (VK_SHARING_MODE
 * CONCURRENT when count > 1): the families of the queues in mask. */
uint32_t rg__queue_families(const rg_graph *g, uint32_t mask, uint32_t *families);
/* GPU timings (g->timings): pools, events and units; nothing when off. */
rg_result rg__place_timings(rg_graph *g);
void rg__place_timings_free(rg_graph *g);

#endif
