#version 450
// The deferred demo's G-buffer pass: positions and normals go to view
// space, where the lighting pass works. 128 bytes of push constants.
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 model_view[3];   // rows of the model-view matrix (3x4)
    uvec4 params;         // see deferred_gbuffer.frag
} pc;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out float v_depth;

void main()
{
    vec4 p = vec4(in_position, 1.0);
    // The scene's meshes are cubes and spheres scaled along their own axes:
    // the model matrix itself keeps their normals' directions.
    v_normal = vec3(dot(pc.model_view[0].xyz, in_normal), dot(pc.model_view[1].xyz, in_normal),
                    dot(pc.model_view[2].xyz, in_normal));
    v_uv = in_uv;
    v_depth = -dot(pc.model_view[2], p); // distance in front of the camera
    gl_Position = pc.mvp * p;
}
