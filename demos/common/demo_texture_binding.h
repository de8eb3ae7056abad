/* One sampled texture at set 0, binding 0 (shaders/cube.frag): the
 * descriptor set layout, a pool holding the one set, and its sampler. */
#ifndef DEMO_TEXTURE_BINDING_H
#define DEMO_TEXTURE_BINDING_H

#include "demo_app.h"

typedef struct demo_texture_binding {
    VkDevice device;
    VkSampler sampler;
    VkDescriptorSetLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
} demo_texture_binding;

/* texture must be in SHADER_READ_ONLY_OPTIMAL (as eng_texture_load leaves it). */
void demo_texture_binding_create(demo_app *app, const eng_image *texture, demo_texture_binding *binding);
void demo_texture_binding_destroy(demo_texture_binding *binding);
void demo_texture_binding_bind(VkCommandBuffer cmd, const demo_texture_binding *binding, VkPipelineLayout layout);

#endif
