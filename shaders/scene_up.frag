#version 450
// A bloom upsample: the level below spread by a 3x3 tent, added to this
// level by the pipeline's additive blend, so each level carries the wider
// halos of all the levels under it.
layout(set = 0, binding = 0) uniform sampler2D u_src;
layout(push_constant) uniform Push {
    float strength;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec2 t = 1.0 / vec2(textureSize(u_src, 0));
    vec3 s = 4.0 * texture(u_src, v_uv).rgb;
    s += 2.0 * (texture(u_src, v_uv + vec2(-t.x, 0.0)).rgb + texture(u_src, v_uv + vec2(t.x, 0.0)).rgb +
                texture(u_src, v_uv + vec2(0.0, -t.y)).rgb + texture(u_src, v_uv + vec2(0.0, t.y)).rgb);
    s += texture(u_src, v_uv - t).rgb + texture(u_src, v_uv + t).rgb + texture(u_src, v_uv + vec2(-t.x, t.y)).rgb +
         texture(u_src, v_uv + vec2(t.x, -t.y)).rgb;
    out_color = vec4(pc.strength * s / 16.0, 1.0);
}
