#version 450
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 normal_matrix[3];
    vec4 tint;
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_texture;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 light = normalize(vec3(0.4, 0.8, 0.6));
    float diffuse = max(dot(normalize(v_normal), light), 0.0);
    vec3 albedo = texture(u_texture, v_uv).rgb * pc.tint.rgb;
    out_color = vec4(albedo * (0.25 + 0.75 * diffuse), 1.0);
}
