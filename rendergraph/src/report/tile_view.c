/* The tile view of a compiled graph: what the GPU of the graph's tile
 * profile does with each rendering instance (docs/tiles.md, "What each
 * GPU does"), with the traffic of report_traffic.c. The rules, per
 * instance of W x H pixels and L layers at S samples, colour c and
 * depth/stencil d bytes per pixel per sample:
 *
 *   - Mali: half of each tile buffer holds a tile. From the model's
 *     largest square tile, the tile halves (height first) while the colour
 *     c x S x area is over half the colour buffer, or, with a depth
 *     attachment, 4 B x S x area over half the depth buffer; never below
 *     4x4, never refused.
 *   - Apple: c over Metal's limit per sample fails compile (the merge
 *     rules: rg__spans_fit_tile). Apple7 keeps
 *     c x S x area within its colour bytes per tile, stepping 32x32,
 *     32x16, 16x16; over it at 16x16 the last colour attachments spill to
 *     memory until the rest fit, and each spilled one's W x H x L x S x
 *     texel bytes count as spills.
 *   - Adreno: bins = (c + d) x S x W x H x L over GMEM, rounded up.
 *
 * The tile-memory layer (tests/layers/tile_memory/profile.c) applies the
 * same rules to what reaches the driver; tile_model_* CTests hold the two
 * equal.
 */
#include "compile/stages.h"
#include "report/stages.h"

#include <stdio.h>
#include <string.h>

static uint32_t texel_bytes(const rg_graph *g, uint32_t ri)
{
    return rg_format_get_info(g->decl.resources[ri].format).block_size;
}

/* Halves the tile (height first) while it is larger than `least` pixels
 * and per_pixel x area is over budget, or z x area over z_budget. */
static void shrink(rg_tile_view *v, uint32_t least, uint64_t per_pixel, uint64_t budget, uint64_t z,
                   uint64_t z_budget)
{
    uint32_t w = v->tile_width, h = v->tile_height;
    while (w * h > least && (per_pixel * w * h > budget || z * w * h > z_budget)) {
        if (w == h)
            h /= 2;
        else
            w /= 2;
    }
    v->tile_width = w;
    v->tile_height = h;
}

/* Mali: the tile half of each of the colour and depth buffers holds. */
static void mali_tile(const rg_tile_info *t, rg_tile_view *v, bool depth)
{
    v->tile_width = t->tile_width;
    v->tile_height = t->tile_height;
    shrink(v, 16, (uint64_t)v->color_bytes * v->samples, t->tile_memory / 2, depth ? 4ull * v->samples : 0,
           t->depth_memory / 2);
}

/* Apple7: the tile its colour bytes per tile hold, else the spill. */
static void apple_tile(const rg_graph *g, const rg_tile_info *t, const rg__instance *in, rg_tile_view *v)
{
    uint64_t color = (uint64_t)v->color_bytes * v->samples;
    v->tile_width = t->tile_width;
    v->tile_height = t->tile_height;
    shrink(v, 256, color, t->tile_memory, 0, 0);
    uint32_t w = v->tile_width, h = v->tile_height;
    uint64_t layer_pixels = (uint64_t)v->width * v->height * v->layers * v->samples;
    for (uint32_t u = in->color_count; u > 0 && color * w * h > t->tile_memory; u--) {
        uint32_t bytes = texel_bytes(g, in->colors[u - 1].resource);
        color -= (uint64_t)bytes * v->samples;
        v->spilled++;
        v->traffic.spills += layer_pixels * bytes;
    }
}

static void decide(const rg_graph *g, const rg__instance *in, rg_tile_view *v)
{
    const rg_tile_info *t = &g->tile;
    if (t->hard && t->tile_memory)
        apple_tile(g, t, in, v);
    else if (t->tile_width)
        mali_tile(t, v, in->has_depth);
    else if (t->tile_memory) {
        uint64_t bytes = (uint64_t)(v->color_bytes + v->depth_bytes) * v->samples * v->width * v->height * v->layers;
        v->bins = (uint32_t)((bytes + t->tile_memory - 1) / t->tile_memory);
        v->bins = v->bins ? v->bins : 1;
    }
}

rg_result rg__tile_views(const rg_graph *g, rg_tile_view *views, rg_tile_traffic *outside, rg_tile_traffic *total)
{
    const rg__compiled *c = g->compiled;
    rg_tile_traffic *per = rg__malloc(g, ((size_t)c->merge.instance_count + 1) * sizeof *per);
    rg_result r = per ? rg__tile_traffic(g, per, outside, total) : RG_ERROR_OUT_OF_MEMORY;
    for (uint32_t ii = 0; r == RG_SUCCESS && ii < c->merge.instance_count; ii++) {
        const rg__instance *in = &c->merge.instances[ii];
        const rg__span *first = &g->decl.spans[c->merge.instance_spans[in->first]];
        rg_tile_view *v = &views[ii];
        *v = (rg_tile_view){.width = first->area.extent.width, .height = first->area.extent.height,
                            .layers = first->layer_count ? first->layer_count : 1, .samples = 1, .traffic = per[ii]};
        for (uint32_t u = 0; u <= in->color_count; u++) {
            const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
            if (!att)
                continue;
            v->attachments[v->attachment_count++] = att->resource;
            *(u < in->color_count ? &v->color_bytes : &v->depth_bytes) += texel_bytes(g, att->resource);
            v->samples = (uint32_t)g->decl.resources[att->resource].samples;
        }
        decide(g, in, v);
        v->traffic.total += v->traffic.spills;
        total->spills += v->traffic.spills;
        total->total += v->traffic.spills;
    }
    rg__free(g, per);
    return r;
}

uint32_t rg_instance_count(const rg_graph *graph)
{
    return rg__query_compiled(graph, "rg_instance_count") ? graph->compiled->merge.instance_count : 0;
}

rg_result rg_tile_view_get(const rg_graph *graph, uint32_t instance, rg_tile_view *out)
{
    rg_result r = rg__query_start(graph, "rg_tile_view_get", out, sizeof *out);
    if (r != RG_SUCCESS)
        return r;
    uint32_t count = graph->compiled->merge.instance_count;
    if (instance != RG_INDEX_NONE && instance >= count)
        return rg__report(graph, RG_ERROR_INVALID_ARGUMENT,
                          "rg_tile_view_get: instance %u of graph '%s', which has %u rendering instances", instance,
                          graph->name, count);
    rg_tile_traffic outside, total;
    rg_tile_view *views = rg__malloc(graph, ((size_t)count + 1) * sizeof *views);
    r = views ? rg__tile_views(graph, views, &outside, &total) : RG_ERROR_OUT_OF_MEMORY;
    if (r == RG_SUCCESS && instance == RG_INDEX_NONE)
        out->traffic = total;
    else if (r == RG_SUCCESS)
        *out = views[instance];
    rg__free(graph, views);
    if (r != RG_SUCCESS)
        return rg__report(graph, r, "rg_tile_view_get: out of memory");
    return RG_SUCCESS;
}

static double mib(uint64_t v) { return (double)v / (1024.0 * 1024.0); }

size_t rg_tile_view_text(const rg_tile_view *v, rg_tile_profile profile, char *buf, size_t size)
{
    rg_tile_info t = rg_tile_profile_info(profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : profile);
    char what[160];
    if (!v)
        return 0;
    if (v->spilled)
        snprintf(what, sizeof what, "tile %ux%u, %u colour attachment%s spilled to memory", v->tile_width,
                 v->tile_height, v->spilled, v->spilled == 1 ? "" : "s");
    else if (v->tile_width)
        snprintf(what, sizeof what, "tile %ux%u%s", v->tile_width, v->tile_height,
                 v->tile_width * v->tile_height < t.tile_width * t.tile_height ? " (shrunk)" : " (full)");
    else if (v->bins)
        snprintf(what, sizeof what, "%u bin%s of %llu KiB of GMEM", v->bins, v->bins == 1 ? "" : "s",
                 (unsigned long long)(t.tile_memory / 1024));
    else if (t.hard)
        snprintf(what, sizeof what, "within Metal's %u B per sample", t.color_bytes);
    else
        snprintf(what, sizeof what, "no tile memory");
    const rg_tile_traffic *x = &v->traffic;
    int n = snprintf(buf, size,
                     "%ux%ux%u, %u sample%s, colour %u B + depth %u B per pixel per sample: %s; traffic loads "
                     "%.2f, stores %.2f, resolves %.2f, sampled %.2f, spills %.2f, total %.2f MiB",
                     v->width, v->height, v->layers, v->samples, v->samples == 1 ? "" : "s", v->color_bytes,
                     v->depth_bytes, what, mib(x->loads), mib(x->stores), mib(x->resolves), mib(x->sampled),
                     mib(x->spills), mib(x->total));
    return n < 0 ? 0 : (size_t)n;
}
