#version 450
// cube.frag without the texture: a lit, flat-colored mesh (the depth demo's
// cubes), with the same push constants as cube.vert.
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 normal_matrix[3];
    vec4 tint;
} pc;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 light = normalize(vec3(0.4, 0.8, 0.6));
    float diffuse = max(dot(normalize(v_normal), light), 0.0);
    // Darker towards each face's border: the edges of a flat-colored cube
    // stay readable where two faces get the same light.
    vec2 border = min(v_uv, 1.0 - v_uv);
    float edge = mix(0.55, 1.0, smoothstep(0.0, 0.08, min(border.x, border.y)));
    out_color = vec4(pc.tint.rgb * (0.25 + 0.75 * diffuse) * edge, 1.0);
}
