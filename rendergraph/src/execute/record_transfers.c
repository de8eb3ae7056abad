/* The built-in transfer commands (rendergraph.h, section 8) as execute
 * records them: copies, clears and blits, with the layouts and objects
 * the graph placed, inside the barriers execute.c records around them. */
#include "compile/stages.h"
#include "base/device.h"
#include "execute/stages.h"
#include "place/stages.h"

/* The layout a transfer command declared for its i-th access. */
static VkImageLayout access_layout(const rg_graph *g, const rg__cmd *c, uint32_t i)
{
    return g->decl.accesses[c->first_access + i].layout;
}

static const rg__resource *access_resource(const rg_graph *g, const rg__cmd *c, uint32_t i)
{
    return &g->decl.resources[g->decl.accesses[c->first_access + i].resource];
}

/* The Vulkan objects of command c's i-th access's resource this frame. */
static VkImage access_image(const rg_graph *g, const rg__cmd *c, uint32_t i)
{
    return rg__image(g, g->decl.accesses[c->first_access + i].resource);
}

static VkBuffer access_buffer(const rg_graph *g, const rg__cmd *c, uint32_t i)
{
    return rg__buffer(g, g->decl.accesses[c->first_access + i].resource);
}

static uint32_t mip_extent(uint32_t size, uint32_t mip)
{
    size >>= mip;
    return size ? size : 1;
}

void rg__record_transfer(rg_graph *g, VkCommandBuffer cmd, const rg__cmd *c)
{
    switch (c->type) {
    case RG_COMMAND_TYPE_COPY_BUFFER: {
        VkBufferCopy region = { c->u.copy_buffer.src_offset, c->u.copy_buffer.dst_offset, c->u.copy_buffer.size };
        g->dev->vk.CmdCopyBuffer(cmd, access_buffer(g, c, 0), access_buffer(g, c, 1), 1, &region);
        break;
    }
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE:
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER: {
        bool to_texture = c->type == RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE;
        uint32_t ti = to_texture ? 1 : 0;
        const rg__resource *tex = access_resource(g, c, ti);
        VkBufferImageCopy region = {
            .bufferOffset = c->u.copy_image.offset,
            .imageSubresource = { c->u.copy_image.aspect, c->u.copy_image.mip, c->u.copy_image.layer,
                                  c->u.copy_image.layer_count },
            .imageExtent = { mip_extent(tex->width, c->u.copy_image.mip), mip_extent(tex->height, c->u.copy_image.mip),
                             1 },
        };
        if (to_texture)
            g->dev->vk.CmdCopyBufferToImage(cmd, access_buffer(g, c, 1 - ti), access_image(g, c, ti), access_layout(g, c, ti), 1,
                                            &region);
        else
            g->dev->vk.CmdCopyImageToBuffer(cmd, access_image(g, c, ti), access_layout(g, c, ti), access_buffer(g, c, 1 - ti), 1,
                                            &region);
        break;
    }
    case RG_COMMAND_TYPE_CLEAR: {
        VkImage image = access_image(g, c, 0);
        const rg_range *r = &c->u.clear.range;
        VkImageSubresourceRange range = { r->aspect, r->base_mip, r->mip_count, r->base_layer, r->layer_count };
        if (r->aspect & VK_IMAGE_ASPECT_COLOR_BIT)
            g->dev->vk.CmdClearColorImage(cmd, image, access_layout(g, c, 0), &c->u.clear.value.color, 1, &range);
        else
            g->dev->vk.CmdClearDepthStencilImage(cmd, image, access_layout(g, c, 0),
                                                 &c->u.clear.value.depthStencil, 1, &range);
        break;
    }
    case RG_COMMAND_TYPE_BLIT: {
        const rg__resource *src = access_resource(g, c, 0), *dst = access_resource(g, c, 1);
        uint32_t layers = src->array_layers < dst->array_layers ? src->array_layers : dst->array_layers;
        VkImageBlit region = {
            .srcSubresource = { src->aspects, c->u.blit.src_mip, 0, layers },
            .srcOffsets = { { 0, 0, 0 },
                            { (int32_t)mip_extent(src->width, c->u.blit.src_mip),
                              (int32_t)mip_extent(src->height, c->u.blit.src_mip), 1 } },
            .dstSubresource = { dst->aspects, c->u.blit.dst_mip, 0, layers },
            .dstOffsets = { { 0, 0, 0 },
                            { (int32_t)mip_extent(dst->width, c->u.blit.dst_mip),
                              (int32_t)mip_extent(dst->height, c->u.blit.dst_mip), 1 } },
        };
        g->dev->vk.CmdBlitImage(cmd, access_image(g, c, 0), access_layout(g, c, 0), access_image(g, c, 1), access_layout(g, c, 1), 1, &region,
                       c->u.blit.filter);
        break;
    }
    default:
        break;
    }
}
