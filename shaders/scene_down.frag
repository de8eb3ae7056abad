#version 450
// A bloom downsample: the level above at half size, over a 4x4 texel box
// (four bilinear taps).
layout(set = 0, binding = 0) uniform sampler2D u_src;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec2 t = 1.0 / vec2(textureSize(u_src, 0));
    vec3 c = 0.25 * (texture(u_src, v_uv + vec2(-t.x, -t.y)).rgb + texture(u_src, v_uv + vec2(t.x, -t.y)).rgb +
                     texture(u_src, v_uv + vec2(-t.x, t.y)).rgb + texture(u_src, v_uv + vec2(t.x, t.y)).rgb);
    out_color = vec4(c, 1.0);
}
