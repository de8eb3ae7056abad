#version 450
// Reads one storage buffer and writes another: dst[i] = src[i] * mul + add
// for i < count (a consumer of what another dispatch wrote).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint mul; uint add; uint count; uint unused; } pc;
layout(set = 0, binding = 0, std430) readonly buffer Src { uint v[]; } src;
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint v[]; } dst;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.count)
        dst.v[i] = src.v[i] * pc.mul + pc.add;
}
