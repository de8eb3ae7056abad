/* The fuzz harness's shared state (private to tests/fuzz): the input
 * reader, the harness's tables of formats, layouts and ops, its shadow of
 * what the fuzzed graph accepted (resources, commands, the journal of
 * declaration calls), and the functions its files call in one another.
 * fuzz_graph.c's head comment describes the input and the checks. */
#ifndef FUZZ_GRAPH_H
#define FUZZ_GRAPH_H

#include "device_tables.h"
#include "fuzz_check.h"
#include "null_device.h"
#include "record_check.h"

#include <rendergraph/rendergraph.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- decoder */

typedef struct rd {
    const uint8_t *p;
    size_t n, i;
} rd;

/* fuzz_decode.c: bytes past the input's end read as 0. */
uint8_t rd_u8(rd *r);
bool rd_more(const rd *r);
uint32_t rd_raw32(rd *r);
uint32_t rd_num32(rd *r);
uint64_t rd_num64(rd *r);
uint32_t rd_pick(rd *r, const uint32_t *table, uint32_t n);

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
 * device and recorded (fuzz_record.c). */
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
    /* recording (fuzz_record.c) */
    jcall *journal;
    uint32_t journal_count, journal_cap;
    uint32_t journal_gen, recorded_gen; /* changes of the journal; the one last recorded */
    char op_name[64];                 /* the input's op being run ("op 12 (compile)"), for messages */
    uint32_t hash;                    /* of the input: picks the null device's options */
    uint32_t sessions;                /* recordings made of this input */
    rc_stats stats;
} fz;


/* The input's opcodes; the declaration opcodes come first (OP_DECLARE of them). */
enum {
    OP_TEX_CREATE, OP_TEX_IMPORT, OP_BUF_CREATE, OP_BUF_IMPORT, OP_USER, OP_COPY_BUFFER, OP_COPY_B2T, OP_COPY_T2B,
    OP_CLEAR, OP_BLIT, OP_BEGIN, OP_END, OP_DECLARE,
    OP_COMPILE = OP_DECLARE, OP_PLACE, OP_RESET, OP_FOREIGN, OP_EXTEND, OP_MISUSE, OP_COUNT
};

/* fuzz_graph.c: the graphs' log, which prints nothing, and the entry that runs one input. */
void fz_silent(void *user, rg_log_level level, const char *object, const char *message);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* fuzz_resources.c: names, handles and the shadow of the declaration. */
void expect_message(const fz *f, const char *what);
void fz_rejected(fz *f, const char *what);
bool fz_accepted(fz *f, uint32_t id, const char *what);
jcall *fz_jot(fz *f, jkind kind, const char *nm, uint32_t made, uint32_t made2);
const char *fz_name(fz *f);
rg_texture tex_arg(fz *f, uint32_t *decl);
rg_buffer buf_arg(fz *f, uint32_t *decl);
void cmd_push(fz *f, rg_command h, const uint32_t *touch, const bool *writes, uint32_t n);
void op_texture(fz *f, bool import);
void op_buffer(fz *f, bool import);

/* fuzz_commands.c: user commands, copies, clears, blits and spans. */
void op_user(fz *f);
uint64_t sat_mul(uint64_t a, uint64_t b);
void op_copy(fz *f, uint8_t which);
void op_clear(fz *f);
void op_blit(fz *f);
void op_begin(fz *f);
void op_end(fz *f);
void op_misuse(fz *f);
uint32_t fz_position(const rg_command *order, uint32_t n, rg_command c);

/* fuzz_compile.c: compile and the checks of its order, barriers and queues.
 * Standalone runs set fz_verbose (FUZZ_VERBOSE) and fz_dump (FUZZ_DUMP). */
extern int fz_verbose, fz_dump;
void check_barriers(const fz *f, const rg_command *order, uint32_t n);
rg_command_info info_of(const fz *f, rg_command c);
void check_queues(const fz *f, const rg_command *order, uint32_t n);
void dump_state(fz *f, const char *what);
void op_compile(fz *f);
void fz_appended(fz *f);

/* fuzz_place.c: offline placement and its checks. */
rg_result fz_place(fz *f, const VkPhysicalDeviceMemoryProperties *props, uint32_t req_mode);
void op_place(fz *f);
void fz_record(fz *f);

/* fuzz_record.c: the declaration recorded on the null device, whole and in chunks. */

#endif
