#version 450
// Color grade: exposure, a filmic curve (Narkowicz's fit of ACES) from HDR
// to 0..1, then teal shadows and warm highlights, and more saturation.
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_source;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

vec3 aces(vec3 x)
{
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

void main()
{
    vec3 c = aces(texture(u_source, v_uv).rgb * 1.1);
    float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
    vec3 shadows = vec3(0.85, 1.0, 1.12), highlights = vec3(1.1, 1.0, 0.86);
    c *= mix(shadows, highlights, smoothstep(0.05, 0.6, l));
    c = mix(vec3(l), c, 1.0 + 0.25 * pc.strength);
    out_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
