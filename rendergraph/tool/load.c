/* Loading a frame file for a tile profile and a size, and placing it
 * without a device. The graph's log is collected: its INFO notices are
 * the only place compile says why a command was culled. */
#include "rgtool.h"

#include <stdlib.h>
#include <string.h>

/* Keeps every message of the graph's log (notices come during compile,
 * inside rgf_frame_place). */
static void collect_log(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)object;
    rgt_frame *f = user;
    if (f->note_count == f->note_capacity) {
        uint32_t capacity = f->note_capacity ? f->note_capacity * 2 : 16;
        rgt_note *notes = realloc(f->notes, capacity * sizeof *notes);
        if (!notes) {
            f->out_of_memory = true;
            return;
        }
        f->notes = notes;
        f->note_capacity = capacity;
    }
    size_t len = strlen(message);
    char *text = malloc(len + 1);
    if (!text) {
        f->out_of_memory = true;
        return;
    }
    memcpy(text, message, len + 1);
    f->notes[f->note_count++] = (rgt_note){level, text};
}

const char *rgt_memory_source_name(rgf_memory memory)
{
    return memory == RGF_MEMORY_SAVED ? "saved" : memory == RGF_MEMORY_MODEL ? "model" : "auto";
}

/* The capabilities to compile for: the saved ones with the profile
 * swapped in. A tile profile is a tile GPU, which offers local read with
 * both attachment kinds (every family rgf_tile_profile_from_key knows
 * does); the desktop profile keeps what the saving device had. The saved
 * model's tile memory only holds for the saved profile. */
static rg_device_caps profile_caps(const rg_device_caps *saved, rg_tile_profile profile)
{
    rg_device_caps caps = *saved;
    rg_tile_profile saved_profile = saved->tile_profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : saved->tile_profile;
    caps.tile_profile = profile;
    if (profile != saved_profile)
        caps.tile_memory = 0;
    if (profile != RG_TILE_DESKTOP) {
        caps.local_read = true;
        caps.local_read_multisampled = true;
        caps.local_read_depth_stencil = true;
    }
    return caps;
}

static bool load_once(const char *path, const rg_device_caps *caps, const rgt_options *options, rgt_frame *out)
{
    rgf_error error = {{0}};
    rgf_load_desc desc = {
        .caps = caps, .width = options->width, .height = options->height, .log = collect_log, .log_user = out};
    rg_result r = rgf_load(path, &desc, &out->frame, &error);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "rgtool: %s\n", error.message[0] ? error.message : rg_result_string(r));
        return false;
    }
    return true;
}

static void free_notes(rgt_frame *f)
{
    for (uint32_t i = 0; i < f->note_count; i++)
        free(f->notes[i].text);
    free(f->notes);
    f->notes = NULL;
    f->note_count = f->note_capacity = 0;
}

bool rgt_load(const char *path, const rgt_options *options, rgt_frame *out)
{
    memset(out, 0, sizeof *out);
    rg_tile_profile wanted = RG_TILE_AUTO;
    if (options->profile) {
        wanted = rgf_tile_profile_from_key(options->profile);
        if (wanted == RG_TILE_PROFILE_COUNT || wanted == RG_TILE_AUTO) {
            fprintf(stderr, "rgtool: unknown profile '%s' (rgtool --help lists them)\n", options->profile);
            return false;
        }
    }
    /* Step 1: load as saved, which also tells the saved capabilities. */
    if (!load_once(path, NULL, options, out))
        goto fail;
    rgf_frame_info info = rgf_frame_get_info(out->frame);
    out->caps = info.saved_caps;
    /* Step 2: another profile needs another graph (caps are the graph's
     * desc), so load again with the profile's capabilities. The saved
     * profile named again keeps the saved capabilities as they are. */
    rg_tile_profile saved =
        info.saved_caps.tile_profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : info.saved_caps.tile_profile;
    if (wanted != RG_TILE_AUTO && wanted != saved) {
        out->caps = profile_caps(&info.saved_caps, wanted);
        rgf_frame_destroy(out->frame);
        out->frame = NULL;
        free_notes(out);
        if (!load_once(path, &out->caps, options, out))
            goto fail;
    }
    out->graph = rgf_frame_graph(out->frame);
    out->profile = out->caps.tile_profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : out->caps.tile_profile;
    /* Step 3: compile and place; AUTO models memory unless the file's
     * requirements hold for this profile and size. */
    rgf_error error = {{0}};
    rg_result r = rgf_frame_place(out->frame, RGF_MEMORY_AUTO, &out->memory, &error);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "rgtool: %s\n", error.message[0] ? error.message : rg_result_string(r));
        goto fail;
    }
    if (out->out_of_memory) {
        fprintf(stderr, "rgtool: out of memory keeping the graph's log\n");
        goto fail;
    }
    return true;
fail:
    rgt_frame_free(out);
    return false;
}

void rgt_frame_free(rgt_frame *frame)
{
    if (!frame)
        return;
    rgf_frame_destroy(frame->frame);
    free_notes(frame);
    memset(frame, 0, sizeof *frame);
}
