#version 450
// A solid rectangle in normalized device coordinates at one depth: draw 4
// vertices as a triangle strip. Used by device tests, where exact pixel
// values must be predictable.
layout(push_constant) uniform Push {
    vec4 rect;   // x0, y0, x1, y1 in NDC
    vec4 color;
    float depth;
} pc;

void main()
{
    vec2 corner = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
    vec2 xy = mix(pc.rect.xy, pc.rect.zw, corner);
    gl_Position = vec4(xy, pc.depth, 1.0);
}
