/* The application's device as the library holds it (device.c): the
 * Vulkan function table, properties, queues, the log and allocators, and
 * the retirement of freed placements' objects. Not installed.
 */
#ifndef RG_DEVICE_H
#define RG_DEVICE_H

#include "base/base.h"
#include "base/thread.h"

/* The Vulkan functions the library calls, every one loaded by
 * rg_device_create through the application's vkGetInstanceProcAddr (the
 * library is built with VK_NO_PROTOTYPES: a direct call does not compile). */
#define RG__VK_INSTANCE_FUNCTIONS(X)                                                                              \
    X(GetDeviceProcAddr)                                                                                          \
    X(EnumeratePhysicalDevices)                                                                                   \
    X(GetPhysicalDeviceProperties)                                                                                \
    X(GetPhysicalDeviceProperties2)                                                                               \
    X(GetPhysicalDeviceMemoryProperties)                                                                          \
    X(GetPhysicalDeviceFormatProperties)                                                                          \
    X(GetPhysicalDeviceImageFormatProperties)                                                                     \
    X(GetPhysicalDeviceQueueFamilyProperties)
#define RG__VK_DEVICE_FUNCTIONS(X)                                                                                \
    X(AllocateMemory)                                                                                             \
    X(FreeMemory)                                                                                                 \
    X(CreateBuffer)                                                                                               \
    X(DestroyBuffer)                                                                                              \
    X(CreateImage)                                                                                                \
    X(DestroyImage)                                                                                               \
    X(CreateImageView)                                                                                            \
    X(DestroyImageView)                                                                                           \
    X(BindBufferMemory2)                                                                                          \
    X(BindImageMemory2)                                                                                           \
    X(GetDeviceBufferMemoryRequirements)                                                                          \
    X(GetDeviceImageMemoryRequirements)                                                                           \
    X(CreateSemaphore)                                                                                            \
    X(DestroySemaphore)                                                                                           \
    X(QueueSubmit2)                                                                                               \
    X(CmdPipelineBarrier2)                                                                                        \
    X(CmdBeginRendering)                                                                                          \
    X(CmdEndRendering)                                                                                            \
    X(CmdSetViewport)                                                                                             \
    X(CmdSetScissor)                                                                                              \
    X(CmdCopyBuffer)                                                                                              \
    X(CmdCopyBufferToImage)                                                                                       \
    X(CmdCopyImageToBuffer)                                                                                       \
    X(CmdBlitImage)                                                                                               \
    X(CmdClearColorImage)                                                                                         \
    X(CmdClearDepthStencilImage)                                                                                  \
    X(CreateQueryPool)                                                                                            \
    X(DestroyQueryPool)                                                                                           \
    X(CmdResetQueryPool)                                                                                          \
    X(CmdWriteTimestamp2)                                                                                         \
    X(GetQueryPoolResults)                                                                                        \
    X(CreateEvent)                                                                                                \
    X(DestroyEvent)                                                                                               \
    X(CmdSetEvent2)                                                                                               \
    X(GetEventStatus)                                                                                             \
    X(ResetEvent)                                                                                                 \
    X(GetSemaphoreCounterValue)                                                                                   \
    X(GetFenceStatus)

typedef struct rg__vk {
#define RG__VK_MEMBER(name) PFN_vk##name name;
    RG__VK_INSTANCE_FUNCTIONS(RG__VK_MEMBER)
    RG__VK_DEVICE_FUNCTIONS(RG__VK_MEMBER)
#undef RG__VK_MEMBER
    /* VK_KHR_dynamic_rendering_local_read, where enabled (else NULL). */
    PFN_vkCmdSetRenderingAttachmentLocationsKHR CmdSetRenderingAttachmentLocationsKHR;
    PFN_vkCmdSetRenderingInputAttachmentIndicesKHR CmdSetRenderingInputAttachmentIndicesKHR;
    /* VK_EXT_debug_utils, where the application enabled it (else NULL):
     * object names (names.c's rg__name_object) and labels. */
#define RG__VK_DEBUG_UTILS_FUNCTIONS(X) X(SetDebugUtilsObjectNameEXT) X(CmdBeginDebugUtilsLabelEXT) X(CmdEndDebugUtilsLabelEXT)
#define RG__VK_MEMBER(name) PFN_vk##name name;
    RG__VK_DEBUG_UTILS_FUNCTIONS(RG__VK_MEMBER)
#undef RG__VK_MEMBER
} rg__vk;

struct rg_device {
    /* RG__DEVICE_LIVE until rg_device_destroy poisons it (base.h). */
    _Atomic uint32_t magic;
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    rg__vk vk;
    /* The queues graphs use: graphics always; compute and transfer only
     * where given with timeline semaphores (else VK_NULL_HANDLE). */
    rg_device_queue queues[RG_QUEUE_COUNT];
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    rg_device_caps caps;
    uint32_t timestamp_bits[RG_QUEUE_COUNT]; /* the queues' families' timestampValidBits */
    rg_log_fn log;
    void *log_user;
    rg_allocator alloc;               /* resolved: all three functions */
    const VkAllocationCallbacks *vk_alloc;
    /* Retired objects of graphs' placements, waiting for the GPU
     * (device.c): a list pushed and taken whole with atomics, so graphs on
     * other threads may retire and collect at once. */
    _Atomic(struct rg__retired_group *) retired;
    /* One collect at a time: a group that destroys a semaphore another
     * group's point still names must see that group (rg__device_collect). */
    rg__mutex retire_lock;
    /* Graphs made on it and not destroyed, linked through their
     * device_prev/device_next: rg_device_destroy leaves any that remain
     * without their Vulkan objects (graph.c). */
    rg__mutex graphs_lock;
    struct rg_graph *graph_list;
};

/* ------------------------------------------------------------- retirement */

/* One Vulkan object of a freed placement (device.c). An application pool
 * range (rg_pool_memory) is handed back through the graph's callback. */
typedef enum rg__retired_kind {
    RG__RETIRED_VIEW = 0,
    RG__RETIRED_IMAGE,
    RG__RETIRED_BUFFER,
    RG__RETIRED_MEMORY,
    RG__RETIRED_APP_POOL,
    RG__RETIRED_QUERY_POOL,
    RG__RETIRED_EVENT,
    RG__RETIRED_SEMAPHORE,            /* last: the group's own point may name it */
    RG__RETIRED_KINDS,
} rg__retired_kind;

typedef struct rg__retired {
    rg__retired_kind kind;
    union {
        VkImageView view;
        VkImage image;
        VkBuffer buffer;
        VkDeviceMemory memory;
        VkQueryPool query_pool;
        VkEvent event;
        VkSemaphore semaphore;
    } u;
    VkDeviceSize offset;              /* RG__RETIRED_APP_POOL */
} rg__retired;

/* The placement's side of a retire point, which its freer (graph.c) reads
 * from the placement and the execute state: whether it reached the
 * device, and its timelines with the values rg_submit last signalled on
 * them (0: none). */
typedef struct rg__retire_point {
    bool on_device;
    VkSemaphore semaphores[RG_QUEUE_COUNT];
    uint64_t values[RG_QUEUE_COUNT];
} rg__retire_point;

/* A freed placement's objects and what must signal before they are
 * destroyed: the graph's own timelines (values its last rg_submit
 * signalled) and the application's retire point. */
typedef struct rg__retired_group {
    struct rg__retired_group *next;
    VkSemaphore semaphores[RG_QUEUE_COUNT + 1]; /* the graph's, then the application's */
    uint64_t values[RG_QUEUE_COUNT + 1];
    VkFence fence;
    /* The graph recorded frames that nothing it knows of signals after
     * (rg_execute without rg_submit or a retire point): only
     * rg_device_destroy, after the application waited for the device,
     * may destroy these. */
    bool held;
    bool done;                        /* rg__device_collect: to be released now */
    rg_pool_memory pool_memory;       /* the graph's, for RG__RETIRED_APP_POOL */
    rg__retired *objects;
    uint32_t count, cap;
} rg__retired_group;

/* The group a freed placement fills: its point, opened by
 * rg__retire_begin, and the group made on the first object retired. */
typedef struct rg__retiring {
    rg__retired_group point;
    bool open;
    rg__retired_group *group;
} rg__retiring;

/* Opens g's group for what placement_free hands over: its point is the
 * graph's timelines (timelines) and the application's retire point; it
 * is held until rg_device_destroy when frames were recorded after both
 * (g->unretired). None is opened, and objects are destroyed at once, with
 * neither and no such frame (the application said the GPU is idle) or
 * for a placement that never reached the device. */
void rg__retire_begin(rg_graph *g, const rg__retire_point *timelines);
/* Hands one object to the open group, or destroys it at once. */
void rg__retire(const rg_graph *g, rg__retired object);
/* Closes the group (onto the device's list, or g->kept while
 * g->keep_retired; a held one is logged, once per graph, naming `what`
 * freed it) and collects. */
void rg__retire_end(rg_graph *g, const char *what);
/* Hands the groups a measured-policy switch kept (g->kept) to the
 * device's list, where they retire as any group. */
void rg__retire_release(rg_graph *g);
/* Releases every group whose point has signalled (checked, never
 * waited); the count of objects still held. */
uint32_t rg__device_collect(rg_device *d);
/* A message about the device to its log (or stderr). */
void rg__device_log(const rg_device *d, rg_log_level level, const char *message);
/* rg_device_destroy's own part, once its graphs are left (graph.c):
 * every retired group released, the device poisoned and handed back. */
void rg__device_free(rg_device *d);

#endif
