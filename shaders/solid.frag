#version 450
layout(push_constant) uniform Push {
    vec4 rect;
    vec4 color;
    float depth;
} pc;

layout(location = 0) out vec4 out_color;

void main()
{
    out_color = pc.color;
}
