/* Execute's state from frame to frame (execute.c, execute_chunks.c): the
 * frame cut into chunks, each chunk's recording, and what history pairs
 * and dynamic spans need each frame. Placement holds it (rg__placement) and
 * frees it with the rest. The functions are in execute.h. Not installed.
 */
#ifndef RG_FRAMES_H
#define RG_FRAMES_H

#include "base.h"

/* The most chunks a batch is cut into (rg_submit's command buffers per
 * submission). */
#define RG__MAX_CHUNKS 256u

/* A contiguous run of one batch's positions of the order, recorded into
 * one command buffer (execute_chunks.c). */
typedef struct rg__chunk {
    uint32_t batch;
    uint32_t first, end;              /* positions [first, end); only its batch's count */
    uint32_t count;                   /* its batch's positions in there */
    uint32_t resume;                  /* the instance open at first: resumed (RG__NONE) */
    uint32_t resume_span;             /* the span open at first: its label reopens (RG__NONE) */
    bool suspends;                    /* an instance is open at end: suspended */
    bool batch_begins, batch_ends;    /* first / last chunk of its batch */
    uint64_t cost;
} rg__chunk;

/* One chunk's recording of the frame being recorded: its result, the
 * message its callbacks' queries leave (base.c sends reports there while
 * the chunk records), its scratch arrays for one point's barriers. */
typedef struct rg__chunk_run {
    uint64_t frame;                   /* the frame it was recorded for (0: not yet) */
    rg_result result;
    rg__status status;
    VkImageMemoryBarrier2 *image_barriers;
    VkBufferMemoryBarrier2 *buffer_barriers;
} rg__chunk_run;

/* What execute keeps from frame to frame (execute.c owns it): how many
 * frames it recorded since placement (the first clears history pairs'
 * previous halves, each later one has the halves trade images), the
 * frame's chunks (made for `chunks_for` asked, kept while the ask is the
 * same), and per chunk its run and scratch arrays, which only grow. */
typedef struct rg__frames {
    uint64_t recorded;
    bool history_swapped;             /* the halves of each pair hold each other's image */
    bool open;                        /* between rg_execute_begin and rg_execute_end */
    bool swapped_now;                 /* the open frame swapped the halves */
    uint32_t clears_chunk;            /* the chunk that records the history clears (RG__NONE) */
    rg__chunk *chunks;
    uint32_t chunk_count, chunk_cap;
    uint32_t chunks_for;              /* the max_chunks they were cut for (with chunks set) */
    uint32_t *batch_chunk;            /* per batch its first chunk; batch_count + 1 */
    rg__chunk_run *runs;              /* chunk_cap */
    VkCommandBuffer *cmds;            /* chunk_cap: the plan's command buffers */
    /* Per span, its rendering as this frame begins it; the spans made
     * again each frame (an import or history attachment in the instance). */
    rg_span_rendering *spans;
    uint32_t *dynamic_spans;
    uint32_t dynamic_count;
    VkImageMemoryBarrier2 *image_barriers;   /* barrier_cap + 1 per chunk */
    VkBufferMemoryBarrier2 *buffer_barriers;
    uint32_t barrier_cap;
} rg__frames;

#endif
