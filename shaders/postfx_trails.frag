#version 450
// postfx's motion trails, the first pass after the scene: the cube leaves a
// glowing trail that drifts outwards and fades frame by frame, drawn over
// the backdrop (the scene's alpha: 1 on the cube, 0 on the sky and floor).
// The trail is a render graph history texture: this pass reads the trail
// the frame before wrote (u_previous), enlarged a little about the cube,
// and writes this frame's (location 1): the brighter of that, faded, and
// the cube's glow now. The chain goes on with the scene plus the trail
// wherever the cube is not (location 0).
layout(push_constant) uniform Push {
    vec2 step;       // one texel along the pass's direction (separable passes)
    vec2 texel;      // 1 / extent
    float frame;     // animation by frame index
    float strength;  // how much of the trail is left after one frame
} pc;

layout(set = 0, binding = 0) uniform sampler2D u_scene;
layout(set = 0, binding = 1) uniform sampler2D u_previous;
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_trail;

const float threshold = 0.35;     // what glows: the part of a color above it
const vec2 center = vec2(0.5, 0.55);
const float zoom = 0.97;          // the trail moves outwards by 3% a frame
const float gain = 2.0;

void main()
{
    vec4 scene = texelFetch(u_scene, ivec2(gl_FragCoord.xy), 0); // exactly the scene's pixel
    vec3 glow = scene.a * max(scene.rgb - vec3(threshold), vec3(0.0));
    vec3 trail = max(texture(u_previous, center + (v_uv - center) * zoom).rgb * pc.strength, glow);
    out_trail = vec4(trail, 1.0);
    out_color = vec4(scene.rgb + gain * (1.0 - scene.a) * trail, 1.0);
}
