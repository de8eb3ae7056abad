/* Resource declaration: created and imported textures and buffers, history
 * pairs and their subresource slots (execute/import_objects.c re-points
 * an import's Vulkan objects). Shapes are
 * validated at once (format, extent, mips, samples, subresource count) so
 * the message names the resource; a relative extent (size_of) is resolved
 * then too. A resource is hashed by what identifies
 * it, never by the Vulkan objects, so an import re-pointed every frame does
 * not count as a changed declaration.
 */
#include "declare/stages.h"
#include "base/names.h"
#include "base/bits.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static rg__resource *resource_append(rg_graph *g, bool texture, uint32_t sub_count)
{
    if (g->decl.resource_count >= RG__INDEX_MASK) {
        rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "too many resources (%u)", g->decl.resource_count);
        return NULL;
    }
    if (!rg__grow_declaration(g, (void **)&g->decl.resources, &g->decl.resource_cap, g->decl.resource_count + 1,
                              sizeof *g->decl.resources))
        return NULL;
    rg__resource *r = &rg__decl_resources(g)[g->decl.resource_count];
    memset(r, 0, sizeof *r);
    r->is_texture = texture;
    r->sub_base = g->decl.sub_total;
    r->sub_count = sub_count;
    r->history_pair = RG__NONE;
    r->size_of = RG__NONE;
    return r;
}

/* Hashes what identifies the resource: not the Vulkan objects, which an
 * import may re-point every frame. */
/* Appends r (the record past the count) to the declaration; returns its
 * handle id. */
static uint32_t resource_commit(rg_graph *g, rg__resource *r)
{
    rg__resource h = *r;
    h.image = VK_NULL_HANDLE;
    h.view = VK_NULL_HANDLE;
    h.buffer = VK_NULL_HANDLE;
    h.given_usage = 0;
    h.given_by_setter = false;
    rg__hash_bytes(g, &h, sizeof h);
    g->decl.sub_total += r->sub_count;
    return rg__make_id(g, g->decl.resource_count++);
}

/* What an import takes from its desc besides its objects: the usage its
 * objects were made with and the state it enters and leaves the frame in
 * (a texture's layouts are set by the caller). */
static uint32_t import_commit(rg_graph *g, rg__resource *r, VkFlags usage, VkPipelineStageFlags2 initial_stage,
                              VkAccessFlags2 initial_access, VkPipelineStageFlags2 final_stage,
                              VkAccessFlags2 final_access)
{
    r->imported = true;
    r->given_usage = usage;
    r->initial_stage = initial_stage;
    r->initial_access = initial_access;
    r->final_stage = final_stage;
    r->final_access = final_access;
    return resource_commit(g, r);
}

typedef struct texture_shape {
    const char *name;
    VkFormat format;
    uint32_t width, height, mips, layers;
    VkSampleCountFlagBits samples;
} texture_shape;

static rg__resource *texture_append(rg_graph *g, const char *what, const texture_shape *s)
{
    const char *name = s->name ? s->name : "";
    uint32_t mips = s->mips ? s->mips : 1, layers = s->layers ? s->layers : 1;
    VkSampleCountFlagBits samples = s->samples ? s->samples : VK_SAMPLE_COUNT_1_BIT;
    if (s->format == VK_FORMAT_UNDEFINED || s->width == 0 || s->height == 0) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': format undefined or zero extent %ux%u", what, name,
                 s->width, s->height);
        return NULL;
    }
    if (mips > 32 || ((uint32_t)samples & ((uint32_t)samples - 1)) != 0 || samples > VK_SAMPLE_COUNT_64_BIT ||
        (samples > 1 && mips > 1)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': bad mip count %u or sample count %u", what, name, mips,
                 (uint32_t)samples);
        return NULL;
    }
    /* Copy sizes, resolve modes, filters and barrier aspects all follow
     * from the format: one the engine's table does not know is refused
     * here rather than guessed at later. */
    rg_format_info info = rg_format_get_info(s->format);
    if (info.block_size == 0) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': format %s is not supported by the graph (multi-planar or "
                 "unknown)", what, name, rg_format_name(s->format));
        return NULL;
    }
    VkImageAspectFlags aspects = info.aspects;
    uint64_t subs = (uint64_t)rg__popcount32(aspects) * mips * layers;
    if (subs > (1u << 24) || g->decl.sub_total + subs > UINT32_MAX / 2) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': too many subresources", what, name);
        return NULL;
    }
    rg__resource *r = resource_append(g, true, (uint32_t)subs);
    if (!r)
        return NULL;
    rg__copy_name(r->name, s->name, "texture");
    r->format = s->format;
    r->width = s->width;
    r->height = s->height;
    r->mip_levels = mips;
    r->array_layers = layers;
    r->samples = samples;
    r->aspects = aspects;
    return r;
}

/* One axis of a relative size: extent times scale, rounded, at least 1.
 * UINT64_MAX for a product no uint32 can hold (2^33 leaves room for the
 * rounding and keeps the conversion to uint64_t defined). */
static uint64_t scaled_axis(uint32_t extent, double scale, rg_rounding rounding)
{
    double v = (double)extent * scale;
    if (v >= 8589934592.0)
        return UINT64_MAX;
    uint64_t whole = (uint64_t)v;
    double frac = v - (double)whole;
    if ((rounding == RG_ROUND_UP && frac > 0.0) || (rounding == RG_ROUND_NEAREST && frac >= 0.5))
        whole++;
    return whole ? whole : 1;
}

/* The extent desc declares, absolute or relative (rg_texture_desc.size_of).
 * A relative one is resolved here rather than at compile: its source is
 * declared earlier and keeps its extent (rg_texture_set_image refuses
 * another), so the result is the same and every later check sees it. False
 * after recording the error, naming the texture. */
static bool texture_extent(rg_graph *g, const char *fn, const rg_texture_desc *desc, uint32_t *width,
                           uint32_t *height)
{
    const char *name = desc->name ? desc->name : "";
    *width = desc->width;
    *height = desc->height;
    if (desc->size_of.id == 0)
        return true;
    uint32_t i = rg__texture_index(g, desc->size_of);
    if (i == RG__NONE) {
        rg__fail(g, RG_ERROR_INVALID_HANDLE, "%s '%s': size_of handle 0x%x is stale, foreign or not a texture",
                 fn, name, desc->size_of.id);
        return false;
    }
    const rg__resource *src = &g->decl.resources[i];
    if (desc->width || desc->height) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': width and height must be 0 with size_of ('%s'), not %ux%u",
                 fn, name, src->name, desc->width, desc->height);
        return false;
    }
    if (!(desc->scale >= 0.0f) || isinf(desc->scale)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': scale %g is negative, NaN or infinite", fn, name,
                 (double)desc->scale);
        return false;
    }
    if ((unsigned)desc->rounding > (unsigned)RG_ROUND_NEAREST) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': rounding %d is not an rg_rounding", fn, name,
                 (int)desc->rounding);
        return false;
    }
    double scale = desc->scale == 0.0f ? 1.0 : (double)desc->scale;
    uint64_t w = scaled_axis(src->width, scale, desc->rounding);
    uint64_t h = scaled_axis(src->height, scale, desc->rounding);
    if (w > UINT32_MAX || h > UINT32_MAX) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': size_of '%s' (%ux%u) times scale %g is over what a "
                 "uint32 holds", fn, name, src->name, src->width, src->height, (double)desc->scale);
        return false;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return true;
}

/* What a created texture's desc said beyond its resolved shape: the
 * relative size and the extra usage, for rg_declared_get. */
static void relative_size(const rg_graph *g, rg__resource *r, const rg_texture_desc *desc)
{
    r->extra_usage = desc->extra_usage;
    if (desc->size_of.id == 0)
        return;
    r->size_of = rg__texture_index(g, desc->size_of);
    r->scale = desc->scale;
    r->rounding = desc->rounding;
}

static rg_texture texture_create_taken(rg_graph *graph, const rg_texture_desc *desc)
{
    if (!rg__declare_begin(graph, desc, "rg_texture_create"))
        return (rg_texture){0};
    /* The library's own enums are checked, like rg_command_kind: a value
     * outside rg_transient must not pass as AUTO. */
    if ((unsigned)desc->transient > (unsigned)RG_TRANSIENT_FORBID) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create '%s': transient mode %d is not an rg_transient",
                 desc->name ? desc->name : "", (int)desc->transient);
        return (rg_texture){0};
    }
    uint32_t width, height;
    if (!texture_extent(graph, "rg_texture_create", desc, &width, &height))
        return (rg_texture){0};
    texture_shape s = {desc->name, desc->format, width, height, desc->mip_levels, desc->array_layers, desc->samples};
    rg__resource *r = texture_append(graph, "rg_texture_create", &s);
    if (!r)
        return (rg_texture){0};
    r->declared_usage = desc->extra_usage;
    r->transient_mode = desc->transient;
    relative_size(graph, r, desc);
    return (rg_texture){resource_commit(graph, r)};
}

/* Two created textures, adjacent in the declaration: current, then
 * previous; each names the other. Their usages are united at compile
 * (compile_transient.c), placement gives each its own allocation, and
 * execute swaps their images. */
static rg_texture texture_create_history_taken(rg_graph *graph, const rg_texture_desc *desc, rg_texture *previous)
{
    if (previous)
        *previous = (rg_texture){0};
    if (!rg__usable(graph))
        return (rg_texture){0};
    const char *name = desc && desc->name ? desc->name : "";
    if (!desc || !previous) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history '%s': NULL %s", name,
                 desc ? "previous" : "desc");
        return (rg_texture){0};
    }
    if (desc->transient != RG_TRANSIENT_AUTO && desc->transient != RG_TRANSIENT_FORBID) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history '%s': transient mode %d refused: a "
                 "history texture's contents outlive the frame, so it is never transient", name,
                 (int)desc->transient);
        return (rg_texture){0};
    }
    /* The first frame clears previous (vkCmdClear*Image takes no
     * compressed format). */
    rg_format_info info = rg_format_get_info(desc->format);
    if (info.block_width > 1 || info.block_height > 1) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create_history '%s': compressed format %s refused: "
                 "the first frame clears the previous contents", name, rg_format_name(desc->format));
        return (rg_texture){0};
    }
    uint32_t width, height;
    if (!texture_extent(graph, "rg_texture_create_history", desc, &width, &height))
        return (rg_texture){0};
    char previous_name[RG__NAME_MAX];
    snprintf(previous_name, sizeof previous_name, "%s (previous)", desc->name && desc->name[0] ? desc->name : "texture");
    const char *names[2] = {desc->name, previous_name};
    uint32_t first = graph->decl.resource_count;
    for (uint32_t k = 0; k < 2; k++) {
        texture_shape s = {names[k], desc->format, width, height, desc->mip_levels, desc->array_layers,
                           desc->samples};
        rg__resource *r = texture_append(graph, "rg_texture_create_history", &s);
        if (!r)
            return (rg_texture){0};
        r->declared_usage = desc->extra_usage;
        r->transient_mode = RG_TRANSIENT_FORBID;
        relative_size(graph, r, desc);
        r->history_pair = first + 1 - k;
        r->history_previous = k == 1;
        r->history_clear = desc->history_clear;
        resource_commit(graph, r);
    }
    *previous = (rg_texture){rg__make_id(graph, first + 1)};
    return (rg_texture){rg__make_id(graph, first)};
}

static rg_texture texture_import_taken(rg_graph *graph, const rg_texture_import_desc *desc)
{
    if (!rg__declare_begin(graph, desc, "rg_texture_import"))
        return (rg_texture){0};
    texture_shape s = {desc->name, desc->format, desc->width, desc->height,
                       desc->mip_levels, desc->array_layers, desc->samples};
    rg__resource *r = texture_append(graph, "rg_texture_import", &s);
    if (!r)
        return (rg_texture){0};
    r->image = desc->image;
    r->view = desc->view;
    r->initial_layout = desc->initial_layout;
    r->final_layout = desc->final_layout;
    return (rg_texture){import_commit(graph, r, desc->usage, desc->initial_stage, desc->initial_access,
                                      desc->final_stage, desc->final_access)};
}

/* The part of creating and importing a buffer that is the same. */
static rg__resource *buffer_append(rg_graph *graph, const char *fn, const char *name, VkDeviceSize size)
{
    if (!rg__usable(graph))
        return NULL;
    if (size == 0) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "%s '%s': NULL desc or zero size", fn, name ? name : "");
        return NULL;
    }
    rg__resource *r = resource_append(graph, false, 1);
    if (!r)
        return NULL;
    rg__copy_name(r->name, name, "buffer");
    r->size = size;
    return r;
}

/* A buffer sized from a texture (rg_buffer_desc.size_of): its height x
 * (width x per_texel + per_row) bytes, resolved here as a relative
 * texture's extent is; *index its source. False after recording the
 * error, naming the buffer. */
static bool buffer_size(rg_graph *g, const rg_buffer_desc *desc, VkDeviceSize *size, uint32_t *index)
{
    const char *name = desc->name ? desc->name : "";
    *size = desc->size;
    *index = RG__NONE;
    if (desc->size_of.id == 0)
        return true;
    uint32_t i = rg__texture_index(g, desc->size_of);
    if (i == RG__NONE) {
        rg__fail(g, RG_ERROR_INVALID_HANDLE, "rg_buffer_create '%s': size_of handle 0x%x is stale, foreign or not a "
                 "texture", name, desc->size_of.id);
        return false;
    }
    const rg__resource *src = &g->decl.resources[i];
    if (desc->size || (desc->per_texel == 0 && desc->per_row == 0)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_buffer_create '%s': with size_of ('%s') the size must be 0 and "
                 "per_texel or per_row given, not size %llu, per_texel %llu, per_row %llu", name, src->name,
                 (unsigned long long)desc->size, (unsigned long long)desc->per_texel,
                 (unsigned long long)desc->per_row);
        return false;
    }
    /* height x (width x per_texel + per_row), each step checked. */
    uint64_t row;
    bool over = rg__mul_overflow_u64(desc->per_texel, src->width, &row) || row > UINT64_MAX - desc->per_row;
    if (over || rg__mul_overflow_u64(row + desc->per_row, src->height, size)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_buffer_create '%s': size_of '%s' (%ux%u) with %llu bytes per "
                 "texel and %llu per row is over what a VkDeviceSize holds", name, src->name, src->width,
                 src->height, (unsigned long long)desc->per_texel, (unsigned long long)desc->per_row);
        return false;
    }
    *index = i;
    return true;
}

static rg_buffer buffer_create_taken(rg_graph *graph, const rg_buffer_desc *desc)
{
    VkDeviceSize size = desc ? desc->size : 0;
    uint32_t size_of = RG__NONE;
    if (desc && rg__usable(graph) && !buffer_size(graph, desc, &size, &size_of))
        return (rg_buffer){0};
    rg__resource *r = buffer_append(graph, "rg_buffer_create", desc ? desc->name : NULL, size);
    if (!r)
        return (rg_buffer){0};
    r->buffer_usage = desc->extra_usage;
    r->extra_usage = desc->extra_usage;
    r->size_of = size_of;
    if (size_of != RG__NONE) {
        r->per_texel = desc->per_texel;
        r->per_row = desc->per_row;
    }
    return (rg_buffer){resource_commit(graph, r)};
}

static rg_buffer buffer_import_taken(rg_graph *graph, const rg_buffer_import_desc *desc)
{
    rg__resource *r = buffer_append(graph, "rg_buffer_import", desc ? desc->name : NULL, desc ? desc->size : 0);
    if (!r)
        return (rg_buffer){0};
    r->buffer = desc->buffer;
    return (rg_buffer){import_commit(graph, r, desc->usage, desc->initial_stage, desc->initial_access,
                                     desc->final_stage, desc->final_access)};
}

/* The public calls: each takes the graph (rg__enter). */

rg_texture rg_texture_create(rg_graph *graph, const rg_texture_desc *desc)
{
    RG__DECLARING(graph, "rg_texture_create", rg_texture, texture_create_taken(graph, desc));
}

rg_texture rg_texture_create_history(rg_graph *graph, const rg_texture_desc *desc, rg_texture *previous)
{
    RG__DECLARING(graph, "rg_texture_create_history", rg_texture, texture_create_history_taken(graph, desc, previous));
}

rg_texture rg_texture_import(rg_graph *graph, const rg_texture_import_desc *desc)
{
    RG__DECLARING(graph, "rg_texture_import", rg_texture, texture_import_taken(graph, desc));
}

rg_buffer rg_buffer_create(rg_graph *graph, const rg_buffer_desc *desc)
{
    RG__DECLARING(graph, "rg_buffer_create", rg_buffer, buffer_create_taken(graph, desc));
}

rg_buffer rg_buffer_import(rg_graph *graph, const rg_buffer_import_desc *desc)
{
    RG__DECLARING(graph, "rg_buffer_import", rg_buffer, buffer_import_taken(graph, desc));
}
