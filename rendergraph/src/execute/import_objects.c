/* An import's Vulkan objects, given per frame (rg_texture_set_image,
 * rg_buffer_set_buffer) or with the import's desc: checked against the
 * declaration (shape, size) at once, and their usage against what the
 * compiled graph needs once there is a compiled graph (rg__imports_check
 * at compile for what was given before): a driver given an image smaller
 * than the one the graph was compiled for reads and writes past it.
 */
#include "compile/stages.h"
#include "declare/stages.h"
#include "execute/stages.h"
#include "base/names.h"

#include <string.h>

/* The usage bits import ri's object lacks of what the compiled graph
 * needs: 0 when it has them all, or when its usage was not given. */
static VkFlags usage_missing(const rg_graph *g, uint32_t ri, VkFlags given)
{
    return given ? rg__import_needs(g, ri) & ~given : 0;
}

static const char *usage_text(const rg__resource *r, VkFlags usage, char *buf)
{
    if (r->is_texture)
        rg_flag_names(RG_FLAGS_IMAGE_USAGE, usage, buf, RG__FLAGS_TEXT);
    else
        rg_flag_names(RG_FLAGS_BUFFER_USAGE, usage, buf, RG__FLAGS_TEXT);
    return buf;
}
#define USAGE_TEXT(r, u) usage_text((r), (u), (char[RG__FLAGS_TEXT]){0})

/* Reads the compile's results (the usage it derived): only once the graph
 * is compiled, which is also when an execute may follow. */
static bool compiled(const rg_graph *g)
{
    return g->status->state == RG__COMPILED || g->status->state == RG__PLACED;
}

rg_result rg__imports_check(rg_graph *g)
{
    for (uint32_t ri = 0; ri < g->decl.resource_count; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        VkFlags missing = r->imported ? usage_missing(g, ri, r->given_usage) : 0;
        if (!missing)
            continue;
        const char *from = r->given_by_setter ? (r->is_texture ? "rg_texture_set_image" : "rg_buffer_set_buffer")
                                              : (r->is_texture ? "rg_texture_import_desc.usage"
                                                               : "rg_buffer_import_desc.usage");
        return rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "rg_compile: graph '%s': import '%s' was given usage %s (%s), "
                        "which lacks %s that the graph's accesses of it need (%s)", g->name, r->name,
                        USAGE_TEXT(r, r->given_usage), from, USAGE_TEXT(r, missing),
                        USAGE_TEXT(r, rg__import_needs(g, ri)));
    }
    return RG_SUCCESS;
}

/* What both setters check first: the graph, the handle, an import
 * (*index its index), the desc (named desc_name) given. */
static rg_result setter_import(rg_graph *graph, const char *fn, bool texture, uint32_t id, const void *desc,
                               const char *desc_name, uint32_t *index)
{
    if (!graph)
        return RG_ERROR_INVALID_ARGUMENT;
    rg__call_begin(graph);
    if (rg__frame_open(graph, fn)) /* reported */
        return RG_ERROR_INVALID_ARGUMENT;
    const char *kind = texture ? "texture" : "buffer";
    uint32_t i = texture ? rg__texture_index(graph, (rg_texture){id}) : rg__buffer_index(graph, (rg_buffer){id});
    if (i == RG__NONE)
        return rg__report(graph, RG_ERROR_INVALID_HANDLE, "%s: %s handle 0x%x is 0, stale, foreign or not a %s", fn,
                          kind, id, kind);
    if (!graph->decl.resources[i].imported)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: %s '%s' is not an import", fn, kind,
                          graph->decl.resources[i].name);
    if (!desc)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s': %s is NULL", fn,
                          graph->name, graph->decl.resources[i].name, desc_name);
    *index = i;
    return RG_SUCCESS;
}

/* What both setters check last: the usage given has what the compiled
 * graph needs of import i (checked at rg_compile when not compiled yet). */
static rg_result setter_usage(const rg_graph *graph, const char *fn, uint32_t i, VkFlags given)
{
    const rg__resource *r = &graph->decl.resources[i];
    VkFlags missing = compiled(graph) ? usage_missing(graph, i, given) : 0;
    if (missing)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' given usage %s, which "
                          "lacks %s that the graph's accesses of it need (%s)", fn, graph->name, r->name,
                          USAGE_TEXT(r, given), USAGE_TEXT(r, missing), USAGE_TEXT(r, rg__import_needs(graph, i)));
    return RG_SUCCESS;
}

static const char *plural(uint32_t n) { return n == 1 ? "" : "s"; }

/* What rg_texture_set_image checks of image against texture r before its
 * usage: the fields it requires, then the shape declared. */
static rg_result image_fits(const rg_graph *graph, const char *fn, const rg__resource *r, const rg_import_image *image)
{
    const char *g = graph->name;
    const char *field = image->format == VK_FORMAT_UNDEFINED ? "format is VK_FORMAT_UNDEFINED"
                        : image->width == 0                  ? "width is 0"
                        : image->height == 0                 ? "height is 0"
                        : image->usage == 0                  ? "usage is 0"
                                                             : NULL;
    if (field)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s': rg_import_image.%s "
                          "(required: what the image was created with)", fn, g, r->name, field);
    uint32_t mips = image->mip_levels ? image->mip_levels : 1, layers = image->array_layers ? image->array_layers : 1;
    uint32_t samples = image->samples ? (uint32_t)image->samples : 1;
    if (image->width != r->width || image->height != r->height)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared %ux%u, given "
                          "%ux%u: re-declare or use a relative size", fn, g, r->name, r->width, r->height,
                          image->width, image->height);
    if (image->format != r->format)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared format %s, given "
                          "%s", fn, g, r->name, rg_format_name(r->format), rg_format_name(image->format));
    if (samples != (uint32_t)r->samples)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared %u sample%s, given "
                          "%u sample%s", fn, g, r->name, (uint32_t)r->samples, plural((uint32_t)r->samples),
                          samples, plural(samples));
    if (mips != r->mip_levels)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared %u mip level%s, "
                          "given %u", fn, g, r->name, r->mip_levels, plural(r->mip_levels), mips);
    if (layers != r->array_layers)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared %u array "
                          "layer%s, given %u", fn, g, r->name, r->array_layers, plural(r->array_layers), layers);
    return RG_SUCCESS;
}

/* What rg_buffer_set_buffer checks of buffer_desc against buffer r before
 * its usage: the fields it requires, then the size declared. */
static rg_result buffer_fits(const rg_graph *graph, const char *fn, const rg__resource *r,
                             const rg_import_buffer *buffer_desc)
{
    const char *g = graph->name;
    const char *field = buffer_desc->size == 0 ? "size is 0" : buffer_desc->usage == 0 ? "usage is 0" : NULL;
    if (field)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s': rg_import_buffer.%s "
                          "(required: what the buffer was created with)", fn, g, r->name, field);
    if (buffer_desc->size < r->size)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT, "%s: graph '%s': import '%s' declared %llu bytes, given "
                          "a buffer of %llu bytes", fn, g, r->name, (unsigned long long)r->size,
                          (unsigned long long)buffer_desc->size);
    return RG_SUCCESS;
}

/* Both setters (fn): desc is an rg_import_image for a texture, an
 * rg_import_buffer for a buffer (the parameter desc_name). Re-pointing is
 * not a declaration change: no hash, no sticky error; a per-frame call, so
 * it starts with the message cleared like rg_execute. Nothing is stored
 * unless every check passes, so a refused object never reaches an
 * execute. */
static rg_result set_object_taken(rg_graph *graph, const char *fn, bool texture, uint32_t id, const void *desc,
                                  const char *desc_name)
{
    uint32_t i = RG__NONE;
    rg_result res = setter_import(graph, fn, texture, id, desc, desc_name, &i);
    if (res != RG_SUCCESS)
        return res;
    const rg_import_image *image = texture ? desc : NULL;
    const rg_import_buffer *buffer_desc = texture ? NULL : desc;
    const rg__resource *r = &graph->decl.resources[i];
    res = texture ? image_fits(graph, fn, r, image) : buffer_fits(graph, fn, r, buffer_desc);
    VkFlags usage = texture ? image->usage : buffer_desc->usage;
    if (res == RG_SUCCESS)
        res = setter_usage(graph, fn, i, usage);
    if (res != RG_SUCCESS)
        return res;
    rg__resource *w = &rg__decl_resources(graph)[i];
    if (texture) {
        w->image = image->image;
        w->view = image->view;
    } else {
        w->buffer = buffer_desc->buffer;
    }
    w->given_usage = usage;
    w->given_by_setter = true;
    return RG_SUCCESS;
}

/* The public calls: each takes the graph (rg__enter). */

rg_result rg_texture_set_image(rg_graph *graph, rg_texture texture, const rg_import_image *image)
{
    RG__TAKEN(graph, "rg_texture_set_image",
              set_object_taken(graph, "rg_texture_set_image", true, texture.id, image, "image"));
}

rg_result rg_buffer_set_buffer(rg_graph *graph, rg_buffer buffer, const rg_import_buffer *buffer_desc)
{
    RG__TAKEN(graph, "rg_buffer_set_buffer",
              set_object_taken(graph, "rg_buffer_set_buffer", false, buffer.id, buffer_desc, "buffer_desc"));
}
