/* Queue choice (eng_pick_queues): pure, so the rules are tested against
 * the queue families of real devices without those devices. */
#include "internal.h"

/* What a family can do for a kind other than graphics. */
typedef enum fit {
    FIT_NONE,
    FIT_SHARED,   /* it also does graphics (or, for transfer, compute) */
    FIT_DEDICATED /* made for the kind: compute-only, transfer-only */
} fit;

static fit family_fit(VkQueueFlags f, eng_queue_kind kind)
{
    bool gfx = f & VK_QUEUE_GRAPHICS_BIT, compute = f & VK_QUEUE_COMPUTE_BIT;
    if (kind == ENG_QUEUE_COMPUTE)
        return !compute ? FIT_NONE : gfx ? FIT_SHARED : FIT_DEDICATED;
    /* Graphics and compute families support transfer whether or not they
     * report the bit. */
    if (gfx || compute)
        return FIT_SHARED;
    return (f & VK_QUEUE_TRANSFER_BIT) ? FIT_DEDICATED : FIT_NONE;
}

/* The family for kind among those neither graphics nor taken: the best fit,
 * then the most queues, then the first; UINT32_MAX if none fits. */
static uint32_t best_family(const VkQueueFamilyProperties *families, uint32_t count, uint32_t graphics,
                            const eng_queue_choice *taken, eng_queue_kind kind)
{
    uint32_t best = UINT32_MAX;
    fit best_fit = FIT_NONE;
    for (uint32_t i = 0; i < count; i++) {
        bool used = i == graphics || families[i].queueCount == 0;
        for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++)
            used = used || taken->family[k] == i;
        fit f = used ? FIT_NONE : family_fit(families[i].queueFlags, kind);
        if (f == FIT_NONE)
            continue;
        if (best == UINT32_MAX || f > best_fit ||
            (f == best_fit && families[i].queueCount > families[best].queueCount)) {
            best = i;
            best_fit = f;
        }
    }
    return best;
}

void eng_pick_queues(const VkQueueFamilyProperties *families, uint32_t count, uint32_t graphics_family,
                     eng_queue_policy policy, eng_queue_choice *out)
{
    if (!out)
        return;
    for (uint32_t k = 0; k < ENG_QUEUE_KIND_COUNT; k++) {
        out->family[k] = UINT32_MAX;
        out->index[k] = 0;
    }
    if (!families || graphics_family >= count || families[graphics_family].queueCount == 0)
        return;
    out->family[ENG_QUEUE_GRAPHICS] = graphics_family;
    if (policy == ENG_QUEUES_SINGLE)
        return;
    uint32_t spare = 1; /* the graphics family's next unused queue */
    for (eng_queue_kind k = ENG_QUEUE_COMPUTE; k < ENG_QUEUE_KIND_COUNT; k++) {
        uint32_t f = policy == ENG_QUEUES_GRAPHICS_FAMILY
                         ? UINT32_MAX
                         : best_family(families, count, graphics_family, out, k);
        if (f != UINT32_MAX) {
            out->family[k] = f;
        } else if (policy == ENG_QUEUES_GRAPHICS_FAMILY && spare < families[graphics_family].queueCount) {
            out->family[k] = graphics_family;
            out->index[k] = spare++;
        }
    }
}
