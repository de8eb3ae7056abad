#version 450
#extension GL_EXT_samplerless_texture_functions : require
// The render graph's history test: each frame writes, at every pixel, what
// the frame before wrote there plus a step that depends on the pixel
// (1 + x + 100 y), in an R32_UINT texture read with texelFetch. After N
// frames a pixel holds the first frame's value plus N steps exactly, so the
// test sees which frame's contents each read saw.
layout(set = 0, binding = 0) uniform utexture2D u_previous;
layout(location = 0) out uint out_value;

void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    out_value = texelFetch(u_previous, ivec2(p), 0).r + 1u + p.x + 100u * p.y;
}
