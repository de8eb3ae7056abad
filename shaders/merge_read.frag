#version 450
#extension GL_EXT_samplerless_texture_functions : require
// The render graph's merge tests (tests/device/test_rg_merge.c): reads two
// textures at the fragment's own pixel and writes an exact mix of them
// (r, g from the first, b, a from the second). This is the sampled form of
// the read; merge_read_local.frag is the same read through input
// attachments, used where the graph merged the spans.
layout(set = 0, binding = 0) uniform texture2D u_a;
layout(set = 0, binding = 1) uniform texture2D u_b;
layout(location = 0) out vec4 out_color;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    out_color = vec4(texelFetch(u_a, p, 0).rg, texelFetch(u_b, p, 0).ba);
}
