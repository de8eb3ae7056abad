#version 450
// Edge detection: a Sobel filter on (tonemapped) luminance. Pixels on the
// darker side of a strong edge are inked, which outlines shapes like a
// drawing and leaves the glowing lines themselves bright.
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_source;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

float luma(vec2 uv)
{
    vec3 c = texture(u_source, uv).rgb;
    float l = dot(c, vec3(0.2126, 0.7152, 0.0722));
    return l / (1.0 + l);
}

void main()
{
    vec2 t = pc.texel;
    float tl = luma(v_uv + vec2(-t.x, -t.y)), tc = luma(v_uv + vec2(0.0, -t.y)), tr = luma(v_uv + vec2(t.x, -t.y));
    float ml = luma(v_uv + vec2(-t.x, 0.0)), mc = luma(v_uv), mr = luma(v_uv + vec2(t.x, 0.0));
    float bl = luma(v_uv + vec2(-t.x, t.y)), bc = luma(v_uv + vec2(0.0, t.y)), br = luma(v_uv + vec2(t.x, t.y));
    float gx = (tr + 2.0 * mr + br) - (tl + 2.0 * ml + bl);
    float gy = (bl + 2.0 * bc + br) - (tl + 2.0 * tc + tr);
    float magnitude = length(vec2(gx, gy));
    float around = (tl + tc + tr + ml + mr + bl + bc + br) / 8.0;
    float darker_side = step(mc, around);
    float ink = smoothstep(0.12, 0.35, magnitude) * darker_side * pc.strength;
    vec3 c = texture(u_source, v_uv).rgb;
    out_color = vec4(c * (1.0 - ink), 1.0);
}
