/* A tile profile held by the layer (VKGRAPH_TILE_PROFILE, read at each
 * vkCreateDevice; docs/tiles.md has the budgets and their sources):
 *   apple2, apple4, apple7   a rendering instance whose colour attachments
 *                            need more bytes per pixel per sample than the
 *                            family holds is an error (VKGRAPH-tile-budget),
 *                            as Metal refuses such a pass;
 *   mali-g71, mali-bifrost, mali-valhall
 *                            over the budget (every sample counted) an INFO
 *                            message says how far the 16x16 tile shrinks;
 *   adreno6, adreno7         an INFO message gives the instance's bins of
 *                            GMEM (colour and depth, every sample);
 *   desktop                  nothing.
 * With any profile the layer also adds up what each rendering instance
 * moves between tile and memory (loads, stores, resolves of its
 * attachments over its render area) and the most lazily allocated bytes
 * live at once, and with VKGRAPH_TILE_REPORT=path writes them to that
 * file at vkDestroyDevice. */
#include "layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct profile_row {
    const char *name;
    uint32_t color_bytes;             /* per pixel: per sample (Apple) or with every sample */
    bool per_sample, hard;
    uint64_t gmem;                    /* Adreno: bytes binned into */
} profile_row;

static const profile_row rows[] = {
    {"desktop", 0, false, false, 0},
    {"apple2", 32, true, true, 0},
    {"apple4", 64, true, true, 0},
    {"apple7", 128, true, true, 0},
    {"mali-g71", 16, false, false, 0},
    {"mali-bifrost", 32, false, false, 0},
    {"mali-valhall", 32, false, false, 0},
    {"adreno6", 0, false, false, 1u << 20},
    {"adreno7", 0, false, false, 2u << 20},
};

void tile_profile_reset(device_data *d)
{
    const char *name = getenv("VKGRAPH_TILE_PROFILE");
    const char *report = getenv("VKGRAPH_TILE_REPORT");
    d->profile = -1;
    for (size_t i = 0; name && i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(name, rows[i].name) == 0)
            d->profile = (int)i;
    snprintf(d->report_path, sizeof d->report_path, "%s", report ? report : "");
    memset(&d->traffic, 0, sizeof d->traffic); /* lazy_peak too: counted with a profile or without */
}

/* Texel bytes of the colour formats render targets use; 4 for another. */
static uint32_t texel_bytes(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_UINT: return 1;
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R16_UINT: case VK_FORMAT_D16_UNORM: return 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_UINT:
    case VK_FORMAT_R32G32_SFLOAT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_D32_SFLOAT_S8_UINT: return 8;
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

/* The traffic of one attachment over the render area. */
static void count(device_data *d, const VkRenderingAttachmentInfo *a, uint64_t pixels)
{
    if (!a || !a->imageView)
        return;
    bound b = bound_of(d, a->imageView);
    uint64_t bytes = pixels * texel_bytes(b.format) * b.samples;
    pthread_mutex_lock(&d->lock);
    if (a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD)
        d->traffic.loads += bytes;
    if (a->storeOp == VK_ATTACHMENT_STORE_OP_STORE)
        d->traffic.stores += bytes;
    if (a->resolveImageView && a->resolveMode != VK_RESOLVE_MODE_NONE)
        d->traffic.resolves += pixels * texel_bytes(b.format);
    if (b.lazy)
        d->traffic.lazy_attachments++;
    pthread_mutex_unlock(&d->lock);
}

void tile_profile_begin(device_data *d, const VkRenderingInfo *info)
{
    if (d->profile < 0)
        return;
    uint64_t pixels = (uint64_t)info->renderArea.extent.width * info->renderArea.extent.height;
    uint32_t color = 0, depth = 0, samples = 1;
    for (uint32_t i = 0; i < info->colorAttachmentCount; i++) {
        const VkRenderingAttachmentInfo *a = &info->pColorAttachments[i];
        count(d, a, pixels);
        if (!a->imageView)
            continue;
        bound b = bound_of(d, a->imageView);
        color += texel_bytes(b.format);
        samples = b.samples;
    }
    count(d, info->pDepthAttachment, pixels);
    if (info->pDepthAttachment && info->pDepthAttachment->imageView)
        depth = texel_bytes(bound_of(d, info->pDepthAttachment->imageView).format);
    pthread_mutex_lock(&d->lock);
    d->traffic.passes++;
    pthread_mutex_unlock(&d->lock);
    const profile_row *p = &rows[d->profile];
    uint32_t need = p->per_sample ? color : color * samples;
    char text[512];
    if (p->color_bytes && need > p->color_bytes && p->hard) {
        snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: %u colour attachments need %u B per "
                 "pixel per sample; profile %s holds %u B: Metal refuses this pass (" LAYER_NAME ")",
                 info->colorAttachmentCount, need, p->name, p->color_bytes);
        report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, text);
    } else if (p->color_bytes && need > p->color_bytes) {
        uint32_t shrink = (need + p->color_bytes - 1) / p->color_bytes; /* 2: 16x8, 4: 8x8 */
        snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: colour of %u B per pixel (%u "
                 "samples) over profile %s's %u B: the 16x16 tile shrinks to %ux%u (" LAYER_NAME ")",
                 need, samples, p->name, p->color_bytes, shrink >= 4 ? 8 : 16, shrink >= 2 ? 8 : 16);
        report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, text);
    } else if (p->gmem) {
        uint64_t bytes = pixels * (color + depth) * samples;
        snprintf(text, sizeof text, "[ VKGRAPH-tile-budget ] vkCmdBeginRendering: %llu bytes of attachments (%u B "
                 "per pixel x %u samples): %llu bin%s of profile %s's %llu KiB of GMEM (" LAYER_NAME ")",
                 (unsigned long long)bytes, color + depth, samples,
                 (unsigned long long)((bytes + p->gmem - 1) / p->gmem), bytes > p->gmem ? "s" : "", p->name,
                 (unsigned long long)(p->gmem / 1024));
        report(d, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, text);
    }
}

void tile_profile_finish(device_data *d)
{
    if (d->profile < 0 || !d->report_path[0])
        return;
    FILE *f = fopen(d->report_path, "w");
    if (!f)
        return;
    fprintf(f, "profile %s\npasses %llu\nloads %llu\nstores %llu\nresolves %llu\nlazy_attachments %llu\n"
            "lazy_peak %llu\n",
            rows[d->profile].name, (unsigned long long)d->traffic.passes, (unsigned long long)d->traffic.loads,
            (unsigned long long)d->traffic.stores, (unsigned long long)d->traffic.resolves,
            (unsigned long long)d->traffic.lazy_attachments, (unsigned long long)d->traffic.lazy_peak);
    fclose(f);
}
