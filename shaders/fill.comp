#version 450
// Writes one color into a storage buffer.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { vec4 color; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer Color { vec4 color; } u_color;

void main()
{
    u_color.color = pc.color;
}
