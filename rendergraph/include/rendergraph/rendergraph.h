/*
 * rendergraph: a render graph for Vulkan in plain C11. A frame is declared as
 * commands over virtual resources (textures, buffers), compiled once without
 * a device (order, culling, barriers, transient attachments), placed in
 * memory (lazily allocated where the device offers it, aliasing pools
 * elsewhere) and executed into the application's command buffers every
 * frame. The graph writes every barrier. It runs on any VkDevice the
 * application describes and needs Vulkan's headers alone.
 *
 * This header is the reference: each declaration with its contract. The
 * topics, with longer examples, are pages of docs/ (docs/README.md).
 *
 * A minimal frame: a texture rendered by one command and sampled by a second
 * that writes the swapchain image.
 *
 *   rg_device *dev;                                  // once, for the VkDevice
 *   rg_device_create(&(rg_device_desc){ .instance = instance, .physical_device = gpu,
 *       .device = device, .enabled_features = device_info.pNext,   // what vkCreateDevice enabled
 *       .get_instance_proc_addr = vkGetInstanceProcAddr,
 *       .queues[RG_QUEUE_GRAPHICS] = { queue, family }, .timeline_semaphore = true }, &dev);
 *       // (or the engine's: dev = eng_context_graph_device(ctx))
 *   rg_graph *g;
 *   rg_graph_create(&(rg_graph_desc){ .name = "frame", .device = dev }, &g);
 *   rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){ .name = "swapchain",
 *       .format = VK_FORMAT_B8G8R8A8_SRGB, .width = w, .height = h,
 *       .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
 *       .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR });
 *   rg_texture hdr = rg_texture_create(g, &(rg_texture_desc){ .name = "hdr",
 *       .format = VK_FORMAT_R16G16B16A16_SFLOAT, .width = w, .height = h });
 *   rg_begin_rendering(g, &(rg_rendering_desc){ .name = "scene", .color_count = 1,
 *       .colors[0] = { .texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } });
 *   rg_cmd_user(g, &(rg_user_desc){ .name = "draw", .kind = RG_COMMAND_DRAW, .record = draw_scene });
 *   rg_end_rendering(g);
 *   rg_begin_rendering(g, &(rg_rendering_desc){ .name = "post", .color_count = 1,
 *       .colors[0] = { .texture = back, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE } });
 *   rg_cmd_user(g, &(rg_user_desc){ .name = "tonemap", .kind = RG_COMMAND_DRAW, .record = tonemap,
 *       .accesses = &(rg_access){ .texture = hdr, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true },
 *       .access_count = 1 });
 *   rg_end_rendering(g);
 *   if (rg_compile(g) != RG_SUCCESS || rg_place(g) != RG_SUCCESS)   // device-free, then memory
 *       fail(rg_graph_error_message(g));            // names the command and resource
 *   // every frame: the acquired image, one command buffer (recording), submit
 *   rg_texture_set_image(g, back, &(rg_import_image){ .image = images[index], .view = views[index],
 *       .format = VK_FORMAT_B8G8R8A8_SRGB, .width = w, .height = h,
 *       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT });  // as the swapchain made them
 *   rg_submit_plan plan;
 *   rg_execute_batches(g, &cmd, &plan);              // records the frame and every barrier
 *   vkEndCommandBuffer(cmd);
 *   rg_submit(g, &plan, &(rg_submit_desc){ .waits = &acquired, .wait_count = 1,
 *       .signals = &rendered, .signal_count = 1, .fence = fence });
 *   rg_graph_destroy(g);                             // its objects wait for its frames
 *   rg_device_destroy(dev);                          // after vkDeviceWaitIdle
 *
 * A renderer that submits the command buffer itself records with rg_execute
 * and names what its submission signals: rg_graph_set_retire_point ("Placement
 * and the GPU").
 *
 * What it does not do: make the device, the swapchain, pipelines or
 * descriptor sets (engine.h or the application does); wait for the GPU
 * (retirement checks, never waits); keep a created resource's contents from
 * one frame to the next (history textures excepted: "History").
 *
 * A name in quotes ("Queues") is the header's paragraph of that title: a
 * summary of its docs/ page. RG_EXPERIMENTAL marks a declaration that may
 * still change in a minor release (names, fields or rules); it expands to
 * nothing unless the application defines it first.
 */
#ifndef RENDERGRAPH_RENDERGRAPH_H
#define RENDERGRAPH_RENDERGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===== 1. Conventions ===== */

/* Objects and handles. Long-lived objects (rg_device, rg_graph) are opaque pointers made by _create from a
 * _desc and destroyed by _destroy (NULL accepted). Resources and commands are typed handles (rg_texture,
 * rg_buffer, rg_command): 0 is never valid; a stale (before rg_graph_reset) or foreign handle is refused.
 * Zero in a _desc, and an enum's 0, is the default or "none".
 *
 * Getters. A query that can fail returns rg_result, zeroes and fills its last argument (rg_x_get(graph,
 * index, &out), rg_x_get_info(graph, handle, &out); lists are rg_x_count plus rg_x_get) and on failure sets
 * rg_graph_error_message (never kept): a compile result before compile is RG_ERROR_NOT_COMPILED, an index
 * past rg_x_count INVALID_ARGUMENT. Those that cannot fail return a neutral value (0, false, NULL, zeroed),
 * no message.
 *
 * Threads (docs/parallel-recording.md#threads). A graph belongs to one thread at a time: a call that changes
 * or executes it (declaration, setters, rg_compile, rg_place, rg_place_offline, execute calls, rg_submit,
 * rg_graph_reset, rg_graph_destroy) takes it, and a second thread meanwhile gets RG_ERROR_BUSY, logged naming
 * both calls (a refused declaration call fails the next rg_compile so; rg_graph_destroy frees nothing).
 * Calling in again from a callback is RG_ERROR_INVALID_ARGUMENT; queries are not checked. Other graphs, also
 * on one rg_device, may run on other threads; only rg_submit uses the queues. Chunks record on many threads
 * ("Parallel recording"). Calls marked "any thread" are exempt. */

#ifndef RG_EXPERIMENTAL /* defined first: marks the experimental calls your way, e.g. as deprecated */
#define RG_EXPERIMENTAL /* may change in a minor release (see the top) */
#endif

/* This header's version; the build checks it against the CMake project's
 * (engine and rendergraph are versioned together). */
#define RG_VERSION_MAJOR 0
#define RG_VERSION_MINOR 2
#define RG_VERSION_PATCH 0
#define RG_VERSION "0.2.0"
/* major * 1000000 + minor * 1000 + patch: ordered, readable in decimal. */
#define RG_MAKE_VERSION(major, minor, patch) ((major) * 1000000u + (minor) * 1000u + (patch))
#define RG_VERSION_NUMBER RG_MAKE_VERSION(RG_VERSION_MAJOR, RG_VERSION_MINOR, RG_VERSION_PATCH)

/* The linked library's version: RG_VERSION and RG_VERSION_NUMBER as it was built. Any thread. */
const char *rg_version_string(void);
uint32_t rg_version(void);

/* The "none" value of indices the API returns (a pool, a span). */
#define RG_INDEX_NONE UINT32_MAX
/* Color attachments of one span at most. */
#define RG_MAX_COLOR_ATTACHMENTS 8

typedef struct rg_graph rg_graph;
/* Small typed handles; 0 is never valid. */
typedef struct rg_texture { uint32_t id; } rg_texture;
typedef struct rg_buffer { uint32_t id; } rg_buffer;
/* A command handle; like resource handles it belongs to one declaration
 * (stale after rg_graph_reset, foreign in another graph). */
typedef struct rg_command { uint32_t id; } rg_command;

/* VK_KHR_dynamic_rendering_local_read for Vulkan headers before 1.3.276
 * (Debian 12 ships 1.3.239), as the 1.4.309 header has it, so code using
 * the extension compiles against either; newer headers make this block
 * empty. It defines the guard too but no prototypes: get the two commands
 * with vkGetDeviceProcAddr (rg_device_create does). */
#ifndef VK_KHR_dynamic_rendering_local_read
#define VK_KHR_dynamic_rendering_local_read 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_SPEC_VERSION 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME "VK_KHR_dynamic_rendering_local_read"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR ((VkStructureType)1000232000)
#define VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR ((VkStructureType)1000232001)
#define VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR ((VkStructureType)1000232002)
#define VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR ((VkImageLayout)1000232000)

typedef struct VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 dynamicRenderingLocalRead;
} VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR;
typedef struct VkRenderingAttachmentLocationInfoKHR {
    VkStructureType sType;
    const void *pNext;
    uint32_t colorAttachmentCount;
    const uint32_t *pColorAttachmentLocations;
} VkRenderingAttachmentLocationInfoKHR;
typedef struct VkRenderingInputAttachmentIndexInfoKHR {
    VkStructureType sType;
    const void *pNext;
    uint32_t colorAttachmentCount;
    const uint32_t *pColorAttachmentInputIndices;
    const uint32_t *pDepthInputAttachmentIndex, *pStencilInputAttachmentIndex;
} VkRenderingInputAttachmentIndexInfoKHR;

typedef void (VKAPI_PTR *PFN_vkCmdSetRenderingAttachmentLocationsKHR)(VkCommandBuffer commandBuffer,
    const VkRenderingAttachmentLocationInfoKHR* pLocationInfo);
typedef void (VKAPI_PTR *PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)(VkCommandBuffer commandBuffer,
    const VkRenderingInputAttachmentIndexInfoKHR* pInputAttachmentIndexInfo);
#endif

/* ===== 2. Errors ===== */

/* Errors (docs/diagnostics.md#errors). Every failing call says why in a message naming what was wrong
 * (rg_graph_error_message; the log for rg_device_create). Kept: a declaration call's or compile's first
 * error; later declaration calls are ignored (0 handle), rg_compile returns it, and the graph is FAILED
 * (rg_place, rg_execute: RG_ERROR_NOT_COMPILED) until rg_graph_reset. Not kept: any other call's error; the
 * graph is as it was. The pipeline calls and per-frame setters clear the message when they start. The codes: */
typedef enum rg_result {
    RG_SUCCESS = 0,
    RG_ERROR_INVALID_ARGUMENT,        /* the caller's input (what the device lacks: UNSUPPORTED) */
    RG_ERROR_INVALID_HANDLE,          /* stale (before a reset), foreign or 0; a destroyed graph or device */
    RG_ERROR_BAD_RANGE,               /* subresource range outside the resource or REMAINING in a view */
    RG_ERROR_UNBALANCED_SPAN,         /* begin without end at compile time */
    RG_ERROR_NESTED_SPAN,             /* begin inside a span */
    RG_ERROR_END_WITHOUT_BEGIN,       /* end_rendering outside a span */
    RG_ERROR_DRAW_OUTSIDE_SPAN,       /* an RG_COMMAND_DRAW outside spans */
    RG_ERROR_TRANSFER_IN_SPAN,        /* copy, clear or blit inside a span */
    RG_ERROR_ATTACHMENT_LAYOUT,       /* layout not legal for rendering */
    RG_ERROR_ATTACHMENT_OVERLAP,      /* two attachments on one subresource */
    RG_ERROR_FEEDBACK_LOOP,           /* an interior access touches an attachment */
    RG_ERROR_TRANSITION_IN_SPAN,      /* an intra-span hazard needs a layout change */
    RG_ERROR_NOT_COMPILED,            /* placement, execute, queries on a graph not compiled or FAILED */
    RG_ERROR_OUT_OF_MEMORY,           /* host memory (kept in declaration, compile); device memory */
    RG_ERROR_CALLBACK,                /* a user record callback failed */
    RG_ERROR_VULKAN,                  /* a Vulkan call failed; the message names it and its VkResult */
    /* An intra-span hazard that would need a barrier between two interior
     * commands: illegal inside vkCmdBeginRendering without
     * VK_KHR_dynamic_rendering_local_read (VUID-vkCmdPipelineBarrier2-None-06191). */
    RG_ERROR_HAZARD_IN_SPAN,
    RG_ERROR_OUTSIDE_IN_SPAN,         /* an RG_COMMAND_OUTSIDE command inside a span */
    RG_ERROR_TRANSIENT_CONTENTS,      /* a forced-transient texture used in a way that needs its contents */
    RG_ERROR_NOT_PLACED,              /* no memory placement for the compiled graph yet */
    RG_ERROR_IO,                      /* a report or dump could not be written */
    RG_ERROR_READ_BEFORE_WRITE,       /* a read (or LOAD) of what nothing in the frame wrote */
    RG_ERROR_UNDECLARED,              /* a record callback asked for a resource its command did not declare */
    RG_ERROR_EXTENT_MISMATCH,         /* attachments of different extents in a span without an area */
    RG_ERROR_UNSUPPORTED,             /* the device does not offer what the graph needs */
    RG_ERROR_INTERNAL,                /* the library's own invariant broke: a bug, please report it */
    RG_ERROR_NOT_READY,               /* a GPU result not there yet (timings: no frame completed) */
    RG_ERROR_BUSY,                    /* another thread is in a call on the graph (see "Threads") */
    RG_ERROR_CULLED,                  /* a query about a command compile culled */
    RG_RESULT_COUNT
} rg_result;

/* The code as text ("invalid handle (0, stale or foreign)"); any thread. */
const char *rg_result_string(rg_result result);
/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" and the like; the messages name results so. */
const char *rg_vk_result_string(VkResult result);
/* The kept error, RG_SUCCESS if none. The message: the kept error's, else
 * the last failed call's (starting with its name), "" after a pipeline call
 * or setter succeeded since ("Errors"). rg_graph_reset clears both. */
rg_result rg_graph_error(const rg_graph *graph);
const char *rg_graph_error_message(const rg_graph *graph);

/* ===== 3. Device ===== */

/* The application's Vulkan device as graphs use it: its handles, functions (loaded once through its
 * vkGetInstanceProcAddr), queues and what it enabled. The library never creates an instance, device, command
 * pool or fence, and submits only in rg_submit. Many graphs may share one device, which must outlive them.
 * See docs/getting-started.md. */
typedef struct rg_device rg_device;

/* The queues a graph runs on (see "Queues"). */
typedef enum rg_queue {
    RG_QUEUE_GRAPHICS = 0,            /* the device's graphics queue: everything */
    RG_QUEUE_COMPUTE,                 /* async compute (rg_device_desc.queues) */
    RG_QUEUE_TRANSFER,                /* copies beside the rest (likewise) */
    RG_QUEUE_COUNT
} rg_queue;

/* "graphics", "compute", "transfer"; "?" for another value. */
const char *rg_queue_name(rg_queue queue);

typedef struct rg_device_queue {
    VkQueue queue;                    /* VK_NULL_HANDLE: none */
    uint32_t family;                  /* its queue family index */
} rg_device_queue;

/* What a GPU's tile holds, per model (docs/tiles.md has the sources; family names answer as their
 * safe model). AUTO: detected from the device (in caps without one: desktop). */
typedef enum rg_tile_profile {
    RG_TILE_AUTO = 0, RG_TILE_DESKTOP, RG_TILE_APPLE2, RG_TILE_APPLE4, RG_TILE_APPLE7, RG_TILE_MALI_G71,
    RG_TILE_MALI_BIFROST, RG_TILE_MALI_VALHALL, RG_TILE_ADRENO6, RG_TILE_ADRENO7, RG_TILE_MALI_G72,
    RG_TILE_MALI_G76, RG_TILE_MALI_G57, RG_TILE_MALI_G310, RG_TILE_MALI_G610, RG_TILE_MALI_G720,
    RG_TILE_ADRENO_A810, RG_TILE_ADRENO_A840, RG_TILE_ADRENO_X2_85, RG_TILE_PROFILE_COUNT
} rg_tile_profile;

typedef struct rg_tile_info {
    const char *name, *key;           /* "Mali-G610/G710/G615/G715"; "mali-g610": tools' and variables' name */
    const char *alias_of;             /* a family name: the model's key it answers as; else NULL */
    uint32_t color_bytes;             /* merge gate per pixel: Mali, all samples in 16x16; 0: none */
    bool hard;                        /* Apple: color_bytes per sample is Metal's limit, refused beyond */
    uint32_t tile_width, tile_height; /* the largest tile (Mali, Apple7); 0: binned (Adreno), not published */
    uint64_t tile_memory, depth_memory; /* Mali: colour, depth buffer per core; Apple7: per tile; Adreno: GMEM */
    bool lazy_memory;                 /* LAZILY_ALLOCATED memory stays on chip */
    VkDriverId driver;                /* the family's driver (0: none), what a frame file's caps take */
    bool merges;                      /* RG_MERGE_AUTO merges there: rg_merge_by_default(driver) */
    bool msaa_fold;                   /* its drivers offer VK_EXT_multisampled_render_to_single_sampled */
} rg_tile_info;

/* A profile's row ("unknown" past the count); a device's profile from
 * VkPhysicalDeviceProperties' IDs and its driver (else desktop). */
rg_tile_info rg_tile_profile_info(rg_tile_profile profile);
rg_tile_profile rg_tile_profile_detect(uint32_t vendor_id, uint32_t device_id, VkDriverId driver);

/* What compile needs to know of a device to merge spans
 * (VK_KHR_dynamic_rendering_local_read) and to use other queues. */
typedef struct rg_device_caps {
    bool local_read;                  /* dynamicRenderingLocalRead enabled */
    bool local_read_multisampled;     /* dynamicRenderingLocalReadMultisampledAttachments */
    bool local_read_depth_stencil;    /* dynamicRenderingLocalReadDepthStencilAttachments */
    uint32_t max_color_attachments;   /* 0 = RG_MAX_COLOR_ATTACHMENTS */
    uint32_t max_input_attachments;   /* maxPerStageDescriptorInputAttachments; 0 = no limit */
    VkDriverId driver;                /* for the AUTO policy and the MoltenVK rule */
    /* Queues besides graphics (see "Queues"): the device has a compute /
     * a transfer queue (rg_device_desc.queues). */
    bool compute_queue;
    bool transfer_queue;
    rg_tile_profile tile_profile;     /* what its tile holds (AUTO: desktop here) */
    uint64_t tile_memory;             /* the model's on-chip bytes where known; 0: the profile's */
    bool msaa_to_single_sampled;      /* multisampledRenderToSingleSampled enabled ("Multisampling") */
} rg_device_caps;

/* Host memory for every allocation of a device (rg_device_desc.allocator) or
 * graph (rg_graph_desc.allocator, else its device's); NULL: malloc. All
 * three functions required; memory aligned as malloc's; NULL from alloc is
 * RG_ERROR_OUT_OF_MEMORY, leaking nothing. Executing allocates nothing. */
typedef struct rg_allocator {
    void *(*alloc)(void *user, size_t size);
    void *(*realloc)(void *user, void *ptr, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} rg_allocator;

typedef enum rg_log_level { RG_LOG_ERROR = 0, RG_LOG_WARNING, RG_LOG_INFO } rg_log_level;

/* Receives the library's messages (object: "graph 'frame'", "device"): errors (every failing call's),
 * warnings (what the graph did to stay safe from a mistake) and INFO notices (what compile and measurement
 * decided). NULL in both descs: errors and warnings on stderr, each distinct line once per placement. May be
 * called from threads recording chunks (docs/diagnostics.md#the-log). */
typedef void (*rg_log_fn)(void *user, rg_log_level level, const char *object, const char *message);

typedef struct rg_device_desc {
    VkInstance instance;              /* required */
    VkPhysicalDevice physical_device; /* required */
    VkDevice device;                  /* required */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* required: every function through it */
    /* The instance's VkApplicationInfo::apiVersion; 0: 1.3. 1.4
     * properties are read only where this and the device reach 1.4. */
    uint32_t api_version;
    /* Required: VkDeviceCreateInfo::pNext as given to vkCreateDevice (the
     * feature structs in any order). Missing dynamicRendering or
     * synchronization2 (or a feature a bool below claims) is
     * RG_ERROR_UNSUPPORTED naming it. Read during rg_device_create only. */
    const void *enabled_features;
    /* Indexed by rg_queue. Graphics required (graphics and compute);
     * compute and transfer optional, used with timeline_semaphore. */
    rg_device_queue queues[RG_QUEUE_COUNT];
    /* Enabled on the device: timelineSemaphore (other queues), and
     * VK_KHR_dynamic_rendering_local_read's feature (span merging). */
    bool timeline_semaphore;
    bool local_read;
    /* The instance has VK_EXT_debug_utils (its functions required): graphs
     * name their objects and label what they record ("Names"). */
    bool debug_utils;
    rg_log_fn log;                    /* NULL: errors and warnings on stderr (rg_log_fn) */
    void *log_user;
    const rg_allocator *allocator;    /* host memory of the device and its graphs */
    const VkAllocationCallbacks *vk_allocator; /* for every Vulkan object it creates; NULL: none */
    rg_tile_profile tile_profile;     /* AUTO: rg_tile_profile_detect on the device's IDs */
} rg_device_desc;

/* Loads the functions and reads the device's properties. A missing field,
 * a physical device not of the instance, a queue family it lacks or one
 * without graphics: RG_ERROR_INVALID_ARGUMENT; a missing feature or
 * function, a device below 1.3: RG_ERROR_UNSUPPORTED; each logged by name.
 * That device and queues are the physical device's is not checked. */
rg_result rg_device_create(const rg_device_desc *desc, rg_device **out);
/* Destroys the device object and what freed placements left waiting
 * ("Placement and the GPU"), after a wait for the device. A graph left on
 * it (an ERROR naming it) loses its Vulkan objects now and refuses every
 * call but rg_graph_destroy (docs/lifetimes.md). NULL: no-op. */
void rg_device_destroy(rg_device *device);
/* What graphs on the device compile for (rg_graph_desc.caps overrides it); zeroed for NULL. */
rg_device_caps rg_device_get_caps(const rg_device *device);
/* The VkDevice given at creation; VK_NULL_HANDLE for NULL. */
VkDevice rg_device_handle(const rg_device *device);

/* ===== 4. Graph ===== */

/* A graph holds one frame's declaration and what is made from it: declare,
 * rg_compile (device-free), rg_place, then every frame the per-frame
 * setters and an execute call; rg_graph_reset and declare again when the
 * frame changes. See docs/declaring-a-frame.md. */

/* How compile orders the commands (rg_graph_desc.order; docs/declaring-a-frame.md#order). */
typedef enum rg_order {
    /* The default: the least peak of estimated live bytes; exact for up to
     * 20 nodes (a span counts once) and up to 32 where the search fits,
     * else the lowest of five candidate orders improved by moving one node
     * at a time; never worse than RG_ORDER_BATCHES
     * (docs/declaring-a-frame.md#order). */
    RG_ORDER_MEMORY = 0,
    /* Longest path from a source, as soon as possible, then record order. */
    RG_ORDER_BATCHES,
    /* Record order (for comparison). */
    RG_ORDER_DECLARATION,
} rg_order;

/* Where commands eligible for another queue run (rg_graph_desc.queue_policy;
 * docs/queues.md#measured-queues). */
typedef enum rg_queue_policy {
    RG_QUEUE_POLICY_ELIGIBLE = 0,     /* on that queue where the device has it */
    RG_QUEUE_POLICY_SINGLE,           /* every command on graphics (as single_queue) */
    /* With timings on: the frame timed both ways, the faster kept, measured
     * again when the declaration changes; the switch comes after a frame's
     * rg_submit or rg_graph_set_retire_point (rg_queue_choice_get). */
    RG_QUEUE_POLICY_MEASURED,
} rg_queue_policy;

/* Whether compile merges spans (see "Merging"). */
typedef enum rg_merge {
    RG_MERGE_AUTO = 0,                /* rg_merge_by_default(driver) */
    RG_MERGE_ON,                      /* wherever the device has local read */
    RG_MERGE_OFF,
} rg_merge;
/* Whether MSAA spans render into their resolve targets ("Multisampling"):
 * AUTO where the device offers it; ON also fails compile where it does not. */
typedef enum rg_fold { RG_FOLD_AUTO = 0, RG_FOLD_ON, RG_FOLD_OFF } rg_fold;

/* The pools' device memory from the application's allocator (docs/memory.md): alloc gives size bytes of
 * memory_type at an offset that is a multiple of alignment, or the VkResult the graph reports; the bytes are
 * the graph's until free, at the next placement or the graph's destruction. Keep other resources
 * bufferImageGranularity apart. Lazy and dedicated allocations are the graph's own. */
typedef struct rg_pool_memory {
    VkResult (*alloc)(void *user, uint32_t memory_type, VkDeviceSize size, VkDeviceSize alignment,
                      VkDeviceMemory *memory, VkDeviceSize *offset);
    void (*free)(void *user, VkDeviceMemory memory, VkDeviceSize offset);
    void *user;
} rg_pool_memory;

typedef struct rg_graph_desc {
    const char *name;
    rg_device *device;                /* NULL: device-free (compiled, never placed) */
    bool no_aliasing;                 /* no two pooled resources share bytes (to measure it) */
    rg_merge merge;                   /* span merging ("Merging"): AUTO by the driver */
    rg_fold msaa_fold;                /* MSAA spans into their resolve targets ("Multisampling") */
    bool no_culling;                  /* no command is culled ("Culling") */
    rg_order order;                   /* of the commands: memory-aware by default */
    /* false: pooled resources apart in the execution order may share bytes
     * (the alias barrier orders them); true: only those the declared
     * dependencies already order. */
    bool alias_proven_only;
    /* What to compile for; NULL: the device's (device-free: no merging,
     * one queue). */
    const rg_device_caps *caps;
    bool single_queue;                /* every command on the graphics queue ("Queues") */
    rg_queue_policy queue_policy;     /* ELIGIBLE by default; single_queue: SINGLE */
    const rg_allocator *allocator;    /* NULL: the device's (device-free: malloc) */
    const rg_pool_memory *pool_memory; /* NULL: the graph allocates each pool itself */
    /* The graph's messages (see rg_log_fn); NULL: the device's log. */
    rg_log_fn log;
    void *log_user;
    /* true: every created resource CONCURRENT over the graph's families
     * (to measure it); false: only those several families use. */
    bool concurrent_sharing;
    bool timings;                     /* GPU timestamps per pass ("Timings"; experimental) */
    /* true: rg_record_view and the others hand out any resource (tools);
     * false: only what the command declared ("Declared only"). */
    bool lenient_record_access;
    /* Re-declaring (rg_graph_reset): true frees each placement at a reset; false keeps its objects for the next
     * placement, retiring those unused by reuse_age placements in a row (0: 2). */
    bool no_reuse;
    uint32_t reuse_age;
} rg_graph_desc;

/* Makes a graph. RG_ERROR_INVALID_ARGUMENT (NULL desc or out, incomplete
 * allocator or pool_memory, merge or order out of range),
 * RG_ERROR_OUT_OF_MEMORY; *out NULL on failure. */
rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out);
/* Frees the graph; its placement is retired ("Placement and the GPU").
 * NULL: no-op. While another thread is in it nothing is freed ("Threads").
 * A later call on it is RG_ERROR_INVALID_HANDLE, never read (docs/lifetimes.md). */
void rg_graph_destroy(rg_graph *graph);
/* Starts a new declaration: every handle is stale, the kept error cleared. RG_ERROR_BUSY ("Threads"),
 * RG_ERROR_INVALID_ARGUMENT for NULL. Re-declaring (docs/memory.md#re-declaring): the placement is kept, not
 * freed. The same declaration, compiled again, takes it back whole (no Vulkan object made, no host memory
 * allocated, history pairs going on); another takes its images, buffers, views and memory where create info and
 * pool layout match, its first frame waiting for the frames before. What stays unused is retired after reuse_age
 * placements; graphs on several queues, with pool_memory or no_reuse, free it as rg_graph_destroy does. */
rg_result rg_graph_reset(rg_graph *graph);

/* ===== 5. Resources ===== */

/* Resources (docs/declaring-a-frame.md#resources): created (with the usage their accesses need; not made if
 * only culled commands use them; no multi-planar formats), imported, or history (docs/history.md: two
 * dedicated images swapped at every execute, previous read-only).
 *
 * Frames (docs/declaring-a-frame.md#frames). Created resources keep nothing between frames; imports keep
 * their contents and may change object every frame through a per-frame setter, checked against the
 * declaration (that it outlives its frames is the application's duty). */

/* Whether a created texture gets TRANSIENT_ATTACHMENT usage (lazy memory where offered;
 * docs/memory.md#transient-attachments). AUTO: when every use is as an attachment of one rendering instance
 * that clears or ignores it on load and discards it on store (an INFO notice names a texture only its load or
 * store op keeps from it). FORCE: always; a use needing the contents is RG_ERROR_TRANSIENT_CONTENTS. FORBID:
 * never. */
typedef enum rg_transient { RG_TRANSIENT_AUTO = 0, RG_TRANSIENT_FORCE, RG_TRANSIENT_FORBID } rg_transient;

/* How a relative size rounds ("Relative sizes"): DOWN floors (mip chains), UP ceils (covers the
 * source: tiled dispatches), NEAREST rounds halves up. */
RG_EXPERIMENTAL typedef enum rg_rounding { RG_ROUND_DOWN = 0, RG_ROUND_UP, RG_ROUND_NEAREST } rg_rounding;

typedef struct rg_texture_desc {
    const char *name;
    rg_transient transient;
    VkFormat format;
    uint32_t width, height;
    /* Relative sizes (experimental): with width and height 0, size_of's
     * extent (declared earlier) times scale (0 = 1), each axis by `rounding`,
     * at least 1. A bad size_of: RG_ERROR_INVALID_HANDLE; it with a width,
     * a bad scale or rounding, an axis past UINT32_MAX: INVALID_ARGUMENT. */
    rg_texture size_of;
    float scale;
    rg_rounding rounding;
    uint32_t mip_levels;              /* 0 = 1 */
    uint32_t array_layers;            /* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    VkImageUsageFlags extra_usage;    /* beyond what the declared accesses need */
    /* rg_texture_create_history only: what previous holds in the first
     * frame after placement (zero: black, 0, depth 0). */
    VkClearValue history_clear;
} rg_texture_desc;

/* A texture the graph does not own: its state before the frame and the state to leave it in. An attachment of
 * the whole image renders through `view`; one of a mip or some layers through a view the graph makes per
 * image, kept until the placement is freed: reset or destroy the graph before destroying an image rendered
 * into so. */
typedef struct rg_texture_import_desc {
    const char *name;
    VkImage image;                    /* may be set per frame: rg_texture_set_image */
    VkImageView view;                 /* whole-image view used for attachments */
    VkFormat format;
    uint32_t width, height;
    uint32_t mip_levels, array_layers;/* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    /* Its VkImageCreateInfo::usage, checked against the accesses' needs at
     * rg_compile; 0: checked when rg_texture_set_image gives one. */
    VkImageUsageFlags usage;
    VkImageLayout initial_layout;     /* UNDEFINED: contents not needed */
    /* The last stage that touched it (an acquired image: where the acquire
     * semaphore is waited, COLOR_ATTACHMENT_OUTPUT). */
    VkPipelineStageFlags2 initial_stage;
    VkAccessFlags2 initial_access;
    VkImageLayout final_layout;       /* UNDEFINED: left as the last use leaves it */
    VkPipelineStageFlags2 final_stage;/* destination scope of the final transition */
    VkAccessFlags2 final_access;
} rg_texture_import_desc;

typedef struct rg_buffer_desc {
    const char *name;
    VkDeviceSize size;
    VkBufferUsageFlags extra_usage;
    /* Sized from a texture (experimental; size 0): size_of's height x (width x per_texel + per_row)
     * bytes, following it when declared at another size (rgtool --size). Errors as a texture's
     * size_of; also neither per_texel nor per_row, or too large: INVALID_ARGUMENT. */
    rg_texture size_of;
    VkDeviceSize per_texel, per_row;
} rg_buffer_desc;

/* An imported buffer's states around the frame: initial is the last use
 * before it (0 and 0: nothing to wait for), final the first use after it
 * (HOST and HOST_READ for a readback). */
typedef struct rg_buffer_import_desc {
    const char *name;
    VkBuffer buffer;
    VkDeviceSize size;
    VkBufferUsageFlags usage;         /* its create usage, checked as an image's (0: at set_buffer) */
    VkPipelineStageFlags2 initial_stage;
    VkAccessFlags2 initial_access;
    VkPipelineStageFlags2 final_stage;
    VkAccessFlags2 final_access;
} rg_buffer_import_desc;

/* Declare a resource and return its handle; declaration calls: on a
 * mistake the 0 handle, and the error is kept (see "Errors"). */
rg_texture rg_texture_create(rg_graph *graph, const rg_texture_desc *desc);
rg_texture rg_texture_import(rg_graph *graph, const rg_texture_import_desc *desc);
rg_buffer rg_buffer_create(rg_graph *graph, const rg_buffer_desc *desc);
rg_buffer rg_buffer_import(rg_graph *graph, const rg_buffer_import_desc *desc);
/* A history texture ("History"): returns current and sets *previous
 * (named "<name> (previous)"). Refused: transient FORCE, compressed
 * formats, NULL previous; on failure both are 0 (error kept). */
rg_texture rg_texture_create_history(rg_graph *graph, const rg_texture_desc *desc, rg_texture *previous);
/* Whether a history pair's previous holds what an earlier frame wrote, in
 * the frame being recorded or next executed: false before placement and
 * for the first rg_execute after it; false for other textures. */
bool rg_texture_history_valid(const rg_graph *graph, rg_texture previous);
/* The image an import is given for the next execute, and what it was
 * created with (checked against the import's declaration: see "Frames"). */
typedef struct rg_import_image {
    VkImage image;                    /* VK_NULL_HANDLE: none (an execute needing it fails) */
    VkImageView view;                 /* whole-image view, for attachments */
    VkFormat format;                  /* required */
    uint32_t width, height;           /* required */
    uint32_t mip_levels, array_layers;/* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    VkImageUsageFlags usage;          /* required: its VkImageCreateInfo::usage */
} rg_import_image;

/* The buffer an import is given for the next execute, and what it was created with. */
typedef struct rg_import_buffer {
    VkBuffer buffer;                  /* VK_NULL_HANDLE: none */
    VkDeviceSize size;                /* required: at least the declared size */
    VkBufferUsageFlags usage;         /* required: its VkBufferCreateInfo::usage */
} rg_import_buffer;

/* Re-point an import for the next execute without recompiling ("Frames"). Not kept: RG_ERROR_INVALID_HANDLE;
 * RG_ERROR_INVALID_ARGUMENT for a non-import, NULL, a required field 0, or an object that does not match the
 * declaration (extent, format, samples, mips, layers, a smaller buffer, once compiled a usage lacking what
 * the accesses need), naming both values; the import then keeps its object. */
rg_result rg_texture_set_image(rg_graph *graph, rg_texture texture, const rg_import_image *image);
rg_result rg_buffer_set_buffer(rg_graph *graph, rg_buffer buffer, const rg_import_buffer *buffer_desc);
/* A texture's extent (relative sizes resolved), at any time after its
 * declaration: what a record callback sizes a dispatch by. 0x0 for a
 * stale, foreign or 0 handle. */
RG_EXPERIMENTAL VkExtent2D rg_texture_extent(const rg_graph *graph, rg_texture texture);

/* ===== 6. Commands and accesses ===== */

/* A command is the application's recording plus its declared accesses,
 * from which alone the graph orders, synchronizes and derives usage (an
 * undeclared access runs without barriers). See
 * docs/declaring-a-frame.md#commands-and-accesses. */

/* One table maps each usage to (stage, access, layout, the usage flags a
 * created resource needs, whether it writes); rg_usage_get_info returns
 * the row. RG_USAGE_RAW takes them from the access itself. */
typedef enum rg_usage {
    RG_USAGE_NONE = 0,
    RG_USAGE_VERTEX_BUFFER, RG_USAGE_INDEX_BUFFER, RG_USAGE_INDIRECT_BUFFER,
    RG_USAGE_UNIFORM_VERTEX, RG_USAGE_UNIFORM_FRAGMENT, RG_USAGE_UNIFORM_COMPUTE,
    RG_USAGE_SAMPLED_VERTEX, RG_USAGE_SAMPLED_FRAGMENT, RG_USAGE_SAMPLED_COMPUTE,
    RG_USAGE_STORAGE_READ_VERTEX, RG_USAGE_STORAGE_READ_FRAGMENT, RG_USAGE_STORAGE_READ_COMPUTE,
    RG_USAGE_STORAGE_WRITE_FRAGMENT, RG_USAGE_STORAGE_WRITE_COMPUTE,
    RG_USAGE_STORAGE_READ_WRITE_FRAGMENT, RG_USAGE_STORAGE_READ_WRITE_COMPUTE,
    RG_USAGE_COLOR_ATTACHMENT,        /* write (and read when loaded or blended) */
    RG_USAGE_DEPTH_ATTACHMENT,        /* depth/stencil test and write */
    RG_USAGE_DEPTH_READ_ONLY,         /* depth test without write */
    RG_USAGE_RESOLVE, RG_USAGE_TRANSFER_SRC, RG_USAGE_TRANSFER_DST, RG_USAGE_PRESENT,
    RG_USAGE_RAW,
    /* A draw's fragment shader reads the texture only at its own pixel
     * (a G-buffer): an input attachment where its span merges, else a
     * sampled read ("Merging"; rg_command_get_local_read tells which). */
    RG_USAGE_PIXEL_LOCAL_READ,
    RG_USAGE_COUNT
} rg_usage;

typedef struct rg_usage_info {
    const char *name;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;             /* for textures */
    VkImageUsageFlags image_usage;    /* what a created texture needs for it */
    VkBufferUsageFlags buffer_usage;
    bool write;
} rg_usage_info;

/* The usage's row of the table, a static constant; NULL for a value outside rg_usage. Any thread. */
const rg_usage_info *rg_usage_get_info(rg_usage usage);

/* A subresource range; zero counts mean "1 level / 1 layer from base";
 * aspect 0 = every aspect of the format. On a format with depth and
 * stencil, an access to one aspect is synchronized (and reported by
 * rg_barrier_get) as one to both: they share a layout. */
typedef struct rg_range {
    VkImageAspectFlags aspect;
    uint32_t base_mip, mip_count;
    uint32_t base_layer, layer_count;
} rg_range;

/* One declared access of a command. Set texture or buffer, not both. For
 * every mip and layer of a texture, leave range zeroed and set whole. */
typedef struct rg_access {
    rg_texture texture;
    rg_buffer buffer;
    rg_usage usage;
    bool whole;                       /* all mips and layers of the texture */
    rg_range range;
    /* RG_USAGE_RAW only: */
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    VkImageLayout layout;
    bool write;
    /* true: the command reads contents nothing earlier in the frame wrote,
     * on purpose (it overwrites what it finds or ignores it); false (the
     * default): such a read is RG_ERROR_READ_BEFORE_WRITE (see "Reads"). */
    bool undefined_ok;
} rg_access;

/* What a record callback can ask for while the graph executes (section 12). */
typedef struct rg_record_context rg_record_context;

/* Records the command into rg_record_cmd(rc). Returns false on failure;
 * the graph ends an open rendering instance and rg_execute returns
 * RG_ERROR_CALLBACK. */
typedef bool (*rg_record_fn)(const rg_record_context *rc, void *user);

typedef enum rg_command_kind {
    RG_COMMAND_OUTSIDE = 0,           /* outside spans: dispatches, queries, ... */
    RG_COMMAND_DRAW,                  /* inside a span only */
} rg_command_kind;

typedef struct rg_user_desc {
    const char *name;
    rg_command_kind kind;
    const rg_access *accesses;
    uint32_t access_count;
    rg_record_fn record;              /* required */
    void *user;
    /* Never culled (see "Culling"): it has effects the declared accesses do
     * not show (queries, writes through descriptors the graph cannot see,
     * host-visible results read by address). */
    bool side_effects;
    /* The queue it may run on besides graphics ("Queues"): COMPUTE with
     * compute, indirect or transfer accesses only, TRANSFER with transfer
     * accesses only (else a declaration error); 0: graphics only. */
    rg_queue queue;
    /* The command's share of the frame's recording work (its draw count,
     * say), for splitting a frame into chunks of about equal cost ("Parallel
     * recording"). 0: 1. */
    uint32_t cost;
} rg_user_desc;

/* Declares a command of the application's. Declaration call: the 0 handle
 * on a mistake (NULL record, a draw outside a span, an outside command
 * inside one, a bad access), the error kept (see "Errors"). */
rg_command rg_cmd_user(rg_graph *graph, const rg_user_desc *desc);

/* ===== 7. Spans ===== */

/* Spans (docs/spans-and-merging.md). rg_begin_rendering .. rg_end_rendering is one dynamic-rendering instance
 * and its draws, one node of the graph: barriers go before vkCmdBeginRendering, and a hazard inside is
 * RG_ERROR_HAZARD_IN_SPAN (RG_ERROR_TRANSITION_IN_SPAN): split it there.
 *
 * Merging (docs/spans-and-merging.md#merging). A span that reads what the span right before rendered
 * pixel-locally (RG_USAGE_PIXEL_LOCAL_READ), with the same area, layers, samples and depth, no resolve in
 * between and within the device's local-read limits, joins its rendering instance (rg_graph_desc.merge;
 * rg_merge_get says why a pair did not).
 *
 * Multisampling (docs/spans-and-merging.md#multisampling). A span not merged whose multisampled attachments
 * only it uses (no LOAD, nothing else reads them) and resolves into created textures renders multisampled
 * straight into those (VK_EXT_multisampled_render_to_single_sampled, where
 * rg_device_caps.msaa_to_single_sampled): the multisampled textures are not created (RG_MEMORY_FOLDED);
 * rg_resource_info.fold says why one was not. */

/* One attachment view: one mip, explicit layers (no REMAINING). */
typedef struct rg_attachment {
    rg_texture texture;
    uint32_t mip;
    uint32_t base_layer, layer_count; /* layer_count 0 = 1 */
    /* 0 = LOAD, which reads: of a created texture, only what an earlier
     * command wrote (see "Reads"); CLEAR and DONT_CARE skip the read. */
    VkAttachmentLoadOp load;
    /* 0 = STORE. STORE and DONT_CARE write even a read-only depth; LOAD and
     * store NONE make it a pure read. */
    VkAttachmentStoreOp store;
    VkClearValue clear;
    rg_texture resolve;               /* optional single-sample target */
    uint32_t resolve_mip, resolve_layer;
    /* 0: AVERAGE (float colors), SAMPLE_ZERO (integer colors, depth);
     * depth MIN or MAX where offered (checked at placement). */
    VkResolveModeFlagBits resolve_mode;
} rg_attachment;

typedef struct rg_rendering_desc {
    const char *name;
    rg_attachment colors[RG_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;
    rg_attachment depth;              /* texture.id == 0: none; stencil follows the format */
    bool depth_read_only;
    /* Zero extent: the attachments' common extent (else EXTENT_MISMATCH naming
     * two); given, it must fit every attachment (RG_ERROR_BAD_RANGE). */
    VkRect2D area;
} rg_rendering_desc;

/* Open and close a span; declaration calls returning their command (0 and
 * the error kept on a mistake). Execute sets viewport and scissor to the
 * render area after vkCmdBeginRendering. */
rg_command rg_begin_rendering(rg_graph *graph, const rg_rendering_desc *desc);
rg_command rg_end_rendering(rg_graph *graph);
/* Whether AUTO merges on a driver: the tile GPUs' (ARM, QUALCOMM,
 * IMAGINATION proprietary, MESA_TURNIP, MESA_PANVK); not desktop GPUs, CPU
 * devices or MoltenVK (docs/spans-and-merging.md says why). */
RG_EXPERIMENTAL bool rg_merge_by_default(VkDriverId driver);

/* The rendering state a draw's pipeline must be built against, after
 * compile (VkPipelineRenderingCreateInfo and, merged, the location and
 * input-index infos); arrays per color attachment of the instance. key
 * hashes every field but instance: keep pipelines by it. */
RG_EXPERIMENTAL typedef struct rg_command_rendering {
    uint32_t instance;                /* rendering instance, from 0 in execution order */
    bool merged;                      /* the instance holds more than this span */
    uint32_t color_count;
    VkFormat color_formats[RG_MAX_COLOR_ATTACHMENTS];
    VkFormat depth_format, stencil_format; /* UNDEFINED: none */
    VkSampleCountFlagBits samples;
    /* The fragment output location that writes each attachment, or
     * VK_ATTACHMENT_UNUSED: this span's i-th declared color is location i. */
    uint32_t color_locations[RG_MAX_COLOR_ATTACHMENTS];
    /* The InputAttachmentIndex each attachment is read through, or
     * VK_ATTACHMENT_UNUSED (rg_command_get_local_read). */
    uint32_t color_input_indices[RG_MAX_COLOR_ATTACHMENTS];
    uint32_t depth_input_index, stencil_input_index;
    uint64_t key;
} rg_command_rendering;

/* A span command's rendering state, after compile. RG_ERROR_NOT_COMPILED;
 * RG_ERROR_INVALID_ARGUMENT outside spans; RG_ERROR_CULLED (not logged). */
RG_EXPERIMENTAL rg_result rg_command_get_rendering(const rg_graph *graph, rg_command command,
                                                   rg_command_rendering *out);

/* How a pixel-local read reads, after compile: merged, an input
 * attachment (subpassLoad) at input_index in RENDERING_LOCAL_READ layout;
 * otherwise a sampled read (texelFetch) in SHADER_READ_ONLY_OPTIMAL. */
RG_EXPERIMENTAL typedef struct rg_local_read_info {
    bool input_attachment;
    uint32_t input_index;             /* VK_ATTACHMENT_UNUSED when sampled */
    VkImageLayout layout;             /* for the descriptor */
} rg_local_read_info;

/* After compile. RG_ERROR_NOT_COMPILED before; RG_ERROR_INVALID_ARGUMENT
 * when the command does not read the texture pixel-locally. */
RG_EXPERIMENTAL rg_result rg_command_get_local_read(const rg_graph *graph, rg_command command, rg_texture texture,
                                                    rg_local_read_info *out);

/* A pair of spans that could have merged (the later reads what the earlier
 * rendered pixel-locally), after compile: whether they did, and if not
 * why, naming the rule, command or resource. */
RG_EXPERIMENTAL typedef struct rg_merge_info {
    rg_command first, second;         /* their begin_rendering commands */
    bool merged;
    const char *reason;               /* "" when merged; valid until the next compile */
} rg_merge_info;

/* The merge candidates after compile (0 before). */
RG_EXPERIMENTAL uint32_t rg_merge_count(const rg_graph *graph);
RG_EXPERIMENTAL rg_result rg_merge_get(const rg_graph *graph, uint32_t index, rg_merge_info *out);

/* ===== 8. Transfers ===== */

/* Built-in copies, clears and blits, outside spans (else
 * RG_ERROR_TRANSFER_IN_SPAN); declaration calls. Buffer <-> texture copies
 * move a whole mip of one aspect, tightly packed, at an offset a multiple
 * of the block size (4 for depth/stencil). Compressed formats cannot be
 * cleared; blits follow vkCmdBlitImage's rules. Format features are checked
 * at placement. See docs/declaring-a-frame.md#transfers. */

/* size bytes from src at src_offset to dst at dst_offset. */
rg_command rg_cmd_copy_buffer(rg_graph *graph, rg_buffer src, VkDeviceSize src_offset, rg_buffer dst,
                              VkDeviceSize dst_offset, VkDeviceSize size);
/* Whole mip level `mip`, layers [layer, layer + layer_count). */
rg_command rg_cmd_copy_buffer_to_texture(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                         uint32_t mip, uint32_t layer, uint32_t layer_count);
rg_command rg_cmd_copy_texture_to_buffer(rg_graph *graph, rg_texture src, uint32_t mip, uint32_t layer,
                                         uint32_t layer_count, rg_buffer dst, VkDeviceSize offset);
/* The same for one aspect (0: the format's); another aspect is
 * RG_ERROR_INVALID_ARGUMENT. Barriers cover both aspects (rg_range). */
rg_command rg_cmd_copy_buffer_to_texture_aspect(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                                VkImageAspectFlags aspect, uint32_t mip, uint32_t layer,
                                                uint32_t layer_count);
rg_command rg_cmd_copy_texture_aspect_to_buffer(rg_graph *graph, rg_texture src, VkImageAspectFlags aspect,
                                                uint32_t mip, uint32_t layer, uint32_t layer_count, rg_buffer dst,
                                                VkDeviceSize offset);
/* Clears range of texture (NULL: the whole texture) to value (required). */
rg_command rg_cmd_clear_texture(rg_graph *graph, rg_texture texture, const rg_range *range,
                                const VkClearValue *value);
/* Blits the whole of mip src_mip of src onto the whole of mip dst_mip of
 * dst, scaled, for the layers both have. */
rg_command rg_cmd_blit(rg_graph *graph, rg_texture src, uint32_t src_mip, rg_texture dst, uint32_t dst_mip,
                       VkFilter filter);
/* Makes a command eligible for a queue ("Queues"): built-in copies for
 * COMPUTE or TRANSFER (on TRANSFER a buffer offset a multiple of 4), color
 * clears for COMPUTE, user commands as rg_user_desc.queue says; GRAPHICS
 * makes it graphics-only again. Another combination is a declaration error. */
void rg_command_allow_queue(rg_graph *graph, rg_command command, rg_queue queue);

/* ===== 9. Compile ===== */

/* rg_compile: the declaration to an execution order and barriers, without a device; errors kept. See
 * docs/declaring-a-frame.md#compile.
 *
 * Culling. A command whose results reach nothing observable (a write to an import or history current,
 * side_effects, a command declaring nothing) is not recorded, nor a created resource only such commands use
 * made (an INFO notice says why).
 *
 * Reads. A read or LOAD of a created resource's subresource nothing earlier writes:
 * RG_ERROR_READ_BEFORE_WRITE (not imports, previous, undefined_ok).
 *
 * Barriers. rg_barrier_get: after compile as if nothing aliased; after placement exactly what rg_execute
 * records. */

/* Compiles (device-free); returns the kept error. An unchanged declaration
 * returns at once; a changed one frees the previous placement. */
rg_result rg_compile(rg_graph *graph);
/* After compile: a happens-before b. Uses inside one span are unordered:
 * false both ways. False before compile and for an invalid handle. */
bool rg_happens_before(const rg_graph *graph, rg_command a, rg_command b);
/* The compiled execution order as command handles, culled commands left
 * out: returns their count and points *order at them (valid until the next
 * compile, placement or reset); 0 and NULL before compile. */
uint32_t rg_execution_order(const rg_graph *graph, const rg_command **order);

/* What a command is, after compile. */
typedef enum rg_command_type {
    RG_COMMAND_TYPE_USER = 0,         /* rg_cmd_user */
    RG_COMMAND_TYPE_COPY_BUFFER, RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE, RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER,
    RG_COMMAND_TYPE_CLEAR, RG_COMMAND_TYPE_BLIT,
    RG_COMMAND_TYPE_BEGIN_RENDERING, RG_COMMAND_TYPE_END_RENDERING,
} rg_command_type;

typedef struct rg_command_info {
    const char *name;                 /* valid while the graph's declaration is */
    rg_command_type type;
    rg_command_kind kind;             /* user commands */
    uint32_t index;                   /* place in record order, from 0 */
    uint32_t span;                    /* its span (rg_span_get_rendering), or RG_INDEX_NONE */
    rg_record_fn record;              /* user commands: as declared */
    void *user;
    bool culled;                      /* not recorded (see "Culling") */
    const char *cull_reason;          /* why culled, as the log's notice says; NULL when it runs */
    rg_queue queue;                   /* the queue it runs on (see "Queues") */
    uint32_t batch;                   /* its batch (rg_batch_get); RG_INDEX_NONE when culled */
} rg_command_info;

/* RG_ERROR_NOT_COMPILED before compile; RG_ERROR_INVALID_HANDLE for a
 * stale, foreign or 0 handle. */
rg_result rg_command_get_info(const rg_graph *graph, rg_command command, rg_command_info *out);

typedef struct rg_barrier_info {
    rg_command before;                /* recorded right before it; 0: at the end (imports) */
    bool hoisted;                     /* before its span's (instance's) begin_rendering */
    bool by_region;                   /* inside a merged instance: BY_REGION dependency */
    rg_texture texture;               /* one of texture / buffer, or neither (memory) */
    rg_buffer buffer;
    rg_range range;
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
    VkImageLayout old_layout, new_layout;
} rg_barrier_info;

/* The barriers (see "Barriers" above): their count (0 before compile) and
 * one of them, a pointer valid until the next compile, placement or reset;
 * NULL before compile or for an index past the count. */
uint32_t rg_barrier_count(const rg_graph *graph);
const rg_barrier_info *rg_barrier_get(const rg_graph *graph, uint32_t index);

/* ===== 10. Placement ===== */

/* rg_place checks what the device offers, plans memory, creates and binds images, buffers, memory, views and
 * semaphores, and plans the barriers again with aliasing. See docs/memory.md. Memory kinds: rg_memory_kind.
 *
 * Placement and the GPU (docs/memory.md#placement-and-the-gpu). A freed placement (changed compile, reset,
 * destroy) is retired, never waited for: destroyed once the graph's timelines and the application's retire
 * point (rg_graph_set_retire_point) have signalled, as the pipeline calls and rg_device_collect check. Frames
 * submitted without a retire point hold it until rg_device_destroy (a WARNING says so). Do not reset a fence
 * named as a retire point while objects wait for it. */

/* Where a resource's memory comes from, once placed. */
typedef enum rg_memory_kind {
    RG_MEMORY_NOT_CREATED = 0,        /* created but never used: not made at all */
    RG_MEMORY_IMPORTED,
    RG_MEMORY_LAZY,                   /* own LAZILY_ALLOCATED allocation (tile memory) */
    RG_MEMORY_DEDICATED,              /* own allocation: the driver asks, or history */
    RG_MEMORY_POOLED,                 /* a range of a shared pool, maybe aliased */
    RG_MEMORY_LAZY_FALLBACK,          /* planned lazy, it ran out: own device-local allocation */
    RG_MEMORY_FOLDED,                 /* multisampled, rendered into its resolve target: no image */
} rg_memory_kind;

typedef struct rg_memory_totals {
    VkDeviceSize pooled;              /* sum of pool sizes, alignment padding included */
    /* Every pooled resource in bytes of its own, alignment padding
     * included (= pooled under no_aliasing), and that padding. */
    VkDeviceSize unaliased, padding;
    /* The most pooled bytes live at one point of the order, per pool class
     * summed, without padding: no placement can pool less. */
    VkDeviceSize lower_bound;
    VkDeviceSize lazy, lazy_fallback; /* from lazily allocated types; where they ran out */
    VkDeviceSize dedicated;
    uint32_t pools;
    /* Re-declaring: images and buffers taken from earlier placements and made; released at the last reset; device
     * memory kept for later placements outside this one. */
    uint32_t objects_reused, objects_created, objects_released;
    VkDeviceSize kept;
} rg_memory_totals;

/* Places the compiled graph (see above): what the device lacks is
 * RG_ERROR_UNSUPPORTED naming it, found before anything is created;
 * RG_ERROR_NOT_COMPILED; RG_ERROR_INVALID_ARGUMENT without a device. A
 * failure frees what it made. Placing a placed graph returns at once. */
rg_result rg_place(rg_graph *graph);

/* Plans placement without a device from memory requirements the callback
 * gives per created, used resource (index: its place among all declared
 * textures and buffers); false from it is RG_ERROR_CALLBACK. The graph must
 * be compiled; one placed by rg_place is refused. Replaces the previous
 * plan; rg_execute replaces it with a device placement. */
typedef bool (*rg_requirements_fn)(void *user, const char *name, bool is_texture, uint32_t index,
                                   VkDeviceSize *size, VkDeviceSize *alignment, uint32_t *type_bits,
                                   bool *dedicated);
rg_result rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                           rg_requirements_fn requirements, void *user);

/* Picks a memory type, pure: a transient image gets the first type with
 * required | LAZILY_ALLOCATED in type_bits, else the first with required
 * (0 = DEVICE_LOCAL); nothing else ever gets a lazy type; PROTECTED only
 * when required. False when none matches. */
bool rg_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props, uint32_t type_bits,
                           VkMemoryPropertyFlags required, bool transient, uint32_t *out_index);

/* After placement (rg_place or rg_place_offline); zeroed before. */
rg_memory_totals rg_memory_get_totals(const rg_graph *graph);
/* A resource's memory kind after placement, and (each may be NULL) its pool
 * and offset, RG_INDEX_NONE unless pooled; RG_MEMORY_NOT_CREATED before
 * placement and for an invalid handle. */
rg_memory_kind rg_texture_memory(const rg_graph *graph, rg_texture texture, VkDeviceSize *offset,
                                 uint32_t *pool);
rg_memory_kind rg_buffer_memory(const rg_graph *graph, rg_buffer buffer, VkDeviceSize *offset, uint32_t *pool);
/* True when the texture got TRANSIENT_ATTACHMENT usage (after compile;
 * false before and for an invalid handle). */
bool rg_texture_is_transient(const rg_graph *graph, rg_texture texture);
/* The Vulkan objects of a texture or buffer: a created one's after rg_place
 * (VK_NULL_HANDLE before, or when unused), an import's as last set. The
 * view is of the whole texture (depth only for a sampled depth/stencil
 * texture). VK_NULL_HANDLE for an invalid handle. */
VkImage rg_texture_image(const rg_graph *graph, rg_texture texture);
VkImageView rg_texture_view(const rg_graph *graph, rg_texture texture);
VkBuffer rg_buffer_handle(const rg_graph *graph, rg_buffer buffer);
/* Destroys the retired objects whose frames have finished (asked, never
 * waited for; see "Placement and the GPU") and returns how many objects
 * are still held; 0 for NULL. */
RG_EXPERIMENTAL uint32_t rg_device_collect(rg_device *device);
/* What the application's submission of the graph's latest frame signals (a
 * timeline value, a fence, or both): set after each submission of command
 * buffers the application submits itself, or freed placements are held
 * until rg_device_destroy ("Placement and the GPU"). Both VK_NULL_HANDLE:
 * nothing in flight. RG_ERROR_INVALID_ARGUMENT without a device. */
RG_EXPERIMENTAL rg_result rg_graph_set_retire_point(rg_graph *graph, VkSemaphore timeline, uint64_t value,
                                                    VkFence fence);

/* ===== 11. Execute and submit ===== */

/* rg_execute records the placed frame into one command buffer.
 *
 * Queues (docs/queues.md). Eligible commands outside spans (rg_user_desc.queue, rg_command_allow_queue) run
 * on the compute or transfer queue where the device has it (with timeline semaphores), the queue policy
 * allows and they touch no import (rg_queue_note_get). Such a graph compiles to batches, one submission each,
 * waiting on each other's timeline semaphores and ending on graphics; shared resources are CONCURRENT. Record
 * with rg_execute_batches, submit with rg_submit. */

/* A semaphore wait of a batch: the queue's timeline semaphore at the value
 * its batch `batch` (an index for rg_batch_get) signals in this frame, or,
 * with batch RG_INDEX_NONE, at the value of the frame before's last batch
 * on that queue; waited at `stage`. */
typedef struct rg_batch_wait {
    rg_queue queue;
    uint32_t batch;
    VkPipelineStageFlags2 stage;
} rg_batch_wait;

/* One submission (a batch) after compile, numbered in submission order;
 * its commands are its queue's at execution-order positions first..last;
 * signal counts its queue's batches up to it (added to the frame's base). */
typedef struct rg_batch_info {
    rg_queue queue;
    /* Execution-order positions, inclusive; first RG_INDEX_NONE (> last):
     * no commands (the frame's final transitions only). */
    uint32_t first, last;
    uint32_t wait_count;
    rg_batch_wait waits[RG_QUEUE_COUNT];
    uint64_t signal;
} rg_batch_info;

/* The frame's batches after compile: 1 for a single-queue graph. */
uint32_t rg_batch_count(const rg_graph *graph);
rg_result rg_batch_get(const rg_graph *graph, uint32_t batch, rg_batch_info *out);

/* An eligible command kept on graphics and why (valid until the next
 * compile); none where the device lacks the queue or single_queue. */
typedef struct rg_queue_note {
    rg_command command;
    rg_queue eligible;
    const char *reason;
} rg_queue_note;

/* The notes after compile (0 before). */
uint32_t rg_queue_note_count(const rg_graph *graph);
rg_result rg_queue_note_get(const rg_graph *graph, uint32_t index, rg_queue_note *out);

/* RG_QUEUE_POLICY_MEASURED: a frame's time runs from its first batch's
 * start to its last one's end (GPU timestamps); the median of this many
 * frames each way; async is kept only when faster by more than the noise
 * (the spreads added, at least 0.5%). */
#define RG_QUEUE_MEASURE_FRAMES 15u

RG_EXPERIMENTAL typedef enum rg_queue_choice_state {
    RG_QUEUE_CHOICE_NONE = 0,         /* another policy, or nothing would leave graphics */
    RG_QUEUE_CHOICE_MEASURING,        /* frames being timed: `async` is the way compiled now */
    RG_QUEUE_CHOICE_MADE,
    RG_QUEUE_CHOICE_UNMEASURED,       /* timings off or a queue without timestamps: as ELIGIBLE */
} rg_queue_choice_state;

RG_EXPERIMENTAL typedef struct rg_queue_choice {
    rg_queue_choice_state state;
    bool async;                       /* eligible commands on their queues; false: all on graphics */
    double async_ms, single_ms;       /* median frame times (0: not measured yet) */
    double async_spread, single_spread; /* half the interquartile range, ms */
    /* rg_submit's median CPU time (0: plans submitted by hand); not in the choice */
    double async_submit_ms, single_submit_ms;
    uint32_t frames;                  /* frames timed per way */
    const char *reason;               /* the sentence the log printed; valid until the next compile */
} rg_queue_choice;

/* RG_ERROR_INVALID_ARGUMENT for NULL. Any state, any policy. */
RG_EXPERIMENTAL rg_result rg_queue_choice_get(const rg_graph *graph, rg_queue_choice *out);
/* Records the frame into cmd (recording, of the graphics family), placing
 * the graph first if needed. RG_ERROR_INVALID_ARGUMENT on several queues
 * (rg_execute_batches); RG_ERROR_CALLBACK when a callback fails (no
 * rendering instance left open). Allocates nothing after the first. */
rg_result rg_execute(rg_graph *graph, VkCommandBuffer cmd);

/* Per batch, its queue, command buffers, waits and signal for VkSubmitInfo2;
 * valid until the next rg_execute_batches or change of the graph. */
typedef struct rg_submission {
    rg_queue queue;
    VkQueue vk_queue;                 /* the device's queue of that kind */
    VkCommandBuffer cmd;              /* the first of cmds */
    /* Submitted in this order in one VkSubmitInfo2: one, or its chunks'. */
    const VkCommandBuffer *cmds;
    uint32_t cmd_count;
    uint32_t wait_count;
    VkSemaphoreSubmitInfo waits[RG_QUEUE_COUNT];
    VkSemaphoreSubmitInfo signal;
} rg_submission;

typedef struct rg_submit_plan {
    uint32_t count;                   /* rg_batch_count */
    const rg_submission *submissions;
} rg_submit_plan;

/* Records batch i into cmds[i] (recording, of its queue's family), placing
 * the graph first if needed, and fills *plan. Every plan must be submitted,
 * in order and whole, before the next call (rg_submit or vkQueueSubmit2).
 * Single-queue: cmds[0] gets what rg_execute records. Fails as rg_execute. */
rg_result rg_execute_batches(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan);

/* What the application adds to a plan's submissions. */
typedef struct rg_submit_desc {
    /* To the first graphics batch (an acquire semaphore at COLOR_ATTACHMENT_OUTPUT). */
    const VkSemaphoreSubmitInfo *waits;
    uint32_t wait_count;
    /* To the last batch, on graphics (a present's semaphore). */
    const VkSemaphoreSubmitInfo *signals;
    uint32_t signal_count;
    VkFence fence;                    /* signalled by the last batch, or VK_NULL_HANDLE */
} rg_submit_desc;

/* Submits a plan in order (one vkQueueSubmit2 per batch) on the device's
 * queues, which no other thread may use meanwhile. desc may be NULL (at
 * most 16 waits and 16 signals). RG_ERROR_INVALID_ARGUMENT; RG_ERROR_VULKAN
 * or RG_ERROR_OUT_OF_MEMORY naming the batch. */
rg_result rg_submit(rg_graph *graph, const rg_submit_plan *plan, const rg_submit_desc *desc);

/* Parallel recording (docs/parallel-recording.md). Each batch is cut into chunks of about equal cost
 * (rg_user_desc.cost), each recorded into its own primary command buffer (cut instances suspend and resume).
 * Between rg_execute_begin and rg_execute_end, rg_execute_chunk may run on several threads, each chunk into a
 * buffer of its own pool; callbacks set every state they use; nothing else changes the graph; a batch's
 * chunks are submitted in order (rg_submission.cmds). Allocates nothing once the graph ran with as many
 * chunks. */
RG_EXPERIMENTAL typedef struct rg_execute_desc {
    /* Chunks to aim for (at most 256 per batch, at least one per batch and
     * one command per chunk); 0: one per batch. */
    uint32_t max_chunks;
} rg_execute_desc;

/* One chunk of the frame being recorded. Valid until rg_execute_end. */
RG_EXPERIMENTAL typedef struct rg_chunk_info {
    uint32_t batch;                   /* the batch it is part of (rg_batch_get) */
    rg_queue queue;                   /* its batch's queue: the command buffer's family */
    uint32_t first, count;            /* its positions in rg_execution_order (of its batch only) */
    uint64_t cost;                    /* the sum of its commands' costs */
    bool resumes, suspends;           /* begins inside a rendering instance / ends inside one */
} rg_chunk_info;

/* Begins a frame in chunks: places if needed, binds imports, swaps history,
 * cuts *chunk_count chunks (desc may be NULL). Fails as rg_execute;
 * RG_ERROR_INVALID_ARGUMENT while a frame is begun. */
RG_EXPERIMENTAL rg_result rg_execute_begin(rg_graph *graph, const rg_execute_desc *desc, uint32_t *chunk_count);
/* The chunks of the frame begun (RG_ERROR_INVALID_ARGUMENT outside one or
 * for an index past the count). */
RG_EXPERIMENTAL rg_result rg_chunk_get(const rg_graph *graph, uint32_t chunk, rg_chunk_info *out);
/* Records one chunk into cmd (of its queue's family); thread-safe for
 * different chunks. RG_ERROR_CALLBACK: the frame fails at rg_execute_end.
 * RG_ERROR_INVALID_ARGUMENT: no begun frame, bad index, twice, NULL cmd. */
RG_EXPERIMENTAL rg_result rg_execute_chunk(rg_graph *graph, uint32_t chunk, VkCommandBuffer cmd);
/* Ends the frame (cmds[i]: chunk i's buffer) and fills *plan as
 * rg_execute_batches does (NULL for a single-queue graph). A failed or
 * unrecorded chunk fails the frame: history and timelines stay, and the
 * frame must not be submitted. The frame is over either way. */
RG_EXPERIMENTAL rg_result rg_execute_end(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan);

/* A few threads kept for rg_workers_execute, for applications without a job system. */
typedef struct rg_workers rg_workers;

RG_EXPERIMENTAL typedef struct rg_workers_desc {
    uint32_t thread_count;            /* recording, the caller's included; 0: 1 */
    const rg_allocator *allocator;    /* its host memory; NULL: malloc */
} rg_workers_desc;

/* Starts the threads (the only ones the library starts); RG_ERROR_INVALID_ARGUMENT
 * for an incomplete allocator, RG_ERROR_OUT_OF_MEMORY when memory or a thread cannot be had. */
RG_EXPERIMENTAL rg_result rg_workers_create(const rg_workers_desc *desc, rg_workers **out);
/* Stops and joins the threads; NULL is accepted. Not during a rg_workers_execute. */
RG_EXPERIMENTAL void rg_workers_destroy(rg_workers *workers);
/* Records every chunk of the begun frame on the workers' threads and the
 * calling one, returning when all are done (the first failed chunk's
 * result). Allocates nothing. One graph at a time per rg_workers. */
RG_EXPERIMENTAL rg_result rg_workers_execute(rg_workers *workers, rg_graph *graph, const VkCommandBuffer *cmds);

/* ===== 12. Recording ===== */

/* A record callback's context (docs/recording.md): its command buffer and this frame's objects and
 * descriptors of what its command declared.
 *
 * Declared only: rg_record_image, _view and _buffer hand out only what the command declared (a draw also its
 * span's attachments), else VK_NULL_HANDLE and RG_ERROR_UNDECLARED in the message.
 *
 * Descriptors: rg_record_image_info's view is of exactly the declared subresources, in the access's layout;
 * shader accesses only. Views are made on first request and kept with the placement. */

/* The command buffer to record into; VK_NULL_HANDLE for NULL. */
VkCommandBuffer rg_record_cmd(const rg_record_context *rc);
/* The graph being recorded (its error message, rg_texture_history_valid). */
RG_EXPERIMENTAL rg_graph *rg_record_graph(const rg_record_context *rc);
/* The Vulkan object of a resource the command being recorded declared
 * (see "Declared only" above); VK_NULL_HANDLE and RG_ERROR_UNDECLARED in
 * the message otherwise, or VK_NULL_HANDLE for an invalid handle. */
VkImage rg_record_image(const rg_record_context *rc, rg_texture texture);
VkImageView rg_record_view(const rg_record_context *rc, rg_texture texture);
VkBuffer rg_record_buffer(const rg_record_context *rc, rg_buffer buffer);
/* The descriptor of the command's access ("Descriptors"); *out zeroed and
 * RG_ERROR_INVALID_ARGUMENT, NOT_PLACED, VULKAN or OUT_OF_MEMORY on failure. */
RG_EXPERIMENTAL rg_result rg_record_image_info(const rg_record_context *rc, rg_texture texture,
                                               VkDescriptorImageInfo *out);
RG_EXPERIMENTAL rg_result rg_record_buffer_info(const rg_record_context *rc, rg_buffer buffer,
                                                VkDescriptorBufferInfo *out);
/* The same for the command's access number `access` (its index in
 * rg_user_desc.accesses), which must be a texture or a buffer access. */
RG_EXPERIMENTAL rg_result rg_record_access_image_info(const rg_record_context *rc, uint32_t access,
                                                      VkDescriptorImageInfo *out);
RG_EXPERIMENTAL rg_result rg_record_access_buffer_info(const rg_record_context *rc, uint32_t access,
                                                       VkDescriptorBufferInfo *out);
/* The command whose callback is running (0 in a context from rg_record_context_get). */
RG_EXPERIMENTAL rg_command rg_record_command(const rg_record_context *rc);
/* The spans of the declaration (0 before compile), for recording by hand. */
uint32_t rg_span_count(const rg_graph *graph);

/* One span's vkCmdBeginRendering as rg_execute records it (info points into
 * this struct: do not copy by value); rg_execute then sets viewport and
 * scissor to info.renderArea. */
typedef struct rg_span_rendering {
    VkRenderingInfo info;
    VkRenderingAttachmentInfo colors[RG_MAX_COLOR_ATTACHMENTS];
    VkRenderingAttachmentInfo depth;  /* also info.pStencilAttachment for a stencil format */
    VkMultisampledRenderToSingleSampledInfoEXT fold; /* info.pNext of a folded span ("Multisampling") */
    rg_command begin, end;
    /* Merged ("Merging"): a continuing span is not begun (info is the
     * instance's) but sets its locations and indices; the last span ends. */
    bool continues, ends;
} rg_span_rendering;

/* RG_ERROR_NOT_PLACED before placement on the device; RG_ERROR_NOT_COMPILED
 * before compile; RG_ERROR_INVALID_ARGUMENT for a span past the count. */
rg_result rg_span_get_rendering(const rg_graph *graph, uint32_t span, rg_span_rendering *out);
/* A record context for recording into cmd by hand; it hands out any
 * resource. Valid until the graph is used with another cmd or changes;
 * NULL unless placed on its device. */
const rg_record_context *rg_record_context_get(rg_graph *graph, VkCommandBuffer cmd);
/* The same for one user command: its queries answer for it and hand out
 * only what it declared. NULL also for a command not a user command. */
RG_EXPERIMENTAL const rg_record_context *rg_record_context_for(rg_graph *graph, VkCommandBuffer cmd,
                                                               rg_command command);

/* ===== 13. Timings ===== */

/* Timings (docs/diagnostics.md#gpu-timings). Each rendering instance,
 * command outside spans and batch is timed at ALL_COMMANDS; a frame is
 * read at a later execute once finished, never waiting (RG_ERROR_NOT_READY
 * until then). Every recorded frame must be submitted. */

/* Timings on or off ("Timings"). Off destroys the pools: the GPU must be
 * done with the graph's frames. RG_ERROR_INVALID_ARGUMENT for NULL. */
RG_EXPERIMENTAL rg_result rg_graph_set_timings(rg_graph *graph, bool on);

RG_EXPERIMENTAL typedef enum rg_timing_kind {
    RG_TIMING_BATCH = 0,              /* a batch's command buffer, whole */
    RG_TIMING_SPAN,                   /* a rendering instance (merged spans together) */
    RG_TIMING_COMMAND,                /* a command outside spans */
} rg_timing_kind;

/* One timed unit of the latest completed frame. */
RG_EXPERIMENTAL typedef struct rg_timing {
    rg_timing_kind kind;
    rg_command command;               /* or the instance's first begin_rendering; 0: batch */
    /* The command's, the instance's spans' joined by '+', "batch 0
     * (graphics)"; valid while placed. */
    const char *name;
    rg_queue queue;
    uint32_t batch;                   /* rg_batch_get */
    double ms;
    uint64_t frame;                   /* executes since placement, from 1 */
} rg_timing;

/* Timed units, after placement with timings on (0 otherwise): per batch,
 * the batch, then its instances and commands in execution order. */
RG_EXPERIMENTAL uint32_t rg_timing_count(const rg_graph *graph);
/* RG_ERROR_NOT_READY before a frame completed; RG_ERROR_NOT_PLACED,
 * RG_ERROR_INVALID_ARGUMENT with timings off or an index past the count. */
RG_EXPERIMENTAL rg_result rg_timing_get(const rg_graph *graph, uint32_t index, rg_timing *out);
/* A command's time in the latest completed frame (inside a span: its
 * instance's). RG_ERROR_NOT_READY; RG_ERROR_INVALID_ARGUMENT (culled,
 * timings off); RG_ERROR_UNSUPPORTED (no timestamps on its queue). */
RG_EXPERIMENTAL rg_result rg_command_get_time(const rg_graph *graph, rg_command command, double *ms);
/* The latest completed frame's units heaviest first, then the batches.
 * RG_ERROR_IO when out cannot be written. */
RG_EXPERIMENTAL rg_result rg_timings_print(const rg_graph *graph, FILE *out);

/* ===== 14. Names and debug utils ===== */

/* Names (docs/diagnostics.md#names): Vulkan values as text, pure, any
 * thread: static strings ("R8G8B8A8_UNORM"), an unknown value in one of
 * four per-thread buffers in turn; flag sets as snprintf writes.
 * Debug utils: with rg_device_desc.debug_utils, objects are named after
 * their resources and each batch, span and command is labelled. */

/* How a format's values read: integer formats resolve (SAMPLE_ZERO only)
 * and filter (NEAREST only) differently from the float ones (UNORM, SNORM,
 * SCALED, SFLOAT, UFLOAT, SRGB). */
typedef enum rg_format_numeric {
    RG_FORMAT_UNKNOWN = 0,            /* not in the library's table */
    RG_FORMAT_FLOAT,
    RG_FORMAT_UINT,
    RG_FORMAT_SINT,
    RG_FORMAT_DEPTH_STENCIL,          /* depth and/or stencil aspects */
} rg_format_numeric;

/* What the library knows of a format; block_size 0 for one it does not
 * know (the multi-planar ones among them). Pure: any thread. */
typedef struct rg_format_info {
    uint32_t block_size;              /* bytes per texel block (depth/stencil: texel) */
    uint32_t block_width, block_height; /* texels per block: 1x1 unless compressed */
    VkImageAspectFlags aspects;       /* COLOR, or DEPTH and/or STENCIL */
    rg_format_numeric numeric;
} rg_format_info;

/* The format's row of the library's table; block_size 0 for a format
 * it does not know. */
rg_format_info rg_format_get_info(VkFormat format);
/* Bytes per texel of one aspect in a buffer<->image copy: the block size
 * for color formats (per block when compressed), 2 or 4 for a depth aspect,
 * 1 for stencil; 0 for an unknown format, an aspect it lacks, or both
 * depth and stencil at once (Vulkan copies one aspect per region). */
uint32_t rg_format_copy_size(VkFormat format, VkImageAspectFlags aspect);
/* Texel size in bytes of the uncompressed formats (0 for compressed and
 * unknown ones). */
uint32_t rg_format_texel_size(VkFormat format);
/* Whether the format has a depth / a stencil aspect (false when unknown). */
bool rg_format_has_depth(VkFormat format);
bool rg_format_has_stencil(VkFormat format);
/* A format or layout as text (see "Names"). */
const char *rg_format_name(VkFormat format);
const char *rg_layout_name(VkImageLayout layout);
/* A flag set of `kind` as text into buf; the whole text's length ("Names"). */
typedef enum rg_flag_kind { RG_FLAGS_STAGE, RG_FLAGS_ACCESS, RG_FLAGS_IMAGE_USAGE, RG_FLAGS_BUFFER_USAGE } rg_flag_kind;
size_t rg_flag_names(rg_flag_kind kind, uint64_t flags, char *buf, size_t size);

/* ===== 15. Reports ===== */

/* Reports (docs/diagnostics.md#reports) change nothing; failures are not kept. Tile traffic
 * (docs/diagnostics.md#tile-traffic): the bytes a tile GPU moves between tile memory and DRAM per
 * frame (loads, stores, resolves, spills, reads of what the frame wrote), estimated from the graph.
 * The memory report as text into out, or as JSON into the file at path. RG_ERROR_NOT_PLACED
 * before placement, RG_ERROR_IO when it cannot be written. */
rg_result rg_memory_report_print(const rg_graph *graph, FILE *out);
rg_result rg_memory_report_json(const rg_graph *graph, const char *path);
/* A picture of the pools: resources as bars over the execution order at their offsets, so
 * aliasing can be seen. As the report: after placement; RG_ERROR_IO. */
rg_result rg_memory_timeline_svg(const rg_graph *graph, const char *path);

/* Who makes a resource's memory (rg_resource_info.kind). */
RG_EXPERIMENTAL typedef enum rg_resource_kind {
    RG_RESOURCE_CREATED = 0, RG_RESOURCE_IMPORTED, /* _create; _import */
    RG_RESOURCE_HISTORY_CURRENT, RG_RESOURCE_HISTORY_PREVIOUS, /* rg_texture_create_history: now, before */
} rg_resource_kind;

/* What compile derived for a resource, and where placement put it. */
typedef struct rg_resource_info {
    const char *name;                 /* valid while the graph's declaration is */
    bool imported;
    bool transient;                   /* textures: TRANSIENT_ATTACHMENT usage */
    const char *not_transient;        /* a texture that is not: why ("imported", "'blur' samples it") */
    const char *fold;                 /* a multisampled attachment: folded, or why not ("Multisampling") */
    /* Created resources: the usage the graph creates them with (from the
     * declared accesses, the extra usage and transience). */
    VkImageUsageFlags image_usage;
    VkBufferUsageFlags buffer_usage;
    uint32_t first_use, last_use;     /* in rg_execution_order; RG_INDEX_NONE: unused */
    /* The shape as declared, relative sizes resolved: textures' format,
     * extent, mips, layers and samples; buffers' size. */
    VkFormat format;
    uint32_t width, height, mip_levels, array_layers;
    VkSampleCountFlagBits samples;
    VkDeviceSize size;
    /* Its handle: texture for a texture, buffer for a buffer (the other 0). */
    rg_texture texture;
    rg_buffer buffer;
    rg_resource_kind kind;
    /* After placement (else NOT_CREATED, 0, RG_INDEX_NONE): memory kind,
     * bytes, type, and when pooled its pool and offset. */
    rg_memory_kind memory;
    VkDeviceSize memory_size;
    uint32_t memory_type;             /* RG_INDEX_NONE: imported or not created */
    uint32_t pool;                    /* RG_INDEX_NONE unless pooled */
    VkDeviceSize memory_offset, memory_alignment;
} rg_resource_info;

/* Every declared texture and buffer in declaration order (0 before compile). */
RG_EXPERIMENTAL uint32_t rg_resource_count(const rg_graph *graph);
RG_EXPERIMENTAL rg_result rg_resource_get(const rg_graph *graph, uint32_t index, rg_resource_info *out);
/* One resource's info. RG_ERROR_NOT_COMPILED before compile;
 * RG_ERROR_INVALID_HANDLE for a stale, foreign or 0 handle. */
rg_result rg_texture_get_info(const rg_graph *graph, rg_texture texture, rg_resource_info *out);
rg_result rg_buffer_get_info(const rg_graph *graph, rg_buffer buffer, rg_resource_info *out);
/* Graphviz DOT after compile: spans as clusters, barriers, culled commands
 * grey, queues as lanes. RG_ERROR_NOT_COMPILED, RG_ERROR_IO. */
rg_result rg_write_dot(const rg_graph *graph, const char *path);

/* What one rendering instance (merged spans count once) costs a tile GPU under the graph's
 * profile (docs/tiles.md; over Apple's limit compile fails); traffic as "Tile traffic", bytes. */
RG_EXPERIMENTAL typedef struct rg_tile_traffic {
    uint64_t loads, stores, resolves, sampled, spills, total;
} rg_tile_traffic;
RG_EXPERIMENTAL typedef struct rg_tile_view {
    uint32_t width, height, layers, samples;  /* the render area; its sample count */
    uint32_t color_bytes, depth_bytes;        /* per pixel per sample */
    uint32_t tile_width, tile_height;         /* Mali, Apple7: the tile the rule picks; else 0 */
    uint32_t bins;                            /* Adreno: GMEM bins over the render area; else 0 */
    uint32_t spilled;                         /* Apple7: the last colour attachments kept in memory */
    rg_tile_traffic traffic;
    uint32_t attachment_count, attachments[RG_MAX_COLOR_ATTACHMENTS + 1]; /* rg_resource_get's */
} rg_tile_view;

/* Rendering instances after compile, in execution order (rg_command_rendering.instance); 0 before.
 * One instance's view, or with RG_INDEX_NONE the frame's traffic (the rest 0). */
RG_EXPERIMENTAL uint32_t rg_instance_count(const rg_graph *graph);
RG_EXPERIMENTAL rg_result rg_tile_view_get(const rg_graph *graph, uint32_t instance, rg_tile_view *out);
/* A view as one line into buf, for the profile it was got under; its length as rg_flag_names. */
RG_EXPERIMENTAL size_t rg_tile_view_text(const rg_tile_view *view, rg_tile_profile profile, char *buf, size_t size);

/* ===== 16. The declaration as data ===== */

/* What was declared, as given, compiled or not: for tools that write a
 * frame down and declare it again (docs/frame-files.md). The resources in
 * order (a history pair at its CURRENT), then the commands, declared into
 * a new graph give the same handles and compile. */
RG_EXPERIMENTAL typedef struct rg_declared_resource {
    rg_resource_kind kind;            /* HISTORY_PREVIOUS follows its CURRENT */
    bool is_texture;
    rg_texture texture_handle;        /* its handle (the other 0) */
    rg_buffer buffer_handle;
    /* The one desc of its kind (a previous half: its current's desc under
     * its own name); imports' objects as last set. */
    rg_texture_desc texture;
    rg_texture_import_desc texture_import;
    rg_buffer_desc buffer;
    rg_buffer_import_desc buffer_import;
} rg_declared_resource;

/* A command: a user command's desc (accesses as given), a span's desc
 * (defaults resolved), or a built-in command's arguments. */
RG_EXPERIMENTAL typedef struct rg_declared_command {
    rg_command_type type;
    rg_command command;               /* its handle (rg_command_get_info: culled or not) */
    const char *name;
    rg_queue queue;                   /* eligible besides graphics (rg_command_allow_queue) */
    rg_user_desc user;
    rg_rendering_desc rendering;
    rg_texture src_texture, dst_texture;
    rg_buffer src_buffer, dst_buffer;
    VkDeviceSize src_offset, dst_offset, size;
    uint32_t src_mip, dst_mip, layer, layer_count; /* a buffer<->texture copy's mip: both */
    VkImageAspectFlags aspect;        /* a buffer<->texture copy's, resolved */
    rg_range range;                   /* a clear's, resolved */
    VkClearValue clear;
    VkFilter filter;
} rg_declared_command;
RG_EXPERIMENTAL typedef struct rg_declaration {
    rg_graph_desc desc;               /* caps: its own copy (or the device's); allocator, pool_memory NULL */
    uint32_t resource_count, command_count; /* 0 after a failed declaration call */
} rg_declaration;
RG_EXPERIMENTAL typedef enum rg_declared_kind { RG_DECLARED_RESOURCE = 0, RG_DECLARED_COMMAND } rg_declared_kind;
RG_EXPERIMENTAL typedef struct rg_declared { rg_declared_resource resource; rg_declared_command command; } rg_declared;
/* The declaration, and a resource or command of it (the kind asked, the
 * other zeroed; pointers live as long as the declaration). After a failed
 * declaration call: its kept error. Past the count: INVALID_ARGUMENT. */
RG_EXPERIMENTAL rg_result rg_declaration_get(const rg_graph *graph, rg_declaration *out);
RG_EXPERIMENTAL rg_result rg_declared_get(const rg_graph *graph, rg_declared_kind kind, uint32_t index,
                                          rg_declared *out);

#ifdef __cplusplus
}
#endif
#endif /* RENDERGRAPH_RENDERGRAPH_H */
