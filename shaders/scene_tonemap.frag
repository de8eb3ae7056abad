#version 450
// HDR light plus bloom, exposed and mapped by the ACES filmic curve
// (Narkowicz's fit); an sRGB output encodes the result. The HDR image has
// the output's size and is read at the fragment's own pixel.
layout(set = 0, binding = 0) uniform sampler2D u_hdr;
layout(set = 0, binding = 1) uniform sampler2D u_bloom;
layout(push_constant) uniform Push {
    float exposure;
    float bloom;      // strength
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 hdr = texelFetch(u_hdr, ivec2(gl_FragCoord.xy), 0).rgb;
    vec3 c = (hdr + pc.bloom * texture(u_bloom, v_uv).rgb) * pc.exposure;
    c = clamp(c * (2.51 * c + 0.03) / (c * (2.43 * c + 0.59) + 0.14), 0.0, 1.0);
    out_color = vec4(c, 1.0);
}
