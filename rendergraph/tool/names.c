/* Short names for the library's enums as rgtool prints them (text and
 * JSON use the same ones, so scripts can match what people read), from
 * the lists of base/name_lists.h that frame files spell them with too.
 */
#include "rgtool.h"

#include "base/name_lists.h"

#include <stddef.h>
#include <string.h>

typedef struct name_row {
    int value;
    const char *name;
} name_row;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ROW(value, name) {value, name},
#define TOOL_KIND(kind, tool_name, texture, buffer) {kind, tool_name},
static const name_row command_types[] = {RG__COMMAND_TYPES(ROW)}, memory_kinds[] = {RG__MEMORY_KINDS(ROW)},
                      resource_kinds[] = {RG__RESOURCE_KINDS(TOOL_KIND)}, merges[] = {RG__MERGES(ROW)};

static const char *name_of(const name_row *rows, size_t count, int value)
{
    for (size_t i = 0; i < count; i++)
        if (rows[i].value == value)
            return rows[i].name;
    return "?";
}

#define NAME_OF(rows, value) name_of(rows, COUNT(rows), (int)(value))
const char *rgt_command_type_name(rg_command_type type) { return NAME_OF(command_types, type); }
const char *rgt_memory_kind_name(rg_memory_kind kind) { return NAME_OF(memory_kinds, kind); }
const char *rgt_resource_kind_name(rg_resource_kind kind) { return NAME_OF(resource_kinds, kind); }
const char *rgt_merge_name(rg_merge merge) { return NAME_OF(merges, merge); }

bool rgt_merge_from_name(const char *name, rg_merge *out)
{
    for (size_t i = 0; i < COUNT(merges); i++)
        if (strcmp(name, merges[i].name) == 0)
            return (*out = (rg_merge)merges[i].value), true;
    return false;
}

/* rg_memory_totals' figures in the order rgtool prints them; padding is
 * part of unaliased, shown beside it. */
#define TOTALS(X) X(pooled) X(unaliased) X(padding) X(lower_bound) X(lazy) X(lazy_fallback) X(dedicated)
#define TOTAL_NAME(field) #field,
#define TOTAL_OFFSET(field) offsetof(rg_memory_totals, field),
static const char *const total_names[] = {TOTALS(TOTAL_NAME)};
static const size_t total_offsets[] = {TOTALS(TOTAL_OFFSET)};
_Static_assert(COUNT(total_names) == RGT_TOTAL_COUNT, "RGT_TOTAL_COUNT counts the figures");

const char *rgt_total_name(uint32_t index) { return index < RGT_TOTAL_COUNT ? total_names[index] : "?"; }

uint64_t rgt_total_value(const rg_memory_totals *t, uint32_t index)
{
    VkDeviceSize v = 0;
    if (index < RGT_TOTAL_COUNT)
        memcpy(&v, (const char *)t + total_offsets[index], sizeof v);
    return v;
}
