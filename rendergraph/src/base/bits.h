/* Bit helpers the library needs from the compiler: population count,
 * count of trailing zero bits, overflow-checked multiplication. Each has a
 * plain-C version (the _c functions, always compiled, so the unit tests
 * can check them on every compiler) and the name the library calls, which
 * uses the compiler's builtin where gcc or clang provides it, MSVC's
 * intrinsic where that is safe on every CPU it targets, and the plain-C
 * version elsewhere. Nothing here is public.
 */
#ifndef RG_BITS_H
#define RG_BITS_H

#include <stdbool.h>
#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_ARM64))
#include <intrin.h>
#define RG__BITS_MSVC 1
#endif

/* How many bits of x are set (SWAR: pairs, nibbles, then a multiply that
 * sums the bytes). */
static inline uint32_t rg__popcount32_c(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* The index of x's lowest set bit; x must not be 0 (64 then, though the
 * builtin's result is undefined). Binary search over halves. */
static inline uint32_t rg__ctz64_c(uint64_t x)
{
    if (x == 0)
        return 64;
    uint32_t n = 0;
    if (!(x & 0xffffffffu)) { n += 32; x >>= 32; }
    if (!(x & 0xffffu)) { n += 16; x >>= 16; }
    if (!(x & 0xffu)) { n += 8; x >>= 8; }
    if (!(x & 0xfu)) { n += 4; x >>= 4; }
    if (!(x & 0x3u)) { n += 2; x >>= 2; }
    if (!(x & 0x1u)) { n += 1; }
    return n;
}

/* *out = a * b; true when the product does not fit in 64 bits (*out then
 * holds the product modulo 2^64, as the builtin leaves it). */
static inline bool rg__mul_overflow_u64_c(uint64_t a, uint64_t b, uint64_t *out)
{
    *out = a * b;
    return a != 0 && b > UINT64_MAX / a;
}

static inline uint32_t rg__popcount32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_popcount(x);
#else
    return rg__popcount32_c(x); /* MSVC's __popcnt needs the POPCNT instruction */
#endif
}

static inline uint32_t rg__ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(x);
#elif defined(RG__BITS_MSVC)
    unsigned long i;
    return _BitScanForward64(&i, x) ? (uint32_t)i : 64;
#else
    return rg__ctz64_c(x);
#endif
}

static inline bool rg__mul_overflow_u64(uint64_t a, uint64_t b, uint64_t *out)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_mul_overflow(a, b, out);
#else
    return rg__mul_overflow_u64_c(a, b, out);
#endif
}

#endif
