/* The null device (null_device.h): fake Vulkan entry points behind
 * rg_device_create, and per command buffer a log of the calls recorded
 * into it; this file makes the device and its objects and answers the
 * harness's queries (null_device_private.h names the other files).
 * Dispatchable handles are pointers to the null device's structs cast to
 * the Vulkan handle types (the device, instance and physical device to the
 * null_device, a queue to its slot, a command buffer to its log); the
 * others are numbers that say their kind and their index per kind, printed
 * in the logs as "image3", "view7", ... so two recordings of one placement
 * compare as text. */
#include "null_device_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- objects */

static const char *const object_names[OBJ_KINDS] = {"?",      "image",     "view",      "buffer",
                                                    "memory", "semaphore", "querypool", "event"};

void *nd_grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, (size_t)n * size);
    if (!q) {
        fprintf(stderr, "null_device: out of memory\n");
        abort();
    }
    memset((char *)q + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *cap = n;
    return q;
}

uint64_t nd_new_object(null_device *nd, nd_object kind) { return make_handle(kind, nd->count[kind]++); }

uint64_t nd_new_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers)
{
    uint64_t h = nd_new_object(nd, OBJ_IMAGE);
    uint32_t i = handle_index(h);
    nd->images = nd_grow(nd->images, &nd->image_cap, i + 1, sizeof *nd->images);
    rg_format_info fi = rg_format_get_info(format);
    nd->images[i] = (nd_image){
        true, {i, format, mips ? mips : 1, layers ? layers : 1, fi.aspects ? fi.aspects : VK_IMAGE_ASPECT_COLOR_BIT}};
    return h;
}

uint64_t nd_new_view(null_device *nd, VkImage image, VkImageSubresourceRange range)
{
    uint64_t h = nd_new_object(nd, OBJ_VIEW);
    uint32_t i = handle_index(h);
    nd->views = nd_grow(nd->views, &nd->view_cap, i + 1, sizeof *nd->views);
    nd->views[i] = (nd_view){true, image, range};
    return h;
}

const nd_image *nd_image_of(const null_device *nd, uint64_t h)
{
    if (handle_kind(h) != OBJ_IMAGE || handle_index(h) >= nd->count[OBJ_IMAGE] || !nd->images[handle_index(h)].alive)
        return NULL;
    return &nd->images[handle_index(h)];
}

const nd_view *nd_view_of(const null_device *nd, uint64_t h)
{
    if (handle_kind(h) != OBJ_VIEW || handle_index(h) >= nd->count[OBJ_VIEW] || !nd->views[handle_index(h)].alive)
        return NULL;
    return &nd->views[handle_index(h)];
}

/* A handle as the logs print it: "image3", "view7", "0" for none, the raw
 * number for one this device never made. */
const char *null_handle_name(uint64_t h, char *buf, size_t size)
{
    nd_object k = handle_kind(h);
    if (h == 0)
        snprintf(buf, size, "0");
    else if (k == OBJ_NONE)
        snprintf(buf, size, "0x%llx", (unsigned long long)h);
    else
        snprintf(buf, size, "%s%u", object_names[k], handle_index(h));
    return buf;
}

/* The same in rotating buffers, so a call can print a few. */
const char *nd_hname(uint64_t h)
{
    static char bufs[8][40];
    static unsigned next;
    return null_handle_name(h, bufs[next++ % 8], sizeof bufs[0]);
}

/* ---------------------------------------------------------------- public */

null_device *null_device_create(const VkPhysicalDeviceMemoryProperties *memory, bool debug_utils)
{
    null_device *nd = calloc(1, sizeof *nd);
    if (!nd)
        return NULL;
    nd->memory = *memory;
    /* What a device made for the graph enables. */
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
        .dynamicRenderingLocalRead = VK_TRUE};
    VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &local_read, .timelineSemaphore = VK_TRUE};
    VkPhysicalDeviceVulkan13Features v13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pNext = &v12, .dynamicRendering = VK_TRUE,
                                            .synchronization2 = VK_TRUE};
    rg_device_desc desc = {
        .enabled_features = &v13,
        .instance = (VkInstance)(void *)nd,
        .physical_device = (VkPhysicalDevice)(void *)nd,
        .device = (VkDevice)(void *)nd,
        .get_instance_proc_addr = nd_instance_proc,
        .api_version = VK_API_VERSION_1_3,
        .timeline_semaphore = true,
        .local_read = true,
        .debug_utils = debug_utils,
    };
    for (uint32_t q = 0; q < RG_QUEUE_COUNT; q++) {
        nd->queues[q] = (nd_queue){nd, q};
        desc.queues[q] = (rg_device_queue){(VkQueue)(void *)&nd->queues[q], q};
    }
    if (rg_device_create(&desc, &nd->rg) != RG_SUCCESS) {
        free(nd);
        return NULL;
    }
    return nd;
}

void null_device_destroy(null_device *nd)
{
    if (!nd)
        return;
    rg_device_destroy(nd->rg);
    free(nd->images);
    free(nd->views);
    free(nd->submitted);
    free(nd);
}

rg_device *null_device_rg(const null_device *nd) { return nd->rg; }

VkImage null_device_app_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers, VkImageView *view)
{
    VkImage image = HANDLE(VkImage, nd_new_image(nd, format, mips, layers));
    const nd_image *im = nd_image_of(nd, RAW(image));
    *view =
        HANDLE(VkImageView,
               nd_new_view(nd, image, (VkImageSubresourceRange){im->info.aspects, 0, im->info.mips, 0, im->info.layers}));
    return image;
}

VkBuffer null_device_app_buffer(null_device *nd) { return HANDLE(VkBuffer, nd_new_object(nd, OBJ_BUFFER)); }

bool null_device_image(const null_device *nd, VkImage image, nd_image_info *out)
{
    const nd_image *im = nd_image_of(nd, RAW(image));
    if (im && out)
        *out = im->info;
    return im != NULL;
}

uint32_t null_device_image_count(const null_device *nd) { return nd->count[OBJ_IMAGE]; }

const VkCommandBuffer *null_device_take_submitted(null_device *nd, uint32_t *count)
{
    *count = nd->submitted_count;
    nd->submitted_count = 0;
    return nd->submitted;
}

VkCommandBuffer null_cmd_create(null_device *nd)
{
    nd_cmd *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "null_device: out of memory\n");
        abort();
    }
    c->nd = nd;
    return (VkCommandBuffer)(void *)c;
}

void null_cmd_destroy(VkCommandBuffer cmd)
{
    nd_cmd *c = cmd_of(cmd);
    if (!c)
        return;
    for (uint32_t i = 0; i < c->count; i++)
        free(c->calls[i].text);
    free(c->calls);
    free(c->uses);
    free(c);
}

void null_cmd_note(VkCommandBuffer cmd, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    sb t = {0};
    sb_add(&t, "%s", line);
    nd_add_call(cmd_of(cmd), ND_NOTE, &t);
}

const nd_call *null_cmd_calls(VkCommandBuffer cmd, uint32_t *count)
{
    *count = cmd_of(cmd)->count;
    return cmd_of(cmd)->calls;
}

const nd_image_use *null_cmd_uses(VkCommandBuffer cmd) { return cmd_of(cmd)->uses; }

const char *null_call_line(const nd_call *c, VkRenderingFlags flag_mask, char *buf, size_t size)
{
    if (c->kind == ND_BEGIN)
        snprintf(buf, size, "begin flags %x %s", (unsigned)(c->flags & flag_mask), c->text);
    else
        snprintf(buf, size, "%s", c->text);
    return buf;
}
