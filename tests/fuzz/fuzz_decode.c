/* The fuzz harness's input reader: bytes, raw and shaped numbers, picks
 * from the tables in fuzz_graph.h. */
#include "fuzz_graph.h"


uint8_t rd_u8(rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }
bool rd_more(const rd *r) { return r->i < r->n; }

uint32_t rd_raw32(rd *r)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)rd_u8(r) << (8 * k);
    return v;
}

static uint64_t raw64(rd *r)
{
    uint64_t lo = rd_raw32(r);
    return lo | (uint64_t)rd_raw32(r) << 32;
}

/* Counts, extents, indices: small values in one byte, powers of two, raw
 * and extreme values behind escape bytes. */
uint32_t rd_num32(rd *r)
{
    uint8_t b = rd_u8(r);
    if (b < 0xE0)
        return b;
    switch (b) {
    case 0xF0: return (uint32_t)rd_u8(r) | (uint32_t)rd_u8(r) << 8;
    case 0xF1: return rd_raw32(r);
    case 0xF2: return UINT32_MAX;
    case 0xF3: return UINT32_MAX - rd_u8(r);
    case 0xF4: return (1u << 24) + rd_u8(r) - 128u;
    default: return 1u << ((b - 0xE0 + 8) & 31); /* 256 .. 2^31, then 1 .. 128 */
    }
}

/* Byte sizes and offsets. */
uint64_t rd_num64(rd *r)
{
    uint8_t b = rd_u8(r);
    if (b < 0x80)
        return b;
    if (b < 0xC0)
        return (uint64_t)(b - 0x7F) * 4096u;
    if (b < 0xE0)
        return (uint64_t)(b - 0xBF) << 16;
    if (b < 0xF0)
        return 1ull << (b - 0xE0 + 22);
    switch (b) {
    case 0xF0: return rd_raw32(r);
    case 0xF1: return raw64(r);
    case 0xF2: return UINT64_MAX;
    case 0xF3: return UINT64_MAX - rd_u8(r);
    case 0xF4: return 1ull << (rd_u8(r) & 63);
    case 0xF5: return (1ull << (rd_u8(r) & 63)) + 1;
    default: return (uint64_t)b * 3;
    }
}

/* Enums: a table index, or a raw (maybe invalid) value. */
uint32_t rd_pick(rd *r, const uint32_t *table, uint32_t n)
{
    uint8_t b = rd_u8(r);
    if (b == 0xFF)
        return rd_raw32(r);
    return table[b % n];
}

