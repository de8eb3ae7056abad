/* The rules a span must pass to join a rendering instance (rendergraph.h,
 * "Merging"), for compile stage "merge" (compile_merge.c): the same frame
 * of attachments, depth, resolves only at the instance's end, the color
 * attachments fitting the device, and every pair of accesses either apart
 * or a pixel-local read of what the instance wrote; a refusal says why in
 * the merge note's words. Pure functions of the declaration and the
 * device's caps. */
#include "base/rules.h"
#include "compile/stages.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const rg__span *span_of(const rg_graph *g, uint32_t s) { return &g->decl.spans[s]; }

/* The accesses of span s: its commands' records are contiguous. */
void rg__span_accesses(const rg_graph *g, uint32_t s, uint32_t *first, uint32_t *end)
{
    const rg__cmd *b = &g->decl.cmds[g->decl.spans[s].begin_cmd], *e = &g->decl.cmds[g->decl.spans[s].end_cmd];
    *first = b->first_access;
    *end = e->first_access + e->access_count;
}

bool rg__ranges_equal(const rg_range *a, const rg_range *b)
{
    return a->aspect == b->aspect && a->base_mip == b->base_mip && a->mip_count == b->mip_count &&
           a->base_layer == b->base_layer && a->layer_count == b->layer_count;
}

static bool overlap(const rg_graph *g, const rg__access *a, const rg__access *b)
{
    if (a->resource != b->resource)
        return false;
    if (!g->decl.resources[a->resource].is_texture)
        return true; /* buffer accesses are whole: rg__access_push */
    const rg_range *x = &a->range, *y = &b->range;
    return (x->aspect & y->aspect) && x->base_mip < y->base_mip + y->mip_count &&
           y->base_mip < x->base_mip + x->mip_count && x->base_layer < y->base_layer + y->layer_count &&
           y->base_layer < x->base_layer + x->layer_count;
}

/* The command an access belongs to (commands' accesses are appended in
 * command order). */
uint32_t rg__access_cmd(const rg_graph *g, uint32_t access)
{
    uint32_t lo = 0, hi = g->decl.cmd_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->decl.cmds[mid].first_access <= access)
            lo = mid;
        else
            hi = mid;
    }
    /* commands without accesses share first_access with the next one */
    while (lo + 1 < g->decl.cmd_count && g->decl.cmds[lo + 1].first_access <= access)
        lo++;
    return lo;
}

static VkSampleCountFlagBits span_samples(const rg_graph *g, uint32_t s)
{
    const rg_rendering_desc *d = &span_of(g, s)->desc;
    const rg_attachment *a = d->color_count ? &d->colors[0] : &d->depth;
    if (a->texture.id == 0)
        return VK_SAMPLE_COUNT_1_BIT;
    return g->decl.resources[rg__texture_index(g, a->texture)].samples;
}

bool rg__same_view(const rg_graph *g, const rg_attachment *a, const rg_attachment *b)
{
    return rg__texture_index(g, a->texture) == rg__texture_index(g, b->texture) && a->mip == b->mip &&
           a->base_layer == b->base_layer && a->layer_count == b->layer_count;
}

static bool has_resolve(const rg_graph *g, uint32_t s)
{
    const rg_rendering_desc *d = &span_of(g, s)->desc;
    for (uint32_t i = 0; i < d->color_count; i++)
        if (d->colors[i].resolve.id)
            return true;
    return d->depth.texture.id && d->depth.resolve.id;
}

static const char *cmd_name(const rg_graph *g, uint32_t access) { return g->decl.cmds[rg__access_cmd(g, access)].name; }

static const char *span_name(const rg_graph *g, uint32_t s) { return g->decl.cmds[span_of(g, s)->begin_cmd].name; }

bool rg__merge_why(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, sizeof ((rg__merge_note *)0)->reason, fmt, ap);
    va_end(ap);
    return false;
}

/* The load op span s declared for the attachment whose begin access is
 * a. */
static VkAttachmentLoadOp attachment_load(const rg_graph *g, uint32_t s, const rg__access *a)
{
    const rg_rendering_desc *d = &span_of(g, s)->desc;
    for (uint32_t i = 0; i <= d->color_count; i++) {
        const rg_attachment *at = i < d->color_count ? &d->colors[i] : &d->depth;
        if (at->texture.id && rg__texture_index(g, at->texture) == a->resource && at->mip == a->range.base_mip &&
            at->base_layer == a->range.base_layer)
            return at->load;
    }
    return VK_ATTACHMENT_LOAD_OP_LOAD;
}

/* Whether s has the instance's area, layers and samples, read locally on the device; else the reason. */
static bool same_frame(const rg_graph *g, uint32_t first_span, uint32_t s, char *reason)
{
    const rg__span *first = span_of(g, first_span), *next = span_of(g, s);
    if (RG__RULE(MERGE_SAME_AREA, memcmp(&first->area, &next->area, sizeof first->area) != 0 ||
                                      first->layer_count != next->layer_count))
        return rg__merge_why(reason, "%s ('%s' and '%s')", rg__rule_text(RG__RULE_MERGE_SAME_AREA),
                             span_name(g, first_span), span_name(g, s));
    VkSampleCountFlagBits samples = span_samples(g, first_span);
    if (RG__RULE(MERGE_SAME_SAMPLES, span_samples(g, s) != samples))
        return rg__merge_why(reason, "%s (%u and %u)", rg__rule_text(RG__RULE_MERGE_SAME_SAMPLES), (unsigned)samples,
                             (unsigned)span_samples(g, s));
    if (samples != VK_SAMPLE_COUNT_1_BIT && !g->caps.local_read_multisampled)
        return rg__merge_why(reason, "multisampled, and the device lacks dynamicRenderingLocalReadMultisampledAttachments");
    return true;
}

/* Whether s's depth/stencil attachment, if any, is the instance's and loaded; else the reason. */
static bool depth_allows(const rg_graph *g, uint32_t first_span, uint32_t s, char *reason)
{
    const rg_rendering_desc *fd = &span_of(g, first_span)->desc, *nd = &span_of(g, s)->desc;
    if (nd->depth.texture.id &&
        (!fd->depth.texture.id || !rg__same_view(g, &fd->depth, &nd->depth) ||
         fd->depth_read_only != nd->depth_read_only || nd->depth.load != VK_ATTACHMENT_LOAD_OP_LOAD))
        return rg__merge_why(reason, "'%s' has a depth/stencil attachment other than the instance's (or does not load it)",
                   span_name(g, s));
    return true;
}

/* Whether no span of the instance resolves; else the reason. */
static bool resolves_allow(const rg_graph *g, const uint32_t *spans, uint32_t count, char *reason)
{
    for (uint32_t i = 0; i < count; i++)
        if (RG__RULE(MERGE_NO_RESOLVE, has_resolve(g, spans[i])))
            return rg__merge_why(reason, "'%s' resolves, which happens at the end of the rendering instance",
                       span_name(g, spans[i]));
    return true;
}

/* The colour bytes per pixel per sample of n attachments (their formats'
 * texel blocks). */
static uint32_t color_bytes(const rg_graph *g, const rg_attachment *a, uint32_t n)
{
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < n; i++)
        bytes += rg_format_get_info(g->decl.resources[rg__texture_index(g, a[i].texture)].format).block_size;
    return bytes;
}

bool rg__tile_fits(const rg_graph *g, const rg_attachment *colors, uint32_t count, VkSampleCountFlagBits samples,
                   char *why, size_t size)
{
    const rg_tile_info t = g->tile;
    uint32_t per_sample = color_bytes(g, colors, count), n = (uint32_t)samples;
    uint64_t need = t.hard ? per_sample : (uint64_t)per_sample * n;
    if (RG__RULE(MERGE_TILE_BUDGET, t.color_bytes == 0 || need <= t.color_bytes))
        return true;
    const char *beyond = t.hard ? "the driver refuses more" : "beyond it the tile shrinks";
    if (t.hard)
        snprintf(why, size, "%llu B of colour per pixel per sample (%u attachment%s); %s holds %u B per sample, %s",
                 (unsigned long long)need, count, count == 1 ? "" : "s", t.name, t.color_bytes, beyond);
    else
        snprintf(why, size, "%llu B of colour per pixel (%u B per sample x %u sample%s, %u attachment%s); %s holds "
                 "%u B per pixel in a 16x16 tile, %s", (unsigned long long)need, per_sample, n, n == 1 ? "" : "s", count,
                 count == 1 ? "" : "s", t.name, t.color_bytes, beyond);
    return false;
}

/* On a tile with a hard limit (Metal's), a span whose colour alone is over
 * it cannot be rendered at all: a compile error naming it and its
 * attachments. */
rg_result rg__spans_fit_tile(const rg_graph *g)
{
    const rg_tile_info t = g->tile;
    for (uint32_t s = 0; t.hard && s < g->decl.span_count; s++) {
        const rg__span *span = &g->decl.spans[s];
        const rg_rendering_desc *d = &span->desc;
        char why[256], names[256] = "";
        if (d->color_count == 0 || rg__culled(g, span->begin_cmd))
            continue;
        VkSampleCountFlagBits samples = g->decl.resources[rg__texture_index(g, d->colors[0].texture)].samples;
        if (rg__tile_fits(g, d->colors, d->color_count, samples, why, sizeof why))
            continue;
        size_t len = 0;
        for (uint32_t c = 0; c < d->color_count && len < sizeof names; c++) {
            int n = snprintf(names + len, sizeof names - len, "%s'%s'", c ? ", " : "",
                             g->decl.resources[rg__texture_index(g, d->colors[c].texture)].name);
            len += n > 0 ? (size_t)n : 0;
        }
        return rg__fail(g, RG_ERROR_UNSUPPORTED, "span '%s' (colour %s) needs %s: the device cannot render it; "
                        "use fewer or smaller colour attachments", g->decl.cmds[span->begin_cmd].name, names, why);
    }
    return RG_SUCCESS;
}

/* Whether the color attachments of the instance and s together fit the device and its tile; else the reason. */
static bool colors_fit(const rg_graph *g, const uint32_t *spans, uint32_t count, uint32_t s, char *reason)
{
    const rg_device_caps *caps = &g->caps;
    uint32_t colors = 0;
    rg_attachment seen[2 * RG_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i <= count; i++) {
        const rg_rendering_desc *d = &span_of(g, i < count ? spans[i] : s)->desc;
        for (uint32_t c = 0; c < d->color_count; c++) {
            bool dup = false;
            for (uint32_t k = 0; k < colors && !dup; k++)
                dup = rg__same_view(g, &seen[k], &d->colors[c]);
            if (!dup)
                seen[colors++] = d->colors[c];
        }
    }
    uint32_t max_colors = caps->max_color_attachments ? caps->max_color_attachments : RG_MAX_COLOR_ATTACHMENTS;
    if (max_colors > RG_MAX_COLOR_ATTACHMENTS)
        max_colors = RG_MAX_COLOR_ATTACHMENTS;
    if (colors > max_colors)
        return rg__merge_why(reason, "the instance would have %u color attachments (at most %u)", colors, max_colors);
    char why[sizeof ((rg__merge_note *)0)->reason];
    if (!rg__tile_fits(g, seen, colors, span_samples(g, s), why, sizeof why))
        return rg__merge_why(reason, "the instance would need %s", why);
    return true;
}

/* Whether access bi of s may follow the instance's access ai (*input: read pixel-locally); else the reason. */
static bool pair_allows(const rg_graph *g, uint32_t s, uint32_t ai, uint32_t bi, bool *input, char *reason)
{
    const rg__access *a = &g->decl.accesses[ai], *b = &g->decl.accesses[bi];
    if (a->role == RG__ROLE_LIFETIME || !overlap(g, a, b))
        return true;
    bool hazard = a->write || b->write || a->layout != b->layout;
    if (!hazard)
        return true;
    bool is_depth = (a->range.aspect & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) != 0;
    if (b->local && a->role == RG__ROLE_ATTACHMENT && rg__ranges_equal(&a->range, &b->range)) {
        if (is_depth && !g->caps.local_read_depth_stencil)
            return rg__merge_why(reason, "'%s' reads depth/stencil '%s' pixel-locally, and the device lacks "
                       "dynamicRenderingLocalReadDepthStencilAttachments", cmd_name(g, bi),
                       g->decl.resources[b->resource].name);
        *input = true;
        return true;
    }
    if (b->role == RG__ROLE_ATTACHMENT && a->role == RG__ROLE_ATTACHMENT && rg__ranges_equal(&a->range, &b->range) &&
        a->layout == b->layout && attachment_load(g, s, b) == VK_ATTACHMENT_LOAD_OP_LOAD)
        return true;
    return rg__merge_why(reason, "'%s' %s texture '%s' other than pixel-locally after '%s' %s it", cmd_name(g, bi),
               b->write ? "writes" : "reads", g->decl.resources[b->resource].name, cmd_name(g, ai),
               a->write ? "wrote" : "read");
}

/* Whether s's accesses may follow the instance's (*inputs: those read pixel-locally); else the reason. */
static bool accesses_allow(const rg_graph *g, const uint32_t *spans, uint32_t count, uint32_t s, uint32_t *inputs,
                           char *reason)
{
    uint32_t sf, se;
    rg__span_accesses(g, s, &sf, &se);
    for (uint32_t bi = sf; bi < se; bi++) {
        if (g->decl.accesses[bi].role == RG__ROLE_LIFETIME)
            continue;
        bool input = false;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t f, e;
            rg__span_accesses(g, spans[i], &f, &e);
            for (uint32_t ai = f; ai < e; ai++)
                if (!pair_allows(g, s, ai, bi, &input, reason))
                    return false;
        }
        if (input)
            (*inputs)++;
    }
    return true;
}

bool rg__merge_may_join(const rg_graph *g, const uint32_t *spans, uint32_t count, uint32_t s, char *reason)
{
    const rg_device_caps *caps = &g->caps;
    uint32_t inputs = 0;
    if (!same_frame(g, spans[0], s, reason) || !depth_allows(g, spans[0], s, reason) ||
        !resolves_allow(g, spans, count, reason) || !colors_fit(g, spans, count, s, reason) ||
        !accesses_allow(g, spans, count, s, &inputs, reason))
        return false;
    if (caps->max_input_attachments && inputs > caps->max_input_attachments)
        return rg__merge_why(reason, "'%s' would read %u input attachments (at most %u)", span_name(g, s), inputs,
                   caps->max_input_attachments);
    return true;
}
