/* rendergraph/src/bits.h: the plain-C popcount, count-trailing-zeros and
 * checked multiplication (what compilers without the builtins use, MSVC
 * among them) agree with the names the library calls, and with values
 * worked out by hand, over edge cases and a stream of pseudo-random
 * values. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "base/bits.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

Test(rg_bits, popcount_by_hand_and_against_the_library)
{
    cr_expect_eq(rg__popcount32_c(0), 0);
    cr_expect_eq(rg__popcount32_c(1), 1);
    cr_expect_eq(rg__popcount32_c(0x80000000u), 1);
    cr_expect_eq(rg__popcount32_c(0xffffffffu), 32);
    cr_expect_eq(rg__popcount32_c(0xf0f00f0fu), 16);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 100000; i++) {
        uint32_t x = (uint32_t)next(&s);
        uint32_t slow = 0;
        for (uint32_t b = 0; b < 32; b++)
            slow += (x >> b) & 1u;
        cr_assert_eq(rg__popcount32_c(x), slow, "popcount %08x", x);
        cr_assert_eq(rg__popcount32(x), slow, "popcount %08x", x);
    }
}

Test(rg_bits, trailing_zeros_by_hand_and_against_the_library)
{
    cr_expect_eq(rg__ctz64_c(0), 64);
    for (uint32_t b = 0; b < 64; b++) {
        cr_expect_eq(rg__ctz64_c(1ull << b), b);
        cr_expect_eq(rg__ctz64(1ull << b), b);
        cr_expect_eq(rg__ctz64_c(UINT64_MAX << b), b);
    }
    uint64_t s = 12345;
    for (int i = 0; i < 100000; i++) {
        uint64_t x = next(&s) | 1ull << 63;
        uint32_t slow = 0;
        while (!((x >> slow) & 1u))
            slow++;
        cr_assert_eq(rg__ctz64_c(x), slow, "ctz %016llx", (unsigned long long)x);
        cr_assert_eq(rg__ctz64(x), slow, "ctz %016llx", (unsigned long long)x);
    }
}

Test(rg_bits, checked_multiply_by_hand_and_against_the_library)
{
    uint64_t p = 1;
    cr_expect(!rg__mul_overflow_u64_c(0, UINT64_MAX, &p));
    cr_expect_eq(p, 0);
    cr_expect(!rg__mul_overflow_u64_c(UINT64_MAX, 1, &p));
    cr_expect_eq(p, UINT64_MAX);
    cr_expect(!rg__mul_overflow_u64_c(1ull << 32, (1ull << 32) - 1, &p));
    cr_expect(rg__mul_overflow_u64_c(1ull << 32, 1ull << 32, &p));
    cr_expect_eq(p, 0, "the product modulo 2^64");
    cr_expect(rg__mul_overflow_u64_c(UINT64_MAX, 2, &p));
    cr_expect_eq(p, UINT64_MAX - 1);
    uint64_t s = 777;
    for (int i = 0; i < 100000; i++) {
        /* Factors of 1 to 64 bits, so both outcomes are common. */
        uint64_t a = next(&s) >> (next(&s) % 64), b = next(&s) >> (next(&s) % 64);
        uint64_t pc = 0, pl = 0;
        bool oc = rg__mul_overflow_u64_c(a, b, &pc), ol = rg__mul_overflow_u64(a, b, &pl);
        cr_assert_eq(oc, ol, "%llu * %llu", (unsigned long long)a, (unsigned long long)b);
        cr_assert_eq(pc, pl, "%llu * %llu", (unsigned long long)a, (unsigned long long)b);
        cr_assert_eq(pc, a * b);
        cr_assert_eq(oc, a != 0 && pc / a != b);
    }
}
