/* A frame's logged Vulkan calls replayed by hand, without the render
 * graph (tests/raw): the file test_execute_parallel_random.c writes with
 * RF_DUMP (its objects with their pool offsets, its draws, the calls of
 * the whole command buffer and of each chunk) is read, its images and
 * buffers are created and bound at the same offsets of fresh pools, and
 * the calls are recorded again, in the same order, into one command
 * buffer or into one per chunk, submitted at once, and read back.
 *
 *   replay_frame f;
 *   replay_load(&f, path);                 // false: why in f.error
 *   unsigned char *bytes = malloc(f.readback_size);
 *   replay_run(&f, &device, REPLAY_CHUNKS, bytes);
 *   replay_free(&f);
 *
 * The file, one item a line:
 *   # comment                    device NAME | DRIVER INFO
 *   read back whole FNV chunks FNV          (the graph's read-back bytes)
 *   image H format F size WxH usage U flags X pool P offset O name N slot S+B
 *   view V of H                  buffer H size S pool P offset O
 *   readback H size S            draw NAME rect x0 y0 x1 y1 color r g b a depth d
 *   whole / chunk I, then the calls as tests/device/parallel_log.c logs them
 *   done
 * Handles and flags in hex, the rest decimal (draws: C99 hex floats). */
#ifndef TEST_REPLAY_FRAME_H
#define TEST_REPLAY_FRAME_H

#include "raw_device.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REPLAY_MAX_IMAGES 64
#define REPLAY_MAX_VIEWS 256
#define REPLAY_MAX_BUFFERS 8
#define REPLAY_MAX_DRAWS 64
#define REPLAY_MAX_CHUNKS 64
#define REPLAY_MAX_POOLS 8

typedef struct replay_image {
    uint64_t handle;                  /* as logged */
    VkFormat format;
    uint32_t width, height;
    VkImageUsageFlags usage;
    VkImageCreateFlags flags;
    uint32_t pool;
    VkDeviceSize offset;
    char name[16];
    VkDeviceSize slot, bytes;         /* where it is copied out in the readback; 0 bytes: never */
} replay_image;

typedef struct replay_view {
    uint64_t handle, image;
} replay_view;

typedef struct replay_buffer {
    uint64_t handle;
    VkDeviceSize size;
    uint32_t pool;
    VkDeviceSize offset;
    bool readback;                    /* host-visible, memory of its own */
} replay_buffer;

typedef struct replay_draw {
    char name[32];                    /* the user command's "call NAME" line */
    float rect[4], color[4], depth;   /* tests/support/solid.h's push constants */
} replay_draw;

/* Lines [first, end) of the file's text. */
typedef struct replay_span {
    uint32_t first, end;
} replay_span;

typedef struct replay_frame {
    char *text;
    char **lines;
    uint32_t line_count;
    char device[512];                 /* what wrote the file: "NAME | DRIVER INFO" */
    uint64_t want_whole, want_chunks; /* FNV-1a of the graph's read-back bytes */
    replay_image images[REPLAY_MAX_IMAGES];
    uint32_t image_count;
    replay_view views[REPLAY_MAX_VIEWS];
    uint32_t view_count;
    replay_buffer buffers[REPLAY_MAX_BUFFERS];
    uint32_t buffer_count;
    replay_draw draws[REPLAY_MAX_DRAWS];
    uint32_t draw_count;
    VkDeviceSize readback_size;
    replay_span whole;
    replay_span chunks[REPLAY_MAX_CHUNKS];
    uint32_t chunk_count;
    char error[512];
    /* The failure was that the file's placement does not fit this device
     * (an offset off its alignment, no memory type for a pool): a replay
     * belongs to a device with the writer's memory requirements. */
    bool unfit;
} replay_frame;

typedef enum replay_mode {
    REPLAY_WHOLE,                     /* the whole frame's calls, one command buffer */
    REPLAY_CHUNKS,                    /* each chunk's calls in a command buffer of its own */
    REPLAY_CHUNKS_IN_ONE,             /* the chunks' calls, cuts and all, in one command buffer */
} replay_mode;

extern const char *const replay_mode_names[];

/* Reads the file; false with f->error on a malformed one. */
bool replay_load(replay_frame *f, const char *path);
void replay_free(replay_frame *f);

/* Creates the frame's objects on d, records them as mode says, submits
 * in one vkQueueSubmit, waits, copies the readback into out
 * (f->readback_size bytes, zeroed before the frame) and destroys the
 * objects. False with f->error where a line cannot be replayed. */
bool replay_run(replay_frame *f, test_raw_device *d, replay_mode mode, unsigned char *out);

/* FNV-1a, 64 bits, as the device test writes it. */
uint64_t replay_fnv(const unsigned char *p, size_t n);

#endif
