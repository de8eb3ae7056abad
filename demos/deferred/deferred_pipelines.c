/* The deferred demo's pipelines: one per program and rendering state the
 * compiled graph reports (merged spans' locations and input indices
 * included), and each pass's pipeline and descriptor layouts looked up
 * when the frame is prepared. */
#include "deferred_renderer.h"

#include <string.h>

static const uint32_t fullscreen_vert[] =
#include "fullscreen.vert.inc"
    ;
static const uint32_t gbuffer_vert[] =
#include "deferred_gbuffer.vert.inc"
    ;
/* ------------------------------------------------------------ pipelines */

/* Whether the state reads any attachment through an input attachment. */
static bool reads_inputs(const rg_command_rendering *st)
{
    bool any = st->depth_input_index != VK_ATTACHMENT_UNUSED || st->stencil_input_index != VK_ATTACHMENT_UNUSED;
    for (uint32_t i = 0; i < st->color_count; i++)
        any = any || st->color_input_indices[i] != VK_ATTACHMENT_UNUSED;
    return any;
}

/* Two states a pipeline cannot tell apart (the fields the pipeline is built
 * from). */
static bool same_state(const rg_command_rendering *a, const rg_command_rendering *b)
{
    if (a->merged != b->merged || a->color_count != b->color_count || a->depth_format != b->depth_format ||
        a->stencil_format != b->stencil_format || a->samples != b->samples ||
        a->depth_input_index != b->depth_input_index || a->stencil_input_index != b->stencil_input_index)
        return false;
    for (uint32_t i = 0; i < a->color_count; i++)
        if (a->color_formats[i] != b->color_formats[i] || a->color_locations[i] != b->color_locations[i] ||
            a->color_input_indices[i] != b->color_input_indices[i])
            return false;
    return true;
}

/* The program's pipeline for one rendering state: its formats and sample
 * count, and where the state is merged, its locations and input indices
 * (eng_pipeline_desc.local_read takes every entry as given). A state that
 * reads input attachments takes the LOCAL_READ shader. */
static eng_result build_pipeline(deferred_renderer *r, program prog, const rg_command_rendering *st,
                                 eng_pipeline **out)
{
    const program_info *pi = &r->programs[prog];
    bool local = reads_inputs(st);
    if (local && !pi->local_frag)
        return eng_set_error(ENG_ERROR_UNSUPPORTED,
                             "%s: the graph reads its sources through input attachments, and the program has no "
                             "LOCAL_READ variant",
                             pi->name);
    VkDescriptorSetLayout layouts[2] = { local ? pi->local_layout : pi->layout, r->lights_layout };
    eng_pipeline_desc pd = {
        .name = pi->name,
        .vertex_spirv = fullscreen_vert,
        .vertex_size = sizeof fullscreen_vert,
        .fragment_spirv = local ? pi->local_frag : pi->frag,
        .fragment_size = local ? pi->local_frag_size : pi->frag_size,
        .color_count = st->color_count,
        .depth_format = st->depth_format != VK_FORMAT_UNDEFINED ? st->depth_format : st->stencil_format,
        .samples = st->samples,
        .local_read = st->merged,
        .depth_input_index = st->depth_input_index,
        .stencil_input_index = st->stencil_input_index,
        .set_layouts = layouts,
        .set_layout_count = pi->lights ? 2 : 1,
        .push_constant_size = pi->lights ? 0 : 16,
        .push_constant_stages = VK_SHADER_STAGE_FRAGMENT_BIT,
        .cache = r->cache,
    };
    memcpy(pd.color_formats, st->color_formats, sizeof pd.color_formats);
    memcpy(pd.color_locations, st->color_locations, sizeof pd.color_locations);
    memcpy(pd.color_input_indices, st->color_input_indices, sizeof pd.color_input_indices);
    if (prog == PROGRAM_GBUFFER) {
        pd.vertex_spirv = gbuffer_vert;
        pd.vertex_size = sizeof gbuffer_vert;
        pd.bindings = &demo_cube_vertex_binding;
        pd.binding_count = 1;
        pd.attributes = demo_cube_vertex_attributes;
        pd.attribute_count = 3;
        pd.cull_mode = VK_CULL_MODE_BACK_BIT;
        pd.depth_test = true;
        pd.depth_write = true;
        pd.push_constant_size = sizeof(gbuffer_push);
        pd.push_constant_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    }
    return eng_pipeline_create(r->ctx, &pd, out);
}

/* The program's pipeline for a state the graph reported: one already built
 * for an equal state, or a new one kept until the renderer is destroyed. */
static eng_result pipeline_for(deferred_renderer *r, program prog, const rg_command_rendering *reported,
                               const eng_pipeline **out)
{
    rg_command_rendering st = *reported;
    st.instance = 0;
    st.key = 0;
    for (uint32_t i = 0; i < r->pipeline_count; i++)
        if (r->pipelines[i].program == prog && same_state(&r->pipelines[i].state, &st)) {
            *out = r->pipelines[i].pipeline;
            return ENG_SUCCESS;
        }
    if (r->pipeline_count == r->pipeline_capacity) {
        uint32_t cap = r->pipeline_capacity ? 2 * r->pipeline_capacity : 2 * PROGRAM_COUNT;
        pipeline_entry *grown = realloc(r->pipelines, cap * sizeof *grown);
        if (!grown)
            return eng_set_error(ENG_ERROR_OUT_OF_MEMORY, "%s: no memory for another pipeline",
                                 r->programs[prog].name);
        r->pipelines = grown;
        r->pipeline_capacity = cap;
    }
    eng_pipeline *p = NULL;
    eng_result res = build_pipeline(r, prog, &st, &p);
    if (res != ENG_SUCCESS)
        return res;
    r->pipelines[r->pipeline_count++] = (pipeline_entry){ .program = prog, .state = st, .pipeline = p };
    *out = p;
    return ENG_SUCCESS;
}

/* The pipeline for a span of its own (not merged): what the graph reports
 * for it, built now so that an unusable state fails at renderer creation
 * and the first frame finds it ready. */
eng_result deferred_standalone_pipeline(deferred_renderer *r, program prog, const VkFormat *formats, uint32_t count,
                                        VkFormat depth, VkSampleCountFlagBits samples)
{
    rg_command_rendering st = { .color_count = count, .depth_format = depth, .samples = samples,
                                .depth_input_index = VK_ATTACHMENT_UNUSED,
                                .stencil_input_index = VK_ATTACHMENT_UNUSED };
    for (uint32_t i = 0; i < RG_MAX_COLOR_ATTACHMENTS; i++) {
        st.color_formats[i] = i < count ? formats[i] : VK_FORMAT_UNDEFINED;
        st.color_locations[i] = i < count ? i : VK_ATTACHMENT_UNUSED;
        st.color_input_indices[i] = VK_ATTACHMENT_UNUSED;
    }
    const eng_pipeline *p;
    return pipeline_for(r, prog, &st, &p);
}

/* The pipeline for the rendering state the graph reports for this draw, and
 * how each pixel-local source is read (an input attachment where the span
 * was merged, else a sampled texture). Looked up again only when the state's
 * key changes: a compile of another declaration (or merge decision) changes
 * it. */
bool deferred_pass_prepare(pass *p)
{
    rg_command_rendering st;
    rg_result rr = rg_command_get_rendering(p->graph, p->cmd, &st);
    if (rr != RG_SUCCESS)
        return deferred_pass_fail(p, "rg_command_get_rendering: %s: %s", rg_result_string(rr),
                                  rg_graph_error_message(p->graph));
    if (p->pipeline && p->key == st.key)
        return true;
    p->pipeline = NULL;
    bool inputs = false;
    for (uint32_t i = 0; i < p->src_count; i++) {
        p->input[i] = false;
        p->layout[i] = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (!(p->pixel_local & (1u << i)))
            continue;
        rg_local_read_info lr;
        rr = rg_command_get_local_read(p->graph, p->cmd, p->src[i], &lr);
        if (rr != RG_SUCCESS)
            return deferred_pass_fail(p, "rg_command_get_local_read: %s: %s", rg_result_string(rr),
                                      rg_graph_error_message(p->graph));
        /* The LOCAL_READ shaders read binding i as input_attachment_index i:
         * the graph numbers a span's pixel-local reads in declaration order,
         * and the sources are declared in binding order. */
        if (lr.input_attachment && lr.input_index != i)
            return deferred_pass_fail(p,
                                      "the graph reads source %u through input attachment index %u, the shader "
                                      "through %u",
                                      i, lr.input_index, i);
        p->input[i] = lr.input_attachment;
        p->layout[i] = lr.layout;
        inputs = inputs || lr.input_attachment;
    }
    if (inputs != reads_inputs(&st))
        return deferred_pass_fail(p, "the graph's local reads and its rendering state disagree on input attachments");
    eng_result er = pipeline_for(p->r, p->program, &st, &p->pipeline);
    if (er != ENG_SUCCESS)
        return deferred_pass_fail(p, "%s: %s", eng_result_string(er), eng_last_error());
    const program_info *pi = &p->r->programs[p->program];
    p->set_layout = inputs ? pi->local_layout : pi->layout;
    p->key = st.key;
    return true;
}

eng_result deferred_frame_prepare(deferred_renderer *r, const rg_graph *g)
{
    for (uint32_t i = 0; i < r->pass_count; i++) {
        pass *p = &r->passes[i];
        if (p->graph != g)
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT,
                                 "deferred_frame_prepare: not the graph of the last declaration");
        if (!r->skip_draws && !deferred_pass_prepare(p))
            return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "deferred_frame_prepare: %s: no pipeline", p->name);
    }
    return ENG_SUCCESS;
}

