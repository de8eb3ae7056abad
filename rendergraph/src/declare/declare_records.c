/* Appending declaration records for a command under construction
 * (rg__pending): handle arguments resolved to resource indices, concrete
 * texture ranges, resolved access records (which also teach a created
 * resource the usage it needs), and finally the command record itself.
 * Accesses are appended first and the command record last, so a command
 * that fails validation leaves nothing behind. Every record is hashed as it
 * is appended.
 */
#include "declare/stages.h"
#include "base/names.h"

#include <string.h>

bool rg__grow_declaration(rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (rg__grow(g, p, cap, need, elem))
        return true;
    rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "out of memory growing the declaration to %u entries", need);
    return false;
}

uint32_t rg__texture_arg(rg__pending *p, rg_texture t)
{
    uint32_t i = rg__texture_index(p->g, t);
    if (i == RG__NONE)
        rg__fail(p->g, RG_ERROR_INVALID_HANDLE,
                 "command '%s': texture handle 0x%x is 0, stale, foreign or not a texture",
                 p->name, t.id);
    return i;
}

uint32_t rg__buffer_arg(rg__pending *p, rg_buffer b)
{
    uint32_t i = rg__buffer_index(p->g, b);
    if (i == RG__NONE)
        rg__fail(p->g, RG_ERROR_INVALID_HANDLE, "command '%s': buffer handle 0x%x is 0, stale, foreign or not a buffer",
                 p->name, b.id);
    return i;
}

/* Appends one resolved access; the resource learns the usage it needs
 * (lifetime-only accesses never add usage): a created one is made with
 * it, an import's object is checked for it (rg__imports_check). */
bool rg__access_push(rg__pending *p, const rg__access *rec, VkImageUsageFlags image_usage,
                        VkBufferUsageFlags buffer_usage)
{
    rg_graph *g = p->g;
    /* A history pair's previous half holds what the frame before wrote:
     * the frame only reads it (the span's end only keeps it alive). */
    const rg__resource *target = &g->decl.resources[rec->resource];
    if (rec->write && rec->role != RG__ROLE_LIFETIME && rg__history(target) && target->history_previous) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s' writes texture '%s', the previous frame's contents of "
                 "history texture '%s', which is read-only (write '%s' instead)", p->name, target->name,
                 g->decl.resources[target->history_pair].name, g->decl.resources[target->history_pair].name);
        return false;
    }
    if (!rg__grow_declaration(g, (void **)&g->decl.accesses, &g->decl.access_cap, g->decl.access_count + 1,
                              sizeof *g->decl.accesses))
        return false;
    rg__access *a = &rg__decl_accesses(g)[g->decl.access_count++];
    memset(a, 0, sizeof *a);
    a->resource = rec->resource;
    a->range = rec->range;
    /* Depth and stencil share one layout unless separateDepthStencilLayouts
     * is enabled (the engine does not enable it), so every barrier must name
     * both (VUID-VkImageMemoryBarrier2-image-03320): an access to one aspect
     * of a depth+stencil texture is tracked as touching both. The command's
     * own range (a stencil-only clear) stays as declared. */
    const rg__resource *res = &g->decl.resources[rec->resource];
    if (res->is_texture && (a->range.aspect & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)))
        a->range.aspect = res->aspects;
    a->offset = rec->offset;
    a->size = rec->size;
    a->stage = rec->stage;
    a->access = rec->access;
    a->layout = rec->layout;
    a->write = rec->write;
    a->local = rec->local;
    a->undefined_ok = rec->undefined_ok;
    a->role = rec->role;
    rg__hash_bytes(g, a, sizeof *a);
    rg__resource *r = &rg__decl_resources(g)[rec->resource];
    if (rec->role != RG__ROLE_LIFETIME) {
        r->declared_usage |= image_usage;
        r->buffer_usage |= buffer_usage;
    }
    return true;
}

/* Concrete range of a texture access: REMAINING resolves to the rest, zero
 * counts to 1, aspect 0 to every aspect of the format. */
bool rg__texture_range(rg__pending *p, const rg__resource *r, bool whole, const rg_range *in, rg_range *out)
{
    if (whole) {
        *out = (rg_range){r->aspects, 0, r->mip_levels, 0, r->array_layers};
        return true;
    }
    rg_range q = *in;
    if (q.aspect == 0)
        q.aspect = r->aspects;
    if (q.mip_count == VK_REMAINING_MIP_LEVELS && q.base_mip < r->mip_levels)
        q.mip_count = r->mip_levels - q.base_mip;
    if (q.layer_count == VK_REMAINING_ARRAY_LAYERS && q.base_layer < r->array_layers)
        q.layer_count = r->array_layers - q.base_layer;
    if (q.mip_count == 0)
        q.mip_count = 1;
    if (q.layer_count == 0)
        q.layer_count = 1;
    if ((q.aspect & ~r->aspects) || q.base_mip >= r->mip_levels || q.mip_count > r->mip_levels - q.base_mip ||
        q.base_layer >= r->array_layers || q.layer_count > r->array_layers - q.base_layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE,
                 "command '%s': range (aspect 0x%x, mips %u+%u, layers %u+%u) outside texture '%s' "
                 "(%u mips, %u layers)",
                 p->name, in->aspect, in->base_mip, in->mip_count, in->base_layer, in->layer_count, r->name,
                 r->mip_levels, r->array_layers);
        return false;
    }
    *out = q;
    return true;
}

/* Appends the command record after its accesses; returns its handle. */
rg_command rg__cmd_finish(rg__pending *p, const rg__cmd *tmpl)
{
    rg_graph *g = p->g;
    if (g->status->state == RG__FAILED)
        return (rg_command){0};
    if (g->decl.cmd_count >= RG__INDEX_MASK) {
        rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "command '%s': too many commands (%u)", p->name, g->decl.cmd_count);
        return (rg_command){0};
    }
    if (!rg__grow_declaration(g, (void **)&g->decl.cmds, &g->decl.cmd_cap, g->decl.cmd_count + 1,
                              sizeof *g->decl.cmds))
        return (rg_command){0};
    rg__cmd *c = &rg__decl_cmds(g)[g->decl.cmd_count];
    *c = *tmpl;
    rg__copy_name(c->name, p->name, "command");
    c->first_access = p->first_access;
    c->access_count = g->decl.access_count - p->first_access;
    rg__hash_bytes(g, c, sizeof *c);
    return (rg_command){rg__make_id(g, g->decl.cmd_count++)};
}

bool rg__queue_eligible(rg_graph *g, const char *name, const rg__cmd *c, uint32_t first_access,
                        uint32_t access_count, rg_queue q)
{
    if (q == RG_QUEUE_GRAPHICS)
        return true;
    if ((unsigned)q >= RG_QUEUE_COUNT) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': queue %d is not an rg_queue", name, (int)q);
        return false;
    }
    const char *why = NULL;
    if (c->span != RG__NONE || c->type == RG_COMMAND_TYPE_BEGIN_RENDERING || c->type == RG_COMMAND_TYPE_END_RENDERING)
        why = "a command inside a span needs the graphics queue";
    else if (c->type == RG_COMMAND_TYPE_BLIT)
        why = "blits need the graphics queue";
    else if (c->type == RG_COMMAND_TYPE_CLEAR && q == RG_QUEUE_TRANSFER)
        why = "clears need a graphics or compute queue";
    else if (c->type == RG_COMMAND_TYPE_CLEAR && !(c->u.clear.range.aspect & VK_IMAGE_ASPECT_COLOR_BIT))
        why = "depth/stencil clears need the graphics queue";
    else if (c->type == RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE || c->type == RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER) {
        /* Vulkan: buffer/image copies of depth or stencil only on a queue
         * with graphics; at buffer offsets that are multiples of 4 on one
         * without graphics and compute. */
        for (uint32_t k = 0; k < access_count && !why; k++) {
            const rg__resource *r = &rg__decl_resources(g)[g->decl.accesses[first_access + k].resource];
            if (r->is_texture && !(r->aspects & VK_IMAGE_ASPECT_COLOR_BIT))
                why = "copies of depth/stencil textures need the graphics queue";
        }
        if (!why && q == RG_QUEUE_TRANSFER && c->u.copy_image.offset % 4 != 0)
            why = "the transfer queue copies at buffer offsets that are multiples of 4";
    }
    if (why) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s' cannot run on the %s queue: %s", name, rg_queue_name(q),
                 why);
        return false;
    }
    VkPipelineStageFlags2 stages = rg__queue_stages(q);
    for (uint32_t k = 0; k < access_count; k++) {
        const rg__access *a = &rg__decl_accesses(g)[first_access + k];
        if (a->role != RG__ROLE_LIFETIME && (a->stage & ~stages)) {
            rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s' cannot run on the %s queue: its access to %s '%s' "
                     "is at stages %s, which that queue does not have", name, rg_queue_name(q),
                     g->decl.resources[a->resource].is_texture ? "texture" : "buffer",
                     g->decl.resources[a->resource].name, RG__STAGES(a->stage & ~stages));
            return false;
        }
    }
    return true;
}
