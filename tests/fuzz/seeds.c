/* The standalone build of the fuzz harness (FUZZ_STANDALONE): the seed
 * corpus of real frames it writes (--write-seeds DIR), encoded with
 * seed_encode.h, and a main that runs input files. */
#include "run_files.h"
#include "seed_encode.h"

#include <errno.h>

#define A(...) ((const s_acc[]){__VA_ARGS__}), (uint32_t)(sizeof((const s_acc[]){__VA_ARGS__}) / sizeof(s_acc))
#define T(i, u) {(i), -1, (u), 0}
#define TA(i, u, aspect) {(i), -1, (u), (aspect)}
#define B(i, u) {-1, (i), (u), 0}

/* One span: MSAA color resolved into the swapchain image, transient depth. */
static void seed_msaa(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 1280, 720, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "msaa color", VK_FORMAT_B8G8R8A8_SRGB, 1280, 720, 1, 4);                          /* t1 */
    s_tex(e, "msaa depth", VK_FORMAT_D32_SFLOAT, 1280, 720, 1, 4);                             /* t2 */
    s_begin(e, "scene", (const s_att[]){ATT(1, LD_CLEAR, ST_DONT, 0)}, 1,
            &(s_att)ATT(2, LD_CLEAR, ST_DONT, -1));
    s_user(e, "draw cubes", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "Apple silicon, MoltenVK >= 1.2.9");
    s_place(e, "NVIDIA H200");
}

/* The deferred frame's head: its resources (t0 the swapchain image, t1
 * albedo, t2 normal, t3 depth, t4 hdr, with bloom t5 the bloom chain; b0 the
 * camera), the camera's upload and the G-buffer span, its depth kept or
 * discarded (depth_store). */
static void s_deferred_gbuffer(enc *e, bool bloom, VkAttachmentStoreOp depth_store)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 1920, 1080, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    s_tex(e, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1, 1);
    s_tex(e, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, 1, 1);
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 1920, 1080, 1, 1);
    s_tex(e, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, 1, 1);
    if (bloom)
        s_tex(e, "bloom", VK_FORMAT_R16G16B16A16_SFLOAT, 960, 540, 4, 1);
    s_buf(e, "camera", 256, false);
    s_user(e, "upload camera", RG_COMMAND_OUTSIDE, A(B(0, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    const s_att st = ATT(0, LD_CLEAR, ST_STORE, -1);
    s_att g[2] = {st, st};
    g[0].tex = 1, g[1].tex = 2;
    s_begin(e, "gbuffer", g, 2, &(s_att)ATT(3, LD_CLEAR, depth_store, -1));
    s_user(e, "draw scene", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_op(e, OP_END);
}

/* G-buffer MRT span, a lighting span sampling it, a bloom chain of blits,
 * tonemap into the swapchain image. */
static void seed_deferred(enc *e)
{
    s_deferred_gbuffer(e, true, ST_STORE);
    s_att h = ATT(4, LD_DONT, ST_STORE, -1);
    s_begin(e, "lighting", &h, 1, NULL);
    s_user(e, "fullscreen light", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_SAMPLED_FRAGMENT), T(2, RG_USAGE_SAMPLED_FRAGMENT), T(3, RG_USAGE_SAMPLED_FRAGMENT),
             B(0, RG_USAGE_UNIFORM_FRAGMENT)));
    s_op(e, OP_END);
    s_blit(e, 4, 0, 5, 0);
    s_blit(e, 5, 0, 5, 1);
    s_blit(e, 5, 1, 5, 2);
    s_blit(e, 5, 2, 5, 3);
    s_att sc = ATT(0, LD_DONT, ST_STORE, -1);
    s_begin(e, "tonemap", &sc, 1, NULL);
    s_user(e, "tonemap", RG_COMMAND_DRAW, A(T(4, RG_USAGE_SAMPLED_FRAGMENT), T(5, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    s_place(e, "lavapipe");
}

/* The deferred frame with its G-buffer read pixel-locally, on a tile GPU
 * with local read and merging forced on (the last byte: merge ON, local
 * read, an Arm driver): G-buffer and lighting merge into one instance. */
static void seed_deferred_merged(enc *e)
{
    s_deferred_gbuffer(e, false, ST_DONT);
    s_att h = ATT(4, LD_DONT, ST_STORE, -1);
    s_begin(e, "lighting", &h, 1, NULL);
    s_user(e, "fullscreen light", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_PIXEL_LOCAL_READ), T(2, RG_USAGE_PIXEL_LOCAL_READ), B(0, RG_USAGE_UNIFORM_FRAGMENT)));
    s_op(e, OP_END);
    s_att sc = ATT(0, LD_DONT, ST_STORE, -1);
    s_begin(e, "tonemap", &sc, 1, NULL);
    s_user(e, "tonemap", RG_COMMAND_DRAW, A(T(4, RG_USAGE_PIXEL_LOCAL_READ)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "Mali, ARM proprietary ([1], [2] uncertain)");
    s_place(e, "NVIDIA H200");
    s_op(e, OP_FOREIGN), e8(e, 0x0a); /* the last byte: merge ON, local read, Arm */
}

/* A merged instance whose attachments each only one of its spans names
 * ("gbuffer only", "hdr") and whose draws write storage images, on a tile
 * GPU with merging forced on (the last byte: merge ON, local read, an Arm
 * driver) and aliasing behind alias barriers (the byte before it, lavapipe's
 * table index, sets culling off and alias_proven_only off): every
 * attachment lives from the instance's first begin to its last end, so none
 * of them shares bytes with another or with the storage images. */
static void seed_merged_lifetimes(enc *e)
{
    s_tex(e, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);        /* t0 */
    s_tex(e, "gbuffer only", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);  /* t1 */
    s_tex(e, "hdr", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);           /* t2 */
    s_tex(e, "early storage", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1); /* t3 */
    s_tex(e, "late storage", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);  /* t4 */
    s_begin(e, "gbuffer", (const s_att[]){ATT(0, LD_CLEAR, ST_STORE, -1), ATT(1, LD_CLEAR, ST_DONT, -1)}, 2, NULL);
    s_user(e, "scene", RG_COMMAND_DRAW, A(T(3, RG_USAGE_STORAGE_WRITE_FRAGMENT)));
    s_op(e, OP_END);
    s_begin(e, "lighting", (const s_att[]){ATT(2, LD_CLEAR, ST_STORE, -1)}, 1, NULL);
    s_user(e, "light", RG_COMMAND_DRAW, A(T(0, RG_USAGE_PIXEL_LOCAL_READ), T(4, RG_USAGE_STORAGE_WRITE_FRAGMENT)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    e8(e, OP_PLACE), e8(e, table_index("lavapipe")), e8(e, 0x0a);
}

/* Motion trails: a history texture read by the composite (previous) and
 * written by it (current), the composite into the swapchain image. */
static void seed_trails(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 640, 360, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "scene", VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, 1);                             /* t1 */
    s_history(e, "trail", VK_FORMAT_R16G16B16A16_SFLOAT, 640, 360);                           /* t2, t3 */
    s_att sa = ATT(1, LD_CLEAR, ST_STORE, -1);
    s_drawn(e, "scene", &sa, 1, NULL);
    s_att comp[2] = {ATT(0, LD_DONT, ST_STORE, -1), ATT(2, LD_DONT, ST_STORE, -1)};
    s_begin(e, "composite", comp, 2, NULL);
    s_user(e, "trails", RG_COMMAND_DRAW, A(T(1, RG_USAGE_SAMPLED_FRAGMENT), T(3, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    s_place(e, "Mali, ARM proprietary ([1], [2] uncertain)");
}

/* An opcode byte that decodes as op and whose bits outside mask are those
 * of bits: the input's last two bytes also set the graph's options. */
static void s_op_bits(enc *e, uint32_t op, uint32_t mask, uint32_t bits)
{
    uint32_t v = op;
    while (v < 256 && (v & mask) != bits)
        v += OP_COUNT;
    e8(e, v < 256 ? v : op);
}

/* Async compute: a depth prepass, SSAO on the compute queue overlapping
 * the shadow map, a composite reading both, an upload on the transfer
 * queue; compiled and placed on the H200's table with the device's
 * compute and transfer queues (the last two bytes). */
static void seed_async_compute(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 640, 360, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 640, 360, 1, 1);                                  /* t1 */
    s_tex(e, "shadow", VK_FORMAT_D32_SFLOAT, 1024, 1024, 1, 1);                              /* t2 */
    s_tex(e, "ao", VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, 1);                                 /* t3 */
    s_buf(e, "staging", 65536, true);                                                       /* b0 */
    s_buf(e, "lights", 65536, false);                                                       /* b1 */
    s_att d = ATT(1, LD_CLEAR, ST_STORE, -1);
    s_begin(e, "prepass", NULL, 0, &d);
    s_user(e, "prepass draw", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    e8(e, OP_COPY_BUFFER), e8(e, 0), e64(e, 0), e8(e, 1), e64(e, 0), e64(e, 65536);
    s_user_q(e, "ssao", RG_COMMAND_OUTSIDE,
             A(T(1, RG_USAGE_SAMPLED_COMPUTE), T(3, RG_USAGE_STORAGE_WRITE_COMPUTE), B(1, RG_USAGE_UNIFORM_COMPUTE)),
             RG_QUEUE_COMPUTE);
    s_att sd = ATT(2, LD_CLEAR, ST_STORE, -1);
    s_begin(e, "shadows", NULL, 0, &sd);
    s_user(e, "shadow draw", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_att c = ATT(0, LD_CLEAR, ST_STORE, -1);
    s_begin(e, "composite", &c, 1, NULL);
    s_user(e, "composite draw", RG_COMMAND_DRAW, A(T(2, RG_USAGE_SAMPLED_FRAGMENT), T(3, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    /* Compute and transfer queues, culling on (before last); aliasing on. */
    s_op_bits(e, OP_COMPILE, 0x71, 0x30);
    s_op_bits(e, OP_COMPILE, 0x01, 0x00);
}

/* History textures whose previous half nothing reads (a first frame that
 * skips the read): one written by a span and copied out, one written by a
 * compute command eligible for the compute queue. */
static void seed_history_unread(enc *e)
{
    s_buf(e, "readback", 1 << 20, true);                            /* b0 */
    s_history(e, "accumulated", VK_FORMAT_R32_UINT, 64, 64);        /* t0, t1 */
    s_history(e, "async", VK_FORMAT_R32_UINT, 64, 64);              /* t2, t3 */
    s_att a = ATT(0, LD_CLEAR, ST_STORE, -1);
    s_drawn(e, "write current", &a, 1, NULL);
    e8(e, OP_COPY_T2B), e8(e, 0), e64(e, 0), e8(e, 0), e32(e, 0), e32(e, 0), e32(e, 1);
    s_user_q(e, "fill", RG_COMMAND_OUTSIDE, A(T(2, RG_USAGE_STORAGE_WRITE_COMPUTE)), RG_QUEUE_COMPUTE);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    /* Compute and transfer queues, culling on (before last); aliasing on. */
    s_op_bits(e, OP_COMPILE, 0x71, 0x30);
    s_op_bits(e, OP_COMPILE, 0x01, 0x00);
}

/* Compute writing a storage buffer and image, copies to and from them,
 * a clear, readback into imported buffers. */
static void seed_compute_copy(enc *e)
{
    s_buf(e, "staging", 65536, true);     /* b0 */
    s_buf(e, "particles", 65536, false);  /* b1 */
    s_buf(e, "readback", 1 << 20, true);  /* b2 */
    s_tex(e, "field", VK_FORMAT_R32_SFLOAT, 256, 256, 1, 1);  /* t0 */
    s_tex(e, "scratch", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1); /* t1 */
    e8(e, OP_COPY_BUFFER), e8(e, 0), e64(e, 0), e8(e, 1), e64(e, 0), e64(e, 65536);
    s_user(e, "simulate", RG_COMMAND_OUTSIDE,
           A(B(1, RG_USAGE_STORAGE_READ_WRITE_COMPUTE), T(0, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    e8(e, OP_CLEAR), e8(e, 1), e8(e, 1); /* scratch, whole (NULL range) */
    e8(e, 0), e32(e, 0), e32(e, 0), e32(e, 0), e32(e, 0);
    for (int k = 0; k < 4; k++)
        e8(e, 0);
    s_user(e, "splat", RG_COMMAND_OUTSIDE,
           A(T(0, RG_USAGE_SAMPLED_COMPUTE), T(1, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    e8(e, OP_COPY_T2B), e8(e, 2), e64(e, 0), e8(e, 0), e32(e, 0), e32(e, 0), e32(e, 1);
    e8(e, OP_COPY_BUFFER), e8(e, 1), e64(e, 0), e8(e, 2), e64(e, 262144), e64(e, 65536);
    e8(e, OP_COPY_B2T), e8(e, 0), e64(e, 0), e8(e, 1), e32(e, 0), e32(e, 0), e32(e, 1);
    s_op(e, OP_COMPILE);
    s_place(e, "lavapipe");
}

/* A frame compiled, reset, declared again the same (the reuse path), a
 * stale handle after a second reset. */
static void seed_redeclare(enc *e)
{
    for (int round = 0; round < 2; round++) {
        s_tex(e, "color", VK_FORMAT_R8G8B8A8_UNORM, 640, 480, 1, 1);
        s_tex(e, "depth", VK_FORMAT_D24_UNORM_S8_UINT, 640, 480, 1, 1);
        s_drawn(e, "pass", (const s_att[]){ATT(0, LD_CLEAR, ST_STORE, -1)}, 1,
                &(s_att)ATT(1, LD_CLEAR, ST_DONT, -1));
        s_user(e, "post", RG_COMMAND_OUTSIDE, A(T(0, RG_USAGE_SAMPLED_COMPUTE)));
        s_op(e, OP_COMPILE);
        s_place(e, "NVIDIA H200");
        s_op(e, OP_RESET);
    }
    s_op(e, OP_FOREIGN), e8(e, 0);
    s_tex(e, "fresh", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);
    e8(e, OP_USER), ename(e, "stale use"), e8(e, RG_COMMAND_OUTSIDE), e8(e, 0), e8(e, 1);
    e8(e, 1 | 4), e8(e, 4u << 5), e8(e, RG_USAGE_SAMPLED_COMPUTE); /* a stale texture */
    s_op(e, OP_COMPILE);
}

/* Eight MSAA colors resolved into single-sample targets and a resolved
 * MSAA depth: every attachment slot of a span. */
static void seed_mrt_resolve(enc *e)
{
    s_att colors[8];
    for (int i = 0; i < 8; i++) {
        s_tex(e, "ms", VK_FORMAT_R16G16B16A16_SFLOAT, 320, 240, 1, 4); /* t 2i */
        s_tex(e, "resolved", VK_FORMAT_R16G16B16A16_SFLOAT, 320, 240, 1, 1); /* t 2i+1 */
        colors[i] = (s_att)ATT(2 * i, LD_CLEAR, ST_DONT, 2 * i + 1);
    }
    s_tex(e, "depth ms", VK_FORMAT_D32_SFLOAT, 320, 240, 1, 4); /* t16 */
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 320, 240, 1, 1);    /* t17 */
    s_drawn(e, "mrt", colors, 8, &(s_att)ATT(16, LD_CLEAR, ST_DONT, 17));
    s_user(e, "composite", RG_COMMAND_OUTSIDE,
           A(T(1, RG_USAGE_SAMPLED_COMPUTE), T(15, RG_USAGE_SAMPLED_COMPUTE), T(17, RG_USAGE_SAMPLED_COMPUTE)));
    s_op(e, OP_COMPILE);
    s_place(e, "Apple silicon, MoltenVK >= 1.2.9");
}

/* Every depth/stencil format: a depth+stencil prepass, each aspect sampled
 * alone, read-only depth spans with each load and store op, a stencil-only
 * and depth-only span, single-aspect copies and a depth blit. */
static void seed_depth_stencil(enc *e)
{
    s_tex(e, "depth stencil", VK_FORMAT_D24_UNORM_S8_UINT, 640, 480, 1, 1); /* t0 */
    s_tex(e, "depth stencil 32", VK_FORMAT_D32_SFLOAT_S8_UINT, 640, 480, 1, 1); /* t1 */
    s_tex(e, "stencil", VK_FORMAT_S8_UINT, 640, 480, 1, 1);          /* t2 */
    s_tex(e, "depth16", VK_FORMAT_D16_UNORM, 640, 480, 1, 1);        /* t3 */
    s_tex(e, "depth32", VK_FORMAT_D32_SFLOAT, 640, 480, 1, 1);       /* t4 */
    s_tex(e, "depth32 copy", VK_FORMAT_D32_SFLOAT, 640, 480, 1, 1);  /* t5 */
    s_tex(e, "color", VK_FORMAT_R8G8B8A8_UNORM, 640, 480, 1, 1);     /* t6 */
    s_buf(e, "readback", 640 * 480 * 4, true);                       /* b0 */
    s_buf(e, "upload", 640 * 480 * 4, true);                         /* b1 */
    const s_att color = ATT(6, LD_LOAD, ST_STORE, -1);
    s_drawn(e, "prepass", (const s_att[]){ATT(6, LD_CLEAR, ST_STORE, -1)}, 1, &(s_att)ATT(0, LD_CLEAR, ST_STORE, -1));
    s_user(e, "stencil sample", RG_COMMAND_OUTSIDE, A(TA(0, RG_USAGE_SAMPLED_COMPUTE, VK_IMAGE_ASPECT_STENCIL_BIT)));
    s_user(e, "depth sample", RG_COMMAND_OUTSIDE, A(TA(0, RG_USAGE_SAMPLED_COMPUTE, VK_IMAGE_ASPECT_DEPTH_BIT)));
    /* Read-only depth spans back to back, no color: only their load and
     * store ops order them (two pure reads in one layout need not wait). */
    const struct {
        const char *name;
        VkAttachmentLoadOp load;
        VkAttachmentStoreOp store;
    } ro[] = {{"ro load store", LD_LOAD, ST_STORE}, {"ro load none", LD_LOAD, ST_NONE},
              {"ro load none again", LD_LOAD, ST_NONE}, {"ro load dont care", LD_LOAD, ST_DONT},
              {"ro clear none", LD_CLEAR, ST_NONE}};
    for (uint32_t i = 0; i < COUNT(ro); i++) {
        s_span(e, ro[i].name, NULL, 0, &(s_att)ATT(0, ro[i].load, ro[i].store, -1), true);
        s_user(e, "draw", RG_COMMAND_DRAW, NULL, 0);
        s_op(e, OP_END);
    }
    s_user(e, "depth read", RG_COMMAND_OUTSIDE, A(TA(0, RG_USAGE_SAMPLED_COMPUTE, VK_IMAGE_ASPECT_DEPTH_BIT)));
    s_drawn(e, "stencil only", &color, 1, &(s_att)ATT(2, LD_CLEAR, ST_STORE, -1));
    s_drawn(e, "d32s8", NULL, 0, &(s_att)ATT(1, LD_CLEAR, ST_STORE, -1));
    s_user(e, "d32s8 stencil", RG_COMMAND_OUTSIDE, A(TA(1, RG_USAGE_SAMPLED_COMPUTE, VK_IMAGE_ASPECT_STENCIL_BIT)));
    s_drawn(e, "d16", NULL, 0, &(s_att)ATT(3, LD_CLEAR, ST_STORE, -1));
    s_copy(e, false, 0, 0, 3, 0);          /* D16: 2 bytes a texel */
    s_copy(e, false, 0, 640 * 480 * 2, 2, 0); /* S8: 1 byte, at a multiple of 4 */
    s_copy(e, true, 1, 0, 4, 0);           /* D32: 4 bytes */
    s_blit_filter(e, 4, 0, 5, 0, VK_FILTER_NEAREST);
    s_user(e, "depth32 read", RG_COMMAND_OUTSIDE, A(T(5, RG_USAGE_SAMPLED_COMPUTE), T(2, RG_USAGE_SAMPLED_COMPUTE)));
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    s_place(e, "lavapipe");
}

/* Integer colors resolved by SAMPLE_ZERO (named and default) next to a
 * float one by AVERAGE, integer blits by NEAREST, and copies of
 * block-compressed (BC1, BC7, ASTC 12x12, ETC2) and 3-byte formats. */
static void seed_formats(enc *e)
{
    s_tex(e, "ms uint", VK_FORMAT_R8G8B8A8_UINT, 256, 256, 1, 4);          /* t0 */
    s_tex(e, "uint", VK_FORMAT_R8G8B8A8_UINT, 256, 256, 1, 1);             /* t1 */
    s_tex(e, "ms sint", VK_FORMAT_R32G32B32A32_SINT, 256, 256, 1, 4);      /* t2 */
    s_tex(e, "sint", VK_FORMAT_R32G32B32A32_SINT, 256, 256, 1, 1);         /* t3 */
    s_tex(e, "ms hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 256, 256, 1, 4);     /* t4 */
    s_tex(e, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 256, 256, 1, 1);        /* t5 */
    s_tex(e, "bc7", VK_FORMAT_BC7_UNORM_BLOCK, 256, 256, 4, 1);            /* t6 */
    s_tex(e, "astc", VK_FORMAT_ASTC_12x12_UNORM_BLOCK, 100, 100, 1, 1);    /* t7 */
    s_tex(e, "etc2", VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 64, 64, 1, 1);   /* t8 */
    s_tex(e, "bc1", VK_FORMAT_BC1_RGB_UNORM_BLOCK, 128, 128, 1, 1);        /* t9 */
    s_tex(e, "ids", VK_FORMAT_R32_UINT, 256, 256, 1, 1);                   /* t10 */
    s_tex(e, "ids half", VK_FORMAT_R32_UINT, 128, 128, 1, 1);              /* t11 */
    s_tex(e, "uint16", VK_FORMAT_R16G16B16A16_UINT, 256, 256, 1, 1);       /* t12 */
    s_tex(e, "rgb8", VK_FORMAT_R8G8B8_UNORM, 30, 30, 1, 1);                /* t13 */
    s_buf(e, "texels", 1 << 20, true);                                     /* b0 */
    s_buf(e, "readback", 1 << 20, true);                                   /* b1 */
    s_drawn(e, "ids",
            (const s_att[]){ATT(0, LD_CLEAR, ST_DONT, 1, .mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT),
                            ATT(2, LD_CLEAR, ST_DONT, 3),
                            ATT(4, LD_CLEAR, ST_DONT, 5, .mode = VK_RESOLVE_MODE_AVERAGE_BIT)},
            3, NULL);
    s_copy(e, true, 0, 16, 6, 2);      /* BC7 mip 2, 64x64: 16x16 blocks of 16 bytes */
    s_copy(e, true, 0, 65536, 6, 0);   /* and its other mips, which "read" samples too */
    s_copy(e, true, 0, 131072, 6, 1);
    s_copy(e, true, 0, 163840, 6, 3);
    s_copy(e, true, 0, 8192, 7, 0);    /* ASTC 12x12, 100x100: 9x9 blocks */
    s_copy(e, true, 0, 16384, 8, 0);   /* ETC2 RGBA8 */
    s_copy(e, true, 0, 200000, 9, 0);  /* BC1 uploaded, */
    s_copy(e, false, 1, 8, 9, 0);      /* and read back: 8-byte blocks */
    s_copy(e, true, 0, 30000, 13, 0);  /* 3-byte texels at a multiple of 3 */
    s_user(e, "write ids", RG_COMMAND_OUTSIDE, A(T(10, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    s_blit_filter(e, 10, 0, 11, 0, VK_FILTER_NEAREST);
    s_blit_filter(e, 1, 0, 12, 0, VK_FILTER_NEAREST);
    s_user(e, "read", RG_COMMAND_OUTSIDE,
           A(T(3, RG_USAGE_SAMPLED_COMPUTE), T(5, RG_USAGE_SAMPLED_COMPUTE), T(6, RG_USAGE_SAMPLED_COMPUTE),
             T(7, RG_USAGE_SAMPLED_COMPUTE), T(8, RG_USAGE_SAMPLED_COMPUTE), T(11, RG_USAGE_SAMPLED_COMPUTE),
             T(12, RG_USAGE_SAMPLED_COMPUTE), T(13, RG_USAGE_SAMPLED_COMPUTE)));
    s_op(e, OP_COMPILE);
    s_place(e, "Apple silicon, MoltenVK >= 1.2.9");
    s_place(e, "NVIDIA H200");
}

/* Imports with mips and layers rendered into and resolved into at mip and
 * layer > 0; the declaration extended after its placement, compiled and
 * placed again, reset; declared again, extended, the graph destroyed and a
 * new one declared. Ends with an odd byte: a graph without aliasing. */
static void seed_import_mips_extend(enc *e)
{
    s_import_layers(e, "probe", VK_FORMAT_R16G16B16A16_SFLOAT, 128, 128, 4, 6,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);                             /* t0 */
    s_import_layers(e, "cascades", VK_FORMAT_D32_SFLOAT, 1024, 1024, 1, 4, VK_IMAGE_LAYOUT_UNDEFINED, 0,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);                             /* t1 */
    s_tex(e, "ms face", VK_FORMAT_R16G16B16A16_SFLOAT, 32, 32, 1, 4);                      /* t2 */
    s_import_layers(e, "persistent", VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 3, 2, VK_IMAGE_LAYOUT_GENERAL, 0,
                    VK_IMAGE_LAYOUT_GENERAL);                                              /* t3 */
    s_tex(e, "ms depth", VK_FORMAT_D32_SFLOAT, 1024, 1024, 1, 4);                          /* t4 */
    s_buf(e, "scratch", 4096, false);                                                      /* b0 */
    s_drawn(e, "cascade 2", NULL, 0, &(s_att)ATT(1, LD_CLEAR, ST_STORE, -1, .layer = 2));
    s_drawn(e, "cascade 3 resolved", NULL, 0,
            &(s_att)ATT(4, LD_CLEAR, ST_DONT, 1, .resolve_layer = 3, .mode = VK_RESOLVE_MODE_MAX_BIT));
    s_drawn(e, "face 3 mip 1", (const s_att[]){ATT(0, LD_CLEAR, ST_STORE, -1, .mip = 1, .layer = 3)}, 1, NULL);
    s_drawn(e, "face 4 mip 2 resolved",
            (const s_att[]){ATT(2, LD_CLEAR, ST_DONT, 0, .resolve_mip = 2, .resolve_layer = 4)}, 1, NULL);
    s_drawn(e, "persistent", (const s_att[]){ATT(3, LD_LOAD, ST_STORE, -1, .mip = 2, .layer = 1)}, 1, NULL);
    s_user(e, "sample", RG_COMMAND_OUTSIDE, A(T(0, RG_USAGE_SAMPLED_COMPUTE), T(1, RG_USAGE_SAMPLED_COMPUTE)));
    /* Placed, then a span and a compute pass more; compiled and placed again; reset. */
    s_extend(e, "NVIDIA H200", 4, 1);
    s_drawn(e, "late", (const s_att[]){ATT(3, LD_LOAD, ST_STORE, -1, .mip = 1)}, 1, NULL);
    s_user(e, "late compute", RG_COMMAND_OUTSIDE,
           A(T(3, RG_USAGE_STORAGE_READ_COMPUTE), B(0, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    /* Declared again: extended by a created texture and its writer, then destroyed. */
    s_import_layers(e, "probe", VK_FORMAT_R16G16B16A16_SFLOAT, 128, 128, 4, 6, VK_IMAGE_LAYOUT_UNDEFINED, 0,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);                             /* t0 */
    s_drawn(e, "face 5 mip 3", (const s_att[]){ATT(0, LD_CLEAR, ST_STORE, -1, .mip = 3, .layer = 5)}, 1, NULL);
    s_extend(e, "Apple silicon, MoltenVK >= 1.2.9", 2, 2);
    s_tex(e, "late target", VK_FORMAT_R16G16B16A16_SFLOAT, 128, 128, 1, 1);                /* t1 */
    s_user(e, "late write", RG_COMMAND_OUTSIDE,
           A(T(1, RG_USAGE_STORAGE_WRITE_COMPUTE), T(0, RG_USAGE_SAMPLED_COMPUTE)));
    /* A new graph after the destroy. */
    s_tex(e, "a", VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1);
    s_tex(e, "b", VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1);
    s_user(e, "write a", RG_COMMAND_OUTSIDE, A(T(0, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    s_user(e, "a to b", RG_COMMAND_OUTSIDE, A(T(0, RG_USAGE_SAMPLED_COMPUTE), T(1, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    s_op(e, OP_COMPILE);
    s_place(e, "lavapipe");
    s_op(e, OP_FOREIGN), e8(e, 1); /* the odd last byte */
}

/* A frame for the recording oracle's cuts (record_check.h): spans of
 * several draws (chunks cut inside them resume with the span's state), a
 * merged G-buffer and lighting on a tile GPU (cuts between merged spans,
 * and inside them with the local-read state), a history texture whose
 * previous half is read (the first frame clears it, in the first chunk of
 * the first graphics batch), an import rendered at mip 1 layer 2, SSAO on
 * the compute queue and a copy eligible for another queue (batches of
 * their own). The last two bytes: merge ON, local read, an Arm driver;
 * compute and transfer queues, culling off, alias_proven_only. */
static void seed_parallel_cuts(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 640, 360, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, 1);                             /* t1 */
    s_tex(e, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, 640, 360, 1, 1);                        /* t2 */
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 640, 360, 1, 1);                                  /* t3 */
    s_tex(e, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 640, 360, 1, 1);                           /* t4 */
    s_history(e, "taa", VK_FORMAT_R16G16B16A16_SFLOAT, 640, 360);                              /* t5, t6 */
    s_import_layers(e, "probe", VK_FORMAT_R16G16B16A16_SFLOAT, 128, 128, 4, 6,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);                                 /* t7 */
    s_tex(e, "ao", VK_FORMAT_R8G8B8A8_UNORM, 640, 360, 1, 1);                                 /* t8 */
    s_buf(e, "lights", 65536, true);                                                        /* b0 */
    s_buf(e, "exposure", 640 * 360 * 8, false);                                             /* b1 */
    s_begin(e, "probe face", (const s_att[]){ATT(7, LD_LOAD, ST_STORE, -1, .mip = 1, .layer = 2)}, 1, NULL);
    s_user(e, "probe sky", RG_COMMAND_DRAW, NULL, 0);
    s_user(e, "probe terrain", RG_COMMAND_DRAW, NULL, 0);
    s_user(e, "probe trees", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_att g[2] = {ATT(1, LD_CLEAR, ST_STORE, -1), ATT(2, LD_CLEAR, ST_STORE, -1)};
    s_begin(e, "gbuffer", g, 2, &(s_att)ATT(3, LD_CLEAR, ST_STORE, -1));
    s_user(e, "terrain", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_user(e, "buildings", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_user(e, "characters", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_user(e, "foliage", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_op(e, OP_END);
    s_begin(e, "lighting", (const s_att[]){ATT(4, LD_DONT, ST_STORE, -1)}, 1, NULL);
    s_user(e, "sun", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_PIXEL_LOCAL_READ), T(2, RG_USAGE_PIXEL_LOCAL_READ), B(0, RG_USAGE_UNIFORM_FRAGMENT)));
    s_user(e, "point lights", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_PIXEL_LOCAL_READ), T(2, RG_USAGE_PIXEL_LOCAL_READ), B(0, RG_USAGE_UNIFORM_FRAGMENT)));
    s_user(e, "probe light", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_PIXEL_LOCAL_READ), T(2, RG_USAGE_PIXEL_LOCAL_READ), T(7, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_user_q(e, "ssao", RG_COMMAND_OUTSIDE, A(T(3, RG_USAGE_SAMPLED_COMPUTE), T(8, RG_USAGE_STORAGE_WRITE_COMPUTE)),
             RG_QUEUE_COMPUTE);
    s_begin(e, "taa", (const s_att[]){ATT(5, LD_DONT, ST_STORE, -1)}, 1, NULL);
    s_user(e, "reproject", RG_COMMAND_DRAW, A(T(4, RG_USAGE_SAMPLED_FRAGMENT), T(6, RG_USAGE_SAMPLED_FRAGMENT)));
    s_user(e, "ambient occlusion", RG_COMMAND_DRAW, A(T(8, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_begin(e, "present", (const s_att[]){ATT(0, LD_DONT, ST_STORE, -1)}, 1, NULL);
    s_user(e, "tonemap", RG_COMMAND_DRAW, A(T(5, RG_USAGE_SAMPLED_FRAGMENT)));
    s_user(e, "ui", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_copy(e, false, 1, 0, 4, 0);
    s_op(e, OP_COMPILE);
    s_place(e, "Mali, ARM proprietary ([1], [2] uncertain)");
    s_op_bits(e, OP_FOREIGN, 0x70, 0x30), e8(e, 0x0a);
}

static int write_seed(const char *dir, const char *file, void (*fn)(enc *))
{
    enc e = {.n = 0};
    fn(&e);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(e.b, 1, e.n, f) != e.n || fclose(f) != 0) {
        fprintf(stderr, "seeds: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(stderr, "%s: %zu bytes\n", path, e.n);
    LLVMFuzzerTestOneInput(e.b, e.n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0) {
        fz_verbose = 1;
        return write_seed(argv[2], "msaa", seed_msaa) | write_seed(argv[2], "deferred", seed_deferred) |
               write_seed(argv[2], "compute_copy", seed_compute_copy) |
               write_seed(argv[2], "redeclare", seed_redeclare) | write_seed(argv[2], "mrt_resolve", seed_mrt_resolve) |
               write_seed(argv[2], "depth_stencil", seed_depth_stencil) | write_seed(argv[2], "formats", seed_formats) |
               write_seed(argv[2], "import_mips_extend", seed_import_mips_extend) |
               write_seed(argv[2], "deferred_merged", seed_deferred_merged) |
               write_seed(argv[2], "trails", seed_trails) |
               write_seed(argv[2], "async_compute", seed_async_compute) |
               write_seed(argv[2], "history_unread", seed_history_unread) |
               write_seed(argv[2], "merged_lifetimes", seed_merged_lifetimes) |
               write_seed(argv[2], "parallel_cuts", seed_parallel_cuts);
    }
    fz_verbose = getenv("FUZZ_VERBOSE") != NULL;
    fz_dump = getenv("FUZZ_DUMP") != NULL;
    return fuzz_run_files(argc, argv);
}
