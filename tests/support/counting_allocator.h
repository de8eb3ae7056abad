/* A host allocator for rg_allocator that counts calls and live blocks and
 * fails the call numbered fail_at (1-based; 0: none), for the tests that
 * fail each allocation in turn (unit/ and device/test_rg_allocator.c). */
#ifndef TEST_COUNTING_ALLOCATOR_H
#define TEST_COUNTING_ALLOCATOR_H

#include <rendergraph/rendergraph.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct counting {
    uint32_t calls, live, failed, fail_at;
} counting;

static inline void *count_alloc(void *user, size_t size)
{
    counting *c = user;
    if (++c->calls == c->fail_at) {
        c->failed++;
        return NULL;
    }
    void *p = malloc(size);
    c->live += p != NULL;
    return p;
}

static inline void *count_realloc(void *user, void *ptr, size_t size)
{
    counting *c = user;
    if (++c->calls == c->fail_at) {
        c->failed++;
        return NULL;
    }
    void *p = realloc(ptr, size);
    c->live += p && !ptr;
    return p;
}

static inline void count_free(void *user, void *ptr)
{
    counting *c = user;
    c->live -= ptr != NULL;
    free(ptr);
}

static inline rg_allocator counting_allocator(counting *c)
{
    return (rg_allocator){ count_alloc, count_realloc, count_free, c };
}

#endif
