/* The names a frame file spells values with, both ways. Enums of the
 * render graph and Vulkan's small ones by lower-case words; formats,
 * layouts and flag sets by the render graph's own names (rg_format_name,
 * rg_layout_name, rg_flag_names and the others); every table here is a
 * list of base/name_lists.h, the lists the render graph's names come
 * from too, so the two can never disagree. Usages by rg_usage_info.name.
 */
#include "frame_internal.h"

#include "base/name_lists.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define ROW(value, name) {(int64_t)(value), name},
#define NAMES(var, what_text, list)                                                                               \
    static const rgf__name var##_rows[] = {list(ROW)};                                                            \
    const rgf__names var = {what_text, var##_rows, COUNT(var##_rows)}

/* The graph's settings. */
NAMES(rgf__order, "an order", RG__ORDERS);
NAMES(rgf__queue_policy, "a queue policy", RG__QUEUE_POLICIES);
NAMES(rgf__merge, "a merge policy", RG__MERGES);
NAMES(rgf__fold, "a fold policy", RG__FOLDS);

/* A resource's kind: a texture's names, then a buffer's. */
#define TEXTURE_KIND(kind, tool_name, texture, buffer) {kind, texture},
#define BUFFER_KIND(kind, tool_name, texture, buffer) {(kind) | RGF_BUFFER_KIND, buffer},
static const rgf__name resource_kind_rows[] = {RG__RESOURCE_KINDS(TEXTURE_KIND) RG__RESOURCE_KINDS(BUFFER_KIND)};
const rgf__names rgf__resource_kind = {"a resource kind", resource_kind_rows, COUNT(resource_kind_rows)};
NAMES(rgf__transient, "a transient mode", RG__TRANSIENTS);
NAMES(rgf__rounding, "a rounding", RG__ROUNDINGS);

/* Formats and layouts, as the render graph names them. */
#define FORMAT(x) {VK_FORMAT_##x, #x},
static const rgf__name format_rows[] = {RG__FORMATS_1_0(FORMAT) RG__FORMATS_LATER(FORMAT) RG__FORMATS_NEWER(ROW)};
const rgf__names rgf__formats = {"VkFormat", format_rows, COUNT(format_rows)};
NAMES(rgf__layouts, "VkImageLayout", RG__LAYOUTS);

/* A command's. */
NAMES(rgf__command_type, "a command type", RG__COMMAND_TYPES);
NAMES(rgf__kind, "a command kind", RG__COMMAND_KINDS);
NAMES(rgf__queue, "a queue", RG__QUEUES);
NAMES(rgf__filter, "a filter", RG__FILTERS);

/* The bits of each flag kind, for reading a set back. */
static const rgf__name stage_rows[] = {RG__STAGE_BITS(ROW)}, access_rows[] = {RG__ACCESS_BITS(ROW)},
                       image_usage_rows[] = {RG__IMAGE_USAGE_BITS(ROW)},
                       buffer_usage_rows[] = {RG__BUFFER_USAGE_BITS(ROW)}, aspect_rows[] = {RG__ASPECT_BITS(ROW)};
static const rgf__names flag_bits[] = {
    [RGF_STAGES] = {"a stage", stage_rows, COUNT(stage_rows)},
    [RGF_ACCESS] = {"an access", access_rows, COUNT(access_rows)},
    [RGF_IMAGE_USAGE] = {"an image usage", image_usage_rows, COUNT(image_usage_rows)},
    [RGF_BUFFER_USAGE] = {"a buffer usage", buffer_usage_rows, COUNT(buffer_usage_rows)},
    [RGF_ASPECT] = {"an aspect", aspect_rows, COUNT(aspect_rows)},
};
const rgf__names *const rgf__aspect = &flag_bits[RGF_ASPECT];

/* An attachment's. */
NAMES(rgf__load_op, "a load op", RG__LOAD_OPS);
NAMES(rgf__store_op, "a store op", RG__STORE_OPS);
NAMES(rgf__resolve_mode, "a resolve mode", RG__RESOLVE_MODES);

bool rgf__enum_value(const rgf__names *e, const char *name, int64_t *out)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (e->rows[i].name && strcmp(e->rows[i].name, name) == 0)
            return (*out = e->rows[i].value), true;
    return false;
}

const char *rgf__enum_name(const rgf__names *e, int64_t value)
{
    for (uint32_t i = 0; i < e->count; i++)
        if (e->rows[i].value == value && e->rows[i].name)
            return e->rows[i].name;
    return NULL;
}

const char *rgf__enum_names(const rgf__names *e, const char *last, char *buf, size_t size)
{
    size_t len = 0;
    uint32_t named = 0, n = 0;
    for (uint32_t i = 0; i < e->count; i++)
        named += e->rows[i].name != NULL;
    buf[0] = '\0';
    for (uint32_t i = 0; i < e->count && len < size; i++)
        if (e->rows[i].name) {
            const char *sep = n == 0 ? "" : n + 1 == named ? last : ", ";
            len += (size_t)snprintf(buf + len, size - len, "%s%s", sep, e->rows[i].name);
            n++;
        }
    return buf;
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

bool rgf__vk_value(const rgf__names *e, const char *name, int64_t *out)
{
    return rgf__enum_value(e, name, out) || unknown_value(name, e->what, out);
}

/* Aspects as the render graph writes flag sets: names in the list's
 * order, the bits no row names in hex, NONE for none. */
static void aspect_names(uint64_t flags, char *buf, size_t size)
{
    char text[96] = "";
    size_t len = 0;
    uint64_t rest = flags;
    for (uint32_t i = 0; i < rgf__aspect->count; i++)
        if (flags & (uint64_t)rgf__aspect->rows[i].value) {
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? "|" : "", rgf__aspect->rows[i].name);
            rest &= ~(uint64_t)rgf__aspect->rows[i].value;
        }
    if (rest)
        snprintf(text + len, sizeof text - len, "%s0x%" PRIx64, len ? "|" : "", rest);
    snprintf(buf, size, "%s", flags ? text : "NONE");
}

void rgf__flags_name(rgf__flag_kind kind, uint64_t flags, char *buf, size_t size)
{
    switch (kind) {
    case RGF_STAGES:
        rg_flag_names(RG_FLAGS_STAGE, flags, buf, size);
        break;
    case RGF_ACCESS:
        rg_flag_names(RG_FLAGS_ACCESS, flags, buf, size);
        break;
    case RGF_IMAGE_USAGE:
        rg_flag_names(RG_FLAGS_IMAGE_USAGE, (VkImageUsageFlags)flags, buf, size);
        break;
    case RGF_BUFFER_USAGE:
        rg_flag_names(RG_FLAGS_BUFFER_USAGE, (VkBufferUsageFlags)flags, buf, size);
        break;
    case RGF_ASPECT:
        aspect_names(flags, buf, size);
        break;
    }
}

bool rgf__flags_value(rgf__flag_kind kind, const char *text, uint64_t *out)
{
    bool wide = kind == RGF_STAGES || kind == RGF_ACCESS;
    uint64_t v = 0;
    const char *p = text;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        char token[96];
        int64_t bit;
        if (n == 0 || n >= sizeof token)
            return false;
        memcpy(token, p, n);
        token[n] = '\0';
        if (strcmp(token, "NONE") == 0) {
            /* nothing */
        } else if (token[0] == '0' && token[1] == 'x') {
            char *end;
            unsigned long long h = strtoull(token + 2, &end, 16);
            if (*end || end == token + 2 || (!wide && h > UINT32_MAX))
                return false;
            v |= h;
        } else if (rgf__enum_value(&flag_bits[kind], token, &bit)) {
            v |= (uint64_t)bit;
        } else {
            return false;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    *out = v;
    return true;
}

bool rgf__usage_value(const char *name, rg_usage *out)
{
    for (uint32_t u = 1; u < RG_USAGE_COUNT; u++)
        if (strcmp(rg_usage_get_info((rg_usage)u)->name, name) == 0)
            return (*out = (rg_usage)u), true;
    return false;
}
