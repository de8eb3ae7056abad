/* The call logs and the loggers of the parallel recording tests
 * (parallel_support.h). */
#include "parallel_support.h"

#include "device_fixture.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* ------------------------------------------------------- the call logs */

static struct {
    cmd_log logs[MAX_CMDS];
    uint32_t count;
} logs;

void parallel_log_open(VkCommandBuffer cmd)
{
    cr_assert_lt(logs.count, MAX_CMDS);
    logs.logs[logs.count++] = (cmd_log){ .cmd = cmd };
}

static cmd_log *log_of(VkCommandBuffer cmd)
{
    for (uint32_t i = 0; i < logs.count; i++)
        if (logs.logs[i].cmd == cmd)
            return &logs.logs[i];
    return NULL;
}

char *parallel_log_take(VkCommandBuffer cmd)
{
    cmd_log *l = log_of(cmd);
    cr_assert_not_null(l, "no log for a command buffer");
    cr_assert(!l->lost, "a log line was lost (out of memory)");
    char *t = l->text ? l->text : calloc(1, 1);
    l->text = NULL;
    l->len = l->cap = 0;
    return t;
}

void parallel_logs_close(void)
{
    for (uint32_t i = 0; i < logs.count; i++)
        free(logs.logs[i].text);
    logs.count = 0;
}

/* parallel_log_printf with the arguments as a va_list. */
static void log_vprintf(VkCommandBuffer cmd, const char *fmt, va_list ap)
{
    cmd_log *l = log_of(cmd);
    if (!l)
        return;                       /* a command buffer this test does not watch */
    char line[512];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0 || (size_t)n >= sizeof line) {
        l->lost = true;
        return;
    }
    size_t need = l->len + (size_t)n + 1;
    if (need > l->cap) {
        char *t = realloc(l->text, need * 2);
        if (!t) {
            l->lost = true;
            return;
        }
        l->text = t;
        l->cap = need * 2;
    }
    memcpy(l->text + l->len, line, (size_t)n + 1);
    l->len += (size_t)n;
}

void parallel_log_printf(VkCommandBuffer cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vprintf(cmd, fmt, ap);
    va_end(ap);
}

/* The driver's entry points, loaded once on the test's thread. */
static struct {
    PFN_vkCmdPipelineBarrier2 barrier;
    PFN_vkCmdBeginRendering begin;
    PFN_vkCmdEndRendering end;
    PFN_vkCmdSetViewport viewport;
    PFN_vkCmdSetScissor scissor;
    PFN_vkCmdSetRenderingAttachmentLocationsKHR locations;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR inputs;
    PFN_vkCmdBeginDebugUtilsLabelEXT label_begin;
    PFN_vkCmdEndDebugUtilsLabelEXT label_end;
    PFN_vkCmdCopyBuffer copy_buffer;
    PFN_vkCmdCopyBufferToImage copy_to_image;
    PFN_vkCmdCopyImageToBuffer copy_to_buffer;
    PFN_vkCmdBlitImage blit;
    PFN_vkCmdClearColorImage clear_color;
    PFN_vkCmdClearDepthStencilImage clear_depth;
} real;

/* call_text.h's output: the log of the command buffer given as sink. */
static void log_out(void *sink, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vprintf((VkCommandBuffer)sink, fmt, ap);
    va_end(ap);
}

static void VKAPI_CALL log_barrier(VkCommandBuffer cmd, const VkDependencyInfo *d)
{
    test_text_barrier(log_out, cmd, d);
    real.barrier(cmd, d);
}

/* The attachment, then its whole clear value (call_text.h writes its
 * first four bytes): tests/raw's replay clears 16-byte texels with it. */
static void log_attachment(VkCommandBuffer cmd, const char *what, const VkRenderingAttachmentInfo *a)
{
    test_text_attachment(log_out, cmd, what, a);
    const uint32_t *v = a->clearValue.color.uint32;
    parallel_log_printf(cmd, "  clear value %08x %08x %08x %08x\n", v[0], v[1], v[2], v[3]);
}

/* "begin flags F" on a line of its own, then the rest of the info, each
 * line indented: a resumption's info is compared without its flags. */
static void VKAPI_CALL log_begin(VkCommandBuffer cmd, const VkRenderingInfo *ri)
{
    parallel_log_printf(cmd, "begin flags %x\n", (unsigned)ri->flags);
    parallel_log_printf(cmd, "  area %d,%d %ux%u layers %u view mask %x colors %u\n", ri->renderArea.offset.x,
               ri->renderArea.offset.y, ri->renderArea.extent.width, ri->renderArea.extent.height, ri->layerCount,
               ri->viewMask, ri->colorAttachmentCount);
    for (const VkBaseInStructure *n = ri->pNext; n; n = n->pNext)
        parallel_log_printf(cmd, "  next %d\n", (int)n->sType);
    for (uint32_t i = 0; i < ri->colorAttachmentCount; i++)
        log_attachment(cmd, "color", &ri->pColorAttachments[i]);
    if (ri->pDepthAttachment)
        log_attachment(cmd, "depth", ri->pDepthAttachment);
    if (ri->pStencilAttachment)
        log_attachment(cmd, "stencil", ri->pStencilAttachment);
    real.begin(cmd, ri);
}

static void VKAPI_CALL log_end(VkCommandBuffer cmd)
{
    parallel_log_printf(cmd, "end\n");
    real.end(cmd);
}

static void VKAPI_CALL log_viewport(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkViewport *v)
{
    for (uint32_t i = 0; i < count; i++)
        parallel_log_printf(cmd, "viewport %u %d,%d %dx%d depth %g-%g\n", first + i, (int)v[i].x, (int)v[i].y,
                   (int)v[i].width, (int)v[i].height, (double)v[i].minDepth, (double)v[i].maxDepth);
    real.viewport(cmd, first, count, v);
}

static void VKAPI_CALL log_scissor(VkCommandBuffer cmd, uint32_t first, uint32_t count, const VkRect2D *r)
{
    for (uint32_t i = 0; i < count; i++)
        parallel_log_printf(cmd, "scissor %u %d,%d %ux%u\n", first + i, r[i].offset.x, r[i].offset.y, r[i].extent.width,
                   r[i].extent.height);
    real.scissor(cmd, first, count, r);
}

static void log_indices(VkCommandBuffer cmd, const char *what, uint32_t n, const uint32_t *v)
{
    char line[256] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < n && v && at < sizeof line - 16; i++)
        at += (size_t)snprintf(line + at, sizeof line - at, " %d", (int)v[i]);
    parallel_log_printf(cmd, "%s %u:%s\n", what, n, line);
}

static void VKAPI_CALL log_locations(VkCommandBuffer cmd, const VkRenderingAttachmentLocationInfoKHR *l)
{
    log_indices(cmd, "locations", l->colorAttachmentCount, l->pColorAttachmentLocations);
    real.locations(cmd, l);
}

static void VKAPI_CALL log_inputs(VkCommandBuffer cmd, const VkRenderingInputAttachmentIndexInfoKHR *in)
{
    log_indices(cmd, "inputs", in->colorAttachmentCount, in->pColorAttachmentInputIndices);
    parallel_log_printf(cmd, "  depth input %d stencil input %d\n",
               in->pDepthInputAttachmentIndex ? (int)*in->pDepthInputAttachmentIndex : -2,
               in->pStencilInputAttachmentIndex ? (int)*in->pStencilInputAttachmentIndex : -2);
    real.inputs(cmd, in);
}

/* The layer's label calls one thread at a time: Debian 12's validation
 * layer (1.3.239) keeps every command buffer's labels in one map and
 * erases from it without its lock (KhronosGroup/Vulkan-ValidationLayers
 * #5172, fixed by pull request #5312), and chunks recorded at once then
 * crashed it now and then (a double free inside its
 * vkCmdBeginDebugUtilsLabelEXT). The graph may call them at once: Vulkan
 * allows it for different command buffers. */
static atomic_flag label_lock = ATOMIC_FLAG_INIT;

static void label_locked(bool on)
{
    if (on)
        while (atomic_flag_test_and_set_explicit(&label_lock, memory_order_acquire))
            ;
    else
        atomic_flag_clear_explicit(&label_lock, memory_order_release);
}

static void VKAPI_CALL log_label_begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT *label)
{
    parallel_log_printf(cmd, "label %s\n", label->pLabelName);
    label_locked(true);
    real.label_begin(cmd, label);
    label_locked(false);
}

static void VKAPI_CALL log_label_end(VkCommandBuffer cmd)
{
    parallel_log_printf(cmd, "label end\n");
    label_locked(true);
    real.label_end(cmd);
    label_locked(false);
}

/* The graph's own transfers: their objects, layouts and regions. */
static void VKAPI_CALL log_copy_buffer(VkCommandBuffer cmd, VkBuffer src, VkBuffer dst, uint32_t n,
                                       const VkBufferCopy *r)
{
    parallel_log_printf(cmd, "copy buffer %llx -> %llx regions %u [%llu -> %llu, %llu]\n", (unsigned long long)(uintptr_t)src,
               (unsigned long long)(uintptr_t)dst, n, (unsigned long long)r->srcOffset,
               (unsigned long long)r->dstOffset, (unsigned long long)r->size);
    real.copy_buffer(cmd, src, dst, n, r);
}

static void log_image_copy(VkCommandBuffer cmd, const char *what, VkBuffer buffer, VkImage image, VkImageLayout layout,
                           uint32_t n, const VkBufferImageCopy *r)
{
    parallel_log_printf(cmd, "%s buffer %llx image %llx layout %d regions %u [%llu aspect %x mip %u layers %u+%u %ux%u]\n", what,
               (unsigned long long)(uintptr_t)buffer, (unsigned long long)(uintptr_t)image, (int)layout, n,
               (unsigned long long)r->bufferOffset, r->imageSubresource.aspectMask, r->imageSubresource.mipLevel,
               r->imageSubresource.baseArrayLayer, r->imageSubresource.layerCount, r->imageExtent.width,
               r->imageExtent.height);
}

static void VKAPI_CALL log_copy_to_image(VkCommandBuffer cmd, VkBuffer src, VkImage dst, VkImageLayout layout,
                                         uint32_t n, const VkBufferImageCopy *r)
{
    log_image_copy(cmd, "copy to image", src, dst, layout, n, r);
    real.copy_to_image(cmd, src, dst, layout, n, r);
}

static void VKAPI_CALL log_copy_to_buffer(VkCommandBuffer cmd, VkImage src, VkImageLayout layout, VkBuffer dst,
                                          uint32_t n, const VkBufferImageCopy *r)
{
    log_image_copy(cmd, "copy to buffer", dst, src, layout, n, r);
    real.copy_to_buffer(cmd, src, layout, dst, n, r);
}

static void VKAPI_CALL log_blit(VkCommandBuffer cmd, VkImage src, VkImageLayout src_layout, VkImage dst,
                                VkImageLayout dst_layout, uint32_t n, const VkImageBlit *r, VkFilter filter)
{
    parallel_log_printf(cmd, "blit %llx layout %d -> %llx layout %d regions %u mips %u -> %u filter %d\n",
               (unsigned long long)(uintptr_t)src, (int)src_layout, (unsigned long long)(uintptr_t)dst,
               (int)dst_layout, n, r->srcSubresource.mipLevel, r->dstSubresource.mipLevel, (int)filter);
    real.blit(cmd, src, src_layout, dst, dst_layout, n, r, filter);
}

static void VKAPI_CALL log_clear_color(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                       const VkClearColorValue *v, uint32_t n, const VkImageSubresourceRange *r)
{
    parallel_log_printf(cmd, "clear %llx layout %d value %08x %08x %08x %08x ranges %u mips %u+%u layers %u+%u\n",
               (unsigned long long)(uintptr_t)image, (int)layout, v->uint32[0], v->uint32[1], v->uint32[2],
               v->uint32[3], n, r->baseMipLevel, r->levelCount, r->baseArrayLayer, r->layerCount);
    real.clear_color(cmd, image, layout, v, n, r);
}

static void VKAPI_CALL log_clear_depth(VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                                       const VkClearDepthStencilValue *v, uint32_t n,
                                       const VkImageSubresourceRange *r)
{
    parallel_log_printf(cmd, "clear depth %llx layout %d value %g %u ranges %u aspect %x\n", (unsigned long long)(uintptr_t)image,
               (int)layout, (double)v->depth, v->stencil, n, r->aspectMask);
    real.clear_depth(cmd, image, layout, v, n, r);
}

/* The images and views the graph creates on the logging device: each
 * image's usage and flags, each view's image (latest first where the
 * driver hands a freed handle out again), for the frames
 * test_execute_parallel_random.c writes for tests/raw's replay. Written
 * by rg_place on the test's thread. */
#define MADE_MAX 4096

static struct {
    uint64_t handle, image;           /* image: 0 for an image, its image for a view */
    VkImageUsageFlags usage;
    VkImageCreateFlags flags;
} made[MADE_MAX];
static uint32_t made_count, made_next;

static void made_add(uint64_t handle, uint64_t image, VkImageUsageFlags usage, VkImageCreateFlags flags)
{
    uint32_t at = made_next;
    for (uint32_t i = 0; i < made_count; i++)
        if (made[i].handle == handle)
            at = i;
    if (at == made_next) {
        made_next = (made_next + 1) % MADE_MAX;
        if (made_count < MADE_MAX)
            made_count++;
    }
    made[at].handle = handle;
    made[at].image = image;
    made[at].usage = usage;
    made[at].flags = flags;
}

static VkResult VKAPI_CALL log_create_image(VkDevice dev, const VkImageCreateInfo *ci, const VkAllocationCallbacks *a,
                                            VkImage *out)
{
    VkResult r = ((PFN_vkCreateImage)test_real_device_proc("vkCreateImage"))(dev, ci, a, out);
    if (r == VK_SUCCESS)
        made_add((uint64_t)(uintptr_t)*out, 0, ci->usage, ci->flags);
    return r;
}

static VkResult VKAPI_CALL log_create_view(VkDevice dev, const VkImageViewCreateInfo *ci,
                                           const VkAllocationCallbacks *a, VkImageView *out)
{
    VkResult r = ((PFN_vkCreateImageView)test_real_device_proc("vkCreateImageView"))(dev, ci, a, out);
    if (r == VK_SUCCESS)
        made_add((uint64_t)(uintptr_t)*out, (uint64_t)(uintptr_t)ci->image, 0, 0);
    return r;
}

bool parallel_image_made(VkImage image, VkImageUsageFlags *usage, VkImageCreateFlags *flags)
{
    for (uint32_t i = 0; i < made_count; i++)
        if (made[i].handle == (uint64_t)(uintptr_t)image && !made[i].image) {
            *usage = made[i].usage;
            *flags = made[i].flags;
            return true;
        }
    return false;
}

uint32_t parallel_views_of(VkImage image, VkImageView *views, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < made_count && n < max; i++)
        if (made[i].image == (uint64_t)(uintptr_t)image)
            views[n++] = (VkImageView)(uintptr_t)made[i].handle;
    return n;
}

rg_device *parallel_logging_device(void)
{
    VkDevice dev = eng_context_device(test_ctx);
    VkInstance inst = eng_context_instance(test_ctx);
    real.barrier = (PFN_vkCmdPipelineBarrier2)vkGetDeviceProcAddr(dev, "vkCmdPipelineBarrier2");
    real.begin = (PFN_vkCmdBeginRendering)vkGetDeviceProcAddr(dev, "vkCmdBeginRendering");
    real.end = (PFN_vkCmdEndRendering)vkGetDeviceProcAddr(dev, "vkCmdEndRendering");
    real.viewport = (PFN_vkCmdSetViewport)vkGetDeviceProcAddr(dev, "vkCmdSetViewport");
    real.scissor = (PFN_vkCmdSetScissor)vkGetDeviceProcAddr(dev, "vkCmdSetScissor");
    real.locations = (PFN_vkCmdSetRenderingAttachmentLocationsKHR)vkGetDeviceProcAddr(
        dev, "vkCmdSetRenderingAttachmentLocationsKHR");
    real.inputs = (PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)vkGetDeviceProcAddr(
        dev, "vkCmdSetRenderingInputAttachmentIndicesKHR");
    real.label_begin = (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(inst, "vkCmdBeginDebugUtilsLabelEXT");
    real.label_end = (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(inst, "vkCmdEndDebugUtilsLabelEXT");
    real.copy_buffer = (PFN_vkCmdCopyBuffer)vkGetDeviceProcAddr(dev, "vkCmdCopyBuffer");
    real.copy_to_image = (PFN_vkCmdCopyBufferToImage)vkGetDeviceProcAddr(dev, "vkCmdCopyBufferToImage");
    real.copy_to_buffer = (PFN_vkCmdCopyImageToBuffer)vkGetDeviceProcAddr(dev, "vkCmdCopyImageToBuffer");
    real.blit = (PFN_vkCmdBlitImage)vkGetDeviceProcAddr(dev, "vkCmdBlitImage");
    real.clear_color = (PFN_vkCmdClearColorImage)vkGetDeviceProcAddr(dev, "vkCmdClearColorImage");
    real.clear_depth = (PFN_vkCmdClearDepthStencilImage)vkGetDeviceProcAddr(dev, "vkCmdClearDepthStencilImage");
    cr_assert(real.copy_buffer && real.copy_to_image && real.copy_to_buffer && real.blit && real.clear_color &&
              real.clear_depth);
    cr_assert(real.barrier && real.begin && real.end && real.viewport && real.scissor);
    cr_assert(real.label_begin && real.label_end, "the fixture's instance has no debug utils");
    bool local_read = eng_context_local_read(test_ctx).supported;
    cr_assert(!local_read || (real.locations && real.inputs));
    static const test_spy device[] = {
        { "vkCmdPipelineBarrier2", (PFN_vkVoidFunction)log_barrier },
        { "vkCmdBeginRendering", (PFN_vkVoidFunction)log_begin },
        { "vkCmdEndRendering", (PFN_vkVoidFunction)log_end },
        { "vkCmdSetViewport", (PFN_vkVoidFunction)log_viewport },
        { "vkCmdSetScissor", (PFN_vkVoidFunction)log_scissor },
        { "vkCmdSetRenderingAttachmentLocationsKHR", (PFN_vkVoidFunction)log_locations },
        { "vkCmdSetRenderingInputAttachmentIndicesKHR", (PFN_vkVoidFunction)log_inputs },
        { "vkCmdCopyBuffer", (PFN_vkVoidFunction)log_copy_buffer },
        { "vkCmdCopyBufferToImage", (PFN_vkVoidFunction)log_copy_to_image },
        { "vkCmdCopyImageToBuffer", (PFN_vkVoidFunction)log_copy_to_buffer },
        { "vkCmdBlitImage", (PFN_vkVoidFunction)log_blit },
        { "vkCmdClearColorImage", (PFN_vkVoidFunction)log_clear_color },
        { "vkCmdClearDepthStencilImage", (PFN_vkVoidFunction)log_clear_depth },
        { "vkCreateImage", (PFN_vkVoidFunction)log_create_image },
        { "vkCreateImageView", (PFN_vkVoidFunction)log_create_view },
    };
    static const test_spy instance[] = {
        { "vkCmdBeginDebugUtilsLabelEXT", (PFN_vkVoidFunction)log_label_begin },
        { "vkCmdEndDebugUtilsLabelEXT", (PFN_vkVoidFunction)log_label_end },
    };
    static const test_spies spies = { device, sizeof device / sizeof device[0], instance, 2 };
    rg_device_desc d = test_spy_desc(&spies, true);
    d.timeline_semaphore = true;
    d.local_read = local_read;
    d.debug_utils = true;
    return test_spy_device(&d);
}
