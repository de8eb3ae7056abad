/* Names of Vulkan values for messages, reports and the DOT: formats and
 * layouts as their enumerant without the VK_FORMAT_ / VK_IMAGE_LAYOUT_
 * prefix ("R8G8B8A8_UNORM", "PRESENT_SRC"), flag sets as their bits'
 * names joined by '|' ("FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT"). The
 * names are the lists of base/name_lists.h (the frame files read them
 * back from the same lists). It calls nothing else of the library, so
 * every stage may call it. Also the debug-utils names of the objects
 * graphs create (step 5).
 */
#include "base/device.h"
#include "base/name_lists.h"
#include "base/names.h"
#include "base/thread.h"

#include <stdarg.h>
#include <string.h>

/* Step 1: text for a value no table knows, "VkFormat(1234)". Each thread
 * has its own four buffers, used in turn, so one message may hold a few
 * such names and other threads never see them change. */
#define UNKNOWN_SLOTS 4
static RG__THREAD_LOCAL char unknown_text[UNKNOWN_SLOTS][40];
static RG__THREAD_LOCAL unsigned unknown_next;

static const char *unknown_name(const char *type, long long value)
{
    char *text = unknown_text[unknown_next++ % UNKNOWN_SLOTS];
    snprintf(text, sizeof unknown_text[0], "%s(%lld)", type, value);
    return text;
}

/* Step 2: formats. Vulkan 1.0's are contiguous (1..184) and indexed; the
 * later ones come in a few blocks of extension numbers, searched. A list's
 * row is X(name) or, by number, X(value, name). */
#define CORE_FORMAT(x) [VK_FORMAT_##x] = #x,
static const char *const core_formats[VK_FORMAT_ASTC_12x12_SRGB_BLOCK + 1] = {RG__FORMATS_1_0(CORE_FORMAT)};

typedef struct value_name {
    long long value;
    const char *name;
} value_name;

#define LATER_FORMAT(x) {VK_FORMAT_##x, #x},
#define ROW(value, name) {value, name},
static const value_name later_formats[] = {RG__FORMATS_LATER(LATER_FORMAT) RG__FORMATS_NEWER(ROW)};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *search(const value_name *rows, size_t count, long long value)
{
    for (size_t i = 0; i < count; i++)
        if (rows[i].value == value)
            return rows[i].name;
    return NULL;
}

const char *rg_format_name(VkFormat format)
{
    const char *name = NULL;
    if ((uint32_t)format < COUNT(core_formats))
        name = core_formats[format];
    else
        name = search(later_formats, COUNT(later_formats), format);
    return name ? name : unknown_name("VkFormat", format);
}

/* Step 3: layouts. */
static const value_name layouts[] = {RG__LAYOUTS(ROW)};

const char *rg_layout_name(VkImageLayout layout)
{
    const char *name = search(layouts, COUNT(layouts), layout);
    return name ? name : unknown_name("VkImageLayout", layout);
}

/* Step 4: flag sets. Known bits by name in the table's order, then the
 * bits no row names as one hex number; snprintf's contract: the whole
 * text's length is returned, what fits is written, always terminated. */
typedef struct bit_name {
    uint64_t bit;
    const char *name;
} bit_name;

static void append(char *buf, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len + 1 < size) {
        size_t room = size - 1 - *len;
        memcpy(buf + *len, text, n < room ? n : room);
        buf[*len + (n < room ? n : room)] = '\0';
    }
    *len += n;
}

static size_t print_bits(uint64_t flags, const bit_name *rows, size_t count, char *buf, size_t size)
{
    size_t len = 0;
    if (buf && size)
        buf[0] = '\0';
    else
        size = 0;
    if (!flags) {
        append(buf, size, &len, "NONE");
        return len;
    }
    uint64_t rest = flags;
    for (size_t i = 0; i < count; i++) {
        if ((flags & rows[i].bit) != rows[i].bit || !(rest & rows[i].bit))
            continue;
        if (len)
            append(buf, size, &len, "|");
        append(buf, size, &len, rows[i].name);
        rest &= ~rows[i].bit;
    }
    if (rest) {
        char hex[24];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)rest);
        if (len)
            append(buf, size, &len, "|");
        append(buf, size, &len, hex);
    }
    return len;
}

/* Each kind over its list's bits; an unknown kind prints as no bits known. */
size_t rg_flag_names(rg_flag_kind kind, uint64_t flags, char *buf, size_t size)
{
    static const bit_name stages[] = {RG__STAGE_BITS(ROW)}, access[] = {RG__ACCESS_BITS(ROW)},
                          image_usage[] = {RG__IMAGE_USAGE_BITS(ROW)}, buffer_usage[] = {RG__BUFFER_USAGE_BITS(ROW)};
    switch (kind) {
    case RG_FLAGS_STAGE: return print_bits(flags, stages, COUNT(stages), buf, size);
    case RG_FLAGS_ACCESS: return print_bits(flags, access, COUNT(access), buf, size);
    case RG_FLAGS_IMAGE_USAGE: return print_bits(flags, image_usage, COUNT(image_usage), buf, size);
    case RG_FLAGS_BUFFER_USAGE: return print_bits(flags, buffer_usage, COUNT(buffer_usage), buf, size);
    default: return print_bits(flags, NULL, 0, buf, size);
    }
}

/* Step 5: the name of an object a graph created, where the application
 * enabled VK_EXT_debug_utils (rg_device_desc.debug_utils); a failure
 * changes nothing of what runs, so it is not reported. */
void rg__name_object(const rg_device *dev, VkObjectType type, uint64_t handle, const char *fmt, ...)
{
    if (!dev || !dev->vk.SetDebugUtilsObjectNameEXT || !handle)
        return;
    char name[RG__NAME_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    dev->vk.SetDebugUtilsObjectNameEXT(dev->device, &info);
}

/* A view of part of a texture: "ao raw (mip 1)", "shadow (mip 0, layer 2)",
 * "bloom (mips 0-3, layers 0-5)". */
void rg__name_view(const rg_device *dev, VkImageView view, const char *texture, uint32_t mip, uint32_t mip_count,
                   uint32_t base_layer, uint32_t layer_count)
{
    char mips[32], layers[40] = "";
    if (mip_count == 1)
        snprintf(mips, sizeof mips, "mip %u", mip);
    else
        snprintf(mips, sizeof mips, "mips %u-%u", mip, mip + mip_count - 1);
    if (layer_count == 1 && base_layer)
        snprintf(layers, sizeof layers, ", layer %u", base_layer);
    else if (layer_count > 1)
        snprintf(layers, sizeof layers, ", layers %u-%u", base_layer, base_layer + layer_count - 1);
    rg__name_object(dev, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)view, "%s (%s%s)", texture, mips, layers);
}
