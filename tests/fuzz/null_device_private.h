/* The null device's internals (private to null_device*.c): its handles,
 * objects and command-buffer logs, and the functions its files share.
 * null_device.c makes the device and answers the harness's queries;
 * null_device_vulkan.c holds the device and instance entry points;
 * null_device_record.c the vkCmd* ones, which write the logs. */
#ifndef FUZZ_NULL_DEVICE_PRIVATE_H
#define FUZZ_NULL_DEVICE_PRIVATE_H

#include "null_device.h"

typedef enum nd_object {
    OBJ_NONE,
    OBJ_IMAGE,
    OBJ_VIEW,
    OBJ_BUFFER,
    OBJ_MEMORY,
    OBJ_SEMAPHORE,
    OBJ_QUERY_POOL,
    OBJ_EVENT,
    OBJ_KINDS,
} nd_object;

/* A handle: its kind in the high 32 bits, its index + 1 in the low. */
static inline uint64_t make_handle(nd_object kind, uint32_t index) { return (uint64_t)kind << 32 | (index + 1u); }
static inline nd_object handle_kind(uint64_t h) { return (h >> 32) < OBJ_KINDS ? (nd_object)(h >> 32) : OBJ_NONE; }
static inline uint32_t handle_index(uint64_t h) { return (uint32_t)h - 1u; }

#define HANDLE(type, h) ((type)(uintptr_t)(h))
#define RAW(h) ((uint64_t)(uintptr_t)(h))

typedef struct nd_image {
    bool alive;
    nd_image_info info;
} nd_image;

typedef struct nd_view {
    bool alive;
    VkImage image;
    VkImageSubresourceRange range;
} nd_view;

typedef struct nd_queue {
    struct null_device *nd;
    uint32_t family;
} nd_queue;

struct null_device {
    rg_device *rg;
    VkPhysicalDeviceMemoryProperties memory;
    nd_queue queues[RG_QUEUE_COUNT];
    uint32_t count[OBJ_KINDS]; /* objects made per kind (the next index) */
    nd_image *images;
    uint32_t image_cap;
    nd_view *views;
    uint32_t view_cap;
    VkCommandBuffer *submitted;
    uint32_t submitted_count, submitted_cap;
};

/* The log of one command buffer. */
typedef struct nd_cmd {
    null_device *nd;
    nd_call *calls;
    uint32_t count, cap;
    nd_image_use *uses;
    uint32_t use_count, use_cap;
} nd_cmd;

static inline null_device *dev_of(VkDevice d) { return (null_device *)(void *)d; }
static inline nd_cmd *cmd_of(VkCommandBuffer c) { return (nd_cmd *)(void *)c; }

/* null_device.c: objects. nd_grow grows an array to hold need elements
 * (aborts when out of memory); nd_hname names a handle in one of eight
 * rotating buffers (for a line's several handles). */
void *nd_grow(void *p, uint32_t *cap, uint32_t need, size_t size);
uint64_t nd_new_object(null_device *nd, nd_object kind);
uint64_t nd_new_image(null_device *nd, VkFormat format, uint32_t mips, uint32_t layers);
uint64_t nd_new_view(null_device *nd, VkImage image, VkImageSubresourceRange range);
const nd_image *nd_image_of(const null_device *nd, uint64_t h);
const nd_view *nd_view_of(const null_device *nd, uint64_t h);
const char *nd_hname(uint64_t h);

/* A growing text line. */
typedef struct sb {
    char *s;
    size_t len, cap;
} sb;

/* null_device_record.c: appends to a line; adds a call with its text
 * (taken) to a log; finds a recording function by name. */
void sb_add(sb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
nd_call *nd_add_call(nd_cmd *c, nd_kind kind, sb *text);
PFN_vkVoidFunction nd_record_proc(const char *name, bool instance);

/* null_device_vulkan.c: the instance's vkGetInstanceProcAddr, and a
 * lookup in a table of entry points by name. */
typedef struct proc {
    const char *name;
    PFN_vkVoidFunction fn;
} proc;

#define PROC(name, fn)                 \
    {                                  \
        name, (PFN_vkVoidFunction)(fn) \
    }

PFN_vkVoidFunction nd_find_proc(const proc *table, size_t n, const char *name);
PFN_vkVoidFunction VKAPI_CALL nd_instance_proc(VkInstance instance, const char *name);

#endif
