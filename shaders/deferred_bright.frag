#version 450
// Bloom's first step: the HDR image at half size (the bilinear tap between
// four texels averages them), keeping only light above a threshold with a
// soft knee so that highlights fade in rather than pop.
layout(set = 0, binding = 0) uniform sampler2D u_hdr;
layout(push_constant) uniform Push {
    vec2 texel;       // 1 / source size
    float threshold;
    float knee;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 c = 0.25 * (texture(u_hdr, v_uv + vec2(-0.5, -0.5) * pc.texel).rgb +
                     texture(u_hdr, v_uv + vec2(0.5, -0.5) * pc.texel).rgb +
                     texture(u_hdr, v_uv + vec2(-0.5, 0.5) * pc.texel).rgb +
                     texture(u_hdr, v_uv + vec2(0.5, 0.5) * pc.texel).rgb);
    float peak = max(c.r, max(c.g, c.b));
    float soft = clamp(peak - pc.threshold + pc.knee, 0.0, 2.0 * pc.knee);
    soft = soft * soft / (4.0 * pc.knee + 1e-4);
    float keep = max(soft, peak - pc.threshold) / max(peak, 1e-4);
    out_color = vec4(c * keep, 1.0);
}
