/* The names a frame file spells values with, both ways. Enums of the
 * render graph and Vulkan's small ones by lower-case words; formats,
 * layouts, usages and flag sets by the render graph's own names
 * (rg_format_name, rg_layout_name, rg_usage_info.name, rg_stage_names and
 * the others), looked up by asking it for each candidate value, so the
 * two can never disagree.
 */
#include "frame_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define ENUM(var, what_text, ...)                                                                                    \
    static const char *const var##_names[] = {__VA_ARGS__};                                                        \
    const rgf__names var = {what_text, var##_names, COUNT(var##_names)}

ENUM(rgf__transient, "a transient mode (auto, force, forbid)", "auto", "force", "forbid");
ENUM(rgf__rounding, "a rounding (down, up, nearest)", "down", "up", "nearest");
ENUM(rgf__kind, "a command kind (outside, draw)", "outside", "draw");
ENUM(rgf__queue, "a queue (graphics, compute, transfer)", "graphics", "compute", "transfer");
ENUM(rgf__order, "an order (memory, batches, declaration)", "memory", "batches", "declaration");
ENUM(rgf__queue_policy, "a queue policy (eligible, single, measured)", "eligible", "single", "measured");
ENUM(rgf__merge, "a merge policy (auto, on, off)", "auto", "on", "off");
ENUM(rgf__load_op, "a load op (load, clear, dont_care)", "load", "clear", "dont_care");
ENUM(rgf__filter, "a filter (nearest, linear)", "nearest", "linear");
ENUM(rgf__resource_kind, "a resource kind (texture, texture_import, history, history_previous, buffer, "
     "buffer_import)", "texture", "texture_import", "history", "history_previous", "buffer", "buffer_import");
ENUM(rgf__command_type, "a command type (user, copy_buffer, copy_buffer_to_texture, copy_texture_to_buffer, "
     "clear, blit, begin_rendering, end_rendering)", "user", "copy_buffer", "copy_buffer_to_texture",
     "copy_texture_to_buffer", "clear", "blit", "begin_rendering", "end_rendering");

int rgf__enum_value(const rgf__names *e, const char *name)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (strcmp(e->names[i], name) == 0)
            return (int)i;
    return -1;
}

const char *rgf__enum_name(const rgf__names *e, uint32_t value) { return value < e->count ? e->names[value] : NULL; }

#define STORE_OP_NONE ((VkAttachmentStoreOp)1000301000)

const char *rgf__store_op_name(VkAttachmentStoreOp op)
{
    return op == VK_ATTACHMENT_STORE_OP_STORE ? "store" : op == VK_ATTACHMENT_STORE_OP_DONT_CARE ? "dont_care"
           : op == STORE_OP_NONE                                                               ? "none"
                                                                                                : NULL;
}

bool rgf__store_op_value(const char *name, VkAttachmentStoreOp *out)
{
    static const VkAttachmentStoreOp ops[] = {VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                              STORE_OP_NONE};
    for (uint32_t i = 0; i < COUNT(ops); i++)
        if (strcmp(rgf__store_op_name(ops[i]), name) == 0)
            return (*out = ops[i]), true;
    return false;
}

static const struct {
    VkResolveModeFlagBits mode;
    const char *name;
} resolve_modes[] = {
    {VK_RESOLVE_MODE_NONE, "none"}, {VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, "sample_zero"},
    {VK_RESOLVE_MODE_AVERAGE_BIT, "average"}, {VK_RESOLVE_MODE_MIN_BIT, "min"}, {VK_RESOLVE_MODE_MAX_BIT, "max"},
};

const char *rgf__resolve_mode_name(VkResolveModeFlagBits mode)
{
    for (uint32_t i = 0; i < COUNT(resolve_modes); i++)
        if (resolve_modes[i].mode == mode)
            return resolve_modes[i].name;
    return NULL;
}

bool rgf__resolve_mode_value(const char *name, VkResolveModeFlagBits *out)
{
    for (uint32_t i = 0; i < COUNT(resolve_modes); i++)
        if (strcmp(resolve_modes[i].name, name) == 0)
            return (*out = resolve_modes[i].mode), true;
    return false;
}

bool rgf__usage_value(const char *name, rg_usage *out)
{
    for (uint32_t u = 1; u < RG_USAGE_COUNT; u++)
        if (strcmp(rg_usage_get_info((rg_usage)u)->name, name) == 0)
            return (*out = (rg_usage)u), true;
    return false;
}

/* "VkFormat(12)" and the like: the render graph's name for a value it
 * does not know. */
static bool unknown_value(const char *name, const char *type, int64_t *out)
{
    size_t n = strlen(type);
    if (strncmp(name, type, n) != 0 || name[n] != '(')
        return false;
    char *end;
    long long v = strtoll(name + n + 1, &end, 10);
    if (end == name + n + 1 || strcmp(end, ")") != 0 || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = v;
    return true;
}

/* Value ranges the render graph names: Vulkan 1.0's contiguous values,
 * then the blocks later versions and extensions added. */
typedef struct value_range {
    int64_t first, last;
} value_range;

static bool search_names(const char *name, const value_range *ranges, uint32_t count,
                         const char *(*name_of)(int64_t), int64_t *out)
{
    for (uint32_t r = 0; r < count; r++)
        for (int64_t v = ranges[r].first; v <= ranges[r].last; v++)
            if (strcmp(name_of(v), name) == 0)
                return (*out = v), true;
    return false;
}

static const char *format_name(int64_t v) { return rg_format_name((VkFormat)v); }
static const char *layout_name(int64_t v) { return rg_layout_name((VkImageLayout)v); }

bool rgf__format_value(const char *name, VkFormat *out)
{
    static const value_range ranges[] = {{0, 184}, {1000156000, 1000156033}, {1000330000, 1000330003},
                                         {1000340000, 1000340001}, {1000066000, 1000066013},
                                         {1000470000, 1000470001}};
    int64_t v;
    if (!search_names(name, ranges, COUNT(ranges), format_name, &v) && !unknown_value(name, "VkFormat", &v))
        return false;
    *out = (VkFormat)v;
    return true;
}

bool rgf__layout_value(const char *name, VkImageLayout *out)
{
    static const value_range ranges[] = {
        {0, 8}, {1000001002, 1000001002}, {1000111000, 1000111000}, {1000024000, 1000024002},
        {1000299000, 1000299002}, {1000117000, 1000117001}, {1000241000, 1000241003}, {1000314000, 1000314001},
        {1000232000, 1000232000}, {1000164003, 1000164003}, {1000218000, 1000218000}, {1000339000, 1000339000}};
    int64_t v;
    if (!search_names(name, ranges, COUNT(ranges), layout_name, &v) && !unknown_value(name, "VkImageLayout", &v))
        return false;
    *out = (VkImageLayout)v;
    return true;
}

static void aspect_names(uint64_t flags, char *buf, size_t size)
{
    static const char *const names[] = {"COLOR", "DEPTH", "STENCIL"};
    char text[96] = "";
    size_t len = 0;
    for (uint32_t b = 0; b < 3; b++)
        if (flags & (1ull << b))
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? "|" : "", names[b]);
    if (flags >> 3)
        snprintf(text + len, sizeof text - len, "%s0x%" PRIx64, len ? "|" : "", (uint64_t)(flags & ~7ull));
    snprintf(buf, size, "%s", flags ? text : "NONE");
}

void rgf__flags_name(rgf__flag_kind kind, uint64_t flags, char *buf, size_t size)
{
    switch (kind) {
    case RGF_STAGES:
        rg_stage_names(flags, buf, size);
        break;
    case RGF_ACCESS:
        rg_access_names(flags, buf, size);
        break;
    case RGF_IMAGE_USAGE:
        rg_image_usage_names((VkImageUsageFlags)flags, buf, size);
        break;
    case RGF_BUFFER_USAGE:
        rg_buffer_usage_names((VkBufferUsageFlags)flags, buf, size);
        break;
    case RGF_ASPECT:
        aspect_names(flags, buf, size);
        break;
    }
}

bool rgf__flags_value(rgf__flag_kind kind, const char *text, uint64_t *out)
{
    unsigned bits = kind == RGF_STAGES || kind == RGF_ACCESS ? 64 : 32;
    uint64_t v = 0;
    const char *p = text;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        char token[96], name[96];
        if (n == 0 || n >= sizeof token)
            return false;
        memcpy(token, p, n);
        token[n] = '\0';
        if (strcmp(token, "NONE") == 0) {
            /* nothing */
        } else if (token[0] == '0' && token[1] == 'x') {
            char *end;
            unsigned long long h = strtoull(token + 2, &end, 16);
            if (*end || end == token + 2 || (bits == 32 && h > UINT32_MAX))
                return false;
            v |= h;
        } else {
            unsigned b = 0;
            for (; b < bits; b++) {
                rgf__flags_name(kind, 1ull << b, name, sizeof name);
                if (strcmp(name, token) == 0)
                    break;
            }
            if (b == bits)
                return false;
            v |= 1ull << b;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    *out = v;
    return true;
}
