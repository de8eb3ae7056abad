/* A scratch arena (arena.c): the temporary arrays of one compile stage,
 * taken from a few large blocks of the graph's allocator and handed back
 * all at once, so a stage with many temporaries frees them in one call on
 * every exit path. Only what dies with the stage goes in it: a result that
 * outlives the stage is rg__malloc'd as before. Not installed.
 *
 *     rg__arena scratch = {.g = g};
 *     uint32_t *seen = rg__arena_alloc(&scratch, n * sizeof *seen);
 *     uint8_t *done = rg__arena_calloc(&scratch, n, 1);
 *     rg_result r = seen && done ? work(seen, done) : RG_ERROR_OUT_OF_MEMORY;
 *     rg__arena_free(&scratch);
 *     return r;
 *
 * Every allocation starts RG__ARENA_ALIGN-aligned. Blocks start at
 * RG__ARENA_BLOCK bytes and double as they fill; an allocation larger than
 * the next block gets a block of its own. Under AddressSanitizer the bytes
 * between allocations and the unused rest of a block are poisoned, so an
 * overrun of a scratch array is still caught.
 */
#ifndef RG_ARENA_H
#define RG_ARENA_H

#include "base/base.h"

#define RG__ARENA_ALIGN 16u
#define RG__ARENA_BLOCK ((size_t)64 << 10)

typedef struct rg__arena_block rg__arena_block;

/* Starts as {.g = g}: empty, nothing allocated until the first call. */
typedef struct rg__arena {
    const rg_graph *g;                /* whose allocator the blocks come from */
    rg__arena_block *blocks;          /* the block being filled first, then the others */
    size_t used;                      /* bytes of the first block handed out */
    size_t next_size;                 /* the next block's size (0: RG__ARENA_BLOCK) */
    unsigned char *last;              /* the latest allocation in the first block */
} rg__arena;

/* bytes (0 counts as 1) of uninitialised memory, RG__ARENA_ALIGN-aligned,
 * valid until rg__arena_free; NULL when out of memory (the caller reports
 * it). */
void *rg__arena_alloc(rg__arena *a, size_t bytes);
/* count * size bytes of zeros; NULL when out of memory or the product
 * overflows. */
void *rg__arena_calloc(rg__arena *a, size_t count, size_t size);
/* Grows p (from this arena, old_bytes long; NULL: a new allocation) to
 * bytes, keeping its contents: in place when p is the latest allocation
 * and its block has room, else a copy (p stays valid until the free).
 * NULL when out of memory, p unchanged. */
void *rg__arena_grow(rg__arena *a, void *p, size_t old_bytes, size_t bytes);
/* Hands every block back; the arena is empty again and may be reused. */
void rg__arena_free(rg__arena *a);

#endif
