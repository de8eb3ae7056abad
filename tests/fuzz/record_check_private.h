/* The recording oracle's internals (private to record_*.c): a recorded
 * frame and the checker's state. record_check.c records the frames and
 * checks the plan and each command buffer's structure; record_layouts.c
 * follows every image subresource's layout; record_cuts.c compares a
 * frame in chunks with the frame recorded whole. */
#ifndef FUZZ_RECORD_CHECK_PRIVATE_H
#define FUZZ_RECORD_CHECK_PRIVATE_H

#include "fuzz_check.h"
#include "record_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 4096 /* a call as messages print it */

/* One recorded frame: its command buffers (a batch's, or a chunk's each)
 * and, per command buffer, the chunk it holds. */
typedef struct frame {
    uint32_t count;
    VkCommandBuffer *cmds;
    rg_chunk_info *chunks;
    char what[160]; /* "frame 5 (max_chunks 3, chunks recorded in order)" */
} frame;

typedef struct checker {
    rg_graph *g;
    null_device *nd;
    const rc_options *o;
    const rc_import *imports;
    uint32_t import_count;
    uint32_t batches;
    const rg_command *order;
    uint32_t order_count;
    uint32_t frames;         /* recorded so far */
    VkImageLayout **layouts; /* per image index: 3 aspects x mips x layers, lazily */
    uint32_t layout_cap;
    rc_stats *stats;
} checker;

/* A call as messages print it, in buf (LINE bytes). */
static inline const char *line_of(const nd_call *c, VkRenderingFlags mask, char *buf)
{
    return null_call_line(c, mask, buf, LINE);
}

/* record_check.c: calloc that fails the check when out of memory. */
void *rc_xcalloc(size_t n, size_t size);

/* record_layouts.c: checks a frame's layouts against the layouts its
 * images are in (kept across frames), and moves them on. */
void rc_oracle_frame(checker *ck, const frame *f);

/* record_cuts.c: compares frame f, in chunks, with the whole frame; prints
 * a frame's calls (FUZZ_DUMP). */
void rc_compare(checker *ck, const frame *whole, const frame *f);
void rc_dump_frame(const frame *f);

#endif
