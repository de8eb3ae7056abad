#version 450
// Writes the G-buffer: albedo, view-space normal with emissive strength,
// material (roughness, metal) and view depth; the depth test's own buffer
// is discarded after this pass.
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 model_view[3];
    uvec4 params;         // x: albedo RGBA8, y: roughness, metal (unorm8), z: emissive, w: uv scale (floats; 0 = untextured)
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_texture;

layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 2) in float v_depth;

layout(location = 0) out vec4 out_albedo;
layout(location = 1) out vec4 out_normal;
layout(location = 2) out vec4 out_material;
layout(location = 3) out float out_depth;

void main()
{
    vec3 albedo = unpackUnorm4x8(pc.params.x).rgb;
    float uv_scale = uintBitsToFloat(pc.params.w);
    if (uv_scale > 0.0)
        albedo *= texture(u_texture, v_uv * uv_scale).rgb;
    vec2 material = unpackUnorm4x8(pc.params.y).xy;
    out_albedo = vec4(albedo, 1.0);
    out_normal = vec4(normalize(v_normal), uintBitsToFloat(pc.params.z));
    out_material = vec4(material, 0.0, 1.0);
    out_depth = v_depth;
}
