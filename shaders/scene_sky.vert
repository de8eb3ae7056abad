#version 450
// A triangle over the whole viewport at the far plane (depth 1): drawn
// after the scene with a LESS_OR_EQUAL test against the prepass's depth, it
// colours only the pixels no object covered.
layout(location = 0) out vec2 v_ndc;

void main()
{
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    v_ndc = uv * 2.0 - 1.0;
    gl_Position = vec4(v_ndc, 1.0, 1.0);
}
