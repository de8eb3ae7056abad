/* libFuzzer harness for the render graph's device-free half.
 *
 * The input is a stream of operations, each an opcode byte and its
 * arguments (see the "decoder" below): created and imported textures and
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
 * (see "recording" below, and record_check.h for what it checks).
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
 *     first begin to its last end (see "lifetimes" below); leaves a used
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
#include "device_tables.h"
#include "fuzz_check.h"
#include "null_device.h"
#include "record_check.h"

#include <rendergraph/rendergraph.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The graphs' log: the fuzzer makes mistakes on purpose and checks every
 * call's result and message itself, so nothing is printed (the default
 * log would print each distinct error). */
static void silent(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object, (void)message;
}

/* ---------------------------------------------------------------- decoder */

typedef struct rd {
    const uint8_t *p;
    size_t n, i;
} rd;

static uint8_t u8(rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }
static bool more(const rd *r) { return r->i < r->n; }

static uint32_t raw32(rd *r)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t)u8(r) << (8 * k);
    return v;
}

static uint64_t raw64(rd *r)
{
    uint64_t lo = raw32(r);
    return lo | (uint64_t)raw32(r) << 32;
}

/* Counts, extents, indices: small values in one byte, powers of two, raw
 * and extreme values behind escape bytes. */
static uint32_t num32(rd *r)
{
    uint8_t b = u8(r);
    if (b < 0xE0)
        return b;
    switch (b) {
    case 0xF0: return (uint32_t)u8(r) | (uint32_t)u8(r) << 8;
    case 0xF1: return raw32(r);
    case 0xF2: return UINT32_MAX;
    case 0xF3: return UINT32_MAX - u8(r);
    case 0xF4: return (1u << 24) + u8(r) - 128u;
    default: return 1u << ((b - 0xE0 + 8) & 31); /* 256 .. 2^31, then 1 .. 128 */
    }
}

/* Byte sizes and offsets. */
static uint64_t num64(rd *r)
{
    uint8_t b = u8(r);
    if (b < 0x80)
        return b;
    if (b < 0xC0)
        return (uint64_t)(b - 0x7F) * 4096u;
    if (b < 0xE0)
        return (uint64_t)(b - 0xBF) << 16;
    if (b < 0xF0)
        return 1ull << (b - 0xE0 + 22);
    switch (b) {
    case 0xF0: return raw32(r);
    case 0xF1: return raw64(r);
    case 0xF2: return UINT64_MAX;
    case 0xF3: return UINT64_MAX - u8(r);
    case 0xF4: return 1ull << (u8(r) & 63);
    case 0xF5: return (1ull << (u8(r) & 63)) + 1;
    default: return (uint64_t)b * 3;
    }
}

/* Enums: a table index, or a raw (maybe invalid) value. */
static uint32_t pick(rd *r, const uint32_t *table, uint32_t n)
{
    uint8_t b = u8(r);
    if (b == 0xFF)
        return raw32(r);
    return table[b % n];
}

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const uint32_t formats[] = {
    VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
    VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_S8_UINT, VK_FORMAT_D16_UNORM,
    VK_FORMAT_R8_UNORM, VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_R32G32B32A32_SFLOAT,
    VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_UNDEFINED, VK_FORMAT_D32_SFLOAT_S8_UINT,
    /* integer: resolve by SAMPLE_ZERO only, blit NEAREST only and to their own kind */
    VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R32_UINT, VK_FORMAT_R32G32B32A32_SINT,
    VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R16_SINT,
    /* block-compressed (copies by block), a 3-byte texel (offsets by 3), a multi-planar one (refused) */
    VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_ASTC_12x12_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK,
    VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, VK_FORMAT_ASTC_5x4_SRGB_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK,
    VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM,
};

/* The harness's own facts on some formats, from the Vulkan specification's
 * compatibility table, so that an engine table gone wrong shows up here
 * rather than silently moving the copy check along with it. */
typedef struct format_fact {
    VkFormat format;
    uint32_t block, bw, bh;           /* texel block bytes and extent; 0: refused (multi-planar) */
    VkImageAspectFlags aspects;
    rg_format_numeric numeric;
    uint32_t copy;                    /* buffer bytes per block of a copy of all its aspects; 0: none */
} format_fact;

#define ASP_C VK_IMAGE_ASPECT_COLOR_BIT
#define ASP_D VK_IMAGE_ASPECT_DEPTH_BIT
#define ASP_S VK_IMAGE_ASPECT_STENCIL_BIT
static const format_fact format_facts[] = {
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 1, 1, ASP_C, RG_FORMAT_FLOAT, 4},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 1, 1, ASP_C, RG_FORMAT_FLOAT, 8},
    {VK_FORMAT_R8G8B8_UNORM, 3, 1, 1, ASP_C, RG_FORMAT_FLOAT, 3},
    {VK_FORMAT_R8G8B8A8_UINT, 4, 1, 1, ASP_C, RG_FORMAT_UINT, 4},
    {VK_FORMAT_R16G16B16A16_UINT, 8, 1, 1, ASP_C, RG_FORMAT_UINT, 8},
    {VK_FORMAT_R32_UINT, 4, 1, 1, ASP_C, RG_FORMAT_UINT, 4},
    {VK_FORMAT_R32G32B32A32_SINT, 16, 1, 1, ASP_C, RG_FORMAT_SINT, 16},
    {VK_FORMAT_R16_SINT, 2, 1, 1, ASP_C, RG_FORMAT_SINT, 2},
    {VK_FORMAT_D16_UNORM, 2, 1, 1, ASP_D, RG_FORMAT_DEPTH_STENCIL, 2},
    {VK_FORMAT_D32_SFLOAT, 4, 1, 1, ASP_D, RG_FORMAT_DEPTH_STENCIL, 4},
    {VK_FORMAT_S8_UINT, 1, 1, 1, ASP_S, RG_FORMAT_DEPTH_STENCIL, 1},
    {VK_FORMAT_D24_UNORM_S8_UINT, 4, 1, 1, ASP_D | ASP_S, RG_FORMAT_DEPTH_STENCIL, 0},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, 5, 1, 1, ASP_D | ASP_S, RG_FORMAT_DEPTH_STENCIL, 0},
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, 4, 4, ASP_C, RG_FORMAT_FLOAT, 8},
    {VK_FORMAT_BC3_UNORM_BLOCK, 16, 4, 4, ASP_C, RG_FORMAT_FLOAT, 16},
    {VK_FORMAT_BC7_UNORM_BLOCK, 16, 4, 4, ASP_C, RG_FORMAT_FLOAT, 16},
    {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 8, 4, 4, ASP_C, RG_FORMAT_FLOAT, 8},
    {VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 16, 4, 4, ASP_C, RG_FORMAT_FLOAT, 16},
    {VK_FORMAT_ASTC_5x4_SRGB_BLOCK, 16, 5, 4, ASP_C, RG_FORMAT_FLOAT, 16},
    {VK_FORMAT_ASTC_12x12_UNORM_BLOCK, 16, 12, 12, ASP_C, RG_FORMAT_FLOAT, 16},
    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 0, 0, 0, 0, RG_FORMAT_UNKNOWN, 0},
};

static const uint32_t layouts[] = {
    VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PREINITIALIZED, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
};
static const uint32_t aspects[] = {
    0, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT,
    VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0xFF,
};
static const uint32_t load_ops[] = {
    VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
};
static const uint32_t store_ops[] = {VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     VK_ATTACHMENT_STORE_OP_NONE};
static const uint32_t filters[] = {VK_FILTER_NEAREST, VK_FILTER_LINEAR, VK_FILTER_CUBIC_EXT};
static const uint32_t resolve_modes[] = {
    0, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MAX_BIT,
};

/* ------------------------------------------------------------------ state */

#define MAX_RES 96
#define MAX_CMDS 256
#define MAX_TOUCH 20
#define MAX_OLD 32
#define SUB_CAP (1u << 16) /* subresources per declaration the harness lets through */

typedef struct shadow {
    bool is_texture, imported;
    VkFormat format;
    uint32_t w, h, mips, layers, samples;
    VkDeviceSize size;
    uint32_t id;
    uint32_t pair;                    /* history texture: 1 + the other half's index; 0: none */
    bool previous;                    /* the read-only half of a history texture */
} shadow;

typedef struct cmd_info {
    rg_command h;
    uint32_t touch[MAX_TOUCH];        /* declaration indices of the resources it uses */
    bool write[MAX_TOUCH];            /* whether that use writes (as far as the harness is sure) */
    uint32_t touch_count;
    uint32_t resolves;                /* bit per touch: a span's resolve target, not an attachment */
    uint32_t span;                    /* 1 + the span it belongs to (begin, interior, end); 0: none */
    bool begin;                       /* the span's rg_begin_rendering */
    bool bare;                        /* a user command with no accesses, outside any span */
} cmd_info;

typedef struct req {
    bool asked;
    VkDeviceSize size, alignment;
} req;

/* The journal: every declaration call of the current declaration that the
 * fuzzed graph accepted, with its arguments (handles as that graph gave
 * them), so the same declaration can be made again on a graph of the null
 * device and recorded (see "recording"). */
typedef enum jkind {
    J_TEXTURE, J_HISTORY, J_TEXTURE_IMPORT, J_BUFFER, J_BUFFER_IMPORT, J_USER, J_COPY_BUFFER, J_COPY_TO_TEXTURE,
    J_COPY_TO_BUFFER, J_ALLOW_QUEUE, J_CLEAR, J_BLIT, J_BEGIN, J_END,
} jkind;

typedef struct jcall {
    jkind kind;
    bool named;
    char name[128];
    uint32_t made[2];                 /* the handles it returned (a history texture: both halves) */
    union {
        rg_texture_desc texture;      /* J_TEXTURE, J_HISTORY */
        rg_texture_import_desc import;
        rg_buffer_desc buffer;
        rg_buffer_import_desc buffer_import;
        struct {
            rg_user_desc desc;
            rg_access accesses[8];
            bool has_accesses;
        } user;
        struct {
            uint32_t src, dst;
            uint64_t src_offset, dst_offset, size;
        } copy_buffer;
        struct {
            uint32_t buffer, texture;
            uint64_t offset;
            uint32_t mip, layer, count;
        } copy_image;
        struct {
            uint32_t command;
            rg_queue queue;
        } allow;
        struct {
            uint32_t texture;
            bool has_range, has_value;
            rg_range range;
            VkClearValue value;
        } clear;
        struct {
            uint32_t src, src_mip, dst, dst_mip;
            VkFilter filter;
        } blit;
        rg_rendering_desc begin;
    } u;
} jcall;

typedef struct fz {
    rg_graph *g, *other;
    shadow res[MAX_RES];              /* by declaration index (the library's) */
    uint32_t res_count;
    uint32_t subs;
    cmd_info cmds[MAX_CMDS];
    uint32_t cmd_count;
    uint32_t open_begin;              /* cmds[] index of the open span's begin, UINT32_MAX */
    bool span_open;                   /* a begin was accepted and its end not yet */
    uint32_t span_seq;                /* spans begun in this declaration */
    bool touches_lost;                /* some command or use did not fit cmds[] */
    bool compiled, placed;            /* what the harness last saw succeed, for this declaration */
    uint32_t stale[MAX_OLD], stale_count;
    uint32_t foreign[MAX_OLD], foreign_count;
    rd *r;
    /* placement */
    const VkPhysicalDeviceMemoryProperties *props;
    uint32_t req_mode;
    req reqs[MAX_RES];
    bool callback_failed;
    bool no_aliasing;                 /* rg_graph_desc.no_aliasing of g */
    rg_merge merge;                   /* rg_graph_desc.merge of g */
    bool no_culling;                  /* rg_graph_desc.no_culling of g */
    bool alias_proven_only;           /* rg_graph_desc.alias_proven_only of g */
    rg_order order;                   /* rg_graph_desc.order of g */
    bool single_queue;                /* rg_graph_desc.single_queue of g */
    rg_device_caps caps;              /* and its device */
    char name_buf[8][128];
    uint32_t name_next;
    const char *graph_name;           /* g's rg_graph_desc.name */
    /* recording (see "recording") */
    jcall *journal;
    uint32_t journal_count, journal_cap;
    uint32_t journal_gen, recorded_gen; /* changes of the journal; the one last recorded */
    char op_name[64];                 /* the input's op being run ("op 12 (compile)"), for messages */
    uint32_t hash;                    /* of the input: picks the null device's options */
    uint32_t sessions;                /* recordings made of this input */
    rc_stats stats;
} fz;

/* A rejected call must leave an error code and a message. */
static void expect_message(const fz *f, const char *what)
{
    CHECK(rg_graph_error_message(f->g) != NULL && rg_graph_error_message(f->g)[0] != '\0',
          "%s failed and left an empty message (error %s)", what, rg_result_string(rg_graph_error(f->g)));
}

/* A rejected declaration call: the error is kept, so no compile or
 * placement of this declaration follows. */
static void rejected(fz *f, const char *what)
{
    CHECK(rg_graph_error(f->g) != RG_SUCCESS, "%s returned 0 with no error kept", what);
    expect_message(f, what);
    f->compiled = f->placed = false;
}

/* Appends an accepted call to the journal (name: its name argument). */
static jcall *jot(fz *f, jkind kind, const char *nm, uint32_t made, uint32_t made2)
{
    if (f->journal_count == f->journal_cap) {
        uint32_t cap = f->journal_cap ? f->journal_cap * 2 : 64;
        jcall *j = realloc(f->journal, cap * sizeof *j);
        CHECK(j != NULL, "out of memory for the journal");
        f->journal = j;
        f->journal_cap = cap;
    }
    jcall *j = &f->journal[f->journal_count++];
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->named = nm != NULL;
    if (nm)
        snprintf(j->name, sizeof j->name, "%s", nm);
    j->made[0] = made;
    j->made[1] = made2;
    f->journal_gen++;
    return j;
}

/* Names: NULL, empty, or bytes of the stream (quotes, newlines, any byte). */
static const char *name(fz *f)
{
    uint8_t len = u8(f->r);
    if (len == 0)
        return NULL;
    char *buf = f->name_buf[f->name_next++ % 8];
    uint32_t n = (uint32_t)(len - 1) % 100;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = u8(f->r);
        buf[i] = (char)(c ? c : '_');
    }
    buf[n] = '\0';
    return buf;
}

/* Handle selectors: high 3 bits the source, low 5 bits an index. */
static uint32_t handle_id(fz *f, bool texture, uint32_t *decl)
{
    uint8_t b = u8(f->r);
    uint32_t idx = b & 31u;
    *decl = UINT32_MAX;
    switch (b >> 5) {
    case 0: case 1: case 2: case 3: {
        /* The idx-th current resource of the kind (wrapping). */
        uint32_t n = 0;
        for (uint32_t i = 0; i < f->res_count; i++)
            n += f->res[i].is_texture == texture;
        if (n == 0)
            return 0;
        uint32_t want = ((b >> 5) * 32u + idx) % n;
        for (uint32_t i = 0; i < f->res_count; i++)
            if (f->res[i].is_texture == texture && want-- == 0) {
                *decl = i;
                return f->res[i].id;
            }
        return 0;
    }
    case 4: return f->stale_count ? f->stale[idx % f->stale_count] : 0;
    case 5: return f->foreign_count ? f->foreign[idx % f->foreign_count] : 0;
    case 6: /* the other kind */
        for (uint32_t i = 0; i < f->res_count; i++)
            if (f->res[(i + idx) % f->res_count].is_texture != texture)
                return f->res[(i + idx) % f->res_count].id;
        return 0;
    default:
        if (idx == 0)
            return 0;
        if (idx == 1)
            return raw32(f->r);
        /* a current handle's tag with an index beyond the declaration */
        return f->res_count ? (f->res[0].id & ~0xFFFFFu) | ((f->res_count + idx) & 0xFFFFFu) : idx;
    }
}

/* A handle and, when it names a current resource of the kind however it
 * was made (raw bytes that happen to match included), which one. */
static uint32_t handle_known(fz *f, bool texture, uint32_t *decl)
{
    uint32_t id = handle_id(f, texture, decl);
    for (uint32_t i = 0; id && *decl == UINT32_MAX && i < f->res_count; i++)
        if (f->res[i].id == id && f->res[i].is_texture == texture)
            *decl = i;
    return id;
}

static rg_texture tex_arg(fz *f, uint32_t *decl) { return (rg_texture){handle_known(f, true, decl)}; }
static rg_buffer buf_arg(fz *f, uint32_t *decl) { return (rg_buffer){handle_known(f, false, decl)}; }

static void appended(fz *f);

/* Records a successful command, the resources it uses and which of those
 * uses write (writes NULL: none). */
static void cmd_push(fz *f, rg_command h, const uint32_t *touch, const bool *writes, uint32_t n)
{
    CHECK(h.id != 0, "cmd_push of a 0 handle");
    CHECK(rg_graph_error(f->g) == RG_SUCCESS, "a command handle with an error kept");
    appended(f);
    if (f->cmd_count == MAX_CMDS) {
        f->touches_lost = true;
        return;
    }
    cmd_info *c = &f->cmds[f->cmd_count++];
    c->h = h;
    c->touch_count = 0;
    c->span = f->span_open ? f->span_seq : 0;
    c->begin = c->bare = false;
    c->resolves = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (touch[i] == UINT32_MAX)
            continue;
        if (c->touch_count == MAX_TOUCH) {
            f->touches_lost = true;
            break;
        }
        c->write[c->touch_count] = writes && writes[i];
        CHECK(!c->write[c->touch_count] || touch[i] >= f->res_count || !f->res[touch[i]].previous,
              "a write to the read-only half of history texture %u accepted", touch[i]);
        c->touch[c->touch_count++] = touch[i];
    }
}

/* ------------------------------------------------------------- resources */

static uint32_t subres_estimate(uint32_t mips, uint32_t layers)
{
    uint64_t s = 2ull * (mips ? mips : 1) * (layers ? layers : 1);
    return s > (1u << 25) ? (1u << 25) : (uint32_t)s;
}

/* Whether the harness lets a texture through: one the library would take
 * must keep the declaration's subresources small enough for quick
 * compiles (the library's own limit is far above what fuzzing can afford). */
static bool texture_affordable(fz *f, uint32_t mips, uint32_t layers)
{
    uint32_t s = subres_estimate(mips, layers);
    if (s > (1u << 24) * 2u) /* the library rejects it before allocating anything */
        return true;
    if (f->subs + s > SUB_CAP)
        return false;
    f->subs += s;
    return true;
}

static void shadow_push(fz *f, const shadow *s)
{
    appended(f);
    if (f->res_count < MAX_RES)
        f->res[f->res_count++] = *s;
}

static void op_texture(fz *f, bool import)
{
    rd *r = f->r;
    const char *nm = name(f);
    shadow s = {.is_texture = true, .imported = import};
    s.format = (VkFormat)pick(r, formats, COUNT(formats));
    s.w = num32(r);
    s.h = num32(r);
    s.mips = num32(r);
    s.layers = num32(r);
    s.samples = num32(r);
    if (f->res_count >= MAX_RES || !texture_affordable(f, s.mips, s.layers))
        return;
    rg_texture t;
    if (!import) {
        uint8_t mode = u8(r);
        rg_texture_desc d = {.name = nm, .format = s.format, .width = s.w, .height = s.h, .mip_levels = s.mips,
                             .array_layers = s.layers, .samples = (VkSampleCountFlagBits)s.samples,
                             .transient = (rg_transient)(mode < 0xF0 ? mode % 3 : mode),
                             .extra_usage = (VkImageUsageFlags)num32(r)};
        if (mode >= 0xE0 && mode < 0xF0) {
            /* A history texture: current and previous, two shadows. */
            d.transient = RG_TRANSIENT_AUTO;
            rg_texture prev = {0};
            if (f->res_count + 1 >= MAX_RES || !texture_affordable(f, s.mips, s.layers))
                return;
            t = rg_texture_create_history(f->g, &d, &prev);
            CHECK((t.id == 0) == (prev.id == 0), "history texture %u with previous %u", t.id, prev.id);
            if (t.id == 0) {
                rejected(f, "rg_texture_create_history");
                return;
            }
            s.mips = s.mips ? s.mips : 1;
            s.layers = s.layers ? s.layers : 1;
            s.samples = s.samples ? s.samples : 1;
            s.id = t.id;
            s.pair = f->res_count + 2;
            shadow_push(f, &s);
            s.id = prev.id;
            s.pair = f->res_count;
            s.previous = true;
            shadow_push(f, &s);
            jot(f, J_HISTORY, nm, t.id, prev.id)->u.texture = d;
            return;
        }
        t = rg_texture_create(f->g, &d);
        if (t.id)
            jot(f, J_TEXTURE, nm, t.id, 0)->u.texture = d;
        CHECK(d.transient <= RG_TRANSIENT_FORBID || t.id == 0, "transient mode %d accepted", (int)d.transient);
    } else {
        rg_texture_import_desc d = {.name = nm, .format = s.format, .width = s.w, .height = s.h,
                                    .mip_levels = s.mips, .array_layers = s.layers,
                                    .samples = (VkSampleCountFlagBits)s.samples};
        d.initial_layout = (VkImageLayout)pick(r, layouts, COUNT(layouts));
        d.initial_stage = num64(r);
        d.initial_access = num64(r);
        d.final_layout = (VkImageLayout)pick(r, layouts, COUNT(layouts));
        d.final_stage = num64(r);
        d.final_access = num64(r);
        t = rg_texture_import(f->g, &d);
        if (t.id)
            jot(f, J_TEXTURE_IMPORT, nm, t.id, 0)->u.import = d;
    }
    if (t.id == 0) {
        rejected(f, import ? "rg_texture_import" : "rg_texture_create");
        return;
    }
    /* Copy sizes, resolve modes, filters and barrier aspects follow from the
     * format: one the engine does not know (multi-planar) must be refused. */
    CHECK(rg_format_get_info(s.format).block_size != 0, "%s accepted format %d, unknown to the engine's table",
          import ? "rg_texture_import" : "rg_texture_create", (int)s.format);
    s.mips = s.mips ? s.mips : 1;
    s.layers = s.layers ? s.layers : 1;
    s.samples = s.samples ? s.samples : 1;
    s.id = t.id;
    shadow_push(f, &s);
}

static void op_buffer(fz *f, bool import)
{
    rd *r = f->r;
    const char *nm = name(f);
    shadow s = {.is_texture = false, .imported = import, .size = num64(r)};
    if (f->res_count >= MAX_RES)
        return;
    rg_buffer b;
    if (!import) {
        rg_buffer_desc d = {.name = nm, .size = s.size, .extra_usage = (VkBufferUsageFlags)num32(r)};
        b = rg_buffer_create(f->g, &d);
        if (b.id)
            jot(f, J_BUFFER, nm, b.id, 0)->u.buffer = d;
    } else {
        rg_buffer_import_desc d = {.name = nm, .size = s.size};
        d.initial_stage = num64(r);
        d.initial_access = num64(r);
        d.final_stage = num64(r);
        d.final_access = num64(r);
        b = rg_buffer_import(f->g, &d);
        if (b.id)
            jot(f, J_BUFFER_IMPORT, nm, b.id, 0)->u.buffer_import = d;
    }
    if (b.id == 0) {
        rejected(f, import ? "rg_buffer_import" : "rg_buffer_create");
        return;
    }
    s.id = b.id;
    shadow_push(f, &s);
}

/* -------------------------------------------------------------- commands */

static bool noop(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

static void range(fz *f, rg_range *out)
{
    rd *r = f->r;
    out->aspect = pick(r, aspects, COUNT(aspects));
    out->base_mip = num32(r);
    out->mip_count = num32(r);
    out->base_layer = num32(r);
    out->layer_count = num32(r);
}

static void op_user(fz *f)
{
    rd *r = f->r;
    const char *nm = name(f);
    uint8_t kind = u8(r), flags = u8(r);
    uint32_t n = u8(r) % 9;
    rg_access acc[8];
    uint32_t touch[8];
    bool writes[8];
    memset(acc, 0, sizeof acc);
    for (uint32_t i = 0; i < n; i++) {
        rg_access *a = &acc[i];
        uint8_t which = u8(r);
        uint32_t d1 = UINT32_MAX, d2 = UINT32_MAX;
        if (which & 1)
            a->texture = tex_arg(f, &d1);
        if (which & 2)
            a->buffer = buf_arg(f, &d2);
        touch[i] = d1 != UINT32_MAX ? d1 : d2;
        uint8_t u = u8(r);
        a->usage = (rg_usage)(u < 0xF0 ? u % (RG_USAGE_COUNT + 2) : (uint32_t)-1 - (u & 3u));
        a->whole = which & 4;
        a->undefined_ok = which & 32; /* else a read of nothing fails compile */
        if (!a->whole)
            range(f, &a->range);
        if (a->usage == RG_USAGE_RAW || (which & 8)) {
            a->stage = num64(r);
            a->access = num64(r);
            a->layout = (VkImageLayout)pick(r, layouts, COUNT(layouts));
            a->write = which & 16;
        }
        const rg_usage_info *info = rg_usage_get_info(a->usage);
        writes[i] = a->usage == RG_USAGE_RAW ? a->write : info && info->write;
    }
    rg_user_desc d = {.name = nm, .kind = (rg_command_kind)(kind < 0xF0 ? kind % 3 : kind),
                      .accesses = (flags & 2) ? NULL : acc, .access_count = n,
                      .record = (flags & 1) ? NULL : noop, .queue = (rg_queue)((flags >> 2) & 3)};
    rg_command c = rg_cmd_user(f->g, &d);
    if (c.id == 0) {
        rejected(f, "rg_cmd_user");
        return;
    }
    jcall *j = jot(f, J_USER, nm, c.id, 0);
    j->u.user.desc = d;
    j->u.user.has_accesses = d.accesses != NULL;
    memcpy(j->u.user.accesses, acc, sizeof acc);
    uint32_t before = f->cmd_count;
    cmd_push(f, c, touch, writes, n);
    if (f->cmd_count > before)
        f->cmds[before].bare = n == 0 && !f->span_open;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

/* Tightly packed bytes of a whole mip, n layers (0: one), of a texture's
 * one aspect in a buffer copy: rg_format_copy_size per texel block, whole
 * blocks of the format's extent across the mip (ceil(w/bw) * ceil(h/bh));
 * 0 when the format has no single copyable aspect, UINT64_MAX past 2^64. */
static uint64_t copy_bytes(const shadow *t, uint32_t mip, uint32_t n)
{
    rg_format_info fi = rg_format_get_info(t->format);
    uint64_t unit = rg_format_copy_size(t->format, fi.aspects);
    if (unit == 0 || fi.block_width == 0 || fi.block_height == 0)
        return 0;
    uint64_t w = mip < 32 && (t->w >> mip) ? t->w >> mip : 1, h = mip < 32 && (t->h >> mip) ? t->h >> mip : 1;
    uint64_t bx = (w + fi.block_width - 1) / fi.block_width, by = (h + fi.block_height - 1) / fi.block_height;
    return sat_mul(sat_mul(sat_mul(unit, bx), by), n ? n : 1);
}

/* A buffer <-> texture copy, accepted or refused, against the rules the
 * header states: a whole mip of one aspect inside the texture, single
 * sampled, whose packed blocks fit the buffer from an offset that is a
 * multiple of the block size (4 for depth/stencil). */
static void check_image_copy(fz *f, const char *what, bool accepted, bool could, uint32_t db, uint32_t dt,
                             uint64_t off, uint32_t mip, uint32_t layer, uint32_t count)
{
    const shadow *t = &f->res[dt];
    rg_format_info fi = rg_format_get_info(t->format);
    bool two = fi.aspects == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
    uint64_t unit = fi.numeric == RG_FORMAT_DEPTH_STENCIL ? 4 : fi.block_size;
    uint32_t n = count ? count : 1;
    bool inside = mip < t->mips && layer < t->layers && n <= t->layers - layer;
    uint64_t bytes = inside ? copy_bytes(t, mip, count) : 0, size = f->res[db].size;
    bool fits = bytes != 0 && bytes != UINT64_MAX && off <= size && bytes <= size - off;
    bool aligned = unit != 0 && off % unit == 0;
    if (accepted) {
        CHECK(!two, "%s accepted texture format %d, which has depth and stencil (a copy moves one aspect)", what,
              (int)t->format);
        CHECK(inside, "%s accepted mip %u layers %u+%u of a texture of %u mips, %u layers", what, mip, layer, n,
              t->mips, t->layers);
        CHECK(fits, "%s accepted %llu bytes at offset %llu of a %llu-byte buffer (format %d, %ux%u mip %u, %u layers)",
              what, (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)size, (int)t->format,
              t->w, t->h, mip, n);
        CHECK(aligned, "%s accepted buffer offset %llu, not a multiple of %llu (format %d)", what,
              (unsigned long long)off, (unsigned long long)unit, (int)t->format);
    } else if (could) {
        CHECK(two || !inside || t->samples != 1 || !fits || !aligned, "%s refused a copy that follows every rule "
              "(format %d, %ux%u mip %u, %u layers, %llu bytes at offset %llu of %llu): %s", what, (int)t->format,
              t->w, t->h, mip, n, (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)size,
              rg_graph_error_message(f->g));
    }
}

static void op_copy(fz *f, uint8_t which)
{
    rd *r = f->r;
    uint32_t d[2];
    bool writes[2] = {false, true};
    rg_command c = {0};
    const char *what = "copy";
    bool graphics_only = false;
    /* Whether nothing but the arguments can make the library refuse it. */
    bool could = rg_graph_error(f->g) == RG_SUCCESS && !f->span_open;
    if (which == 0) {
        rg_buffer s = buf_arg(f, &d[0]);
        uint64_t so = num64(r);
        rg_buffer t = buf_arg(f, &d[1]);
        uint64_t to = num64(r), size = num64(r);
        c = rg_cmd_copy_buffer(f->g, s, so, t, to, size);
        what = "rg_cmd_copy_buffer";
        if (c.id) {
            jcall *j = jot(f, J_COPY_BUFFER, NULL, c.id, 0);
            j->u.copy_buffer.src = s.id, j->u.copy_buffer.dst = t.id;
            j->u.copy_buffer.src_offset = so, j->u.copy_buffer.dst_offset = to, j->u.copy_buffer.size = size;
        }
    } else {
        bool to_tex = which == 1;
        uint32_t db, dt;
        rg_buffer b = buf_arg(f, &db);
        uint64_t off = num64(r);
        rg_texture t = tex_arg(f, &dt);
        uint32_t mip = num32(r), layer = num32(r), count = num32(r);
        c = to_tex ? rg_cmd_copy_buffer_to_texture(f->g, b, off, t, mip, layer, count)
                   : rg_cmd_copy_texture_to_buffer(f->g, t, mip, layer, count, b, off);
        what = to_tex ? "rg_cmd_copy_buffer_to_texture" : "rg_cmd_copy_texture_to_buffer";
        if (c.id) {
            jcall *j = jot(f, to_tex ? J_COPY_TO_TEXTURE : J_COPY_TO_BUFFER, NULL, c.id, 0);
            j->u.copy_image.buffer = b.id, j->u.copy_image.texture = t.id, j->u.copy_image.offset = off;
            j->u.copy_image.mip = mip, j->u.copy_image.layer = layer, j->u.copy_image.count = count;
        }
        d[0] = db;
        d[1] = dt;
        writes[0] = !to_tex;
        writes[1] = to_tex;
        /* A copy into a history texture's previous half is refused: that
         * half is read-only ("History"). */
        bool into_previous = to_tex && dt != UINT32_MAX && f->res[dt].previous;
        if (db != UINT32_MAX && dt != UINT32_MAX)
            check_image_copy(f, what, c.id != 0, could && !into_previous, db, dt, off, mip, layer, count);
        /* What the header refuses off the graphics queue (unit-tested in
         * test_rg_queues.c): depth/stencil copies; unaligned ones on transfer. */
        rg_queue q = (rg_queue)(f->cmd_count % RG_QUEUE_COUNT);
        bool depth = dt != UINT32_MAX && !(rg_format_get_info(f->res[dt].format).aspects & VK_IMAGE_ASPECT_COLOR_BIT);
        graphics_only = (q != RG_QUEUE_GRAPHICS && depth) || (q == RG_QUEUE_TRANSFER && off % 4 != 0);
    }
    if (c.id == 0) {
        rejected(f, what);
        return;
    }
    /* Copies may run on any queue: one in three stays graphics-only. */
    if (!graphics_only) {
        rg_command_allow_queue(f->g, c, (rg_queue)(f->cmd_count % RG_QUEUE_COUNT));
        CHECK(rg_graph_error(f->g) == RG_SUCCESS, "a copy refused for queue %u: %s", f->cmd_count % RG_QUEUE_COUNT,
              rg_graph_error_message(f->g));
        jcall *j = jot(f, J_ALLOW_QUEUE, NULL, 0, 0);
        j->u.allow.command = c.id, j->u.allow.queue = (rg_queue)(f->cmd_count % RG_QUEUE_COUNT);
    }
    cmd_push(f, c, d, writes, 2);
}

static void op_clear(fz *f)
{
    rd *r = f->r;
    uint32_t d;
    rg_texture t = tex_arg(f, &d);
    uint8_t flags = u8(r);
    rg_range rr;
    range(f, &rr);
    VkClearValue v;
    memset(&v, 0, sizeof v);
    v.color.uint32[0] = raw32(r);
    rg_command c = rg_cmd_clear_texture(f->g, t, (flags & 1) ? NULL : &rr, (flags & 2) ? NULL : &v);
    if (c.id == 0) {
        rejected(f, "rg_cmd_clear_texture");
        return;
    }
    jcall *j = jot(f, J_CLEAR, NULL, c.id, 0);
    j->u.clear.texture = t.id, j->u.clear.range = rr, j->u.clear.value = v;
    j->u.clear.has_range = !(flags & 1), j->u.clear.has_value = !(flags & 2);
    /* vkCmdClearColorImage cannot clear block-compressed formats. */
    if (d != UINT32_MAX)
        CHECK(rg_format_get_info(f->res[d].format).block_width == 1 &&
                  rg_format_get_info(f->res[d].format).block_height == 1,
              "rg_cmd_clear_texture accepted a texture of block-compressed format %d", (int)f->res[d].format);
    cmd_push(f, c, &d, (const bool[]){true}, 1);
}

static void op_blit(fz *f)
{
    rd *r = f->r;
    uint32_t d[2];
    rg_texture s = tex_arg(f, &d[0]);
    uint32_t sm = num32(r);
    rg_texture t = tex_arg(f, &d[1]);
    uint32_t tm = num32(r);
    VkFilter filter = (VkFilter)pick(r, filters, COUNT(filters));
    rg_command c = rg_cmd_blit(f->g, s, sm, t, tm, filter);
    if (c.id == 0) {
        rejected(f, "rg_cmd_blit");
        return;
    }
    jcall *j = jot(f, J_BLIT, NULL, c.id, 0);
    j->u.blit.src = s.id, j->u.blit.src_mip = sm, j->u.blit.dst = t.id, j->u.blit.dst_mip = tm;
    j->u.blit.filter = filter;
    if (d[0] != UINT32_MAX && d[1] != UINT32_MAX) {
        /* vkCmdBlitImage's format rules, whatever the device. */
        VkFormat fs = f->res[d[0]].format, ft = f->res[d[1]].format;
        rg_format_numeric a = rg_format_get_info(fs).numeric, b = rg_format_get_info(ft).numeric;
        bool depth = a == RG_FORMAT_DEPTH_STENCIL || b == RG_FORMAT_DEPTH_STENCIL;
        bool integer = a == RG_FORMAT_UINT || a == RG_FORMAT_SINT || b == RG_FORMAT_UINT || b == RG_FORMAT_SINT;
        CHECK(!depth || (fs == ft && filter == VK_FILTER_NEAREST),
              "rg_cmd_blit accepted depth/stencil formats %d -> %d with filter %d", (int)fs, (int)ft, (int)filter);
        CHECK(!integer || (a == b && filter == VK_FILTER_NEAREST),
              "rg_cmd_blit accepted integer formats %d (kind %d) -> %d (kind %d) with filter %d", (int)fs, (int)a,
              (int)ft, (int)b, (int)filter);
    }
    cmd_push(f, c, d, (const bool[]){false, true}, 2);
}

/* The declaration indices an attachment names (UINT32_MAX: none or not a
 * current texture). */
typedef struct att_decl {
    uint32_t tex, resolve;
} att_decl;

static void attachment(fz *f, rg_attachment *a, att_decl *ad)
{
    rd *r = f->r;
    uint8_t flags = u8(r);
    a->texture = tex_arg(f, &ad->tex);
    ad->resolve = UINT32_MAX;
    a->mip = num32(r);
    a->base_layer = num32(r);
    a->layer_count = num32(r);
    a->load = (VkAttachmentLoadOp)pick(r, load_ops, COUNT(load_ops));
    a->store = (VkAttachmentStoreOp)pick(r, store_ops, COUNT(store_ops));
    a->clear.color.float32[0] = 1.0f;
    if (flags & 1) {
        a->resolve = tex_arg(f, &ad->resolve);
        a->resolve_mip = num32(r);
        a->resolve_layer = num32(r);
        a->resolve_mode = (VkResolveModeFlagBits)pick(r, resolve_modes, COUNT(resolve_modes));
    }
}

/* What an accepted span promises of one attachment: its view and its
 * resolve target's view lie inside their textures, and the resolve mode is
 * one the source's format allows (float color: AVERAGE; integer color:
 * SAMPLE_ZERO; depth/stencil: SAMPLE_ZERO, MIN or MAX; 0 picks one). */
static void check_attachment(const fz *f, const rg_attachment *a, const att_decl *ad, bool depth)
{
    if (ad->tex == UINT32_MAX)
        return;
    const shadow *t = &f->res[ad->tex];
    uint32_t n = a->layer_count ? a->layer_count : 1;
    CHECK(a->mip < t->mips && a->base_layer < t->layers && n <= t->layers - a->base_layer,
          "rg_begin_rendering accepted an attachment at mip %u layers %u+%u of a texture of %u mips, %u layers",
          a->mip, a->base_layer, n, t->mips, t->layers);
    if (a->resolve.id == 0 || ad->resolve == UINT32_MAX)
        return;
    const shadow *q = &f->res[ad->resolve];
    CHECK(a->resolve_mip < q->mips && a->resolve_layer < q->layers && n <= q->layers - a->resolve_layer,
          "rg_begin_rendering accepted a resolve target at mip %u layers %u+%u of a texture of %u mips, %u layers",
          a->resolve_mip, a->resolve_layer, n, q->mips, q->layers);
    rg_format_numeric k = rg_format_get_info(t->format).numeric;
    VkResolveModeFlagBits m = a->resolve_mode;
    bool ok = m == 0;
    if (depth || k == RG_FORMAT_DEPTH_STENCIL)
        ok = ok || m == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || m == VK_RESOLVE_MODE_MIN_BIT || m == VK_RESOLVE_MODE_MAX_BIT;
    else if (k == RG_FORMAT_UINT || k == RG_FORMAT_SINT)
        ok = ok || m == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    else
        ok = ok || m == VK_RESOLVE_MODE_AVERAGE_BIT;
    CHECK(ok, "rg_begin_rendering accepted resolve mode 0x%x for a %s attachment of format %d", (unsigned)m,
          depth ? "depth" : "color", (int)t->format);
}

static void op_begin(fz *f)
{
    rd *r = f->r;
    rg_rendering_desc d;
    memset(&d, 0, sizeof d);
    d.name = name(f);
    uint8_t cc = u8(r);
    d.color_count = cc < 0xF0 ? cc % 10 : UINT32_MAX - (cc & 7u);
    att_decl ad[9];
    for (uint32_t i = 0; i < d.color_count && i < 8; i++)
        attachment(f, &d.colors[i], &ad[i]);
    uint8_t flags = u8(r);
    ad[8] = (att_decl){UINT32_MAX, UINT32_MAX};
    if (flags & 1)
        attachment(f, &d.depth, &ad[8]);
    d.depth_read_only = flags & 2;
    if (flags & 4) {
        d.area.offset.x = (int32_t)num32(r);
        d.area.offset.y = (int32_t)num32(r);
        d.area.extent.width = num32(r);
        d.area.extent.height = num32(r);
    }
    rg_command c = rg_begin_rendering(f->g, &d);
    if (c.id == 0) {
        rejected(f, "rg_begin_rendering");
        return;
    }
    jot(f, J_BEGIN, d.name, c.id, 0)->u.begin = d;
    /* The uses: color attachments and resolve targets are written; depth is
     * written unless read-only, and read-only depth still is by a load other
     * than LOAD or a store other than NONE. */
    uint32_t touch[18], n = 0;
    bool writes[18], resolve[18];
    uint32_t ext_w = 0, ext_h = 0; /* the first attachment's extent at its mip */
    for (uint32_t i = 0; i < 9; i++) {
        if (i < 8 && i >= d.color_count)
            continue;
        const rg_attachment *a = i < 8 ? &d.colors[i] : &d.depth;
        if (a->texture.id == 0)
            continue;
        check_attachment(f, a, &ad[i], i == 8);
        /* Without an area every attachment has one extent. */
        if (ad[i].tex != UINT32_MAX && (d.area.extent.width == 0 || d.area.extent.height == 0)) {
            const shadow *t = &f->res[ad[i].tex];
            uint32_t w = t->w >> a->mip ? t->w >> a->mip : 1, h = t->h >> a->mip ? t->h >> a->mip : 1;
            if (ext_w == 0) {
                ext_w = w;
                ext_h = h;
            }
            CHECK(w == ext_w && h == ext_h, "rg_begin_rendering accepted attachments of %ux%u and %ux%u without an "
                  "area", ext_w, ext_h, w, h);
        }
        touch[n] = ad[i].tex;
        resolve[n] = false;
        writes[n++] = i < 8 || !d.depth_read_only || a->load != VK_ATTACHMENT_LOAD_OP_LOAD ||
                      a->store != VK_ATTACHMENT_STORE_OP_NONE;
        if (a->resolve.id) {
            touch[n] = ad[i].resolve;
            resolve[n] = true;
            writes[n++] = true;
        }
    }
    f->span_seq++;
    f->span_open = true;
    uint32_t before = f->cmd_count;
    cmd_push(f, c, touch, writes, n);
    f->open_begin = f->cmd_count > before ? before : UINT32_MAX;
    if (f->cmd_count > before) {
        cmd_info *ci = &f->cmds[before];
        ci->begin = true;
        /* Which of the uses cmd_push kept (known textures) are resolve targets. */
        for (uint32_t i = 0, k = 0; i < n && k < ci->touch_count; i++)
            if (touch[i] != UINT32_MAX)
                ci->resolves |= (uint32_t)resolve[i] << k++;
    }
}

static void op_end(fz *f)
{
    rg_command c = rg_end_rendering(f->g);
    if (c.id == 0) {
        rejected(f, "rg_end_rendering");
        return;
    }
    jot(f, J_END, NULL, c.id, 0);
    /* The end keeps the begin's attachments alive: the same uses, in the
     * same span (so never ordered against the begin). */
    uint32_t none = UINT32_MAX;
    uint32_t before = f->cmd_count;
    if (f->open_begin < f->cmd_count)
        cmd_push(f, c, f->cmds[f->open_begin].touch, f->cmds[f->open_begin].write,
                 f->cmds[f->open_begin].touch_count);
    else
        cmd_push(f, c, &none, NULL, 1);
    if (f->cmd_count > before && f->open_begin < f->cmd_count)
        f->cmds[before].resolves = f->cmds[f->open_begin].resolves;
    f->open_begin = UINT32_MAX;
    f->span_open = false;
}

/* Calls with NULL graphs or descriptors, and re-pointing imports. */
static void op_misuse(fz *f)
{
    rd *r = f->r;
    uint8_t which = u8(r);
    uint32_t d;
    switch (which % 10) {
    case 0: CHECK(rg_texture_create(NULL, &(rg_texture_desc){0}).id == 0, "NULL graph"); break;
    case 1:
        if (rg_texture_create(f->g, NULL).id == 0)
            rejected(f, "rg_texture_create(NULL desc)");
        break;
    case 2:
        if (rg_texture_import(f->g, NULL).id == 0)
            rejected(f, "rg_texture_import(NULL desc)");
        break;
    case 3:
        if (rg_buffer_create(f->g, NULL).id == 0)
            rejected(f, "rg_buffer_create(NULL desc)");
        break;
    case 4:
        if (rg_cmd_user(f->g, NULL).id == 0)
            rejected(f, "rg_cmd_user(NULL desc)");
        break;
    case 5:
        if (rg_begin_rendering(f->g, NULL).id == 0)
            rejected(f, "rg_begin_rendering(NULL desc)");
        break;
    case 6: {
        rg_texture t = tex_arg(f, &d);
        /* The import's own shape, and every usage: only the handle decides. */
        const shadow *s = d == UINT32_MAX ? NULL : &f->res[d];
        rg_import_image image = {.image = (VkImage)(uintptr_t)0x1000, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                 .width = 1, .height = 1, .usage = ~(VkImageUsageFlags)0};
        if (s && s->is_texture) {
            image.format = s->format;
            image.width = s->w;
            image.height = s->h;
            image.mip_levels = s->mips;
            image.array_layers = s->layers;
            image.samples = (VkSampleCountFlagBits)s->samples;
        }
        rg_result res = rg_texture_set_image(f->g, t, &image);
        CHECK(res == RG_SUCCESS || res == RG_ERROR_INVALID_HANDLE || res == RG_ERROR_INVALID_ARGUMENT, "%d", res);
        CHECK(d == UINT32_MAX || (res == RG_SUCCESS) == f->res[d].imported, "set_image on declared texture: %d",
              res);
        break;
    }
    case 7: {
        rg_buffer b = buf_arg(f, &d);
        VkDeviceSize size = d != UINT32_MAX && !f->res[d].is_texture && f->res[d].size ? f->res[d].size : 1;
        rg_result res = rg_buffer_set_buffer(f->g, b, &(rg_import_buffer){.size = size,
                                                                           .usage = ~(VkBufferUsageFlags)0});
        CHECK(d == UINT32_MAX || (res == RG_SUCCESS) == f->res[d].imported, "set_buffer: %d", res);
        break;
    }
    case 8:
        CHECK(rg_compile(NULL) == RG_ERROR_INVALID_ARGUMENT, "compile(NULL)");
        CHECK(rg_graph_error(NULL) == RG_ERROR_INVALID_ARGUMENT, "error(NULL)");
        CHECK(rg_graph_error_message(NULL) != NULL, "message(NULL)");
        CHECK(rg_end_rendering(NULL).id == 0, "end(NULL)");
        break;
    default: {
        rg_usage u = (rg_usage)num32(r);
        const rg_usage_info *info = rg_usage_get_info(u);
        CHECK(((unsigned)u < RG_USAGE_COUNT) == (info != NULL), "usage info %u", (unsigned)u);
        if (info)
            CHECK(info->name != NULL, "usage %u has no name", (unsigned)u);
        break;
    }
    }
}

/* ----------------------------------------------------------- compile */

static uint32_t position(const rg_command *order, uint32_t n, rg_command c)
{
    for (uint32_t i = 0; i < n; i++)
        if (order[i].id == c.id)
            return i;
    return UINT32_MAX;
}

/* The header's ordering promises: a span runs as one block, its commands
 * in record order with nothing else between them; a command with no
 * accesses runs between the commands recorded right before and after it. */
static void check_order(const fz *f, const rg_command *order, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < f->cmd_count; i++) {
        const cmd_info *a = &f->cmds[i], *b = &f->cmds[i + 1];
        uint32_t pa = position(order, n, a->h), pb = position(order, n, b->h);
        bool ca = pa == UINT32_MAX, cb = pb == UINT32_MAX; /* culled */
        CHECK(!(a->bare && ca) && !(b->bare && cb), "a command without accesses was culled");
        if (a->span && a->span == b->span) {
            CHECK(ca == cb, "commands %u and %u of one span: one culled, one kept", a->h.id, b->h.id);
            CHECK(ca || pb == pa + 1, "commands %u and %u of one span run at %u and %u", a->h.id, b->h.id, pa, pb);
        }
        if ((a->bare || b->bare) && !ca && !cb)
            CHECK(pa < pb, "command %u (recorded before %u, one of them without accesses) runs after it", a->h.id,
                  b->h.id);
    }
}

/* Hazards: two commands of different nodes (a span is one node) that
 * touch one buffer, or one texture of a single mip and layer (every accepted
 * range of it overlaps every other: one aspect of depth+stencil is both),
 * one of them writing it, run in record order. Over the first 64 commands,
 * to keep compiles quick. */
static void check_hazards(const fz *f)
{
    uint32_t m = f->cmd_count < 64 ? f->cmd_count : 64;
    for (uint32_t r = 0; r < f->res_count; r++) {
        const shadow *s = &f->res[r];
        if (s->is_texture && (s->mips != 1 || s->layers != 1))
            continue;
        uint32_t at[64];
        bool wr[64];
        uint32_t k = 0;
        for (uint32_t i = 0; i < m; i++) {
            bool uses = false, writes = false;
            for (uint32_t x = 0; x < f->cmds[i].touch_count; x++)
                if (f->cmds[i].touch[x] == r) {
                    uses = true;
                    writes = writes || f->cmds[i].write[x];
                }
            if (uses) {
                at[k] = i;
                wr[k++] = writes;
            }
        }
        for (uint32_t a = 0; a < k; a++)
            for (uint32_t b = a + 1; b < k; b++) {
                const cmd_info *x = &f->cmds[at[a]], *y = &f->cmds[at[b]];
                if (!(wr[a] || wr[b]) || (x->span && x->span == y->span))
                    continue;
                CHECK(rg_happens_before(f->g, x->h, y->h),
                      "%s %u (format %d) is %s by command %u and %s by command %u, which are not ordered",
                      s->is_texture ? "texture" : "buffer", r, (int)s->format, wr[a] ? "written" : "read", x->h.id,
                      wr[b] ? "written" : "read", y->h.id);
            }
    }
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const rg_command *)a)->id, y = ((const rg_command *)b)->id;
    return (x > y) - (x < y);
}

/* The order's entries are distinct handles, none of them 0. */
static void check_distinct(const rg_command *order, uint32_t n)
{
    rg_command *s = malloc(((size_t)n + 1) * sizeof *s);
    if (!s)
        return;
    memcpy(s, order, (size_t)n * sizeof *s);
    qsort(s, n, sizeof *s, by_id);
    for (uint32_t i = 0; i < n; i++)
        CHECK(s[i].id != 0 && (i == 0 || s[i].id != s[i - 1].id), "order entry 0x%x twice or 0", s[i].id);
    free(s);
}

/* Every barrier (after compile, and after placement with what aliasing
 * adds) names a current resource of the right kind and a range inside it
 * with aspects of its format only (both on depth+stencil), and is recorded
 * outside spans. */
static void check_barriers(const fz *f, const rg_command *order, uint32_t n)
{
    uint32_t bc = rg_barrier_count(f->g);
    for (uint32_t i = 0; i < bc; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        CHECK(b != NULL, "barrier %u", i);
        CHECK(b->before.id == 0 || position(order, n, b->before) != UINT32_MAX, "barrier %u before %u", i,
              b->before.id);
        /* Nothing is recorded inside a span: its barriers go before its begin. */
        for (uint32_t c = 0; b->before.id && c < f->cmd_count; c++)
            if (f->cmds[c].h.id == b->before.id)
                CHECK(!f->cmds[c].span || f->cmds[c].begin, "barrier %u recorded inside a span, before %u", i,
                      b->before.id);
        CHECK(!(b->texture.id && b->buffer.id), "barrier %u on a texture and a buffer", i);
        uint32_t id = b->texture.id ? b->texture.id : b->buffer.id, k = 0;
        if (id == 0)
            continue;
        while (k < f->res_count && f->res[k].id != id)
            k++;
        /* Barriers name current handles of the right kind, ranges inside. */
        if (f->res_count == MAX_RES && k == f->res_count)
            continue;
        CHECK(k < f->res_count && f->res[k].is_texture == (b->texture.id != 0), "barrier %u on handle 0x%x",
              i, id);
        if (b->texture.id) {
            const shadow *t = &f->res[k];
            CHECK(b->range.mip_count >= 1 && b->range.base_mip < t->mips &&
                      b->range.mip_count <= t->mips - b->range.base_mip && b->range.layer_count >= 1 &&
                      b->range.base_layer < t->layers && b->range.layer_count <= t->layers - b->range.base_layer &&
                      b->range.aspect != 0,
                  "barrier %u range (0x%x, %u+%u, %u+%u) outside its texture (%u mips, %u layers)", i,
                  b->range.aspect, b->range.base_mip, b->range.mip_count, b->range.base_layer,
                  b->range.layer_count, t->mips, t->layers);
            /* Aspects of the format only; depth and stencil share one
             * layout, so a barrier on either names both. */
            VkImageAspectFlags fa = rg_format_get_info(t->format).aspects;
            CHECK(!(b->range.aspect & ~fa), "barrier %u names aspects 0x%x of a texture of format %d (0x%x)", i,
                  b->range.aspect, (int)t->format, fa);
            CHECK(fa != (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT) || b->range.aspect == fa,
                  "barrier %u on depth+stencil texture %u (format %d) names aspects 0x%x, not both", i, k,
                  (int)t->format, b->range.aspect);
            /* A history texture's current half starts each frame in an
             * image the frame before's previous half held and the frame
             * before that's current half used: its first transition (from
             * UNDEFINED) must wait for something, whether or not previous
             * read it in between. */
            CHECK(!t->pair || t->previous || b->old_layout != VK_IMAGE_LAYOUT_UNDEFINED || b->src_stage != 0,
                  "barrier %u: the first transition of history texture %u's current half waits for nothing", i,
                  k);
        }
    }
    CHECK(rg_barrier_get(f->g, bc) == NULL, "barrier past the end");
}

/* The stages a compute-only and a transfer-only queue have (Vulkan's
 * table of supported pipeline stages). */
static VkPipelineStageFlags2 queue_stages(rg_queue q)
{
    VkPipelineStageFlags2 common = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |
                                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT |
                                   VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    if (q == RG_QUEUE_COMPUTE)
        return common | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
               VK_PIPELINE_STAGE_2_CLEAR_BIT;
    return q == RG_QUEUE_TRANSFER ? common : ~(VkPipelineStageFlags2)0;
}

static rg_command_info info_of(const fz *f, rg_command c)
{
    rg_command_info ci;
    CHECK(rg_command_get_info(f->g, c, &ci) == RG_SUCCESS, "command %u has no info", c.id);
    return ci;
}

/* Per batch, the batches that end before it starts (bit rows of words
 * each): its queue's earlier batches and, through each semaphore wait, the
 * batch waited for and everything before that. Waits name earlier
 * batches, so one pass in order fills them. */
static uint64_t *batch_preds(const fz *f, uint32_t bc, uint32_t words)
{
    uint64_t *pre = calloc((size_t)bc * words, sizeof *pre);
    if (!pre)
        return NULL;
    uint32_t last_of[RG_QUEUE_COUNT] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (uint32_t b = 0; b < bc; b++) {
        rg_batch_info x;
        rg_batch_get(f->g, b, &x);
        uint64_t *row = &pre[(size_t)b * words];
        uint32_t from[RG_QUEUE_COUNT + 1], k = 0;
        if (last_of[x.queue] != UINT32_MAX)
            from[k++] = last_of[x.queue];
        for (uint32_t w = 0; w < x.wait_count; w++)
            if (x.waits[w].batch != RG_INDEX_NONE && x.waits[w].batch < b)
                from[k++] = x.waits[w].batch;
        for (uint32_t i = 0; i < k; i++) {
            row[from[i] / 64] |= 1ull << (from[i] % 64);
            for (uint32_t wd = 0; wd < words; wd++)
                row[wd] |= pre[(size_t)from[i] * words + wd];
        }
        last_of[x.queue] = b;
    }
    return pre;
}

/* Batches and queues after compile (see the list at the top). */
static void check_queues(const fz *f, const rg_command *order, uint32_t n)
{
    uint32_t bc = rg_batch_count(f->g);
    CHECK(bc >= 1, "a compiled graph without batches");
    bool multi = false;
    for (uint32_t b = 0; b < bc; b++) {
        rg_batch_info x;
        CHECK(rg_batch_get(f->g, b, &x) == RG_SUCCESS, "batch %u", b);
        CHECK((unsigned)x.queue < RG_QUEUE_COUNT && x.wait_count <= RG_QUEUE_COUNT, "batch %u queue %d", b,
              (int)x.queue);
        multi = multi || x.queue != RG_QUEUE_GRAPHICS;
        CHECK(x.queue == RG_QUEUE_GRAPHICS || !f->single_queue, "single-queue graph with a %s batch",
              rg_queue_name(x.queue));
        CHECK(x.queue != RG_QUEUE_COMPUTE || f->caps.compute_queue, "a compute batch without a compute queue");
        CHECK(x.queue != RG_QUEUE_TRANSFER || f->caps.transfer_queue, "a transfer batch without a transfer queue");
        for (uint32_t w = 0; w < x.wait_count; w++)
            CHECK(x.waits[w].queue != x.queue && (x.waits[w].batch == RG_INDEX_NONE || x.waits[w].batch < b) &&
                      x.waits[w].stage != 0 && !(x.waits[w].stage & ~queue_stages(x.queue)),
                  "batch %u waits %s batch %u at 0x%llx", b, rg_queue_name(x.waits[w].queue), x.waits[w].batch,
                  (unsigned long long)x.waits[w].stage);
    }
    rg_batch_info last;
    rg_batch_get(f->g, bc - 1, &last);
    CHECK(last.queue == RG_QUEUE_GRAPHICS, "the last batch is on the %s queue", rg_queue_name(last.queue));
    if (multi)
        CHECK(last.first == RG_INDEX_NONE && last.wait_count >= 1, "a multi-queue frame ends with commands");
    for (uint32_t p = 0; p < n; p++) {
        rg_command_info ci = info_of(f, order[p]);
        rg_batch_info x;
        CHECK(rg_batch_get(f->g, ci.batch, &x) == RG_SUCCESS && x.queue == ci.queue && x.first <= p && p <= x.last,
              "command %u at %u in batch %u", order[p].id, p, ci.batch);
    }
    uint32_t words = (bc + 63) / 64;
    uint64_t *pre = batch_preds(f, bc, words);
    uint32_t m = n < 64 ? n : 64;
    for (uint32_t i = 0; i < m && pre; i++)
        for (uint32_t j = 0; j < m; j++) {
            if (!rg_happens_before(f->g, order[i], order[j]))
                continue;
            rg_command_info a = info_of(f, order[i]), b = info_of(f, order[j]);
            CHECK(a.queue == b.queue || (pre[(size_t)b.batch * words + a.batch / 64] >> (a.batch % 64) & 1),
                  "%u (%s batch %u) happens before %u (%s batch %u) without a semaphore chain", order[i].id,
                  rg_queue_name(a.queue), a.batch, order[j].id, rg_queue_name(b.queue), b.batch);
        }
    free(pre);
    uint32_t bars = rg_barrier_count(f->g);
    for (uint32_t i = 0; i < bars; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        if (!b->before.id)
            continue;
        rg_queue q = info_of(f, b->before).queue;
        CHECK(!((b->src_stage | b->dst_stage) & ~queue_stages(q)), "barrier %u on the %s queue: stages 0x%llx -> "
              "0x%llx", i, rg_queue_name(q), (unsigned long long)b->src_stage, (unsigned long long)b->dst_stage);
    }
}

#define FRAMEBUFFER_STAGES                                                                                          \
    (VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |                        \
     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT)

/* Merging: merged pairs follow an end of rendering, only where the device
 * and the mode allow; barriers between merged spans are framebuffer-local;
 * the reported rendering states are well formed. */
static void check_merges(const fz *f, const rg_command *order, uint32_t n)
{
    bool can = f->caps.local_read && f->merge != RG_MERGE_OFF &&
               (f->merge == RG_MERGE_ON || rg_merge_by_default(f->caps.driver));
    uint32_t mc = rg_merge_count(f->g);
    for (uint32_t i = 0; i < mc; i++) {
        rg_merge_info m;
        CHECK(rg_merge_get(f->g, i, &m) == RG_SUCCESS, "merge note %u", i);
        CHECK(m.reason != NULL && m.merged == (m.reason[0] == '\0'), "merge note %u: reason", i);
        if (!m.merged)
            continue;
        CHECK(can, "spans merged without local read or with merging off (mode %d)", (int)f->merge);
        uint32_t p = position(order, n, m.second);
        rg_command_info before;
        CHECK(p != UINT32_MAX && p > 0 && rg_command_get_info(f->g, order[p - 1], &before) == RG_SUCCESS &&
                  before.type == RG_COMMAND_TYPE_END_RENDERING,
              "merged span %u does not follow an end of rendering", m.second.id);
    }
    CHECK(rg_merge_get(f->g, mc, &(rg_merge_info){0}) != RG_SUCCESS, "merge note past the end");
    for (uint32_t i = 0; i < rg_barrier_count(f->g); i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        if (!b->by_region)
            continue;
        CHECK(can, "a by-region barrier without merging");
        CHECK(!((b->src_stage | b->dst_stage) & ~(VkPipelineStageFlags2)FRAMEBUFFER_STAGES),
              "by-region barrier %u with stages 0x%llx -> 0x%llx", i, (unsigned long long)b->src_stage,
              (unsigned long long)b->dst_stage);
        /* Recorded as one memory barrier: no layout may change there (an
         * attachment continued across merged spans keeps its own layout). */
        CHECK(b->old_layout == b->new_layout, "by-region barrier %u changes layout %d -> %d", i, (int)b->old_layout,
              (int)b->new_layout);
    }
    for (uint32_t i = 0; i < n; i++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[i], &st) != RG_SUCCESS)
            continue;
        CHECK(st.color_count <= RG_MAX_COLOR_ATTACHMENTS, "%u colors", st.color_count);
        CHECK(!st.merged || can, "a merged state without merging");
        for (uint32_t a = 0; a < st.color_count; a++)
            for (uint32_t b = a + 1; b < st.color_count; b++) {
                CHECK(st.color_locations[a] == VK_ATTACHMENT_UNUSED ||
                          st.color_locations[a] != st.color_locations[b],
                      "location %u twice", st.color_locations[a]);
                CHECK(st.color_input_indices[a] == VK_ATTACHMENT_UNUSED ||
                          st.color_input_indices[a] != st.color_input_indices[b],
                      "input index %u twice", st.color_input_indices[a]);
            }
    }
}

static void queries(fz *f, bool compiled)
{
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order);
    if (compiled) {
        /* The order holds every command once (the harness saw them all
         * unless it ran out of room). */
        CHECK(order != NULL || n == 0, "order NULL");
        uint32_t culled = 0;
        for (uint32_t i = 0; i < f->cmd_count; i++) {
            rg_command_info info;
            CHECK(rg_command_get_info(f->g, f->cmds[i].h, &info) == RG_SUCCESS, "info of command %u",
                  f->cmds[i].h.id);
            culled += info.culled;
            CHECK(!info.culled || !f->no_culling, "command %u culled with culling off", f->cmds[i].h.id);
            CHECK((position(order, n, f->cmds[i].h) != UINT32_MAX) == !info.culled,
                  "command %u: culled %d, in the order %d", f->cmds[i].h.id, info.culled,
                  position(order, n, f->cmds[i].h) != UINT32_MAX);
            /* A write to an import is observable. */
            for (uint32_t x = 0; x < f->cmds[i].touch_count && info.culled; x++)
                CHECK(!f->cmds[i].write[x] || !f->res[f->cmds[i].touch[x]].imported,
                      "command %u writes import %u and was culled", f->cmds[i].h.id, f->cmds[i].touch[x]);
        }
        if (f->cmd_count < MAX_CMDS)
            CHECK(n == f->cmd_count - culled, "order of %u commands, %u declared, %u culled", n, f->cmd_count,
                  culled);
        check_distinct(order, n);
        check_order(f, order, n);
        uint32_t m = f->cmd_count < 48 ? f->cmd_count : 48;
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 0; j < m; j++) {
                rg_command a = f->cmds[i].h, b = f->cmds[j].h;
                if (!rg_happens_before(f->g, a, b))
                    continue;
                CHECK(!rg_happens_before(f->g, b, a), "%u and %u happen before each other", a.id, b.id);
                uint32_t pa = position(order, n, a), pb = position(order, n, b);
                CHECK(pa == UINT32_MAX || pb == UINT32_MAX || pa < pb, "%u happens before %u but runs after",
                      a.id, b.id);
            }
        check_barriers(f, order, n);
        check_merges(f, order, n);
        check_queues(f, order, n);
        check_hazards(f);
    } else {
        CHECK(n == 0 && order == NULL, "an uncompiled graph has an order");
        CHECK(rg_barrier_count(f->g) == 0, "an uncompiled graph has barriers");
    }
    /* Odd command handles. */
    rg_command odd[] = {{0}, {UINT32_MAX}, {f->cmd_count + 1}, {1}};
    for (uint32_t i = 0; i < COUNT(odd); i++)
        for (uint32_t j = 0; j < COUNT(odd); j++)
            (void)rg_happens_before(f->g, odd[i], odd[j]);
    (void)rg_barrier_get(f->g, UINT32_MAX);
    rg_result dot = rg_write_dot(f->g, "/dev/null");
    if (compiled)
        CHECK(dot == RG_SUCCESS, "rg_write_dot to /dev/null: %s", rg_result_string(dot));
    else
        CHECK(dot != RG_SUCCESS, "rg_write_dot of an uncompiled graph");
    if (dot != RG_SUCCESS)
        expect_message(f, "rg_write_dot");
    for (uint32_t i = 0; i < f->res_count; i++)
        if (f->res[i].is_texture) {
            bool t = rg_texture_is_transient(f->g, (rg_texture){f->res[i].id});
            CHECK(!t || (compiled && !f->res[i].imported), "transient import or uncompiled");
        }
    for (uint32_t i = 0; i < f->stale_count; i++)
        CHECK(!rg_texture_is_transient(f->g, (rg_texture){f->stale[i]}), "stale handle transient");
    for (uint32_t i = 0; i < f->foreign_count; i++)
        CHECK(!rg_texture_is_transient(f->g, (rg_texture){f->foreign[i]}), "foreign handle transient");
}

/* Standalone runs: say what compile and placement made of each input
 * (FUZZ_VERBOSE); print it whole (FUZZ_DUMP: the order, every barrier,
 * the DOT and after placement the memory report's JSON, to stdout), so two
 * builds of the library can be compared on a corpus. */
static int verbose, dump;

static void dump_state(fz *f, const char *what)
{
    if (!dump)
        return;
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order);
    printf("== %s: %u commands, %u batches\norder:", what, n, rg_batch_count(f->g));
    for (uint32_t i = 0; i < n; i++)
        printf(" %u", order[i].id);
    printf("\n");
    for (uint32_t i = 0, bc = rg_barrier_count(f->g); i < bc; i++) {
        const rg_barrier_info *b = rg_barrier_get(f->g, i);
        printf("barrier %u: before %u hoisted %d region %d t %u b %u range %x %u+%u %u+%u "
               "stage %llx->%llx access %llx->%llx layout %d->%d\n",
               i, b->before.id, b->hoisted, b->by_region, b->texture.id, b->buffer.id, b->range.aspect,
               b->range.base_mip, b->range.mip_count, b->range.base_layer, b->range.layer_count,
               (unsigned long long)b->src_stage, (unsigned long long)b->dst_stage,
               (unsigned long long)b->src_access, (unsigned long long)b->dst_access, (int)b->old_layout,
               (int)b->new_layout);
    }
    fflush(stdout);
    (void)rg_write_dot(f->g, "/dev/stdout");
    (void)rg_memory_report_json(f->g, "/dev/stdout");
    fflush(stdout);
}

static void record(fz *f);

static void op_compile(fz *f)
{
    rg_result res = rg_compile(f->g);
    if (verbose)
        fprintf(stderr, "  compile: %s %s (%u commands, %u barriers, %u batches)\n", rg_result_string(res),
                rg_graph_error_message(f->g), f->cmd_count, rg_barrier_count(f->g), rg_batch_count(f->g));
    if (res != RG_SUCCESS) {
        CHECK(res == rg_graph_error(f->g), "compile returned %s but keeps %s", rg_result_string(res),
              rg_result_string(rg_graph_error(f->g)));
        expect_message(f, "rg_compile");
        f->compiled = f->placed = false;
    } else {
        f->compiled = true;
        dump_state(f, "compile");
    }
    queries(f, res == RG_SUCCESS);
    if (res == RG_SUCCESS)
        record(f);
}

/* ------------------------------------------------------------- placement */

static VkDeviceSize round64k(VkDeviceSize v)
{
    return v > UINT64_MAX - 65535 ? UINT64_MAX & ~(VkDeviceSize)65535 : (v + 65535) & ~(VkDeviceSize)65535;
}

static bool requirements(void *user, const char *nm, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    fz *f = user;
    CHECK(nm != NULL, "requirements without a name");
    CHECK(index < f->res_count || f->res_count == MAX_RES, "requirements for index %u of %u", index, f->res_count);
    if (index >= MAX_RES)
        return false;
    const shadow *s = &f->res[index];
    CHECK(s->is_texture == is_texture, "requirements for index %u: is_texture %d", index, is_texture);
    CHECK(!s->imported, "requirements asked for an import");
    rd *r = f->r;
    const VkPhysicalDeviceMemoryProperties *p = f->props;
    bool transient = is_texture && rg_texture_is_transient(f->g, (rg_texture){s->id});
    uint32_t bits = is_texture ? table_image_bits(p, transient) : table_buffer_bits(p);
    if (f->req_mode == 0) {
        /* As a device would say. */
        uint64_t bytes = is_texture ? sat_mul(sat_mul(sat_mul((uint64_t)s->w, s->h), 4u * s->samples),
                                              (uint64_t)s->layers * (s->mips > 1 ? 2 : 1))
                                    : s->size;
        *size = round64k(bytes ? bytes : 1);
        *alignment = 65536;
        *type_bits = bits;
        *dedicated = false;
    } else {
        uint8_t b = u8(r);
        if (b == 0xFF) {
            f->callback_failed = true;
            return false;
        }
        *size = (b & 1) ? num64(r) : round64k(is_texture ? (uint64_t)s->w * 4u : s->size);
        uint8_t a = u8(r);
        *alignment = a < 64 ? 1ull << a : a < 0xF0 ? (uint64_t)a : num64(r); /* sometimes not a power of two */
        *type_bits = (b & 2) ? raw32(r) : (b & 4) ? table_all_bits(p) : bits;
        *dedicated = b & 8;
    }
    f->reqs[index] = (req){true, *size, *alignment};
    return true;
}

/* A decoded memory-type table: any flags, up to 32 types. */
static void decode_props(rd *r, VkPhysicalDeviceMemoryProperties *p)
{
    memset(p, 0, sizeof *p);
    p->memoryTypeCount = u8(r) % (VK_MAX_MEMORY_TYPES + 1);
    p->memoryHeapCount = 1 + u8(r) % VK_MAX_MEMORY_HEAPS;
    for (uint32_t i = 0; i < p->memoryTypeCount; i++) {
        p->memoryTypes[i].propertyFlags = u8(r) & 0x3F;
        p->memoryTypes[i].heapIndex = u8(r) % p->memoryHeapCount;
    }
    for (uint32_t i = 0; i < p->memoryHeapCount; i++) {
        p->memoryHeaps[i].size = num64(r);
        p->memoryHeaps[i].flags = u8(r) & 1;
    }
}

/* Lifetimes and uses as the harness derives them from its own record of
 * the commands, the execution order and the rendering instances
 * (rg_command_get_rendering: spans of one instance share its number), to
 * judge a placement without the library's own rg_resource_info.first_use
 * and last_use. A merged instance binds, loads and stores every attachment
 * of its spans from its first begin to its last end (a DONT_CARE store at
 * its end is a write; the header's "Merging"), so such an attachment lives
 * from the instance's first position to its last, and is used by every
 * span of the instance (the aliasing rule's same-node uses: unordered with
 * anything inside the instance). So does a resolve target of one of its
 * spans: vkCmdBeginRendering binds it at the instance's begin. */
typedef struct lifetimes {
    bool known;                       /* false: the harness lost commands or uses */
    uint32_t first[MAX_RES], last[MAX_RES]; /* execution-order positions; UINT32_MAX: unused */
    uint32_t pos[MAX_CMDS];           /* per harness command; UINT32_MAX: culled */
    uint32_t inst[MAX_CMDS];          /* its rendering instance, UINT32_MAX: none */
    bool use[MAX_CMDS][MAX_RES];      /* kept command c uses resource r (below) */
    uint32_t *inst_first, *inst_last, *inst_spans; /* per instance */
} lifetimes;

static void life_use(lifetimes *l, uint32_t r, uint32_t first, uint32_t last)
{
    if (l->first[r] == UINT32_MAX || first < l->first[r])
        l->first[r] = first;
    if (l->last[r] == UINT32_MAX || last > l->last[r])
        l->last[r] = last;
}

static void lifetimes_make(const fz *f, lifetimes *l)
{
    memset(l, 0, sizeof *l);
    memset(l->first, 0xff, sizeof l->first);
    memset(l->last, 0xff, sizeof l->last);
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order), ni = rg_instance_count(f->g);
    l->known = !f->touches_lost && f->res_count < MAX_RES;
    l->inst_first = malloc(((size_t)ni + 1) * sizeof *l->inst_first);
    l->inst_last = malloc(((size_t)ni + 1) * sizeof *l->inst_last);
    l->inst_spans = calloc((size_t)ni + 1, sizeof *l->inst_spans);
    if (!l->inst_first || !l->inst_last || !l->inst_spans) {
        l->known = false;
        return;
    }
    memset(l->inst_first, 0xff, ((size_t)ni + 1) * sizeof *l->inst_first);
    memset(l->inst_last, 0xff, ((size_t)ni + 1) * sizeof *l->inst_last);
    /* The instances' positions and spans, from the order. */
    for (uint32_t p = 0; p < n; p++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[p], &st) != RG_SUCCESS)
            continue;
        CHECK(st.instance < ni, "command %u in instance %u of %u", order[p].id, st.instance, ni);
        if (l->inst_first[st.instance] == UINT32_MAX)
            l->inst_first[st.instance] = p;
        CHECK(p == l->inst_last[st.instance] + 1 || l->inst_last[st.instance] == UINT32_MAX,
              "instance %u runs at %u and again at %u", st.instance, l->inst_last[st.instance], p);
        l->inst_last[st.instance] = p;
        l->inst_spans[st.instance] += info_of(f, order[p]).type == RG_COMMAND_TYPE_BEGIN_RENDERING;
    }
    for (uint32_t p = 0; p < n; p++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[p], &st) == RG_SUCCESS)
            CHECK(st.merged == (l->inst_spans[st.instance] > 1), "command %u: merged %d, its instance has %u spans",
                  order[p].id, st.merged, l->inst_spans[st.instance]);
    }
    /* The commands' own uses. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        l->pos[c] = position(order, n, ci->h);
        l->inst[c] = UINT32_MAX;
        rg_command_rendering st;
        if (l->pos[c] != UINT32_MAX && rg_command_get_rendering(f->g, ci->h, &st) == RG_SUCCESS)
            l->inst[c] = st.instance;
        for (uint32_t x = 0; x < ci->touch_count && l->pos[c] != UINT32_MAX; x++)
            if (ci->touch[x] < MAX_RES)
                life_use(l, ci->touch[x], l->pos[c], l->pos[c]);
    }
    /* A merged instance's attachments and resolve targets: from its first
     * begin to its last end. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        if (!ci->begin || l->inst[c] == UINT32_MAX || l->inst_spans[l->inst[c]] < 2)
            continue;
        for (uint32_t x = 0; x < ci->touch_count; x++)
            if (ci->touch[x] < MAX_RES)
                life_use(l, ci->touch[x], l->inst_first[l->inst[c]], l->inst_last[l->inst[c]]);
    }
    /* Who uses what: a kept command its touches, and every kept command of
     * a merged instance the instance's attachments. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        if (l->pos[c] == UINT32_MAX)
            continue; /* culled commands are not recorded: their uses hold no memory */
        for (uint32_t x = 0; x < ci->touch_count; x++)
            if (ci->touch[x] < MAX_RES)
                l->use[c][ci->touch[x]] = true;
        if (!ci->begin || l->inst[c] == UINT32_MAX || l->inst_spans[l->inst[c]] < 2)
            continue;
        for (uint32_t x = 0; x < ci->touch_count; x++)
            for (uint32_t d = 0; d < f->cmd_count && ci->touch[x] < MAX_RES; d++)
                if (l->inst[d] == l->inst[c])
                    l->use[d][ci->touch[x]] = true;
    }
}

static void lifetimes_free(lifetimes *l)
{
    free(l->inst_first);
    free(l->inst_last);
    free(l->inst_spans);
}

/* Whether every use of a happens-before every use of b. */
static bool all_before(const fz *f, const lifetimes *l, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < f->cmd_count; i++) {
        if (!l->use[i][a])
            continue;
        for (uint32_t j = 0; j < f->cmd_count; j++)
            if (l->use[j][b] && !rg_happens_before(f->g, f->cmds[i].h, f->cmds[j].h))
                return false;
    }
    return true;
}

/* Bits of the queues whose recorded commands use resource r. */
static uint32_t queues_of(const fz *f, uint32_t r)
{
    uint32_t bits = 0;
    for (uint32_t i = 0; i < f->cmd_count; i++) {
        rg_command_info ci = info_of(f, f->cmds[i].h);
        for (uint32_t x = 0; x < f->cmds[i].touch_count && !ci.culled; x++)
            if (f->cmds[i].touch[x] == r)
                bits |= 1u << ci.queue;
    }
    return bits;
}

typedef struct where {
    rg_memory_kind kind;
    VkDeviceSize offset;
    uint32_t pool;
} where;

static where memory_of(const fz *f, uint32_t i)
{
    where w;
    w.kind = f->res[i].is_texture ? rg_texture_memory(f->g, (rg_texture){f->res[i].id}, &w.offset, &w.pool)
                                  : rg_buffer_memory(f->g, (rg_buffer){f->res[i].id}, &w.offset, &w.pool);
    return w;
}

static bool resource_info(const fz *f, uint32_t i, rg_resource_info *out)
{
    rg_result r = f->res[i].is_texture ? rg_texture_get_info(f->g, (rg_texture){f->res[i].id}, out)
                                       : rg_buffer_get_info(f->g, (rg_buffer){f->res[i].id}, out);
    return r == RG_SUCCESS;
}

/* Whether an accepted command of this declaration uses resource i. */
static bool used(const fz *f, uint32_t i)
{
    /* The two halves of a history texture are made together. */
    uint32_t pair = f->res[i].pair ? f->res[i].pair - 1 : i;
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        rg_command_info info;
        if (rg_command_get_info(f->g, f->cmds[c].h, &info) == RG_SUCCESS && info.culled)
            continue; /* a culled command's resources are not created */
        for (uint32_t x = 0; x < f->cmds[c].touch_count; x++)
            if (f->cmds[c].touch[x] == i || f->cmds[c].touch[x] == pair)
                return true;
    }
    return false;
}

/* A declaration call succeeded: the order, barriers and memory plan of an
 * earlier compile or placement are no longer this declaration's and must
 * not be served (offline placement stands in for execute here: a
 * declaration extended after it must be compiled and placed again). */
static void appended(fz *f)
{
    if (f->compiled) {
        const rg_command *order = NULL;
        CHECK(rg_execution_order(f->g, &order) == 0 && order == NULL,
              "a declaration extended after a compile still has the older order");
        CHECK(rg_barrier_count(f->g) == 0, "a declaration extended after a compile still has barriers");
    }
    if (f->placed) {
        rg_memory_totals t = rg_memory_get_totals(f->g);
        CHECK(t.pools == 0 && t.pooled == 0 && t.unaliased == 0 && t.padding == 0 && t.lower_bound == 0 &&
                  t.lazy == 0 && t.dedicated == 0,
              "a declaration extended after a placement still has the older totals");
        for (uint32_t i = 0; i < f->res_count; i++)
            CHECK(memory_of(f, i).kind == RG_MEMORY_NOT_CREATED,
                  "a declaration extended after a placement still places resource %u", i);
        CHECK(rg_memory_report_json(f->g, "/dev/null") == RG_ERROR_NOT_PLACED,
              "a declaration extended after a placement still reports it");
    }
    f->compiled = f->placed = false;
}

static void check_placement(fz *f)
{
    rg_memory_totals t = rg_memory_get_totals(f->g);
    where w[MAX_RES];
    VkDeviceSize sizes = 0;
    for (uint32_t i = 0; i < f->res_count; i++) {
        w[i] = memory_of(f, i);
        if (f->res[i].imported)
            CHECK(w[i].kind == RG_MEMORY_IMPORTED, "import %u placed as %d", i, w[i].kind);
        else if (!f->touches_lost)
            /* Created resources get memory exactly when some command uses them. */
            CHECK((w[i].kind != RG_MEMORY_NOT_CREATED) == used(f, i), "created %s %u, %s, placed as %d",
                  f->res[i].is_texture ? "texture" : "buffer", i, used(f, i) ? "used" : "unused", w[i].kind);
        /* History halves keep their contents across frames: their own memory. */
        CHECK(!f->res[i].pair || w[i].kind == RG_MEMORY_NOT_CREATED || w[i].kind == RG_MEMORY_DEDICATED,
              "history texture half %u placed as %d", i, w[i].kind);
        if (w[i].kind != RG_MEMORY_POOLED)
            continue;
        sizes += f->reqs[i].size;
        const req *q = &f->reqs[i];
        CHECK(q->asked, "pooled resource %u without requirements", i);
        CHECK(w[i].pool < t.pools, "pool %u of %u", w[i].pool, t.pools);
        CHECK(q->alignment == 0 || w[i].offset % q->alignment == 0, "offset %llu not aligned to %llu",
              (unsigned long long)w[i].offset, (unsigned long long)q->alignment);
        CHECK(w[i].offset <= t.pooled && q->size <= t.pooled - w[i].offset,
              "resource %u at %llu + %llu outside the pools (%llu bytes)", i, (unsigned long long)w[i].offset,
              (unsigned long long)q->size, (unsigned long long)t.pooled);
    }
    CHECK(t.lower_bound <= t.pooled || t.pools == 0, "lower bound %llu above pooled %llu",
          (unsigned long long)t.lower_bound, (unsigned long long)t.pooled);
    /* unaliased: the pools had every pooled resource its own range, their
     * sizes plus the alignment padding reported; what no aliasing gives. */
    CHECK(t.padding <= t.unaliased, "padding %llu above unaliased %llu", (unsigned long long)t.padding,
          (unsigned long long)t.unaliased);
    if (f->res_count < MAX_RES)
        CHECK(t.unaliased - t.padding == sizes, "unaliased %llu less padding %llu is not the pooled sizes %llu",
              (unsigned long long)t.unaliased, (unsigned long long)t.padding, (unsigned long long)sizes);
    CHECK(t.lower_bound <= t.unaliased - t.padding, "lower bound %llu above the pooled sizes %llu",
          (unsigned long long)t.lower_bound, (unsigned long long)(t.unaliased - t.padding));
    if (f->no_aliasing)
        CHECK(t.pooled == t.unaliased, "pooled %llu differs from unaliased %llu in a graph without aliasing",
              (unsigned long long)t.pooled, (unsigned long long)t.unaliased);

    /* Sharing bytes needs every use of one before every use of the other:
     * by default lifetimes apart in the execution order (the alias barrier
     * orders them), as the harness computes them. */
    lifetimes *life = malloc(sizeof *life);
    if (!life)
        return;
    lifetimes_make(f, life);
    for (uint32_t i = 0; i < f->res_count; i++)
        for (uint32_t j = i + 1; j < f->res_count; j++) {
            if (w[i].kind != RG_MEMORY_POOLED || w[j].kind != RG_MEMORY_POOLED || w[i].pool != w[j].pool)
                continue;
            VkDeviceSize ai = w[i].offset, bi = ai + f->reqs[i].size, aj = w[j].offset, bj = aj + f->reqs[j].size;
            if (!(ai < bj && aj < bi))
                continue;
            CHECK(!f->no_aliasing, "resources %u and %u share bytes of pool %u in a graph without aliasing", i, j,
                  w[i].pool);
            /* By default the execution order with the alias barrier orders
             * them; under alias_proven_only the dependencies must. */
            rg_resource_info ri, rj;
            bool apart = life->known ? life->first[i] != UINT32_MAX && life->first[j] != UINT32_MAX &&
                                           (life->last[i] < life->first[j] || life->last[j] < life->first[i])
                                    : resource_info(f, i, &ri) && resource_info(f, j, &rj) &&
                                          (ri.last_use < rj.first_use || rj.last_use < ri.first_use);
            bool proven = f->alias_proven_only || queues_of(f, i) != queues_of(f, j) ||
                          (queues_of(f, i) & (queues_of(f, i) - 1));
            CHECK(proven ? all_before(f, life, i, j) || all_before(f, life, j, i) : apart,
                  "resources %u and %u share bytes of pool %u without being ordered (lifetimes %u..%u and "
                  "%u..%u)", i, j, w[i].pool, life->first[i], life->last[i], life->first[j], life->last[j]);
        }
    lifetimes_free(life);
    free(life);
}

static void reports(fz *f, bool placed)
{
    FILE *null = fopen("/dev/null", "w");
    rg_result a = null ? rg_memory_report_print(f->g, null) : RG_SUCCESS;
    if (null)
        fclose(null);
    rg_result b = rg_memory_report_json(f->g, "/dev/null");
    rg_result c = rg_memory_timeline_svg(f->g, "/dev/null");
    if (placed)
        CHECK(a == RG_SUCCESS && b == RG_SUCCESS && c == RG_SUCCESS, "reports of a placed graph: %d %d %d", a, b, c);
    CHECK(b == c && (a == RG_SUCCESS || a == RG_ERROR_NOT_PLACED), "reports disagree: %d %d %d", a, b, c);
    CHECK(rg_memory_report_print(f->g, NULL) == RG_ERROR_INVALID_ARGUMENT, "print to NULL");
    CHECK(rg_memory_report_json(NULL, "/dev/null") == RG_ERROR_INVALID_ARGUMENT, "json of NULL");
}

/* Places over props, requirements as a device would say (req_mode 0) or
 * decoded from the stream (1), and checks the plan. */
static rg_result place(fz *f, const VkPhysicalDeviceMemoryProperties *props, uint32_t req_mode)
{
    f->props = props;
    f->req_mode = req_mode;
    memset(f->reqs, 0, sizeof f->reqs);
    f->callback_failed = false;
    rg_result res = rg_place_offline(f->g, f->props, requirements, f);
    if (verbose)
        fprintf(stderr, "  place: %s %s (%u pools, %llu pooled bytes, %llu lazy)\n", rg_result_string(res),
                rg_graph_error_message(f->g), rg_memory_get_totals(f->g).pools,
                (unsigned long long)rg_memory_get_totals(f->g).pooled,
                (unsigned long long)rg_memory_get_totals(f->g).lazy);
    if (res != RG_SUCCESS) {
        expect_message(f, "rg_place_offline");
        CHECK(!f->callback_failed || res == RG_ERROR_CALLBACK || rg_graph_error(f->g) != RG_SUCCESS,
              "a failed callback gave %s", rg_result_string(res));
    } else {
        f->placed = true;
        dump_state(f, "place");
        check_placement(f);
        const rg_command *order = NULL;
        uint32_t n = rg_execution_order(f->g, &order);
        check_barriers(f, order, n);
        check_queues(f, order, n);
        if (f->req_mode == 0) {
            /* The same inputs give the same plan. */
            where before[MAX_RES];
            rg_memory_totals t0 = rg_memory_get_totals(f->g);
            for (uint32_t i = 0; i < f->res_count; i++)
                before[i] = memory_of(f, i);
            CHECK(rg_place_offline(f->g, f->props, requirements, f) == RG_SUCCESS, "placing again failed: %s",
                  rg_graph_error_message(f->g));
            rg_memory_totals t1 = rg_memory_get_totals(f->g);
            CHECK(t0.pooled == t1.pooled && t0.unaliased == t1.unaliased && t0.padding == t1.padding &&
                      t0.lower_bound == t1.lower_bound && t0.lazy == t1.lazy && t0.dedicated == t1.dedicated &&
                      t0.pools == t1.pools,
                  "placing again changed the totals");
            for (uint32_t i = 0; i < f->res_count; i++) {
                where w = memory_of(f, i);
                CHECK(w.kind == before[i].kind && w.offset == before[i].offset && w.pool == before[i].pool,
                      "placing again moved resource %u", i);
            }
        }
    }
    reports(f, res == RG_SUCCESS);
    f->props = NULL;
    return res;
}

static void op_place(fz *f)
{
    rd *r = f->r;
    uint8_t t = u8(r);
    VkPhysicalDeviceMemoryProperties decoded;
    const VkPhysicalDeviceMemoryProperties *props = &decoded;
    if (t % (device_table_count + 1) == device_table_count)
        decode_props(r, &decoded);
    else
        props = &device_tables[t % (device_table_count + 1)].props;
    uint32_t mode = u8(r) & 1;
    (void)place(f, props, mode);
}

/* -------------------------------------------------------------- recording */

/* Frames recorded on the null device (record_check.h). After a compile of
 * the fuzzed graph succeeds, its declaration is made again from the
 * journal, call for call, on a graph of a null device with the same
 * options and caps (so it compiles to the same order and batches, which is
 * checked), placed on that device, and recorded whole and in chunks; a
 * declaration is recorded once until it changes. The fuzzed graph itself
 * stays device-free, so its offline placements go on as before. The
 * twin's user commands record a line each naming their journal call and
 * the objects rg_record_image, rg_record_view and rg_record_buffer hand
 * them, and cost 1 to 5 (sometimes 40), so chunks are cut unevenly. */

typedef struct twin_user {
    uint32_t call;                    /* its journal index */
    uint32_t count;
    rg_access accesses[8];
} twin_user;

typedef struct twin {
    fz *f;
    rg_graph *g;
    uint32_t (*map)[2];               /* the fuzzed graph's handle, the twin's */
    uint32_t map_count;
    twin_user *users;                 /* per journal call */
    rc_import *imports;
    uint32_t import_count;
} twin;

static void twin_put(twin *t, uint32_t from, uint32_t to)
{
    t->map[t->map_count][0] = from;
    t->map[t->map_count++][1] = to;
}

/* The twin's handle for one of the fuzzed graph's (0 for 0). */
static uint32_t twin_id(const twin *t, uint32_t from)
{
    if (from == 0)
        return 0;
    for (uint32_t i = t->map_count; i-- > 0;)
        if (t->map[i][0] == from)
            return t->map[i][1];
    CHECK(false, "%s: the journal names handle 0x%x, which no journal call made", t->f->op_name, from);
    return 0;
}

static rg_texture twin_tex(const twin *t, rg_texture x) { return (rg_texture){twin_id(t, x.id)}; }
static rg_buffer twin_buf(const twin *t, rg_buffer x) { return (rg_buffer){twin_id(t, x.id)}; }

static bool twin_record(const rg_record_context *rc, void *user)
{
    const twin_user *u = user;
    char line[480], h1[40], h2[40];
    int at = snprintf(line, sizeof line, "user (journal call %u)", u->call);
    for (uint32_t k = 0; k < u->count && at > 0 && (size_t)at < sizeof line; k++) {
        const rg_access *a = &u->accesses[k];
        if (a->texture.id)
            at += snprintf(line + at, sizeof line - (size_t)at, " | access %u %s %s", k,
                           null_handle_name((uint64_t)(uintptr_t)rg_record_image(rc, a->texture), h1, sizeof h1),
                           null_handle_name((uint64_t)(uintptr_t)rg_record_view(rc, a->texture), h2, sizeof h2));
        else if (a->buffer.id)
            at += snprintf(line + at, sizeof line - (size_t)at, " | access %u %s", k,
                           null_handle_name((uint64_t)(uintptr_t)rg_record_buffer(rc, a->buffer), h1, sizeof h1));
    }
    null_cmd_note(rg_record_cmd(rc), "%s", line);
    return true;
}

/* The journal's calls on t->g; each must be accepted. */
static void twin_declare(twin *t)
{
    const fz *f = t->f;
    for (uint32_t i = 0; i < f->journal_count; i++) {
        const jcall *j = &f->journal[i];
        const char *nm = j->named ? j->name : NULL;
        uint32_t got = 0, got2 = 0;
        switch (j->kind) {
        case J_TEXTURE:
        case J_HISTORY: {
            rg_texture_desc d = j->u.texture;
            d.name = nm;
            d.size_of = twin_tex(t, d.size_of);
            rg_texture prev = {0};
            got = (j->kind == J_TEXTURE ? rg_texture_create(t->g, &d) : rg_texture_create_history(t->g, &d, &prev)).id;
            got2 = prev.id;
            break;
        }
        case J_TEXTURE_IMPORT: {
            rg_texture_import_desc d = j->u.import;
            d.name = nm;
            got = rg_texture_import(t->g, &d).id;
            t->imports[t->import_count++] = (rc_import){{got}, d.initial_layout, d.final_layout};
            break;
        }
        case J_BUFFER: {
            rg_buffer_desc d = j->u.buffer;
            d.name = nm;
            got = rg_buffer_create(t->g, &d).id;
            break;
        }
        case J_BUFFER_IMPORT: {
            rg_buffer_import_desc d = j->u.buffer_import;
            d.name = nm;
            got = rg_buffer_import(t->g, &d).id;
            break;
        }
        case J_USER: {
            rg_user_desc d = j->u.user.desc;
            twin_user *u = &t->users[i];
            u->call = i;
            u->count = d.access_count < 8 ? d.access_count : 8;
            for (uint32_t k = 0; k < 8; k++) {
                u->accesses[k] = j->u.user.accesses[k];
                u->accesses[k].texture = twin_tex(t, u->accesses[k].texture);
                u->accesses[k].buffer = twin_buf(t, u->accesses[k].buffer);
            }
            d.name = nm;
            d.accesses = j->u.user.has_accesses ? u->accesses : NULL;
            d.record = twin_record;
            d.user = u;
            d.cost = i % 11 == 7 ? 40 : 1 + i % 5;
            got = rg_cmd_user(t->g, &d).id;
            break;
        }
        case J_COPY_BUFFER:
            got = rg_cmd_copy_buffer(t->g, (rg_buffer){twin_id(t, j->u.copy_buffer.src)}, j->u.copy_buffer.src_offset,
                                     (rg_buffer){twin_id(t, j->u.copy_buffer.dst)}, j->u.copy_buffer.dst_offset,
                                     j->u.copy_buffer.size).id;
            break;
        case J_COPY_TO_TEXTURE:
        case J_COPY_TO_BUFFER: {
            rg_buffer b = {twin_id(t, j->u.copy_image.buffer)};
            rg_texture x = {twin_id(t, j->u.copy_image.texture)};
            uint32_t mip = j->u.copy_image.mip, layer = j->u.copy_image.layer, count = j->u.copy_image.count;
            got = (j->kind == J_COPY_TO_TEXTURE
                       ? rg_cmd_copy_buffer_to_texture(t->g, b, j->u.copy_image.offset, x, mip, layer, count)
                       : rg_cmd_copy_texture_to_buffer(t->g, x, mip, layer, count, b, j->u.copy_image.offset))
                      .id;
            break;
        }
        case J_ALLOW_QUEUE:
            rg_command_allow_queue(t->g, (rg_command){twin_id(t, j->u.allow.command)}, j->u.allow.queue);
            got = rg_graph_error(t->g) == RG_SUCCESS;
            break;
        case J_CLEAR:
            got = rg_cmd_clear_texture(t->g, (rg_texture){twin_id(t, j->u.clear.texture)},
                                       j->u.clear.has_range ? &j->u.clear.range : NULL,
                                       j->u.clear.has_value ? &j->u.clear.value : NULL).id;
            break;
        case J_BLIT:
            got = rg_cmd_blit(t->g, (rg_texture){twin_id(t, j->u.blit.src)}, j->u.blit.src_mip,
                              (rg_texture){twin_id(t, j->u.blit.dst)}, j->u.blit.dst_mip, j->u.blit.filter).id;
            break;
        case J_BEGIN: {
            rg_rendering_desc d = j->u.begin;
            d.name = nm;
            for (uint32_t k = 0; k <= RG_MAX_COLOR_ATTACHMENTS; k++) {
                rg_attachment *a = k < RG_MAX_COLOR_ATTACHMENTS ? &d.colors[k] : &d.depth;
                a->texture = twin_tex(t, a->texture);
                a->resolve = twin_tex(t, a->resolve);
            }
            got = rg_begin_rendering(t->g, &d).id;
            break;
        }
        case J_END:
            got = rg_end_rendering(t->g).id;
            break;
        }
        CHECK(got != 0, "%s: the null device's graph refused journal call %u (kind %d), which the fuzzed graph "
              "accepted: %s", f->op_name, i, (int)j->kind, rg_graph_error_message(t->g));
        if (j->made[0])
            twin_put(t, j->made[0], got);
        if (j->made[1])
            twin_put(t, j->made[1], got2);
    }
}

/* The twin compiled to the fuzzed graph's order and batches. */
static void twin_same_compile(const twin *t)
{
    const fz *f = t->f;
    const rg_command *a = NULL, *b = NULL;
    uint32_t n = rg_execution_order(f->g, &a), m = rg_execution_order(t->g, &b);
    CHECK(n == m, "%s: the null device's graph runs %u commands, the fuzzed graph %u", f->op_name, m, n);
    for (uint32_t i = 0; i < n; i++)
        CHECK(twin_id(t, a[i].id) == b[i].id, "%s: the null device's graph runs another command at %u", f->op_name,
              i);
    CHECK(rg_batch_count(f->g) == rg_batch_count(t->g), "%s: %u batches, the null device's graph %u", f->op_name,
          rg_batch_count(f->g), rg_batch_count(t->g));
    for (uint32_t i = 0; i < rg_batch_count(f->g); i++) {
        rg_batch_info x, y;
        CHECK(rg_batch_get(f->g, i, &x) == RG_SUCCESS && rg_batch_get(t->g, i, &y) == RG_SUCCESS &&
                  x.queue == y.queue && x.first == y.first && x.last == y.last && x.wait_count == y.wait_count,
              "%s: batch %u differs on the null device's graph", f->op_name, i);
    }
}

/* The max_chunks of the frames in chunks: 0 to 16 and 1000 (a chunk
 * wherever one may start) replaying files; fuzzing, two picked by the
 * input. *reverse: one more frame's, its chunks recorded last to first. */
static uint32_t chunk_asks(uint32_t h, uint32_t *asks, uint32_t *reverse)
{
#ifdef FUZZ_STANDALONE
    (void)h;
    uint32_t n = 0;
    for (uint32_t k = 0; k <= 16; k++)
        asks[n++] = k;
    asks[n++] = 1000;
    *reverse = 1000;
    return n;
#else
    asks[0] = 1 + (h >> 8) % 16;
    asks[1] = (h >> 12) & 1 ? 1000 : 1 + (h >> 16) % 16;
    *reverse = 2 + (h >> 20) % 15;
    return 2;
#endif
}

/* One recording: the journal declared on a graph of a fresh null device,
 * compiled, placed and recorded (see record_check.h: keep_first keeps its
 * first frame; first records only the first frame, in chunks). */
static void record_on(fz *f, const device_table *table, bool labelled, bool timings, uint32_t h,
                      rc_first **keep_first, const rc_first *first)
{
    null_device *nd = null_device_create(&table->props, labelled);
    CHECK(nd != NULL, "the null device could not be made");
    twin t = {.f = f};
    t.map = calloc((size_t)f->journal_count * 2 + 1, sizeof *t.map);
    t.users = calloc((size_t)f->journal_count + 1, sizeof *t.users);
    t.imports = calloc((size_t)f->journal_count + 1, sizeof *t.imports);
    CHECK(t.map && t.users && t.imports, "out of memory");
    rg_result r = rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = silent, .device = null_device_rg(nd),
                                                   .no_aliasing = f->no_aliasing, .merge = f->merge, .caps = &f->caps,
                                                   .no_culling = f->no_culling,
                                                   .alias_proven_only = f->alias_proven_only, .order = f->order,
                                                   .single_queue = f->single_queue, .timings = timings},
                                  &t.g);
    CHECK(r == RG_SUCCESS, "rg_graph_create on the null device: %s", rg_result_string(r));
    twin_declare(&t);
    r = rg_compile(t.g);
    CHECK(r == RG_SUCCESS, "%s: the null device's graph fails to compile what the fuzzed graph compiled: %s",
          f->op_name, rg_graph_error_message(t.g));
    twin_same_compile(&t);
    r = rg_place(t.g);
    if (r != RG_SUCCESS) {
        /* Beyond what the null device offers (sizes, mips, layers). */
        CHECK(rg_graph_error_message(t.g)[0] != '\0', "rg_place failed without a message");
        if (verbose && !first)
            fprintf(stderr, "  not recorded: rg_place on the null device: %s\n", rg_graph_error_message(t.g));
    } else {
        uint32_t asks[20], reverse;
        uint32_t n = chunk_asks(h, asks, &reverse);
        rc_stats before = f->stats;
#ifndef FUZZ_STANDALONE
        if (!record_has_history(t.g))
            keep_first = NULL; /* fuzzing: only history makes a first frame unlike the others */
#endif
        rc_options o = {.max_chunks = asks, .max_chunk_count = n, .reverse = reverse, .context = f->op_name,
                        .labelled = labelled, .keep_first = keep_first, .first = first,
                        .first_max_chunks = reverse, .dump = dump != 0};
        record_check(t.g, nd, t.imports, t.import_count, &o, &f->stats);
        if (verbose)
            fprintf(stderr, "  recorded on the null device (%s, labels %s, timings %s)%s: %u frames, %u command "
                    "buffers, %u chunks resumed (%u in a span, %u with local-read state, %u suspended again)\n",
                    table->name, labelled ? "on" : "off", timings ? "on" : "off",
                    first ? ", placed again, the first frame in chunks" : "", f->stats.frames - before.frames,
                    f->stats.chunks - before.chunks, f->stats.resumed - before.resumed,
                    f->stats.resumed_in_span - before.resumed_in_span,
                    f->stats.resumed_local_read - before.resumed_local_read,
                    f->stats.suspended_twice - before.suspended_twice);
    }
    rg_graph_destroy(t.g);
    null_device_destroy(nd);
    free(t.map);
    free(t.users);
    free(t.imports);
}

/* Records the declaration unless it was recorded as it is: placed on a
 * null device and recorded (the memory types from a hash of the input and
 * the recording's number; fuzzing, labels and timings too), then placed
 * again on a device of the same options to record its first frame in
 * chunks (fuzzing, only with history textures); replaying files, also once
 * more without labels and timings. */
static void record(fz *f)
{
    if (f->journal_gen == f->recorded_gen)
        return;
    f->recorded_gen = f->journal_gen;
    uint32_t h = f->hash ^ (0x9E3779B9u * ++f->sessions);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    const device_table *table = &device_tables[(h >> 2) % device_table_count];
#ifdef FUZZ_STANDALONE
    bool labelled = true, timings = true;
#else
    bool labelled = h & 1, timings = (h >> 1) & 1;
#endif
    rc_first *first = NULL;
    record_on(f, table, labelled, timings, h, &first, NULL);
    if (first)
        record_on(f, table, labelled, timings, h, NULL, first);
    rc_first_free(first);
#ifdef FUZZ_STANDALONE
    record_on(f, table, false, false, h, NULL, NULL);
#endif
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
    rg_result res = rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = silent, .no_aliasing = f->no_aliasing,
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
    uint8_t b = u8(r);
    if (b & 1)
        rg_graph_reset(f->other);
    rg_texture t = rg_texture_create(f->other, &(rg_texture_desc){.name = "foreign", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                   .width = 16, .height = 16});
    rg_buffer bu = rg_buffer_create(f->other, &(rg_buffer_desc){.name = "foreign", .size = 256});
    remember(f->foreign, &f->foreign_count, t.id);
    remember(f->foreign, &f->foreign_count, bu.id);
}

/* ------------------------------------------------------------------ input */

/* The declaration opcodes come first (OP_DECLARE of them). */
enum {
    OP_TEX_CREATE, OP_TEX_IMPORT, OP_BUF_CREATE, OP_BUF_IMPORT, OP_USER, OP_COPY_BUFFER, OP_COPY_B2T, OP_COPY_T2B,
    OP_CLEAR, OP_BLIT, OP_BEGIN, OP_END, OP_DECLARE,
    OP_COMPILE = OP_DECLARE, OP_PLACE, OP_RESET, OP_FOREIGN, OP_EXTEND, OP_MISUSE, OP_COUNT
};

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
    uint8_t b = u8(r);
    const VkPhysicalDeviceMemoryProperties *props = &device_tables[(b & 15) % device_table_count].props;
    op_compile(f);
    (void)place(f, props, 0);
    uint32_t n = 1 + u8(r) % 4;
    for (uint32_t i = 0; i < n && more(r); i++)
        declare(f, u8(r));
    op_compile(f);
    (void)place(f, props, 0);
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
    f->graph_name = "fuzz \"graph\"\n";
    if (rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = silent, .no_aliasing = f->no_aliasing,
                                         .merge = f->merge, .caps = &f->caps, .no_culling = f->no_culling,
                                         .alias_proven_only = f->alias_proven_only, .order = f->order,
                                                     .single_queue = f->single_queue},
                        &f->g) !=
            RG_SUCCESS ||
        rg_graph_create(&(rg_graph_desc){.name = NULL, .log = silent}, &f->other) != RG_SUCCESS) {
        rg_graph_destroy(f->g);
        free(f);
        return;
    }
    static const char *const op_names[OP_COUNT] = {
        "texture", "import", "buffer", "buffer import", "user", "copy buffer", "copy to texture", "copy to buffer",
        "clear", "blit", "begin", "end", "compile", "place", "reset", "foreign", "extend", "misuse"};
    for (uint32_t ops = 0; more(&r) && ops < 1024; ops++) {
        uint32_t op = u8(&r) % OP_COUNT;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_input(data, size);
    return 0;
}

#ifdef FUZZ_STANDALONE
#include "seeds.h"
#endif
