#version 450
// One direction of a tilt-shift blur (run horizontally, then vertically):
// a sharp band across the middle of the picture, blurring more towards the
// top and the bottom, which makes the scene look like a miniature.
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
    float away = abs(v_uv.y - 0.5);
    float sigma = pc.strength * smoothstep(0.2, 0.5, away) / pc.texel.y;  // pixels
    vec3 c = texture(u_source, v_uv).rgb;
    if (sigma < 0.3) {
        out_color = vec4(c, 1.0);
        return;
    }
    const int taps = 8;
    float spacing = 2.5 * sigma / float(taps);
    vec3 sum = vec3(0.0);
    float total = 0.0;
    for (int i = -taps; i <= taps; i++) {
        float x = float(i) * spacing;
        float w = exp(-0.5 * x * x / (sigma * sigma));
        sum += w * texture(u_source, v_uv + pc.step * x).rgb;
        total += w;
    }
    out_color = vec4(sum / total, 1.0);
}
