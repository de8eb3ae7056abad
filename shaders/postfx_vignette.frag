#version 450
// Vignette: darkens towards the corners (round, whatever the aspect).
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
    float aspect = pc.texel.y / pc.texel.x;
    vec2 d = (v_uv - 0.5) * vec2(aspect, 1.0);
    float r = length(d) / length(vec2(0.5 * aspect, 0.5));  // 1 at the corners
    float v = mix(1.0, smoothstep(1.05, 0.35, r), pc.strength);
    out_color = vec4(texture(u_source, v_uv).rgb * v, 1.0);
}
