/* eng_choose_memory_type on the memory-type tables of real devices
 * (device_tables.c), with no device. */
#include "device_tables.h"

#include <criterion/criterion.h>
#include <engine/engine.h>
#include <string.h>

#define LAZY VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT
#define PROT VK_MEMORY_PROPERTY_PROTECTED_BIT
#define HV_HC (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define HV_HCA (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
#define DL_HV (VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
#define SENTINEL 0xDEADu

/* The index chosen, or -1 with the error checked to be NO_MEMORY_TYPE, a
 * message set and the output untouched (never a silent index 0). */
static int choose(const device_table *t, uint32_t bits, VkMemoryPropertyFlags want, bool transient)
{
    uint32_t index = SENTINEL;
    eng_result r = eng_choose_memory_type(&t->props, bits, want, transient, &index);
    if (r == ENG_SUCCESS) {
        cr_assert_lt(index, t->props.memoryTypeCount, "%s: index %u out of range", t->name, index);
        cr_assert(bits & (1u << index), "%s: index %u not in memoryTypeBits 0x%x", t->name, index, bits);
        return (int)index;
    }
    cr_assert_eq(r, ENG_ERROR_NO_MEMORY_TYPE, "%s: %s", t->name, eng_result_string(r));
    cr_assert_eq(index, SENTINEL, "%s: output written on failure", t->name);
    cr_assert_neq(eng_last_error()[0], '\0', "%s: no message for the failure", t->name);
    return -1;
}

static bool has_lazy_type(const VkPhysicalDeviceMemoryProperties *p, uint32_t bits)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (p->memoryTypes[i].propertyFlags & LAZY))
            return true;
    return false;
}

static VkMemoryPropertyFlags flags_of(const device_table *t, int index)
{
    return t->props.memoryTypes[index].propertyFlags;
}

Test(memory_type, tables_are_sane)
{
    cr_assert_geq(device_table_count, 13, "every table of memory-types.md is transcribed");
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        cr_assert(t->props.memoryTypeCount > 0 && t->props.memoryTypeCount <= VK_MAX_MEMORY_TYPES, "%s", t->name);
        for (uint32_t k = 0; k < t->props.memoryTypeCount; k++)
            cr_assert_lt(t->props.memoryTypes[k].heapIndex, t->props.memoryHeapCount, "%s type %u", t->name, k);
        cr_assert_eq(t->has_lazy, has_lazy_type(&t->props, table_all_bits(&t->props)), "%s", t->name);
    }
}

Test(memory_type, device_local_default_on_every_table)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        int buf = choose(t, table_buffer_bits(&t->props), 0, false);
        int img = choose(t, table_image_bits(&t->props, false), 0, false);
        int explicit_dl = choose(t, table_buffer_bits(&t->props), VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, false);
        cr_expect_eq(buf, t->device_local, "%s: buffer got %d, want %d", t->name, buf, t->device_local);
        cr_expect_eq(img, t->device_local, "%s: persistent image got %d, want %d", t->name, img, t->device_local);
        cr_expect_eq(explicit_dl, t->device_local, "%s: required 0 means DEVICE_LOCAL", t->name);
        cr_expect(flags_of(t, buf) & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "%s", t->name);
    }
}

Test(memory_type, transient_gets_lazy_exactly_when_offered)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        uint32_t bits = table_image_bits(&t->props, true);
        int got = choose(t, bits, 0, true);
        cr_expect_eq(got, t->transient, "%s: transient image got %d, want %d", t->name, got, t->transient);
        bool lazy = got >= 0 && (flags_of(t, got) & LAZY);
        cr_expect_eq(lazy, has_lazy_type(&t->props, bits), "%s: lazy %d but the bits %s a lazy type", t->name, lazy,
                     has_lazy_type(&t->props, bits) ? "offer" : "do not offer");
        /* Lazy memory is still device-local: the chosen type has the wanted flags. */
        cr_expect(flags_of(t, got) & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "%s", t->name);
        if (!t->has_lazy)
            cr_expect_eq(got, t->device_local, "%s: without LAZY the fallback is the plain choice", t->name);

        /* A transient image whose bits happen to exclude the lazy type (a
         * driver that does not offer it for this format) falls back. */
        int fallback = choose(t, table_image_bits(&t->props, false), 0, true);
        cr_expect_eq(fallback, t->device_local, "%s: transient without lazy bits got %d", t->name, fallback);
        cr_expect_not(flags_of(t, fallback) & LAZY, "%s", t->name);
    }
}

Test(memory_type, persistent_images_and_buffers_never_lazy)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        /* Even when a (wrong) memoryTypeBits offers the lazy types. */
        uint32_t all = table_all_bits(&t->props);
        int got = choose(t, all, 0, false);
        cr_expect_eq(got, t->device_local, "%s: persistent resource with lazy bits got %d", t->name, got);
        cr_expect_not(flags_of(t, got) & LAZY, "%s: lazy memory for a persistent resource", t->name);
        /* Asking for LAZY without transient gets nothing, not a lazy type. */
        cr_expect_eq(choose(t, all, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | LAZY, false), -1, "%s", t->name);
        /* When the lazy types are the only ones offered: an error, never lazy. */
        uint32_t lazy_only = all & ~table_image_bits(&t->props, false);
        if (lazy_only)
            cr_expect_eq(choose(t, lazy_only, 0, false), -1, "%s: only lazy types offered to a buffer", t->name);
    }
}

Test(memory_type, wanted_flags_on_every_table)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        uint32_t bits = table_buffer_bits(&t->props);
        int staging = choose(t, bits, HV_HC, false);
        int readback = choose(t, bits, HV_HCA, false);
        int upload = choose(t, bits, DL_HV, false);
        cr_expect_eq(staging, t->staging, "%s: HOST_VISIBLE|HOST_COHERENT got %d, want %d", t->name, staging,
                     t->staging);
        cr_expect_eq(readback, t->readback, "%s: HOST_VISIBLE|HOST_CACHED got %d, want %d", t->name, readback,
                     t->readback);
        cr_expect_eq(upload, t->upload, "%s: DEVICE_LOCAL|HOST_VISIBLE got %d, want %d", t->name, upload, t->upload);
        if (staging >= 0)
            cr_expect_eq(flags_of(t, staging) & HV_HC, HV_HC, "%s", t->name);
        /* A transient request with host flags: no lazy type is host
         * visible, so it falls back to the plain choice. */
        cr_expect_eq(choose(t, table_image_bits(&t->props, true), HV_HC, true), t->staging, "%s", t->name);
    }
}

/* Spot checks of the hand-derived values the tables above rely on. */
Test(memory_type, known_answers)
{
    const device_table *h200 = &device_tables[0];
    cr_assert_str_eq(h200->name, "NVIDIA H200");
    cr_expect_eq(choose(h200, table_buffer_bits(&h200->props), HV_HC, false), 2, "type 2 is the first HV|HC");
    cr_expect_eq(choose(h200, table_buffer_bits(&h200->props), 0, false), 1, "type 0 has no flags: never DL");
    const device_table *mvk = &device_tables[2];
    cr_assert(strstr(mvk->name, ">= 1.2.9"));
    cr_expect_eq(choose(mvk, table_image_bits(&mvk->props, true), 0, true), 2, "Memoryless");
    cr_expect_eq(choose(mvk, table_image_bits(&mvk->props, false), 0, false), 0, "Private");
    cr_expect_eq(table_image_bits(&mvk->props, false), 0x3u, "non-transient images lose bit 2");
    cr_expect_eq(table_image_bits(&mvk->props, true), 0x7u);
}

Test(memory_type, respects_memory_type_bits)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        uint32_t all = table_buffer_bits(&t->props);
        /* Remove the preferred type: the next matching one is chosen. */
        if (t->device_local >= 0) {
            uint32_t bits = all & ~(1u << t->device_local);
            int got = choose(t, bits, 0, false);
            for (int k = 0; k < (int)t->props.memoryTypeCount; k++) {
                bool ok = (bits & (1u << k)) && (flags_of(t, k) & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                          !(flags_of(t, k) & LAZY);
                if (ok) {
                    cr_expect_eq(got, k, "%s: without type %d expected %d, got %d", t->name, t->device_local, k, got);
                    break;
                }
                if (k == (int)t->props.memoryTypeCount - 1)
                    cr_expect_eq(got, -1, "%s", t->name);
            }
        }
    }
}

/* Reference semantics over every subset of memoryTypeBits and every wanted
 * combination of the common flags: the first type in the bits with the
 * wanted flags, lazy only for transient images (and then preferred). */
Test(memory_type, exhaustive_against_reference)
{
    static const VkMemoryPropertyFlags wants[] = {
        0, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, HV_HC, HV_HCA, DL_HV, DL_HV | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
    };
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        uint32_t n = t->props.memoryTypeCount;
        for (uint32_t bits = 0; bits < (1u << n); bits++) {
            for (size_t w = 0; w < sizeof wants / sizeof wants[0]; w++) {
                for (int transient = 0; transient < 2; transient++) {
                    VkMemoryPropertyFlags want = wants[w] ? wants[w] : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
                    int expect = -1;
                    if (transient)
                        for (uint32_t k = 0; k < n && expect < 0; k++)
                            if ((bits & (1u << k)) && (flags_of(t, (int)k) & (want | LAZY)) == (want | LAZY))
                                expect = (int)k;
                    for (uint32_t k = 0; k < n && expect < 0; k++)
                        if ((bits & (1u << k)) && (flags_of(t, (int)k) & want) == want && !(flags_of(t, (int)k) & LAZY))
                            expect = (int)k;
                    int got = choose(t, bits, wants[w], transient);
                    cr_assert_eq(got, expect, "%s: bits 0x%x want 0x%x transient %d: got %d, want %d", t->name, bits,
                                 wants[w], transient, got, expect);
                }
            }
        }
    }
}

/* Each table with a PROTECTED|DEVICE_LOCAL type inserted first: it is
 * skipped unless PROTECTED is wanted. */
Test(memory_type, protected_types_skipped)
{
    for (size_t i = 0; i < device_table_count; i++) {
        device_table t = device_tables[i];
        const VkPhysicalDeviceMemoryProperties *src = &device_tables[i].props;
        t.props.memoryTypeCount = src->memoryTypeCount + 1;
        t.props.memoryTypes[0] = (VkMemoryType){ VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | PROT, 0 };
        for (uint32_t k = 0; k < src->memoryTypeCount; k++)
            t.props.memoryTypes[k + 1] = src->memoryTypes[k];
        uint32_t all = table_all_bits(&t.props);
        uint32_t buffer_bits = table_buffer_bits(&t.props);
        cr_expect_eq(choose(&t, buffer_bits, 0, false), t.device_local + 1, "%s", t.name);
        cr_expect_eq(choose(&t, all, 0, true), t.transient + 1, "%s", t.name);
        cr_expect_eq(choose(&t, buffer_bits, HV_HC, false), t.staging < 0 ? -1 : t.staging + 1, "%s", t.name);
        /* Only the protected type offered: no silent protected memory. */
        cr_expect_eq(choose(&t, 0x1u, 0, false), -1, "%s", t.name);
        cr_expect_eq(choose(&t, 0x1u, 0, true), -1, "%s", t.name);
        /* Asked for: it is chosen. */
        cr_expect_eq(choose(&t, all, PROT, false), 0, "%s", t.name);
        cr_expect_eq(choose(&t, all, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | PROT, true), 0, "%s", t.name);
    }
}

Test(memory_type, no_match_is_an_error_with_a_message)
{
    for (size_t i = 0; i < device_table_count; i++) {
        const device_table *t = &device_tables[i];
        uint32_t index = SENTINEL;
        eng_result r = eng_choose_memory_type(&t->props, 0, 0, false, &index);
        cr_expect_eq(r, ENG_ERROR_NO_MEMORY_TYPE, "%s: empty memoryTypeBits", t->name);
        cr_expect_eq(index, SENTINEL, "%s", t->name);
        cr_expect_neq(strstr(eng_last_error(), "DEVICE_LOCAL"), NULL, "%s: message '%s' names the flags", t->name,
                      eng_last_error());
        /* A flag no table has. */
        r = eng_choose_memory_type(&t->props, table_all_bits(&t->props), VK_MEMORY_PROPERTY_DEVICE_UNCACHED_BIT_AMD,
                                   false, &index);
        cr_expect_eq(r, ENG_ERROR_NO_MEMORY_TYPE, "%s", t->name);
        cr_expect_eq(index, SENTINEL, "%s", t->name);
        cr_expect_neq(strstr(eng_last_error(), "DEVICE_UNCACHED_AMD"), NULL, "'%s'", eng_last_error());
    }
    /* Host-visible wanted but only the device-only types offered (H200: bit 1). */
    cr_expect_eq(choose(&device_tables[0], 0x2u, HV_HC, false), -1);
}

Test(memory_type, null_arguments)
{
    uint32_t index = SENTINEL;
    cr_expect_eq(eng_choose_memory_type(NULL, 1, 0, false, &index), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(index, SENTINEL);
    cr_expect_eq(eng_choose_memory_type(&device_tables[0].props, 1, 0, false, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_neq(eng_last_error()[0], '\0');
}

Test(memory_type, flags_string)
{
    char buf[128];
    cr_expect_str_eq(eng_memory_flags_string(0, buf, sizeof buf), "none");
    cr_expect_str_eq(eng_memory_flags_string(0x11, buf, sizeof buf), "DEVICE_LOCAL|LAZILY_ALLOCATED");
    cr_expect_str_eq(eng_memory_flags_string(0x0F, buf, sizeof buf),
                     "DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT|HOST_CACHED");
    cr_expect_str_eq(eng_memory_flags_string(0x06, buf, sizeof buf), "HOST_VISIBLE|HOST_COHERENT");
    cr_expect_str_eq(eng_memory_flags_string(0x21, buf, sizeof buf), "DEVICE_LOCAL|PROTECTED");
    cr_expect_str_eq(eng_memory_flags_string(0xC1, buf, sizeof buf),
                     "DEVICE_LOCAL|DEVICE_COHERENT_AMD|DEVICE_UNCACHED_AMD");
    cr_expect_eq(eng_memory_flags_string(0x01, buf, sizeof buf), buf, "returns buf");
    /* Too small: truncated, still terminated, never overrun. */
    char small[16 + 4];
    memset(small, 'x', sizeof small);
    eng_memory_flags_string(0x0F, small, 16);
    cr_expect_lt(strlen(small), 16);
    cr_expect_eq(strncmp(small, "DEVICE_LOCAL|HOST_VISIBLE", strlen(small)), 0, "'%s' is a prefix", small);
    cr_expect_eq(small[16], 'x', "wrote past the size");
    cr_expect_str_eq(eng_memory_flags_string(0x01, NULL, 0), "");
    cr_expect_str_eq(eng_memory_flags_string(0x01, buf, 0), "");
}
