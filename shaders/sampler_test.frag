#version 450
// Samples a texture once, at a UV the test pushes: the sampler device tests
// (tests/device/test_sampler.c) check filtering and addressing through it.
// The push block is solid.vert's, so the test draws with solid_draw; the
// UV rides in its color member.
layout(push_constant) uniform Push {
    vec4 rect;
    vec4 color;  // xy: the UV to sample at
    float depth;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_texture;
layout(location = 0) out vec4 out_color;

void main()
{
    // Level 0 explicitly: derivatives of a constant UV are 0 anyway, but
    // textureLod keeps the result independent of the LOD computation.
    out_color = textureLod(u_texture, pc.color.xy, 0.0);
}
