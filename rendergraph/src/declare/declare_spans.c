/* Rendering spans: rg_begin_rendering and rg_end_rendering. Begin resolves
 * and checks every attachment (one mip, explicit layers, color vs
 * depth/stencil format, no two attachments on one subresource, resolve
 * targets single-sample of the same format), records them as the span's
 * begin accesses and derives the render area from the attachments' one
 * extent (attachments of different extents need an explicit area, which
 * must fit the smallest); end copies them as lifetime-only accesses.
 * Spans do not nest.
 */
#include "declare/stages.h"

#include <string.h>

typedef struct att_view {
    uint32_t resource;
    rg_range range;
} att_view;

/* Resolves one attachment view: one mip, explicit layers, no REMAINING. */
static bool attachment_view(rg__pending *p, rg_texture tex, uint32_t mip, uint32_t base_layer, uint32_t layer_count,
                            att_view *out)
{
    uint32_t ri = rg__texture_arg(p, tex);
    if (ri == RG__NONE)
        return false;
    const rg__resource *r = &p->g->decl.resources[ri];
    uint32_t n = layer_count; /* at least 1: rendering_def */
    if (layer_count == VK_REMAINING_ARRAY_LAYERS || mip == VK_REMAINING_MIP_LEVELS || mip >= r->mip_levels ||
        base_layer >= r->array_layers || n > r->array_layers - base_layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE,
                 "command '%s': attachment view of texture '%s' (mip %u, layers %u+%u) is outside it or uses REMAINING",
                 p->name, r->name, mip, base_layer, layer_count);
        return false;
    }
    *out = (att_view){ri, {r->aspects, mip, 1, base_layer, n}};
    return true;
}

typedef struct span_build {
    rg__pending p;
    /* One per attachment slot a span can have. */
    att_view views[RG__SPAN_SLOTS];
    uint32_t view_count;
    uint32_t width, height, layers; /* the smallest attachment extent */
    /* The first attachment and its extent, and the first one whose extent
     * differs from it (RG__NONE while none does). */
    uint32_t first, first_w, first_h, other, other_w, other_h;
} span_build;

static bool span_attach(span_build *b, const att_view *v, rg__access_role role, bool depth, bool read_only,
                        const rg_attachment *att)
{
    VkAttachmentLoadOp load = att->load;
    rg_graph *g = b->p.g;
    const rg__resource *r = &rg__decl_resources(g)[v->resource];
    bool is_depth = (r->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) != 0;
    if (is_depth != depth) {
        rg__fail(g, RG_ERROR_ATTACHMENT_LAYOUT,
                 "command '%s': texture '%s' (format %s) cannot be a %s attachment: its layout would not be legal",
                 b->p.name, r->name, rg_format_name(r->format), depth ? "depth/stencil" : "color");
        return false;
    }
    for (uint32_t i = 0; i < b->view_count; i++) {
        if (b->views[i].resource == v->resource && rg__ranges_overlap(&b->views[i].range, &v->range)) {
            rg__fail(g, RG_ERROR_ATTACHMENT_OVERLAP, "command '%s': two attachments on one subresource of texture '%s'",
                     b->p.name, r->name);
            return false;
        }
    }
    b->views[b->view_count++] = *v;
    rg__access rec = {.resource = v->resource, .range = v->range, .write = true, .role = role};
    VkImageUsageFlags usage;
    if (depth && role == RG__ROLE_ATTACHMENT) {
        const rg_usage_info *u = rg_usage_get_info(read_only ? RG_USAGE_DEPTH_READ_ONLY : RG_USAGE_DEPTH_ATTACHMENT);
        rec.stage = u->stage;
        rec.access = u->access;
        rec.layout = u->layout;
        rec.write = u->write;
        usage = u->image_usage;
        /* A read-only attachment is still written by its load and store
         * ops: CLEAR and DONT_CARE loads and STORE and DONT_CARE stores
         * access it with DEPTH_STENCIL_ATTACHMENT_WRITE (the specification's
         * load/store operation rules; Vulkan-ValidationLayers issue 2349).
         * Only LOAD with store NONE is a pure read. */
        if (read_only && (load != VK_ATTACHMENT_LOAD_OP_LOAD || att->store != VK_ATTACHMENT_STORE_OP_NONE)) {
            rec.access |= VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
            rec.write = true;
        }
    } else {
        const rg_usage_info *u =
            rg_usage_get_info(role == RG__ROLE_RESOLVE ? RG_USAGE_RESOLVE : RG_USAGE_COLOR_ATTACHMENT);
        rec.stage = u->stage;
        rec.access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
        if (role == RG__ROLE_ATTACHMENT && load == VK_ATTACHMENT_LOAD_OP_LOAD)
            rec.access |= VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT;
        rec.layout = u->layout;
        usage = u->image_usage;
        if (depth) { /* a depth/stencil resolve target */
            rec.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
        }
    }
    if (role == RG__ROLE_ATTACHMENT) {
        uint32_t w = r->width >> v->range.base_mip, h = r->height >> v->range.base_mip;
        w = w ? w : 1;
        h = h ? h : 1;
        if (b->first == RG__NONE) {
            b->first = v->resource;
            b->first_w = w;
            b->first_h = h;
        } else if (b->other == RG__NONE && (w != b->first_w || h != b->first_h)) {
            b->other = v->resource;
            b->other_w = w;
            b->other_h = h;
        }
        b->width = b->width < w ? b->width : w;
        b->height = b->height < h ? b->height : h;
        b->layers = b->layers < v->range.layer_count ? b->layers : v->range.layer_count;
    }
    return rg__access_push(&b->p, &rec, usage, 0);
}

/* Load and store ops go to Vulkan as they are: anything outside the enums
 * is refused here with the command named, not left to the driver. */
static bool attachment_ops_valid(span_build *b, const rg_attachment *a, bool depth)
{
    rg_graph *g = b->p.g;
    const char *what = depth ? "depth" : "color";
    const char *tex = g->decl.resources[rg__texture_index(g, a->texture)].name;
    if (a->load != VK_ATTACHMENT_LOAD_OP_LOAD && a->load != VK_ATTACHMENT_LOAD_OP_CLEAR &&
        a->load != VK_ATTACHMENT_LOAD_OP_DONT_CARE) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': %s attachment '%s': load op %d is not LOAD, CLEAR or "
                 "DONT_CARE", b->p.name, what, tex, (int)a->load);
        return false;
    }
    if (a->store != VK_ATTACHMENT_STORE_OP_STORE && a->store != VK_ATTACHMENT_STORE_OP_DONT_CARE &&
        a->store != VK_ATTACHMENT_STORE_OP_NONE) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': %s attachment '%s': store op %d is not STORE, "
                 "DONT_CARE or NONE", b->p.name, what, tex, (int)a->store);
        return false;
    }
    return true;
}

/* The resolve mode Vulkan allows for the source's format, the default
 * resolved once here: color formats resolve by AVERAGE when they read as
 * float and by SAMPLE_ZERO when integer, nothing else
 * (VUID-VkRenderingAttachmentInfo-imageView-06129, -06130); depth/stencil
 * by SAMPLE_ZERO (the default), MIN or MAX, never AVERAGE. Whether the
 * device offers MIN or MAX is checked at placement. */
static bool resolve_mode(span_build *b, const rg_attachment *a, const rg__resource *src, bool depth,
                         VkResolveModeFlagBits *out)
{
    rg_format_numeric n = rg_format_get_info(src->format).numeric;
    bool integer = n == RG_FORMAT_UINT || n == RG_FORMAT_SINT;
    VkResolveModeFlagBits m = a->resolve_mode;
    const char *allowed = depth ? "SAMPLE_ZERO, MIN or MAX" : integer ? "SAMPLE_ZERO (an integer format)"
                                                                      : "AVERAGE (a float format)";
    if (m == 0)
        m = depth || integer ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT;
    bool ok = depth ? m == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || m == VK_RESOLVE_MODE_MIN_BIT ||
                          m == VK_RESOLVE_MODE_MAX_BIT
                    : m == (integer ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT);
    if (!ok) {
        rg__fail(b->p.g, RG_ERROR_INVALID_ARGUMENT, "command '%s': %s attachment '%s': resolve mode 0x%x; its "
                 "format allows %s", b->p.name, depth ? "depth" : "color", src->name, (unsigned)a->resolve_mode,
                 allowed);
        return false;
    }
    *out = m;
    return true;
}

/* One attachment and its resolve target; *mode receives the resolve mode
 * (0 without a resolve). */
static bool span_attachment(span_build *b, const rg_attachment *a, bool depth, bool read_only,
                            VkResolveModeFlagBits *mode)
{
    rg_graph *g = b->p.g;
    att_view v;
    if (!attachment_view(&b->p, a->texture, a->mip, a->base_layer, a->layer_count, &v) ||
        !attachment_ops_valid(b, a, depth) || !span_attach(b, &v, RG__ROLE_ATTACHMENT, depth, read_only, a))
        return false;
    *mode = 0;
    if (a->resolve.id == 0)
        return true;
    att_view rv;
    if (!attachment_view(&b->p, a->resolve, a->resolve_mip, a->resolve_layer, v.range.layer_count, &rv))
        return false;
    const rg__resource *src = &g->decl.resources[v.resource], *dst = &g->decl.resources[rv.resource];
    if (src->samples == VK_SAMPLE_COUNT_1_BIT || dst->samples != VK_SAMPLE_COUNT_1_BIT || src->format != dst->format) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT,
                 "command '%s': resolve of '%s' into '%s' needs a multisampled source and a single-sample target "
                 "of the same format", b->p.name, src->name, dst->name);
        return false;
    }
    return resolve_mode(b, a, src, depth, mode) && span_attach(b, &rv, RG__ROLE_RESOLVE, depth, false, a);
}

static void hash_attachment(rg_graph *g, const rg_attachment *a)
{
    uint32_t v[10] = {a->texture.id & RG__INDEX_MASK, a->mip, a->base_layer, a->layer_count, (uint32_t)a->load,
                      (uint32_t)a->store, a->resolve.id & RG__INDEX_MASK, a->resolve_mip, a->resolve_layer,
                      (uint32_t)a->resolve_mode};
    rg__hash_bytes(g, v, sizeof v);
    rg__hash_bytes(g, &a->clear, sizeof a->clear);
}

/* The desc with its defaults resolved, once: an attachment's layer count
 * 0 means 1. Resolve modes are resolved once they are checked
 * (resolve_mode). */
static rg_rendering_desc rendering_def(const rg_rendering_desc *in)
{
    rg_rendering_desc d = *in;
    for (uint32_t i = 0; i < RG_MAX_COLOR_ATTACHMENTS; i++)
        if (d.colors[i].layer_count == 0)
            d.colors[i].layer_count = 1;
    if (d.depth.layer_count == 0)
        d.depth.layer_count = 1;
    return d;
}

/* Every attachment of a span at one sample count: Vulkan renders all of a
 * rendering's attachments at one (resolve targets aside), and what reads
 * the span's samples (merging's tile budget, pipelines) reads one. */
static bool one_sample_count(rg_graph *graph, const rg_rendering_desc *desc, const char *name)
{
    const rg__resource *first = NULL;
    for (uint32_t c = 0; c <= desc->color_count; c++) {
        const rg_attachment *a = c < desc->color_count ? &desc->colors[c] : &desc->depth;
        if (!a->texture.id)
            continue;
        const rg__resource *r = &graph->decl.resources[rg__texture_index(graph, a->texture)];
        if (!first) {
            first = r;
        } else if (r->samples != first->samples) {
            rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "span '%s': attachments '%s' (%u sample%s) and '%s' (%u "
                     "sample%s) differ in sample count (a rendering's attachments share one)", name, first->name,
                     (unsigned)first->samples, first->samples == 1 ? "" : "s", r->name, (unsigned)r->samples,
                     r->samples == 1 ? "" : "s");
            return false;
        }
    }
    return true;
}

static rg_command begin_rendering_taken(rg_graph *graph, const rg_rendering_desc *in)
{
    if (!rg__declare_begin(graph, in, "rg_begin_rendering"))
        return (rg_command){0};
    rg_rendering_desc def = rendering_def(in), *desc = &def;
    span_build b = {.p = rg__pending_begin(graph, desc->name ? desc->name : "begin_rendering"),
                    .width = UINT32_MAX, .height = UINT32_MAX, .layers = UINT32_MAX,
                    .first = RG__NONE, .other = RG__NONE};
    if (graph->decl.open_span != RG__NONE) {
        rg__fail(graph, RG_ERROR_NESTED_SPAN, "command '%s': begin_rendering inside span '%s'", b.p.name,
                 graph->decl.cmds[graph->decl.spans[graph->decl.open_span].begin_cmd].name);
        return (rg_command){0};
    }
    if (desc->color_count > RG_MAX_COLOR_ATTACHMENTS) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': %u color attachments (at most %u)", b.p.name,
                 desc->color_count, RG_MAX_COLOR_ATTACHMENTS);
        return (rg_command){0};
    }
    VkResolveModeFlagBits modes[RG_MAX_COLOR_ATTACHMENTS + 1] = {0}; /* colors, depth */
    for (uint32_t i = 0; i < desc->color_count; i++)
        if (!span_attachment(&b, &desc->colors[i], false, false, &modes[i]))
            return (rg_command){0};
    if (desc->depth.texture.id && !span_attachment(&b, &desc->depth, true, desc->depth_read_only,
                                                   &modes[RG_MAX_COLOR_ATTACHMENTS]))
        return (rg_command){0};
    if (!one_sample_count(graph, desc, b.p.name))
        return (rg_command){0};
    VkRect2D area = desc->area;
    if (area.extent.width == 0 || area.extent.height == 0) {
        if (b.width == UINT32_MAX) {
            rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': no attachments and no render area", b.p.name);
            return (rg_command){0};
        }
        /* Rendering into the smallest of unequal attachments is rarely
         * what was meant (a half-resolution target beside a full one):
         * such a span says its area. */
        if (b.other != RG__NONE) {
            rg__fail(graph, RG_ERROR_EXTENT_MISMATCH, "span '%s': attachments '%s' (%ux%u) and '%s' (%ux%u) differ in "
                     "extent: give rg_rendering_desc.area (within both)", b.p.name,
                     graph->decl.resources[b.first].name, b.first_w, b.first_h, graph->decl.resources[b.other].name,
                     b.other_w, b.other_h);
            return (rg_command){0};
        }
        area = (VkRect2D){{0, 0}, {b.width, b.height}};
    }
    /* An area the attachments do not cover would render out of bounds. */
    if (area.offset.x < 0 || area.offset.y < 0 ||
        (b.width != UINT32_MAX && ((uint64_t)area.offset.x + area.extent.width > b.width ||
                                   (uint64_t)area.offset.y + area.extent.height > b.height))) {
        rg__fail(graph, RG_ERROR_BAD_RANGE, "command '%s': render area (%d,%d) %ux%u outside the attachments (%ux%u)",
                 b.p.name, area.offset.x, area.offset.y, area.extent.width, area.extent.height,
                 b.width == UINT32_MAX ? 0 : b.width, b.height == UINT32_MAX ? 0 : b.height);
        return (rg_command){0};
    }
    if (!rg__grow_declaration(graph, (void **)&graph->decl.spans, &graph->decl.span_cap, graph->decl.span_count + 1,
                              sizeof *graph->decl.spans))
        return (rg_command){0};
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_BEGIN_RENDERING);
    c.span = graph->decl.span_count;
    uint32_t cmd_index = graph->decl.cmd_count;
    rg_command h = rg__cmd_finish(&b.p, &c);
    if (h.id == 0)
        return h;
    rg__span *s = &rg__decl_spans(graph)[graph->decl.span_count++];
    memset(s, 0, sizeof *s);
    s->begin_cmd = cmd_index;
    s->end_cmd = RG__NONE;
    for (uint32_t i = 0; i < desc->color_count; i++)
        desc->colors[i].resolve_mode = modes[i];
    desc->depth.resolve_mode = modes[RG_MAX_COLOR_ATTACHMENTS];
    s->desc = *desc;
    s->desc.name = NULL; /* the command record keeps the name */
    s->area = area;
    s->layer_count = b.layers == UINT32_MAX ? 1 : b.layers;
    graph->decl.open_span = c.span;
    for (uint32_t i = 0; i < desc->color_count; i++)
        hash_attachment(graph, &desc->colors[i]);
    hash_attachment(graph, &desc->depth);
    uint32_t v[6] = {desc->color_count, desc->depth_read_only, (uint32_t)area.offset.x, (uint32_t)area.offset.y,
                     area.extent.width, area.extent.height};
    rg__hash_bytes(graph, v, sizeof v);
    return h;
}

static rg_command end_rendering_taken(rg_graph *graph)
{
    if (!rg__usable(graph))
        return (rg_command){0};
    rg__pending p = rg__pending_begin(graph, "end_rendering");
    if (graph->decl.open_span == RG__NONE) {
        rg__fail(graph, RG_ERROR_END_WITHOUT_BEGIN, "command '%s': end_rendering without an open span", p.name);
        return (rg_command){0};
    }
    uint32_t span = graph->decl.open_span;
    const rg__cmd *begin = &graph->decl.cmds[graph->decl.spans[span].begin_cmd];
    char name[RG__NAME_MAX];
    snprintf(name, sizeof name, "end %.*s", RG__NAME_MAX - 5, begin->name);
    p.name = name;
    /* Lifetime-only copies keep every attachment alive to the end. */
    uint32_t first = begin->first_access, count = begin->access_count;
    for (uint32_t i = 0; i < count; i++) {
        rg__access rec = graph->decl.accesses[first + i];
        rec.role = RG__ROLE_LIFETIME;
        if (!rg__access_push(&p, &rec, 0, 0))
            return (rg_command){0};
    }
    rg__cmd c = rg__cmd_template(RG_COMMAND_TYPE_END_RENDERING);
    c.span = span;
    uint32_t cmd_index = graph->decl.cmd_count;
    rg_command h = rg__cmd_finish(&p, &c);
    if (h.id == 0)
        return h;
    rg__decl_spans(graph)[span].end_cmd = cmd_index;
    graph->decl.open_span = RG__NONE;
    rg__hash_u32(graph, span);
    return h;
}


/* The public calls: each takes the graph (rg__enter). */

rg_command rg_begin_rendering(rg_graph *graph, const rg_rendering_desc *in)
{
    RG__DECLARING(graph, "rg_begin_rendering", rg_command, begin_rendering_taken(graph, in));
}

rg_command rg_end_rendering(rg_graph *graph)
{
    RG__DECLARING(graph, "rg_end_rendering", rg_command, end_rendering_taken(graph));
}
