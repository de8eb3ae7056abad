/*
 * rendergraph: a render graph for Vulkan in plain C11. A frame is declared as
 * commands over virtual resources (textures, buffers), compiled once without
 * a device (order, culling, barriers, transient attachments), placed in
 * memory (lazily allocated where the device offers it, aliasing pools
 * elsewhere) and executed into the application's command buffers every
 * frame. The graph writes every barrier. It runs on any VkDevice the
 * application describes and needs Vulkan's headers alone.
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
 *
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
 *
 *   if (rg_compile(g) != RG_SUCCESS || rg_place(g) != RG_SUCCESS)   // device-free, then memory
 *       fail(rg_graph_error_message(g));            // names the command and resource
 *
 *   // every frame: the acquired image, one command buffer (recording), submit
 *   rg_texture_set_image(g, back, &(rg_import_image){ .image = images[index], .view = views[index],
 *       .format = VK_FORMAT_B8G8R8A8_SRGB, .width = w, .height = h,
 *       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT });  // as the swapchain made them
 *   rg_submit_plan plan;
 *   rg_execute_batches(g, &cmd, &plan);              // records the frame and every barrier
 *   vkEndCommandBuffer(cmd);
 *   rg_submit(g, &plan, &(rg_submit_desc){ .waits = &acquired, .wait_count = 1,
 *       .signals = &rendered, .signal_count = 1, .fence = fence });
 *
 *   rg_graph_destroy(g);                             // its objects wait for its frames
 *   rg_device_destroy(dev);                          // after vkDeviceWaitIdle
 *
 * draw_scene and tonemap are the application's record callbacks (section
 * 12). A renderer that submits the command buffer itself records with
 * rg_execute and, after its own vkQueueSubmit, names what that submission
 * signals, so the graph frees nothing the GPU still uses (section 10):
 *
 *   rg_execute(g, cmd);                              // the same frame, no plan
 *   vkEndCommandBuffer(cmd);
 *   vkQueueSubmit2(queue, 1, &submit, frame_fence);  // the application's own
 *   rg_graph_set_retire_point(g, VK_NULL_HANDLE, 0, frame_fence);
 *
 * CONTENTS
 *    1. Conventions            handles, descriptions, getters, RG_EXPERIMENTAL,
 *                              threads ("Threads"), version, Vulkan headers
 *    2. Errors                 every rg_result code; which are kept ("Errors")
 *    3. Device                 the application's VkDevice, queues, host memory, log
 *    4. Graph                  options, reset and redeclaration, lifetime
 *    5. Resources              created, imported ("Frames"), relative sizes
 *                              ("Relative sizes"), history ("History")
 *    6. Commands and accesses  usages, ranges, user commands, record callbacks
 *    7. Spans                  attachments, resolves, read-only depth ("Spans"),
 *                              merging through local read ("Merging")
 *    8. Transfers              copies, clears, blits, other queues
 *    9. Compile                culling ("Culling"), reads of nothing ("Reads"),
 *                              order, transient inference, barriers
 *   10. Placement              memory kinds, aliasing, lazily allocated memory,
 *                              retirement ("Placement and the GPU")
 *   11. Execute and submit     queues ("Queues"), batches, waits, submission,
 *                              many threads ("Parallel recording", experimental)
 *   12. Recording              the record context, descriptors, recording by hand
 *   13. Timings                GPU time per pass ("Timings")
 *   14. Names and debug utils  formats, Vulkan values as text ("Names"),
 *                              object names and labels
 *   15. Reports                memory report, resource enumeration, DOT, tile
 *                              traffic ("Tile traffic")
 * A name in quotes ("Queues") is the paragraph of that title; other files of
 * the project refer to the paragraphs so.
 *
 * RG_EXPERIMENTAL before a declaration marks a feature that may still
 * change in a minor release (its names, fields or rules): GPU timings,
 * descriptor helpers, relative sizes, resource enumeration, retirement,
 * tile traffic, merging and local-read queries. It expands to nothing.
 *
 * Getters follow one rule: a query that can fail returns rg_result and
 * writes through its last argument (section 1, "Getters").
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

/* Objects and handles. The long-lived objects are opaque pointers
 * (rg_device, rg_graph) made by a _create function that takes a _desc
 * struct and destroyed by a _destroy function that accepts NULL. Graph
 * resources and commands are small typed handles (rg_texture, rg_buffer,
 * rg_command): 0 is never valid, and a handle belongs to one declaration of
 * one graph (stale after rg_graph_reset, foreign in another graph; both are
 * refused). In every _desc struct, zero means the default, and every enum's
 * 0 value is its default or its "none".
 *
 * Getters. The rule: a query that can fail returns rg_result and writes
 * through its last argument, out: rg_x_get(graph, index, &out) for an item
 * of a list, rg_x_get_info(graph, handle, &out) for a handle's details,
 * rg_x_get_<what>(graph, handle, &out) for one aspect of it. It zeroes
 * *out first, and on failure returns the code and sets
 * rg_graph_error_message (never kept: see "Errors"). A list is
 * rg_x_count(graph), 0 while there is nothing to count yet, plus
 * rg_x_get. Descriptor queries follow the rule under their own names
 * (rg_record_image_info). Queries that cannot fail answer directly, with
 * a neutral value (0, false, VK_NULL_HANDLE, NULL, a zeroed struct) for
 * an invalid handle or a graph not yet far enough, and write no message:
 * rg_barrier_get and rg_usage_get_info (const pointers into the graph or
 * a table), rg_memory_get_totals, rg_device_get_caps, rg_format_get_info
 * and rg_texture_extent (structs by value), rg_execution_order (a count
 * and a pointer), and the object and flag queries (rg_texture_image,
 * rg_texture_is_transient, rg_texture_memory...). rg_record_image,
 * rg_record_view and rg_record_buffer return VK_NULL_HANDLE and also set
 * the message (section 12).
 *
 *   for (uint32_t i = 0, n = rg_batch_count(g); i < n; i++) {
 *       rg_batch_info b;
 *       if (rg_batch_get(g, i, &b) == RG_SUCCESS)
 *           printf("batch %u on %s waits for %u\n", i, rg_queue_name(b.queue), b.wait_count);
 *   }
 *
 * Threads. The library takes one lock: a graph's, around the views
 * rg_record_image_info makes the first time it is asked for a part of a
 * texture. Its one piece of global state is an atomic counter that gives
 * each graph and each reset its own handle tag (so another graph's or a
 * stale handle is refused); the name functions keep a few text buffers per
 * thread, shared with no other thread, and a chunk being recorded keeps
 * its messages per thread.
 *   - A graph belongs to one thread at a time (declaration, compile,
 *     placement, queries, reports, execute, destroy). The rule is checked
 *     where a breach would crash: every call that changes or executes a
 *     graph (declaration calls, per-frame setters, rg_compile, rg_place,
 *     rg_place_offline, rg_graph_reset, rg_graph_destroy, the execute
 *     calls, rg_submit, rg_graph_set_retire_point, rg_graph_set_timings)
 *     takes the graph for its duration, one atomic operation. A second
 *     thread arriving meanwhile gets RG_ERROR_BUSY (rg_graph_destroy: the
 *     graph is not freed) and the log, not the graph's message, which
 *     belongs to the first thread, names both calls ("rg_graph_reset:
 *     graph 'frame' is busy: another thread is in rg_execute"); a
 *     declaration call refused so makes the next rg_compile fail with
 *     RG_ERROR_BUSY, since the declaration may lack it. The same thread
 *     calling in again (a record callback changing the graph it records)
 *     is RG_ERROR_INVALID_ARGUMENT. Queries are not checked: they read.
 *   - Different graphs may be used on different threads at once:
 *     device-free ones without any condition, and graphs on one rg_device
 *     too, which they only read but for its list of retired objects (see
 *     "Placement and the GPU"), kept with atomics (placement creates
 *     images, buffers and memory on that VkDevice, which Vulkan allows from
 *     any thread); only rg_submit uses its queues.
 *   - The command buffer given to rg_execute, and its pool, must not be
 *     used by another thread meanwhile (Vulkan's external synchronization),
 *     and the record callbacks run on the thread that called rg_execute.
 *   - One frame may be recorded on many threads ("Parallel recording"):
 *     between rg_execute_begin and rg_execute_end, rg_execute_chunk may
 *     run on any threads at once for different chunks, and so may the
 *     record callbacks it calls; nothing else may change the graph then.
 *     The graph's log callback may then be called from those threads.
 *   - rg_result_string, rg_usage_get_info, rg_version, rg_version_string
 *     and the name functions ("Names") may be called from any thread.
 */

/* Marks a declaration whose feature may still change (see the contents). */
#define RG_EXPERIMENTAL /* may change in a minor release */

/* This header's version; the build checks it against the CMake project's
 * (engine and rendergraph are versioned together). */
#define RG_VERSION_MAJOR 0
#define RG_VERSION_MINOR 1
#define RG_VERSION_PATCH 0
#define RG_VERSION "0.1.0"
/* major * 1000000 + minor * 1000 + patch: ordered, readable in decimal. */
#define RG_MAKE_VERSION(major, minor, patch) ((major) * 1000000u + (minor) * 1000u + (patch))
#define RG_VERSION_NUMBER RG_MAKE_VERSION(RG_VERSION_MAJOR, RG_VERSION_MINOR, RG_VERSION_PATCH)

/* The linked library's version: RG_VERSION and RG_VERSION_NUMBER as it was
 * built. Any thread. */
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

/* VK_KHR_dynamic_rendering_local_read for Vulkan headers that predate it
 * (1.3.276; Debian 12 ships 1.3.239): the names, values and layouts the
 * 1.4.309 header gives them, so code that uses the extension compiles
 * against either. Newer headers define VK_KHR_dynamic_rendering_local_read
 * and all of these; this block then adds nothing. It defines that guard
 * too, so other code keyed on it sees the names, but declares no
 * prototypes: the loader exports no extension commands either way, so get
 * the two with vkGetDeviceProcAddr (rg_device_create does). */
#ifndef VK_KHR_dynamic_rendering_local_read
#define VK_KHR_dynamic_rendering_local_read 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_SPEC_VERSION 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME "VK_KHR_dynamic_rendering_local_read"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR ((VkStructureType)1000232000)
#define VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR ((VkStructureType)1000232001)
#define VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR ((VkStructureType)1000232002)
#define VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR ((VkImageLayout)1000232000)

typedef struct VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR {
    VkStructureType    sType;
    void*              pNext;
    VkBool32           dynamicRenderingLocalRead;
} VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR;

typedef struct VkRenderingAttachmentLocationInfoKHR {
    VkStructureType    sType;
    const void*        pNext;
    uint32_t           colorAttachmentCount;
    const uint32_t*    pColorAttachmentLocations;
} VkRenderingAttachmentLocationInfoKHR;

typedef struct VkRenderingInputAttachmentIndexInfoKHR {
    VkStructureType    sType;
    const void*        pNext;
    uint32_t           colorAttachmentCount;
    const uint32_t*    pColorAttachmentInputIndices;
    const uint32_t*    pDepthInputAttachmentIndex;
    const uint32_t*    pStencilInputAttachmentIndex;
} VkRenderingInputAttachmentIndexInfoKHR;

typedef void (VKAPI_PTR *PFN_vkCmdSetRenderingAttachmentLocationsKHR)(VkCommandBuffer commandBuffer,
    const VkRenderingAttachmentLocationInfoKHR* pLocationInfo);
typedef void (VKAPI_PTR *PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)(VkCommandBuffer commandBuffer,
    const VkRenderingInputAttachmentIndexInfoKHR* pInputAttachmentIndexInfo);
#endif

/* ===== 2. Errors ===== */

/* Errors. Every call that can fail says why in a message that names what
 * was wrong (the command, the resource, the handle, the argument or the
 * state): rg_graph_error_message for a graph, the log (rg_log_fn) for
 * rg_device_create. Whether an error is kept depends on the call, not on
 * the code:
 *   - Kept (sticky): declaration calls (sections 5 to 8) never fail loudly:
 *     the first error is kept (code and a message naming the command and
 *     resource), every later declaration call is ignored (it returns the 0
 *     handle), and rg_compile returns it. A compile error is kept the same
 *     way. Such a graph is FAILED until rg_graph_reset(), which starts a new
 *     declaration, clears the message and invalidates every handle made
 *     before it. On a FAILED graph, rg_place and rg_execute return
 *     RG_ERROR_NOT_COMPILED and the queries neutral values or
 *     RG_ERROR_NOT_COMPILED; the kept message stays.
 *   - Not kept: every other call (placement, execute, submit, queries,
 *     reports, the per-frame setters) that fails returns its code and sets
 *     rg_graph_error_message() to a message that starts with the call's
 *     name and says what was wrong (handle, argument, state); the graph is
 *     as it was and may be used again. On a FAILED graph the kept message
 *     stays instead.
 *   - Cleared: the pipeline calls (rg_compile, rg_place, rg_place_offline,
 *     rg_execute, rg_execute_batches, rg_submit) and the per-frame setters
 *     (rg_texture_set_image, rg_buffer_set_buffer) clear the message when
 *     they start, so after one of them succeeds it is "". Queries and
 *     reports that succeed write nothing (the message stays as it was).
 *
 *   rg_cmd_user(g, &(rg_user_desc){ .name = "ssao", .record = ssao, .access_count = 1,
 *       .accesses = &(rg_access){ .texture = stale, .usage = RG_USAGE_SAMPLED_COMPUTE } });
 *                                                           // kept: INVALID_HANDLE
 *   rg_end_rendering(g);                                    // ignored
 *   if (rg_compile(g) != RG_SUCCESS) {                      // returns the kept code
 *       report("%s", rg_graph_error_message(g));            // "command 'ssao': ..."
 *       rg_graph_reset(g);                                  // then declare again
 *   }
 *
 * The codes, and where they come from (declaration and compile: kept):
 *   RG_ERROR_INVALID_ARGUMENT   the caller's input: a NULL pointer, a value
 *                               outside its enum, an index past a count, a
 *                               resource of the wrong kind, a call the graph's
 *                               state does not allow (placing a device-free
 *                               graph); any call. What the device lacks is
 *                               RG_ERROR_UNSUPPORTED instead.
 *   RG_ERROR_INVALID_HANDLE     a 0, stale or foreign handle; declaration calls
 *                               (kept), queries and setters (not kept).
 *   RG_ERROR_BAD_RANGE          declaration: a subresource range outside the
 *                               resource or REMAINING in a view; a render area
 *                               larger than an attachment; a blit onto its own mip.
 *   RG_ERROR_UNBALANCED_SPAN    rg_compile: a begin_rendering without its end.
 *   RG_ERROR_NESTED_SPAN        declaration: begin_rendering inside a span.
 *   RG_ERROR_END_WITHOUT_BEGIN  declaration: end_rendering outside a span.
 *   RG_ERROR_DRAW_OUTSIDE_SPAN  declaration: an RG_COMMAND_DRAW outside spans.
 *   RG_ERROR_TRANSFER_IN_SPAN   declaration: a copy, clear or blit inside a span.
 *   RG_ERROR_OUTSIDE_IN_SPAN    declaration: an RG_COMMAND_OUTSIDE command
 *                               inside a span.
 *   RG_ERROR_ATTACHMENT_LAYOUT  declaration: a layout not legal for rendering.
 *   RG_ERROR_ATTACHMENT_OVERLAP declaration: two attachments on one subresource.
 *   RG_ERROR_FEEDBACK_LOOP      declaration: an access of a command inside a
 *                               span touches an attachment of the span.
 *   RG_ERROR_EXTENT_MISMATCH    declaration: attachments of different extents
 *                               in a span without an area.
 *   RG_ERROR_TRANSITION_IN_SPAN compile: a hazard inside a span needs a layout
 *                               change.
 *   RG_ERROR_HAZARD_IN_SPAN     compile: a hazard inside a span needs a barrier
 *                               between two of its commands.
 *   RG_ERROR_READ_BEFORE_WRITE  compile: a read (or LOAD) of what nothing in
 *                               the frame wrote ("Reads").
 *   RG_ERROR_TRANSIENT_CONTENTS compile: a FORCE-transient texture used in a way
 *                               that needs its contents.
 *   RG_ERROR_INTERNAL           the library's own invariant broke (found at
 *                               compile, kept): a bug, please report it.
 *   RG_ERROR_OUT_OF_MEMORY      host memory anywhere (kept in declaration and
 *                               compile); device memory at placement.
 *   RG_ERROR_NOT_COMPILED       placement, execute, queries and reports on a
 *                               graph not compiled (or FAILED).
 *   RG_ERROR_NOT_PLACED         queries and reports that need a placement
 *                               (memory report, spans' rendering, descriptors,
 *                               timings) before one.
 *   RG_ERROR_UNSUPPORTED        what the device does not offer: rg_device_create
 *                               (a function, Vulkan 1.3), placement (formats,
 *                               sample counts, blits, resolve modes, local
 *                               read, a queue), timings on a queue without
 *                               timestamps.
 *   RG_ERROR_VULKAN             a Vulkan call failed (placement, views made
 *                               for descriptors, submission); the message names
 *                               the call and its VkResult.
 *   RG_ERROR_CALLBACK           rg_execute, rg_execute_batches: a record
 *                               callback returned false (the message carries
 *                               its reason); rg_place_offline: the requirements
 *                               callback returned false.
 *   RG_ERROR_UNDECLARED         rg_record_image, rg_record_view, rg_record_buffer:
 *                               the message (they return VK_NULL_HANDLE) when a
 *                               callback asks for what its command did not
 *                               declare.
 *   RG_ERROR_IO                 a report, DOT or timings file that could not be
 *                               written.
 *   RG_ERROR_NOT_READY          a GPU result not there yet (timings: no frame
 *                               completed).
 *   RG_ERROR_BUSY               any call that changes or executes a graph
 *                               while another thread is in one on the same
 *                               graph ("Threads"); the log names both calls.
 *   RG_ERROR_CULLED             a query about a command compile culled
 *                               (rg_command_get_rendering): callers skip it.
 */
typedef enum rg_result {
    RG_SUCCESS = 0,
    RG_ERROR_INVALID_ARGUMENT,        /* the caller's input (what the device lacks: UNSUPPORTED) */
    RG_ERROR_INVALID_HANDLE,          /* stale (before a reset), foreign or 0 */
    RG_ERROR_BAD_RANGE,               /* subresource range outside the resource or REMAINING in a view */
    RG_ERROR_UNBALANCED_SPAN,         /* begin without end at compile time */
    RG_ERROR_NESTED_SPAN,             /* begin inside a span */
    RG_ERROR_END_WITHOUT_BEGIN,
    RG_ERROR_DRAW_OUTSIDE_SPAN,
    RG_ERROR_TRANSFER_IN_SPAN,        /* copy, clear or blit inside a span */
    RG_ERROR_ATTACHMENT_LAYOUT,       /* layout not legal for rendering */
    RG_ERROR_ATTACHMENT_OVERLAP,      /* two attachments on one subresource */
    RG_ERROR_FEEDBACK_LOOP,           /* an interior access touches an attachment */
    RG_ERROR_TRANSITION_IN_SPAN,      /* an intra-span hazard needs a layout change */
    RG_ERROR_NOT_COMPILED,
    RG_ERROR_OUT_OF_MEMORY,
    RG_ERROR_CALLBACK,                /* a user record callback failed */
    RG_ERROR_VULKAN,
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

/* The kept declaration or compile error, RG_SUCCESS if none. The message
 * is that error's (naming the command and the resource) while one is kept;
 * otherwise that of the last call that failed, starting with its name, and
 * "" after a pipeline call or per-frame setter succeeded with no failure
 * since (see "Errors"). rg_graph_reset clears both. */
rg_result rg_graph_error(const rg_graph *graph);
const char *rg_graph_error_message(const rg_graph *graph);

/* ===== 3. Device ===== */

/* The application's Vulkan device as graphs use it: its handles, the
 * functions the library calls (loaded once, by rg_device_create, through
 * the entry point the application gives: the loader's, volk's or its own
 * dispatch; the library calls no Vulkan symbol directly), the queues graphs
 * may run on and what the application enabled.
 *
 * Graphs on the device create images, buffers, views, memory and
 * semaphores on it and record into the application's command buffers; the
 * library never creates an instance, a device, a command pool or a fence,
 * and submits only in rg_submit. Many graphs may share one device, which
 * must outlive them. The engine makes one for its context
 * (eng_context_graph_device).
 *
 * This header includes vulkan.h: a volk user includes volk.h first (or
 * defines VK_NO_PROTOTYPES for the whole program) and passes volk's
 * vkGetInstanceProcAddr. The graph needs Vulkan 1.3 with dynamicRendering
 * and synchronization2 enabled, and checks them in the feature chain the
 * application passes (rg_device_desc.enabled_features).
 *
 *   rg_device *dev;
 *   if (rg_device_create(&(rg_device_desc){ .instance = instance,
 *           .physical_device = gpu, .device = device,
 *           .enabled_features = device_info.pNext,  // the VkDeviceCreateInfo's chain
 *           .get_instance_proc_addr = vkGetInstanceProcAddr,
 *           .queues = { [RG_QUEUE_GRAPHICS] = { graphics_queue, graphics_family },
 *                       [RG_QUEUE_COMPUTE] = { compute_queue, compute_family } },
 *           .timeline_semaphore = true,           // as enabled on the VkDevice
 *           .log = print_message }, &dev) != RG_SUCCESS)
 *       return false;                             // the log said why
 */
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
} rg_device_caps;

/* Host memory: every allocation the library makes goes through these (a
 * graph's through rg_graph_desc.allocator, else its device's; a device's
 * through rg_device_desc.allocator); NULL: malloc, realloc, free. Given,
 * all three functions are required. alloc and realloc return memory
 * aligned as malloc's, or NULL, which the library reports as
 * RG_ERROR_OUT_OF_MEMORY leaking nothing; free accepts NULL. Executing a
 * placed graph allocates nothing. */
typedef struct rg_allocator {
    void *(*alloc)(void *user, size_t size);
    void *(*realloc)(void *user, void *ptr, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} rg_allocator;

typedef enum rg_log_level {
    RG_LOG_ERROR = 0,
    RG_LOG_WARNING,
    RG_LOG_INFO,
} rg_log_level;

/* Receives the library's messages: object names what a message is about
 * ("graph 'frame'", "device"), message says it. Errors are every failing
 * call's message (what rg_graph_error_message returns); notices (INFO)
 * say what compile decided that changes what runs: commands culled (and
 * what nothing reads), resources therefore not created, commands kept off
 * the queue they are eligible for, attachments not transient only because
 * of a load or store op (see rg_transient); warnings say what the graph
 * did to stay safe from a mistake (see "Placement and the GPU").
 * Without a log function (NULL in rg_device_desc and rg_graph_desc),
 * errors and warnings are printed on stderr ("rendergraph: warning: graph
 * 'frame': ..."), each distinct line once per placement, so a frame that
 * fails the same way every frame prints once; notices are not printed.
 * The function may be called from the threads recording chunks. */
typedef void (*rg_log_fn)(void *user, rg_log_level level, const char *object, const char *message);

typedef struct rg_device_desc {
    VkInstance instance;              /* required */
    VkPhysicalDevice physical_device; /* required */
    VkDevice device;                  /* required */
    /* Required: every Vulkan function the library calls is loaded through
     * it (the device's through the vkGetDeviceProcAddr it returns). */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* The API version the application created the instance with (its
     * VkApplicationInfo::apiVersion); 0: 1.3. The graph needs Vulkan 1.3
     * with dynamicRendering and synchronization2 enabled
     * (VkPhysicalDeviceVulkan13Features); it reads 1.4 properties only
     * where this and the device reach 1.4. */
    uint32_t api_version;
    /* Required: the features the device was created with, as given to
     * vkCreateDevice (its VkDeviceCreateInfo::pNext chain: a
     * VkPhysicalDeviceFeatures2 and the Vulkan 1.1-1.4 feature structs,
     * or the extensions' own feature structs, in any order). Missing
     * dynamicRendering or synchronization2, or timelineSemaphore with
     * timeline_semaphore set, or dynamicRenderingLocalRead with local_read
     * set, is RG_ERROR_UNSUPPORTED naming the feature. Read during
     * rg_device_create only. */
    const void *enabled_features;
    /* The queues graphs may use, indexed by rg_queue. Graphics is required
     * (a family with graphics and compute). Compute and transfer are
     * optional: commands eligible for them run there (see "Queues") when
     * timeline_semaphore is set too. */
    rg_device_queue queues[RG_QUEUE_COUNT];
    /* What the application enabled that the graph uses where enabled:
     * timelineSemaphore (the semaphores between queues), and
     * VK_KHR_dynamic_rendering_local_read with dynamicRenderingLocalRead
     * (span merging; whether it covers multisampled and depth/stencil
     * attachments is read from the device's 1.4 properties). */
    bool timeline_semaphore;
    bool local_read;
    /* The instance has VK_EXT_debug_utils enabled: graphs name their
     * Vulkan objects and label what they record (see section 14). Its three
     * functions (vkSetDebugUtilsObjectNameEXT,
     * vkCmdBegin/EndDebugUtilsLabelEXT) come through
     * get_instance_proc_addr; one missing fails rg_device_create. false:
     * no names, no labels. */
    bool debug_utils;
    /* Messages (a failed rg_device_create's reason among them); NULL:
     * errors and warnings on stderr (see rg_log_fn). */
    rg_log_fn log;
    void *log_user;
    /* Host memory of the device object and, unless they have their own, of
     * its graphs (see rg_allocator). */
    const rg_allocator *allocator;
    /* Given to every Vulkan object the library creates on the device
     * (images, buffers, views, memory, semaphores) and their destruction;
     * NULL: the driver's. */
    const VkAllocationCallbacks *vk_allocator;
} rg_device_desc;

/* Loads the functions and reads the device's properties. A missing
 * required field is RG_ERROR_INVALID_ARGUMENT; so are what can be checked
 * cheaply against each other: a physical device that is not one of the
 * instance's, a queue family the physical device does not have, a
 * graphics queue's family without graphics. A feature missing from
 * enabled_features, a function the device does not give, or a device
 * below Vulkan 1.3 is RG_ERROR_UNSUPPORTED. Each is logged with its name.
 * That the device was made from that physical device, and that the
 * queues are the device's, cannot be checked: they are the application's
 * to get right. */
rg_result rg_device_create(const rg_device_desc *desc, rg_device **out);
/* Destroys the device object and what freed placements left waiting for
 * the GPU (see "Placement and the GPU"): call it after every graph on it
 * is destroyed (one left is logged as an ERROR: a call on it afterwards
 * would use the destroyed device) and the application has waited for the
 * device. NULL: no-op.
 *
 * What stays the application's duty, since the library cannot see it
 * without a cost on every call: not using a graph or device after its
 * destroy call; not keeping the Vulkan objects the graph hands out
 * (rg_texture_image, rg_texture_view, rg_record_view and descriptors'
 * views) past the placement that made them: keep the rg_texture and ask
 * again each frame, as record callbacks do. */
void rg_device_destroy(rg_device *device);
/* What graphs on the device compile for (rg_graph_desc.caps overrides it);
 * zeroed for NULL. */
rg_device_caps rg_device_get_caps(const rg_device *device);
/* The VkDevice given at creation; VK_NULL_HANDLE for NULL. */
VkDevice rg_device_handle(const rg_device *device);

/* ===== 4. Graph ===== */

/* A graph holds one frame's declaration and everything made from it: the
 * compiled order and barriers, the placement (memory, images, views,
 * semaphores) and the per-frame state. Its life:
 *   - rg_graph_create, then declare (sections 5 to 8);
 *   - rg_compile (section 9): device-free; a graph made without a device
 *     can be declared and compiled (tests, tools) but not placed or
 *     executed;
 *   - rg_place (section 10), or let the first rg_execute place it;
 *   - every frame: the per-frame setters (rg_texture_set_image,
 *     rg_buffer_set_buffer), then rg_execute or rg_execute_batches and
 *     rg_submit (section 11);
 *   - when the frame changes (a resize, a setting): rg_graph_reset and
 *     declare again. Compiling an unchanged declaration again returns at
 *     once; compiling a changed one frees the previous placement (see
 *     "Placement and the GPU").
 * The options below are fixed at creation, but for timings
 * (rg_graph_set_timings).
 *
 *   rg_graph *g;
 *   rg_graph_create(&(rg_graph_desc){ .name = "frame", .device = dev }, &g);
 *   declare_frame(g, extent);          // the application's: sections 5 to 8
 *   ...
 *   rg_graph_reset(g);                 // on resize: every handle is stale now
 *   declare_frame(g, new_extent);
 *   ...
 *   rg_graph_destroy(g);               // its Vulkan objects wait for its frames
 */

/* How compile orders the commands (rg_graph_desc.order; see section 9). */
typedef enum rg_order {
    /* The default: the order with the lowest peak of estimated live bytes
     * among five candidates, the batch order (RG_ORDER_BATCHES), the
     * declaration order, the "as late as possible" order (a producer right
     * before its first consumer) and two list schedules that place next
     * the ready command allocating the fewest bytes less those it frees
     * (one following the batch order, one the as-late-as-possible order);
     * the batch order on a tie, so never worse than RG_ORDER_BATCHES. */
    RG_ORDER_MEMORY = 0,
    /* Longest path from a source, as soon as possible, then record order. */
    RG_ORDER_BATCHES,
    /* Record order (for comparison). */
    RG_ORDER_DECLARATION,
} rg_order;

/* Whether compile merges spans (see "Merging"). */
typedef enum rg_merge {
    RG_MERGE_AUTO = 0,                /* rg_merge_by_default(driver) */
    RG_MERGE_ON,                      /* wherever the device has local read */
    RG_MERGE_OFF,
} rg_merge;

/* The device memory of a graph's pools (RG_MEMORY_POOLED resources, see
 * section 10), from the application's own allocator (a block of its
 * suballocator, VMA's vmaAllocateMemory): alloc gives size bytes of memory
 * type memory_type at *offset in *memory, *offset a multiple of alignment,
 * and returns VK_SUCCESS (or the error the graph then reports, naming the
 * pool); the bytes are the graph's until free is called with the same
 * memory and offset, at the next placement or the graph's destruction. The
 * application keeps its other resources in that memory
 * bufferImageGranularity apart from them. Lazy and dedicated allocations
 * are the graph's own (vkAllocateMemory). */
typedef struct rg_pool_memory {
    VkResult (*alloc)(void *user, uint32_t memory_type, VkDeviceSize size, VkDeviceSize alignment,
                      VkDeviceMemory *memory, VkDeviceSize *offset);
    void (*free)(void *user, VkDeviceMemory memory, VkDeviceSize offset);
    void *user;
} rg_pool_memory;

typedef struct rg_graph_desc {
    const char *name;
    /* The device the graph runs on (rg_device_create). NULL: a device-free
     * graph that can be declared and compiled (tests, tools) but not
     * placed on a device or executed. */
    rg_device *device;
    /* true: placement never lets two pooled resources share bytes (each gets
     * its own range of the pools, so pooled == unaliased, padding
     * included); for measuring what aliasing saves. false (the default):
     * aliasing on. */
    bool no_aliasing;
    /* Span merging (see "Merging"): AUTO (0) by the driver's policy. */
    rg_merge merge;
    /* true: no command is culled (see "Culling"), for tests and for
     * measuring what culling saves. */
    bool no_culling;
    /* The order of the commands (rg_order): memory-aware by default. */
    rg_order order;
    /* false (the default): two pooled resources may share bytes when every
     * use of one comes before every use of the other in the execution
     * order; the alias barrier the graph records (the second's first use
     * waits for the first's last uses) makes that order a happens-before,
     * at the cost of the GPU overlapping the two. true: only when the
     * declared dependencies already order them (no serialization added). */
    bool alias_proven_only;
    /* What to compile for: the device's when NULL, or for a device-free
     * graph none (it never merges, one queue). Given, it replaces the
     * device's (what-if compiles, tests). */
    const rg_device_caps *caps;
    /* true: every command runs on the graphics queue, whatever it is
     * eligible for (see "Queues"): for comparisons. */
    bool single_queue;
    /* Host memory of the graph (see rg_allocator); NULL: the device's, or
     * for a device-free graph malloc's. */
    const rg_allocator *allocator;
    /* The pools' device memory (see rg_pool_memory); NULL: the graph
     * allocates each pool itself. */
    const rg_pool_memory *pool_memory;
    /* The graph's messages (see rg_log_fn); NULL: the device's log. */
    rg_log_fn log;
    void *log_user;
    /* true: every created resource is made VK_SHARING_MODE_CONCURRENT over
     * the graph's queue families, even one a single queue uses (for
     * measuring what concurrent sharing costs); false: only those that
     * more than one family uses. */
    bool concurrent_sharing;
    /* true: GPU timestamps around every pass (see "Timings";
     * RG_EXPERIMENTAL); false (the default): none, and nothing of them is
     * made or recorded. */
    bool timings;
    /* true: rg_record_image, rg_record_view and rg_record_buffer hand a
     * callback any resource of the graph, declared or not (tools that
     * inspect a frame); false (the default): only what its command
     * declared (see rg_record_view). */
    bool lenient_record_access;
} rg_graph_desc;

/* Makes a graph. RG_ERROR_INVALID_ARGUMENT for a NULL desc or out, an
 * allocator or pool_memory without all its functions, or merge or order
 * outside its enum; RG_ERROR_OUT_OF_MEMORY. On failure *out is NULL (and
 * there is no graph to hold a message). */
rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out);
/* Frees the graph; its placement's Vulkan objects are retired to the
 * device (see "Placement and the GPU"). NULL: no-op. While another thread
 * is in a call on the graph nothing is freed and the log says so (see
 * "Threads"). */
void rg_graph_destroy(rg_graph *graph);
/* Starts a new declaration. Every handle made before is stale from now on;
 * the placement is freed as rg_graph_destroy frees it, and a kept error
 * and the message are cleared. RG_ERROR_BUSY while another thread is in a
 * call on the graph (nothing is reset); RG_ERROR_INVALID_ARGUMENT for
 * NULL. */
rg_result rg_graph_reset(rg_graph *graph);

/* ===== 5. Resources ===== */

/* A graph's resources are virtual until placement: a declared texture or
 * buffer is a handle, and compile derives how each is used.
 *   - Created (rg_texture_create, rg_buffer_create): the graph makes the
 *     image or buffer, with the usage its declared accesses need, in the
 *     memory placement chooses (section 10); one that only culled commands
 *     use is not made at all.
 *   - Imported (rg_texture_import, rg_buffer_import): the application's
 *     object (a swapchain image, a readback buffer, a persistent texture),
 *     with its state before and after the frame; re-pointed per frame
 *     without recompiling (rg_texture_set_image, rg_buffer_set_buffer).
 *   - History (rg_texture_create_history): a pair that hands what one
 *     frame wrote to the next ("History").
 * Multi-planar (YCbCr) formats are refused at rg_texture_create.
 *
 *   rg_texture back = rg_texture_import(g, &(rg_texture_import_desc){ .name = "swapchain",
 *       .format = fmt, .width = extent.width, .height = extent.height,
 *       .initial_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
 *       .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR });
 *   rg_texture half = rg_texture_create(g, &(rg_texture_desc){ .name = "bloom 1/2",
 *       .format = VK_FORMAT_B10G11R11_UFLOAT_PACK32, .size_of = back, .scale = 0.5f });
 *   rg_texture taa_prev, taa = rg_texture_create_history(g, &(rg_texture_desc){ .name = "taa",
 *       .format = VK_FORMAT_R16G16B16A16_SFLOAT, .size_of = back }, &taa_prev);
 *   rg_buffer readback = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback",
 *       .buffer = host_buffer, .size = 4096,
 *       .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT, .final_access = VK_ACCESS_2_HOST_READ_BIT });
 *   // every frame, before executing: the image and what it was created with
 *   rg_texture_set_image(g, back, &(rg_import_image){ .image = images[index], .view = views[index],
 *       .format = fmt, .width = extent.width, .height = extent.height,
 *       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT });  // the swapchain's imageUsage
 *
 * Frames. A compiled graph is executed frame after frame; what survives
 * from one execution to the next:
 *   - Created textures and buffers keep nothing: a texture's first use in
 *     each frame transitions it from UNDEFINED, and a pooled resource's
 *     bytes may hold another resource in between. Keep data across frames
 *     in an import or a history texture.
 *   - Imports keep their contents; their state before the frame and the
 *     state to leave them in are declared (rg_texture_import_desc).
 *   - An import's object may change every frame (rg_texture_set_image,
 *     rg_buffer_set_buffer), and the setter checks what it is told of it
 *     against the declaration: an image of another extent, format, sample
 *     count, mip count or layer count, a buffer smaller than the declared
 *     size, or an image or buffer whose usage lacks what the compiled
 *     graph's accesses need, is refused (RG_ERROR_INVALID_ARGUMENT, not
 *     kept, naming both values) and the graph keeps the object it had. On a
 *     resize, re-declare (rg_graph_reset) with the new extent; textures
 *     sized from the import (see "Relative sizes") follow it. The usage is
 *     checked when the graph is compiled: at the setter, or, for an object
 *     given before (or at declaration, with rg_texture_import_desc.usage),
 *     by rg_compile, whose error is kept. The application's duty is what
 *     the graph cannot see: that the description is true of the object
 *     (the graph trusts it; the validation layer checks it), that the view
 *     is of that image, and that the object lives until the frames using
 *     it have finished.
 *   - History textures (rg_texture_create_history) hand what one frame
 *     wrote to the next frame to read; see "History".
 *
 * Relative sizes. A created texture may take its extent from another
 * texture of the graph (rg_texture_desc.size_of), so a resize changes one
 * number, the import's extent, and everything sized from it follows. A
 * bloom chain at half, quarter, ... of the swapchain image declares each
 * level with size_of the level before it and scale 0.5: a 1279x719 target
 * gives 639x359, 319x179, 159x89, 79x44, 39x22 (rounded down; RG_ROUND_UP
 * would give 640x360 first). rg_texture_extent reads the result.
 *
 * History. A texture whose previous frame's contents a command reads
 * (temporal antialiasing, feedback trails, temporal denoising) is declared
 * with rg_texture_create_history: it returns the texture the frame writes
 * (current) and a second handle, previous, that reads what the frame
 * before wrote to current.
 *   - The graph keeps two images and swaps their roles at every rg_execute
 *     after the first of a placement, so the read of previous in frame N
 *     sees exactly what frame N-1 wrote, barriers included: frame N-1 ends
 *     by transitioning current to the layout previous is first read in
 *     (made visible to every read of previous in that layout), and frame
 *     N's first use of current (the other image, two frames old) discards
 *     it, waiting for frame N-1's reads of it, or, where frame N-1 did not
 *     read a subresource of previous, for frame N-2's uses of it as
 *     current.
 *   - Both images are created together (when either handle is used) with
 *     the union of both handles' usages plus TRANSFER_DST, each in a
 *     dedicated allocation (RG_MEMORY_DEDICATED): never pooled, aliased or
 *     transient.
 *   - previous is read-only: a write access to it (attachment, resolve,
 *     clear, copy or blit destination, storage write) is a declaration
 *     error naming it. A command that writes current is never culled (the
 *     next frame reads it).
 *   - The first rg_execute after a placement (after the first compile, a
 *     compile of a changed declaration, a reset: a resize declares again)
 *     has no frame before: it clears previous to
 *     rg_texture_desc.history_clear before the frame's commands (the
 *     subresources the frame reads), and rg_texture_history_valid says
 *     false for that frame, so a command may skip the read instead.
 *   - Subresources of current the frame does not write hold undefined
 *     contents in the next frame. A failed rg_execute leaves the roles as
 *     they were.
 *   - Record callbacks must ask for previous's and current's image and
 *     view at every execute (rg_record_image, rg_record_view): they
 *     alternate.
 * History textures may be used on any queue.
 */

/* Whether a created texture gets TRANSIENT_ATTACHMENT usage (and so lazily
 * allocated memory where the device offers it; see section 9, "Transient
 * attachments"). AUTO: when every use is as an attachment of one span
 * (or one merged rendering instance) that clears or ignores it on load and
 * discards it on store (resolving is fine). FORCE: always; a use that
 * needs the contents (load, store, sample, copy) is then a compile error
 * (RG_ERROR_TRANSIENT_CONTENTS). FORBID: never. An AUTO texture that only
 * its load or store op keeps from being transient (a zeroed rg_attachment
 * LOADs and STOREs) gets an INFO notice in the log naming the texture, the
 * span and the op. */
typedef enum rg_transient {
    RG_TRANSIENT_AUTO = 0,
    RG_TRANSIENT_FORCE,
    RG_TRANSIENT_FORBID,
} rg_transient;

/* How a relative size rounds (see "Relative sizes"). */
RG_EXPERIMENTAL typedef enum rg_rounding {
    RG_ROUND_DOWN = 0,                /* floor: what mip chains do */
    RG_ROUND_UP,                      /* ceil: covers the source (tiled dispatches) */
    RG_ROUND_NEAREST,                 /* halves round up */
} rg_rounding;

typedef struct rg_texture_desc {
    const char *name;
    rg_transient transient;
    VkFormat format;
    uint32_t width, height;
    /* A size relative to another texture of this graph (RG_EXPERIMENTAL),
     * created or imported (the swapchain image, say): with size_of set,
     * width and height must be 0, and the extent is size_of's extent times
     * scale (0 = 1; 0.5 = half), each axis rounded as `rounding` says and
     * at least 1. size_of must be declared first; chains (each bloom level
     * half the one before) are fine. It is resolved at declaration: the
     * source is declared earlier and its extent never changes afterwards
     * (rg_texture_set_image refuses another), so every later check, query and
     * report sees the extent as if it were given absolutely. Declaration
     * errors naming the texture: size_of stale, foreign or not a texture
     * (RG_ERROR_INVALID_HANDLE); width or height non-zero with size_of,
     * scale negative, NaN or infinite, rounding not an rg_rounding, an axis
     * over UINT32_MAX (RG_ERROR_INVALID_ARGUMENT). Without size_of, scale
     * and rounding are ignored. */
    rg_texture size_of;
    float scale;
    rg_rounding rounding;
    uint32_t mip_levels;              /* 0 = 1 */
    uint32_t array_layers;            /* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    /* Usage is derived from the declared accesses; add more here. */
    VkImageUsageFlags extra_usage;
    /* rg_texture_create_history only: what previous holds in the first
     * frame after placement (zero: black, 0, depth 0). */
    VkClearValue history_clear;
} rg_texture_desc;

/* A texture the graph does not own (a swapchain image, a persistent
 * texture): its state before the frame and the state it must be left in.
 * An attachment covering the whole image (one mip, every layer: a
 * swapchain image) renders through `view`; one naming a mip or some layers
 * renders through a view the graph makes of exactly that subresource of
 * the import's current image, once per image, kept until the placement is
 * freed (see "Placement and the GPU"): destroy or reset the graph before
 * destroying an image it has rendered into that way, since a new image may
 * get the old one's handle. An unused import needs no image unless its
 * final layout differs from its initial one. */
typedef struct rg_texture_import_desc {
    const char *name;
    VkImage image;                    /* may be set per frame: rg_texture_set_image */
    VkImageView view;                 /* whole-image view used for attachments */
    VkFormat format;
    uint32_t width, height;
    uint32_t mip_levels, array_layers;/* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    /* image's VkImageCreateInfo::usage, checked at rg_compile against what
     * the graph's accesses need; 0: not checked until rg_texture_set_image
     * gives one. */
    VkImageUsageFlags usage;
    VkImageLayout initial_layout;     /* UNDEFINED: contents not needed */
    VkPipelineStageFlags2 initial_stage;  /* last stage that touched it, e.g.
                                             COLOR_ATTACHMENT_OUTPUT for an image
                                             whose acquire semaphore waits there */
    VkAccessFlags2 initial_access;
    VkImageLayout final_layout;       /* UNDEFINED: left as the last use leaves it */
    VkPipelineStageFlags2 final_stage;/* destination scope of the final transition */
    VkAccessFlags2 final_access;
} rg_texture_import_desc;

typedef struct rg_buffer_desc {
    const char *name;
    VkDeviceSize size;
    VkBufferUsageFlags extra_usage;
} rg_buffer_desc;

/* An imported buffer's states around the frame, as for textures: initial
 * is the last use before the frame (the frame's first use waits for it;
 * 0 and 0: nothing of the application's to wait for, e.g. a readback the
 * host read before it submitted the frame, or an upload the host wrote
 * before, whose submission makes the write visible), final the first use
 * after it (e.g. HOST and HOST_READ for a readback, which makes the frame's
 * writes available to the host). The graph also waits for its own uses of
 * the frame before when the same graph runs again. */
typedef struct rg_buffer_import_desc {
    const char *name;
    VkBuffer buffer;
    VkDeviceSize size;
    /* buffer's VkBufferCreateInfo::usage, checked at rg_compile against
     * what the graph's accesses need; 0: not checked until
     * rg_buffer_set_buffer gives one. */
    VkBufferUsageFlags usage;
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
/* A history texture (see "History"): returns current, the texture the
 * frame writes, and sets *previous to the read-only handle of what the
 * frame before wrote to it. Both have desc's shape; previous is named
 * "<name> (previous)". Refused: transient FORCE (the contents outlive the
 * frame; AUTO and FORBID both mean never transient), compressed formats
 * (the first frame clears previous), NULL previous. On failure both
 * handles are 0 (a kept declaration error). */
rg_texture rg_texture_create_history(rg_graph *graph, const rg_texture_desc *desc, rg_texture *previous);
/* Whether previous (either handle of a history pair) holds what an earlier
 * frame wrote in the frame being recorded (from a record callback) or
 * about to be (between executes): false before placement and for the
 * first rg_execute after it, whose previous holds
 * rg_texture_desc.history_clear; true afterwards. False for any other
 * texture. */
bool rg_texture_history_valid(const rg_graph *graph, rg_texture previous);
/* The image an import is given for the next execute, and what it was
 * created with (checked against the import's declaration: see "Frames"). */
typedef struct rg_import_image {
    VkImage image;                    /* VK_NULL_HANDLE: none (an execute that
                                         needs one refuses) */
    VkImageView view;                 /* whole-image view, for attachments */
    VkFormat format;                  /* required */
    uint32_t width, height;           /* required */
    uint32_t mip_levels, array_layers;/* 0 = 1 */
    VkSampleCountFlagBits samples;    /* 0 = 1 */
    VkImageUsageFlags usage;          /* required: its VkImageCreateInfo::usage */
} rg_import_image;

/* The buffer an import is given for the next execute, and what it was
 * created with. */
typedef struct rg_import_buffer {
    VkBuffer buffer;                  /* VK_NULL_HANDLE: none */
    VkDeviceSize size;                /* required: at least the declared size */
    VkBufferUsageFlags usage;         /* required: its VkBufferCreateInfo::usage */
} rg_import_buffer;

/* Re-point an import for the next execute (the acquired swapchain image)
 * without recompiling. Per-frame setters, not kept (see "Errors"):
 * RG_ERROR_INVALID_HANDLE; RG_ERROR_INVALID_ARGUMENT for a resource that
 * is not an import, a NULL description, a required field 0 (the message
 * names it), or an object that does not match the declaration: an image's
 * extent, format, sample count, mip or layer count differs, a buffer is
 * smaller, or (once the graph is compiled) the usage lacks bits the
 * graph's accesses need (named). The message names the call, the graph,
 * the import and both values; on failure the import keeps the object it
 * had. */
rg_result rg_texture_set_image(rg_graph *graph, rg_texture texture, const rg_import_image *image);
rg_result rg_buffer_set_buffer(rg_graph *graph, rg_buffer buffer, const rg_import_buffer *buffer_desc);
/* A texture's extent (relative sizes resolved), at any time after its
 * declaration: what a record callback sizes a dispatch by. 0x0 for a
 * stale, foreign or 0 handle. */
RG_EXPERIMENTAL VkExtent2D rg_texture_extent(const rg_graph *graph, rg_texture texture);

/* ===== 6. Commands and accesses ===== */

/* A command is what the application records (a draw, a dispatch, a query)
 * plus the accesses it declares: which texture or buffer, which
 * subresources, and the usage (a row of the usage table: stage, access,
 * layout). The graph orders commands, places barriers and derives resource
 * usage from the declared accesses alone, so an access a command makes but
 * does not declare runs without barriers (rg_record_view refuses to hand
 * out an undeclared resource: section 12).
 *   - RG_COMMAND_OUTSIDE (the default) runs outside spans: dispatches,
 *     queries, anything with its own barriers; RG_COMMAND_DRAW runs inside
 *     a span (section 7), whose attachments it may use without declaring
 *     them.
 *   - A command with no declared accesses (a timestamp, a debug label)
 *     runs between the commands recorded right before and right after it;
 *     any other command runs where its accesses allow.
 *   - Culling judges a command by its declared writes (see "Culling"):
 *     declare side_effects for one whose effects the accesses do not show.
 *   - rg_user_desc.queue makes a command eligible for async compute or a
 *     transfer queue (see "Queues").
 * The record callback runs at every rg_execute with a record context
 * (section 12): the command buffer, the resources' Vulkan objects and
 * their descriptors.
 *
 *   static bool blur(const rg_record_context *rc, void *user)
 *   {
 *       VkCommandBuffer cmd = rg_record_cmd(rc);
 *       bind_blur(cmd, rg_record_view(rc, ao_raw), rg_record_view(rc, ao));   // the application's
 *       vkCmdDispatch(cmd, groups_x, groups_y, 1);
 *       return true;
 *   }
 *   rg_cmd_user(g, &(rg_user_desc){ .name = "ssao blur", .record = blur, .user = renderer,
 *       .access_count = 2, .accesses = (rg_access[]){
 *           { .texture = ao_raw, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true },
 *           { .texture = ao, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true } },
 *       .queue = RG_QUEUE_COMPUTE });   // may run on async compute
 */

/* One table maps each usage to (stage, access, layout, the usage flags a
 * created resource needs, whether it writes); rg_usage_get_info returns
 * the row. RG_USAGE_RAW takes them from the access itself. */
typedef enum rg_usage {
    RG_USAGE_NONE = 0,
    RG_USAGE_VERTEX_BUFFER,
    RG_USAGE_INDEX_BUFFER,
    RG_USAGE_INDIRECT_BUFFER,
    RG_USAGE_UNIFORM_VERTEX,
    RG_USAGE_UNIFORM_FRAGMENT,
    RG_USAGE_UNIFORM_COMPUTE,
    RG_USAGE_SAMPLED_VERTEX,
    RG_USAGE_SAMPLED_FRAGMENT,
    RG_USAGE_SAMPLED_COMPUTE,
    RG_USAGE_STORAGE_READ_VERTEX,
    RG_USAGE_STORAGE_READ_FRAGMENT,
    RG_USAGE_STORAGE_READ_COMPUTE,
    RG_USAGE_STORAGE_WRITE_FRAGMENT,
    RG_USAGE_STORAGE_WRITE_COMPUTE,
    RG_USAGE_STORAGE_READ_WRITE_FRAGMENT,
    RG_USAGE_STORAGE_READ_WRITE_COMPUTE,
    RG_USAGE_COLOR_ATTACHMENT,        /* write (and read when loaded or blended) */
    RG_USAGE_DEPTH_ATTACHMENT,        /* depth/stencil test and write */
    RG_USAGE_DEPTH_READ_ONLY,         /* depth test without write */
    RG_USAGE_RESOLVE,
    RG_USAGE_TRANSFER_SRC,
    RG_USAGE_TRANSFER_DST,
    RG_USAGE_PRESENT,
    RG_USAGE_RAW,
    /* A fragment shader reads the texture only at its own pixel (and
     * sample), from a draw inside a span: the G-buffer read of a deferred
     * lighting pass. The graph decides how (see "Merging"): where the span
     * merges with the one that rendered the texture, an input-attachment
     * read (subpassLoad) in RENDERING_LOCAL_READ layout that stays in tile
     * memory; otherwise a sampled read (texelFetch) in SHADER_READ_ONLY
     * layout, as rg_usage_get_info's row says. rg_command_get_local_read
     * tells which after compile. */
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

/* The usage's row of the table, a static constant; NULL for a value
 * outside rg_usage. Any thread. */
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
    /* The queue the command may run on instead of graphics (see "Queues"):
     * RG_QUEUE_COMPUTE for a command outside spans whose accesses are
     * compute-shader, indirect or transfer ones, RG_QUEUE_TRANSFER for one
     * whose accesses are transfer ones; another access is a declaration
     * error naming the command and the resource. 0: graphics only. */
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

/* Spans. rg_begin_rendering .. rg_end_rendering bracket one dynamic-rendering
 * instance (vkCmdBeginRendering .. vkCmdEndRendering) and the RG_COMMAND_DRAW
 * commands inside it. The compiler treats the span as one node: nothing
 * else is ever scheduled inside it, its commands keep record order, and
 * barriers its interior needs from outside are placed before
 * vkCmdBeginRendering. Dynamic rendering allows no pipeline barrier inside
 * the pass, so a hazard between two commands of one span is an error
 * (RG_ERROR_HAZARD_IN_SPAN, or RG_ERROR_TRANSITION_IN_SPAN when it needs a
 * layout change): split the span there. A span is culled whole or kept
 * whole (see "Culling").
 *   - Attachments: up to RG_MAX_COLOR_ATTACHMENTS colors and one
 *     depth/stencil, each one mip and explicit layers of a texture. The
 *     span writes them (a draw may use them without declaring them); load
 *     LOAD (the default) reads what an earlier command wrote (see "Reads"),
 *     CLEAR and DONT_CARE do not. Attachments of different extents need
 *     rg_rendering_desc.area.
 *   - Resolves: a multisampled attachment names a single-sample resolve
 *     target, written at the end of the span (of the rendering instance
 *     when merged).
 *   - Read-only depth: depth_read_only tests against a depth an earlier
 *     span wrote (load LOAD) without writing it; with store NONE it is a
 *     pure read, so later read-only spans need not wait for it.
 *
 * Merging. Consecutive spans can share one rendering instance (Vulkan's
 * VK_KHR_dynamic_rendering_local_read): the later one reads what the
 * earlier rendered through input attachments, after a by-region barrier,
 * so a tile GPU keeps the data on chip (and an attachment whose every use
 * lies in the instance needs no memory: see rg_transient). Compile merges
 * span S into the instance of the span P right before it when:
 *   - S reads an attachment P's instance rendered, pixel-locally
 *     (RG_USAGE_PIXEL_LOCAL_READ); every other access of S to what the
 *     instance touches is a read both do in one layout, or S continuing
 *     the same attachment (same view and layout, load LOAD);
 *   - the render areas and layer counts are equal, and so are the sample
 *     counts (more than one only with the device's
 *     dynamicRenderingLocalReadMultisampledAttachments);
 *   - S has no depth/stencil attachment or the instance's (same view,
 *     same read-only flag, load LOAD); depth/stencil is read as an input
 *     attachment only with dynamicRenderingLocalReadDepthStencilAttachments;
 *   - no span before S in the instance resolves (resolves run at the end
 *     of the instance), and the instance's color attachments and S's input
 *     attachments fit the device's limits.
 * Where the dependencies allow, the order moves independent work out from
 * between P and S to make them adjacent. Between merged spans the graph
 * records one by-region barrier and sets the attachment locations and
 * input-attachment indices of the next span; attachments read as input
 * attachments stay in RENDERING_LOCAL_READ layout for the whole instance.
 * The instance begins with the first span's begin_rendering: it loads
 * each attachment as the first span that names it says, and stores it as
 * the last says, except a created texture whose every use lies in the
 * instance, whose contents nothing can read afterwards: it is discarded
 * (and so can be transient). rg_merge_get says, for every pair of spans
 * that could merge, whether they did and why not.
 *
 * Whether to merge (rg_graph_desc.merge): AUTO follows the device's driver
 * (rg_merge_by_default); ON and OFF force it, where the device can. After
 * compile, rg_command_get_rendering gives the rendering state each draw's
 * pipeline must be built against (the instance's formats, this span's
 * attachment locations and input indices, and a key that changes with
 * them), and rg_command_get_local_read how each pixel-local read reads.
 *
 *   rg_begin_rendering(g, &(rg_rendering_desc){ .name = "gbuffer", .color_count = 2,
 *       .colors = { { .texture = albedo, .load = VK_ATTACHMENT_LOAD_OP_CLEAR },
 *                   { .texture = normal, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } },
 *       .depth = { .texture = depth, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } });
 *   rg_cmd_user(g, &(rg_user_desc){ .name = "scene", .kind = RG_COMMAND_DRAW, .record = draw_scene });
 *   rg_end_rendering(g);
 *   rg_begin_rendering(g, &(rg_rendering_desc){ .name = "lighting", .color_count = 1,
 *       .colors[0] = { .texture = hdr, .load = VK_ATTACHMENT_LOAD_OP_CLEAR } });
 *   rg_command lights = rg_cmd_user(g, &(rg_user_desc){ .name = "lights", .kind = RG_COMMAND_DRAW,
 *       .record = draw_lights, .access_count = 2, .accesses = (rg_access[]){
 *           { .texture = albedo, .usage = RG_USAGE_PIXEL_LOCAL_READ },
 *           { .texture = normal, .usage = RG_USAGE_PIXEL_LOCAL_READ } } });
 *   rg_end_rendering(g);
 *   rg_compile(g);                          // merges the two where the driver keeps them on chip
 *   rg_command_rendering rs;
 *   rg_command_get_rendering(g, lights, &rs);   // build the lighting pipeline for rs.key
 */

/* One attachment view: one mip, explicit layers (no REMAINING). */
typedef struct rg_attachment {
    rg_texture texture;
    uint32_t mip;
    uint32_t base_layer, layer_count; /* layer_count 0 = 1 */
    /* 0 = LOAD, which reads: of a created texture, only what an earlier
     * command wrote (see "Reads"); CLEAR and DONT_CARE skip the read. */
    VkAttachmentLoadOp load;
    /* 0 = STORE. STORE and DONT_CARE write the attachment even when it is
     * read-only (rg_rendering_desc.depth_read_only), as Vulkan defines
     * them: a read-only depth that only LOADs and stores NONE is a pure
     * read, which later read-only spans need not wait for. */
    VkAttachmentStoreOp store;
    VkClearValue clear;
    rg_texture resolve;               /* optional single-sample target */
    uint32_t resolve_mip, resolve_layer;
    /* Color: AVERAGE for float formats, SAMPLE_ZERO for integer ones (the
     * only modes Vulkan allows; 0 picks it). Depth/stencil: 0 =
     * SAMPLE_ZERO, or MIN or MAX where the device offers them (checked at
     * placement). */
    VkResolveModeFlagBits resolve_mode;
} rg_attachment;

typedef struct rg_rendering_desc {
    const char *name;
    rg_attachment colors[RG_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;
    rg_attachment depth;              /* texture.id == 0: none; stencil follows the format */
    bool depth_read_only;
    /* Zero extent: the attachments' extent, which must then be the same
     * for all (else RG_ERROR_EXTENT_MISMATCH naming the span and two
     * attachments); given, it must fit every attachment (RG_ERROR_BAD_RANGE). */
    VkRect2D area;
} rg_rendering_desc;

/* Open and close a span; both return their command (the begin's names the
 * span in queries). Declaration calls: the 0 handle on a mistake, the
 * error kept (see "Errors"). At execute, vkCmdBeginRendering is followed
 * by a viewport and a scissor covering the render area: draws that want
 * those need not set them. */
rg_command rg_begin_rendering(rg_graph *graph, const rg_rendering_desc *desc);
rg_command rg_end_rendering(rg_graph *graph);

/* Whether AUTO merges spans on a driver. On: the tile GPUs whose drivers
 * keep local reads on chip (VK_DRIVER_ID_ARM_PROPRIETARY,
 * QUALCOMM_PROPRIETARY, IMAGINATION_PROPRIETARY, MESA_TURNIP,
 * MESA_PANVK): keeping a G-buffer on chip saves about 55% of the bandwidth
 * on Mali (Khronos Vulkan-Samples "subpasses") and gave Arm's deferred demo
 * +30% frame rate with -80% bandwidth on a Galaxy S7. Off: desktop GPUs,
 * which have no tile memory to keep it in (Blender measured local read
 * about 20% slower than separate passes on NVIDIA, AMD and Intel and
 * enables it on Qualcomm only; benchmarks/README.md has this graph's H200
 * figure), CPU devices, and MoltenVK, which restarts the Metal render pass
 * at every local-read barrier (storing every attachment and giving
 * input-attachment images real memory), so merging saves nothing there.
 * Under MoltenVK, forced on, an attachment used on both sides of a
 * local-read barrier is never made transient: its memoryless contents
 * would be discarded at the restart. */
RG_EXPERIMENTAL bool rg_merge_by_default(VkDriverId driver);

/* The rendering state a draw's pipeline must be built against, after
 * compile (VkPipelineRenderingCreateInfo and, when merged, the chained
 * VkRenderingAttachmentLocationInfoKHR and
 * VkRenderingInputAttachmentIndexInfoKHR). Arrays are per color attachment
 * of the rendering instance. A draw of a span that was not merged gets its
 * span's own attachments, locations 0..n-1 and no input indices. key
 * hashes every field but the instance: a pipeline built for one key is
 * valid wherever rg_command_get_rendering returns that key, and only there
 * (a different merge decision gives a different key), so keep pipelines
 * by it. */
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

/* The rendering state of a command of a span (a draw, the begin, the
 * end), after compile. RG_ERROR_NOT_COMPILED before compile;
 * RG_ERROR_INVALID_ARGUMENT for a command outside spans; RG_ERROR_CULLED
 * (not logged: an answer, not a failure) for a culled one, which needs no
 * pipeline. */
RG_EXPERIMENTAL rg_result rg_command_get_rendering(const rg_graph *graph, rg_command command,
                                                   rg_command_rendering *out);

/* How a pixel-local read (RG_USAGE_PIXEL_LOCAL_READ) of a command reads its
 * texture, after compile. Merged: through an input attachment (subpassLoad;
 * a VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT descriptor of the texture's view in
 * RENDERING_LOCAL_READ layout) whose InputAttachmentIndex is input_index:
 * the i-th distinct texture the span's draws read pixel-locally (in
 * declaration order) is index i. Otherwise: a sampled read (texelFetch) in
 * SHADER_READ_ONLY_OPTIMAL layout. */
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

/* The merge candidates after compile (0 before). rg_merge_get:
 * RG_ERROR_NOT_COMPILED before compile, RG_ERROR_INVALID_ARGUMENT for an
 * index past the count. */
RG_EXPERIMENTAL uint32_t rg_merge_count(const rg_graph *graph);
RG_EXPERIMENTAL rg_result rg_merge_get(const rg_graph *graph, uint32_t index, rg_merge_info *out);

/* ===== 8. Transfers ===== */

/* Built-in commands for copies, clears and blits, outside spans (inside
 * one they are RG_ERROR_TRANSFER_IN_SPAN). Each declares its own accesses
 * (TRANSFER_SRC, TRANSFER_DST), so the graph orders and synchronizes it
 * like any command; each returns its command handle, or 0 with the error
 * kept (declaration calls: see "Errors").
 *   - Texture formats are any core format but the multi-planar ones
 *     (refused at rg_texture_create).
 *   - Buffer <-> texture copies move a whole mip of one aspect: a texture
 *     with both depth and stencil is copied one aspect at a time through
 *     the _aspect variants (the others refuse it); the buffer holds the
 *     tightly packed texel blocks (compressed formats by block; per aspect
 *     rg_format_copy_size's bytes, so D24S8's depth takes 4 and its stencil
 *     1) at an offset that is a multiple of the block size (4 for
 *     depth/stencil).
 *   - Clears are color or depth/stencil clears of a range; block-compressed
 *     formats cannot be cleared.
 *   - Blits follow vkCmdBlitImage's format rules (depth: same format and
 *     NEAREST; integers: NEAREST, signed only to signed); a blit within one
 *     texture goes between two different mips.
 *   - Device format features are checked at placement (RG_ERROR_UNSUPPORTED).
 *   - A copy or a color clear may run on another queue
 *     (rg_command_allow_queue; see "Queues").
 *
 *   rg_command clear = rg_cmd_clear_texture(g, counters, NULL, &(VkClearValue){ .color.uint32 = { 0 } });
 *   rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);        // async compute may run it
 *   rg_cmd_blit(g, bloom, 0, bloom, 1, VK_FILTER_LINEAR);      // mip 0 into mip 1
 *   rg_cmd_copy_texture_to_buffer(g, hdr, 0, 0, 1, readback, 0);   // mip 0, layer 0 to an import
 */

/* size bytes from src at src_offset to dst at dst_offset. */
rg_command rg_cmd_copy_buffer(rg_graph *graph, rg_buffer src, VkDeviceSize src_offset, rg_buffer dst,
                              VkDeviceSize dst_offset, VkDeviceSize size);
/* Whole mip level `mip`, layers [layer, layer + layer_count). */
rg_command rg_cmd_copy_buffer_to_texture(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                         uint32_t mip, uint32_t layer, uint32_t layer_count);
rg_command rg_cmd_copy_texture_to_buffer(rg_graph *graph, rg_texture src, uint32_t mip, uint32_t layer,
                                         uint32_t layer_count, rg_buffer dst, VkDeviceSize offset);
/* The same for one aspect: VK_IMAGE_ASPECT_DEPTH_BIT or _STENCIL_BIT of
 * a depth+stencil texture, or any single aspect the format has; 0 = the
 * format's aspects, as above. Another aspect is RG_ERROR_INVALID_ARGUMENT.
 * Barriers cover both aspects (see rg_range). */
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
/* Makes a command eligible for a queue (see "Queues"): built-in copies
 * for RG_QUEUE_COMPUTE or RG_QUEUE_TRANSFER, clears of color textures for
 * RG_QUEUE_COMPUTE (blits, depth/stencil clears and copies of depth/stencil
 * textures need the graphics queue, as Vulkan says; on RG_QUEUE_TRANSFER a
 * buffer/texture copy's buffer offset must be a multiple of 4); a user
 * command as rg_user_desc.queue says. A declaration error for another
 * command or queue; RG_QUEUE_GRAPHICS makes the command graphics-only
 * again. */
void rg_command_allow_queue(rg_graph *graph, rg_command command, rg_queue queue);

/* ===== 9. Compile ===== */

/* rg_compile turns the declaration into an execution order and its
 * barriers, without a device: it contracts each span into one node,
 * builds the hazard DAG from the declared accesses (per subresource),
 * culls what reaches nothing observable, refuses reads of nothing, orders
 * the nodes, merges spans, decides which textures are transient, finds
 * each resource's lifetime, assigns queues and batches, and plans the
 * synchronization2 barriers. Its errors are kept (see "Errors"). After it,
 * the queries below, rg_command_get_rendering, the batches (section 11)
 * and the reports (section 15) answer; placement (section 10) comes next.
 *
 * Culling. A command whose results reach nothing observable is not
 * recorded, and a created resource only such commands use is not created.
 * The graph judges a command by what it declares: its results are its
 * declared writes, and a draw's include its span's attachments, which the
 * span declares for it. Observable:
 *   - a write to an import (a swapchain image, a readback buffer, a
 *     persistent texture) or to a history texture's current (the next
 *     frame reads it);
 *   - a command declared with side effects (rg_user_desc.side_effects:
 *     queries, writes through descriptors the graph does not see);
 *   - a command that declares nothing at all, not even through a span (a
 *     timestamp, a label outside spans): the graph cannot see what it
 *     does, so it keeps it;
 *   - and every command whose writes those read, transitively.
 * So a command that declares reads but no write is culled, and a draw
 * without accesses of its own (a fullscreen pass, geometry from buffers
 * the graph does not track) keeps its span only where something reads the
 * attachments (declare side_effects for one that writes what the graph
 * cannot see). A span is culled whole or kept whole. Each culled command
 * (a span: its begin) is an INFO notice in the log (rg_log_fn) saying why:
 * "command 'ssao' is culled: nothing observable reads 'ao raw'", or
 * "...: it declares no write"; rg_command_get_info says which commands
 * were culled (the memory report and the DOT show them);
 * rg_graph_desc.no_culling keeps everything.
 *
 * Reads. Since a created resource keeps nothing between frames, a read of
 * a created texture's subresource (aspect, mip, layer) or of a created
 * buffer that no earlier command of the declaration writes would see
 * stale bytes: rg_compile fails with RG_ERROR_READ_BEFORE_WRITE naming the
 * reading command (or span), the resource and the subresource ("command
 * 'ssao blur' reads texture 'ao raw' (mip 0, layer 0), which no earlier
 * command of the frame writes": the pass before forgot to declare its
 * write).
 *   - A read is any access that is not write-only (a read-write storage
 *     access reads what was there before the command), and an attachment
 *     loaded with LOAD, which is rg_attachment.load's default: load CLEAR
 *     or DONT_CARE what nothing wrote before.
 *   - A span writes its attachments (a read-only depth LOADs what an
 *     earlier prepass wrote) and its resolve targets.
 *   - Not reads of nothing: imports and a history texture's previous half
 *     (their contents come from outside the frame), and an access with
 *     rg_access.undefined_ok, for the command that wants whatever is there.
 *   - Writers count whether culled or not: the check is of the
 *     declaration (a kept reader keeps its writers anyway).
 *
 * Order. The execution order respects every hazard; among valid orders
 * rg_graph_desc.order chooses (rg_order). The default, RG_ORDER_MEMORY,
 * compares the peak of estimated live bytes of five candidate orders and
 * keeps the lowest. The estimate is each created, pooled resource's size
 * from its description (texel blocks of every mip and layer times samples;
 * a buffer's size; imports and history textures count nothing, since the
 * order does not change their memory), live from its first use to its
 * last; the device's requirements come only at placement. The list
 * schedules look at 32 ready nodes (commands or spans) at most per step,
 * so compile stays linear in the graph's size, and everything is
 * deterministic. Spans stay contiguous, and merge candidates are then made
 * adjacent (see "Merging"). RG_ORDER_BATCHES and RG_ORDER_DECLARATION are
 * for measurements and tests.
 *
 * Transient attachments. A created texture whose contents never outlive
 * one rendering instance gets TRANSIENT_ATTACHMENT usage (rg_transient):
 * its uses are attachments of one instance, which loads it by CLEAR or
 * DONT_CARE and discards it (a merged instance discards a created texture
 * nothing else uses), and the input-attachment reads merged into that
 * instance. Placement then gives it lazily allocated memory where the
 * device has it (section 10). History textures are never transient; under
 * MoltenVK, whose input-attachment images get real memory, AUTO never
 * makes an input-attachment texture transient.
 *
 * Barriers. rg_barrier_get lists the barriers, sorted by the point they
 * are recorded at. After rg_compile: the frame's barriers as if no two
 * resources shared memory. After placement (rg_place, rg_place_offline,
 * or the first rg_execute): those plus what aliasing needs (a pooled
 * resource's first use waits for the last uses of the resources that held
 * its bytes). After placement, this list is exactly what rg_execute
 * records: one vkCmdPipelineBarrier2 per point, memory barriers folded
 * into one, and a buffer whose memory is pooled (or an unused import
 * without its object) synchronized by a memory barrier; the first
 * rg_execute after a placement records before them the clear of history
 * textures' previous halves (see "History").
 *
 *   if (rg_compile(g) != RG_SUCCESS)
 *       return fail(rg_graph_error_message(g));      // kept until rg_graph_reset
 *   const rg_command *order;
 *   for (uint32_t i = 0, n = rg_execution_order(g, &order); i < n; i++) {
 *       rg_command_info ci;
 *       rg_command_get_info(g, order[i], &ci);
 *       printf("%2u %-24s on %s\n", i, ci.name, rg_queue_name(ci.queue));
 *   }
 */

/* Compiles the declaration (see above). Device-free. Returns the kept
 * error of a FAILED graph, or the compile error it now keeps. Compiling an
 * unchanged declaration again returns at once; compiling a changed one
 * frees the previous placement (see "Placement and the GPU"). */
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
    RG_COMMAND_TYPE_COPY_BUFFER,
    RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE,
    RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER,
    RG_COMMAND_TYPE_CLEAR,
    RG_COMMAND_TYPE_BLIT,
    RG_COMMAND_TYPE_BEGIN_RENDERING,
    RG_COMMAND_TYPE_END_RENDERING,
} rg_command_type;

typedef struct rg_command_info {
    const char *name;                 /* valid while the graph's declaration is */
    rg_command_type type;
    rg_command_kind kind;             /* user commands */
    uint32_t index;                   /* place in record order, from 0 */
    uint32_t span;                    /* its span (rg_span_get_rendering), or RG_INDEX_NONE */
    rg_record_fn record;              /* user commands: as declared */
    void *user;
    bool culled;                      /* not recorded: nothing observable reads its
                                         results (see "Culling") */
    rg_queue queue;                   /* the queue it runs on (see "Queues") */
    uint32_t batch;                   /* its batch (rg_batch_get); RG_INDEX_NONE when culled */
} rg_command_info;

/* RG_ERROR_NOT_COMPILED before compile; RG_ERROR_INVALID_HANDLE for a
 * stale, foreign or 0 handle. */
rg_result rg_command_get_info(const rg_graph *graph, rg_command command, rg_command_info *out);

typedef struct rg_barrier_info {
    rg_command before;                /* recorded right before this command; 0: after
                                         the last one (the imports' final state) */
    bool hoisted;                     /* moved before the span's (or its merged
                                         instance's) begin_rendering */
    bool by_region;                   /* between two merged spans, inside their
                                         rendering instance: recorded with
                                         VK_DEPENDENCY_BY_REGION_BIT */
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

/* rg_place puts the compiled graph on its device: it checks what the
 * device offers for it (formats with their usages, sample counts, blits,
 * resolve modes, local read for merged spans, the queues the graph runs
 * on), plans memory, creates the images, buffers and memory and binds
 * them, makes the attachment views and the queues' timeline semaphores
 * (and with timings on, the query pools), and plans the barriers again
 * with aliasing (rg_barrier_get). The first rg_execute after a compile
 * places the graph when the application has not.
 *
 * Memory. Each created, used resource gets one of three kinds of memory
 * (rg_memory_kind):
 *   - RG_MEMORY_LAZY: a transient texture (see "Transient attachments") on
 *     a LAZILY_ALLOCATED memory type, its own allocation: on a tile GPU it
 *     lives in tile memory and takes no RAM (MoltenVK: Metal memoryless).
 *     Only transient attachments may take such a type
 *     (rg_choose_memory_type); where the device has none, a transient
 *     texture is placed like any other.
 *   - RG_MEMORY_DEDICATED: its own allocation, where the driver requires
 *     one (a mere preference is not followed: NVIDIA prefers one for every
 *     MSAA attachment, which would give up the saving), and for history
 *     textures.
 *   - RG_MEMORY_POOLED: a range of a shared pool (one per memory type and
 *     class: images and buffers never share a pool), where it may share
 *     bytes with others (aliasing).
 * Aliasing: two pooled resources share bytes only when every use of one
 * happens before every use of the other. By default, being apart in the
 * execution order is enough: the alias barrier the graph records (the
 * second's first use waits for the first's last uses) makes that order a
 * happens-before, at the cost of the GPU overlapping the two.
 * rg_graph_desc.alias_proven_only shares only what the declared
 * dependencies already order, and rg_graph_desc.no_aliasing nothing. On
 * several queues see "Queues". The pools' memory may come from the
 * application's allocator (rg_pool_memory).
 *
 * rg_place_offline makes the same plan without a device, from memory
 * requirements the application gives (tools, tests, what-if reports).
 *
 * Placement and the GPU. A compile of a changed declaration,
 * rg_graph_reset and rg_graph_destroy free the placement (images,
 * buffers, views, memory, rg_pool_memory ranges, semaphores, query pools),
 * and the library never waits for the GPU: the objects are retired to the
 * rg_device, which destroys them once the frames that may use them have
 * finished.
 *   - They wait for the graph's own timeline semaphores at the values its
 *     last rg_submit signalled, and for the retire point the application
 *     named (rg_graph_set_retire_point: a timeline value or a fence that
 *     its submission of the graph's latest frame signals); both when both
 *     are known.
 *   - Whether they have signalled is asked, never waited for, at every
 *     rg_graph_create, rg_graph_destroy, rg_graph_reset, rg_place,
 *     rg_execute and rg_execute_batches on that device and at
 *     rg_device_collect.
 *   - A frame recorded by rg_execute (or rg_execute_batches, or in
 *     chunks) into command buffers the application submits itself is
 *     covered only once the application names what that submission
 *     signals: rg_graph_set_retire_point after each submission. A
 *     placement freed while frames recorded since the last rg_submit or
 *     retire point are uncovered is held until rg_device_destroy (the
 *     GPU may still be using it), and the log says so with a WARNING the
 *     first time, naming the graph and the call that freed it. After
 *     waiting for the GPU (its fences, or vkDeviceWaitIdle), calling
 *     rg_graph_set_retire_point with no handles says that nothing is in
 *     flight: the next placement freed is destroyed at once. So are
 *     those of a placement that never reached the GPU (offline, or undone
 *     by a failure) and the query pools rg_graph_set_timings turns off.
 *   - rg_device_destroy destroys whatever is still held: by then the
 *     application has waited for the device, as vkDestroyDevice requires.
 *   - A fence named as a retire point must not be reset while objects wait
 *     for it (a timeline value needs no such care).
 *
 *   if (rg_place(g) != RG_SUCCESS)                   // e.g. a format the device lacks
 *       return fail(rg_graph_error_message(g));      // names the texture or command
 *   rg_memory_totals t = rg_memory_get_totals(g);
 *   printf("pools %llu bytes (%llu unaliased), lazy %llu\n", (unsigned long long)t.pooled,
 *          (unsigned long long)t.unaliased, (unsigned long long)t.lazy);
 *   if (rg_texture_memory(g, msaa_depth, NULL, NULL) == RG_MEMORY_LAZY)
 *       puts("the MSAA depth lives in tile memory");
 *   // a renderer that submits rg_execute's command buffer itself, after each submit:
 *   rg_graph_set_retire_point(g, frame_timeline, frame_value, VK_NULL_HANDLE);
 */

/* Where a resource's memory comes from, once placed. */
typedef enum rg_memory_kind {
    RG_MEMORY_NOT_CREATED = 0,        /* created but never used: not made at all */
    RG_MEMORY_IMPORTED,
    RG_MEMORY_LAZY,                   /* own LAZILY_ALLOCATED allocation (tile memory) */
    RG_MEMORY_DEDICATED,              /* own allocation: the driver requires one, or a
                                         history texture */
    RG_MEMORY_POOLED,                 /* a range of a shared pool, maybe aliased */
} rg_memory_kind;

typedef struct rg_memory_totals {
    VkDeviceSize pooled;              /* sum of pool sizes, alignment padding included */
    VkDeviceSize unaliased;           /* the pools' sizes were every pooled resource
                                         given a range of its own: their sizes plus
                                         the padding their alignments need; equal to
                                         pooled under rg_graph_desc.no_aliasing */
    VkDeviceSize padding;             /* the padding unaliased includes */
    VkDeviceSize lower_bound;         /* most pooled bytes live at one point of the
                                         execution order, summed over pool classes;
                                         sizes only, no padding: no placement can
                                         pool less */
    VkDeviceSize lazy;                /* requested from lazily allocated types */
    VkDeviceSize dedicated;
    uint32_t pools;
} rg_memory_totals;

/* Places the compiled graph on its device (see above). What the device
 * lacks is RG_ERROR_UNSUPPORTED naming the texture or command, found
 * before anything is created; RG_ERROR_NOT_COMPILED before compile,
 * RG_ERROR_INVALID_ARGUMENT for a graph without a device; out of memory
 * and Vulkan failures name the object. A failure frees whatever it made;
 * the graph stays compiled. Placing an already placed graph returns at
 * once. */
rg_result rg_place(rg_graph *graph);

/* Plans placement without a device from recorded memory requirements, as a
 * device would report them: for tools, tests and what-if reports. The graph
 * must be compiled. requirements(user, name, is_texture,
 * index, &size, &alignment, &type_bits, &dedicated) is called per created,
 * used resource; index is its place among all declared textures and buffers
 * (declaration order, from 0); returning false fails with RG_ERROR_CALLBACK.
 * The barriers are planned with its aliasing, as rg_place's are. Doing it
 * again replaces the previous plan (same inputs, same result); a graph
 * whose memory rg_place made is refused (RG_ERROR_INVALID_ARGUMENT). A
 * compile of a changed declaration drops the plan, and rg_execute replaces
 * it with a device placement. */
typedef bool (*rg_requirements_fn)(void *user, const char *name, bool is_texture, uint32_t index,
                                   VkDeviceSize *size, VkDeviceSize *alignment, uint32_t *type_bits,
                                   bool *dedicated);
rg_result rg_place_offline(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props,
                           rg_requirements_fn requirements, void *user);

/* Picks a memory type for a resource. Pure: no device needed.
 *   type_bits      VkMemoryRequirements::memoryTypeBits of the resource
 *   required       property flags the type must have (0 = DEVICE_LOCAL)
 *   transient      the resource is an image with TRANSIENT_ATTACHMENT usage
 * A transient image gets the first type with required | LAZILY_ALLOCATED when
 * type_bits offers one, else the first type with the required flags. Anything
 * else never gets a LAZILY_ALLOCATED type (the spec allows lazy memory only
 * for transient attachments). PROTECTED types are skipped unless required.
 * Returns false when no type matches (never a silent index 0). */
bool rg_choose_memory_type(const VkPhysicalDeviceMemoryProperties *props, uint32_t type_bits,
                           VkMemoryPropertyFlags required, bool transient, uint32_t *out_index);

/* After placement (rg_place or rg_place_offline); zeroed before. */
rg_memory_totals rg_memory_get_totals(const rg_graph *graph);
/* Where a resource's memory is, after placement: its kind, and through
 * offset and pool (each may be NULL) its pool and offset there; a pool
 * index is RG_INDEX_NONE unless the kind is RG_MEMORY_POOLED.
 * RG_MEMORY_NOT_CREATED (pool RG_INDEX_NONE) before placement and for an
 * invalid handle. */
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

/* What the application's submission of the graph's latest frame signals:
 * a timeline semaphore reaching value, a fence, or both. A freed
 * placement is destroyed only once it (and the graph's own timelines, for
 * frames rg_submit submitted) has signalled (see "Placement and the
 * GPU"). Kept until set again; a renderer that submits rg_execute's
 * command buffers itself sets it after each submission, or its freed
 * placements are held until rg_device_destroy. Both VK_NULL_HANDLE: no
 * frame of the graph is in flight (the application waited for them).
 * RG_ERROR_INVALID_ARGUMENT for a graph without a device. */
RG_EXPERIMENTAL rg_result rg_graph_set_retire_point(rg_graph *graph, VkSemaphore timeline, uint64_t value,
                                                    VkFence fence);

/* ===== 11. Execute and submit ===== */

/* rg_execute records the placed frame into one command buffer the
 * application began: every barrier, each span's vkCmdBeginRendering and
 * vkCmdEndRendering, the built-in commands, and the record callbacks of
 * the user commands, in the compiled order. A graph on several queues is
 * recorded with rg_execute_batches, one command buffer per batch, and
 * submitted with rg_submit (or by hand from the plan it returns); a
 * single-queue graph may take either road.
 *
 * Queues. By default a graph runs on one queue, the device's graphics
 * queue: rg_execute records the frame into one command buffer, to be
 * submitted in order with the frames before it.
 *
 * Which commands move. A command outside spans may be marked eligible for
 * another queue (rg_user_desc.queue, rg_command_allow_queue):
 *   - RG_QUEUE_COMPUTE (async compute): dispatches, copies, color clears;
 *   - RG_QUEUE_TRANSFER: copies.
 * Compile moves it there when the device has that queue
 * (rg_device_desc.queues, rg_device_caps.compute_queue, transfer_queue)
 * and the graph is not rg_graph_desc.single_queue. It stays on the
 * graphics queue when it touches an import (its state before and after
 * the frame lives on the graphics queue, and its sharing mode is the
 * application's), and rg_queue_note_get says so. History textures may be
 * used on any queue.
 *
 * Batches. Such a graph compiles to batches (rg_batch_get): per queue,
 * runs of its commands in execution order, cut
 *   - where a command needs work of another queue (a hazard, through the
 *     happens-before closure) that its queue has not yet waited for, and
 *   - right after work another queue needs (so it is signalled as soon as
 *     it is done), unless what needs it also needs the queue's next work.
 * Each batch is one submission: it waits on the other queues' timeline
 * semaphores at the values their batches signal, at the pipeline stages
 * of the accesses that need them, and signals its own queue's semaphore
 * when done. The graph keeps one timeline semaphore per queue it uses
 * (made at placement, values counted up frame after frame).
 *
 * Across frames.
 *   - Each non-graphics queue's first batch waits for the graphics queue's
 *     last batch of the frame before (at every stage) or, where such a
 *     queue reads a history texture's previous half, for a graphics batch
 *     without commands that opens the frame (the first frame after a
 *     placement records the history clears there).
 *   - The frame's last batch is a graphics batch without commands that
 *     waits for every other queue's last batch at every stage, so work
 *     before and after the frame, the application's fence, and a present
 *     ordered after the last batch cover the whole frame. The frame's
 *     final transitions (imports' final layouts, history hand-over) are
 *     recorded in that last batch.
 *
 * Resources and barriers on several queues.
 *   - A created resource that commands of more than one queue family use
 *     is made with VK_SHARING_MODE_CONCURRENT over those families (queues
 *     of one family share EXCLUSIVE resources as they are): no ownership
 *     transfers (benchmarks/README.md measures what that costs).
 *   - Barriers are per queue: a barrier recorded on a queue names only its
 *     stages; what another queue did reaches it through a semaphore wait
 *     whose stages include the barrier's source stages.
 *   - Two pooled resources used on different queues share bytes only when
 *     the declared dependencies order every use of one before every use of
 *     the other (as rg_graph_desc.alias_proven_only).
 *
 * Executing. A multi-queue graph (rg_batch_count > 1) is executed with
 * rg_execute_batches, which records each batch into its own command
 * buffer and returns the submission plan (rg_submit submits it to the
 * device's queues); rg_execute refuses it.
 *
 *   VkCommandBuffer cmds[8];                 // one per batch, begun, of its queue's family
 *   uint32_t n = rg_batch_count(g);
 *   for (uint32_t i = 0; i < n; i++) {
 *       rg_batch_info b;
 *       rg_batch_get(g, i, &b);
 *       cmds[i] = begin_command_buffer(b.queue);      // the application's
 *   }
 *   rg_submit_plan plan;
 *   if (rg_execute_batches(g, cmds, &plan) != RG_SUCCESS)
 *       return fail(rg_graph_error_message(g));
 *   for (uint32_t i = 0; i < n; i++)
 *       vkEndCommandBuffer(cmds[i]);
 *   rg_submit(g, &plan, &(rg_submit_desc){ .waits = &acquired, .wait_count = 1,
 *       .signals = &rendered, .signal_count = 1, .fence = frame_fence });
 */

/* A semaphore wait of a batch: the queue's timeline semaphore at the value
 * its batch `batch` (an index for rg_batch_get) signals in this frame, or,
 * with batch RG_INDEX_NONE, at the value of the frame before's last batch
 * on that queue; waited at `stage`. */
typedef struct rg_batch_wait {
    rg_queue queue;
    uint32_t batch;
    VkPipelineStageFlags2 stage;
} rg_batch_wait;

/* One submission of the frame (see "Queues"), after compile; batches are
 * numbered in submission order: every batch a batch waits for comes
 * before it. Its commands are those of its queue at execution-order
 * positions first..last (rg_execution_order), culled ones excepted. Its
 * signal is the number of batches its queue has up to it, itself
 * included (the timeline value it signals is the frame's base plus it). */
typedef struct rg_batch_info {
    rg_queue queue;
    uint32_t first, last;             /* execution-order positions, inclusive; first is
                                         RG_INDEX_NONE (> last) when the batch has no
                                         commands (the frame's final transitions only) */
    uint32_t wait_count;
    rg_batch_wait waits[RG_QUEUE_COUNT];
    uint64_t signal;
} rg_batch_info;

/* The frame's batches after compile: 1 for a single-queue graph, 0 before
 * compile. rg_batch_get: RG_ERROR_NOT_COMPILED before compile,
 * RG_ERROR_INVALID_ARGUMENT for an index past the count. */
uint32_t rg_batch_count(const rg_graph *graph);
rg_result rg_batch_get(const rg_graph *graph, uint32_t batch, rg_batch_info *out);

/* An eligible command that stayed on the graphics queue, and why (naming
 * the import or history texture); reasons are valid until the next
 * compile. Nothing is noted where the device lacks the queue or the graph
 * is single_queue. */
typedef struct rg_queue_note {
    rg_command command;
    rg_queue eligible;
    const char *reason;
} rg_queue_note;

/* The notes after compile (0 before). rg_queue_note_get:
 * RG_ERROR_NOT_COMPILED before compile, RG_ERROR_INVALID_ARGUMENT for an
 * index past the count. */
uint32_t rg_queue_note_count(const rg_graph *graph);
rg_result rg_queue_note_get(const rg_graph *graph, uint32_t index, rg_queue_note *out);

/* Records the compiled frame into cmd (which must be recording, on the
 * device's queue family), placing the graph first when it is not placed.
 * RG_ERROR_INVALID_ARGUMENT for a graph on several queues
 * (rg_execute_batches); RG_ERROR_CALLBACK when a record callback fails.
 * No heap allocation per frame after the first execute (an import
 * rendered into at a mip or some layers gets a view made the first time
 * each of its images is seen). An error never leaves a rendering instance
 * open in cmd. */
rg_result rg_execute(rg_graph *graph, VkCommandBuffer cmd);

/* A frame's submissions (see "Queues"): per batch, in order, its queue and
 * command buffer, and the semaphore waits and signal to submit it with
 * (VkSubmitInfo2's pWaitSemaphoreInfos and pSignalSemaphoreInfos). Valid
 * until the next rg_execute_batches or change of the graph. */
typedef struct rg_submission {
    rg_queue queue;
    VkQueue vk_queue;                 /* the device's queue of that kind */
    VkCommandBuffer cmd;              /* the first of cmds */
    /* The batch's command buffers, submitted in this order in one
     * VkSubmitInfo2: one, or its chunks' ("Parallel recording"). */
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

/* Records the frame into cmds[0 .. rg_batch_count - 1], batch i into
 * cmds[i], each recording and made for its batch's queue family (the
 * application begins and ends them), placing the graph first when it is
 * not placed, and fills *plan. Every plan must be submitted, in order and
 * whole, before the next rg_execute_batches (the timeline values count
 * on): submit it with rg_submit or by hand with vkQueueSubmit2. A
 * single-queue graph records into cmds[0] exactly what rg_execute would,
 * and its plan is one submission signalling the graphics timeline. The
 * first batch's waits cover the frame before; see "Queues". Fails as
 * rg_execute does (a NULL cmds[i] is RG_ERROR_INVALID_ARGUMENT). */
rg_result rg_execute_batches(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan);

/* What the application adds to a plan's submissions. */
typedef struct rg_submit_desc {
    /* Added to the first batch on the graphics queue (a swapchain image's
     * acquire semaphore, at COLOR_ATTACHMENT_OUTPUT). */
    const VkSemaphoreSubmitInfo *waits;
    uint32_t wait_count;
    /* Added to the last batch (on the graphics queue): a present's
     * semaphore. */
    const VkSemaphoreSubmitInfo *signals;
    uint32_t signal_count;
    VkFence fence;                    /* signalled by the last batch, or VK_NULL_HANDLE */
} rg_submit_desc;

/* Submits a plan from rg_execute_batches in order (vkQueueSubmit2, one
 * call per batch) on the device's queues, which must not be used by
 * another thread meanwhile. desc may be NULL; it adds at most 16 waits
 * and 16 signals. RG_ERROR_INVALID_ARGUMENT for a NULL plan, a count
 * without its array or a graph without a device; RG_ERROR_VULKAN (or
 * RG_ERROR_OUT_OF_MEMORY) names the batch and the result. */
rg_result rg_submit(rg_graph *graph, const rg_submit_plan *plan, const rg_submit_desc *desc);

/* Parallel recording. A frame can be recorded on many threads: the graph
 * cuts each batch's part of the execution order into contiguous chunks of
 * about equal cost (rg_user_desc.cost; 1 per user command, 1 per transfer,
 * 0 for a span's begin and end), and each chunk is recorded into its own
 * primary command buffer. The library starts no threads: the application's
 * job system calls rg_execute_chunk, or rg_workers runs the chunks on a few
 * threads it keeps (POSIX threads; Win32 threads on Windows).
 *
 *   uint32_t n;
 *   rg_execute_begin(g, &(rg_execute_desc){ .max_chunks = 8 }, &n);
 *   for (uint32_t i = 0; i < n; i++)                // on any threads at once
 *       rg_execute_chunk(g, i, cmds[i]);            // cmds[i] begun, own pool
 *   rg_submit_plan plan;
 *   if (rg_execute_end(g, cmds, &plan) == RG_SUCCESS)
 *       rg_submit(g, &plan, &submit);               // the chunks in order
 *
 * Concatenated in chunk order, the chunks hold exactly what rg_execute_batches
 * records: the same barriers, rendering begins and ends, callbacks and
 * labels, in the same order. Where a chunk boundary cuts a rendering
 * instance, the instance is suspended at the end of the one chunk
 * (VK_RENDERING_SUSPENDING_BIT, then vkCmdEndRendering) and resumed at the
 * start of the next (vkCmdBeginRendering with the same info and
 * VK_RENDERING_RESUMING_BIT, the render area as viewport and scissor, and
 * a merged span's local-read state); the batch's and the span's debug
 * labels close at the one and open again at the next. Chunks of one batch
 * must be submitted in order in one batch (rg_submission.cmds does so):
 * nothing may come between a suspended instance and its resumption.
 *
 * The contract:
 *   - Between rg_execute_begin and rg_execute_end, rg_execute_chunk may run
 *     at once on different threads for different chunks, each chunk once.
 *     Its command buffer must come from a pool no other thread uses
 *     meanwhile (a pool per thread or per chunk, reset each frame).
 *   - Record callbacks of different chunks run at once. A callback may
 *     touch its own command buffer, its record context, the rg_record_*
 *     functions and the const queries of the graph (their messages go to
 *     the chunk, and the first failed chunk's to the graph at
 *     rg_execute_end), and what it owns. It must not count on state
 *     another callback set (a pipeline, descriptors, push constants): the
 *     two may be in different command buffers. Each span's (and each
 *     resumed chunk's) render area is set as the viewport and scissor.
 *   - Nothing else may change the graph meanwhile (declaration, compile,
 *     placement, per-frame setters, rg_execute, another rg_execute_begin).
 * A frame allocates nothing once the graph has been executed with the same
 * max_chunks (or fewer chunks) since its placement.
 * The validation layers 1.3.239 and 1.4.309 report
 * VUID-VkSubmitInfo2-commandBuffer-06192 for valid use: their
 * vkQueueSubmit2 check reads a command buffer that resumes an instance and
 * suspends it again (an instance cut into three chunks or more) as not
 * suspending it. The engine's message callback counts it as info. */
RG_EXPERIMENTAL typedef struct rg_execute_desc {
    /* How many chunks to aim for over the whole frame, at most 256 per
     * batch; each batch gets at least one, and a chunk at least one
     * command. 0: one per batch, which records what rg_execute_batches
     * records. */
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

/* Begins a frame recorded in chunks: places the graph when it is not
 * placed, binds the frame's imports, swaps history, and cuts the frame
 * into *chunk_count chunks (desc may be NULL). Fails as rg_execute does
 * before recording; RG_ERROR_INVALID_ARGUMENT while a frame is begun. */
RG_EXPERIMENTAL rg_result rg_execute_begin(rg_graph *graph, const rg_execute_desc *desc, uint32_t *chunk_count);

/* The chunks of the frame begun (RG_ERROR_INVALID_ARGUMENT outside one or
 * for an index past the count). */
RG_EXPERIMENTAL rg_result rg_chunk_get(const rg_graph *graph, uint32_t chunk, rg_chunk_info *out);

/* Records chunk `chunk` into cmd (recording, of the chunk's queue family).
 * Thread-safe for different chunks of the begun frame (see the contract
 * above). RG_ERROR_CALLBACK when a record callback fails: the chunk ends
 * any rendering instance and label it opened, and rg_execute_end fails the
 * frame with the callback's message. RG_ERROR_INVALID_ARGUMENT for no
 * begun frame, an index past the count, a chunk recorded twice or a NULL
 * cmd. */
RG_EXPERIMENTAL rg_result rg_execute_chunk(rg_graph *graph, uint32_t chunk, VkCommandBuffer cmd);

/* Ends the frame: every chunk must have been recorded, cmds[i] being chunk
 * i's command buffer. Fills *plan as rg_execute_batches does, each batch
 * listing its chunks' command buffers in order; plan may be NULL for a
 * single-queue graph, whose chunks the application submits in order
 * itself, as after rg_execute. A failed chunk (or one not recorded) fails
 * the frame with its message: the history and the timelines stay as they
 * were, and the frame must not be submitted. The frame is over either
 * way. */
RG_EXPERIMENTAL rg_result rg_execute_end(rg_graph *graph, const VkCommandBuffer *cmds, rg_submit_plan *plan);

/* A few threads kept for rg_workers_execute, for applications without a
 * job system. */
typedef struct rg_workers rg_workers;

RG_EXPERIMENTAL typedef struct rg_workers_desc {
    /* Threads recording, the calling thread included: thread_count - 1
     * are started. 0: 1 (everything on the calling thread). */
    uint32_t thread_count;
} rg_workers_desc;

/* Starts the threads (POSIX threads, Win32 threads on Windows; the only
 * threads the library starts).
 * RG_ERROR_OUT_OF_MEMORY when memory or a thread cannot be had. */
RG_EXPERIMENTAL rg_result rg_workers_create(const rg_workers_desc *desc, rg_workers **out);

/* Stops and joins the threads; NULL is accepted. Not during a
 * rg_workers_execute. */
RG_EXPERIMENTAL void rg_workers_destroy(rg_workers *workers);

/* Records every chunk of the frame begun with rg_execute_begin, chunk i
 * into cmds[i], on the workers' threads and the calling one, and returns
 * when all are done: RG_SUCCESS, or the first failed chunk's result (then
 * rg_execute_end fails the frame). Allocates nothing. One graph at a time
 * per rg_workers. */
RG_EXPERIMENTAL rg_result rg_workers_execute(rg_workers *workers, rg_graph *graph, const VkCommandBuffer *cmds);

/* ===== 12. Recording ===== */

/* A record callback (rg_record_fn) gets a record context: the command
 * buffer to record into, and the Vulkan objects and descriptors of what
 * its command declared, as the graph placed them for this frame. Ask at
 * every execute: an import's objects change per frame, and a history
 * texture's two images alternate.
 *
 * Declared only. rg_record_image, rg_record_view and rg_record_buffer hand
 * out a resource the command being recorded declared: one of its
 * accesses, or for a draw an attachment of its span. Anything else would
 * be used without the graph's barriers: VK_NULL_HANDLE, and the graph's
 * message (RG_ERROR_UNDECLARED) names the call, the command and the
 * resource; a callback that then fails makes rg_execute's
 * RG_ERROR_CALLBACK message carry it. A context from rg_record_context_get
 * (no command) and a graph made with rg_graph_desc.lenient_record_access
 * hand out any resource.
 *
 * Descriptors. rg_record_image_info and the others give what a shader of
 * the command being recorded reads or writes, as the graph placed it:
 *   - The image info holds the view of exactly the declared subresources
 *     (the texture's own view when the access covers it whole; for a
 *     format with depth, its depth aspect only, as a descriptor needs) and
 *     the layout the graph chose for that access (SHADER_READ_ONLY_OPTIMAL
 *     for a sampled read, GENERAL for storage, a read-only depth layout, or
 *     where a pixel-local read was merged RENDERING_LOCAL_READ for the
 *     input attachment); its sampler is VK_NULL_HANDLE.
 *   - The buffer info holds the buffer and the declared offset and size.
 *   - Only shader accesses (sampled, storage, uniform, input attachment, or
 *     RG_USAGE_RAW with a shader access) have descriptors. Refused
 *     (RG_ERROR_INVALID_ARGUMENT, *out zeroed, rg_graph_error_message
 *     naming the command and the resource): a resource the command did not
 *     declare, one it declares only for something else (a copy, a vertex
 *     buffer, an attachment), or one it declares twice over different
 *     ranges (say which with the _access variants).
 *   - Call them from a record callback of rg_execute / rg_execute_batches,
 *     or with a context from rg_record_context_for; RG_ERROR_NOT_PLACED
 *     unless the graph is placed on its device.
 *   - A subresource view is made the first time it is asked for, per image
 *     (a history half has two), and kept until the placement is freed.
 *
 * Recording by hand. Tools that record a placed graph themselves (a
 * benchmark against hand-written recording, a debugger) take the barriers
 * from rg_barrier_get at their points, and between them what rg_execute
 * records: each span's vkCmdBeginRendering (rg_span_get_rendering) and
 * each user command's callback (rg_command_get_info's record and user),
 * called with a context from rg_record_context_get or
 * rg_record_context_for.
 *
 *   static bool lighting(const rg_record_context *rc, void *user)
 *   {
 *       struct renderer *r = user;
 *       VkDescriptorImageInfo albedo;        // view and layout as the graph placed them
 *       if (rg_record_image_info(rc, r->albedo, &albedo) != RG_SUCCESS)
 *           return false;                    // rg_execute: RG_ERROR_CALLBACK, with the reason
 *       albedo.sampler = r->nearest;
 *       VkCommandBuffer cmd = rg_record_cmd(rc);
 *       push_image(cmd, r->layout, 0, &albedo);     // the application's
 *       vkCmdDraw(cmd, 3, 1, 0, 0);
 *       return true;
 *   }
 */

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

/* The descriptor of the command's access to texture or buffer (see
 * "Descriptors" above). RG_ERROR_INVALID_ARGUMENT when it has none,
 * RG_ERROR_NOT_PLACED, RG_ERROR_VULKAN or RG_ERROR_OUT_OF_MEMORY making a
 * view; *out zeroed on failure. */
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
/* The command whose callback is running (0 in a context from
 * rg_record_context_get). */
RG_EXPERIMENTAL rg_command rg_record_command(const rg_record_context *rc);

/* The spans of the declaration (0 before compile), for recording by hand. */
uint32_t rg_span_count(const rg_graph *graph);

/* One span's vkCmdBeginRendering as rg_execute records it: info points into
 * colors and depth of the same struct (do not copy it by value). An
 * import's attachment views are those of the last rg_execute (its own view
 * when it covers the whole image). rg_execute then sets the viewport and
 * scissor to info.renderArea. */
typedef struct rg_span_rendering {
    VkRenderingInfo info;
    VkRenderingAttachmentInfo colors[RG_MAX_COLOR_ATTACHMENTS];
    VkRenderingAttachmentInfo depth;  /* also info.pStencilAttachment for a stencil format */
    rg_command begin, end;
    /* Merged spans (see "Merging"): a span that continues its instance is
     * not begun (info is its instance's); rg_execute records its barriers
     * and then sets the attachment locations and input-attachment indices
     * of rg_command_get_rendering(begin). Only the instance's last span
     * ends it. */
    bool continues, ends;
} rg_span_rendering;

/* RG_ERROR_NOT_PLACED before placement on the device; RG_ERROR_NOT_COMPILED
 * before compile; RG_ERROR_INVALID_ARGUMENT for a span past the count. */
rg_result rg_span_get_rendering(const rg_graph *graph, uint32_t span, rg_span_rendering *out);

/* The record context rg_execute passes to callbacks, for recording into
 * cmd: a tool calls a user command's callback (rg_command_get_info's record
 * and user) with it. It records no command, so it hands out any
 * resource (rg_record_view). Valid until the graph is used with another
 * cmd or changes; NULL unless the graph is placed on its device. */
const rg_record_context *rg_record_context_get(rg_graph *graph, VkCommandBuffer cmd);
/* The same for recording one user command: its descriptor queries
 * (rg_record_image_info and the others) answer for that command, and
 * rg_record_view and the others hand out only what it declared. NULL
 * also for a command that is not a user command of this declaration. */
RG_EXPERIMENTAL const rg_record_context *rg_record_context_for(rg_graph *graph, VkCommandBuffer cmd,
                                                               rg_command command);

/* ===== 13. Timings ===== */

/* Timings. A graph made with rg_graph_desc.timings (or
 * rg_graph_set_timings) times each frame on the GPU:
 *   - the units: each rendering instance (merged spans are one:
 *     timestamps before its first begin, its barriers included, and after
 *     its last end), each command outside spans, and each batch (its
 *     command buffer's contents), on its own queue;
 *   - how: vkCmdWriteTimestamp2 at ALL_COMMANDS, so a unit runs from the
 *     end of the work before it to the end of its own, and the units of a
 *     batch add up to no more than the batch;
 *   - when: placement makes a query pool per queue holding three frames
 *     and an event per frame; a frame is read at a later rg_execute (or
 *     rg_execute_batches) once the GPU has finished it, never waiting:
 *     until then the queries say RG_ERROR_NOT_READY, and a frame recorded
 *     while three are in flight is not timed. rg_timing_get and
 *     rg_command_get_time give the latest completed frame.
 * A queue whose family has timestampValidBits 0 is not timed
 * (RG_ERROR_UNSUPPORTED for its commands); culled commands have no time.
 * Every recorded frame must be submitted: an unsubmitted one keeps its
 * slot until placement is made again. With timings off nothing of this
 * exists and a frame records nothing more.
 *
 *   rg_graph_create(&(rg_graph_desc){ .name = "frame", .device = dev, .timings = true }, &g);
 *   // ... frames later:
 *   for (uint32_t i = 0, n = rg_timing_count(g); i < n; i++) {
 *       rg_timing t;
 *       if (rg_timing_get(g, i, &t) == RG_SUCCESS)  // RG_ERROR_NOT_READY until a frame completed
 *           printf("%-32s %7.3f ms\n", t.name, t.ms);
 *   }
 *   rg_timings_print(g, stdout);                    // the same, heaviest first
 */

/* Timings on or off (see "Timings"). On a placed graph, on makes the pools
 * now; off destroys them, so the GPU must be done with every frame the
 * graph recorded (as for rg_graph_reset). RG_ERROR_INVALID_ARGUMENT for
 * NULL; making the pools fails as placement does. */
RG_EXPERIMENTAL rg_result rg_graph_set_timings(rg_graph *graph, bool on);

RG_EXPERIMENTAL typedef enum rg_timing_kind {
    RG_TIMING_BATCH = 0,              /* a batch's command buffer, whole */
    RG_TIMING_SPAN,                   /* a rendering instance (merged spans together) */
    RG_TIMING_COMMAND,                /* a command outside spans */
} rg_timing_kind;

/* One timed unit of the latest completed frame. */
RG_EXPERIMENTAL typedef struct rg_timing {
    rg_timing_kind kind;
    rg_command command;               /* the command, the instance's first begin_rendering;
                                         0 for a batch */
    const char *name;                 /* the command's, the instance's spans' joined by '+',
                                         "batch 0 (graphics)"; valid while placed */
    rg_queue queue;
    uint32_t batch;                   /* rg_batch_get */
    double ms;
    uint64_t frame;                   /* the frame measured: rg_execute calls since
                                         placement, from 1 */
} rg_timing;

/* Timed units, after placement with timings on (0 otherwise): per batch,
 * the batch, then its instances and commands in execution order. */
RG_EXPERIMENTAL uint32_t rg_timing_count(const rg_graph *graph);
/* RG_ERROR_NOT_READY before a frame completed; RG_ERROR_NOT_PLACED,
 * RG_ERROR_INVALID_ARGUMENT with timings off or an index past the count. */
RG_EXPERIMENTAL rg_result rg_timing_get(const rg_graph *graph, uint32_t index, rg_timing *out);
/* A command's time in the latest completed frame: a command inside a span
 * gets its rendering instance's. RG_ERROR_NOT_READY as rg_timing_get;
 * RG_ERROR_INVALID_ARGUMENT for a culled command or with timings off;
 * RG_ERROR_UNSUPPORTED on a queue without timestamps. */
RG_EXPERIMENTAL rg_result rg_command_get_time(const rg_graph *graph, rg_command command, double *ms);
/* The latest completed frame's units, heaviest first, with their share of
 * the sum, then the batches (a line saying so when none completed yet).
 * rg_memory_report_print ends with it when timings are on. RG_ERROR_IO
 * when out cannot be written. */
RG_EXPERIMENTAL rg_result rg_timings_print(const rg_graph *graph, FILE *out);

/* ===== 14. Names and debug utils ===== */

/* Names. Vulkan values as text, for messages and tools (the graph's own
 * messages, reports and DOT print them so), and what the library knows of
 * each format. Pure: any thread.
 *   - A format or layout is its enumerant without the prefix (and without
 *     the suffix of an extension promoted to core): "R8G8B8A8_UNORM",
 *     "PRESENT_SRC", "RENDERING_LOCAL_READ"; every core format and layout
 *     is known. A known name is a static string. An unknown value reads
 *     "VkFormat(1234)" / "VkImageLayout(1234)", written into one of four
 *     buffers of the calling thread used in turn: it stays valid until the
 *     same thread's fourth unknown name after it (enough for one message
 *     that prints a few), and other threads never touch it; copy it to
 *     keep it.
 *   - A flag set is its bits' names, without prefix and _BIT, joined by
 *     '|' ("FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT"); bits without a name
 *     follow as one hex number ("COMPUTE_SHADER|0x80000000000"); 0 is
 *     "NONE". As snprintf: writes what fits of the text into buf (size
 *     bytes, always terminated when size > 0; buf may be NULL when size is
 *     0) and returns the whole text's length, so a return >= size means it
 *     was cut.
 *
 * Debug utils. With rg_device_desc.debug_utils (the instance has
 * VK_EXT_debug_utils enabled), graphs name each image, view, buffer,
 * memory block and semaphore they create after its resource or role
 * (images and buffers 'ao raw', views 'ao raw (mip 1)', memory 'pool 0 (3
 * resources)' or the resource's name, semaphores 'graph "frame" compute
 * timeline'; memory from rg_pool_memory is the application's to name), and
 * wrap each batch, span and command they record in a debug label of its
 * name ('graph "frame" batch 0 on graphics', the span's, the command's;
 * balanced on every command buffer, also when a callback fails), so
 * validation messages, captures (RenderDoc) and profilers show the graph's
 * names. Without it: no names, no labels.
 *
 *   char stages[128];
 *   const rg_barrier_info *b = rg_barrier_get(g, 0);
 *   rg_stage_names(b->src_stage, stages, sizeof stages);
 *   printf("%s -> %s after %s\n", rg_layout_name(b->old_layout),
 *          rg_layout_name(b->new_layout), stages);   // "UNDEFINED -> GENERAL after NONE", say
 */

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

/* What the library knows of a format (copy sizes, resolve modes, blit
 * filters and barrier aspects follow from it). Every core format is known
 * except the multi-planar (YCbCr) ones; for those, and anything else,
 * block_size is 0. Pure: any thread. */
typedef struct rg_format_info {
    uint32_t block_size;              /* bytes of one texel block (a depth/stencil
                                         format: the whole texel) */
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

/* A flag set as text into buf; returns the whole text's length (see
 * "Names"). */
size_t rg_stage_names(VkPipelineStageFlags2 stages, char *buf, size_t size);
size_t rg_access_names(VkAccessFlags2 access, char *buf, size_t size);
size_t rg_image_usage_names(VkImageUsageFlags usage, char *buf, size_t size);
size_t rg_buffer_usage_names(VkBufferUsageFlags usage, char *buf, size_t size);

/* ===== 15. Reports ===== */

/* What the graph decided, for people and tools. None of them changes the
 * graph, and a failure is never kept (see "Errors").
 *   - The memory report (rg_memory_report_print, rg_memory_report_json),
 *     after placement (rg_place or rg_place_offline): per resource (every
 *     declared one, in declaration order) its type, origin (created,
 *     imported, history, history-prev), memory kind ("transient-" first
 *     for a TRANSIENT_ATTACHMENT texture: transient-lazy,
 *     transient-pooled; pooled, dedicated, imported, unused), format and
 *     usage by name (rg_format_name, rg_image_usage_names,
 *     rg_buffer_usage_names), size, alignment, memory type, pool, offset,
 *     lifetime and what it aliases; totals; then the tile traffic per
 *     rendering instance and of the frame (rg_tile_traffic_get) and the
 *     merge notes (rg_merge_get); with timings on, the timings
 *     (rg_timings_print). rg_memory_timeline_svg draws the pools.
 *   - Resource enumeration (rg_resource_count, rg_resource_get), after
 *     compile: what compile derived for each resource and where placement
 *     put it, for tools that list them all (a memory debugger, a report of
 *     one's own); rg_texture_get_info and rg_buffer_get_info give one.
 *   - The DOT graph (rg_write_dot), after compile.
 *   - Tile traffic (rg_tile_traffic_get), after compile ("Tile traffic").
 *
 *   rg_memory_report_print(g, stdout);              // after placement
 *   rg_memory_report_json(g, "frame.json");
 *   rg_memory_timeline_svg(g, "frame.svg");
 *   rg_write_dot(g, "frame.dot");                   // dot -Tsvg frame.dot -o graph.svg
 *   rg_tile_traffic t;
 *   if (rg_tile_traffic_get(g, RG_INDEX_NONE, &t) == RG_SUCCESS)   // the whole frame
 *       printf("%.1f MiB per frame between tile memory and DRAM\n", t.total / 1048576.0);
 *
 * Tile traffic. An estimate of the bytes a tile GPU moves between tile
 * memory and DRAM per frame, from the compiled graph alone (no device, no
 * placement):
 *   - every attachment of a rendering instance covers the render area:
 *     width x height x layer count x texel bytes x samples (texel bytes of
 *     the format, whole compressed blocks; depth/stencil formats by their
 *     size, both aspects together);
 *   - loads: attachments loaded (load op LOAD of the first span of the
 *     instance naming it);
 *   - stores: attachments stored (store op STORE, as the instance stores
 *     it: a merged instance discards what nothing else uses; NONE and
 *     DONT_CARE cost nothing);
 *   - resolves: resolve targets written (the last span's naming the
 *     attachment), at one sample;
 *   - sampled: reads by commands (sampled, storage, the read half of
 *     read-write storage, transfer, pixel-local reads not merged into input
 *     attachments) of subresources written earlier in the frame, in
 *     execution order, by any command (attachment writes included): each
 *     mip m read is max(1, w >> m) x max(1, h >> m) x texel bytes x
 *     samples per layer. Merged input-attachment reads stay on chip: 0.
 *     Reads of what the frame did not write (an import's previous
 *     contents) are the frame's inputs, not counted; neither are buffers,
 *     presentation, nor writes other than attachment stores and resolves.
 * total is the sum of the four.
 */

/* The memory report as text into out, or as JSON into the file at path
 * (see above). RG_ERROR_NOT_PLACED before placement, RG_ERROR_IO when it
 * cannot be written. */
rg_result rg_memory_report_print(const rg_graph *graph, FILE *out);
rg_result rg_memory_report_json(const rg_graph *graph, const char *path);
/* A picture of the pools: resources as bars over the execution order at
 * their offsets, so aliasing can be seen. As the report: after placement;
 * RG_ERROR_IO. */
rg_result rg_memory_timeline_svg(const rg_graph *graph, const char *path);

/* Who makes a resource's memory (rg_resource_info.kind). */
RG_EXPERIMENTAL typedef enum rg_resource_kind {
    RG_RESOURCE_CREATED = 0,          /* rg_texture_create, rg_buffer_create */
    RG_RESOURCE_IMPORTED,             /* rg_texture_import, rg_buffer_import */
    RG_RESOURCE_HISTORY_CURRENT,      /* rg_texture_create_history: what the frame writes */
    RG_RESOURCE_HISTORY_PREVIOUS,     /* and what the frame before wrote */
} rg_resource_kind;

/* What compile derived for a resource, and where placement put it. */
typedef struct rg_resource_info {
    const char *name;                 /* valid while the graph's declaration is */
    bool imported;
    bool transient;                   /* textures: TRANSIENT_ATTACHMENT usage */
    /* Created resources: the usage the graph creates them with (from the
     * declared accesses, the extra usage and transience). */
    VkImageUsageFlags image_usage;
    VkBufferUsageFlags buffer_usage;
    uint32_t first_use, last_use;     /* positions in rg_execution_order, or
                                         RG_INDEX_NONE when unused */
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
    /* After placement (rg_place or rg_place_offline; before it memory is
     * RG_MEMORY_NOT_CREATED and the rest 0 or RG_INDEX_NONE): where its
     * memory comes from (a transient texture on a lazily allocated type
     * is RG_MEMORY_LAZY), the bytes it takes (its memory requirements),
     * its memory type, and for RG_MEMORY_POOLED its pool and offset there
     * (rg_memory_report_print's columns). */
    rg_memory_kind memory;
    VkDeviceSize memory_size;
    uint32_t memory_type;             /* RG_INDEX_NONE: imported or not created */
    uint32_t pool;                    /* RG_INDEX_NONE unless pooled */
    VkDeviceSize memory_offset;
} rg_resource_info;

/* Every declared texture and buffer, in declaration order (the index
 * rg_place_offline's requirements callback gets). 0 before compile.
 * rg_resource_get: RG_ERROR_NOT_COMPILED before compile,
 * RG_ERROR_INVALID_ARGUMENT for an index past the count. */
RG_EXPERIMENTAL uint32_t rg_resource_count(const rg_graph *graph);
RG_EXPERIMENTAL rg_result rg_resource_get(const rg_graph *graph, uint32_t index, rg_resource_info *out);

/* One resource's info. RG_ERROR_NOT_COMPILED before compile;
 * RG_ERROR_INVALID_HANDLE for a stale, foreign or 0 handle. */
rg_result rg_texture_get_info(const rg_graph *graph, rg_texture texture, rg_resource_info *out);
rg_result rg_buffer_get_info(const rg_graph *graph, rg_buffer buffer, rg_resource_info *out);

/* Graphviz DOT into the file at path, after compile: nodes, spans as
 * clusters, edges and barriers, culled commands grey; a graph on several
 * queues draws each queue as a lane and its semaphore waits as bold edges
 * labelled with the wait stages. RG_ERROR_NOT_COMPILED, RG_ERROR_IO. */
rg_result rg_write_dot(const rg_graph *graph, const char *path);

/* The estimate of one rendering instance or of the frame (see "Tile
 * traffic"), in bytes. */
RG_EXPERIMENTAL typedef struct rg_tile_traffic {
    uint64_t loads;
    uint64_t stores;
    uint64_t resolves;
    uint64_t sampled;
    uint64_t total;
} rg_tile_traffic;

/* Rendering instances after compile (merged spans count once), in
 * execution order: rg_command_rendering.instance indexes them. 0 before
 * compile. */
RG_EXPERIMENTAL uint32_t rg_instance_count(const rg_graph *graph);
/* instance < rg_instance_count: that rendering instance, its spans' reads
 * included; RG_INDEX_NONE: the whole frame, reads by commands outside
 * spans included. RG_ERROR_NOT_COMPILED before compile,
 * RG_ERROR_INVALID_ARGUMENT for another index. */
RG_EXPERIMENTAL rg_result rg_tile_traffic_get(const rg_graph *graph, uint32_t instance, rg_tile_traffic *out);

#ifdef __cplusplus
}
#endif
#endif /* RENDERGRAPH_RENDERGRAPH_H */
