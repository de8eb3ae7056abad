#version 450
// The engine's compute pipeline test: writes base + x + 100 y into an
// R32_UINT storage image, one invocation per texel, so that a draw that
// reads it back shows exactly which texels the dispatch wrote.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D u_out;
layout(push_constant) uniform Push { uint base; uint width; uint height; } pc;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.width || p.y >= pc.height)
        return;
    imageStore(u_out, ivec2(p), uvec4(pc.base + p.x + 100u * p.y));
}
