/* Descriptors from the graph (rendergraph.h, rg_record_image_info): what
 * a record callback binds for a shader access of its command, taken from
 * the declaration and the placement, so that a descriptor can never name
 * another view, layout or range than the one the barriers were written
 * for (vuk's bind_sampled_image and Granite's get_physical_texture_resource
 * answer the same question).
 *
 * An access that covers its texture whole binds the texture's own view
 * (placement made it, with the depth aspect alone for a sampled depth
 * format; an import's is the application's). Any other access, and any
 * access to a depth+stencil format's texture whose own view has both
 * aspects, gets a view of exactly its subresources, made on first request
 * per (access, image) and kept in the graph's access views
 * (rg__execution.access_views) until the placement is freed.
 */
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"
#include "base/names.h"
#include "place/stages.h"

#include <string.h>

/* The access bits a descriptor serves. */
static const VkAccessFlags2 shader_access =
    VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT |
    VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_UNIFORM_READ_BIT |
    VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT;

rg_command rg_record_command(const rg_record_context *rc)
{
    if (!rc || rc->command == RG__NONE)
        return (rg_command){0};
    return (rg_command){rg__make_id(rc->graph, rc->command)};
}

/* The command being recorded, or a refusal naming the call. */
static const rg__cmd *current(const rg_record_context *rc, const char *what)
{
    if (rc->command == RG__NONE) {
        rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT,
                   "%s: the record context is not recording a command (use rg_record_context_for)", what);
        return NULL;
    }
    return &rc->graph->decl.cmds[rc->command];
}

/* The command's one shader access to resource ri, as an index into
 * decl.accesses; RG__NONE after a refusal. */
static uint32_t find_access(const rg_record_context *rc, const rg__cmd *c, uint32_t ri, const char *what)
{
    const rg_graph *g = rc->graph;
    const char *kind = g->decl.resources[ri].is_texture ? "texture" : "buffer";
    uint32_t found = RG__NONE;
    bool other = false;
    for (uint32_t k = 0; k < c->access_count; k++) {
        uint32_t ai = c->first_access + k;
        const rg__access *a = &g->decl.accesses[ai];
        if (a->resource != ri)
            continue;
        if (!(a->access & shader_access)) {
            other = true;
            continue;
        }
        if (found != RG__NONE && memcmp(&g->decl.accesses[found].range, &a->range, sizeof a->range) != 0) {
            rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT,
                       "%s: command '%s' declares %s '%s' twice over different ranges: name the access "
                       "(rg_record_access_%s_info)", what, c->name, kind, g->decl.resources[ri].name,
                       g->decl.resources[ri].is_texture ? "image" : "buffer");
            return RG__NONE;
        }
        if (found == RG__NONE)
            found = ai;
    }
    if (found == RG__NONE)
        rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s' %s %s '%s'%s", what, c->name,
                   other ? "declares no shader access to" : "did not declare", kind, g->decl.resources[ri].name,
                   other ? " (only a copy, vertex, index, indirect or attachment use)" : "");
    return found;
}

/* The command's access number k, checked: a shader access to the kind of
 * resource asked for. */
static uint32_t nth_access(const rg_record_context *rc, const rg__cmd *c, uint32_t k, bool texture, const char *what)
{
    const rg_graph *g = rc->graph;
    if (k >= c->access_count) {
        rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s' has %u accesses, not %u", what, c->name,
                   c->access_count, k + 1);
        return RG__NONE;
    }
    uint32_t ai = c->first_access + k;
    const rg__access *a = &g->decl.accesses[ai];
    const rg__resource *r = &g->decl.resources[a->resource];
    if (r->is_texture != texture || !(a->access & shader_access)) {
        rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT, "%s: access %u of command '%s' (%s '%s') is not a shader "
                   "access to a %s", what, k, c->name, r->is_texture ? "texture" : "buffer", r->name,
                   texture ? "texture" : "buffer");
        return RG__NONE;
    }
    return ai;
}

static bool whole(const rg__resource *r, const rg_range *range)
{
    return range->base_mip == 0 && range->mip_count == r->mip_levels && range->base_layer == 0 &&
           range->layer_count == r->array_layers;
}

/* The view of access ai of `image`, found or made; under the graph's views
 * lock (chunks on other threads may ask at once). */
static rg_result find_or_make_view(const rg_record_context *rc, uint32_t ai, VkImage image, VkImageAspectFlags aspect,
                                   const char *what, VkImageView *out)
{
    rg_graph *g = rc->graph;
    const rg__access *a = &g->decl.accesses[ai];
    const rg__resource *r = &g->decl.resources[a->resource];
    rg__made_views *made = rc->access_views;
    if (rg__made_view_find(made->of, made->count, ai, 0, image, out))
        return RG_SUCCESS;
    if (!rg__grow(g, (void **)&made->of, &made->cap, made->count + 1, sizeof *made->of))
        return rg__report(g, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", what);
    bool array = r->array_layers > 1;
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = r->format,
        .subresourceRange = { aspect, a->range.base_mip, a->range.mip_count, a->range.base_layer,
                              a->range.layer_count },
    };
    VkResult vr = g->dev->vk.CreateImageView(g->dev->device, &ci, g->dev->vk_alloc, out);
    if (vr != VK_SUCCESS)
        return rg__report(g, vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY
                               ? RG_ERROR_OUT_OF_MEMORY : RG_ERROR_VULKAN,
                          "%s: view of texture '%s' (mips %u+%u, layers %u+%u): %s", what, r->name,
                          a->range.base_mip, a->range.mip_count, a->range.base_layer, a->range.layer_count,
                          rg_vk_result_string(vr));
    rg__name_view(g->dev, *out, r->name, a->range.base_mip, a->range.mip_count, a->range.base_layer,
                  a->range.layer_count);
    made->of[made->count++] = (rg__made_view){ ai, 0, image, *out };
    return RG_SUCCESS;
}

void rg__access_views_free(rg_graph *g, rg__made_views *access_views) { rg__made_views_free(g, access_views); }

/* The view of access ai's subresources of the texture's current image. */
static rg_result access_view(const rg_record_context *rc, uint32_t ai, const char *what, VkImageView *out)
{
    rg_graph *g = rc->graph;
    const rg__access *a = &g->decl.accesses[ai];
    const rg__resource *r = &g->decl.resources[a->resource];
    VkImageAspectFlags aspect =
        (r->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    /* The texture's own view serves a whole access unless it has both
     * depth and stencil aspects (placement's view of a texture that is
     * never sampled keeps both). */
    bool own_aspect = r->imported || !(r->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) ||
                      (rg__image_usage(g, a->resource) & VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImage image = rg__image(g, a->resource);
    VkImageView own = rg__view(g, a->resource);
    if (whole(r, &a->range) && own_aspect && !rg__history(r) && own != VK_NULL_HANDLE) {
        *out = own;
        return RG_SUCCESS;
    }
    rg__mutex_lock(&g->views_lock);
    rg_result res = find_or_make_view(rc, ai, image, aspect, what, out);
    rg__mutex_unlock(&g->views_lock);
    return res;
}

static rg_result image_info(const rg_record_context *rc, uint32_t ai, const char *what, VkDescriptorImageInfo *out)
{
    if (ai == RG__NONE)
        return RG_ERROR_INVALID_ARGUMENT;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 mask;
    VkImageLayout layout;
    rg__access_effective(rc->graph, ai, &stage, &mask, &layout);
    VkImageView view;
    rg_result r = access_view(rc, ai, what, &view);
    if (r == RG_SUCCESS)
        *out = (VkDescriptorImageInfo){ .imageView = view, .imageLayout = layout };
    return r;
}

static rg_result buffer_info(const rg_record_context *rc, uint32_t ai, VkDescriptorBufferInfo *out)
{
    if (ai == RG__NONE)
        return RG_ERROR_INVALID_ARGUMENT;
    const rg__access *a = &rc->graph->decl.accesses[ai];
    *out = (VkDescriptorBufferInfo){ .buffer = rg__buffer(rc->graph, a->resource), .offset = a->offset,
                                     .range = a->size };
    return RG_SUCCESS;
}

/* What every query does first: clears *out (size bytes), checks for a
 * context of a placed graph recording a command, and finds the access
 * asked for (*ai), by handle (id of the kind `texture` says) or,
 * by_number, as the command's access number n; a refusal is reported. */
static rg_result query_access(const rg_record_context *rc, void *out, size_t size, const char *what, bool texture,
                              bool by_number, uint32_t n, uint32_t *ai)
{
    *ai = RG__NONE;
    if (out)
        memset(out, 0, size);
    if (!rc || !out)
        return RG_ERROR_INVALID_ARGUMENT; /* no graph to say it on */
    if (rc->graph->status->state != RG__PLACED || !rc->graph->placement->on_device)
        return rg__report(rc->graph, RG_ERROR_NOT_PLACED, "%s: graph '%s' is not placed on its device", what,
                          rc->graph->name);
    const rg__cmd *c = current(rc, what);
    if (!c)
        return RG_ERROR_INVALID_ARGUMENT;
    if (by_number) {
        *ai = nth_access(rc, c, n, texture, what);
    } else {
        uint32_t ri = texture ? rg__texture_index(rc->graph, (rg_texture){n})
                              : rg__buffer_index(rc->graph, (rg_buffer){n});
        const char *kind = texture ? "texture" : "buffer";
        if (ri == RG__NONE)
            return rg__report(rc->graph, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s': %s %u is not a %s of this "
                              "declaration", what, c->name, kind, n, kind);
        *ai = find_access(rc, c, ri, what);
    }
    return *ai == RG__NONE ? RG_ERROR_INVALID_ARGUMENT : RG_SUCCESS;
}

rg_result rg_record_image_info(const rg_record_context *rc, rg_texture texture, VkDescriptorImageInfo *out)
{
    static const char what[] = "rg_record_image_info";
    uint32_t ai;
    rg_result r = query_access(rc, out, sizeof *out, what, true, false, texture.id, &ai);
    return r != RG_SUCCESS ? r : image_info(rc, ai, what, out);
}

rg_result rg_record_buffer_info(const rg_record_context *rc, rg_buffer buffer, VkDescriptorBufferInfo *out)
{
    uint32_t ai;
    rg_result r = query_access(rc, out, sizeof *out, "rg_record_buffer_info", false, false, buffer.id, &ai);
    return r != RG_SUCCESS ? r : buffer_info(rc, ai, out);
}

rg_result rg_record_access_image_info(const rg_record_context *rc, uint32_t access, VkDescriptorImageInfo *out)
{
    static const char what[] = "rg_record_access_image_info";
    uint32_t ai;
    rg_result r = query_access(rc, out, sizeof *out, what, true, true, access, &ai);
    return r != RG_SUCCESS ? r : image_info(rc, ai, what, out);
}

rg_result rg_record_access_buffer_info(const rg_record_context *rc, uint32_t access, VkDescriptorBufferInfo *out)
{
    uint32_t ai;
    rg_result r = query_access(rc, out, sizeof *out, "rg_record_access_buffer_info", false, true, access, &ai);
    return r != RG_SUCCESS ? r : buffer_info(rc, ai, out);
}
