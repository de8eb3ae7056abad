/* What changes from frame to frame once a graph is placed, in
 * rg__execution: the frame cut into chunks and each chunk's recording,
 * the attachment views bound for the frame, the views made on demand, the
 * queues' timelines, the timings' frames. Each part has one writer, the
 * file named at it. The model holds rg__execution behind a pointer to
 * const; only the conductor (graph.c, graph_execute.c: rg__execution_of)
 * gets it writable, and hands each writer its own part, so a file writing
 * another's part does not compile. Made when a graph is placed on its
 * device and freed with the placement (execution.c). The functions are
 * in execute/stages.h. Not installed.
 */
#ifndef RG_EXECUTION_H
#define RG_EXECUTION_H

#include "place/results.h"

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

/* execute_chunks.c: the frame cut into chunks, made for `chunks_for`
 * asked and kept while the ask is the same; the arrays only grow. */
typedef struct rg__chunks {
    rg__chunk *of;
    uint32_t count, cap;
    uint32_t chunks_for;              /* the max_chunks they were cut for (with `of` set) */
    uint32_t *batch_chunk;            /* per batch its first chunk; batch_count + 1 */
} rg__chunks;

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

/* execute.c: per chunk its run, reset as each frame begins and written
 * only by the thread recording that chunk; the scratch arrays hold
 * barrier_cap + 1 barriers per chunk and only grow. */
typedef struct rg__runs {
    rg__chunk_run *of;
    uint32_t cap;
    uint32_t barrier_cap;
    VkImageMemoryBarrier2 *image_barriers;
    VkBufferMemoryBarrier2 *buffer_barriers;
} rg__runs;

/* execute_frames.c: the frame's life from rg_execute_begin to its end and
 * from frame to frame: how many frames were recorded since placement (the
 * first clears history pairs' previous halves, each later one has the
 * halves trade images), each span's rendering as this frame begins it,
 * the chunks' command buffers and the submission plan. */
typedef struct rg__frame {
    uint64_t recorded;
    bool history_swapped;             /* the halves of each pair hold each other's image */
    bool open;                        /* between rg_execute_begin and rg_execute_end */
    bool swapped_now;                 /* the open frame swapped the halves */
    uint32_t clears_chunk;            /* the chunk that records the history clears (RG__NONE) */
    /* Per span, its rendering as this frame begins it; the spans made
     * again each frame (an import or history attachment in the instance). */
    rg_span_rendering *spans;
    uint32_t *dynamic_spans;
    uint32_t dynamic_count;
    VkCommandBuffer *cmds;            /* cmd_cap: the plan's command buffers, per chunk */
    uint32_t cmd_cap;
    /* Per queue, the value its timeline reached in the frames recorded so
     * far (the frame being recorded adds its batches' numbers to it), and
     * the submission plan rg_execute_batches fills (batch_count entries). */
    uint64_t timeline[RG_QUEUE_COUNT];
    rg_submission *submissions;
} rg__frame;

/* execute_imports.c: each span's attachment views as this frame binds
 * them (placement's, with the imports' and history halves' of the frame),
 * and the views made of imports' images, per (slot, image), on first
 * sight, kept until the placement is freed. */
typedef struct rg__bound_views {
    rg__span_views *spans;            /* placement's span count */
    rg__made_views made;
} rg__bound_views;

/* What record callbacks get: the graph (for its resources' objects), the
 * command buffer, the command being recorded (RG__NONE: none, for
 * rg_record_context_get's) and the access views to find or add to (the
 * writer's pointer, handed down by the conductor). */
struct rg_record_context {
    rg_graph *graph;
    VkCommandBuffer cmd;
    uint32_t command;
    rg__made_views *access_views;     /* the graph's, which rg_record_image_info grows */
};

/* record_timings.c: which frame each slot of the timing pools holds, and
 * what the latest completed one measured. */
typedef struct rg__timing_frames {
    uint64_t slot_frame[RG__TIMING_FRAMES]; /* the frame a slot holds, from 1; 0: free */
    uint32_t recording;               /* 1 + the slot of the frame being recorded; 0: none */
    uint64_t frames;                  /* frames recorded since placement */
    uint64_t *raw;                    /* vkGetQueryPoolResults' scratch: value, availability */
    double *ms;                       /* per unit, of the latest completed frame */
    uint64_t completed;               /* that frame, 0: none yet */
} rg__timing_frames;

typedef struct rg__execution {
    rg__chunks chunks;                /* execute_chunks.c */
    rg__runs runs;                    /* execute.c */
    rg__frame frame;                  /* execute_frames.c */
    rg__bound_views bound;            /* execute_imports.c */
    /* record_descriptors.c: views of accesses' subresources, per image (a
     * history half or an import has several), made when first asked for. */
    rg__made_views access_views;
    rg_record_context by_hand;        /* graph_execute.c: rg_record_context_get's */
    rg__timing_frames timing;         /* record_timings.c */
    /* submit.c: the value rg_submit last signalled on each queue's
     * timeline (0: none), what retiring the placement waits for (device.c). */
    uint64_t submitted[RG_QUEUE_COUNT];
} rg__execution;

#endif
