#version 450
// Depth only, into one shadow cascade: the cascade's light view-projection
// is matrices[1 + cascade] of the frame's uniforms.
layout(set = 0, binding = 0) uniform Frame {
    mat4 matrices[4]; // [1..3]: the cascades' light view-projections
} u;
layout(push_constant) uniform Push {
    mat4 model;
    uint cascade;
} pc;

layout(location = 0) in vec3 in_position;

void main()
{
    gl_Position = u.matrices[1 + pc.cascade] * (pc.model * vec4(in_position, 1.0));
}
