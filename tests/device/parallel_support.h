/* Helpers of the parallel recording tests (test_execute_parallel*.c):
 * per-command-buffer call logs written by loggers in the graph's function
 * table (parallel_log.c), the scenes (parallel_scene.c), frames recorded
 * whole or in chunks on threads, submitted and waited for
 * (parallel_frame.c), and the logs and pixels of a chunked frame compared
 * with the whole frame's (parallel_compare.c). */
#ifndef TEST_PARALLEL_SUPPORT_H
#define TEST_PARALLEL_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define W 64

#define H 64

#define MAX_CMDS 64                   /* command buffers of one frame: chunks, or batches */

#define MAX_USERS 64                  /* user commands of one frame */

#define PIXELS_BYTES (W * H * 4)

/* One command buffer's calls as text. Registered (log_open) on the test's
 * thread before recording; written only by the thread that records into
 * cmd; read after every recording thread is done. */
typedef struct cmd_log {
    VkCommandBuffer cmd;
    char *text;
    size_t len, cap;
    bool lost;                        /* an allocation failed: the log is incomplete */
} cmd_log;

void parallel_log_open(VkCommandBuffer cmd);

/* Takes cmd's text (the caller frees it); "" when nothing was logged. */
char *parallel_log_take(VkCommandBuffer cmd);

void parallel_logs_close(void);

void parallel_log_printf(VkCommandBuffer cmd, const char *fmt, ...);

/* What the logging device saw created: an image's usage and flags (false:
 * none seen), and the views of an image (up to max). */
bool parallel_image_made(VkImage image, VkImageUsageFlags *usage, VkImageCreateFlags *flags);
uint32_t parallel_views_of(VkImage image, VkImageView *views, uint32_t max);

/* The fixture's device with the loggers: every queue the context has,
 * local read where it has it, labels (validation enabled debug utils). */
rg_device *parallel_logging_device(void);

/* A user command: logs its call into its command buffer's log, and draws
 * a rectangle where it has a pipeline. fail: asks for a texture it did
 * not declare (the chunk's message says so), then fails. */
typedef struct user_cmd {
    char name[32];
    const eng_pipeline *pipeline;
    float rect[4], color[4], depth;
    bool fail;
    rg_texture undeclared;
} user_cmd;

typedef struct scene {
    eng_pipeline *with_depth, *color_only;
    user_cmd users[MAX_USERS];
    uint32_t user_count;
    uint64_t cost;                    /* the frame's cost, as rg_chunk_info counts it */
    eng_buffer *readback;             /* what the frame copies out, host-visible */
    size_t readback_size;
    rg_texture history;               /* the errors' frame: a history pair's current */
} scene;

/* Declares user command `name` (cost hint `cost`; 0 counts 1), a draw
 * inside spans. */
user_cmd *parallel_add_user(rg_graph *g, scene *s, const char *name, uint32_t cost, rg_queue queue,
                          const rg_access *accesses, uint32_t access_count, rg_command_kind kind,
                          const eng_pipeline *pipeline);

void parallel_scene_open(scene *s);

void parallel_scene_close(scene *s);

/* The end of a test: workers destroyed, then g, then the scene s (closed
 * and freed). */
void parallel_end(rg_workers *workers, rg_graph *g, scene *s);

rg_texture parallel_color_texture(rg_graph *g, const char *name);
/* A span named name that clears color to clear and depth to 1, storing
 * color, and depth as depth_store says. */
void parallel_begin_scene(rg_graph *g, const char *name, rg_texture color, const float clear[4], rg_texture depth,
                          VkAttachmentStoreOp depth_store);
/* The scenes' W x H D32 depth texture "depth". */
rg_texture parallel_depth_texture(rg_graph *g);
/* A graph made from d with culling off (the scenes' commands are checked
 * whether or not an import sees them), asserted to succeed. */
rg_graph *parallel_graph(rg_graph_desc d);

/* One queue, three spans of draws (cost hints 1 to 4 each) between
 * compute-stage commands and transfers: the opaque pass with depth, an
 * overlay on the same attachments, a blit, a UI pass over the blit, and
 * both colors copied out. Draws tie on depth and overlap, so their order
 * decides the pixels. failing: one of the opaque draws fails (errors);
 * history: a history pair cleared and read (errors). */
rg_graph *parallel_declare_single(rg_device *dev, const rg_allocator *allocator, scene *s, const char *failing,
                                bool history);

typedef enum mode {
    MODE_WHOLE,                       /* rg_execute, or rg_execute_batches on several queues */
    MODE_WORKERS,                     /* rg_workers_execute on 4 threads */
    MODE_THREADS,                     /* a POSIX thread per chunk, all at once */
    MODE_HAND,                        /* a loop on this thread, last chunk first */
} mode;

extern const char *const parallel_mode_names[];

/* One recorded frame: its command buffers (chunks, or batches for
 * MODE_WHOLE), each from a pool of its own, and what was recorded. */
typedef struct frame {
    rg_graph *graph;
    mode mode;
    uint32_t max_chunks;
    uint32_t count;
    rg_chunk_info chunks[MAX_CMDS];   /* MODE_WHOLE: batch i's queue in .queue, .batch = i */
    VkCommandPool pools[MAX_CMDS];
    VkCommandBuffer cmds[MAX_CMDS];
    rg_result results[MAX_CMDS];      /* each chunk's rg_execute_chunk */
    rg_result recorded;               /* rg_workers_execute's (MODE_WORKERS) */
    rg_submit_plan plan;
    bool has_plan;
    char *texts[MAX_CMDS];            /* logged calls per command buffer (log = true) */
} frame;

void parallel_frame_cmds(frame *f, bool log);

typedef struct chunk_job {
    rg_graph *graph;
    uint32_t index;
    VkCommandBuffer cmd;
    rg_result *result;
} chunk_job;

/* Records one frame of g: MODE_WHOLE through rg_execute (one batch) or
 * rg_execute_batches, else in chunks for max_chunks. Every command buffer
 * ends recording; the result is rg_execute's, rg_execute_batches' or
 * rg_execute_end's. A single-queue frame in chunks recorded by the loop
 * ends without a plan (its chunks are submitted by hand, in order). */
rg_result parallel_record_frame(frame *f, rg_graph *g, mode m, uint32_t max_chunks, rg_workers *workers, bool log);

/* Submits a recorded frame and waits for the device: its plan through
 * rg_submit, or without a plan its command buffers in order in one
 * vkQueueSubmit2; through vkQueueSubmit where a command buffer resumes
 * and suspends (see resumes_and_suspends). */
void parallel_submit_frame(frame *f);

/* Frees the frame's command buffers (with their pools) and texts. */
void parallel_frame_free(frame *f);

/* The chunks cover their batches' positions in order, contiguous,
 * and their costs add up to the frame's. */
void parallel_check_chunks(const frame *f, uint64_t cost);

typedef struct lines {
    char *buf;
    char **at;
    uint32_t count;
} lines;

typedef struct text {
    char *s;
    size_t len, cap;
} text;

bool parallel_starts(const char *s, const char *prefix);

/* What the cuts of a sweep did. */
typedef struct cut_stats {
    uint32_t resumed;                 /* chunks that resumed an instance */
    uint32_t resumed_in_span;         /* ... inside a span: its state set again */
    uint32_t resumed_between;         /* ... between merged spans */
    uint32_t resumed_local_read;      /* ... with a merged span's local-read state set again */
    uint32_t suspended_twice;         /* chunks that resumed and suspended one instance */
} cut_stats;

/* The readback as the frame left it. */
void parallel_read_pixels(const scene *s, unsigned char *out);

void parallel_clear_readback(const scene *s);

void parallel_expect_same_pixels(const unsigned char *want, const unsigned char *got, size_t size, const char *what);

/* One more frame of g (mode, max_chunks, workers as parallel_record_frame
 * takes them) from a cleared readback, submitted and waited for: the
 * scene's PIXELS_BYTES * 2 read back into got equal want. */
void parallel_expect_frame_renders(frame *f, rg_graph *g, scene *s, mode m, uint32_t max_chunks, rg_workers *workers,
                                   const unsigned char *want, unsigned char *got, const char *what);

/* The frame of g recorded whole (logged) from a cleared readback,
 * submitted and read back into want; room besides for a frame in chunks
 * (f) and its pixels (got): what comparing chunked frames of g with the
 * whole one takes. parallel_reference_close frees it all. */
typedef struct parallel_reference {
    frame *whole, *f;
    unsigned char *want, *got;
} parallel_reference;
void parallel_reference_open(parallel_reference *r, rg_graph *g, scene *s);
void parallel_reference_close(parallel_reference *r);

/* The first mode sweep records in (random_frames narrows it). */
extern mode parallel_sweep_first;

/* The whole frame of g, logged, submitted and read back; then each
 * max_chunks in turn in each mode, logged, compared with it, submitted,
 * read back and compared. */
void parallel_sweep(rg_graph *g, scene *s, const uint32_t *maxes, uint32_t max_count, size_t pixel_bytes,
                  cut_stats *st);

#endif
