/* A "null device" for the fuzz harness: an rg_device made by
 * rg_device_create over a fake vkGetInstanceProcAddr that serves every
 * Vulkan function the render graph loads, so a graph can be placed and
 * its frames recorded with no GPU, no loader and no driver.
 *
 *   - Physical-device queries answer from a real device's memory-type table
 *     (tests/unit/device_tables.c) with Vulkan 1.3 limits, every format
 *     feature, three queue families (graphics, compute, transfer) with
 *     64-bit timestamps, and every depth/stencil resolve mode.
 *   - Objects are fake handles, unique per device and never 0; an image's
 *     or buffer's memory requirements follow from its create info (texel
 *     blocks times extent, mips, layers and samples), every memory type of
 *     the table allowed. Submissions, waits and queries succeed (a query
 *     reads 0, available; an event is always set), so a graph's timings
 *     reuse one slot frame after frame.
 *   - Each vkCmd* call appends one line of text to the log of the command
 *     buffer it records into (command buffers are null_cmd_create's fake
 *     handles), and for the layout oracle the image subresources it
 *     transitions or uses, with their layouts.
 * Single-threaded, as the harness is. */
#ifndef FUZZ_NULL_DEVICE_H
#define FUZZ_NULL_DEVICE_H

#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct null_device null_device;

/* Makes the device (rg_device_create with every queue, timeline
 * semaphores and local read; debug utils when asked: labels and object
 * names). NULL when out of memory or rg_device_create refuses. */
null_device *null_device_create(const VkPhysicalDeviceMemoryProperties *memory, bool debug_utils);
/* After every graph on it is destroyed (and every command buffer). */
void null_device_destroy(null_device *nd);
rg_device *null_device_rg(const null_device *nd);

/* An application's image and its whole view (an import's), and buffer. */
VkImage null_device_app_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers, VkImageView *view);
VkBuffer null_device_app_buffer(null_device *nd);

/* A live image's shape; false for anything else (destroyed, never made,
 * not an image). index: dense, below null_device_image_count. */
typedef struct nd_image_info {
    uint32_t index;
    VkFormat format;
    uint32_t mips, layers;
    VkImageAspectFlags aspects;
} nd_image_info;
bool null_device_image(const null_device *nd, VkImage image, nd_image_info *out);
uint32_t null_device_image_count(const null_device *nd);

/* A handle of the device as the logs name it: "image3", "view7", "0". */
const char *null_handle_name(uint64_t handle, char *buf, size_t size);

/* The command buffers vkQueueSubmit2 was given since the last call, in
 * order; valid until the next submission or call. */
const VkCommandBuffer *null_device_take_submitted(null_device *nd, uint32_t *count);

/* ------------------------------------------------------ command buffers */

VkCommandBuffer null_cmd_create(null_device *nd);
void null_cmd_destroy(VkCommandBuffer cmd); /* NULL: nothing */
/* A line of the harness's own (a record callback's) in cmd's log. */
void null_cmd_note(VkCommandBuffer cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

typedef enum nd_kind {
    ND_BARRIER,
    ND_BEGIN,
    ND_END,
    ND_VIEWPORT,
    ND_SCISSOR,
    ND_LOCATIONS,
    ND_INPUTS,
    ND_LABEL_BEGIN,
    ND_LABEL_END,
    ND_COPY_BUFFER,
    ND_COPY_TO_IMAGE,
    ND_COPY_TO_BUFFER,
    ND_BLIT,
    ND_CLEAR_COLOR,
    ND_CLEAR_DEPTH,
    ND_RESET_QUERIES,
    ND_TIMESTAMP,
    ND_SET_EVENT,
    ND_NOTE,
} nd_kind;

/* A range of one image's subresources a call transitions (barriers:
 * old_layout to layout) or uses in `layout` (attachments, copies, clears,
 * blits). image is VK_NULL_HANDLE where the call named an image or view
 * the device does not hold (destroyed, never made): the oracle says so. */
typedef struct nd_image_use {
    VkImage image;
    VkImageSubresourceRange range;
    VkImageLayout old_layout, layout;
    bool transition;
    uint64_t named; /* the handle as the call gave it (an image or a view) */
} nd_image_use;

/* One call. text is the whole call but a rendering begin's flags, which
 * are in flags (a resumed begin is compared with the suspended one without
 * them); area: a begin's render area, a scissor's rectangle; viewport: a
 * viewport's first. */
typedef struct nd_call {
    nd_kind kind;
    VkRenderingFlags flags;
    VkRect2D area;
    VkViewport viewport;
    char *text;
    uint32_t first_use, use_count; /* into null_cmd_uses */
} nd_call;

const nd_call *null_cmd_calls(VkCommandBuffer cmd, uint32_t *count);
const nd_image_use *null_cmd_uses(VkCommandBuffer cmd);
/* The line a call compares as: a begin's text behind its flags, masked by
 * flag_mask; any other call's text. Into buf (size bytes). */
const char *null_call_line(const nd_call *c, VkRenderingFlags flag_mask, char *buf, size_t size);

#endif
