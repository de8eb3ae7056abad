#version 450
// Bloom's first level: the HDR image at half size, filtered over a 4x4
// texel box (four bilinear taps), keeping only light above a threshold
// with a soft knee so that highlights fade in rather than pop. Sizes come
// from the textures (each level is half the one before, as the render
// graph sized it).
layout(set = 0, binding = 0) uniform sampler2D u_src;
layout(push_constant) uniform Push {
    float threshold;
    float knee;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec2 t = 1.0 / vec2(textureSize(u_src, 0));
    vec3 c = 0.25 * (texture(u_src, v_uv + vec2(-t.x, -t.y)).rgb + texture(u_src, v_uv + vec2(t.x, -t.y)).rgb +
                     texture(u_src, v_uv + vec2(-t.x, t.y)).rgb + texture(u_src, v_uv + vec2(t.x, t.y)).rgb);
    float peak = max(c.r, max(c.g, c.b));
    float soft = clamp(peak - pc.threshold + pc.knee, 0.0, 2.0 * pc.knee);
    soft = soft * soft / (4.0 * pc.knee + 1e-4);
    float keep = max(soft, peak - pc.threshold) / max(peak, 1e-4);
    out_color = vec4(c * keep, 1.0);
}
