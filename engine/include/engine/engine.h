/*
 * engine: the Vulkan layer under the render graph.
 *
 * Workflow
 *   1. eng_context_create()      instance, optional validation, physical and
 *                                logical device, a graphics queue (and async
 *                                compute and transfer queues where the device
 *                                has families for them); headless,
 *                                or windowed through the application's window
 *                                system (instance extensions and a surface
 *                                callback: the engine links no window library).
 *   2. eng_image_create(), eng_attachment_create(), eng_buffer_create(),
 *      eng_image_upload()        resources with their own memory. The memory
 *                                type comes from eng_choose_memory_type(), a
 *                                pure function, so a TRANSIENT attachment lands
 *                                in LAZILY_ALLOCATED memory where the device
 *                                offers it (tile GPUs) and in ordinary
 *                                device-local memory elsewhere.
 *   3. eng_pipeline_create(),    graphics pipelines for dynamic rendering
 *      eng_compute_pipeline_create()  (built for the rendering state the
 *                                graph reports: eng_pipeline_desc_set_rendering)
 *                                and compute ones, optionally through an
 *                                eng_pipeline_cache saved to a file; descriptors
 *                                pushed from the graph (eng_push_bindings);
 *                                samplers from a cache (eng_sampler_get).
 *   4. eng_swapchain_create()    frames in flight, in a window or (offscreen,
 *                                any context) into images of its own; each
 *                                frame, the same calls either way:
 *        eng_swapchain_acquire() -> eng_swapchain_present_graph() runs a
 *        render graph that imports frame.image on every queue it uses and
 *        presents (eng_swapchain_present_graph_parallel: recorded on
 *        several threads); or record into frame.cmd by hand ->
 *        eng_swapchain_finish_image() -> eng_swapchain_present().
 *   5. Destroy in reverse order. Every destroy function accepts NULL.
 *
 * Image files (decoding textures, writing PNGs) are not in this library:
 * engine_files (engine_files/engine_files.h) builds them on this API.
 *
 * Errors
 *   Every fallible function returns an eng_result. On failure it also sets a
 *   message naming the object or call that failed, readable with
 *   eng_last_error() on the same thread (like SDL_GetError), and leaves its
 *   output pointer NULL: nothing half-made is handed out or leaked.
 *
 * Threads
 *   The library takes no locks. Its only global state is the last-error
 *   message, which is per thread: read eng_last_error() on the thread whose
 *   call failed.
 *   - Any thread, any time: the pure functions (eng_choose_memory_type,
 *     eng_pick_physical_device, eng_memory_flags_string, eng_result_string,
 *     eng_version, eng_version_string), eng_spirv_load and
 *     eng_set_error.
 *   - Any thread while the context lives: the getters of what never changes
 *     after eng_context_create (eng_context_instance, _physical_device,
 *     _device, _queue, _queue_family, _queue_of, _queue_family_of,
 *     _surface, _properties, _memory_properties, _has_memory_budget,
 *     _driver, _local_read). The
 *     render graph uses only these, so graphs on one context may be driven
 *     from different threads.
 *   - Everything else on a context, and every object made from it, belongs
 *     to one thread at a time. The context has one command pool, on the
 *     graphics queue, for waited setup work (eng_context_submit_once and what goes
 *     through it: eng_image_upload, eng_image_read, eng_buffer_upload,
 *     eng_buffer_create_with_data), and the swapchain
 *     submits and presents on the same queue (eng_swapchain_present_graph
 *     also submits on the compute and transfer queues a graph uses). Vulkan
 *     wants a queue externally synchronized: nothing else (another thread,
 *     your own vkQueueSubmit on eng_context_queue() or eng_context_queue_of())
 *     may submit while these run.
 *   - eng_swapchain_present_graph_parallel runs the graph's record
 *     callbacks on the rg_workers' threads, several at once; the call
 *     itself returns only when they are done.
 *   - Validation message counts (eng_context_messages) are bumped without
 *     locks on whichever thread makes the Vulkan call: exact when one
 *     thread at a time uses the device.
 *   - The window-system callbacks run on the thread of the call that needs
 *     them: create_surface inside eng_context_create, a swapchain's
 *     window_size inside eng_swapchain_create and eng_swapchain_acquire
 *     (which recreates the swapchain). Where the window library allows its
 *     calls on the main thread only, make those calls there.
 *
 * Version
 *   ENG_VERSION* below say which version the header is; eng_version() and
 *   eng_version_string() say which one the linked library is.
 */
#ifndef ENGINE_ENGINE_H
#define ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rendergraph/rendergraph.h> /* the render graph under the engine; Vulkan */
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- version */

/* This header's version; the build checks it against the CMake project's. */
#define ENG_VERSION_MAJOR 0
#define ENG_VERSION_MINOR 2
#define ENG_VERSION_PATCH 0
#define ENG_VERSION "0.2.0"
/* major * 1000000 + minor * 1000 + patch: ordered, readable in decimal. */
#define ENG_MAKE_VERSION(major, minor, patch) ((major) * 1000000u + (minor) * 1000u + (patch))
#define ENG_VERSION_NUMBER ENG_MAKE_VERSION(ENG_VERSION_MAJOR, ENG_VERSION_MINOR, ENG_VERSION_PATCH)

/* The linked library's version: ENG_VERSION and ENG_VERSION_NUMBER as it was
 * built. A program can compare them with the macros it was compiled with. */
const char *eng_version_string(void);
uint32_t eng_version(void);

/* ------------------------------------------------------------------ results */

typedef enum eng_result {
    ENG_SUCCESS = 0,
    /* Not an error: the frame cannot be drawn now (window minimized). */
    ENG_NOT_READY,
    ENG_ERROR_INVALID_ARGUMENT,
    ENG_ERROR_UNSUPPORTED,      /* format, sample count, usage or instance extension not offered */
    ENG_ERROR_NO_DEVICE,        /* no Vulkan device, or none matches the selector */
    ENG_ERROR_MISSING_FEATURE,  /* no device has Vulkan 1.3 + required features */
    ENG_ERROR_LAYER_MISSING,    /* validation asked for but not installed */
    ENG_ERROR_NO_MEMORY_TYPE,   /* no memory type has the wanted flags */
    ENG_ERROR_OUT_OF_MEMORY,
    ENG_ERROR_DEVICE_LOST,
    ENG_ERROR_SURFACE_LOST,
    ENG_ERROR_WINDOW,           /* the surface could not be created (create_surface) */
    ENG_ERROR_IO,               /* a file could not be read or written */
    ENG_ERROR_VULKAN,           /* any other failing VkResult */
    ENG_RESULT_COUNT
} eng_result;

const char *eng_result_string(eng_result result);
/* A VkResult's name ("VK_ERROR_OUT_OF_DEVICE_MEMORY"), for messages. */
const char *eng_vk_result_string(VkResult result);

/* The message of the last failure on this thread ("" if none). */
const char *eng_last_error(void);

#if defined(__GNUC__) || defined(__clang__)
#define ENG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ENG_PRINTF(fmt, args)
#endif

/* Sets this thread's last-error message (printf-style) and returns result,
 * so that code built on the engine (engine_files) reports its failures the
 * way the engine's own functions do: `return eng_set_error(ENG_ERROR_IO,
 * "texture '%s': %s", path, why);`. */
eng_result eng_set_error(eng_result result, const char *fmt, ...) ENG_PRINTF(2, 3);

/* ------------------------------------------------------------- memory types */

/* Picks a memory type for a resource. Pure: no device needed.
 *   type_bits      VkMemoryRequirements::memoryTypeBits of the resource
 *   required       property flags the type must have (0 = DEVICE_LOCAL)
 *   transient      the resource is an image with TRANSIENT_ATTACHMENT usage
 * A transient image gets the first type with required | LAZILY_ALLOCATED when
 * type_bits offers one, else the first type with the required flags. Anything
 * else never gets a LAZILY_ALLOCATED type (the spec allows lazy memory only
 * for transient attachments). PROTECTED types are skipped unless required.
 * No matching type is ENG_ERROR_NO_MEMORY_TYPE, never a silent index 0. */
eng_result eng_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props,
                                  uint32_t type_bits, VkMemoryPropertyFlags required,
                                  bool transient, uint32_t *out_index);

/* Writes "DEVICE_LOCAL|LAZILY_ALLOCATED" style text; returns buf. */
const char *eng_memory_flags_string(VkMemoryPropertyFlags flags, char *buf, size_t size);

/* ---------------------------------------------------------- device choice */

/* What the device picker needs to know about one physical device. */
typedef struct eng_device_candidate {
    VkPhysicalDeviceProperties properties;
    bool dynamic_rendering;
    bool synchronization2;
    bool graphics_queue;   /* a queue family with graphics (and present, if windowed) */
} eng_device_candidate;

/* Picks a device. Pure: no device needed.
 * selector: NULL or "" = automatic (discrete GPU first, then integrated,
 * virtual, CPU, other; ties keep enumeration order); all digits = index into
 * the list; anything else = case-insensitive substring of the device name.
 * A device missing Vulkan 1.3, dynamicRendering, synchronization2 or a
 * graphics queue is never picked; if that leaves none, the error message
 * names each device and what it lacks. */
eng_result eng_pick_physical_device(const eng_device_candidate *candidates, uint32_t count,
                                    const char *selector, uint32_t *out_index);

/* ---------------------------------------------------------------- context */

typedef struct eng_context eng_context;

/* The kinds of queue a context has (see eng_context_queue_of). */
typedef enum eng_queue_kind {
    ENG_QUEUE_GRAPHICS = 0,
    ENG_QUEUE_COMPUTE,
    ENG_QUEUE_TRANSFER,
    ENG_QUEUE_KIND_COUNT
} eng_queue_kind;

/* The application's own instance and device, for a context over them
 * (eng_context_desc.existing): the engine creates and destroys neither,
 * nor its queues, and does not validate (the application's messenger
 * does). The device was created with Vulkan 1.3's dynamicRendering and
 * synchronization2 on. */
typedef struct eng_existing_device {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    /* Where the engine (and the render graph) load every Vulkan function
     * they call: the instance's through it, the device's through the
     * vkGetDeviceProcAddr it gives. NULL: the engine opens the Vulkan
     * loader at run time and takes its vkGetInstanceProcAddr (no loader:
     * ENG_ERROR_NO_DEVICE); the engine names no vk* symbol, so this works
     * beside volk too. An application that calls Vulkan through volk may
     * pass volk's (vkGetInstanceProcAddr after volkInitialize). */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Required: the pNext chain the application gave vkCreateDevice (a
     * VkPhysicalDeviceFeatures2 and the feature structs linked to it),
     * handed to the render graph's device (rg_device_desc.enabled_features),
     * which checks that the features it needs are on. NULL is
     * ENG_ERROR_INVALID_ARGUMENT. Read during eng_context_create only. */
    const void *enabled_features;
    /* By eng_queue_kind: graphics required (a family with graphics and
     * compute); compute and transfer optional (VK_NULL_HANDLE). */
    VkQueue queues[ENG_QUEUE_KIND_COUNT];
    uint32_t families[ENG_QUEUE_KIND_COUNT];
    /* What the application enabled that the engine and the graph use:
     * timelineSemaphore (needed for the compute and transfer queues),
     * VK_KHR_dynamic_rendering_local_read, VK_EXT_memory_budget. */
    bool timeline_semaphore;
    bool local_read;
    bool memory_budget;
    bool push_descriptor;             /* VK_KHR_push_descriptor */
    /* The application enabled VK_EXT_debug_utils on the instance: the
     * engine names its Vulkan objects, and the render graph names its own
     * and labels what it records (rg_device_desc.debug_utils), so that the
     * application's validation messages name graph resources ("[hdr]"). */
    bool debug_utils;
    /* Host memory of the engine (every allocation the context and the
     * objects made from it make, and the render graph device's and its
     * graphs': rg_device_desc.allocator); NULL: malloc. Copied: the
     * pointer need not outlive the call, its user data must outlive the
     * context. Memory handed to the application to free() (eng_spirv_load,
     * eng_swapchain_read_capture) is malloc's still. */
    const rg_allocator *allocator;
    /* Given to every vkCreate*, vkDestroy*, vkAllocateMemory and
     * vkFreeMemory of the engine and of the render graph
     * (rg_device_desc.vk_allocator); NULL: the driver's. Copied, as
     * allocator. */
    const VkAllocationCallbacks *vk_allocator;
} eng_existing_device;

typedef struct eng_context_desc {
    const char *app_name;            /* NULL = "engine" */
    /* Enables VK_LAYER_KHRONOS_validation with synchronization validation and
     * a debug-utils messenger that counts messages (eng_context_messages).
     * Missing layer = ENG_ERROR_LAYER_MISSING. */
    bool validation;
    /* Window-system integration, given by the application: the engine
     * links no window library, and a few lines of glue make these from
     * whichever the application uses (the demos' glue is in
     * demos/common/). instance_extensions: what the window system needs
     * enabled on the instance (VK_KHR_surface and the platform's surface
     * extension, as the window library reports them; at most 24), added to
     * the engine's own. create_surface: called once by eng_context_create,
     * after the instance exists and before the device is chosen, with
     * surface_user; it makes the window's surface and returns its VkResult.
     * The context owns the surface from then on and destroys it. NULL =
     * headless: no surface, no swapchain extension (an offscreen swapchain,
     * eng_swapchain_desc.offscreen, still runs the frame loop). */
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
    VkResult (*create_surface)(VkInstance instance, void *user, VkSurfaceKHR *out);
    void *surface_user;
    /* Device selector (see eng_pick_physical_device); NULL = the ENG_DEVICE
     * environment variable, unset = automatic. */
    const char *device;
    /* Print validation messages to stderr as they come (default on when
     * validation is on; set quiet to silence). */
    bool quiet;
    /* Where the validation layer's warnings and errors go instead of
     * stderr (the object: the first one the message names), and the
     * render graph's messages about the context's graph device and the
     * graphs on it (rg_log_fn); NULL: stderr as above, and the render
     * graph's default log for its messages (errors and warnings, each
     * distinct line once per placement). */
    rg_log_fn log;
    void *log_user;
    /* More instance layers by name (e.g. "VK_LAYER_VKGRAPH_tile_memory"),
     * enabled after the validation layer: the loader puts later-listed
     * layers closer to the driver, so validation sees what these layers
     * report (layers named through VK_INSTANCE_LAYERS would land above it).
     * A missing one = ENG_ERROR_LAYER_MISSING. The environment variable
     * ENG_LAYERS (names separated by ':' or ',') appends more, at most 8
     * in all. */
    const char *const *extra_layers;
    uint32_t extra_layer_count;
    /* Never enable VK_KHR_dynamic_rendering_local_read, even where the
     * device offers it (eng_context_local_read then reports it
     * unsupported): the same frames can run without it, for comparison. */
    bool no_local_read;
    /* Never enable VK_EXT_multisampled_render_to_single_sampled, even where
     * offered: graphs then create every multisampled attachment (the
     * classic path, for comparison; rendergraph.h "Multisampling"). The
     * environment variable ENG_NO_MSAA_FOLD=1 does the same. */
    bool no_msaa_fold;
    /* Create the graphics queue only, even where the device has a
     * compute-only or transfer-only queue family (eng_context_queue_of then
     * reports none of those): everything runs on one queue. */
    bool single_queue;
    /* Take the compute and transfer queues from the graphics family's
     * spare queues only (ENG_QUEUES_GRAPHICS_FAMILY of eng_pick_queues),
     * even where the device has other families: what a device with one
     * family of several queues offers, measured on any device. With
     * neither this nor single_queue set, the environment variable
     * ENG_QUEUES (default, single, graphics-family) picks the policy;
     * another value is ENG_ERROR_INVALID_ARGUMENT. ENG_TILE_PROFILE
     * (desktop, apple2, apple4, apple7, mali-g71, mali-bifrost,
     * mali-valhall, adreno6, adreno7) gives graphs that tile profile
     * (rg_device_desc.tile_profile; unset: detected). */
    bool graphics_family_queues;
    /* More device extensions to enable (each must be offered, else
     * ENG_ERROR_UNSUPPORTED naming it), besides the engine's own. */
    const char *const *device_extensions;
    uint32_t device_extension_count;
    /* More device features: the application's VkPhysicalDeviceFeatures2
     * chain (samplerAnisotropy, independentBlend in .features; descriptor
     * indexing in a VkPhysicalDeviceVulkan12Features; extensions' own
     * feature structs), enabled as given plus what the engine needs: where
     * the chain has a struct of a type the engine uses (Vulkan 1.2 and 1.3
     * features, local read's), the engine sets its members there; its own
     * structs for the other types are linked at the chain's end for the
     * call and unlinked after. A requested core feature the device lacks
     * is ENG_ERROR_MISSING_FEATURE; the others are the driver's to refuse
     * (VK_ERROR_FEATURE_NOT_PRESENT, also ENG_ERROR_MISSING_FEATURE). */
    VkPhysicalDeviceFeatures2 *features;
    /* Where every Vulkan function the engine calls is loaded from (see
     * eng_existing_device.get_instance_proc_addr); NULL: the loader,
     * opened at run time. */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Host memory and Vulkan's allocation callbacks of the context, as
     * eng_existing_device's (the instance and device the context creates
     * get vk_allocator too); NULL: malloc, the driver's. */
    const rg_allocator *allocator;
    const VkAllocationCallbacks *vk_allocator;
    /* A context over the application's own device instead (see
     * eng_existing_device): app_name, validation, the window and device
     * fields above, get_instance_proc_addr and the allocators are then
     * unused (the existing device's are). */
    const eng_existing_device *existing;
} eng_context_desc;

typedef struct eng_message_counts {
    uint32_t verbose, info, warning, error;
} eng_message_counts;

eng_result eng_context_create(const eng_context_desc *desc, eng_context **out);
void eng_context_destroy(eng_context *ctx);

VkInstance eng_context_instance(const eng_context *ctx);
VkPhysicalDevice eng_context_physical_device(const eng_context *ctx);
VkDevice eng_context_device(const eng_context *ctx);
VkQueue eng_context_queue(const eng_context *ctx);
uint32_t eng_context_queue_family(const eng_context *ctx);

/* The queues the context creates, one of each kind the device offers
 * (eng_pick_queues says which). Besides the graphics queue (which does
 * compute and transfer too), unless eng_context_desc.single_queue: a queue
 * for async compute and one for copies beside the other work, each from a
 * family of its own where the device has one (the H200's compute-only and
 * transfer-only families; MoltenVK's several one-queue families, each a
 * Metal command queue), or, asked for with graphics_family_queues, spare
 * queues of the graphics family. A device with one queue family (lavapipe)
 * has neither by default. Like the other getters these may be called from
 * any thread; submitting to a queue needs it externally synchronized, as
 * Vulkan says. The device is created with Vulkan 1.2's timelineSemaphore
 * feature on, for ordering work across these queues. */
/* The queue of a kind and its family; VK_NULL_HANDLE and UINT32_MAX where
 * the context has no such queue (then use the graphics queue). For
 * ENG_QUEUE_GRAPHICS these are eng_context_queue() and
 * eng_context_queue_family(); an out-of-range kind reports none. */
/* The context's device as render graphs use it (rg_graph_desc.device): its
 * queues as above, timeline semaphores, local read where the context
 * enabled it. Owned by the context; graphs on it must be destroyed first. */
rg_device *eng_context_graph_device(const eng_context *ctx);
VkQueue eng_context_queue_of(const eng_context *ctx, eng_queue_kind kind);
uint32_t eng_context_queue_family_of(const eng_context *ctx, eng_queue_kind kind);

/* Which queue serves each kind: family UINT32_MAX where none does; index is
 * the queue's index in its family (vkGetDeviceQueue). */
typedef struct eng_queue_choice {
    uint32_t family[ENG_QUEUE_KIND_COUNT];
    uint32_t index[ENG_QUEUE_KIND_COUNT];
} eng_queue_choice;

typedef enum eng_queue_policy {
    ENG_QUEUES_DEFAULT = 0,    /* queues of other families (see eng_pick_queues) */
    ENG_QUEUES_SINGLE,         /* the graphics queue only */
    ENG_QUEUES_GRAPHICS_FAMILY /* the graphics family's spare queues only */
} eng_queue_policy;

/* The queues a context takes, from a device's queue families and the
 * graphics family it picked. Pure: no device needed. Graphics: queue 0 of
 * graphics_family. By default, compute: a compute-only family (COMPUTE
 * without GRAPHICS), else another family with COMPUTE (a second
 * general-purpose family, as MoltenVK's); transfer: a transfer-only family
 * (TRANSFER without GRAPHICS or COMPUTE), else another family than those
 * two (any family does transfers). Among equal families the one with the
 * most queues wins, then the first. The graphics family's own spare
 * queues are taken only under ENG_QUEUES_GRAPHICS_FAMILY (queue 1 for
 * compute, 2 for transfer, where it has them): on the H200 its queues
 * share the hardware by time slices, and async compute there made the
 * overlap frame 14% slower than one queue (benchmarks/README.md). A kind
 * nothing serves gets family UINT32_MAX. families NULL, count 0, or a
 * graphics_family out of range or without queues: none for every kind,
 * graphics included. */
void eng_pick_queues(const VkQueueFamilyProperties *families, uint32_t count, uint32_t graphics_family,
                     eng_queue_policy policy, eng_queue_choice *out);
VkSurfaceKHR eng_context_surface(const eng_context *ctx);   /* VK_NULL_HANDLE headless */
const VkPhysicalDeviceProperties *eng_context_properties(const eng_context *ctx);
const VkPhysicalDeviceMemoryProperties *eng_context_memory_properties(const eng_context *ctx);
bool eng_context_has_memory_budget(const eng_context *ctx); /* VK_EXT_memory_budget on */
/* The enabled layer that offers VK_EXT_memory_budget, or NULL. Its figures
 * are then that layer's emulation, e.g. VK_LAYER_VKGRAPH_tile_memory's: its
 * own count of live allocations where the driver lacks the extension, else
 * the driver's usage less the memory the layer pretends is on-chip. */
const char *eng_context_memory_budget_layer(const eng_context *ctx);
/* The driver (VkPhysicalDeviceDriverProperties::driverID), e.g.
 * VK_DRIVER_ID_MESA_LLVMPIPE for lavapipe, VK_DRIVER_ID_MOLTENVK. */
VkDriverId eng_context_driver(const eng_context *ctx);

/* VK_KHR_dynamic_rendering_local_read as the context enabled it: on
 * wherever the device offers the extension with its dynamicRenderingLocalRead
 * feature, unless eng_context_desc.no_local_read. */
typedef struct eng_local_read {
    bool supported;                   /* extension and feature enabled */
    /* Local reads of depth/stencil and of multisampled attachments: the
     * device's dynamicRenderingLocalReadDepthStencilAttachments and
     * dynamicRenderingLocalReadMultisampledAttachments (Vulkan 1.4
     * properties), read only where the device and the instance's
     * apiVersion (now 1.3) both reach 1.4; false otherwise, and when
     * !supported. The spec lets the extension imply both, but drivers
     * that offer it report them false (Mesa 25 lavapipe), so the context
     * claims only what a property states. */
    bool depth_stencil;
    bool multisampled;
    /* The device's limits that bound a local-read pass: color attachments
     * (hence attachment locations) and input attachments a fragment shader
     * may read (VkPhysicalDeviceLimits::maxColorAttachments,
     * maxPerStageDescriptorInputAttachments); recorded whether or not
     * local read is supported. */
    uint32_t max_color_attachments;
    uint32_t max_input_attachments;
} eng_local_read;
eng_local_read eng_context_local_read(const eng_context *ctx);

/* Validation messages seen so far, by severity, and the first warning or
 * error's text ("" if none): tests assert warning + error == 0. One error
 * the layer gives for valid use counts as info and is not printed:
 * VUID-VkSubmitInfo2-commandBuffer-06192 (its vkQueueSubmit2 check reads a
 * chunk that resumes and suspends rendering as not suspending it). */
eng_message_counts eng_context_messages(const eng_context *ctx);
const char *eng_context_first_message(const eng_context *ctx);

/* Records commands with record(cmd, user), submits them and waits. For setup
 * work (uploads, readbacks), not for frames. */
typedef void (*eng_record_fn)(VkCommandBuffer cmd, void *user);
eng_result eng_context_submit_once(eng_context *ctx, eng_record_fn record, void *user);

/* vkDeviceWaitIdle with the result mapped. */
eng_result eng_context_wait_idle(eng_context *ctx);

/* -------------------------------------------------------- memory budget */

/* Heap usage and budget from VK_EXT_memory_budget. available is false when
 * the extension is absent: "unavailable" is not "0 bytes". */
typedef struct eng_memory_budget {
    bool available;
    uint32_t heap_count;
    VkDeviceSize heap_size[VK_MAX_MEMORY_HEAPS];
    VkDeviceSize usage[VK_MAX_MEMORY_HEAPS];
    VkDeviceSize budget[VK_MAX_MEMORY_HEAPS];
} eng_memory_budget;

eng_result eng_memory_budget_query(const eng_context *ctx, eng_memory_budget *out);

/* ----------------------------------------------------------------- images */

typedef struct eng_image eng_image;

typedef struct eng_image_desc {
    const char *name;                 /* for messages and debug names */
    VkFormat format;                  /* required */
    uint32_t width, height;           /* required, > 0 */
    uint32_t mip_levels;              /* 0 = 1 */
    uint32_t array_layers;            /* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    VkImageUsageFlags usage;          /* required; TRANSIENT only with attachment bits */
    VkMemoryPropertyFlags memory;     /* 0 = DEVICE_LOCAL */
} eng_image_desc;

/* Everything known about a created image, including the memory it got. */
typedef struct eng_image_info {
    const char *name;
    VkImage image;
    VkImageView view;                 /* whole image, all mips and layers */
    VkFormat format;
    VkExtent2D extent;
    uint32_t mip_levels, array_layers;
    VkSampleCountFlagBits samples;
    VkImageUsageFlags usage;
    VkImageAspectFlags aspect;
    uint32_t memory_type;             /* chosen index */
    VkMemoryPropertyFlags memory_flags; /* that type's property flags */
    VkDeviceSize memory_size;         /* vkGetImageMemoryRequirements size */
    VkDeviceSize committed;           /* vkGetDeviceMemoryCommitment for lazy memory,
                                         else memory_size */
} eng_image_info;

eng_result eng_image_create(eng_context *ctx, const eng_image_desc *desc, eng_image **out);
void eng_image_destroy(eng_image *image);
const eng_image_info *eng_image_get_info(const eng_image *image);
/* True when the image's memory is LAZILY_ALLOCATED. */
bool eng_image_is_lazy(const eng_image *image);

/* An attachment for one pass. transient (the default, persistent = false)
 * means cleared (or don't-care) at the start of every pass and discarded at
 * its end: it gets TRANSIENT_ATTACHMENT usage and so lazy memory where the
 * device offers it. Depth/stencil usage follows from the format. */
typedef struct eng_attachment_desc {
    const char *name;
    VkFormat format;
    uint32_t width, height;
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    bool persistent;                  /* contents kept: no TRANSIENT usage */
    VkImageUsageFlags extra_usage;    /* only with persistent (e.g. SAMPLED) */
} eng_attachment_desc;

eng_result eng_attachment_create(eng_context *ctx, const eng_attachment_desc *desc, eng_image **out);

/* Uploads tightly packed texels to mip 0 / layer 0 through a staging buffer
 * and leaves the image in final_layout, visible to fragment shaders. */
eng_result eng_image_upload(eng_context *ctx, eng_image *image, const void *texels,
                            size_t size, VkImageLayout final_layout);

/* Copies mip 0 / layer 0 (single-sampled, color) to host memory. The image
 * must be in `layout`, with all writes finished before the call's queue
 * submission (any earlier submission on the context's queue); it is left in
 * `layout`. out receives width*height*texel-size bytes. */
eng_result eng_image_read(eng_context *ctx, eng_image *image, VkImageLayout layout,
                          void *out, size_t size);

/* ---------------------------------------------------------------- buffers */

typedef struct eng_buffer eng_buffer;

typedef struct eng_buffer_desc {
    const char *name;
    VkDeviceSize size;                /* required, > 0 */
    VkBufferUsageFlags usage;         /* required */
    /* 0 = DEVICE_LOCAL. HOST_VISIBLE buffers are mapped for their lifetime. */
    VkMemoryPropertyFlags memory;
} eng_buffer_desc;

eng_result eng_buffer_create(eng_context *ctx, const eng_buffer_desc *desc, eng_buffer **out);
void eng_buffer_destroy(eng_buffer *buffer);
VkBuffer eng_buffer_handle(const eng_buffer *buffer);
VkDeviceSize eng_buffer_size(const eng_buffer *buffer);
void *eng_buffer_mapped(const eng_buffer *buffer);     /* NULL unless HOST_VISIBLE */
uint32_t eng_buffer_memory_type(const eng_buffer *buffer);

/* Writes bytes at offset: memcpy when mapped (flushed if not coherent),
 * else through a staging buffer and a waited submission. */
eng_result eng_buffer_upload(eng_context *ctx, eng_buffer *buffer, VkDeviceSize offset,
                             const void *data, size_t size);

/* Creates a DEVICE_LOCAL buffer with `usage` holding `data`. */
eng_result eng_buffer_create_with_data(eng_context *ctx, const char *name, VkBufferUsageFlags usage,
                                       const void *data, size_t size, eng_buffer **out);

/* -------------------------------------------------------------- pipelines */

/* Reads a SPIR-V file (checks size and magic). Free *words with free(). */
eng_result eng_spirv_load(const char *path, uint32_t **words, size_t *size_bytes);

typedef struct eng_pipeline_cache eng_pipeline_cache;

/* path: file to load now and eng_pipeline_cache_save() to later; NULL keeps
 * the cache in memory only. A file written by another device or driver (its
 * header does not match) is ignored, not an error. */
eng_result eng_pipeline_cache_create(eng_context *ctx, const char *path, eng_pipeline_cache **out);
void eng_pipeline_cache_destroy(eng_pipeline_cache *cache);
eng_result eng_pipeline_cache_save(eng_pipeline_cache *cache);
VkPipelineCache eng_pipeline_cache_handle(const eng_pipeline_cache *cache);
/* Bytes taken from the file at creation (0: no file or not reusable). */
size_t eng_pipeline_cache_loaded_bytes(const eng_pipeline_cache *cache);

typedef struct eng_pipeline eng_pipeline;

#define ENG_MAX_COLOR_ATTACHMENTS RG_MAX_COLOR_ATTACHMENTS /* 8 */

/* How a color attachment combines what a draw writes (src) with what it
 * holds (dst); alpha likewise unless said. */
typedef enum eng_blend {
    ENG_BLEND_OPAQUE = 0,             /* src replaces dst */
    ENG_BLEND_ALPHA,                  /* src * src.a + dst * (1 - src.a); alpha: src.a + dst.a * (1 - src.a) */
    ENG_BLEND_PREMULTIPLIED,          /* src + dst * (1 - src.a), alpha too */
    ENG_BLEND_ADDITIVE,               /* src + dst, alpha too */
    ENG_BLEND_MULTIPLY,               /* src * dst, alpha too */
    ENG_BLEND_COUNT
} eng_blend;

typedef struct eng_pipeline_desc {
    const char *name;
    const uint32_t *vertex_spirv;     /* required */
    size_t vertex_size;               /* bytes */
    const uint32_t *fragment_spirv;   /* NULL = depth-only */
    size_t fragment_size;
    const char *entry;                /* NULL = "main" */

    const VkVertexInputBindingDescription *bindings;
    uint32_t binding_count;
    const VkVertexInputAttributeDescription *attributes;
    uint32_t attribute_count;

    VkFormat color_formats[ENG_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;
    VkFormat depth_format;            /* UNDEFINED = no depth attachment */
    VkSampleCountFlagBits samples;    /* 0 = 1 */

    /* Dynamic rendering local read (eng_context_local_read): a pipeline
     * drawn in a rendering instance whose attachment locations or input
     * attachment indices are set (vkCmdSetRenderingAttachmentLocationsKHR,
     * vkCmdSetRenderingInputAttachmentIndicesKHR) must be built with the
     * same mapping. false: the mapping vkCmdBeginRendering starts with
     * (color attachment i at location i and InputAttachmentIndex i; depth
     * and stencil read through input attachments without an
     * InputAttachmentIndex); the arrays below are ignored. true: every
     * entry below up to color_count, and both depth and stencil indices,
     * are the mapping (0 is a location and an index, not "default"), and
     * a rendering instance that draws with the pipeline sets both
     * mappings to these values (the depth and stencil indices as pointers
     * to them, never NULL). Refused with ENG_ERROR_UNSUPPORTED where the
     * context has no local read, or the mapping reads depth/stencil or
     * multisampled attachments and local read does not cover those.
     * Blend state stays per attachment, not per location: an attachment
     * at VK_ATTACHMENT_UNUSED is simply not written. */
    bool local_read;
    /* Per color attachment: the fragment output location that writes it,
     * or VK_ATTACHMENT_UNUSED (not written). Distinct, < maxColorAttachments. */
    uint32_t color_locations[ENG_MAX_COLOR_ATTACHMENTS];
    /* Per color attachment: the InputAttachmentIndex it is read through,
     * or VK_ATTACHMENT_UNUSED (not read). Distinct, and distinct from the
     * depth and stencil indices. */
    uint32_t color_input_indices[ENG_MAX_COLOR_ATTACHMENTS];
    /* The InputAttachmentIndex of the depth and of the stencil attachment,
     * or VK_ATTACHMENT_UNUSED (not read); one that is not UNUSED needs that
     * aspect in depth_format. */
    uint32_t depth_input_index, stencil_input_index;

    bool triangle_strip;              /* default: triangle list */
    VkCullModeFlags cull_mode;        /* default: none */
    bool clockwise;                   /* front face; default: counter-clockwise */
    bool depth_test, depth_write;
    VkCompareOp depth_compare;        /* 0 (NEVER) = LESS: NEVER is never wanted */
    /* Depth bias (shadow maps): depth += constant * r + slope * max slope
     * of the primitive, r the format's smallest resolvable step, clamped to
     * clamp (0: no clamp); all 0: none. With dynamic_depth_bias the values
     * are the command buffer's (vkCmdSetDepthBias) instead. */
    float depth_bias_constant, depth_bias_slope, depth_bias_clamp;
    bool dynamic_depth_bias;
    /* Stencil test and its ops per face; the reference is dynamic
     * (vkCmdSetStencilReference, set before drawing). Needs a stencil
     * aspect in depth_format. */
    bool stencil_test;
    VkStencilOpState stencil_front, stencil_back;
    /* Per color attachment (see eng_blend); the format must blend unless
     * OPAQUE. alpha_blend: ENG_BLEND_ALPHA for every attachment left
     * OPAQUE here (the older spelling). */
    eng_blend blend[ENG_MAX_COLOR_ATTACHMENTS];
    bool alpha_blend;
    /* More dynamic state, besides viewport and scissor (always dynamic) and
     * those the fields above make dynamic: e.g. VK_DYNAMIC_STATE_CULL_MODE,
     * _DEPTH_COMPARE_OP, _BLEND_CONSTANTS (core 1.3 states only). */
    const VkDynamicState *dynamic_states;
    uint32_t dynamic_state_count;

    /* Set 0 as a push-descriptor set filled from the graph (see
     * eng_push_bindings): binding i has type push_descriptors[i] and is
     * visible to every stage of the pipeline. set_layouts then come after
     * it, as sets 1 and on. Refused with ENG_ERROR_UNSUPPORTED where the
     * context has no push descriptors (eng_context_has_push_descriptors). */
    const VkDescriptorType *push_descriptors;
    uint32_t push_descriptor_count;   /* at most ENG_MAX_PUSH_DESCRIPTORS */
    const VkDescriptorSetLayout *set_layouts;
    uint32_t set_layout_count;
    uint32_t push_constant_size;      /* bytes, 0 = none */
    VkShaderStageFlags push_constant_stages; /* 0 = VERTEX | FRAGMENT */

    eng_pipeline_cache *cache;        /* optional */
} eng_pipeline_desc;

eng_result eng_pipeline_create(eng_context *ctx, const eng_pipeline_desc *desc, eng_pipeline **out);
/* Sets desc's attachment fields (color formats and count, depth format,
 * samples, and for a span merged into a rendering instance local_read with
 * the locations and input indices) to the rendering state the render graph
 * reports for a draw (rg_command_get_rendering), so that the pipeline
 * matches where it is drawn; the other fields are left as they are. Keep
 * pipelines by rendering->key. */
void eng_pipeline_desc_set_rendering(eng_pipeline_desc *desc, const rg_command_rendering *rendering);

/* A compute pipeline (eng_pipeline_handle, _layout and _destroy serve it
 * as they serve graphics ones; bind it at VK_PIPELINE_BIND_POINT_COMPUTE). */
typedef struct eng_compute_pipeline_desc {
    const char *name;
    const uint32_t *spirv;            /* required: the compute shader */
    size_t size;                      /* bytes */
    const char *entry;                /* NULL = "main" */
    const VkDescriptorType *push_descriptors; /* set 0, as for graphics pipelines */
    uint32_t push_descriptor_count;
    const VkDescriptorSetLayout *set_layouts;
    uint32_t set_layout_count;
    uint32_t push_constant_size;      /* bytes, 0 = none; the compute stage's */
    eng_pipeline_cache *cache;        /* optional */
} eng_compute_pipeline_desc;

eng_result eng_compute_pipeline_create(eng_context *ctx, const eng_compute_pipeline_desc *desc, eng_pipeline **out);
/* Where to bind it: GRAPHICS or COMPUTE. */
VkPipelineBindPoint eng_pipeline_bind_point(const eng_pipeline *pipeline);

void eng_pipeline_destroy(eng_pipeline *pipeline);
VkPipeline eng_pipeline_handle(const eng_pipeline *pipeline);
VkPipelineLayout eng_pipeline_layout(const eng_pipeline *pipeline);

/* ------------------------------------------------------------- descriptors */

/* One set per draw or dispatch, pushed from what the command declared to
 * the render graph (VK_KHR_push_descriptor, which the context enables
 * where the device offers it):
 *
 *   VkDescriptorType types[] = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
 *                                VK_DESCRIPTOR_TYPE_STORAGE_IMAGE };
 *   desc.push_descriptors = types; desc.push_descriptor_count = 2;
 *   ...in the command's record callback:
 *   eng_binding b[] = { { .texture = depth, .sampler = nearest }, { .texture = ao } };
 *   if (eng_push_bindings(rc, pipeline, b, 2) != ENG_SUCCESS) return false;
 *
 * Each binding's view, layout, buffer range come from the graph
 * (rg_record_image_info): they always match the declaration.
 *
 * A binding may instead name a buffer or image view the graph does not
 * own (vk_buffer, vk_image): a uniform buffer that nothing in the frame
 * writes needs no import and no declaration on every draw:
 *
 *   eng_binding b[] = { { .vk_buffer = { camera_ubo, 0, VK_WHOLE_SIZE } }, { .texture = albedo } };
 *
 * The graph knows nothing of such an object: it records no barrier for
 * it and no layout transition. Making its contents available to the
 * shader (the upload finished and made visible, the image in the layout
 * vk_image says) and keeping it alive until the frame's work is done is
 * the application's duty. */
#define ENG_MAX_PUSH_DESCRIPTORS 16

/* One binding: exactly one of texture, buffer, vk_buffer.buffer and
 * vk_image.imageView (a SAMPLER binding: none of them), of the kind the
 * binding's type takes. */
typedef struct eng_binding {
    rg_texture texture;               /* an image binding's texture, */
    rg_buffer buffer;                 /* or a buffer binding's buffer */
    VkSampler sampler;                /* COMBINED_IMAGE_SAMPLER and SAMPLER bindings */
    /* A buffer binding's buffer of the application's, pushed as given
     * (buffer, offset, range). */
    VkDescriptorBufferInfo vk_buffer;
    /* An image binding's view of the application's, in imageLayout (its
     * sampler member is unused: sampler above serves). */
    VkDescriptorImageInfo vk_image;
} eng_binding;

/* Binds the pipeline's set 0 (its push_descriptors: count must equal
 * push_descriptor_count) to bindings[0..count-1], in the command buffer
 * of rc, at the pipeline's bind point. ENG_ERROR_INVALID_ARGUMENT, with
 * the graph's reason in eng_last_error, for a resource the command did
 * not declare for a shader, a binding whose kind does not match its type
 * (a buffer for an image type, no sampler for a combined one), a binding
 * that names a graph resource and an object of the application's, or
 * neither (the message names the binding's index), or a pipeline without
 * push descriptors; nothing is recorded then. */
eng_result eng_push_bindings(const rg_record_context *rc, const eng_pipeline *pipeline, const eng_binding *bindings,
                             uint32_t count);
/* Whether the context enabled VK_KHR_push_descriptor (or has Vulkan 1.4). */
bool eng_context_has_push_descriptors(const eng_context *ctx);

/* ---------------------------------------------------------------- samplers */

/* A sampler; zero fields are the defaults named. */
typedef struct eng_sampler_desc {
    VkFilter filter;                  /* magnification and minification; 0 = NEAREST */
    VkSamplerMipmapMode mipmap;       /* 0 = NEAREST */
    VkSamplerAddressMode address;     /* all three axes; 0 = REPEAT */
    VkBorderColor border;             /* for CLAMP_TO_BORDER; 0 = FLOAT_TRANSPARENT_BLACK */
    float anisotropy;                 /* 0 or 1 = off; more needs samplerAnisotropy
                                         enabled (eng_context_desc.features) and is
                                         clamped to the device's limit */
    bool compare;                     /* depth comparison (shadow maps) with compare_op */
    VkCompareOp compare_op;
    float max_lod;                    /* 0 = every mip (VK_LOD_CLAMP_NONE); to sample
                                         mip 0 alone give a small positive value */
} eng_sampler_desc;

/* The context's sampler for desc, made on first use and kept in a small
 * cache (equal descs give the same VkSampler), destroyed with the context:
 * never destroy it yourself. Like the context's other calls, one thread at
 * a time (see "Threads"). */
eng_result eng_sampler_get(eng_context *ctx, const eng_sampler_desc *desc, VkSampler *out);

/* -------------------------------------------------------------- swapchain */

typedef struct eng_swapchain eng_swapchain;

typedef struct eng_swapchain_desc {
    /* No surface: the swapchain owns frames_in_flight images of its own, one
     * per slot, of width x height (required), in the format a window's
     * swapchain would get (B8G8R8A8_SRGB, else R8G8B8A8_SRGB: the first one
     * the device can render to, blend into and copy from), with
     * COLOR_ATTACHMENT and TRANSFER_SRC usage. Works on any context,
     * headless included (a headless context refuses a swapchain without
     * it). The frame calls are the same: acquire waits for the slot's fence
     * and hands over its image, finish_image leaves it in
     * TRANSFER_SRC_OPTIMAL (capture works as in a window), present submits
     * with the fence and presents nothing; eng_swapchain_resize makes new
     * images at the next acquire (ENG_NOT_READY at 0x0). vsync and
     * window_size do not apply. */
    bool offscreen;
    /* The size in pixels where the surface leaves it to the application
     * (currentExtent 0xFFFFFFFF, e.g. Wayland); 0 = ask window_size. A
     * surface that dictates its size (currentExtent set: X11, Win32) always
     * gets that size. Offscreen: the images' size. eng_swapchain_resize
     * replaces these. */
    uint32_t width, height;
    /* Where the surface leaves the size to the application and no size was
     * given (width/height 0, no eng_swapchain_resize since): writes the
     * window's framebuffer size in pixels (not its size in screen
     * coordinates), asked at each creation and recreation, with
     * window_size_user. NULL: such a surface needs
     * width/height or eng_swapchain_resize (without either, creation fails
     * and eng_swapchain_acquire answers ENG_NOT_READY). */
    void (*window_size)(void *user, uint32_t *width, uint32_t *height);
    void *window_size_user;
    bool vsync;                       /* FIFO; default MAILBOX/IMMEDIATE when offered */
    uint32_t frames_in_flight;        /* 0 = 2 */
} eng_swapchain_desc;

/* One frame being recorded. Valid from acquire to present. */
typedef struct eng_frame {
    VkCommandBuffer cmd;              /* begun, one-time submit */
    uint64_t number;                  /* frames presented before this one */
    uint32_t slot;                    /* frame-in-flight index */
    uint32_t image_index;             /* offscreen: equal to slot */
    VkImage image;                    /* COLOR_ATTACHMENT usage (+ TRANSFER_SRC
                                         where the surface allows it; always
                                         offscreen) */
    VkImageView view;
    VkFormat format;                  /* sRGB where the surface offers it */
    VkImageUsageFlags usage;          /* what image was created with (as above):
                                         rg_import_image.usage */
    VkExtent2D extent;
    /* The frame's synchronization. eng_swapchain_present and
     * eng_swapchain_present_graph submit with these; an application that
     * submits the frame's work itself (eng_swapchain_present_submitted)
     * must do the same:
     *   acquire_semaphore  binary; signalled by the acquire when the
     *                      presentation engine is done with the image. The
     *                      frame's first submission on the graphics queue
     *                      waits for it at COLOR_ATTACHMENT_OUTPUT.
     *                      VK_NULL_HANDLE offscreen (nothing to wait for).
     *   present_semaphore  binary; the frame's last submission signals it
     *                      and the present waits for it. VK_NULL_HANDLE
     *                      offscreen (nothing is presented).
     *   fence              the slot's; unsignalled from the acquire on. The
     *                      frame's last submission signals it, and it must
     *                      cover all of the frame's work (every other
     *                      submission of the frame happens-before that one,
     *                      through semaphores). The slot's next acquire
     *                      waits for it before it resets the slot's command
     *                      buffers (and offscreen, reuses its image);
     *                      eng_swapchain_read_capture waits for it too. */
    VkSemaphore acquire_semaphore;
    VkSemaphore present_semaphore;
    VkFence fence;
} eng_frame;

eng_result eng_swapchain_create(eng_context *ctx, const eng_swapchain_desc *desc, eng_swapchain **out);
void eng_swapchain_destroy(eng_swapchain *swapchain);

/* Tells the swapchain the window changed size (from the window system's
 * framebuffer-size event), or gives an offscreen swapchain a new size; it is
 * recreated at the next acquire. */
void eng_swapchain_resize(eng_swapchain *swapchain, uint32_t width, uint32_t height);

/* Waits for the slot's fence, acquires an image (recreating the swapchain on
 * resize, OUT_OF_DATE or SUBOPTIMAL), resets the slot's command buffers and
 * begins the frame's (frame->cmd, on the graphics queue's family).
 * ENG_NOT_READY: the window has no area (minimized); skip this frame.
 * The submission waits for the image at COLOR_ATTACHMENT_OUTPUT: the first
 * use of frame->image must transition it from UNDEFINED with that stage as
 * its source (a render graph import: initial_stage COLOR_ATTACHMENT_OUTPUT).
 * Offscreen, the image's previous use ends with a barrier into that stage,
 * so the same first use is right there too. */
eng_result eng_swapchain_acquire(eng_swapchain *swapchain, eng_frame *frame);

/* Another command buffer for the frame, for the queue of `kind`
 * (eng_context_queue_of; where the context has no queue of that kind, for
 * the graphics queue, which then runs that work): begun, one-time submit,
 * from the slot's pool for that queue family. Each call gives a new one
 * (frame->cmd is the frame's first graphics one). It stays valid until the
 * slot's next acquire resets it; whoever takes it ends and submits it
 * within the work frame->fence covers (eng_swapchain_present_graph does so
 * for the ones it takes). No allocation once the slot has had that many. */
eng_result eng_frame_command_buffer(eng_swapchain *swapchain, const eng_frame *frame, eng_queue_kind kind,
                                    VkCommandBuffer *out);

/* Chunk indices eng_frame_chunk_command_buffer takes: 0 .. this - 1. */
#define ENG_MAX_FRAME_CHUNKS 4096

/* A command buffer for chunk `chunk` of the frame ("Parallel recording" in
 * rendergraph.h), as eng_frame_command_buffer gives, but from the slot's
 * pools of that chunk index alone (made on first need, kept, reset at the
 * slot's acquire): command buffers of different indices may be recorded
 * on different threads at once. Taking one is a call on the swapchain. */
eng_result eng_frame_chunk_command_buffer(eng_swapchain *swapchain, const eng_frame *frame, eng_queue_kind kind,
                                          uint32_t chunk, VkCommandBuffer *out);

/* Ends the frame's use of frame->image, after the last command that touches
 * it: the image was left in `layout` by its last use at stage/access.
 * Records into frame->cmd the capture copy when one was requested and the
 * transition to PRESENT_SRC (offscreen: TRANSFER_SRC_OPTIMAL); to record it
 * into another of the frame's graphics command buffers (the one submitted
 * last), pass a copy of the frame whose cmd is that one. Once per frame,
 * before eng_swapchain_present (eng_swapchain_present_graph calls it). */
void eng_swapchain_finish_image(eng_swapchain *swapchain, const eng_frame *frame, VkImageLayout layout,
                                VkPipelineStageFlags2 stage, VkAccessFlags2 access);

/* Ends and submits the command buffer, presents, and recreates the
 * swapchain when presentation reports OUT_OF_DATE or SUBOPTIMAL. Offscreen:
 * submits only (the slot's fence says when the image is done). */
eng_result eng_swapchain_present(eng_swapchain *swapchain, eng_frame *frame);

/* Presents a frame whose work the application ended and submitted itself
 * (with frame's semaphores and fence as eng_frame says, the image finished
 * by eng_swapchain_finish_image in the last submission), instead of
 * eng_swapchain_present; recreates the swapchain on OUT_OF_DATE or
 * SUBOPTIMAL as it does. Offscreen: ends the frame only. */
eng_result eng_swapchain_present_submitted(eng_swapchain *swapchain, eng_frame *frame);

/* Runs a render graph as the frame, on every queue it uses (see "Queues"
 * in rendergraph.h), and presents it. graph: made on the swapchain's
 * context's graph device (eng_context_graph_device) and compiled (the
 * first run places it). backbuffer: its import of the swapchain image (one
 * mip, one layer, first written at COLOR_ATTACHMENT_OUTPUT as
 * eng_swapchain_acquire says), pointed at frame->image and frame->view
 * here (rg_texture_set_image).
 *   1. The graph records batch i (rg_execute_begin's chunk i, one per
 *      batch) into a command buffer of its queue: the first graphics batch
 *      into frame->cmd, after what the application recorded there; the
 *      others into eng_frame_chunk_command_buffer ones (index i). A
 *      single-queue graph is one batch: frame->cmd alone.
 *   2. eng_swapchain_finish_image after the graph, in the last batch (on
 *      the graphics queue: it holds the frame's final transitions), from
 *      the state the graph's barriers leave backbuffer in (rg_barrier_get:
 *      the import's final layout and stages, or the last layout it had, at
 *      every stage, when its final_layout is UNDEFINED).
 *   3. Ends them and submits with rg_submit: frame->acquire_semaphore
 *      waited by the first graphics batch, frame->present_semaphore and
 *      frame->fence signalled by the last; then presents as
 *      eng_swapchain_present does.
 * Errors. The frame is over on return (frame->cmd is VK_NULL_HANDLE) but
 * for two: no acquired frame (ENG_ERROR_INVALID_ARGUMENT, nothing done),
 * and a Vulkan failure after recording (ending or submitting: out of
 * memory, device lost), which leaves it unsubmitted: destroy the
 * swapchain. When the graph cannot record the frame (NULL, not compiled or
 * failed to compile, a stale backbuffer, a failed placement or record
 * callback): ENG_ERROR_INVALID_ARGUMENT, or ENG_ERROR_OUT_OF_MEMORY and
 * ENG_ERROR_VULKAN for the graph's memory and Vulkan failures, with
 * eng_last_error() "eng_swapchain_present_graph: <the graph's message>";
 * the frame is ended without the graph: what frame->cmd held (the
 * application's and the graph's partial recording) is dropped, and the
 * image is presented (and captured, when asked) with undefined contents.
 * The graph is as before the call (its timeline values, history and
 * import states), so the next acquire proceeds and the same graph, fixed,
 * runs the next frame. */
eng_result eng_swapchain_present_graph(eng_swapchain *swapchain, eng_frame *frame, rg_graph *graph,
                                       rg_texture backbuffer);

/* How eng_swapchain_present_graph_parallel records the frame; zero: as
 * eng_swapchain_present_graph does. */
typedef struct eng_parallel_desc {
    /* The threads that record the chunks (rg_workers_create), used by one
     * call at a time; NULL: the calling thread records them in order. */
    rg_workers *workers;
    /* rg_execute_desc.max_chunks (two per thread is a fair start);
     * 0: one chunk per batch. */
    uint32_t max_chunks;
} eng_parallel_desc;

/* eng_swapchain_present_graph with the frame cut into chunks, recorded on
 * desc->workers' threads at once ("Parallel recording" in rendergraph.h:
 * the record callbacks must follow its contract), the image finished in
 * the last chunk. Same steps, errors and graph state after them, the
 * messages naming this call; desc NULL: zero. No allocation once every
 * chunk index has had its pool (up to 64 chunks). */
eng_result eng_swapchain_present_graph_parallel(eng_swapchain *swapchain, eng_frame *frame, rg_graph *graph,
                                                rg_texture backbuffer, const eng_parallel_desc *desc);

/* Asks for a copy of the next frame's image (request before that frame's
 * eng_swapchain_finish_image). After that frame's present,
 * eng_swapchain_read_capture waits for it and returns RGBA8 pixels. */
eng_result eng_swapchain_capture_next(eng_swapchain *swapchain);
eng_result eng_swapchain_read_capture(eng_swapchain *swapchain, uint8_t **rgba,
                                      uint32_t *width, uint32_t *height);

VkExtent2D eng_swapchain_extent(const eng_swapchain *swapchain);
VkFormat eng_swapchain_format(const eng_swapchain *swapchain);
uint32_t eng_swapchain_recreate_count(const eng_swapchain *swapchain);

#ifdef __cplusplus
}
#endif
#endif /* ENGINE_ENGINE_H */
