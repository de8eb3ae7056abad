/* The chain of fullscreen passes (postfx.h): the table, --passes, the
 * pipelines and the chain's declaration; the trails pass before it. */
#include "postfx.h"

#include <stdio.h>
#include <string.h>

static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t edges_frag[] =
#include "postfx_edges.frag.inc"
    ;
static const uint32_t bloom_frag[] =
#include "postfx_bloom.frag.inc"
    ;
static const uint32_t blur_frag[] =
#include "postfx_blur.frag.inc"
    ;
static const uint32_t grade_frag[] =
#include "postfx_grade.frag.inc"
    ;
static const uint32_t chroma_frag[] =
#include "postfx_chroma.frag.inc"
    ;
static const uint32_t vignette_frag[] =
#include "postfx_vignette.frag.inc"
    ;
static const uint32_t fxaa_frag[] =
#include "postfx_fxaa.frag.inc"
    ;
static const uint32_t copy_frag[] =
#include "postfx_copy.frag.inc"
    ;
static const uint32_t trails_frag[] =
#include "postfx_trails.frag.inc"
    ;

/* Chain order: outlines on the sharp scene, the glow over them, the
 * tilt-shift blur, then the grade from HDR to 0..1 and the lens effects on
 * the graded picture; FXAA last, on what is shown. */
const postfx_pass_info postfx_passes[POSTFX_PASS_COUNT + 1] = {
    { "edges", "after edges", edges_frag, sizeof edges_frag, 0, 0, 0.9f },
    { "bloomh", "after bloomh", bloom_frag, sizeof bloom_frag, 1, 0, 0.8f },
    { "bloomv", "after bloomv", bloom_frag, sizeof bloom_frag, 0, 1, 0.8f },
    { "blurh", "after blurh", blur_frag, sizeof blur_frag, 1, 0, 0.008f },
    { "blurv", "after blurv", blur_frag, sizeof blur_frag, 0, 1, 0.008f },
    { "grade", "after grade", grade_frag, sizeof grade_frag, 0, 0, 1.0f },
    { "chroma", "after chroma", chroma_frag, sizeof chroma_frag, 0, 0, 1.0f },
    { "vignette", "after vignette", vignette_frag, sizeof vignette_frag, 0, 0, 0.9f },
    { "fxaa", "after fxaa", fxaa_frag, sizeof fxaa_frag, 0, 0, 1.0f },
    { "copy", "after copy", copy_frag, sizeof copy_frag, 0, 0, 1.0f },
};

/* The push constants of every postfx_*.frag pass. */
typedef struct pass_push {
    float step[2];
    float texel[2];
    float frame;
    float strength;
} pass_push;

bool postfx_parse_passes(const char *list, uint32_t *mask, char *err, size_t err_size)
{
    *mask = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, ",");
        uint32_t bits = 0;
        for (uint32_t i = 0; i < POSTFX_PASS_COUNT; i++)
            if (strlen(postfx_passes[i].name) == n && strncmp(p, postfx_passes[i].name, n) == 0)
                bits = 1u << i;
        /* Groups: both directions of a separable pass, everything, nothing. */
        if (n == 5 && strncmp(p, "bloom", 5) == 0)
            bits = 3u << 1;
        else if (n == 4 && strncmp(p, "blur", 4) == 0)
            bits = 3u << 3;
        else if (n == 3 && strncmp(p, "all", 3) == 0)
            bits = POSTFX_ALL;
        if (!bits && !(n == 4 && strncmp(p, "none", 4) == 0)) {
            snprintf(err, err_size, "unknown pass '%.*s' (passes: edges, bloom (bloomh, bloomv), blur (blurh, "
                     "blurv), grade, chroma, vignette, fxaa, all, none)", (int)n, p);
            return false;
        }
        *mask |= bits;
        if (p[n] == '\0')
            return true;
        p += n + 1;
    }
}

void postfx_passes_string(uint32_t mask, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < POSTFX_PASS_COUNT && used < size; i++)
        if (mask & (1u << i))
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "," : "", postfx_passes[i].name);
    if (!mask)
        snprintf(out, size, "none");
}

eng_pipeline_desc postfx_fullscreen_desc(const demo_app *app, const char *name, const uint32_t *fragment_spirv,
                                         size_t fragment_size, uint32_t push_size)
{
    eng_pipeline_desc pd =
        demo_app_pipeline_desc(app, name, fullscreen_vert, sizeof fullscreen_vert, fragment_spirv, fragment_size);
    pd.push_constant_size = push_size;
    pd.push_constant_stages = VK_SHADER_STAGE_FRAGMENT_BIT;
    return pd;
}

void postfx_pipelines_create(postfx *fx, VkFormat swapchain_format)
{
    demo_app *app = fx->app;
    fx->source_layout = demo_descriptors_layout(app, 1);
    /* Each pass can be the last (writing the swapchain image) or not, so
     * each gets a pipeline for both formats. */
    const VkFormat formats[2] = { POSTFX_FORMAT, swapchain_format };
    for (uint32_t i = 0; i <= POSTFX_PASS_COUNT; i++)
        for (uint32_t f = 0; f < 2; f++) {
            eng_pipeline_desc pd = postfx_fullscreen_desc(app, postfx_passes[i].name, postfx_passes[i].spirv,
                                                          postfx_passes[i].spirv_size, sizeof(pass_push));
            pd.color_formats[0] = formats[f];
            pd.color_count = 1;
            pd.set_layouts = &fx->source_layout;
            pd.set_layout_count = 1;
            DEMO_CHECK(app, eng_pipeline_create(app->ctx, &pd, &fx->pipelines[i][f]));
        }
    fx->trails_layout = demo_descriptors_layout(app, 2);
    eng_pipeline_desc td = postfx_fullscreen_desc(app, "trails", trails_frag, sizeof trails_frag, sizeof(pass_push));
    td.color_formats[0] = td.color_formats[1] = POSTFX_FORMAT;
    td.color_count = 2;
    td.set_layouts = &fx->trails_layout;
    td.set_layout_count = 1;
    DEMO_CHECK(app, eng_pipeline_create(app->ctx, &td, &fx->trails_pipeline));
}

void postfx_pipelines_destroy(postfx *fx)
{
    for (uint32_t i = 0; i <= POSTFX_PASS_COUNT; i++)
        for (uint32_t f = 0; f < 2; f++)
            eng_pipeline_destroy(fx->pipelines[i][f]);
    eng_pipeline_destroy(fx->trails_pipeline);
    fx->trails_pipeline = NULL;
    if (fx->source_layout && fx->app && fx->app->ctx)
        vkDestroyDescriptorSetLayout(eng_context_device(fx->app->ctx), fx->source_layout, NULL);
    if (fx->trails_layout && fx->app && fx->app->ctx)
        vkDestroyDescriptorSetLayout(eng_context_device(fx->app->ctx), fx->trails_layout, NULL);
    fx->source_layout = fx->trails_layout = VK_NULL_HANDLE;
}

/* The bytes of one chain target as the device lays it out (what the graph
 * creates: an RGBA16F color attachment that is sampled, in a pool). */
static VkDeviceSize target_bytes(postfx *fx)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = POSTFX_FORMAT,
        .extent = { fx->extent.width, fx->extent.height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
    };
    VkDeviceImageMemoryRequirements query = { .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
                                              .pCreateInfo = &info };
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    vkGetDeviceImageMemoryRequirements(eng_context_device(fx->app->ctx), &query, &req);
    return req.memoryRequirements.size;
}

/* The line stating the chain's targets against the pools' bytes (the
 * tests read it), printed from the last pass's record callback: the graph
 * is placed then. */
static void print_memory_line(postfx *fx)
{
    fx->memory_line_due = false;
    rg_memory_totals t = rg_memory_get_totals(demo_app_graph(fx->app));
    const double one = (double)target_bytes(fx), mib = 1024.0 * 1024.0;
    const char *msaa = !fx->msaa_target ? ""
                       : t.lazy         ? " (and a lazily allocated multisampled scene target)"
                                        : " (and a multisampled scene target, pooled)";
    printf("postfx: chain of %u pass%s at %ux%u declared %u target%s of %.2f MiB%s; the pools hold %.1f targets' worth "
           "(pooled %.2f MiB, unaliased %.1f, lower bound %.1f targets' worth)\n",
           fx->link_count, fx->link_count == 1 ? "" : "es", fx->extent.width, fx->extent.height, fx->target_count,
           fx->target_count == 1 ? "" : "s", one / mib, msaa,
           (double)t.pooled / one, (double)t.pooled / mib, (double)t.unaliased / one, (double)t.lower_bound / one);
    /* The trail's two images live across frames: never pooled. */
    if (fx->trails)
        printf("postfx: trails: a history texture of 2 images, %.2f MiB dedicated\n", (double)t.dedicated / mib);
    fflush(stdout);
}

/* One fullscreen triangle sampling the link's source. The view is asked
 * for here, not at declaration: the graph makes it at placement. */
static bool record_link(const rg_record_context *rc, void *user)
{
    const postfx_link *l = user;
    postfx *fx = l->fx;
    VkImageView view = rg_record_view(rc, l->source);
    VkDescriptorSet set = demo_descriptors_textures(&fx->descriptors, fx->source_layout, &view, 1);
    if (!view || !set)
        return false;
    const postfx_pass_info *info = &postfx_passes[l->pass];
    const eng_pipeline *p = fx->pipelines[l->pass][l->to_swapchain];
    float tx = 1.0f / (float)fx->extent.width, ty = 1.0f / (float)fx->extent.height;
    pass_push push = {
        .step = { info->step_x * tx, info->step_y * ty },
        .texel = { tx, ty },
        .frame = (float)fx->index,
        .strength = info->strength,
    };
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(p), 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, eng_pipeline_layout(p), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push, &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    if (l->to_swapchain && fx->memory_line_due)
        print_memory_line(fx);
    return true;
}

void postfx_declare_chain(postfx *fx, rg_graph *g, const demo_target *target, rg_texture scene)
{
    uint32_t order[POSTFX_PASS_COUNT], n = 0;
    for (uint32_t i = 0; i < POSTFX_PASS_COUNT; i++)
        if (fx->wanted & (1u << i))
            order[n++] = i;
    if (n == 0)
        order[n++] = POSTFX_COPY;
    rg_texture source = scene;
    for (uint32_t k = 0; k < n; k++) {
        postfx_link *l = &fx->links[k];
        bool last = k + 1 == n;
        *l = (postfx_link){ .fx = fx, .pass = order[k], .source = source, .to_swapchain = last };
        if (last) {
            l->target = target->backbuffer;
        } else {
            /* Each target lives from its pass to the next: the graph can
             * alias all of them into two targets' worth of memory. */
            l->target = rg_texture_create(g, &(rg_texture_desc){
                .name = postfx_passes[order[k]].target,
                .format = POSTFX_FORMAT,
                .width = target->extent.width,
                .height = target->extent.height,
            });
            fx->target_count++;
        }
        /* Every pixel is written: the old contents are never loaded. */
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = postfx_passes[order[k]].name,
            .colors = { { .texture = l->target,
                          .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                          .store = VK_ATTACHMENT_STORE_OP_STORE } },
            .color_count = 1,
        });
        rg_access read = demo_read(source, RG_USAGE_SAMPLED_FRAGMENT);
        rg_cmd_user(g, &(rg_user_desc){
            .name = postfx_passes[order[k]].name,
            .kind = RG_COMMAND_DRAW,
            .accesses = &read,
            .access_count = 1,
            .record = record_link,
            .user = l,
        });
        rg_end_rendering(g);
        source = l->target;
    }
    fx->link_count = n;
}

/* The scene and the trail the frame before wrote, sampled; the composite
 * and this frame's trail written. The trail's view alternates between the
 * history's two images: asked for at every frame. */
static bool record_trails(const rg_record_context *rc, void *user)
{
    const postfx_trails *t = user;
    postfx *fx = t->fx;
    VkImageView views[2] = { rg_record_view(rc, t->scene), rg_record_view(rc, t->previous) };
    VkDescriptorSet set = demo_descriptors_textures(&fx->descriptors, fx->trails_layout, views, 2);
    if (!views[0] || !views[1] || !set)
        return false;
    const eng_pipeline *p = fx->trails_pipeline;
    float tx = 1.0f / (float)fx->extent.width, ty = 1.0f / (float)fx->extent.height;
    pass_push push = { .texel = { tx, ty }, .frame = (float)fx->index, .strength = POSTFX_TRAIL_DECAY };
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_layout(p), 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, eng_pipeline_layout(p), VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push, &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

rg_texture postfx_declare_trails(postfx *fx, rg_graph *g, const demo_target *target, rg_texture scene)
{
    rg_texture_desc td = {
        .name = "trail",
        .format = POSTFX_FORMAT,
        .width = target->extent.width,
        .height = target->extent.height,
    };
    /* The trail outlives the frame: a history texture, whose first frame
     * after each declaration reads zeros (history_clear), no trail yet. */
    postfx_trails *t = &fx->trails_pass;
    *t = (postfx_trails){ .fx = fx, .scene = scene };
    rg_texture trail = rg_texture_create_history(g, &td, &t->previous);
    td.name = "after trails";
    rg_texture composite = rg_texture_create(g, &td);
    fx->target_count++;
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "trails",
        .colors = { { .texture = composite, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE },
                    { .texture = trail, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .color_count = 2,
    });
    rg_access reads[2] = { demo_read(scene, RG_USAGE_SAMPLED_FRAGMENT),
                           demo_read(t->previous, RG_USAGE_SAMPLED_FRAGMENT) };
    rg_cmd_user(g, &(rg_user_desc){
        .name = "trails",
        .kind = RG_COMMAND_DRAW,
        .accesses = reads,
        .access_count = 2,
        .record = record_trails,
        .user = t,
    });
    rg_end_rendering(g);
    return composite;
}
