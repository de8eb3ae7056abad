#version 450
// A triangle that covers the whole viewport, from gl_VertexIndex alone (draw
// 3 vertices, no vertex buffer): fullscreen passes need no mesh. uv runs
// 0..1 across the viewport, (0,0) at the top left, as texture() expects.
layout(location = 0) out vec2 v_uv;

void main()
{
    v_uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
