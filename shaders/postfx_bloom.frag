#version 450
// One direction of the glow (run horizontally, then vertically): what is
// brighter than 1.0 (the emissive mortar, the sun, the grid) is blurred
// along pc.step and added back. Two 1-D passes give lines a glow on both
// sides and points a soft cross, like a camera's star filter.
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_source;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

vec3 bright(vec3 c)
{
    return max(c - vec3(1.0), vec3(0.0));
}

void main()
{
    // A radius of 3% of the height, whatever the resolution.
    float radius = 0.03 / pc.texel.y;
    const int taps = 12;
    float spacing = radius / float(taps);
    float sigma = radius * 0.45;
    vec3 sum = vec3(0.0);
    float total = 0.0;
    for (int i = -taps; i <= taps; i++) {
        float x = float(i) * spacing;
        float w = exp(-0.5 * x * x / (sigma * sigma));
        sum += w * bright(texture(u_source, v_uv + pc.step * x).rgb);
        total += w;
    }
    vec3 c = texture(u_source, v_uv).rgb;
    out_color = vec4(c + pc.strength * sum / total, 1.0);
}
