#version 450
// One cascade of the overlap frame's shadow map (benchmarks/overlap_frame.c):
// a terrain of params.x * params.x quads over [-1,1]^2 in xz, its
// (params.x + 1)^2 vertices generated from gl_VertexIndex alone (no vertex
// buffer; an index buffer of 6 per quad, row by row, so the post-transform
// cache shades each vertex about once), projected by the light's
// orthographic cascade. params.y instances draw it again and again, each
// cascade.y nearer the light (in depth) than the one before and the last
// at the terrain itself: every layer passes the depth test and writes, as
// layered foliage does in a real shadow map. Depth only, no fragment
// shader: the pass is bound by the rasterizer and depth writes, not by the
// ALUs. terrain_height is the same in overlap_ao.comp and
// overlap_composite.comp.
layout(push_constant) uniform Push {
    vec4 right;       // light space x axis (xyz)
    vec4 up;          // light space y axis (xyz)
    vec4 dir;         // the light's direction of travel (xyz); w: half the depth range
    vec4 cascade;     // x: the cascade's half size in light space (centered on the origin);
                      // y: the depth step between layers
    uvec4 params;     // x: quads per side of the grid; y: layers (instances)
} pc;

float terrain_height(vec2 p)
{
    return 0.22 * sin(2.7 * p.x + 0.4) * cos(2.1 * p.y - 0.3) + 0.08 * sin(7.3 * p.x + 5.1 * p.y) +
           0.03 * cos(13.0 * p.x - 11.0 * p.y);
}

void main()
{
    uint grid = pc.params.x, row = grid + 1u;
    uvec2 q = uvec2(uint(gl_VertexIndex) % row, uint(gl_VertexIndex) / row);
    vec2 xz = vec2(q) / float(grid) * 2.0 - 1.0;
    vec3 p = vec3(xz.x, terrain_height(xz), xz.y);
    vec3 ls = vec3(dot(p, pc.right.xyz), dot(p, pc.up.xyz), dot(p, pc.dir.xyz));
    float layer = float(pc.params.y - 1u - uint(gl_InstanceIndex));
    gl_Position = vec4(ls.xy / pc.cascade.x, ls.z / (2.0 * pc.dir.w) + 0.5 + layer * pc.cascade.y, 1.0);
}
