/* Leaf helpers every stage uses: result strings, the error rules (rg__fail
 * sticky, rg__report not, rg__call_begin clearing), array growth, names,
 * handle tags and handle -> index lookup, subresource slots. Calls no other
 * file of the library. */
#include "model.h"
#include "base/bits.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *rg_result_string(rg_result result)
{
    switch (result) {
    case RG_SUCCESS: return "success";
    case RG_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case RG_ERROR_INVALID_HANDLE: return "invalid handle (0, stale or foreign)";
    case RG_ERROR_BAD_RANGE: return "subresource range outside the resource or not concrete";
    case RG_ERROR_UNBALANCED_SPAN: return "begin_rendering without end_rendering";
    case RG_ERROR_NESTED_SPAN: return "begin_rendering inside a span";
    case RG_ERROR_END_WITHOUT_BEGIN: return "end_rendering without begin_rendering";
    case RG_ERROR_DRAW_OUTSIDE_SPAN: return "draw command outside a span";
    case RG_ERROR_TRANSFER_IN_SPAN: return "copy, clear or blit inside a span";
    case RG_ERROR_ATTACHMENT_LAYOUT: return "attachment layout not legal for rendering";
    case RG_ERROR_ATTACHMENT_OVERLAP: return "two attachments on one subresource";
    case RG_ERROR_FEEDBACK_LOOP: return "interior access touches an attachment (feedback loop)";
    case RG_ERROR_TRANSITION_IN_SPAN: return "intra-span hazard needs a layout transition";
    case RG_ERROR_NOT_COMPILED: return "graph not compiled";
    case RG_ERROR_OUT_OF_MEMORY: return "out of memory";
    case RG_ERROR_CALLBACK: return "record callback failed";
    case RG_ERROR_VULKAN: return "Vulkan call failed";
    case RG_ERROR_HAZARD_IN_SPAN: return "intra-span hazard needs a barrier inside the render pass";
    case RG_ERROR_OUTSIDE_IN_SPAN: return "outside-kind command inside a span";
    case RG_ERROR_TRANSIENT_CONTENTS: return "transient texture used in a way that needs its contents";
    case RG_ERROR_NOT_PLACED: return "graph memory not placed";
    case RG_ERROR_IO: return "file could not be written";
    case RG_ERROR_READ_BEFORE_WRITE: return "read of contents nothing in the frame wrote";
    case RG_ERROR_UNDECLARED: return "resource not declared by the command";
    case RG_ERROR_EXTENT_MISMATCH: return "attachments of different extents without a render area";
    case RG_ERROR_UNSUPPORTED: return "not supported by the device";
    case RG_ERROR_INTERNAL: return "internal error (a bug in the library)";
    case RG_ERROR_NOT_READY: return "not ready yet";
    case RG_ERROR_BUSY: return "busy: another thread is in a call on the graph";
    case RG_ERROR_CULLED: return "the command was culled";
    case RG_RESULT_COUNT: break;
    }
    return "invalid rg_result value";
}

const char *rg_vk_result_string(VkResult vr)
{
    switch (vr) {
#define CASE(x) case x: return #x;
    CASE(VK_SUCCESS) CASE(VK_NOT_READY) CASE(VK_TIMEOUT) CASE(VK_INCOMPLETE)
    CASE(VK_SUBOPTIMAL_KHR) CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY) CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST) CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT) CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT) CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS) CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_SURFACE_LOST_KHR) CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    CASE(VK_ERROR_OUT_OF_DATE_KHR) CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_FRAGMENTED_POOL) CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE) CASE(VK_ERROR_FRAGMENTATION)
    CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS) CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef CASE
    default: return "an unnamed VkResult";
    }
}

/* ------------------------------------------------------- the default log */

static uint64_t hash_text(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 0x100000001b3ull;
    return h;
}

/* Whether p printed this line since it last forgot (and remembers it if
 * not). */
static bool printed_before(rg__printed *p, const char *object, const char *text)
{
    uint64_t h = hash_text(hash_text(0xcbf29ce484222325ull, object), text);
    bool seen = false;
    while (atomic_flag_test_and_set_explicit(&p->lock, memory_order_acquire))
        ;
    for (uint32_t i = 0; i < p->count && !seen; i++)
        seen = p->hashes[i] == h;
    if (!seen) {
        p->hashes[p->next] = h;
        p->next = (p->next + 1) % RG__PRINTED_MAX;
        if (p->count < RG__PRINTED_MAX)
            p->count++;
    }
    atomic_flag_clear_explicit(&p->lock, memory_order_release);
    return seen;
}

void rg__log_default(rg__printed *printed, rg_log_level level, const char *object, const char *text)
{
    if (level == RG_LOG_INFO || (printed && printed_before(printed, object, text)))
        return;
    fprintf(stderr, "rendergraph: %s: %s: %s\n", level == RG_LOG_ERROR ? "error" : "warning", object, text);
}

void rg__printed_forget(rg__printed *p)
{
    if (!p)
        return;
    while (atomic_flag_test_and_set_explicit(&p->lock, memory_order_acquire))
        ;
    p->count = p->next = 0;
    atomic_flag_clear_explicit(&p->lock, memory_order_release);
}

static void log_text(const rg_graph *g, rg_log_level level, const char *text)
{
    if (!g->log && level == RG_LOG_INFO)
        return;
    char object[RG__NAME_MAX + 16];
    snprintf(object, sizeof object, "graph '%s'", g->name);
    if (g->log)
        g->log(g->log_user, level, object, text);
    else
        rg__log_default(g->printed, level, object, text);
}

void rg__log(const rg_graph *g, rg_log_level level, const char *fmt, ...)
{
    if (!g->log && level == RG_LOG_INFO)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    log_text(g, level, text);
}

rg_result rg__fail(const rg_graph *g, rg_result r, const char *fmt, ...)
{
    if (g->status->state == RG__FAILED)
        return g->status->error;
    g->status->state = RG__FAILED;
    g->status->error = r;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->status->message, sizeof g->status->message, fmt, ap);
    va_end(ap);
    log_text(g, RG_LOG_ERROR, g->status->message);
    return r;
}

/* The chunk recording on this thread, if any (rg__redirect_status). */
static RG__THREAD_LOCAL rg__redirect redirect;

rg__redirect rg__redirect_status(const rg_graph *g, rg__status *status)
{
    rg__redirect saved = redirect;
    redirect = (rg__redirect){g, status};
    return saved;
}

void rg__redirect_restore(rg__redirect saved) { redirect = saved; }

/* Where a report about g goes: the graph's status, or the chunk's. */
static rg__status *status_of(const rg_graph *g)
{
    return redirect.graph == g && redirect.status ? redirect.status : g->status;
}

/* This thread's last refusal for another thread holding a graph: its
 * own message, which the graph's (the holder's) must not replace. Cleared
 * when this thread next takes that graph. */
static RG__THREAD_LOCAL struct {
    const rg_graph *graph;
    char text[RG__NAME_MAX + 512];
} busy_note;

const char *rg__status_message(const rg_graph *g)
{
    return busy_note.graph == g ? busy_note.text : status_of(g)->message;
}

rg_result rg__report(const rg_graph *g, rg_result r, const char *fmt, ...)
{
    if (g->status->state == RG__FAILED)
        return r; /* the kept error's message stays: it is why nothing runs */
    rg__status *st = status_of(g);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    /* A chunk's failure is logged once, by rg_execute_end, which returns
     * it; a culled command's query is an answer. */
    if (st == g->status && r != RG_ERROR_CULLED)
        log_text(g, RG_LOG_ERROR, st->message);
    return r;
}

/* ---------------------------------------------------------- one thread */

const char rg__frame_call[] = "rg_execute_begin (a frame recorded in chunks, until rg_execute_end)";

/* Its address names the thread. */
static RG__THREAD_LOCAL char thread_tag;

/* A refusal of a call back into g from the thread in it: reported, and
 * logged even where the report is not (a chunk's status, a kept error). */
static rg_result reentered(rg_graph *g, const char *text)
{
    bool logged = g->status->state != RG__FAILED && status_of(g) == g->status;
    rg__report(g, RG_ERROR_INVALID_ARGUMENT, "%s", text);
    if (!logged)
        log_text(g, RG_LOG_ERROR, text);
    return RG_ERROR_INVALID_ARGUMENT;
}

rg_result rg__enter(rg_graph *g, const char *what, bool declaration)
{
    if (!rg__word_live(&g->magic, RG__GRAPH_LIVE, what, "graph"))
        return RG_ERROR_INVALID_HANDLE;
    const char *holder = NULL;
    uintptr_t me = (uintptr_t)&thread_tag;
    if (atomic_compare_exchange_strong_explicit(&g->busy, &holder, what, memory_order_acquire,
                                                memory_order_relaxed)) {
        atomic_store_explicit(&g->busy_thread, me, memory_order_relaxed);
        if (busy_note.graph == g)
            busy_note.graph = NULL;
        if (g->orphaned && strcmp(what, "rg_graph_destroy") != 0) {
            rg__report(g, RG_ERROR_INVALID_HANDLE, "%s: graph '%s' lost its device (rg_device_destroy came first): "
                       "only rg_graph_destroy remains for it", what, g->name);
            rg__leave(g);
            return RG_ERROR_INVALID_HANDLE;
        }
        return RG_SUCCESS;
    }
    char text[sizeof busy_note.text];
    if (atomic_load_explicit(&g->busy_thread, memory_order_relaxed) == me) {
        if (holder == rg__frame_call)
            snprintf(text, sizeof text, "%s: graph '%s' is recording a frame in chunks (rg_execute_end ends it)",
                     what, g->name);
        else
            snprintf(text, sizeof text, "%s: graph '%s' is in %s on this thread (a record callback may not change "
                     "the graph it records)", what, g->name, holder);
        return reentered(g, text);
    }
    if (declaration) {
        const char *none = NULL;
        atomic_compare_exchange_strong(&g->refused, &none, what);
    }
    /* The log and this thread's note: the graph's message belongs to the
     * thread in it. */
    snprintf(text, sizeof text, "%s: graph '%s' is busy: another thread is in %s (a graph belongs to one thread at "
             "a time: rendergraph.h, \"Threads\")", what, g->name, holder);
    log_text(g, RG_LOG_ERROR, text);
    memcpy(busy_note.text, text, sizeof text);
    busy_note.graph = g;
    return RG_ERROR_BUSY;
}

void rg__leave(rg_graph *g)
{
    atomic_store_explicit(&g->busy_thread, 0, memory_order_relaxed);
    atomic_store_explicit(&g->busy, NULL, memory_order_release);
}

const char *rg__refused(rg_graph *g) { return atomic_exchange(&g->refused, NULL); }

void rg__call_begin(const rg_graph *g)
{
    if (g->status->state != RG__FAILED)
        status_of(g)->message[0] = '\0';
}

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void *default_realloc(void *user, void *p, size_t size)
{
    (void)user;
    return realloc(p, size);
}

static void default_free(void *user, void *p)
{
    (void)user;
    free(p);
}

static const rg_allocator libc = {default_alloc, default_realloc, default_free, NULL};

bool rg__allocator_resolve(const rg_allocator *given, const rg_allocator *fallback, rg_allocator *out)
{
    const rg_allocator *a = given ? given : fallback ? fallback : &libc;
    if (!a->alloc || !a->realloc || !a->free)
        return false;
    *out = *a;
    return true;
}

void *rg__malloc(const rg_graph *g, size_t size) { return g->alloc.alloc(g->alloc.user, size); }

void *rg__calloc(const rg_graph *g, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = g->alloc.alloc(g->alloc.user, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *rg__realloc(const rg_graph *g, void *p, size_t size) { return g->alloc.realloc(g->alloc.user, p, size); }

/* Takes a pointer to const: results publish their arrays as const, and
 * their owner frees them. */
void rg__free(const rg_graph *g, const void *p)
{
    if (p)
        g->alloc.free(g->alloc.user, (void *)(uintptr_t)p);
}

void rg__free_all(const rg_graph *g, const void *const *ptrs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        rg__free(g, ptrs[i]);
}

bool rg__grow(const rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    void *q = rg__realloc(g, *p, (size_t)n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = (uint32_t)n;
    return true;
}

/* Every command is named: a plain bounded copy (snprintf's format
 * machinery would be a tenth of declaring a command). */
void rg__copy_name(char *dst, const char *src, const char *fallback)
{
    const char *from = src && src[0] ? src : fallback;
    size_t n = 0;
    while (n < RG__NAME_MAX - 1 && from[n]) {
        dst[n] = from[n];
        n++;
    }
    dst[n] = '\0';
}

uint32_t rg__next_tag(void)
{
    static atomic_uint counter;
    return atomic_fetch_add(&counter, 1u) % ((1u << (32 - RG__INDEX_BITS)) - 1u) + 1u;
}

/* The record index a handle id names in g's current declaration, or
 * RG__NONE. */
static uint32_t id_index(const rg_graph *g, uint32_t id, uint32_t count)
{
    if (!g || id == 0 || (id >> RG__INDEX_BITS) != g->decl.tag)
        return RG__NONE;
    uint32_t i = (id & RG__INDEX_MASK) - 1;
    return i < count ? i : RG__NONE;
}

static uint32_t resource_index(const rg_graph *g, uint32_t id, bool texture)
{
    uint32_t i = g ? id_index(g, id, g->decl.resource_count) : RG__NONE;
    return i != RG__NONE && g->decl.resources[i].is_texture == texture ? i : RG__NONE;
}

uint32_t rg__texture_index(const rg_graph *g, rg_texture t) { return resource_index(g, t.id, true); }
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b) { return resource_index(g, b.id, false); }
uint32_t rg__command_index(const rg_graph *g, rg_command c)
{
    return g ? id_index(g, c.id, g->decl.cmd_count) : RG__NONE;
}

uint32_t rg__sub_slot(const rg__resource *r, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer)
{
    if (!r->is_texture)
        return r->sub_base;
    uint32_t a = rg__popcount32(r->aspects & ((uint32_t)aspect - 1u));
    return r->sub_base + (a * r->mip_levels + mip) * r->array_layers + layer;
}

/* ------------------------------------------------------ destroyed objects */

static RG__THREAD_LOCAL char destroyed_message[192];

void rg__destroyed(const char *what, const char *kind, const void *p)
{
    snprintf(destroyed_message, sizeof destroyed_message, "%s: the %s at %p was destroyed (a call on it after "
             "its destroy call is the application's bug)", what, kind, p);
    rg__log_default(NULL, RG_LOG_ERROR, kind, destroyed_message);
}

const char *rg__destroyed_message(void) { return destroyed_message; }

bool rg__word_live(const _Atomic uint32_t *magic, uint32_t live, const char *what, const char *kind)
{
    if (atomic_load_explicit(magic, memory_order_acquire) == live)
        return true;
    rg__destroyed(what, kind, magic);
    return false;
}

bool rg__graph_live(const rg_graph *g, const char *what)
{
    return g && rg__word_live(&g->magic, RG__GRAPH_LIVE, what, "graph");
}

/* The quarantined blocks, a ring: the slot a block takes held the block
 * RG__QUARANTINE destroys before it, which is freed now. */
static _Atomic(void *) quarantined[RG__QUARANTINE];
static atomic_uint quarantine_next;

void rg__quarantine(void *block, const rg_allocator *alloc)
{
    if (alloc->free != libc.free) {
        alloc->free(alloc->user, block);
        return;
    }
    unsigned slot = atomic_fetch_add(&quarantine_next, 1u) % RG__QUARANTINE;
    free(atomic_exchange(&quarantined[slot], block));
}
