/* Tile traffic estimate of a compiled graph: the bytes a tile GPU moves
 * between tile memory and DRAM per frame, per rendering instance (a merged
 * instance counts once) and for the whole frame. The model (also in
 * rendergraph.h, "Tile traffic"):
 *
 *   - Each attachment of an instance (colors and depth/stencil) covers the
 *     render area: width x height x layer count x texel bytes x samples,
 *     texel bytes from rg_format_get_info (whole texel blocks; a
 *     depth/stencil format by its size, both aspects together).
 *   - loads: the attachment is loaded (load op LOAD of the first span of
 *     the instance that names it);
 *   - stores: the instance stores it (store op STORE as the instance
 *     stores it: a merged instance discards what nothing else uses); NONE
 *     and DONT_CARE cost nothing;
 *   - resolves: the resolve target of the last span naming it, written at
 *     one sample per texel; a folded attachment (compile_fold.c) is its
 *     target stored at one sample, no resolve;
 *   - sampled: every read of a texture by a command (sampled, storage,
 *     transfer, a pixel-local read that was not merged into an input
 *     attachment; the read half of a read-write access too) of a
 *     subresource written earlier in the frame, in execution order, by any
 *     command (attachment and resolve writes included): the bytes of each
 *     such subresource (mip m: max(1, w >> m) x max(1, h >> m) x texel
 *     bytes x samples, per layer). It counts against the instance of the
 *     command's span, or against the frame only for commands outside
 *     spans. Merged input-attachment reads stay on chip and cost nothing.
 *     Reads of what the frame did not write (imports' previous contents,
 *     uploads from earlier frames) are the frame's inputs and are left
 *     out, as are buffers, presentation, and the writes of commands other
 *     than attachment stores (storage writes, copies, blits, clears).
 */
#include "compile/stages.h"
#include "report/stages.h"

#include <stdlib.h>
#include <string.h>

/* Every access flag that reads memory. */
#define READ_BITS                                                                                                 \
    (VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | \
     VK_ACCESS_2_UNIFORM_READ_BIT | VK_ACCESS_2_INPUT_ATTACHMENT_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT |         \
     VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |                      \
     VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_MEMORY_READ_BIT |                    \
     VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT)

/* Bytes of a w x h region of one layer of a format at `samples` samples:
 * whole texel blocks (0 for a format the engine does not know). */
static uint64_t region_bytes(VkFormat format, uint32_t w, uint32_t h, VkSampleCountFlagBits samples)
{
    rg_format_info fi = rg_format_get_info(format);
    uint64_t bw = fi.block_width ? fi.block_width : 1, bh = fi.block_height ? fi.block_height : 1;
    return ((w + bw - 1) / bw) * ((h + bh - 1) / bh) * fi.block_size * (samples ? (uint64_t)samples : 1u);
}

static void add_total(rg_tile_traffic *t) { t->total = t->loads + t->stores + t->resolves + t->sampled; }

/* Loads, stores and resolves of one instance attachment (depth: the
 * instance's depth/stencil, else color att). */
static void attachment_traffic(const rg_graph *g, const rg__inst_att *att, bool depth, rg_tile_traffic *t)
{
    const rg__span *first = &g->decl.spans[att->span], *last = &g->decl.spans[att->last_span];
    const rg_attachment *fa = depth ? &first->desc.depth : &first->desc.colors[att->slot];
    const rg_attachment *la = depth ? &last->desc.depth : &last->desc.colors[att->last_slot];
    const rg__resource *r = &g->decl.resources[att->resource];
    uint32_t w = first->area.extent.width, h = first->area.extent.height;
    uint64_t layers = first->layer_count ? first->layer_count : 1;
    uint64_t bytes = region_bytes(r->format, w, h, r->samples) * layers;
    if (rg__folded(g, att->resource)) { /* rendered into its target, stored at one sample */
        t->stores += region_bytes(r->format, w, h, VK_SAMPLE_COUNT_1_BIT) * layers;
        return;
    }
    if (fa->load == VK_ATTACHMENT_LOAD_OP_LOAD)
        t->loads += bytes;
    if (att->store == VK_ATTACHMENT_STORE_OP_STORE)
        t->stores += bytes;
    uint32_t ri = la->resolve.id ? rg__texture_index(g, la->resolve) : RG__NONE;
    if (ri != RG__NONE)
        t->resolves += region_bytes(g->decl.resources[ri].format, w, h, VK_SAMPLE_COUNT_1_BIT) * layers;
}

/* Whether any aspect of the access's range at (mip, layer) was written. */
static bool written_at(const rg__resource *r, const uint8_t *written, VkImageAspectFlags aspects, uint32_t mip,
                       uint32_t layer)
{
    for (VkImageAspectFlags bits = aspects; bits; bits &= bits - 1)
        if (written[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), mip, layer)])
            return true;
    return false;
}

/* The bytes access a reads of what the frame wrote before it. */
static uint64_t sampled_bytes(const rg_graph *g, uint32_t ai, const uint8_t *written)
{
    const rg__access *a = &g->decl.accesses[ai];
    const rg__resource *r = &g->decl.resources[a->resource];
    if (!r->is_texture || a->role != RG__ROLE_NORMAL || g->compiled->merge.access_mode[ai] == RG__MODE_INPUT)
        return 0;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 mask;
    VkImageLayout layout;
    rg__access_effective(g, ai, &stage, &mask, &layout);
    if (!(mask & READ_BITS)) /* writes only, or presentation */
        return 0;
    uint64_t bytes = 0;
    for (uint32_t m = a->range.base_mip; m < a->range.base_mip + a->range.mip_count; m++) {
        uint32_t w = r->width >> m, h = r->height >> m;
        uint64_t slice = region_bytes(r->format, w ? w : 1, h ? h : 1, r->samples);
        for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++)
            if (written_at(r, written, a->range.aspect, m, l))
                bytes += slice;
    }
    return bytes;
}

static void mark_written(const rg_graph *g, uint32_t ai, uint8_t *written)
{
    const rg__access *a = &g->decl.accesses[ai];
    const rg__resource *r = &g->decl.resources[a->resource];
    if (!r->is_texture || !a->write || a->role == RG__ROLE_LIFETIME)
        return;
    for (VkImageAspectFlags bits = a->range.aspect; bits; bits &= bits - 1)
        for (uint32_t m = a->range.base_mip; m < a->range.base_mip + a->range.mip_count; m++)
            for (uint32_t l = a->range.base_layer; l < a->range.base_layer + a->range.layer_count; l++)
                written[rg__sub_slot(r, (VkImageAspectFlagBits)(bits & -bits), m, l)] = 1;
}

rg_result rg__tile_traffic(const rg_graph *g, rg_tile_traffic *per, rg_tile_traffic *outside, rg_tile_traffic *total)
{
    const rg__compiled *c = g->compiled;
    uint8_t *written = rg__calloc(g, (size_t)g->decl.sub_total + 1, 1);
    if (!written)
        return RG_ERROR_OUT_OF_MEMORY;
    memset(per, 0, (size_t)c->merge.instance_count * sizeof *per);
    memset(outside, 0, sizeof *outside);
    for (uint32_t ii = 0; ii < c->merge.instance_count; ii++) {
        const rg__instance *in = &c->merge.instances[ii];
        for (uint32_t u = 0; u < in->color_count; u++)
            attachment_traffic(g, &in->colors[u], false, &per[ii]);
        if (in->has_depth)
            attachment_traffic(g, &in->depth, true, &per[ii]);
    }
    /* Reads against what earlier commands wrote, then the command's own
     * writes (a read-write access reads before it writes). */
    for (uint32_t p = 0; p < c->merge.order.count; p++) {
        const rg__cmd *cmd = &g->decl.cmds[c->merge.order.cmds[p]];
        rg_tile_traffic *t = cmd->span == RG__NONE ? outside : &per[c->merge.span_map[cmd->span].instance];
        for (uint32_t k = 0; k < cmd->access_count; k++)
            t->sampled += sampled_bytes(g, cmd->first_access + k, written);
        for (uint32_t k = 0; k < cmd->access_count; k++)
            mark_written(g, cmd->first_access + k, written);
    }
    rg__free(g, written);
    memset(total, 0, sizeof *total);
    for (uint32_t ii = 0; ii <= c->merge.instance_count; ii++) {
        rg_tile_traffic *t = ii < c->merge.instance_count ? &per[ii] : outside;
        add_total(t);
        total->loads += t->loads;
        total->stores += t->stores;
        total->resolves += t->resolves;
        total->sampled += t->sampled;
    }
    add_total(total);
    return RG_SUCCESS;
}
