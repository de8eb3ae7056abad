/* The scene demo's declaration: cascaded shadows, a depth prepass, SSAO
 * (on the compute queue where asked), forward shading with the sky, bloom
 * and tonemap into the target. */
#include "scene_renderer.h"

#include <string.h>

static const VkFormat DEPTH_FORMAT = VK_FORMAT_D32_SFLOAT;
static const VkFormat HDR_FORMAT = VK_FORMAT_R16G16B16A16_SFLOAT;
static const VkFormat AO_FORMAT = VK_FORMAT_R8_UNORM;

/* ---------------------------------------------------------- declaration */

/* A draw command's cost hint for cutting the frame into chunks
 * (rg_user_desc.cost): the boxes it draws, as many as the last frame had
 * (before the first frame, as many as there may be). */
static uint32_t boxes_cost(const scene_renderer *r)
{
    return r->box_count ? r->box_count : MAX_OBJECTS;
}

static pass *new_pass(scene_renderer *r, program prog)
{
    if (r->pass_count == MAX_PASSES)
        return NULL; /* cannot happen: MAX_PASSES counts the frame's passes */
    pass *p = &r->passes[r->pass_count++];
    *p = (pass){ .r = r, .program = prog };
    return p;
}

static rg_access read(rg_texture t, rg_usage usage)
{
    return (rg_access){ .texture = t, .usage = usage, .whole = true };
}

/* A span of one fullscreen draw into target, sampling sources. load LOAD
 * keeps what target holds (the upsamples add to it). */
static void fullscreen_span(scene_renderer *r, rg_graph *g, const char *name, program prog, rg_texture target,
                            VkAttachmentLoadOp load, const rg_texture *src, uint32_t src_count, const float push[4])
{
    pass *p = new_pass(r, prog);
    if (!p)
        return;
    rg_access reads[2];
    for (uint32_t i = 0; i < src_count; i++) {
        p->src[i] = src[i];
        reads[i] = read(src[i], RG_USAGE_SAMPLED_FRAGMENT);
    }
    if (push)
        memcpy(p->push, push, sizeof p->push);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = name,
        .colors = { { .texture = target, .load = load, .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 1,
    });
    p->cmd = rg_cmd_user(g, &(rg_user_desc){ .name = name, .kind = RG_COMMAND_DRAW, .accesses = reads,
                                             .access_count = src_count, .record = scene_draw_fullscreen, .user = p });
    rg_end_rendering(g);
}

/* A texture the size of `of` times scale. */
static rg_texture sized(rg_graph *g, const char *name, VkFormat format, rg_texture of, float scale,
                        VkSampleCountFlagBits samples)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = name, .format = format, .size_of = of, .scale = scale,
                                                    .samples = samples });
}

void scene_frame_declare(scene_renderer *r, rg_graph *g, rg_texture target, bool async_compute,
                         scene_frame_textures *textures)
{
    static const char *const cascade_names[SCENE_CASCADES] = { "shadow cascade 0", "shadow cascade 1",
                                                               "shadow cascade 2" };
    static const char *const bloom_names[SCENE_BLOOM_LEVELS] = { "bloom 1/2", "bloom 1/4", "bloom 1/8",
                                                                 "bloom 1/16", "bloom 1/32" };
    static const char *const up_names[SCENE_BLOOM_LEVELS - 1] = { "bloom up 1/2", "bloom up 1/4", "bloom up 1/8",
                                                                   "bloom up 1/16" };
    r->graph = g;
    r->extent = rg_texture_extent(g, target);
    r->pass_count = 0;
    scene_frame_textures *t = &r->tex;
    *t = (scene_frame_textures){ 0 };
    bool ms = r->samples > VK_SAMPLE_COUNT_1_BIT;

    /* The frame's uniforms: the slot's buffer, re-pointed by
     * scene_frame_update; the host wrote it before the submission. */
    r->uniform_import = rg_buffer_import(g, &(rg_buffer_import_desc){
        .name = "frame uniforms", .buffer = eng_buffer_handle(r->uniforms[0]), .size = sizeof(frame_uniforms),
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT });
    rg_access ubo_vertex = { .buffer = r->uniform_import, .usage = RG_USAGE_UNIFORM_VERTEX, .whole = true };

    /* Depth prepass: the camera's depth, kept for the forward pass and
     * resolved (sample 0: a real depth, never an average) for SSAO. */
    t->depth = sized(g, "depth", DEPTH_FORMAT, target, 1.0f, r->samples);
    t->depth_resolved = ms ? sized(g, "depth resolved", DEPTH_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT) : t->depth;
    pass *p = new_pass(r, PROGRAM_PREPASS);
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "depth prepass",
        .depth = { .texture = t->depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE,
                   .clear.depthStencil = { 1.0f, 0 }, .resolve = ms ? t->depth_resolved : (rg_texture){ 0 },
                   .resolve_mode = ms ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : 0 },
    });
    rg_command draw = rg_cmd_user(g, &(rg_user_desc){ .name = "prepass draws", .kind = RG_COMMAND_DRAW,
                                                      .accesses = &ubo_vertex, .access_count = 1,
                                                      .record = scene_draw_objects, .user = p, .cost = boxes_cost(r) });
    if (p)
        p->cmd = draw;
    rg_end_rendering(g);

    /* SSAO and its blur: compute, on the compute queue where allowed. The
     * shadow cascades need nothing of theirs, so the graph can run the two
     * side by side. */
    rg_queue queue = async_compute ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS;
    t->ao_raw = sized(g, "ao raw", AO_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT);
    t->ao = sized(g, "ao", AO_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT);
    rg_access ssao_access[2] = { read(t->depth_resolved, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao_raw, RG_USAGE_STORAGE_WRITE_COMPUTE) };
    t->ssao = rg_cmd_user(g, &(rg_user_desc){ .name = "ssao", .accesses = ssao_access, .access_count = 2,
                                              .record = scene_dispatch, .user = new_pass(r, PROGRAM_SSAO),
                                              .queue = queue });
    rg_access blur_access[3] = { read(t->depth_resolved, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao_raw, RG_USAGE_SAMPLED_COMPUTE),
                                 read(t->ao, RG_USAGE_STORAGE_WRITE_COMPUTE) };
    t->blur = rg_cmd_user(g, &(rg_user_desc){ .name = "ssao blur", .accesses = blur_access, .access_count = 3,
                                              .record = scene_dispatch, .user = new_pass(r, PROGRAM_BLUR),
                                              .queue = queue });

    /* Shadow cascades: one span per layer of the array. */
    t->shadow = rg_texture_create(g, &(rg_texture_desc){ .name = "shadow cascades", .format = DEPTH_FORMAT,
                                                         .width = SHADOW_SIZE, .height = SHADOW_SIZE,
                                                         .array_layers = SCENE_CASCADES });
    for (uint32_t i = 0; i < SCENE_CASCADES; i++) {
        p = new_pass(r, PROGRAM_SHADOW);
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = cascade_names[i],
            .depth = { .texture = t->shadow, .base_layer = i, .layer_count = 1, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                       .store = VK_ATTACHMENT_STORE_OP_STORE, .clear.depthStencil = { 1.0f, 0 } },
        });
        draw = rg_cmd_user(g, &(rg_user_desc){ .name = cascade_names[i], .kind = RG_COMMAND_DRAW,
                                               .accesses = &ubo_vertex, .access_count = 1, .record = scene_draw_shadow,
                                               .user = p, .cost = boxes_cost(r) });
        if (p)
            *p = (pass){ .r = r, .program = PROGRAM_SHADOW, .cmd = draw, .cascade = i };
        rg_end_rendering(g);
    }

    /* Forward: the prepass's depth loaded read-only (nothing stored), the
     * sky where it is still clear, then the lit scene; the multisampled
     * color lives in this span alone (transient) and resolves into hdr. */
    t->color = sized(g, "color", HDR_FORMAT, target, 1.0f, r->samples);
    t->hdr = ms ? sized(g, "hdr", HDR_FORMAT, target, 1.0f, VK_SAMPLE_COUNT_1_BIT) : t->color;
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "forward",
        .colors = { { .texture = t->color, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = ms ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
                      .resolve = ms ? t->hdr : (rg_texture){ 0 } } },
        .color_count = 1,
        .depth = { .texture = t->depth, .load = VK_ATTACHMENT_LOAD_OP_LOAD, .store = VK_ATTACHMENT_STORE_OP_NONE },
        .depth_read_only = true,
    });
    rg_access ubo_fragment = { .buffer = r->uniform_import, .usage = RG_USAGE_UNIFORM_FRAGMENT, .whole = true };
    p = new_pass(r, PROGRAM_SKY);
    draw = rg_cmd_user(g, &(rg_user_desc){ .name = "sky", .kind = RG_COMMAND_DRAW, .accesses = &ubo_fragment,
                                           .access_count = 1, .record = scene_draw_fullscreen, .user = p });
    if (p)
        p->cmd = draw;
    rg_access lit[4] = { ubo_vertex, ubo_fragment, read(t->shadow, RG_USAGE_SAMPLED_FRAGMENT),
                         read(t->ao, RG_USAGE_SAMPLED_FRAGMENT) };
    p = new_pass(r, PROGRAM_FORWARD);
    draw = rg_cmd_user(g, &(rg_user_desc){ .name = "lit scene", .kind = RG_COMMAND_DRAW, .accesses = lit,
                                           .access_count = 4, .record = scene_draw_objects, .user = p,
                                           .cost = boxes_cost(r) });
    if (p)
        p->cmd = draw;
    rg_end_rendering(g);

    /* Bloom: each level half the one before; then back up, each level
     * adding the one below it (additive blend onto its loaded contents). */
    rg_texture from = t->hdr;
    for (uint32_t i = 0; i < SCENE_BLOOM_LEVELS; i++) {
        t->bloom[i] = sized(g, bloom_names[i], HDR_FORMAT, from, 0.5f, VK_SAMPLE_COUNT_1_BIT);
        const float bright[4] = { 1.0f, 0.5f, 0.0f, 0.0f }; /* threshold, knee */
        fullscreen_span(r, g, i ? bloom_names[i] : "bloom bright pass", i ? PROGRAM_DOWN : PROGRAM_BRIGHT, t->bloom[i],
                        VK_ATTACHMENT_LOAD_OP_DONT_CARE, &from, 1, i ? NULL : bright);
        from = t->bloom[i];
    }
    for (uint32_t i = SCENE_BLOOM_LEVELS - 1; i-- > 0;) {
        const float strength[4] = { 1.0f, 0.0f, 0.0f, 0.0f };
        fullscreen_span(r, g, up_names[i], PROGRAM_UP, t->bloom[i], VK_ATTACHMENT_LOAD_OP_LOAD, &t->bloom[i + 1], 1,
                        strength);
    }

    /* Tonemap into the target. */
    rg_texture src[2] = { t->hdr, t->bloom[0] };
    const float tone[4] = { 0.65f, 0.1f, 0.0f, 0.0f }; /* exposure, bloom strength */
    fullscreen_span(r, g, "tonemap", PROGRAM_TONEMAP, target, VK_ATTACHMENT_LOAD_OP_DONT_CARE, src, 2, tone);
    if (textures)
        *textures = *t;
}

