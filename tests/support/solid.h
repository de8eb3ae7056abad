/* The solid-rectangle shaders (shaders/solid.vert, solid.frag), embedded in
 * the test programs, and what their push constants hold. */
#ifndef TEST_SOLID_H
#define TEST_SOLID_H

#include <engine/engine.h>
#include <stddef.h>
#include <stdint.h>

extern const uint32_t solid_vert_spv[];
extern const size_t solid_vert_size; /* bytes */
extern const uint32_t solid_frag_spv[];
extern const size_t solid_frag_size;

/* The shaders' push-constant block, padded to the 48 bytes the pipelines
 * declare. Draw 4 vertices as a triangle strip. */
typedef struct solid_push {
    float rect[4];  /* x0, y0, x1, y1 in NDC */
    float color[4];
    float depth;
    float pad[3];
} solid_push;

/* A pipeline of solid.vert's rectangle (a triangle strip of 4 vertices,
 * solid_push's constants) with the fragment shader frag (size bytes),
 * drawing into one color attachment of color_format; the caller sets what
 * else its pipeline takes (set layouts, push descriptors, samples). */
eng_pipeline_desc solid_fragment_desc(const char *name, const uint32_t *frag, size_t size, VkFormat color_format);

/* A solid pipeline: one color attachment (or none when color_format is
 * UNDEFINED), optional depth with test and write (LESS), triangle strip,
 * 48 bytes of push constants. */
eng_result solid_pipeline_create(eng_context *ctx, VkFormat color_format, VkFormat depth_format,
                                 VkSampleCountFlagBits samples, eng_pipeline_cache *cache, eng_pipeline **out);

/* Pushes the constants and draws one rectangle. */
void solid_draw(VkCommandBuffer cmd, const eng_pipeline *pipeline, const float rect[4], const float color[4],
                float depth);

/* Binds pipeline (a solid vertex shader with a fragment shader that takes
 * its color from set 0) and set, and draws the whole target. */
void solid_draw_with_set(VkCommandBuffer cmd, const eng_pipeline *pipeline, VkDescriptorSet set);
/* The same with the descriptors the caller already pushed or bound. */
void solid_draw_full(VkCommandBuffer cmd, const eng_pipeline *pipeline);

#endif
