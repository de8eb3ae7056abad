#version 450
// The deferred demo's lighting pass over a multisampled G-buffer: each
// sample is lit on its own and the results averaged, so edges blend lit
// colors (resolving the G-buffer first would blend normals and depths).
// Shares everything below the G-buffer bindings with deferred_light.frag.
//
// Compiled twice like deferred_light.frag, the two variants the demos keep:
// texelFetch from multisampled sampled textures, or with LOCAL_READ
// (deferred_light_ms.local_read.frag.spv) subpassLoad from multisampled
// input attachments, where the render graph merged the lighting span into
// the G-buffer's rendering instance (only on devices with
// dynamicRenderingLocalReadMultisampledAttachments, and only when the two
// spans' sample counts agree). Input attachment indices: the lighting draw's
// pixel-local reads in declaration order, checked by deferred_frame.c.
#ifdef LOCAL_READ
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS g_albedo;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInputMS g_normal;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInputMS g_material;
layout(input_attachment_index = 3, set = 0, binding = 3) uniform subpassInputMS g_depth;
#define G_LOAD(g, s) subpassLoad(g, s)
#else
layout(set = 0, binding = 0) uniform sampler2DMS g_albedo;
layout(set = 0, binding = 1) uniform sampler2DMS g_normal;
layout(set = 0, binding = 2) uniform sampler2DMS g_material;
layout(set = 0, binding = 3) uniform sampler2DMS g_depth;
#define G_LOAD(g, s) texelFetch(g, ivec2(gl_FragCoord.xy), s)
#endif

layout(set = 1, binding = 0) uniform Lights {
    vec4 info;            // x: light count, y: samples, z, w: tan of half the field of view across, up
    vec4 up;              // xyz: world up in view space, w: ambient strength
    vec4 moon;            // xyz: towards the moon in view space, w: its strength
    vec4 sky;             // rgb: where no geometry was drawn
    vec4 light_pos[64];   // xyz: view space, w: range
    vec4 light_color[64]; // rgb: linear, times intensity
} u;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

const float PI = 3.14159265;

// GGX specular (height-correlated Smith visibility, Schlick Fresnel) over a
// Lambert diffuse that metals lack.
vec3 brdf(vec3 n, vec3 v, vec3 l, vec3 albedo, float rough, float metal)
{
    vec3 h = normalize(v + l);
    float ndl = max(dot(n, l), 0.0), ndv = max(dot(n, v), 1e-4);
    float ndh = max(dot(n, h), 0.0), vdh = max(dot(v, h), 0.0);
    float a = max(rough * rough, 0.02), a2 = a * a;
    float d = ndh * ndh * (a2 - 1.0) + 1.0;
    float spec_d = a2 / (PI * d * d);
    float vis = 0.5 / (ndl * sqrt(ndv * ndv * (1.0 - a2) + a2) + ndv * sqrt(ndl * ndl * (1.0 - a2) + a2) + 1e-5);
    vec3 f0 = mix(vec3(0.04), albedo, metal);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - vdh, 5.0);
    vec3 diffuse = (1.0 - f) * (1.0 - metal) * albedo / PI;
    return (diffuse + spec_d * vis * f) * ndl;
}

// One G-buffer sample lit by the moon, a sky ambient and every point light
// in range. depth 0 is the cleared value: nothing was drawn there.
vec3 shade(vec3 albedo, vec4 normal_emissive, vec2 material, float depth)
{
    if (depth <= 0.0)
        return u.sky.rgb;
    vec2 ndc = v_uv * 2.0 - 1.0; // y down, as the projection flipped it
    vec3 pos = vec3(ndc.x * u.info.z, -ndc.y * u.info.w, -1.0) * depth;
    vec3 n = normalize(normal_emissive.xyz), v = normalize(-pos);
    float rough = material.x, metal = material.y;
    // No environment map: metals get the ambient through their own color.
    vec3 color = albedo * u.up.w * (0.65 + 0.35 * dot(n, u.up.xyz));
    color += brdf(n, v, u.moon.xyz, albedo, rough, metal) * u.moon.w * vec3(0.75, 0.85, 1.0);
    int count = int(u.info.x);
    for (int i = 0; i < count; i++) {
        vec3 d = u.light_pos[i].xyz - pos;
        float range2 = u.light_pos[i].w * u.light_pos[i].w, dist2 = dot(d, d);
        if (dist2 >= range2)
            continue;
        // Inverse square, windowed to reach 0 at the range so that the
        // cut-off leaves no edge.
        float x = dist2 / range2, window = (1.0 - x * x) * (1.0 - x * x);
        color += brdf(n, v, d * inversesqrt(dist2), albedo, rough, metal) * u.light_color[i].rgb * window /
                 (dist2 + 0.1);
    }
    return color + albedo * normal_emissive.w;
}

void main()
{
    int samples = int(u.info.y);
    vec3 c = vec3(0.0);
    for (int s = 0; s < samples; s++)
        c += shade(G_LOAD(g_albedo, s).rgb, G_LOAD(g_normal, s), G_LOAD(g_material, s).xy, G_LOAD(g_depth, s).r);
    out_color = vec4(c / float(samples), 1.0);
}
