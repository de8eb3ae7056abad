#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Copies a texture texel for texel (texelFetch at the fragment's pixel): the
// render graph's device tests check exact values through it.
layout(set = 0, binding = 0) uniform texture2D u_source;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = texelFetch(u_source, ivec2(gl_FragCoord.xy), 0);
}
