/* The built-in transfer commands: buffer copies, buffer <-> texture copies,
 * texture clears and blits. They are never allowed inside a span, their
 * accesses come from the usage table, and their regions are checked
 * against the resources (bounds, overlap, multisampling, packed size) while
 * the command and the resource can both be named.
 */
#include "declare/stages.h"
#include "base/bits.h"

#include <string.h>

/* A built-in command's access through the usage table. */
static bool table_access(rg__pending *p, uint32_t ri, rg_usage usage, const rg_range *range)
{
    const rg_usage_info *info = rg_usage_get_info(usage);
    const rg__resource *r = &p->g->decl.resources[ri];
    rg__access rec = {.resource = ri, .stage = info->stage, .access = info->access, .write = info->write};
    if (r->is_texture) {
        rec.layout = info->layout;
        rec.range = *range;
    } else {
        rec.size = r->size;
    }
    return rg__access_push(p, &rec, info->image_usage, info->buffer_usage);
}

/* Built-in commands are transfers: never inside a span. */
/* A transfer command's start: the graph usable, the pending command
 * named, and no span open. */
static bool transfer_begin(rg_graph *graph, const char *name, rg__pending *p)
{
    if (!rg__usable(graph))
        return false;
    *p = rg__pending_begin(graph, name);
    if (p->g->decl.open_span == RG__NONE)
        return true;
    rg__fail(p->g, RG_ERROR_TRANSFER_IN_SPAN, "command '%s' inside span '%s': transfers, copies, clears and blits "
             "are not allowed inside a rendering instance", p->name,
             p->g->decl.cmds[p->g->decl.spans[p->g->decl.open_span].begin_cmd].name);
    return false;
}

/* A two-sided transfer's end: its source's access (range sr; NULL for a
 * buffer), its destination's (dr), then the command record c. */
static rg_command transfer_finish(rg__pending *p, uint32_t src, const rg_range *sr, uint32_t dst, const rg_range *dr,
                                  const rg__cmd *c)
{
    if (!table_access(p, src, RG_USAGE_TRANSFER_SRC, sr) || !table_access(p, dst, RG_USAGE_TRANSFER_DST, dr))
        return (rg_command){0};
    return rg__cmd_finish(p, c);
}

static bool check_buffer_region(rg__pending *p, uint32_t bi, VkDeviceSize offset, VkDeviceSize size)
{
    const rg__resource *r = &p->g->decl.resources[bi];
    if (size == 0 || offset > r->size || size > r->size - offset) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE,
                 "command '%s': region offset %llu size %llu outside buffer '%s' (%llu bytes)",
                 p->name, (unsigned long long)offset, (unsigned long long)size, r->name,
                 (unsigned long long)r->size);
        return false;
    }
    return true;
}

static rg_command cmd_copy_buffer_taken(rg_graph *graph, rg_buffer src, VkDeviceSize src_offset, rg_buffer dst,
                                        VkDeviceSize dst_offset, VkDeviceSize size)
{
    rg__pending p;
    if (!transfer_begin(graph, "copy_buffer", &p))
        return (rg_command){0};
    uint32_t s = rg__buffer_arg(&p, src), d = s == RG__NONE ? RG__NONE : rg__buffer_arg(&p, dst);
    if (d == RG__NONE || !check_buffer_region(&p, s, src_offset, size) || !check_buffer_region(&p, d, dst_offset, size))
        return (rg_command){0};
    if (s == d && src_offset < dst_offset + size && dst_offset < src_offset + size) {
        rg__fail(graph, RG_ERROR_BAD_RANGE, "command '%s': overlapping regions in buffer '%s'", p.name,
                 graph->decl.resources[s].name);
        return (rg_command){0};
    }
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_COPY_BUFFER);
    c.u.copy_buffer.src_offset = src_offset;
    c.u.copy_buffer.dst_offset = dst_offset;
    c.u.copy_buffer.size = size;
    return transfer_finish(&p, s, NULL, d, NULL, &c);
}

/* The texture side of a buffer<->texture copy: whole mip, given layers, one
 * aspect (Vulkan copies one per region, so a depth+stencil texture is
 * copied one named aspect at a time; aspect 0 is the format's every
 * aspect); the buffer must hold the tightly packed texel blocks of that
 * aspect, sized from the format table. */
static bool copy_image_args(rg__pending *p, const char *call, uint32_t ti, uint32_t bi, VkDeviceSize offset,
                            VkImageAspectFlags aspect, uint32_t mip, uint32_t layer, uint32_t *layer_count,
                            rg_range *range)
{
    const rg__resource *t = &p->g->decl.resources[ti];
    uint32_t n = *layer_count ? *layer_count : 1;
    if (aspect == 0)
        aspect = t->aspects;
    bool single = (aspect & (aspect - 1)) == 0;
    if ((aspect & ~t->aspects) || (!single && aspect != t->aspects)) {
        rg__fail(p->g, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s': aspect 0x%x is not one aspect of texture "
                 "'%s' (format %s, aspects 0x%x)", call, p->name, (unsigned)aspect, t->name,
                 rg_format_name(t->format), (unsigned)t->aspects);
        return false;
    }
    if (mip >= t->mip_levels || layer >= t->array_layers || n > t->array_layers - layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "%s: command '%s': mip %u layers %u+%u outside texture '%s'", call,
                 p->name, mip, layer, n, t->name);
        return false;
    }
    if (t->samples != VK_SAMPLE_COUNT_1_BIT) {
        rg__fail(p->g, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s': texture '%s' is multisampled", call, p->name,
                 t->name);
        return false;
    }
    if (aspect == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) {
        rg__fail(p->g, RG_ERROR_INVALID_ARGUMENT, "%s: command '%s': texture '%s' has depth and stencil aspects "
                 "(format %s); a buffer copy moves one aspect (VUID-VkBufferImageCopy-aspectMask-00212): name it "
                 "with %s", call, p->name, t->name, rg_format_name(t->format),
                 strstr(call, "to_texture") ? "rg_cmd_copy_buffer_to_texture_aspect"
                                            : "rg_cmd_copy_texture_aspect_to_buffer");
        return false;
    }
    rg_format_info f = rg_format_get_info(t->format);
    VkDeviceSize w = t->width >> mip ? t->width >> mip : 1, h = t->height >> mip ? t->height >> mip : 1;
    VkDeviceSize blocks_x = (w + f.block_width - 1) / f.block_width;
    VkDeviceSize blocks_y = (h + f.block_height - 1) / f.block_height;
    /* Overflow-checked: a huge texture's byte count must not wrap to a
     * small one that lets the copy into a buffer far too small for it. */
    VkDeviceSize bytes = rg_format_copy_size(t->format, aspect);
    if (rg__mul_overflow_u64(bytes, blocks_x, &bytes) || rg__mul_overflow_u64(bytes, blocks_y, &bytes) ||
        rg__mul_overflow_u64(bytes, n, &bytes)) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "command '%s': mip %u of texture '%s' (%ux%u, %u layers) holds more than "
                 "2^64 bytes", p->name, mip, t->name, t->width, t->height, n);
        return false;
    }
    const rg__resource *b = &p->g->decl.resources[bi];
    if (offset > b->size || bytes > b->size - offset) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "command '%s': mip %u of texture '%s' (%u layers) takes %llu bytes; buffer "
                 "'%s' has %llu from offset %llu", p->name, mip, t->name, n, (unsigned long long)bytes, b->name,
                 (unsigned long long)b->size, (unsigned long long)offset);
        return false;
    }
    /* VUID-vkCmdCopyBufferToImage-bufferOffset-07737/-07978 and their
     * image-to-buffer twins: a multiple of the texel block size, of 4 for
     * depth/stencil. */
    VkDeviceSize unit = f.numeric == RG_FORMAT_DEPTH_STENCIL ? 4 : f.block_size;
    if (offset % unit) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "command '%s': buffer offset %llu for texture '%s' is not a multiple of "
                 "%llu", p->name, (unsigned long long)offset, t->name, (unsigned long long)unit);
        return false;
    }
    *layer_count = n;
    *range = (rg_range){aspect, mip, 1, layer, n};
    return true;
}

/* A copy between a buffer and a texture's subresources, to_texture saying
 * which way; the handles are checked in the public call's argument order,
 * its source's access first. */
static rg_command copy_image_taken(rg_graph *graph, const char *call, bool to_texture, rg_buffer buffer,
                                   VkDeviceSize offset, rg_texture texture, VkImageAspectFlags aspect, uint32_t mip,
                                   uint32_t layer, uint32_t layer_count)
{
    rg__pending p;
    if (!transfer_begin(graph, to_texture ? "copy_buffer_to_texture" : "copy_texture_to_buffer", &p))
        return (rg_command){0};
    uint32_t b = RG__NONE, t = RG__NONE;
    if (to_texture && (b = rg__buffer_arg(&p, buffer)) != RG__NONE)
        t = rg__texture_arg(&p, texture);
    if (!to_texture && (t = rg__texture_arg(&p, texture)) != RG__NONE)
        b = rg__buffer_arg(&p, buffer);
    rg_range range;
    if (t == RG__NONE || b == RG__NONE || !copy_image_args(&p, call, t, b, offset, aspect, mip, layer, &layer_count, &range))
        return (rg_command){0};
    rg__cmd c = rg__cmd_template(to_texture ? RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE
                                            : RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER);
    c.u.copy_image.aspect = range.aspect;
    c.u.copy_image.offset = offset;
    c.u.copy_image.mip = mip;
    c.u.copy_image.layer = layer;
    c.u.copy_image.layer_count = layer_count;
    uint32_t src = to_texture ? b : t, dst = to_texture ? t : b;
    return transfer_finish(&p, src, to_texture ? NULL : &range, dst, to_texture ? &range : NULL, &c);
}

static rg_command cmd_clear_texture_taken(rg_graph *graph, rg_texture texture, const rg_range *range,
                                          const VkClearValue *value)
{
    rg__pending p;
    if (!transfer_begin(graph, "clear_texture", &p))
        return (rg_command){0};
    uint32_t t = rg__texture_arg(&p, texture);
    if (t == RG__NONE)
        return (rg_command){0};
    if (!value) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': NULL clear value for texture '%s'", p.name,
                 graph->decl.resources[t].name);
        return (rg_command){0};
    }
    if (rg_format_get_info(graph->decl.resources[t].format).block_width > 1) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': texture '%s' has a block-compressed format (%d), "
                 "which vkCmdClearColorImage cannot clear", p.name, graph->decl.resources[t].name,
                 (int)graph->decl.resources[t].format);
        return (rg_command){0};
    }
    rg_range r;
    if (!rg__texture_range(&p, &graph->decl.resources[t], range == NULL, range, &r) ||
        !table_access(&p, t, RG_USAGE_TRANSFER_DST, &r))
        return (rg_command){0};
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_CLEAR);
    c.u.clear.range = r;
    c.u.clear.value = *value;
    return rg__cmd_finish(&p, &c);
}

/* What vkCmdBlitImage refuses for any device, by the formats' kinds
 * (VUID-vkCmdBlitImage-srcImage-00229, -00230, -00231, -00232, and
 * -filter-02001 for integers, which never filter linearly); what a given
 * device refuses (format features) is checked at placement. */
static const char *blit_formats_refused(const rg__resource *src, const rg__resource *dst, VkFilter filter)
{
    rg_format_numeric a = rg_format_get_info(src->format).numeric, b = rg_format_get_info(dst->format).numeric;
    bool depth = a == RG_FORMAT_DEPTH_STENCIL || b == RG_FORMAT_DEPTH_STENCIL;
    if (depth && src->format != dst->format)
        return "a depth/stencil blit needs one format on both sides";
    if (depth && filter != VK_FILTER_NEAREST)
        return "a depth/stencil blit must use VK_FILTER_NEAREST";
    if ((a == RG_FORMAT_UINT) != (b == RG_FORMAT_UINT) || (a == RG_FORMAT_SINT) != (b == RG_FORMAT_SINT))
        return "unsigned and signed integer formats blit only to their own kind";
    if ((a == RG_FORMAT_UINT || a == RG_FORMAT_SINT) && filter != VK_FILTER_NEAREST)
        return "integer formats do not filter linearly: use VK_FILTER_NEAREST";
    return NULL;
}

static rg_command cmd_blit_taken(rg_graph *graph, rg_texture src, uint32_t src_mip, rg_texture dst, uint32_t dst_mip,
                                 VkFilter filter)
{
    rg__pending p;
    if (!transfer_begin(graph, "blit", &p))
        return (rg_command){0};
    uint32_t s = rg__texture_arg(&p, src), d = s == RG__NONE ? RG__NONE : rg__texture_arg(&p, dst);
    if (d == RG__NONE)
        return (rg_command){0};
    const rg__resource *rs = &graph->decl.resources[s], *rd = &graph->decl.resources[d];
    if (filter != VK_FILTER_NEAREST && filter != VK_FILTER_LINEAR) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT,
                 "command '%s': blit '%s' -> '%s': filter %d is not NEAREST or LINEAR",
                 p.name, rs->name, rd->name, (int)filter);
        return (rg_command){0};
    }
    if (src_mip >= rs->mip_levels || dst_mip >= rd->mip_levels || (s == d && src_mip == dst_mip)) {
        rg__fail(graph, RG_ERROR_BAD_RANGE, "command '%s': mips %u of '%s' -> %u of '%s' outside or the same", p.name,
                 src_mip, rs->name, dst_mip, rd->name);
        return (rg_command){0};
    }
    if (rs->samples != VK_SAMPLE_COUNT_1_BIT || rd->samples != VK_SAMPLE_COUNT_1_BIT ||
        rs->array_layers != rd->array_layers) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': '%s' -> '%s' multisampled or layer counts differ",
                 p.name, rs->name, rd->name);
        return (rg_command){0};
    }
    const char *why = blit_formats_refused(rs, rd, filter);
    if (why) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': blit '%s' (format %s) -> '%s' (format %s): %s",
                 p.name, rs->name, rg_format_name(rs->format), rd->name, rg_format_name(rd->format), why);
        return (rg_command){0};
    }
    rg_range sr = {rs->aspects, src_mip, 1, 0, rs->array_layers};
    rg_range dr = {rd->aspects, dst_mip, 1, 0, rd->array_layers};
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_BLIT);
    c.u.blit.src_mip = src_mip;
    c.u.blit.dst_mip = dst_mip;
    c.u.blit.filter = filter;
    return transfer_finish(&p, s, &sr, d, &dr, &c);
}

static void command_allow_queue_taken(rg_graph *graph, rg_command command, rg_queue queue)
{
    if (!rg__usable(graph))
        return;
    uint32_t ci = rg__command_index(graph, command);
    if (ci == RG__NONE) {
        rg__fail(graph, RG_ERROR_INVALID_HANDLE, "rg_command_allow_queue: stale, foreign or 0 command handle");
        return;
    }
    rg__cmd *c = &rg__decl_cmds(graph)[ci];
    if (!rg__queue_eligible(graph, c->name, c, c->first_access, c->access_count, queue))
        return;
    c->queue = queue;
    rg__hash_u32(graph, ci);
    rg__hash_u32(graph, (uint32_t)queue);
}

/* The public calls: each takes the graph (rg__enter). */

rg_command rg_cmd_copy_buffer(rg_graph *graph, rg_buffer src, VkDeviceSize src_offset, rg_buffer dst,
                              VkDeviceSize dst_offset, VkDeviceSize size)
{
    RG__DECLARING(graph, "rg_cmd_copy_buffer", rg_command,
                  cmd_copy_buffer_taken(graph, src, src_offset, dst, dst_offset, size));
}

rg_command rg_cmd_copy_buffer_to_texture(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                         uint32_t mip, uint32_t layer, uint32_t layer_count)
{
    RG__DECLARING(graph, "rg_cmd_copy_buffer_to_texture", rg_command,
                  copy_image_taken(graph, "rg_cmd_copy_buffer_to_texture", true, src, offset, dst, 0, mip, layer,
                                   layer_count));
}

rg_command rg_cmd_copy_buffer_to_texture_aspect(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                                VkImageAspectFlags aspect, uint32_t mip, uint32_t layer,
                                                uint32_t layer_count)
{
    RG__DECLARING(graph, "rg_cmd_copy_buffer_to_texture_aspect", rg_command,
                  copy_image_taken(graph, "rg_cmd_copy_buffer_to_texture_aspect", true, src, offset, dst, aspect,
                                   mip, layer, layer_count));
}

rg_command rg_cmd_copy_texture_to_buffer(rg_graph *graph, rg_texture src, uint32_t mip, uint32_t layer,
                                         uint32_t layer_count, rg_buffer dst, VkDeviceSize offset)
{
    RG__DECLARING(graph, "rg_cmd_copy_texture_to_buffer", rg_command,
                  copy_image_taken(graph, "rg_cmd_copy_texture_to_buffer", false, dst, offset, src, 0, mip, layer,
                                   layer_count));
}

rg_command rg_cmd_copy_texture_aspect_to_buffer(rg_graph *graph, rg_texture src, VkImageAspectFlags aspect,
                                                uint32_t mip, uint32_t layer, uint32_t layer_count, rg_buffer dst,
                                                VkDeviceSize offset)
{
    RG__DECLARING(graph, "rg_cmd_copy_texture_aspect_to_buffer", rg_command,
                  copy_image_taken(graph, "rg_cmd_copy_texture_aspect_to_buffer", false, dst, offset, src, aspect,
                                   mip, layer, layer_count));
}

rg_command rg_cmd_clear_texture(rg_graph *graph, rg_texture texture, const rg_range *range, const VkClearValue *value)
{
    RG__DECLARING(graph, "rg_cmd_clear_texture", rg_command, cmd_clear_texture_taken(graph, texture, range, value));
}

rg_command rg_cmd_blit(rg_graph *graph, rg_texture src, uint32_t src_mip, rg_texture dst, uint32_t dst_mip,
                       VkFilter filter)
{
    RG__DECLARING(graph, "rg_cmd_blit", rg_command, cmd_blit_taken(graph, src, src_mip, dst, dst_mip, filter));
}

void rg_command_allow_queue(rg_graph *graph, rg_command command, rg_queue queue)
{
    if (graph && rg__enter(graph, "rg_command_allow_queue", true) == RG_SUCCESS) {
        command_allow_queue_taken(graph, command, queue);
        if (graph->status->state == RG__FAILED)
            graph->status->incomplete = true;
        rg__leave(graph);
    }
}
