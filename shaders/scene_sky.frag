#version 450
// The sky behind the scene: a horizon-to-zenith gradient and the sun's
// glow, in linear HDR. The view ray comes from the inverse view-projection.
layout(set = 0, binding = 0) uniform Frame {
    mat4 matrices[4];
    mat4 inv_view_proj;
    vec4 camera_pos;
    vec4 camera_forward;
    vec4 sun_dir;     // xyz: towards the sun; w: intensity
    vec4 sun_color;
    vec4 sky_zenith;
    vec4 sky_horizon;
    vec4 ground_color;
    vec4 splits;
    vec4 cascade_texel;
} u;

layout(location = 0) in vec2 v_ndc;
layout(location = 0) out vec4 out_color;

void main()
{
    vec4 far = u.inv_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(far.xyz / far.w - u.camera_pos.xyz);
    float up = clamp(dir.y, 0.0, 1.0);
    vec3 sky = mix(u.sky_horizon.rgb, u.sky_zenith.rgb, sqrt(up));
    float s = max(dot(dir, u.sun_dir.xyz), 0.0);
    sky += u.sun_color.rgb * (0.25 * pow(s, 6.0) + 60.0 * pow(s, 2000.0));
    out_color = vec4(sky, 1.0);
}
