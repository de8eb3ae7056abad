/* The placement stages' functions (memory_plan.c, place_*.c), and what
 * placement decides per resource: whether it is created and its Vulkan
 * objects this frame. Not installed.
 */
#ifndef RG_PLACE_STAGES_H
#define RG_PLACE_STAGES_H

#include "compile/stages.h"
#include "place/results.h"

/* Whether placement creates resource r: a created one that a recorded
 * command uses, or a half of a history pair either half of which is used
 * (the halves trade images every frame, so both exist or neither). */
static inline bool rg__creates(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (r->imported)
        return false;
    const rg__lifetime *l = g->compiled->lifetimes.of;
    return l[ri].first != RG__NONE || (rg__history(r) && l[r->history_pair].first != RG__NONE);
}

/* Resource ri's image as placement made it (or the application's, for
 * an import): what placement itself uses. A history half's image for a
 * frame is execute's to say (rg__image). */
static inline VkImage rg__placed_image(const rg_graph *g, uint32_t ri)
{
    const rg__resource *r = &g->decl.resources[ri];
    const rg__object *of = g->placement->objects.of;
    return r->imported ? r->image : of ? of[ri].image : VK_NULL_HANDLE;
}
/* Whether resource ri shares a pool's memory (after placement). */
static inline bool rg__pooled(const rg_graph *g, uint32_t ri)
{
    return g->placement->objects.of && g->placement->objects.of[ri].pooled;
}

/* Each stage fills its own part of the placement (place/results.h) from a
 * const graph; graph.c runs them in order and frees their parts in
 * reverse order (device objects go to the device's retirement list). */

/* Plans placement from requirements (resource_count entries; imports' and
 * unused resources' are ignored). Device-free. hints (NULL: none): where
 * pooled resources were before (rg__reuse_hints), kept where no conflict
 * stands in the way. */
rg_result rg__memory_plan(const rg_graph *g, const VkPhysicalDeviceMemoryProperties *props,
                          const rg__mem_requirements *reqs, const rg__mem_hint *hints, rg__mem_plan *out);
void rg__memory_plan_free(const rg_graph *g, rg__mem_plan *plan);
rg_result rg__place_support(const rg_graph *g);
/* A created resource's create info (families: RG_QUEUE_COUNT entries it
 * points into), and a key equal for interchangeable create infos. */
VkImageCreateInfo rg__image_info(const rg_graph *g, const rg__resource *r, uint32_t *families);
VkBufferCreateInfo rg__buffer_info(const rg_graph *g, const rg__resource *r, uint32_t *families);
uint64_t rg__object_key(const rg_graph *g, uint32_t ri);
/* Fills reqs (resource_count entries) from the device. */
void rg__place_requirements(const rg_graph *g, rg__mem_requirements *reqs);
/* Creates the images and buffers, allocates and binds them as planned,
 * taking kept ones that match from reuse (NULL: none; place/reuse.h). */
rg_result rg__place_memory(const rg_graph *g, rg__placed_objects *out, struct rg__reuse *reuse);
/* The Vulkan objects into reuse (NULL: retired), once; the arrays stay. */
void rg__place_memory_hand_over(const rg_graph *g, rg__placed_objects *objects, struct rg__reuse *reuse);
/* The arrays, and the objects retired unless handed over. */
void rg__place_memory_free(const rg_graph *g, rg__placed_objects *objects);
rg_result rg__place_views(const rg_graph *g, rg__placed_views *out, struct rg__reuse *reuse);
void rg__place_views_hand_over(const rg_graph *g, rg__placed_views *views, struct rg__reuse *reuse);
void rg__place_views_free(const rg_graph *g, rg__placed_views *views);
/* A view of mip `mip`, layers base_layer..+layers of texture r's image.
 * what: the call making it, for the message. */
rg_result rg__attachment_view(const rg_graph *g, const char *what, const rg__resource *r, VkImage image,
                              uint32_t mip, uint32_t base_layer, uint32_t layers, VkImageView *out);
/* The view made for (key, key2, image) among count views: false when
 * none. */
bool rg__made_view_find(const rg__made_view *of, uint32_t count, uint32_t key, uint32_t key2, VkImage image,
                        VkImageView *out);
/* The views retired to the device, the list freed. */
void rg__made_views_free(const rg_graph *g, rg__made_views *views);
/* Span s's vkCmdBeginRendering from its slots' views (views: per span,
 * as execute bound them). */
void rg__span_rendering(const rg_graph *g, const rg__span_views *views, uint32_t s, rg_span_rendering *out);
/* The queues' timeline semaphores (a graph on several queues). */
rg_result rg__place_queues(const rg_graph *g, VkSemaphore *semaphores);
void rg__place_queues_free(const rg_graph *g, VkSemaphore *semaphores);
/* The queue families created resources are shared across (VK_SHARING_MODE
 * CONCURRENT when count > 1): the families of the queues in mask. */
uint32_t rg__queue_families(const rg_graph *g, uint32_t mask, uint32_t *families);
/* GPU timings: pools, events and units; nothing when off. */
rg_result rg__place_timings(const rg_graph *g, rg__timings *out);
void rg__place_timings_free(const rg_graph *g, rg__timings *t);

#endif
