#version 450
// Chromatic aberration: red and blue sampled slightly outwards and inwards
// of green, more towards the edges, as a cheap lens does.
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_source;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec2 d = v_uv - 0.5;
    vec2 shift = d * dot(d, d) * pc.strength * 0.04;
    float r = texture(u_source, v_uv + shift).r;
    float g = texture(u_source, v_uv).g;
    float b = texture(u_source, v_uv - shift).b;
    out_color = vec4(r, g, b, 1.0);
}
