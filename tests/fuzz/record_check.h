/* The recording oracle of the fuzz harness: records a graph placed on the
 * null device (null_device.h) whole and in chunks and checks what
 * rendergraph.h promises of parallel recording ("Parallel recording"):
 *
 *   - the chunks of each batch, concatenated in order without what the
 *     cuts add (the suspending chunk's end of rendering and its labels'
 *     ends; the resuming chunk's batch label, span label, begin with
 *     VK_RENDERING_RESUMING_BIT, local-read state, viewport and scissor),
 *     are call for call the batch as rg_execute / rg_execute_batches
 *     records it, every field of every barrier included;
 *   - every chunk begins and ends its rendering instances and labels in
 *     pairs; only its last begin carries VK_RENDERING_SUSPENDING_BIT, and
 *     exactly when rg_chunk_get says it suspends; the next chunk of the
 *     batch then resumes it with the same info and RESUMING (and no other
 *     begin carries RESUMING); the first chunk of a batch does not resume,
 *     the last does not suspend; a frame recorded whole carries neither;
 *   - a layout oracle follows each image subresource through the frames
 *     in recording order (the chunks in order): a barrier's old layout is
 *     the tracked one or UNDEFINED, a barrier inside a rendering instance
 *     changes no layout, and every attachment (and resolve target), copy,
 *     clear and blit names the layout its subresources are in; created
 *     images start UNDEFINED, imports each frame at their initial layout,
 *     and end it in their final one (where it is not UNDEFINED);
 *   - rg_execute_end's plan (and rg_execute_batches') lists each batch's
 *     command buffers in chunk order, and rg_submit submits exactly those;
 *   - rg_execute_batches records what rg_execute does (one batch).
 * A placement's first frame also clears history: it is compared with the
 * first frame of the same declaration placed again and recorded in chunks
 * (rc_options.first).
 * Any mismatch aborts with "fuzz_graph: check failed" and the context,
 * frame, max_chunks and first differing line. */
#ifndef FUZZ_RECORD_CHECK_H
#define FUZZ_RECORD_CHECK_H

#include "null_device.h"

/* The first frame (rg_execute or rg_execute_batches) of a placement, kept
 * to compare with the first frame of the same declaration placed again and
 * recorded in chunks (the history clears of a placement's first frame). */
typedef struct rc_first rc_first;
void rc_first_free(rc_first *first);

/* A texture import's layouts around the frame (rg_texture_import_desc). */
typedef struct rc_import {
    rg_texture texture;
    VkImageLayout initial, final;
} rc_import;

typedef struct rc_options {
    const uint32_t *max_chunks; /* a frame recorded in chunks per value, in this order */
    uint32_t max_chunk_count;
    uint32_t reverse;      /* one more frame with this max_chunks, its chunks recorded last
                                         to first */
    const char *context;   /* named by every message: what of the input recorded this */
    bool labelled;         /* the device has debug utils: labels are recorded */
    rc_first **keep_first; /* set: the first frame is kept there (free it) */
    /* Set: only the first frame is recorded, in chunks (first_max_chunks),
     * and compared with this one, of the same declaration on a device of
     * the same options. */
    const rc_first *first;
    uint32_t first_max_chunks;
    bool dump; /* print the calls of a whole frame and of the last frame in chunks */
} rc_options;

/* What a check saw, for the verbose line and the README's claims. */
typedef struct rc_stats {
    uint32_t frames, chunks, resumed, resumed_in_span, resumed_local_read, suspended_twice;
} rc_stats;

/* Whether g (compiled) has a history texture: only then does its first
 * frame differ from the others. */
bool record_has_history(const rg_graph *g);

/* Binds every import of g (placed on nd) to an image or buffer of nd,
 * records frames and checks them (see above); aborts on a mismatch. */
void record_check(rg_graph *g, null_device *nd, const rc_import *imports, uint32_t import_count, const rc_options *o,
                  rc_stats *stats);

#endif
