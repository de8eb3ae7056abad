/* The deferred demo's declaration: G-buffer, lighting, a bloom chain and
 * tonemap into the output. */
#include "deferred_renderer.h"

#include <string.h>

/* ---------------------------------------------------------- declaration */

static rg_texture texture(rg_graph *g, const char *name, VkFormat format, VkExtent2D e, VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){
        .name = name, .format = format, .width = e.width, .height = e.height, .samples = samples });
}

/* The next pass of this declaration. */
static pass *new_pass(deferred_renderer *r, rg_graph *g, const char *name, program prog)
{
    if (r->pass_count == MAX_PASSES)
        return NULL; /* cannot happen: MAX_PASSES counts the longest chain */
    pass *p = &r->passes[r->pass_count++];
    *p = (pass){ .r = r, .name = name, .program = prog, .graph = g };
    return p;
}

/* One span of one fullscreen draw into `target`, its sources declared so
 * the graph orders and transitions them: bit i of pixel_local reads src[i]
 * at the fragment's own pixel (RG_USAGE_PIXEL_LOCAL_READ: merged into the
 * producer's rendering instance where the graph can), the others are
 * sampled with filtering. */
static void fullscreen_span(deferred_renderer *r, rg_graph *g, const char *name, rg_texture target, program prog,
                            const rg_texture *src, uint32_t src_count, uint32_t pixel_local, VkSampler sampler,
                            const float push[4])
{
    pass *p = new_pass(r, g, name, prog);
    if (!p)
        return;
    p->src_count = src_count;
    p->pixel_local = pixel_local;
    p->sampler = sampler;
    rg_access reads[4];
    for (uint32_t i = 0; i < src_count; i++) {
        p->src[i] = src[i];
        reads[i] = (rg_access){ .texture = src[i], .whole = true,
                                .usage = (pixel_local & (1u << i)) ? RG_USAGE_PIXEL_LOCAL_READ
                                                                   : RG_USAGE_SAMPLED_FRAGMENT };
    }
    if (push)
        memcpy(p->push, push, sizeof p->push);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { { .texture = target, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 1,
    });
    p->cmd = rg_cmd_user(g, &(rg_user_desc){ .name = name, .kind = RG_COMMAND_DRAW, .accesses = reads,
                                             .access_count = src_count, .record = deferred_draw_fullscreen,
                                             .user = p });
    rg_end_rendering(g);
}

static const char *const bloom_down_names[DEFERRED_MAX_BLOOM] = { "bloom 1/2", "bloom 1/4", "bloom 1/8",
                                                                  "bloom 1/16", "bloom 1/32", "bloom 1/64" };
static const char *const bloom_up_names[DEFERRED_MAX_BLOOM - 1] = { "bloom up 1/2", "bloom up 1/4", "bloom up 1/8",
                                                                    "bloom up 1/16", "bloom up 1/32" };

void deferred_frame_declare(deferred_renderer *r, rg_graph *g, rg_texture output, VkExtent2D extent,
                            deferred_frame_textures *textures)
{
    deferred_frame_textures t_local, *t = textures ? textures : &t_local;
    *t = (deferred_frame_textures){ 0 };
    r->extent = extent;
    r->pass_count = 0;
    VkSampleCountFlagBits ms = r->samples;

    /* G-buffer: cleared, written by the scene's draws, stored for lighting.
     * The depth test's buffer is cleared and discarded in this span alone,
     * so the graph makes it transient. */
    t->albedo = texture(g, "gbuffer albedo", ALBEDO_FORMAT, extent, ms);
    t->normal = texture(g, "gbuffer normal", NORMAL_FORMAT, extent, ms);
    t->material = texture(g, "gbuffer material", MATERIAL_FORMAT, extent, ms);
    t->depth = texture(g, "gbuffer depth", DEPTH_FORMAT, extent, ms);
    t->zbuffer = texture(g, "depth buffer", ZBUFFER_FORMAT, extent, ms);
    rg_rendering_desc gb = {
        .name = "gbuffer",
        .color_count = 4,
        .depth = { .texture = t->zbuffer, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                   .clear.depthStencil = { 1.0f, 0 } },
    };
    rg_texture gtex[4] = { t->albedo, t->normal, t->material, t->depth };
    for (int i = 0; i < 4; i++)
        gb.colors[i] = (rg_attachment){ .texture = gtex[i], .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        .store = VK_ATTACHMENT_STORE_OP_STORE }; /* cleared to 0: depth 0 = sky */
    pass *scene = new_pass(r, g, "draw scene", PROGRAM_GBUFFER);
    rg_begin_rendering(g, &gb);
    rg_command draw = rg_cmd_user(g, &(rg_user_desc){ .name = "draw scene", .kind = RG_COMMAND_DRAW,
                                                      .record = deferred_draw_gbuffer, .user = scene });
    if (scene)
        scene->cmd = draw;
    rg_end_rendering(g);

    /* Lighting: the G-buffer's last use, each texel read at its own pixel.
     * Where the graph merges this span into the G-buffer's rendering
     * instance the G-buffer is read through input attachments (indices 0..3
     * in this order, as deferred_light*.frag's LOCAL_READ variants expect)
     * and never leaves tile memory on a tile GPU. */
    t->hdr = texture(g, "hdr", HDR_FORMAT, extent, VK_SAMPLE_COUNT_1_BIT);
    fullscreen_span(r, g, "lighting", t->hdr, PROGRAM_LIGHT, gtex, 4, 0xfu, r->nearest, NULL);

    /* Bloom: halve while both sides stay at least 8 texels. */
    VkExtent2D level[DEFERRED_MAX_BLOOM];
    uint32_t n = 0;
    for (VkExtent2D e = { extent.width / 2, extent.height / 2 }; n < DEFERRED_MAX_BLOOM && e.width >= 8 && e.height >= 8;
         e.width /= 2, e.height /= 2)
        level[n++] = e;
    if (n == 0) /* a tiny window: one level of at least a texel */
        level[n++] = (VkExtent2D){ extent.width > 1 ? extent.width / 2 : 1, extent.height > 1 ? extent.height / 2 : 1 };
    t->bloom_levels = n;
    memcpy(t->bloom_extent, level, n * sizeof *level);
    for (uint32_t i = 0; i < n; i++) {
        t->bloom_down[i] = texture(g, bloom_down_names[i], HDR_FORMAT, level[i], VK_SAMPLE_COUNT_1_BIT);
        rg_texture src = i ? t->bloom_down[i - 1] : t->hdr;
        VkExtent2D se = i ? level[i - 1] : extent;
        float push[4] = { 1.0f / (float)se.width, 1.0f / (float)se.height, 1.0f, 0.5f };
        fullscreen_span(r, g, i ? bloom_down_names[i] : "bloom bright pass", t->bloom_down[i],
                        i ? PROGRAM_DOWN : PROGRAM_BRIGHT, &src, 1, 0, r->linear, push);
    }
    rg_texture bloom = t->bloom_down[n - 1];
    for (uint32_t i = n - 1; i-- > 0;) {
        t->bloom_up[i] = texture(g, bloom_up_names[i], HDR_FORMAT, level[i], VK_SAMPLE_COUNT_1_BIT);
        rg_texture src[2] = { bloom, t->bloom_down[i] };
        float push[4] = { 1.0f / (float)level[i + 1].width, 1.0f / (float)level[i + 1].height, 1.0f, 0.0f };
        fullscreen_span(r, g, bloom_up_names[i], t->bloom_up[i], PROGRAM_UP, src, 2, 0, r->linear, push);
        bloom = t->bloom_up[i];
    }

    /* Tonemap into the output, the frame's last span. It reads hdr at its
     * own pixel, but the bloom chain also reads hdr and must run between the
     * two, so the graph cannot merge tonemap into lighting's instance (its
     * merge notes say so). */
    rg_texture src[2] = { t->hdr, bloom };
    float push[4] = { 1.0f, 0.12f, 0.0f, 0.0f };
    fullscreen_span(r, g, "tonemap", output, PROGRAM_TONEMAP, src, 2, 0x1u, r->linear, push);
}

