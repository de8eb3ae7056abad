#version 450
// The overlap frame's composite (benchmarks/overlap_frame.c), a dispatch on
// the graphics queue: the terrain seen from above (the image spans [-1,1]^2
// in xz), lit by the sun through the smallest shadow cascade that holds the
// point (2x2 percentage-closer taps) and by the sky through the ambient
// occlusion of the compute pass (read at the pixel's own texel: the images
// have the output's size). terrain_height is overlap_shadow.vert's.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2DArray u_shadow;   // depth of each cascade
layout(set = 0, binding = 1) uniform sampler2D u_ao;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D u_out;
layout(push_constant) uniform Push {
    vec4 right;       // light space x axis (xyz)
    vec4 up;          // light space y axis (xyz)
    vec4 dir;         // the light's direction of travel (xyz); w: half the depth range
    vec4 sizes;       // half size of each cascade in light space
    uvec4 params;     // xy: the output's width and height; z: quads per side of the shadow pass's grid
} pc;

float terrain_height(vec2 p)
{
    return 0.22 * sin(2.7 * p.x + 0.4) * cos(2.1 * p.y - 0.3) + 0.08 * sin(7.3 * p.x + 5.1 * p.y) +
           0.03 * cos(13.0 * p.x - 11.0 * p.y);
}

void main()
{
    uvec2 px = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(px, pc.params.xy)))
        return;
    vec2 xz = (vec2(px) + 0.5) / vec2(pc.params.xy) * 2.0 - 1.0;
    float h = terrain_height(xz);
    const float e = 1.0 / 1024.0;
    vec3 n = normalize(vec3(terrain_height(xz - vec2(e, 0.0)) - terrain_height(xz + vec2(e, 0.0)), 2.0 * e,
                            terrain_height(xz - vec2(0.0, e)) - terrain_height(xz + vec2(0.0, e))));
    vec3 p = vec3(xz.x, h, xz.y);
    vec3 ls = vec3(dot(p, pc.right.xyz), dot(p, pc.up.xyz), dot(p, pc.dir.xyz));
    int c = 3;
    for (int i = 2; i >= 0; i--)
        if (max(abs(ls.x), abs(ls.y)) < 0.9 * pc.sizes[i])
            c = i;
    // Against shadow acne: the shadow pass drew the terrain as a grid of
    // flat quads, which lies up to chord = q^2/8 * max|h''| (q the quad's
    // side, |h''| <= 17) off the curved surface shaded here. The lookup
    // moves 2 texels plus twice that along the normal, and 1 texel plus
    // that towards the light.
    ivec2 size = textureSize(u_shadow, 0).xy;
    float texel = 2.0 * pc.sizes[c] / float(size.x);
    float q = 2.0 / float(pc.params.z), chord = q * q / 8.0 * 17.0;
    p += (2.0 * texel + 2.0 * chord) * n;
    ls = vec3(dot(p, pc.right.xyz), dot(p, pc.up.xyz), dot(p, pc.dir.xyz) - texel - chord);
    vec2 t = (ls.xy / pc.sizes[c] * 0.5 + 0.5) * vec2(size) - 0.5;
    ivec2 t0 = ivec2(floor(t));
    float depth = ls.z / (2.0 * pc.dir.w) + 0.5;
    float lit = 0.0;
    for (int k = 0; k < 4; k++) {
        ivec2 tap = clamp(t0 + ivec2(k & 1, k >> 1), ivec2(0), size - 1);
        lit += texelFetch(u_shadow, ivec3(tap, c), 0).r >= depth ? 0.25 : 0.0;
    }
    float ao = texelFetch(u_ao, ivec2(px), 0).r;
    float sun = max(dot(n, -pc.dir.xyz), 0.0) * lit;
    vec3 albedo = mix(vec3(0.30, 0.42, 0.20), vec3(0.55, 0.50, 0.44), smoothstep(0.0, 0.25, h));
    vec3 color = albedo * (vec3(0.30, 0.36, 0.48) * ao + vec3(1.00, 0.94, 0.82) * sun);
    imageStore(u_out, ivec2(px), vec4(pow(color, vec3(1.0 / 2.2)), 1.0));
}
