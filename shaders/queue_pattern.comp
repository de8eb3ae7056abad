#version 450
// Writes a known pattern into a storage buffer: v[i] = base + i * step for
// i < count (the render graph's multi-queue tests check every word).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint base; uint step; uint count; uint unused; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer Dst { uint v[]; } dst;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count)
        dst.v[i] = pc.base + i * pc.step;
}
