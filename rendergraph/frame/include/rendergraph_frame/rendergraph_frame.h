/* rendergraph_frame: a render graph's frame as a file (docs/frame-files.md).
 *
 * rgf_save writes what a graph declared (resources with their descriptions
 * and relative sizes, imports with their states, commands and their
 * accesses, spans with their attachments and ops, queue hints, history
 * pairs, names), the graph's options and the device capabilities it
 * compiles for, to a versioned JSON file; placed with rgf_save_desc.memory,
 * the device's memory types and each resource's memory requirements too.
 * rgf_load reads such a file into a device-free graph declared the same
 * way, which compiles to the same result. Record callbacks, their user
 * pointers and imports' Vulkan objects are not saved: a loaded frame
 * records nothing (its user commands get a callback that records nothing).
 *
 * A separate library so that the render graph keeps no dependency: this
 * one reads and writes JSON with cJSON. Thread-safe for different graphs
 * and frames. Version: the render graph's (RG_VERSION).
 */
#ifndef RENDERGRAPH_FRAME_H
#define RENDERGRAPH_FRAME_H

#include <rendergraph/rendergraph.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The file format's version ("rendergraph_frame" in the file): a reader
 * refuses a file of another. */
#define RGF_FILE_VERSION 1

/* Why a load or save failed: the file, the JSON path and what was
 * expected ("frame.json: $.commands[3].accesses[0].usage: expected an
 * rg_usage name, got \"SAMPLED\""). */
typedef struct rgf_error {
    char message[512];
} rgf_error;

/* What a file holds besides the declaration; zero is the default. */
typedef struct rgf_save_desc {
    /* The frame's size: rgf_load_desc.width/height resize the textures
     * of this extent (and spans' areas of it). 0: the first imported
     * texture's extent, else the first texture's. */
    uint32_t width, height;
    const char *device_name;          /* where it ran, for whoever reads it; NULL: none */
    /* The device's memory types. Given, and the graph placed (rg_place or
     * rg_place_offline), the file also holds every created resource's
     * memory requirements as placed, so rgf_frame_place reproduces the
     * device's figures. */
    const VkPhysicalDeviceMemoryProperties *memory;
} rgf_save_desc;

/* Writes graph's declaration to path (rgf_save) or to a NUL-terminated
 * string (rgf_save_text; free it with rgf_free). desc may be NULL. The
 * graph need not be compiled; one whose declaration failed (a kept
 * declaration error) is refused: it lacks the call that failed.
 * RG_ERROR_INVALID_ARGUMENT, RG_ERROR_IO, RG_ERROR_OUT_OF_MEMORY, with
 * *error (may be NULL) saying why. */
rg_result rgf_save(const rg_graph *graph, const rgf_save_desc *desc, const char *path, rgf_error *error);
rg_result rgf_save_text(const rg_graph *graph, const rgf_save_desc *desc, char **out, rgf_error *error);
void rgf_free(void *text);

/* A loaded frame: the file's contents and the graph declared from it. */
typedef struct rgf_frame rgf_frame;

typedef struct rgf_load_desc {
    /* What to compile for: NULL, the capabilities the file saved, or with
     * profile those of that family's GPU. */
    const rg_device_caps *caps;
    /* Another GPU family (AUTO: as saved; ignored with caps): the saved
     * capabilities with that tile profile and, for a tile GPU, local read
     * of every attachment kind and the family's driver (Arm's, Qualcomm's,
     * MoltenVK: what RG_MERGE_AUTO follows), tile_memory the profile's;
     * DESKTOP from a tile profile: no driver named (AUTO: no merging). */
    rg_tile_profile profile;
    /* The graph's merge policy instead of the saved one; NULL: as saved. */
    const rg_merge *merge;
    /* The frame at another size (both or neither): textures of the saved
     * frame size, and spans' areas of it, get this one; relative sizes
     * follow their sources; others stay. 0: as saved. */
    uint32_t width, height;
    /* The graph's log (rg_graph_desc.log); NULL: errors and warnings on
     * stderr. */
    rg_log_fn log;
    void *log_user;
} rgf_load_desc;

/* Reads a frame file (rgf_load) or text (rgf_load_text; name is the
 * file name messages give) and declares it into a new device-free graph,
 * not compiled. RG_ERROR_IO: the file cannot be read.
 * RG_ERROR_INVALID_ARGUMENT: not a frame file of this version, a missing
 * or mistyped field, an unknown name, a handle to nothing or to the wrong
 * kind of resource, a key given twice, a size of 0, a memory requirement
 * for an import or smaller than what it was measured for holds: *error
 * names the file, the JSON path and what was expected; a file cut short,
 * a NUL byte (or "\u0000"), a raw control character in a string, more
 * after the object: the file's line and column. A declaration the graph refuses: its result
 * and message, with the path of the call. *out is NULL on failure. */
rg_result rgf_load(const char *path, const rgf_load_desc *desc, rgf_frame **out, rgf_error *error);
rg_result rgf_load_text(const char *text, size_t size, const char *name, const rgf_load_desc *desc,
                        rgf_frame **out, rgf_error *error);
/* Destroys the frame and its graph; NULL is accepted. */
void rgf_frame_destroy(rgf_frame *frame);
/* The frame's graph, owned by the frame. */
rg_graph *rgf_frame_graph(const rgf_frame *frame);

typedef struct rgf_frame_info {
    const char *name;                 /* the file's name as given to the load */
    const char *saved_by;             /* the library that wrote it: "rendergraph 0.2.0" */
    const char *device_name;          /* "" when not saved */
    uint32_t width, height;           /* the frame's size as loaded */
    uint32_t saved_width, saved_height;
    rg_device_caps saved_caps;        /* what the saving graph compiled for */
    rg_device_caps caps;              /* what the loaded graph compiles for */
    /* The saving device's memory types (with each resource's requirements
     * in the file); NULL when not saved. */
    const VkPhysicalDeviceMemoryProperties *memory;
    /* After rgf_frame_place: each saved requirement it modelled instead
     * (its resource is not what it was measured for: the file was
     * edited), a line each: "saved requirement for 'hdr' does not match
     * its declaration (format): modelled"; "" when none. */
    const char *memory_notes;
} rgf_frame_info;

/* Zeroed for NULL. Strings live as long as the frame. */
rgf_frame_info rgf_frame_get_info(const rgf_frame *frame);

/* Where rgf_frame_place takes memory types and requirements from. */
typedef enum rgf_memory {
    /* SAVED when the file has them, the frame is at its saved size and
     * its tile profile is the saved one; MODEL otherwise. */
    RGF_MEMORY_AUTO = 0,
    RGF_MEMORY_SAVED,                 /* the saving device's (RG_ERROR_UNSUPPORTED without them) */
    /* A device-local type, and a lazily allocated one where the graph's
     * tile profile keeps lazy memory on chip (rg_tile_info.lazy_memory);
     * each created resource's requirement from the file where it was saved
     * at this size, else its texels' bytes (every mip, layer and sample)
     * rounded up to 64 KiB, buffers to 256 bytes. */
    RGF_MEMORY_MODEL,
} rgf_memory;

/* Compiles the frame's graph if needed and places it without a device
 * (rg_place_offline) from the memory `memory` says; *used (may be NULL)
 * gets the one used. Either way a saved requirement counts only for the
 * resource it was measured for (the file says what: a texture's format,
 * extent, mips, layers, samples and usage, a buffer's size and usage); a
 * resource the file declares otherwise, or a requirement that does not
 * say, gets the model's, as rgf_frame_info.memory_notes tells. Fails as
 * rg_compile and rg_place_offline do, with *error saying why. */
rg_result rgf_frame_place(rgf_frame *frame, rgf_memory memory, rgf_memory *used, rgf_error *error);

/* A tile profile by its rg_tile_info.key ("apple7", "mali-bifrost",
 * "desktop"); RG_TILE_PROFILE_COUNT for an unknown one. */
rg_tile_profile rgf_tile_profile_from_key(const char *key);

#ifdef __cplusplus
}
#endif
#endif /* RENDERGRAPH_FRAME_H */
