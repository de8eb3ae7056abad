#version 450
// The ambient occlusion's blur: the mean over the 4x4 window that holds
// one of each of the SSAO pass's 16 hemisphere turns, each texel weighted
// by how close its depth is to the centre's, so occlusion does not bleed
// across silhouettes.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D u_depth;
layout(set = 0, binding = 1) uniform sampler2D u_raw;
layout(set = 0, binding = 2, r8) uniform writeonly image2D u_ao;
layout(push_constant) uniform Push {
    vec4 proj;        // as scene_ssao.comp's
} pc;

float view_z(ivec2 p)
{
    return -pc.proj.w / (pc.proj.z + texelFetch(u_depth, p, 0).r);
}

void main()
{
    ivec2 size = textureSize(u_depth, 0);
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(px, size)))
        return;
    float z = view_z(px);
    float sum = 0.0, weight = 0.0;
    for (int y = -2; y < 2; y++)
        for (int x = -2; x < 2; x++) {
            ivec2 q = clamp(px + ivec2(x, y), ivec2(0), size - 1);
            float w = max(0.0, 1.0 - abs(view_z(q) - z) / (0.02 * abs(z) + 0.01));
            sum += w * texelFetch(u_raw, q, 0).r;
            weight += w;
        }
    imageStore(u_ao, px, vec4(weight > 0.0 ? sum / weight : texelFetch(u_raw, px, 0).r));
}
