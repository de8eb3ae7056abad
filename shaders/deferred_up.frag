#version 450
// A bloom upsample: this level's downsampled light plus the smaller level
// spread by a 3x3 tent, so each level adds a wider halo.
layout(set = 0, binding = 0) uniform sampler2D u_small;  // the level below, upsampled already
layout(set = 0, binding = 1) uniform sampler2D u_level;  // this level's downsample
layout(push_constant) uniform Push {
    vec2 texel;       // 1 / size of u_small
    float spread;     // weight of the smaller level
    float unused;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec2 t = pc.texel;
    vec3 s = 4.0 * texture(u_small, v_uv).rgb;
    s += 2.0 * (texture(u_small, v_uv + vec2(-t.x, 0.0)).rgb + texture(u_small, v_uv + vec2(t.x, 0.0)).rgb +
                texture(u_small, v_uv + vec2(0.0, -t.y)).rgb + texture(u_small, v_uv + vec2(0.0, t.y)).rgb);
    s += texture(u_small, v_uv - t).rgb + texture(u_small, v_uv + t).rgb +
         texture(u_small, v_uv + vec2(-t.x, t.y)).rgb + texture(u_small, v_uv + vec2(t.x, -t.y)).rgb;
    out_color = vec4(texture(u_level, v_uv).rgb + pc.spread * s / 16.0, 1.0);
}
