#version 450
// The second sub-pass of the tile-memory layer's local-read tests
// (tests/device/test_tile_local_read.c), drawn with solid.vert: reads what
// the first wrote to the same pixel through input attachment 0 and writes it
// with red and blue swapped, so the result shows that the read happened.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput written;

layout(location = 0) out vec4 out_color;

void main()
{
    out_color = subpassLoad(written).bgra;
}
