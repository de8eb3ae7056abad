/* The deferred demo's record callbacks: the G-buffer draws and the
 * fullscreen passes (lighting, bloom, tonemap), each binding its
 * sources as sampled textures or input attachments. */
#include "deferred_renderer.h"

#include <string.h>

static void pack_params(const deferred_material *m, uint32_t params[4])
{
    uint32_t rgba = 0, rm = 0;
    for (int c = 0; c < 3; c++)
        rgba |= (uint32_t)lroundf(fminf(fmaxf(m->albedo[c], 0.0f), 1.0f) * 255.0f) << (8 * c);
    rm = (uint32_t)lroundf(fminf(fmaxf(m->roughness, 0.0f), 1.0f) * 255.0f) |
         (uint32_t)lroundf(fminf(fmaxf(m->metal, 0.0f), 1.0f) * 255.0f) << 8;
    params[0] = rgba | 0xff000000u;
    params[1] = rm;
    memcpy(&params[2], &m->emissive, 4);
    memcpy(&params[3], &m->uv_scale, 4);
}

bool deferred_draw_gbuffer(const rg_record_context *rc, void *user)
{
    pass *p = user;
    deferred_renderer *r = p->r;
    if (r->skip_draws || !deferred_pass_prepare(p)) /* skipped: true; not prepared: false */
        return r->skip_draws;
    const deferred_scene *s = r->scene;
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(p->pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &r->ground_set, 0, NULL);
    mat4 view_projection;
    glm_mat4_mul(r->projection, r->view, view_projection);
    const deferred_mesh *bound = NULL;
    for (uint32_t i = 0; i < s->object_count; i++) {
        const deferred_object *o = &s->objects[i];
        gbuffer_push push;
        mat4 mv;
        glm_mat4_mul(view_projection, (vec4 *)o->model, push.mvp);
        glm_mat4_mul(r->view, (vec4 *)o->model, mv);
        for (int row = 0; row < 3; row++)
            for (int col = 0; col < 4; col++)
                push.model_view[row][col] = mv[col][row];
        pack_params(&o->material, push.params);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                           &push);
        if (o->mesh != bound) {
            VkBuffer vb = eng_buffer_handle(o->mesh->vertices);
            VkDeviceSize offset = 0;
            vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
            vkCmdBindIndexBuffer(cmd, eng_buffer_handle(o->mesh->indices), 0, VK_INDEX_TYPE_UINT16);
            bound = o->mesh;
        }
        vkCmdDrawIndexed(cmd, o->mesh->index_count, 1, 0, 0, 0);
    }
    return true;
}

/* A fullscreen triangle reading the pass's sources through a set made now:
 * the views exist only once the graph is placed, and change when it is
 * placed again. A source read as an input attachment gets an
 * INPUT_ATTACHMENT descriptor in the layout the graph reports
 * (RENDERING_LOCAL_READ); the others a sampled one. */
bool deferred_draw_fullscreen(const rg_record_context *rc, void *user)
{
    pass *p = user;
    deferred_renderer *r = p->r;
    if (r->skip_draws || !deferred_pass_prepare(p)) /* skipped: true; not prepared: false */
        return r->skip_draws;
    VkDescriptorSet set;
    demo_lock_take(&r->sets_lock);
    VkResult vr = deferred_alloc_set(r->device, r->pools[r->slot], p->set_layout, &set);
    demo_lock_give(&r->sets_lock);
    if (vr != VK_SUCCESS)
        return deferred_pass_fail(p, "no descriptor set left in the frame's pool");
    VkDescriptorImageInfo info[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < p->src_count; i++) {
        info[i] = (VkDescriptorImageInfo){ p->input[i] ? VK_NULL_HANDLE : p->sampler, rg_record_view(rc, p->src[i]),
                                           p->layout[i] };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = p->input[i] ? VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                                          : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &info[i],
        };
    }
    vkUpdateDescriptorSets(r->device, p->src_count, w, 0, NULL);
    VkCommandBuffer cmd = rg_record_cmd(rc);
    VkPipelineLayout layout = eng_pipeline_layout(p->pipeline);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, eng_pipeline_handle(p->pipeline));
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    if (r->programs[p->program].lights) {
        uint32_t offset = (uint32_t)(r->lights_stride * r->slot);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 1, 1, &r->lights_set, 1, &offset);
    } else {
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof p->push, p->push);
    }
    vkCmdDraw(cmd, 3, 1, 0, 0);
    return true;
}

