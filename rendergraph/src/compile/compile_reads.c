/* Compile stage "reads": every read of a created resource's subresource
 * (a texture's aspect, mip and layer; a buffer whole) needs an earlier
 * command of the declaration that writes it (rendergraph.h, "Reads").
 * A created resource keeps nothing between frames and a pooled one may
 * hold another resource's bytes, so such a read sees garbage, silently:
 * it is a declaration error, RG_ERROR_READ_BEFORE_WRITE, naming the
 * reader, the resource and the subresource.
 *
 * Not reads of nothing: imports (their contents come from outside), a
 * history pair's previous half (the frame before wrote it), accesses
 * declared with rg_access.undefined_ok, and attachments loaded with CLEAR
 * or DONT_CARE. An attachment loaded with LOAD reads, before its span
 * writes it; a resolve target is only written.
 *
 * Writers count whether or not culling keeps them: a kept reader keeps
 * every earlier writer of what it reads (compile_cull.c), and a culled
 * reader runs no more than its writers. So the check is of the
 * declaration as written, the same with rg_graph_desc.no_culling.
 *
 * One walk over the commands in record order with a "written" flag per
 * subresource slot: a command's reads are checked against the flags as
 * they stood before it (a command that reads mip 0 and writes mip 1, or
 * reads and writes one subresource, reads what was there before it), then
 * its writes set them.
 */
#include "compile/stages.h"

#include <stdlib.h>

/* Access bits that write; an access with any other bit also reads (a
 * read-modify-write storage access, a raw access with read bits). */
#define WRITE_BITS                                                                                                  \
    (VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | \
     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT | \
     VK_ACCESS_2_MEMORY_WRITE_BIT)

/* The declared attachment of span s that access a (an attachment of its
 * begin) is: attachments never share a subresource, so resource, mip and
 * first layer find it. */
static const rg_attachment *span_attachment(const rg_graph *g, uint32_t s, const rg__access *a)
{
    const rg_rendering_desc *d = &g->decl.spans[s].desc;
    for (uint32_t i = 0; i <= d->color_count && i <= RG_MAX_COLOR_ATTACHMENTS; i++) {
        const rg_attachment *att = i < d->color_count ? &d->colors[i] : &d->depth;
        if (att->texture.id && rg__texture_index(g, att->texture) == a->resource && att->mip == a->range.base_mip &&
            att->base_layer == a->range.base_layer)
            return att;
    }
    return NULL;
}

/* Whether access a of command c reads what was there before c. */
static bool reads_contents(const rg_graph *g, const rg__cmd *c, const rg__access *a)
{
    switch (a->role) {
    case RG__ROLE_LIFETIME:
    case RG__ROLE_RESOLVE: return false;
    case RG__ROLE_ATTACHMENT: {
        /* The load op alone says: a depth test or blending reads what the
         * load left, which CLEAR and DONT_CARE define. */
        const rg_attachment *att = span_attachment(g, c->span, a);
        return att && att->load == VK_ATTACHMENT_LOAD_OP_LOAD;
    }
    case RG__ROLE_NORMAL: break;
    }
    return !a->write || (a->access & ~(VkAccessFlags2)WRITE_BITS) != 0;
}

static const char *aspect_name(VkImageAspectFlagBits aspect)
{
    switch (aspect) {
    case VK_IMAGE_ASPECT_DEPTH_BIT: return "depth, ";
    case VK_IMAGE_ASPECT_STENCIL_BIT: return "stencil, ";
    default: return "";
    }
}

/* The first subresource of access a not written yet (RG__NONE: all are),
 * with its aspect, mip and layer. */
static uint32_t unwritten(const rg_graph *g, const uint8_t *written, const rg__access *a, VkImageAspectFlagBits *aspect,
                          uint32_t *mip, uint32_t *layer)
{
    const rg__resource *r = &g->decl.resources[a->resource];
    if (!r->is_texture)
        return written[r->sub_base] ? RG__NONE : r->sub_base;
    for (uint32_t bits = a->range.aspect; bits; bits &= bits - 1)
        for (uint32_t m = a->range.base_mip; m < a->range.base_mip + a->range.mip_count; m++)
            for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++) {
                uint32_t slot = rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), m, l);
                if (!written[slot]) {
                    *aspect = (VkImageAspectFlagBits)(bits & -bits);
                    *mip = m;
                    *layer = l;
                    return slot;
                }
            }
    return RG__NONE;
}

static void mark_written(const rg_graph *g, uint8_t *written, const rg__access *a)
{
    const rg__resource *r = &g->decl.resources[a->resource];
    if (!r->is_texture) {
        written[r->sub_base] = 1;
        return;
    }
    for (uint32_t bits = a->range.aspect; bits; bits &= bits - 1)
        for (uint32_t m = a->range.base_mip; m < a->range.base_mip + a->range.mip_count; m++)
            for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++)
                written[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), m, l)] = 1;
}

/* The error for access a of command ci, whose subresource (aspect, mip,
 * layer) nothing wrote before, with the hint that fits: a built-in copy
 * or blit has no rg_access to mark; a user command may be the writer,
 * declared with a usage that only reads (the first reader is the one
 * reported, so no earlier command is). */
static rg_result read_of_nothing(const rg_graph *g, uint32_t ci, const rg__access *a, VkImageAspectFlagBits aspect,
                                 uint32_t mip, uint32_t layer)
{
    const rg__cmd *c = &g->decl.cmds[ci];
    const rg__resource *r = &g->decl.resources[a->resource];
    const char *tail = "which no earlier command of the frame writes";
    if (a->role == RG__ROLE_ATTACHMENT)
        return rg__fail(g, RG_ERROR_READ_BEFORE_WRITE,
                        "span '%s' loads attachment '%s' (%smip %u, layer %u), %s (load CLEAR or DONT_CARE, or "
                        "write it first)",
                        c->name, r->name, aspect_name(aspect), mip, layer, tail);
    char where[64] = "";
    if (r->is_texture)
        snprintf(where, sizeof where, " (%smip %u, layer %u)", aspect_name(aspect), mip, layer);
    char hint[RG__NAME_MAX + 256];
    if (c->type != RG_COMMAND_TYPE_USER)
        snprintf(hint, sizeof hint, "write it first%s", r->is_texture ? ", e.g. with rg_cmd_clear_texture" : "");
    else
        snprintf(hint, sizeof hint, "write it first; if '%s' is what writes it, declare a usage that writes (a "
                 "storage write, a transfer destination); for a deliberate read set rg_access.undefined_ok", c->name);
    return rg__fail(g, RG_ERROR_READ_BEFORE_WRITE, "command '%s' reads %s '%s'%s, %s (%s)", c->name,
                    r->is_texture ? "texture" : "buffer", r->name, where, tail, hint);
}

rg_result rg__compile_reads(const rg_graph *g)
{
    uint8_t *written = rg__calloc(g, (size_t)g->decl.sub_total + 1, 1);
    if (!written)
        return RG_ERROR_OUT_OF_MEMORY;
    rg_result result = RG_SUCCESS;
    for (uint32_t ci = 0; ci < g->decl.cmd_count && result == RG_SUCCESS; ci++) {
        const rg__cmd *c = &g->decl.cmds[ci];
        /* 1. Reads, against what commands before this one wrote. */
        for (uint32_t k = 0; k < c->access_count && result == RG_SUCCESS; k++) {
            const rg__access *a = &g->decl.accesses[c->first_access + k];
            const rg__resource *r = &g->decl.resources[a->resource];
            if (r->imported || (rg__history(r) && r->history_previous) || a->undefined_ok || !reads_contents(g, c, a))
                continue;
            VkImageAspectFlagBits aspect = 0;
            uint32_t mip = 0, layer = 0;
            if (unwritten(g, written, a, &aspect, &mip, &layer) != RG__NONE)
                result = read_of_nothing(g, ci, a, aspect, mip, layer);
        }
        /* 2. Writes. */
        for (uint32_t k = 0; k < c->access_count && result == RG_SUCCESS; k++) {
            const rg__access *a = &g->decl.accesses[c->first_access + k];
            if (a->write && a->role != RG__ROLE_LIFETIME)
                mark_written(g, written, a);
        }
    }
    rg__free(g, written);
    return result;
}
