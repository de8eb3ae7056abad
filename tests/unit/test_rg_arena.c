/* rendergraph/src/base/arena.h, the compile stages' scratch arena, through
 * a graph's counting allocator: every allocation RG__ARENA_ALIGN-aligned
 * and its own (filled with a pattern, read back intact), few blocks for
 * many allocations, a block of its own for an allocation larger than a
 * block, calloc's zeros over dirty memory, growing in place and by copy,
 * reuse after the free, and a failing allocator answered with NULL. Each
 * test ends with no block of the arena left (the graph's own are counted
 * apart); the sanitizer build also checks the bytes between allocations. */
#include "counting_allocator.h"

#include "base/arena.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifdef TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* counting's alloc, leaving fresh memory dirty, so calloc must zero it. */
static void *dirty_alloc(void *user, size_t size)
{
    void *p = count_alloc(user, size);
    if (p)
        memset(p, 0xab, size);
    return p;
}

typedef struct fixture {
    counting c;
    rg_graph *g;
    uint32_t graph_live;              /* the graph's own blocks */
} fixture;

static void open_graph(fixture *f)
{
    rg_allocator a = {dirty_alloc, count_realloc, count_free, &f->c};
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "arena", .allocator = &a}, &f->g), RG_SUCCESS);
    f->graph_live = f->c.live;
}

/* Frees the arena and checks it handed back every block it took. */
static void close_graph(fixture *f, rg__arena *a)
{
    rg__arena_free(a);
    cr_expect_null(a->blocks);
    cr_expect_eq(f->c.live, f->graph_live, "%u blocks of the arena left", f->c.live - f->graph_live);
    rg_graph_destroy(f->g);
    cr_expect_eq(f->c.live, 0);
}

static bool aligned(const void *p) { return (uintptr_t)p % RG__ARENA_ALIGN == 0; }

Test(rg_arena, every_allocation_is_aligned)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    for (size_t bytes = 0; bytes < 100; bytes++) {
        unsigned char *p = rg__arena_alloc(&a, bytes);
        cr_assert_not_null(p);
        cr_expect(aligned(p), "%zu bytes at %p", bytes, (void *)p);
        memset(p, 0x5a, bytes);
    }
    close_graph(&f, &a);
}

#define MANY 20000

/* MANY allocations of 1 to 64 bytes, several blocks' worth: each keeps
 * its pattern (none overlaps another), from a handful of blocks. */
Test(rg_arena, many_allocations_span_a_few_blocks)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    static unsigned char *p[MANY];
    uint32_t calls = f.c.calls;
    size_t total = 0;
    for (uint32_t i = 0; i < MANY; i++) {
        size_t bytes = 1 + i % 64;
        p[i] = rg__arena_alloc(&a, bytes);
        cr_assert_not_null(p[i]);
        cr_assert(aligned(p[i]));
        memset(p[i], (int)(i & 0xff), bytes);
        total += bytes;
    }
    cr_expect_gt(total, 4 * RG__ARENA_BLOCK);
    cr_expect_leq(f.c.calls - calls, 8u, "%u blocks for %zu bytes", f.c.calls - calls, total);
    cr_expect_gt(f.c.calls - calls, 1u);
    for (uint32_t i = 0; i < MANY; i++)
        for (size_t k = 0; k < 1 + i % 64; k++)
            cr_assert_eq(p[i][k], i & 0xff, "allocation %u byte %zu overwritten", i, k);
    close_graph(&f, &a);
}

/* n bytes from the arena, each set to `byte`. */
static unsigned char *filled(rg__arena *a, size_t n, int byte)
{
    unsigned char *p = rg__arena_alloc(a, n);
    cr_assert_not_null(p);
    memset(p, byte, n);
    return p;
}

/* An allocation larger than a block gets its own, behind the block being
 * filled, which the next small allocation goes on using. */
Test(rg_arena, a_large_allocation_gets_a_block_of_its_own)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    unsigned char *small = filled(&a, 32, 1);
    uint32_t calls = f.c.calls;
    size_t big = 3 * RG__ARENA_BLOCK + 5;
    unsigned char *large = filled(&a, big, 2);
    cr_expect(aligned(large));
    cr_expect_eq(f.c.calls, calls + 1);
    unsigned char *after = filled(&a, 32, 3);
    cr_expect_eq(f.c.calls, calls + 1, "the small allocation after it took a new block");
    cr_expect((uintptr_t)after > (uintptr_t)small && (uintptr_t)after < (uintptr_t)small + RG__ARENA_BLOCK,
              "not from the first block");
    for (size_t k = 0; k < 32; k++)
        cr_assert_eq(small[k], 1);
    for (size_t k = 0; k < big; k++)
        cr_assert_eq(large[k], 2);
    close_graph(&f, &a);
}

Test(rg_arena, calloc_zeroes_dirty_memory)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    unsigned char *dirty = rg__arena_alloc(&a, 64);
    cr_assert_not_null(dirty);
    cr_expect_eq(dirty[0], 0xab, "the allocator's memory should start dirty");
    size_t sizes[] = {1, 7, 100, RG__ARENA_BLOCK / 2, 2 * RG__ARENA_BLOCK};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t *z = rg__arena_calloc(&a, sizes[i], sizeof *z);
        cr_assert_not_null(z);
        cr_expect(aligned(z));
        for (size_t k = 0; k < sizes[i]; k++)
            cr_assert_eq(z[k], 0u, "%zu elements: element %zu not zero", sizes[i], k);
    }
    uint32_t calls = f.c.calls;
    cr_expect_null(rg__arena_calloc(&a, SIZE_MAX / 2, 4), "an overflowing product");
    cr_expect_null(rg__arena_alloc(&a, SIZE_MAX - 4), "a size past the address space");
    cr_expect_eq(f.c.calls, calls, "an impossible size reached the allocator");
    close_graph(&f, &a);
}

/* The latest allocation grows in place while its block has room; another
 * one moves, its contents copied. */
Test(rg_arena, grow_keeps_the_contents)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    uint32_t *v = rg__arena_grow(&a, NULL, 0, 16 * sizeof *v);
    cr_assert_not_null(v);
    for (uint32_t i = 0; i < 16; i++)
        v[i] = i;
    uint32_t *same = rg__arena_grow(&a, v, 16 * sizeof *v, 64 * sizeof *v);
    cr_expect_eq(same, v, "the latest allocation did not grow in place");
    for (uint32_t i = 16; i < 64; i++)
        same[i] = i;
    uint32_t *other = rg__arena_alloc(&a, 8);
    cr_assert_not_null(other);
    uint32_t *moved = rg__arena_grow(&a, same, 64 * sizeof *v, 128 * sizeof *v);
    cr_assert_not_null(moved);
    cr_expect_neq(moved, same, "grown over the allocation after it");
    cr_expect(aligned(moved));
    for (uint32_t i = 0; i < 64; i++)
        cr_assert_eq(moved[i], i);
    close_graph(&f, &a);
}

/* Freed, the arena is empty and serves again. */
Test(rg_arena, free_then_reuse)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    for (int round = 0; round < 3; round++) {
        for (uint32_t i = 0; i < 1000; i++) {
            unsigned char *p = rg__arena_alloc(&a, 200);
            cr_assert_not_null(p);
            memset(p, round, 200);
        }
        cr_expect_gt(f.c.live, f.graph_live);
        rg__arena_free(&a);
        cr_expect_eq(f.c.live, f.graph_live, "round %d left blocks", round);
        cr_expect_eq(a.g, f.g);
    }
    rg__arena_free(&a); /* an empty arena frees nothing */
    close_graph(&f, &a);
}

/* The allocator failing the first block, a later block and a block of
 * its own: NULL each time, what was allocated stays, and the arena goes on
 * once memory comes back. */
Test(rg_arena, out_of_memory_is_null)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    f.c.fail_at = f.c.calls + 1;
    cr_expect_null(rg__arena_alloc(&a, 16));
    cr_expect_eq(f.c.failed, 1u);
    cr_expect_null(a.blocks);
    unsigned char *kept = rg__arena_alloc(&a, RG__ARENA_BLOCK - 64);
    cr_assert_not_null(kept);
    memset(kept, 7, RG__ARENA_BLOCK - 64);
    f.c.fail_at = f.c.calls + 1;
    cr_expect_null(rg__arena_alloc(&a, 128), "the next block");
    f.c.fail_at = f.c.calls + 1;
    cr_expect_null(rg__arena_alloc(&a, 4 * RG__ARENA_BLOCK), "a block of its own");
    f.c.fail_at = f.c.calls + 1;
    cr_expect_null(rg__arena_grow(&a, kept, RG__ARENA_BLOCK - 64, RG__ARENA_BLOCK + 1), "a grown copy");
    cr_expect_eq(f.c.failed, 4u);
    f.c.fail_at = 0;
    for (size_t k = 0; k < RG__ARENA_BLOCK - 64; k++)
        cr_assert_eq(kept[k], 7);
    cr_expect_not_null(rg__arena_alloc(&a, 128));
    close_graph(&f, &a);
}

#ifdef TEST_ASAN
/* Under AddressSanitizer an allocation's bytes are addressable and those
 * after it, up to the next allocation, and a block's unused rest are not. */
Test(rg_arena, past_an_allocation_is_poisoned)
{
    fixture f = {0};
    open_graph(&f);
    rg__arena a = {.g = f.g};
    unsigned char *p = rg__arena_alloc(&a, 10), *q = rg__arena_alloc(&a, 16);
    cr_assert(p && q);
    cr_expect_not(__asan_region_is_poisoned(p, 10));
    cr_expect(__asan_address_is_poisoned(p + 10));
    cr_expect(__asan_address_is_poisoned(q - 1));
    cr_expect_not(__asan_region_is_poisoned(q, 16));
    cr_expect(__asan_address_is_poisoned(q + 16));
    cr_expect(__asan_address_is_poisoned(q + 1000));
    close_graph(&f, &a);
}
#endif
