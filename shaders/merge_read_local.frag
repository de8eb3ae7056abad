#version 450
// merge_read.frag's read through input attachments (subpassLoad) in a
// rendering instance the graph merged: input attachment 0 and 1 are the
// two textures in the order the draw declared its pixel-local reads.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput u_a;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput u_b;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = vec4(subpassLoad(u_a).rg, subpassLoad(u_b).ba);
}
