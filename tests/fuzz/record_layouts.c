/* The recording oracle's layout check: every image subresource's layout
 * followed through the frames, each use checked against it. */
#include "record_check_private.h"

static uint32_t plane_of(VkImageAspectFlags bit)
{
    return bit == VK_IMAGE_ASPECT_COLOR_BIT ? 0 : bit == VK_IMAGE_ASPECT_DEPTH_BIT ? 1 : 2;
}

static VkImageLayout *layouts_of(checker *ck, const nd_image_info *info)
{
    if (info->index >= ck->layout_cap) {
        uint32_t cap = null_device_image_count(ck->nd) + 16;
        VkImageLayout **l = realloc(ck->layouts, cap * sizeof *l);
        CHECK(l != NULL, "out of memory");
        memset(l + ck->layout_cap, 0, (cap - ck->layout_cap) * sizeof *l);
        ck->layouts = l;
        ck->layout_cap = cap;
    }
    if (!ck->layouts[info->index]) /* a new image: UNDEFINED (0) everywhere */
        ck->layouts[info->index] = rc_xcalloc((size_t)3 * info->mips * info->layers, sizeof **ck->layouts);
    return ck->layouts[info->index];
}

static VkImageLayout *slot(VkImageLayout *l, const nd_image_info *info, uint32_t plane, uint32_t mip, uint32_t layer)
{
    return &l[((size_t)plane * info->mips + mip) * info->layers + layer];
}

/* Where a message says a call is. */
typedef struct where {
    const checker *ck;
    const frame *f;
    uint32_t cmd, call;
    const nd_call *c;
} where;

#define AT(w) \
    (w)->ck->o->context, (w)->f->what, (w)->f->chunks[(w)->cmd].batch, (w)->cmd, (w)->call, line_of((w)->c, ~0u, buf)
#define AT_FMT "%s: %s, batch %u, command buffer %u, call %u '%s'"

/* One use or transition of a call, against the tracked layouts. */
static void oracle_use(checker *ck, const where *w, const nd_image_use *u, bool inside)
{
    char buf[LINE];
    CHECK(u->image != VK_NULL_HANDLE,
          AT_FMT ": names %s 0x%llx, which the device does not hold (destroyed, never "
                 "made or of another kind)",
          AT(w), u->transition ? "image" : "an image or view", (unsigned long long)u->named);
    nd_image_info info;
    CHECK(null_device_image(ck->nd, u->image, &info), AT_FMT ": a dead image", AT(w));
    VkImageSubresourceRange r = u->range;
    if (r.levelCount == VK_REMAINING_MIP_LEVELS && r.baseMipLevel <= info.mips)
        r.levelCount = info.mips - r.baseMipLevel;
    if (r.layerCount == VK_REMAINING_ARRAY_LAYERS && r.baseArrayLayer <= info.layers)
        r.layerCount = info.layers - r.baseArrayLayer;
    CHECK(r.aspectMask != 0 && !(r.aspectMask & ~info.aspects) && r.levelCount >= 1 && r.baseMipLevel < info.mips &&
              r.levelCount <= info.mips - r.baseMipLevel && r.layerCount >= 1 && r.baseArrayLayer < info.layers &&
              r.layerCount <= info.layers - r.baseArrayLayer,
          AT_FMT ": aspects %x mips %u+%u layers %u+%u outside image%u (aspects %x, %u mips, %u layers)", AT(w),
          r.aspectMask, r.baseMipLevel, r.levelCount, r.baseArrayLayer, r.layerCount, info.index, info.aspects,
          info.mips, info.layers);
    if (u->transition && inside)
        CHECK(u->old_layout == u->layout, AT_FMT ": changes image%u's layout %d -> %d inside a rendering instance",
              AT(w), info.index, (int)u->old_layout, (int)u->layout);
    VkImageLayout *l = layouts_of(ck, &info);
    for (VkImageAspectFlags a = r.aspectMask; a; a &= a - 1) {
        uint32_t plane = plane_of(a & -a);
        for (uint32_t m = r.baseMipLevel; m < r.baseMipLevel + r.levelCount; m++)
            for (uint32_t y = r.baseArrayLayer; y < r.baseArrayLayer + r.layerCount; y++) {
                VkImageLayout *s = slot(l, &info, plane, m, y);
                if (u->transition) {
                    CHECK(u->old_layout == VK_IMAGE_LAYOUT_UNDEFINED || u->old_layout == *s,
                          AT_FMT ": transitions image%u (aspect %x, mip %u, layer %u) from layout %d, but it is in %d",
                          AT(w), info.index, a & -a, m, y, (int)u->old_layout, (int)*s);
                    *s = u->layout;
                } else {
                    CHECK(u->layout == *s,
                          AT_FMT ": uses image%u (aspect %x, mip %u, layer %u) in layout %d, but "
                                 "it is in %d",
                          AT(w), info.index, a & -a, m, y, (int)u->layout, (int)*s);
                }
            }
    }
}

/* Sets (frame start) or checks (frame end) every subresource of each
 * import's image. */
static void imports_at(checker *ck, const frame *f, bool start)
{
    for (uint32_t i = 0; i < ck->import_count; i++) {
        const rc_import *im = &ck->imports[i];
        VkImage image = rg_texture_image(ck->g, im->texture);
        nd_image_info info;
        if (!null_device_image(ck->nd, image, &info))
            continue;
        VkImageLayout *l = layouts_of(ck, &info), want = start ? im->initial : im->final;
        if (!start && want == VK_IMAGE_LAYOUT_UNDEFINED)
            continue; /* left as the last use leaves it */
        for (uint32_t p = 0; p < 3; p++) {
            if (!(info.aspects & (p == 0   ? VK_IMAGE_ASPECT_COLOR_BIT
                                  : p == 1 ? VK_IMAGE_ASPECT_DEPTH_BIT
                                           : VK_IMAGE_ASPECT_STENCIL_BIT)))
                continue;
            for (uint32_t m = 0; m < info.mips; m++)
                for (uint32_t y = 0; y < info.layers; y++) {
                    VkImageLayout *s = slot(l, &info, p, m, y);
                    if (start)
                        *s = want;
                    else
                        CHECK(*s == want,
                              "%s: %s: import %u (image%u) ends the frame in layout %d at aspect plane "
                              "%u mip %u layer %u, not its final layout %d",
                              ck->o->context, f->what, i, info.index, (int)*s, p, m, y, (int)want);
                }
        }
    }
}

/* The frame's command buffers in order, through the tracked layouts. */
void rc_oracle_frame(checker *ck, const frame *f)
{
    imports_at(ck, f, true);
    bool inside = false;
    for (uint32_t i = 0; i < f->count; i++) {
        uint32_t n;
        const nd_call *calls = null_cmd_calls(f->cmds[i], &n);
        const nd_image_use *uses = null_cmd_uses(f->cmds[i]);
        for (uint32_t k = 0; k < n; k++) {
            const nd_call *c = &calls[k];
            where w = {ck, f, i, k, c};
            if (c->kind == ND_BEGIN)
                inside = true;
            for (uint32_t u = 0; u < c->use_count; u++)
                oracle_use(ck, &w, &uses[c->first_use + u], inside);
            if (c->kind == ND_END)
                inside = false;
        }
    }
    imports_at(ck, f, false);
}

