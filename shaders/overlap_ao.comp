#version 450
// The overlap frame's ambient occlusion (benchmarks/overlap_frame.c): per
// pixel of the output, seen from above, params.x samples of the terrain
// around the pixel's point (golden-angle directions, radii up to 0.1), each
// counting how far the terrain there rises above it. Pure arithmetic, no
// memory traffic but the one store: the pass is bound by the ALUs, so it
// can run beside the rasterizer-bound shadow pass on another queue.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D u_ao;
layout(push_constant) uniform Push {
    uvec4 params;     // x: samples per pixel; y, z: the image's width and height
} pc;

float terrain_height(vec2 p)
{
    return 0.22 * sin(2.7 * p.x + 0.4) * cos(2.1 * p.y - 0.3) + 0.08 * sin(7.3 * p.x + 5.1 * p.y) +
           0.03 * cos(13.0 * p.x - 11.0 * p.y);
}

void main()
{
    uvec2 px = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(px, pc.params.yz)))
        return;
    vec2 xz = (vec2(px) + 0.5) / vec2(pc.params.yz) * 2.0 - 1.0;
    float h = terrain_height(xz);
    uint n = pc.params.x;
    float occluded = 0.0;
    for (uint i = 0u; i < n; i++) {
        float a = float(i) * 2.3999632;                       // golden angle: directions spread evenly
        float r = 0.004 + 0.1 * fract(float(i) * 0.618034);   // radii spread evenly too
        vec2 q = xz + r * vec2(cos(a), sin(a));
        occluded += clamp((terrain_height(q) - h) / r, 0.0, 1.0);
    }
    imageStore(u_ao, ivec2(px), vec4(1.0 - occluded / float(max(n, 1u))));
}
