/* Sets of multisampled attachments resolved into one image (msaa_sets.h). */
#include "msaa_sets.h"

/* The sets' draw: the attachments' load and store ops do the work. */
static bool record_nothing(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

rg_texture msaa_set(rg_graph *g, uint32_t w, uint32_t h, rg_texture resolved, VkClearColorValue clear)
{
    rg_texture color = rg_texture_create(g, &(rg_texture_desc){ .name = "color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .width = w, .height = h,
                                                                .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_texture depth = rg_texture_create(g, &(rg_texture_desc){ .name = "depth", .format = VK_FORMAT_D32_SFLOAT,
                                                                .width = w, .height = h,
                                                                .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "set", .color_count = 1,
        .colors = { { .texture = color, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                      .resolve = resolved, .clear = { .color = clear } } },
        .depth = { .texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .record = record_nothing });
    rg_end_rendering(g);
    return color;
}
