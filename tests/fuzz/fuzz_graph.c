/* libFuzzer harness for the render graph's device-free half.
 *
 * The input is a stream of operations, each an opcode byte and its
 * arguments (fuzz_decode.c): created and imported textures and
 * buffers with shapes from small tables or absurd raw values (color, depth,
 * stencil and depth+stencil, integer and block-compressed formats, imports
 * with mips and layers), user commands with accesses of every rg_usage (RAW
 * included) and ranges in or out of the resource (one aspect of a
 * depth+stencil texture among them), with or without undefined_ok (so a
 * read of nothing sometimes fails compile and sometimes not), spans with attachments at any mip and
 * layer, resolves with any mode, read-only depth with every load and store
 * op, and render areas, copies, clears and blits, handles that are
 * current, stale (made before a reset or a destroy), foreign (from a second
 * graph), zero or garbage, invalid enum values; then compiles, queries,
 * rg_place_offline with memory requirements decoded from the stream over
 * real devices' memory-type tables (tests/unit/device_tables.c) or decoded
 * ones, the memory queries and reports, declaring more after a placement
 * (offline placement stands in for execute) and compiling and placing
 * again, resets, destroying the graph and declaring again. Every
 * declaration that compiles is also declared again on a graph of a fake
 * device (null_device.c), placed there and recorded whole and in chunks
 * (see fuzz_record.c, and record_check.h for what it checks).
 *
 * Besides crashes, leaks and sanitizer reports, the harness aborts when the
 * library breaks a promise it can check from outside:
 *   - a rejected call (a 0 handle, a failing rg_compile / rg_place_offline
 *     / rg_write_dot) leaves an empty rg_graph_error_message;
 *   - a compiled order is not a permutation of the commands, contradicts
 *     rg_happens_before, runs a span's commands other than as one block in
 *     record order, or runs a command without accesses outside its
 *     record-order neighbours; two commands of different nodes touching one
 *     buffer or single-subresource texture, one of them writing it (read-only
 *     depth that loads or stores counts as a write), are not ordered by
 *     record order;
 *   - a barrier (after compile, and after placement with what aliasing adds)
 *     names a foreign handle, a range outside its texture, or an aspect its
 *     format lacks, or is recorded inside a span; one on a depth+stencil
 *     texture does not name both aspects;
 *   - a texture is accepted with a format the engine's table does not know,
 *     or the table disagrees with the harness's own facts on a format;
 *   - a buffer <-> texture copy is accepted although its texel blocks
 *     (rg_format_copy_size, ceil(w/bw)*ceil(h/bh)) do not fit the buffer,
 *     on a texture with both depth and stencil, or at a buffer offset that
 *     is not a multiple of the block size (4 for depth/stencil); or one that
 *     fits every rule is refused;
 *   - a clear is accepted on a block-compressed texture;
 *   - a blit is accepted across depth formats, without NEAREST on depth or
 *     integer formats, or between integer kinds (or integer and float); a
 *     span is accepted with a resolve mode its source's format does not
 *     allow, or an attachment or resolve target outside its texture;
 *   - a declaration appended after a compile or placement still finds the
 *     older order, barriers, memory plan or reports served;
 *   - a placement puts a pooled resource at an offset that is not a
 *     multiple of its alignment or outside the pools, or lets two pooled
 *     resources share bytes when their lifetimes overlap in the execution
 *     order (or, under alias_proven_only, when not every use of one
 *     happens-before every use of the other: the aliasing rule of
 *     rg_graph_desc.alias_proven_only and rg_place in rendergraph.h), the
 *     lifetimes computed by the harness from the commands' uses and, for
 *     the attachments of a merged rendering instance, from the instance's
 *     first begin to its last end (see "lifetimes" in fuzz_place.c); leaves a used
 *     created resource without memory or gives an unused one some; reports
 *     totals where padding exceeds unaliased, unaliased less padding is not the
 *     pooled resources' sizes, or (under rg_graph_desc.no_aliasing) pooled
 *     differs from unaliased; or placing again gives another plan;
 *   - a report fails on a graph that was just placed;
 *   - history textures: a write to the read-only half accepted, a half
 *     placed other than in its own memory, one half made without the other,
 *     the current half's first transition of the frame waiting for nothing
 *     (the image was used two frames before, read in between or not);
 *   - culling (on unless the second-to-last byte's low bit is set): a
 *     culled command in the order or a kept one missing, a span culled in
 *     part, a command without accesses or one writing an import culled,
 *     anything culled with culling off;
 *   - span merging (caps and merge mode decoded from the input's last
 *     bytes): a merged pair whose later span does not follow an end of
 *     rendering, a merge on a device without local read or with merging
 *     off, a barrier between merged spans that changes a layout or has
 *     stages outside the framebuffer-space ones, a reported
 *     rendering state with repeated locations or input indices;
 *   - queues (the device's compute and transfer queues and single_queue
 *     from the second-to-last byte; user commands eligible by their flags,
 *     copies by their place): a batch waiting for a later one, a command
 *     outside its batch's range or on another queue, a frame on several
 *     queues not ending in a command-less graphics batch that waits for
 *     every other queue, a happens-before between commands of two queues
 *     that no chain of semaphore waits covers, a barrier recorded on a
 *     compute or transfer queue with a stage that queue lacks, or two
 *     pooled resources used on different queues sharing bytes without
 *     every use of one happening before every use of the other;
 *   - recording (record_check.h): a frame's chunks, the cuts taken out,
 *     record other calls than the whole frame; a chunk's suspend and
 *     resume flags, labels and instances do not pair up or disagree with
 *     rg_chunk_get; a barrier, attachment, copy, clear or blit finds an
 *     image subresource in another layout than it says; the plan or
 *     rg_submit lists a frame's command buffers out of chunk order; the
 *     null device's graph compiles the journal to another order.
 *
 * Built with -DFUZZ_STANDALONE (no libFuzzer) it has a main instead:
 *   fuzz_graph_standalone --write-seeds DIR   writes the seed corpus (real frames)
 *   fuzz_graph_standalone FILE...             runs inputs (reproducing a crash)
 */
#include "fuzz_graph.h"

/* The graphs' log: the fuzzer makes mistakes on purpose and checks every
 * call's result and message itself, so nothing is printed (the default
 * log would print each distinct error). */
void fz_silent(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object, (void)message;
}

/* ---------------------------------------------------------------- resets */

static void remember(uint32_t *list, uint32_t *count, uint32_t id)
{
    if (id == 0)
        return;
    if (*count < MAX_OLD)
        list[(*count)++] = id;
    else
        list[id % MAX_OLD] = id;
}

/* The harness's view of a fresh declaration; the old one's handles are stale. */
static void forget_declaration(fz *f)
{
    for (uint32_t i = 0; i < f->res_count; i++)
        remember(f->stale, &f->stale_count, f->res[i].id);
    f->res_count = 0;
    f->subs = 0;
    f->cmd_count = 0;
    f->open_begin = UINT32_MAX;
    f->span_open = false;
    f->span_seq = 0;
    f->touches_lost = false;
    f->compiled = f->placed = false;
    f->journal_count = 0;
    f->journal_gen++;
}

static void op_reset(fz *f)
{
    forget_declaration(f);
    rg_graph_reset(f->g);
    CHECK(rg_graph_error(f->g) == RG_SUCCESS && rg_graph_error_message(f->g)[0] == '\0', "reset keeps an error");
}

/* Destroys the graph (whatever it holds: a placement, an open span, a kept
 * error) and makes a new one to declare into. */
static void op_recreate(fz *f)
{
    forget_declaration(f);
    rg_graph_destroy(f->g);
    f->g = NULL;
    f->graph_name = "fuzz again";
    rg_result res = rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = fz_silent, .no_aliasing = f->no_aliasing,
                                                     .merge = f->merge, .caps = &f->caps,
                                                     .no_culling = f->no_culling,
                                                     .alias_proven_only = f->alias_proven_only, .order = f->order,
                                                     .single_queue = f->single_queue},
                                    &f->g);
    CHECK(res == RG_SUCCESS && f->g != NULL, "rg_graph_create after a destroy: %s", rg_result_string(res));
}

static void op_foreign(fz *f)
{
    rd *r = f->r;
    uint8_t b = rd_u8(r);
    if (b & 1)
        rg_graph_reset(f->other);
    rg_texture t = rg_texture_create(f->other, &(rg_texture_desc){.name = "foreign", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                   .width = 16, .height = 16});
    rg_buffer bu = rg_buffer_create(f->other, &(rg_buffer_desc){.name = "foreign", .size = 256});
    remember(f->foreign, &f->foreign_count, t.id);
    remember(f->foreign, &f->foreign_count, bu.id);
}

/* ------------------------------------------------------------------ input */

static void declare(fz *f, uint32_t op)
{
    switch (op % OP_DECLARE) {
    case OP_TEX_CREATE: op_texture(f, false); break;
    case OP_TEX_IMPORT: op_texture(f, true); break;
    case OP_BUF_CREATE: op_buffer(f, false); break;
    case OP_BUF_IMPORT: op_buffer(f, true); break;
    case OP_USER: op_user(f); break;
    case OP_COPY_BUFFER: op_copy(f, 0); break;
    case OP_COPY_B2T: op_copy(f, 1); break;
    case OP_COPY_T2B: op_copy(f, 2); break;
    case OP_CLEAR: op_clear(f); break;
    case OP_BLIT: op_blit(f); break;
    case OP_BEGIN: op_begin(f); break;
    default: op_end(f); break;
    }
}

/* A declaration extended after its placement (which stands in for an
 * execute): compile and place over a device's table, 1 to 4 declaration
 * ops, compile and place again, then keep the graph, reset it, or destroy
 * it and start a new one. */
static void op_extend(fz *f)
{
    rd *r = f->r;
    uint8_t b = rd_u8(r);
    const VkPhysicalDeviceMemoryProperties *props = &device_tables[(b & 15) % device_table_count].props;
    op_compile(f);
    (void)fz_place(f, props, 0);
    uint32_t n = 1 + rd_u8(r) % 4;
    for (uint32_t i = 0; i < n && rd_more(r); i++)
        declare(f, rd_u8(r));
    op_compile(f);
    (void)fz_place(f, props, 0);
    switch ((b >> 4) % 3) {
    case 0: break;
    case 1: op_reset(f); break;
    default: op_recreate(f); break;
    }
}

/* The engine's table agrees with the harness's facts (checked once). */
static void check_format_facts(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    for (uint32_t i = 0; i < COUNT(format_facts); i++) {
        const format_fact *x = &format_facts[i];
        rg_format_info fi = rg_format_get_info(x->format);
        CHECK(fi.block_size == x->block && (x->block == 0 || (fi.block_width == x->bw && fi.block_height == x->bh &&
                                                               fi.aspects == x->aspects && fi.numeric == x->numeric)),
              "the engine's table has format %d as %u bytes of %ux%u, aspects 0x%x, kind %d", (int)x->format,
              fi.block_size, fi.block_width, fi.block_height, fi.aspects, (int)fi.numeric);
        CHECK(rg_format_copy_size(x->format, x->aspects) == x->copy, "rg_format_copy_size of format %d: %u, not %u",
              (int)x->format, rg_format_copy_size(x->format, x->aspects), x->copy);
    }
}

static void run_input(const uint8_t *data, size_t size)
{
    check_format_facts();
    rd r = {data, size, 0};
    fz *f = calloc(1, sizeof *f);
    if (!f)
        return;
    f->r = &r;
    f->open_begin = UINT32_MAX;
    /* The last byte's low bit: a graph that never aliases (the seeds' last
     * byte is an even opcode or argument, so they alias). */
    f->no_aliasing = size && (data[size - 1] & 1);
    /* The last byte's next bits: the merge mode and the device's local
     * read (on, multisampled, depth/stencil, few attachments, a tile or a
     * desktop or MoltenVK driver). */
    uint8_t last = size ? data[size - 1] : 0;
    static const VkDriverId drivers[] = {VK_DRIVER_ID_ARM_PROPRIETARY, VK_DRIVER_ID_NVIDIA_PROPRIETARY,
                                         VK_DRIVER_ID_MOLTENVK, VK_DRIVER_ID_QUALCOMM_PROPRIETARY};
    f->merge = (rg_merge)(((last >> 1) & 3) % 3);
    f->caps = (rg_device_caps){.local_read = (last >> 3) & 1, .local_read_multisampled = (last >> 4) & 1,
                               .local_read_depth_stencil = (last >> 4) & 1,
                               .max_color_attachments = (last >> 5) & 1 ? 2 : 0,
                               .max_input_attachments = (last >> 5) & 1 ? 1 : 0, .driver = drivers[last >> 6]};
    /* The byte before it: culling off (bit 0), aliasing only under proven
     * order (bit 1), the order (bits 2-3). */
    uint8_t before_last = size >= 2 ? data[size - 2] : 0;
    f->no_culling = before_last & 1;
    f->alias_proven_only = (before_last >> 1) & 1;
    f->order = (rg_order)(((before_last >> 2) & 3) % 3);
    /* Its high bits: the device's compute and transfer queues, one queue. */
    f->caps.compute_queue = (before_last >> 4) & 1;
    f->caps.transfer_queue = (before_last >> 5) & 1;
    f->single_queue = (before_last >> 6) & 1;
    /* The null device's options (labels, timings, memory types): from a
     * hash of the whole input, so every input keeps its meaning. */
    f->hash = 2166136261u;
    for (size_t i = 0; i < size; i++)
        f->hash = (f->hash ^ data[i]) * 16777619u;
    /* The tile profile the graph merges for, from the hash too. */
    f->caps.tile_profile = (rg_tile_profile)((f->hash >> 8) % RG_TILE_PROFILE_COUNT);
    /* And whether multisampled spans may fold into their resolve targets. */
    f->caps.msaa_to_single_sampled = (f->hash >> 20) & 1;
    f->graph_name = "fuzz \"graph\"\n";
    if (rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = fz_silent, .no_aliasing = f->no_aliasing,
                                         .merge = f->merge, .caps = &f->caps, .no_culling = f->no_culling,
                                         .alias_proven_only = f->alias_proven_only, .order = f->order,
                                                     .single_queue = f->single_queue},
                        &f->g) !=
            RG_SUCCESS ||
        rg_graph_create(&(rg_graph_desc){.name = NULL, .log = fz_silent}, &f->other) != RG_SUCCESS) {
        rg_graph_destroy(f->g);
        free(f);
        return;
    }
    static const char *const op_names[OP_COUNT] = {
        "texture", "import", "buffer", "buffer import", "user", "copy buffer", "copy to texture", "copy to buffer",
        "clear", "blit", "begin", "end", "compile", "place", "reset", "foreign", "extend", "misuse"};
    for (uint32_t ops = 0; rd_more(&r) && ops < 1024; ops++) {
        uint32_t op = rd_u8(&r) % OP_COUNT;
        snprintf(f->op_name, sizeof f->op_name, "op %u (%s, byte %zu)", ops, op_names[op], r.i - 1);
        switch (op) {
        case OP_COMPILE: op_compile(f); break;
        case OP_PLACE: op_place(f); break;
        case OP_RESET: op_reset(f); break;
        case OP_FOREIGN: op_foreign(f); break;
        case OP_EXTEND: op_extend(f); break;
        case OP_MISUSE: op_misuse(f); break;
        default: declare(f, op); break;
        }
    }
    /* Every input ends compiled, placed and reported. */
    snprintf(f->op_name, sizeof f->op_name, "the input's end (compile)");
    op_compile(f);
    rd tail = {(const uint8_t[]){0, 0}, 2, 0};
    f->r = &tail;
    op_place(f);
    rg_graph_destroy(f->g);
    rg_graph_destroy(f->other);
    free(f->journal);
    free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_input(data, size);
    return 0;
}
