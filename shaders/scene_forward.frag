#version 450
// The scene lit by the sun through three shadow cascades (one layer each of
// a 2D-array depth texture, read with a comparison sampler and a 3x3 PCF),
// a sky/ground ambient term darkened by the screen-space ambient occlusion
// (read at the fragment's own pixel), a little specular, emission and
// distance haze. Linear HDR out.
layout(set = 0, binding = 0) uniform Frame {
    mat4 matrices[4]; // [1..3]: the cascades' light view-projections
    mat4 inv_view_proj;
    vec4 camera_pos;
    vec4 camera_forward;
    vec4 sun_dir;     // xyz: towards the sun; w: intensity
    vec4 sun_color;   // w: 1 tints each cascade (a debugging view)
    vec4 sky_zenith;
    vec4 sky_horizon;
    vec4 ground_color;
    vec4 splits;      // xyz: view depth where each cascade ends; w: 1 / shadow map size
    vec4 cascade_texel; // a shadow texel's world size per cascade
} u;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow u_shadow;
layout(set = 0, binding = 2) uniform sampler2D u_ao;
layout(push_constant) uniform Push {
    mat4 model;
    vec4 color;       // rgb: albedo; a: emission (times albedo)
    vec4 material;    // x: 1 = tiled floor; y: specular power; z: specular strength
} pc;

layout(location = 0) in vec3 v_world;
layout(location = 1) in vec3 v_normal;
layout(location = 0) out vec4 out_color;

int cascade_of(vec3 p)
{
    float depth = dot(p - u.camera_pos.xyz, u.camera_forward.xyz);
    return depth < u.splits.x ? 0 : depth < u.splits.y ? 1 : depth < u.splits.z ? 2 : 3;
}

// The share of the sun that reaches p: the point is pushed out along the
// normal by about a shadow texel of its cascade (with the pipeline's depth
// bias, that keeps lit faces free of acne), then 9 comparisons around it.
float sunlight(vec3 p, vec3 n, int c)
{
    if (c > 2)
        return 1.0;
    vec4 s = u.matrices[1 + c] * vec4(p + n * 1.5 * u.cascade_texel[c], 1.0);
    vec3 q = s.xyz / s.w;
    vec2 uv = q.xy * 0.5 + 0.5;
    float lit = 0.0;
    for (int y = -1; y <= 1; y++)
        for (int x = -1; x <= 1; x++)
            lit += texture(u_shadow, vec4(uv + vec2(x, y) * u.splits.w, float(c), q.z));
    return lit / 9.0;
}

vec3 floor_tiles(vec3 albedo, vec2 xz)
{
    vec2 g = xz * 0.5;                                   // 2 m tiles
    vec2 f = abs(fract(g) - 0.5);
    float w = max(fwidth(g.x), fwidth(g.y));
    float grout = smoothstep(0.485 - w, 0.485 + w, max(f.x, f.y));
    float checker = mod(floor(g.x) + floor(g.y), 2.0);
    return albedo * mix(1.0, 0.88, checker) * mix(1.0, 0.45, grout);
}

void main()
{
    vec3 n = normalize(v_normal);
    vec3 albedo = pc.material.x > 0.5 ? floor_tiles(pc.color.rgb, v_world.xz) : pc.color.rgb;
    vec3 l = u.sun_dir.xyz;
    vec3 v = normalize(u.camera_pos.xyz - v_world);
    float ndl = max(dot(n, l), 0.0);
    int c = cascade_of(v_world);
    float lit = ndl > 0.0 ? sunlight(v_world, n, c) : 0.0;
    float spec = pc.material.z * pow(max(dot(n, normalize(l + v)), 0.0), pc.material.y);
    // AO darkens the ambient light fully and, more softly, the sun's
    // (the creases it finds are too small for the shadow map).
    float ao = texelFetch(u_ao, ivec2(gl_FragCoord.xy), 0).r;
    vec3 sun = u.sun_color.rgb * u.sun_dir.w * lit * ndl * (albedo + spec) * mix(1.0, ao, 0.5);

    vec3 sky = mix(u.ground_color.rgb, u.sky_zenith.rgb, n.y * 0.5 + 0.5);
    vec3 ambient = sky * albedo * ao;

    vec3 color = sun + ambient + albedo * pc.color.a;
    if (u.sun_color.w > 0.5 && c < 3)
        color *= c == 0 ? vec3(1.0, 0.5, 0.5) : c == 1 ? vec3(0.5, 1.0, 0.5) : vec3(0.5, 0.5, 1.0);
    float haze = 1.0 - exp(-0.006 * length(u.camera_pos.xyz - v_world));
    out_color = vec4(mix(color, u.sky_horizon.rgb, haze), 1.0);
}
