#version 450
// A textured, lit mesh: position, normal, uv. 128 bytes of push constants,
// the minimum every device offers.
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 normal_matrix[3]; // rotation part of the model matrix, columns
    vec4 tint;
} pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;

void main()
{
    mat3 n = mat3(pc.normal_matrix[0].xyz, pc.normal_matrix[1].xyz, pc.normal_matrix[2].xyz);
    v_normal = n * in_normal;
    v_uv = in_uv;
    gl_Position = pc.mvp * vec4(in_position, 1.0);
}
