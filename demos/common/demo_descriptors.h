/* Descriptor sets made while a graph records: a render graph's textures get
 * their views at placement, and a set written while an earlier frame may
 * still read it is a race, so each frame in flight allocates from its own
 * pool, reset when that frame slot comes round again (its fence waited).
 *
 *   demo_descriptors_create(&app, 16, &d);                once
 *   demo_descriptors_begin_frame(&app, &d, frame->slot);  in the update callback
 *   VkDescriptorSet set = demo_descriptors_textures(&d, layout, views, n);   in a record callback
 *
 * Sets hold combined image samplers at bindings 0..n-1 for the fragment
 * stage, read in SHADER_READ_ONLY_OPTIMAL through one linear clamp-to-edge
 * sampler. demo_descriptors_textures may be called from record callbacks
 * running on several threads at once (a frame recorded in chunks on
 * rg_workers): the pool is taken under a lock. */
#ifndef DEMO_DESCRIPTORS_H
#define DEMO_DESCRIPTORS_H

#include "demo_app.h"

#include "demo_lock.h"

#define DEMO_DESCRIPTOR_SLOTS 8 /* at least the swapchain's frames in flight */

typedef struct demo_descriptors {
    VkDevice device;
    VkSampler sampler;
    VkDescriptorPool pools[DEMO_DESCRIPTOR_SLOTS];
    VkDescriptorPool current;
    demo_lock lock;                     /* around allocations from current */
} demo_descriptors;

/* sets_per_frame: the most sets one frame allocates, of up to 8 textures. */
void demo_descriptors_create(demo_app *app, uint32_t sets_per_frame, demo_descriptors *d);
void demo_descriptors_destroy(demo_descriptors *d);
void demo_descriptors_begin_frame(demo_app *app, demo_descriptors *d, uint32_t slot);
/* A layout of count combined image samplers (fragment stage), bindings 0..count-1. */
VkDescriptorSetLayout demo_descriptors_layout(demo_app *app, uint32_t count);
/* VK_NULL_HANDLE when the frame's pool is exhausted (a record callback then
 * returns false). */
VkDescriptorSet demo_descriptors_textures(demo_descriptors *d, VkDescriptorSetLayout layout,
                                          const VkImageView *views, uint32_t count);

#endif
