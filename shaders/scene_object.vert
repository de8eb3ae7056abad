#version 450
// The scene's meshes as the camera sees them: the depth prepass and the
// forward pass both draw with this shader, so both compute gl_Position
// with the same instructions, and `precise` keeps the compiler from fusing
// them differently in the two pipelines: the forward pass's depth test
// against the prepass's depth passes exactly where the prepass wrote.
// (Not `invariant gl_Position`: older SPIR-V validators reject the
// decoration it makes on the gl_PerVertex member.)
layout(set = 0, binding = 0) uniform Frame {
    mat4 matrices[4]; // [0]: the camera's view-projection
} u;
layout(push_constant) uniform Push {
    mat4 model;
    vec4 color;       // the fragment shader's
    vec4 material;
} pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec3 v_world;
layout(location = 1) out vec3 v_normal;

void main()
{
    precise vec4 world = pc.model * vec4(in_position, 1.0);
    precise vec4 position = u.matrices[0] * world;
    v_world = world.xyz;
    v_normal = transpose(inverse(mat3(pc.model))) * in_normal;
    gl_Position = position;
}
