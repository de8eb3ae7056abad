#version 450
// Outputs the color a compute shader left in a storage buffer.
layout(set = 0, binding = 0, std430) readonly buffer Color { vec4 color; } u_color;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = u_color.color;
}
