/* What every file of the library shares (base.c): internal names and
 * limits, the lifecycle state and status, errors and the log, host memory,
 * handles and their tags, and the one-thread rule. Not installed.
 *
 * One lifecycle state (rg__state) says how far the current declaration has
 * gone. Declaration and compile errors are sticky (rg__fail): the graph is
 * FAILED until reset. Every later call (placement, execute, queries,
 * reports) reports a failure through rg__report, which sets the message and
 * returns the code without making it sticky; the pipeline calls and the
 * per-frame setters clear the message when they start (rg__call_begin).
 */
#ifndef RG_BASE_H
#define RG_BASE_H

#include "rendergraph/rendergraph.h"

#include <stdatomic.h>

#define RG__NONE RG_INDEX_NONE
#define RG__NAME_MAX 64

/* Handle ids: low 20 bits = index + 1, high 12 bits = the graph's tag,
 * which changes at every reset and differs between graphs, so stale and
 * foreign handles are caught. */
#define RG__INDEX_BITS 20u
#define RG__INDEX_MASK ((1u << RG__INDEX_BITS) - 1u)

typedef enum rg__state {
    RG__DECLARED = 0,                 /* declaring, or declared since the last compile */
    RG__COMPILED,                     /* the compiled arrays match the declaration */
    RG__PLACED,                       /* and a placement (device or offline) matches them */
    RG__FAILED,                       /* a declaration or compile error is kept */
} rg__state;

/* The default log's memory of the lines it printed (base.c): hashes of
 * the last RG__PRINTED_MAX distinct ones. */
#define RG__PRINTED_MAX 64
typedef struct rg__printed {
    atomic_flag lock;                 /* held for a few compares: a spin */
    uint64_t hashes[RG__PRINTED_MAX];
    uint32_t count, next;
} rg__printed;

/* The graph's state, its sticky error and its last message (graph.c;
 * a chunk being recorded has its own: rg__chunk_run). */
typedef struct rg__status {
    rg__state state;
    rg_result error;                  /* the sticky error (RG__FAILED) */
    char message[512];                /* the last error's message */
    bool incomplete;                  /* a declaration call failed or was ignored: the
                                         declaration lacks it (rg_declared_*) */
} rg__status;

/* A declaration or compile error: kept (the first one only) and returned;
 * the graph is FAILED until reset. */
rg_result rg__fail(const rg_graph *g, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Any other call's error: sets the message (unless a sticky error's is
 * kept) and returns r. */
rg_result rg__report(const rg_graph *g, rg_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* At the start of a pipeline call (rg_compile, rg_place, rg_place_offline,
 * rg_execute, rg_execute_batches, rg_submit) or a per-frame setter
 * (rg_texture_set_image, rg_buffer_set_buffer): clears the message unless
 * a sticky error's is kept, so a call that succeeds leaves "". Queries and
 * reports never call it: they write to the graph only when they fail. */
void rg__call_begin(const rg_graph *g);

/* A message to the graph's log (rg_log_fn), about the graph. */
/* The log without an rg_log_fn: WARNING and ERROR lines on stderr, each
 * distinct (object, text) once until printed forgets (NULL: no memory);
 * INFO nowhere. A graph's printed is forgotten when its placement is
 * freed, so a failure repeated every frame prints once per placement. */
void rg__log_default(rg__printed *printed, rg_log_level level, const char *object, const char *text);
void rg__printed_forget(rg__printed *printed);
void rg__log(const rg_graph *g, rg_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Host memory through the graph's allocator (rg_allocator). */
void *rg__malloc(const rg_graph *g, size_t size);
void *rg__calloc(const rg_graph *g, size_t count, size_t size);
void *rg__realloc(const rg_graph *g, void *p, size_t size);
void rg__free(const rg_graph *g, const void *p);
/* Frees each of its arguments (pointers, NULL allowed): a result's free
 * function names its arrays once. */
void rg__free_all(const rg_graph *g, const void *const *ptrs, size_t count);
#define RG__FREE_ALL(g, ...)                                                                                 \
    rg__free_all((g), (const void *const[]){__VA_ARGS__},                                                    \
                 sizeof((const void *const[]){__VA_ARGS__}) / sizeof(const void *))
/* An allocator with its defaults filled in (malloc, realloc, free for
 * NULL); false when one is given without all three functions. */
bool rg__allocator_resolve(const rg_allocator *given, const rg_allocator *fallback, rg_allocator *out);

/* Grows *p to hold at least need elements of elem bytes (geometric, so
 * appends are amortised O(1)); false when out of memory (*p unchanged). */
bool rg__grow(const rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem);

/* Bounded copy of src (or fallback when src is NULL or empty) into a
 * RG__NAME_MAX buffer. */
void rg__copy_name(char *dst, const char *src, const char *fallback);

/* A new handle tag: distinct for every graph and reset of the process
 * (until 4095 have been given out). */
uint32_t rg__next_tag(void);
/* Handle -> index, or RG__NONE when stale, foreign or 0. */
uint32_t rg__texture_index(const rg_graph *g, rg_texture t);
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b);
uint32_t rg__command_index(const rg_graph *g, rg_command c);

/* ------------------------------------------------------ destroyed objects */

/* A graph's and a device's first word: its RG__*_LIVE value while it
 * lives, RG__DEAD from its destroy on. Every public call that takes one
 * reads that word before anything else, so a destroyed object is refused
 * (RG_ERROR_INVALID_HANDLE), never read. */
#define RG__GRAPH_LIVE 0x47677200u    /* "\0rgG" */
#define RG__DEVICE_LIVE 0x44677200u   /* "\0rgD" */
#define RG__DEAD 0xdeadd00du

/* Whether g is a graph that lives. A destroyed one's call `what` is
 * logged on stderr (its own log went with it) naming the call and the
 * pointer, and this thread's rg_graph_error_message for it says so.
 * False for NULL, without a message. */
bool rg__graph_live(const rg_graph *g, const char *what);
bool rg__device_live(const rg_device *d, const char *what);
/* Their common part: whether the first word at magic is `live`, else
 * rg__destroyed (the word is the object's first, so its address is the
 * object's). */
bool rg__word_live(const _Atomic uint32_t *magic, uint32_t live, const char *what, const char *kind);
/* Says that `what` was called on the destroyed object `kind` at p. */
void rg__destroyed(const char *what, const char *kind, const void *p);
/* This thread's message about its last call on a destroyed object. */
const char *rg__destroyed_message(void);

/* Hands back the block of a destroyed graph or device. From the default
 * allocator it is held in a quarantine of the last RG__QUARANTINE such
 * blocks (freed as later ones come), so the poisoned word stays there to
 * read; from the application's allocator it goes back at once (a free
 * after the destroy call could reach an allocator the application
 * already dropped). */
#define RG__QUARANTINE 16u
void rg__quarantine(void *block, const rg_allocator *alloc);

/* ------------------------------------------------------ one-thread rule */

/* Takes g for the call `what` (a string literal: its address names it):
 * RG_SUCCESS; RG_ERROR_BUSY when another thread is in a call on g
 * (logged, naming both calls; a declaration call is remembered for
 * rg__refused); RG_ERROR_INVALID_ARGUMENT, reported, when this thread is
 * (a record callback changing its graph, or a frame begun and not ended).
 * One compare-exchange and one store; rg__leave gives g back. */
rg_result rg__enter(rg_graph *g, const char *what, bool declaration);
void rg__leave(rg_graph *g);
/* The holder of a frame recorded in chunks (rg_execute_begin takes g with
 * it, rg_execute_end gives it back); rg_execute_chunk runs on any thread
 * while g->busy is it. */
extern const char rg__frame_call[];
/* The body of a public declaration call that returns a handle of `type`
 * and takes the graph (a refusal is remembered for rg_compile). */
#define RG__DECLARING(graph, what, type, call)                                                                    \
    do {                                                                                                          \
        if (!(graph) || rg__enter((graph), (what), true) != RG_SUCCESS)                                           \
            return (type){0};                                                                                     \
        type rg_declared_ = (call);                                                                               \
        if ((graph)->status->state == RG__FAILED)                                                                 \
            (graph)->status->incomplete = true;                                                                   \
        rg__leave(graph);                                                                                         \
        return rg_declared_;                                                                                      \
    } while (0)
/* The body of a public call that returns rg_result and takes the graph:
 * `call` runs between rg__enter and rg__leave. */
#define RG__TAKEN(graph, what, call)                                                                              \
    do {                                                                                                          \
        if (!(graph))                                                                                             \
            return RG_ERROR_INVALID_ARGUMENT;                                                                     \
        rg_result rg_taken_ = rg__enter((graph), (what), false);                                                  \
        if (rg_taken_ == RG_SUCCESS) {                                                                            \
            rg_taken_ = (call);                                                                                   \
            rg__leave(graph);                                                                                     \
        }                                                                                                         \
        return rg_taken_;                                                                                         \
    } while (0)
/* The declaration call refused while this thread held g, if any (then
 * forgotten): rg_compile fails with it. */
const char *rg__refused(rg_graph *g);

/* While a chunk records on this thread, reports about g (rg__report,
 * rg__call_begin) go to its status instead of the graph's; NULL ends it.
 * Returns what was redirected before, to restore. */
typedef struct rg__redirect {
    const rg_graph *graph;
    rg__status *status;
} rg__redirect;
rg__redirect rg__redirect_status(const rg_graph *g, rg__status *status);
/* The message a query on this thread sees: the chunk's while one records. */
const char *rg__status_message(const rg_graph *g);
void rg__redirect_restore(rg__redirect saved);

/* ------------------------------------------------------------------ tiles */

/* tile_profiles.c: an Adreno chip's GMEM bytes (0: not in the table), and
 * what caps' tile holds (its profile's row, AUTO as desktop, with the
 * model's memory where caps know it). */
uint64_t rg__tile_memory_of(uint32_t vendor_id, uint32_t device_id);
rg_tile_info rg__tile_of(const rg_device_caps *caps);

/* The stages a queue of that kind supports (usage.c; for eligibility and
 * barriers). */
VkPipelineStageFlags2 rg__queue_stages(rg_queue q);

/* Milliseconds on a monotonic clock (clock.c): differences only. */
double rg__clock_ms(void);

#endif
