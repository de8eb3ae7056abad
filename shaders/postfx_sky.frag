#version 450
// postfx's backdrop, drawn in the scene pass before the cube: a dusk sky,
// a striped sun and a neon grid floor scrolling towards the viewer. The sun
// and the grid lines are brighter than 1.0 (the target is RGBA16F), so the
// bloom passes have something to spread. Animated by frame index only.
layout(push_constant) uniform Push {
    float frame;
    float aspect;
    float horizon;   // screen y (0 top, 1 bottom) of the horizon
    float pad;
} pc;

layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 out_color;

float hash(vec2 p)
{
    p = fract(p * vec2(123.34, 456.21));
    p += dot(p, p + 45.32);
    return fract(p.x * p.y);
}

vec3 sky(vec2 uv)
{
    float t = clamp(uv.y / pc.horizon, 0.0, 1.0);   // 0 at the top, 1 at the horizon
    vec3 top = vec3(0.010, 0.006, 0.040);
    vec3 mid = vec3(0.080, 0.015, 0.160);
    vec3 low = vec3(0.550, 0.060, 0.250);
    vec3 c = mix(top, mid, smoothstep(0.0, 0.6, t));
    c = mix(c, low, smoothstep(0.55, 1.0, t));

    // Stars: one candidate per cell, twinkling with the frame index.
    vec2 cell = floor(vec2(uv.x * pc.aspect, uv.y) * 90.0);
    float h = hash(cell);
    if (h > 0.985) {
        vec2 f = fract(vec2(uv.x * pc.aspect, uv.y) * 90.0) - 0.5;
        float twinkle = 0.6 + 0.4 * sin(pc.frame * 0.21 + h * 80.0);
        c += vec3(0.9, 0.85, 1.0) * twinkle * (1.0 - t) * smoothstep(0.18, 0.0, length(f)) * 1.5;
    }

    // The sun: a disc behind the cube, yellow at the top to pink at the
    // bottom, cut by horizontal gaps that widen towards the horizon.
    vec2 sun_center = vec2(0.5, pc.horizon - 0.26);
    vec2 d = vec2((uv.x - sun_center.x) * pc.aspect, uv.y - sun_center.y);
    float r = length(d);
    const float radius = 0.25;
    float s = (uv.y - (sun_center.y - radius)) / (2.0 * radius);  // 0 top .. 1 bottom of the disc
    vec3 sun = mix(vec3(1.9, 1.25, 0.2), vec3(1.7, 0.18, 0.6), smoothstep(0.1, 0.9, s));
    float stripes = 1.0;
    if (s > 0.3) {
        float band = fract((uv.y - sun_center.y) * 38.0 + pc.frame * 0.02);
        stripes = step(mix(0.0, 0.6, (s - 0.3) / 0.7), band);
    }
    float disc = smoothstep(radius, radius - 0.004, r) * stripes;
    c = mix(c, sun, disc);
    c += vec3(0.9, 0.2, 0.45) * 0.25 * exp(-max(r - radius, 0.0) * 9.0);  // haze around it
    return c;
}

vec3 floor_grid(vec2 uv)
{
    // Perspective: a row below the horizon is a distance along the floor.
    float below = uv.y - pc.horizon;
    float z = 0.35 / below;
    float x = (uv.x - 0.5) * pc.aspect * z;
    float zs = z + pc.frame * 0.05;  // scrolling towards the viewer
    vec2 g = vec2(x, zs) * 2.0;
    // Distance to the nearest line in pixels, for lines about 1.5 pixels
    // wide at any resolution; far rows, where lines crowd, fade out.
    vec2 px = abs(fract(g + 0.5) - 0.5) / max(fwidth(g), vec2(1e-4));
    vec2 line = 1.0 - smoothstep(0.4, 1.4, px);
    float grid = max(line.x, line.y) * smoothstep(0.9, 0.3, max(fwidth(g).x, fwidth(g).y));
    float fade = exp(-z * 0.22);
    vec3 ground = mix(vec3(0.030, 0.004, 0.050), vec3(0.25, 0.02, 0.18), exp(-below * 14.0));
    vec3 neon = mix(vec3(0.2, 1.6, 2.6), vec3(2.6, 0.3, 1.8), smoothstep(0.0, 0.35, below));
    return ground + neon * grid * fade;
}

void main()
{
    vec3 c = v_uv.y < pc.horizon ? sky(v_uv) : floor_grid(v_uv);
    // A thin glowing line along the horizon.
    c += vec3(2.0, 0.5, 1.4) * exp(-abs(v_uv.y - pc.horizon) * 400.0);
    // Alpha 0: the backdrop (the cube writes 1), for the trails pass.
    out_color = vec4(c, 0.0);
}
