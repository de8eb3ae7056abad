/* A logged frame replayed by hand (replay_frame.h): the file read, the
 * objects made and bound where the graph bound them, the calls recorded
 * again from their logged text. */
#include "replay_frame.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const replay_mode_names[] = { "whole, one command buffer", "one command buffer per chunk",
                                          "the chunks in one command buffer" };

static const uint32_t solid_vert[] =
#include "solid.vert.inc"
    ;
static const uint32_t solid_frag[] =
#include "solid.frag.inc"
    ;

static bool fail(replay_frame *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->error, sizeof f->error, fmt, ap);
    va_end(ap);
    return false;
}

uint64_t replay_fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* ------------------------------------------------------------ the file */

/* One line of the object list; false where it is not one. */
static bool load_object(replay_frame *f, const char *l)
{
    unsigned long long h, a, b, c;
    unsigned w, hh, usage, flags, pool;
    int format;
    char name[16];
    if (sscanf(l, "image %llx format %d size %ux%u usage %x flags %x pool %u offset %llu name %15s slot %llu+%llu",
               &h, &format, &w, &hh, &usage, &flags, &pool, &a, name, &b, &c) == 11) {
        if (f->image_count == REPLAY_MAX_IMAGES || pool >= REPLAY_MAX_POOLS)
            return false;
        replay_image *im = &f->images[f->image_count++];
        *im = (replay_image){ h, (VkFormat)format, w, hh, usage, flags, pool, a, "", b, c };
        snprintf(im->name, sizeof im->name, "%s", name);
    } else if (sscanf(l, "view %llx of %llx", &h, &a) == 2 && f->view_count < REPLAY_MAX_VIEWS) {
        f->views[f->view_count++] = (replay_view){ h, a };
    } else if (sscanf(l, "buffer %llx size %llu pool %u offset %llu", &h, &a, &pool, &b) == 4 &&
               f->buffer_count < REPLAY_MAX_BUFFERS && pool < REPLAY_MAX_POOLS) {
        f->buffers[f->buffer_count++] = (replay_buffer){ h, a, pool, b, false };
    } else if (sscanf(l, "readback %llx size %llu", &h, &a) == 2 && f->buffer_count < REPLAY_MAX_BUFFERS) {
        f->buffers[f->buffer_count++] = (replay_buffer){ h, a, 0, 0, true };
        f->readback_size = a;
    } else if (sscanf(l, "read back whole %llx chunks %llx", &a, &b) == 2) {
        f->want_whole = a;
        f->want_chunks = b;
    } else if (starts(l, "device ")) {
        snprintf(f->device, sizeof f->device, "%s", l + 7);
    } else if (starts(l, "draw ") && f->draw_count < REPLAY_MAX_DRAWS) {
        replay_draw *d = &f->draws[f->draw_count];
        const char *r = strstr(l, " rect ");
        if (!r || (size_t)(r - l - 5) >= sizeof d->name)
            return false;
        memcpy(d->name, l + 5, (size_t)(r - l - 5));
        d->name[r - l - 5] = '\0';
        if (sscanf(r, " rect %f %f %f %f color %f %f %f %f depth %f", &d->rect[0], &d->rect[1], &d->rect[2],
                   &d->rect[3], &d->color[0], &d->color[1], &d->color[2], &d->color[3], &d->depth) != 9)
            return false;
        f->draw_count++;
    } else {
        return l[0] == '#';
    }
    return true;
}

bool replay_load(replay_frame *f, const char *path)
{
    memset(f, 0, sizeof *f);
    FILE *in = fopen(path, "rb");
    if (!in)
        return fail(f, "cannot open %s", path);
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    f->text = calloc(1, (size_t)(size > 0 ? size : 0) + 1);
    bool read = f->text && size > 0 && fread(f->text, 1, (size_t)size, in) == (size_t)size;
    fclose(in);
    if (!read)
        return fail(f, "cannot read %s", path);
    uint32_t n = 1;
    for (char *p = f->text; *p; p++)
        n += *p == '\n';
    f->lines = calloc(n, sizeof *f->lines);
    if (!f->lines)
        return fail(f, "out of memory");
    for (char *p = f->text; *p;) {
        f->lines[f->line_count++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    /* Objects first, then "whole", the chunks and "done". */
    replay_span *open = NULL;
    bool done = false;
    for (uint32_t i = 0; i < f->line_count && !done; i++) {
        const char *l = f->lines[i];
        unsigned k;
        if (strcmp(l, "whole") == 0 || (sscanf(l, "chunk %u", &k) == 1 && k == f->chunk_count)) {
            if (open)
                open->end = i;
            if (l[0] == 'c' && f->chunk_count == REPLAY_MAX_CHUNKS)
                return fail(f, "line %u: more than %d chunks", i + 1, REPLAY_MAX_CHUNKS);
            open = l[0] == 'w' ? &f->whole : &f->chunks[f->chunk_count++];
            open->first = i + 1;
        } else if (strcmp(l, "done") == 0) {
            if (open)
                open->end = i;
            done = true;
        } else if (!open && !load_object(f, l)) {
            return fail(f, "line %u: not an object: %s", i + 1, l);
        }
    }
    if (!done || !f->chunk_count || !f->whole.end || !f->readback_size)
        return fail(f, "%s: no whole frame, chunks, readback or \"done\"", path);
    return true;
}

void replay_free(replay_frame *f)
{
    free(f->text);
    free(f->lines);
    memset(f, 0, sizeof *f);
}

/* --------------------------------------------------------- the objects */

typedef struct objects {
    VkDevice dev;
    VkDeviceMemory pools[REPLAY_MAX_POOLS], readback_memory;
    VkImage images[REPLAY_MAX_IMAGES];
    VkImageView views[REPLAY_MAX_VIEWS];
    VkBuffer buffers[REPLAY_MAX_BUFFERS];
    void *readback;
    VkShaderModule vert, frag;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkCommandPool cmd_pool;
    VkCommandBuffer cmds[REPLAY_MAX_CHUNKS];
} objects;

#define OK(call)                                                                                                       \
    do {                                                                                                               \
        VkResult vr_ = (call);                                                                                         \
        if (vr_ != VK_SUCCESS)                                                                                         \
            return fail(f, "%s: %d", #call, (int)vr_);                                                                 \
    } while (0)

static bool memory_type(const test_raw_device *d, uint32_t bits, VkMemoryPropertyFlags want, uint32_t *out)
{
    VkPhysicalDeviceMemoryProperties p;
    vkGetPhysicalDeviceMemoryProperties(d->physical, &p);
    for (uint32_t i = 0; i < p.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (p.memoryTypes[i].propertyFlags & want) == want) {
            *out = i;
            return true;
        }
    return false;
}

/* The solid rectangle pipeline of tests/support/solid.c, color only,
 * RGBA8 UNORM: the pipeline the device test's draws bind. */
static bool make_pipeline(replay_frame *f, objects *o)
{
    VkShaderModuleCreateInfo vm = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = sizeof solid_vert, .pCode = solid_vert };
    VkShaderModuleCreateInfo fm = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = sizeof solid_frag, .pCode = solid_frag };
    OK(vkCreateShaderModule(o->dev, &vm, NULL, &o->vert));
    OK(vkCreateShaderModule(o->dev, &fm, NULL, &o->frag));
    VkPushConstantRange push = { VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 48 };
    VkPipelineLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .pushConstantRangeCount = 1, .pPushConstantRanges = &push };
    OK(vkCreatePipelineLayout(o->dev, &li, NULL, &o->layout));
    VkFormat color = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo ri = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1, .pColorAttachmentFormats = &color };
    OK(test_raw_strip_pipeline(o->dev, o->layout, o->vert, o->frag, &ri, VK_SAMPLE_COUNT_1_BIT, 0xf, &o->pipeline));
    return true;
}

/* Every image and buffer bound at its logged offset of a fresh pool (a
 * pool as large as what it holds), the views, the readback zeroed. */
static bool make_objects(replay_frame *f, test_raw_device *d, objects *o)
{
    VkDeviceSize pool_size[REPLAY_MAX_POOLS] = { 0 };
    uint32_t pool_bits[REPLAY_MAX_POOLS];
    memset(pool_bits, 0xff, sizeof pool_bits);
    VkMemoryRequirements req[REPLAY_MAX_IMAGES + REPLAY_MAX_BUFFERS];
    for (uint32_t i = 0; i < f->image_count; i++) {
        const replay_image *m = &f->images[i];
        VkImageCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .flags = m->flags,
                                 .imageType = VK_IMAGE_TYPE_2D, .format = m->format,
                                 .extent = { m->width, m->height, 1 }, .mipLevels = 1, .arrayLayers = 1,
                                 .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
                                 .usage = m->usage, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
        OK(vkCreateImage(o->dev, &ci, NULL, &o->images[i]));
        vkGetImageMemoryRequirements(o->dev, o->images[i], &req[i]);
    }
    for (uint32_t i = 0; i < f->buffer_count; i++) {
        const replay_buffer *b = &f->buffers[i];
        VkBufferCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = b->size,
                                  .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                           (b->readback ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) };
        OK(vkCreateBuffer(o->dev, &ci, NULL, &o->buffers[i]));
        vkGetBufferMemoryRequirements(o->dev, o->buffers[i], &req[REPLAY_MAX_IMAGES + i]);
    }
    /* The pools: the offsets must suit this device's alignments. */
    for (uint32_t i = 0; i < f->image_count + f->buffer_count; i++) {
        bool image = i < f->image_count;
        uint32_t k = image ? i : i - f->image_count;
        const VkMemoryRequirements *r = &req[image ? i : REPLAY_MAX_IMAGES + k];
        if (!image && f->buffers[k].readback)
            continue;
        uint32_t pool = image ? f->images[k].pool : f->buffers[k].pool;
        VkDeviceSize at = image ? f->images[k].offset : f->buffers[k].offset;
        if (at % r->alignment && (f->unfit = true))
            return fail(f, "%s %u: offset %llu is not a multiple of this device's alignment %llu",
                        image ? "image" : "buffer", k, (unsigned long long)at, (unsigned long long)r->alignment);
        if (pool_size[pool] < at + r->size)
            pool_size[pool] = at + r->size;
        pool_bits[pool] &= r->memoryTypeBits;
    }
    for (uint32_t p = 0; p < REPLAY_MAX_POOLS; p++) {
        uint32_t type;
        if (!pool_size[p])
            continue;
        if (!memory_type(d, pool_bits[p], VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &type) && (f->unfit = true))
            return fail(f, "pool %u: no device-local memory type for all it holds", p);
        VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = pool_size[p],
                                    .memoryTypeIndex = type };
        OK(vkAllocateMemory(o->dev, &ai, NULL, &o->pools[p]));
    }
    for (uint32_t i = 0; i < f->image_count; i++)
        OK(vkBindImageMemory(o->dev, o->images[i], o->pools[f->images[i].pool], f->images[i].offset));
    for (uint32_t i = 0; i < f->buffer_count; i++) {
        const replay_buffer *b = &f->buffers[i];
        if (!b->readback) {
            OK(vkBindBufferMemory(o->dev, o->buffers[i], o->pools[b->pool], b->offset));
            continue;
        }
        uint32_t type;
        const VkMemoryRequirements *r = &req[REPLAY_MAX_IMAGES + i];
        if (!memory_type(d, r->memoryTypeBits,
                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &type))
            return fail(f, "no host-visible coherent memory for the readback");
        VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = r->size,
                                    .memoryTypeIndex = type };
        OK(vkAllocateMemory(o->dev, &ai, NULL, &o->readback_memory));
        OK(vkBindBufferMemory(o->dev, o->buffers[i], o->readback_memory, 0));
        OK(vkMapMemory(o->dev, o->readback_memory, 0, VK_WHOLE_SIZE, 0, &o->readback));
        memset(o->readback, 0, (size_t)b->size);
    }
    for (uint32_t i = 0; i < f->view_count; i++) {
        uint32_t k = 0;
        while (k < f->image_count && f->images[k].handle != f->views[i].image)
            k++;
        if (k == f->image_count)
            return fail(f, "view %llx: no image %llx", (unsigned long long)f->views[i].handle,
                        (unsigned long long)f->views[i].image);
        VkImageViewCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = o->images[k],
                                     .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = f->images[k].format,
                                     .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
        OK(vkCreateImageView(o->dev, &vi, NULL, &o->views[i]));
    }
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = d->family };
    OK(vkCreateCommandPool(o->dev, &pci, NULL, &o->cmd_pool));
    return f->draw_count == 0 || make_pipeline(f, o);
}

static void destroy_objects(objects *o)
{
    vkDestroyCommandPool(o->dev, o->cmd_pool, NULL);
    vkDestroyPipeline(o->dev, o->pipeline, NULL);
    vkDestroyPipelineLayout(o->dev, o->layout, NULL);
    vkDestroyShaderModule(o->dev, o->vert, NULL);
    vkDestroyShaderModule(o->dev, o->frag, NULL);
    for (uint32_t i = 0; i < REPLAY_MAX_VIEWS; i++)
        vkDestroyImageView(o->dev, o->views[i], NULL);
    for (uint32_t i = 0; i < REPLAY_MAX_IMAGES; i++)
        vkDestroyImage(o->dev, o->images[i], NULL);
    for (uint32_t i = 0; i < REPLAY_MAX_BUFFERS; i++)
        vkDestroyBuffer(o->dev, o->buffers[i], NULL);
    for (uint32_t i = 0; i < REPLAY_MAX_POOLS; i++)
        vkFreeMemory(o->dev, o->pools[i], NULL);
    vkFreeMemory(o->dev, o->readback_memory, NULL);
}

/* ----------------------------------------------------------- the calls */

static VkImage image_of(const replay_frame *f, const objects *o, unsigned long long h)
{
    for (uint32_t i = 0; i < f->image_count; i++)
        if (f->images[i].handle == h)
            return o->images[i];
    return VK_NULL_HANDLE;
}

static const replay_image *image_info(const replay_frame *f, unsigned long long h)
{
    for (uint32_t i = 0; i < f->image_count; i++)
        if (f->images[i].handle == h)
            return &f->images[i];
    return NULL;
}

static VkImageView view_of(const replay_frame *f, const objects *o, unsigned long long h)
{
    for (uint32_t i = 0; i < f->view_count; i++)
        if (f->views[i].handle == h)
            return o->views[i];
    return VK_NULL_HANDLE;
}

static VkBuffer buffer_of(const replay_frame *f, const objects *o, unsigned long long h)
{
    for (uint32_t i = 0; i < f->buffer_count; i++)
        if (f->buffers[i].handle == h)
            return o->buffers[i];
    return VK_NULL_HANDLE;
}

/* "barrier ..." at line i and its indented lines; the line after them. */
static uint32_t barrier(replay_frame *f, const objects *o, VkCommandBuffer cmd, uint32_t i, bool *ok)
{
    unsigned flags, nm, nb, ni;
    sscanf(f->lines[i], "barrier flags %x memory %u buffers %u images %u", &flags, &nm, &nb, &ni);
    VkMemoryBarrier2 mem[8];
    VkBufferMemoryBarrier2 buf[16];
    VkImageMemoryBarrier2 img[64];
    *ok = nm <= 8 && nb <= 16 && ni <= 64;
    for (uint32_t k = 0; *ok && k < nm + nb + ni; k++) {
        const char *l = f->lines[++i];
        unsigned long long h, ss, sa, ds, da, off, size;
        unsigned aspect, mip, mips, layer, layers;
        int from, to;
        if (k < nm) {
            *ok = sscanf(l, "  memory %llx/%llx -> %llx/%llx", &ss, &sa, &ds, &da) == 4;
            mem[k] = (VkMemoryBarrier2){ VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, NULL, ss, sa, ds, da };
        } else if (k < nm + nb) {
            *ok = sscanf(l, "  buffer %llx %llx/%llx -> %llx/%llx [%llu+%llu]", &h, &ss, &sa, &ds, &da, &off,
                         &size) == 7 && buffer_of(f, o, h);
            buf[k - nm] = (VkBufferMemoryBarrier2){ VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, NULL, ss, sa, ds, da,
                                                    VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                                    buffer_of(f, o, h), off, size };
        } else {
            *ok = sscanf(l, "  image %llx %llx/%llx -> %llx/%llx layout %d -> %d aspect %x mips %u+%u layers %u+%u",
                         &h, &ss, &sa, &ds, &da, &from, &to, &aspect, &mip, &mips, &layer, &layers) == 12 &&
                  image_of(f, o, h);
            img[k - nm - nb] = (VkImageMemoryBarrier2){ VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, NULL, ss, sa, ds, da,
                                                        (VkImageLayout)from, (VkImageLayout)to,
                                                        VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED,
                                                        image_of(f, o, h), { aspect, mip, mips, layer, layers } };
        }
    }
    VkDependencyInfo di = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .dependencyFlags = flags,
                            .memoryBarrierCount = nm, .pMemoryBarriers = mem, .bufferMemoryBarrierCount = nb,
                            .pBufferMemoryBarriers = buf, .imageMemoryBarrierCount = ni, .pImageMemoryBarriers = img };
    if (*ok)
        vkCmdPipelineBarrier2(cmd, &di);
    return i + 1;
}

/* "begin flags ..." at line i and its indented lines; the line after them. */
static uint32_t begin(replay_frame *f, const objects *o, VkCommandBuffer cmd, uint32_t i, bool *ok)
{
    unsigned flags, w, h, layers, mask, count;
    int x, y;
    VkRenderingAttachmentInfo colors[8];
    *ok = sscanf(f->lines[i], "begin flags %x", &flags) == 1 &&
          sscanf(f->lines[++i], "  area %d,%d %ux%u layers %u view mask %x colors %u", &x, &y, &w, &h, &layers,
                 &mask, &count) == 7 && count <= 8;
    for (uint32_t k = 0; *ok && k < count; k++) {
        unsigned long long view, resolve_view;
        int layout, load, store, resolve_layout;
        unsigned resolve, v[4];
        char first[16];
        *ok = sscanf(f->lines[++i], "  color view %llx layout %d load %d store %d resolve %x view %llx layout %d clear %15s",
                     &view, &layout, &load, &store, &resolve, &resolve_view, &resolve_layout, first) == 8 &&
              !resolve && sscanf(f->lines[++i], "  clear value %x %x %x %x", &v[0], &v[1], &v[2], &v[3]) == 4 &&
              view_of(f, o, view);
        colors[k] = (VkRenderingAttachmentInfo){ .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                                 .imageView = view_of(f, o, view),
                                                 .imageLayout = (VkImageLayout)layout,
                                                 .loadOp = (VkAttachmentLoadOp)load,
                                                 .storeOp = (VkAttachmentStoreOp)store,
                                                 .clearValue.color.uint32 = { v[0], v[1], v[2], v[3] } };
    }
    /* Depth, stencil, pNext: not in the random frames. */
    if (*ok && i + 1 < f->line_count && starts(f->lines[i + 1], "  "))
        *ok = fail(f, "line %u: not replayed: %s", i + 2, f->lines[i + 1]);
    VkRenderingInfo ri = { .sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .flags = flags,
                           .renderArea = { { x, y }, { w, h } }, .layerCount = layers, .viewMask = mask,
                           .colorAttachmentCount = count, .pColorAttachments = colors };
    if (*ok)
        vkCmdBeginRendering(cmd, &ri);
    return i + 1;
}

/* A user command: its draw, where the device test's drew (the solid
 * pipeline), else nothing (it recorded nothing). */
static void call(const replay_frame *f, const objects *o, VkCommandBuffer cmd, const char *name)
{
    for (uint32_t k = 0; k < f->draw_count; k++) {
        const replay_draw *d = &f->draws[k];
        if (strcmp(d->name, name) != 0)
            continue;
        float push[12] = { d->rect[0], d->rect[1], d->rect[2], d->rect[3], d->color[0], d->color[1], d->color[2],
                           d->color[3], d->depth, 0, 0, 0 };
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, o->pipeline);
        vkCmdPushConstants(cmd, o->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                           push);
        vkCmdDraw(cmd, 4, 1, 0, 0);
    }
}

/* Lines s of f into cmd, each as the call it logs. */
static bool record(replay_frame *f, const objects *o, VkCommandBuffer cmd, replay_span s)
{
    for (uint32_t i = s.first; i < s.end;) {
        const char *l = f->lines[i];
        unsigned long long a, b, c, d, e;
        unsigned n, aspect, mip, layer, layers, w, h, v[4];
        int la, lb, filter, x, y, vw, vh;
        float z0, z1;
        bool ok = true;
        if (starts(l, "barrier ")) {
            i = barrier(f, o, cmd, i, &ok);
        } else if (starts(l, "begin ")) {
            i = begin(f, o, cmd, i, &ok);
        } else {
            if (starts(l, "label") || starts(l, "call ")) {
                if (starts(l, "call "))
                    call(f, o, cmd, l + 5);
            } else if (strcmp(l, "end") == 0) {
                vkCmdEndRendering(cmd);
            } else if (sscanf(l, "viewport 0 %d,%d %dx%d depth %f-%f", &x, &y, &vw, &vh, &z0, &z1) == 6) {
                VkViewport vp = { (float)x, (float)y, (float)vw, (float)vh, z0, z1 };
                vkCmdSetViewport(cmd, 0, 1, &vp);
            } else if (sscanf(l, "scissor 0 %d,%d %ux%u", &x, &y, &w, &h) == 4) {
                vkCmdSetScissor(cmd, 0, 1, &(VkRect2D){ { x, y }, { w, h } });
            } else if (sscanf(l, "copy buffer %llx -> %llx regions %u [%llu -> %llu, %llu]", &a, &b, &n, &c, &d, &e) ==
                           6 && n == 1) {
                vkCmdCopyBuffer(cmd, buffer_of(f, o, a), buffer_of(f, o, b), 1, &(VkBufferCopy){ c, d, e });
            } else if ((sscanf(l, "copy to image buffer %llx image %llx layout %d regions %u [%llu aspect %x mip %u "
                                  "layers %u+%u %ux%u]", &a, &b, &la, &n, &c, &aspect, &mip, &layer, &layers, &w,
                               &h) == 11 ||
                        sscanf(l, "copy to buffer buffer %llx image %llx layout %d regions %u [%llu aspect %x mip %u "
                                  "layers %u+%u %ux%u]", &a, &b, &la, &n, &c, &aspect, &mip, &layer, &layers, &w,
                               &h) == 11) && n == 1) {
                VkBufferImageCopy r = { .bufferOffset = c, .imageSubresource = { aspect, mip, layer, layers },
                                        .imageExtent = { w, h, 1 } };
                if (l[8] == 'i')
                    vkCmdCopyBufferToImage(cmd, buffer_of(f, o, a), image_of(f, o, b), (VkImageLayout)la, 1, &r);
                else
                    vkCmdCopyImageToBuffer(cmd, image_of(f, o, b), (VkImageLayout)la, buffer_of(f, o, a), 1, &r);
            } else if (sscanf(l, "blit %llx layout %d -> %llx layout %d regions %u mips %u -> %u filter %d", &a, &la, &b,
                              &lb, &n, &mip, &layer, &filter) == 8 && n == 1 && image_info(f, a) && image_info(f, b)) {
                /* The graph blits a whole mip onto a whole mip. */
                const replay_image *si = image_info(f, a), *di = image_info(f, b);
                VkImageBlit r = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, mip, 0, 1 },
                                  .srcOffsets = { { 0, 0, 0 }, { (int32_t)(si->width >> mip), (int32_t)(si->height >> mip), 1 } },
                                  .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, layer, 0, 1 },
                                  .dstOffsets = { { 0, 0, 0 }, { (int32_t)(di->width >> layer), (int32_t)(di->height >> layer), 1 } } };
                vkCmdBlitImage(cmd, image_of(f, o, a), (VkImageLayout)la, image_of(f, o, b), (VkImageLayout)lb, 1, &r,
                               (VkFilter)filter);
            } else if (sscanf(l, "clear %llx layout %d value %x %x %x %x ranges %u mips %u+%u layers %u+%u", &a, &la,
                              &v[0], &v[1], &v[2], &v[3], &n, &mip, &w, &layer, &layers) == 11 && n == 1) {
                VkClearColorValue cv = { .uint32 = { v[0], v[1], v[2], v[3] } };
                VkImageSubresourceRange r = { VK_IMAGE_ASPECT_COLOR_BIT, mip, w, layer, layers };
                vkCmdClearColorImage(cmd, image_of(f, o, a), (VkImageLayout)la, &cv, 1, &r);
            } else {
                ok = false;
            }
            i++;
        }
        if (!ok)
            return f->error[0] ? false : fail(f, "line %u: not replayed: %s", i, f->lines[i - 1]);
    }
    return true;
}

bool replay_run(replay_frame *f, test_raw_device *d, replay_mode mode, unsigned char *out)
{
    objects o = { .dev = d->device };
    bool ok = make_objects(f, d, &o);
    uint32_t count = mode == REPLAY_CHUNKS ? f->chunk_count : 1;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = o.cmd_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = count };
    ok = ok && vkAllocateCommandBuffers(o.dev, &ai, o.cmds) == VK_SUCCESS;
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    for (uint32_t c = 0; ok && c < count; c++) {
        ok = vkBeginCommandBuffer(o.cmds[c], &bi) == VK_SUCCESS;
        if (mode == REPLAY_WHOLE)
            ok = ok && record(f, &o, o.cmds[c], f->whole);
        else if (mode == REPLAY_CHUNKS)
            ok = ok && record(f, &o, o.cmds[c], f->chunks[c]);
        for (uint32_t k = 0; ok && mode == REPLAY_CHUNKS_IN_ONE && k < f->chunk_count; k++)
            ok = record(f, &o, o.cmds[c], f->chunks[k]);
        ok = ok && vkEndCommandBuffer(o.cmds[c]) == VK_SUCCESS;
    }
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = count,
                        .pCommandBuffers = o.cmds };
    if (ok && (vkQueueSubmit(d->queue, 1, &si, VK_NULL_HANDLE) != VK_SUCCESS ||
               vkDeviceWaitIdle(o.dev) != VK_SUCCESS))
        ok = fail(f, "vkQueueSubmit or vkDeviceWaitIdle failed");
    if (ok)
        memcpy(out, o.readback, (size_t)f->readback_size);
    destroy_objects(&o);
    return ok;
}
