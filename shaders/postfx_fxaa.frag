#version 450
// FXAA (after Timothy Lottes' FXAA, the compact form): finds edges from the
// luminance of the 4 diagonal neighbours and blends along them, smoothing
// the cube's aliased silhouette drawn with one sample per pixel.
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_source;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

float luma(vec3 c)
{
    return sqrt(dot(clamp(c, 0.0, 1.0), vec3(0.299, 0.587, 0.114)));  // roughly perceptual
}

void main()
{
    const float reduce_min = 1.0 / 128.0, reduce_mul = 1.0 / 8.0, span_max = 8.0;
    vec2 t = pc.texel;
    vec3 rgb_m = texture(u_source, v_uv).rgb;
    float nw = luma(texture(u_source, v_uv + vec2(-t.x, -t.y)).rgb);
    float ne = luma(texture(u_source, v_uv + vec2(t.x, -t.y)).rgb);
    float sw = luma(texture(u_source, v_uv + vec2(-t.x, t.y)).rgb);
    float se = luma(texture(u_source, v_uv + vec2(t.x, t.y)).rgb);
    float m = luma(rgb_m);
    float lo = min(m, min(min(nw, ne), min(sw, se)));
    float hi = max(m, max(max(nw, ne), max(sw, se)));

    vec2 dir = vec2(-((nw + ne) - (sw + se)), (nw + sw) - (ne + se));
    float reduce = max((nw + ne + sw + se) * 0.25 * reduce_mul, reduce_min);
    float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * scale, vec2(-span_max), vec2(span_max)) * t * pc.strength;

    vec3 a = 0.5 * (texture(u_source, v_uv + dir * (1.0 / 3.0 - 0.5)).rgb +
                    texture(u_source, v_uv + dir * (2.0 / 3.0 - 0.5)).rgb);
    vec3 b = a * 0.5 + 0.25 * (texture(u_source, v_uv - dir * 0.5).rgb + texture(u_source, v_uv + dir * 0.5).rgb);
    float lb = luma(b);
    out_color = vec4((lb < lo || lb > hi) ? a : b, 1.0);
}
