#version 450
// Two color outputs for the local-read tests (tests/device/test_local_read.c),
// drawn with solid.vert: location 0 gets the push constant's color, location 1
// its complement (1 - rgb, same alpha), so an attachment whose location was
// remapped shows which output it received.
layout(push_constant) uniform Push {
    vec4 rect;
    vec4 color;
    float depth;
} pc;

layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_complement;

void main()
{
    out_color = pc.color;
    out_complement = vec4(1.0 - pc.color.rgb, pc.color.a);
}
