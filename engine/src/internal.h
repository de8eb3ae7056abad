/* Internals shared by the engine's source files. Not installed. */
#ifndef ENGINE_INTERNAL_H
#define ENGINE_INTERNAL_H

#include "engine/engine.h"
#include "rendergraph/rendergraph.h"
#include "vk_table.h"

#include <stdio.h>

/* The context's Vulkan functions and allocation callbacks (context.c):
 * every Vulkan call of the engine goes through them. */
const eng__vk *eng__vk_of(const eng_context *ctx);

/* Host memory through an allocator (host_memory.c): the application's
 * rg_allocator, or malloc's family where a is NULL or zeroed. calloc
 * zeroes; free accepts NULL. */
void *eng__host_alloc(const rg_allocator *a, size_t size);
void *eng__host_calloc(const rg_allocator *a, size_t count, size_t size);
void *eng__host_realloc(const rg_allocator *a, void *p, size_t size);
void eng__host_free(const rg_allocator *a, void *p);
/* The context's allocator (context.c), for the calls above; and the same
 * calls on it. */
const rg_allocator *eng__host_of(const eng_context *ctx);
#define eng__alloc(ctx, size) eng__host_alloc(eng__host_of(ctx), (size))
#define eng__calloc(ctx, count, size) eng__host_calloc(eng__host_of(ctx), (count), (size))
#define eng__realloc(ctx, p, size) eng__host_realloc(eng__host_of(ctx), (p), (size))
#define eng__free(ctx, p) eng__host_free(eng__host_of(ctx), (p))
/* Zeroed memory for one engine object of size bytes; NULL, with the last
 * error "<kind> '<name>': out of host memory" set (name NULL: "<kind>: ..."),
 * when there is none. */
void *eng__new_object(eng_context *ctx, size_t size, const char *kind, const char *name);

/* Storage class of per-thread statics (the last error): C11's keyword, or
 * MSVC's spelling of it. */
#if defined(_MSC_VER) && !defined(__clang__)
#define ENG__THREAD_LOCAL __declspec(thread)
#else
#define ENG__THREAD_LOCAL _Thread_local
#endif

/* Records the message for eng_last_error() and returns result, so a failure
 * reads `return eng__fail(ENG_ERROR_..., "what: why", ...);`: the public
 * eng_set_error, which libraries built on the engine call the same way. */
#define eng__fail eng_set_error

/* The checks every eng_*_create (and eng_sampler_get) makes first,
 * returning from it: out given, and cleared (0: NULL or VK_NULL_HANDLE);
 * ctx and desc given. fn, a string literal, names the function in the
 * message. */
#define ENG__CHECK_CREATE(fn, ctx, desc, out)                                                                     \
    do {                                                                                                          \
        if (!(out))                                                                                               \
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT, fn ": NULL out");                                        \
        *(out) = 0;                                                                                               \
        if (!(ctx) || !(desc))                                                                                    \
            return eng__fail(ENG_ERROR_INVALID_ARGUMENT, fn ": NULL context or desc");                            \
    } while (0)

/* Maps a failing VkResult to an eng_result and records "<what>: <VkResult>". */
eng_result eng__vk_fail(VkResult vr, const char *what);

/* The one stringifying Vulkan check: on failure it records the call's text
 * and returns the mapped eng_result from the calling function. */
#define ENG_VK_CHECK(call)                                   \
    do {                                                     \
        VkResult eng_vr_ = (call);                           \
        if (eng_vr_ != VK_SUCCESS)                           \
            return eng__vk_fail(eng_vr_, #call);             \
    } while (0)

/* Same, for functions that must clean up: sets `res` and jumps to label. */
/* The end of a create function, its failures having jumped there: obj
 * handed out through out when res is ENG_SUCCESS, else destroyed (a
 * partly made object included); res returned. */
#define ENG__HAND_OUT(res, out, obj, destroy) ((res) == ENG_SUCCESS ? (*(out) = (obj), (res)) : (destroy(obj), (res)))

#define ENG_VK_TRY(res, call, label)                         \
    do {                                                     \
        VkResult eng_vr_ = (call);                           \
        if (eng_vr_ != VK_SUCCESS) {                         \
            (res) = eng__vk_fail(eng_vr_, #call);            \
            goto label;                                      \
        }                                                    \
    } while (0)

/* Copies a name into a fixed buffer ("" for NULL). */
void eng__copy_name(char *dst, size_t size, const char *name, const char *fallback);

/* Allocates memory for requirements with the engine's type choice. */
eng_result eng__allocate(eng_context *ctx, const char *what, const VkMemoryRequirements *req,
                         VkMemoryPropertyFlags required, bool transient,
                         VkDeviceMemory *out_memory, uint32_t *out_type);

/* Gives a Vulkan object a debug-utils name when validation is on. */
void eng__set_name(eng_context *ctx, VkObjectType type, uint64_t handle, const char *name);

/* Records an image layout transition with synchronization2. */
void eng__image_barrier(const eng__vk *vk, VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                        VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access,
                        VkImageLayout old_layout, VkImageLayout new_layout);
/* Records the barrier after a copy into buffer that the host reads once the
 * submission has finished (read-backs, swapchain captures). */
void eng__copy_to_host_barrier(const eng__vk *vk, VkCommandBuffer cmd, VkBuffer buffer);

VkImageAspectFlags eng__format_aspect(VkFormat format);

/* A VkSampleCountFlags as the counts it holds, "1, 4" ("none" for 0), in
 * buf (at least 32 bytes). */
const char *eng__sample_counts_text(VkSampleCountFlags counts, char *buf, size_t size);
#define ENG__SAMPLE_COUNTS(c) eng__sample_counts_text((c), (char[32]){0}, 32)
/* Usage flags by name ("SAMPLED|COLOR_ATTACHMENT"), through the render
 * graph's names; buf holds 256 bytes. */
static inline const char *eng__image_usage_text(VkImageUsageFlags usage, char *buf)
{
    rg_flag_names(RG_FLAGS_IMAGE_USAGE, usage, buf, 256);
    return buf;
}
#define ENG__IMAGE_USAGES(u) eng__image_usage_text((u), (char[256]){0})

/* A graphics or compute pipeline (pipeline.c), with its push-descriptor
 * set (push_descriptors.c). */
struct eng_pipeline {
    eng_context *ctx;
    char name[64];
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkPipelineBindPoint bind_point;
    VkDescriptorSetLayout push_set;   /* set 0, or VK_NULL_HANDLE */
    VkDescriptorType push_types[ENG_MAX_PUSH_DESCRIPTORS];
    uint32_t push_count;
};

/* Whether a pipeline named name can have count push descriptors of types
 * (eng__fail's message when not): checked before anything is made. */
eng_result eng__push_check(const eng_context *ctx, const char *name, const VkDescriptorType *types, uint32_t count);

/* Makes p's push-descriptor set layout for types (none for count 0);
 * p's name, context and bind point are set. */
eng_result eng__push_set_layout(eng_pipeline *p, const VkDescriptorType *types, uint32_t count);


/* The formats a swapchain's images get, best first (format.c): sRGB, so
 * that shader output in linear space is encoded for display. A window's
 * swapchain takes the first its surface offers, an offscreen one the first
 * the device can render to. */
#define ENG__DISPLAY_FORMAT_COUNT 2
extern const VkFormat eng__display_formats[ENG__DISPLAY_FORMAT_COUNT];

/* The images of an offscreen swapchain (offscreen.c). */
eng_result eng__offscreen_format(eng_context *ctx, VkFormat *out);
/* Creates count images of format and extent, with COLOR_ATTACHMENT and
 * TRANSFER_SRC usage; on failure none is left. */
eng_result eng__offscreen_images_create(eng_context *ctx, VkFormat format, VkExtent2D extent, uint32_t count,
                                        eng_image **out);
void eng__offscreen_images_destroy(eng_image **images, uint32_t count);

/* The context a swapchain was made on (swapchain.c), for frame_graph.c. */
eng_context *eng__swapchain_context(const eng_swapchain *sc);

/* The command buffers of a frame-in-flight slot (frame_commands.c): one
 * pool per queue family, made on first use; cmds[0 .. count) allocated
 * from it, cmds[0 .. used) handed out since the last reset. */
typedef struct eng__frame_pool {
    uint32_t family;
    VkCommandPool pool;
    VkCommandBuffer *cmds;
    uint32_t count, used, capacity;
} eng__frame_pool;

typedef struct eng__frame_commands {
    eng__frame_pool pools[ENG_QUEUE_KIND_COUNT]; /* distinct families */
    uint32_t pool_count;
} eng__frame_commands;

/* Makes the pool of family and one command buffer in it, so that the
 * next begin on family needs no allocation (swapchain creation, for the
 * graphics family: acquire then fails only as Vulkan's calls do). */
eng_result eng__frame_commands_reserve(eng_context *ctx, eng__frame_commands *fc, uint32_t family);
/* A command buffer of family no frame holds, begun (one-time submit). */
eng_result eng__frame_commands_begin(eng_context *ctx, eng__frame_commands *fc, uint32_t family,
                                     VkCommandBuffer *out);
/* Resets every pool (the GPU is done with them: the slot's fence) and
 * hands their command buffers out again. */
eng_result eng__frame_commands_reset(eng_context *ctx, eng__frame_commands *fc);
/* Destroys the pools; fc is left empty. */
void eng__frame_commands_destroy(eng_context *ctx, eng__frame_commands *fc);

/* The command buffers of a slot's chunks (eng_frame_chunk_command_buffer,
 * frame_commands.c): a set of pools of its own per chunk index, so that
 * chunks of different indices are recorded on different threads at once;
 * sets[0 .. count) made on first need, kept, reset with the slot. */
typedef struct eng__chunk_commands {
    eng__frame_commands *sets;
    uint32_t count;
} eng__chunk_commands;

/* A command buffer of family from chunk's set, begun (one-time submit). */
eng_result eng__chunk_commands_begin(eng_context *ctx, eng__chunk_commands *cc, uint32_t chunk, uint32_t family,
                                     VkCommandBuffer *out);
/* Resets every set's pools (the slot's fence has signalled). */
eng_result eng__chunk_commands_reset(eng_context *ctx, eng__chunk_commands *cc);
/* Destroys every set; cc is left empty. */
void eng__chunk_commands_destroy(eng_context *ctx, eng__chunk_commands *cc);

/* The context's samplers (eng_sampler_get, sampler.c): one per normalized
 * desc, kept in a growable array and searched linearly (a program uses a
 * handful). The container lives in sampler_cache.c, apart from sampler.c,
 * so that the context can destroy it without calling back into a file that
 * calls the context (scripts/check_stages.sh: no call cycle). */
typedef struct eng__sampler_entry {
    eng_sampler_desc key;             /* normalized: defaults filled in */
    VkSampler sampler;
} eng__sampler_entry;

typedef struct eng__sampler_cache {
    eng__sampler_entry *entries;
    uint32_t count, capacity;
    /* samplerAnisotropy was enabled on the device: set by eng_context_create
     * from eng_context_desc.features; never for a context over an existing
     * device (eng_existing_device does not say). */
    bool anisotropy;
} eng__sampler_cache;

/* The context's cache (context.c). */
eng__sampler_cache *eng__context_samplers(eng_context *ctx);
/* The cached sampler for a normalized key, or VK_NULL_HANDLE. */
VkSampler eng__sampler_cache_find(const eng__sampler_cache *cache, const eng_sampler_desc *key);
/* Makes room for one more entry (memory from host): false when out of
 * host memory. */
bool eng__sampler_cache_reserve(eng__sampler_cache *cache, const rg_allocator *host);
/* Appends an entry; eng__sampler_cache_reserve must have succeeded. */
void eng__sampler_cache_add(eng__sampler_cache *cache, const eng_sampler_desc *key, VkSampler sampler);
/* Destroys every sampler and frees the array (before the device goes). */
void eng__sampler_cache_destroy(eng__sampler_cache *cache, const eng__vk *vk, VkDevice device,
                                const rg_allocator *host);

#endif
