#version 450
// Screen-space ambient occlusion from the resolved depth alone (Crytek's
// idea, in the normal-oriented hemisphere form of LearnOpenGL's SSAO):
// each pixel's view-space point and normal are rebuilt from the depth
// buffer, params.w points are taken in the hemisphere around the normal
// (more of them close to the point), and each counts as occluded where
// the depth buffer holds something nearer the camera than the point. The
// hemisphere turns by a 4x4 pattern of angles from pixel to pixel, which
// the blur after this pass (a 4x4 window) averages away.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D u_depth;
layout(set = 0, binding = 1, r8) uniform writeonly image2D u_ao;
layout(push_constant) uniform Push {
    vec4 proj;        // the camera projection's [0][0], [1][1], [2][2], [3][2]
    vec4 params;      // x: radius (world units); y: bias; z: strength; w: samples
} pc;

ivec2 size;

// Vulkan depth in [0, 1] of a right-handed perspective to view-space z (< 0).
float view_z(float d)
{
    return -pc.proj.w / (pc.proj.z + d);
}

vec3 view_pos(ivec2 p)
{
    p = clamp(p, ivec2(0), size - 1);
    float z = view_z(texelFetch(u_depth, p, 0).r);
    vec2 ndc = (vec2(p) + 0.5) / vec2(size) * 2.0 - 1.0;
    return vec3(ndc * -z / pc.proj.xy, z);
}

// Of the two one-sided differences, the one that stays on the surface
// (the smaller step in depth): normals hold at silhouettes.
vec3 tangent_step(vec3 c, vec3 before, vec3 after)
{
    vec3 a = after - c, b = c - before;
    return abs(a.z) < abs(b.z) ? a : b;
}

void main()
{
    size = textureSize(u_depth, 0);
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(px, size)))
        return;
    if (texelFetch(u_depth, px, 0).r >= 1.0) {          // the sky
        imageStore(u_ao, px, vec4(1.0));
        return;
    }
    vec3 c = view_pos(px);
    vec3 dx = tangent_step(c, view_pos(px - ivec2(1, 0)), view_pos(px + ivec2(1, 0)));
    vec3 dy = tangent_step(c, view_pos(px - ivec2(0, 1)), view_pos(px + ivec2(0, 1)));
    vec3 n = normalize(cross(dx, dy));
    if (dot(n, c) > 0.0)                                 // face the camera (at the origin)
        n = -n;
    vec3 t = normalize(cross(n, abs(n.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
    vec3 b = cross(n, t);

    const float bayer[16] = float[](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0,
                                    3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    float turn = bayer[(px.y & 3) * 4 + (px.x & 3)] * (6.2831853 / 16.0);
    float radius = pc.params.x, bias = pc.params.y;
    uint count = uint(pc.params.w);
    float occlusion = 0.0;
    for (uint i = 0u; i < count; i++) {
        float k = (float(i) + 0.5) / float(count);
        float a = float(i) * 2.3999632 + turn;           // golden angle
        float up = sqrt(1.0 - k);                        // cosine-weighted
        vec3 h = vec3(cos(a) * sqrt(k), sin(a) * sqrt(k), up);
        float scale = mix(0.1, 1.0, k * k);
        vec3 s = c + (t * h.x + b * h.y + n * h.z) * radius * scale;
        vec2 uv = (pc.proj.xy * s.xy / -s.z) * 0.5 + 0.5;
        if (any(lessThan(uv, vec2(0.0))) || any(greaterThanEqual(uv, vec2(1.0))))
            continue;
        float scene = view_z(texelFetch(u_depth, ivec2(uv * vec2(size)), 0).r);
        float near = smoothstep(0.0, 1.0, radius / abs(c.z - scene));
        occlusion += (scene >= s.z + bias ? 1.0 : 0.0) * near;
    }
    float ao = clamp(1.0 - pc.params.z * occlusion / float(max(count, 1u)), 0.0, 1.0);
    imageStore(u_ao, px, vec4(ao));
}
