/* Loading a frame file for a tile profile and a size, and placing it
 * without a device. The graph's log is collected: the plan prints its
 * notes. */
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

static const char *where(const rgt_options *options) { return options->where ? options->where : "rgtool"; }

static bool load_once(const char *path, rg_tile_profile profile, const rgt_options *options, rgt_frame *out)
{
    rgf_error error = {{0}};
    rgf_load_desc desc = {.profile = profile, .merge = options->merge_given ? &options->merge : NULL,
                          .width = options->width, .height = options->height, .log = collect_log, .log_user = out};
    rg_result r = rgf_load(path, &desc, &out->frame, &error);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "%s: %s\n", where(options), error.message[0] ? error.message : rg_result_string(r));
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
            fprintf(stderr, "%s: unknown profile '%s'; the profiles:", where(options), options->profile);
            for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT; p++)
                fprintf(stderr, " %s", rg_tile_profile_info((rg_tile_profile)p).key);
            fputc('\n', stderr);
            return false;
        }
    }
    /* The library makes the profile's capabilities (rgf_load_desc.profile:
     * local read, the family's driver); the saved profile named again is
     * the saved capabilities as they are. */
    if (!load_once(path, wanted, options, out))
        goto fail;
    out->caps = rgf_frame_get_info(out->frame).caps;
    out->graph = rgf_frame_graph(out->frame);
    out->profile = out->caps.tile_profile == RG_TILE_AUTO ? RG_TILE_DESKTOP : out->caps.tile_profile;
    /* Compile and place; AUTO models memory unless the file's
     * requirements hold for this profile and size. */
    rgf_error error = {{0}};
    rg_result r = rgf_frame_place(out->frame, RGF_MEMORY_AUTO, &out->memory, &error);
    if (r != RG_SUCCESS) {
        fprintf(stderr, "%s: %s\n", where(options), error.message[0] ? error.message : rg_result_string(r));
        goto fail;
    }
    if (out->out_of_memory) {
        fprintf(stderr, "%s: out of memory keeping the graph's log\n", where(options));
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
