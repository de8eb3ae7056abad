/* frame_check.h: saves a graph as a frame file, loads it into a device-free
 * graph and compares what the two compile and place to. Handles are
 * compared through what they name (a command's name and record index, a
 * resource's name), so the check does not lean on the loaded graph handing
 * out the same handle values. Thread-safe: only locals and one
 * thread-local flag. */
#include "frame_check.h"

#include <rendergraph_frame/rendergraph_frame.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local bool fc_active;

bool frame_check_active(void) { return fc_active; }

/* The check's message: the graph's name, then what differs. */
static bool fc_fail(char *why, size_t n, const rg_graph *graph, const char *fmt, ...)
{
    rg_declaration decl;
    rg_declaration_get(graph, &decl);
    int used = snprintf(why, n, "frame check, graph \"%s\": ", decl.desc.name ? decl.desc.name : "");
    if (used < 0 || (size_t)used >= n)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why + used, n - (size_t)used, fmt, ap);
    va_end(ap);
    return false;
}

/* The loaded graph's log: its refusals are the saved graph's, already
 * reported (or expected) by the test. */
static void fc_quiet(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object, (void)message;
}

static const char *fc_command_name(const rg_graph *graph, rg_command command, uint32_t *index)
{
    rg_command_info info;
    *index = UINT32_MAX;
    if (command.id == 0 || rg_command_get_info(graph, command, &info) != RG_SUCCESS)
        return "(none)";
    *index = info.index;
    return info.name ? info.name : "";
}

static const char *fc_texture_name(const rg_graph *graph, rg_texture texture)
{
    rg_resource_info info;
    if (texture.id == 0 || rg_texture_get_info(graph, texture, &info) != RG_SUCCESS)
        return "(none)";
    return info.name ? info.name : "";
}

static const char *fc_buffer_name(const rg_graph *graph, rg_buffer buffer)
{
    rg_resource_info info;
    if (buffer.id == 0 || rg_buffer_get_info(graph, buffer, &info) != RG_SUCCESS)
        return "(none)";
    return info.name ? info.name : "";
}

/* Two commands name the same one: the same name at the same record index. */
static bool fc_same_command(const rg_graph *a, rg_command ca, const rg_graph *b, rg_command cb, char *why, size_t n,
                            const char *what)
{
    uint32_t ia, ib;
    const char *na = fc_command_name(a, ca, &ia), *nb = fc_command_name(b, cb, &ib);
    if (ia == ib && strcmp(na, nb) == 0)
        return true;
    return fc_fail(why, n, a, "%s: saved \"%s\" (#%" PRIu32 "), loaded \"%s\" (#%" PRIu32 ")", what, na, ia, nb, ib);
}

static bool fc_order(const rg_graph *a, const rg_graph *b, char *why, size_t n)
{
    const rg_command *oa, *ob;
    uint32_t na = rg_execution_order(a, &oa), nb = rg_execution_order(b, &ob);
    if (na != nb)
        return fc_fail(why, n, a, "execution order: saved %" PRIu32 " commands, loaded %" PRIu32, na, nb);
    for (uint32_t i = 0; i < na; i++) {
        char what[64];
        snprintf(what, sizeof what, "execution order [%" PRIu32 "]", i);
        if (!fc_same_command(a, oa[i], b, ob[i], why, n, what))
            return false;
        rg_command_info ia, ib;
        rg_command_get_info(a, oa[i], &ia);
        rg_command_get_info(b, ob[i], &ib);
        if (ia.type != ib.type || ia.queue != ib.queue || ia.batch != ib.batch)
            return fc_fail(why, n, a,
                           "%s \"%s\": saved type %d queue %d batch %" PRIu32
                           ", loaded type %d queue %d batch %" PRIu32,
                           what, ia.name, (int)ia.type, (int)ia.queue, ia.batch, (int)ib.type, (int)ib.queue, ib.batch);
    }
    return true;
}

static bool fc_barriers(const rg_graph *a, const rg_graph *b, char *why, size_t n)
{
    uint32_t na = rg_barrier_count(a), nb = rg_barrier_count(b);
    if (na != nb)
        return fc_fail(why, n, a, "barrier count: saved %" PRIu32 ", loaded %" PRIu32, na, nb);
    for (uint32_t i = 0; i < na; i++) {
        const rg_barrier_info *x = rg_barrier_get(a, i), *y = rg_barrier_get(b, i);
        char what[64];
        snprintf(what, sizeof what, "barrier [%" PRIu32 "] before", i);
        if (!fc_same_command(a, x->before, b, y->before, why, n, what))
            return false;
        const char *ta = fc_texture_name(a, x->texture), *tb = fc_texture_name(b, y->texture);
        const char *ba = fc_buffer_name(a, x->buffer), *bb = fc_buffer_name(b, y->buffer);
        if (strcmp(ta, tb) != 0 || strcmp(ba, bb) != 0)
            return fc_fail(why, n, a,
                           "barrier [%" PRIu32
                           "] resource: saved texture \"%s\" buffer \"%s\", loaded texture \"%s\" buffer \"%s\"",
                           i, ta, ba, tb, bb);
#define FC_FIELD(f, fmt, cast)                                                                                   \
    if (x->f != y->f)                                                                                            \
        return fc_fail(why, n, a,                                                                                \
                       "barrier [%" PRIu32 "] (before \"%s\", texture \"%s\", buffer \"%s\") " #f ": saved " fmt \
                       ", loaded " fmt,                                                                          \
                       i, fc_command_name(a, x->before, &(uint32_t){0}), ta, ba, (cast)x->f, (cast)y->f);
        FC_FIELD(hoisted, "%d", int)
        FC_FIELD(by_region, "%d", int)
        FC_FIELD(range.aspect, "0x%x", unsigned)
        FC_FIELD(range.base_mip, "%u", unsigned)
        FC_FIELD(range.mip_count, "%u", unsigned)
        FC_FIELD(range.base_layer, "%u", unsigned)
        FC_FIELD(range.layer_count, "%u", unsigned)
        FC_FIELD(src_stage, "0x%llx", unsigned long long)
        FC_FIELD(dst_stage, "0x%llx", unsigned long long)
        FC_FIELD(src_access, "0x%llx", unsigned long long)
        FC_FIELD(dst_access, "0x%llx", unsigned long long)
        FC_FIELD(old_layout, "%d", int)
        FC_FIELD(new_layout, "%d", int)
#undef FC_FIELD
    }
    return true;
}

static bool fc_merges(const rg_graph *a, const rg_graph *b, char *why, size_t n)
{
    uint32_t na = rg_merge_count(a), nb = rg_merge_count(b);
    if (na != nb)
        return fc_fail(why, n, a, "merge candidates: saved %" PRIu32 ", loaded %" PRIu32, na, nb);
    for (uint32_t i = 0; i < na; i++) {
        rg_merge_info x, y;
        rg_merge_get(a, i, &x);
        rg_merge_get(b, i, &y);
        char what[64];
        snprintf(what, sizeof what, "merge [%" PRIu32 "] first", i);
        if (!fc_same_command(a, x.first, b, y.first, why, n, what))
            return false;
        snprintf(what, sizeof what, "merge [%" PRIu32 "] second", i);
        if (!fc_same_command(a, x.second, b, y.second, why, n, what))
            return false;
        if (x.merged != y.merged || strcmp(x.reason, y.reason) != 0)
            return fc_fail(why, n, a, "merge [%" PRIu32 "]: saved merged %d \"%s\", loaded merged %d \"%s\"", i,
                           (int)x.merged, x.reason, (int)y.merged, y.reason);
    }
    return true;
}

/* Placed (rg_place or rg_place_offline): some resource has memory. */
static bool fc_placed(const rg_graph *graph)
{
    uint32_t count = rg_resource_count(graph);
    for (uint32_t i = 0; i < count; i++) {
        rg_resource_info info;
        if (rg_resource_get(graph, i, &info) == RG_SUCCESS && info.memory != RG_MEMORY_NOT_CREATED)
            return true;
    }
    return false;
}

/* Placed with memory of its own: some created resource has memory. */
static bool fc_created(const rg_graph *graph)
{
    uint32_t count = rg_resource_count(graph);
    for (uint32_t i = 0; i < count; i++) {
        rg_resource_info info;
        if (rg_resource_get(graph, i, &info) == RG_SUCCESS && info.memory != RG_MEMORY_NOT_CREATED &&
            info.memory != RG_MEMORY_IMPORTED)
            return true;
    }
    return false;
}

/* Saves graph (with memory when props), loads the text; on failure *why. */
static bool fc_round_trip(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props, char **text,
                          rgf_frame **frame, char *why, size_t n)
{
    rgf_save_desc save = {.memory = props};
    rgf_error error = {{0}};
    *text = NULL;
    *frame = NULL;
    rg_result r = rgf_save_text(graph, &save, text, &error);
    if (r != RG_SUCCESS)
        return fc_fail(why, n, graph, "rgf_save_text: %s: %s", rg_result_string(r), error.message);
    rgf_load_desc load = {.log = fc_quiet};
    /* VKG_TEST_FRAMES_SELFTEST=1 loads a frame whose order policy was
     * changed, which the checks must catch (CTest frames_checker_fails). */
    static const char from[] = "\"order\":\t\"memory\"", to[] = "\"order\":\t\"batches\"";
    const char *selftest = getenv("VKG_TEST_FRAMES_SELFTEST");
    const char *at = selftest && strcmp(selftest, "1") == 0 ? strstr(*text, from) : NULL;
    char *changed = at ? malloc(strlen(*text) + sizeof to) : NULL;
    if (changed)
        sprintf(changed, "%.*s%s%s", (int)(at - *text), *text, to, at + strlen(from));
    const char *loaded = changed ? changed : *text;
    r = rgf_load_text(loaded, strlen(loaded), "frame-check", &load, frame, &error);
    free(changed);
    if (r != RG_SUCCESS)
        return fc_fail(why, n, graph, "rgf_load_text of the saved text: %s: %s", rg_result_string(r), error.message);
    return true;
}

/* The loaded graph saves to the text it was loaded from. */
static bool fc_same_text(const rg_graph *graph, const rgf_frame *frame, const VkPhysicalDeviceMemoryProperties *props,
                         const char *text, char *why, size_t n)
{
    rgf_save_desc save = {.memory = props};
    rgf_error error = {{0}};
    char *again = NULL;
    rg_result r = rgf_save_text(rgf_frame_graph(frame), &save, &again, &error);
    if (r != RG_SUCCESS)
        return fc_fail(why, n, graph, "rgf_save_text of the loaded graph: %s: %s", rg_result_string(r), error.message);
    size_t at = 0;
    while (text[at] && text[at] == again[at])
        at++;
    bool same = text[at] == again[at];
    if (!same) {
        size_t from = at > 60 ? at - 60 : 0;
        fc_fail(why, n, graph,
                "saving the loaded graph: the text differs at byte %zu: saved \"...%.120s\", loaded \"...%.120s\"", at,
                text + from, again + from);
    }
    rgf_free(again);
    return same;
}

/* Every created resource got at least what it holds: its texels (every
 * mip, layer and sample) or its buffer's size. A test's or the fuzzer's
 * made-up requirement below that is no device's, and rgf_load refuses a
 * file holding one (docs/frame-files.md, "What a file is trusted with"). */
static bool fc_device_sizes(const rg_graph *graph)
{
    uint32_t count = rg_resource_count(graph);
    for (uint32_t i = 0; i < count; i++) {
        rg_resource_info r;
        if (rg_resource_get(graph, i, &r) != RG_SUCCESS || r.memory == RG_MEMORY_NOT_CREATED ||
            r.memory == RG_MEMORY_IMPORTED)
            continue;
        rg_format_info f = rg_format_get_info(r.format);
        VkDeviceSize least = r.texture.id ? 0 : r.size;
        for (uint32_t m = 0; r.texture.id && f.block_size && m < (r.mip_levels ? r.mip_levels : 1); m++) {
            uint32_t w = r.width >> m ? r.width >> m : 1, h = r.height >> m ? r.height >> m : 1;
            VkDeviceSize blocks = (VkDeviceSize)((w + f.block_width - 1) / f.block_width) *
                                  ((h + f.block_height - 1) / f.block_height);
            least += blocks * f.block_size * (r.array_layers ? r.array_layers : 1) * (r.samples ? r.samples : 1);
        }
        if (r.memory_size < least)
            return false;
    }
    return true;
}

bool frame_check_graph(rg_graph *graph, rg_result compiled, char *why, size_t n)
{
    /* Results of the moment, not of the declaration: host memory ran out
     * (the allocator tests fail allocations one by one), another thread is
     * in a call on the graph (which this check must not race), or the call
     * was refused and nothing kept (rg_compile while a frame is recorded). */
    if (compiled == RG_ERROR_OUT_OF_MEMORY || compiled == RG_ERROR_BUSY)
        return true;
    if (compiled != RG_SUCCESS && rg_graph_error(graph) != compiled)
        return true;
    rg_declaration decl;
    if (rg_declaration_get(graph, &decl) != RG_SUCCESS || decl.resource_count + decl.command_count == 0)
        return true;
    /* A placement from made-up requirements would be saved with it. */
    if (fc_placed(graph) && !fc_device_sizes(graph))
        return true;
    bool outer = fc_active;
    fc_active = true;
    char *text;
    rgf_frame *frame;
    bool ok = fc_round_trip(graph, NULL, &text, &frame, why, n);
    if (ok) {
        rg_graph *loaded = rgf_frame_graph(frame);
        rg_result again = rg_compile(loaded);
        if (again != compiled)
            ok = fc_fail(why, n, graph, "rg_compile: saved %s, loaded %s (%s)", rg_result_string(compiled),
                         rg_result_string(again), rg_graph_error_message(loaded));
        else if (compiled == RG_SUCCESS) {
            /* A placed graph's barriers are its placement's (aliasing
             * adds some): rg_compile of an unchanged declaration keeps
             * them. frame_check_placement compares those. */
            ok = fc_order(graph, loaded, why, n) && (fc_placed(graph) || fc_barriers(graph, loaded, why, n)) &&
                 fc_merges(graph, loaded, why, n);
            uint32_t ba = rg_batch_count(graph), bb = rg_batch_count(loaded);
            if (ok && ba != bb)
                ok = fc_fail(why, n, graph, "batch count: saved %" PRIu32 ", loaded %" PRIu32, ba, bb);
        }
        ok = ok && fc_same_text(graph, frame, NULL, text, why, n);
    }
    rgf_frame_destroy(frame);
    rgf_free(text);
    fc_active = outer;
    return ok;
}

static bool fc_resources(const rg_graph *a, const rg_graph *b, char *why, size_t n)
{
    uint32_t na = rg_resource_count(a), nb = rg_resource_count(b);
    if (na != nb)
        return fc_fail(why, n, a, "resource count: saved %" PRIu32 ", loaded %" PRIu32, na, nb);
    for (uint32_t i = 0; i < na; i++) {
        rg_resource_info x, y;
        rg_resource_get(a, i, &x);
        rg_resource_get(b, i, &y);
        if (strcmp(x.name, y.name) != 0 || x.memory != y.memory || x.memory_size != y.memory_size ||
            x.memory_offset != y.memory_offset || x.pool != y.pool)
            return fc_fail(why, n, a,
                           "resource [%" PRIu32 "] \"%s\": saved memory kind %d size %llu offset %llu pool %" PRIu32
                           ", loaded \"%s\" kind %d size %llu offset %llu pool %" PRIu32,
                           i, x.name, (int)x.memory, (unsigned long long)x.memory_size,
                           (unsigned long long)x.memory_offset, x.pool, y.name, (int)y.memory,
                           (unsigned long long)y.memory_size, (unsigned long long)y.memory_offset, y.pool);
    }
    return true;
}

static bool fc_totals(const rg_graph *a, const rg_graph *b, char *why, size_t n)
{
    rg_memory_totals x = rg_memory_get_totals(a), y = rg_memory_get_totals(b);
#define FC_TOTAL(f)                                                                                          \
    if (x.f != y.f)                                                                                          \
        return fc_fail(why, n, a, "memory totals ." #f ": saved %llu, loaded %llu", (unsigned long long)x.f, \
                       (unsigned long long)y.f);
    FC_TOTAL(pooled)
    FC_TOTAL(unaliased)
    FC_TOTAL(padding)
    FC_TOTAL(lower_bound)
    FC_TOTAL(lazy)
    FC_TOTAL(lazy_fallback)
    FC_TOTAL(dedicated)
    FC_TOTAL(pools)
#undef FC_TOTAL
    return true;
}

bool frame_check_placement(rg_graph *graph, const VkPhysicalDeviceMemoryProperties *props, char *why, size_t n)
{
    rg_declaration decl;
    if (rg_declaration_get(graph, &decl) != RG_SUCCESS || decl.resource_count + decl.command_count == 0)
        return true;
    /* Nothing made (imports alone, or all culled): the file holds no
     * memory section (frame_write.c saves it for created resources only),
     * so RGF_MEMORY_SAVED has nothing to place from. */
    if (!fc_created(graph) || !fc_device_sizes(graph))
        return true;
    bool outer = fc_active;
    fc_active = true;
    char *text;
    rgf_frame *frame;
    bool ok = fc_round_trip(graph, props, &text, &frame, why, n);
    if (ok) {
        rgf_error error = {{0}};
        rg_result r = rgf_frame_place(frame, RGF_MEMORY_SAVED, NULL, &error);
        if (r != RG_SUCCESS)
            ok =
                fc_fail(why, n, graph, "rgf_frame_place(RGF_MEMORY_SAVED): %s: %s", rg_result_string(r), error.message);
        else
            ok = fc_totals(graph, rgf_frame_graph(frame), why, n) &&
                 fc_resources(graph, rgf_frame_graph(frame), why, n) &&
                 fc_barriers(graph, rgf_frame_graph(frame), why, n);
        ok = ok && fc_same_text(graph, frame, props, text, why, n);
    }
    rgf_frame_destroy(frame);
    rgf_free(text);
    fc_active = outer;
    return ok;
}
