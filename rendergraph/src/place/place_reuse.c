/* Placement stage "reuse": the objects of freed placements kept for the
 * next one (place/reuse.h says what is kept, what matches, and when it is
 * given back). The cache grows only, so a graph re-declared alike every
 * frame neither creates Vulkan objects nor allocates host memory here.
 */
#include "base/device.h"
#include "base/names.h"
#include "place/reuse.h"
#include "place/stages.h"

#include <string.h>

/* Placements an unused object waits for (rg_graph_desc.reuse_age 0). */
#define DEFAULT_AGE 2

rg__reuse *rg__reuse_of(rg_graph *g)
{
    if (!g->reuse)
        g->reuse = rg__calloc(g, 1, sizeof *g->reuse);
    return g->reuse;
}

void rg__retire_object(const rg_graph *g, VkImageView view, VkImage image, VkBuffer buffer)
{
    if (view)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = view});
    if (image)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_IMAGE, .u.image = image});
    if (buffer)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_BUFFER, .u.buffer = buffer});
}

static void retire_object(const rg_graph *g, const rg__kept_object *o)
{
    rg__retire_object(g, o->view, o->image, o->buffer);
}

/* Drops what the last placement took (it is that placement's now, kept
 * again when it is freed) and what is too old (retired); the rest ages. */
void rg__reuse_age(const rg_graph *g, rg__reuse *k)
{
    uint32_t limit = g->reuse_age ? g->reuse_age : DEFAULT_AGE, n = 0;
    k->released = 0;
    for (uint32_t i = 0; i < k->view_count; i++) {
        rg__kept_view v = k->views[i];
        if (!v.taken && ++v.age >= limit)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = v.view});
        else if (!v.taken)
            k->views[n++] = v;
    }
    k->view_count = n;
    n = 0;
    for (uint32_t i = 0; i < k->object_count; i++) {
        rg__kept_object o = k->objects[i];
        if (!o.taken && ++o.age >= limit) {
            retire_object(g, &o);
            k->released++;
        } else if (!o.taken) {
            k->objects[n++] = o;
        }
    }
    k->object_count = n;
    n = 0;
    for (uint32_t i = 0; i < k->memory_count; i++) {
        rg__kept_memory m = k->memories[i];
        if (!m.taken && ++m.age >= limit)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_MEMORY, .u.memory = m.m.memory});
        else if (!m.taken)
            k->memories[n++] = m;
    }
    k->memory_count = n;
}

bool rg__keep_object(const rg_graph *g, rg__reuse *k, const rg__kept_object *o)
{
    if (!rg__grow(g, (void **)&k->objects, &k->object_cap, k->object_count + 1, sizeof *k->objects))
        return false;
    k->objects[k->object_count] = *o;
    k->objects[k->object_count].taken = false;
    k->objects[k->object_count].generation = k->generation;
    k->objects[k->object_count++].age = 0;
    return true;
}

bool rg__keep_memory(const rg_graph *g, rg__reuse *k, const rg__allocation *m)
{
    if (!rg__grow(g, (void **)&k->memories, &k->memory_cap, k->memory_count + 1, sizeof *k->memories))
        return false;
    k->memories[k->memory_count++] = (rg__kept_memory){.m = *m, .generation = k->generation};
    return true;
}

bool rg__keep_view(const rg_graph *g, rg__reuse *k, const rg__kept_view *v)
{
    if (!rg__grow(g, (void **)&k->views, &k->view_cap, k->view_count + 1, sizeof *k->views))
        return false;
    k->views[k->view_count] = *v;
    k->views[k->view_count].taken = false;
    k->views[k->view_count].generation = k->generation;
    k->views[k->view_count++].age = 0;
    return true;
}

void rg__reuse_release(const rg_graph *g, rg__reuse *k)
{
    if (!k)
        return;
    for (uint32_t i = 0; i < k->view_count; i++)
        if (!k->views[i].taken)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_VIEW, .u.view = k->views[i].view});
    for (uint32_t i = 0; i < k->object_count; i++)
        if (!k->objects[i].taken)
            retire_object(g, &k->objects[i]);
    for (uint32_t i = 0; i < k->memory_count; i++)
        if (!k->memories[i].taken)
            rg__retire(g, (rg__retired){.kind = RG__RETIRED_MEMORY, .u.memory = k->memories[i].m.memory});
    if (k->semaphore)
        rg__retire(g, (rg__retired){.kind = RG__RETIRED_SEMAPHORE, .u.semaphore = k->semaphore});
    k->released += k->object_count;
    k->view_count = k->object_count = k->memory_count = 0;
    k->semaphore = k->point_semaphore = VK_NULL_HANDLE;
    k->timeline = k->submitted = k->point_value = 0;
}

void rg__reuse_free(rg_graph *g)
{
    rg__reuse *k = g->reuse;
    if (!k)
        return;
    RG__FREE_ALL(g, k->memories, k->objects, k->views, k->scratch, k->keys, k);
    g->reuse = NULL;
}

/* ------------------------------------------------------------- taking */

/* The kept pool memory a pool of this type and class would take: of
 * those not taken, the one holding the most objects the declaration can
 * use (score, rg__reuse_hints), then the largest; RG__NONE: none. */
static uint32_t pool_choice(const rg__reuse *k, uint32_t memory_type, bool optimal)
{
    uint32_t best = RG__NONE;
    for (uint32_t i = 0; i < k->memory_count; i++) {
        const rg__kept_memory *m = &k->memories[i], *b = best == RG__NONE ? NULL : &k->memories[best];
        if (m->m.pool && !m->taken && m->m.memory_type == memory_type && m->m.optimal == optimal &&
            (!b || m->score > b->score || (m->score == b->score && m->m.size > b->m.size)))
            best = i;
    }
    return best;
}

uint64_t rg__reuse_name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 0x100000001b3ull;
    return h;
}

/* The kept memory entry of `memory`, or RG__NONE. */
static uint32_t memory_entry(const rg__reuse *k, VkDeviceMemory memory)
{
    for (uint32_t i = 0; i < k->memory_count; i++)
        if (k->memories[i].m.memory == memory)
            return i;
    return RG__NONE;
}

/* An untaken object of key `key` that `fits`, the one of the same name
 * first; RG__NONE: none. */
static uint32_t find_object(const rg__reuse *k, uint64_t key, uint64_t name, const bool *skip,
                            bool (*fits)(const rg__reuse *, const rg__kept_object *, const void *), const void *arg)
{
    uint32_t any = RG__NONE;
    for (uint32_t i = 0; i < k->object_count; i++) {
        const rg__kept_object *o = &k->objects[i];
        if (o->taken || o->key != key || (skip && skip[i]) || !fits(k, o, arg))
            continue;
        if (o->name == name)
            return i;
        if (any == RG__NONE)
            any = i;
    }
    return any;
}

/* A pooled object in the memory its pool would take. */
static bool in_chosen_pool(const rg__reuse *k, const rg__kept_object *o, const void *arg)
{
    (void)arg;
    uint32_t m = memory_entry(k, o->memory);
    return o->kind == RG_MEMORY_POOLED && m != RG__NONE &&
           pool_choice(k, k->memories[m].m.memory_type, k->memories[m].m.optimal) == m;
}

bool rg__reuse_hints(const rg_graph *g, rg__reuse *k, rg__mem_hint *hints)
{
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++)
        hints[ri] = (rg__mem_hint){.memory_type = RG__NONE};
    if (!k->usable)
        return true;
    /* Each kept object hints one resource (scratch: a flag per object);
     * the resources' keys (0: not created). */
    if (!rg__grow(g, (void **)&k->scratch, &k->scratch_cap, k->object_count + 1, sizeof *k->scratch) ||
        !rg__grow(g, (void **)&k->keys, &k->key_cap, g->decl.resource_count + 1, sizeof *k->keys))
        return false;
    bool *skip = k->scratch;
    memset(skip, 0, k->object_count * sizeof *skip);
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++)
        k->keys[ri] = rg__creates(g, ri) && !rg__folded(g, ri) ? rg__object_key(g, ri) : 0;
    /* Each pool memory's score: its pooled objects some resource could take. */
    for (uint32_t m = 0; m < k->memory_count; m++)
        k->memories[m].score = 0;
    for (uint32_t i = 0; i < k->object_count; i++) {
        uint32_t m = memory_entry(k, k->objects[i].memory);
        for (uint32_t ri = 0; m != RG__NONE && ri < g->decl.resource_count; ri++)
            if (k->keys[ri] == k->objects[i].key) {
                k->memories[m].score++;
                break;
            }
    }
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        if (!k->keys[ri])
            continue;
        uint32_t i = find_object(k, k->keys[ri], rg__reuse_name_hash(g->decl.resources[ri].name), skip,
                                 in_chosen_pool, NULL);
        if (i == RG__NONE)
            continue;
        skip[i] = true;
        uint32_t m = memory_entry(k, k->objects[i].memory);
        hints[ri] = (rg__mem_hint){k->memories[m].m.memory_type, k->objects[i].offset};
    }
    return true;
}

rg__allocation rg__reuse_take_pool(rg__reuse *k, uint32_t memory_type, bool optimal, VkDeviceSize size)
{
    uint32_t i = k && k->usable ? pool_choice(k, memory_type, optimal) : RG__NONE;
    if (i == RG__NONE || k->memories[i].m.size < size)
        return (rg__allocation){0};
    k->memories[i].taken = true;
    return k->memories[i].m;
}

typedef struct where {
    rg_memory_kind kind;
    VkDeviceMemory memory;
    VkDeviceSize offset;
} where;

static bool at_where(const rg__reuse *k, const rg__kept_object *o, const void *arg)
{
    (void)k;
    const where *w = arg;
    if (o->kind != w->kind)
        return false;
    return w->kind != RG_MEMORY_POOLED || (o->memory == w->memory && o->offset == w->offset);
}

const rg__kept_object *rg__reuse_take_object(const rg_graph *g, rg__reuse *k, uint32_t ri, rg_memory_kind kind,
                                            VkDeviceMemory memory, VkDeviceSize offset)
{
    if (!k || !k->usable || (kind == RG_MEMORY_POOLED && !memory))
        return NULL;
    where w = {kind, memory, offset};
    uint32_t i = find_object(k, rg__object_key(g, ri), rg__reuse_name_hash(g->decl.resources[ri].name), NULL, at_where, &w);
    if (i == RG__NONE)
        return NULL;
    rg__kept_object *o = &k->objects[i];
    o->taken = true;
    k->taken++;
    k->exact += o->generation == k->generation && o->resource == ri;
    if (kind != RG_MEMORY_POOLED) { /* its own memory comes with it */
        uint32_t m = memory_entry(k, o->memory);
        if (m != RG__NONE)
            k->memories[m].taken = true;
    }
    if (o->name != rg__reuse_name_hash(g->decl.resources[ri].name)) /* a debugger shows the new name */
        rg__name_object(g->dev, o->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER,
                        o->image ? (uint64_t)o->image : (uint64_t)o->buffer, "%s", g->decl.resources[ri].name);
    return o;
}

bool rg__reuse_take_view(rg__reuse *k, VkImage image, uint32_t mip, uint32_t base_layer, uint32_t layers,
                         VkImageView *out)
{
    for (uint32_t i = 0; k && k->usable && i < k->view_count; i++) {
        rg__kept_view *v = &k->views[i];
        if (!v->taken && v->image == image && v->mip == mip && v->base_layer == base_layer && v->layers == layers) {
            v->taken = true;
            *out = v->view;
            return true;
        }
    }
    return false;
}


uint32_t rg__reuse_take_back(rg__reuse *k)
{
    uint32_t objects = 0;
    for (uint32_t i = 0; i < k->object_count; i++)
        if (!k->objects[i].taken && k->objects[i].generation == k->generation)
            k->objects[i].taken = true, objects++;
    for (uint32_t i = 0; i < k->memory_count; i++)
        k->memories[i].taken = k->memories[i].taken || k->memories[i].generation == k->generation;
    for (uint32_t i = 0; i < k->view_count; i++)
        k->views[i].taken = k->views[i].taken || k->views[i].generation == k->generation;
    k->taken = k->exact = objects;
    return objects;
}
