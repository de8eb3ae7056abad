/* The scratch arena (arena.h): a list of blocks from the graph's
 * allocator, the first one filled from the front; allocations are spans
 * rounded up to RG__ARENA_ALIGN, and the whole list goes back at once.
 */
#include "base/arena.h"

#include <stdint.h>
#include <string.h>

/* Under AddressSanitizer each allocation is followed by a poisoned
 * redzone, and a block's bytes stay poisoned until handed out, so reading
 * past a scratch array is reported as with its own malloc. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define REDZONE RG__ARENA_ALIGN
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define REDZONE 0u
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Blocks double up to this size: beyond it a filled block wastes too
 * much of its rest, and the large arrays get blocks of their own anyway. */
#define BLOCK_MAX (RG__ARENA_BLOCK << 8)

struct rg__arena_block {
    rg__arena_block *next;
    size_t size;                      /* bytes from data on */
    unsigned char *data;              /* the first aligned byte after this header */
};

/* The bytes an allocation of `bytes` takes: rounded up to the alignment
 * (so the next one starts aligned), plus the redzone; 0 on overflow. */
static size_t span_of(size_t bytes)
{
    if (bytes > SIZE_MAX - RG__ARENA_ALIGN - REDZONE)
        return 0;
    bytes = bytes ? bytes : 1;
    return ((bytes + RG__ARENA_ALIGN - 1) & ~(size_t)(RG__ARENA_ALIGN - 1)) + REDZONE;
}

/* A block of `size` usable bytes, aligned, poisoned; NULL when out of
 * memory. The allocator aligns only as malloc does, so the header is
 * followed by up to RG__ARENA_ALIGN - 1 bytes of padding. */
static rg__arena_block *block_new(const rg_graph *g, size_t size)
{
    if (size > SIZE_MAX - sizeof(rg__arena_block) - RG__ARENA_ALIGN)
        return NULL;
    rg__arena_block *b = rg__malloc(g, sizeof *b + RG__ARENA_ALIGN - 1 + size);
    if (!b)
        return NULL;
    b->next = NULL;
    b->size = size;
    b->data = (unsigned char *)(b + 1) + (RG__ARENA_ALIGN - (uintptr_t)(b + 1) % RG__ARENA_ALIGN) % RG__ARENA_ALIGN;
    POISON(b->data, size);
    return b;
}

/* An allocation larger than the next block: a block of its own, put behind
 * the first so that the first goes on filling. */
static void *own_block(rg__arena *a, size_t span, size_t bytes)
{
    rg__arena_block *b = block_new(a->g, span);
    if (!b)
        return NULL;
    if (a->blocks) {
        b->next = a->blocks->next;
        a->blocks->next = b;
    } else {
        a->blocks = b;
        a->used = span;
        a->last = b->data;
    }
    UNPOISON(b->data, bytes);
    return b->data;
}

void *rg__arena_alloc(rg__arena *a, size_t bytes)
{
    size_t span = span_of(bytes);
    if (!span)
        return NULL;
    rg__arena_block *b = a->blocks;
    if (!b || b->size - a->used < span) {
        size_t size = a->next_size ? a->next_size : RG__ARENA_BLOCK;
        if (span > size)
            return own_block(a, span, bytes);
        b = block_new(a->g, size);
        if (!b)
            return NULL;
        b->next = a->blocks;
        a->blocks = b;
        a->used = 0;
        a->next_size = size < BLOCK_MAX ? 2 * size : size;
    }
    unsigned char *p = b->data + a->used;
    a->used += span;
    a->last = p;
    UNPOISON(p, bytes);
    return p;
}

void *rg__arena_calloc(rg__arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = rg__arena_alloc(a, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *rg__arena_grow(rg__arena *a, void *p, size_t old_bytes, size_t bytes)
{
    if (!p)
        return rg__arena_alloc(a, bytes);
    size_t span = span_of(bytes);
    if (span && p == a->last) {
        /* The latest allocation of the first block: nothing follows it, so
         * it extends (or shrinks) where it is when the block has room. */
        size_t at = (size_t)(a->last - a->blocks->data);
        if (a->blocks->size - at >= span) {
            POISON(a->last, a->used - at);
            a->used = at + span;
            UNPOISON(p, bytes);
            return p;
        }
    }
    void *q = rg__arena_alloc(a, bytes);
    if (q)
        memcpy(q, p, old_bytes < bytes ? old_bytes : bytes);
    return q;
}

void rg__arena_free(rg__arena *a)
{
    for (rg__arena_block *b = a->blocks, *next; b; b = next) {
        next = b->next;
        UNPOISON(b->data, b->size);
        rg__free(a->g, b);
    }
    *a = (rg__arena){.g = a->g};
}
