/* The standalone build of fuzz_graph.c (FUZZ_STANDALONE): an encoder for
 * the harness's input format, the seed corpus of real frames it writes
 * (--write-seeds DIR), and a main that runs input files. Included at the end
 * of fuzz_graph.c, so it sees the decoder's tables and opcodes. */
#include <errno.h>

typedef struct enc {
    uint8_t b[4096];
    size_t n;
} enc;

static void e8(enc *e, uint32_t v)
{
    if (e->n < sizeof e->b)
        e->b[e->n++] = (uint8_t)v;
}

static void e32(enc *e, uint32_t v)
{
    if (v < 0xE0) {
        e8(e, v);
        return;
    }
    e8(e, 0xF1);
    for (int k = 0; k < 4; k++)
        e8(e, v >> (8 * k));
}

static void e64(enc *e, uint64_t v)
{
    if (v < 0x80) {
        e8(e, (uint32_t)v);
        return;
    }
    e8(e, 0xF1);
    for (int k = 0; k < 8; k++)
        e8(e, (uint32_t)(v >> (8 * k)));
}

static void ename(enc *e, const char *s)
{
    size_t n = strlen(s);
    e8(e, (uint32_t)n + 1);
    for (size_t i = 0; i < n; i++)
        e8(e, (uint8_t)s[i]);
}

static uint32_t index_of(const uint32_t *table, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        if (table[i] == v)
            return i;
    fprintf(stderr, "seeds: value %u not in its table\n", v);
    exit(1);
}

#define EFMT(e, f) e8(e, index_of(formats, COUNT(formats), (uint32_t)(f)))
#define ELAYOUT(e, l) e8(e, index_of(layouts, COUNT(layouts), (uint32_t)(l)))

/* Textures and buffers are named by their index among the current
 * declaration's textures (or buffers), below 32. */
static void s_tex(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips, uint32_t samples)
{
    e8(e, OP_TEX_CREATE);
    ename(e, nm);
    EFMT(e, f);
    e32(e, w), e32(e, h), e32(e, mips), e32(e, 1), e32(e, samples);
    e8(e, RG_TRANSIENT_AUTO);
    e32(e, 0);
}

static void s_import(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, VkImageLayout init,
                     VkPipelineStageFlags2 init_stage, VkImageLayout final)
{
    e8(e, OP_TEX_IMPORT);
    ename(e, nm);
    EFMT(e, f);
    e32(e, w), e32(e, h), e32(e, 1), e32(e, 1), e32(e, 1);
    ELAYOUT(e, init);
    e64(e, init_stage), e64(e, 0);
    ELAYOUT(e, final);
    e64(e, 0), e64(e, 0);
}

static void s_buf(enc *e, const char *nm, uint64_t size, bool import)
{
    e8(e, import ? OP_BUF_IMPORT : OP_BUF_CREATE);
    ename(e, nm);
    e64(e, size);
    if (import)
        e64(e, VK_PIPELINE_STAGE_2_HOST_BIT), e64(e, VK_ACCESS_2_HOST_WRITE_BIT), e64(e, VK_PIPELINE_STAGE_2_HOST_BIT),
            e64(e, VK_ACCESS_2_HOST_READ_BIT);
    else
        e32(e, 0);
}

typedef struct s_acc {
    int tex, buf;                     /* index, -1 */
    rg_usage usage;
} s_acc;

static void s_user(enc *e, const char *nm, rg_command_kind kind, const s_acc *a, uint32_t n)
{
    e8(e, OP_USER);
    ename(e, nm);
    e8(e, kind), e8(e, 0), e8(e, n);
    for (uint32_t i = 0; i < n; i++) {
        e8(e, (a[i].tex >= 0 ? 1u : 0u) | (a[i].buf >= 0 ? 2u : 0u) | 4u); /* whole */
        if (a[i].tex >= 0)
            e8(e, (uint32_t)a[i].tex);
        if (a[i].buf >= 0)
            e8(e, (uint32_t)a[i].buf);
        e8(e, a[i].usage);
    }
}

typedef struct s_att {
    int tex;
    VkAttachmentLoadOp load;
    VkAttachmentStoreOp store;
    int resolve;                      /* -1: none */
} s_att;

static void s_attachment(enc *e, const s_att *a)
{
    e8(e, a->resolve >= 0 ? 1 : 0);
    e8(e, (uint32_t)a->tex);
    e32(e, 0), e32(e, 0), e32(e, 0);
    e8(e, index_of(load_ops, COUNT(load_ops), (uint32_t)a->load));
    e8(e, index_of(store_ops, COUNT(store_ops), (uint32_t)a->store));
    if (a->resolve >= 0) {
        e8(e, (uint32_t)a->resolve);
        e32(e, 0), e32(e, 0), e32(e, 0);
    }
}

static void s_begin(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth)
{
    e8(e, OP_BEGIN);
    ename(e, nm);
    e8(e, n);
    for (uint32_t i = 0; i < n; i++)
        s_attachment(e, &colors[i]);
    e8(e, depth ? 1 : 0);
    if (depth)
        s_attachment(e, depth);
}

static void s_op(enc *e, uint32_t op) { e8(e, op); }

static void s_blit(enc *e, int src, uint32_t src_mip, int dst, uint32_t dst_mip)
{
    e8(e, OP_BLIT);
    e8(e, (uint32_t)src), e32(e, src_mip), e8(e, (uint32_t)dst), e32(e, dst_mip), e32(e, VK_FILTER_LINEAR);
}

static void s_place(enc *e, const char *table)
{
    uint32_t t = 0;
    while (t < device_table_count && strcmp(device_tables[t].name, table) != 0)
        t++;
    e8(e, OP_PLACE), e8(e, t), e8(e, 0); /* recorded requirements as the device would say */
}

#define A(...) ((const s_acc[]){__VA_ARGS__}), (uint32_t)(sizeof((const s_acc[]){__VA_ARGS__}) / sizeof(s_acc))
#define T(i, u) {(i), -1, (u)}
#define B(i, u) {-1, (i), (u)}

/* One span: MSAA color resolved into the swapchain image, transient depth. */
static void seed_msaa(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 1280, 720, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "msaa color", VK_FORMAT_B8G8R8A8_SRGB, 1280, 720, 1, 4);                          /* t1 */
    s_tex(e, "msaa depth", VK_FORMAT_D32_SFLOAT, 1280, 720, 1, 4);                             /* t2 */
    s_begin(e, "scene", (const s_att[]){{1, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, 0}}, 1,
            &(s_att){2, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, -1});
    s_user(e, "draw cubes", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "Apple silicon, MoltenVK >= 1.2.9");
    s_place(e, "NVIDIA H200");
}

/* G-buffer MRT span, a lighting span sampling it, a bloom chain of blits,
 * tonemap into the swapchain image. */
static void seed_deferred(enc *e)
{
    s_import(e, "swapchain", VK_FORMAT_B8G8R8A8_SRGB, 1920, 1080, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR); /* t0 */
    s_tex(e, "albedo", VK_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 1, 1);                            /* t1 */
    s_tex(e, "normal", VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, 1, 1);                       /* t2 */
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 1920, 1080, 1, 1);                                 /* t3 */
    s_tex(e, "hdr", VK_FORMAT_R16G16B16A16_SFLOAT, 1920, 1080, 1, 1);                          /* t4 */
    s_tex(e, "bloom", VK_FORMAT_R16G16B16A16_SFLOAT, 960, 540, 4, 1);                          /* t5 */
    s_buf(e, "camera", 256, false);                                                            /* b0 */
    s_user(e, "upload camera", RG_COMMAND_OUTSIDE, A(B(0, RG_USAGE_STORAGE_WRITE_COMPUTE)));
    const s_att st = {0, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, -1};
    s_att g[2] = {st, st};
    g[0].tex = 1, g[1].tex = 2;
    s_begin(e, "gbuffer", g, 2, &(s_att){3, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, -1});
    s_user(e, "draw scene", RG_COMMAND_DRAW, A(B(0, RG_USAGE_UNIFORM_VERTEX)));
    s_op(e, OP_END);
    s_att h = {4, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE, -1};
    s_begin(e, "lighting", &h, 1, NULL);
    s_user(e, "fullscreen light", RG_COMMAND_DRAW,
           A(T(1, RG_USAGE_SAMPLED_FRAGMENT), T(2, RG_USAGE_SAMPLED_FRAGMENT), T(3, RG_USAGE_SAMPLED_FRAGMENT),
             B(0, RG_USAGE_UNIFORM_FRAGMENT)));
    s_op(e, OP_END);
    s_blit(e, 4, 0, 5, 0);
    s_blit(e, 5, 0, 5, 1);
    s_blit(e, 5, 1, 5, 2);
    s_blit(e, 5, 2, 5, 3);
    s_att sc = {0, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE, -1};
    s_begin(e, "tonemap", &sc, 1, NULL);
    s_user(e, "tonemap", RG_COMMAND_DRAW, A(T(4, RG_USAGE_SAMPLED_FRAGMENT), T(5, RG_USAGE_SAMPLED_FRAGMENT)));
    s_op(e, OP_END);
    s_op(e, OP_COMPILE);
    s_place(e, "NVIDIA H200");
    s_place(e, "lavapipe");
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
        s_begin(e, "pass", (const s_att[]){{0, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, -1}}, 1,
                &(s_att){1, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, -1});
        s_user(e, "draw", RG_COMMAND_DRAW, NULL, 0);
        s_op(e, OP_END);
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
        colors[i] = (s_att){2 * i, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, 2 * i + 1};
    }
    s_tex(e, "depth ms", VK_FORMAT_D32_SFLOAT, 320, 240, 1, 4); /* t16 */
    s_tex(e, "depth", VK_FORMAT_D32_SFLOAT, 320, 240, 1, 1);    /* t17 */
    s_begin(e, "mrt", colors, 8, &(s_att){16, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, 17});
    s_user(e, "draw", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
    s_user(e, "composite", RG_COMMAND_OUTSIDE,
           A(T(1, RG_USAGE_SAMPLED_COMPUTE), T(15, RG_USAGE_SAMPLED_COMPUTE), T(17, RG_USAGE_SAMPLED_COMPUTE)));
    s_op(e, OP_COMPILE);
    s_place(e, "Apple silicon, MoltenVK >= 1.2.9");
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
    run_input(e.b, e.n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0) {
        verbose = 1;
        return write_seed(argv[2], "msaa", seed_msaa) | write_seed(argv[2], "deferred", seed_deferred) |
               write_seed(argv[2], "compute_copy", seed_compute_copy) |
               write_seed(argv[2], "redeclare", seed_redeclare) | write_seed(argv[2], "mrt_resolve", seed_mrt_resolve);
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s --write-seeds DIR | FILE...\n", argv[0]);
        return 2;
    }
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fprintf(stderr, "%s: %zu bytes\n", argv[i], n);
        run_input(buf, n);
    }
    return 0;
}
