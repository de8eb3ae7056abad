#version 450
// postfx's cube: the brick texture lit by the sunset behind it, and the
// mortar joints glowing (emissive, brighter than 1.0 in the RGBA16F scene
// target) so that bloom and edge detection have bright thin lines to work
// on. tint.w places a sweeping band of brighter glow (set by frame index).
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 normal_matrix[3];
    vec4 tint;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_texture;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 n = normalize(v_normal);
    vec3 albedo = texture(u_texture, v_uv).rgb;
    // The mortar is the texture's grey: low saturation.
    float hi = max(albedo.r, max(albedo.g, albedo.b)), lo = min(albedo.r, min(albedo.g, albedo.b));
    float saturation = (hi - lo) / max(hi, 1e-3);
    float mortar = smoothstep(0.35, 0.2, saturation);

    vec3 key = normalize(vec3(-0.5, 0.7, 0.6));       // warm light from the upper left
    vec3 fill = normalize(vec3(0.7, -0.2, 0.5));      // magenta bounce from the floor
    vec3 light = vec3(1.25, 1.0, 0.8) * max(dot(n, key), 0.0) + vec3(0.35, 0.08, 0.3) * max(dot(n, fill), 0.0) +
                 vec3(0.12, 0.08, 0.2);
    vec3 lit = albedo * pc.tint.rgb * light;
    // The joints glow a dim cyan, and a brighter band sweeps up the cube
    // (tint.w is its height, from the frame index): only that band is
    // brighter than 1.0, so only it blooms.
    float band = exp(-pow((v_uv.y - pc.tint.w) * 5.0, 2.0));
    vec3 glow = vec3(0.05, 0.45, 0.7) + vec3(0.3, 1.6, 2.2) * band;
    out_color = vec4(mix(lit, glow, mortar), 1.0);
}
