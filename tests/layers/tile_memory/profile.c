/* A tile profile held by the layer (VKGRAPH_TILE_PROFILE, read at each
 * vkCreateDevice; docs/tiles.md has the budgets, their sources and the
 * rules):
 *   apple2, apple4, apple7   a rendering instance whose colour attachments
 *                            need more bytes per pixel per sample than Metal
 *                            holds is an error (VKGRAPH-tile-budget), as
 *                            Metal refuses such a pass;
 *   mali-*                   an INFO message gives the tile the model's
 *                            colour and depth buffers hold;
 *   adreno*                  an INFO message gives the instance's bins of
 *                            GMEM (colour and depth, every sample);
 *   desktop                  nothing;
 *   all                      no message, every profile's line (below).
 * With any profile the layer also adds up what each rendering instance
 * moves between tile and memory (loads, stores, resolves of its
 * attachments over its render area and layers) and the most lazily
 * allocated bytes live at once, and with VKGRAPH_TILE_REPORT=path writes
 * them to that file at vkDestroyDevice, then a line per rendering instance
 * (per profile with "all") in the words of rg_tile_view: the library's
 * tile view of the same frame must print the same lines
 * (tests/frames/tile_model.c). The rules are this file's own, written from
 * docs/tiles.md, not the library's code. */
#include "layer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RULE_NONE, RULE_APPLE, RULE_MALI, RULE_ADRENO };

typedef struct profile_row {
    const char *name;
    int rule;
    uint32_t metal_limit;             /* Apple: colour per pixel per sample */
    uint32_t tile;                    /* Mali, Apple7: the largest tile's side */
    uint64_t color, depth;            /* Mali: buffers per core; Apple7: colour per tile; Adreno: GMEM */
} profile_row;

#define K 1024u
static const profile_row rows[] = {
    {"desktop", RULE_NONE, 0, 0, 0, 0},
    {"apple2", RULE_APPLE, 32, 0, 0, 0},
    {"apple4", RULE_APPLE, 64, 0, 0, 0},
    {"apple7", RULE_APPLE, 128, 32, 32 * K, 0},
    {"mali-g71", RULE_MALI, 0, 16, 4 * K, 4 * K},
    {"mali-g72", RULE_MALI, 0, 16, 8 * K, 4 * K},
    {"mali-bifrost", RULE_MALI, 0, 16, 8 * K, 4 * K},
    {"mali-g76", RULE_MALI, 0, 16, 16 * K, 8 * K},
    {"mali-g57", RULE_MALI, 0, 16, 16 * K, 8 * K},
    {"mali-valhall", RULE_MALI, 0, 16, 16 * K, 8 * K},
    {"mali-g310", RULE_MALI, 0, 32, 16 * K, 16 * K},
    {"mali-g610", RULE_MALI, 0, 32, 32 * K, 32 * K},
    {"mali-g720", RULE_MALI, 0, 64, 64 * K, 64 * K},
    {"adreno6", RULE_ADRENO, 0, 0, 1024 * K, 0},
    {"adreno7", RULE_ADRENO, 0, 0, 2048 * K, 0},
    {"adreno-a810", RULE_ADRENO, 0, 0, 576 * K, 0},
    {"adreno-a840", RULE_ADRENO, 0, 0, 18 * 1024 * K, 0},
    {"adreno-x2-85", RULE_ADRENO, 0, 0, 21 * 1024 * K, 0},
};
#define ROW_COUNT (int)(sizeof rows / sizeof rows[0])
#define ALL_PROFILES ROW_COUNT

void tile_profile_reset(device_data *d)
{
    const char *name = getenv("VKGRAPH_TILE_PROFILE");
    const char *report = getenv("VKGRAPH_TILE_REPORT");
    d->profile = name && strcmp(name, "all") == 0 ? ALL_PROFILES : -1;
    for (int i = 0; name && i < ROW_COUNT; i++)
        if (strcmp(name, rows[i].name) == 0)
            d->profile = i;
    snprintf(d->report_path, sizeof d->report_path, "%s", report ? report : "");
    memset(&d->traffic, 0, sizeof d->traffic); /* lazy_peak too: counted with a profile or without */
    free(d->lines);
    d->lines = NULL;
    d->lines_len = d->lines_cap = 0;
}

/* Texel bytes of the formats render targets use; 4 for another. */
static uint32_t texel_bytes(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_UINT: case VK_FORMAT_S8_UINT: return 1;
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_D16_UNORM: return 2;
    case VK_FORMAT_D16_UNORM_S8_UINT: return 3;
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return 5;
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_UINT:
    case VK_FORMAT_R32G32_SFLOAT: case VK_FORMAT_R32G32_UINT: return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: case VK_FORMAT_R32G32B32A32_UINT: return 16;
    case VK_FORMAT_R64G64B64A64_UINT: case VK_FORMAT_R64G64B64A64_SFLOAT: return 32;
    default: return 4;
    }
}

/* An attachment's format, samples and laziness through its view. */
typedef struct bound {
    VkFormat format;
    uint32_t samples;
    bool lazy;
} bound;

static bound bound_of(device_data *d, VkImageView view)
{
    bound b = {VK_FORMAT_UNDEFINED, 1, false};
    uint64_t image = 0, format = 0, v = 0;
    pthread_mutex_lock(&d->lock);
    if (view && tile_map_get(&d->views, (uint64_t)view, &image) &&
        tile_map_get(&d->view_formats, (uint64_t)view, &format)) {
        b.format = (VkFormat)format;
        if (tile_map_get(&d->images, image, &v)) {
            b.samples = (uint32_t)((v >> IMAGE_SAMPLES_SHIFT) & 0xff);
            b.lazy = (v & IMAGE_LAZY) != 0;
        }
    }
    pthread_mutex_unlock(&d->lock);
    if (b.samples == 0)
        b.samples = 1;
    return b;
}

static void report(device_data *d, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char *text)
{
    tile_report(d->instance, "VKGRAPH-tile-budget", severity, text);
}

/* What one instance moves and holds. */
typedef struct instance_use {
    uint32_t width, height, layers, samples, color_count;
    uint32_t color, depth;            /* per pixel per sample */
    uint32_t texel[8];                /* each colour attachment's */
    bool has_depth;
    uint64_t loads, stores, resolves;
} instance_use;

/* The traffic of one attachment over the render area and layers. */
static void count(device_data *d, const VkRenderingAttachmentInfo *a, instance_use *u, bool color)
{
    if (!a || !a->imageView)
        return;
    bound b = bound_of(d, a->imageView);
    uint64_t pixels = (uint64_t)u->width * u->height * u->layers;
    uint64_t bytes = pixels * texel_bytes(b.format) * b.samples;
    if (a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD)
        u->loads += bytes;
    if (a->storeOp == VK_ATTACHMENT_STORE_OP_STORE)
        u->stores += bytes;
    if (a->resolveImageView && a->resolveMode != VK_RESOLVE_MODE_NONE)
        u->resolves += pixels * texel_bytes(bound_of(d, a->resolveImageView).format);
    u->samples = b.samples;
    if (color && u->color_count < 8)
        u->texel[u->color_count++] = texel_bytes(b.format);
    if (color)
        u->color += texel_bytes(b.format);
    else {
        u->depth += texel_bytes(b.format);
        u->has_depth = true;
    }
    pthread_mutex_lock(&d->lock);
    d->traffic.lazy_attachments += b.lazy;
    pthread_mutex_unlock(&d->lock);
}

static void add_line(device_data *d, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    pthread_mutex_lock(&d->lock);
    if (d->lines_len + (size_t)n + 1 > d->lines_cap) {
        size_t cap = d->lines_cap ? d->lines_cap * 2 : 4096;
        while (cap < d->lines_len + (size_t)n + 1)
            cap *= 2;
        char *grown = realloc(d->lines, cap);
        if (grown) {
            d->lines = grown;
            d->lines_cap = cap;
        }
    }
    if (d->lines_len + (size_t)n + 1 <= d->lines_cap) {
        memcpy(d->lines + d->lines_len, text, (size_t)n + 1);
        d->lines_len += (size_t)n;
    }
    pthread_mutex_unlock(&d->lock);
}

/* The tile profile row p's GPU does with the instance: tile, bins,
 * spilled attachments and their bytes, or refused; told (one profile)
 * and written as the instance's line. */
static void apply(device_data *d, int p, const instance_use *u, uint64_t instance, bool tell)
{
    const profile_row *r = &rows[p];
    uint32_t tw = 0, th = 0, bins = 0, spilled = 0;
    uint64_t spills = 0, s = u->samples, color = (uint64_t)u->color * s;
    char text[512];
    if (r->rule == RULE_APPLE && u->color > r->metal_limit) {
        snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: %u colour attachments need %u B "
                 "per pixel per sample; profile %s holds %u B: Metal refuses this pass (" LAYER_NAME ")",
                 u->color_count, u->color, r->name, r->metal_limit);
        if (tell)
            report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, text);
        add_line(d, "%s instance %llu refused\n", r->name, (unsigned long long)instance);
        return;
    }
    if (r->rule == RULE_APPLE && r->tile) {
        /* 32x32, 32x16, 16x16 within the colour per tile; then spill the
         * last colour attachments until the rest fit 16x16. */
        tw = th = r->tile;
        while (tw * th > 256 && color * tw * th > r->color)
            th == tw ? (th /= 2) : (tw /= 2);
        for (uint32_t k = u->color_count; k > 0 && color * tw * th > r->color; k--) {
            color -= u->texel[k - 1] * s;
            spilled++;
            spills += (uint64_t)u->width * u->height * u->layers * s * u->texel[k - 1];
        }
    } else if (r->rule == RULE_MALI) {
        /* Half of each buffer per tile; depth counts 4 B a sample. */
        uint64_t z = u->has_depth ? 4 * s : 0;
        tw = th = r->tile;
        while (tw * th > 16 && (color * tw * th > r->color / 2 || z * tw * th > r->depth / 2))
            th == tw ? (th /= 2) : (tw /= 2);
        if (tell && (tw < r->tile || th < r->tile)) {
            snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: colour of %llu B per pixel "
                     "(%u samples)%s: profile %s's %ux%u tile shrinks to %ux%u (" LAYER_NAME ")",
                     (unsigned long long)color, u->samples, u->has_depth ? " and depth" : "", r->name, r->tile,
                     r->tile, tw, th);
            report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, text);
        }
    } else if (r->rule == RULE_ADRENO) {
        uint64_t bytes = (uint64_t)(u->color + u->depth) * s * u->width * u->height * u->layers;
        bins = (uint32_t)((bytes + r->color - 1) / r->color);
        bins = bins ? bins : 1;
        if (tell) {
            snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: %llu bytes of attachments "
                     "(%u B per pixel x %u samples): %u bin%s of profile %s's %llu KiB of GMEM (" LAYER_NAME ")",
                     (unsigned long long)bytes, u->color + u->depth, u->samples, bins, bins == 1 ? "" : "s",
                     r->name, (unsigned long long)(r->color / 1024));
            report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, text);
        }
    }
    add_line(d, "%s instance %llu area %ux%ux%u samples %u color %u depth %u tile %ux%u bins %u spilled %u loads "
             "%llu stores %llu resolves %llu spills %llu\n", r->name, (unsigned long long)instance, u->width,
             u->height, u->layers, u->samples, u->color, u->depth, tw, th, bins, spilled,
             (unsigned long long)u->loads, (unsigned long long)u->stores, (unsigned long long)u->resolves,
             (unsigned long long)spills);
}

void tile_profile_begin(device_data *d, const VkRenderingInfo *info)
{
    if (d->profile < 0 || (info->flags & VK_RENDERING_RESUMING_BIT))
        return;
    instance_use u = {.width = info->renderArea.extent.width, .height = info->renderArea.extent.height,
                      .layers = info->viewMask ? (uint32_t)__builtin_popcount(info->viewMask)
                                               : (info->layerCount ? info->layerCount : 1),
                      .samples = 1};
    for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
        count(d, &info->pColorAttachments[i], &u, true);
    count(d, info->pDepthAttachment, &u, false);
    /* Rendered multisampled into single-sampled attachments: the tile
     * holds every sample; the stores are the attachments' own. */
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT &&
            ((const VkMultisampledRenderToSingleSampledInfoEXT *)(const void *)s)->multisampledRenderToSingleSampledEnable)
            u.samples = ((const VkMultisampledRenderToSingleSampledInfoEXT *)(const void *)s)->rasterizationSamples;
    pthread_mutex_lock(&d->lock);
    uint64_t instance = d->traffic.passes++;
    d->traffic.loads += u.loads;
    d->traffic.stores += u.stores;
    d->traffic.resolves += u.resolves;
    pthread_mutex_unlock(&d->lock);
    for (int p = d->profile == ALL_PROFILES ? 0 : d->profile; p < ROW_COUNT; p++) {
        apply(d, p, &u, instance, d->profile != ALL_PROFILES);
        if (d->profile != ALL_PROFILES)
            break;
    }
}

void tile_profile_finish(device_data *d)
{
    FILE *f = d->profile >= 0 && d->report_path[0] ? fopen(d->report_path, "w") : NULL;
    if (f) {
        fprintf(f, "profile %s\npasses %llu\nloads %llu\nstores %llu\nresolves %llu\nlazy_attachments %llu\n"
                "lazy_peak %llu\n%s",
                d->profile == ALL_PROFILES ? "all" : rows[d->profile].name, (unsigned long long)d->traffic.passes,
                (unsigned long long)d->traffic.loads, (unsigned long long)d->traffic.stores,
                (unsigned long long)d->traffic.resolves, (unsigned long long)d->traffic.lazy_attachments,
                (unsigned long long)d->traffic.lazy_peak, d->lines ? d->lines : "");
        fclose(f);
    }
    free(d->lines);
    d->lines = NULL;
    d->lines_len = d->lines_cap = 0;
}
