#version 450
// HDR light plus bloom, exposed and mapped by the ACES filmic curve
// (Narkowicz's fit); the sRGB output encodes it.
layout(set = 0, binding = 0) uniform sampler2D u_hdr;
layout(set = 0, binding = 1) uniform sampler2D u_bloom;
layout(push_constant) uniform Push {
    float exposure;
    float bloom;      // strength
    vec2 unused;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 c = (texture(u_hdr, v_uv).rgb + pc.bloom * texture(u_bloom, v_uv).rgb) * pc.exposure;
    c = clamp(c * (2.51 * c + 0.03) / (c * (2.43 * c + 0.59) + 0.14), 0.0, 1.0);
    out_color = vec4(c, 1.0);
}
