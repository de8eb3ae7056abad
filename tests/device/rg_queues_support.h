/* Helpers of the render graph's several-queue tests (test_rg_queues*.c):
 * graphs on every queue, frames recorded per batch and submitted with
 * rg_submit, compute kernels that write and transform known patterns, and
 * the chain of passes the tests read back. */
#ifndef TEST_RG_QUEUES_SUPPORT_H
#define TEST_RG_QUEUES_SUPPORT_H

#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

#define WORDS 4096u                   /* 32-bit words in each test buffer */

#define BYTES (WORDS * 4u)

#define TEX_W 64u                     /* an R32_UINT texture of WORDS texels */

#define TEX_H (WORDS / TEX_W)

#define TEX_FMT VK_FORMAT_R32_UINT

#define MAX_FRAMES 8u

#define MAX_BATCHES 16u

#define WAIT_NS 10000000000ull        /* 10 s: a semaphore value that takes longer never comes */

/* Where a command eligible for async compute runs: the compute queue where
 * the device has one, else the graphics queue. */
rg_queue queues_async_queue(void);

/* Culling off, as test_device_graph: these graphs' every command is meant
 * to run. single_queue: everything on the graphics queue. */
rg_graph *queues_queue_graph(const char *name, bool single_queue);

/* The batches of a compiled graph: more than one exactly where the device
 * has a compute queue and the graph may use it (multi); each batch's waits
 * name another queue, at a batch before it (or the frame before's:
 * RG_INDEX_NONE), at some stage; the last batch is on the graphics queue. */
void queues_check_batches(const rg_graph *g, bool multi);

/* A command runs on `want`, in a batch of that queue whose execution-order
 * range holds it. */
void queues_expect_queue(const rg_graph *g, rg_command c, rg_queue want);
/* The same for each of n commands. */
void queues_expect_queues(const rg_graph *g, const rg_command *c, uint32_t n, rg_queue want);

/* Command pools per graph queue (one per family: queues of one family
 * share it) and the fence of the last frame. */
typedef struct runner {
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    bool owns[RG_QUEUE_COUNT];
    VkFence fence;
} runner;

void queues_runner_open(runner *r);

void queues_runner_close(runner *r);

/* Called before frame `frame` is recorded: per-frame push constants and
 * readbacks. */
typedef void (*frame_fn)(uint32_t frame, void *user);

/* What queues_run_frames adds to each frame's rg_submit (the gate of
 * frames_back_to_back); NULL: a fence on the last frame only. */
typedef void (*submit_fn)(uint32_t frame, rg_submit_desc *desc, void *user);

/* Records `frames` frames of g, each into fresh command buffers (one per
 * batch, from its queue family's pool), submits each frame's plan right
 * after recording it, the last with the fence; after_submit runs once all
 * are submitted (may be NULL); then waits for the fence, which covers every
 * batch of every frame, and frees the command buffers. */
void queues_run_frames(runner *r, rg_graph *g, uint32_t frames, frame_fn before, submit_fn submit,
                       void (*after_submit)(void *), void *user);

/* The two compute shaders over storage buffers: queue_pattern.comp writes
 * base + i * step, queue_transform.comp writes src * mul + add. */
typedef struct kernels {
    VkDevice dev;
    VkDescriptorPool pool;
    VkDescriptorSetLayout one, two;   /* dst; src and dst */
    VkPipelineLayout pattern_layout, transform_layout;
    VkPipeline pattern, transform;
} kernels;

VkDescriptorSetLayout queues_buffers_layout(VkDevice dev, uint32_t count, VkShaderStageFlags stages);

void queues_compute_pipeline(VkDevice dev, const uint32_t *code, size_t size, VkDescriptorSetLayout set,
                             VkPipelineLayout *layout, VkPipeline *pipeline);

void queues_kernels_open(kernels *k);

void queues_kernels_close(kernels *k);

/* One dispatch over WORDS words: the pattern into dst (src 0) or the
 * transform of src into dst. push: base, step or mul, add; then the count.
 * The set is written when the graph's buffers change, which a placed graph's
 * do not: a set bound by a frame still pending must not be updated, and
 * frames here are submitted back to back. */
typedef struct dispatch {
    kernels *k;
    VkDescriptorSet set;
    rg_buffer src, dst;
    VkBuffer bound_src, bound_dst;
    uint32_t push[4];
} dispatch;

dispatch queues_pattern_of(kernels *k, rg_buffer dst, uint32_t base, uint32_t step);

dispatch queues_transform_of(kernels *k, rg_buffer src, rg_buffer dst, uint32_t mul, uint32_t add);

/* Declares the dispatch with its accesses (storage read of src, storage
 * write of dst in the compute shader), eligible for `queue`. */
rg_command queues_declare_dispatch(rg_graph *g, const char *name, dispatch *d, rg_queue queue);

uint32_t queues_pattern_at(const dispatch *d, uint32_t i);

uint32_t queues_transform_at(const dispatch *d, uint32_t v);

/* A history texture of TEX_FMT cleared to `clear` and the step that makes
 * current from previous each frame, every command eligible for the compute
 * queue: previous copied into a buffer, transformed (* 3 + 7), copied into
 * current (on_async, in that order). The dispatch's record callback keeps
 * &h->step: h must outlive the graph's frames. */
typedef struct history_step {
    rg_texture current, previous;
    dispatch step;
    rg_command on_async[3];
} history_step;

void queues_history_step(history_step *h, rg_graph *g, kernels *k, const char *name, uint32_t clear);

/* Counts the words of got that differ from want, reporting the first few. */
uint32_t queues_expect_words(const uint32_t *got, const uint32_t *want, uint32_t count, const char *what);

/* 2. Five frames submitted back to back, each recorded into command
 * buffers of its own with its own pattern and its own readback (the import
 * re-pointed per frame): frame N+1's compute work overwrites what frame N's
 * graphics work still reads, so only the graph's cross-frame waits keep
 * each frame's results exact. The first frame also waits on a timeline
 * semaphore the host signals only once every frame is submitted
 * (rg_submit_desc.waits), and each frame's last batch signals another one
 * (rg_submit_desc.signals). */
#define FRAMES 5u

/* Every use in `first` happens before every use in `then`. */
void queues_expect_ordered(const rg_graph *g, const rg_command *first, uint32_t nf, const rg_command *then,
                           uint32_t nt);
/* A resource handed from the async queue to graphics: batches on several
 * queues, the n uses in `early` on the async queue, the n in `late` on
 * graphics, each of the first before each of the second. */
void queues_expect_handoff(const rg_graph *g, const rg_command *early, const rg_command *late, uint32_t n);

/* Frames that each read back into a buffer of their own (the import
 * re-pointed per frame) from a pattern that changes per frame. */
typedef struct readback_job {
    dispatch *pattern;
    rg_graph *g;
    rg_buffer out;
    eng_buffer *readbacks[FRAMES];
} readback_job;

void queues_readback_before(uint32_t frame, void *user);

/* A multi-queue graph and `frames` host-visible readbacks of `bytes`. */
rg_graph *queues_readback_open(readback_job *j, uint32_t frames, VkDeviceSize bytes, const char *name);

/* Destroys the job's graph and its first `frames` readbacks. */
void queues_readback_close(readback_job *j, uint32_t frames);

/* Where a copy eligible for the transfer queue runs: there where the
 * device has a transfer-only queue family, else on graphics. */
rg_queue queues_transfer_queue(void);

/* The kernels and the runner opened, as every test here starts. */
void queues_open(kernels *k, runner *r);

/* What the tests whose frames read back hold: the kernels, the runner and
 * a readback job of `frames` frames, opened and closed together. */
typedef struct queues_fixture {
    kernels k;
    runner r;
    readback_job j;
    uint32_t frames;
} queues_fixture;

/* queues_open, then queues_readback_open: the job's graph. */
rg_graph *queues_fixture_open(queues_fixture *q, uint32_t frames, VkDeviceSize bytes, const char *name);
/* The readbacks and the graph, the runner and the kernels closed. */
void queues_fixture_close(queues_fixture *q);

#endif
