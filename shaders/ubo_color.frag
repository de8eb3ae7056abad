#version 450
// Outputs the color a uniform buffer holds (a buffer the render graph does
// not own: tests/device/test_existing_device.c).
layout(set = 0, binding = 0) uniform Color { vec4 color; } u_color;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = u_color.color;
}
