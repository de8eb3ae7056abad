/* Compile stage "fold": multisampled attachments rendered straight into
 * their single-sampled resolve targets (VK_EXT_multisampled_render_to_
 * single_sampled), so no multisampled image exists. A span folds when the
 * device offers the feature (rg_device_caps.msaa_to_single_sampled), the
 * graph allows it (rg_graph_desc.msaa_fold), it is not merged with
 * another span, and every multisampled attachment of it:
 *   - is a created texture, not a history half;
 *   - is used by no command but its span's begin and end (nothing reads
 *     it, in the span or after), and not loaded (load op CLEAR or
 *     DONT_CARE: no earlier contents);
 *   - is resolved at the span's end into a created single-sampled texture
 *     whose format supports the feature at that sample count (asked of the
 *     device where the graph has one).
 * or, with no resolve target, is discarded at the span's end (store
 * DONT_CARE): such an attachment (a depth buffer, typically) folds in place,
 * created at one sample and rendered multisampled all the same.
 * Then the span renders into the targets with the attachments' load ops
 * and clear values, stores them, and resolves implicitly; the folded
 * textures have no accesses left for lifetimes, barriers or placement,
 * and their targets (and the textures folded in place) are created with
 * the MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED flag. Every multisampled attachment gets a note saying which
 * way it went, and why not where it did not.
 */
#include "base/device.h"
#include "compile/stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool depth_stencil(VkFormat f) { return rg_format_has_depth(f) || rg_format_has_stencil(f); }

/* An attachment of span s: a multisampled texture and its resolve target. */
typedef struct fold_att {
    uint32_t texture, target;         /* resource indices; target RG__NONE: none */
    VkAttachmentLoadOp load;
    VkAttachmentStoreOp store;
} fold_att;

static uint32_t span_atts(const rg_graph *g, uint32_t s, fold_att *out)
{
    const rg_rendering_desc *d = &g->decl.spans[s].desc;
    uint32_t n = 0;
    for (uint32_t c = 0; c <= d->color_count; c++) {
        const rg_attachment *a = c < d->color_count ? &d->colors[c] : &d->depth;
        if (a->texture.id == 0)
            continue;
        out[n++] = (fold_att){rg__texture_index(g, a->texture),
                              a->resolve.id ? rg__texture_index(g, a->resolve) : RG__NONE, a->load, a->store};
    }
    return n;
}

/* Whether the device renders format at samples into a single-sampled
 * image of it (device-free: assumed, as the caps claim the feature). */
static bool format_folds(const rg_graph *g, const rg__resource *target, VkSampleCountFlagBits samples)
{
    if (!g->dev)
        return true;
    VkImageFormatProperties p;
    VkResult vr = g->dev->vk.GetPhysicalDeviceImageFormatProperties(
        g->dev->physical, target->format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
        target->declared_usage | (depth_stencil(target->format)
                                      ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                      : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT),
        VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT, &p);
    return vr == VK_SUCCESS && (p.sampleCounts & samples);
}

/* Why attachment a of span s cannot fold (written into why), or false. */
static bool refuses(const rg_graph *g, uint32_t s, const fold_att *a, char *why, size_t size)
{
    const rg__resource *r = &g->decl.resources[a->texture];
    if (a->target == RG__NONE && a->store != VK_ATTACHMENT_STORE_OP_DONT_CARE)
        return snprintf(why, size, "no resolve target, and stored"), true;
    if (r->imported || rg__history(r))
        return snprintf(why, size, "%s", r->imported ? "imported" : "a history half"), true;
    if (a->load == VK_ATTACHMENT_LOAD_OP_LOAD)
        return snprintf(why, size, "loaded (load op LOAD)"), true;
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        for (uint32_t k = 0; !rg__culled(g, c) && k < cmd->access_count; k++) {
            const rg__access *x = &g->decl.accesses[cmd->first_access + k];
            bool own = cmd->span == s && (x->role == RG__ROLE_ATTACHMENT || x->role == RG__ROLE_LIFETIME);
            if (x->resource == a->texture && !own)
                return snprintf(why, size, "'%s' uses it besides its span's attachment", cmd->name), true;
        }
    }
    if (a->target == RG__NONE) /* folds in place */
        return format_folds(g, r, r->samples) ? false
                                               : (snprintf(why, size, "%s at %u samples into a single-sampled image "
                                                           "is not supported by the device",
                                                           rg_format_name(r->format), (unsigned)r->samples),
                                                  true);
    const rg__resource *t = &g->decl.resources[a->target];
    if (t->imported || rg__history(t))
        return snprintf(why, size, "its resolve target '%s' is %s", t->name,
                        t->imported ? "imported" : "a history half"), true;
    if (!format_folds(g, t, r->samples))
        return snprintf(why, size, "%s at %u samples into a single-sampled image is not supported by the device",
                        rg_format_name(t->format), (unsigned)r->samples), true;
    return false;
}

/* A note into *slot (allocated; false when out of memory). */
static bool note(const rg_graph *g, char **slot, const char *fmt, const char *a, const char *b, const char *c)
{
    char text[512];
    snprintf(text, sizeof text, fmt, a, b, c);
    size_t n = strlen(text) + 1;
    rg__free(g, *slot);
    *slot = rg__malloc(g, n);
    if (*slot)
        memcpy(*slot, text, n);
    return *slot != NULL;
}

/* The span-wide reason no attachment of span s folds, or NULL. */
static const char *span_refuses(const rg_graph *g, uint32_t s)
{
    if (g->msaa_fold == RG_FOLD_OFF)
        return "folding is off (rg_graph_desc.msaa_fold)";
    if (!g->caps.msaa_to_single_sampled)
        return "the device has no multisampledRenderToSingleSampled (rg_device_caps.msaa_to_single_sampled)";
    const rg__instance *in = &g->compiled->merge.instances[g->compiled->merge.span_map[s].instance];
    if (in->count > 1)
        return "its span is merged with another (no span of a merged instance resolves, so its multisampled "
               "attachments are stored for the later spans, and the graph does not fold an instance)";
    return NULL;
}

static bool fold_span(const rg_graph *g, uint32_t s, rg__folds *out, uint32_t *into, uint8_t *target,
                      uint8_t *samples)
{
    fold_att atts[RG_MAX_COLOR_ATTACHMENTS + 1];
    uint32_t n = span_atts(g, s, atts), multi = 0, refused = RG__NONE;
    char why[RG_MAX_COLOR_ATTACHMENTS + 1][256];
    for (uint32_t i = 0; i < n; i++) {
        if (g->decl.resources[atts[i].texture].samples == VK_SAMPLE_COUNT_1_BIT)
            continue;
        multi++;
        if (refuses(g, s, &atts[i], why[i], sizeof why[i]) && refused == RG__NONE)
            refused = i;
    }
    if (!multi)
        return true;
    const char *span_name = g->decl.cmds[g->decl.spans[s].begin_cmd].name, *wide = span_refuses(g, s);
    for (uint32_t i = 0; i < n; i++) {
        const rg__resource *r = &g->decl.resources[atts[i].texture];
        char **slot = &out->note[atts[i].texture];
        bool ok = true;
        if (r->samples == VK_SAMPLE_COUNT_1_BIT)
            continue;
        if (wide)
            ok = note(g, slot, "not folded in span '%s': %s%s", span_name, wide, "");
        else if (refused == i)
            ok = note(g, slot, "not folded in span '%s': %s%s", span_name, why[i], "");
        else if (refused != RG__NONE)
            ok = note(g, slot, "not folded in span '%s': '%s' there is not (%s)", span_name,
                      g->decl.resources[atts[refused].texture].name, why[refused]);
        else if (atts[i].target == RG__NONE) {
            target[atts[i].texture] = 1;
            samples[s] = (uint8_t)r->samples;
            ok = note(g, slot, "folded in place: span '%s' renders it multisampled into one sample%s%s, no "
                      "multisampled image", span_name, "", "");
        } else {
            into[atts[i].texture] = atts[i].target;
            target[atts[i].target] = 1;
            samples[s] = (uint8_t)r->samples;
            ok = note(g, slot, "folded: span '%s' renders it into '%s'%s, no multisampled image", span_name,
                      g->decl.resources[atts[i].target].name, "");
        }
        if (!ok)
            return false;
    }
    return true;
}

rg_result rg__compile_fold(const rg_graph *g, rg__folds *out)
{
    uint32_t n = g->decl.resource_count;
    uint32_t *into = rg__malloc(g, ((size_t)n + 1) * sizeof *into);
    uint8_t *target = rg__calloc(g, (size_t)n + 1, 1);
    uint8_t *samples = rg__calloc(g, (size_t)g->decl.span_count + 1, 1);
    *out = (rg__folds){.into = into, .target = target, .span_samples = samples,
                       .note = rg__calloc(g, (size_t)n + 1, sizeof *out->note), .note_count = n};
    if (!into || !target || !samples || !out->note)
        return RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t ri = 0; ri < n; ri++)
        into[ri] = RG__NONE;
    if (g->msaa_fold == RG_FOLD_ON && !g->caps.msaa_to_single_sampled)
        return rg__fail(g, RG_ERROR_UNSUPPORTED,
                        "msaa_fold is RG_FOLD_ON but the device has no multisampledRenderToSingleSampled "
                        "(rg_device_caps.msaa_to_single_sampled)");
    for (uint32_t s = 0; s < g->decl.span_count; s++)
        if (g->compiled->merge.span_map[s].instance != RG__NONE && !fold_span(g, s, out, into, target, samples))
            return RG_ERROR_OUT_OF_MEMORY;
    return RG_SUCCESS;
}

void rg__folds_free(const rg_graph *g, rg__folds *f)
{
    rg__free(g, (void *)f->into);
    rg__free(g, (void *)f->target);
    rg__free(g, (void *)f->span_samples);
    for (uint32_t ri = 0; f->note && ri < f->note_count; ri++)
        rg__free(g, f->note[ri]);
    rg__free(g, f->note);
    *f = (rg__folds){0};
}

void rg__fold_effective(const rg_graph *g, const rg__cmd *cmd, uint32_t ai, VkPipelineStageFlags2 *stage,
                        VkAccessFlags2 *mask, VkImageLayout *layout)
{
    const rg__access *a = &g->decl.accesses[ai];
    if (a->role != RG__ROLE_RESOLVE || cmd->span == RG__NONE || !g->compiled->fold.span_samples ||
        !g->compiled->fold.span_samples[cmd->span] || !g->compiled->fold.target[a->resource] ||
        !depth_stencil(g->decl.resources[a->resource].format))
        return;
    /* A folded depth target is the span's depth attachment: tested and
     * written by the fragment tests, resolved as it is stored. */
    *stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    *mask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    *layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
}
