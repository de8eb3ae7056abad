#version 450
// A bloom downsample (the dual-filter kind): the center and four diagonal
// bilinear taps of the larger level, each tap itself a 2x2 average.
layout(set = 0, binding = 0) uniform sampler2D u_src;
layout(push_constant) uniform Push {
    vec2 texel;       // 1 / source size
    vec2 unused;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 c = 4.0 * texture(u_src, v_uv).rgb;
    c += texture(u_src, v_uv + vec2(-1.0, -1.0) * pc.texel).rgb;
    c += texture(u_src, v_uv + vec2(1.0, -1.0) * pc.texel).rgb;
    c += texture(u_src, v_uv + vec2(-1.0, 1.0) * pc.texel).rgb;
    c += texture(u_src, v_uv + vec2(1.0, 1.0) * pc.texel).rgb;
    out_color = vec4(c / 8.0, 1.0);
}
