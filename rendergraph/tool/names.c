/* Short names for the library's enums as rgtool prints them (text and
 * JSON use the same ones, so scripts can match what people read). */
#include "rgtool.h"

#include <string.h>

const char *rgt_command_type_name(rg_command_type type)
{
    switch (type) {
    case RG_COMMAND_TYPE_USER: return "user";
    case RG_COMMAND_TYPE_COPY_BUFFER: return "copy_buffer";
    case RG_COMMAND_TYPE_COPY_BUFFER_TO_TEXTURE: return "copy_buffer_to_texture";
    case RG_COMMAND_TYPE_COPY_TEXTURE_TO_BUFFER: return "copy_texture_to_buffer";
    case RG_COMMAND_TYPE_CLEAR: return "clear";
    case RG_COMMAND_TYPE_BLIT: return "blit";
    case RG_COMMAND_TYPE_BEGIN_RENDERING: return "begin_rendering";
    case RG_COMMAND_TYPE_END_RENDERING: return "end_rendering";
    }
    return "?";
}

const char *rgt_memory_kind_name(rg_memory_kind kind)
{
    switch (kind) {
    case RG_MEMORY_NOT_CREATED: return "not_created";
    case RG_MEMORY_IMPORTED: return "imported";
    case RG_MEMORY_LAZY: return "lazy";
    case RG_MEMORY_DEDICATED: return "dedicated";
    case RG_MEMORY_POOLED: return "pooled";
    case RG_MEMORY_LAZY_FALLBACK: return "lazy_fallback";
    }
    return "?";
}

const char *rgt_resource_kind_name(rg_resource_kind kind)
{
    switch (kind) {
    case RG_RESOURCE_CREATED: return "created";
    case RG_RESOURCE_IMPORTED: return "imported";
    case RG_RESOURCE_HISTORY_CURRENT: return "history_current";
    case RG_RESOURCE_HISTORY_PREVIOUS: return "history_previous";
    }
    return "?";
}

const char *rgt_merge_name(rg_merge merge)
{
    switch (merge) {
    case RG_MERGE_AUTO: return "auto";
    case RG_MERGE_ON: return "on";
    case RG_MERGE_OFF: return "off";
    }
    return "?";
}

bool rgt_merge_from_name(const char *name, rg_merge *out)
{
    for (int m = RG_MERGE_AUTO; m <= RG_MERGE_OFF; m++)
        if (strcmp(name, rgt_merge_name((rg_merge)m)) == 0)
            return (*out = (rg_merge)m), true;
    return false;
}

/* rg_memory_totals' figures in the order rgtool prints them; padding is
 * part of unaliased, shown beside it. */
static const char *const total_names[RGT_TOTAL_COUNT] = {
    "pooled", "unaliased", "padding", "lower_bound", "lazy", "lazy_fallback", "dedicated",
};

const char *rgt_total_name(uint32_t index) { return index < RGT_TOTAL_COUNT ? total_names[index] : "?"; }

uint64_t rgt_total_value(const rg_memory_totals *t, uint32_t index)
{
    switch (index) {
    case 0: return t->pooled;
    case 1: return t->unaliased;
    case 2: return t->padding;
    case 3: return t->lower_bound;
    case 4: return t->lazy;
    case 5: return t->lazy_fallback;
    case 6: return t->dedicated;
    }
    return 0;
}
