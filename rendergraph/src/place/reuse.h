/* The Vulkan objects of freed placements, kept for the next placement of
 * the same graph (place_reuse.c): a graph re-declared every frame places
 * the same images, views, memory and timeline again instead of making
 * them anew (rendergraph.h, rg_graph_reset). Not installed.
 *
 * A placement freed while the graph lives on (rg_graph_reset, a
 * re-placement) hands its created resources' objects, its pools' and
 * resources' own memory, its attachment views and its graphics timeline
 * here instead of to retirement. The next placement takes what matches:
 *   - a pool's memory: the largest kept one of the pool's memory type and
 *     class, where the new pool fits;
 *   - a pooled image or buffer: one of the same create info (rg__object_key)
 *     bound to that memory at the offset the new plan gives it; the plan
 *     prefers each resource's kept offset (rg__reuse_hints), so a frame
 *     declared alike lands where it was;
 *   - a lazy or dedicated one: one of the same create info and kind, with
 *     its own memory;
 *   - an attachment view: one of the same image and subresources;
 *   - the timeline semaphore, its values going on where they were.
 * What no placement took for `age` placements in a row (rg_graph_desc.
 * reuse_age) goes to retirement at the next keep, so a frame that shrank
 * gives its memory back. Only graphs on the graphics queue alone keep
 * anything (the first frame after a placement that took kept objects
 * waits for all earlier work on that queue: execute.c), and pools from
 * rg_graph_desc.pool_memory are not kept (the application's allocator
 * owns their ranges).
 */
#ifndef RG_PLACE_REUSE_H
#define RG_PLACE_REUSE_H

#include "model.h"
#include "place/results.h"

typedef struct rg__kept_memory {
    rg__allocation m;
    bool taken;                       /* by the placement being made */
    uint32_t age;                     /* placements that did not take it */
    uint32_t score;                   /* its objects the placement being made could take */
    uint64_t generation;              /* of the keep that kept it (rg__reuse.generation) */
} rg__kept_memory;

typedef struct rg__kept_object {
    uint64_t key, name;               /* rg__object_key; the resource name's hash */
    VkImage image;
    VkBuffer buffer;
    VkImageView view;                 /* whole view, or none */
    VkDeviceMemory memory;            /* bound to, at offset */
    VkDeviceSize offset;
    rg_memory_kind kind;              /* POOLED, LAZY or DEDICATED */
    uint32_t fallback_type;           /* rg__object's */
    uint32_t resource;                /* its resource's index in the placement it was kept from */
    uint64_t generation;              /* of the keep that kept it (rg__reuse.generation) */
    bool taken;
    uint32_t age;
} rg__kept_object;

typedef struct rg__kept_view {
    VkImage image;
    uint32_t mip, base_layer, layers;
    VkImageView view;
    bool taken;
    uint32_t age;
    uint64_t generation;
} rg__kept_view;

typedef struct rg__reuse {
    rg__kept_memory *memories;
    rg__kept_object *objects;
    rg__kept_view *views;
    uint32_t memory_count, memory_cap, object_count, object_cap, view_count, view_cap;
    VkSemaphore semaphore;            /* the graphics timeline, with its values */
    uint64_t timeline, submitted;
    /* What the kept objects wait for when retired: that timeline at the
     * value the frames of the newest kept placement reached (kept when a
     * placement takes the timeline back). */
    VkSemaphore point_semaphore;
    uint64_t point_value;
    bool usable;                      /* the placement being made may take (one queue, on the device) */
    uint64_t placed_hash;             /* the declaration the newest kept placement was made for */
    uint64_t generation;              /* keeps so far */
    uint32_t exact;                   /* objects taken by the resource that had them in the newest */
    uint32_t taken, made, released;   /* objects: by the placement made last; released at the last keep */
    bool *scratch;                    /* rg__reuse_hints': a flag per object, */
    uint64_t *keys;                   /* and per resource its key (0: not created) */
    uint32_t scratch_cap, key_cap;
} rg__reuse;

/* The cache, made on first use (NULL when out of host memory: nothing is
 * kept). */
rg__reuse *rg__reuse_of(rg_graph *g);
/* A new keep: what the placement made last did not take ages; what is
 * older than the graph's reuse age goes to the open retire group. */
void rg__reuse_age(const rg_graph *g, rg__reuse *k);
/* Kept instead of retired; false when the cache cannot grow (the caller
 * retires it). */
bool rg__keep_object(const rg_graph *g, rg__reuse *k, const rg__kept_object *o);
bool rg__keep_memory(const rg_graph *g, rg__reuse *k, const rg__allocation *m);
bool rg__keep_view(const rg_graph *g, rg__reuse *k, const rg__kept_view *v);
/* Everything to the open retire group (graph destroyed, or a placement
 * that may not take). */
void rg__reuse_release(const rg_graph *g, rg__reuse *k);
/* A created resource's objects (any may be VK_NULL_HANDLE) retired. */
void rg__retire_object(const rg_graph *g, VkImageView view, VkImage image, VkBuffer buffer);
void rg__reuse_free(rg_graph *g);

/* Placement: per created resource its kept pooled offset (memory_type
 * RG__NONE: none), for rg__memory_plan; false when out of host memory. */
bool rg__reuse_hints(const rg_graph *g, rg__reuse *k, rg__mem_hint *hints);
/* A kept pool memory for a pool of this type and class and size (memory
 * VK_NULL_HANDLE: none fits). */
rg__allocation rg__reuse_take_pool(rg__reuse *k, uint32_t memory_type, bool optimal, VkDeviceSize size);
/* A kept object for resource ri bound at (memory, offset) when pooled, or
 * with its own memory of `kind`; NULL: none. */
const rg__kept_object *rg__reuse_take_object(const rg_graph *g, rg__reuse *k, uint32_t ri, rg_memory_kind kind,
                                            VkDeviceMemory memory, VkDeviceSize offset);
uint64_t rg__reuse_name_hash(const char *name);
/* Everything the newest keep kept, taken back whole by the placement it
 * came from (a stash restored: graph_place.c); the objects' count. */
uint32_t rg__reuse_take_back(rg__reuse *k);
bool rg__reuse_take_view(rg__reuse *k, VkImage image, uint32_t mip, uint32_t base_layer, uint32_t layers,
                         VkImageView *out);

#endif
